package koma.rules.notation;

import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Engine-protocol move strings (RULES.md 9.3), paired parse and format.
 * <ul>
 *   <li>UCI and XBoard: {@code e2e4}, {@code a10a11}; promotion {@code e7e8q} (chess, Shodo) or
 *   {@code d9d10+} (shogi family); drop {@code P@e5}; castling as the king's move {@code e1g1}.</li>
 *   <li>USI: {@code 7g7f}, {@code 8h2b+}, {@code P*5e}; files count from the first player's right, ranks
 *   are letters from the top.</li>
 * </ul>
 */
public final class MoveNotation {
    /** The two coordinate styles. */
    public enum Style { UCI, USI }

    private MoveNotation() {
    }

    public static String formatUci(Position p, int move) {
        return format(p, move, Style.UCI);
    }

    public static String formatUsi(Position p, int move) {
        return format(p, move, Style.USI);
    }

    public static String format(Position p, int move, Style style) {
        RuleSet rs = p.ruleSet();
        Geometry g = rs.geometry;
        int to = Move.to(move);
        if (Move.isDrop(move)) {
            return rs.piece(Move.type(move)).letter() + (style == Style.USI ? "*" : "@") + square(g, to, style);
        }
        String s = square(g, Move.from(move), style) + square(g, to, style);
        if (Move.isPromotion(move)) {
            PieceType target = rs.piece(Move.type(move));
            s += target.promoted() ? "+" : target.letter().toLowerCase();
        }
        return s;
    }

    /** A square in the style's coordinates. */
    public static String square(Geometry g, int sq, Style style) {
        if (style == Style.UCI) {
            return Fen.squareName(g, sq);
        }
        return (g.files - g.file(sq)) + String.valueOf((char) ('a' + (g.ranks - 1 - g.rank(sq))));
    }

    public static int parseUci(Position p, String text) {
        return parse(p, text, Style.UCI);
    }

    public static int parseUsi(Position p, String text) {
        return parse(p, text, Style.USI);
    }

    /**
     * Reads a move string and returns the legal move it names. Throws {@link NotationException} saying whether
     * the string is malformed (and what was expected) or names a move that is not legal here.
     */
    public static int parse(Position p, String text, Style style) {
        String field = "move '" + (text == null ? "" : text.length() > 40 ? text.substring(0, 40) + "..." : text) + "'";
        if (text == null || text.isEmpty() || text.length() > 12) {
            throw new NotationException(field, "expected a move such as " + example(p, style));
        }
        String sqPattern = style == Style.UCI ? "[a-z]\\d{1,2}" : "\\d{1,2}[a-z]";
        String dropSep = style == Style.UCI ? "@" : "\\*";
        if (!text.matches("(" + sqPattern + sqPattern + "[+a-z]?)|([A-Z]" + dropSep + sqPattern + ")")) {
            throw new NotationException(field, "malformed; expected a move such as " + example(p, style));
        }
        int[] moves = p.legalMoves();
        for (int m : moves) {
            if (format(p, m, style).equals(text)) {
                return m;
            }
        }
        throw new NotationException(field, "not a legal move in " + Fen.format(p));
    }

    private static String example(Position p, Style style) {
        RuleSet rs = p.ruleSet();
        if (style == Style.USI) {
            return "'7g7f', '8h2b+' or 'P*5e'";
        }
        if (rs.drops) {
            return "'e2e4', 'd9d10+' or 'P@e5'";
        }
        return rs.promotion.trigger() == RuleSet.PromotionTrigger.TOUCH ? "'e2e4' or 'd9d10+'" : "'e2e4' or 'e7e8q'";
    }
}
