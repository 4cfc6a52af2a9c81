package koma.server;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.flywaydb.core.Flyway;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code koma worker}: serves the shared engine job queue ({@link EngineJobTable}) of a PostgreSQL database. Each of
 * its threads claims the first job by priority then age, runs it with {@link EngineJobs#run} and writes the answer;
 * a renewal thread extends the lease of every running claim each third of the lease, so that a worker that dies
 * (SIGKILL, a lost machine) loses its claims a lease later and other workers take its jobs over (at most
 * {@link EngineJobTable#MAX_ATTEMPTS} claims per job). Idle threads sleep until a job is queued (LISTEN) or
 * {@link #POLL_MS} passed. One connection per thread, one for LISTEN and the sweep, one for renewals. Stopped
 * gracefully ({@link #close}), it hands its running jobs back to the queue at once.
 */
public final class EngineWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EngineWorker.class);
    /** An idle thread looks at the queue at least this often (a missed notification costs no more), ms. */
    static final long POLL_MS = 1_000;
    /** How often the leases that ran out after their last claim are failed and old rows deleted, ms. */
    static final long SWEEP_MS = 5_000;
    /** The default lease of a claim. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);

    private final String jdbcUrl;
    private final String id;
    private final long leaseMs;
    private final ObjectMapper json = new ObjectMapper();
    private final List<Thread> threads = new ArrayList<>();
    /** The ids of the jobs running now (their leases are renewed). */
    private final ConcurrentHashMap<String, Boolean> running = new ConcurrentHashMap<>();
    /** Bumped by every notification that a job was queued; idle threads wait for it to change. */
    private final AtomicLong wake = new AtomicLong();
    private final AtomicLong served = new AtomicLong(), failed = new AtomicLong();
    private volatile boolean closed;

    private EngineWorker(String jdbcUrl, String id, long leaseMs) {
        this.jdbcUrl = jdbcUrl;
        this.id = id;
        this.leaseMs = leaseMs;
    }

    /**
     * Starts a worker with {@code threads} engine threads on the queue at {@code jdbcUrl} (migrating the schema if it
     * is new), named {@code id} in the rows it claims (null: host name and process id), its claims leased for
     * {@code lease}.
     */
    public static EngineWorker start(String jdbcUrl, int threads, String id, Duration lease) {
        if (jdbcUrl == null || !jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--db: a worker needs the nodes' PostgreSQL database (jdbc:postgresql://...), got "
                    + (jdbcUrl == null ? "none" : jdbcUrl.replaceAll("password=[^&]*", "password=***")));
        }
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("--threads: must be from 1 to 256, got " + threads);
        }
        if (id != null && (id.isBlank() || id.length() > 64)) {
            throw new IllegalArgumentException("--id: must be 1 to 64 characters");
        }
        if (lease == null || lease.toMillis() < 1_000 || lease.toMillis() > 600_000) {
            throw new IllegalArgumentException("--lease: must be from 1s to 10m, got " + lease);
        }
        Flyway.configure().dataSource(jdbcUrl, null, null).locations("classpath:db/migration").load().migrate();
        EngineWorker w = new EngineWorker(jdbcUrl, id != null ? id : defaultId(), lease.toMillis());
        for (int i = 0; i < threads; i++) {
            w.threads.add(new Thread(w::serve, "koma-worker-" + i));
        }
        w.threads.add(new Thread(w::listen, "koma-worker-listen"));
        w.threads.add(new Thread(w::renew, "koma-worker-renew"));
        for (Thread t : w.threads) {
            t.setDaemon(true);
            t.start();
        }
        LOG.info("engine worker {}: {} threads, lease {} ms", w.id, threads, w.leaseMs);
        return w;
    }

    private static String defaultId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "worker";
        }
        String name = host + "-" + ManagementFactory.getRuntimeMXBean().getPid();
        return name.length() > 64 ? name.substring(0, 64) : name;
    }

    /** The name this worker writes in the rows it claims. */
    public String id() {
        return id;
    }

    /** Jobs this worker answered (since start). */
    public long served() {
        return served.get();
    }

    /** Jobs this worker ran that failed, their failure written to the queue (since start). */
    public long failed() {
        return failed.get();
    }

    /** An engine thread: claim, run, answer; sleep while there is nothing to claim. */
    private void serve() {
        while (!closed) {
            try (Connection c = DriverManager.getConnection(jdbcUrl)) {
                while (!closed) {
                    long seen = wake.get();
                    EngineJobTable.Claim claim = EngineJobTable.claim(c, id, leaseMs);
                    if (claim == null) {
                        idle(seen);
                        continue;
                    }
                    running.put(claim.id(), Boolean.TRUE);
                    String result = null, error = null;
                    try {
                        result = json.writeValueAsString(EngineJobs.run(json.readValue(claim.job(), EngineJob.class)));
                    } catch (Exception e) {
                        error = "engine worker " + id + ": the job failed: " + e.getMessage();
                        LOG.warn("engine job {} failed: {}", claim.id(), e.getMessage());
                    } finally {
                        running.remove(claim.id());
                    }
                    if (EngineJobTable.finish(c, claim.id(), id, result, error)) {
                        (result != null ? served : failed).incrementAndGet();
                    } else {
                        LOG.warn("engine job {}: the claim was lost before the answer (another worker has it)", claim.id());
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("engine worker {}: {}; reconnecting", id, e.getMessage());
                    sleep(POLL_MS);
                }
            }
        }
    }

    /** Waits until a job was queued since {@code seen}, or {@link #POLL_MS}. */
    private void idle(long seen) {
        synchronized (wake) {
            if (wake.get() == seen && !closed) {
                try {
                    wake.wait(POLL_MS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** LISTENs for queued jobs and wakes the idle threads; sweeps now and then. */
    private void listen() {
        long nextSweep = 0;
        while (!closed) {
            try (Connection c = DriverManager.getConnection(jdbcUrl)) {
                EngineJobTable.listen(c, EngineJobTable.JOBS_CHANNEL);
                PGConnection pg = c.unwrap(PGConnection.class);
                while (!closed) {
                    var notes = pg.getNotifications((int) POLL_MS / 2);
                    if (notes != null && notes.length > 0) {
                        synchronized (wake) {
                            wake.incrementAndGet();
                            wake.notifyAll();
                        }
                    }
                    long now = System.currentTimeMillis();
                    if (now >= nextSweep) {
                        int n = EngineJobTable.sweep(c);
                        if (n > 0) {
                            LOG.warn("engine jobs failed after {} claims whose workers stopped: {}",
                                    EngineJobTable.MAX_ATTEMPTS, n);
                        }
                        nextSweep = now + SWEEP_MS;
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("engine worker {} (listen): {}; reconnecting", id, e.getMessage());
                    sleep(POLL_MS);
                }
            }
        }
    }

    /** Extends the leases of the running claims every third of the lease. */
    private void renew() {
        while (!closed) {
            try (Connection c = DriverManager.getConnection(jdbcUrl)) {
                while (!closed) {
                    sleep(leaseMs / 3);
                    for (String job : running.keySet()) {
                        if (!EngineJobTable.renew(c, job, id, leaseMs)) {
                            LOG.warn("engine job {}: the claim was lost (the lease ran out)", job);
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (!closed) {
                    LOG.warn("engine worker {} (renew): {}; reconnecting", id, e.getMessage());
                    sleep(POLL_MS);
                }
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the threads and hands the jobs still running back to the queue (not counted as a claim). */
    @Override
    public void close() {
        closed = true;
        synchronized (wake) {
            wake.notifyAll();
        }
        for (Thread t : threads) {
            t.interrupt();
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl)) {
            EngineJobTable.handBack(c, id);
        } catch (SQLException e) {
            LOG.warn("engine worker {}: its running jobs were not handed back ({}); their leases run out", id,
                    e.getMessage());
        }
    }
}
