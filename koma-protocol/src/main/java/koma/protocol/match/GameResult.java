package koma.protocol.match;

import koma.rules.Game;

/**
 * How a refereed game ended: {@code winner} is the colour that won (0 the first player, 1 the second) or
 * {@link #DRAW}; {@code termination} a short label ({@code checkmate}, {@code repetition}, {@code illegal move},
 * {@code time forfeit}, {@code resignation}, {@code engine crash}, {@code adjudication}...); {@code reason} a sentence
 * for the record.
 */
public record GameResult(int winner, String termination, String reason) {
    public static final int DRAW = -1;

    /** Labels of the referee's own terminations (the rule book's come from {@link Game.Termination}). */
    public static final String ILLEGAL_MOVE = "illegal move", TIME_FORFEIT = "time forfeit",
            RESIGNATION = "resignation", ENGINE_CRASH = "engine crash", ADJUDICATION = "adjudication";

    public boolean isDraw() {
        return winner == DRAW;
    }

    /** "1-0", "0-1" or "1/2-1/2" from the first player's point of view. */
    public String score() {
        return winner == 0 ? "1-0" : winner == 1 ? "0-1" : "1/2-1/2";
    }

    /** The label of a rule-book termination: {@code CHECKMATE} → {@code checkmate}, {@code FIFTY_MOVES} → {@code fifty moves}. */
    public static String label(Game.Termination t) {
        return t.name().toLowerCase().replace('_', ' ');
    }
}
