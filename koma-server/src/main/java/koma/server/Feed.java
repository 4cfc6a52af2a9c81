package koma.server;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.websocket.api.WriteCallback;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.javalin.websocket.WsContext;
import koma.server.GameView.Seat;

/**
 * The WebSocket feeds of the games ({@code /ws/games/{id}}): a connection gets the whole game once, with its
 * version, then only the committed events, each once, in version order. Sends are asynchronous; each connection
 * may have at most {@code queueLimit} messages not yet written, and a client that falls further behind is cut off
 * (it resyncs when it reconnects). Connections are capped per client and in all.
 */
final class Feed {
    /** Close code for too many connections. */
    static final int TOO_MANY = 4429;

    /** One connection: its game, seat, client, last version sent and messages not yet written. */
    private static final class Conn {
        final WsContext ctx;
        final String gameId;
        final String client;
        /** The seat; for a relayed connection, known once the owner has answered. Guarded by this. */
        Seat seat;
        /** Its sends: at most the queue limit unwritten, else it is cut off ({@link Outbox}). */
        final Outbox out;
        /** The last version sent, -1 before the whole game was sent. Guarded by this. */
        int version = -1;
        /** A connection to a game another node owns: its events come over the relay. */
        boolean relayed;
        /** A relayed connection's events heard before its whole game arrived. Guarded by this; bounded by the queue. */
        java.util.List<Relay.RemoteEvent> early;

        Conn(WsContext ctx, String gameId, String client, Seat seat, Outbox out) {
            this.ctx = ctx;
            this.gameId = gameId;
            this.client = client;
            this.seat = seat;
            this.out = out;
        }
    }

    private final ObjectMapper json;
    private final int queueLimit, perClientLimit, totalLimit;
    private final Map<String, Set<Conn>> byGame = new ConcurrentHashMap<>();
    private final Map<WsContext, Conn> conns = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perClient = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    /** Connections cut off for reading too slowly (for tests and monitoring). */
    final AtomicInteger dropped = new AtomicInteger();

    Feed(ObjectMapper json, ServerConfig.Limits limits) {
        this.json = json;
        this.queueLimit = limits.feedQueue();
        this.perClientLimit = limits.feedsPerClient();
        this.totalLimit = limits.feeds();
    }

    /** Null when a client may open another connection, else why not (checked before the upgrade). */
    String refusal(String client) {
        AtomicInteger n = perClient.get(client);
        if (n != null && n.get() >= perClientLimit) {
            return "feeds: " + perClientLimit + " connections from one client at most";
        }
        if (total.get() >= totalLimit) {
            return "feeds: the server holds " + totalLimit + " connections, its limit";
        }
        return null;
    }

    /**
     * A new connection: counted (closed with 4429 when over a cap), registered, then sent the whole game with
     * its version; events committed meanwhile are either in that game or sent after it.
     */
    void connect(LiveGame g, WsContext ctx, Seat seat, String client) {
        Conn c = register(ctx, g.id, client, seat);
        if (c == null) {
            return;
        }
        synchronized (c) {
            GameSnapshot s = g.snapshot();
            send(c, message(s, seat));
            c.version = s.version();
        }
        if (seat != Seat.NONE) {
            presence.accept(g.id);
        }
    }

    /** Counts and registers a connection; null (and the socket closed with 4429) when over a cap. */
    private Conn register(WsContext ctx, String gameId, String client, Seat seat) {
        AtomicInteger n = perClient.computeIfAbsent(client, k -> new AtomicInteger());
        if (n.incrementAndGet() > perClientLimit || total.incrementAndGet() > totalLimit) {
            if (n.get() > perClientLimit) {
                n.decrementAndGet();
            } else {
                n.decrementAndGet();
                total.decrementAndGet();
            }
            ctx.closeSession(TOO_MANY, "too many connections");
            return null;
        }
        Conn c = new Conn(ctx, gameId, client, seat, new Outbox(ctx, queueLimit, dropped::incrementAndGet));
        conns.put(ctx, c);
        byGame.computeIfAbsent(gameId, k -> ConcurrentHashMap.newKeySet()).add(c);
        return c;
    }

    /**
     * A connection to a game another node owns (several nodes): registered first, so that the events relayed while
     * the owner is asked for the game are kept; then {@link #relayedGame} sends the game and those events after it.
     * False when over a cap (the socket is closed).
     */
    boolean connectRelayed(String gameId, WsContext ctx, String client) {
        Conn c = register(ctx, gameId, client, Seat.NONE);
        if (c == null) {
            return false;
        }
        synchronized (c) {
            c.relayed = true;
            c.early = new java.util.ArrayList<>();
        }
        return true;
    }

    /** The owner's answer for a relayed connection: its seat and the game at {@code version} (the page's JSON). */
    void relayedGame(WsContext ctx, Seat seat, String gameJson, int version) {
        Conn c = conns.get(ctx);
        if (c == null) {
            return;
        }
        synchronized (c) {
            c.seat = seat;
            send(c, "{\"type\":\"game\",\"version\":" + version + ",\"game\":" + gameJson + "}");
            c.version = version;
            java.util.List<Relay.RemoteEvent> early = c.early;
            c.early = null;
            for (Relay.RemoteEvent e : early) {
                relay(c, e);
            }
        }
    }

