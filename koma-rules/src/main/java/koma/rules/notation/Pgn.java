package koma.rules.notation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * PGN for every rule set, paired format and parse.
 *
 * <ul>
 *   <li>Chess, Shodo and Shodo deathmatch: SAN movetext ({@link San}).</li>
 *   <li>The shogi family: engine move strings, USI for shogi ({@code 7g7f}, {@code P*5e}) and UCI for Wa shogi
 *   ({@code d9d10+}, {@code P@e5}); reading shogi also takes UCI strings ({@code c3c4}).</li>
 *   <li>The Seven Tag Roster first ({@code Event}, {@code Site}, {@code Date}, {@code Round}, {@code White},
 *   {@code Black}, {@code Result}; {@code ?} when unknown), then {@code Variant} (the rule-set identifier, RULES.md
 *   9.1) for every rule set but chess, {@code SetUp "1"} and {@code FEN} (SFEN for shogi) when the game did not start
 *   from the start position, then the record's other tags in order. {@code White} is the first player (sente).</li>
 *   <li>Comments follow their move in braces; the closing comment stands before the result token, after an empty
 *   {@code {}} when the last move has no comment of its own (so that reading tells the two apart).</li>
 * </ul>
 * Reading skips NAGs ({@code $1}), annotation marks ({@code !?}), variations and {@code ;} comments; the first
 * {@code {...}} comment after a move is kept as its comment. Reading {@code Variant} accepts the identifiers
 * case-insensitively and {@code Standard} for chess.
 */
public final class Pgn {
    private static final List<String> ROSTER = List.of("Event", "Site", "Date", "Round", "White", "Black", "Result");

    private Pgn() {
    }

    /** Whether the rule set's movetext is SAN (promotion on arrival, no drops: chess, Shodo, deathmatch). */
    public static boolean usesSan(RuleSet rs) {
        return rs.conventions.notations().contains("san");
    }

    /** The coordinate style of the movetext of a rule set that does not use SAN. */
    public static MoveNotation.Style coordinateStyle(RuleSet rs) {
        return rs.sfen ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
    }

    /** The record as one PGN game, ending with an empty line. */
    public static String format(GameRecord g) {
        RuleSet rs = g.ruleSet();
        Map<String, String> tags = new LinkedHashMap<>();
        for (String k : ROSTER) {
            tags.put(k, g.tags().getOrDefault(k, k.equals("Date") ? "????.??.??" : "?"));
        }
        tags.put("Result", g.result());
        if (rs != RuleSet.standard()) {
            tags.put("Variant", rs.id);
        }
        if (!g.fromStart()) {
            tags.put("SetUp", "1");
            tags.put("FEN", Fen.format(g.startPosition()));
        }
        g.tags().forEach((k, v) -> {
            if (!tags.containsKey(k) && !k.equals("SetUp") && !k.equals("FEN") && !k.equals("Variant")) {
                tags.put(k, v);
            }
        });
        StringBuilder sb = new StringBuilder();
        tags.forEach((k, v) -> sb.append('[').append(k).append(" \"").append(escape(v)).append("\"]\n"));
        sb.append('\n');

        List<String> tokens = new ArrayList<>();
        Position p = g.startPosition();
        boolean san = usesSan(rs);
        int number = p.gamePly() / 2 + 1;
        List<Integer> moves = g.moveInts();
        for (int i = 0; i < moves.size(); i++) {
            int m = moves.get(i);
            String text = san ? San.format(p, m) : MoveNotation.format(p, m, coordinateStyle(rs));
            // the move number and its move are one token, so that a line never ends between them
            if (p.sideToMove() == 0) {
                text = number + ". " + text;
            } else if (i == 0) {
                text = number + "... " + text;
            }
            tokens.add(text);
            addComment(tokens, g.comment(i));
            if (i == moves.size() - 1 && g.closingComment() != null && (g.comment(i) == null || g.comment(i).isEmpty())) {
                tokens.add("{}");
            }
            if (p.sideToMove() == 1) {
                number++;
            }
            p.doMove(m);
        }
        addComment(tokens, g.closingComment());
        tokens.add(g.result());
        int col = 0;
        for (String t : tokens) {
            if (col > 0 && col + 1 + t.length() > 79) {
                sb.append('\n');
                col = 0;
            } else if (col > 0) {
                sb.append(' ');
                col++;
            }
            sb.append(t);
            col += t.length();
        }
        sb.append("\n\n");
        return sb.toString();
    }

