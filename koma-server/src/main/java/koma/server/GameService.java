package koma.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.server.GameView.Seat;

/**
 * The live games of this server: which are in memory, loading and unloading them, and everything around a
 * change that is not the game's own rule: the writer (a change is acknowledged and published only once committed),
 * flag timers, the computer player on the {@link EngineQueue}, and the sweeps that end games nobody plays and
 * unload idle ones. Every change goes through {@link #apply}: under the game's lock, the game makes the change and
 * its events, and the change is queued for the writer before the lock is released.
 */
final class GameService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GameService.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
    /** Computer think time at level 0 and added per level: 0.2 s to 2 s. */
    private static final long THINK_BASE_MS = 200, THINK_PER_LEVEL_MS = 90;
    /** Analysis: time and depth caps. */
    private static final long ANALYSIS_MS = 500;
    private static final int ANALYSIS_DEPTH = 64;
    /** A computer accepts a draw offer when it judges itself this far behind (centipawns). */
    private static final int ACCEPT_DRAW_CP = -150;
    /** Stale games ended per sweep at most. */
    private static final int SWEEP_BATCH = 200;

    private final Database db;
    private final ServerConfig.Limits limits;
    private final ConcurrentHashMap<String, LiveGame> games = new ConcurrentHashMap<>();
    /**
     * Per client: the ids of the unfinished games it created (pruned when at the cap); a client with none has no
     * entry, so the map is bounded by the live games.
     */
    private final ConcurrentHashMap<String, Set<String>> byCreator = new ConcurrentHashMap<>();
    /** Changes queued for the writer per game: a game with some is never unloaded. */
    private final ConcurrentHashMap<String, AtomicInteger> unwritten = new ConcurrentHashMap<>();
    private final EngineQueue engines;
    private final ScheduledExecutorService timers;
    private final GameWriter writer;
    /**
     * The heartbeat of the previous run (when a server on this database was last known alive), read when this
     * service was made: {@link #resume}, and a cluster node taking over a game nobody owned, give the running clocks
     * back the time since then. Read any later, it may be this run's own heartbeat (a slow start: a second or more
     * between construction and resume), and the time the server was down would be charged.
     */
    private final long aliveBeforeStart;
    private final Feed feed;
    /** With several nodes, which games this node owns; null for a node alone. */
    private volatile Cluster cluster;

    GameService(Database db, int engineThreads, ServerConfig.Limits limits, Feed feed) {
        this(db, engineThreads, limits, feed, null);
    }

    /** With {@code workers} not null, engine work goes to the engine workers ({@link RemoteEngines}). */
    GameService(Database db, int engineThreads, ServerConfig.Limits limits, Feed feed, RemoteEngines workers) {
        this.db = db;
        this.limits = limits;
        this.feed = feed;
        this.engines = new EngineQueue(engineThreads, limits.analysisQueue(), limits.backgroundQueue(), workers);
        this.timers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "koma-clock");
            t.setDaemon(true);
            return t;
        });
        // read before the writer starts: its first heartbeat, a second from now, overwrites the last one stored
        this.aliveBeforeStart = db.aliveAt();
        this.writer = new GameWriter(db, limits.writeQueue(), this::publish, this::dropBroken);
    }

    /** Told of every committed change after the feeds (the bot API's streams). */
    private final java.util.List<java.util.function.Consumer<LiveGame.Change>> listeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Adds a listener of committed changes (called on the writer thread, in version order per game). */
    void addListener(java.util.function.Consumer<LiveGame.Change> l) {
        listeners.add(l);
    }

    private void publish(LiveGame.Change c) {
        feed.publish(c);
        for (var l : listeners) {
            try {
                l.accept(c);
            } catch (RuntimeException e) {
                LOG.warn("a listener failed on a change of game {}", c.game().id, e);
            }
        }
    }

    /**
     * At start: loads the games whose clock runs (the only live ones), gives their running side back the time the
     * server was down, and starts the sweeps.
     */
    void resume() {
        long aliveAt = aliveBeforeStart;
        long now = System.currentTimeMillis();
        // with several nodes the cluster's sweep takes the running games that no live node owns (adopt)
        for (String id : cluster == null ? db.running() : List.<String>of()) {
            LiveGame g = load(id, false);
            if (g != null) {
                apply(g, x -> x.resumeClock(aliveAt, now));
            }
        }
        long sweep = Math.max(200, Math.min(60_000, Math.min(limits.idleUnload().toMillis(),
                Math.min(limits.finishedUnload().toMillis(), Math.min(limits.joinTimeout().toMillis(),
                        limits.abandonAfter().toMillis()))) / 4));
        timers.scheduleWithFixedDelay(this::sweep, sweep, sweep, TimeUnit.MILLISECONDS);
    }

    // ---- finding and loading ----

    /** The game, loaded from the database if need be, or null. */
    LiveGame find(String id) {
        if (!validId(id)) {
            return null;
        }
        LiveGame g = games.get(id);
        if (g != null) {
            g.touchedAt = System.currentTimeMillis();
            return g;
        }
        return load(id, true);
    }

    /** A game id: 1 to 32 lower-case letters and digits (checked by hand: this runs on every request). */
    private static boolean validId(String id) {
        if (id == null || id.isEmpty() || id.length() > 32) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    LiveGame get(String id) {
        LiveGame g = find(id);
        if (g == null) {
            throw GameError.notFound("no game with id '" + id + "'").coded("noGame");
        }
        return g;
    }

    private LiveGame load(String id, boolean capped) {
        Cluster.Owner owner = cluster == null ? null : cluster.owner(id);
        if (owner != null && !owner.mine()) {
            return null; // another node owns it (or no such game): the web layer forwards to the owner
        }
        LiveGame.Stored s = db.load(id);
        if (s == null) {
            return null;
        }
        if (capped) {
            makeRoom();
        }
        LiveGame loaded = LiveGame.restore(s, System.currentTimeMillis());
        LiveGame prev = games.putIfAbsent(id, loaded);
        if (prev != null) {
            return prev;
        }
        synchronized (loaded) {
            afterChange(loaded);
        }
        Long deadAt = cluster == null ? null : cluster.takenOver(id);
        if (deadAt != null) {
            resumeTaken(loaded, deadAt);
        }
        return loaded;
    }

    /**
     * Several nodes: this node owns the games the cluster names ({@code c}), and takes over those of dead nodes as
     * {@link #adopt} says. Set once, before {@link #resume}.
     */
    void useCluster(Cluster c) {
        this.cluster = c;
    }

    /**
     * A game this node took over from a dead node (or that no node owned): loaded, its running side given back the
     * time since the dead node was last known alive ({@code deadAt}; 0: the heartbeat of the run before this one,
     * {@link #aliveBeforeStart}), and this node's relayed feeds of it closed so that they reconnect to the game here.
     */
    void adopt(String id, long deadAt) {
        if (games.containsKey(id)) {
            return;
        }
        LiveGame.Stored s = db.load(id);
        if (s == null) {
            return;
        }
        LiveGame loaded = LiveGame.restore(s, System.currentTimeMillis());
        if (games.putIfAbsent(id, loaded) != null) {
            return;
        }
        synchronized (loaded) {
            afterChange(loaded);
        }
        // whoever put the game in memory (this sweep or a request's load) gives the outage back, once
        Long noted = cluster == null ? null : cluster.takenOver(id);
        resumeTaken(loaded, noted != null ? noted : deadAt);
    }

    private void resumeTaken(LiveGame g, long deadAt) {
        long aliveAt = deadAt > 0 ? deadAt : aliveBeforeStart;
        try {
            apply(g, x -> x.resumeClock(aliveAt, System.currentTimeMillis()));
        } catch (GameError e) {
            LOG.warn("game {} taken over, clock not resumed: {}", g.id, e.getMessage());
        }
        feed.closeRelayed(g.id);
    }

    /** Unloads idle games when memory holds the limit; refuses (503) when none can go. */
    private void makeRoom() {
        if (games.size() < limits.gamesInMemory()) {
            return;
        }
        List<LiveGame> idle = new ArrayList<>();
        for (LiveGame g : games.values()) {
            if (unloadable(g)) {
                idle.add(g);
            }
        }
        idle.sort(Comparator.comparingLong(g -> g.touchedAt));
        for (LiveGame g : idle) {
            if (games.size() < limits.gamesInMemory()) {
                return;
            }
            unload(g);
        }
        if (games.size() >= limits.gamesInMemory()) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "games: the server holds " + limits.gamesInMemory()
                    + " live games, its limit; try again later", 10).coded("serverFull");
        }
    }

    /** A game may leave memory: no clock running, no engine job, nothing unwritten, nobody watching. */
    private boolean unloadable(LiveGame g) {
        synchronized (g) {
            AtomicInteger u = unwritten.get(g.id);
            // a correspondence game may go while its clock runs: the sweep finds it in the database when overdue
            return (!g.clock().running() || g.clock().correspondence()) && !g.engineBusy && (u == null || u.get() == 0)
                    && !feed.watched(g.id);
        }
    }

    private void unload(LiveGame g) {
        synchronized (g) {
            if (g.flagTimer != null) {
                g.flagTimer.cancel(false);
            }
            games.remove(g.id, g);
        }
        if (cluster != null) {
            cluster.forget(g.id); // still this node's in the database; the set of owned games stays as small as memory
        }
    }

    /** Games in memory (for tests and monitoring). */
    int inMemory() {
        return games.size();
    }

    // ---- changes ----

    /** What a new game needs; validated by the HTTP layer, except the position and record. */
    record NewGame(RuleSet rules, LiveGame.Mode mode, String color, int level, Clock clock, Position start,
                   List<String> moves) {
    }

    /** A created or joined game, the seat token for the cookie, and the commit to wait for. */
    record Seated(LiveGame game, String token, CompletableFuture<LiveGame.Change> committed) {
    }

    /** Creates a game for a client (its key counts its unfinished games). */
    Seated create(NewGame req, String client) {
        requireSharedRoom(client);
        Set<String> mine = byCreator.get(client);
        if (mine != null && mine.size() >= limits.gamesPerClient()) {
            // at the cap: forget the games that ended meanwhile (those unloaded from memory are asked of the database)
            mine = byCreator.computeIfPresent(client, (k, set) -> {
                set.removeIf(id -> {
                    LiveGame g = games.get(id);
                    String status = g != null ? g.snapshot().status() : db.status(id);
                    return !"active".equals(status) && !"waiting".equals(status);
                });
                return set.isEmpty() ? null : set;
            });
            if (mine != null && mine.size() >= limits.gamesPerClient()) {
                throw new GameError(GameError.Kind.TOO_MANY, "games: you have " + mine.size()
                        + " unfinished games, the limit per client; finish or resign one first", 60)
                                .coded("tooManyGames", "n", mine.size());
            }
        }
        requireWriterRoom();
        makeRoom();
        long now = System.currentTimeMillis();
        String token = newToken();
        int creator = switch (req.color()) {
            case "first" -> 0;
            case "second" -> 1;
            default -> RANDOM.nextInt(2);
        };
        LiveGame g = LiveGame.create(newGameId(), req.rules(), req.mode(), req.start(), req.clock(), req.moves(), creator,
                req.level(), hash(token), client, now);
        CompletableFuture<LiveGame.Change> f;
        Relay r = relay;
        if (r != null && !g.finished()) {
            r.member(creatorKey(client), g.id, true, CREATOR_TTL_S);
        }
        synchronized (g) {
            games.put(g.id, g);
            if (!g.finished()) {
                byCreator.computeIfAbsent(client, k -> ConcurrentHashMap.newKeySet()).add(g.id);
            }
            f = submit(new LiveGame.Change(g, List.of(), g.snapshot(), null, g.ply(), now), true);
            afterChange(g);
        }
        return new Seated(g, token, f);
    }

    /** Several nodes: how long a client's shared list of unfinished games is kept after its last new game, s. */
    private static final long CREATOR_TTL_S = 60L * 24 * 3600;
    /** Several nodes: the Redis that holds each client's unfinished games made on any node; null when alone. */
    private volatile Relay relay;

    /** Several nodes: the per-client cap on unfinished games counts the games made on every node ({@code r}). */
    void shareCounts(Relay r) {
        this.relay = r;
    }

    private static String creatorKey(String client) {
        return "creator:" + client;
    }

    /**
     * Several nodes: refuses a client at the cap counting its unfinished games on every node; the games that ended
     * meanwhile are dropped from its list first (their status read here or from the database).
     */
    private void requireSharedRoom(String client) {
        Relay r = relay;
        if (r == null) {
            return;
        }
        Set<String> ids = r.members(creatorKey(client));
        if (ids == null || ids.size() < limits.gamesPerClient()) {
            return;
        }
        int unfinished = 0;
        for (String id : ids) {
            LiveGame g = games.get(id);
            String status = g != null ? g.snapshot().status() : db.status(id);
            if ("active".equals(status) || "waiting".equals(status)) {
                unfinished++;
            } else {
                r.member(creatorKey(client), id, false, CREATOR_TTL_S);
            }
        }
        if (unfinished >= limits.gamesPerClient()) {
            throw new GameError(GameError.Kind.TOO_MANY, "games: you have " + unfinished
                    + " unfinished games, the limit per client; finish or resign one first", 60)
                    .coded("tooManyGames", "n", unfinished);
        }
    }

    /** A game made in the lobby with both seats taken: its seat tokens per side, and the join's commit. */
    record Paired(LiveGame game, String[] tokens, CompletableFuture<LiveGame.Change> committed) {
    }

    /**
     * A game between two players of the lobby: a friend game created with the first side's seat and joined at once
     * by the second, with the accounts seated (null for a guest) and rated when asked. Lobby games do not count
     * toward a client's games (the lobby bounds seeks itself).
     */
    Paired pair(NewGame req, PlayerAccount first, PlayerAccount second, boolean rated) {
        requireWriterRoom();
        makeRoom();
        long now = System.currentTimeMillis();
        String[] tokens = {newToken(), newToken()};
        LiveGame g = LiveGame.create(newGameId(), req.rules(), LiveGame.Mode.FRIEND, req.start(), req.clock(), req.moves(),
                0, 0, hash(tokens[0]), null, now);
        g.seatAccounts(first, second, rated);
        CompletableFuture<LiveGame.Change> f;
        synchronized (g) {
            games.put(g.id, g);
            submit(new LiveGame.Change(g, List.of(), g.snapshot(), null, g.ply(), now), true);
            f = apply(g, x -> x.join(Seat.NONE, hash(tokens[1]), now));
        }
        return new Paired(g, tokens, f);
    }

    /** Seats the caller's account on the sides it holds (see {@link LiveGame#claimSeat}). */
    CompletableFuture<LiveGame.Change> claimSeat(LiveGame g, Seat seat, Accounts accounts, Accounts.User user) {
        PlayerAccount a = accounts.seat(user, g.rules.id);
        return apply(g, x -> x.claimSeat(seat, a, System.currentTimeMillis()));
    }

    /**
     * The games being played now between two people (friend games whose clock runs or that moved in the last
     * minute), most recently changed first, at most {@code limit}.
     */
    List<GameSnapshot> playingNow(int limit) {
        long recent = System.currentTimeMillis() - 60_000;
        List<GameSnapshot> out = new ArrayList<>();
        for (LiveGame g : games.values()) {
            GameSnapshot s = g.snapshot();
            if (s.mode() == LiveGame.Mode.FRIEND && s.active() && (s.clock().running() || s.updatedAt() > recent)) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong(GameSnapshot::updatedAt).reversed());
        return out.size() > limit ? new ArrayList<>(out.subList(0, limit)) : out;
    }

    /** Gives the free seat of a friend game to the caller. */
    Seated join(LiveGame g, Seat seat) {
        String token = newToken();
        String h = hash(token);
        return new Seated(g, token, apply(g, x -> x.join(seat, h, System.currentTimeMillis())));
    }

    CompletableFuture<LiveGame.Change> move(LiveGame g, Seat seat, String uci, int ply) {
        return apply(g, x -> x.move(seat, uci, ply, System.currentTimeMillis()));
    }

    CompletableFuture<LiveGame.Change> resign(LiveGame g, Seat seat) {
        return apply(g, x -> x.resign(seat, System.currentTimeMillis()));
    }

    CompletableFuture<LiveGame.Change> draw(LiveGame g, Seat seat, String action) {
        return apply(g, x -> x.draw(seat, action, System.currentTimeMillis()));
    }

    CompletableFuture<LiveGame.Change> claim(LiveGame g, Seat seat, String kind) {
        return apply(g, x -> x.claim(seat, kind, System.currentTimeMillis()));
    }

    CompletableFuture<LiveGame.Change> abort(LiveGame g, Seat seat) {
        return apply(g, x -> x.abort(seat, System.currentTimeMillis()));
    }

    CompletableFuture<LiveGame.Change> takeback(LiveGame g, Seat seat, String action) {
        return apply(g, x -> x.takeback(seat, action, System.currentTimeMillis()));
    }

    CompletableFuture<LiveGame.Change> chat(LiveGame g, Seat seat, String text, String client) {
        return apply(g, x -> x.chat(seat, client, text, System.currentTimeMillis()));
    }

    /**
     * A rematch offer, refusal or acceptance. The acceptance (or an offer while the other's stands) creates the new
     * game under the old game's lock and queues it for the writer before the old game's {@code rematch} event, so
     * the event is published only once the new game is stored. The new game counts for {@code client}.
     */
    CompletableFuture<LiveGame.Change> rematch(LiveGame g, Seat seat, String action, String client) {
        if (!action.equals("decline")) {
            makeRoom(); // before the game's lock: making room takes other games' locks
        }
        return apply(g, x -> {
            long now = System.currentTimeMillis();
            if (!x.rematchStarts(seat, action)) {
                return x.rematch(seat, action, now);
            }
            LiveGame fresh = x.rematchGame(newGameId(), client, now);
            synchronized (fresh) {
                games.put(fresh.id, fresh);
                byCreator.computeIfAbsent(client, k -> ConcurrentHashMap.newKeySet()).add(fresh.id);
                submit(new LiveGame.Change(fresh, List.of(), fresh.snapshot(), null, 0, now), true);
                afterChange(fresh);
            }
            return x.rematchAgreed(seat, fresh.id, now);
        });
    }

    /** The game a rematch of {@code g} created (null while none): for the seat's cookie of the new game. */
    String rematchOf(LiveGame g) {
        synchronized (g) {
            return g.rematchId();
        }
    }

    /**
     * The active games where it is the turn of a seat held by one of the given token hashes (at most 1000), most
     * recently changed first, at most {@code limit}: "games where it is my turn" (the accounts feature passes the
     * hashes of its player's seats).
     */
    /** The active games an account plays, most recently changed first (loaded), at most {@code limit}. */
    List<GameSnapshot> playing(String userId, int limit) {
        List<GameSnapshot> out = new ArrayList<>();
        for (String id : db.playing(userId, limit)) {
            LiveGame g = find(id);
            if (g != null) {
                out.add(g.snapshot());
            } else if (cluster != null) {
                // another node owns it: its last committed state, read from the database (a copy, never changed)
                LiveGame.Stored stored = db.load(id);
                if (stored != null) {
                    out.add(LiveGame.restore(stored, System.currentTimeMillis()).snapshot());
                }
            }
        }
        return out;
    }

    List<Database.Turn> myTurn(java.util.Collection<String> tokenHashes, int limit) {
        return db.myTurn(tokenHashes, limit);
    }

    /**
     * Makes a change under the game's lock and queues it for the writer; the future completes once it is
     * committed (its events then published), with null for no change. A refusal throws {@link GameError}.
     */
    CompletableFuture<LiveGame.Change> apply(LiveGame g, Function<LiveGame, LiveGame.Change> op) {
        synchronized (g) {
            if (g.broken || games.get(g.id) != g) {
                LiveGame fresh = find(g.id);
                if (fresh == null) {
                    throw GameError.notFound("no game with id '" + g.id + "'").coded("noGame");
                }
                if (fresh != g) {
                    return apply(fresh, op);
                }
            }
            requireWriterRoom();
            LiveGame.Change c;
            try {
                c = op.apply(g);
            } catch (LiveGame.FlagFell e) {
                submit(e.change, false);
                afterChange(g);
                throw GameError.conflict(e.getMessage());
            }
            if (c == null) {
                afterChange(g);
                return CompletableFuture.completedFuture(null);
            }
            CompletableFuture<LiveGame.Change> f = submit(c, false);
            afterChange(g);
            return f;
        }
    }

    private void requireWriterRoom() {
        if (!writer.hasRoom()) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "the database writer has " + writer.waiting()
                    + " changes waiting, its limit; try again shortly", 1).coded("busy");
        }
    }

    private CompletableFuture<LiveGame.Change> submit(LiveGame.Change c, boolean created) {
        AtomicInteger u = unwritten.computeIfAbsent(c.game().id, k -> new AtomicInteger());
        u.incrementAndGet();
        CompletableFuture<LiveGame.Change> f = writer.submit(c, created);
        f.whenComplete((x, e) -> {
            if (u.decrementAndGet() == 0) {
                unwritten.remove(c.game().id, u);
            }
        });
        return f;
    }

    /** A change of the game could not be stored: drop it from memory and close its feeds (they resync). */
    private void dropBroken(LiveGame g, Throwable e) {
        games.remove(g.id, g);
        if (cluster != null) {
            cluster.forget(g.id); // perhaps another node took it over: ask the database again
        }
        feed.closeGame(g.id, 1011, "the game's state was reloaded");
    }

    /** After any change or load: the flag timer, the computer's turn, the creator's count. Monitor held. */
    private void afterChange(LiveGame g) {
        if (g.finished() && g.creator != null) {
            // a client without unfinished games leaves the map, so it holds only clients that have some
            byCreator.computeIfPresent(g.creator, (k, set) -> {
                set.remove(g.id);
                return set.isEmpty() ? null : set;
            });
        }
        scheduleFlag(g);
        scheduleComputer(g);
    }

    // ---- clocks ----

    private void scheduleFlag(LiveGame g) {
        if (g.flagTimer != null) {
            g.flagTimer.cancel(false);
            g.flagTimer = null;
        }
        if (!g.active() || !g.clock().running()) {
            return;
        }
        long delay = g.clock().flagAt(g.sideToMove()) - System.currentTimeMillis() + 1;
        g.flagTimer = timers.schedule(() -> checkFlag(g), Math.max(0, delay), TimeUnit.MILLISECONDS);
    }

    private void checkFlag(LiveGame g) {
        try {
            apply(g, x -> {
                long now = System.currentTimeMillis();
                if (!x.active() || !x.clock().running()) {
                    return null;
                }
                return now > x.clock().flagAt(x.sideToMove()) ? x.flag(now) : null;
            });
        } catch (GameError e) {
            LOG.warn("flag check of game {}: {}", g.id, e.getMessage());
            timers.schedule(() -> checkFlag(g), 1, TimeUnit.SECONDS);
        }
    }

    // ---- sweeps ----

    /** Unloads idle and finished games, and ends games nobody plays (join timeout, abandonment). */
    private void sweep() {
        try {
            long now = System.currentTimeMillis();
            for (LiveGame g : games.values()) {
                boolean finished;
                synchronized (g) {
                    finished = g.finished();
                }
                long idle = now - g.touchedAt;
                if ((finished && idle >= limits.finishedUnload().toMillis())
                        || (!finished && idle >= limits.idleUnload().toMillis())) {
                    if (unloadable(g) || finished) {
                        unload(g);
                    }
                }
            }
            flagOverdue(now);
            long join = limits.joinTimeout().toMillis(), abandon = limits.abandonAfter().toMillis();
            for (String id : db.stale(now - join, now - abandon, SWEEP_BATCH)) {
                LiveGame g = find(id);
                if (g == null) {
                    continue;
                }
                apply(g, x -> {
                    long t = System.currentTimeMillis();
                    boolean unjoined = x.waiting() && t - x.updatedAt() >= join;
                    boolean abandoned = x.active() && !x.clock().running() && !x.engineBusy && t - x.updatedAt() >= abandon;
                    return unjoined || abandoned ? x.abandon(t) : null;
                });
            }
        } catch (RuntimeException e) {
            LOG.warn("sweep failed: {}", e.toString());
        }
    }

    /**
     * Ends on time the correspondence games whose time for the move ran out, found in the database (they need not be
     * in memory: idle ones are unloaded while their clock runs). Each is loaded and checked under its lock.
     */
    void flagOverdue(long now) {
        for (String id : db.overdue(now, SWEEP_BATCH)) {
            LiveGame g = find(id);
            if (g != null) {
                checkFlag(g);
            }
        }
    }

    // ---- the computer ----

    /** Starts the computer's search when it is to move (or has a draw offer to answer). Monitor held. */
    private void scheduleComputer(LiveGame g) {
        if (g.mode != LiveGame.Mode.COMPUTER || !g.active() || g.engineBusy) {
            return;
        }
        int side = g.sideToMove();
        int computer = g.computerSide();
        boolean offerToAnswer = g.drawOffer() == (computer ^ 1);
        if (side != computer && !offerToAnswer) {
            return;
        }
        int ply = g.ply();
        int level = g.computerLevel(computer);
        long think = thinkTime(g.clock(), computer, level, System.currentTimeMillis());
        long seed = g.id.hashCode() * 31L + ply;
        List<String> moves = g.snapshot().moves();
        EngineJob job = offerToAnswer
                ? EngineJob.analysis(g.rules.id, g.initialFen, moves, Math.min(think, ANALYSIS_MS), ANALYSIS_DEPTH, 1)
                : EngineJob.move(g.rules.id, g.initialFen, moves, level, think, seed);
        g.engineBusy = true;
        CompletableFuture<EngineResult> future;
        try {
            future = engines.submit(job, EngineQueue.Priority.COMPUTER, "game:" + g.id);
        } catch (GameError e) {
            LOG.warn("computer's job in game {} not queued: {}", g.id, e.getMessage());
            g.engineBusy = false;
            retryComputer(g);
            return;
        }
        future.whenComplete((r, failure) -> {
            String move = null;
            boolean accept = false;
            if (failure instanceof GameError e) {
                LOG.warn("computer player in game {}: {}", g.id, e.getMessage());
            } else if (failure != null) {
                LOG.error("computer player failed in game {}", g.id, failure);
            } else if (offerToAnswer) {
                EngineResult.Line best = r.lines().isEmpty() ? null : r.lines().get(0);
                int cp = best == null ? 0 : best.mate() != null ? (best.mate() > 0 ? 10_000 : -10_000) : best.cp();
                accept = (side == computer ? cp : -cp) <= ACCEPT_DRAW_CP;
            } else {
                move = r.bestMove();
            }
            String uci = move;
            boolean yes = accept;
            try {
                apply(g, x -> {
                    x.engineBusy = false;
                    return offerToAnswer ? x.computerAnswer(ply, yes, System.currentTimeMillis())
                            : x.computerMove(ply, uci, System.currentTimeMillis());
                });
            } catch (GameError e) {
                LOG.info("computer's answer in game {} not played: {}", g.id, e.getMessage());
                synchronized (g) {
                    g.engineBusy = false;
                }
                retryComputer(g);
            }
        });
    }

    /** Looks again in half a second whether the computer is to move (after an answer that was not played). */
    private void retryComputer(LiveGame g) {
        timers.schedule(() -> {
            synchronized (g) {
                scheduleComputer(g);
            }
        }, 500, TimeUnit.MILLISECONDS);
    }

    /** The computer's think time: 0.2 s at level 0 to 2 s at level 20, less when its clock runs low. */
    private static long thinkTime(Clock k, int side, int level, long now) {
        long t = THINK_BASE_MS + THINK_PER_LEVEL_MS * level;
        if (k.type == Clock.Type.FISCHER) {
            t = Math.min(t, k.remaining(side, now) / 30 + k.incrementMs * 4 / 5);
        } else if (k.type == Clock.Type.BYOYOMI) {
            long main = Math.max(0, k.ms[side] - (k.running() ? now - k.turnStartedAt : 0));
            t = Math.min(t, main > 0 ? main / 30 + k.byoyomiMs * 4 / 5 : k.byoyomiMs / 2);
        }
        return Math.max(50, t);
    }

    /** The engine queue (for tests and the analysis features built on it). */
    EngineQueue engines() {
        return engines;
    }

    // ---- analysis ----

    /**
     * Engine analysis of the position after {@code ply} moves, from the side to move's view, queued behind the
     * computer's moves; at most one per client at a time. The future completes on an engine thread.
     */
    CompletableFuture<Map<String, Object>> analyse(LiveGame g, Integer ply, String client) {
        GameSnapshot s = g.snapshot();
        if (s.mode() == LiveGame.Mode.FRIEND && !s.finished()) {
            // an engine's help in a game between two people is for after it (as on lichess)
            throw GameError.conflict("analysis: not while a game between two players goes on; ask when it is over")
                    .coded("analysisDuringGame");
        }
        int n = ply == null ? s.ply() : ply;
        if (n < 0 || n > s.ply()) {
            throw GameError.invalid("ply: must be from 0 to " + s.ply() + ", got " + n);
        }
        Position root = s.positionAt(n);
        if (!root.hasLegalMove()) {
            throw GameError.conflict("ply: the side to move has no legal move there");
        }
        EngineJob job = EngineJob.analysis(s.rules().id, s.initialFen(), s.moves().subList(0, n), ANALYSIS_MS,
                ANALYSIS_DEPTH, 1);
        return engines.submit(job, EngineQueue.Priority.ANALYSIS, client).handle((r, failure) -> {
            if (failure != null || r.lines().isEmpty()) {
                throw GameError.unavailable("the engine could not analyse the position: "
                        + (failure == null ? "no line" : failure)).coded("engineFailed");
            }
            return analysisView(root, r.lines().get(0));
        });
    }

    /** MultiPV lines the analysis board may ask for at most. */
    static final int MAX_MULTIPV = 5;

    /**
     * The analysis board's engine lines: the position after {@code moves} from {@code start} (checked as
     * {@link AnalysisBoard#position} does), up to {@code multiPv} lines best first, {@code {"lines": [...]}} each as
     * the game analysis answers one line; queued at the analysis priority, one per client at a time.
     */
    CompletableFuture<Map<String, Object>> analyseLines(Position start, List<String> moves, int multiPv, String client) {
        Map<String, Object> pos = AnalysisBoard.position(start, moves);
        if (((List<?>) pos.get("legalMoves")).isEmpty()) {
            throw GameError.conflict("moves: the side to move has no legal move there");
        }
        Position root = Fen.parse(start.ruleSet(), (String) pos.get("fen"));
        EngineJob job = EngineJob.analysis(start.ruleSet().id, Fen.format(start), moves, ANALYSIS_MS, ANALYSIS_DEPTH,
                multiPv);
        return engines.submit(job, EngineQueue.Priority.ANALYSIS, client).handle((r, failure) -> {
            if (failure != null || r.lines().isEmpty()) {
                throw GameError.unavailable("the engine could not analyse the position: "
                        + (failure == null ? "no line" : failure)).coded("engineFailed");
            }
            List<Map<String, Object>> lines = new ArrayList<>();
            for (EngineResult.Line line : r.lines()) {
                lines.add(analysisView(root, line));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("fen", pos.get("fen"));
            out.put("lines", lines);
            return out;
        });
    }

    /** The analysis JSON of one line: depth, score ({cp} or {mate}), pv (move strings) and pvText (readable). */
    private static Map<String, Object> analysisView(Position root, EngineResult.Line line) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("depth", line.depth());
        out.put("score", line.mate() != null ? Map.of("mate", line.mate()) : Map.of("cp", line.cp()));
        out.put("pv", line.pv());
        int[] pv = new int[line.pv().size()];
        Position q = root.copy();
        for (int i = 0; i < pv.length; i++) {
            pv[i] = MoveNotation.parseUci(q, line.pv().get(i));
            q.doMove(pv[i]);
        }
        out.put("pvText", GameView.readable(root, pv));
        return out;
    }

    // ---- seats and ids ----

    /** Which seats a cookie token holds in a game. */
    /**
     * The seats a request holds: those of its seat cookie, and the sides where its account is seated (an account
     * plays its games from any browser or program it is signed in on).
     */
    static Seat seatOf(LiveGame g, String token, String userId) {
        Seat s = seatOf(g, token);
        if (userId == null) {
            return s;
        }
        List<PlayerAccount> a = g.snapshot().accounts();
        boolean first = s.holds(0) || a.get(0) != null && userId.equals(a.get(0).userId());
        boolean second = s.holds(1) || a.get(1) != null && userId.equals(a.get(1).userId());
        return first && second ? Seat.BOTH : first ? Seat.FIRST : second ? Seat.SECOND : Seat.NONE;
    }

    static Seat seatOf(LiveGame g, String token) {
        if (token == null || token.isEmpty()) {
            return Seat.NONE;
        }
        String h = hash(token);
        List<String> t = g.snapshot().tokens();
        boolean first = h.equals(t.get(0)), second = h.equals(t.get(1));
        return first && second ? Seat.BOTH : first ? Seat.FIRST : second ? Seat.SECOND : Seat.NONE;
    }

    /** A new game's id; with several nodes, this node owns the game from the start. */
    private String newGameId() {
        String id = newId();
        if (cluster != null) {
            cluster.claimNew(id);
        }
        return id;
    }

    private static String newId() {
        StringBuilder sb = new StringBuilder(10);
        for (int i = 0; i < 10; i++) {
            sb.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
        }
        return sb.toString();
    }

    private static String newToken() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static String hash(String token) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(md.digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stops the timers and engines, then lets the writer commit what is queued and write a last heartbeat. */
    @Override
    public void close() {
        timers.shutdownNow();
        engines.close();
        writer.close();
    }
}
