package koma.server;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's side of the shared engine job queue ({@link EngineJobTable}, PostgreSQL): {@link #submit} inserts a job
 * and answers with a future that one thread ("koma-engine-results") completes when the job's done-notification
 * arrives (LISTEN), or when a poll of the waiting jobs (every {@link #POLL_MS}, in case a notification was missed
 * while the connection was lost) finds it finished. No job waits for ever: one that no worker claimed within its
 * priority's queue wait is withdrawn, and one not answered within its deadline (queue wait plus
 * {@link EngineJobTable#MAX_ATTEMPTS} times its think time and {@link #ATTEMPT_MARGIN_MS}) is deleted; then a
 * computer move runs on this node's own engine threads (the caller's fallback), any other job fails with
 * UNAVAILABLE.
 */
final class RemoteEngines implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteEngines.class);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** How often the waiting jobs are looked at without a notification, and timeouts checked, ms. */
    static final long POLL_MS = 1_000;
    /** A claimed job's allowance beyond its think time per claim: a worker's default lease and some slack, ms. */
    static final long ATTEMPT_MARGIN_MS = 15_000;
    /** How long an analysis (one position) and a background job may wait unclaimed before they fail, ms. */
    static final long ANALYSIS_WAIT_MS = 10_000, BACKGROUND_WAIT_MS = 10 * 60_000L;

    /** A job this node waits for. */
    private static final class Pending {
        final String id;
        final EngineJob job;
        final EngineQueue.Priority priority;
        final CompletableFuture<EngineResult> out;
        final Supplier<CompletableFuture<EngineResult>> fallback;
        final long wait, withdrawAt, deadline;
        boolean withdrawTried;

        Pending(String id, EngineJob job, EngineQueue.Priority priority, CompletableFuture<EngineResult> out,
                Supplier<CompletableFuture<EngineResult>> fallback, long wait) {
            this.id = id;
            this.job = job;
            this.priority = priority;
            this.out = out;
            this.fallback = fallback;
            long now = System.currentTimeMillis();
            this.wait = wait;
            this.withdrawAt = now + wait;
            this.deadline = now + wait + EngineJobTable.MAX_ATTEMPTS * (job.timeMs() + ATTEMPT_MARGIN_MS);
        }
    }

    private final String jdbcUrl;
    private final long computerWaitMs;
    private final ObjectMapper json = new ObjectMapper();
    private final HikariDataSource pool;
    private final ExecutorService inserts;
    private final Thread results;
    private final ConcurrentHashMap<String, Pending> pending = new ConcurrentHashMap<>();
    private final AtomicLong remote = new AtomicLong(), fallbacks = new AtomicLong();
    private volatile boolean closed;

    /**
     * Waits for jobs in the queue of the PostgreSQL database at {@code jdbcUrl}; a computer move no worker claimed
     * within {@code computerWait} runs on this node (the fallback given to {@link #submit}).
     */
    RemoteEngines(String jdbcUrl, Duration computerWait) {
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--engine-workers: needs a PostgreSQL database (--db jdbc:postgresql://...)");
        }
        this.jdbcUrl = jdbcUrl;
        this.computerWaitMs = computerWait.toMillis();
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(jdbcUrl);
        cfg.setPoolName("koma-engine-jobs");
        cfg.setMaximumPoolSize(4);
        pool = new HikariDataSource(cfg);
        inserts = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "koma-engine-submit");
            t.setDaemon(true);
            return t;
        });
        results = new Thread(this::listen, "koma-engine-results");
        results.setDaemon(true);
        results.start();
    }

    /**
     * Queues a job for the workers. A computer move is inserted on another thread (its caller holds a game's lock)
     * and is run by {@code fallback} if the insert fails; an analysis or background job is inserted here and refused
     * (GameError UNAVAILABLE, thrown) when {@code bound} jobs of its priority are queued or running, or when the
     * database fails.
     */
    CompletableFuture<EngineResult> submit(EngineJob job, EngineQueue.Priority priority, int bound,
                                           Supplier<CompletableFuture<EngineResult>> fallback) {
        String id = newId();
        String text;
        try {
            text = json.writeValueAsString(job);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("engine job: " + e.getMessage(), e);
        }
        long wait = switch (priority) {
            case COMPUTER -> computerWaitMs;
            case ANALYSIS -> ANALYSIS_WAIT_MS;
            case BACKGROUND -> BACKGROUND_WAIT_MS;
        };
        CompletableFuture<EngineResult> out = new CompletableFuture<>();
        Pending p = new Pending(id, job, priority, out, fallback, wait);
        pending.put(id, p);
        if (priority == EngineQueue.Priority.COMPUTER) {
            inserts.execute(() -> {
                try (Connection c = pool.getConnection()) {
                    EngineJobTable.insert(c, id, priority.ordinal(), text, Integer.MAX_VALUE);
                } catch (SQLException | RuntimeException e) {
                    LOG.warn("engine job {} not queued, run here: {}", id, e.getMessage());
                    runHere(p);
                }
            });
            return out;
        }
        boolean queued;
        try (Connection c = pool.getConnection()) {
            queued = EngineJobTable.insert(c, id, priority.ordinal(), text, bound);
        } catch (SQLException | RuntimeException e) {
            pending.remove(id);
            throw GameError.unavailable("engine workers: the job queue is out of reach: " + e.getMessage());
        }
        if (!queued) {
            pending.remove(id);
            throw new GameError(GameError.Kind.UNAVAILABLE, (priority == EngineQueue.Priority.ANALYSIS ? "analysis"
                    : "background") + ": the engine queue is full; try again shortly", 2);
        }
        return out;
    }

    /** Jobs answered by workers (since start). */
    long answered() {
        return remote.get();
    }

    /** Computer moves this node ran itself after all, the workers not answering (since start). */
    long fallbacks() {
        return fallbacks.get();
    }

    private static String newId() {
        byte[] b = new byte[12];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The results thread: LISTEN for answers, poll now and then, check the waiting jobs' times. */
    private void listen() {
        long nextPoll = 0;
        while (!closed) {
            try (Connection c = DriverManager.getConnection(jdbcUrl)) {
                EngineJobTable.listen(c, EngineJobTable.DONE_CHANNEL);
                PGConnection pg = c.unwrap(PGConnection.class);
                nextPoll = 0; // a notification may have been missed while there was no connection
                while (!closed) {
                    PGNotification[] notes = pg.getNotifications((int) POLL_MS / 4);
                    List<String> ids = new ArrayList<>();
                    if (notes != null) {
                        for (PGNotification n : notes) {
                            if (pending.containsKey(n.getParameter())) {
                                ids.add(n.getParameter());
                            }
                        }
                    }
                    long now = System.currentTimeMillis();
                    if (now >= nextPoll) {
                        ids = new ArrayList<>(pending.keySet());
                        nextPoll = now + POLL_MS;
                    }
                    if (!ids.isEmpty()) {
                        for (EngineJobTable.Finished f : EngineJobTable.take(c, ids)) {
                            answer(f);
                        }
                    }
                    checkTimes(c, now);
                }
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("engine job results: {}; reconnecting", e.getMessage());
                    sleep(POLL_MS);
                }
            }
        }
    }

    /** Completes a waiting job with a worker's answer. */
    private void answer(EngineJobTable.Finished f) {
        Pending p = pending.remove(f.id());
        if (p == null) {
            return;
        }
        if (f.done()) {
            try {
                EngineResult r = json.readValue(f.result(), EngineResult.class);
                remote.incrementAndGet();
                p.out.complete(r);
                return;
            } catch (JsonProcessingException | RuntimeException e) {
                LOG.error("engine job {}: unreadable result: {}", f.id(), e.getMessage());
            }
        }
        giveUp(p, f.error() == null ? "engine workers: unreadable result" : f.error());
    }

    /** Withdraws the jobs that waited unclaimed too long and gives up on those past their deadline. */
    private void checkTimes(Connection c, long now) throws SQLException {
        for (Pending p : pending.values()) {
            if (now >= p.deadline) {
                EngineJobTable.delete(c, p.id);
                if (pending.remove(p.id) != null) {
                    giveUp(p, "engine workers: no answer in " + (p.deadline - p.withdrawAt + p.wait) / 1000 + " s");
                }
            } else if (now >= p.withdrawAt && !p.withdrawTried) {
                p.withdrawTried = true;
                if (EngineJobTable.withdrawQueued(c, p.id) && pending.remove(p.id) != null) {
                    giveUp(p, "engine workers: no worker took the job in " + p.wait + " ms");
                }
            }
        }
    }

    /** A job the workers did not answer: a computer move runs here, anything else fails. */
    private void giveUp(Pending p, String why) {
        if (p.priority == EngineQueue.Priority.COMPUTER && p.fallback != null) {
            LOG.warn("engine job {}: {}; the computer's move runs on this node", p.id, why);
            runHere(p);
        } else {
            p.out.completeExceptionally(GameError.unavailable(why));
        }
    }

    private void runHere(Pending p) {
        pending.remove(p.id);
        fallbacks.incrementAndGet();
        p.fallback.get().whenComplete((r, e) -> {
            if (e != null) {
                p.out.completeExceptionally(e);
            } else {
                p.out.complete(r);
            }
        });
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops waiting: the jobs still waiting fail (the node is stopping), their rows are left to the sweep. */
    @Override
    public void close() {
        closed = true;
        inserts.shutdownNow();
        results.interrupt();
        for (Map.Entry<String, Pending> e : pending.entrySet()) {
            e.getValue().out.completeExceptionally(GameError.unavailable("engine workers: the node is stopping"));
        }
        pending.clear();
        pool.close();
    }
}