    private static void addComment(List<String> tokens, String c) {
        if (c != null && !c.isEmpty()) {
            tokens.add("{" + c.replace("}", ")") + "}");
        }
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace('\n', ' ');
    }

    private static final Pattern TAG = Pattern.compile("\\[(\\w+)\\s+\"((?:[^\"\\\\]|\\\\.)*)\"\\s*]");
    private static final Pattern RESULT = Pattern.compile("1-0|0-1|1/2-1/2|\\*");

    /** Reads the first game of a PGN text; errors name the line and what is wrong. */
    public static GameRecord parse(String text) {
        List<GameRecord> games = parseAll(text);
        if (games.isEmpty()) {
            throw new NotationException("PGN", "no game found");
        }
        return games.get(0);
    }

    /** Reads every game of a PGN text, each checked move by move against the rules. */
    public static List<GameRecord> parseAll(String text) {
        if (text == null) {
            throw new NotationException("PGN", "no text");
        }
        List<GameRecord> games = new ArrayList<>();
        Reader r = new Reader(text.replace("\uFEFF", ""));
        while (true) {
            GameRecord g = r.game();
            if (g == null) {
                return games;
            }
            games.add(g);
        }
    }

    /** The PGN reader: a cursor with its line number, one game per call. */
    private static final class Reader {
        private final String text;
        private int i, line = 1;

        Reader(String text) {
            this.text = text;
        }

        private char peek() {
            return text.charAt(i);
        }

        private void advance(int to) {
            for (; i < to; i++) {
                if (text.charAt(i) == '\n') {
                    line++;
                }
            }
        }

        private String field() {
            return "PGN line " + line;
        }

