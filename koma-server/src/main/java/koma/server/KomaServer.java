package koma.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.json.JavalinJackson;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.server.GameView.Seat;

/**
 * The Koma web server (docs/server-api.md): the JSON API, the WebSocket feed and the web app's files, over
 * Javalin (Jetty). {@link #start} opens the database (migrating it), resumes every unfinished game with its
 * clock, and listens.
 */
public final class KomaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KomaServer.class);
    /** Largest request body accepted, bytes. */
    public static final int MAX_BODY = 64 * 1024;
    private static final long COOKIE_MAX_AGE_S = 365L * 24 * 3600;

    private final ObjectMapper json = new ObjectMapper();
    private final Database db;
    private final GameService games;
    private final Feed feed;
    private final RateLimiter limiter;
    private final Javalin app;

    private KomaServer(ServerConfig cfg) {
        db = new Database(cfg.jdbcUrl());
        games = new GameService(db, cfg.engineThreads());
        feed = new Feed(json);
        games.onChange(feed::changed);
        limiter = new RateLimiter(cfg.ratePerSecond(), cfg.rateBurst());
        app = Javalin.create(c -> {
            c.showJavalinBanner = false;
            c.http.maxRequestSize = MAX_BODY;
            c.jsonMapper(new JavalinJackson(json, false));
            c.jetty.modifyWebSocketServletFactory(f -> f.setIdleTimeout(java.time.Duration.ofMinutes(10)));
        });
        routes();
    }

    /** Starts a server; the caller closes it. */
    public static KomaServer start(ServerConfig cfg) {
        KomaServer s = new KomaServer(cfg);
        try {
            s.games.resumeAll();
            s.app.start(cfg.bind(), cfg.port());
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        LOG.info("Koma server on http://{}:{}/ (database {})", cfg.bind(), s.port(),
                cfg.jdbcUrl().replaceAll("password=[^&]*", "password=***"));
        return s;
    }

    /** The port actually listened on (useful with port 0). */
    public int port() {
        return app.port();
    }

    private void routes() {
        app.before("/api/*", this::guard);
        app.get("/api/variants", ctx -> ctx.json(GameView.variants()));
        app.get("/api/variants/{id}", ctx -> {
            String id = ctx.pathParam("id");
            if (!RuleSet.IDS.contains(id)) {
                throw ApiException.notFound("unknown rule set '" + id + "'; known: " + String.join(", ", RuleSet.IDS));
            }
            ctx.json(GameView.variant(RuleSet.of(id)));
        });
        app.post("/api/games", this::create);
        app.get("/api/games/{id}", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            answer(ctx, g, seat(ctx, g));
        });
        app.post("/api/games/{id}/join", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            GameService.Seated s = games.join(g, seat(ctx, g));
            setSeatCookie(ctx, g.id, s.token());
            answer(ctx, g, GameService.seatOf(g, s.token()));
        });
        app.post("/api/games/{id}/moves", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            Body b = body(ctx);
            String move = b.string("move", true, 16);
            int ply = b.integer("ply", true, 0, 100_000, 0);
            Seat seat = seat(ctx, g);
            games.move(g, seat, move, ply);
            answer(ctx, g, seat);
        });
        seatAction("resign", null, (g, seat, value) -> games.resign(g, seat));
        seatAction("draw", "action", games::draw);
        seatAction("claim", "kind", games::claim);
        app.get("/api/games/{id}/export", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            String format = ctx.queryParam("format");
            if (format == null) {
                throw ApiException.badRequest("format: missing (pgn, kif, csa or fen)");
            }
            String text = Export.export(games.snapshot(g), format, queryInt(ctx, "ply"));
            ctx.contentType("text/plain; charset=utf-8").result(text);
        });
        app.get("/api/games/{id}/analysis", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            ctx.json(games.analyse(g, queryInt(ctx, "ply")));
        });
        app.ws("/ws/games/{id}", ws -> {
            ws.onConnect(ctx -> {
                String client = ctx.session.getRemoteAddress() instanceof java.net.InetSocketAddress a
                        ? a.getAddress().getHostAddress() : "?";
                if (limiter.acquire(client) > 0) {
                    ctx.closeSession(4429, "too many requests from " + client);
                    return;
                }
                LiveGame g = games.find(ctx.pathParam("id"));
                if (g == null) {
                    ctx.closeSession(4404, "no game with id '" + ctx.pathParam("id") + "'");
                    return;
                }
                synchronized (g) {
                    feed.connect(g, ctx, GameService.seatOf(g, ctx.cookie("koma_" + g.id)));
                }
            });
            ws.onMessage(ctx -> {
                String text = ctx.message();
                if (text.length() < 200 && text.replace(" ", "").contains("\"type\":\"ping\"")) {
                    Feed.send(ctx, "{\"type\":\"pong\"}");
                } else {
                    Feed.send(ctx, "{\"type\":\"error\",\"error\":\"type: only ping messages are understood\"}");
                }
            });
            ws.onClose(ctx -> feed.disconnect(ctx.pathParam("id"), ctx));
            ws.onError(ctx -> feed.disconnect(ctx.pathParam("id"), ctx));
        });
        app.get("/", StaticFiles::index);
        app.get("/game/{id}", StaticFiles::index);
        app.get("/rules/{variant}", StaticFiles::index);
        app.get("/*", ctx -> {
            if (ctx.path().startsWith("/api/")) {
                throw ApiException.notFound("no such API endpoint: GET " + ctx.path());
            }
            StaticFiles.file(ctx);
        });

        app.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
        app.exception(HttpResponseException.class, (e, ctx) -> error(ctx, e.getStatus(), e.getMessage()));
        app.exception(Exception.class, (e, ctx) -> {
            LOG.error("{} {} failed", ctx.method(), ctx.path(), e);
            error(ctx, 500, "internal error: " + e.getClass().getSimpleName());
        });
        app.error(404, ctx -> {
            if (ctx.result() == null || ctx.result().isEmpty()) {
                error(ctx, 404, "no such endpoint: " + ctx.method() + " " + ctx.path());
            }
        });
        app.error(405, ctx -> error(ctx, 405, "method not allowed: " + ctx.method() + " " + ctx.path()));
    }

    private static void error(Context ctx, int status, String message) {
        ctx.status(status).json(Map.of("error", message == null ? "error" : message));
    }

    /** Rate limit and body size, before any API handler. */
    private void guard(Context ctx) {
        long wait = limiter.acquire(ctx.ip());
        if (wait > 0) {
            ctx.header("Retry-After", String.valueOf(wait));
            throw new ApiException(429, "too many requests from " + ctx.ip() + "; retry after " + wait + " s");
        }
        long length = ctx.req().getContentLengthLong();
        if (length > MAX_BODY) {
            throw new ApiException(413, "body: " + length + " bytes is over the limit of " + MAX_BODY + " bytes");
        }
    }

    /** What a seat's action does with the game, the seat and the body's one field (null when there is none). */
    private interface SeatAction {
        void apply(LiveGame g, Seat seat, String value);
    }

    /**
     * {@code POST /api/games/{id}/<name>}: reads the body (and its required field {@code field}, unless null) before
     * the seat, so that a malformed request is a 400 whoever sends it, then applies the action and answers the game.
     */
    private void seatAction(String name, String field, SeatAction action) {
        app.post("/api/games/{id}/" + name, ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            Body body = body(ctx);
            String value = field == null ? null : body.string(field, true, 16);
            Seat seat = seat(ctx, g);
            action.apply(g, seat, value);
            answer(ctx, g, seat);
        });
    }

    private void answer(Context ctx, LiveGame g, Seat seat) {
        Map<String, Object> view;
        synchronized (g) {
            view = GameView.game(g, seat, System.currentTimeMillis());
        }
        ctx.json(view);
    }

    private static Seat seat(Context ctx, LiveGame g) {
        return GameService.seatOf(g, ctx.cookie("koma_" + g.id));
    }

    /**
     * The seat cookie, once for the game's API paths and once for its feed: a browser then sends each request
     * only the seat of that game, however many games it has played.
     */
    private static void setSeatCookie(Context ctx, String id, String token) {
        for (String path : new String[]{"/api/games/" + id, "/ws/games/" + id}) {
            ctx.res().addHeader("Set-Cookie", "koma_" + id + "=" + token + "; Path=" + path + "; Max-Age="
                    + COOKIE_MAX_AGE_S + "; HttpOnly; SameSite=Lax");
        }
    }

    private static Integer queryInt(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null) {
            return null;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + ": must be an integer, got '" + (v.length() > 20 ? v.substring(0, 20) + "..." : v) + "'");
        }
    }

    /** A JSON request body with field accessors whose errors name the field. */
    private record Body(JsonNode node) {
        String string(String name, boolean required, int maxLength) {
            JsonNode v = node.get(name);
            if (v == null || v.isNull()) {
                if (required) {
                    throw ApiException.badRequest(name + ": missing");
                }
                return null;
            }
            if (!v.isTextual()) {
                throw ApiException.badRequest(name + ": must be a string");
            }
            if (v.asText().length() > maxLength) {
                throw ApiException.badRequest(name + ": longer than " + maxLength + " characters");
            }
            return v.asText();
        }

        int integer(String name, boolean required, long min, long max, int dflt) {
            return (int) number(node, name, required, min, max, dflt);
        }

        static long number(JsonNode node, String name, boolean required, long min, long max, long dflt) {
            JsonNode v = node.get(name);
            if (v == null || v.isNull()) {
                if (required) {
                    throw ApiException.badRequest(name + ": missing");
                }
                return dflt;
            }
            if (!v.isIntegralNumber()) {
                throw ApiException.badRequest(name + ": must be an integer");
            }
            long x = v.asLong();
            if (!v.canConvertToLong() || x < min || x > max) {
                throw ApiException.badRequest(name + ": must be from " + min + " to " + max + ", got " + v.asText());
            }
            return x;
        }
    }

    private Body body(Context ctx) throws IOException {
        byte[] bytes;
        try (InputStream in = ctx.req().getInputStream()) {
            bytes = in.readNBytes(MAX_BODY + 1);
        }
        if (bytes.length > MAX_BODY) {
            throw new ApiException(413, "body: over the limit of " + MAX_BODY + " bytes");
        }
        if (bytes.length == 0) {
            return new Body(json.createObjectNode());
        }
        JsonNode node;
        try {
            node = json.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("body: malformed JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("body: must be a JSON object");
        }
        return new Body(node);
    }

    private void create(Context ctx) throws IOException {
        Body b = body(ctx);
        String variant = b.string("variant", true, 32);
        if (!RuleSet.IDS.contains(variant)) {
            throw ApiException.badRequest("variant: unknown rule set '" + variant + "'; known: "
                    + String.join(", ", RuleSet.IDS));
        }
        RuleSet rs = RuleSet.of(variant);
        String modeText = b.string("mode", true, 16);
        LiveGame.Mode mode = switch (modeText) {
            case "computer" -> LiveGame.Mode.COMPUTER;
            case "friend" -> LiveGame.Mode.FRIEND;
            case "hotseat" -> LiveGame.Mode.HOTSEAT;
            default -> throw ApiException.badRequest("mode: must be computer, friend or hotseat, got '" + modeText + "'");
        };
        String color = b.string("color", false, 16);
        color = color == null ? "first" : color;
        if (!List.of("first", "second", "random").contains(color)) {
            throw ApiException.badRequest("color: must be first, second or random, got '" + color + "'");
        }
        int level = b.integer("level", false, 0, 20, 10);
        Clock clock = clock(b.node().get("clock"));
        String fen = b.string("fen", false, Fen.MAX_LENGTH);
        String record = b.string("record", false, MAX_BODY);
        if (fen != null && record != null) {
            throw ApiException.badRequest("fen, record: give one of them, not both");
        }
        Position start = Position.start(rs);
        List<String> moves = new ArrayList<>();
        if (fen != null) {
            try {
                start = Fen.parse(rs, fen.strip());
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("fen: " + e.getMessage());
            }
        } else if (record != null) {
            start = Export.fromRecord(rs, record, moves);
        }
        GameService.Seated s = games.create(new GameService.NewGame(rs, mode, color, level, clock, start, moves));
        setSeatCookie(ctx, s.game().id, s.token());
        ctx.status(201);
        Map<String, Object> view;
        synchronized (s.game()) {
            view = GameView.game(s.game(), GameService.seatOf(s.game(), s.token()), System.currentTimeMillis());
        }
        if (mode == LiveGame.Mode.FRIEND) {
            view.put("joinUrl", "/game/" + s.game().id + "?join");
        }
        ctx.json(view);
    }

    /** The clock object of a new game. */
    private static Clock clock(JsonNode c) {
        if (c == null || c.isNull()) {
            return Clock.none();
        }
        if (!c.isObject()) {
            throw ApiException.badRequest("clock: must be an object");
        }
        Body b = new Body(c);
        String type = b.string("type", true, 16);
        long day = 86_400_000L;
        return switch (type) {
            case "none" -> Clock.none();
            case "fischer" -> new Clock(Clock.Type.FISCHER, Body.number(c, "initialMs", true, 100, day, 0),
                    Body.number(c, "incrementMs", false, 0, 3_600_000, 0), 0, 0);
            case "byoyomi" -> {
                long initial = Body.number(c, "initialMs", false, 0, day, 0);
                long byoyomi = Body.number(c, "byoyomiMs", true, 100, 3_600_000, 0);
                int periods = (int) Body.number(c, "periods", false, 1, 10, 1);
                yield new Clock(Clock.Type.BYOYOMI, initial, 0, byoyomi, periods);
            }
            default -> throw ApiException.badRequest("clock.type: must be none, fischer or byoyomi, got '" + type + "'");
        };
    }

    /** Number of open WebSocket connections (for tests and monitoring). */
    public int feedConnections() {
        return feed.connections();
    }

    @Override
    public void close() {
        try {
            app.stop();
        } finally {
            games.close();
            db.close();
        }
    }
}
