package koma.engine;

import java.util.Map;
import java.util.Set;

/**
 * A rule set's defaults for the search's settings, read from {@code koma/engine/<rule set>.search} beside its .eval
 * weights (the same {@code KEY = VALUE} text, {@link EvalWeights#parse}); a rule set without the file takes 0 for
 * each. Keys: {@code contempt}, the draw value in centipawns against the side the engine searches for
 * ({@link Search#setContempt}), from -{@link Search#MAX_CONTEMPT} to {@link Search#MAX_CONTEMPT}: what a
 * {@link Search} starts with and keeps until the Contempt option is given; {@code log-reductions}, 1 for late-move
 * reductions from the logarithmic table (0.75 + ln depth x ln move number / 2.25, as in Stockfish and Ethereal),
 * 0 (the default) for one ply, two from the 8th move, three from the 16th at depth 8 or more; {@code lmp-depth}, the
 * largest remaining depth at which late quiet moves are pruned (3 + depth squared of them are searched; default
 * {@link #LMP_DEPTH}, at most {@link #MAX_PRUNE_DEPTH}); {@code futility-depth}, the largest at which quiet moves
 * are pruned when the static evaluation is far below alpha (default {@link #FUTILITY_DEPTH}, at most
 * {@code lmp-depth}); {@code safe-check-extension}, 1 to extend only checks that lose nothing by static exchange
 * (Stockfish's rule; a check that hangs the checking piece is searched to the normal depth), 0 (the default) to
 * extend every check; {@code continuation-history}, 1 to keep a continuation history (how well a quiet move did
 * after each move of the piece that moved one and two plies before it, Stockfish's), added to the history in quiet
 * move ordering and in late-move reductions, 0 (the default) to go without; {@code singular-extension}, 1 to extend
 * the hash move by one ply when a shallower search of every other move fails low by a margin (and to cut off when
 * that search already beats beta: multi-cut), 0 (the default) to go without; {@code check-extension-depth}, the
 * smallest remaining depth at which a position in check is searched one ply deeper (0, the default: every check,
 * and a check at the horizon gets a full-width ply; Fairy-Stockfish extends a check only above depth 6, so that the
 * many checking drops of the shogi family near the leaves do not widen the tree; a check below the setting is
 * answered in quiescence, which searches every evasion); {@code cut-node-reduction}, plies more of late-move
 * reduction for a quiet move at an expected cut node (a non-PV node whose parent expects it to fail high: the child
 * of a reduced search, and every other full-depth child below one; Stockfish adds 2), from 0 (the default) to
 * {@link #MAX_CUT_NODE_REDUCTION}; {@code qsearch-moves}, how many captures (in the ordering's order, promotions
 * apart) a quiescence node not in check looks at, from 1 to {@link #MAX_QSEARCH_MOVES} (Fairy-Stockfish looks at
 * two), or 0 (the default) for every one; {@code losing-check-depth}, the largest remaining depth at which a quiet
 * move or drop that gives check is not searched when it loses material by static exchange (the margin of quiet
 * moves), as a move that does not give check would not be, from 0 (the default: every such check searched) to
 * {@link Search#SEE_PRUNE_DEPTH}, the deepest static-exchange pruning; {@code qsearch-captures-only}, 1 for a
 * quiescence search of captures alone (capturing promotions among them), as Fairy-Stockfish's, 0 (the default) to
 * search quiet promotions there too; {@code probcut-margin}, in centipawns: at a non-PV node of remaining depth
 * {@link Search#PROBCUT_DEPTH} or more, a capture that wins at least this much over beta by static exchange, confirmed
 * by quiescence and then by a search four plies shallower against beta plus the margin, cuts the node off
 * (Stockfish's ProbCut), from 0 (the default: off) to {@link #MAX_PROBCUT_MARGIN}; {@code evasion-prune-depth},
 * the largest remaining depth at which a non-PV node in check, once one evasion has been searched without being
 * mated, skips a quiet evasion (a king step or an interposition) that does not give check when it loses material by
 * static exchange or comes after 3 + depth squared quiet evasions (Fairy-Stockfish prunes evasions as any other
 * move), from 0 (the default: every evasion searched) to {@link #MAX_PRUNE_DEPTH}; {@code net-scale}, the percentage
 * of a net's output the search uses as its static evaluation (the search's margins are fixed centipawns, while a
 * net's scale is whatever its training gave it), from 1 to {@link #MAX_NET_SCALE}, 100 (the default) for the output
 * as it is; the hand-written evaluation is never scaled; {@code qsearch-checks}, 1 for a first quiescence ply that
 * also searches the quiet moves and drops giving check that lose nothing by static exchange (Fairy-Stockfish's
 * quiescence does so at its first ply; with {@code check-extension-depth} above 0 it is where checks near the leaves
 * are seen), 0 (the default) for captures alone; {@code lmp-improving}, 1 for late-move pruning that keeps half as
 * many quiet moves (3 + depth squared, halved) when the static evaluation is not above the one two plies before
 * (Stockfish's "improving"), 0 (the default) for 3 + depth squared always; {@code king-attack-lmr}, a radius
 * in squares: a quiet move or drop that lands within that many king steps of the enemy king is reduced one ply less
 * by late-move reductions (the quiet attacking moves and drops that prepare a mate in the shogi family), from 0 (the
 * default: off) to {@link #MAX_KING_ATTACK_LMR}; {@code lmr-depth-pruning}, 1 for Stockfish's shallow-depth pruning
 * of quiet moves at every depth by the depth a late-move reduction would leave them ({@code lmrDepth}): late-move
 * pruning after (5 + depth squared) x (1 + improving) / 2 - 1 quiet moves at any depth, futility pruning while
 * lmrDepth is below 6, static-exchange pruning by lmrDepth squared (a drop deep in a drop game's long list is pruned
 * as a move near the leaves would be), 0 (the default) for pruning up to lmp-depth and futility-depth by the remaining
 * depth; {@code reverse-futility-depth}, the largest remaining depth at which a non-PV node whose static evaluation
 * is 120 centipawns a ply above beta returns it (default {@link #REVERSE_FUTILITY_DEPTH}, at most
 * {@link #MAX_PRUNE_DEPTH}; Stockfish's is 5); {@code null-move-eval}, 1 for Stockfish's larger null-move
 * reduction (3 + depth / 4 plies, and a ply more for each 200 centipawns the static evaluation is above beta, up
 * to 3), 0 (the default) for 2 + depth / 4; {@code wide-lmr}, 1 for Stockfish 11's late-move reductions of quiet
 * moves: from the second move on, 0.5 + 0.6 ln(depth) ln(move count) plies, one more when the evaluation is not
 * improving, one less for a killer or the counter move (which the default reductions leave unreduced), 0 (the
 * default) for the reductions from the third move named by log-reductions; {@code correction-history}, 1 for a
 * correction history (Stockfish's pawn correction history, kept as Weiss keeps it): per side to move and pawn
 * structure ({@code Position.pawnKey}), a running average of how far the search's score of a node fell from its
 * static evaluation, added to the static evaluation of later nodes with those pawns, 0 (the default) to go without;
 * {@code mate-in-one}, D from 1 to {@link #MAX_PRUNE_DEPTH} for YaneuraOu's mate-in-one test at interior nodes of
 * remaining depth D and more: a node not in check whose position the hash table does not know, once the pruning
 * before move generation (null move, reverse futility, ProbCut) has not cut it, looks for a move that gives check
 * and leaves no legal reply (and ends the game there by no other rule), and returns that mate without searching;
 * 0 (the default) to go without; {@code time-horizon}, the number of moves a clock without moves-to-go is shared
 * over ({@link TimeManager#budget(Limits, int, int)}), from 1 to {@link #MAX_TIME_HORIZON}, default
 * {@link TimeManager#HORIZON} (a shogi game runs longer than a chess game, and its endings, where a game is
 * decided, need the time); {@code time-scaling}, 1 for a soft limit scaled after each iteration by how settled the
 * search is (Ethereal's: the best move's stability, the score's fall over three iterations and the share of the
 * nodes the best move took; {@link Search}), 0 (the default) for the soft limit as the clock gives it;
 * {@code move-rule-damping}, D in plies: in a rule set with a move-count draw rule (chess's fifty moves) the static
 * evaluation is multiplied by (D - the plies since the last capture or pawn move) / D, so that a side ahead prefers
 * the line that makes progress to one that shuffles toward the rule's draw (Stockfish's, with D about 200; the
 * factor stops at 0), from 1 to {@link #MAX_MOVE_RULE_DAMPING}, or 0 (the default) to go without;
 * {@code pawnless-scale}, M in centipawns: when the side the static evaluation favours has no pawn on the board and
 * leads in the other pieces on the board (royal pieces apart, at the hand-written evaluation's material values) by
 * M or less, its advantage is scaled as Stockfish scales such endings (M is its bishop's value there): to 0 when
 * its own pieces are worth M or less (a lone minor piece), to 4/64 when the other side's are, to 14/64 otherwise
 * (a rook and a bishop against a rook); from 1 to {@link #MAX_PAWNLESS_SCALE}, or 0 (the default) to go without;
 * {@code tt-eval}, 1 for Stockfish's use of the hash score in the pruning before the move loop and in futility
 * pruning: where the entry's bound says the true score lies beyond the static evaluation (a lower bound above it, an
 * upper bound below it, or an exact score), that score stands in for the static evaluation in reverse futility,
 * the null move and futility, 0 (the default) for the static evaluation alone; {@code history-prune}, T in history
 * units: a quiet move (not the first searched, not giving check) at a node not in check whose late-move-reduced
 * depth is below 4 and whose history and continuation history sum below -T x depth is not searched (Stockfish's
 * history pruning), from 1 to {@link #MAX_HISTORY_PRUNE}, or 0 (the default) to go without;
 * {@code capture-history}, 1 for Stockfish's capture history: per moving piece, destination and captured piece type,
 * how often the capture cut a node off (raised for the capture that did, lowered for the captures searched before
 * a cutoff), added to the victim-first ordering of captures, 0 (the default) for the victim and attacker alone;
 * {@code rfp-improving}, 1 for Stockfish's improving term in reverse futility: where the static evaluation is above
 * the one two plies before, the margin is a ply's 120 centipawns smaller, 0 (the default) for 120 x depth always;
 * {@code endgame-scale S/W = F}, any number of them (Stockfish's endgame knowledge as data): where the side the
 * static evaluation favours has exactly the pieces S on the board besides its royal piece and the other side exactly
 * the pieces W (each a string of the rule set's one-letter piece letters, upper case, W possibly empty; nothing in
 * hand), the evaluation is multiplied by F / 64, F from 0 to 64 ({@code endgame-scale NN/ = 0}: two knights do not
 * mate a bare king); {@code opposite-colour-scale L = F}: where each side's non-royal pieces besides its pawns
 * (the evaluation's pawns) are one piece of letter L, and the two stand on squares of different colours, the
 * evaluation is multiplied by F / 64 (Stockfish's bishops of opposite colours); {@code wrong-bishop-scale L = F}:
 * where the favoured side's non-royal pieces are one piece of letter L and pawns, all those pawns stand on one edge
 * file, L stands on squares of the other colour than that file's square on the favoured side's far rank, and the
 * other side's royal piece is at most one king step from that square, the evaluation is multiplied by F / 64
 * (Stockfish's KBPsK: the wrong bishop with rook's pawns). The numeric margins and factors of {@link SearchParam}
 * are keys too ({@code futility-base = 80} and so on), each held to its range.
 * Each is set where a match said so for that rule set.
 */
