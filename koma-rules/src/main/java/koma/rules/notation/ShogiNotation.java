package koma.rules.notation;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.Conventions;
import koma.rules.Geometry;
import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Human move notations of the shogi family, paired format and parse.
 *
 * <ul>
 *   <li>Western (Hosking/Hodges, as lishogi shows it), for shogi and both Wa shogi rule sets: the piece letter
 *   ({@code +R} for a promoted rook; Wa shogi uses the RULES.md 3.2 letters), the origin square only when another
 *   piece of the same kind could reach the same square ({@code G6i-5h}), {@code -} for a move, {@code x} for a
 *   capture, {@code *} for a drop, the destination in shogi coordinates (file number from the first player's right,
 *   rank letter from the top: {@code 7f}, on the Wa board {@code 11k}), then {@code +} for a promotion or {@code =}
 *   when a promotion was possible and declined: {@code P-7f}, {@code Sx4c+}, {@code B*5e}, {@code +R-2b},
 *   {@code N-3c=}.</li>
 *   <li>Japanese, for shogi, without the ▲/△ side marks (callers add them; parsing accepts and ignores them):
 *   destination as a full-width file digit and a kanji rank ({@code ７六}), or {@code 同} plus a full-width space
 *   when the move lands on the previous move's square ({@code 同　歩}; {@code 同成銀} for the two-character
 *   names), the piece ({@code 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍}), the JSA disambiguators when another
 *   piece of the same kind could reach the square ({@code 上 引 寄} for the direction of the move, {@code 右 左}
 *   for the piece's place seen from its owner, {@code 直} for a non-ranging piece moving straight forward, and
 *   both, e.g. {@code 左上}, when one does not suffice), {@code 打} for a drop when a piece of the same kind on the
 *   board could also move there, {@code 成} for a promotion and {@code 不成} when a promotion was declined. In the
 *   rare position where those words do not single the move out, the origin is added as KIF writes it
 *   ({@code ５八金(69)}).</li>
 *   <li>Japanese for both Wa shogi rule sets, defined here in the same spirit (no established convention for the
 *   11x11 board was found): the destination as the file in full-width Arabic digits counted from the first
 *   player's right ({@code １}..{@code １１}) and the rank from the top in kanji ({@code 一}..{@code 十一}), so
 *   {@code １１十一} is the first player's bottom-left corner; or {@code 同} (no space: every name has two kanji)
 *   for a move to the previous move's square; the piece's two-kanji name from RULES.md 3.3 ({@code 萑歩 隠狐 鶴玉},
 *   given by each piece's {@code kanji} in the definition file), a promoted piece by its promoted name as the table gives it ({@code 金鳥 鷙鷹 燕行 熊眼
 *   行猪 延鷹 天馬 歬牛}, and for the promotions "(move)" the other piece's name: a promoted running rabbit is
 *   {@code 隠狐}, a promoted swooping owl {@code 雲鷲}); {@code 成} for a promotion, {@code 不成} when one was
 *   possible and declined; {@code 打} for a drop when a board piece of the same name could also move there. When
 *   another legal move would be written the same (two pieces of one name reaching the square, e.g. two sparrows
 *   capturing on one square, or a fox and a promoted rabbit), the origin square follows in parentheses, written
 *   like the destination: {@code ５八萑歩(６九)}. The JSA words 右 左 上 引 寄 直 are not used for Wa shogi.</li>
 * </ul>
 */
public final class ShogiNotation {
    static final String DIGITS = "０１２３４５６７８９";
    static final String[] KANJI_NUMBERS = {"", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一",
            "十二", "十三", "十四", "十五", "十六", "十七", "十八"};
    /**
     * The rule set the KIF and CSA formats are written for (the first built-in one whose definition lists them) and
     * its tables, by SFEN letter, read from each piece's {@code kanji}, {@code kanji-board} and {@code csa} keys.
     */
    static final RuleSet KIFU_RULES = RuleSet.withRecords("kif");
    /** Japanese move-text names ({@code 歩}, {@code 成銀}). */
    static final Map<String, String> NAMES = column(Conventions.Kanji::name);
    /** CSA piece codes. */
    static final Map<String, String> CSA_CODES = column(Conventions.Kanji::csa);
    /** One-character names for the KIF board diagram ({@code 全} for a promoted silver). */
    static final Map<String, String> BOARD_NAMES = column(Conventions.Kanji::board);
    /**
     * Letters of the pieces that can be in hand, in writing order: rook first, the reverse of the order the
     * definition file declares them (pawn first).
     */
    static final String[] HAND_ORDER = handOrder();

