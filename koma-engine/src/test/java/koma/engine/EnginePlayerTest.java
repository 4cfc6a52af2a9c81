package koma.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/** The engine facade: a legal move at any level, mate found by the analysis. */
class EnginePlayerTest {
    @Test
    void bestMoveIsLegalAtTheWeakestAndStrongestLevel() {
        RuleSet rs = RuleSet.of("shogi");
        Position start = Position.start(rs);
        EnginePlayer player = new EnginePlayer(rs);
        for (int level : new int[]{0, 20}) {
            int m = player.bestMove(start, level, 100, 7);
            assertTrue(start.isLegal(m), "level " + level);
        }
        Position mated = Position.fromFen(RuleSet.of("chess"), "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assertEquals(Move.NONE, new EnginePlayer(mated.ruleSet()).bestMove(mated, 20, 50, 1));
    }

    @Test
    void analysisFindsAMateInOne() {
        Position p = Position.fromFen(RuleSet.of("chess"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        EnginePlayer.Analysis a = new EnginePlayer(p.ruleSet()).analyse(p, 8, 2_000);
        assertEquals(1, a.mateIn());
        assertEquals("a1a8", MoveNotation.formatUci(p, a.pv()[0]));
    }
}
