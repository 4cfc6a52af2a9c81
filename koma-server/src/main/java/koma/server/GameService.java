package koma.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import koma.engine.EnginePlayer;
import koma.rules.Game;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;
import koma.server.GameView.Seat;

/**
 * The games: creating, joining, moves, resignation, draw offers, claims, clocks with their flag timers, and the
 * computer opponent. Every change happens under the game's monitor, is written to the database before it is
 * acknowledged, and is then announced to the listeners (the WebSocket feed). Computer moves and analyses run on
 * a bounded engine pool, never on a request thread.
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
    /** How long a finished game stays in memory. */
    private static final long FINISHED_IN_MEMORY_MINUTES = 10;
    /** A computer accepts a draw offer when it judges itself this far behind (centipawns). */
    private static final int ACCEPT_DRAW_CP = -150;

    private final Database db;
    private final ConcurrentHashMap<String, LiveGame> games = new ConcurrentHashMap<>();
    private final ThreadPoolExecutor engines;
    private final ScheduledExecutorService timers;
    private final List<Consumer<LiveGame>> listeners = new CopyOnWriteArrayList<>();

    GameService(Database db, int engineThreads) {
        this.db = db;
        this.engines = new ThreadPoolExecutor(engineThreads, engineThreads, 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(256), daemon("koma-engine"));
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("koma-clock"));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** Registers a listener called after every change, with the game's monitor held. */
    void onChange(Consumer<LiveGame> listener) {
        listeners.add(listener);
    }

    /** Loads every unfinished game and restarts its clock timer and computer player (after a restart). */
    void resumeAll() {
        for (String id : db.unfinished()) {
            LiveGame g = find(id);
            if (g != null) {
                synchronized (g) {
                    long now = System.currentTimeMillis();
                    if (g.active() && g.clock.running() && now > g.clock.flagAt(g.sideToMove())) {
                        flag(g, now);
                    } else {
                        afterChange(g);
                    }
                }
            }
        }
    }

    /** The game, loaded from the database if need be, or null. */
    LiveGame find(String id) {
        if (id == null || !id.matches("[a-z0-9]{1,32}")) {
            return null;
        }
        LiveGame g = games.get(id);
        if (g != null) {
            return g;
        }
        LiveGame loaded = db.load(id);
        if (loaded == null) {
            return null;
        }
        LiveGame prev = games.putIfAbsent(id, loaded);
        return prev != null ? prev : loaded;
    }

    LiveGame get(String id) {
        LiveGame g = find(id);
        if (g == null) {
            throw ApiException.notFound("no game with id '" + id + "'");
        }
        return g;
    }

    /** Which seats a cookie token holds in a game. */
    static Seat seatOf(LiveGame g, String token) {
        if (token == null || token.isEmpty()) {
            return Seat.NONE;
        }
        String h = hash(token);
        boolean first = h.equals(g.tokens[0]), second = h.equals(g.tokens[1]);
        return first && second ? Seat.BOTH : first ? Seat.FIRST : second ? Seat.SECOND : Seat.NONE;
    }

    /** What a new game needs; validated by the HTTP layer, except the position and record. */
    record NewGame(RuleSet rules, LiveGame.Mode mode, String color, int level, Clock clock, Position start,
                   List<String> moves) {
    }

    /** A created or joined game and the seat token for the cookie. */
    record Seated(LiveGame game, String token) {
    }

    Seated create(NewGame req) {
        long now = System.currentTimeMillis();
        String token = newToken();
        String h = hash(token);
        LiveGame g = new LiveGame(newId(), req.rules(), req.mode(), req.start(), req.clock(), now);
        int creator = switch (req.color()) {
            case "first" -> 0;
            case "second" -> 1;
            default -> RANDOM.nextInt(2);
        };
        g.players[0] = g.players[1] = "human";
        switch (req.mode()) {
            case COMPUTER -> {
                g.players[creator ^ 1] = "computer:" + req.level();
                g.tokens[creator] = h;
                g.status = "active";
            }
            case FRIEND -> {
                g.tokens[creator] = h;
                g.status = "waiting";
            }
            case HOTSEAT -> {
                g.tokens[0] = g.tokens[1] = h;
                g.status = "active";
            }
        }
        synchronized (g) {
            for (String m : req.moves()) {
                g.playOnBoard(m);
            }
            g.takeAutomaticResult();
            if (g.active() && g.clock.timed()) {
                g.clock.turnStartedAt = now;
            }
            db.insert(g, now);
            games.put(g.id, g);
            afterChange(g);
        }
        return new Seated(g, token);
    }

    /** Gives the free seat of a friend game to the caller. */
    Seated join(LiveGame g, Seat seat) {
        synchronized (g) {
            if (g.mode != LiveGame.Mode.FRIEND) {
                throw ApiException.conflict("only friend games can be joined; this one is " + g.mode.name().toLowerCase());
            }
            if (seat != Seat.NONE) {
                throw ApiException.conflict("you already hold the " + seat.json() + " seat of this game");
            }
            int free = g.tokens[0] == null ? 0 : g.tokens[1] == null ? 1 : -1;
            if (free < 0 || !"waiting".equals(g.status)) {
                throw ApiException.conflict("both seats of this game are taken");
            }
            long now = System.currentTimeMillis();
            String token = newToken();
            g.tokens[free] = hash(token);
            if (!g.finished()) {
                g.status = "active";
                if (g.clock.timed()) {
                    g.clock.turnStartedAt = now;
                }
            }
            persist(g, now);
            afterChange(g);
            return new Seated(g, token);
        }
    }

    /** Plays a move for the seat; {@code ply} is the number of moves the client has seen. */
    void move(LiveGame g, Seat seat, String uci, int ply) {
        synchronized (g) {
            if (!g.moves.isEmpty() && ply == g.ply() - 1 && uci.equals(g.moves.get(g.ply() - 1))
                    && seat.holds((g.start.sideToMove() + g.ply() - 1) & 1)) {
                return; // a retried request whose move was already played
            }
            requirePlaying(g);
            if (ply != g.ply()) {
                throw ApiException.conflict("stale ply: the game is at ply " + g.ply() + ", the request says " + ply);
            }
            int side = g.sideToMove();
            requireSide(g, seat, side, "move");
            Position p = g.current;
            int m;
            try {
                m = MoveNotation.parseUci(p, uci);
            } catch (NotationException e) {
                throw ApiException.badRequest("move: " + e.getMessage());
            }
            if (!p.isLegal(m)) {
                throw ApiException.badRequest("move: " + uci + " is not legal in this position");
            }
            play(g, side, MoveNotation.formatUci(p, m), System.currentTimeMillis());
        }
    }

    private void requirePlaying(LiveGame g) {
        if (g.finished()) {
            throw ApiException.conflict("the game is over: " + g.resultTermination);
        }
        if (!g.active()) {
            throw ApiException.conflict("the game has not started: it waits for the second player to join");
        }
    }

    private static void requireSide(LiveGame g, Seat seat, int side, String what) {
        if (seat == Seat.NONE) {
            throw ApiException.forbidden("you hold no seat in this game (no valid koma_" + g.id + " cookie)");
        }
        if (g.isComputer(side)) {
            throw ApiException.forbidden("the " + LiveGame.side(side) + " side is played by the computer");
        }
        if (!seat.holds(side)) {
            throw ApiException.forbidden("not your turn: you hold the " + seat.json() + " seat and it is the "
                    + LiveGame.side(side) + " player's " + what);
        }
    }

    /** Plays a legal move of {@code side}: clock, rules, database, then the listeners. */
    private void play(LiveGame g, int side, String uci, long now) {
        if (!g.clock.charge(side, now)) {
            flag(g, now);
            throw ApiException.conflict("the game is over: the " + LiveGame.side(side) + " player ran out of time");
        }
        g.playOnBoard(uci);
        if (g.drawOffer == (side ^ 1)) {
            g.drawOffer = -1; // moving instead of answering declines the offer
        }
        g.takeAutomaticResult();
        if (!g.finished() && g.clock.timed()) {
            g.clock.turnStartedAt = now;
        }
        try {
            db.saveMove(g, g.ply(), uci, now);
        } catch (RuntimeException e) {
            games.remove(g.id, g); // the stored state is the truth: reload it on the next request
            throw e;
        }
        afterChange(g);
    }

    /** The side to move ran out of time. */
    private void flag(LiveGame g, long now) {
        int side = g.sideToMove();
        g.clock.exhaust(side);
        g.setResult(g.game.flag(side));
        persist(g, now);
        afterChange(g);
    }

    private void persist(LiveGame g, long now) {
        try {
            db.save(g, now);
        } catch (RuntimeException e) {
            games.remove(g.id, g);
            throw e;
        }
    }

    /** Resigns for the seat (in a hot-seat game: for the side to move). */
    void resign(LiveGame g, Seat seat) {
        synchronized (g) {
            requirePlaying(g);
            int side = actingSide(g, seat);
            g.setResult(g.game.resign(side));
            persist(g, System.currentTimeMillis());
            afterChange(g);
        }
    }

    private static int actingSide(LiveGame g, Seat seat) {
        return switch (seat) {
            case NONE -> throw ApiException.forbidden("you hold no seat in this game (no valid koma_" + g.id + " cookie)");
            case BOTH -> g.sideToMove();
            case FIRST -> 0;
            case SECOND -> 1;
        };
    }

    /** A draw offer, acceptance or refusal. */
    void draw(LiveGame g, Seat seat, String action) {
        synchronized (g) {
            requirePlaying(g);
            long now = System.currentTimeMillis();
            switch (action) {
                case "offer" -> {
                    int side = actingSide(g, seat);
                    if (g.drawOffer == (side ^ 1)) {
                        g.setResult(g.game.agreeDraw()); // both want a draw
                    } else {
                        g.drawOffer = side;
                    }
                }
                case "accept", "decline" -> {
                    if (g.drawOffer < 0) {
                        throw ApiException.conflict("action: there is no draw offer to " + action);
                    }
                    int answering = g.drawOffer ^ 1;
                    if (seat == Seat.NONE || !seat.holds(answering)) {
                        throw ApiException.forbidden("action: only the " + LiveGame.side(answering)
                                + " player may " + action + " this draw offer");
                    }
                    if (action.equals("accept")) {
                        g.setResult(g.game.agreeDraw());
                    } else {
                        g.drawOffer = -1;
                    }
                }
                default -> throw ApiException.badRequest("action: must be offer, accept or decline, got '" + action + "'");
            }
            persist(g, now);
            afterChange(g);
        }
    }

    /** A draw claim (repetition, move rule) by the player to move, or the impasse count by either player. */
    void claim(LiveGame g, Seat seat, String kind) {
        synchronized (g) {
            requirePlaying(g);
            Game.Result r;
            switch (kind) {
                case "draw" -> {
                    requireSide(g, seat, g.sideToMove(), "claim");
                    if (!g.game.canClaimDraw()) {
                        throw ApiException.conflict("kind: no draw can be claimed in this position");
                    }
                    r = g.game.claimDraw();
                }
                case "impasse" -> {
                    actingSide(g, seat);
                    try {
                        r = g.game.impasse();
                    } catch (IllegalStateException e) {
                        throw ApiException.conflict("kind: " + e.getMessage());
                    }
                }
                default -> throw ApiException.badRequest("kind: must be draw or impasse, got '" + kind + "'");
            }
            g.setResult(r);
            persist(g, System.currentTimeMillis());
            afterChange(g);
        }
    }

    /** Engine analysis of the position after {@code ply} moves, from the side to move's view. */
    Map<String, Object> analyse(LiveGame g, Integer ply) {
        Position p;
        synchronized (g) {
            int n = ply == null ? g.ply() : ply;
            if (n < 0 || n > g.ply()) {
                throw ApiException.badRequest("ply: must be from 0 to " + g.ply() + ", got " + n);
            }
            p = GameView.positionAt(g, n);
        }
        if (!p.hasLegalMove()) {
            throw ApiException.conflict("ply: the side to move has no legal move there");
        }
        Position root = p;
        Future<EnginePlayer.Analysis> f;
        try {
            f = engines.submit(() -> new EnginePlayer(root.ruleSet()).analyse(root, ANALYSIS_DEPTH, ANALYSIS_MS));
        } catch (RejectedExecutionException e) {
            throw new ApiException(503, "the engine is busy; try again shortly");
        }
        EnginePlayer.Analysis a;
        try {
            a = f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted");
        } catch (ExecutionException | TimeoutException e) {
            f.cancel(true);
            throw new ApiException(503, "the engine could not analyse the position: " + e);
        }
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("depth", a.depth());
        out.put("score", a.mateIn() != 0 ? Map.of("mate", a.mateIn()) : Map.of("cp", a.scoreCp()));
        List<String> pv = new java.util.ArrayList<>();
        Position q = root.copy();
        for (int m : a.pv()) {
            if (m == Move.NONE || !q.isLegal(m)) {
                break;
            }
            pv.add(MoveNotation.formatUci(q, m));
            q.doMove(m);
        }
        out.put("pv", pv);
        out.put("pvText", GameView.readable(root, a.pv()));
        return out;
    }

    /** After any change: the flag timer, the computer's turn, the listeners. Monitor held. */
    private void afterChange(LiveGame g) {
        if (g.finished()) {
            // a finished game no longer changes: drop it from memory after a while (it reloads on demand)
            timers.schedule(() -> games.remove(g.id, g), FINISHED_IN_MEMORY_MINUTES, TimeUnit.MINUTES);
        }
        scheduleFlag(g);
        scheduleComputer(g);
        for (Consumer<LiveGame> l : listeners) {
            try {
                l.accept(g);
            } catch (RuntimeException e) {
                LOG.warn("listener failed for game {}", g.id, e);
            }
        }
    }

    private void scheduleFlag(LiveGame g) {
        if (g.flagTimer != null) {
            g.flagTimer.cancel(false);
            g.flagTimer = null;
        }
        if (!g.active() || !g.clock.running()) {
            return;
        }
        long delay = g.clock.flagAt(g.sideToMove()) - System.currentTimeMillis() + 1;
        g.flagTimer = timers.schedule(() -> checkFlag(g), Math.max(0, delay), TimeUnit.MILLISECONDS);
    }

    private void checkFlag(LiveGame g) {
        synchronized (g) {
            if (games.get(g.id) != g || !g.active() || !g.clock.running()) {
                return;
            }
            long now = System.currentTimeMillis();
            if (now > g.clock.flagAt(g.sideToMove())) {
                try {
                    flag(g, now);
                } catch (RuntimeException e) {
                    LOG.error("could not store the flag fall of game {}", g.id, e);
                }
            } else {
                scheduleFlag(g);
            }
        }
    }

    /** Starts the computer's search when it is to move (or has a draw offer to answer). */
    private void scheduleComputer(LiveGame g) {
        if (g.mode != LiveGame.Mode.COMPUTER || !g.active() || g.engineBusy) {
            return;
        }
        int side = g.sideToMove();
        int computer = g.isComputer(0) ? 0 : 1;
        boolean offerToAnswer = g.drawOffer == (computer ^ 1);
        if (side != computer && !offerToAnswer) {
            return;
        }
        Position p = g.current.copy(); // the engine thread gets its own
        int ply = g.ply();
        int level = g.computerLevel(computer);
        long think = thinkTime(g, computer, level, System.currentTimeMillis());
        long seed = g.id.hashCode() * 31L + ply;
        g.engineBusy = true;
        try {
            engines.execute(() -> {
                try {
                    if (offerToAnswer) {
                        EnginePlayer.Analysis a = new EnginePlayer(g.rules).analyse(p, ANALYSIS_DEPTH, Math.min(think, ANALYSIS_MS));
                        int cp = a.mateIn() != 0 ? (a.mateIn() > 0 ? 10_000 : -10_000) : a.scoreCp();
                        int computerView = side == computer ? cp : -cp;
                        answerOffer(g, ply, computerView <= ACCEPT_DRAW_CP);
                    } else {
                        int best = new EnginePlayer(g.rules).bestMove(p, level, think, seed);
                        computerMove(g, ply, best == Move.NONE ? null : MoveNotation.formatUci(p, best));
                    }
                } catch (RuntimeException e) {
                    LOG.error("computer player failed in game {}", g.id, e);
                    synchronized (g) {
                        g.engineBusy = false;
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            g.engineBusy = false;
            timers.schedule(() -> {
                synchronized (g) {
                    scheduleComputer(g);
                }
            }, 200, TimeUnit.MILLISECONDS);
        }
    }

    private void answerOffer(LiveGame g, int ply, boolean accept) {
        synchronized (g) {
            g.engineBusy = false;
            if (games.get(g.id) != g || !g.active() || g.ply() != ply || g.drawOffer < 0 || !g.isComputer(g.drawOffer ^ 1)) {
                scheduleComputer(g);
                return;
            }
            if (accept) {
                g.setResult(g.game.agreeDraw());
            } else {
                g.drawOffer = -1;
            }
            persist(g, System.currentTimeMillis());
            afterChange(g);
        }
    }

    private void computerMove(LiveGame g, int ply, String uci) {
        synchronized (g) {
            g.engineBusy = false;
            if (games.get(g.id) != g || !g.active() || g.ply() != ply || uci == null) {
                scheduleComputer(g);
                return;
            }
            try {
                play(g, g.sideToMove(), uci, System.currentTimeMillis());
            } catch (ApiException e) {
                LOG.info("computer move {} in game {} not played: {}", uci, g.id, e.getMessage());
            }
        }
    }

    /** The computer's think time: 0.2 s at level 0 to 2 s at level 20, less when its clock runs low. */
    private static long thinkTime(LiveGame g, int side, int level, long now) {
        long t = THINK_BASE_MS + THINK_PER_LEVEL_MS * level;
        Clock k = g.clock;
        if (k.type == Clock.Type.FISCHER) {
            t = Math.min(t, k.remaining(side, now) / 30 + k.incrementMs * 4 / 5);
        } else if (k.type == Clock.Type.BYOYOMI) {
            long main = Math.max(0, k.ms[side] - (k.running() ? now - k.turnStartedAt : 0));
            t = Math.min(t, main > 0 ? main / 30 + k.byoyomiMs * 4 / 5 : k.byoyomiMs / 2);
        }
        return Math.max(50, t);
    }

    /** A snapshot for export, taken under the monitor. */
    record Snapshot(RuleSet rules, Position start, List<String> moves, String[] players, Integer winner,
                    String termination, long createdAt, Clock clock) {
    }

    Snapshot snapshot(LiveGame g) {
        synchronized (g) {
            return new Snapshot(g.rules, g.start.copy(), List.copyOf(g.moves), g.players.clone(), g.resultWinner,
                    g.resultTermination, g.createdAt, g.clock);
        }
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

    @Override
    public void close() {
        engines.shutdownNow();
        timers.shutdownNow();
    }
}
