package koma.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The text form of evaluation weights, one {@code KEY = VALUE} line each (integers, {@code #} starts a comment):
 * a piece letter for its value on the board ({@code N = 320}, {@code +R = 1395}), {@code hand X} for its value in
 * hand, and the named weights of {@link Evaluation}. Reading keeps the file's order; writing puts a comment header
 * first. Which keys a rule set accepts is checked by {@link Evaluation}.
 */
public final class EvalWeights {
    /**
     * System property naming a directory of {@code <rule set>.eval} files that replace the built-in weights (and of
     * {@code <rule set>.search} files replacing the built-in {@link SearchDefaults}).
     */
    public static final String DIR_PROPERTY = "koma.eval.dir";

    private EvalWeights() {
    }

    /** Parses weights text; {@code source} names it in error messages (file and line). */
    public static Map<String, Integer> parse(String text, String source) {
        Map<String, Integer> w = new LinkedHashMap<>();
        int ln = 0;
        for (String raw : text.split("\n", -1)) {
            ln++;
            String line = raw.replaceAll("#.*", "").strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException(source + ":" + ln + ": expected KEY = VALUE, got '" + line + "'");
            }
            String key = line.substring(0, eq).strip().replaceAll("\\s+", " ");
            String value = line.substring(eq + 1).strip();
            if (key.isEmpty()) {
                throw new IllegalArgumentException(source + ":" + ln + ": empty key");
            }
            try {
                w.put(key, Integer.parseInt(value));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + ":" + ln + ": value of '" + key + "' is not an integer: '"
                        + value + "'");
            }
        }
        return w;
    }

    /** Reads a weights file. */
    public static Map<String, Integer> read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read evaluation weights " + file + ": " + e.getMessage(), e);
        }
    }

    /** The built-in weights of a rule set (empty when it has no file), or the file in {@link #DIR_PROPERTY}. */
    public static Map<String, Integer> forRuleSet(String id) {
        return text(id, "eval").map(t -> parse(t.text(), t.source())).orElseGet(LinkedHashMap::new);
    }

    /** The text of a per-rule-set file and where it came from (a path or a resource name). */
    record Source(String text, String source) {
    }

    /**
     * The text of the rule set's file {@code <id>.<extension>}: from the directory in {@link #DIR_PROPERTY} when it
     * holds one, else the built-in resource {@code /koma/engine/<id>.<extension>}; empty when neither exists.
     */
    static Optional<Source> text(String id, String extension) {
        String name = id + "." + extension;
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir != null && !dir.isBlank()) {
            Path file = Path.of(dir, name);
            if (Files.isRegularFile(file)) {
                try {
                    return Optional.of(new Source(Files.readString(file, StandardCharsets.UTF_8), file.toString()));
                } catch (IOException e) {
                    throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
                }
            }
        }
        String resource = "/koma/engine/" + name;
        try (InputStream in = EvalWeights.class.getResourceAsStream(resource)) {
            return in == null ? Optional.empty()
                    : Optional.of(new Source(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource));
        } catch (IOException e) {
            throw new IllegalStateException(resource + ": " + e.getMessage(), e);
        }
    }

    /** The text of a weights file: each line of {@code header} as a comment, then one line per weight. */
    public static String format(Map<String, Integer> weights, String header) {
        StringBuilder sb = new StringBuilder();
        for (String line : header.split("\n")) {
            sb.append(line.isEmpty() ? "#" : "# " + line).append('\n');
        }
        for (Map.Entry<String, Integer> e : weights.entrySet()) {
            sb.append(e.getKey()).append(" = ").append(e.getValue()).append('\n');
        }
        return sb.toString();
    }
}
