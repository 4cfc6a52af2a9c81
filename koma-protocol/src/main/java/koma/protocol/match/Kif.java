package koma.protocol.match;

import java.time.format.DateTimeFormatter;
import java.util.Map;

import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * KIF (Kakinoki) records of shogi games: the header ({@code 先手}/{@code 後手}, {@code 手合割：平手} or a board
 * diagram when the game did not start from the start position), one line per move such as
 * {@code    1 ７六歩(77)   ( 0:01/00:00:01)} ({@code 同　} for a recapture on the last square, {@code 成},
 * {@code 不成} when a promotion was declined, {@code 打} for drops), the closing line ({@code 投了}, {@code 詰み},
 * {@code 千日手}, {@code 反則負け}, {@code 切れ負け}, {@code 持将棋}, {@code 中断}) and {@code まで N手で先手の勝ち}.
 * Engine scores follow their move as {@code *} comment lines.
 */
public final class Kif {
    private static final String DIGITS = "０１２３４５６７８９";
    private static final String[] KANJI = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一",
            "十二", "十三", "十四", "十五", "十六", "十七", "十八"};
    /** Move-text names. */
    private static final Map<String, String> NAMES = Map.ofEntries(Map.entry("P", "歩"), Map.entry("L", "香"),
            Map.entry("N", "桂"), Map.entry("S", "銀"), Map.entry("G", "金"), Map.entry("B", "角"), Map.entry("R", "飛"),
            Map.entry("K", "玉"), Map.entry("+P", "と"), Map.entry("+L", "成香"), Map.entry("+N", "成桂"),
            Map.entry("+S", "成銀"), Map.entry("+B", "馬"), Map.entry("+R", "龍"));
    /** One-character names for the board diagram. */
    private static final Map<String, String> BOARD = Map.ofEntries(Map.entry("P", "歩"), Map.entry("L", "香"),
            Map.entry("N", "桂"), Map.entry("S", "銀"), Map.entry("G", "金"), Map.entry("B", "角"), Map.entry("R", "飛"),
            Map.entry("K", "玉"), Map.entry("+P", "と"), Map.entry("+L", "杏"), Map.entry("+N", "圭"),
            Map.entry("+S", "全"), Map.entry("+B", "馬"), Map.entry("+R", "龍"));

    private Kif() {
    }

    /** One shogi game as KIF text, ending with an empty line. */
    public static String write(GameRecord g, String event) {
        RuleSet rs = g.rules();
        if (!rs.id.equals("shogi")) {
            throw new IllegalArgumentException("KIF is for shogi, not " + rs.id);
        }
        StringBuilder sb = new StringBuilder();
        sb.append("#KIF version=2.0 encoding=UTF-8\n");
        sb.append("開始日時：").append(g.started().format(DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss"))).append('\n');
        sb.append("棋戦：").append(event).append(" 第").append(g.round()).append("局\n");
        sb.append("持ち時間：").append(g.timeControl()).append('\n');
        if (g.fromStart()) {
            sb.append("手合割：平手\n");
        } else {
            board(sb, g.root());
        }
        sb.append("先手：").append(g.players().get(0)).append('\n');
        sb.append("後手：").append(g.players().get(1)).append('\n');
        sb.append("手数----指手---------消費時間--\n");
        Position p = g.root().copy();
        Geometry geo = rs.geometry;
        int lastTo = -1;
        long[] total = new long[2];
        int n = 0;
        for (int i = 0; i < g.moves().size(); i++) {
            int m = g.moves().get(i);
            int side = p.sideToMove();
            int to = Move.to(m);
            StringBuilder mv = new StringBuilder();
            mv.append(to == lastTo ? "同　" : square(geo, to));
            if (Move.isDrop(m)) {
                mv.append(NAMES.get(rs.piece(Move.type(m)).letter())).append("打");
            } else {
                int from = Move.from(m);
                mv.append(NAMES.get(rs.piece(p.typeAt(from)).letter()));
                if (Move.isPromotion(m)) {
                    mv.append("成");
                } else if (couldPromote(p, m)) {
                    mv.append("不成");
                }
                mv.append('(').append(geo.files - geo.file(from)).append(ranksFromTop(geo, from) + 1).append(')');
            }
            long ms = g.moveTimesMs().get(i);
            total[side] += ms;
            n++;
            sb.append(String.format("%4d %s%s %s\n", n, mv, " ".repeat(Math.max(0, 12 - width(mv))),
                    time(ms, total[side])));
            String c = g.comments().get(i);
            if (c != null && !c.isEmpty()) {
                sb.append('*').append(c).append('\n');
            }
            lastTo = to;
            p.doMove(m);
        }
        GameResult r = g.result();
        String last = switch (r.termination()) {
            case "checkmate", "no legal move" -> "詰み";
            case "resignation" -> "投了";
            case "repetition" -> "千日手";
            case "perpetual check" -> "反則負け";
            case GameResult.ILLEGAL_MOVE -> "反則負け";
            case GameResult.TIME_FORFEIT -> "切れ負け";
            case "impasse", "declaration" -> "持将棋";
            case GameResult.ADJUDICATION -> r.isDraw() ? "持将棋" : "中断";
            default -> "中断";
        };
        sb.append(String.format("%4d %s\n", n + 1, last));
        sb.append('*').append(r.reason()).append('\n');
        if (r.isDraw()) {
            sb.append("まで").append(n).append("手で").append(last.equals("千日手") ? "千日手" : last.equals("持将棋") ? "持将棋"
                    : "引き分け").append('\n');
        } else {
            sb.append("まで").append(n).append("手で").append(r.winner() == 0 ? "先手" : "後手").append("の勝ち\n");
        }
        sb.append('\n');
        return sb.toString();
    }

    private static boolean couldPromote(Position p, int m) {
        for (int x : p.legalMoves()) {
            if (Move.isPromotion(x) && !Move.isDrop(x) && Move.from(x) == Move.from(m) && Move.to(x) == Move.to(m)) {
                return true;
            }
        }
        return false;
    }

    private static int ranksFromTop(Geometry g, int sq) {
        return g.ranks - 1 - g.rank(sq);
    }

    /** {@code ７六}: the file as a full-width digit, the rank (from the top) as a kanji numeral. */
    private static String square(Geometry g, int sq) {
        return DIGITS.charAt(g.files - g.file(sq)) + KANJI[ranksFromTop(g, sq) + 1];
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
            sb.append('|').append(KANJI[row + 1]).append('\n');
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
        for (String letter : new String[]{"R", "B", "G", "S", "N", "L", "P"}) {
            int type = rs.typeOf(letter);
            int count = p.handCount(color, type);
            if (count > 0) {
                PieceType pt = rs.piece(type);
                sb.append(BOARD.get(pt.letter())).append(count > 1 ? KANJI[count] : "").append('　');
            }
        }
        return sb.isEmpty() ? "なし" : sb.toString();
    }
}
