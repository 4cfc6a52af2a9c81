package koma.server;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.protocol.match.GameRecord;
import koma.protocol.match.GameResult;
import koma.protocol.match.Kif;
import koma.protocol.match.Pgn;
import koma.protocol.match.TimeControl;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.San;

/** Game records for {@code GET /api/games/{id}/export}: PGN (every rule set), KIF (shogi) and FEN at a ply. */
final class Export {
    private Export() {
    }

    static String export(GameService.Snapshot s, String format, Integer ply) {
        return switch (format) {
            case "fen" -> fen(s, ply);
            case "pgn" -> pgn(s);
            case "kif" -> kif(s);
            case "csa" -> throw ApiException.badRequest("format: csa export is not available yet (formats: pgn, kif, fen)");
            default -> throw ApiException.badRequest("format: must be pgn, kif, csa or fen, got '" + format + "'");
        };
    }

    private static String fen(GameService.Snapshot s, Integer ply) {
        int n = ply == null ? s.moves().size() : ply;
        if (n < 0 || n > s.moves().size()) {
            throw ApiException.badRequest("ply: must be from 0 to " + s.moves().size() + ", got " + n);
        }
        Position p = s.start().copy();
        for (int i = 0; i < n; i++) {
            p.doMove(MoveNotation.parseUci(p, s.moves().get(i)));
        }
        return Fen.format(p) + "\n";
    }

    private static String score(GameService.Snapshot s) {
        if (s.termination() == null) {
            return "*";
        }
        return s.winner() == 0 ? "1-0" : s.winner() == 1 ? "0-1" : "1/2-1/2";
    }

    private static boolean fromStart(GameService.Snapshot s) {
        return Fen.format(s.start()).equals(Fen.format(Position.start(s.rules())));
    }

    /** PGN with SAN movetext for chess-like rule sets and engine move strings for the shogi family. */
    static String pgn(GameService.Snapshot s) {
        RuleSet rs = s.rules();
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Event", "Koma server game");
        tags.put("Site", "?");
        tags.put("Date", started(s).format(DateTimeFormatter.ofPattern("yyyy.MM.dd")));
        tags.put("Round", "-");
        tags.put("White", s.players()[0]);
        tags.put("Black", s.players()[1]);
        tags.put("Result", score(s));
        if (!rs.id.equals("chess")) {
            tags.put("Variant", rs.id);
        }
        if (!fromStart(s)) {
            tags.put("SetUp", "1");
            tags.put("FEN", Fen.format(s.start()));
        }
        tags.put("PlyCount", String.valueOf(s.moves().size()));
        if (s.termination() != null) {
            tags.put("Termination", s.termination());
        }
        StringBuilder sb = new StringBuilder();
        tags.forEach((k, v) -> sb.append('[').append(k).append(" \"")
                .append(v.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"]\n"));
        sb.append('\n');
        List<String> tokens = new ArrayList<>();
        Position p = s.start().copy();
        boolean san = Pgn.usesSan(rs);
        int number = p.gamePly() / 2 + 1;
        for (int i = 0; i < s.moves().size(); i++) {
            int m = MoveNotation.parseUci(p, s.moves().get(i));
            if (p.sideToMove() == 0) {
                tokens.add(number + ".");
            } else if (i == 0) {
                tokens.add(number + "...");
            }
            tokens.add(san ? San.format(p, m) : MoveNotation.format(p, m, Pgn.coordinateStyle(rs)));
            if (p.sideToMove() == 1) {
                number++;
            }
            p.doMove(m);
        }
        tokens.add(score(s));
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
        return sb.append("\n\n").toString();
    }

    /** KIF for shogi, through the match tool's writer. */
    static String kif(GameService.Snapshot s) {
        if (!s.rules().id.equals("shogi")) {
            throw ApiException.badRequest("format: kif is for shogi only, this game is " + s.rules().id);
        }
        Position p = s.start().copy();
        List<Integer> moves = new ArrayList<>();
        for (String uci : s.moves()) {
            int m = MoveNotation.parseUci(p, uci);
            moves.add(m);
            p.doMove(m);
        }
        GameResult result = s.termination() == null ? new GameResult(GameResult.DRAW, "unfinished", "in progress")
                : new GameResult(s.winner(), s.termination(), s.termination());
        Clock k = s.clock();
        TimeControl tc = switch (k.type) {
            case FISCHER -> TimeControl.clock(Math.max(1, k.initialMs), k.incrementMs);
            case BYOYOMI -> TimeControl.byoyomi(k.initialMs, k.byoyomiMs);
            case NONE -> TimeControl.depth(1);
        };
        List<String> none = new ArrayList<>();
        List<Long> zeros = new ArrayList<>();
        for (int i = 0; i < moves.size(); i++) {
            none.add("");
            zeros.add(0L);
        }
        GameRecord rec = new GameRecord(1, s.rules(), List.of(s.players()), s.start(), fromStart(s), moves, none, zeros,
                0, result, tc, "startpos", started(s));
        String text = Kif.write(rec, "Koma server game");
        if (k.type == Clock.Type.NONE) {
            text = text.replace("持ち時間：depth 1\n", "持ち時間：なし\n");
        }
        if (s.termination() == null) {
            // a game in progress has no end line
            text = text.substring(0, text.lastIndexOf(String.format("%4d 中断\n", moves.size() + 1)));
        }
        return text;
    }

    private static ZonedDateTime started(GameService.Snapshot s) {
        return Instant.ofEpochMilli(s.createdAt()).atZone(ZoneOffset.UTC);
    }
}
