package koma.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Newline-delimited JSON streams of the bot and board API (an account's event stream, a game's stream): each open
 * stream has a bounded queue of lines, written by the request's own (virtual) thread, with an empty line as a
 * keep-alive at least every {@link #KEEP_ALIVE_S} seconds. A stream whose queue fills (its client stopped reading)
 * is ended. Streams are counted per account and in all.
 */
final class NdjsonStreams {
    /** Seconds between keep-alive newlines at most (lichess: 7 s). */
    static final int KEEP_ALIVE_S = 6;
    /** Lines waiting per stream; streams per account; streams in all. */
    static final int QUEUE = 256, PER_ACCOUNT = 16, MAX = 2_000;

    /** One open stream: its key (an account id or a game id) and its lines. */
    static final class Stream {
        final String key, account;
        private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(QUEUE);
        private volatile boolean closed;

        Stream(String key, String account) {
            this.key = key;
            this.account = account;
        }

        /** Queues a line; a full queue ends the stream. */
        void send(String line) {
            if (!closed && !lines.offer(line)) {
                closed = true;
            }
        }

        void close() {
            closed = true;
            lines.offer(""); // wakes the pump now rather than at the next keep-alive
        }
    }

    private final Map<String, Set<Stream>> byKey = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> perAccount = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private volatile boolean stopping;

    /** Opens a stream under {@code key} for {@code account}; refuses (429) beyond the limits. */
    Stream open(String key, String account) {
        AtomicInteger n = perAccount.computeIfAbsent(account, k -> new AtomicInteger());
        if (n.incrementAndGet() > PER_ACCOUNT) {
            release(account, n);
            throw GameError.tooMany("streams: " + PER_ACCOUNT + " open streams per account at most");
        }
        if (total.incrementAndGet() > MAX) {
            total.decrementAndGet();
            release(account, n);
            throw new GameError(GameError.Kind.UNAVAILABLE, "streams: the server holds " + MAX + ", its limit", 10);
        }
        Stream s = new Stream(key, account);
        byKey.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(s);
        return s;
    }

    private void release(String account, AtomicInteger n) {
        if (n.decrementAndGet() <= 0) {
            perAccount.remove(account, n);
        }
    }

    /** Sends a line to every stream under {@code key}. */
    void send(String key, String line) {
        Set<Stream> set = byKey.get(key);
        if (set != null) {
            for (Stream s : set) {
                s.send(line);
            }
        }
    }

    /** True when some stream is open under {@code key}. */
    boolean open(String key) {
        Set<Stream> set = byKey.get(key);
        return set != null && !set.isEmpty();
    }

    /**
     * Writes the stream's lines to {@code out} until it ends (closed, or the client went away), then forgets it.
     * Runs on the request's thread (a virtual thread).
     */
    void pump(Stream s, OutputStream out) {
        try {
            out.flush();
            while (!s.closed && !stopping) {
                String line = s.lines.poll(KEEP_ALIVE_S, TimeUnit.SECONDS);
                out.write(((line == null ? "" : line) + "\n").getBytes(StandardCharsets.UTF_8));
                String more;
                while ((more = s.lines.poll()) != null) {
                    out.write((more + "\n").getBytes(StandardCharsets.UTF_8));
                }
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            s.closed = true;
            Set<Stream> set = byKey.get(s.key);
            if (set != null) {
                set.remove(s);
                if (set.isEmpty()) {
                    byKey.remove(s.key, set);
                }
            }
            total.decrementAndGet();
            AtomicInteger n = perAccount.get(s.account);
            if (n != null) {
                release(s.account, n);
            }
        }
    }

    /** Ends every stream (the server stops). */
    void stop() {
        stopping = true;
        byKey.values().forEach(set -> set.forEach(Stream::close));
    }

    int size() {
        return total.get();
    }
}
