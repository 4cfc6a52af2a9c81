package koma.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Test helper: feeds input lines to a real EngineSession through run(BufferedReader) and returns what it printed. */
final class Transcript {
    private Transcript() {
    }

    /** Everything the session prints for these input lines (each followed by a newline), with '\n' line ends. */
    static String of(EngineSession.Dialect dialect, String... lines) {
        return raw(dialect, String.join("\n", lines) + "\n");
    }

    /** Everything the session prints for this exact input text. */
    static String raw(EngineSession.Dialect dialect, String input) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, UTF_8);
        try {
            new EngineSession(dialect, out).run(new BufferedReader(new StringReader(input)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toString(UTF_8).replace("\r\n", "\n");
    }

    static String uci(String... lines) {
        return of(EngineSession.Dialect.UCI, lines);
    }

    static String usi(String... lines) {
        return of(EngineSession.Dialect.USI, lines);
    }

    /** The value of the first line starting with {@code prefix} (e.g. "Fen: "), failing if there is none. */
    static String field(String transcript, String prefix) {
        for (String line : transcript.split("\n", -1)) {
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
        }
        return fail("no line starting '" + prefix + "' in:\n" + transcript);
    }

    /** All values of lines starting with {@code prefix}, in order. */
    static List<String> fields(String transcript, String prefix) {
        return transcript.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).toList();
    }

    /** A parsed {@code go perft} answer: counts per move in printed order, and the "Nodes searched" total. */
    record Divide(Map<String, Long> counts, long total) {
        long sum() {
            return counts.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private static final Pattern MOVE_LINE = Pattern.compile("(\\S+): (\\d+)");
    private static final Pattern TOTAL_LINE = Pattern.compile("Nodes searched: (\\d+)");

    /**
     * Parses a transcript that is exactly one perft answer as RULES.md 9.4 has it: 'move: count' lines, one empty
     * line, 'Nodes searched: N', and nothing else. Fails on any other line or on a move listed twice.
     */
    static Divide divide(String transcript) {
        assertTrue(transcript.endsWith("\n"), "output must end with a line break");
        String[] lines = transcript.substring(0, transcript.length() - 1).split("\n", -1);
        assertTrue(lines.length >= 2, "too short for a perft answer:\n" + transcript);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < lines.length - 2; i++) {
            Matcher m = MOVE_LINE.matcher(lines[i]);
            assertTrue(m.matches(), "line " + (i + 1) + " is not 'move: count': '" + lines[i] + "'");
            Long before = counts.put(m.group(1), Long.parseLong(m.group(2)));
            assertEquals(null, before, "move " + m.group(1) + " listed twice");
        }
        assertEquals("", lines[lines.length - 2], "an empty line must come before the total");
        Matcher t = TOTAL_LINE.matcher(lines[lines.length - 1]);
        assertTrue(t.matches(), "last line is not 'Nodes searched: N': '" + lines[lines.length - 1] + "'");
        return new Divide(counts, Long.parseLong(t.group(1)));
    }
}
