package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import koma.rules.notation.Fen;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one walk over the move tables ({@link MoveTables#reach}) against the tables compiled separately for attack
 * detection (line ranges and jump sources, read by {@link Position#attacked}): on every position of the seeded
 * random walks, a square is attacked by a colour exactly when the walk of one of that colour's pieces, in
 * {@link MoveTables#ATTACKS} mode, lists it. Also the piece code every table is indexed by: the code on each
 * occupied square is {@link Position#pieceCode} of its colour and type, below {@link Position#pieceCodeCount}.
 * Expected values come from the other half of each pair, never from a fixed number.
 */
class MoveTablesWalkTest {
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void walkAgreesWithAttackTables(String id) {
        List<Position> positions = RandomWalks.positions(id);
        assertTrue(positions.size() > 50, "too few positions to mean anything: " + positions.size());
        MoveTables t = positions.get(0).t;
        int[] out = new int[t.maxReach];
        int checked = 0;
        for (Position p : positions) {
            int squares = p.geometry().squares;
            boolean[][] reached = new boolean[2][squares];
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < p.pieceCount(c); i++) {
                    int from = p.pieceSquare(c, i);
                    int n = t.reach(p.board, p.codeAt(from), from, MoveTables.ANY_COLOR, MoveTables.ATTACKS, out);
                    for (int k = 0; k < n; k++) {
                        reached[c][out[k] & MoveTables.TARGET_SQUARE] = true;
                    }
                }
            }
            for (int c = 0; c < 2; c++) {
                for (int sq = 0; sq < squares; sq++) {
                    final int color = c, s = sq;
                    assertEquals(p.attacked(sq, c), reached[c][sq], () -> "square " + p.geometry().squareName(s)
                            + " attacked by colour " + color + " in " + Fen.format(p));
                    checked++;
                }
            }
        }
        assertTrue(checked > 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void pieceCodeIsTheBoardsCode(String id) {
        RuleSet rs = RuleSet.of(id);
        for (Position p : RandomWalks.positions(id)) {
            for (int sq = 0; sq < rs.geometry.squares; sq++) {
                if (p.isEmpty(sq)) {
                    assertEquals(0, p.codeAt(sq));
                    continue;
                }
                int code = Position.pieceCode(p.colorAt(sq), p.typeAt(sq));
                assertEquals(code, p.codeAt(sq));
                assertTrue(code >= 2 && code < Position.pieceCodeCount(rs), "code " + code + " out of range");
            }
        }
    }
}
