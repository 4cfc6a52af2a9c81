package koma.server;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's place among several nodes sharing one PostgreSQL database (docs/deploy.md, "Several nodes"): its row
 * in {@code nodes}, renewed every third of the lease; the live games it owns ({@code game_owners}); taking over the
 * games of a node whose row went stale; and the secret with which nodes recognise each other's forwarded requests.
 * One owner per live game: a node serves a game only after this class says it owns it, and the moves table's key
 * (game, ply) refuses a second writer should a paused node wake up believing it still owns a game.
 */
final class Cluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Cluster.class);
    /** Node ids: short, so that they can prefix lobby ids. */
    static final Pattern NODE_ID = Pattern.compile("[a-z0-9]{1,16}");
    /** Games taken over per sweep at most. */
    private static final int TAKEOVER_BATCH = 200;

    /**
     * Who owns a game: this node ({@code mine}), another live node (its address), or nobody (no such game).
     * {@code taken}: this node has just taken it from a dead node or from nobody; {@code deadAt} is then when the
     * dead node was last known alive (0 when the game had no owner).
     */
    record Owner(boolean mine, String nodeId, String address, boolean taken, long deadAt) {
        static final Owner NONE = new Owner(false, null, null, false, 0);
    }

    private final DataSource ds;
    private final ServerConfig.Cluster cfg;
    private final String secret;
    /**
     * Games this node knows it owns without asking the database: those it holds in memory (a game unloaded is
     * forgotten here, and its row found again on the next request), so the set is bounded as memory is.
     */
    private final Set<String> owned = ConcurrentHashMap.newKeySet();
    /** Games taken over on a request and not loaded yet: when their dead owner was last alive (0: none). */
    private final ConcurrentHashMap<String, Long> takenNotLoaded = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;
    private volatile BiConsumer<String, Long> takeOver = (id, at) -> { };
    private volatile boolean closed;

    Cluster(DataSource ds, ServerConfig.Cluster cfg) {
        this.ds = ds;
        this.cfg = cfg;
        this.secret = secret();
        long now = System.currentTimeMillis();
        update("INSERT INTO nodes (id, address, started_at, alive_at) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE"
                + " SET address = EXCLUDED.address, started_at = EXCLUDED.started_at, alive_at = EXCLUDED.alive_at,"
                + " left_at = NULL",
                cfg.nodeId(), cfg.address(), now, now);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "koma-cluster");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the renewals and the takeover sweeps; {@code takeOver} gets each game taken and its dead owner's time. */
    void start(BiConsumer<String, Long> takeOver) {
        this.takeOver = takeOver;
        long beat = Math.max(100, cfg.leaseMs() / 3);
        timer.scheduleWithFixedDelay(this::renew, beat, beat, TimeUnit.MILLISECONDS);
        timer.scheduleWithFixedDelay(this::sweep, 0, Math.max(100, cfg.leaseMs() / 2), TimeUnit.MILLISECONDS);
    }

    String nodeId() {
        return cfg.nodeId();
    }

    long leaseMs() {
        return cfg.leaseMs();
    }

    /** True for the header value of a request another node forwarded (the shared secret, compared in constant time). */
    boolean trusted(String header) {
        return header != null && java.security.MessageDigest.isEqual(header.getBytes(), secret.getBytes());
    }

    String secretHeader() {
        return secret;
    }

    /** The address of a live node, or null when it is unknown, stale or gone. */
    String address(String nodeId) {
        try (Connection c = ds.getConnection();
             PreparedStatement st = c.prepareStatement("SELECT address FROM nodes WHERE id = ? AND left_at IS NULL"
                     + " AND alive_at > ?")) {
            st.setString(1, nodeId);
            st.setLong(2, System.currentTimeMillis() - cfg.leaseMs());
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (SQLException e) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "cluster: the database did not answer: " + e.getMessage(), 1)
                    .coded("busy");
        }
    }

    /** True when this node is known to own the game (no database read). */
    boolean ownsNow(String gameId) {
        return owned.contains(gameId);
    }

    /** A game this node just created: it owns it from the start. */
    void claimNew(String gameId) {
        update("INSERT INTO game_owners (game_id, node_id, since) VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
                gameId, cfg.nodeId(), System.currentTimeMillis());
        owned.add(gameId);
    }

    /**
     * For the loader: when the game was just taken over on a request, when its dead owner was last alive (0: it had
     * none), once; null when it was not taken over.
     */
    Long takenOver(String gameId) {
        return takenNotLoaded.remove(gameId);
    }

    /** This node no longer holds the game (its state was dropped); it asks the database again next time. */
    void forget(String gameId) {
        owned.remove(gameId);
    }

    /** Remote owners looked up lately (game id → owner, until when), so that forwarding asks the database rarely. */
    private final java.util.LinkedHashMap<String, Object[]> remoteOwners = new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, Object[]> e) {
            return size() > REMOTE_OWNERS;
        }
    };
    /** Remote owners kept at most, and for how long (a stale one costs one failed or refused forward, then a lookup). */
    static final int REMOTE_OWNERS = 10_000;

    /**
     * Who owns the game, as {@link #owner}, with another node's ownership remembered for half a lease: the
     * forwarding path's lookup. {@link #misdirected} forgets a remembered owner that turned out wrong.
     */
    Owner ownerCached(String gameId) {
        if (owned.contains(gameId)) {
            return new Owner(true, cfg.nodeId(), cfg.address(), false, 0);
        }
        long now = System.currentTimeMillis();
        synchronized (remoteOwners) {
            Object[] e = remoteOwners.get(gameId);
            if (e != null && (long) e[1] > now) {
                return (Owner) e[0];
            }
        }
        Owner o = owner(gameId);
        if (!o.mine() && o.address() != null) {
            synchronized (remoteOwners) {
                remoteOwners.put(gameId, new Object[]{o, now + cfg.leaseMs() / 2});
            }
        }
        return o;
    }

    /** A forward to the remembered owner failed or was refused as misdirected: ask the database next time. */
    void misdirected(String gameId) {
        synchronized (remoteOwners) {
            remoteOwners.remove(gameId);
        }
    }

    /**
     * Who owns the game, taking it when its owner's lease ran out or it has none (then {@code takenFromAliveAt} is
     * the dead owner's last renewal, or 0 for a game nobody owned). {@link Owner#NONE} for a game that does not exist.
     */
    Owner owner(String gameId) {
        if (owned.contains(gameId)) {
            return new Owner(true, cfg.nodeId(), cfg.address(), false, 0);
        }
        long now = System.currentTimeMillis();
        Object[] cur = current(gameId);
        if (cur != null && cfg.nodeId().equals(cur[0])) {
            owned.add(gameId);
            return new Owner(true, cfg.nodeId(), cfg.address(), false, 0);
        }
        if (cur != null && cur[2] != null && cur[3] == null && (long) cur[2] > now - cfg.leaseMs()) {
            return new Owner(false, (String) cur[0], (String) cur[1], false, 0);
        }
        long deadAt = cur == null ? 0 : cur[3] != null ? (long) cur[3] : cur[2] != null ? (long) cur[2] : 0;
        if (take(gameId, now)) {
            owned.add(gameId);
            takenNotLoaded.put(gameId, deadAt);
            if (cur != null) {
                LOG.info("node {} took game {} over from node {} (last alive {} ms ago)", cfg.nodeId(), gameId, cur[0],
                        now - deadAt);
            }
            return new Owner(true, cfg.nodeId(), cfg.address(), true, deadAt);
        }
        Object[] now2 = current(gameId);
        if (now2 == null) {
            return Owner.NONE;
        }
        return new Owner(cfg.nodeId().equals(now2[0]), (String) now2[0], (String) now2[1], false, 0);
    }

    /**
     * The owner row of a game: node id, its address, its last renewal and when it left (each null when unknown),
     * or null when the game has no owner row.
     */
    private Object[] current(String gameId) {
        try (Connection c = ds.getConnection();
             PreparedStatement st = c.prepareStatement("SELECT o.node_id, n.address, n.alive_at, n.left_at"
                     + " FROM game_owners o LEFT JOIN nodes n ON n.id = o.node_id WHERE o.game_id = ?")) {
            st.setString(1, gameId);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                long alive = rs.getLong(3);
                Long aliveAt = rs.wasNull() ? null : alive;
                long left = rs.getLong(4);
                Long leftAt = rs.wasNull() ? null : left;
                return new Object[]{rs.getString(1), rs.getString(2), aliveAt, leftAt};
            }
        } catch (SQLException e) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "cluster: the database did not answer: " + e.getMessage(), 1)
                    .coded("busy");
        }
    }

    /**
     * Takes a game whose owner is stale or missing, in one statement: the row is inserted or moved to this node only
     * while no live node holds it (the database serialises two nodes taking the same game). Only existing games.
     */
    private boolean take(String gameId, long now) {
        return update("INSERT INTO game_owners (game_id, node_id, since) SELECT ?, ?, ? WHERE EXISTS"
                + " (SELECT 1 FROM games WHERE id = ?) ON CONFLICT (game_id) DO UPDATE SET node_id = EXCLUDED.node_id,"
                + " since = EXCLUDED.since WHERE game_owners.node_id = EXCLUDED.node_id OR NOT EXISTS (SELECT 1 FROM"
                + " nodes n WHERE n.id = game_owners.node_id AND n.alive_at > ? AND n.left_at IS NULL)",
                gameId, cfg.nodeId(), now, gameId, now - cfg.leaseMs()) == 1;
    }

    /** Renews this node's row; a node that cannot renew stops claiming to own anything (it may be cut off). */
    private void renew() {
        if (closed) {
            return;
        }
        try {
            update("UPDATE nodes SET alive_at = ? WHERE id = ?", System.currentTimeMillis(), cfg.nodeId());
        } catch (RuntimeException e) {
            LOG.warn("node {}: renewal failed: {}", cfg.nodeId(), e.getMessage());
        }
    }

    /**
     * Takes over the unfinished games of nodes whose lease ran out, and running games that have no owner (games
     * from before the nodes shared a database, or all nodes stopped): each is handed to {@code takeOver}.
     */
    private void sweep() {
        if (closed) {
            return;
        }
        try {
            long now = System.currentTimeMillis();
            List<Object[]> orphans = new ArrayList<>();
            try (Connection c = ds.getConnection();
                 PreparedStatement st = c.prepareStatement("SELECT o.game_id, COALESCE(n.left_at, n.alive_at)"
                         + " FROM game_owners o JOIN games g ON g.id = o.game_id LEFT JOIN nodes n ON n.id = o.node_id"
                         + " WHERE g.status = 'active' AND o.node_id <> ?"
                         + " AND (n.id IS NULL OR n.alive_at <= ? OR n.left_at IS NOT NULL)"
                         + " UNION ALL SELECT g.id, NULL FROM games g WHERE g.status = 'active'"
                         + " AND g.turn_started_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_owners o"
                         + " WHERE o.game_id = g.id) LIMIT " + TAKEOVER_BATCH)) {
                st.setString(1, cfg.nodeId());
                st.setLong(2, now - cfg.leaseMs());
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        long at = rs.getLong(2);
                        orphans.add(new Object[]{rs.getString(1), rs.wasNull() ? 0L : at});
                    }
                }
            }
            for (Object[] o : orphans) {
                String id = (String) o[0];
                if (take(id, System.currentTimeMillis())) {
                    // noted before the game counts as ours: a request that loads it first gives the outage back
                    takenNotLoaded.put(id, (Long) o[1]);
                    owned.add(id);
                    LOG.info("node {} took game {} over", cfg.nodeId(), id);
                    takeOver.accept(id, (Long) o[1]);
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("node {}: takeover sweep failed: {}", cfg.nodeId(), e.getMessage());
        }
    }

    /** The nodes' shared secret, made by the first node that needs it. */
    private String secret() {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        update("INSERT INTO cluster_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                HexFormat.of().formatHex(b));
        try (Connection c = ds.getConnection();
             PreparedStatement st = c.prepareStatement("SELECT secret FROM cluster_secret WHERE id = 1");
             ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cluster: cannot read the nodes' secret: " + e.getMessage(), e);
        }
    }

    private int update(String sql, Object... args) {
        try (Connection c = ds.getConnection(); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
            return st.executeUpdate();
        } catch (SQLException e) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "cluster: the database did not answer: " + e.getMessage(), 1)
                    .coded("busy");
        }
    }

    /**
     * Leaves the cluster cleanly: its row says when it left, so that the other nodes take its games over at their
     * next sweep (each game's running side given back the time since then), without waiting out the lease.
     */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        try {
            update("UPDATE nodes SET left_at = ? WHERE id = ?", System.currentTimeMillis(), cfg.nodeId());
        } catch (RuntimeException e) {
            LOG.warn("node {}: could not mark itself gone: {}", cfg.nodeId(), e.getMessage());
        }
    }
}
