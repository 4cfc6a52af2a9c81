package koma.rules.notation;

/**
 * Malformed or impossible notation: the message names the field and what was expected, e.g.
 * {@code FEN field 'side to move': expected 'w' or 'b', got 'x'}.
 */
public class NotationException extends IllegalArgumentException {
    private final String field;

    public NotationException(String field, String message) {
        super(field + ": " + message);
        this.field = field;
    }

    /** The part of the input that is wrong ("FEN field 'castling'", "move 'e2e9'"). */
    public String field() {
        return field;
    }
}
