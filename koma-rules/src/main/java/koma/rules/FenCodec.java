package koma.rules;

import koma.rules.notation.NotationException;

/**
 * FEN and SFEN, paired parse and format, for every rule set (RULES.md 9.2): the text form of a {@link Position},
 * kept in the rules core so that {@link Position#fromFen} and {@link Position#toString} need no notation class.
 * Callers outside the core use {@link koma.rules.notation.Fen}, which is this codec's public face there.
 *
 * <ul>
 *   <li>FEN: {@code board[hand] side castling ep halfmove fullmove}; the first player is upper case and 'w';
 *   holdings in brackets after the board, upper case first ({@code [PPp]}), only for drop games. The short
 *   form {@code board side halfmove fullmove} of Sjaak II and trailing fields left out are accepted.</li>
 *   <li>SFEN: {@code board side hand moveNumber}; the first player (sente) is upper case and 'b'; the hand
 *   is written with counts ({@code 2Pp}) or '-'.</li>
 * </ul>
 * Promoted shogi-family pieces are '+' and their letter. Every error names the field and what was expected.
 */
public final class FenCodec {
    /** Longest accepted FEN/SFEN, to refuse absurd input before any work. */
    public static final int MAX_LENGTH = 1000;

    private FenCodec() {
    }

    /** Parses SFEN for rule sets written in SFEN (shogi) when the text looks like SFEN, else FEN. */
    public static Position parse(RuleSet rs, String text) {
        String[] f = split(text);
        if (rs.sfen && looksLikeSfen(f)) {
            return parseSfen(rs, text);
        }
        return parseFen(rs, text);
    }

    private static boolean looksLikeSfen(String[] f) {
        return f.length >= 2 && f.length <= 4 && !f[0].contains("[")
                && (f.length < 3 || f[2].matches("-|(\\d*[A-Za-z+])+"));
    }

    private static String[] split(String text) {
        if (text == null || text.isBlank()) {
            throw new NotationException("FEN", "empty position string");
        }
        if (text.length() > MAX_LENGTH) {
            throw new NotationException("FEN", "longer than " + MAX_LENGTH + " characters");
        }
        return text.strip().split("\\s+");
    }

    /** Parses FEN (first player 'w', holdings in brackets). */
    public static Position parseFen(RuleSet rs, String text) {
        String[] f = split(text);
        Position p = Position.empty(rs);
        String boardField = f[0];
        int bracket = boardField.indexOf('[');
        if (bracket >= 0) {
            if (!boardField.endsWith("]")) {
                throw new NotationException("FEN field 'holdings'", "expected ']' at the end of '" + boardField.substring(bracket) + "'");
            }
            parseHoldings(rs, p, boardField.substring(bracket + 1, boardField.length() - 1));
            boardField = boardField.substring(0, bracket);
        }
        parseBoard(rs, p, boardField, "FEN field 'board'");
        if (f.length < 2) {
            throw new NotationException("FEN field 'side to move'", "missing; expected 'w' or 'b'");
        }
        p.setSideToMove(side(f[1], "w", "b", "FEN field 'side to move'"));
        int i = 2;
        int fullmove = 1;
        if (i < f.length && !isInt(f[i])) {
            p.setCastlingRights(castling(f[i]));
            i++;
            if (i < f.length && !isInt(f[i])) {
                if (!f[i].equals("-")) {
                    p.setEnPassantSquare(parseSquare(rs.geometry, f[i], "FEN field 'en passant'"));
                }
                i++;
            }
        }
        if (i < f.length) {
            p.setHalfmoveClock(intField(f[i], "FEN field 'halfmove clock'", 0, 100000));
            i++;
        }
        if (i < f.length) {
            fullmove = intField(f[i], "FEN field 'fullmove number'", 1, 100000);
            i++;
        }
        if (i < f.length) {
            throw new NotationException("FEN", "unexpected extra field '" + f[i] + "'");
        }
        p.setGamePly(2 * (fullmove - 1) + p.sideToMove());
        return validate(p);
    }

