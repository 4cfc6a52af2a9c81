package koma.server;

import java.util.List;

/**
 * What an {@link EngineJob} found, as JSON-ready values (it travels back from a worker): the move to play
 * ({@code bestMove}, a UCI-style move string; null when the side to move has no legal move) and, for an analysis, the
 * lines best first (MultiPV). A {@link EngineJob.Kind#MOVE} job reports no lines (the Skill level picks among the
 * search's moves; its lines are not the move's reasons).
 */
public record EngineResult(String bestMove, List<Line> lines) {
    /**
     * One line: the depth it was searched to, its score from the side to move's view, either {@code cp} centipawns
     * or {@code mate} in that many moves (negative: the side to move is mated; the other one is null), and its
     * moves as move strings from the job's position.
     */
    public record Line(int depth, Integer cp, Integer mate, List<String> pv) {
        public Line {
            if ((cp == null) == (mate == null)) {
                throw new IllegalArgumentException("line: exactly one of cp and mate, got cp " + cp + ", mate " + mate);
            }
            pv = pv == null ? List.of() : List.copyOf(pv);
        }
    }

    public EngineResult {
        lines = lines == null ? List.of() : List.copyOf(lines);
    }
}
