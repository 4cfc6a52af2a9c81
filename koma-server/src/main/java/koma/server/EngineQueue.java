package koma.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where engine work waits and runs: {@link #submit} takes an {@link EngineJob} with a priority and answers with a
 * future of its {@link EngineResult}. The computer's moves in live games run before analyses, and analyses before
 * background work (whole-game analyses). Bounds, checked when a job is submitted and refused synchronously with a
 * {@link GameError}: {@link Priority#COMPUTER} has none of its own (at most one job per live computer game, so the
 * live games bound it); {@link Priority#ANALYSIS} allows one job per client at a time (else TOO_MANY) and
 * {@code analysisQueue} waiting plus one per engine thread (else UNAVAILABLE); {@link Priority#BACKGROUND} allows
 * {@code backgroundQueue} waiting plus one per engine thread (else UNAVAILABLE). Nothing here blocks a caller: jobs run
 * on the engine threads ({@link EngineJobs#run}), which complete the futures.
 */
final class EngineQueue implements AutoCloseable {
    /** A job's class: the lower runs first. */
    enum Priority {
        /** The computer's move (or draw answer) in a live game. */
        COMPUTER,
        /** A client's analysis of one position. */
        ANALYSIS,
        /** Work nobody waits on move by move (whole-game analyses): runs when nothing else waits. */
        BACKGROUND
    }

    /** A queued job: its priority class, then first come, first served. */
    private static final class Queued implements Runnable, Comparable<Queued> {
        final int priority;
        final long seq;
        final Runnable work;

        Queued(int priority, long seq, Runnable work) {
            this.priority = priority;
            this.seq = seq;
            this.work = work;
        }

        @Override
        public void run() {
            work.run();
        }

        @Override
        public int compareTo(Queued o) {
            return priority != o.priority ? Integer.compare(priority, o.priority) : Long.compare(seq, o.seq);
        }
    }

    private final ThreadPoolExecutor pool;
    private final AtomicLong seq = new AtomicLong();
    private final int analysisQueue;
    private final int backgroundQueue;
    /** Jobs queued or running, by priority. */
    private final AtomicInteger[] counts = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
    /** The clients with an analysis queued or running. */
    private final ConcurrentHashMap<String, Boolean> clients = new ConcurrentHashMap<>();

    EngineQueue(int threads, int analysisQueue, int backgroundQueue) {
        this.analysisQueue = analysisQueue;
        this.backgroundQueue = backgroundQueue;
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new PriorityBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "koma-engine");
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Queues a job for {@code client} (the per-client bound's key) unless a bound refuses it (a GameError, thrown
     * here). The future completes with the result, or exceptionally with what the job threw (IllegalArgumentException
     * for a position or move that does not hold); the client's slot is free again before it completes.
     */
    CompletableFuture<EngineResult> submit(EngineJob job, Priority priority, String client) {
        if (job == null || priority == null) {
            throw GameError.invalid("engine job: a job and a priority are required");
        }
        AtomicInteger count = counts[priority.ordinal()];
        boolean perClient = priority == Priority.ANALYSIS;
        if (perClient && clients.putIfAbsent(client, Boolean.TRUE) != null) {
            throw new GameError(GameError.Kind.TOO_MANY,
                    "analysis: one of yours is still running; one at a time per client", 1);
        }
        int bound = switch (priority) {
            case COMPUTER -> Integer.MAX_VALUE;
            case ANALYSIS -> analysisQueue + pool.getMaximumPoolSize();
            case BACKGROUND -> backgroundQueue + pool.getMaximumPoolSize();
        };
        if (count.incrementAndGet() > bound) {
            count.decrementAndGet();
            if (perClient) {
                clients.remove(client);
            }
            throw new GameError(GameError.Kind.UNAVAILABLE, (priority == Priority.ANALYSIS ? "analysis" : "background")
                    + ": the engine queue is full; try again shortly", 2);
        }
        CompletableFuture<EngineResult> out = new CompletableFuture<>();
        pool.execute(new Queued(priority.ordinal(), seq.incrementAndGet(), () -> {
            EngineResult result = null;
            RuntimeException failure = null;
            try {
                result = EngineJobs.run(job);
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                // free the slot before the client hears the answer, so that it may ask again at once
                count.decrementAndGet();
                if (perClient) {
                    clients.remove(client);
                }
            }
            if (failure != null) {
                out.completeExceptionally(failure);
            } else {
                out.complete(result);
            }
        }));
        return out;
    }

    /** Jobs of this priority queued or running. */
    int queued(Priority priority) {
        return counts[priority.ordinal()].get();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
