package koma.server;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;

import koma.rules.Game;
import koma.rules.Move;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;
import koma.rules.notation.NotationException;
import koma.rules.notation.Pgn;
import koma.rules.notation.San;
import koma.rules.notation.ShogiNotation;
import koma.server.GameView.Seat;

/**
 * One live game, the single owner of its state. Its monitor is its lock: every change (a move, a join, a draw
 * offer, a claim, a resignation, a flag fall, an abort, a takeback, a rematch offer, a chat message) is a method here that checks the change, applies it, and
 * returns a {@link Change}: the events it caused, each with the game's next version, and an immutable
 * {@link GameSnapshot} of the state after it for the database, the JSON view and the feed. Refusals are
 * {@link GameError}s. The registry ({@link GameService}) sends each change to the writer before releasing the
 * lock, so changes reach the database and the feed in version order.
 */
final class LiveGame {
    /** The game modes of the API. */
    enum Mode { COMPUTER, FRIEND, HOTSEAT }

    /** {@link #resultWinner} of a game ended without a result (aborted): no winner, no draw. */
    static final int NO_RESULT = -2;
    /** Takeback requests of one side the opponent may refuse in one game; the next request answers 429. */
    static final int MAX_TAKEBACK_REFUSALS = 3;
    /** Longest chat message, in characters (code points), after trimming. */
    static final int CHAT_MAX_LENGTH = 140;
    /** Chat messages kept in memory (and sent with the game) per room. */
    static final int CHAT_HISTORY = 100;
    /** Chat rate limits: per sender, and per room of a game, within {@link #CHAT_WINDOW_MS}. */
    static final int CHAT_PER_SENDER = 5, CHAT_PER_ROOM = 20;
    static final long CHAT_WINDOW_MS = 10_000;
    /** Chat senders whose recent message times a game remembers (least recent forgotten first). */
    private static final int CHAT_SENDERS = 256;

    final String id;
    final RuleSet rules;
    final Mode mode;
    final String initialFen;
    /** The start position: never changed. */
    final Position start;
    /** "human" or "computer:LEVEL" per side. */
    private final String[] players = new String[2];
    /** SHA-256 hex of each seat's token, null while free. */
    private final String[] tokens = new String[2];
    /** The account seated on each side, null for a guest or the computer. */
    private final PlayerAccount[] accounts = new PlayerAccount[2];
    /** Whether the result moves the accounts' ratings (fixed at creation: both sides seated accounts). */
    private boolean rated;
    /**
     * Each side's rating change once a rated game ended, set by the writer in the commit that stored it (for the
     * game view; null before).
     */
    volatile int[] ratingDiffs;
    private final Clock clock;
    final long createdAt;
    /** The client key of the creator (for the per-client cap), null for a game loaded from the database. */
    final String creator;

