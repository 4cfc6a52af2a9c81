package koma.server;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A token bucket per client address: {@code burst} tokens, refilled at {@code perSecond}; each request takes
 * one. Buckets idle long enough to be full again are dropped now and then, so the map stays small. With several
 * nodes the buckets live in Redis ({@link Relay#acquire}, named {@code name:client}), so that a client has the same
 * allowance whichever node it reaches; when Redis does not answer, the node's own bucket decides.
 */
final class RateLimiter {
    private static final class Bucket {
        double tokens;
        long lastNanos;
    }

    private final double perSecond;
    private final int burst;
    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
    private volatile long lastSweep = System.nanoTime();

    private final Relay shared;
    private final String name;

    RateLimiter(double perSecond, int burst) {
        this(perSecond, burst, null, null);
    }

    /** With {@code shared} not null, the buckets named {@code name} are shared by the nodes through Redis. */
    RateLimiter(double perSecond, int burst, Relay shared, String name) {
        this.perSecond = perSecond;
        this.burst = Math.max(1, burst);
        this.shared = shared;
        this.name = name;
    }

    boolean enabled() {
        return perSecond > 0;
    }

    /** Takes a token for the client; returns 0 when allowed, else the seconds to wait (at least 1). */
    long acquire(String client) {
        if (!enabled()) {
            return 0;
        }
        if (shared != null) {
            long wait = shared.acquire(name + ":" + client, perSecond, burst);
            if (wait >= 0) {
                return wait;
            }
        }
        long now = System.nanoTime();
        sweep(now);
        Bucket b = buckets.computeIfAbsent(client, k -> {
            Bucket nb = new Bucket();
            nb.tokens = burst;
            nb.lastNanos = now;
            return nb;
        });
        synchronized (b) {
            b.tokens = Math.min(burst, b.tokens + (now - b.lastNanos) / 1e9 * perSecond);
            b.lastNanos = now;
            if (b.tokens >= 1) {
                b.tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - b.tokens) / perSecond));
        }
    }

    private void sweep(long now) {
        if (now - lastSweep < 60_000_000_000L) {
            return;
        }
        lastSweep = now;
        long full = (long) (burst / perSecond * 1e9);
        buckets.entrySet().removeIf(e -> now - e.getValue().lastNanos > full);
    }
}
