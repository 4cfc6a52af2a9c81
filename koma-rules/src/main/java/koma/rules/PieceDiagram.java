package koma.rules;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A piece's movement on an empty board, for diagrams (the web app's rules page): one entry per direction with
 * the unit step, how far it goes, whether it moves, captures or both, and whether it jumps. Built from the
 * piece's parsed Betza definition, the same moves the move tables are compiled from.
 */
public final class PieceDiagram {
    /** What a step may do: go to an empty square, capture, or both. */
    public enum Mode { MOVE, CAPTURE, BOTH }

    /**
     * One direction: unit step {@code (dx, dy)} with dy > 0 forward for the owner, {@code range} steps
     * (0 = unlimited), {@code jump} for a leap over anything in between, {@code initial} for a move allowed
     * only from the piece's initial squares (the pawn's double step).
     */
    public record Step(int dx, int dy, int range, Mode mode, boolean jump, boolean initial) {
    }

    private PieceDiagram() {
    }

    /** The steps of one piece type; entries for the same vector that only move and only capture are merged. */
    public static List<Step> of(PieceType piece) {
        Map<String, boolean[]> modes = new LinkedHashMap<>();
        Map<String, Betza.Move> first = new LinkedHashMap<>();
        for (Betza.Move m : piece.moves()) {
            boolean jump = m.jump() && !m.lame();
            int range = m.range() == Betza.UNLIMITED ? 0 : m.range();
            String key = m.dx() + "," + m.dy() + "," + range + "," + jump + "," + m.initialOnly();
            boolean[] mc = modes.computeIfAbsent(key, k -> new boolean[2]);
            mc[0] |= m.canMove();
            mc[1] |= m.canCapture();
            first.putIfAbsent(key, m);
        }
        List<Step> out = new ArrayList<>();
        for (Map.Entry<String, Betza.Move> e : first.entrySet()) {
            Betza.Move m = e.getValue();
            boolean[] mc = modes.get(e.getKey());
            Mode mode = mc[0] && mc[1] ? Mode.BOTH : mc[0] ? Mode.MOVE : Mode.CAPTURE;
            out.add(new Step(m.dx(), m.dy(), m.range() == Betza.UNLIMITED ? 0 : m.range(), mode,
                    m.jump() && !m.lame(), m.initialOnly()));
        }
        return out;
    }
}
