package koma.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/** The engine facade: a legal move at any level, mate found by the analysis, MultiPV lines best first. */
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

    @Test
    void multiPvGivesDistinctLinesBestFirst() {
        // the mate in one above: a1a8 mates (the back rank is walled by the f7-g7-h7 pawns), so it leads at mate 1;
        // the other lines start with other moves and score below it
        Position p = Position.fromFen(RuleSet.of("chess"), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        List<EnginePlayer.Analysis> lines = new EnginePlayer(p.ruleSet()).analyse(p, 6, 2_000, 3);
        assertEquals(3, lines.size());
        assertEquals(1, lines.get(0).mateIn());
        assertEquals("a1a8", MoveNotation.formatUci(p, lines.get(0).pv()[0]));
        Set<Integer> first = new HashSet<>();
        for (EnginePlayer.Analysis a : lines) {
            assertTrue(p.isLegal(a.pv()[0]));
            assertTrue(first.add(a.pv()[0]), "each line starts with its own move");
            assertEquals(lines.get(0).depth(), a.depth(), "all lines from one iteration");
        }
        assertEquals(0, lines.get(1).mateIn());
        assertTrue(lines.get(1).scoreCp() >= lines.get(2).scoreCp() || lines.get(2).mateIn() < 0);
    }

    @Test
    void multiPvReportsNoMoreLinesThanLegalMoves() {
        // a lone king on a1 against a lone king on h8 has three moves (a2, b1, b2): five lines asked, three given
        Position p = Position.fromFen(RuleSet.of("chess"), "7k/8/8/8/8/8/8/K7 w - - 0 1");
        assertEquals(3, new EnginePlayer(p.ruleSet()).analyse(p, 4, 2_000, 5).size());
        Position mated = Position.fromFen(RuleSet.of("chess"), "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
        assertTrue(new EnginePlayer(mated.ruleSet()).analyse(mated, 4, 200, 2).isEmpty());
        assertThrows(IllegalArgumentException.class, () -> new EnginePlayer(p.ruleSet()).analyse(p, 4, 100, 0));
    }
}
