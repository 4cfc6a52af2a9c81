package koma.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.Javalin;
import io.javalin.http.Context;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;
import koma.server.GameView.Seat;

/**
 * lichess's Bot and Board API on Koma (docs/bot-api.md): the same paths, form fields, newline-delimited JSON
 * streams and field names as lichess's published API, so that lichess-bot, Lishogi-Bot and other clients only
 * change their base URL. Variant keys are Koma's rule-set ids; the first player is "white" in every field
 * (wtime is the first player's time), byoyomi clocks add lishogi's {@code byo}. Requests authenticate with a
 * personal API token ({@code Authorization: Bearer}) whose scopes allow them (bot:play, board:play,
 * challenge:read, challenge:write), or the page's session.
 */
final class BotApi {
    private final ObjectMapper json;
    private final KomaServer server;
    private final GameService games;
    private final Accounts accounts;
    private final History history;
    private final Challenges challenges;
    private final NdjsonStreams streams = new NdjsonStreams();
    /** Games listed by {@code GET /api/account/playing} at most. */
    static final int PLAYING_MAX = 50;

    BotApi(ObjectMapper json, KomaServer server, GameService games, Accounts accounts, History history, Feed feed) {
        this.feed = feed;
        this.json = json;
        this.server = server;
        this.games = games;
        this.accounts = accounts;
        this.history = history;
        this.challenges = new Challenges(games, accounts, this::challengeEvent);
        games.addListener(this::committed);
        feed.onPresence(this::presence);
    }

    // ---- presence: lichess's opponentGone ----

    private final Feed feed;
    /** Game id → the account ids with an open API game stream there (a multiset: one entry per stream). */
    private final Map<String, List<String>> streamers = new java.util.concurrent.ConcurrentHashMap<>();
    /** Game id → whether each side was last told gone (only a side that had been connected is ever gone). */
    private final Map<String, Boolean[]> gone = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * A seat's connection (web feed or API game stream) opened or closed: when a side of an active game has none left
     * after having had one, the other side's game streams get {@code opponentGone} {@code gone: true}; when it is back,
     * {@code gone: false}.
     */
    private void presence(String gameId) {
        if (!subscribers.containsKey(gameId) && !streamers.containsKey(gameId)) {
            gone.remove(gameId); // nobody streams this game: nothing to tell (a new stream takes stock when it opens)
            return;
        }
        LiveGame g;
        try {
            g = games.find(gameId);
        } catch (GameError e) {
            return;
        }
        if (g == null) {
            return;
        }
        GameSnapshot s = g.snapshot();
        boolean[] here = feed.seated(gameId);
        List<String> ids = streamers.getOrDefault(gameId, List.of());
        for (int side = 0; side < 2; side++) {
            PlayerAccount p = s.accounts().get(side);
            here[side] |= p != null && ids.contains(p.userId());
        }
        Boolean[] was = gone.computeIfAbsent(gameId, k -> new Boolean[2]);
        java.util.Set<NdjsonStreams.Stream> subs = subscribers.get(gameId);
        synchronized (was) {
            for (int side = 0; side < 2; side++) {
                // told: gone once a side that had been connected has no connection; back once a gone side returns
                boolean tell = s.active() && (here[side] ? Boolean.TRUE.equals(was[side]) : Boolean.FALSE.equals(was[side]));
                Boolean now = here[side] ? Boolean.FALSE : was[side] == null ? null : Boolean.TRUE;
                was[side] = now;
                if (!tell) {
                    continue;
                }
                PlayerAccount other = s.accounts().get(side ^ 1);
                if (subs != null && other != null) {
                    String line = write(Map.of("type", "opponentGone", "gone", now));
                    for (NdjsonStreams.Stream x : subs) {
                        if (x.account.equals(other.userId())) {
                            x.send(line);
                        }
                    }
                }
            }
        }
        if (s.finished()) {
            gone.remove(gameId);
        }
    }