    /** Parses SFEN (first player 'b', hand after the side to move). */
    public static Position parseSfen(RuleSet rs, String text) {
        String[] f = split(text);
        if (f[0].startsWith("sfen")) {
            throw new NotationException("SFEN", "give the position without the word 'sfen'");
        }
        Position p = Position.empty(rs);
        parseBoard(rs, p, f[0], "SFEN field 'board'");
        if (f.length < 2) {
            throw new NotationException("SFEN field 'side to move'", "missing; expected 'b' or 'w'");
        }
        p.setSideToMove(side(f[1], "b", "w", "SFEN field 'side to move'"));
        if (f.length >= 3 && !f[2].equals("-")) {
            if (!rs.drops) {
                throw new NotationException("SFEN field 'hand'", rs.id + " has no drops; expected '-'");
            }
            String h = f[2];
            int k = 0;
            while (k < h.length()) {
                int count = 0;
                int start = k;
                while (k < h.length() && Character.isDigit(h.charAt(k))) {
                    count = count * 10 + (h.charAt(k++) - '0');
                    if (count > 99) {
                        throw new NotationException("SFEN field 'hand'", "impossible count in '" + h + "'");
                    }
                }
                if (k >= h.length()) {
                    throw new NotationException("SFEN field 'hand'", "count without a piece letter at the end of '" + h + "'");
                }
                if (k > start && count < 2) {
                    throw new NotationException("SFEN field 'hand'", "a count must be 2 or more, got '" + h.substring(start, k) + "'");
                }
                addToHand(rs, p, h.charAt(k++), Math.max(1, count), "SFEN field 'hand'");
            }
        }
        int moveNumber = 1;
        if (f.length >= 4) {
            moveNumber = intField(f[3], "SFEN field 'move number'", 1, 100000);
        }
        if (f.length > 4) {
            throw new NotationException("SFEN", "unexpected extra field '" + f[4] + "'");
        }
        p.setGamePly(moveNumber - 1);
        return validate(p);
    }

    private static Position validate(Position p) {
        try {
            return p.validate();
        } catch (NotationException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new NotationException("position", e.getMessage());
        }
    }

    private static void parseHoldings(RuleSet rs, Position p, String h) {
        if (h.isEmpty() || h.equals("-")) {
            return;
        }
        if (!rs.drops) {
            throw new NotationException("FEN field 'holdings'", rs.id + " has no drops; expected no brackets or '[]'");
        }
        for (char c : h.toCharArray()) {
            addToHand(rs, p, c, 1, "FEN field 'holdings'");
        }
    }

    private static void addToHand(RuleSet rs, Position p, char c, int count, String field) {
        int type = rs.typeOf(String.valueOf(Character.toUpperCase(c)));
        if (!Character.isLetter(c) || type < 0) {
            throw new NotationException(field, "unknown piece letter '" + c + "'");
        }
        PieceType pt = rs.piece(type);
        if (pt.royal() || pt.promoted()) {
            throw new NotationException(field, "a " + pt.name() + " cannot be in hand");
        }
        int color = Character.isUpperCase(c) ? 0 : 1;
        int n = p.handCount(color, type) + count;
        if (n > 63) {
            throw new NotationException(field, "impossible count " + n + " of '" + c + "'");
        }
        p.setHandCount(color, type, n);
    }

    private static void parseBoard(RuleSet rs, Position p, String board, String field) {
        Geometry g = rs.geometry;
        String[] rows = board.split("/", -1);
        if (rows.length != g.ranks) {
            throw new NotationException(field, "expected " + g.ranks + " ranks separated by '/', got " + rows.length);
        }
        for (int i = 0; i < rows.length; i++) {
            int rank = g.ranks - 1 - i;
            String row = rows[i];
            int file = 0;
            for (int k = 0; k < row.length(); k++) {
                char c = row.charAt(k);
                if (Character.isDigit(c)) {
                    if (c == '0') {
                        throw new NotationException(field, "empty-square count starting with 0 in rank " + (i + 1) + " from the top");
                    }
                    int n = 0;
                    while (k < row.length() && Character.isDigit(row.charAt(k))) {
                        n = n * 10 + (row.charAt(k++) - '0');
                        if (n > g.files) {
                            break;
                        }
                    }
                    k--;
                    if (n == 0) {
                        throw new NotationException(field, "empty-square count 0 in rank " + (i + 1) + " from the top");
                    }
                    file += n;
                    if (file > g.files) {
                        break;
                    }
                    continue;
                }
                String letter;
                if (c == '+') {
                    if (k + 1 >= row.length() || !Character.isLetter(row.charAt(k + 1))) {
                        throw new NotationException(field, "'+' not followed by a piece letter in rank " + (i + 1) + " from the top");
                    }
                    letter = "+" + row.charAt(++k);
                } else if (Character.isLetter(c)) {
                    letter = String.valueOf(c);
                } else {
                    throw new NotationException(field, "unexpected character '" + c + "' in rank " + (i + 1) + " from the top");
                }
                char last = letter.charAt(letter.length() - 1);
                int type = rs.typeOf(letter.toUpperCase());
                if (type < 0) {
                    throw new NotationException(field, "unknown piece letter '" + letter + "' for " + rs.id);
                }
                if (file >= g.files) {
                    throw new NotationException(field, "rank " + (i + 1) + " from the top describes more than " + g.files
                            + " squares");
                }
                p.setPiece(g.square(file, rank), Character.isUpperCase(last) ? 0 : 1, type);
                file++;
            }
            if (file != g.files) {
                throw new NotationException(field, "rank " + (i + 1) + " from the top describes " + (file > g.files ? "more than " + g.files : file)
                        + " squares, expected " + g.files);
            }
        }
    }

    private static int side(String s, String first, String second, String field) {
        if (s.equals(first)) {
            return 0;
        }
        if (s.equals(second)) {
            return 1;
        }
        throw new NotationException(field, "expected '" + first + "' or '" + second + "', got '" + s + "'");
    }

