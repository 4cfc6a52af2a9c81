package koma.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import koma.protocol.match.EngineClient;
import koma.protocol.match.EngineConfig;
import koma.protocol.match.EngineException;
import koma.protocol.match.Reply;
import koma.protocol.match.ThinkRequest;
import koma.protocol.match.TimeControl;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;

/**
 * {@code koma bot}: puts an engine online on a Koma server through the bot API (docs/bot-api.md), as lichess-bot
 * does for lichess. It reads the account's event stream, accepts the challenges it is configured for (declining the
 * others with lichess's reasons), and plays each game on its own thread: one engine process per game, started for
 * the game's rule set, asked for a move with the game's clock whenever the game stream says it is its turn. Streams
 * that drop are opened again with a growing pause (1 s to 30 s).
 */
final class BotBridge implements AutoCloseable {
    /** Pause before reconnecting a dropped stream, first and longest, ms. */
    static final long RETRY_MS = 1_000, RETRY_MAX_MS = 30_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the bridge accepts and how it runs the engine. */
    record Settings(String server, String token, EngineConfig engine, Set<String> variants, int concurrency,
                    boolean acceptRated, boolean acceptCasual, long moveOverheadMs) {
    }

    private final Settings s;
    private final PrintStream log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Set<String> playing = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<EngineClient> engines = new java.util.concurrent.CopyOnWriteArrayList<>();
    private String me;

    BotBridge(Settings s, PrintStream log) {
        this.s = s;
        this.log = log;
    }

    /** Runs until {@link #close}: the event stream, reopened whenever it drops. */
    void run() throws InterruptedException {
        JsonNode account = json(request("GET", "/api/account", null));
        me = account.path("id").asText(account.path("name").asText()).toLowerCase();
        log.println("bot: signed in as " + account.path("username").asText(me) + " on " + s.server());
        long pause = RETRY_MS;
        while (running.get()) {
            try {
                lines("/api/stream/event", line -> {
                    if (!line.isBlank()) {
                        event(parse(line));
                    }
                });
                pause = RETRY_MS;
            } catch (RuntimeException e) {
                if (!running.get()) {
                    break;
                }
                log.println("bot: event stream dropped (" + e.getMessage() + "); again in " + pause / 1000 + " s");
            }
            if (running.get()) {
                Thread.sleep(pause);
                pause = Math.min(RETRY_MAX_MS, pause * 2);
            }
        }
    }

    private void event(JsonNode e) {
        switch (e.path("type").asText()) {
            case "challenge" -> challenge(e.get("challenge"));
            case "gameStart" -> {
                String id = e.path("game").path("gameId").asText(e.path("game").path("id").asText());
                if (playing.add(id)) {
                    Thread.ofVirtual().name("bot-game-" + id).start(() -> play(id));
                }
            }
            default -> {
            }
        }
    }

    /** Accepts a challenge to this account that fits the settings; declines the others. */
    private void challenge(JsonNode c) {
        if (!c.path("destUser").path("id").asText().equalsIgnoreCase(me)) {
            return;
        }
        String id = c.path("id").asText();
        String variant = c.path("variant").path("key").asText();
        boolean rated = c.path("rated").asBoolean();
        String reason = !s.variants().isEmpty() && !s.variants().contains(variant) ? "variant"
                : rated && !s.acceptRated() ? "casual" : !rated && !s.acceptCasual() ? "rated"
                : playing.size() >= s.concurrency() ? "later" : null;
        try {
            if (reason == null) {
                request("POST", "/api/challenge/" + id + "/accept", "");
                log.println("bot: accepted " + variant + " challenge " + id + " from " + c.path("challenger").path("name").asText());
            } else {
                request("POST", "/api/challenge/" + id + "/decline", "reason=" + reason);
                log.println("bot: declined challenge " + id + " (" + reason + ")");
            }
        } catch (RuntimeException ex) {
            log.println("bot: challenge " + id + ": " + ex.getMessage());
        }
    }

