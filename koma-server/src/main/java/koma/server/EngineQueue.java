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
 * on the engine threads ({@link EngineJobs#run}), which complete the futures, or on {@code koma worker} processes
 * through the shared queue in PostgreSQL ({@link RemoteEngines}) when the node is configured so.
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
    /** The shared queue of the engine workers, or null when this node's engine threads run every job. */
    private final RemoteEngines remote;

    /** Engine threads of this node run every job. */
    EngineQueue(int threads, int analysisQueue, int backgroundQueue) {
        this(threads, analysisQueue, backgroundQueue, null);
    }

    /**
     * With {@code remote}, jobs go to the engine workers through the shared queue, and this node's engine threads run
     * only the computer moves the workers did not take ({@link RemoteEngines}); without, they run every job.
     */
    EngineQueue(int threads, int analysisQueue, int backgroundQueue, RemoteEngines remote) {
        this.analysisQueue = analysisQueue;
        this.backgroundQueue = backgroundQueue;
        this.remote = remote;
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
     * for a position or move that does not hold; GameError UNAVAILABLE when the engine workers did not answer); the
     * client's slot is free again before it completes. With engine workers the queue bounds count the shared queue
     * ({@code analysisQueue} or {@code backgroundQueue} jobs queued or running in all), and one analysis per client
     * is counted per node.
     */
    CompletableFuture<EngineResult> submit(EngineJob job, Priority priority, String client) {
        if (job == null || priority == null) {
            throw GameError.invalid("engine job: a job and a priority are required");
        }
        boolean perClient = priority == Priority.ANALYSIS;
        if (perClient && clients.putIfAbsent(client, Boolean.TRUE) != null) {
            throw new GameError(GameError.Kind.TOO_MANY,
                    "analysis: one of yours is still running; one at a time per client", 1);
        }
        CompletableFuture<EngineResult> inner;
        try {
            if (remote == null) {
                inner = local(job, priority, true);
            } else {
                inner = remoteOrFailed(job, priority);
            }
        } catch (RuntimeException e) {
            if (perClient) {
                clients.remove(client);
            }
            throw e;
        }
        if (!perClient) {
            return inner;
        }
        // free the client's slot before it hears the answer, so that it may ask again at once
        CompletableFuture<EngineResult> out = new CompletableFuture<>();
        inner.whenComplete((r, e) -> {
            clients.remove(client);
            if (e != null) {
                out.completeExceptionally(e instanceof java.util.concurrent.CompletionException && e.getCause() != null
                        ? e.getCause() : e);
            } else {
                out.complete(r);
            }
        });
        return out;
    }

    /** A job for the workers; a position or move that does not hold fails here as it would on an engine thread. */
    private CompletableFuture<EngineResult> remoteOrFailed(EngineJob job, Priority priority) {
        try {
            EngineJobs.position(job);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        int bound = switch (priority) {
            case COMPUTER -> Integer.MAX_VALUE;
            case ANALYSIS -> analysisQueue;
            case BACKGROUND -> backgroundQueue;
        };
        return remote.submit(job, priority, bound, () -> local(job, priority, false));
    }

    /** Runs a job on this node's engine threads, refused past its priority's bound when {@code bounded}. */
    private CompletableFuture<EngineResult> local(EngineJob job, Priority priority, boolean bounded) {
        AtomicInteger count = counts[priority.ordinal()];
        int bound = switch (priority) {
            case COMPUTER -> Integer.MAX_VALUE;
            case ANALYSIS -> analysisQueue + pool.getMaximumPoolSize();
            case BACKGROUND -> backgroundQueue + pool.getMaximumPoolSize();
        };
        if (count.incrementAndGet() > bound && bounded) {
            count.decrementAndGet();
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
                count.decrementAndGet();
            }
            if (failure != null) {
                out.completeExceptionally(failure);
            } else {
                out.complete(result);
            }
        }));
        return out;
    }

    /** The shared queue's waiting side when engine work goes to workers, else null. */
    RemoteEngines remote() {
        return remote;
    }

    /** Jobs of this priority queued or running. */
    int queued(Priority priority) {
        return counts[priority.ordinal()].get();
    }

    @Override
    public void close() {
        if (remote != null) {
            remote.close();
        }
        pool.shutdownNow();
    }
}