    void routes(Javalin app) {
        app.get("/api/user/{username}", ctx -> {
            Accounts.User u = accounts.byName(ctx.pathParam("username"));
            if (u == null) {
                throw ApiException.notFound("no player named '" + ctx.pathParam("username") + "'");
            }
            ctx.json(user(u));
        });
        app.get("/api/account/playing", ctx -> {
            Accounts.Auth a = server.auth(ctx);
            if (a == null) {
                throw new ApiException(401, "sign in first");
            }
            Integer nb = null;
            try {
                nb = ctx.queryParam("nb") == null ? null : Integer.parseInt(ctx.queryParam("nb"));
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("nb: an integer from 1 to " + PLAYING_MAX);
            }
            List<Map<String, Object>> now = new java.util.ArrayList<>();
            for (GameSnapshot g : games.playing(a.user().id(), nb == null ? PLAYING_MAX : Math.max(1, Math.min(PLAYING_MAX, nb)))) {
                int side = sideOf(g, a.user().id());
                if (side >= 0) {
                    now.add(gameEvent(g, side));
                }
            }
            // lichess lists the games where it is the player's turn first
            now.sort(java.util.Comparator.comparing(m -> !(Boolean) m.get("isMyTurn")));
            ctx.json(Map.of("nowPlaying", now));
        });
        app.post("/api/bot/account/upgrade", ctx -> {
            Accounts.Auth a = require(ctx, "bot:play");
            accounts.upgradeToBot(a.user());
            ok(ctx);
        });
        app.get("/api/stream/event", ctx -> {
            Accounts.Auth a = requireAny(ctx, "challenge:read", "bot:play", "board:play");
            NdjsonStreams.Stream s = streams.open(userKey(a.user().id()), a.user().id());
            for (Challenges.Challenge c : challenges.of(a.user().id())) {
                s.send(write(Map.of("type", "challenge", "challenge", challenge(c))));
            }
            Relay r = relay;
            if (r != null) {
                r.publishStreamOpened(a.user().id()); // the other nodes' open challenges follow
            }
            for (GameSnapshot g : games.playing(a.user().id(), PLAYING_MAX)) {
                int side = sideOf(g, a.user().id());
                if (side >= 0) {
                    s.send(write(Map.of("type", "gameStart", "game", gameEvent(g, side))));
                }
            }
            stream(ctx, s);
        });
        app.post("/api/challenge/{username}", ctx -> {
            Accounts.Auth a = require(ctx, "challenge:write");
            Challenges.Challenge c = challenges.create(a.user(), ctx.pathParam("username"), terms(ctx));
            ctx.json(challenge(c));
        });
        app.post("/api/challenge/{id}/accept", ctx -> {
            Accounts.Auth a = requireAny(ctx, "challenge:write", "bot:play", "board:play");
            refuseBotBoard(ctx, a);
            challenges.accept(a.user(), ctx.pathParam("id"));
            ok(ctx);
        });
        app.post("/api/challenge/{id}/decline", ctx -> {
            Accounts.Auth a = requireAny(ctx, "challenge:write", "bot:play", "board:play");
            challenges.decline(a.user(), ctx.pathParam("id"), param(ctx, "reason"));
            ok(ctx);
        });
        app.post("/api/challenge/{id}/cancel", ctx -> {
            Accounts.Auth a = requireAny(ctx, "challenge:write", "bot:play", "board:play");
            challenges.cancel(a.user(), ctx.pathParam("id"));
            ok(ctx);
        });
        for (String kind : new String[]{"bot", "board"}) {
            String scope = kind + ":play";
            app.get("/api/" + kind + "/game/stream/{id}", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                NdjsonStreams.Stream s = streams.open(gameKey(g.id), a.user().id());
                synchronized (g) { // the full game, then every later change: none is lost or sent twice
                    s.send(write(gameFull(g.snapshot())));
                    subscribers.computeIfAbsent(g.id, k -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(s);
                }
                streamers.computeIfAbsent(g.id, k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(a.user().id());
                presence(g.id);
                try {
                    stream(ctx, s);
                } finally {
                    synchronized (g) { // as the adding: a set emptied here is never added to afterwards
                        java.util.Set<NdjsonStreams.Stream> set = subscribers.get(g.id);
                        if (set != null && set.remove(s) && set.isEmpty()) {
                            subscribers.remove(g.id, set);
                        }
                    }
                    List<String> ids = streamers.get(g.id);
                    if (ids != null) {
                        ids.remove(a.user().id());
                        if (ids.isEmpty()) {
                            streamers.remove(g.id, ids);
                        }
                    }
                    presence(g.id);
                }
            });
            app.post("/api/" + kind + "/game/{id}/move/{move}", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                Seat seat = seatOf(g, a);
                String uci = toUci(g, ctx.pathParam("move"));
                games.move(g, seat, uci, g.snapshot().ply()).join();
                if ("true".equals(ctx.queryParam("offeringDraw"))) {
                    games.draw(g, seat, "offer").join();
                }
                ok(ctx);
            });
            app.post("/api/" + kind + "/game/{id}/resign", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                games.resign(g, seatOf(g, a)).join();
                ok(ctx);
            });
            app.post("/api/" + kind + "/game/{id}/abort", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                games.abort(g, seatOf(g, a)).join();
                ok(ctx);
            });
            app.post("/api/" + kind + "/game/{id}/takeback/{accept}", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                Seat seat = seatOf(g, a);
                int offer = g.snapshot().actions().takebackOffer();
                boolean theirs = offer >= 0 && !seat.holds(offer);
                String action = yes(ctx.pathParam("accept")) ? (theirs ? "accept" : "offer") : "decline";
                games.takeback(g, seat, action).join();
                ok(ctx);
            });
            app.post("/api/" + kind + "/game/{id}/chat", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                String room = param(ctx, "room");
                if (room == null || !List.of("player", "spectator").contains(room)) {
                    throw ApiException.badRequest("room: player or spectator, got '" + room + "'");
                }
                // a player writes in the spectators' room as anyone else does there
                Seat seat = room.equals("player") ? seatOf(g, a) : Seat.NONE;
                games.chat(g, seat, param(ctx, "text"), "user:" + a.user().id()).join();
                ok(ctx);
            });
            app.post("/api/" + kind + "/game/{id}/draw/{accept}", ctx -> {
                Accounts.Auth a = require(ctx, scope);
                LiveGame g = games.get(ctx.pathParam("id"));
                Seat seat = seatOf(g, a);
                boolean yes = yes(ctx.pathParam("accept"));
                games.draw(g, seat, yes ? (g.snapshot().drawOffer() >= 0 ? "accept" : "offer") : "decline").join();
                ok(ctx);
            });
        }
    }

    // ---- authentication ----

    private Accounts.Auth require(Context ctx, String scope) {
        return requireAny(ctx, scope);
    }

    private Accounts.Auth requireAny(Context ctx, String... scopes) {
        Accounts.Auth a = server.auth(ctx);
        if (a == null) {
            throw new ApiException(401, "Authorization: send a personal API token as 'Authorization: Bearer <token>'");
        }
        for (String s : scopes) {
            if (a.may(s)) {
                return a;
            }
        }
        throw new ApiException(403, "Authorization: this token lacks the scope " + String.join(" or ", scopes));
    }

    /** A bot plays through the bot API and a person through the board API (as lichess keeps them apart). */
    private static void refuseBotBoard(Context ctx, Accounts.Auth a) {
        if (ctx.path().startsWith("/api/board/") && a.user().bot()) {
            throw new ApiException(403, "account: a bot plays through /api/bot/, not the board API");
        }
    }

    private static Seat seatOf(LiveGame g, Accounts.Auth a) {
        Seat s = GameService.seatOf(g, null, a.user().id());
        if (s == Seat.NONE) {
            throw GameError.forbidden("you do not play in game " + g.id);
        }
        return s;
    }

    private static int sideOf(GameSnapshot g, String userId) {
        for (int side = 0; side < 2; side++) {
            PlayerAccount p = g.accounts().get(side);
            if (p != null && p.userId().equals(userId)) {
                return side;
            }
        }
        return -1;
    }

    // ---- streams ----

    /** Game id → its open game streams (fed from the committed changes, in version order). */
    private final Map<String, java.util.Set<NdjsonStreams.Stream>> subscribers = new java.util.concurrent.ConcurrentHashMap<>();

    private void stream(Context ctx, NdjsonStreams.Stream s) throws java.io.IOException {
        ctx.status(200);
        ctx.res().setContentType("application/x-ndjson");
        ctx.res().setHeader("Cache-Control", "no-cache");
        streams.pump(s, ctx.res().getOutputStream());
    }

    private static String userKey(String userId) {
        return "user:" + userId;
    }

    private static String gameKey(String gameId) {
        return "game:" + gameId;
    }

    /** A committed change (writer thread): game streams get the new state, event streams a start or finish. */
    private void committed(LiveGame.Change c) {
        GameSnapshot s = c.snapshot();
        if (s.finished()) {
            gone.remove(s.id()); // presence matters no more
        }
        boolean moved = false, status = false;
        for (GameEvent e : c.events()) {
            moved |= e.type.equals("move");
            status |= e.type.equals("status");
        }
        java.util.Set<NdjsonStreams.Stream> subs = subscribers.get(s.id());
        if (subs != null && !subs.isEmpty()) {
            boolean offers = false;
            for (GameEvent e : c.events()) {
                offers |= e.type.equals("takeback") || e.type.equals("takebackOffer") || e.type.equals("drawOffer");
                if (e.type.equals("chat") && e.audience == GameEvent.Audience.SEATS) {
                    String line = write(chatLine(s, e));
                    subs.forEach(x -> x.send(line));
                }
            }
            if (moved || status || offers) {
                String line = write(gameState(s));
                subs.forEach(x -> x.send(line));
            }
        }
        if (status && (s.accounts().get(0) != null || s.accounts().get(1) != null)) {
            String type = s.finished() ? "gameFinish" : s.active() ? "gameStart" : null;
            if (type != null) {
                for (int side = 0; side < 2; side++) {
                    PlayerAccount p = s.accounts().get(side);
                    if (p != null) {
                        toUser(p.userId(), write(Map.of("type", type, "game", gameEvent(s, side))));
                    }
                }
            }
        }
    }

    private void challengeEvent(Challenges.Challenge c, String type) {
        String line = write(Map.of("type", type, "challenge", challenge(c)));
        toUser(c.challenger.id(), line);
        toUser(c.dest.id(), line);
    }

    /** Several nodes: the relay that carries the accounts' event-stream lines to the other nodes; null when alone. */
    private volatile Relay relay;

    /**
     * Several nodes: event-stream lines go to the other nodes too (an account's stream may be open on any of them),
     * and challenge ids start with this node's id so that answers reach the node that holds the challenge.
     */
    void useRelay(Relay r, String nodeId) {
        relay = r;
        challenges.prefixIds(nodeId);
    }

    /** Several nodes: an event stream of the account opened on {@code node}: it gets this node's open challenges. */
    void streamOpenedElsewhere(String userId, String node) {
        Relay r = relay;
        if (r == null) {
            return;
        }
        for (Challenges.Challenge c : challenges.of(userId)) {
            r.publishUser(userId, write(Map.of("type", "challenge", "challenge", challenge(c))), node);
        }
    }

    /** A line of another node for an account's event streams on this node. */
    void fromOtherNode(String userId, String line) {
        streams.send(userKey(userId), line);
    }

    /** A line for an account's event streams, on this node and (several nodes) on the others. */
    private void toUser(String userId, String line) {
        streams.send(userKey(userId), line);
        Relay r = relay;
        if (r != null) {
            r.publishUser(userId, line);
        }
    }

    void stop() {
        streams.stop();
    }

    // ---- the JSON shapes (lichess's field names) ----

    /** {@code GET /api/user/{username}} and {@code GET /api/account}: id, username, title, perfs, createdAt. */
    Map<String, Object> user(Accounts.User u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", u.name().toLowerCase(Locale.ROOT));
        m.put("username", u.name());
        if (u.bot()) {
            m.put("title", "BOT");
        }
        Map<String, Object> perfs = new LinkedHashMap<>();
        for (Map<String, Object> r : history.ratings(u.id())) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("games", r.get("games"));
            p.put("rating", r.get("rating"));
            p.put("rd", r.get("deviation"));
            p.put("prog", 0);
            p.put("prov", r.get("provisional"));
            perfs.put((String) r.get("variant"), p);
        }
        m.put("perfs", perfs);
        m.put("createdAt", u.createdAt());
        return m;
    }

    private static Map<String, Object> player(Accounts.User u, Integer rating, boolean provisional) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", u.name().toLowerCase(Locale.ROOT));
        m.put("name", u.name());
        m.put("title", u.bot() ? "BOT" : null);
        m.put("rating", rating);
        m.put("provisional", provisional);
        m.put("online", true);
        return m;
    }

    private static Map<String, Object> player(PlayerAccount p) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (p == null) {
            m.put("id", null);
            m.put("name", "Anonymous");
            return m;
        }
        m.put("id", p.name() == null ? null : p.name().toLowerCase(Locale.ROOT));
        m.put("name", p.name());
        m.put("title", p.bot() ? "BOT" : null);
        m.put("rating", p.rating());
        m.put("provisional", p.provisional());
        return m;
    }

    private static Map<String, Object> variant(RuleSet rules) {
        return Map.of("key", rules.id, "name", rules.name, "short", rules.name);
    }

    /** lichess's speed from the estimated game duration: limit + 40 x increment (or byoyomi), seconds. */
    static String speed(Clock k) {
        if (!k.timed() || k.correspondence()) {
            return "correspondence";
        }
        long est = k.initialMs / 1000 + 40 * (k.type == Clock.Type.BYOYOMI ? k.byoyomiMs : k.incrementMs) / 1000;
        return est < 30 ? "ultraBullet" : est < 180 ? "bullet" : est < 480 ? "blitz" : est < 1500 ? "rapid" : "classical";
    }

    private Map<String, Object> challenge(Challenges.Challenge c) {
        Map<String, Object> m = new LinkedHashMap<>();
        Challenges.Terms t = c.terms;
        Clock k = t.clock();
        m.put("id", c.id);
        m.put("url", "/challenge/" + c.id);
        m.put("status", c.status);
        PlayerAccount from = accounts.seat(c.challenger, t.rules().id), to = accounts.seat(c.dest, t.rules().id);
        m.put("challenger", player(c.challenger, from.rating(), from.provisional()));
        m.put("destUser", player(c.dest, to.rating(), to.provisional()));
        m.put("variant", variant(t.rules()));
        m.put("rated", t.rated());
        m.put("speed", speed(k));
        Map<String, Object> tc = new LinkedHashMap<>();
        if (t.days() > 0) {
            tc.put("type", "correspondence");
            tc.put("daysPerTurn", t.days());
        } else if (!k.timed()) {
            tc.put("type", "unlimited");
        } else {
            tc.put("type", "clock");
            tc.put("limit", t.limitS());
            tc.put("increment", t.incrementS());
            if (t.byoyomiS() > 0) {
                tc.put("byoyomi", t.byoyomiS());
                tc.put("periods", Math.max(1, t.periods()));
            }
            tc.put("show", Lobby.clockText(k));
        }
        m.put("timeControl", tc);
        m.put("color", t.color());
        if (c.challengerSide >= 0) {
            m.put("finalColor", c.challengerSide == 0 ? "white" : "black");
        }
        m.put("perf", Map.of("name", t.rules().name));
        if (c.declineReason != null) {
            m.put("declineReason", c.declineReason);
            m.put("declineReasonKey", c.declineReason);
        }
        return m;
    }

    /** The {@code game} of gameStart and gameFinish events, seen from {@code side}. */
    private Map<String, Object> gameEvent(GameSnapshot g, int side) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("gameId", g.id());
        m.put("fullId", g.id());
        m.put("id", g.id());
        m.put("color", side == 0 ? "white" : "black");
        m.put("fen", Fen.format(g.current()));
        m.put("hasMoved", g.ply() > side);
        m.put("isMyTurn", g.active() && g.current().sideToMove() == side);
        List<String> moves = moveTexts(g);
        m.put("lastMove", moves.isEmpty() ? "" : moves.get(moves.size() - 1));
        m.put("opponent", player(g.accounts().get(side ^ 1)));
        m.put("perf", g.rules().id);
        m.put("rated", g.rated());
        m.put("secondsLeft", g.clock().timed() ? g.clock().remaining(side, System.currentTimeMillis()) / 1000 : null);
        m.put("source", "friend");
        m.put("speed", speed(g.clock()));
        m.put("variant", Map.of("key", g.rules().id, "name", g.rules().name));
        m.put("compat", Map.of("bot", true, "board", true));
        if (g.finished()) {
            m.put("status", status(g));
            m.put("winner", winner(g));
        }
        return m;
    }

    private Map<String, Object> gameFull(GameSnapshot g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "gameFull");
        m.put("id", g.id());
        m.put("rated", g.rated());
        m.put("variant", variant(g.rules()));
        Clock k = g.clock();
        if (k.correspondence()) {
            m.put("daysPerTurn", k.initialMs / Clock.DAY_MS);
        }
        if (k.timed() && !k.correspondence()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("initial", k.initialMs);
            c.put("increment", k.incrementMs);
            if (k.type == Clock.Type.BYOYOMI) {
                c.put("byoyomi", k.byoyomiMs);
                c.put("periods", k.periods);
            }
            m.put("clock", c);
        } else {
            m.put("clock", null);
        }
        m.put("speed", speed(k));
        m.put("perf", Map.of("name", g.rules().id));
        m.put("createdAt", g.createdAt());
        m.put("white", player(g.accounts().get(0)));
        m.put("black", player(g.accounts().get(1)));
        m.put("initialFen", g.initialFen().equals(Fen.format(Position.start(g.rules()))) ? "startpos" : g.initialFen());
        m.put("state", gameState(g));
        return m;
    }

    private Map<String, Object> gameState(GameSnapshot g) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "gameState");
        m.put("moves", String.join(" ", moveTexts(g)));
        Clock k = g.clock();
        long now = System.currentTimeMillis();
        long[] left = {Integer.MAX_VALUE, Integer.MAX_VALUE};
        if (k.timed()) {
            int running = k.running() ? g.current().sideToMove() : -1;
            for (int side = 0; side < 2; side++) {
                // the main time left (lishogi gives the byoyomi apart, as byo)
                long elapsed = side == running ? Math.max(0, now - k.turnStartedAt) : 0;
                left[side] = Math.max(0, k.ms[side] - elapsed);
            }
        }
        m.put("wtime", left[0]);
        m.put("btime", left[1]);
        m.put("winc", k.incrementMs);
        m.put("binc", k.incrementMs);
        if (k.type == Clock.Type.BYOYOMI) {
            m.put("byo", k.byoyomiMs);
        }
        m.put("status", status(g));
        String w = winner(g);
        if (w != null) {
            m.put("winner", w);
        }
        if (g.drawOffer() >= 0) {
            m.put(g.drawOffer() == 0 ? "wdraw" : "bdraw", true);
        }
        int tb = g.actions().takebackOffer();
        if (tb >= 0) {
            m.put(tb == 0 ? "wtakeback" : "btakeback", true);
        }
        return m;
    }

    /** A players' room message as lichess's {@code chatLine}: the room, the sender's account name, the text. */
    private static Map<String, Object> chatLine(GameSnapshot s, GameEvent e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "chatLine");
        m.put("room", "player");
        String from = String.valueOf(e.fields.get("from"));
        PlayerAccount p = from.equals("first") ? s.accounts().get(0) : from.equals("second") ? s.accounts().get(1) : null;
        m.put("username", p != null && p.name() != null ? p.name() : from);
        m.put("text", e.fields.get("text"));
        return m;
    }

    /** lichess's game status names from Koma's status and termination. */
    static String status(GameSnapshot g) {
        if (!g.finished()) {
            return g.active() ? "started" : "created";
        }
        return switch (g.termination()) {
            case "checkmate" -> "mate";
            case "resignation" -> "resign";
            case "time forfeit" -> g.winner() != null && g.winner() >= 0 ? "outoftime" : "draw";
            case "aborted" -> "aborted";
            case "abandoned" -> "timeout";
            case "stalemate" -> "stalemate";
            case "repetition", "fifty moves", "seventy five moves", "insufficient material", "agreement" -> "draw";
            default -> g.winner() != null && g.winner() >= 0 ? "variantEnd" : "draw";
        };
    }

    private static String winner(GameSnapshot g) {
        Integer w = g.winner();
        return w == null || w < 0 ? null : w == 0 ? "white" : "black";
    }

    // ---- moves in the rule set's own strings ----

    /** How a rule set writes moves (RULES.md 9.3, its definition's move style): USI for shogi, UCI otherwise. */
    static MoveNotation.Style style(RuleSet rules) {
        return rules.conventions.moveStyle().equals("usi") ? MoveNotation.Style.USI : MoveNotation.Style.UCI;
    }

    /**
     * The game's moves in the rule set's own strings: Koma's UCI strings as they are, or USI written during one walk
     * through the game (a gameState is made after every move, so this must not replay the game once per move).
     */
    private static List<String> moveTexts(GameSnapshot g) {
        List<String> uci = g.moves();
        if (style(g.rules()) == MoveNotation.Style.UCI) {
            return uci;
        }
        List<String> out = new java.util.ArrayList<>(uci.size());
        Position p = g.start().copy();
        for (String u : uci) {
            int move = MoveNotation.parseUci(p, u);
            out.add(MoveNotation.formatUsi(p, move));
            p.doMove(move);
        }
        return out;
    }

    /** A move sent in the rule set's strings, as Koma's UCI string. */
    private static String toUci(LiveGame g, String text) {
        if (text.length() > 16) {
            throw GameError.invalid("move: longer than 16 characters");
        }
        // the rule set's own style first, then the other: clients written for lichess send UCI, for lishogi USI
        MoveNotation.Style st = style(g.rules);
        Position p = g.snapshot().current();
        try {
            return MoveNotation.formatUci(p, MoveNotation.parse(p, text, st));
        } catch (NotationException e) {
            try {
                return MoveNotation.formatUci(p, MoveNotation.parse(p, text,
                        st == MoveNotation.Style.UCI ? MoveNotation.Style.USI : MoveNotation.Style.UCI));
            } catch (NotationException e2) {
                return text; // the game's own checks say what is wrong with it (out of turn, illegal, malformed)
            }
        }
    }

    // ---- requests ----

    private static final String JSON_BODY = "koma.jsonBody";
    private static final ObjectMapper JSON_READER = new ObjectMapper();

    /** A request field: the form's (lichess's clients post forms) or the JSON body's. */
    private static String param(Context ctx, String name) {
        String type = ctx.contentType() == null ? "" : ctx.contentType();
        if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/form-data")) {
            return ctx.formParam(name);
        }
        if (type.startsWith("application/json")) {
            com.fasterxml.jackson.databind.JsonNode n = ctx.attribute(JSON_BODY);
            if (n == null) { // read once per request, however many fields are asked for
                try {
                    n = JSON_READER.readTree(ctx.body());
                } catch (JsonProcessingException e) {
                    throw ApiException.badRequest("body: malformed JSON: " + e.getOriginalMessage());
                }
                n = n == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : n;
                ctx.attribute(JSON_BODY, n);
            }
            return n.hasNonNull(name) ? n.get(name).asText() : null;
        }
        return ctx.queryParam(name);
    }

    private static boolean yes(String v) {
        return switch (v) {
            case "yes", "true", "accept" -> true;
            case "no", "false", "decline" -> false;
            default -> throw ApiException.badRequest("accept: yes or no, got '" + v + "'");
        };
    }

    /** The terms of {@code POST /api/challenge/{username}}: variant, clock.limit, clock.increment, rated, color. */
    private static Challenges.Terms terms(Context ctx) {
        String v = param(ctx, "variant");
        if (v == null || v.equals("standard")) {
            v = RuleSet.standard().id; // lichess's default and its name for chess
        }
        if (!RuleSet.IDS.contains(v)) {
            throw ApiException.badRequest("variant: unknown rule set '" + v + "'; known: " + String.join(", ", RuleSet.IDS));
        }
        long days = number(ctx, "days", 0, 14);
        if (days > 0) {
            if (!Clock.CORRESPONDENCE_DAYS.contains((int) days)) {
                throw ApiException.badRequest("days: one of " + Clock.CORRESPONDENCE_DAYS + ", got " + days);
            }
            String color = param(ctx, "color");
            return new Challenges.Terms(RuleSet.of(v), -1, 0, 0, 0, "true".equals(param(ctx, "rated")),
                    color == null ? "random" : color, (int) days);
        }
        long limit = number(ctx, "clock.limit", -1, 10_800);
        long inc = number(ctx, "clock.increment", 0, 180);
        long byo = number(ctx, "clock.byoyomi", 0, 180);
        long periods = number(ctx, "clock.periods", 0, 10);
        if (limit < 0 && (inc > 0 || byo > 0)) {
            throw ApiException.badRequest("clock.limit: missing (give the main time in seconds with the increment or byoyomi)");
        }
        if (limit >= 0 && inc > 0 && byo > 0) {
            throw ApiException.badRequest("clock.increment, clock.byoyomi: give one of them, not both");
        }
        if (limit == 0 && inc == 0 && byo == 0) {
            throw ApiException.badRequest("clock.limit: 0 needs an increment or byoyomi");
        }
        String rated = param(ctx, "rated");
        String color = param(ctx, "color");
        color = color == null ? "random" : color;
        if (!List.of("random", "white", "black").contains(color)) {
            throw ApiException.badRequest("color: random, white or black, got '" + color + "'");
        }
        return new Challenges.Terms(RuleSet.of(v), limit, inc, byo, (int) periods, "true".equals(rated), color, 0);
    }

    private static long number(Context ctx, String name, long min, long max) {
        String v = param(ctx, name);
        if (v == null || v.isBlank()) {
            return min < 0 ? -1 : 0;
        }
        try {
            long x = Long.parseLong(v.strip());
            if (x < Math.max(0, min) || x > max) {
                throw ApiException.badRequest(name + ": from " + Math.max(0, min) + " to " + max + ", got " + v);
            }
            return x;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + ": must be an integer, got '" + (v.length() > 20 ? v.substring(0, 20) : v) + "'");
        }
    }

    private static void ok(Context ctx) {
        ctx.json(Map.of("ok", true));
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Open API streams (for tests and monitoring). */
    int streams() {
        return streams.size();
    }
}
