package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bitboard answers the evaluation reads, against the table walk on every position of the random walks of the
 * rule sets with bitboards: {@link Position#mobility} (counted on bitboards there) is the walk's count for every
 * piece, and {@link Position#attackBits} holds exactly the squares whose attackers ({@link Position#attackers}, by
 * the walk) include the piece.
 */
class AttackBitsTest {
    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void bitboardsAgreeWithTheTableWalk(String id) {
        RuleSet rs = RuleSet.of(id);
        int positions = 0, pieces = 0, attacks = 0;
        for (Position p : RandomWalks.positions(id)) {
            if (!p.hasBitboards()) {
                continue;
            }
            positions++;
            int squares = rs.geometry.squares;
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < p.pieceCount(c); i++) {
                    int sq = p.pieceSquare(c, i);
                    pieces++;
                    int s0 = sq;
                    assertEquals(p.mobilityByWalk(sq), p.mobility(sq), () -> id + " " + p + " mobility of " + s0);
                    assertEquals(p.attackBits(sq), p.attackBitsAs(p.codeAt(sq), sq), () -> id + " " + p + " as " + s0);
                }
            }
            for (int sq = 0; sq < squares; sq++) {
                for (int by = 0; by < 2; by++) {
                    Set<Integer> byWalk = new HashSet<>(p.attackers(sq, by));
                    Set<Integer> byBits = new HashSet<>();
                    for (int i = 0; i < p.pieceCount(by); i++) {
                        int from = p.pieceSquare(by, i);
                        if ((p.attackBits(from) >>> sq & 1) != 0) {
                            byBits.add(from);
                        }
                    }
                    attacks += byWalk.size();
                    int s0 = sq;
                    assertEquals(byWalk, byBits, () -> id + " " + p + " attackers of " + s0);
                }
            }
        }
        if (List.of("chess", "shodo", "shodo-deathmatch").contains(id)) {
            assertTrue(positions > 0 && pieces > 0 && attacks > 0, id + " has bitboards: its walks must be checked");
        }
    }

    /**
     * Check squares, as the evaluation finds them: a piece of type t and colour c on {@code from} attacks the square
     * k exactly when the piece of type t and the other colour, put on k, attacks {@code from} (every piece of the
     * rule sets with bitboards moves the same to the left as to the right). Checked for every piece type and colour
     * at every enemy king of the random walks, against where the type's piece actually stands.
     */
    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void aPieceOnTheKingsSquareShowsTheCheckSquares(String id) {
        RuleSet rs = RuleSet.of(id);
        int checked = 0;
        for (Position p : RandomWalks.positions(id)) {
            if (!p.hasBitboards()) {
                continue;
            }
            for (int c = 0; c < 2; c++) {
                int k = p.kingSquare(c ^ 1);
                if (k < 0) {
                    continue;
                }
                for (int i = 0; i < p.pieceCount(c); i++) {
                    int from = p.pieceSquare(c, i);
                    int type = p.typeAt(from);
                    boolean attacks = (p.attackBits(from) >>> k & 1) != 0;
                    boolean seen = (p.attackBitsAs(Position.pieceCode(c ^ 1, type), k) >>> from & 1) != 0;
                    int f0 = from;
                    assertEquals(attacks, seen, () -> id + " " + p + " piece on " + f0 + " and the king on " + k);
                    checked++;
                }
            }
        }
        if (List.of("chess", "shodo").contains(id)) {
            assertTrue(checked > 0, id + " has bitboards and kings: they must be checked");
        }
    }
}
