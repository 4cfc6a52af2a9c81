package koma.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.JedisPubSub;

/**
 * The nodes' Redis (docs/deploy.md, "Several nodes"): pub/sub between them, as lila and lila-ws talk, and the shared
 * rate-limit buckets. A game's owner publishes each committed change on {@code koma:g:<id>} (its events with their
 * versions and audiences); every node hears every game channel and hands the events to its feeds of that game.
 * The lobby's state ({@code koma:lobby}), sign-outs ({@code koma:auth}) and the lines of the accounts' event streams
 * ({@code koma:u}: challenges, game starts and ends) go the same way. Publishing runs on one
 * thread, so a game's changes leave in version order, behind a bounded queue ({@link #PUBLISH_QUEUE}): a change
 * that does not fit is not relayed, and a feed that then sees a version gap resyncs.
 */
final class Relay implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Relay.class);
    /** Messages waiting to be published at most. */
    static final int PUBLISH_QUEUE = 10_000;
    static final String GAME_PREFIX = "koma:g:";
    static final String LOBBY = "koma:lobby";
    static final String AUTH = "koma:auth";
    static final String USER = "koma:u";

    /** One event of a game as another node relays it: version, audience and its JSON. */
    record RemoteEvent(int version, GameEvent.Audience audience, String json) {
        /** The event for a feed of this seat: itself, or its skip (as {@link GameEvent#jsonFor}). */
        String jsonFor(GameView.Seat seat) {
            return audience.includes(seat) ? json : "{\"type\":\"skip\",\"version\":" + version + "}";
        }
    }

    /** What a node does with what it hears. */
    interface Listener {
        void gameEvents(String gameId, String fromNode, List<RemoteEvent> events);

        void lobby(JsonNode message);

        void auth(String invalidation);

        /** A line for an account's event streams ({@code /api/stream/event}) on this node, from another node. */
        default void userEvent(String userId, String line) {
        }

        /** An event stream of the account opened on node {@code toNode}: tell it what it must know from here. */
        default void userStreamOpened(String userId, String toNode) {
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BUCKET = "local t = tonumber(redis.call('HGET', KEYS[1], 't') or ARGV[2])"
            + " local now = redis.call('TIME') local ms = now[1] * 1000 + math.floor(now[2] / 1000)"
            + " local ts = tonumber(redis.call('HGET', KEYS[1], 'ts') or ms)"
            + " t = math.min(tonumber(ARGV[2]), t + (ms - ts) / 1000 * tonumber(ARGV[1]))"
            + " local wait = 0 if t >= 1 then t = t - 1 else wait = math.max(1, math.ceil((1 - t) / tonumber(ARGV[1]))) end"
            + " redis.call('HSET', KEYS[1], 't', tostring(t), 'ts', tostring(ms))"
            + " redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) / tonumber(ARGV[1]) * 1000) + 1000)"
            + " return wait";

    private final String uri;
    private final String nodeId;
    private final RedisClient redis;
    private final ThreadPoolExecutor publisher;
    private volatile Listener listener;
    private volatile JedisPubSub subscription;
    private final Thread subscriber;
    private volatile boolean closed;
    /** Changes not relayed because the queue was full (for monitoring). */
    final AtomicLong dropped = new AtomicLong();
    /** Messages heard (for tests and monitoring). */
    final AtomicLong heard = new AtomicLong();

    Relay(String uri, String nodeId) {
        this.uri = uri;
        this.nodeId = nodeId;
        this.redis = RedisClient.create(java.net.URI.create(uri));
        redis.ping(); // fails at start, with the reason, when Redis is not there
        this.publisher = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(PUBLISH_QUEUE),
                r -> {
                    Thread t = new Thread(r, "koma-relay-publish");
                    t.setDaemon(true);
                    return t;
                }, (r, ex) -> dropped.incrementAndGet());
        this.subscriber = new Thread(this::listen, "koma-relay-listen");
        subscriber.setDaemon(true);
    }

    /** Starts listening; {@code l} gets what the other nodes publish (and this node's own game changes too). */
    void start(Listener l) {
        this.listener = l;
        subscriber.start();
    }

    /** Publishes a committed change's events on its game's channel. */
    void publishGame(LiveGame.Change c) {
        if (c.events().isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder(256).append("{\"node\":").append(quote(nodeId)).append(",\"events\":[");
        for (int i = 0; i < c.events().size(); i++) {
            GameEvent e = c.events().get(i);
            sb.append(i == 0 ? "" : ",").append("[").append(e.version).append(",\"").append(e.audience.name())
                    .append("\",").append(quote(e.json())).append("]");
        }
        String text = sb.append("]}").toString();
        String channel = GAME_PREFIX + c.game().id;
        publisher.execute(() -> publish(channel, text));
    }

    void publishLobby(String text) {
        publisher.execute(() -> publish(LOBBY, text));
    }

    void publishAuth(String invalidation) {
        publisher.execute(() -> publish(AUTH, invalidation));
    }

    /** A line for an account's event streams, for the other nodes (each sends it to that account's streams it holds). */
    void publishUser(String userId, String line) {
        publishUser(userId, line, null);
    }

    /** As above, for the streams on node {@code toNode} only (null: every other node). */
    void publishUser(String userId, String line, String toNode) {
        String text = "{\"node\":" + quote(nodeId) + ",\"user\":" + quote(userId) + ",\"line\":" + quote(line)
                + (toNode == null ? "" : ",\"to\":" + quote(toNode)) + "}";
        publisher.execute(() -> publish(USER, text));
    }

    /** An event stream of the account opened here: the other nodes send it what it must know (their open challenges). */
    void publishStreamOpened(String userId) {
        String text = "{\"node\":" + quote(nodeId) + ",\"user\":" + quote(userId) + ",\"opened\":true}";
        publisher.execute(() -> publish(USER, text));
    }

    private void publish(String channel, String text) {
        try {
            redis.publish(channel, text);
        } catch (RuntimeException e) {
            dropped.incrementAndGet();
            LOG.warn("relay: publish on {} failed: {}", channel, e.getMessage());
        }
    }

    /**
     * Takes a token from the shared bucket {@code key} (refilled at {@code perSecond}, holding {@code burst}): 0 when
     * allowed, else the seconds to wait; -1 when Redis did not answer (the caller then uses its own bucket).
     */
    long acquire(String key, double perSecond, int burst) {
        try {
            Object r = redis.eval(BUCKET, List.of("koma:rl:" + key), List.of(String.valueOf(perSecond), String.valueOf(burst)));
            return ((Number) r).longValue();
        } catch (RuntimeException e) {
            LOG.warn("relay: rate limit check failed: {}", e.getMessage());
            return -1;
        }
    }

    /**
     * The members of a shared set (several nodes: the unfinished games a client made on any node), or null when
     * Redis did not answer (the caller then counts on its own).
     */
    java.util.Set<String> members(String key) {
        try {
            return redis.smembers("koma:set:" + key);
        } catch (RuntimeException e) {
            LOG.warn("relay: set {} not read: {}", key, e.getMessage());
            return null;
        }
    }

    /** Adds to (or, with {@code add} false, removes from) a shared set, kept {@code ttlSeconds} after its last change. */
    void member(String key, String value, boolean add, long ttlSeconds) {
        try {
            if (add) {
                redis.sadd("koma:set:" + key, value);
                redis.expire("koma:set:" + key, ttlSeconds);
            } else {
                redis.srem("koma:set:" + key, value);
            }
        } catch (RuntimeException e) {
            LOG.warn("relay: set {} not changed: {}", key, e.getMessage());
        }
    }

    private void listen() {
        while (!closed) {
            try (Jedis j = new Jedis(java.net.URI.create(uri))) {
                JedisPubSub sub = new JedisPubSub() {
                    @Override
                    public void onPMessage(String pattern, String channel, String message) {
                        dispatch(channel, message);
                    }

                    @Override
                    public void onMessage(String channel, String message) {
                        dispatch(channel, message);
                    }
                };
                subscription = sub;
                j.psubscribe(sub, GAME_PREFIX + "*", LOBBY, AUTH, USER);
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.warn("relay: subscription lost ({}); again in 1 s", e.getMessage());
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }
    }

    private void dispatch(String channel, String message) {
        heard.incrementAndGet();
        Listener l = listener;
        try {
            if (channel.startsWith(GAME_PREFIX)) {
                JsonNode m = JSON.readTree(message);
                List<RemoteEvent> events = new ArrayList<>();
                for (JsonNode e : m.get("events")) {
                    events.add(new RemoteEvent(e.get(0).asInt(), GameEvent.Audience.valueOf(e.get(1).asText()),
                            e.get(2).asText()));
                }
                l.gameEvents(channel.substring(GAME_PREFIX.length()), m.path("node").asText(), events);
            } else if (channel.equals(LOBBY)) {
                l.lobby(JSON.readTree(message));
            } else if (channel.equals(AUTH)) {
                l.auth(message);
            } else if (channel.equals(USER)) {
                JsonNode m = JSON.readTree(message);
                String from = m.path("node").asText();
                if (from.equals(nodeId) || m.has("to") && !m.path("to").asText().equals(nodeId)) {
                    return; // its own message, or one for another node
                }
                if (m.path("opened").asBoolean(false)) {
                    l.userStreamOpened(m.path("user").asText(), from);
                } else {
                    l.userEvent(m.path("user").asText(), m.path("line").asText());
                }
            }
        } catch (Exception e) {
            LOG.warn("relay: a message on {} could not be handled: {}", channel, e.toString());
        }
    }

    private static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        JedisPubSub s = subscription;
        if (s != null) {
            try {
                s.punsubscribe();
            } catch (RuntimeException e) {
                LOG.debug("relay: unsubscribe: {}", e.getMessage());
            }
        }
        publisher.shutdown();
        try {
            publisher.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        redis.close();
    }
}
