package koma.server;

import java.util.List;

import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * One piece of engine work, self-contained so that it can travel to a worker as JSON (Jackson): the rule set, the
 * game's start position ({@code fen}, FEN or SFEN as the rules core formats it) and the moves played since (UCI-style
 * move strings, RULES.md 9.3, so that the search knows the repetition history), and what to do there.
 * {@link Kind#MOVE}: the computer's move at Skill Level {@code level} (0..20) thinking {@code timeMs}, its mistakes
 * varied by {@code seed}. {@link Kind#ANALYSIS}: the {@code multiPv} best lines at full strength. Both stop at
 * {@code timeMs} or at {@code depth} plies when it is not 0. Checked on construction; the position and moves are
 * checked when the job runs ({@link EngineJobs#run}). Whatever fails throws IllegalArgumentException naming the field.
 */
public record EngineJob(Kind kind, String rules, String fen, List<String> moves, int level, long timeMs, int depth,
                        int multiPv, long seed) {
    /** What a job asks for. */
    public enum Kind {
        /** The computer's move at a Skill level. */
        MOVE,
        /** Full-strength lines (MultiPV). */
        ANALYSIS
    }

    /** Most moves a job's history may hold (a long shogi game has a few hundred). */
    public static final int MAX_MOVES = 4_000;
    /** Longest think time a job may ask for: a minute. */
    public static final long MAX_TIME_MS = 60_000;
    /** Deepest search a job may ask for (the search's own bound is deeper; this keeps a job's cost in sight). */
    public static final int MAX_DEPTH = 64;
    /** Most lines an analysis may ask for. */
    public static final int MAX_MULTI_PV = 16;

    public EngineJob {
        if (kind == null) {
            throw new IllegalArgumentException("kind: must be MOVE or ANALYSIS");
        }
        if (rules == null || !RuleSet.IDS.contains(rules)) {
            throw new IllegalArgumentException("rules: unknown rule set '" + rules + "'; known: "
                    + String.join(", ", RuleSet.IDS));
        }
        if (fen == null || fen.isBlank() || fen.length() > Fen.MAX_LENGTH) {
            throw new IllegalArgumentException("fen: must be a FEN or SFEN of 1 to " + Fen.MAX_LENGTH + " characters");
        }
        if (moves == null) {
            throw new IllegalArgumentException("moves: must be a list of move strings (empty at the start)");
        }
        if (moves.size() > MAX_MOVES) {
            throw new IllegalArgumentException("moves: at most " + MAX_MOVES + ", got " + moves.size());
        }
        for (int i = 0; i < moves.size(); i++) {
            String m = moves.get(i);
            if (m == null || m.isEmpty() || m.length() > 16) {
                throw new IllegalArgumentException("moves[" + i + "]: must be a move string of 1 to 16 characters");
            }
        }
        if (level < 0 || level > 20 || kind == Kind.ANALYSIS && level != 0) {
            throw new IllegalArgumentException("level: must be 0..20 for MOVE and 0 for ANALYSIS, got " + level);
        }
        if (timeMs < 1 || timeMs > MAX_TIME_MS) {
            throw new IllegalArgumentException("timeMs: must be 1.." + MAX_TIME_MS + ", got " + timeMs);
        }
        if (depth < 0 || depth > MAX_DEPTH) {
            throw new IllegalArgumentException("depth: must be 0 (no limit) to " + MAX_DEPTH + ", got " + depth);
        }
        if (multiPv < 1 || multiPv > MAX_MULTI_PV || kind == Kind.MOVE && multiPv != 1) {
            throw new IllegalArgumentException("multiPv: must be 1.." + MAX_MULTI_PV + " for ANALYSIS and 1 for MOVE, got "
                    + multiPv);
        }
        moves = List.copyOf(moves);
    }

    /** The computer's move at {@code level} after {@code moves} from {@code fen}. */
    public static EngineJob move(String rules, String fen, List<String> moves, int level, long timeMs, long seed) {
        return new EngineJob(Kind.MOVE, rules, fen, moves, level, timeMs, 0, 1, seed);
    }

    /** The {@code multiPv} best lines after {@code moves} from {@code fen}, to {@code depth} (0: none) or {@code timeMs}. */
    public static EngineJob analysis(String rules, String fen, List<String> moves, long timeMs, int depth, int multiPv) {
        return new EngineJob(Kind.ANALYSIS, rules, fen, moves, 0, timeMs, depth, multiPv, 0);
    }
}
