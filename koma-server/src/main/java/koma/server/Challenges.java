package koma.server;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.BiConsumer;

import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * Direct challenges between accounts (lichess's {@code POST /api/challenge/{username}}): one account proposes a
 * rule set, a clock, rated or casual and a colour to another, who accepts (the game starts with both accounts
 * seated), declines or lets it expire; the challenger may cancel. Every change is told to both accounts' event
 * streams through {@code notify}. Guarded by this object's monitor; bounded (constants below).
 */
final class Challenges {
    /** Open challenges one account may have made, and in all. */
    static final int PER_USER = 20, MAX = 5_000;
    /** An open challenge nobody answered expires after this, ms. */
    static final long EXPIRE_MS = 20 * 60_000;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ID_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";

    /**
     * What a challenge asks for: the clock in seconds (limit + increment, or limit then byoyomi; limit -1 for none),
     * or days per move (correspondence, 0 for none), rated, colour.
     */
    record Terms(RuleSet rules, long limitS, long incrementS, long byoyomiS, int periods, boolean rated, String color,
                 int days) {
        Clock clock() {
            if (days > 0) {
                return new Clock(Clock.Type.CORRESPONDENCE, days * Clock.DAY_MS, 0, 0, 0);
            }
            if (limitS < 0) {
                return Clock.none();
            }
            return byoyomiS > 0 ? new Clock(Clock.Type.BYOYOMI, limitS * 1000, 0, byoyomiS * 1000, Math.max(1, periods))
                    : new Clock(Clock.Type.FISCHER, limitS * 1000, incrementS * 1000, 0, 0);
        }
    }

    /** One challenge; {@code status}: created, accepted, declined, canceled, expired. */
    static final class Challenge {
        final String id;
        final Accounts.User challenger, dest;
        final Terms terms;
        final long createdAt;
        /** The challenger's side once accepted (first or second), the game made. */
        String status = "created", declineReason, gameId;
        int challengerSide = -1;

        Challenge(String id, Accounts.User challenger, Accounts.User dest, Terms terms, long createdAt) {
            this.id = id;
            this.challenger = challenger;
            this.dest = dest;
            this.terms = terms;
            this.createdAt = createdAt;
        }
    }

    private final GameService games;
    private final Accounts accounts;
    /** Told of every change: (the challenge, the event type: challenge, challengeCanceled, challengeDeclined). */
    private final BiConsumer<Challenge, String> notify;
    private final LinkedHashMap<String, Challenge> open = new LinkedHashMap<>();

    Challenges(GameService games, Accounts accounts, BiConsumer<Challenge, String> notify) {
        this.games = games;
        this.accounts = accounts;
        this.notify = notify;
    }

    /** A new challenge from {@code from} to the account named {@code destName}. */
    Challenge create(Accounts.User from, String destName, Terms terms) {
        Accounts.User dest = accounts.byName(destName);
        if (dest == null) {
            throw GameError.notFound("no player named '" + destName + "'");
        }
        if (dest.id().equals(from.id())) {
            throw GameError.invalid("username: you cannot challenge yourself");
        }
        Challenge c;
        synchronized (this) {
            expire(System.currentTimeMillis());
            long mine = open.values().stream().filter(x -> x.challenger.id().equals(from.id())).count();
            if (mine >= PER_USER) {
                throw GameError.tooMany("challenges: " + PER_USER + " open challenges per account at most");
            }
            if (open.size() >= MAX) {
                throw new GameError(GameError.Kind.UNAVAILABLE, "challenges: the server holds " + MAX + ", its limit", 10);
            }
            c = new Challenge(prefix == null ? newId() : prefix + "." + newId(), from, dest, terms,
                    System.currentTimeMillis());
            open.put(c.id, c);
        }
        notify.accept(c, "challenge");
        return c;
    }

    /** The open challenge with this id, or a refusal. */
    synchronized Challenge get(String id) {
        expire(System.currentTimeMillis());
        Challenge c = open.get(id);
        if (c == null) {
            throw GameError.notFound("no open challenge with id '" + id + "'");
        }
        return c;
    }

    /** The open challenges to or from an account (for a new event stream). */
    synchronized List<Challenge> of(String userId) {
        expire(System.currentTimeMillis());
        List<Challenge> out = new ArrayList<>();
        for (Challenge c : open.values()) {
            if (c.challenger.id().equals(userId) || c.dest.id().equals(userId)) {
                out.add(c);
            }
        }
        return out;
    }

    /** The challenged account accepts: the game is made with both accounts seated; returns its id. */
    String accept(Accounts.User by, String id) {
        Challenge c;
        synchronized (this) {
            c = get(id);
            if (!c.dest.id().equals(by.id())) {
                throw GameError.forbidden("challenge: only " + c.dest.name() + " can accept it");
            }
            open.remove(id);
        }
        RuleSet rules = c.terms.rules();
        int side = switch (c.terms.color()) {
            case "white", "first" -> 0;
            case "black", "second" -> 1;
            default -> RANDOM.nextInt(2);
        };
        PlayerAccount challenger = accounts.seat(c.challenger, rules.id), dest = accounts.seat(c.dest, rules.id);
        GameService.Paired p = games.pair(new GameService.NewGame(rules, LiveGame.Mode.FRIEND, "first", 0,
                c.terms.clock(), Position.start(rules), List.of()), side == 0 ? challenger : dest,
                side == 0 ? dest : challenger, c.terms.rated());
        p.committed().join();
        c.status = "accepted";
        c.challengerSide = side;
        c.gameId = p.game().id;
        return c.gameId;
    }

    /** The challenged account declines, with a reason (lichess's keys: generic, later, tooFast, ...). */
    void decline(Accounts.User by, String id, String reason) {
        Challenge c;
        synchronized (this) {
            c = get(id);
            if (!c.dest.id().equals(by.id())) {
                throw GameError.forbidden("challenge: only " + c.dest.name() + " can decline it");
            }
            open.remove(id);
            c.status = "declined";
            c.declineReason = reason == null || reason.isBlank() ? "generic" : reason;
        }
        notify.accept(c, "challengeDeclined");
    }

    /** The challenger takes the challenge back. */
    void cancel(Accounts.User by, String id) {
        Challenge c;
        synchronized (this) {
            c = get(id);
            if (!c.challenger.id().equals(by.id())) {
                throw GameError.forbidden("challenge: only " + c.challenger.name() + " can cancel it");
            }
            open.remove(id);
            c.status = "canceled";
        }
        notify.accept(c, "challengeCanceled");
    }

    private void expire(long now) {
        for (Iterator<Challenge> it = open.values().iterator(); it.hasNext(); ) {
            Challenge c = it.next();
            if (now - c.createdAt > EXPIRE_MS) {
                it.remove();
                c.status = "canceled";
                notify.accept(c, "challengeCanceled");
            } else {
                break; // in creation order: the rest are younger
            }
        }
    }

    /** Several nodes: this node's id, which starts every challenge id made here (the answers are sent here). */
    private volatile String prefix;

    void prefixIds(String nodeId) {
        prefix = nodeId;
    }

    private static String newId() {
        StringBuilder sb = new StringBuilder(8);
        for (int i = 0; i < 8; i++) {
            sb.append(ID_ALPHABET.charAt(RANDOM.nextInt(ID_ALPHABET.length())));
        }
        return sb.toString();
    }

    /** Open challenges (for tests and monitoring). */
    synchronized int size() {
        return open.size();
    }
}
