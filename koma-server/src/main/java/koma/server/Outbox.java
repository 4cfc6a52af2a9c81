package koma.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.jetty.websocket.api.WriteCallback;

import io.javalin.websocket.WsContext;

/**
 * The sending side of one WebSocket connection: asynchronous sends, at most {@code limit} messages not yet written;
 * a client that falls further behind is sent a close frame (4008) and dropped {@link #CUT_OFF_SECONDS} later.
 */
final class Outbox {
    /** Close code for a client that reads too slowly. */
    static final int TOO_SLOW = 4008;
    /** Seconds a too slow client has to read up to the close frame before its connection is dropped. */
    static final long CUT_OFF_SECONDS = 5;

    final WsContext ctx;
    private final int limit;
    /** Run once when the connection is cut off for reading too slowly (a count for monitoring). */
    private final Runnable onCutOff;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean closed;

    Outbox(WsContext ctx, int limit) {
        this(ctx, limit, () -> { });
    }

    Outbox(WsContext ctx, int limit, Runnable onCutOff) {
        this.ctx = ctx;
        this.limit = limit;
        this.onCutOff = onCutOff;
    }

    /** Queues a message; returns false when the connection is closed or was just cut off for being too slow. */
    boolean send(String text) {
        if (closed || !ctx.session.isOpen()) {
            return false;
        }
        if (pending.incrementAndGet() > limit) {
            closed = true;
            onCutOff.run();
            ctx.session.close(TOO_SLOW, "too slow: more than " + limit + " messages unread");
            // the close frame goes after what is queued; a client that never reads again is cut off a little later
            CompletableFuture.delayedExecutor(CUT_OFF_SECONDS, TimeUnit.SECONDS).execute(ctx.session::disconnect);
            return false;
        }
        ctx.session.getRemote().sendString(text, new WriteCallback() {
            @Override
            public void writeFailed(Throwable x) {
                pending.decrementAndGet();
            }

            @Override
            public void writeSuccess() {
                pending.decrementAndGet();
            }
        });
        return true;
    }

    void close() {
        closed = true;
    }

    boolean closed() {
        return closed;
    }
}
