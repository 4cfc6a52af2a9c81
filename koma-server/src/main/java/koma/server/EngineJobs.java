package koma.server;

import java.util.ArrayList;
import java.util.List;

import koma.engine.EnginePlayer;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * The one place that turns an {@link EngineJob} into engine calls: rebuilds the position from the job's start
 * position and moves (so the search sees the repetition history), runs {@link EnginePlayer} and writes the answer as
 * move strings. Used by the local engine threads and by {@code koma worker} alike; it holds no state.
 */
public final class EngineJobs {
    private EngineJobs() {
    }

    /**
     * Runs a job on the calling thread; it returns within about the job's time. Throws IllegalArgumentException naming
     * the field when the start position does not parse or a move is not legal where it is played.
     */
    public static EngineResult run(EngineJob job) {
        Position p = position(job);
        EnginePlayer engine = new EnginePlayer(p.ruleSet());
        if (job.kind() == EngineJob.Kind.MOVE) {
            if (!p.hasLegalMove()) {
                return new EngineResult(null, List.of());
            }
            int best = engine.bestMove(p, job.level(), job.timeMs(), job.seed());
            return new EngineResult(best == Move.NONE ? null : MoveNotation.formatUci(p, best), List.of());
        }
        int depth = job.depth() == 0 ? EngineJob.MAX_DEPTH : job.depth();
        List<EngineResult.Line> lines = new ArrayList<>();
        if (p.hasLegalMove()) {
            for (EnginePlayer.Analysis a : engine.analyse(p, depth, job.timeMs(), job.multiPv())) {
                lines.add(new EngineResult.Line(a.depth(), a.mateIn() != 0 ? null : a.scoreCp(),
                        a.mateIn() != 0 ? a.mateIn() : null, moveStrings(p, a.pv())));
            }
        }
        String best = lines.isEmpty() || lines.get(0).pv().isEmpty() ? null : lines.get(0).pv().get(0);
        return new EngineResult(best, lines);
    }

    /** The job's position: its start position with its moves played. */
    public static Position position(EngineJob job) {
        RuleSet rs = RuleSet.of(job.rules());
        Position p;
        try {
            p = Fen.parse(rs, job.fen());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fen: " + e.getMessage(), e);
        }
        List<String> moves = job.moves();
        for (int i = 0; i < moves.size(); i++) {
            int m;
            try {
                m = MoveNotation.parseUci(p, moves.get(i));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("moves[" + i + "]: " + e.getMessage(), e);
            }
            p.doMove(m);
        }
        return p;
    }

    /** A principal variation as move strings, up to its first move that is not legal (none should be). */
    static List<String> moveStrings(Position root, int[] pv) {
        List<String> out = new ArrayList<>(pv.length);
        Position q = root.copy();
        for (int m : pv) {
            if (m == Move.NONE || !q.isLegal(m)) {
                break;
            }
            out.add(MoveNotation.formatUci(q, m));
            q.doMove(m);
        }
        return out;
    }
}