    /** Events of a game another node owns, heard over the relay, for this node's relayed connections to it. */
    void relayed(String gameId, java.util.List<Relay.RemoteEvent> events) {
        Set<Conn> set = byGame.get(gameId);
        if (set == null) {
            return;
        }
        for (Conn c : set) {
            synchronized (c) {
                if (!c.relayed) {
                    continue;
                }
                if (c.early != null) {
                    if (c.early.size() + events.size() > queueLimit) {
                        c.ctx.closeSession(1011, "resync");
                        continue;
                    }
                    c.early.addAll(events);
                    continue;
                }
                for (Relay.RemoteEvent e : events) {
                    relay(c, e);
                }
            }
        }
    }

    /** Sends one relayed event in order; a gap in the versions (a lost message) closes the feed so that it resyncs. */
    private void relay(Conn c, Relay.RemoteEvent e) {
        if (e.version() <= c.version) {
            return;
        }
        if (e.version() != c.version + 1) {
            c.ctx.closeSession(1011, "resync: version " + e.version() + " after " + c.version);
            c.version = Integer.MAX_VALUE;
            return;
        }
        send(c, e.jsonFor(c.seat));
        c.version = e.version();
    }

    /** Closes this node's relayed connections to a game (this node now owns it): they reconnect and resync. */
    void closeRelayed(String gameId) {
        Set<Conn> set = byGame.get(gameId);
        if (set != null) {
            for (Conn c : set) {
                if (c.relayed) {
                    c.ctx.closeSession(1012, "the game moved to another node");
                }
            }
        }
    }

    /** Told the game id whenever a seat's connection opens or closes (the bot API's opponentGone). */
    private volatile java.util.function.Consumer<String> presence = id -> { };

    void onPresence(java.util.function.Consumer<String> listener) {
        presence = listener;
    }

    /** Which sides of a game have an open connection holding their seat. */
    boolean[] seated(String gameId) {
        boolean[] out = new boolean[2];
        Set<Conn> set = byGame.get(gameId);
        if (set != null) {
            for (Conn c : set) {
                out[0] |= !c.out.closed() && c.seat.holds(0);
                out[1] |= !c.out.closed() && c.seat.holds(1);
            }
        }
        return out;
    }

    /** Forgets a closed connection. */
    void disconnect(WsContext ctx) {
        Conn c = conns.remove(ctx);
        if (c == null) {
            return;
        }
        c.out.close();
        Set<Conn> set = byGame.get(c.gameId);
        if (set != null) {
            set.remove(c);
            if (set.isEmpty()) {
                byGame.remove(c.gameId, set);
            }
        }
        AtomicInteger n = perClient.get(c.client);
        if (n != null && n.decrementAndGet() <= 0) {
            perClient.remove(c.client, n);
        }
        total.decrementAndGet();
        if (c.seat != Seat.NONE) {
            presence.accept(c.gameId);
        }
    }

    /** Sends a committed change's events to the game's connections (called by the writer, in version order). */
    void publish(LiveGame.Change change) {
        Set<Conn> set = byGame.get(change.game().id);
        if (set == null || change.events().isEmpty()) {
            return;
        }
        for (Conn c : set) {
            synchronized (c) {
                if (c.version < 0 || c.relayed) {
                    continue; // its whole game, sent next, already holds these events; relayed ones hear the relay
                }
                for (GameEvent e : change.events()) {
                    if (e.version > c.version) {
                        send(c, e.jsonFor(c.seat));
                        c.version = e.version;
                    }
                }
            }
        }
    }

    /** True when a game has a connection (it then stays in memory). */
    boolean watched(String gameId) {
        Set<Conn> set = byGame.get(gameId);
        return set != null && !set.isEmpty();
    }

    /** Closes a game's connections (its state in memory was dropped): the clients reconnect and resync. */
    void closeGame(String gameId, int code, String reason) {
        Set<Conn> set = byGame.get(gameId);
        if (set != null) {
            for (Conn c : set) {
                c.ctx.closeSession(code, reason);
            }
        }
    }

    /** The client keys with an open game connection. */
    Set<String> clients() {
        return perClient.keySet();
    }

    int connections() {
        return total.get();
    }

    private String message(GameSnapshot s, Seat seat) {
        try {
            return json.writeValueAsString(Map.of("type", "game", "version", s.version(),
                    "game", GameView.game(s, seat, System.currentTimeMillis())));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An asynchronous send; a connection with more than {@code queueLimit} unwritten messages is cut off. */
    private void send(Conn c, String text) {
        c.out.send(text);
    }

    /** A direct answer on one connection (pong, error). */
    static void reply(WsContext ctx, String text) {
        if (ctx.session.isOpen()) {
            ctx.session.getRemote().sendString(text, WriteCallback.NOOP);
        }
    }
}
