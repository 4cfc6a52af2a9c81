package koma.server;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.websocket.WsContext;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * The lobby (docs/server-api.md, "Lobby"): who is here (a WebSocket per page, {@code /ws/lobby}), the open seeks,
 * the quick-pairing pool, and the games being played now. A seek belongs to the lobby connection that made it and
 * vanishes when that connection closes. Accepting a seek, or two compatible pool entries meeting, creates a game
 * with both seats taken ({@link GameService#pair}); the seeker's page learns it from its connection ({@code paired})
 * and takes its seat with {@link #takeSeat}. All state is guarded by this object's monitor; every collection is
 * bounded (the constants below, documented in the API's Limits table).
 */
final class Lobby implements AutoCloseable {
    /** Lobby connections in all, per client, messages unread per connection. */
    static final int MAX_MEMBERS = 5_000, MEMBERS_PER_CLIENT = 8, QUEUE = 64;
    /** Open seeks per connection and in all. */
    static final int SEEKS_PER_MEMBER = 3, MAX_SEEKS = 1_000;
    /** Games listed as being played now. */
    static final int GAMES_SHOWN = 20;
    /** How often the games-now list and the online count are sent when they changed, ms. */
    static final long BROADCAST_MS = 2_000;
    /** How long a paired seeker has to take its seat, ms. */
    static final long SEAT_MS = 120_000;
    /** The clocks offered for quick pairing: minutes+increment seconds (Fischer) or minutes|byoyomi seconds. */
    static final List<String> POOL_CLOCKS = List.of("1+0", "3+2", "5+3", "10+5", "15+10", "30+20", "10|30", "30|60");
    private static final Pattern CLOCK = Pattern.compile("(\\d{1,3})([+|])(\\d{1,3})");
    private static final Pattern DAYS = Pattern.compile("(\\d{1,2})d");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** One lobby connection: its secret id (sri), its client key and account, its seeks and pool entry. */
    static final class Member {
        final String sri;
        final Outbox out;
        final String client;
        final Accounts.User user;
        final Set<String> seeks = new LinkedHashSet<>();
        PoolEntry pool;

        Member(String sri, Outbox out, String client, Accounts.User user) {
            this.sri = sri;
            this.out = out;
            this.client = client;
            this.user = user;
        }
    }

    /** An open seek as the lobby lists it; {@code color} is the seeker's side: first, second or random. */
    record Seek(String id, String sri, String userId, String name, Integer rating, boolean provisional, String variant,
                String clock, boolean rated, String color, long createdAt) {
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            m.put("variant", variant);
            m.put("clock", clock);
            m.put("rated", rated);
            m.put("color", color);
            m.put("name", name);
            m.put("rating", rating);
            m.put("provisional", provisional);
            return m;
        }
    }

    /** A player waiting in the quick-pairing pool: the rule sets and clocks they would play. */
    record PoolEntry(String id, Member member, List<String> variants, List<String> clocks, boolean rated, long since) {
        /** The entry as the other nodes hear it (several nodes): who waits for which games. */
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", id);
            m.put("variants", variants);
            m.put("clocks", clocks);
            m.put("rated", rated);
            m.put("userId", member.user == null ? null : member.user.id());
            m.put("name", member.user == null ? null : member.user.name());
            m.put("client", member.client);
            return m;
        }
    }

    /**
     * Several nodes: how this node takes a pool entry of another node for one of its players (the entry's node
     * pairs them, or says the entry is gone); given by the web layer, which knows the other nodes.
     */
    interface PoolTaker {
        /** The game and the seat token for this node's player, or null when the entry is no longer there. */
        Pairing take(String node, String entryId, String variant, String clock, Accounts.User user, String client);
    }

    /** A game made in the lobby, for a member: its id and the seat token the member takes. */
    record Pairing(String gameId, String token) {
    }

    private final ObjectMapper json;
    private final GameService games;
    private final Accounts accounts;
    private final Feed feed;
    private final Map<WsContext, Member> byCtx = new ConcurrentHashMap<>();
    private final Map<String, Member> bySri = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perClient = new ConcurrentHashMap<>();
    private final LinkedHashMap<String, Seek> seeks = new LinkedHashMap<>();
    private final List<PoolEntry> pool = new ArrayList<>();
    /** sri + ":" + game id → the seat token waiting to be taken, and when it expires. */
    private final Map<String, Object[]> seats = new LinkedHashMap<>();
    private final ScheduledExecutorService timer;
    private String lastGames = "", lastOnline = "";
    /** Several nodes: the relay to the others and this node's id (prefixing its sri and seek ids); null when alone. */
    private volatile Relay relay;
    private volatile String nodeId;

    /** Another node's lobby as it last said: its seeks (as listed), online count and games being played. */
    private record NodeState(List<Map<String, Object>> seeks, int online, List<Map<String, Object>> games,
                             List<Map<String, Object>> pool, long heardAt) {
    }

    private volatile PoolTaker poolTaker;

    /** Several nodes: pairing with the players waiting in other nodes' pools goes through {@code t}. */
    void pairAcrossNodes(PoolTaker t) {
        poolTaker = t;
    }

    /** The other nodes' lobbies, by node id; a node not heard for {@link #NODE_SILENCE_MS} is dropped. */
    private final Map<String, NodeState> others = new ConcurrentHashMap<>();
    /** A node's lobby state is forgotten (its seeks vanish) after this long without word from it, ms. */
    static final long NODE_SILENCE_MS = 3 * BROADCAST_MS;

    Lobby(ObjectMapper json, GameService games, Accounts accounts, Feed feed) {
        this.json = json;
        this.games = games;
        this.accounts = accounts;
        this.feed = feed;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "koma-lobby");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::broadcastNow, BROADCAST_MS, BROADCAST_MS, TimeUnit.MILLISECONDS);
    }

    // ---- several nodes ----

    /**
     * Several nodes: this node's seeks, online count and games now go to the others over {@code r} (at each change
     * of its seeks and every {@link #BROADCAST_MS}), and theirs are listed here; lobby connection and seek ids start
     * with {@code node} and a dot, so that any node can send a request about them to the node that holds them.
     */
    void useRelay(Relay r, String node) {
        this.nodeId = node;
        this.relay = r;
    }

    /** The node holding a lobby connection or seek, from its id's prefix (null when alone or without one). */
    static String nodeOf(String id) {
        int dot = id == null ? -1 : id.indexOf('.');
        return dot <= 0 ? null : id.substring(0, dot);
    }

    /** Tells the other nodes this node's lobby. */
    private void publishState() {
        Relay r = relay;
        if (r == null) {
            return;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", nodeId);
        synchronized (this) {
            m.put("seeks", seeks.values().stream().map(Seek::json).toList());
        }
        m.put("online", localOnline());
        m.put("games", localGamesNow());
        synchronized (this) {
            m.put("pool", pool.stream().map(PoolEntry::json).toList());
        }
        r.publishLobby(write(m));
    }

    /** Another node's lobby, heard over the relay: its seeks that came or went are told to this node's members. */
    @SuppressWarnings("unchecked")
    void heard(com.fasterxml.jackson.databind.JsonNode message) {
        String node = message.path("node").asText("");
        if (node.isEmpty() || node.equals(nodeId)) {
            return;
        }
        List<Map<String, Object>> list = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode seek : message.path("seeks")) {
            if (list.size() < MAX_SEEKS) {
                list.add(json.convertValue(seek, Map.class));
            }
        }
        List<Map<String, Object>> games = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode g : message.path("games")) {
            if (games.size() < GAMES_SHOWN) {
                games.add(json.convertValue(g, Map.class));
            }
        }
        List<Map<String, Object>> waiting = new ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode e : message.path("pool")) {
            if (waiting.size() < MAX_MEMBERS) {
                waiting.add(json.convertValue(e, Map.class));
            }
        }
        synchronized (this) {
            NodeState before = others.put(node, new NodeState(list, message.path("online").asInt(0), games, waiting,
                    System.currentTimeMillis()));
            announce(before == null ? List.of() : before.seeks(), list);
        }
    }

    /** Tells the members which seeks of another node came and went between two of its lists. Monitor held. */
    private void announce(List<Map<String, Object>> before, List<Map<String, Object>> after) {
        Set<Object> was = new HashSet<>(), is = new HashSet<>();
        before.forEach(x -> was.add(x.get("id")));
        after.forEach(x -> is.add(x.get("id")));
        for (Map<String, Object> x : before) {
            if (!is.contains(x.get("id"))) {
                broadcast(Map.of("type", "seekRemoved", "id", x.get("id")));
            }
        }
        for (Map<String, Object> x : after) {
            if (!was.contains(x.get("id"))) {
                broadcast(Map.of("type", "seekAdded", "seek", x));
            }
        }
    }

    /** Forgets the nodes not heard from for a while: their seeks vanish (a dead node's seeks with it). */
    private synchronized void dropSilentNodes() {
        long now = System.currentTimeMillis();
        others.entrySet().removeIf(e -> {
            if (e.getValue().heardAt() < now - NODE_SILENCE_MS) {
                announce(e.getValue().seeks(), List.of());
                return true;
            }
            return false;
        });
    }

    /** This node's seeks then the other nodes'. Monitor held. */
    private List<Map<String, Object>> allSeeks() {
        List<Map<String, Object>> out = new ArrayList<>(seeks.values().stream().map(Seek::json).toList());
        for (NodeState n : others.values()) {
            out.addAll(n.seeks());
        }
        return out;
    }

    // ---- connections ----

    /** Null when a client may open another lobby connection, else why not. */
    String refusal(String client) {
        AtomicInteger n = perClient.get(client);
        if (n != null && n.get() >= MEMBERS_PER_CLIENT) {
            return "lobby: " + MEMBERS_PER_CLIENT + " connections from one client at most";
        }
        if (byCtx.size() >= MAX_MEMBERS) {
            return "lobby: the server holds " + MAX_MEMBERS + " lobby connections, its limit";
        }
        return null;
    }

    /** A new lobby connection: sent its sri, the seeks, the games being played and the online count. */
    void connect(WsContext ctx, String client, Accounts.User user) {
        AtomicInteger n = perClient.computeIfAbsent(client, k -> new AtomicInteger());
        if (n.incrementAndGet() > MEMBERS_PER_CLIENT || byCtx.size() >= MAX_MEMBERS) {
            if (n.decrementAndGet() <= 0) {
                perClient.remove(client, n);
            }
            ctx.closeSession(Feed.TOO_MANY, "too many connections");
            return;
        }
        Member m = new Member(prefixed(newSri()), new Outbox(ctx, QUEUE), client, user);
        byCtx.put(ctx, m);
        bySri.put(m.sri, m);
        Map<String, Object> hello = new LinkedHashMap<>();
        hello.put("type", "hello");
        hello.put("sri", m.sri);
        hello.put("you", user == null ? null : user.name());
        synchronized (this) {
            hello.put("seeks", allSeeks());
            if (!lastGames.isEmpty()) {
                hello.put("games", gamesNow());
            }
            hello.put("online", online());
            hello.put("poolClocks", POOL_CLOCKS);
            m.out.send(write(hello));
        }
    }

    /** A lobby connection closed: its seeks and pool entry go. */
    void disconnect(WsContext ctx) {
        Member m = byCtx.remove(ctx);
        if (m == null) {
            return;
        }
        m.out.close();
        bySri.remove(m.sri, m);
        AtomicInteger n = perClient.get(m.client);
        if (n != null && n.decrementAndGet() <= 0) {
            perClient.remove(m.client, n);
        }
        synchronized (this) {
            for (String id : new ArrayList<>(m.seeks)) {
                removeSeek(id);
            }
            if (m.pool != null) {
                pool.remove(m.pool);
                m.pool = null;
            }
        }
    }

    private Member member(String sri) {
        Member m = sri == null ? null : bySri.get(sri);
        if (m == null || m.out.closed()) {
            throw GameError.conflict("sri: no open lobby connection with this id; reload the lobby")
                    .coded("lobbyStale");
        }
        return m;
    }

    // ---- seeks ----

    /** Posts a seek for the lobby connection {@code sri}; rated seeks need an account. */
    synchronized Seek seek(String sri, Accounts.User user, String variant, String clock, boolean rated, String color) {
        Member m = member(sri);
        requireSameAccount(m, user);
        RuleSet rules = ruleSet(variant);
        parseClock(clock);
        if (!List.of("first", "second", "random").contains(color)) {
            throw GameError.invalid("color: must be first, second or random, got '" + color + "'");
        }
        if (rated && user == null) {
            throw GameError.forbidden("rated: sign in to post a rated seek").coded("ratedSignIn");
        }
        if (m.seeks.size() >= SEEKS_PER_MEMBER) {
            throw GameError.tooMany("seeks: " + SEEKS_PER_MEMBER + " open seeks per player at most; cancel one first")
                    .coded("tooManySeeks", "n", SEEKS_PER_MEMBER);
        }
        if (seeks.size() >= MAX_SEEKS) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "seeks: the lobby holds " + MAX_SEEKS + " seeks, its limit", 10)
                    .coded("lobbyFull");
        }
        PlayerAccount a = user == null ? null : accounts.seat(user, rules.id);
        Seek s = new Seek(prefixed(newId()), m.sri, user == null ? null : user.id(), a == null ? null : a.name(),
                a == null ? null : a.rating(), a != null && a.provisional(), rules.id, clock, rated, color,
                System.currentTimeMillis());
        seeks.put(s.id(), s);
        m.seeks.add(s.id());
        broadcast(Map.of("type", "seekAdded", "seek", s.json()));
        publishState();
        return s;
    }

    /** Cancels one of the connection's seeks. */
    synchronized void cancel(String sri, String seekId) {
        Member m = member(sri);
        if (!m.seeks.contains(seekId)) {
            throw GameError.notFound("seek: you have no open seek '" + seekId + "'").coded("seekGone");
        }
        removeSeek(seekId);
    }

    private void removeSeek(String id) {
        Seek s = seeks.remove(id);
        if (s != null) {
            Member m = bySri.get(s.sri());
            if (m != null) {
                m.seeks.remove(id);
            }
            broadcast(Map.of("type", "seekRemoved", "id", id));
            publishState();
        }
    }

    /**
     * Accepts a seek: the first to accept gets the game, a later one is told the seek is gone. Returns the game and
     * the acceptor's seat token; the seeker hears {@code paired} on its connection.
     */
    Pairing accept(String seekId, Accounts.User user, String client) {
        Seek s;
        synchronized (this) {
            s = seeks.get(seekId);
            if (s == null) {
                throw GameError.notFound("seek: '" + seekId + "' is no longer open").coded("seekGone");
            }
            Member seeker = bySri.get(s.sri());
            if (user != null && user.id().equals(s.userId()) || user == null && seeker != null
                    && seeker.user == null && seeker.client.equals(client)) {
                throw GameError.conflict("seek: you cannot accept your own seek").coded("ownSeek");
            }
            if (s.rated() && user == null) {
                throw GameError.forbidden("rated: sign in to accept a rated seek").coded("ratedSignIn");
            }
            refuseBot(user);
            removeSeek(seekId);
        }
        RuleSet rules = RuleSet.of(s.variant());
        int seekerSide = switch (s.color()) {
            case "first" -> 0;
            case "second" -> 1;
            default -> RANDOM.nextInt(2);
        };
        Accounts.User seekerUser = s.userId() == null ? null : new Accounts.User(s.userId(), s.name(), false, 0);
        Accounts.User[] users = seekerSide == 0 ? new Accounts.User[]{seekerUser, user} : new Accounts.User[]{user, seekerUser};
        GameService.Paired p = games.pair(new GameService.NewGame(rules, LiveGame.Mode.FRIEND, "first", 0,
                parseClock(s.clock()), Position.start(rules), List.of()), seat(users[0], rules), seat(users[1], rules), s.rated());
        p.committed().join();
        offerSeat(s.sri(), p.game().id, p.tokens()[seekerSide]);
        return new Pairing(p.game().id, p.tokens()[seekerSide ^ 1]);
    }

    private PlayerAccount seat(Accounts.User u, RuleSet rules) {
        return u == null ? null : accounts.seat(u, rules.id);
    }

    // ---- quick pairing ----

    /**
     * Puts the connection in the pool with the rule sets and clocks it would play: it is paired at once with the first
     * compatible waiting player (a rule set and a clock in common, both rated or both casual), else it waits.
     * Returns the game id when paired now, else null; either way both players hear {@code paired}.
     */
    String joinPool(String sri, Accounts.User user, List<String> variants, List<String> clocks, boolean rated) {
        if (variants.isEmpty() || variants.size() > RuleSet.IDS.size()) {
            throw GameError.invalid("variants: tick at least one rule set").coded("poolNoVariant");
        }
        for (String v : variants) {
            ruleSet(v);
        }
        if (clocks.isEmpty() || clocks.size() > POOL_CLOCKS.size()) {
            throw GameError.invalid("clocks: tick at least one clock").coded("poolNoClock");
        }
        for (String c : clocks) {
            if (!POOL_CLOCKS.contains(c)) {
                throw GameError.invalid("clocks: '" + c + "' is not a pool clock; pool clocks: " + String.join(", ", POOL_CLOCKS));
            }
        }
        if (rated && user == null) {
            throw GameError.forbidden("rated: sign in to play rated games").coded("ratedSignIn");
        }
        PoolEntry partner;
        PoolEntry mine;
        Map<String, Object> remoteEntry = null;
        String variant = null, clock = null;
        synchronized (this) {
            Member m = member(sri);
            requireSameAccount(m, user);
            if (m.pool != null) {
                pool.remove(m.pool);
            }
            mine = new PoolEntry(prefixed(newId()), m, List.copyOf(new LinkedHashSet<>(variants)), List.copyOf(new LinkedHashSet<>(clocks)),
                    rated, System.currentTimeMillis());
            partner = null;
            for (PoolEntry e : pool) {
                if (e.rated() != rated || e.member() == m || user != null && e.member().user != null
                        && e.member().user.id().equals(user.id())) {
                    continue;
                }
                variant = e.variants().stream().filter(mine.variants()::contains).findFirst().orElse(null);
                clock = e.clocks().stream().filter(mine.clocks()::contains).findFirst().orElse(null);
                if (variant != null && clock != null) {
                    partner = e;
                    break;
                }
            }
            if (partner == null) {
                Map<String, Object> remote = remotePartner(mine, user);
                if (remote != null) {
                    remoteEntry = remote;
                } else {
                    waitInPool(m, mine);
                    return null;
                }
            } else {
                pool.remove(partner);
                partner.member().pool = null;
            }
        }
        if (remoteEntry != null) {
            // another node's player: that node pairs them (or says the entry went meanwhile: then this one waits)
            @SuppressWarnings("unchecked")
            List<String> vs = (List<String>) remoteEntry.get("variants"), cs = (List<String>) remoteEntry.get("clocks");
            String v = vs.stream().filter(mine.variants()::contains).findFirst().orElseThrow();
            String c = cs.stream().filter(mine.clocks()::contains).findFirst().orElseThrow();
            Pairing p = poolTaker.take(nodeOf((String) remoteEntry.get("id")), (String) remoteEntry.get("id"), v, c, user,
                    mine.member().client);
            synchronized (this) {
                if (p == null) {
                    waitInPool(mine.member(), mine);
                    return null;
                }
            }
            offerSeat(mine.member().sri, p.gameId(), p.token());
            return p.gameId();
        }
        RuleSet rules = RuleSet.of(variant);
        int partnerSide = RANDOM.nextInt(2);
        Member[] side = partnerSide == 0 ? new Member[]{partner.member(), mine.member()} : new Member[]{mine.member(), partner.member()};
        GameService.Paired p = games.pair(new GameService.NewGame(rules, LiveGame.Mode.FRIEND, "first", 0,
                parseClock(clock), Position.start(rules), List.of()), seat(side[0].user, rules), seat(side[1].user, rules), rated);
        p.committed().join();
        offerSeat(side[0].sri, p.game().id, p.tokens()[0]);
        offerSeat(side[1].sri, p.game().id, p.tokens()[1]);
        return p.game().id;
    }

    /** Puts a player in this node's pool to wait. Monitor held. */
    private void waitInPool(Member m, PoolEntry e) {
        pool.add(e);
        m.pool = e;
        m.out.send(write(Map.of("type", "pool", "waiting", true)));
        publishState();
    }

    /** A compatible player waiting in another node's pool (several nodes), or null. Monitor held. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> remotePartner(PoolEntry mine, Accounts.User user) {
        if (poolTaker == null) {
            return null;
        }
        for (NodeState n : others.values()) {
            for (Map<String, Object> e : n.pool()) {
                Object uid = e.get("userId");
                if (!Boolean.valueOf(mine.rated()).equals(e.get("rated"))
                        || user != null && user.id().equals(uid)
                        || user == null && uid == null && mine.member().client.equals(e.get("client"))) {
                    continue;
                }
                List<String> vs = (List<String>) e.get("variants"), cs = (List<String>) e.get("clocks");
                if (vs != null && cs != null && vs.stream().anyMatch(mine.variants()::contains)
                        && cs.stream().anyMatch(mine.clocks()::contains)) {
                    return e;
                }
            }
        }
        return null;
    }

    /**
     * Another node's player takes this node's pool entry {@code entryId} (several nodes): when it still waits, the
     * two are paired in {@code variant} and {@code clock} (a game made here), this node's player hears
     * {@code paired}, and the other node gets the game and its player's seat token; null when the entry is gone.
     */
    Pairing takePool(String entryId, String variant, String clock, Accounts.User user) {
        PoolEntry e;
        synchronized (this) {
            e = pool.stream().filter(x -> x.id().equals(entryId)).findFirst().orElse(null);
            if (e == null || !e.variants().contains(variant) || !e.clocks().contains(clock)) {
                return null;
            }
            pool.remove(e);
            e.member().pool = null;
        }
        publishState();
        RuleSet rules = ruleSet(variant);
        int waiterSide = RANDOM.nextInt(2);
        Accounts.User[] users = waiterSide == 0 ? new Accounts.User[]{e.member().user, user}
                : new Accounts.User[]{user, e.member().user};
        GameService.Paired p = games.pair(new GameService.NewGame(rules, LiveGame.Mode.FRIEND, "first", 0,
                parseClock(clock), Position.start(rules), List.of()), seat(users[0], rules), seat(users[1], rules), e.rated());
        p.committed().join();
        offerSeat(e.member().sri, p.game().id, p.tokens()[waiterSide]);
        return new Pairing(p.game().id, p.tokens()[waiterSide ^ 1]);
    }

    /** Leaves the pool. */
    synchronized void leavePool(String sri) {
        Member m = member(sri);
        if (m.pool != null) {
            pool.remove(m.pool);
            m.pool = null;
        }
        m.out.send(write(Map.of("type", "pool", "waiting", false)));
        publishState();
    }

    // ---- seats of paired games ----

    /** Keeps a seat token for a member and tells its connection the game is ready. */
    private synchronized void offerSeat(String sri, String gameId, String token) {
        long now = System.currentTimeMillis();
        seats.values().removeIf(v -> (long) v[1] < now);
        while (seats.size() >= 2 * MAX_MEMBERS) {
            Iterator<String> it = seats.keySet().iterator();
            it.next();
            it.remove();
        }
        seats.put(sri + ":" + gameId, new Object[]{token, now + SEAT_MS});
        Member m = bySri.get(sri);
        if (m != null) {
            m.out.send(write(Map.of("type", "paired", "game", gameId)));
        }
    }

    /** The seat token waiting for the member {@code sri} in a game made in the lobby (once), or a refusal. */
    synchronized String takeSeat(String sri, String gameId) {
        Object[] v = sri == null || gameId == null ? null : seats.remove(sri + ":" + gameId);
        if (v == null || (long) v[1] < System.currentTimeMillis()) {
            throw GameError.notFound("seat: no seat waits for this lobby connection in game '" + gameId + "'");
        }
        return (String) v[0];
    }

    // ---- games now, online count ----

    /** The games being played now on every node, this node's first (at most {@link #GAMES_SHOWN}). */
    List<Map<String, Object>> gamesNow() {
        List<Map<String, Object>> out = localGamesNow();
        for (NodeState n : others.values()) {
            for (Map<String, Object> g : n.games()) {
                if (out.size() < GAMES_SHOWN) {
                    out.add(g);
                }
            }
        }
        return out;
    }

    /** The games being played now on this node, most recently moved first (at most {@link #GAMES_SHOWN}). */
    private List<Map<String, Object>> localGamesNow() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (GameSnapshot s : games.playingNow(GAMES_SHOWN)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", s.id());
            m.put("variant", s.rules().id);
            m.put("rated", s.rated());
            m.put("accounts", GameView.accounts(s.accounts(), null));
            m.put("ply", s.ply());
            m.put("clock", clockText(s.clock()));
            out.add(m);
        }
        return out;
    }

    /** Clients on a lobby or game connection: distinct on this node, plus each other node's count. */
    int online() {
        int n = localOnline();
        for (NodeState o : others.values()) {
            n += o.online();
        }
        return n;
    }

    private int localOnline() {
        Set<String> clients = new HashSet<>(perClient.keySet());
        clients.addAll(feed.clients());
        return clients.size();
    }

    /** Sends the games-now list and the online count to every lobby connection when they changed. */
    private void broadcastNow() {
        try {
            if (relay != null) {
                dropSilentNodes();
                publishState();
            }
            String g = write(Map.of("type", "games", "games", gamesNow()));
            String o = write(Map.of("type", "online", "count", online()));
            synchronized (this) {
                if (!g.equals(lastGames)) {
                    lastGames = g;
                    sendAll(g);
                }
                if (!o.equals(lastOnline)) {
                    lastOnline = o;
                    sendAll(o);
                }
            }
        } catch (RuntimeException e) {
            org.slf4j.LoggerFactory.getLogger(Lobby.class).warn("lobby broadcast failed", e);
        }
    }

    private void broadcast(Map<String, Object> message) {
        sendAll(write(message));
    }

    private void sendAll(String text) {
        for (Member m : byCtx.values()) {
            m.out.send(text);
        }
    }

    // ---- helpers ----

    /** A lobby connection acts only for the account it was opened with (a signed-out page cannot seek as it). */
    private static void requireSameAccount(Member m, Accounts.User user) {
        refuseBot(user);
        String a = m.user == null ? null : m.user.id(), b = user == null ? null : user.id();
        if (a == null ? b != null : !a.equals(b)) {
            throw GameError.conflict("sri: this lobby connection was opened " + (a == null ? "signed out" : "signed in")
                    + "; reload the lobby").coded("lobbyStale");
        }
    }

    /** Bots play through challenges, never in the seeks and pool meant for people (as lichess keeps them apart). */
    private static void refuseBot(Accounts.User user) {
        if (user != null && user.bot()) {
            throw GameError.forbidden("account: bots play through challenges (POST /api/challenge/{username}), not in the lobby")
                    .coded("botLobby");
        }
    }

    private static RuleSet ruleSet(String variant) {
        if (variant == null || !RuleSet.IDS.contains(variant)) {
            throw GameError.invalid("variant: unknown rule set '" + variant + "'; known: " + String.join(", ", RuleSet.IDS));
        }
        return RuleSet.of(variant);
    }

    /**
     * A lobby clock: {@code M+S} (Fischer: M minutes, S seconds added per move), {@code M|S} (byoyomi: M minutes
     * main time, then S seconds per move), M and S up to 180, and some time per move; or {@code Nd} (correspondence:
     * N days per move, one of {@link Clock#CORRESPONDENCE_DAYS}).
     */
    static Clock parseClock(String text) {
        Matcher days = text == null ? null : DAYS.matcher(text);
        if (days != null && days.matches()) {
            int d = Integer.parseInt(days.group(1));
            if (!Clock.CORRESPONDENCE_DAYS.contains(d)) {
                throw GameError.invalid("clock: days per move one of " + Clock.CORRESPONDENCE_DAYS + ", got '" + text + "'");
            }
            return new Clock(Clock.Type.CORRESPONDENCE, d * Clock.DAY_MS, 0, 0, 0);
        }
        Matcher mt = text == null ? null : CLOCK.matcher(text);
        if (mt == null || !mt.matches()) {
            throw GameError.invalid("clock: write minutes+seconds (Fischer, e.g. 5+3), minutes|seconds (byoyomi, e.g."
                    + " 10|30) or days per move (correspondence, e.g. 3d), got '" + text + "'");
        }
        int min = Integer.parseInt(mt.group(1)), sec = Integer.parseInt(mt.group(3));
        if (min > 180 || sec > 180 || min == 0 && sec == 0) {
            throw GameError.invalid("clock: minutes and seconds from 0 to 180, not both 0; got '" + text + "'");
        }
        return mt.group(2).equals("+") ? new Clock(Clock.Type.FISCHER, min * 60_000L, sec * 1000L, 0, 0)
                : new Clock(Clock.Type.BYOYOMI, min * 60_000L, 0, sec * 1000L, 1);
    }

    /** The lobby text of a game's clock (null without one). */
    static String clockText(Clock c) {
        return switch (c.type) {
            case FISCHER -> c.initialMs / 60_000 + "+" + c.incrementMs / 1000;
            case BYOYOMI -> c.initialMs / 60_000 + "|" + c.byoyomiMs / 1000;
            case CORRESPONDENCE -> c.initialMs / Clock.DAY_MS + "d";
            default -> null;
        };
    }

    private String write(Object o) {
        try {
            return json.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An id with this node's prefix (several nodes), else as is. */
    private String prefixed(String id) {
        String n = nodeId;
        return n == null ? id : n + "." + id;
    }

    private static String newSri() {
        byte[] b = new byte[18];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    private static String newId() {
        byte[] b = new byte[6];
        RANDOM.nextBytes(b);
        return java.util.HexFormat.of().formatHex(b);
    }

    /** Members connected (for tests and monitoring). */
    int members() {
        return byCtx.size();
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
