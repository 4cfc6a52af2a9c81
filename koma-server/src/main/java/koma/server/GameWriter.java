package koma.server;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit: one thread takes every change waiting, commits them in one transaction, and only then completes
 * each change's future (the request's answer) and publishes its events, in the order the changes were made.
 * Once a second ({@link #HEARTBEAT_MS}) it also records that the server is alive, so a restart knows how
 * long it was down. A batch that fails is retried change by change, so one bad change fails alone; a game whose
 * change failed is marked broken and its later changes fail too (its state in memory is no longer the stored one).
 * The queue is bounded by {@code capacity}: beyond it {@link #submit} refuses before the change is made.
 */
final class GameWriter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GameWriter.class);
    /** Largest number of changes in one transaction. */
    static final int MAX_BATCH = 2_000;
    /** How long a commit waits for more changes to share it (group commit), ns. */
    static final long COMMIT_WINDOW_NANOS = 2_000_000;
    /** How often the heartbeat is written, ms. */
    static final long HEARTBEAT_MS = 1_000;

    /** A change waiting for its commit. */
    private record Pending(Database.Write write, CompletableFuture<LiveGame.Change> done) {
    }

    private final Database db;
    private final int capacity;
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Consumer<LiveGame.Change> publish;
    private final BiConsumer<LiveGame, Throwable> failed;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastHeartbeat;
    /** Batches and changes committed (for the benchmark's report). */
    final AtomicInteger batches = new AtomicInteger(), committed = new AtomicInteger();

    /**
     * @param publish called on the writer thread after a change is committed (its events go to the feed)
     * @param failed  called when a change could not be stored: the game is dropped from memory
     */
    GameWriter(Database db, int capacity, Consumer<LiveGame.Change> publish, BiConsumer<LiveGame, Throwable> failed) {
        this.db = db;
        this.capacity = capacity;
        this.publish = publish;
        this.failed = failed;
        this.thread = new Thread(this::run, "koma-writer");
        thread.setDaemon(true);
        thread.start();
    }

    /** True when the queue has room for another change (check before making it). */
    boolean hasRoom() {
        return waiting.get() < capacity;
    }

    /** Queues a change (call with the game's monitor held, so a game's changes queue in version order). */
    CompletableFuture<LiveGame.Change> submit(LiveGame.Change change, boolean created) {
        CompletableFuture<LiveGame.Change> f = new CompletableFuture<>();
        if (!running) {
            f.completeExceptionally(GameError.unavailable("the server is stopping"));
            return f;
        }
        waiting.incrementAndGet();
        queue.add(new Pending(new Database.Write(change, created), f));
        return f;
    }

    /** Changes waiting for the writer. */
    int waiting() {
        return waiting.get();
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        while (running || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(HEARTBEAT_MS, TimeUnit.MILLISECONDS);
                if (first != null) {
                    batch.add(first);
                    queue.drainTo(batch, MAX_BATCH - 1);
                    if (batch.size() < MAX_BATCH && running) {
                        // the commit window: changes arriving meanwhile share this transaction (and its fsync)
                        long until = System.nanoTime() + COMMIT_WINDOW_NANOS;
                        Pending more;
                        while (batch.size() < MAX_BATCH
                                && (more = queue.poll(until - System.nanoTime(), TimeUnit.NANOSECONDS)) != null) {
                            batch.add(more);
                            queue.drainTo(batch, MAX_BATCH - batch.size());
                        }
                    }
                }
                long now = System.currentTimeMillis();
                boolean beat = now - lastHeartbeat >= HEARTBEAT_MS;
                if (batch.isEmpty() && !beat) {
                    continue;
                }
                commit(batch, beat ? now : 0);
                if (beat) {
                    lastHeartbeat = now;
                }
            } catch (InterruptedException e) {
                if (!running) {
                    break;
                }
            } catch (RuntimeException e) {
                LOG.error("writer failed", e);
            } finally {
                waiting.addAndGet(-batch.size());
                batch.clear();
            }
        }
    }

    private void commit(List<Pending> batch, long aliveAt) {
        List<Database.Write> writes = new ArrayList<>(batch.size());
        List<Pending> live = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            if (p.write().change().game().broken) {
                p.done().completeExceptionally(GameError.unavailable("the game could not be stored; reload it"));
            } else {
                writes.add(p.write());
                live.add(p);
            }
        }
        try {
            db.write(writes, aliveAt);
        } catch (RuntimeException e) {
            if (live.size() <= 1) {
                fail(live, e);
                return;
            }
            LOG.warn("batch of {} changes failed ({}); retrying one by one", live.size(), e.getMessage());
            for (Pending p : live) {
                commit(List.of(p), 0);
            }
            return;
        }
        batches.incrementAndGet();
        committed.addAndGet(live.size());
        for (Pending p : live) {
            try {
                publish.accept(p.write().change());
            } catch (RuntimeException e) {
                LOG.warn("publishing a change of game {} failed", p.write().change().game().id, e);
            }
        }
        for (Pending p : live) {
            // wakes the request waiting for it (no answer is written on this thread: the requests write their own)
            p.done().complete(p.write().change());
        }
    }

    private void fail(List<Pending> ps, RuntimeException e) {
        for (Pending p : ps) {
            LiveGame g = p.write().change().game();
            LOG.error("could not store a change of game {}", g.id, e);
            g.broken = true;
            failed.accept(g, e);
            p.done().completeExceptionally(GameError.unavailable("the change could not be stored: " + e.getMessage()));
        }
    }

    /** Commits what is queued, writes a last heartbeat and stops. */
    @Override
    public void close() {
        running = false; // the thread drains the queue, then sees this within HEARTBEAT_MS
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            db.write(List.of(), System.currentTimeMillis());
        } catch (RuntimeException e) {
            LOG.warn("last heartbeat not written: {}", e.getMessage());
        }
    }
}
