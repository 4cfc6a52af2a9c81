package koma.rules.notation;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * CSA standard file format V2.2 for shogi, paired format and parse.
 *
 * <ul>
 *   <li>{@code V2.2}, {@code N+}/{@code N-} (the tags {@code White}/{@code Black}: sente first), {@code $EVENT},
 *   {@code $SITE}, {@code $START_TIME} ({@code Date} and {@code Time}), {@code $TIME_LIMIT} ({@code TimeControl});
 *   other tags as {@code 'Tag: value} comment lines.</li>
 *   <li>{@code PI} for the start position, else {@code P1}..{@code P9} and the hands {@code P+00HI00FU},
 *   {@code P-00KA}; then {@code +} or {@code -} for the side to move.</li>
 *   <li>Moves {@code +7776FU} (origin, destination, the piece after the move: {@code +8822UM} promotes),
 *   drops {@code -0055KA}; {@code T12} after a move is its time in seconds; {@code '} lines are comments.</li>
 *   <li>The end: {@code %TORYO}, {@code %TSUMI}, {@code %SENNICHITE}, {@code %JISHOGI}, {@code %KACHI},
 *   {@code %TIME_UP}, {@code %+ILLEGAL_ACTION}/{@code %-ILLEGAL_ACTION} (the side that lost by it),
 *   {@code %HIKIWAKE}, {@code %CHUDAN}, chosen from the {@code Termination} tag and the result.</li>
 * </ul>
 * Reading also takes several statements on one line separated by {@code ,}, {@code P+00AL} (the rest of the
 * pieces to that hand), {@code PI} followed by pieces removed ({@code PI82HI22KA}), and {@code %ILLEGAL_MOVE}.
 * A result CSA cannot express (an adjudicated win) is written as {@code %CHUDAN}.
 */
public final class Csa {
    private static final Map<String, String> CODES = ShogiNotation.CSA_CODES;

    private Csa() {
    }

    /** The record as CSA V2.2 text, ending with a newline. */
    public static String format(GameRecord g) {
        if (!g.variant().equals(ShogiNotation.KIFU_RULES.id)) {
            throw new NotationException("CSA", "written for shogi only, not " + g.variant());
        }
        RuleSet rs = g.ruleSet();
        Geometry geo = rs.geometry;
        Map<String, String> tags = new LinkedHashMap<>(g.tags());
        StringBuilder sb = new StringBuilder("V2.2\n");
        sb.append("N+").append(oneLine(tags.getOrDefault("White", ""))).append('\n');
        sb.append("N-").append(oneLine(tags.getOrDefault("Black", ""))).append('\n');
        line(sb, "$EVENT:", tags.remove("Event"));
        line(sb, "$SITE:", tags.remove("Site"));
        String date = tags.remove("Date"), time = tags.remove("Time");
        if (date != null && !date.contains("?")) {
            line(sb, "$START_TIME:", date.replace('.', '/') + (time == null ? "" : " " + time));
        }
        line(sb, "$TIME_LIMIT:", tags.remove("TimeControl"));
        String termination = tags.remove("Termination");
        for (String k : List.of("White", "Black", "Result")) {
            tags.remove(k);
        }
        tags.forEach((k, v) -> sb.append('\'').append(k).append(": ").append(oneLine(v)).append('\n'));
        Position p = g.startPosition();
        if (g.fromStart()) {
            sb.append("PI\n+\n");
        } else {
            for (int row = 0; row < geo.ranks; row++) {
                sb.append('P').append(row + 1);
                for (int col = 0; col < geo.files; col++) {
                    int sq = geo.square(col, geo.ranks - 1 - row);
                    sb.append(p.isEmpty(sq) ? " * " : (p.colorAt(sq) == 0 ? "+" : "-") + CODES.get(rs.piece(p.typeAt(sq)).letter()));
                }
                sb.append('\n');
            }
            for (int color = 0; color < 2; color++) {
                StringBuilder h = new StringBuilder();
                for (String letter : ShogiNotation.HAND_ORDER) {
                    int n = p.handCount(color, rs.typeOf(letter));
                    for (int i = 0; i < n; i++) {
                        h.append("00").append(CODES.get(letter));
                    }
                }
                if (!h.isEmpty()) {
                    sb.append(color == 0 ? "P+" : "P-").append(h).append('\n');
                }
            }
            sb.append(p.sideToMove() == 0 ? "+\n" : "-\n");
        }
        List<Integer> moves = g.moveInts();
        for (int i = 0; i < moves.size(); i++) {
            int m = moves.get(i);
            sb.append(move(p, m)).append('\n');
            if (!g.moveTimesMs().isEmpty()) {
                sb.append('T').append(g.moveTimesMs().get(i) / 1000).append('\n');
            }
            comment(sb, g.comment(i));
            p.doMove(m);
        }
        String end = specialMove(termination, g.winner(), p.sideToMove());
        if (end == null && g.closingComment() != null) {
            end = "%CHUDAN";
        }
        if (end != null) {
            sb.append(end).append('\n');
        }
        comment(sb, g.closingComment());
        return sb.toString();
    }

    /** {@code +7776FU}: side, origin (00 for a drop), destination, the piece after the move. */
    static String move(Position p, int m) {
        RuleSet rs = p.ruleSet();
        Geometry geo = rs.geometry;
        String side = p.sideToMove() == 0 ? "+" : "-";
        int to = Move.to(m);
        if (Move.isDrop(m)) {
            return side + "00" + ShogiNotation.csaSquare(geo, to) + CODES.get(rs.piece(Move.type(m)).letter());
        }
        int from = Move.from(m);
        int after = Move.isPromotion(m) ? Move.type(m) : p.typeAt(from);
        return side + ShogiNotation.csaSquare(geo, from) + ShogiNotation.csaSquare(geo, to) + CODES.get(rs.piece(after).letter());
    }

    private static String specialMove(String termination, int winner, int toMove) {
        String illegal = winner == 0 ? "%-ILLEGAL_ACTION" : winner == 1 ? "%+ILLEGAL_ACTION" : "%CHUDAN";
        if (termination == null) {
            return winner == -2 ? null : winner == -1 ? "%HIKIWAKE" : winner == toMove ? illegal : "%TORYO";
        }
        return switch (termination) {
            case "checkmate", "no legal move", "stalemate" -> "%TSUMI";
            case "resignation" -> winner == toMove ? illegal : "%TORYO";
            case "repetition" -> "%SENNICHITE";
            case "perpetual check", "illegal move", "rules infraction" -> illegal;
            case "time forfeit" -> "%TIME_UP";
            case "impasse" -> winner == -1 ? "%JISHOGI" : "%KACHI";
            case "declaration" -> winner == -1 ? "%JISHOGI" : winner == toMove ? "%KACHI" : illegal;
            default -> winner == -1 ? "%HIKIWAKE" : "%CHUDAN";
        };
    }

    private static void line(StringBuilder sb, String key, String value) {
        if (value != null && !value.isEmpty() && !value.equals("?")) {
            sb.append(key).append(oneLine(value)).append('\n');
        }
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ');
    }

    private static void comment(StringBuilder sb, String c) {
        ShogiNotation.commentLines(sb, '\'', c);
    }

    // ------------------------------------------------------------------ reading

    /** Reads a CSA record (V2, V2.1, V2.2); errors name the line and what is wrong. */
    public static GameRecord parse(String text) {
        ShogiRecordReader rd = new ShogiRecordReader("CSA", text);
        RuleSet rs = rd.rs;
        String[] lines = rd.lines;
        Map<String, String> tags = rd.tags;
        String[] rows = new String[9];
        StringBuilder[] hands = {new StringBuilder(), new StringBuilder()};
        String pi = null;
        boolean allToSente = false, allToGote = false;
        String special = null, specialField = null;
        int specialMover = -1;
        for (int ln = 0; ln < lines.length; ln++) {
            String raw = lines[ln];
            String field = "CSA line " + (ln + 1);
            if (raw.startsWith("'")) {
                String c = raw.substring(1);
                if (c.startsWith("CSA encoding") || c.startsWith("---")) {
                    continue;
                }
                if (!rd.comment(c, special != null) && rd.position == null) {
                    int colon = c.indexOf(": ");
                    if (colon > 0 && c.substring(0, colon).matches("[A-Za-z][\\w-]*")) {
                        tags.put(c.substring(0, colon), c.substring(colon + 2));
                    }
                }
                continue;
            }
            for (String st : raw.split(",")) {
                String s = st.strip();
                if (s.isEmpty()) {
                    continue;
                }
                if (special != null) {
                    if (s.startsWith("T")) {
                        continue;
                    }
                    throw new NotationException(field, "'" + Kif.clip(s) + "' after the end of the game (" + special + ")");
                }
                if (rd.position == null) {
                    if (s.matches("V2(\\.\\d)?")) {
                        continue;
                    }
                    if (s.startsWith("V")) {
                        throw new NotationException(field, "unsupported version '" + s + "'; expected V2, V2.1 or V2.2");
                    }
                    if (s.startsWith("N+") || s.startsWith("N-")) {
                        tags.put(s.charAt(1) == '+' ? "White" : "Black", s.substring(2));
                        continue;
                    }
                    if (s.startsWith("$")) {
                        int colon = s.indexOf(':');
                        if (colon < 0) {
                            throw new NotationException(field, "expected '$KEY:value', got '" + Kif.clip(s) + "'");
                        }
                        String key = s.substring(1, colon), value = s.substring(colon + 1);
                        switch (key) {
                            case "EVENT" -> tags.put("Event", value);
                            case "SITE" -> tags.put("Site", value);
                            case "TIME_LIMIT" -> tags.put("TimeControl", value);
                            case "START_TIME" -> rd.dateTags(value);
                            default -> tags.put(key, value);
                        }
                        continue;
                    }
                    if (s.startsWith("PI")) {
                        pi = s.substring(2);
                        continue;
                    }
                    if (s.matches("P[1-9].*")) {
                        String row = raw.stripLeading().substring(2).replaceAll("[\\s,]+$", "");
                        rows[s.charAt(1) - '1'] = row.length() < 27 && row.length() > 24 ? row + " ".repeat(27 - row.length()) : row;
                        continue;
                    }
                    if (s.startsWith("P+") || s.startsWith("P-")) {
                        boolean sente = s.charAt(1) == '+';
                        if (s.substring(2).equals("00AL")) {
                            allToSente |= sente;
                            allToGote |= !sente;
                        } else {
                            (sente ? hands[0] : hands[1]).append(s.substring(2));
                        }
                        continue;
                    }
                    if (s.equals("+") || s.equals("-")) {
                        rd.begin(startPosition(rs, pi, rows, hands, allToSente, allToGote, s.equals("-"), field));
                        continue;
                    }
                    if (s.matches("[+-]\\d{4}[A-Z]{2}")) {
                        rd.begin(startPosition(rs, pi, rows, hands, allToSente, allToGote, s.charAt(0) == '-', field));
                    } else {
                        throw new NotationException(field, "expected a header, a position line (PI, P1..P9, P+, P-) or "
                                + "the side to move, got '" + Kif.clip(s) + "'");
                    }
                }
                if (s.startsWith("T")) {
                    if (!s.matches("T\\d{1,9}(\\.\\d+)?") || rd.moveCount() == 0) {
                        throw new NotationException(field, "expected a time 'T<seconds>' after a move, got '" + Kif.clip(s) + "'");
                    }
                    rd.lastMoveTime(Math.round(Double.parseDouble(s.substring(1)) * 1000));
                    continue;
                }
                if (s.startsWith("%")) {
                    special = s;
                    specialField = field;
                    specialMover = rd.position.sideToMove();
                    continue;
                }
                rd.play(readMove(rd.position, s, field + " (move " + (rd.moveCount() + 1) + ")"), -1);
            }
        }
        String result = "*";
        if (special != null) {
            int toMove = specialMover;
            String lose = toMove == 0 ? "0-1" : "1-0", win = toMove == 0 ? "1-0" : "0-1";
            String[] r = switch (special) {
                case "%TORYO" -> new String[]{lose, "resignation"};
                case "%TSUMI" -> new String[]{lose, "checkmate"};
                case "%TIME_UP" -> new String[]{lose, "time forfeit"};
                case "%ILLEGAL_MOVE" -> new String[]{lose, "illegal move"};
                case "%+ILLEGAL_ACTION" -> new String[]{"0-1", "illegal move"};
                case "%-ILLEGAL_ACTION" -> new String[]{"1-0", "illegal move"};
                case "%KACHI" -> new String[]{win, "declaration"};
                case "%SENNICHITE" -> new String[]{"1/2-1/2", "repetition"};
                case "%JISHOGI" -> new String[]{"1/2-1/2", "impasse"};
                case "%HIKIWAKE" -> new String[]{"1/2-1/2", "agreement"};
                case "%CHUDAN", "%FUZUMI", "%ERROR", "%MATTA" -> new String[]{"*", "abandoned"};
                default -> throw new NotationException(specialField, "unknown special move '" + Kif.clip(special) + "'");
            };
            result = r[0];
            tags.put("Termination", r[1]);
        }
        return rd.record(result, "no position (PI or P1..P9 and '+' or '-') and no moves found");
    }

    private static int readMove(Position p, String s, String field) {
        if (!s.matches("[+-]\\d{4}[A-Z]{2}")) {
            throw new NotationException(field, "expected a move such as '+7776FU' or '-0055KA', got '" + Kif.clip(s) + "'");
        }
        if ((s.charAt(0) == '+') != (p.sideToMove() == 0)) {
            throw new NotationException(field, "'" + s + "' moves out of turn: " + (p.sideToMove() == 0 ? "sente (+)" : "gote (-)")
                    + " is to move");
        }
        RuleSet rs = p.ruleSet();
        Geometry geo = rs.geometry;
        String code = s.substring(5);
        String letter = letterOf(code);
        if (letter == null) {
            throw new NotationException(field, "unknown piece code '" + code + "'");
        }
        int after = rs.typeOf(letter);
        for (int m : p.legalMoves()) {
            if (move(p, m).equals(s)) {
                return m;
            }
        }
        if (s.charAt(3) == '0' || s.charAt(4) == '0') {
            throw new NotationException(field, "destination " + s.substring(3, 5) + " is off the board");
        }
        throw new NotationException(field, "'" + s + "' (" + rs.piece(after).name() + ") is not a legal move in " + Fen.format(p));
    }

    private static String letterOf(String code) {
        return ShogiNotation.letterOf(CODES, code);
    }

    /** The start position from PI (with pieces removed) or the P1..P9 rows and the hands. */
    private static Position startPosition(RuleSet rs, String pi, String[] rows, StringBuilder[] hands, boolean allToSente,
                                          boolean allToGote, boolean goteFirst, String field) {
        Geometry geo = rs.geometry;
        Position start = Position.start(rs);
        Position p = Position.empty(rs);
        boolean anyRow = false;
        for (String r : rows) {
            anyRow |= r != null;
        }
        if (pi != null) {
            if (pi.length() % 4 != 0) {
                throw new NotationException("CSA line PI", "expected pairs of square and piece such as '82HI', got '" + pi + "'");
            }
            boolean[] removed = new boolean[geo.squares];
            for (int k = 0; k + 4 <= pi.length(); k += 4) {
                String part = pi.substring(k, k + 4);
                int sq = square(geo, part.substring(0, 2), "CSA line PI");
                if (start.isEmpty(sq) || removed[sq] || !CODES.get(rs.piece(start.typeAt(sq)).letter()).equals(part.substring(2))) {
                    throw new NotationException("CSA line PI", "no " + part.substring(2) + " on " + part.substring(0, 2) + " to remove");
                }
                removed[sq] = true;
            }
            for (int sq = 0; sq < geo.squares; sq++) {
                if (!start.isEmpty(sq) && !removed[sq]) {
                    p.setPiece(sq, start.colorAt(sq), start.typeAt(sq));
                }
            }
        } else if (anyRow) {
            for (int r = 0; r < 9; r++) {
                String row = rows[r];
                if (row == null) {
                    throw new NotationException("CSA position", "line P" + (r + 1) + " is missing");
                }
                if (row.length() != 27) {
                    throw new NotationException("CSA line P" + (r + 1), "expected 9 squares of 3 characters ('+FU', '-KY', ' * '), got '" + row + "'");
                }
                for (int c = 0; c < 9; c++) {
                    String cell = row.substring(3 * c, 3 * c + 3);
                    if (cell.equals(" * ")) {
                        continue;
                    }
                    String letter = letterOf(cell.substring(1));
                    if ((cell.charAt(0) != '+' && cell.charAt(0) != '-') || letter == null) {
                        throw new NotationException("CSA line P" + (r + 1), "unknown square '" + cell + "'");
                    }
                    p.setPiece(geo.square(c, geo.ranks - 1 - r), cell.charAt(0) == '+' ? 0 : 1, rs.typeOf(letter));
                }
            }
        } else if (hands[0].isEmpty() && hands[1].isEmpty()) {
            throw new NotationException(field, "no start position: expected PI or the lines P1..P9 before the moves");
        }
        for (int color = 0; color < 2; color++) {
            String h = hands[color].toString();
            for (int k = 0; k + 4 <= h.length(); k += 4) {
                String part = h.substring(k, k + 4);
                String letter = letterOf(part.substring(2));
                boolean inHand = part.startsWith("00");
                if (letter == null || (inHand && (letter.startsWith("+") || letter.equals("K")))) {
                    throw new NotationException("CSA line P" + (color == 0 ? '+' : '-'), "cannot put '" + part.substring(2) + "' "
                            + (inHand ? "in hand" : "on the board"));
                }
                if (inHand) {
                    int type = rs.typeOf(letter);
                    p.setHandCount(color, type, p.handCount(color, type) + 1);
                } else {
                    int sq = square(geo, part.substring(0, 2), "CSA line P" + (color == 0 ? '+' : '-'));
                    if (!p.isEmpty(sq)) {
                        throw new NotationException("CSA line P" + (color == 0 ? '+' : '-'), "square " + part.substring(0, 2) + " is already occupied");
                    }
                    p.setPiece(sq, color, rs.typeOf(letter));
                }
            }
            if (h.length() % 4 != 0) {
                throw new NotationException("CSA line P" + (color == 0 ? '+' : '-'), "expected groups such as '00FU', got '" + h + "'");
            }
        }
        if (allToSente || allToGote) {
            int[] total = new int[rs.pieceCount()];
            for (int sq = 0; sq < geo.squares; sq++) {
                if (!start.isEmpty(sq)) {
                    total[start.typeAt(sq)]++;
                }
            }
            for (int sq = 0; sq < geo.squares; sq++) {
                if (!p.isEmpty(sq)) {
                    total[rs.piece(p.typeAt(sq)).demotesTo()]--;
                }
            }
            for (int type : p.handTypes()) {
                int rest = total[type] - p.handCount(0, type) - p.handCount(1, type);
                p.setHandCount(allToSente ? 0 : 1, type, p.handCount(allToSente ? 0 : 1, type) + Math.max(0, rest));
            }
        }
        p.setSideToMove(goteFirst ? 1 : 0);
        try {
            return p.validate();
        } catch (IllegalArgumentException e) {
            throw new NotationException("CSA position", e.getMessage());
        }
    }

    private static int square(Geometry geo, String two, String field) {
        int file = two.charAt(0) - '0', rank = two.charAt(1) - '0';
        if (file < 1 || file > 9 || rank < 1 || rank > 9) {
            throw new NotationException(field, "square '" + two + "' is off the board");
        }
        return geo.square(geo.files - file, geo.ranks - rank);
    }
}
