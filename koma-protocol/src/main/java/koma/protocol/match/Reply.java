package koma.protocol.match;

/**
 * What an engine answered to a {@link ThinkRequest}: the move string (in the client's
 * {@link EngineClient#style()}), or another outcome; the wall time it took as the referee measured it; and the last
 * score and depth it reported ({@code score} null when it reported none).
 */
public record Reply(Kind kind, String move, long elapsedMs, Score score, int depth, String detail) {
    public enum Kind {
        /** A move string (not yet checked: the referee parses it against the position). */
        MOVE,
        /** The engine resigned (USI {@code bestmove resign}). */
        RESIGN,
        /** The engine declared a win (USI {@code bestmove win}, the 27-point declaration). */
        DECLARE,
        /** The engine said it has no move ({@code 0000}, {@code (none)}, or an empty bestmove). */
        NO_MOVE,
        /** No answer in time. */
        TIMEOUT,
        /** The engine process ended or its output closed. */
        CRASH
    }
}
