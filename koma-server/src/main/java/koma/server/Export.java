package koma.server;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
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
            case "pgn" -> Pgn.format(record(s, "pgn"));
            case "kif" -> shogiOnly(s, "kif", () -> Kif.format(record(s, "kif")));
            case "csa" -> shogiOnly(s, "csa", () -> Csa.format(record(s, "csa")));
            default -> throw GameError.invalid("format: must be pgn, kif, csa or fen, got '" + format + "'");
        };
    }

    private static String shogiOnly(GameSnapshot s, String format, java.util.function.Supplier<String> f) {
        if (!s.rules().conventions.records().contains(format)) {
            throw GameError.invalid("format: " + format + " is not written for " + s.rules().id + " (its formats: "
                    + String.join(", ", s.rules().conventions.records()) + ", fen)");
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

    /**
     * The game as a record in {@code format} (pgn, kif or csa): players, date, time control, result and
     * termination, and in a clocked game the move times: PGN {@code [%clk h:mm:ss]} comments, KIF's time column,
     * CSA's {@code T} lines ({@link #timing}).
     */
    static GameRecord record(GameSnapshot s, String format) {
        RuleSet rs = s.rules();
        ZonedDateTime started = Instant.ofEpochMilli(s.createdAt()).atZone(ZoneOffset.UTC);
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Event", "Koma server game");
        tags.put("Site", "?");
        tags.put("Date", started.format(DateTimeFormatter.ofPattern("yyyy.MM.dd")));
        tags.put("Time", started.format(DateTimeFormatter.ofPattern("HH:mm:ss")));
        tags.put("Round", "-");
        tags.put("White", playerName(s.players().get(0), s.mode()));
        tags.put("Black", playerName(s.players().get(1), s.mode()));
        Clock k = s.clock();
        switch (format) {
            case "kif" -> {
                if (k.timed()) {
                    tags.put("TimeControl", kifTime(k.initialMs) + (k.type == Clock.Type.FISCHER
                            ? "+" + kifTime(k.incrementMs) : ""));
                }
                if (k.type == Clock.Type.BYOYOMI) {
                    tags.put("Byoyomi", kifTime(k.byoyomiMs) + (k.periods > 1 ? "(" + k.periods + ")" : ""));
                }
            }
            case "csa" -> {
                if (k.timed()) {
                    tags.put("TimeControl", csaTime(k));
                }
                if (k.type == Clock.Type.FISCHER) {
                    tags.put("Increment", seconds(k.incrementMs));
                }
            }
            default -> tags.put("TimeControl", switch (k.type) {
                case NONE -> "-";
                case FISCHER -> seconds(k.initialMs) + "+" + seconds(k.incrementMs);
                case BYOYOMI -> seconds(k.initialMs) + "+" + seconds(k.byoyomiMs) + " byoyomi"
                        + (k.periods > 1 ? " x" + k.periods : "");
                case CORRESPONDENCE -> "1/" + seconds(k.initialMs); // PGN: one move per that many seconds
            });
        }
        if (s.termination() != null) {
            tags.put("Termination", s.termination());
        }
        String result = s.termination() == null ? "*" : GameView.scoreText(s.winner());
        boolean fromStart = Fen.format(s.start()).equals(Fen.format(Position.start(rs)));
        Timing t = timing(s);
        List<String> comments = new ArrayList<>();
        List<Long> times = List.of();
        if (format.equals("pgn")) {
            for (long left : t.left()) {
                comments.add("[%clk " + clk(left) + "]");
            }
        } else {
            times = t.used();
        }
        return new GameRecord(rs.id, fromStart ? null : Fen.format(s.start()), s.moves(), tags, result, comments,
                times);
    }

    /**
     * A stored player ({@code human}, {@code computer:LEVEL}) as the records name it: until there are accounts a
     * human has no name, so "Player" (a record names sides, not seats: both humans of a friend game are "Player"),
     * "Hot-seat" for the players sharing a hot-seat game, and the computer "Koma (level N)".
     */
    static String playerName(String stored, LiveGame.Mode mode) {
        if (stored.startsWith("computer:")) {
            return "Koma (level " + stored.substring("computer:".length()) + ")";
        }
        if (stored.equals("computer")) {
            return "Koma";
        }
        if (stored.equals("human")) {
            return mode == LiveGame.Mode.HOTSEAT ? "Hot-seat" : "Player";
        }
        return stored;
    }

    /**
     * A time as KIF's 持ち時間 writes it: whole minutes as {@code 5分}, else seconds as {@code 90秒}. Taken from
     * lishogi (scalashogi {@code Tag.timeControlKif}: {@code 10分+30秒} for 10 minutes and a 30 s byoyomi or
     * increment); the Kakinoki KIF format (http://kakinoki.o.oo7.jp/kif_format.html) has free text for 持ち時間 and
     * its own header for the byoyomi, {@code 秒読み：30秒}, which is how a byoyomi is written here (so that it is
     * not mistaken for an increment); a Fischer increment, which Kakinoki does not know, is lishogi's
     * {@code 5分+3秒}.
     */
    static String kifTime(long ms) {
        long sec = Math.round(ms / 1000.0);
        return sec % 60 == 0 && sec > 0 ? sec / 60 + "分" : sec + "秒";
    }

    /**
     * CSA V2.2's {@code $TIME_LIMIT:HH:MM+SS} (main time in whole minutes, byoyomi seconds; CSA standard file
     * format V2.2, http://www2.computer-shogi.org/protocol/record_v22.html; lishogi writes a byoyomi so too); a
     * Fischer clock has +00 there and its increment in an {@code 'Increment: 3} line, CSA V2.2 having none.
     */
    private static String csaTime(Clock k) {
        long main = Math.round(k.initialMs / 1000.0) / 60;
        long byo = k.type == Clock.Type.BYOYOMI ? Math.round(k.byoyomiMs / 1000.0) : 0;
        return String.format("%02d:%02d+%02d", main / 60, main % 60, byo);
    }

    /** A clock reading as lichess writes {@code [%clk]}: {@code h:mm:ss}, seconds truncated. */
    static String clk(long ms) {
        long sec = Math.max(0, ms) / 1000;
        return String.format("%d:%02d:%02d", sec / 3600, (sec / 60) % 60, sec % 60);
    }

    /** Per move: the time it took (whole seconds, in ms) and its mover's clock after it; empty lists untimed. */
    record Timing(List<Long> used, List<Long> left) {
    }

    /**
     * The move times of a clocked game, from the moves' {@code played_at} times: a move's time is the time since
     * the move before it; the first move's is the time since the clock started, which is the game's creation for a
     * computer or hot-seat game. A friend game's clock starts at the join, which is not stored (and the time since
     * the creation would count the wait for the second player), so its first move's time is unknown and written as
     * 0, as records without times have it. Each time is cut to what the mover's clock allowed (a longer move would
     * have lost on time; this covers a server restart, whose downtime is given back to the clock). The moves a game
     * was created with (from a record) carry its creation time: they took no time and charged no clock, as on the
     * server. The clock after each move is replayed as {@link Clock#charge} does it: Fischer adds the increment;
     * byoyomi shows the main time left, or a full period once in byoyomi.
     */
    static Timing timing(GameSnapshot s) {
        Clock k = s.clock();
        if (!k.timed()) {
            return new Timing(List.of(), List.of());
        }
        int n = s.ply();
        List<Long> used = new ArrayList<>(n), left = new ArrayList<>(n);
        long[] main = {k.initialMs, k.initialMs};
        long[] periods = {k.periods, k.periods};
        long prev = s.createdAt();
        boolean startKnown = s.mode() != LiveGame.Mode.FRIEND;
        int side = s.start().sideToMove();
        for (int i = 0; i < n; i++, side ^= 1) {
            long at = s.playedAt().get(i);
            if (at == s.createdAt()) {
                used.add(0L);
                left.add(shown(k, main[side], periods[side]));
                continue;
            }
            long allowed = main[side] + (k.type == Clock.Type.BYOYOMI ? periods[side] * k.byoyomiMs : 0);
            long t = startKnown ? Math.min(Math.max(0, at - prev), Math.max(0, allowed)) : 0;
            startKnown = true;
            prev = Math.max(prev, at);
            if (k.type == Clock.Type.FISCHER) {
                main[side] += k.incrementMs - t;
            } else if (k.type == Clock.Type.CORRESPONDENCE) {
                main[side] = k.initialMs; // the full time again for each move
            } else if (t <= main[side]) {
                main[side] -= t;
            } else {
                long over = t - main[side];
                main[side] = 0;
                periods[side] -= k.byoyomiMs > 0 ? over / k.byoyomiMs : periods[side];
            }
            used.add(t / 1000 * 1000);
            left.add(shown(k, main[side], periods[side]));
        }
        return new Timing(used, left);
    }

    private static long shown(Clock k, long main, long periods) {
        return k.type == Clock.Type.BYOYOMI && main == 0 ? (periods > 0 ? k.byoyomiMs : 0) : main;
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
