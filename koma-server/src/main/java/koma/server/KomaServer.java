package koma.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.eclipse.jetty.server.ConnectionLimit;

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
 * Javalin (Jetty). {@link #start} opens the database (migrating it), resumes the games whose clock runs, and
 * listens. The web layer only reads requests, maps domain refusals ({@link GameError}) to statuses and writes
 * answers; the games live in {@link GameService}. Answers of changes are sent once the change is committed,
 * without holding a web thread while it waits.
 */
public final class KomaServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KomaServer.class);
    /** Largest request body accepted, bytes. */
    public static final int MAX_BODY = 64 * 1024;
    private static final long COOKIE_MAX_AGE_S = 365L * 24 * 3600;

    /** Longest chat text read from a body; the game refuses more than its own limit with a clear message. */
    private static final int CHAT_BODY_MAX = 4096;

    /** Open TCP connections in all beyond the feeds' limit (HTTP keep-alive connections, upgrades in progress). */
    private static final int EXTRA_CONNECTIONS = 2_000;

    private final ObjectMapper json = new ObjectMapper();
    private final Database db;
    private final GameService games;
    private final Feed feed;
    private final RateLimiter limiter;
    private final ClientAddress clients;
    private final List<String> origins;
    private final Javalin app;
    private final Accounts accounts;
    private final History history;
    private final Lobby lobby;
    private final BotApi botApi;
    private final GameAnalyses analyses;
    /** With several nodes: this node's ownership of games, the Redis relay, the forwarding; all null when alone. */
    private final Cluster cluster;
    private final Relay relay;
    private final Forwarder forwarder;

    private KomaServer(ServerConfig cfg) {
        db = new Database(cfg.jdbcUrl());
        feed = new Feed(json, cfg.limits());
        games = new GameService(db, cfg.engineThreads(), cfg.limits(), feed, cfg.engineWorkers() == null ? null
                : new RemoteEngines(cfg.jdbcUrl(), cfg.engineWorkers().computerWait()));
        accounts = new Accounts(db, new PasswordHasher());
        history = new History(db);
        analyses = new GameAnalyses(db, games.engines());
        lobby = new Lobby(json, games, accounts, feed);
        botApi = new BotApi(json, this, games, accounts, history, feed);
        if (cfg.cluster() != null) {
            if (!cfg.jdbcUrl().startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("--redis: several nodes need a PostgreSQL database (--db jdbc:postgresql://...)");
            }
            relay = new Relay(cfg.cluster().redisUri(), cfg.cluster().nodeId());
            cluster = new Cluster(db.dataSource(), cfg.cluster());
            forwarder = new Forwarder(cluster.secretHeader());
            games.useCluster(cluster);
            games.shareCounts(relay);
            games.addListener(relay::publishGame);
            accounts.useRelay(relay);
            lobby.useRelay(relay, cfg.cluster().nodeId());
            botApi.useRelay(relay, cfg.cluster().nodeId());
            lobby.pairAcrossNodes(this::takePoolEntry);
        } else {
            relay = null;
            cluster = null;
            forwarder = null;
        }
        limiter = new RateLimiter(cfg.ratePerSecond(), cfg.rateBurst(), relay, "req");
        clients = new ClientAddress(cfg.trustedProxies());
        origins = cfg.origins();
        int maxConnections = cfg.limits().feeds() + EXTRA_CONNECTIONS;
        app = Javalin.create(c -> {
            c.showJavalinBanner = false;
            c.useVirtualThreads = true; // a request waiting for its commit parks a virtual thread, not a platform one
            c.http.maxRequestSize = MAX_BODY;
            c.jsonMapper(new JavalinJackson(json, false));
            c.jetty.modifyWebSocketServletFactory(f -> f.setIdleTimeout(java.time.Duration.ofMinutes(10)));
            c.jetty.modifyServer(server -> server.addBean(new ConnectionLimit(maxConnections, server)));
        });
        routes();
    }

    /** Starts a server; the caller closes it. */
    public static KomaServer start(ServerConfig cfg) {
        KomaServer s = new KomaServer(cfg);
        try {
            if (s.relay != null) {
                s.relay.start(s.relayListener());
            }
            s.games.resume();
            if (s.cluster != null) {
                s.cluster.start(s.games::adopt);
            }
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

    /** What this node does with what the other nodes publish: game events to its relayed feeds, lobby, sign-outs. */
    private Relay.Listener relayListener() {
        return new Relay.Listener() {
            @Override
            public void gameEvents(String gameId, String fromNode, List<Relay.RemoteEvent> events) {
                feed.relayed(gameId, events);
            }

            @Override
            public void lobby(JsonNode message) {
                lobby.heard(message);
            }

            @Override
            public void auth(String invalidation) {
                accounts.signedOutElsewhere(invalidation);
            }

            @Override
            public void userEvent(String userId, String line) {
                botApi.fromOtherNode(userId, line);
            }

            @Override
            public void userStreamOpened(String userId, String toNode) {
                botApi.streamOpenedElsewhere(userId, toNode);
            }
        };
    }

    /**
     * Several nodes: a request about a game another node owns goes to that node, and its answer comes back
     * ({@link Forwarder}); when the owner does not answer, this node waits out its lease and takes the game over.
     */
    private void routeGame(Context ctx, String gameId) throws Exception {
        if (cluster == null || cluster.ownsNow(gameId)) {
            return;
        }
        if (isForwarded(ctx)) {
            Cluster.Owner o = cluster.owner(gameId);
            if (!o.mine() && o.address() != null) {
                // the sender's idea of the owner was stale: it looks again (never a second hop from here)
                ctx.status(Forwarder.MISDIRECTED).result("");
                ctx.skipRemainingHandlers();
            }
            return;
        }
        long deadline = System.currentTimeMillis() + 2 * cluster.leaseMs() + 2_000;
        int misdirected = 0;
        while (true) {
            Cluster.Owner o = cluster.ownerCached(gameId);
            if (o.mine() || o.address() == null) {
                return; // this node's (loaded by the handler), or no such game (the handler says 404)
            }
            try {
                forwarder.forward(ctx, o.address(), client(ctx));
                ctx.skipRemainingHandlers();
                return;
            } catch (Forwarder.Misdirected e) {
                cluster.misdirected(gameId);
                if (++misdirected > 3) {
                    throw new GameError(GameError.Kind.UNAVAILABLE, "game " + gameId + " is changing nodes; try again",
                            1).coded("busy");
                }
            } catch (Forwarder.Unreachable e) {
                cluster.misdirected(gameId);
                if (System.currentTimeMillis() > deadline) {
                    throw new GameError(GameError.Kind.UNAVAILABLE, "node " + o.nodeId() + " owns game " + gameId
                            + " and does not answer; try again shortly", 1).coded("busy");
                }
                LOG.info("node {} owning game {} did not answer ({}); waiting for its lease", o.nodeId(), gameId,
                        e.getMessage());
                Thread.sleep(Math.max(100, cluster.leaseMs() / 4));
            }
        }
    }

    /**
     * Several nodes: a lobby request about a seek or a lobby connection held by another node (their ids start with
     * the node's id) goes to that node.
     */
    private void routeLobby(Context ctx) throws Exception {
        if (isForwarded(ctx) || !ctx.method().name().equals("POST")) {
            return;
        }
        String path = ctx.path();
        String id = null;
        if (path.startsWith("/api/lobby/seeks/")) {
            String rest = path.substring("/api/lobby/seeks/".length());
            id = rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : rest;
        } else {
            try {
                JsonNode b = json.readTree(rawBody(ctx));
                id = b == null ? null : b.path("sri").asText(null);
            } catch (IOException e) {
                return; // the handler names the malformed body
            }
        }
        String node = Lobby.nodeOf(id);
        if (node == null || node.equals(cluster.nodeId())) {
            return;
        }
        String address = cluster.address(node);
        if (address == null) {
            throw (path.startsWith("/api/lobby/seeks/")
                    ? GameError.notFound("seek: '" + id + "' is no longer open (its node is gone)").coded("seekGone")
                    : GameError.conflict("sri: the lobby connection's node is gone; reload the lobby").coded("lobbyStale"));
        }
        try {
            forwarder.forward(ctx, address, client(ctx));
        } catch (Forwarder.Unreachable | Forwarder.Misdirected e) {
            throw GameError.conflict("sri: the lobby connection's node does not answer; reload the lobby")
                    .coded("lobbyStale");
        }
        ctx.skipRemainingHandlers();
    }

    /**
     * The request's body, read once (at most {@link #MAX_BODY} bytes, 413 beyond) and kept with the request, so that a
     * forward that failed leaves it for the handler.
     */
    static byte[] rawBody(Context ctx) throws IOException {
        byte[] kept = ctx.attribute("koma.body");
        if (kept != null) {
            return kept;
        }
        byte[] bytes;
        try (InputStream in = ctx.req().getInputStream()) {
            bytes = in.readNBytes(MAX_BODY + 1);
        }
        if (bytes.length > MAX_BODY) {
            throw new ApiException(413, "body: over the limit of " + MAX_BODY + " bytes");
        }
        ctx.attribute("koma.body", bytes);
        return bytes;
    }

    /**
     * Several nodes: asks {@code node} to pair its pool entry with this node's player ({@code POST
     * /api/lobby/pool/take}, node to node); the game and this player's seat token, or null when the entry is gone or
     * the node does not answer.
     */
    private Lobby.Pairing takePoolEntry(String node, String entryId, String variant, String clock, Accounts.User user,
                                        String client) {
        String address = cluster.address(node);
        if (address == null) {
            return null;
        }
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("entry", entryId);
        body.put("variant", variant);
        body.put("clock", clock);
        body.put("userId", user == null ? null : user.id());
        body.put("userName", user == null ? null : user.name());
        try {
            String[] r = forwarder.postInternal(address, "/api/lobby/pool/take", json.writeValueAsString(body), client);
            if (!r[0].equals("200")) {
                return null;
            }
            JsonNode a = json.readTree(r[1]);
            return a.path("game").isTextual() ? new Lobby.Pairing(a.get("game").asText(), a.get("token").asText()) : null;
        } catch (Forwarder.Unreachable | IOException e) {
            LOG.info("pool entry {} of node {} not taken: {}", entryId, node, e.getMessage());
            return null;
        }
    }

    /** Several nodes: an answer to a challenge goes to the node that holds it (its id starts with the node's id). */
    private void routeChallenge(Context ctx) throws Exception {
        if (isForwarded(ctx) || !ctx.method().name().equals("POST")) {
            return;
        }
        String id = ctx.pathParam("id");
        String node = Lobby.nodeOf(id);
        if (node == null || node.equals(cluster.nodeId())) {
            return;
        }
        String address = cluster.address(node);
        if (address == null) {
            throw GameError.notFound("no open challenge with id '" + id + "' (its node is gone)");
        }
        try {
            forwarder.forward(ctx, address, client(ctx));
        } catch (Forwarder.Unreachable | Forwarder.Misdirected e) {
            throw GameError.notFound("no open challenge with id '" + id + "' (its node does not answer)");
        }
        ctx.skipRemainingHandlers();
    }

    /** A request another node forwarded (it carries the nodes' secret). */
    private boolean isForwarded(Context ctx) {
        return cluster != null && cluster.trusted(ctx.header(Forwarder.NODE_HEADER));
    }

    private void routes() {
        app.before(ctx -> RequestGuard.HEADERS.forEach(ctx::header));
        app.before("/api/*", this::guard);
        if (cluster != null) {
            app.before("/api/games/{id}", ctx -> routeGame(ctx, ctx.pathParam("id")));
            app.before("/api/games/{id}/*", ctx -> routeGame(ctx, ctx.pathParam("id")));
            app.before("/api/bot/game/{id}/*", ctx -> routeGame(ctx, ctx.pathParam("id")));
            app.before("/api/board/game/{id}/*", ctx -> routeGame(ctx, ctx.pathParam("id")));
            app.before("/api/bot/game/stream/{id}", ctx -> routeGame(ctx, ctx.pathParam("id")));
            app.before("/api/board/game/stream/{id}", ctx -> routeGame(ctx, ctx.pathParam("id")));
            app.before("/api/lobby/*", this::routeLobby);
            app.before("/api/challenge/{id}/*", this::routeChallenge);
        }
        app.get("/api/variants", ctx -> ctx.json(GameView.variants()));
        app.get("/api/levels", ctx -> ctx.json(GameView.levels()));
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
            ctx.json(GameView.game(g.snapshot(), seat(ctx, g), System.currentTimeMillis(), g.ratingDiffs));
        });
        app.post("/api/games/{id}/join", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            body(ctx);
            GameService.Seated s = games.join(g, seat(ctx, g));
            LiveGame.Change c = s.committed().join();
            setSeatCookie(ctx, g.id, s.token());
            Accounts.User user = user(ctx);
            if (user != null) {
                LiveGame.Change seated = games.claimSeat(g, GameService.seatOf(g, s.token()), accounts, user).join();
                c = seated != null ? seated : c;
            }
            ctx.json(GameView.game(c.snapshot(), GameService.seatOf(g, s.token()), System.currentTimeMillis()));
        });
        app.post("/api/games/{id}/moves", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            Body b = body(ctx);
            String move = b.string("move", true, 16);
            int ply = b.integer("ply", true, 0, 100_000, 0);
            answerEvents(ctx, g, games.move(g, seat(ctx, g), move, ply));
        });
        accountRoutes();
        lobbyRoutes();
        botApi.routes(app);
        seatAction("resign", null, (g, seat, value) -> games.resign(g, seat));
        seatAction("draw", "action", games::draw);
        seatAction("claim", "kind", games::claim);
        seatAction("abort", null, (g, seat, value) -> games.abort(g, seat));
        seatAction("takeback", "action", games::takeback);
        app.post("/api/games/{id}/rematch", this::rematch);
        app.post("/api/games/{id}/chat", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            String text = body(ctx).string("text", true, CHAT_BODY_MAX);
            answerEvents(ctx, g, games.chat(g, seat(ctx, g), text, client(ctx)));
        });
        app.get("/api/games/{id}/export", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            String format = ctx.queryParam("format");
            if (format == null) {
                throw ApiException.badRequest("format: missing (pgn, kif, csa or fen)");
            }
            String text = Export.export(g.snapshot(), format, queryInt(ctx, "ply"));
            ctx.contentType("text/plain; charset=utf-8").result(text);
        });
        analysisRoutes();
        app.post("/api/games/{id}/analysis/game", ctx -> ctx.json(analyses.request(games.get(ctx.pathParam("id")).snapshot())));
        app.get("/api/games/{id}/analysis/game", ctx -> ctx.json(analyses.state(games.get(ctx.pathParam("id")).snapshot())));
        app.get("/api/games/{id}/analysis", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            var f = games.analyse(g, queryInt(ctx, "ply"), client(ctx));
            ctx.future(() -> f.thenAccept(ctx::json));
        });
        app.wsBeforeUpgrade("/ws/games/{id}", ctx -> {
            upgradeGuard(ctx, feed::refusal);
        });
        app.ws("/ws/games/{id}", ws -> {
            ws.onConnect(ctx -> {
                LiveGame g;
                try {
                    if (relayedFeed(ctx)) {
                        return;
                    }
                    g = games.find(ctx.pathParam("id"));
                } catch (GameError e) {
                    ctx.closeSession(1013, e.getMessage());
                    return;
                }
                if (g == null) {
                    ctx.closeSession(4404, "no game with id '" + ctx.pathParam("id") + "'");
                    return;
                }
                String client = clients.keyOfLines(remote(ctx.session.getRemoteAddress()),
                        ctx.session.getUpgradeRequest().getHeaders("X-Forwarded-For"));
                Accounts.User u = accounts.bySession(ctx.cookie(SESSION_COOKIE));
                feed.connect(g, ctx, GameService.seatOf(g, ctx.cookie("koma_" + g.id), u == null ? null : u.id()), client);
            });
            ws.onMessage(KomaServer::pong);
            ws.onClose(feed::disconnect);
            ws.onError(feed::disconnect);
        });
        app.get("/", StaticFiles::index);
        app.get("/game/{id}", StaticFiles::index);
        app.get("/rules/{variant}", StaticFiles::index);
        app.get("/lobby", StaticFiles::index);
        app.get("/analysis", StaticFiles::index);
        app.get("/@/{name}", StaticFiles::index);
        app.get("/account", StaticFiles::index);
        app.get("/games", StaticFiles::index);
        app.get("/*", ctx -> {
            if (ctx.path().startsWith("/api/")) {
                throw ApiException.notFound("no such API endpoint: GET " + ctx.path());
            }
            StaticFiles.file(ctx);
        });

        app.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.getMessage(), e.code(), e.params()));
        app.exception(GameError.class, (e, ctx) -> gameError(ctx, e));
        app.exception(CompletionException.class, (e, ctx) -> {
            if (e.getCause() instanceof GameError g) {
                gameError(ctx, g);
            } else if (e.getCause() instanceof ApiException a) {
                error(ctx, a.status(), a.getMessage(), a.code(), a.params());
            } else {
                LOG.error("{} {} failed", ctx.method(), ctx.path(), e.getCause());
                error(ctx, 500, "internal error: " + e.getCause().getClass().getSimpleName());
            }
        });
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

    /**
     * Before a WebSocket upgrade (game feeds, the lobby): the page's headers, the Origin rule, the request rate and
     * the connection caps ({@code caps} says why a client may not open another, or null).
     */
    private void upgradeGuard(Context ctx, java.util.function.Function<String, String> caps) {
        RequestGuard.HEADERS.forEach(ctx::header);
        String refusal = RequestGuard.webSocketRefusal(ctx.header("Origin"), ctx.header("Host"), ctx.scheme(), origins);
        if (refusal != null) {
            throw new ApiException(403, refusal);
        }
        String client = client(ctx);
        long wait = limiter.acquire(client);
        if (wait > 0) {
            ctx.header("Retry-After", String.valueOf(wait));
            throw new ApiException(429, "too many requests; retry after " + wait + " s")
                    .coded("rateLimited", "wait", wait);
        }
        String full = caps.apply(client);
        if (full != null) {
            throw new ApiException(429, full);
        }
    }

    /**
     * Several nodes: a feed of a game another node owns is served here from the relay (its events over Redis), with
     * the game first fetched from the owner with the connection's cookies (so the seat is the owner's word). True
     * when handled so; false when this node owns the game (or there is no such game) and serves it itself.
     */
    private boolean relayedFeed(io.javalin.websocket.WsConnectContext ctx) {
        String id = ctx.pathParam("id");
        if (cluster == null || cluster.ownsNow(id)) {
            return false;
        }
        Cluster.Owner o = cluster.owner(id);
        if (o.mine() || o.address() == null) {
            return false;
        }
        String client = clients.keyOfLines(remote(ctx.session.getRemoteAddress()),
                ctx.session.getUpgradeRequest().getHeaders("X-Forwarded-For"));
        if (!feed.connectRelayed(id, ctx, client)) {
            return true;
        }
        List<String> cookieLines = ctx.session.getUpgradeRequest().getHeaders("Cookie");
        String cookies = cookieLines == null ? "" : String.join("; ", cookieLines);
        try {
            String[] r = forwarder.fetchGame(o.address(), id, cookies, client);
            if (!r[0].equals("200")) {
                ctx.closeSession(r[0].equals("404") ? 4404 : 1013, "game " + id + ": " + r[0]);
                return true;
            }
            JsonNode g = json.readTree(r[1]);
            String you = g.path("you").asText("");
            Seat seat = switch (you) {
                case "first" -> Seat.FIRST;
                case "second" -> Seat.SECOND;
                case "both" -> Seat.BOTH;
                default -> Seat.NONE;
            };
            feed.relayedGame(ctx, seat, r[1], g.path("version").asInt());
        } catch (Forwarder.Unreachable e) {
            // the owner is gone: wait out its lease (bounded), take the game over and serve this connection here
            long deadline = System.currentTimeMillis() + 2 * cluster.leaseMs() + 2_000;
            while (System.currentTimeMillis() < deadline && ctx.session.isOpen()) {
                try {
                    Thread.sleep(Math.max(100, cluster.leaseMs() / 4));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
                if (cluster.owner(id).mine()) {
                    feed.disconnect(ctx); // registered as relayed: connected again below as this node's own feed
                    return false;
                }
            }
            ctx.closeSession(1013, "the game's node does not answer; reconnect");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            ctx.closeSession(1011, "game " + id + ": unreadable answer of its node");
        }
        return true;
    }

    /** The one message a client may send on a WebSocket: a ping, answered with a pong. */
    private static void pong(io.javalin.websocket.WsMessageContext ctx) {
        String text = ctx.message();
        if (text.length() < 200 && text.replace(" ", "").contains("\"type\":\"ping\"")) {
            Feed.reply(ctx, "{\"type\":\"pong\"}");
        } else {
            Feed.reply(ctx, "{\"type\":\"error\",\"error\":\"type: only ping messages are understood\"}");
        }
    }

    /** The HTTP status of each kind of domain refusal, with Retry-After when the refusal says when. */
    private static void gameError(Context ctx, GameError e) {
        int status = switch (e.kind()) {
            case INVALID -> 400;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case TOO_MANY -> 429;
            case UNAVAILABLE -> 503;
        };
        if (e.retryAfter() > 0) {
            ctx.header("Retry-After", String.valueOf(e.retryAfter()));
        }
        error(ctx, status, e.getMessage(), e.code(), e.params());
    }

    /**
     * The small answer of an action, once its change is committed: the game's version and the events the request
     * caused (none for a retried move), written from the events' own JSON. Requests run on virtual threads, so
     * waiting for the commit holds no platform thread.
     */
    private static void answerEvents(Context ctx, LiveGame g, CompletableFuture<LiveGame.Change> f) {
        LiveGame.Change c = f.join(); // the group commit: a few milliseconds; a refusal arrives as CompletionException
        StringBuilder sb = new StringBuilder(512);
        sb.append("{\"version\":").append(c == null ? g.snapshot().version() : c.snapshot().version()).append(",\"events\":[");
        if (c != null) {
            for (int i = 0; i < c.events().size(); i++) {
                sb.append(i == 0 ? "" : ",").append(c.events().get(i).json());
            }
        }
        ctx.contentType("application/json").result(sb.append("]}").toString());
    }

    /**
     * The client key of a request (IPv4 address or IPv6 /64; X-Forwarded-For only from trusted proxies, every line
     * of it, since a proxy may add a line of its own after a forged one).
     */
    private String client(Context ctx) {
        if (isForwarded(ctx)) {
            String c = ctx.header(Forwarder.CLIENT_HEADER);
            if (c != null && !c.isEmpty() && c.length() <= 64) {
                return c;
            }
        }
        return clients.keyOfLines(remote(ctx.req().getRemoteAddr()),
                java.util.Collections.list(ctx.req().getHeaders("X-Forwarded-For")));
    }

    private static InetAddress remote(Object address) {
        if (address instanceof InetSocketAddress a) {
            return a.getAddress();
        }
        try {
            return InetAddress.getByName(String.valueOf(address)); // a literal address from the servlet: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalStateException("remote address " + address, e);
        }
    }

    private static void error(Context ctx, int status, String message) {
        error(ctx, status, message, null, Map.of());
    }

    /** An error answer; a coded one carries its code and params for the page's translation ({@link ErrorCodes}). */
    private static void error(Context ctx, int status, String message, String code, Map<String, String> params) {
        ctx.status(status).json(ErrorCodes.body(message, code, params));
    }

    /** Rate limit per client, the same-origin and JSON rule for changes, and body size, before any API handler. */
    private void guard(Context ctx) {
        if (isForwarded(ctx)) {
            return; // the forwarding node checked the origin, the content type, the size and the rate
        }
        String client = client(ctx);
        long wait = limiter.acquire(client);
        if (wait > 0) {
            ctx.header("Retry-After", String.valueOf(wait));
            throw new ApiException(429, "too many requests from " + client + "; retry after " + wait + " s")
                    .coded("rateLimited", "wait", wait);
        }
        // a request with an API token carries no cookie a third site could ride on, and a browser cannot send the
        // header across sites without a CORS preflight (never granted here): lichess's clients post forms
        String auth = ctx.header("Authorization");
        boolean bearer = auth != null && auth.startsWith("Bearer ");
        String refusal = bearer ? null : RequestGuard.stateChangeRefusal(ctx.method().name(), ctx.header("Content-Type"),
                ctx.header("Origin"), ctx.header("Sec-Fetch-Site"), ctx.header("Host"), ctx.scheme(), origins);
        if (refusal != null) {
            throw new ApiException(403, refusal);
        }
        long length = ctx.req().getContentLengthLong();
        if (length > MAX_BODY) {
            throw new ApiException(413, "body: " + length + " bytes is over the limit of " + MAX_BODY + " bytes");
        }
    }

    /** What a seat's action does with the game, the seat and the body's one field (null when there is none). */
    private interface SeatAction {
        CompletableFuture<LiveGame.Change> apply(LiveGame g, Seat seat, String value);
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
            answerEvents(ctx, g, action.apply(g, seat(ctx, g), value));
        });
    }

    /** The seats of a request: its seat cookie's, and its signed-in account's (session or API token). */
    private Seat seat(Context ctx, LiveGame g) {
        Accounts.User u = user(ctx);
        return GameService.seatOf(g, ctx.cookie("koma_" + g.id), u == null ? null : u.id());
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
        byte[] bytes = rawBody(ctx);
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

    /**
     * The start position a body asks for: {@code fen} (FEN/SFEN), or {@code record} (PGN, KIF or CSA: its start
     * position, its moves added to {@code moves}), or the rule set's start position; not both.
     */
    private static Position startPosition(Body b, RuleSet rs, List<String> moves) {
        String fen = b.string("fen", false, Fen.MAX_LENGTH);
        String record = b.string("record", false, MAX_BODY);
        if (fen != null && record != null) {
            throw ApiException.badRequest("fen, record: give one of them, not both");
        }
        if (fen != null) {
            try {
                return Fen.parse(rs, fen.strip());
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("fen: " + e.getMessage());
            }
        }
        if (record != null) {
            return Export.fromRecord(rs, record, moves);
        }
        return Position.start(rs);
    }

    /** The rule set a body names in {@code variant}. */
    private static RuleSet variantOf(Body b) {
        String variant = b.string("variant", true, 32);
        if (!RuleSet.IDS.contains(variant)) {
            throw ApiException.badRequest("variant: unknown rule set '" + variant + "'; known: "
                    + String.join(", ", RuleSet.IDS));
        }
        return RuleSet.of(variant);
    }

    /** The move strings of a body's {@code moves} array (at most {@link AnalysisBoard#MAX_MOVES}). */
    private static List<String> movesOf(Body b) {
        JsonNode v = b.node().get("moves");
        List<String> out = new ArrayList<>();
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isArray()) {
            throw ApiException.badRequest("moves: must be an array of move strings");
        }
        if (v.size() > AnalysisBoard.MAX_MOVES) {
            throw ApiException.badRequest("moves: " + AnalysisBoard.MAX_MOVES + " at most, got " + v.size());
        }
        for (int i = 0; i < v.size(); i++) {
            JsonNode m = v.get(i);
            if (!m.isTextual() || m.asText().length() > 16) {
                throw ApiException.badRequest("moves[" + i + "]: must be a move string");
            }
            out.add(m.asText());
        }
        return out;
    }

    /**
     * The analysis board ({@code docs/server-api.md}, Analysis board): {@code position} answers the position after a
     * start ({@code fen} or {@code record}) and {@code moves}; {@code lines} the engine's best lines there.
     */
    private void analysisRoutes() {
        app.post("/api/analysis/position", ctx -> {
            Body b = body(ctx);
            RuleSet rs = variantOf(b);
            List<String> moves = new ArrayList<>();
            Position start = startPosition(b, rs, moves);
            moves.addAll(movesOf(b));
            ctx.json(AnalysisBoard.position(start, moves));
        });
        app.post("/api/analysis/parse", ctx -> {
            Body b = body(ctx);
            RuleSet rs = variantOf(b);
            String fen = b.string("fen", true, Fen.MAX_LENGTH);
            String text = b.string("text", true, 32);
            Position p;
            try {
                p = Fen.parse(rs, fen.strip());
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("fen: " + e.getMessage());
            }
            ctx.json(AnalysisBoard.parseTyped(p, text));
        });
        app.post("/api/analysis/lines", ctx -> {
            Body b = body(ctx);
            RuleSet rs = variantOf(b);
            List<String> moves = new ArrayList<>();
            Position start = startPosition(b, rs, moves);
            moves.addAll(movesOf(b));
            int multiPv = b.integer("multiPv", false, 1, GameService.MAX_MULTIPV, 1);
            var f = games.analyseLines(start, moves, multiPv, client(ctx));
            ctx.future(() -> f.thenAccept(ctx::json));
        });
    }

    private void create(Context ctx) throws IOException {
        Body b = body(ctx);
        RuleSet rs = variantOf(b);
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
        if (clock.correspondence() && mode != LiveGame.Mode.FRIEND) {
            throw ApiException.badRequest("clock: a correspondence clock is for friend games only");
        }
        List<String> moves = new ArrayList<>();
        Position start = startPosition(b, rs, moves);
        GameService.Seated s = games.create(new GameService.NewGame(rs, mode, color, level, clock, start, moves), client(ctx));
        LiveGame.Change c = s.committed().join(); // answered once the new game is committed
        Accounts.User user = user(ctx);
        if (user != null && mode != LiveGame.Mode.HOTSEAT) {
            LiveGame.Change seated = games.claimSeat(s.game(), GameService.seatOf(s.game(), s.token()), accounts, user).join();
            c = seated != null ? seated : c;
        }
        setSeatCookie(ctx, s.game().id, s.token());
        Map<String, Object> view = GameView.game(c.snapshot(), GameService.seatOf(s.game(), s.token()),
                System.currentTimeMillis());
        if (mode == LiveGame.Mode.FRIEND) {
            view.put("joinUrl", "/game/" + s.game().id + "?join");
        }
        ctx.status(201).json(view);
    }

    /**
     * {@code POST /api/games/{id}/rematch}: {@code offer}, {@code accept} or {@code decline} a rematch (events), or
     * {@code seat}: a player of the old game, proved by its seat cookie, gets the cookie of its seat in the rematch
     * game (the same token: the rematch game's seats were given the old seats' tokens, colours swapped).
     */
    private void rematch(Context ctx) throws IOException {
        LiveGame g = games.get(ctx.pathParam("id"));
        String action = body(ctx).string("action", true, 16);
        Seat seat = seat(ctx, g);
        if (!action.equals("seat")) {
            answerEvents(ctx, g, games.rematch(g, seat, action, client(ctx)));
            return;
        }
        if (seat != Seat.FIRST && seat != Seat.SECOND) {
            throw new ApiException(403, "you hold no player's seat in this game (no valid koma_" + g.id + " cookie)");
        }
        String newId = games.rematchOf(g);
        if (newId == null) {
            throw new ApiException(409, "action: no rematch was agreed in this game");
        }
        LiveGame fresh = games.get(newId);
        String token = ctx.cookie("koma_" + g.id);
        setSeatCookie(ctx, newId, token);
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("gameId", newId);
        out.put("you", GameService.seatOf(fresh, token).json());
        ctx.json(out);
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
            case "correspondence" -> {
                int days = (int) Body.number(c, "days", true, 1, 14, 0);
                if (!Clock.CORRESPONDENCE_DAYS.contains(days)) {
                    throw ApiException.badRequest("clock.days: must be one of " + Clock.CORRESPONDENCE_DAYS + ", got " + days);
                }
                yield new Clock(Clock.Type.CORRESPONDENCE, days * Clock.DAY_MS, 0, 0, 0);
            }
            default -> throw ApiException.badRequest("clock.type: must be none, fischer, byoyomi or correspondence, got '"
                    + type + "'");
        };
    }

    /** Number of open WebSocket connections (for tests and monitoring). */
    public int feedConnections() {
        return feed.connections();
    }

    /** Feed connections cut off for reading too slowly (for tests and monitoring). */
    public int feedsDropped() {
        return feed.dropped.get();
    }

    /** The games of this server (for tests: "games where it is my turn" has no route yet). */
    GameService games() {
        return games;
    }

    /** Live games held in memory (for tests and monitoring). */
    public int gamesInMemory() {
        return games.inMemory();
    }

    // ---- accounts and profiles ----

    /** The session cookie's name. */
    static final String SESSION_COOKIE = "koma_session";

    /** The signed-in account of a request (session cookie, or {@code Authorization: Bearer} API token), or null. */
    private Accounts.User user(Context ctx) {
        Accounts.Auth a = auth(ctx);
        return a == null ? null : a.user();
    }

    /**
     * The account and scopes of a request: an API token ({@code Authorization: Bearer}, its own scopes; an unknown or
     * revoked one answers 401) or the session cookie (every scope); null for a guest.
     */
    Accounts.Auth auth(Context ctx) {
        String header = ctx.header("Authorization");
        if (header != null && header.startsWith("Bearer ")) {
            Accounts.Auth a = accounts.byToken(header.substring(7).strip());
            if (a == null) {
                throw new ApiException(401, "Authorization: unknown or revoked API token");
            }
            return a;
        }
        Accounts.User u = accounts.bySession(ctx.cookie(SESSION_COOKIE));
        return u == null ? null : new Accounts.Auth(u, java.util.Set.copyOf(Accounts.SCOPES));
    }

    private Accounts.User requireUser(Context ctx) {
        Accounts.User u = user(ctx);
        if (u == null) {
            throw new ApiException(401, "sign in first");
        }
        return u;
    }

    private void setSession(Context ctx, String token, long maxAgeS) {
        ctx.res().addHeader("Set-Cookie", SESSION_COOKIE + "=" + token + "; Path=/; Max-Age=" + maxAgeS
                + "; HttpOnly; SameSite=Lax" + ("https".equals(ctx.scheme()) ? "; Secure" : ""));
    }

    /** The signed-in account: Koma's fields, and lichess's (id, username, title, perfs) for API clients. */
    private Map<String, Object> me(Accounts.User u) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        if (u != null) {
            m.putAll(botApi.user(u));
        }
        m.put("name", u == null ? null : u.name());
        m.put("bot", u != null && u.bot());
        m.put("createdAt", u == null ? null : u.createdAt());
        return m;
    }

    private void accountRoutes() {
        app.get("/api/account", ctx -> ctx.json(me(user(ctx))));
        app.post("/api/account/signup", ctx -> {
            Body b = body(ctx);
            Accounts.Session s = accounts.signup(b.string("name", true, 64), b.string("password", true, 1024), client(ctx));
            setSession(ctx, s.token(), Accounts.SESSION_MS / 1000);
            ctx.status(201).json(me(s.user()));
        });
        app.post("/api/account/login", ctx -> {
            Body b = body(ctx);
            Accounts.Session s = accounts.login(b.string("name", true, 64), b.string("password", true, 1024), client(ctx));
            setSession(ctx, s.token(), Accounts.SESSION_MS / 1000);
            ctx.json(me(s.user()));
        });
        app.post("/api/account/logout", ctx -> {
            body(ctx);
            accounts.logout(ctx.cookie(SESSION_COOKIE));
            setSession(ctx, "", 0);
            ctx.json(me(null));
        });
        app.post("/api/account/password", ctx -> {
            Body b = body(ctx);
            Accounts.User u = requireUser(ctx);
            Accounts.Session s = accounts.changePassword(u, b.string("current", true, 1024), b.string("password", true, 1024));
            setSession(ctx, s.token(), Accounts.SESSION_MS / 1000);
            ctx.json(me(u));
        });
        app.post("/api/account/delete", ctx -> {
            Body b = body(ctx);
            accounts.delete(requireUser(ctx), b.string("password", true, 1024));
            setSession(ctx, "", 0);
            ctx.json(me(null));
        });
        app.get("/api/account/tokens", ctx -> ctx.json(Map.of("tokens", accounts.tokens(requireUser(ctx)))));
        app.post("/api/account/tokens", ctx -> {
            Body b = body(ctx);
            String label = b.string("label", false, 40);
            List<String> scopes = b.node().has("scopes") ? strings(b, "scopes") : Accounts.SCOPES;
            ctx.status(201).json(Map.of("token", accounts.createToken(requireUser(ctx), label == null ? "token" : label,
                    scopes)));
        });
        app.post("/api/account/tokens/{id}/revoke", ctx -> {
            body(ctx);
            accounts.revokeToken(requireUser(ctx), ctx.pathParam("id"));
            ctx.json(Map.of("tokens", accounts.tokens(requireUser(ctx))));
        });
        app.post("/api/games/{id}/account", ctx -> {
            LiveGame g = games.get(ctx.pathParam("id"));
            body(ctx);
            Accounts.User u = requireUser(ctx);
            LiveGame.Change c = games.claimSeat(g, seat(ctx, g), accounts, u).join();
            ctx.json(GameView.game(c == null ? g.snapshot() : c.snapshot(), seat(ctx, g), System.currentTimeMillis(),
                    g.ratingDiffs));
        });
        app.get("/api/games", ctx -> {
            String ids = ctx.queryParam("ids");
            List<String> list = ids == null || ids.isBlank() ? List.of() : List.of(ids.split(","));
            ctx.json(Map.of("games", history.summaries(list)));
        });
        app.get("/api/users/{name}", ctx -> {
            Accounts.User u = profileUser(ctx);
            Map<String, Object> m = me(u);
            m.put("ratings", history.ratings(u.id()));
            ctx.json(m);
        });
        app.get("/api/users/{name}/games", ctx -> {
            Accounts.User u = profileUser(ctx);
            Integer page = queryInt(ctx, "page");
            if (page != null && (page < 0 || page > 100_000)) {
                throw ApiException.badRequest("page: must be from 0 to 100000");
            }
            ctx.json(history.games(u.id(), ctx.queryParam("variant"), ctx.queryParam("result"), page == null ? 0 : page));
        });
        app.get("/api/users/{name}/rating-history", ctx -> {
            Accounts.User u = profileUser(ctx);
            String variant = ctx.queryParam("variant");
            if (variant == null || !RuleSet.IDS.contains(variant)) {
                throw ApiException.badRequest("variant: one of " + String.join(", ", RuleSet.IDS));
            }
            ctx.json(Map.of("variant", variant, "points", history.ratingHistory(u.id(), variant)));
        });
    }

    private Accounts.User profileUser(Context ctx) {
        Accounts.User u = accounts.byName(ctx.pathParam("name"));
        if (u == null) {
            throw ApiException.notFound("no player named '" + ctx.pathParam("name") + "'");
        }
        return u;
    }

    // ---- the lobby ----

    private void lobbyRoutes() {
        app.get("/api/lobby", ctx -> ctx.json(Map.of("games", lobby.gamesNow(), "online", lobby.online(),
                "poolClocks", Lobby.POOL_CLOCKS)));
        app.post("/api/lobby/seeks", ctx -> {
            Body b = body(ctx);
            boolean rated = b.node().path("rated").asBoolean(false);
            String color = b.string("color", false, 16);
            Lobby.Seek s = lobby.seek(b.string("sri", true, 64), user(ctx), b.string("variant", true, 32),
                    b.string("clock", true, 16), rated, color == null ? "random" : color);
            ctx.status(201).json(s.json());
        });
        app.post("/api/lobby/seeks/{id}/cancel", ctx -> {
            Body b = body(ctx);
            lobby.cancel(b.string("sri", true, 64), ctx.pathParam("id"));
            ctx.json(Map.of("cancelled", ctx.pathParam("id")));
        });
        app.post("/api/lobby/seeks/{id}/accept", ctx -> {
            body(ctx);
            Lobby.Pairing p = lobby.accept(ctx.pathParam("id"), user(ctx), client(ctx));
            setSeatCookie(ctx, p.gameId(), p.token());
            ctx.json(Map.of("game", p.gameId()));
        });
        app.post("/api/lobby/pool", ctx -> {
            Body b = body(ctx);
            String game = lobby.joinPool(b.string("sri", true, 64), user(ctx), strings(b, "variants"),
                    strings(b, "clocks"), b.node().path("rated").asBoolean(false));
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("game", game);
            ctx.json(m);
        });
        app.post("/api/lobby/pool/take", ctx -> {
            if (!isForwarded(ctx)) {
                throw ApiException.notFound("no such API endpoint: POST " + ctx.path());
            }
            Body b = body(ctx);
            String userId = b.string("userId", false, 64);
            Accounts.User u = userId == null ? null : new Accounts.User(userId, b.string("userName", true, 64), false, 0);
            Lobby.Pairing p = lobby.takePool(b.string("entry", true, 64), b.string("variant", true, 32),
                    b.string("clock", true, 16), u);
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("game", p == null ? null : p.gameId());
            m.put("token", p == null ? null : p.token());
            ctx.json(m);
        });
        app.post("/api/lobby/pool/leave", ctx -> {
            Body b = body(ctx);
            lobby.leavePool(b.string("sri", true, 64));
            ctx.json(Map.of("waiting", false));
        });
        app.post("/api/lobby/seat", ctx -> {
            Body b = body(ctx);
            String game = b.string("game", true, 32);
            setSeatCookie(ctx, game, lobby.takeSeat(b.string("sri", true, 64), game));
            ctx.json(Map.of("game", game));
        });
        app.wsBeforeUpgrade("/ws/lobby", ctx -> {
            upgradeGuard(ctx, lobby::refusal);
        });
        app.ws("/ws/lobby", ws -> {
            ws.onConnect(ctx -> {
                String client = clients.keyOfLines(remote(ctx.session.getRemoteAddress()),
                        ctx.session.getUpgradeRequest().getHeaders("X-Forwarded-For"));
                lobby.connect(ctx, client, accounts.bySession(ctx.cookie(SESSION_COOKIE)));
            });
            ws.onMessage(KomaServer::pong);
            ws.onClose(lobby::disconnect);
            ws.onError(lobby::disconnect);
        });
    }

    /** A body field that is a list of at most 16 short strings. */
    private static List<String> strings(Body b, String name) {
        JsonNode v = b.node().get(name);
        if (v == null || !v.isArray() || v.size() > 16) {
            throw ApiException.badRequest(name + ": must be a list of at most 16 strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode x : v) {
            if (!x.isTextual() || x.asText().length() > 32) {
                throw ApiException.badRequest(name + ": must be a list of strings of at most 32 characters");
            }
            out.add(x.asText());
        }
        return out;
    }

    @Override
    public void close() {
        botApi.stop(); // the API streams end first, so that the web server does not wait for them
        try {
            app.stop();
        } finally {
            lobby.close();
            games.close();
            if (cluster != null) {
                cluster.close(); // after the last commits: the other nodes take the games over from here
            }
            if (relay != null) {
                relay.close();
            }
            db.close();
        }
    }
}
