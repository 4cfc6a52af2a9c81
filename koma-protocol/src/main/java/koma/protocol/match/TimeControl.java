package koma.protocol.match;

import java.util.Locale;

/**
 * How long each engine may think, as the referee enforces it. One of:
 * <ul>
 *   <li>{@link Kind#CLOCK}: a clock of {@code baseMs} per player plus {@code incMs} after each move
 *   ({@code --tc 10+0.1}, seconds);</li>
 *   <li>{@link Kind#BYOYOMI}: {@code baseMs} main time, then {@code byoyomiMs} for every move
 *   ({@code --byoyomi 5+1}, seconds; the shogi family);</li>
 *   <li>{@link Kind#MOVETIME}: a fixed time per move;</li>
 *   <li>{@link Kind#DEPTH} / {@link Kind#NODES}: a search limit, no clock; a move may still take at most
 *   {@code moveTimeoutMs} (a hung engine loses on time).</li>
 * </ul>
 */
public record TimeControl(Kind kind, long baseMs, long incMs, long byoyomiMs, long moveTimeMs, int depth, long nodes,
                          long moveTimeoutMs) {
    public enum Kind { CLOCK, BYOYOMI, MOVETIME, DEPTH, NODES }

    /** Hard limit per move for depth and node limits, unless set. */
    public static final long DEFAULT_MOVE_TIMEOUT_MS = 60_000;

    public TimeControl {
        if (baseMs < 0 || incMs < 0 || byoyomiMs < 0 || moveTimeMs < 0 || depth < 0 || nodes < 0 || moveTimeoutMs <= 0) {
            throw new IllegalArgumentException("time control values must not be negative");
        }
    }

    public static TimeControl clock(long baseMs, long incMs) {
        if (baseMs <= 0) {
            throw new IllegalArgumentException("--tc: the base time must be positive");
        }
        return new TimeControl(Kind.CLOCK, baseMs, incMs, 0, 0, 0, 0, DEFAULT_MOVE_TIMEOUT_MS);
    }

    public static TimeControl byoyomi(long mainMs, long periodMs) {
        if (periodMs <= 0 && mainMs <= 0) {
            throw new IllegalArgumentException("--byoyomi: main time or byoyomi period must be positive");
        }
        return new TimeControl(Kind.BYOYOMI, mainMs, 0, periodMs, 0, 0, 0, DEFAULT_MOVE_TIMEOUT_MS);
    }

    public static TimeControl moveTime(long ms) {
        if (ms <= 0) {
            throw new IllegalArgumentException("--movetime must be positive, got " + ms);
        }
        return new TimeControl(Kind.MOVETIME, 0, 0, 0, ms, 0, 0, DEFAULT_MOVE_TIMEOUT_MS);
    }

    public static TimeControl depth(int depth) {
        if (depth < 1 || depth > 100) {
            throw new IllegalArgumentException("--depth must be from 1 to 100, got " + depth);
        }
        return new TimeControl(Kind.DEPTH, 0, 0, 0, 0, depth, 0, DEFAULT_MOVE_TIMEOUT_MS);
    }

    public static TimeControl nodes(long nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be positive, got " + nodes);
        }
        return new TimeControl(Kind.NODES, 0, 0, 0, 0, 0, nodes, DEFAULT_MOVE_TIMEOUT_MS);
    }

    /** The same control with another hard limit per move for depth and node limits. */
    public TimeControl withMoveTimeout(long ms) {
        return new TimeControl(kind, baseMs, incMs, byoyomiMs, moveTimeMs, depth, nodes, ms);
    }

    /** Parses {@code B[+I]}, seconds (decimals allowed): {@code 10+0.1}, {@code 60}. */
    public static TimeControl parseClock(String text) {
        long[] v = pair("--tc", text);
        return clock(v[0], v[1]);
    }

    /** Parses {@code M[+P]}, seconds: main time and byoyomi period, {@code 5+1}, {@code 0+2}. */
    public static TimeControl parseByoyomi(String text) {
        long[] v = pair("--byoyomi", text);
        return byoyomi(v[0], v[1]);
    }

    private static long[] pair(String option, String text) {
        if (text == null || !text.strip().matches("\\d{1,7}(\\.\\d{1,3})?(\\+\\d{1,7}(\\.\\d{1,3})?)?")) {
            throw new IllegalArgumentException(option + ": expected seconds as BASE+INCREMENT such as '10+0.1' or '60', got '"
                    + text + "'");
        }
        String[] parts = text.strip().split("\\+");
        long a = Math.round(Double.parseDouble(parts[0]) * 1000);
        long b = parts.length > 1 ? Math.round(Double.parseDouble(parts[1]) * 1000) : 0;
        return new long[]{a, b};
    }

    /** Whether the referee keeps clocks (and sends them to the engines). */
    public boolean hasClock() {
        return kind == Kind.CLOCK || kind == Kind.BYOYOMI;
    }

    /** The PGN TimeControl tag: {@code 10+0.1}, {@code 5+1 byoyomi}... ({@code -} for depth and node limits). */
    public String pgnTag() {
        return switch (kind) {
            case CLOCK -> seconds(baseMs) + (incMs > 0 ? "+" + seconds(incMs) : "");
            case BYOYOMI -> seconds(baseMs) + "+" + seconds(byoyomiMs) + " byoyomi";
            case MOVETIME -> seconds(moveTimeMs) + "/move";
            case DEPTH, NODES -> "-";
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case CLOCK, BYOYOMI, MOVETIME -> pgnTag();
            case DEPTH -> "depth " + depth;
            case NODES -> "nodes " + nodes;
        };
    }

    static String seconds(long ms) {
        String s = String.format(Locale.ROOT, "%.3f", ms / 1000.0);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
