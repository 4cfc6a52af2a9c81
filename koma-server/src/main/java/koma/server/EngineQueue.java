package koma.server;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine threads and their one queue: the computer's moves in live games always run before analyses;
 * analyses are bounded ({@code analysisQueue} waiting at most, one at a time per client) and refused when over.
 * Nothing here blocks a caller: jobs run on the engine threads and report through their own callbacks.
 */
final class EngineQueue implements AutoCloseable {
    /** A queued job: its priority class (0 = computer move, 1 = analysis), then first come, first served. */
    private static final class Job implements Runnable, Comparable<Job> {
        final int priority;
        final long seq;
        final Runnable work;

        Job(int priority, long seq, Runnable work) {
            this.priority = priority;
            this.seq = seq;
            this.work = work;
        }

        @Override
        public void run() {
            work.run();
        }

        @Override
        public int compareTo(Job o) {
            return priority != o.priority ? Integer.compare(priority, o.priority) : Long.compare(seq, o.seq);
        }
    }

    /** Why an analysis was not queued. */
    enum Refusal { NONE, CLIENT_BUSY, QUEUE_FULL }

    private final ThreadPoolExecutor pool;
    private final AtomicLong seq = new AtomicLong();
    private final int analysisQueue;
    private final AtomicInteger analyses = new AtomicInteger();
    private final ConcurrentHashMap<String, Boolean> clients = new ConcurrentHashMap<>();

    EngineQueue(int threads, int analysisQueue) {
        this.analysisQueue = analysisQueue;
        this.pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new PriorityBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "koma-engine");
                    t.setDaemon(true);
                    return t;
                });
    }

    /** Queues a computer move (or draw answer); at most one per live computer game, so bounded by the games. */
    void computer(Runnable work) {
        pool.execute(new Job(0, seq.incrementAndGet(), work));
    }

    /**
     * Queues an analysis for a client unless that client already has one queued or running, or the queue holds
     * {@code analysisQueue} analyses plus one per engine thread.
     */
    Refusal analysis(String client, Runnable work) {
        if (clients.putIfAbsent(client, Boolean.TRUE) != null) {
            return Refusal.CLIENT_BUSY;
        }
        if (analyses.incrementAndGet() > analysisQueue + pool.getMaximumPoolSize()) {
            analyses.decrementAndGet();
            clients.remove(client);
            return Refusal.QUEUE_FULL;
        }
        pool.execute(new Job(1, seq.incrementAndGet(), () -> {
            try {
                work.run();
            } finally {
                analyses.decrementAndGet();
                clients.remove(client);
            }
        }));
        return Refusal.NONE;
    }

    /** Analyses queued or running. */
    int analyses() {
        return analyses.get();
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