public record SearchDefaults(int contempt, boolean logReductions, int lmpDepth, int futilityDepth,
                             boolean safeCheckExtension, boolean continuationHistory, boolean singularExtension,
                             int checkExtensionDepth, int cutNodeReduction, int qsearchMoves,
                             int losingCheckDepth, boolean qsearchCapturesOnly, int probcutMargin,
                             int evasionPruneDepth, int netScale, boolean qsearchChecks, boolean lmpImproving,
                             int kingAttackLmr, boolean lmrDepthPruning, int reverseFutilityDepth,
                             boolean nullMoveEval, boolean wideLmr, boolean correctionHistory,
                             int mateInOne, int timeHorizon, boolean timeScaling, int moveRuleDamping,
                             int pawnlessScale, boolean ttEval, int historyPrune, boolean captureHistory,
                             boolean rfpImproving, Map<String, Integer> endgameScales,
                             Map<String, Integer> oppositeColourScales, Map<String, Integer> wrongBishopScales,
                             Map<SearchParam, Integer> params) {
    /** The keys a .search file may hold. */
    static final Set<String> KEYS = Set.of("contempt", "log-reductions", "lmp-depth", "futility-depth",
            "safe-check-extension", "continuation-history", "singular-extension", "check-extension-depth",
            "cut-node-reduction", "qsearch-moves", "losing-check-depth", "qsearch-captures-only",
            "probcut-margin", "evasion-prune-depth", "net-scale", "qsearch-checks",
            "lmp-improving", "king-attack-lmr", "lmr-depth-pruning", "reverse-futility-depth", "null-move-eval",
            "wide-lmr", "correction-history", "mate-in-one", "time-horizon", "time-scaling", "move-rule-damping",
            "pawnless-scale", "tt-eval", "history-prune", "capture-history", "rfp-improving");
    /** The key prefixes of endgame-scale, opposite-colour-scale and wrong-bishop-scale. */
    static final String ENDGAME_SCALE = "endgame-scale ", OPPOSITE_COLOUR_SCALE = "opposite-colour-scale ",
            WRONG_BISHOP_SCALE = "wrong-bishop-scale ";
    /** The largest {@code history-prune}, in history units (three tables of at most {@link Search#HISTORY_MAX}). */
    static final int MAX_HISTORY_PRUNE = 3 * Search.HISTORY_MAX;
    /** The largest {@code pawnless-scale}, in centipawns. */
    static final int MAX_PAWNLESS_SCALE = 2000;
    /** The largest {@code move-rule-damping}, in plies. */
    static final int MAX_MOVE_RULE_DAMPING = 10_000;
    /** The largest {@code time-horizon}. */
    static final int MAX_TIME_HORIZON = 200;
    /** The default {@code net-scale} (the net's output as it is) and the largest, in percent. */
    static final int NET_SCALE = 100, MAX_NET_SCALE = 400;
    /** The largest {@code probcut-margin}, in centipawns. */
    static final int MAX_PROBCUT_MARGIN = 2000;
    /** The most plies {@code cut-node-reduction} may add. */
    static final int MAX_CUT_NODE_REDUCTION = 3;
    /** The largest {@code qsearch-moves}. */
    static final int MAX_QSEARCH_MOVES = 64;
    /** Default depths of late-move pruning and futility pruning, and the largest either may be set to. */
    static final int LMP_DEPTH = 4, FUTILITY_DEPTH = 3, MAX_PRUNE_DEPTH = 12;
    /** The default largest depth of reverse futility pruning. */
    static final int REVERSE_FUTILITY_DEPTH = 3;
    /** The defaults of a rule set without a .search file. */
    static final SearchDefaults NONE = new SearchDefaults(0, false, LMP_DEPTH, FUTILITY_DEPTH, false, false, false, 0,
            0, 0, 0, false, 0, 0, NET_SCALE, false, false, 0, false, REVERSE_FUTILITY_DEPTH, false, false, false,
            0, TimeManager.HORIZON, false, 0, 0, false, 0, false, false, Map.of(), Map.of(),
            Map.of(), Map.of());
    /** The largest king-attack-lmr radius. */
    static final int MAX_KING_ATTACK_LMR = 4;
    /** The largest check-extension-depth. */
    static final int MAX_CHECK_EXTENSION_DEPTH = 64;

    /** The defaults in the text of a .search file; {@code source} names it in error messages. */
    public static SearchDefaults parse(String text, String source) {
        Map<String, Integer> m = EvalWeights.parse(text, source);
        Map<String, Integer> endgameScales = new java.util.LinkedHashMap<>();
        Map<String, Integer> oppositeColourScales = new java.util.LinkedHashMap<>();
        Map<String, Integer> wrongBishopScales = new java.util.LinkedHashMap<>();
        Map<SearchParam, Integer> params = new java.util.EnumMap<>(SearchParam.class);
        for (String key : m.keySet()) {
            SearchParam p = SearchParam.ofKey(key);
            if (p != null) {
                params.put(p, range(m, key, p.defaultValue, p.min, p.max, source));
            } else if (key.startsWith(ENDGAME_SCALE)) {
                String sig = key.substring(ENDGAME_SCALE.length());
                if (!sig.matches("[A-Z]+/[A-Z]*")) {
                    throw new IllegalArgumentException(source + ": " + key + ": expected S/W, the piece letters of "
                            + "the stronger and the weaker side (S not empty), e.g. 'endgame-scale NN/ = 0'");
                }
                endgameScales.put(sig, range(m, key, 64, 0, 64, source));
            } else if (key.startsWith(OPPOSITE_COLOUR_SCALE)) {
                letterScale(m, key, OPPOSITE_COLOUR_SCALE, "26", oppositeColourScales, source);
            } else if (key.startsWith(WRONG_BISHOP_SCALE)) {
                letterScale(m, key, WRONG_BISHOP_SCALE, "0", wrongBishopScales, source);
            } else if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown search setting '" + key + "' (known: " + KEYS
                        + ", " + SearchParam.keys()
                        + ", '" + ENDGAME_SCALE + "S/W', '" + OPPOSITE_COLOUR_SCALE + "L', '" + WRONG_BISHOP_SCALE
                        + "L')");
            }
        }
        int contempt = m.getOrDefault("contempt", 0);
        if (Math.abs(contempt) > Search.MAX_CONTEMPT) {
            throw new IllegalArgumentException(source + ": contempt must be from " + -Search.MAX_CONTEMPT + " to "
                    + Search.MAX_CONTEMPT + ", got " + contempt);
        }
        int lmp = count(m, "lmp-depth", LMP_DEPTH, MAX_PRUNE_DEPTH, source);
        int futility = m.getOrDefault("futility-depth", Math.min(FUTILITY_DEPTH, lmp));
        if (futility < 0 || futility > lmp) {
            throw new IllegalArgumentException(source + ": futility-depth must be from 0 to lmp-depth (" + lmp
                    + "), got " + futility);
        }
        int checkDepth = count(m, "check-extension-depth", 0, MAX_CHECK_EXTENSION_DEPTH, source);
        int cutNodeReduction = count(m, "cut-node-reduction", 0, MAX_CUT_NODE_REDUCTION, source);
        int qsearchMoves = count(m, "qsearch-moves", 0, MAX_QSEARCH_MOVES, source);
        int losingCheckDepth = count(m, "losing-check-depth", 0, Search.SEE_PRUNE_DEPTH, source);
        int probcutMargin = count(m, "probcut-margin", 0, MAX_PROBCUT_MARGIN, source);
        int evasionPruneDepth = count(m, "evasion-prune-depth", 0, MAX_PRUNE_DEPTH, source);
        int netScale = range(m, "net-scale", NET_SCALE, 1, MAX_NET_SCALE, source);
        int kingAttackLmr = count(m, "king-attack-lmr", 0, MAX_KING_ATTACK_LMR, source);
        int mateInOne = count(m, "mate-in-one", 0, MAX_PRUNE_DEPTH, source);
        int timeHorizon = range(m, "time-horizon", TimeManager.HORIZON, 1, MAX_TIME_HORIZON, source);
        int reverseFutilityDepth = count(m, "reverse-futility-depth", REVERSE_FUTILITY_DEPTH, MAX_PRUNE_DEPTH, source);
        return new SearchDefaults(contempt, flag(m, "log-reductions", source), lmp, futility,
                flag(m, "safe-check-extension", source), flag(m, "continuation-history", source),
                flag(m, "singular-extension", source), checkDepth, cutNodeReduction, qsearchMoves,
                losingCheckDepth, flag(m, "qsearch-captures-only", source), probcutMargin, evasionPruneDepth,
                netScale, flag(m, "qsearch-checks", source), flag(m, "lmp-improving", source), kingAttackLmr,
                flag(m, "lmr-depth-pruning", source), reverseFutilityDepth, flag(m, "null-move-eval", source),
                flag(m, "wide-lmr", source), flag(m, "correction-history", source), mateInOne,
                timeHorizon, flag(m, "time-scaling", source),
                count(m, "move-rule-damping", 0, MAX_MOVE_RULE_DAMPING, source),
                count(m, "pawnless-scale", 0, MAX_PAWNLESS_SCALE, source), flag(m, "tt-eval", source),
                count(m, "history-prune", 0, MAX_HISTORY_PRUNE, source), flag(m, "capture-history", source),
                flag(m, "rfp-improving", source), Map.copyOf(endgameScales), Map.copyOf(oppositeColourScales),
                Map.copyOf(wrongBishopScales), Map.copyOf(params));
    }

    /**
     * The value of a numeric parameter: the file's, or its default ({@link SearchParam#defaultValue}; lmr-history-bar
     * defaults to 25 without continuation-history, the bar the search had before that history existed).
     */
    public int param(SearchParam p) {
        Integer v = params.get(p);
        if (v != null) {
            return v;
        }
        return p == SearchParam.LMR_HISTORY_BAR && !continuationHistory ? 25 : p.defaultValue;
    }

    /**
     * These defaults with the numeric parameters {@code values} set over the file's (a tuner's trial values); a
     * value outside its parameter's range is refused naming the key.
     */
    public SearchDefaults withParams(Map<SearchParam, Integer> values) {
        Map<SearchParam, Integer> merged = new java.util.EnumMap<>(SearchParam.class);
        merged.putAll(params);
        for (var e : values.entrySet()) {
            SearchParam p = e.getKey();
            if (e.getValue() < p.min || e.getValue() > p.max) {
                throw new IllegalArgumentException(p.key + " must be from " + p.min + " to " + p.max + ", got "
                        + e.getValue());
            }
            merged.put(p, e.getValue());
        }
        return new SearchDefaults(contempt, logReductions, lmpDepth, futilityDepth, safeCheckExtension,
                continuationHistory, singularExtension, checkExtensionDepth, cutNodeReduction, qsearchMoves,
                losingCheckDepth, qsearchCapturesOnly, probcutMargin, evasionPruneDepth, netScale, qsearchChecks,
                lmpImproving, kingAttackLmr, lmrDepthPruning, reverseFutilityDepth, nullMoveEval, wideLmr,
                correctionHistory, mateInOne, timeHorizon, timeScaling, moveRuleDamping, pawnlessScale, ttEval,
                historyPrune, captureHistory, rfpImproving, endgameScales, oppositeColourScales, wrongBishopScales,
                Map.copyOf(merged));
    }

    /**
     * Reads a key {@code prefix + L} of one piece letter L with a factor in 64ths into {@code into}; a key whose tail
     * is not one upper-case letter is refused naming it ({@code example}: a factor for the message).
     */
    private static void letterScale(Map<String, Integer> m, String key, String prefix, String example,
                                    Map<String, Integer> into, String source) {
        String letter = key.substring(prefix.length());
        if (!letter.matches("[A-Z]")) {
            throw new IllegalArgumentException(source + ": " + key + ": expected one piece letter, e.g. '" + prefix
                    + "B = " + example + "'");
        }
        into.put(letter, range(m, key, 64, 0, 64, source));
    }

    /** A setting from 0 to {@code max} ({@code absent} when left out); any other value is refused naming the key. */
    private static int count(Map<String, Integer> m, String key, int absent, int max, String source) {
        return range(m, key, absent, 0, max, source);
    }

    /** A setting from {@code min} to {@code max} ({@code absent} when left out); another is refused naming the key. */
    private static int range(Map<String, Integer> m, String key, int absent, int min, int max, String source) {
        int v = m.getOrDefault(key, absent);
        if (v < min || v > max) {
            throw new IllegalArgumentException(source + ": " + key + " must be from " + min + " to " + max + ", got "
                    + v);
        }
        return v;
    }

    /** A 0/1 setting (0 when absent); any other value is refused naming the key. */
    private static boolean flag(Map<String, Integer> m, String key, String source) {
        int v = m.getOrDefault(key, 0);
        if (v != 0 && v != 1) {
            throw new IllegalArgumentException(source + ": " + key + " must be 0 or 1, got " + v);
        }
        return v == 1;
    }

    /**
     * The built-in defaults of a rule set ({@link #NONE} without a file), or its file in
     * {@link EvalWeights#DIR_PROPERTY}.
     */
    public static SearchDefaults forRuleSet(String id) {
        return EvalWeights.text(id, "search").map(t -> parse(t.text(), t.source()))
                .orElse(NONE);
    }
}
