package koma.server;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Csa;
import koma.rules.notation.Fen;
import koma.rules.notation.GameRecord;
import koma.rules.notation.Kif;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;
import koma.rules.notation.Pgn;

/**
 * Game records for {@code GET /api/games/{id}/export} (PGN for every rule set, KIF and CSA for shogi, FEN at a
 * ply) and for {@code POST /api/games} with a {@code record}, through the rules core's notation module.
 */
final class Export {
    private Export() {
    }

    static String export(GameSnapshot s, String format, Integer ply) {
        return switch (format) {
            case "fen" -> fen(s, ply);
            case "pgn" -> Pgn.format(record(s));
            case "kif" -> shogiOnly(s, "kif", () -> Kif.format(record(s)));
            case "csa" -> shogiOnly(s, "csa", () -> Csa.format(record(s)));
            default -> throw GameError.invalid("format: must be pgn, kif, csa or fen, got '" + format + "'");
        };
    }

    private static String shogiOnly(GameSnapshot s, String format, java.util.function.Supplier<String> f) {
        if (!s.rules().id.equals("shogi")) {
            throw GameError.invalid("format: " + format + " is for shogi only, this game is " + s.rules().id);
        }
        return f.get();
    }

    private static String fen(GameSnapshot s, Integer ply) {
        int n = ply == null ? s.ply() : ply;
        if (n < 0 || n > s.ply()) {
            throw GameError.invalid("ply: must be from 0 to " + s.ply() + ", got " + n);
        }
        return Fen.format(s.positionAt(n)) + "\n";
    }

    /** The game as a record: players, date, time control, result and termination. */
    static GameRecord record(GameSnapshot s) {
        RuleSet rs = s.rules();
        ZonedDateTime started = Instant.ofEpochMilli(s.createdAt()).atZone(ZoneOffset.UTC);
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Event", "Koma server game");
        tags.put("Site", "?");
        tags.put("Date", started.format(DateTimeFormatter.ofPattern("yyyy.MM.dd")));
        tags.put("Time", started.format(DateTimeFormatter.ofPattern("HH:mm:ss")));
        tags.put("Round", "-");
        tags.put("White", s.players().get(0));
        tags.put("Black", s.players().get(1));
        Clock k = s.clock();
        tags.put("TimeControl", switch (k.type) {
            case NONE -> "-";
            case FISCHER -> seconds(k.initialMs) + "+" + seconds(k.incrementMs);
            case BYOYOMI -> seconds(k.initialMs) + "+" + seconds(k.byoyomiMs) + " byoyomi"
                    + (k.periods > 1 ? " x" + k.periods : "");
        });
        if (s.termination() != null) {
            tags.put("Termination", s.termination());
        }
        String result = s.termination() == null ? "*" : GameView.scoreText(s.winner());
        boolean fromStart = Fen.format(s.start()).equals(Fen.format(Position.start(rs)));
        return new GameRecord(rs.id, fromStart ? null : Fen.format(s.start()), s.moves(), tags, result);
    }

    private static String seconds(long ms) {
        return ms % 1000 == 0 ? String.valueOf(ms / 1000) : String.valueOf(ms / 1000.0);
    }

    /**
     * A PGN, KIF or CSA text read into its start position and moves (UCI strings, added to {@code moves}); the
     * format is told by its look, and an error names the field {@code record}.
     */
    static Position fromRecord(RuleSet rs, String text, List<String> moves) {
        String t = text.strip();
        GameRecord rec;
        try {
            if (t.startsWith("[") || t.matches("(?s)^\\d+\\..*")) {
                rec = Pgn.parse(t);
            } else if (t.startsWith("V2") || t.startsWith("N+") || t.startsWith("PI") || t.startsWith("P1")
                    || t.startsWith("'") || t.startsWith("$") || t.startsWith("+") || t.startsWith("-")) {
                rec = Csa.parse(t);
            } else {
                rec = Kif.parse(t);
            }
        } catch (NotationException e) {
            throw GameError.invalid("record: " + e.getMessage());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw GameError.invalid("record: " + e.getMessage());
        }
        if (!rec.variant().equals(rs.id)) {
            throw GameError.invalid("record: it is a " + rec.variant() + " game but variant is '" + rs.id + "'");
        }
        Position start;
        try {
            start = rec.startPosition();
            Position p = start.copy();
            for (String m : rec.moves()) {
                int mv = MoveNotation.parseUci(p, m);
                if (!p.isLegal(mv)) {
                    throw GameError.invalid("record: move " + (moves.size() + 1) + " (" + m + ") is not legal");
                }
                moves.add(MoveNotation.formatUci(p, mv));
                p.doMove(mv);
            }
        } catch (NotationException e) {
            throw GameError.invalid("record: move " + (moves.size() + 1) + ": " + e.getMessage());
        }
        return start;
    }
}
