package koma.engine.nnue;

import java.io.IOException;
import java.nio.file.Path;

import koma.rules.RuleSet;

/**
 * Which evaluation a protocol session searches with (its {@code Use NNUE} and {@code EvalFile} options): the rule
 * set's built-in net by default, a net file given by path, or the hand-written evaluation when the nets are off or
 * the rule set has none. A file is read once and kept while it is the one chosen.
 */
public final class NetChoice {
    /** The value of EvalFile that means the built-in net. */
    public static final String BUILT_IN = "<built-in>";
    private boolean enabled = true;
    private Path file;
    private Network loaded;

    public void setEnabled(boolean on) {
        enabled = on;
    }

    /**
     * Chooses a net file ({@link #BUILT_IN} or an empty value for the built-in net); a file that is not there or
     * cannot be read is refused. It is read, and checked against the rule set, at the next search.
     */
    public void setFile(String value) {
        if (value.isBlank() || value.equals(BUILT_IN)) {
            file = null;
            loaded = null;
            return;
        }
        Path p = Path.of(value);
        if (!java.nio.file.Files.isReadable(p) || java.nio.file.Files.isDirectory(p)) {
            throw new IllegalArgumentException("EvalFile: no readable file " + value);
        }
        file = p;
        loaded = null;
    }

    /**
     * The net to search {@code rs} with, or null for the hand-written evaluation. A chosen file that is not a net
     * for {@code rs} is reported to {@code warn} and the built-in net is used.
     */
    public Network forRules(RuleSet rs, java.util.function.Consumer<String> warn) {
        if (!enabled) {
            return null;
        }
        if (file != null && (loaded == null || !loaded.ruleSet.equals(rs.id))) {
            try {
                loaded = Network.read(file, rs);
            } catch (IOException | RuntimeException e) {
                loaded = null;
                warn.accept("EvalFile: " + e.getMessage() + "; using the built-in evaluation");
            }
        }
        if (loaded != null && loaded.ruleSet.equals(rs.id)) {
            return loaded;
        }
        return Network.builtIn(rs).orElse(null);
    }

    /** A line for the protocol's log: what {@link #forRules} gives for {@code rs}. */
    public String describe(RuleSet rs) {
        Network n = forRules(rs, w -> { });
        if (n == null) {
            return "hand-written evaluation";
        }
        return "net " + (n == loaded ? file : "built-in " + rs.id + ".nnue") + " (" + n.inputs + " -> " + n.hidden
                + ") x 2";
    }
}
