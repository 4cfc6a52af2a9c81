package koma.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

import io.javalin.http.Context;

/**
 * Hands a request to the node that owns its game, seek or lobby connection (several nodes), and relays the answer:
 * status, body, content type, cookies and Retry-After; a streamed answer (ndjson) is copied as it comes. The owner
 * knows the forward by the nodes' shared secret ({@link #NODE_HEADER}) and takes the client's key from
 * {@link #CLIENT_HEADER}, since this node has checked the request's origin and rate already. At most
 * {@link #MAX_PENDING} forwards wait at once (503 beyond), each at most {@link #TIMEOUT} for its answer to begin.
 */
final class Forwarder {
    static final String NODE_HEADER = "X-Koma-Node";
    static final String CLIENT_HEADER = "X-Koma-Client";
    static final int MAX_PENDING = 512;
    static final Duration TIMEOUT = Duration.ofSeconds(15);
    private static final List<String> REQUEST_HEADERS = List.of("Content-Type", "Cookie", "Authorization", "Accept",
            "Accept-Language");
    private static final List<String> ANSWER_HEADERS = List.of("Content-Type", "Retry-After", "Cache-Control",
            "Content-Disposition");

    /**
     * The status a node answers a forwarded request about a game it does not own (the sender's idea of the owner was
     * stale): the sender looks the owner up again and forwards once more. Never sent to a client.
     */
    static final int MISDIRECTED = 421;

    /** The owner could not be reached: the caller may take the game over when its lease runs out, or retry. */
    static final class Unreachable extends Exception {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The node forwarded to does not own the game (any more): look the owner up again. */
    static final class Misdirected extends Exception {
        Misdirected() {
            super("misdirected", null, false, false);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    private final Semaphore pending = new Semaphore(MAX_PENDING);
    private final String secret;
    /** Requests forwarded, and their total time in microseconds (for the measurements). */
    final AtomicLong forwarded = new AtomicLong(), forwardMicros = new AtomicLong();

    Forwarder(String secret) {
        this.secret = secret;
    }

    /** Forwards the request to {@code address} (the owner's base URL) and writes its answer to {@code ctx}. */
    void forward(Context ctx, String address, String client) throws Unreachable, Misdirected {
        if (!pending.tryAcquire()) {
            throw new GameError(GameError.Kind.UNAVAILABLE, "forwards: " + MAX_PENDING
                    + " requests wait for other nodes, the limit; try again shortly", 1).coded("busy");
        }
        long t0 = System.nanoTime();
        try {
            String query = ctx.queryString();
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(address + ctx.path() + (query == null ? "" : "?" + query)))
                    .timeout(TIMEOUT).header(NODE_HEADER, secret).header(CLIENT_HEADER, client);
            for (String h : REQUEST_HEADERS) {
                String v = ctx.header(h);
                if (v != null) {
                    b.header(h, v);
                }
            }
            byte[] body;
            try {
                body = KomaServer.rawBody(ctx);
            } catch (IOException e) {
                throw new ApiException(400, "body: unreadable: " + e.getMessage());
            }
            String method = ctx.method().name();
            b.method(method, body.length == 0 && (method.equals("GET") || method.equals("HEAD"))
                    ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            HttpResponse<InputStream> r;
            try {
                r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                throw new Unreachable("node at " + address + " did not answer: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unreachable("interrupted", e);
            }
            if (r.statusCode() == MISDIRECTED) {
                try (InputStream ignored = r.body()) {
                    throw new Misdirected();
                } catch (IOException e) {
                    throw new Misdirected();
                }
            }
            ctx.status(r.statusCode());
            for (String h : ANSWER_HEADERS) {
                r.headers().firstValue(h).ifPresent(v -> ctx.header(h, v));
            }
            for (String cookie : r.headers().allValues("Set-Cookie")) {
                ctx.res().addHeader("Set-Cookie", cookie);
            }
            String type = r.headers().firstValue("Content-Type").orElse("");
            try (InputStream in = r.body()) {
                if (type.startsWith("application/x-ndjson")) {
                    stream(ctx, in);
                } else {
                    ctx.result(in.readAllBytes());
                }
            } catch (IOException e) {
                throw new Unreachable("node at " + address + " broke off its answer: " + e.getMessage(), e);
            }
        } finally {
            pending.release();
            forwarded.incrementAndGet();
            forwardMicros.addAndGet((System.nanoTime() - t0) / 1000);
        }
    }

    /** Copies a streamed answer as it comes, flushing each piece, until either side closes. */
    private static void stream(Context ctx, InputStream in) throws IOException {
        ctx.res().setBufferSize(1024);
        OutputStream out = ctx.res().getOutputStream();
        byte[] buf = new byte[4096];
        int n;
        while ((n = in.read(buf)) >= 0) {
            out.write(buf, 0, n);
            out.flush();
        }
    }

    /** A node-to-node POST of a JSON body (several nodes' own calls, such as taking a pool entry): status and body. */
    String[] postInternal(String address, String path, String jsonBody, String client) throws Unreachable {
        HttpRequest r = HttpRequest.newBuilder(URI.create(address + path)).timeout(TIMEOUT).header(NODE_HEADER, secret)
                .header(CLIENT_HEADER, client).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody)).build();
        try {
            HttpResponse<String> a = http.send(r, HttpResponse.BodyHandlers.ofString());
            return new String[]{String.valueOf(a.statusCode()), a.body()};
        } catch (IOException e) {
            throw new Unreachable("node at " + address + " did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted", e);
        }
    }

    /**
     * Fetches a game's view from its owner for a relayed feed: GET /api/games/{id} with the connection's cookies.
     * Returns the status and body.
     */
    String[] fetchGame(String address, String gameId, String cookies, String client) throws Unreachable {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(address + "/api/games/" + gameId)).timeout(TIMEOUT)
                .header(NODE_HEADER, secret).header(CLIENT_HEADER, client).GET();
        if (cookies != null && !cookies.isEmpty()) {
            b.header("Cookie", cookies);
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new String[]{String.valueOf(r.statusCode()), r.body()};
        } catch (IOException e) {
            throw new Unreachable("node at " + address + " did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unreachable("interrupted", e);
        }
    }
}
