package koma.rules;

/**
 * A move is an {@code int}; this class is the one place its bit layout is defined.
 *
 * <pre>
 *  bits  0..7   from square (0 for drops)
 *  bits  8..15  to square
 *  bits 16..21  piece type: the promotion target (PROMOTION) or the dropped type (DROP)
 *  bits 22..24  kind: NORMAL, PROMOTION, DROP, EN_PASSANT, CASTLING
 * </pre>
 *
 * {@link #NONE} (0) is never a real move, because a real move has {@code from != to} or is a drop.
 */
public final class Move {
    public static final int NONE = 0;

    public static final int NORMAL = 0;
    public static final int PROMOTION = 1;
    public static final int DROP = 2;
    public static final int EN_PASSANT = 3;
    public static final int CASTLING = 4;

    private Move() {
    }

    public static int normal(int from, int to) {
        return from | to << 8;
    }

    public static int promotion(int from, int to, int type) {
        return from | to << 8 | type << 16 | PROMOTION << 22;
    }

    public static int drop(int type, int to) {
        return to << 8 | type << 16 | DROP << 22;
    }

    public static int enPassant(int from, int to) {
        return from | to << 8 | EN_PASSANT << 22;
    }

    public static int castling(int kingFrom, int kingTo) {
        return kingFrom | kingTo << 8 | CASTLING << 22;
    }

    public static int from(int move) {
        return move & 0xFF;
    }

    public static int to(int move) {
        return (move >>> 8) & 0xFF;
    }

    /** The promotion target or dropped type. */
    public static int type(int move) {
        return (move >>> 16) & 0x3F;
    }

    public static int kind(int move) {
        return (move >>> 22) & 0x7;
    }

    public static boolean isDrop(int move) {
        return kind(move) == DROP;
    }

    public static boolean isPromotion(int move) {
        return kind(move) == PROMOTION;
    }
}
