package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import koma.rules.notation.Fen;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bitboard generator (boards of at most 64 squares without drops) must produce exactly the moves of the
 * table-walk generator that every rule set uses, and its count-only mode must agree with both, on every
 * position of the seeded random walks and on the perft suite positions.
 */
class BitboardCrossCheckTest {
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shodo", "shodo-deathmatch"})
    void bitboardMovesEqualTableMoves(String id) throws Exception {
        List<Position> positions = positions(id);
        assertTrue(positions.get(0).usesBitboards(), id + " should generate with bitboards");
        for (Position p : positions) {
            int[] a = p.newMoveBuffer(), b = p.newMoveBuffer();
            int na = p.legalMoves(a), nb = p.generateByTables(b);
            int[] sa = Arrays.copyOf(a, na), sb = Arrays.copyOf(b, nb);
            Arrays.sort(sa);
            Arrays.sort(sb);
            assertEquals(Arrays.toString(sb), Arrays.toString(sa), () -> "moves differ in " + Fen.format(p));
            assertEquals(nb, p.countLegal(p.newMoveBuffer()), () -> "count differs in " + Fen.format(p));
        }
    }

    /**
     * The bitboard attack test (jump masks and line attacks, the check and king-move test of the bitboard rule
     * sets) against the table walk, for every square and colour of every random-walk and perft-suite position.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shodo", "shodo-deathmatch"})
    void bitboardAttacksEqualTableAttacks(String id) throws Exception {
        List<Position> positions = positions(id);
        int attacked = 0, tests = 0;
        for (Position p : positions) {
            for (int sq = 0; sq < p.rs.geometry.squares; sq++) {
                for (int by = 0; by < 2; by++) {
                    boolean walk = p.attacked(sq, by);
                    int s0 = sq, b0 = by;
                    assertEquals(walk, p.attackedByBitboards(sq, by),
                            () -> "attacked(" + s0 + ", " + b0 + ") differs in " + Fen.format(p));
                    attacked += walk ? 1 : 0;
                    tests++;
                }
            }
        }
        assertTrue(attacked > 0 && attacked < tests, id + ": the positions must hold attacked and safe squares");
    }

    /** The rule set's random-walk positions and its perft suite's positions. */
    private static List<Position> positions(String id) throws Exception {
        List<Position> positions = new java.util.ArrayList<>(RandomWalks.positions(id));
        for (PerftSuiteTest.Case c : PerftSuiteTest.load(id)) {
            positions.add(PerftSuiteTest.position(c));
        }
        return positions;
    }

    @ParameterizedTest
    @ValueSource(strings = {"shogi", "washogi", "washogi-drops"})
    void largerBoardsAndDropGamesUseTheTables(String id) {
        assertTrue(!Position.start(RuleSet.of(id)).usesBitboards());
    }
}