    private final Game game;
    /** The current position: a fresh copy after each move, never changed afterwards (snapshots share it). */
    private Position current;
    /** The legal moves of {@link #current} as UCI strings, computed once per position. */
    private List<String> legal;
    /**
     * Per move: its notations and the position after it, as the game JSON lists them, and the epoch ms it was
     * played at (the stored {@code moves.played_at}; for the game records' move times, not shown in the JSON).
     */
    private final MoveLog history = new MoveLog();
    /** The destination of the last move (for Japanese notation's 同), -1 before the first. */
    private int previousTo = -1;
    private String status;
    /** -1 none, else the side that offered a draw. */
    private int drawOffer = -1;
    /** Result: winner 0/1, -1 draw, {@link #NO_RESULT}; termination label; null while playing. */
    private Integer resultWinner;
    private String resultTermination;
    private int version;
    /** Epoch ms of the last change (for the abandonment and idle rules). */
    private long updatedAt;
    private GameSnapshot snapshot;
    /** -1 none, else the side that asked to take back its last move. */
    private int takebackOffer = -1;
    /** Per side: its takeback requests the opponent declined. */
    private final int[] takebacksRefused = new int[2];
    /** -1 none, else the side that offered a rematch, or {@link GameSnapshot.Actions#REMATCH_DECLINED}. */
    private int rematchOffer = -1;
    /** The rematch game's id once both agreed. */
    private String rematchId;
    /** The last messages of each chat room (immutable lists, replaced on each message: snapshots share them). */
    private List<Map<String, Object>> playersChat = List.of(), spectatorsChat = List.of();
    /** Recent message times per chat sender and per room, for the rate limits (not stored). */
    private final Map<String, long[]> chatTimes = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> e) {
            return size() > CHAT_SENDERS;
        }
    };

    /** The pending flag-fall check, if any ({@link GameService}). */
    ScheduledFuture<?> flagTimer;
    /** True while a computer move or draw answer is being searched for this game ({@link GameService}). */
    boolean engineBusy;
    /** Set when a write of this game failed: this object is dropped and the game reloads from the database. */
    volatile boolean broken;
    /** Epoch ms of the last load, change or view, for unloading idle games. */
    volatile long touchedAt;

    /**
     * What a change made: its events (possibly none), the state after it, the move to store, if any, the ply the
     * stored moves are cut back to first (a takeback; -1 none), and the chat message to store, if any.
     */
    record Change(LiveGame game, List<GameEvent> events, GameSnapshot snapshot, String move, int ply, long at,
                  int truncateTo, ChatLine chat) {
        Change(LiveGame game, List<GameEvent> events, GameSnapshot snapshot, String move, int ply, long at) {
            this(game, events, snapshot, move, ply, at, -1, null);
        }
    }

    /** A chat message to store: the event's version, the room, the sender ("first", "second", "spectator"). */
    record ChatLine(int version, String room, String sender, String text, long at) {
    }

    private LiveGame(String id, RuleSet rules, Mode mode, Position start, Clock clock, long createdAt, String creator) {
        this.id = id;
        this.rules = rules;
        this.mode = mode;
        this.start = start.copy();
        this.initialFen = Fen.format(start);
        this.clock = clock;
        this.createdAt = createdAt;
        this.creator = creator;
        this.game = new Game(start, Game.Options.DEFAULT);
        this.current = game.position();
        this.legal = legalOf(current);
        this.updatedAt = createdAt;
        this.touchedAt = createdAt;
    }

    /**
     * A new game: seats, status and the moves of a record it starts from. {@code creatorSide} is the side of the
     * creator's seat ({@code tokenHash}); in hot-seat it holds both.
     */
    static LiveGame create(String id, RuleSet rules, Mode mode, Position start, Clock clock, List<String> moves,
                           int creatorSide, int level, String tokenHash, String creator, long now) {
        LiveGame g = new LiveGame(id, rules, mode, start, clock, now, creator);
        g.players[0] = g.players[1] = "human";
        switch (mode) {
            case COMPUTER -> {
                g.players[creatorSide ^ 1] = "computer:" + level;
                g.tokens[creatorSide] = tokenHash;
                g.status = "active";
            }
            case FRIEND -> {
                g.tokens[creatorSide] = tokenHash;
                g.status = "waiting";
            }
            case HOTSEAT -> {
                g.tokens[0] = g.tokens[1] = tokenHash;
                g.status = "active";
            }
        }
        for (String m : moves) {
            g.playOnBoard(m, now); // stored with the game's creation time, as the database does
        }
        g.game.result().ifPresent(g::setResult);
        if (g.active() && clock.timed()) {
            clock.turnStartedAt = now;
        }
        g.snapshot = g.snap();
        return g;
    }

    /** The stored fields of a game read back from the database ({@link Database#load}). */
    record Stored(String id, RuleSet rules, Mode mode, Position start, Clock clock, long createdAt, String status,
                  String[] players, String[] tokens, int drawOffer, Integer winner, String termination, int version,
                  long updatedAt, List<String> moves, List<Long> playedAt, GameSnapshot.Actions actions,
                  PlayerAccount[] accounts, boolean rated, int[] ratingDiffs) {
    }

    /**
     * Seats accounts in a game just created, before its first change is submitted (the lobby's games: both sides
     * are accounts, and a rated seek makes the game rated).
     */
    void seatAccounts(PlayerAccount first, PlayerAccount second, boolean rated) {
        if (rated && (first == null || second == null)) {
            throw GameError.invalid("rated: a rated game needs an account on each side").coded("ratedNeedsAccounts");
        }
        accounts[0] = first;
        accounts[1] = second;
        this.rated = rated;
        snapshot = snap();
    }

    /**
     * Seats {@code account} on the sides {@code seat} holds that have none yet (a signed-in player joining, or a
     * guest who signs up claiming the games of their browser). A seat already held by another account is refused.
     */
    Change claimSeat(Seat seat, PlayerAccount account, long now) {
        if (seat == Seat.NONE) {
            throw GameError.forbidden("you hold no seat in this game").coded("noSeat");
        }
        boolean changed = false;
        for (int side = 0; side < 2; side++) {
            if (!seat.holds(side)) {
                continue;
            }
            if (accounts[side] != null && !accounts[side].userId().equals(account.userId())) {
                throw GameError.conflict("the " + side(side) + " seat already belongs to another account")
                        .coded("seatTaken", "side", side(side));
            }
            if (accounts[side] == null && mode != Mode.HOTSEAT) {
                accounts[side] = account;
                changed = true;
            }
        }
        if (!changed) {
            return null;
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("accounts", GameView.accounts(Arrays.asList(accounts.clone()), null));
        return change(List.of(new GameEvent("players", ++version, e)), null, now);
    }

    /** A game loaded from the database: its moves replayed through the rules core. */
    static LiveGame restore(Stored s, long now) {
        LiveGame g = new LiveGame(s.id(), s.rules(), s.mode(), s.start(), s.clock(), s.createdAt(), null);
        g.players[0] = s.players()[0];
        g.players[1] = s.players()[1];
        g.tokens[0] = s.tokens()[0];
        g.tokens[1] = s.tokens()[1];
        g.accounts[0] = s.accounts()[0];
        g.accounts[1] = s.accounts()[1];
        g.rated = s.rated();
        g.ratingDiffs = s.ratingDiffs();
        for (int i = 0; i < s.moves().size(); i++) {
            g.playOnBoard(s.moves().get(i), s.playedAt().get(i));
        }
        g.status = s.status();
        g.drawOffer = s.drawOffer();
        g.resultWinner = s.winner();
        g.resultTermination = s.termination();
        if (g.finished()) {
            g.legal = List.of();
        }
        GameSnapshot.Actions a = s.actions();
        g.takebackOffer = a.takebackOffer();
        g.takebacksRefused[0] = a.refusedFirst();
        g.takebacksRefused[1] = a.refusedSecond();
        g.rematchOffer = a.rematchOffer();
        g.rematchId = a.rematchId();
        g.playersChat = List.copyOf(a.playersChat());
        g.spectatorsChat = List.copyOf(a.spectatorsChat());
        g.version = s.version();
        g.updatedAt = s.updatedAt();
        g.touchedAt = now;
        g.snapshot = g.snap();
        return g;
    }

    // ---- reading (monitor held, or through the snapshot) ----

    /** The state after the last change: immutable, safe to read without the lock. */
    synchronized GameSnapshot snapshot() {
        return snapshot;
    }

    int ply() {
        return history.size();
    }

    int sideToMove() {
        return current.sideToMove();
    }

    boolean finished() {
        return resultTermination != null;
    }

    boolean active() {
        return "active".equals(status);
    }

    boolean waiting() {
        return "waiting".equals(status);
    }

    boolean isComputer(int side) {
        return players[side].startsWith("computer");
    }

    int computerSide() {
        return isComputer(0) ? 0 : isComputer(1) ? 1 : -1;
    }

    int computerLevel(int side) {
        return Integer.parseInt(players[side].substring(players[side].indexOf(':') + 1));
    }

    int drawOffer() {
        return drawOffer;
    }

    Clock clock() {
        return clock;
    }

    long updatedAt() {
        return updatedAt;
    }

    /** The current position (never changed: a new one is made after each move). */
    Position current() {
        return current;
    }

    /** Which seats a token's hash holds. */
    Seat seatOf(String tokenHash) {
        if (tokenHash == null) {
            return Seat.NONE;
        }
        boolean first = tokenHash.equals(tokens[0]), second = tokenHash.equals(tokens[1]);
        return first && second ? Seat.BOTH : first ? Seat.FIRST : second ? Seat.SECOND : Seat.NONE;
    }

    // ---- changes (monitor held by the caller, GameService) ----

    /**
     * A move of the seat; {@code ply} is the number of moves the client has seen. The very same request repeated
     * right after it was played (same move, ply one behind) is no change (null).
     */
    Change move(Seat seat, String uci, int ply, long now) {
        if (ply() > 0 && ply == ply() - 1 && uci.equals(history.get(ply() - 1).get("move"))
                && seat.holds((start.sideToMove() + ply() - 1) & 1)) {
            return null;
        }
        requirePlaying();
        if (ply != ply()) {
            throw GameError.conflict("ply: stale, the game is at ply " + ply() + ", the request says " + ply)
                    .coded("stalePly", "ply", ply());
        }
        int side = sideToMove();
        requireSide(seat, side, "move");
        int m;
        try {
            m = MoveNotation.parseUci(current, uci);
        } catch (NotationException e) {
            throw GameError.invalid("move: " + e.getMessage()).coded("illegalMove", "move", uci);
        }
        if (!current.isLegal(m)) {
            throw GameError.invalid("move: " + uci + " is not legal in this position")
                    .coded("illegalMove", "move", uci);
        }
        return play(side, MoveNotation.formatUci(current, m), now);
    }

    /** The computer's move for the position at {@code ply}; null when the game moved on meanwhile. */
    Change computerMove(int ply, String uci, long now) {
        int side = sideToMove();
        if (!active() || ply() != ply || uci == null || !isComputer(side)) {
            return null;
        }
        return play(side, uci, now);
    }

    /** Plays a legal move of {@code side}: clock, rules, events. A flag fall before it ends the game instead. */
    private Change play(int side, String uci, long now) {
        if (!clock.charge(side, now)) {
            Change c = flag(now);
            throw new FlagFell(c, "the game is over: the " + side(side) + " player ran out of time");
        }
        List<GameEvent> events = new ArrayList<>(3);
        Map<String, Object> entry = playOnBoard(uci, now);
        game.result().ifPresent(this::setResult);
        if (!finished() && clock.timed()) {
            clock.turnStartedAt = now;
        }
        Map<String, Object> e = new LinkedHashMap<>(entry);
        e.put("ply", ply());
        e.put("sideToMove", side(current.sideToMove()));
        e.put("check", current.inCheck());
        e.put("legalMoves", legal);
        e.put("canClaimDraw", drawClaimable());
        e.put("clock", clock.view(active() ? current.sideToMove() : -1, now));
        events.add(new GameEvent("move", ++version, e));
        if (drawOffer == (side ^ 1)) {
            drawOffer = -1; // moving instead of answering declines the offer
            events.add(drawOfferEvent());
        }
        if (takebackOffer >= 0 && !finished()) {
            takebackOffer = -1; // a move withdraws a takeback request (not counted as refused)
            events.add(takebackOfferEvent());
        }
        if (finished()) {
            events.add(statusEvent(now));
        }
        return change(events, uci, now);
    }

    /** Thrown by a move that came after the mover's flag fell: the flag fall is the change to store. */
    static final class FlagFell extends RuntimeException {
        final Change change;

        FlagFell(Change change, String message) {
            super(message, null, false, false);
            this.change = change;
        }
    }

    /** Gives the free seat of a friend game to {@code tokenHash}. */
    Change join(Seat seat, String tokenHash, long now) {
        if (mode != Mode.FRIEND) {
            throw GameError.conflict("only friend games can be joined; this one is " + mode.name().toLowerCase())
                    .coded("joinOnlyFriend");
        }
        if (seat != Seat.NONE) {
            throw GameError.conflict("you already hold the " + seat.json() + " seat of this game")
                    .coded("alreadySeated");
        }
        int free = tokens[0] == null ? 0 : tokens[1] == null ? 1 : -1;
        if (free < 0 || !waiting()) {
            throw GameError.conflict("both seats of this game are taken").coded("seatsTaken");
        }
        tokens[free] = tokenHash;
        status = "active";
        if (clock.timed()) {
            clock.turnStartedAt = now;
        }
        return change(List.of(statusEvent(now)), null, now);
    }

    /** Resigns for the seat (in a hot-seat game: for the side to move). */
    Change resign(Seat seat, long now) {
        requirePlaying();
        int side = actingSide(seat);
        setResult(game.resign(side));
        return change(List.of(statusEvent(now)), null, now);
    }

    /** A draw offer, acceptance or refusal. */
    Change draw(Seat seat, String action, long now) {
        requirePlaying();
        switch (action) {
            case "offer" -> {
                int side = actingSide(seat);
                if (drawOffer == (side ^ 1)) {
                    setResult(game.agreeDraw()); // both want a draw
                    return change(List.of(statusEvent(now)), null, now);
                }
                if (drawOffer == side) {
                    return change(List.of(), null, now);
                }
                drawOffer = side;
                return change(List.of(drawOfferEvent()), null, now);
            }
            case "accept", "decline" -> {
                if (drawOffer < 0) {
                    throw GameError.conflict("action: there is no draw offer to " + action).coded("noDrawOffer");
                }
                int answering = drawOffer ^ 1;
                if (seat == Seat.NONE || !seat.holds(answering)) {
                    throw GameError.forbidden("action: only the " + side(answering) + " player may " + action
                            + " this draw offer").coded("notYourAnswer", "side", side(answering));
                }
                return answerOffer(action.equals("accept"), now);
            }
            default -> throw GameError.invalid("action: must be offer, accept or decline, got '" + action + "'");
        }
    }

    /** The computer's answer to a standing offer made at {@code ply}; null when the game moved on. */
    Change computerAnswer(int ply, boolean accept, long now) {
        if (!active() || ply() != ply || drawOffer < 0 || !isComputer(drawOffer ^ 1)) {
            return null;
        }
        return answerOffer(accept, now);
    }

    private Change answerOffer(boolean accept, long now) {
        if (accept) {
            setResult(game.agreeDraw());
            return change(List.of(statusEvent(now)), null, now);
        }
        drawOffer = -1;
        return change(List.of(drawOfferEvent()), null, now);
    }

    /** A draw claim (repetition, move rule) by the player to move, or the impasse count by either player. */
    Change claim(Seat seat, String kind, long now) {
        requirePlaying();
        Game.Result r;
        switch (kind) {
            case "draw" -> {
                requireSide(seat, sideToMove(), "claim");
                if (!game.canClaimDraw()) {
                    throw GameError.conflict("kind: no draw can be claimed in this position").coded("noDrawClaim");
                }
                r = game.claimDraw();
            }
            case "impasse" -> {
                actingSide(seat);
                try {
                    r = game.impasse();
                } catch (IllegalStateException e) {
                    throw GameError.conflict("kind: " + e.getMessage())
                            .coded(game.bothKingsInZone() ? "impasseRefused" : "impasseKings");
                }
            }
            default -> throw GameError.invalid("kind: must be draw or impasse, got '" + kind + "'");
        }
        setResult(r);
        return change(List.of(statusEvent(now)), null, now);
    }

    /** The side to move ran out of time (its flag time has passed: checked by the caller). */
    Change flag(long now) {
        int side = sideToMove();
        clock.exhaust(side);
        if (mode == Mode.FRIEND && ply() < 2) {
            // between two people, a flag before both sides moved aborts the game (no result, never rated), as on lichess
            resultWinner = NO_RESULT;
            resultTermination = "aborted";
            ended();
        } else {
            setResult(game.flag(side));
        }
        return change(List.of(statusEvent(now)), null, now);
    }

    /**
     * Ends a game nobody plays: a friend game nobody joined, or an active game without a running clock in which
     * nobody acted for a long time. Before both sides moved it is aborted (no result); after, the side to move
     * loses ("abandoned").
     */
    Change abandon(long now) {
        if (finished() || clock.running()) {
            return null;
        }
        if (waiting() || ply() < 2) {
            resultWinner = NO_RESULT;
            resultTermination = "aborted";
        } else {
            resultWinner = sideToMove() ^ 1;
            resultTermination = "abandoned";
        }
        ended();
        return change(List.of(statusEvent(now)), null, now);
    }

    /**
     * After a restart: the running side is not charged the time the server was down. {@code aliveAt} is the last
     * time the server was known to run; the time from then to {@code now} is given back.
     */
    Change resumeClock(long aliveAt, long now) {
        if (!clock.running() || aliveAt <= 0) {
            return null;
        }
        long down = now - Math.max(aliveAt, clock.turnStartedAt);
        if (down <= 0) {
            return null;
        }
        clock.turnStartedAt += down;
        return change(List.of(), null, now);
    }

    // ---- in-game actions: abort, takeback, rematch, chat ----

    /**
     * Either player aborts the game before both sides have moved (fewer than two moves in its list), or the creator
     * of a friend game nobody joined yet: it ends without a result, "aborted".
     */
    Change abort(Seat seat, long now) {
        if (seat == Seat.NONE) {
            throw GameError.forbidden("you hold no seat in this game (no valid koma_" + id + " cookie)")
                    .coded("noSeat");
        }
        if (finished()) {
            throw GameError.conflict("the game is over: " + resultTermination).coded("gameOver");
        }
        if (ply() >= 2) {
            throw GameError.conflict("the game can no longer be aborted: both sides have moved; resign instead")
                    .coded("noAbort");
        }
        resultWinner = NO_RESULT;
        resultTermination = "aborted";
        ended();
        return change(List.of(statusEvent(now)), null, now);
    }

    /**
     * A takeback: {@code offer} asks to take back the asker's last move (and the opponent's reply after it, so that
     * the asker is to move again); the opponent answers {@code accept} or {@code decline}. Against the computer and
     * at one board the takeback is made at once. A side's requests refused {@link #MAX_TAKEBACK_REFUSALS} times
     * are not taken any more in this game (429).
     */
    Change takeback(Seat seat, String action, long now) {
        requirePlaying();
        switch (action) {
            case "offer" -> {
                int side = takebackAsker(seat);
                int n = takebackPlies(side);
                if (n == 0) {
                    throw GameError.conflict("action: the " + side(side) + " player has no move to take back")
                            .coded("noTakebackMove");
                }
                if (mode != Mode.FRIEND) {
                    if (engineBusy) {
                        throw GameError.conflict("action: the computer is thinking; ask again after its move")
                                .coded("computerThinking");
                    }
                    return undo(n, now);
                }
                if (takebackOffer == side) {
                    return change(List.of(), null, now);
                }
                if (takebackOffer == (side ^ 1)) {
                    throw GameError.conflict("action: the " + side(side ^ 1)
                            + " player asked for a takeback; accept or decline it first").coded("takebackPending");
                }
                if (takebacksRefused[side] >= MAX_TAKEBACK_REFUSALS) {
                    throw GameError.tooMany("action: the " + side(side) + " player's takeback requests were refused "
                            + MAX_TAKEBACK_REFUSALS + " times, the limit per game")
                                    .coded("takebackLimit", "n", MAX_TAKEBACK_REFUSALS);
                }
                takebackOffer = side;
                return change(List.of(takebackOfferEvent()), null, now);
            }
            case "accept", "decline" -> {
                if (takebackOffer < 0) {
                    throw GameError.conflict("action: there is no takeback request to " + action)
                            .coded("noTakebackRequest");
                }
                int answering = takebackOffer ^ 1;
                if (seat == Seat.NONE || !seat.holds(answering) || isComputer(answering)) {
                    throw GameError.forbidden("action: only the " + side(answering) + " player may " + action
                            + " this takeback request").coded("notYourAnswer", "side", side(answering));
                }
                int asker = takebackOffer;
                takebackOffer = -1;
                if (action.equals("decline")) {
                    takebacksRefused[asker]++;
                    return change(List.of(takebackOfferEvent()), null, now);
                }
                return undo(takebackPlies(asker), now);
            }
            default -> throw GameError.invalid("action: must be offer, accept or decline, got '" + action + "'");
        }
    }

    /** The side asking for a takeback: the seat's side; at one board the side that made the last move. */
    private int takebackAsker(Seat seat) {
        return switch (seat) {
            case NONE -> throw GameError.forbidden("you hold no seat in this game (no valid koma_" + id + " cookie)")
                    .coded("noSeat");
            case BOTH -> sideToMove() ^ 1;
            case FIRST -> 0;
            case SECOND -> 1;
        };
    }

    /**
     * The moves a takeback for {@code side} undoes: its last move, and the opponent's reply when the opponent has
     * replied (the asker is then to move again); 0 when the side has no move to take back.
     */
    private int takebackPlies(int side) {
        int n = sideToMove() == side ? 2 : 1;
        return n <= ply() ? n : 0;
    }

    /**
     * Takes back the last {@code n} moves: the rules core's game (position, repetition counts), the move log (old
     * snapshots keep theirs), the clock (the side to move is charged its time so far, without increment, and the
     * new side to move's time starts), the offers; one {@code takeback} event with what a client needs.
     */
    private Change undo(int n, long now) {
        int mover = sideToMove();
        if (clock.running() && !clock.chargeWithoutIncrement(mover, now)) {
            Change c = flag(now);
            throw new FlagFell(c, "the game is over: the " + side(mover) + " player ran out of time");
        }
        for (int i = 0; i < n; i++) {
            game.undo();
        }
        int ply = ply() - n;
        history.truncate(ply);
        current = game.position();
        legal = legalOf(current);
        if (ply == 0) {
            previousTo = -1;
        } else {
            Position before = ply >= 2 ? Fen.parse(rules, (String) history.get(ply - 2).get("fen")) : start.copy();
            previousTo = Move.to(MoveNotation.parseUci(before, (String) history.get(ply - 1).get("move")));
        }
        drawOffer = -1;
        takebackOffer = -1;
        if (clock.timed()) {
            clock.turnStartedAt = now;
        }
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("ply", ply);
        e.put("fen", Fen.format(current));
        e.put("sideToMove", side(current.sideToMove()));
        e.put("check", current.inCheck());
        e.put("lastMove", ply == 0 ? null : history.get(ply - 1).get("move"));
        e.put("legalMoves", legal);
        e.put("canClaimDraw", drawClaimable());
        e.put("clock", clock.view(current.sideToMove(), now));
        e.put("drawOffer", null);
        e.put("takebackOffer", null);
        updatedAt = now;
        touchedAt = now;
        List<GameEvent> events = List.of(new GameEvent("takeback", ++version, e));
        snapshot = snap();
        return new Change(this, events, snapshot, null, ply, now, ply, null);
    }

    /** True when {@code action} by the seat starts the rematch: an accept, or an offer while the other's stands. */
    boolean rematchStarts(Seat seat, String action) {
        int side = seat == Seat.FIRST ? 0 : seat == Seat.SECOND ? 1 : -1;
        return side >= 0 && rematchOffer == (side ^ 1) && rematchId == null && finished()
                && (action.equals("accept") || action.equals("offer"));
    }

    /**
     * A rematch offer or its refusal, in a finished friend game that both players sat in. The acceptance, which
     * creates the new game, is {@link #rematchAgreed} (checked with {@link #rematchStarts} first). One rematch per
     * game; after a refusal no more offers.
     */
    Change rematch(Seat seat, String action, long now) {
        int side = rematchSide(seat);
        switch (action) {
            case "offer" -> {
                if (rematchOffer == GameSnapshot.Actions.REMATCH_DECLINED) {
                    throw GameError.conflict("action: a rematch was declined in this game").coded("rematchDeclined");
                }
                if (rematchOffer == side) {
                    return change(List.of(), null, now);
                }
                rematchOffer = side;
                return quietChange(List.of(rematchEvent("rematchOffer")), now);
            }
            case "accept", "decline" -> {
                if (rematchOffer != (side ^ 1)) {
                    throw GameError.conflict("action: there is no rematch offer of the " + side(side ^ 1)
                            + " player to " + action).coded("noRematchOffer");
                }
                if (action.equals("accept")) {
                    throw new IllegalStateException("an accepted rematch is made by rematchAgreed");
                }
                rematchOffer = GameSnapshot.Actions.REMATCH_DECLINED;
                return quietChange(List.of(rematchEvent("rematchOffer")), now);
            }
            default -> throw GameError.invalid("action: must be offer, accept or decline, got '" + action + "'");
        }
    }

    /** The side of a seat that may act on a rematch: a finished friend game, both seats taken, none agreed yet. */
    private int rematchSide(Seat seat) {
        if (mode != Mode.FRIEND) {
            throw GameError.conflict("action: only friend games have rematches; start a new game with the same settings")
                    .coded("rematchOnlyFriend");
        }
        if (seat != Seat.FIRST && seat != Seat.SECOND) {
            throw GameError.forbidden("you hold no seat in this game (no valid koma_" + id + " cookie)")
                    .coded("noSeat");
        }
        if (!finished()) {
            throw GameError.conflict("action: the game is not over yet").coded("notOver");
        }
        if (tokens[0] == null || tokens[1] == null) {
            throw GameError.conflict("action: nobody joined this game; there is nobody to play a rematch with")
                    .coded("nobodyJoined");
        }
        if (rematchId != null) {
            throw GameError.conflict("action: the rematch of this game is game " + rematchId).coded("rematchExists");
        }
        return seat == Seat.FIRST ? 0 : 1;
    }

    /**
     * The rematch was agreed ({@link #rematchStarts} held): the new game's id is recorded and announced. The new game
     * itself is {@link #rematchGame}, made and stored by the caller before this change.
     */
    Change rematchAgreed(Seat seat, String newId, long now) {
        rematchSide(seat);
        rematchOffer = -1;
        rematchId = newId;
        return quietChange(List.of(rematchEvent("rematch")), now);
    }

    /** The rematch of this game: same rule set, mode, start position and clock, the seats' colours swapped. */
    LiveGame rematchGame(String newId, String creator, long now) {
        LiveGame g = new LiveGame(newId, rules, mode, start, new Clock(clock.type, clock.initialMs, clock.incrementMs,
                clock.byoyomiMs, clock.periods), now, creator);
        g.players[0] = g.players[1] = "human";
        g.tokens[0] = tokens[1];
        g.tokens[1] = tokens[0];
        // the accounts swap sides too, each with its rating after this game when it was rated
        int[] diffs = ratingDiffs;
        for (int side = 0; side < 2; side++) {
            PlayerAccount a = accounts[side ^ 1];
            g.accounts[side] = a == null || diffs == null ? a
                    : new PlayerAccount(a.userId(), a.name(), a.rating() + diffs[side ^ 1], a.provisional(), a.bot());
        }
        g.rated = rated;
        g.status = "active";
        if (g.clock.timed()) {
            g.clock.turnStartedAt = now;
        }
        g.snapshot = g.snap();
        return g;
    }

    /** The rematch game's id once agreed, else null. */
    String rematchId() {
        return rematchId;
    }

    /**
     * A chat message: a seat's goes to the players' room, anyone else's to the spectators' room; each room is shown
     * only to its own (the feed sends the other room's events as {@code skip}). {@code senderKey} identifies a
     * spectator for the rate limit (the client key). The text is trimmed, 1 to {@link #CHAT_MAX_LENGTH} characters,
     * without control characters; at most {@link #CHAT_PER_SENDER} messages per sender and {@link #CHAT_PER_ROOM}
     * per room in {@link #CHAT_WINDOW_MS}.
     */
    Change chat(Seat seat, String senderKey, String text, long now) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            throw GameError.invalid("text: empty; write 1 to " + CHAT_MAX_LENGTH + " characters")
                    .coded("chatEmpty", "max", CHAT_MAX_LENGTH);
        }
        int length = t.codePointCount(0, t.length());
        if (length > CHAT_MAX_LENGTH) {
            throw GameError.invalid("text: " + length + " characters, over the limit of " + CHAT_MAX_LENGTH)
                    .coded("chatTooLong", "length", length, "max", CHAT_MAX_LENGTH);
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                throw GameError.invalid("text: control characters (such as line breaks) are not allowed")
                        .coded("chatControl");
            }
        }
        boolean players = seat != Seat.NONE;
        String room = players ? "players" : "spectators";
        String sender = players ? seat.json() : "spectator";
        long[] bySender = rateLimit("sender:" + (players ? seat.json() : senderKey), CHAT_PER_SENDER, now, "you sent");
        long[] byRoom = rateLimit("room:" + room, CHAT_PER_ROOM, now, "the " + room + "' room had");
        // counted only once both limits let the message through
        bySender[oldest(bySender)] = now;
        byRoom[oldest(byRoom)] = now;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("room", room);
        m.put("from", sender);
        m.put("text", t);
        m.put("at", now);
        Map<String, Object> msg = Collections.unmodifiableMap(m);
        List<Map<String, Object>> old = players ? playersChat : spectatorsChat;
        List<Map<String, Object>> next = new ArrayList<>(Math.min(old.size() + 1, CHAT_HISTORY));
        next.addAll(old.size() >= CHAT_HISTORY ? old.subList(old.size() - CHAT_HISTORY + 1, old.size()) : old);
        next.add(msg);
        if (players) {
            playersChat = List.copyOf(next);
        } else {
            spectatorsChat = List.copyOf(next);
        }
        GameEvent e = new GameEvent("chat", ++version, m, players ? GameEvent.Audience.SEATS : GameEvent.Audience.SPECTATORS);
        touchedAt = now;
        snapshot = snap();
        return new Change(this, List.of(e), snapshot, null, ply(), now, -1,
                new ChatLine(e.version, room, sender, t, now));
    }

    /**
     * The recent message times of a sender or room (the last {@code max}, a ring); 429 with the seconds to wait when
     * {@code max} messages were sent within the window.
     */
    private long[] rateLimit(String key, int max, long now, String who) {
        long[] times = chatTimes.get(key);
        if (times == null) {
            times = new long[max];
            chatTimes.put(key, times);
        }
        long first = times[oldest(times)];
        if (first > 0 && now - first < CHAT_WINDOW_MS) {
            long wait = (CHAT_WINDOW_MS - (now - first) + 999) / 1000;
            throw new GameError(GameError.Kind.TOO_MANY, "text: " + who + " " + max + " messages in "
                    + CHAT_WINDOW_MS / 1000 + " s, the limit; wait " + wait + " s", wait)
                            .coded("chatRate", "wait", wait);
        }
        return times;
    }

    /** The index of the oldest time in a ring of message times. */
    private static int oldest(long[] times) {
        int oldest = 0;
        for (int i = 1; i < times.length; i++) {
            if (times[i] < times[oldest]) {
                oldest = i;
            }
        }
        return oldest;
    }

    private GameEvent takebackOfferEvent() {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("takebackOffer", side(takebackOffer));
        return new GameEvent("takebackOffer", ++version, e);
    }

    private GameEvent rematchEvent(String type) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("rematch", rematchView());
        return new GameEvent(type, ++version, e);
    }

    /** The rematch object as the game JSON shows it ({@link GameView#rematch}). */
    private Map<String, Object> rematchView() {
        return GameView.rematch(actions(), mode, finished(), tokens[0] != null && tokens[1] != null);
    }

    /** A change that is no play (a rematch offer): the game's idle time does not start again. */
    private Change quietChange(List<GameEvent> events, long now) {
        touchedAt = now;
        snapshot = snap();
        return new Change(this, events, snapshot, null, ply(), now);
    }

    // ---- internals ----

    private void requirePlaying() {
        if (finished()) {
            throw GameError.conflict("the game is over: " + resultTermination).coded("gameOver");
        }
        if (!active()) {
            throw GameError.conflict("the game has not started: it waits for the second player to join")
                    .coded("notStarted");
        }
    }

    private void requireSide(Seat seat, int side, String what) {
        if (seat == Seat.NONE) {
            throw GameError.forbidden("you hold no seat in this game (no valid koma_" + id + " cookie)")
                    .coded("noSeat");
        }
        if (isComputer(side)) {
            throw GameError.forbidden("the " + side(side) + " side is played by the computer")
                    .coded("computerSide", "side", side(side));
        }
        if (!seat.holds(side)) {
            throw GameError.forbidden("not your turn: you hold the " + seat.json() + " seat and it is the "
                    + side(side) + " player's " + what).coded("notYourTurn");
        }
    }

    private int actingSide(Seat seat) {
        return switch (seat) {
            case NONE -> throw GameError.forbidden("you hold no seat in this game (no valid koma_" + id + " cookie)")
                    .coded("noSeat");
            case BOTH -> sideToMove();
            case FIRST -> 0;
            case SECOND -> 1;
        };
    }

    /** Plays a UCI move (already validated) on the rules core's game and records its history entry and time. */
    private Map<String, Object> playOnBoard(String uci, long playedAt) {
        Position before = current;
        int m = MoveNotation.parseUci(before, uci);
        Map<String, Object> e = moveEntry(before, m, uci, previousTo);
        game.play(m);
        current = game.position();
        e.put("fen", Fen.format(current));
        previousTo = Move.to(m);
        Map<String, Object> entry = Collections.unmodifiableMap(e);
        history.add(entry, playedAt);
        legal = game.isOver() ? List.of() : legalOf(current);
        return entry;
    }

    /**
     * A move's entry in a move list, before its position is added ({@code fen}): the move string and its readable
     * texts (SAN, or Western and Japanese for the shogi family); {@code previousTo} is the square the move before
     * went to (Japanese "同"), -1 for none.
     */
    static Map<String, Object> moveEntry(Position before, int m, String uci, int previousTo) {
        RuleSet rules = before.ruleSet();
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("move", uci);
        e.put("san", Pgn.usesSan(rules) ? San.format(before, m) : null);
        e.put("western", Pgn.usesSan(rules) ? null : ShogiNotation.western(before, m));
        e.put("japanese", ShogiNotation.hasJapanese(rules) ? ShogiNotation.japanese(before, m, previousTo) : null);
        return e;
    }

    static List<String> legalOf(Position p) {
        int[] ms = p.legalMoves();
        String[] out = new String[ms.length];
        for (int i = 0; i < ms.length; i++) {
            out[i] = MoveNotation.formatUci(p, ms[i]);
        }
        return List.of(out);
    }

    private void setResult(Game.Result r) {
        resultWinner = r.winner();
        resultTermination = r.termination().name().toLowerCase().replace('_', ' ');
        ended();
    }

    private void ended() {
        status = "finished";
        drawOffer = -1;
        takebackOffer = -1;
        clock.turnStartedAt = 0;
        legal = List.of();
    }

    private GameEvent drawOfferEvent() {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("drawOffer", side(drawOffer));
        return new GameEvent("drawOffer", ++version, e);
    }

    private GameEvent statusEvent(long now) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("status", status);
        e.put("result", GameView.result(resultWinner, resultTermination));
        e.put("clock", clock.view(active() ? current.sideToMove() : -1, now));
        e.put("drawOffer", side(drawOffer));
        e.put("legalMoves", legal);
        e.put("takebackOffer", side(takebackOffer));
        e.put("rematch", rematchView());
        return new GameEvent("status", ++version, e);
    }

    private Change change(List<GameEvent> events, String move, long now) {
        updatedAt = now;
        touchedAt = now;
        snapshot = snap();
        return new Change(this, events, snapshot, move, ply(), now);
    }

    private GameSnapshot snap() {
        return new GameSnapshot(id, rules, mode, status, initialFen, start, List.of(players[0], players[1]),
                Arrays.asList(tokens.clone()), clock.copy(), current, legal, history.view(), history.timesView(),
                drawOffer, resultWinner, resultTermination, version, createdAt, updatedAt, actions(),
                Arrays.asList(accounts.clone()), rated, drawClaimable());
    }

    /** True when the player to move may claim a draw now (repetition, move rule): the page offers the claim then. */
    private boolean drawClaimable() {
        return active() && game.canClaimDraw();
    }

    private GameSnapshot.Actions actions() {
        return new GameSnapshot.Actions(takebackOffer, takebacksRefused[0], takebacksRefused[1], rematchOffer,
                rematchId, playersChat, spectatorsChat);
    }

    static String side(int s) {
        return s == 0 ? "first" : s == 1 ? "second" : null;
    }

    /**
     * An append-only list of history entries and their times whose views are immutable and cost nothing to take:
     * a view is the backing array and the size when it was taken; entries below that size are never written again,
     * and growth copies to a new array.
     */
    private static final class MoveLog {
        private Object[] items = new Object[64];
        private long[] times = new long[64];
        private int size;

        void add(Map<String, Object> e, long playedAt) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
                times = Arrays.copyOf(times, size * 2);
            }
            times[size] = playedAt;
            items[size++] = e;
        }

        /** The epoch ms each move was played at, as a view like {@link #view}. */
        List<Long> timesView() {
            long[] a = times;
            int n = size;
            return new AbstractList<>() {
                @Override
                public Long get(int i) {
                    if (i < 0 || i >= n) {
                        throw new IndexOutOfBoundsException(i);
                    }
                    return a[i];
                }

                @Override
                public int size() {
                    return n;
                }
            };
        }

        int size() {
            return size;
        }

        /**
         * Keeps the first {@code n} entries (a takeback). Views already taken keep the old arrays, whose entries
         * are never written again: the log moves to fresh copies.
         */
        void truncate(int n) {
            items = Arrays.copyOf(items, items.length);
            times = Arrays.copyOf(times, times.length);
            Arrays.fill(items, n, size, null);
            size = n;
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> get(int i) {
            return (Map<String, Object>) items[i];
        }

        List<Map<String, Object>> view() {
            Object[] a = items;
            int n = size;
            return new AbstractList<>() {
                @SuppressWarnings("unchecked")
                @Override
                public Map<String, Object> get(int i) {
                    if (i < 0 || i >= n) {
                        throw new IndexOutOfBoundsException(i);
                    }
                    return (Map<String, Object>) a[i];
                }

                @Override
                public int size() {
                    return n;
                }
            };
        }
    }
}
