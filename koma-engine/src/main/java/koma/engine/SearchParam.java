package koma.engine;

/**
 * The search's numeric margins and factors: each a key of the rule set's .search file ({@link SearchDefaults}), with
 * the value the search used as a constant before it was a key (so a file without the key searches as before), a
 * range the file is held to, and the step SPSA perturbs it by ({@link koma.engine.tune.Spsa}: about a twentieth of
 * the value's useful range, Stockfish's tuning practice). Units are the search's: centipawns, history units,
 * plies, and hundredths where the search uses a fraction.
 */
public enum SearchParam {
    /** Futility pruning of quiet moves: the static evaluation plus BASE + PER_PLY x depth at most alpha. */
    FUTILITY_BASE("futility-base", 80, 0, 1000, 10),
    /** Futility pruning's margin per ply of (remaining, or with lmr-depth-pruning reduced) depth. */
    FUTILITY_PER_PLY("futility-per-ply", 110, 0, 1000, 10),
    /** With lmr-depth-pruning: futility pruning applies while the reduced depth is below this. */
    FUTILITY_LMR_DEPTH("futility-lmr-depth", 6, 1, 64, 1),
    /** Reverse futility: a non-PV node whose evaluation is this many centipawns a ply above beta returns it. */
    RFP_MARGIN("rfp-margin", 120, 1, 1000, 10),
    /** With null-move-eval: a ply more of null-move reduction per this many centipawns of evaluation above beta. */
    NULL_MOVE_EVAL_DIVISOR("null-move-eval-divisor", 200, 10, 2000, 20),
    /** Static-exchange pruning of captures: one losing more than this many centipawns a ply is not searched. */
    SEE_CAPTURE("see-capture", 90, 0, 1000, 8),
    /** Static-exchange pruning of quiet moves: one losing more than this times depth squared is not searched. */
    SEE_QUIET("see-quiet", 15, 0, 500, 2),
    /** With lmr-depth-pruning: late-move pruning after (BASE + depth squared) x (1 + improving) / 2 - 1 quiets. */
    LMP_BASE("lmp-base", 5, 0, 100, 1),
    /** With wide-lmr: the reductions 0.01 x (BASE + FACTOR x ln(depth) ln(move count)), in hundredths of a ply. */
    WIDE_LMR_BASE("wide-lmr-base", 50, -200, 400, 8),
    /** With wide-lmr: the factor of the reductions' ln(depth) ln(move count), in hundredths. */
    WIDE_LMR_FACTOR("wide-lmr-factor", 60, 1, 300, 5),
    /** The logarithmic reductions 0.01 x BASE + ln(depth) ln(move) x 100 / DIVISOR (log-reductions, lmrDepth). */
    LOG_LMR_BASE("log-lmr-base", 75, -200, 400, 8),
    /** The divisor of the logarithmic reductions' ln(depth) ln(move), in hundredths. */
    LOG_LMR_DIVISOR("log-lmr-divisor", 225, 50, 1000, 15),
    /**
     * A reduced quiet move whose history (with its continuation history when kept) is beyond +-this percent of the
     * history's bound is reduced a ply less or more; the default is 75 with continuation-history and 25 without.
     */
    LMR_HISTORY_BAR("lmr-history-bar", 75, 1, 300, 5),
    /** The first aspiration window's half-width around the last iteration's score, in centipawns. */
    ASPIRATION("aspiration", 35, 1, 1000, 3),
    /** The history bonus of a quiet move that cuts a node off: this times depth squared, up to HISTORY_BONUS_MAX. */
    HISTORY_BONUS("history-bonus", 16, 1, 500, 2),
    /** The largest history bonus, in history units. */
    HISTORY_BONUS_MAX("history-bonus-max", 1200, 1, Search.HISTORY_MAX, 80);

    /** The key in a .search file. */
    public final String key;
    /** The value when the file leaves the key out (what the search used as a constant). */
    public final int defaultValue;
    /** The smallest and the largest value a file or a tuner may set. */
    public final int min, max;
    /** The step SPSA perturbs the value by (its c). */
    public final int step;

    SearchParam(String key, int defaultValue, int min, int max, int step) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.step = step;
    }

    /** Every parameter's key, in declaration order (for messages that list them). */
    public static java.util.List<String> keys() {
        return java.util.Arrays.stream(values()).map(p -> p.key).toList();
    }

    /** The parameter of a .search key, or null when the key is not one. */
    public static SearchParam ofKey(String key) {
        for (SearchParam p : values()) {
            if (p.key.equals(key)) {
                return p;
            }
        }
        return null;
    }
}