    private static int castling(String s) {
        if (s.equals("-")) {
            return 0;
        }
        int rights = 0;
        for (char c : s.toCharArray()) {
            int bit = switch (c) {
                case 'K' -> Position.WHITE_OO;
                case 'Q' -> Position.WHITE_OOO;
                case 'k' -> Position.BLACK_OO;
                case 'q' -> Position.BLACK_OOO;
                default -> throw new NotationException("FEN field 'castling'", "expected '-' or letters from KQkq, got '" + s + "'");
            };
            if ((rights & bit) != 0) {
                throw new NotationException("FEN field 'castling'", "'" + c + "' given twice in '" + s + "'");
            }
            rights |= bit;
        }
        return rights;
    }

    private static boolean isInt(String s) {
        return s.matches("-?\\d+");
    }

    private static int intField(String s, String field, int min, int max) {
        if (!s.matches("\\d{1,9}")) {
            throw new NotationException(field, "expected a whole number, got '" + s + "'");
        }
        int v = Integer.parseInt(s);
        if (v < min || v > max) {
            throw new NotationException(field, "expected a number from " + min + " to " + max + ", got " + v);
        }
        return v;
    }

    /** Parses a square in engine coordinates: file letter from 'a', rank number from 1 ("e4", "k11"). */
    public static int parseSquare(Geometry g, String s, String field) {
        if (s.length() < 2 || s.length() > 3 || s.charAt(0) < 'a' || s.charAt(0) > 'z' || !s.substring(1).matches("\\d+")) {
            throw new NotationException(field, "expected a square such as 'e3', got '" + s + "'");
        }
        int file = s.charAt(0) - 'a';
        int rank = Integer.parseInt(s.substring(1)) - 1;
        if (!g.onBoard(file, rank)) {
            throw new NotationException(field, "square '" + s + "' is off the " + g.files + "x" + g.ranks + " board");
        }
        return g.square(file, rank);
    }

    /** Formats FEN, or SFEN for rule sets written in SFEN. */
    public static String format(Position p) {
        return p.ruleSet().sfen ? formatSfen(p) : formatFen(p);
    }

    public static String formatFen(Position p) {
        RuleSet rs = p.ruleSet();
        StringBuilder sb = new StringBuilder(board(p));
        if (rs.drops) {
            sb.append('[');
            for (int color = 0; color < 2; color++) {
                for (int type : p.handTypes()) {
                    String l = rs.piece(type).letter();
                    for (int i = p.handCount(color, type); i > 0; i--) {
                        sb.append(color == 0 ? l : l.toLowerCase());
                    }
                }
            }
            sb.append(']');
        }
        sb.append(p.sideToMove() == 0 ? " w " : " b ");
        int c = p.castlingRights();
        if (c == 0) {
            sb.append('-');
        } else {
            for (int i = 0; i < 4; i++) {
                if ((c & (1 << i)) != 0) {
                    sb.append("KQkq".charAt(i));
                }
            }
        }
        sb.append(' ').append(p.enPassantSquare() < 0 ? "-" : rs.geometry.squareName(p.enPassantSquare()));
        sb.append(' ').append(p.halfmoveClock()).append(' ').append(p.gamePly() / 2 + 1);
        return sb.toString();
    }

    public static String formatSfen(Position p) {
        RuleSet rs = p.ruleSet();
        StringBuilder sb = new StringBuilder(board(p));
        sb.append(p.sideToMove() == 0 ? " b " : " w ");
        int len = sb.length();
        for (int color = 0; color < 2; color++) {
            for (int type : p.handTypes()) {
                int n = p.handCount(color, type);
                if (n > 0) {
                    if (n > 1) {
                        sb.append(n);
                    }
                    String l = rs.piece(type).letter();
                    sb.append(color == 0 ? l : l.toLowerCase());
                }
            }
        }
        if (sb.length() == len) {
            sb.append('-');
        }
        sb.append(' ').append(p.gamePly() + 1);
        return sb.toString();
    }

    /** The board field shared by FEN and SFEN. */
    public static String board(Position p) {
        Geometry g = p.geometry();
        RuleSet rs = p.ruleSet();
        StringBuilder sb = new StringBuilder();
        for (int rank = g.ranks - 1; rank >= 0; rank--) {
            int empty = 0;
            for (int file = 0; file < g.files; file++) {
                int sq = g.square(file, rank);
                if (p.isEmpty(sq)) {
                    empty++;
                    continue;
                }
                if (empty > 0) {
                    sb.append(empty);
                    empty = 0;
                }
                String l = rs.piece(p.typeAt(sq)).letter();
                sb.append(p.colorAt(sq) == 0 ? l : l.toLowerCase());
            }
            if (empty > 0) {
                sb.append(empty);
            }
            if (rank > 0) {
                sb.append('/');
            }
        }
        return sb.toString();
    }
}
