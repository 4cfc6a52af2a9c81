package koma.engine;

import java.util.Map;
import java.util.Set;

/**
 * A rule set's defaults for the search's settings, read from {@code koma/engine/<rule set>.search} beside its .eval
 * weights (the same {@code KEY = VALUE} text, {@link EvalWeights#parse}); a rule set without the file takes 0 for
 * each. Keys: {@code contempt}, the draw value in centipawns against the side the engine searches for
 * ({@link Search#setContempt}), from -{@link Search#MAX_CONTEMPT} to {@link Search#MAX_CONTEMPT}: what a
 * {@link Search} starts with and keeps until the Contempt option is given.
 */
public record SearchDefaults(int contempt) {
    /** The keys a .search file may hold. */
    static final Set<String> KEYS = Set.of("contempt");

    /** The defaults in the text of a .search file; {@code source} names it in error messages. */
    public static SearchDefaults parse(String text, String source) {
        Map<String, Integer> m = EvalWeights.parse(text, source);
        for (String key : m.keySet()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown search setting '" + key + "' (known: " + KEYS
                        + ")");
            }
        }
        int contempt = m.getOrDefault("contempt", 0);
        if (Math.abs(contempt) > Search.MAX_CONTEMPT) {
            throw new IllegalArgumentException(source + ": contempt must be from " + -Search.MAX_CONTEMPT + " to "
                    + Search.MAX_CONTEMPT + ", got " + contempt);
        }
        return new SearchDefaults(contempt);
    }

    /** The built-in defaults of a rule set (all 0 without a file), or its file in {@link EvalWeights#DIR_PROPERTY}. */
    public static SearchDefaults forRuleSet(String id) {
        return EvalWeights.text(id, "search").map(t -> parse(t.text(), t.source())).orElse(new SearchDefaults(0));
    }
}
