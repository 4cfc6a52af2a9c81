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
        List<Position> positions = new java.util.ArrayList<>(RandomWalks.positions(id));
        for (PerftSuiteTest.Case c : PerftSuiteTest.load(id)) {
            positions.add(PerftSuiteTest.position(c));
        }
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

    @ParameterizedTest
    @ValueSource(strings = {"shogi", "washogi", "washogi-drops"})
    void largerBoardsAndDropGamesUseTheTables(String id) {
        assertTrue(!Position.start(RuleSet.of(id)).usesBitboards());
    }
}
