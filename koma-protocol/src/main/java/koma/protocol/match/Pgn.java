package koma.protocol.match;

import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.Game;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.San;

/**
 * PGN for every rule set, written and read back.
 *
 * <ul>
 *   <li>Chess, Shodo and Shodo deathmatch: SAN movetext ({@link San}).</li>
 *   <li>The shogi family: engine move strings, USI for shogi ({@code 7g7f}, {@code P*5e}) and UCI for Wa shogi
 *   ({@code d9d10+}, {@code P@e5}); the FEN tag is SFEN for shogi.</li>
 *   <li>{@code White} is the first player (sente in shogi), as FEN's 'w' is. Every rule set but chess has a
 *   {@code Variant} tag with its identifier (RULES.md 9.1); {@code SetUp}/{@code FEN} when the game did not start
 *   from the start position. {@code Termination} holds the referee's label ({@code checkmate},
 *   {@code illegal move}, {@code time forfeit}, {@code adjudication}...), and the last comment says why.</li>
 *   <li>Each move has a comment: {@code book} for opening moves, else the engine's score/depth and time
 *   ({@code +0.35/12 0.051s}), as cutechess writes them.</li>
 * </ul>
 */
public final class Pgn {
    private Pgn() {
    }

    /** Whether the rule set's PGN movetext is SAN (chess-like: promotion on arrival, no drops). */
    public static boolean usesSan(RuleSet rs) {
        return rs.promotion.trigger() == RuleSet.PromotionTrigger.ARRIVAL && !rs.drops;
    }

    /** The coordinate style of the movetext of a non-SAN rule set. */
    public static MoveNotation.Style coordinateStyle(RuleSet rs) {
        return rs.sfen ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
    }

    /** One game as PGN text, ending with an empty line. */
    public static String write(GameRecord g, String event) {
        RuleSet rs = g.rules();
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Event", event);
        tags.put("Site", "?");
        tags.put("Date", g.started().format(DateTimeFormatter.ofPattern("yyyy.MM.dd")));
        tags.put("Round", String.valueOf(g.round()));
        tags.put("White", g.players().get(0));
        tags.put("Black", g.players().get(1));
        tags.put("Result", g.result().score());
        if (!rs.id.equals("chess")) {
            tags.put("Variant", rs.id);
        }
        if (!g.fromStart()) {
            tags.put("SetUp", "1");
            tags.put("FEN", Fen.format(g.root()));
        }
        tags.put("TimeControl", g.timeControl().pgnTag());
        tags.put("PlyCount", String.valueOf(g.moves().size()));
        tags.put("Termination", g.result().termination());
        if (g.bookPlies() > 0 || !g.openingSource().equals("startpos")) {
            tags.put("Opening", g.openingSource());
        }
        StringBuilder sb = new StringBuilder();
        tags.forEach((k, v) -> sb.append('[').append(k).append(" \"").append(escape(v)).append("\"]\n"));
        sb.append('\n');

        List<String> tokens = new ArrayList<>();
        Position p = g.root().copy();
        boolean san = usesSan(rs);
        int number = p.gamePly() / 2 + 1;
        for (int i = 0; i < g.moves().size(); i++) {
            int m = g.moves().get(i);
            if (p.sideToMove() == 0) {
                tokens.add(number + ".");
            } else if (i == 0) {
                tokens.add(number + "...");
            }
            tokens.add(san ? San.format(p, m) : MoveNotation.format(p, m, coordinateStyle(rs)));
            String c = g.comments().get(i);
            if (c != null && !c.isEmpty()) {
                tokens.add("{" + c.replace("}", ")") + "}");
            }
            if (p.sideToMove() == 1) {
                number++;
            }
            p.doMove(m);
        }
        tokens.add("{" + g.result().reason().replace("}", ")") + "}");
        tokens.add(g.result().score());
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

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    /** A game read from PGN: its tags, its moves as written, and its result token. */
    public record PgnGame(Map<String, String> tags, List<String> moves, String result) {
    }

    private static final Pattern TAG = Pattern.compile("\\[(\\w+)\\s+\"((?:[^\"\\\\]|\\\\.)*)\"\\s*]");

    /** Reads every game of a PGN text (comments, variations, NAGs and move numbers are skipped). */
    public static List<PgnGame> read(String text) {
        List<PgnGame> games = new ArrayList<>();
        Map<String, String> tags = new LinkedHashMap<>();
        List<String> moves = new ArrayList<>();
        int i = 0, n = text.length(), depth = 0;
        boolean inGame = false;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '{') {
                int end = text.indexOf('}', i);
                i = end < 0 ? n : end + 1;
            } else if (c == ';') {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '(') {
                depth++;
                i++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
                i++;
            } else if (c == '[' && depth == 0 && moves.isEmpty()) {
                int end = text.indexOf('\n', i);
                String line = text.substring(i, end < 0 ? n : end).strip();
                Matcher mt = TAG.matcher(line);
                if (!mt.matches()) {
                    throw new IllegalArgumentException("malformed PGN tag: " + line);
                }
                tags.put(mt.group(1), mt.group(2).replace("\\\"", "\"").replace("\\\\", "\\"));
                inGame = true;
                i = end < 0 ? n : end + 1;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                int j = i;
                while (j < n && !Character.isWhitespace(text.charAt(j)) && "{;()".indexOf(text.charAt(j)) < 0) {
                    j++;
                }
                String tok = text.substring(i, j);
                i = j;
                if (depth > 0 || tok.startsWith("$")) {
                    continue;
                }
                if (tok.equals("1-0") || tok.equals("0-1") || tok.equals("1/2-1/2") || tok.equals("*")) {
                    games.add(new PgnGame(Map.copyOf(tags), List.copyOf(moves), tok));
                    tags = new LinkedHashMap<>();
                    moves = new ArrayList<>();
                    inGame = false;
                    continue;
                }
                tok = tok.replaceFirst("^\\d+\\.+", "");
                if (!tok.isEmpty()) {
                    moves.add(tok);
                    inGame = true;
                }
            }
        }
        if (inGame) {
            throw new IllegalArgumentException("PGN ends inside a game (no result token)");
        }
        return games;
    }

    /** Replays a game read from PGN through the rules core (engine mode); throws on an illegal or unreadable move. */
    public static Game replay(PgnGame pg) {
        RuleSet rs = RuleSet.of(pg.tags().getOrDefault("Variant", "chess").toLowerCase().replace("standard", "chess"));
        String fen = pg.tags().get("FEN");
        Position root = fen == null ? Position.start(rs) : Fen.parse(rs, fen);
        Game game = new Game(root, Match.gameOptions(rs));
        boolean san = usesSan(rs);
        for (String m : pg.moves()) {
            Position p = game.position();
            game.play(san ? San.parse(p, m) : MoveNotation.parse(p, m, coordinateStyle(rs)));
        }
        return game;
    }
}
