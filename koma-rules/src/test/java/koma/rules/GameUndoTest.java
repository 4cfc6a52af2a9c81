package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Game#undo}: the position, the repetition counts and a finished result go back with the move. */
class GameUndoTest {
    private static final String SHUFFLE = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";

    @Test
    void undoRewindsPositionAndRepetitionCounts() {
        Game g = EndRulesTest.play(EndRulesTest.game("chess", null), SHUFFLE);
        // the start position stands for the third time (at the start, after ply 4, after ply 8): claimable
        assertEquals(3, g.occurrences());
        assertTrue(g.canClaimDraw());
        g.undo();
        // back after ply 7 (Ng1, Nf6, Black to move), a position seen after ply 3 and ply 7: twice
        assertEquals(2, g.occurrences());
        assertFalse(g.canClaimDraw());
        assertEquals(7, g.moves().size());
        Game seven = EndRulesTest.play(EndRulesTest.game("chess", null), "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        assertEquals(seven.position().toString(), g.position().toString());
        assertEquals(seven.position().repetitionKey(), g.position().repetitionKey());
        // played again, the count is three again: the counts were rewound, not left behind
        EndRulesTest.play(g, "f6g8");
        assertEquals(3, g.occurrences());
        for (int i = 0; i < 8; i++) {
            g.undo();
        }
        assertEquals(1, g.occurrences());
        assertEquals(Position.start(RuleSet.of("chess")).toString(), g.position().toString());
        assertThrows(IllegalStateException.class, g::undo);
    }

    @Test
    void undoOfAMatingMoveReopensTheGame() {
        Game g = EndRulesTest.play(EndRulesTest.game("chess", null), "f2f3 e7e5 g2g4 d8h4");
        assertTrue(g.isOver());
        g.undo();
        assertFalse(g.isOver());
        assertEquals(3, g.moves().size());
        // another move may be played instead
        EndRulesTest.play(g, "d8e7");
        assertFalse(g.isOver());
    }
}