        GameRecord game() {
            Map<String, String> tags = new LinkedHashMap<>();
            int n = text.length();
            int tagLine = -1;
            while (i < n) {
                char c = peek();
                if (Character.isWhitespace(c)) {
                    advance(i + 1);
                } else if (c == '%' && (i == 0 || text.charAt(i - 1) == '\n')) {
                    skipLine();
                } else if (c == '[') {
                    int end = text.indexOf('\n', i);
                    String l = text.substring(i, end < 0 ? n : end).strip();
                    Matcher mt = TAG.matcher(l);
                    if (!mt.matches()) {
                        throw new NotationException(field(), "malformed tag; expected [Name \"value\"], got '" + Kif.clip(l) + "'");
                    }
                    tags.put(mt.group(1), mt.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                    if (tagLine < 0) {
                        tagLine = line;
                    }
                    advance(end < 0 ? n : end);
                } else {
                    break;
                }
            }
            if (i >= n) {
                if (!tags.isEmpty()) {
                    throw new NotationException(field(), "the game's tags are not followed by moves and a result");
                }
                return null;
            }
            RuleSet rs = ruleSet(tags, tagLine);
            Position start;
            String fen = tags.get("FEN");
            try {
                start = fen == null ? Position.start(rs) : Fen.parse(rs, fen);
            } catch (NotationException e) {
                throw new NotationException("PGN tag 'FEN' (line " + tagLine + ")", e.getMessage());
            }
            Position p = start.copy();
            boolean san = usesSan(rs);
            List<String> moves = new ArrayList<>();
            List<String> comments = new ArrayList<>();
            String closing = null;
            boolean lastCommented = false;
            int depth = 0;
            while (i < n) {
                char c = peek();
                if (Character.isWhitespace(c)) {
                    advance(i + 1);
                } else if (c == '{') {
                    int end = text.indexOf('}', i);
                    if (end < 0) {
                        throw new NotationException(field(), "comment '{' is never closed");
                    }
                    String comment = text.substring(i + 1, end).strip().replaceAll("\\s*\\n\\s*", " ");
                    advance(end + 1);
                    if (depth == 0) {
                        if (moves.isEmpty() || lastCommented) {
                            closing = closing == null ? comment : closing + " " + comment;
                        } else {
                            comments.set(moves.size() - 1, comment.isEmpty() ? null : comment);
                            lastCommented = true;
                        }
                    }
                } else if (c == ';') {
                    skipLine();
                } else if (c == '(') {
                    depth++;
                    advance(i + 1);
                } else if (c == ')') {
                    if (depth == 0) {
                        throw new NotationException(field(), "')' without a variation to close");
                    }
                    depth--;
                    advance(i + 1);
                } else if (c == '[' && depth == 0) {
                    throw new NotationException(field(), "a new game's tags before this game's result token");
                } else {
                    int j = i;
                    while (j < n && !Character.isWhitespace(text.charAt(j)) && "{;()[".indexOf(text.charAt(j)) < 0) {
                        j++;
                    }
                    String tok = text.substring(i, j);
                    String field = field();
                    advance(j);
                    if (depth > 0 || tok.startsWith("$")) {
                        continue;
                    }
                    if (RESULT.matcher(tok).matches()) {
                        comments.add(closing);
                        return new GameRecord(rs.id, fen == null ? null : Fen.format(start), moves, withoutComputed(tags),
                                tok, Kif.trimComments(comments), List.of());
                    }
                    tok = tok.replaceFirst("^\\d+\\.+", "").replaceFirst("[!?]+$", "");
                    if (tok.isEmpty() || tok.matches("\\d+")) {
                        continue;
                    }
                    int m;
                    try {
                        m = san ? San.parse(p, tok) : readCoordinate(p, tok, rs);
                    } catch (NotationException e) {
                        throw new NotationException(field + " (move " + (moves.size() + 1) + ")", e.getMessage());
                    }
                    moves.add(MoveNotation.formatUci(p, m));
                    comments.add(null);
                    lastCommented = false;
                    p.doMove(m);
                }
            }
            throw new NotationException(field(), "the game ends without a result token (1-0, 0-1, 1/2-1/2 or *)");
        }

        private void skipLine() {
            int end = text.indexOf('\n', i);
            advance(end < 0 ? text.length() : end);
        }
    }

    /** A coordinate move: USI or UCI for shogi, UCI for the rest. */
    private static int readCoordinate(Position p, String tok, RuleSet rs) {
        if (coordinateStyle(rs) == MoveNotation.Style.USI && tok.matches("\\d.*|[A-Z]\\*.*")) {
            return MoveNotation.parseUsi(p, tok);
        }
        return MoveNotation.parseUci(p, tok);
    }

    /** The tags as the record keeps them: without those the format computes (Result, Variant, SetUp, FEN). */
    private static Map<String, String> withoutComputed(Map<String, String> tags) {
        Map<String, String> t = new LinkedHashMap<>(tags);
        for (String k : List.of("Result", "Variant", "SetUp", "FEN")) {
            t.remove(k);
        }
        return t;
    }

    private static RuleSet ruleSet(Map<String, String> tags, int tagLine) {
        String v = tags.getOrDefault("Variant", "").strip().toLowerCase();
        if (v.equals("standard") || v.isEmpty()) {
            return RuleSet.standard();
        }
        if (!RuleSet.IDS.contains(v) && RuleSet.byExternalName(v) != null) {
            return RuleSet.byExternalName(v);
        }
        if (!RuleSet.IDS.contains(v)) {
            throw new NotationException("PGN tag 'Variant' (line " + tagLine + ")", "unknown rule set '" + tags.get("Variant")
                    + "'; known: " + String.join(", ", RuleSet.IDS));
        }
        return RuleSet.of(v);
    }
}