    private static Map<String, String> column(java.util.function.Function<Conventions.Kanji, String> f) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        KIFU_RULES.conventions.kanji().forEach((letter, k) -> m.put(letter, f.apply(k)));
        return java.util.Collections.unmodifiableMap(m);
    }

    private static String[] handOrder() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (PieceType pt : KIFU_RULES.pieces) {
            if (!pt.royal() && !pt.promoted()) {
                out.add(0, pt.letter());
            }
        }
        return out.toArray(String[]::new);
    }

    /** The SFEN letter whose entry in the table is this value, or null. */
    static String letterOf(Map<String, String> table, String value) {
        for (Map.Entry<String, String> e : table.entrySet()) {
            if (e.getValue().equals(value)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** Appends a possibly multi-line comment, each line after the format's comment mark. */
    static void commentLines(StringBuilder sb, char mark, String c) {
        if (c != null && !c.isEmpty()) {
            for (String line : c.split("\n")) {
                sb.append(mark).append(line).append('\n');
            }
        }
    }

    /** The one matching move, or an error saying there was none or several. */
    private static int single(Position p, int found, int count, String field, String disambiguation) {
        if (count == 1) {
            return found;
        }
        if (count > 1) {
            throw new NotationException(field, "ambiguous: " + count + " legal moves match; " + disambiguation);
        }
        throw new NotationException(field, "not a legal move in " + Fen.format(p));
    }

    /** Other spellings accepted when reading, mapped to the names above. */
    private static final Map<String, String> ALIASES = Map.of("王", "玉", "竜", "龍", "全", "成銀", "圭", "成桂",
            "杏", "成香");

    private ShogiNotation() {
    }

    private static void requireShogiFamily(Position p, String what) {
        if (p.ruleSet().promotion.trigger() != RuleSet.PromotionTrigger.TOUCH) {
            throw new NotationException(what, "is for the shogi family, not " + p.ruleSet().id);
        }
    }

    private static void requireJapanese(Position p, String what) {
        if (!p.ruleSet().conventions.japanese()) {
            throw new NotationException(what, "Japanese notation is not defined for " + p.ruleSet().id);
        }
    }

    /**
     * Whether this rule set writes the two-kanji names with an origin square when ambiguous ({@code japanese-names})
     * rather than the JSA words ({@code japanese-jsa}).
     */
    private static boolean waStyle(RuleSet rs) {
        return rs.conventions.notations().contains("japanese-names");
    }

    /** Whether {@link #japanese} is defined for this rule set. */
    public static boolean hasJapanese(RuleSet rs) {
        return rs.conventions.japanese();
    }

    /** The Japanese move-text name of a piece of this rule set, by its letter, from the definition file. */
    private static String kanjiName(RuleSet rs, String letter) {
        Conventions.Kanji k = rs.conventions.kanjiOf(letter);
        if (k == null) {
            throw new NotationException("Japanese notation", rs.id + " has no kanji for piece '" + letter + "'");
        }
        return k.name();
    }

    // ------------------------------------------------------------------ Western

    /** Western notation of a legal move in the position before it ({@code P-7f}, {@code G6i-5h}, {@code B*5e}). */
    public static String western(Position before, int move) {
        requireShogiFamily(before, "Western notation");
        return western(before, before.legalMoves(), move);
    }

    /** Western notation given the position's legal moves (computed once by callers that write many moves). */
    private static String western(Position before, int[] legal, int move) {
        RuleSet rs = before.ruleSet();
        Geometry g = rs.geometry;
        int to = Move.to(move);
        String dest = MoveNotation.square(g, to, MoveNotation.Style.USI);
        if (Move.isDrop(move)) {
            return rs.piece(Move.type(move)).letter() + "*" + dest;
        }
        int from = Move.from(move);
        StringBuilder sb = new StringBuilder(rs.piece(before.typeAt(from)).letter());
        if (otherReaching(before, legal, from, to)) {
            sb.append(MoveNotation.square(g, from, MoveNotation.Style.USI));
        }
        sb.append(before.isEmpty(to) ? '-' : 'x').append(dest);
        if (Move.isPromotion(move)) {
            sb.append('+');
        } else if (couldPromote(legal, move)) {
            sb.append('=');
        }
        return sb.toString();
    }

    /** Reads Western notation; the error says whether the text is malformed, illegal or ambiguous. */
    public static int parseWestern(Position p, String text) {
        requireShogiFamily(p, "Western notation");
        String field = "move '" + clip(text) + "'";
        if (text == null || text.length() > 16
                || !WESTERN.matcher(text.strip()).matches()) {
            throw new NotationException(field, "malformed; expected Western notation such as 'P-7f', 'Sx4c+', "
                    + "'B*5e', '+R-2b' or 'G6i-5h'");
        }
        Matcher t = WESTERN.matcher(text.strip());
        t.matches();
        Geometry g = p.geometry();
        int found = Move.NONE, count = 0;
        int[] legal = p.legalMoves();
        for (int m : legal) {
            Matcher w = WESTERN.matcher(western(p, legal, m));
            w.matches();
            boolean drop = t.group(3).equals("*");
            if (!w.group(1).equals(t.group(1)) || !w.group(4).equals(t.group(4)) || Move.isDrop(m) != drop
                    || Move.isPromotion(m) != "+".equals(t.group(5))) {
                continue;
            }
            if (t.group(2) != null && (drop || !t.group(2).equals(MoveNotation.square(g, Move.from(m), MoveNotation.Style.USI)))) {
                continue;
            }
            found = m;
            count++;
        }
        return single(p, found, count, field, "give the origin square");
    }

    /** Groups: piece, origin, separator, destination, promotion mark. */
    private static final Pattern WESTERN =
            Pattern.compile("(\\+?[A-Z])(\\d{1,2}[a-z])?([-x*])(\\d{1,2}[a-z])([+=])?");

    // ------------------------------------------------------------------ Japanese

    /**
     * Japanese notation of a legal shogi move, without the side mark ({@code ７六歩}, {@code 同　歩},
     * {@code ５八金右}, {@code ２二角成}, {@code ５五角打}). {@code previousTo} is the destination square of the
     * previous move (for {@code 同}), or -1.
     */
    public static String japanese(Position before, int move, int previousTo) {
        requireJapanese(before, "Japanese notation");
        return japanese(before, before.legalMoves(), move, previousTo);
    }

    /** Japanese notation given the position's legal moves. */
    private static String japanese(Position before, int[] legal, int move, int previousTo) {
        if (waStyle(before.ruleSet())) {
            return waJapanese(before, legal, move, previousTo);
        }
        String s = japaneseWords(before, legal, move, previousTo);
        if (!Move.isDrop(move)) {
            int type = before.typeAt(Move.from(move));
            for (int m : legal) {
                if (m != move && !Move.isDrop(m) && Move.to(m) == Move.to(move) && before.typeAt(Move.from(m)) == type
                        && japaneseWords(before, legal, m, previousTo).equals(s)) {
                    return s + "(" + csaSquare(before.geometry(), Move.from(move)) + ")";
                }
            }
        }
        return s;
    }

    private static String japaneseWords(Position before, int[] legal, int move, int previousTo) {
        RuleSet rs = before.ruleSet();
        Geometry g = rs.geometry;
        int to = Move.to(move);
        StringBuilder sb = new StringBuilder();
        if (Move.isDrop(move)) {
            sb.append(japaneseSquare(g, to)).append(kanjiName(rs, rs.piece(Move.type(move)).letter()));
            if (boardPieceReaches(before, legal, Move.type(move), to)) {
                sb.append('打');
            }
            return sb.toString();
        }
        int from = Move.from(move);
        String name = kanjiName(rs, rs.piece(before.typeAt(from)).letter());
        if (to == previousTo) {
            sb.append('同').append(name.length() == 1 ? "　" : "");
        } else {
            sb.append(japaneseSquare(g, to));
        }
        sb.append(name).append(disambiguator(before, legal, from, to));
        if (Move.isPromotion(move)) {
            sb.append('成');
        } else if (couldPromote(legal, move)) {
            sb.append("不成");
        }
        return sb.toString();
    }

    /** Wa shogi Japanese notation (see the class comment): the words, then 打 or the origin when needed. */
    private static String waJapanese(Position before, int[] legal, int move, int previousTo) {
        String s = waWords(before, move, previousTo, legal);
        Geometry g = before.geometry();
        int to = Move.to(move);
        if (Move.isDrop(move)) {
            String name = waName(before.ruleSet(), Move.type(move));
            for (int m : legal) {
                if (!Move.isDrop(m) && Move.to(m) == to && waName(before.ruleSet(), before.typeAt(Move.from(m))).equals(name)) {
                    return s + "打";
                }
            }
            return s;
        }
        for (int m : legal) {
            if (m != move && !Move.isDrop(m) && Move.to(m) == to && waWords(before, m, previousTo, legal).equals(s)) {
                return s + "(" + japaneseSquare(g, Move.from(move)) + ")";
            }
        }
        return s;
    }

    /** Destination or 同, the name, 成 or 不成: the Wa shogi words before any 打 or origin. */
    private static String waWords(Position before, int move, int previousTo, int[] legal) {
        RuleSet rs = before.ruleSet();
        int to = Move.to(move);
        if (Move.isDrop(move)) {
            return japaneseSquare(rs.geometry, to) + waName(rs, Move.type(move));
        }
        StringBuilder sb = new StringBuilder(to == previousTo ? "同" : japaneseSquare(rs.geometry, to));
        sb.append(waName(rs, before.typeAt(Move.from(move))));
        if (Move.isPromotion(move)) {
            sb.append('成');
        } else if (couldPromote(legal, move)) {
            sb.append("不成");
        }
        return sb.toString();
    }

    private static String waName(RuleSet rs, int type) {
        return kanjiName(rs, rs.piece(type).letter());
    }

    /**
     * Reads Japanese notation for shogi ({@code ▲７六歩}, {@code 同　歩}, {@code 76歩}, {@code ５五角打}) and Wa
     * shogi ({@code ▲７八萑歩}, {@code 同萑歩}, {@code 11十一牛車}); 王, 竜 and the one-character promoted names
     * 全 圭 杏 are accepted, as are half-width digits, the square in place of 同, and 打 where it is not needed.
     */
    public static int parseJapanese(Position p, String text, int previousTo) {
        requireJapanese(p, "Japanese notation");
        String field = "move '" + clip(text) + "'";
        if (text == null || text.isBlank() || text.length() > 24) {
            throw new NotationException(field, "expected a move such as '７六歩' or '同　歩'");
        }
        String t = normalize(text);
        if (!waStyle(p.ruleSet()) && t.length() >= 2 && DIGITS.indexOf(t.charAt(0)) > 0 && DIGITS.indexOf(t.charAt(1)) > 0) {
            // KIF-style digits for the square on the 9x9 board: 76歩 is ７六歩
            t = t.charAt(0) + KANJI_NUMBERS[DIGITS.indexOf(t.charAt(1))] + t.substring(2);
        }
        int found = Move.NONE, count = 0;
        int[] legal = p.legalMoves();
        for (int m : legal) {
            String s = normalize(japanese(p, legal, m, previousTo));
            boolean match = s.equals(t)
                    || (Move.isDrop(m) && !s.endsWith("打") && (s + "打").equals(t))
                    || (!Move.isDrop(m) && to(m) == previousTo && s.replaceFirst("^同", japaneseSquare(p.geometry(), previousTo)).equals(t));
            if (match) {
                found = m;
                count++;
            }
        }
        if (count == 0) {
            // written without the origin square that several legal moves need: say it is ambiguous
            for (int m : legal) {
                if (normalize(japanese(p, legal, m, previousTo)).replaceFirst("\\(.*\\)$", "").equals(t)) {
                    found = m;
                    count++;
                }
            }
            if (count > 1) {
                return single(p, found, count, field, "add the origin square, e.g. '(" + csaOrKanjiOrigin(p, found) + ")'");
            }
            count = 0;
        }
        if (count == 0) {
            throw new NotationException(field, "not a legal move (or not written as expected, e.g. '７六歩', '同　歩', "
                    + "'２二角成', '５五角打') in " + Fen.format(p));
        }
        return single(p, found, count, field, "add 右, 左, 上, 引, 寄 or 直");
    }

    /** The origin of a board move as the notation writes it: {@code 69} for shogi (KIF), {@code ６九} for Wa shogi. */
    private static String csaOrKanjiOrigin(Position p, int move) {
        return waStyle(p.ruleSet()) ? japaneseSquare(p.geometry(), Move.from(move)) : csaSquare(p.geometry(), Move.from(move));
    }

    private static int to(int m) {
        return Move.to(m);
    }

    /** Drops the side marks and spaces, and maps aliases and half-width digits to the written forms. */
    private static String normalize(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.strip().toCharArray()) {
            if (c == '▲' || c == '△' || c == '☗' || c == '☖' || c == '▽' || c == ' ' || c == '　') {
                continue;
            }
            if (c >= '0' && c <= '9') {
                c = DIGITS.charAt(c - '0');
            }
            String a = ALIASES.get(String.valueOf(c));
            sb.append(a != null ? a : String.valueOf(c));
        }
        return sb.toString();
    }

    /**
     * {@code ７六}: the file from the first player's right in full-width digits ({@code １１} on the Wa board), the
     * rank from the top as a kanji numeral ({@code 十一}).
     */
    public static String japaneseSquare(Geometry g, int sq) {
        StringBuilder sb = new StringBuilder();
        for (char c : String.valueOf(g.files - g.file(sq)).toCharArray()) {
            sb.append(DIGITS.charAt(c - '0'));
        }
        return sb.append(KANJI_NUMBERS[g.ranks - g.rank(sq)]).toString();
    }

    /** {@code 77}: the CSA/KIF origin, file then rank from the top, as digits. */
    static String csaSquare(Geometry g, int sq) {
        return String.valueOf(g.files - g.file(sq)) + (g.ranks - g.rank(sq));
    }

    /** The JSA words that tell this move from moves of other pieces of the same kind to the same square. */
    private static String disambiguator(Position p, int[] legal, int from, int to) {
        int[] others = new int[p.geometry().squares];
        int n = 0;
        for (int m : legal) {
            int f = Move.from(m);
            if (!Move.isDrop(m) && Move.to(m) == to && f != from && p.typeAt(f) == p.typeAt(from)) {
                boolean seen = false;
                for (int i = 0; i < n; i++) {
                    seen |= others[i] == f;
                }
                if (!seen) {
                    others[n++] = f;
                }
            }
        }
        if (n == 0) {
            return "";
        }
        int color = p.sideToMove();
        Geometry g = p.geometry();
        int motion = motion(g, color, from, to);
        boolean motionUnique = true;
        for (int i = 0; i < n; i++) {
            motionUnique &= motion(g, color, others[i], to) != motion;
        }
        if (motionUnique) {
            return MOTION_WORDS[motion + 1];
        }
        String letter = p.ruleSet().piece(p.typeAt(from)).letter();
        boolean ranging = letter.equals("R") || letter.equals("B") || letter.equals("L") || letter.equals("+R")
                || letter.equals("+B");
        if (!ranging && g.file(from) == g.file(to) && motion == 1) {
            return "直";
        }
        String all = place(g, color, from, to, others, n, -2);
        if (all != null) {
            return all;
        }
        String group = place(g, color, from, to, others, n, motion);
        return group != null ? group + MOTION_WORDS[motion + 1] : "";
    }

    private static final String[] MOTION_WORDS = {"引", "寄", "上"};

    /** -1 back, 0 sideways, 1 forward, seen from the mover. */
    private static int motion(Geometry g, int color, int from, int to) {
        return Integer.signum(g.relativeRank(color, to) - g.relativeRank(color, from));
    }

    /**
     * 右 or 左 when the piece is strictly the rightmost or leftmost (from its owner's side) among itself and the
     * others (only those with the given motion, unless it is -2); null when it is neither.
     */
    private static String place(Geometry g, int color, int from, int to, int[] others, int n, int motion) {
        int mine = relativeFile(g, color, from);
        boolean right = true, left = true;
        for (int i = 0; i < n; i++) {
            if (motion != -2 && motion(g, color, others[i], to) != motion) {
                continue;
            }
            int f = relativeFile(g, color, others[i]);
            right &= f < mine;
            left &= f > mine;
        }
        return right ? "右" : left ? "左" : null;
    }

    /** The file counted from the owner's left: larger is further right. */
    private static int relativeFile(Geometry g, int color, int sq) {
        return color == 0 ? g.file(sq) : g.files - 1 - g.file(sq);
    }

    // ------------------------------------------------------------------ shared

    /** Whether another piece of the same type and colour as the one on {@code from} has a legal move to {@code to}. */
    private static boolean otherReaching(Position p, int[] legal, int from, int to) {
        for (int m : legal) {
            int f = Move.from(m);
            if (!Move.isDrop(m) && Move.to(m) == to && f != from && p.typeAt(f) == p.typeAt(from)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a piece of this type on the board has a legal move to {@code to}. */
    private static boolean boardPieceReaches(Position p, int[] legal, int type, int to) {
        for (int m : legal) {
            if (!Move.isDrop(m) && Move.to(m) == to && p.typeAt(Move.from(m)) == type) {
                return true;
            }
        }
        return false;
    }

    /** Whether the same from/to could have been played as a promotion. */
    static boolean couldPromote(Position p, int move) {
        return couldPromote(p.legalMoves(), move);
    }

    private static boolean couldPromote(int[] legal, int move) {
        if (Move.isDrop(move) || Move.isPromotion(move)) {
            return false;
        }
        for (int x : legal) {
            if (Move.isPromotion(x) && Move.from(x) == Move.from(move) && Move.to(x) == Move.to(move)) {
                return true;
            }
        }
        return false;
    }

    /** The Japanese name of a piece type of a rule set with kanji ({@code +R} gives {@code 龍}). */
    public static String japaneseName(RuleSet rs, PieceType pt) {
        return kanjiName(rs, pt.letter());
    }

    private static String clip(String text) {
        return text == null ? "" : text.length() > 24 ? text.substring(0, 24) + "..." : text;
    }
}
