package koma.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import koma.rules.PieceDiagram.Mode;
import koma.rules.PieceDiagram.Step;

/** Piece diagrams from the Betza definitions of the built-in rule sets. */
class PieceDiagramTest {
    private static List<Step> steps(String rules, String letter) {
        RuleSet rs = RuleSet.of(rules);
        return PieceDiagram.of(rs.piece(rs.typeOf(letter)));
    }

    @Test
    void chessPawnMovesCapturesAndDoubleStepsApart() {
        List<Step> pawn = steps("chess", "P");
        assertTrue(pawn.contains(new Step(0, 1, 1, Mode.MOVE, false, false)), pawn.toString());
        assertTrue(pawn.contains(new Step(1, 1, 1, Mode.CAPTURE, false, false)), pawn.toString());
        assertTrue(pawn.contains(new Step(-1, 1, 1, Mode.CAPTURE, false, false)), pawn.toString());
        // the double step is a lame leap from the initial squares: not a jump
        assertTrue(pawn.contains(new Step(0, 2, 1, Mode.MOVE, false, true)), pawn.toString());
        assertEquals(4, pawn.size());
    }

    @Test
    void slidersAndLeapers() {
        List<Step> rook = steps("chess", "R");
        assertEquals(4, rook.size());
        assertTrue(rook.stream().allMatch(s -> s.range() == 0 && s.mode() == Mode.BOTH && !s.jump()));
        List<Step> knight = steps("shogi", "N");
        // the shogi knight (ffN) jumps two forward and one aside, both ways
        assertEquals(List.of(-1, 1), knight.stream().map(Step::dx).sorted().toList());
        assertTrue(knight.stream().allMatch(s -> s.dy() == 2 && s.jump()));
        List<Step> lance = steps("shogi", "L");
        assertEquals(List.of(new Step(0, 1, 0, Mode.BOTH, false, false)), lance);
    }
}
