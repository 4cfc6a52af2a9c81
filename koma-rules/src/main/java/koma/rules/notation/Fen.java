package koma.rules.notation;

import koma.rules.FenCodec;
import koma.rules.Geometry;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * FEN and SFEN, paired parse and format, for every rule set (RULES.md 9.2), beside the other notations. The
 * grammar itself is {@link FenCodec} in the rules core (so that {@link Position} needs no notation class); this
 * class is where the notation code and the modules above find it, with the square names of engine coordinates.
 *
 * <ul>
 *   <li>FEN: {@code board[hand] side castling ep halfmove fullmove}; the first player is upper case and 'w';
 *   holdings in brackets after the board, upper case first ({@code [PPp]}), only for drop games. The short
 *   form {@code board side halfmove fullmove} of Sjaak II and trailing fields left out are accepted.</li>
 *   <li>SFEN: {@code board side hand moveNumber}; the first player (sente) is upper case and 'b'; the hand
 *   is written with counts ({@code 2Pp}) or '-'.</li>
 * </ul>
 * Every error is a {@link NotationException} naming the field and what was expected.
 */
public final class Fen {
    /** Longest accepted FEN/SFEN, to refuse absurd input before any work. */
    public static final int MAX_LENGTH = FenCodec.MAX_LENGTH;

    private Fen() {
    }

    /** Parses SFEN for rule sets written in SFEN (shogi) when the text looks like SFEN, else FEN. */
    public static Position parse(RuleSet rs, String text) {
        return FenCodec.parse(rs, text);
    }

    /** Parses FEN (first player 'w', holdings in brackets). */
    public static Position parseFen(RuleSet rs, String text) {
        return FenCodec.parseFen(rs, text);
    }

    /** Parses SFEN (first player 'b', hand with counts). */
    public static Position parseSfen(RuleSet rs, String text) {
        return FenCodec.parseSfen(rs, text);
    }

    /** Formats FEN, or SFEN for rule sets written in SFEN. */
    public static String format(Position p) {
        return FenCodec.format(p);
    }

    public static String formatFen(Position p) {
        return FenCodec.formatFen(p);
    }

    public static String formatSfen(Position p) {
        return FenCodec.formatSfen(p);
    }

    /** The board field shared by FEN and SFEN. */
    public static String board(Position p) {
        return FenCodec.board(p);
    }

    /** Parses a square in engine coordinates: file letter from 'a', rank number from 1 ("e4", "k11"). */
    public static int parseSquare(Geometry g, String s, String field) {
        return FenCodec.parseSquare(g, s, field);
    }

    /** Engine-coordinate name of a square ("e4", "k11"). */
    public static String squareName(Geometry g, int sq) {
        return g.squareName(sq);
    }

    /** The letter of a file ('a' for the first). */
    public static String fileName(Geometry g, int file) {
        return g.fileName(file);
    }
}
