package koma.rules.notation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * KIF (Kakinoki) records of shogi games, UTF-8, as Shogidokoro, Kifu for Windows and lishogi write them; paired
 * format and parse.
 *
 * <ul>
 *   <li>Header lines {@code key：value}: {@code 開始日時} (from the tags {@code Date} and {@code Time}), {@code 棋戦}
 *   ({@code Event}), {@code 場所} ({@code Site}), {@code 持ち時間} ({@code TimeControl}), {@code 秒読み}
 *   ({@code Byoyomi}: Kakinoki's byoyomi header, {@code 秒読み：30秒}), {@code 先手}/{@code 後手}
 *   ({@code White}/{@code Black}: the first player is sente) and any other tag under its own name.
 *   {@code 手合割：平手} for the start position, the handicap name ({@code 香落ち}, {@code 角落ち},
 *   {@code 飛車落ち}, {@code 二枚落ち} ... {@code 十枚落ち}) for the standard handicaps, else a board diagram (BOD)
 *   with both hands and {@code 後手番} when gote moves first.</li>
 *   <li>One numbered line per move: {@code    1 ７六歩(77)   ( 0:01/00:00:01)}: destination (or {@code 同　}),
 *   piece, {@code 成}/{@code 不成}/{@code 打}, origin in parentheses; then the move's time and the running total.
 *   Comment lines {@code *...} follow their move.</li>
 *   <li>The closing line ({@code 投了}, {@code 詰み}, {@code 千日手}, {@code 持将棋}, {@code 切れ負け},
 *   {@code 反則勝ち}, {@code 反則負け}, {@code 入玉勝ち}, {@code 中断}) from the {@code Termination} tag and
 *   {@code まで61手で先手の勝ち}; {@code 中断} for an unfinished game that has a closing comment, so that the comment
 *   is not read back as the last move's.</li>
 * </ul>
 * Reading skips {@code #} lines, bookmarks ({@code &}) and variations (from the first {@code 変化：} line on); a move
 * without its origin is read as Japanese notation ({@link ShogiNotation#parseJapanese}). Only shogi is written: no
 * KIF convention for Wa shogi's 11x11 board and pieces was found.
 */
public final class Kif {
    /** Standard handicaps: 手合割 name and start SFEN (the handicap giver is gote and moves first). */
    static final Map<String, String> HANDICAPS = new LinkedHashMap<>();

    static {
        String rest = "/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        HANDICAPS.put("香落ち", "lnsgkgsn1/1r5b1" + rest);
        HANDICAPS.put("右香落ち", "1nsgkgsnl/1r5b1" + rest);
        HANDICAPS.put("角落ち", "lnsgkgsnl/1r7" + rest);
        HANDICAPS.put("飛車落ち", "lnsgkgsnl/7b1" + rest);
        HANDICAPS.put("飛香落ち", "lnsgkgsn1/7b1" + rest);
        HANDICAPS.put("二枚落ち", "lnsgkgsnl/9" + rest);
        HANDICAPS.put("四枚落ち", "1nsgkgsn1/9" + rest);
        HANDICAPS.put("六枚落ち", "2sgkgs2/9" + rest);
        HANDICAPS.put("八枚落ち", "3gkg3/9" + rest);
        HANDICAPS.put("十枚落ち", "4k4/9" + rest);
    }

    private static final Map<String, String> BOARD = ShogiNotation.BOARD_NAMES;

    private Kif() {
    }

    private static void requireShogi(String variant) {
        if (!variant.equals(ShogiNotation.KIFU_RULES.id)) {
            throw new NotationException("KIF", "written for shogi only, not " + variant);
        }
    }

    /** The record as KIF text (UTF-8 when saved), ending with an empty line. */
    public static String format(GameRecord g) {
        requireShogi(g.variant());
        RuleSet rs = g.ruleSet();
        Position root = g.startPosition();
        Map<String, String> tags = new LinkedHashMap<>(g.tags());
        StringBuilder sb = new StringBuilder("#KIF version=2.0 encoding=UTF-8\n");
        String date = tags.remove("Date");
        String time = tags.remove("Time");
        if (date != null && !date.contains("?")) {
            sb.append("開始日時：").append(date.replace('.', '/')).append(time == null ? "" : " " + time).append('\n');
        }
        header(sb, "棋戦", tags.remove("Event"));
        header(sb, "場所", tags.remove("Site"));
        header(sb, "持ち時間", tags.remove("TimeControl"));
        header(sb, "秒読み", tags.remove("Byoyomi"));
        String handicap = null;
        if (g.fromStart()) {
            handicap = "平手";
        } else {
            String key = GameRecord.startKey(root);
            for (Map.Entry<String, String> e : HANDICAPS.entrySet()) {
                if (GameRecord.startKey(Fen.parse(rs, e.getValue())).equals(key)) {
                    handicap = e.getKey();
                }
            }
        }
        if (handicap != null) {
            sb.append("手合割：").append(handicap).append('\n');
        } else {
            board(sb, root);
        }
        boolean even = "平手".equals(handicap) || handicap == null;
        sb.append(even ? "先手：" : "下手：").append(tags.getOrDefault("White", "")).append('\n');
        sb.append(even ? "後手：" : "上手：").append(tags.getOrDefault("Black", "")).append('\n');
        tags.remove("White");
        tags.remove("Black");
        tags.remove("Result");
        String termination = tags.remove("Termination");
        tags.forEach((k, v) -> header(sb, k, v));
        sb.append("手数----指手---------消費時間--\n");

        Position p = root.copy();
        Geometry geo = rs.geometry;
        List<Integer> moves = g.moveInts();
        long[] total = new long[2];
        int lastTo = -1;
        for (int i = 0; i < moves.size(); i++) {
            int m = moves.get(i);
            String mv = moveText(p, m, lastTo);
            long ms = g.moveTimesMs().isEmpty() ? 0 : g.moveTimesMs().get(i);
            total[p.sideToMove()] += ms;
            sb.append(String.format("%4d %s%s %s\n", i + 1, mv, " ".repeat(Math.max(0, 12 - width(mv))),
                    time(ms, total[p.sideToMove()])));
            comment(sb, g.comment(i));
            lastTo = Move.to(m);
            p.doMove(m);
        }
        int n = moves.size();
        String last = closingWord(termination, g.winner(), p.sideToMove());
        if (last == null && g.closingComment() != null) {
            last = "中断";
        }
        if (last != null) {
            sb.append(String.format("%4d %s\n", n + 1, last));
        }
        comment(sb, g.closingComment());
        String side0 = even ? "先手" : "下手", side1 = even ? "後手" : "上手";
        switch (g.result()) {
            case "1-0" -> sb.append("まで").append(n).append("手で").append(side0).append("の勝ち\n");
            case "0-1" -> sb.append("まで").append(n).append("手で").append(side1).append("の勝ち\n");
            case "1/2-1/2" -> sb.append("まで").append(n).append("手で")
                    .append("持将棋".equals(last) ? "持将棋" : "千日手".equals(last) ? "千日手" : "引き分け").append('\n');
            default -> {
                if ("中断".equals(last)) {
                    sb.append("まで").append(n).append("手で中断\n");
                }
            }
        }
        sb.append('\n');
        return sb.toString();
    }

    /** The move as KIF writes it: {@code ７六歩(77)}, {@code 同　歩(76)}, {@code ２二角成(88)}, {@code ５五角打}. */
    static String moveText(Position p, int m, int lastTo) {
        RuleSet rs = p.ruleSet();
        Geometry geo = rs.geometry;
        int to = Move.to(m);
        StringBuilder mv = new StringBuilder();
        if (Move.isDrop(m)) {
            return mv.append(ShogiNotation.japaneseSquare(geo, to)).append(ShogiNotation.NAMES.get(rs.piece(Move.type(m)).letter()))
                    .append('打').toString();
        }
        int from = Move.from(m);
        String name = ShogiNotation.NAMES.get(rs.piece(p.typeAt(from)).letter());
        mv.append(to == lastTo ? "同　" : ShogiNotation.japaneseSquare(geo, to)).append(name);
        if (Move.isPromotion(m)) {
            mv.append('成');
        } else if (ShogiNotation.couldPromote(p, m)) {
            mv.append("不成");
        }
        return mv.append('(').append(ShogiNotation.csaSquare(geo, from)).append(')').toString();
    }

    /** The closing word for a termination label (null: none written). */
    private static String closingWord(String termination, int winner, int toMove) {
        if (termination == null) {
            return winner == -2 ? null : winner == -1 ? "持将棋" : winner == toMove ? "反則勝ち" : "投了";
        }
        return switch (termination) {
            case "checkmate", "no legal move", "stalemate" -> "詰み";
            case "resignation" -> "投了";
            case "repetition" -> "千日手";
            case "perpetual check", "illegal move", "rules infraction" -> winner == toMove ? "反則勝ち" : "反則負け";
            case "time forfeit" -> "切れ負け";
            case "impasse", "declaration" -> winner == -1 ? "持将棋" : "入玉勝ち";
            case "adjudication" -> winner == -1 ? "持将棋" : "中断";
            default -> "中断";
        };
    }

    private static void header(StringBuilder sb, String key, String value) {
        if (value != null && !value.isEmpty() && !value.equals("?")) {
            sb.append(key).append('：').append(value.replace('\n', ' ')).append('\n');
        }
    }

    private static void comment(StringBuilder sb, String c) {
        ShogiNotation.commentLines(sb, '*', c);
    }

    /** Display width: full-width characters count 2. */
    private static int width(CharSequence s) {
        int w = 0;
        for (int i = 0; i < s.length(); i++) {
            w += s.charAt(i) < 0x100 ? 1 : 2;
        }
        return w;
    }

    private static String time(long ms, long totalMs) {
        long s = ms / 1000, t = totalMs / 1000;
        return String.format("(%2d:%02d/%02d:%02d:%02d)", s / 60, s % 60, t / 3600, (t / 60) % 60, t % 60);
    }

    /** The board diagram (BOD) of a position other than the start. */
    private static void board(StringBuilder sb, Position p) {
        RuleSet rs = p.ruleSet();
        Geometry g = rs.geometry;
        sb.append("後手の持駒：").append(hand(p, 1)).append('\n');
        sb.append("  ９ ８ ７ ６ ５ ４ ３ ２ １\n");
        sb.append("+---------------------------+\n");
        for (int row = 0; row < g.ranks; row++) {
            sb.append('|');
            for (int col = 0; col < g.files; col++) {
                int sq = g.square(col, g.ranks - 1 - row);
                if (p.isEmpty(sq)) {
                    sb.append(" ・");
                } else {
                    sb.append(p.colorAt(sq) == 0 ? ' ' : 'v').append(BOARD.get(rs.piece(p.typeAt(sq)).letter()));
                }
            }
            sb.append('|').append(ShogiNotation.KANJI_NUMBERS[row + 1]).append('\n');
        }
        sb.append("+---------------------------+\n");
        sb.append("先手の持駒：").append(hand(p, 0)).append('\n');
        if (p.sideToMove() == 1) {
            sb.append("後手番\n");
        }
    }

    private static String hand(Position p, int color) {
        RuleSet rs = p.ruleSet();
        StringBuilder sb = new StringBuilder();
        for (String letter : ShogiNotation.HAND_ORDER) {
            int count = p.handCount(color, rs.typeOf(letter));
            if (count > 0) {
                sb.append(BOARD.get(letter)).append(count > 1 ? ShogiNotation.KANJI_NUMBERS[count] : "").append('　');
            }
        }
        return sb.isEmpty() ? "なし" : sb.toString();
    }

    // ------------------------------------------------------------------ reading

    private static final Pattern MOVE_LINE = Pattern.compile(
            "^\\s*(\\d+)\\s+(\\S+)(?:\\s+\\(\\s*(\\d+):(\\d+)(?:/(\\d+):(\\d+):(\\d+))?\\s*\\))?\\s*\\+?\\s*$");
    private static final Pattern MOVE_TEXT = Pattern.compile(
            "^(同|([１-９1-9])([一二三四五六七八九]))(成香|成桂|成銀|[歩香桂銀金角飛玉王と杏圭全馬龍竜])(.*?)(?:\\((\\d)(\\d)\\))?$");
    private static final Map<String, String> HEADER_TAGS = Map.of("棋戦", "Event", "場所", "Site", "持ち時間",
            "TimeControl", "秒読み", "Byoyomi", "先手", "White", "下手", "White", "後手", "Black", "上手", "Black");
    private static final Map<String, String> TERMINATIONS = Map.of("投了", "resignation", "詰み", "checkmate",
            "千日手", "repetition", "持将棋", "impasse", "切れ負け", "time forfeit", "反則勝ち", "illegal move",
            "反則負け", "illegal move", "入玉勝ち", "declaration", "中断", "abandoned", "不詰", "no checkmate");

    /**
     * Reads every game of a KIF text holding one or more records, each starting with its {@code #KIF} line (as
     * {@link #format} writes them, one after another); errors name the game, the line and what is wrong.
     */
    public static List<GameRecord> parseAll(String text) {
        if (text == null || text.isBlank()) {
            throw new NotationException("KIF", "empty record");
        }
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (String line : text.split("\r?\n|\r", -1)) {
            if (line.replace("\uFEFF", "").startsWith("#KIF") && !cur.toString().isBlank()) {
                parts.add(cur.toString());
                cur.setLength(0);
            }
            cur.append(line).append('\n');
        }
        if (!cur.toString().isBlank()) {
            parts.add(cur.toString());
        }
        List<GameRecord> games = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            try {
                games.add(parse(parts.get(i)));
            } catch (IllegalArgumentException e) {
                throw new NotationException("KIF game " + (i + 1), e.getMessage());
            }
        }
        return games;
    }

    /** Reads a shogi KIF record; errors name the line and what is wrong. */
    public static GameRecord parse(String text) {
        ShogiRecordReader rd = new ShogiRecordReader("KIF", text);
        String[] lines = rd.lines;
        RuleSet rs = rd.rs;
        Map<String, String> tags = rd.tags;
        List<String> bodRows = new ArrayList<>();
        String[] bodHands = new String[2];
        boolean goteFirst = false;
        int lastTo = -1;
        String result = "*", closing = null;
        boolean ended = false;
        for (int ln = 0; ln < lines.length; ln++) {
            String line = lines[ln];
            String field = "KIF line " + (ln + 1);
            String s = line.strip();
            if (s.isEmpty() || s.startsWith("#") || s.startsWith("&")) {
                continue;
            }
            if (s.startsWith("変化")) {
                break;
            }
            if (s.startsWith("*")) {
                String c = s.substring(1);
                rd.comment(c, ended);
                continue;
            }
            if (s.startsWith("まで")) {
                Matcher mt = Pattern.compile("まで(\\d+)手で(先手|後手|下手|上手)の(勝ち|反則勝ち|反則負け)").matcher(s);
                if (mt.find()) {
                    boolean first = mt.group(2).equals("先手") || mt.group(2).equals("下手");
                    boolean won = !mt.group(3).equals("反則負け");
                    result = first == won ? "1-0" : "0-1";
                } else if (s.matches("まで\\d+手で(千日手|持将棋|引き分け).*")) {
                    result = "1/2-1/2";
                }
                ended = true;
                continue;
            }
            if (rd.position == null) {
                if (s.startsWith("|")) {
                    bodRows.add(s);
                    continue;
                }
                if (s.startsWith("+") || s.startsWith("９") || s.matches("[９８７６５４３２１\\s]+")) {
                    continue;
                }
                if (s.equals("後手番") || s.equals("上手番")) {
                    goteFirst = true;
                    continue;
                }
                if (s.equals("先手番") || s.equals("下手番")) {
                    continue;
                }
                if (s.startsWith("手数")) {
                    rd.begin(startPosition(rs, tags, bodRows, bodHands, goteFirst, field));
                    continue;
                }
                int colon = indexOfColon(s);
                if (colon < 0) {
                    if (MOVE_LINE.matcher(s).matches()) {
                        rd.begin(startPosition(rs, tags, bodRows, bodHands, goteFirst, field));
                    } else {
                        throw new NotationException(field, "expected a header line 'key：value', a board diagram "
                                + "or the move list, got '" + clip(s) + "'");
                    }
                } else {
                    String key = s.substring(0, colon).strip(), value = s.substring(colon + 1).strip();
                    switch (key) {
                        case "後手の持駒", "上手の持駒" -> bodHands[1] = value;
                        case "先手の持駒", "下手の持駒" -> bodHands[0] = value;
                        case "開始日時" -> rd.dateTags(value);
                        default -> tags.put(HEADER_TAGS.getOrDefault(key, key), value);
                    }
                    continue;
                }
            }
            if (ended) {
                continue;
            }
            Matcher ml = MOVE_LINE.matcher(s);
            if (!ml.matches()) {
                throw new NotationException(field, "expected a move line such as '   1 ７六歩(77)   ( 0:01/00:00:01)', "
                        + "got '" + clip(s) + "'");
            }
            int number = Integer.parseInt(ml.group(1).length() > 6 ? "0" : ml.group(1));
            if (number != rd.moveCount() + 1) {
                throw new NotationException(field, "move number " + ml.group(1) + ", expected " + (rd.moveCount() + 1));
            }
            String mv = ml.group(2);
            if (TERMINATIONS.containsKey(mv)) {
                closing = mv;
                ended = true;
                continue;
            }
            int m = readMove(rd.position, mv, lastTo, field + " (move " + number + ")");
            lastTo = Move.to(m);
            rd.play(m, ml.group(3) == null ? -1 : (Long.parseLong(ml.group(3)) * 60 + Long.parseLong(ml.group(4))) * 1000);
        }
        String noStart = "no move list (the line '手数----指手---------消費時間--' or a first move) found";
        if (closing != null && rd.position != null) {
            tags.put("Termination", TERMINATIONS.get(closing));
            if (result.equals("*")) {
                int toMove = rd.position.sideToMove();
                result = switch (closing) {
                    case "投了", "詰み", "切れ負け", "反則負け" -> toMove == 0 ? "0-1" : "1-0";
                    case "反則勝ち", "入玉勝ち" -> toMove == 0 ? "1-0" : "0-1";
                    case "千日手", "持将棋" -> "1/2-1/2";
                    default -> "*";
                };
            }
        }
        return rd.record(result, noStart);
    }

    /** Comments list without trailing empty entries (so a record without comments has none). */
    static List<String> trimComments(List<String> comments) {
        List<String> c = new ArrayList<>(comments);
        while (!c.isEmpty() && c.get(c.size() - 1) == null) {
            c.remove(c.size() - 1);
        }
        return c;
    }

    private static int indexOfColon(String s) {
        int a = s.indexOf('：'), b = s.indexOf(':');
        return a < 0 ? b : b < 0 ? a : Math.min(a, b);
    }

    /** One KIF move: with its origin {@code (77)} matched against the legal moves, else as Japanese notation. */
    private static int readMove(Position p, String text, int lastTo, String field) {
        Matcher mt = MOVE_TEXT.matcher(text.replace("　", "").replace(" ", ""));
        if (!mt.matches()) {
            throw new NotationException(field, "expected a move such as '７六歩(77)', '同　歩(76)' or '５五角打', got '"
                    + clip(text) + "'");
        }
        Geometry g = p.geometry();
        int to;
        if (mt.group(1).equals("同")) {
            if (lastTo < 0) {
                throw new NotationException(field, "'同' on the first move: there is no previous square");
            }
            to = lastTo;
        } else {
            char fc = mt.group(2).charAt(0);
            int file = fc >= '1' && fc <= '9' ? fc - '0' : ShogiNotation.DIGITS.indexOf(fc);
            int rank = List.of(ShogiNotation.KANJI_NUMBERS).indexOf(mt.group(3));
            to = g.square(g.files - file, g.ranks - rank);
        }
        String suffix = mt.group(5);
        if (!suffix.matches("|成|不成|打|生")) {
            throw new NotationException(field, "unknown word '" + suffix + "' after the piece in '" + clip(text) + "'");
        }
        if (mt.group(6) == null) {
            try {
                return ShogiNotation.parseJapanese(p, text, lastTo);
            } catch (NotationException e) {
                throw new NotationException(field, e.getMessage());
            }
        }
        int from = g.square(g.files - (mt.group(6).charAt(0) - '0'), g.ranks - (mt.group(7).charAt(0) - '0'));
        if (mt.group(6).equals("0") || mt.group(7).equals("0")) {
            throw new NotationException(field, "origin (" + mt.group(6) + mt.group(7) + ") is off the board");
        }
        boolean promote = suffix.equals("成");
        for (int m : p.legalMoves()) {
            if (!Move.isDrop(m) && Move.from(m) == from && Move.to(m) == to && Move.isPromotion(m) == promote) {
                return m;
            }
        }
        throw new NotationException(field, "'" + clip(text) + "' is not a legal move in " + Fen.format(p));
    }

    /** The start position from the header: 手合割, or the board diagram and hands. */
    private static Position startPosition(RuleSet rs, Map<String, String> tags, List<String> rows, String[] hands,
                                          boolean goteFirst, String field) {
        String handicap = tags.remove("手合割");
        if (rows.isEmpty()) {
            if (handicap == null || handicap.equals("平手")) {
                return Position.start(rs);
            }
            String sfen = HANDICAPS.get(handicap);
            if (sfen == null) {
                throw new NotationException("KIF header '手合割'", "unknown handicap '" + handicap + "'; known: 平手, "
                        + String.join(", ", HANDICAPS.keySet()) + " (or give a board diagram)");
            }
            return Fen.parse(rs, sfen);
        }
        if (rows.size() != 9) {
            throw new NotationException("KIF board diagram", "expected 9 rows starting with '|', got " + rows.size());
        }
        StringBuilder sfen = new StringBuilder();
        for (int r = 0; r < 9; r++) {
            String row = rows.get(r);
            int empty = 0;
            int col = 0;
            for (int k = 1; k + 1 < row.length() && col < 9; k += 2, col++) {
                char side = row.charAt(k), piece = row.charAt(k + 1);
                if (piece == '・') {
                    empty++;
                    continue;
                }
                String letter = letterOf(String.valueOf(piece));
                if (letter == null || (side != ' ' && side != 'v' && side != '^')) {
                    throw new NotationException("KIF board diagram row " + (r + 1), "unknown piece '" + side + piece + "'");
                }
                if (empty > 0) {
                    sfen.append(empty);
                    empty = 0;
                }
                sfen.append(side == 'v' ? letter.toLowerCase() : letter);
            }
            if (col != 9) {
                throw new NotationException("KIF board diagram row " + (r + 1), "expected 9 squares, got " + col);
            }
            if (empty > 0) {
                sfen.append(empty);
            }
            if (r < 8) {
                sfen.append('/');
            }
        }
        sfen.append(goteFirst ? " w " : " b ");
        String hand = handField(hands[0], true) + handField(hands[1], false);
        sfen.append(hand.isEmpty() ? "-" : hand).append(" 1");
        return Fen.parseSfen(rs, sfen.toString());
    }

    private static String letterOf(String name) {
        String l = ShogiNotation.letterOf(BOARD, name);
        return l != null ? l : name.equals("王") ? "K" : name.equals("竜") ? "+R" : null;
    }

    /** A BOD hand ({@code 飛　角二　歩十八}) as SFEN hand letters with counts. */
    private static String handField(String h, boolean sente) {
        if (h == null || h.isBlank() || h.strip().equals("なし")) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String part : h.strip().split("[\\s　]+")) {
            String letter = letterOf(part.substring(0, 1));
            if (letter == null || letter.startsWith("+") || letter.equals("K")) {
                throw new NotationException("KIF hand", "unknown piece in hand '" + part + "'");
            }
            int count = 1;
            if (part.length() > 1) {
                count = List.of(ShogiNotation.KANJI_NUMBERS).indexOf(part.substring(1));
                if (count < 1) {
                    throw new NotationException("KIF hand", "unreadable count in '" + part + "'");
                }
            }
            if (count > 1) {
                sb.append(count);
            }
            sb.append(sente ? letter : letter.toLowerCase());
        }
        return sb.toString();
    }

    static String clip(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