    /** Plays one game to its end: the game stream, an engine for its rule set, a move whenever it is our turn. */
    private void play(String id) {
        EngineClient engine = null;
        try {
            long pause = RETRY_MS;
            Game g = new Game();
            while (running.get() && !g.over) {
                try {
                    final EngineClient[] holder = {engine};
                    lines("/api/bot/game/stream/" + id, line -> {
                        if (line.isBlank() || g.over) {
                            return;
                        }
                        JsonNode n = parse(line);
                        if (n.path("type").asText().equals("gameFull")) {
                            g.full(n);
                            if (holder[0] == null) {
                                holder[0] = startEngine(g.rules);
                            }
                            g.state(n.get("state"), holder[0], id);
                        } else if (n.path("type").asText().equals("gameState") && g.rules != null) {
                            g.state(n, holder[0], id);
                        }
                        if (g.over) {
                            throw new GameOver();
                        }
                    });
                    engine = holder[0];
                } catch (GameOver over) {
                    break;
                } catch (RuntimeException e) {
                    if (g.over || !running.get()) {
                        break;
                    }
                    log.println("bot: game " + id + " stream dropped (" + e.getMessage() + "); again in " + pause / 1000 + " s");
                    Thread.sleep(pause);
                    pause = Math.min(RETRY_MAX_MS, pause * 2);
                }
            }
            log.println("bot: game " + id + " over: " + g.status + (g.winner == null ? "" : ", " + g.winner + " won"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            playing.remove(id);
            if (engine != null) {
                engine.close();
                engines.remove(engine);
            }
        }
    }

    /** Ends a game stream's reading once the game is over. */
    private static final class GameOver extends RuntimeException {
        GameOver() {
            super("game over", null, false, false);
        }
    }

    private EngineClient startEngine(RuleSet rules) {
        try {
            EngineClient e = EngineClient.start(s.engine(), rules);
            e.newGame();
            engines.add(e);
            return e;
        } catch (EngineException e) {
            throw new IllegalStateException("engine: " + e.getMessage(), e);
        }
    }

    /** The state of one game as its stream tells it. */
    private final class Game {
        RuleSet rules;
        Position root;
        boolean fromStart;
        int mySide = -1;
        TimeControl tc;
        int answeredPly = -1;
        boolean over;
        String status, winner;

        void full(JsonNode n) {
            rules = RuleSet.of(n.path("variant").path("key").asText());
            String fen = n.path("initialFen").asText("startpos");
            fromStart = fen.equals("startpos");
            root = fromStart ? Position.start(rules) : Fen.parse(rules, fen);
            mySide = n.path("white").path("id").asText().equalsIgnoreCase(me) ? 0
                    : n.path("black").path("id").asText().equalsIgnoreCase(me) ? 1 : -1;
            JsonNode c = n.get("clock");
            if (c == null || c.isNull()) {
                tc = TimeControl.moveTime(2_000);
            } else if (c.has("byoyomi")) {
                tc = TimeControl.byoyomi(c.path("initial").asLong(), c.path("byoyomi").asLong());
            } else {
                tc = TimeControl.clock(Math.max(1, c.path("initial").asLong()), c.path("increment").asLong());
            }
        }

        /** A new state: the game over, or our turn (then a move is asked of the engine and sent). */
        void state(JsonNode st, EngineClient engine, String id) {
            status = st.path("status").asText();
            if (!status.equals("started") && !status.equals("created")) {
                over = true;
                winner = st.hasNonNull("winner") ? st.get("winner").asText() : null;
                engine.gameOver(winner == null ? 0 : (winner.equals("white") ? 0 : 1) == mySide ? 1 : -1);
                return;
            }
            String text = st.path("moves").asText("");
            List<String> uci = new ArrayList<>(), usi = new ArrayList<>();
            Position p = root.copy();
            for (String m : text.isBlank() ? new String[0] : text.strip().split("\\s+")) {
                int move = parseEither(p, m);
                uci.add(MoveNotation.formatUci(p, move));
                usi.add(MoveNotation.formatUsi(p, move));
                p.doMove(move);
            }
            int ply = uci.size();
            if (mySide < 0 || p.sideToMove() != mySide || ply <= answeredPly) {
                return;
            }
            answeredPly = ply;
            // the engine is told less time than the clock shows: the state's age, the request and the move's way back
            long over = s.moveOverheadMs();
            long[] left = {Math.max(1, st.path("wtime").asLong() - over), Math.max(1, st.path("btime").asLong() - over)};
            TimeControl t = tc.kind() == TimeControl.Kind.BYOYOMI && tc.byoyomiMs() > over
                    ? TimeControl.byoyomi(tc.baseMs(), tc.byoyomiMs() - over) : tc;
            Reply r = engine.think(new ThinkRequest(root, fromStart, uci, usi, mySide, t, left),
                    Math.max(5_000, left[mySide] + tc.byoyomiMs() + 5_000));
            if (r.kind() == Reply.Kind.MOVE) {
                String move = MoveNotation.formatUci(p, parseEither(p, r.move()));
                request("POST", "/api/bot/game/" + id + "/move/" + move, "");
            } else if (r.kind() == Reply.Kind.RESIGN || r.kind() == Reply.Kind.NO_MOVE) {
                request("POST", "/api/bot/game/" + id + "/resign", "");
            } else {
                log.println("bot: game " + id + ": the engine gave no move (" + r.kind() + " " + r.detail() + ")");
            }
        }
    }

    /** A move string in either coordinate style (the server writes the rule set's own, engines theirs). */
    static int parseEither(Position p, String m) {
        try {
            return MoveNotation.parseUci(p, m);
        } catch (NotationException e) {
            return MoveNotation.parseUsi(p, m);
        }
    }

    // ---- HTTP ----

    private HttpRequest.Builder base(String path) {
        return HttpRequest.newBuilder(URI.create(s.server().replaceAll("/+$", "") + path))
                .header("Authorization", "Bearer " + s.token()).header("Accept", "application/json");
    }

    /** A request answered with JSON; a status of 400 or more throws with the server's error. */
    private String request(String method, String path, String form) {
        HttpRequest.Builder b = base(path).timeout(Duration.ofSeconds(60));
        if (method.equals("POST")) {
            b.header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form == null ? "" : form));
        } else {
            b.GET();
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() >= 400) {
                throw new IllegalStateException(method + " " + path + ": " + r.statusCode() + " " + r.body());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    /** Reads a stream's lines until it ends (returns) or fails (throws). */
    private void lines(String path, java.util.function.Consumer<String> each) {
        try {
            HttpResponse<Stream<String>> r = http.send(base(path).GET().build(), HttpResponse.BodyHandlers.ofLines());
            if (r.statusCode() >= 400) {
                String body = String.join("\n", r.body().toList());
                throw new IllegalStateException("GET " + path + ": " + r.statusCode() + " " + body);
            }
            try (Stream<String> lines = r.body()) {
                lines.forEach(l -> {
                    if (!running.get()) {
                        throw new IllegalStateException("stopping");
                    }
                    each.accept(l);
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        }
    }

    private static JsonNode json(String text) {
        return parse(text);
    }

    private static JsonNode parse(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + (text.length() > 100 ? text.substring(0, 100) : text));
        }
    }

    static String form(String k, String v) {
        return URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        running.set(false);
        engines.forEach(EngineClient::kill);
    }
}
