package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import koma.rules.notation.Fen;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Position#codeCount}, kept by every board edit: on every position of every rule set's random walks, and
 * after each legal move there (captures, promotions, drops, castling, en passant) and its undo, each code's count is
 * the number of squares that hold it, and a copy counts the same.
 */
class CodeCountTest {
    @ParameterizedTest
    @MethodSource("koma.rules.RandomWalks#ids")
    void countsMatchTheBoard(String id) {
        int checked = 0;
        for (Position p : RandomWalks.positions(id)) {
            assertCounts(p, id + " " + Fen.format(p));
            assertCounts(p.copy(), id + " copy of " + Fen.format(p));
            for (int m : p.legalMoves()) {
                p.doMove(m);
                assertCounts(p, id + " after a move from the walk");
                p.undoMove();
                checked++;
            }
            assertCounts(p, id + " after the undos " + Fen.format(p));
        }
        assertTrue(checked > 0, id);
    }

    private static void assertCounts(Position p, String where) {
        Geometry g = p.geometry();
        int[] seen = new int[Position.pieceCodeCount(p.ruleSet())];
        for (int sq = 0; sq < g.squares; sq++) {
            if (!p.isEmpty(sq)) {
                seen[p.codeAt(sq)]++;
            }
        }
        for (int code = 0; code < seen.length; code++) {
            assertEquals(seen[code], p.codeCount(code), where + ": code " + code);
        }
    }
}
