package koma.protocol.match;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How to start and set up one engine: its command line, protocol, display name (null: the engine's own) and the
 * options to send, in order ({@code setoption name K value V} for UCI and USI).
 */
public record EngineConfig(String command, Protocol protocol, String name, List<Map.Entry<String, String>> options) {
    /** Engine protocols: UCI and USI ({@link UciClient}), XBoard / CECP ({@link XBoardClient}). */
    public enum Protocol {
        UCI, USI, XBOARD;

        public static Protocol parse(String s) {
            return switch (s == null ? "" : s.toLowerCase()) {
                case "uci" -> UCI;
                case "usi" -> USI;
                case "xboard", "cecp", "winboard" -> XBOARD;
                default -> throw new IllegalArgumentException("unknown protocol '" + s + "'; expected uci, usi or xboard");
            };
        }
    }

    public EngineConfig {
        if (command == null || command.isBlank()) {
            throw new IllegalArgumentException("the engine command is empty");
        }
        options = List.copyOf(options == null ? List.of() : options);
    }

    /** Parses {@code Name=Value} option arguments (the value may be empty, the name may contain spaces). */
    public static List<Map.Entry<String, String>> parseOptions(String flag, List<String> args) {
        List<Map.Entry<String, String>> out = new ArrayList<>();
        for (String a : args == null ? List.<String>of() : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(flag + ": expected Name=Value, got '" + a + "'");
            }
            out.add(Map.entry(a.substring(0, eq).strip(), a.substring(eq + 1).strip()));
        }
        return out;
    }

    /** The command as an argument list: split on white space, or {@code sh -c} when it uses shell syntax. */
    public List<String> argv() {
        String c = command.strip();
        if (c.matches(".*[\"'`$|&;<>()*?\\\\~{}].*")) {
            return List.of("sh", "-c", c);
        }
        return List.of(c.split("\\s+"));
    }
}
