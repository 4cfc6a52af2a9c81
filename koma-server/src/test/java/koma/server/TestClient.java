package koma.server;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A test client like {@link Api} (its own cookie jar, JSON POSTs with the server's own Origin) that can also
 * speak as another client behind a trusted proxy ({@code X-Forwarded-For}, when the server trusts 127.0.0.1),
 * and open feeds. Every wait is bounded.
 */
final class TestClient {
    final String base;
    final int port;
    final String forwardedFor;
    final CookieManager cookies = new CookieManager();
    final HttpClient http;

    /** A client of the server on {@code port}; {@code forwardedFor} null sends no X-Forwarded-For. */
    TestClient(int port, String forwardedFor) {
        this.port = port;
        this.base = "http://127.0.0.1:" + port;
        this.forwardedFor = forwardedFor;
        this.http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** A request builder for a path, with the X-Forwarded-For of this client. */
    HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
        if (forwardedFor != null) {
            b.header("X-Forwarded-For", forwardedFor);
        }
        return b;
    }

    Api.Answer get(String path) {
        return send(request(path).GET());
    }

    /** A POST as the web app sends it: JSON, with the server's own Origin. */
    Api.Answer post(String path, String body) {
        return send(request(path).header("Content-Type", "application/json").header("Origin", base)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    Api.Answer send(HttpRequest.Builder b) {
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Api.Answer(r.statusCode(), r.body(), r);
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Creates a game, asserting 201; the game's JSON. */
    JsonNode create(String body) {
        Api.Answer a = post("/api/games", body);
        if (a.status() != 201) {
            throw new AssertionError("create: " + brief(a));
        }
        return a.json();
    }

    /** Plays a move at a ply, asserting 200; the answer {@code {"version", "events"}}. */
    JsonNode move(String id, String move, int ply) {
        Api.Answer a = post("/api/games/" + id + "/moves", "{\"move\":\"" + move + "\",\"ply\":" + ply + "}");
        if (a.status() != 200) {
            throw new AssertionError("move " + move + " at ply " + ply + ": " + brief(a));
        }
        return a.json();
    }

    /** The seat cookie of a game, as a Cookie header value; null without a seat. */
    String cookie(String id) {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("koma_" + id))
                .map(c -> c.getName() + "=" + c.getValue()).findFirst().orElse(null);
    }

    /** Polls {@code GET /api/games/{id}} until the condition holds; fails after {@code ms}. */
    JsonNode waitFor(String id, Predicate<JsonNode> cond, long ms) throws InterruptedException {
        long end = System.nanoTime() + ms * 1_000_000;
        JsonNode last = null;
        while (System.nanoTime() < end) {
            Api.Answer a = get("/api/games/" + id);
            if (a.status() == 200) {
                last = a.json();
                if (cond.test(last)) {
                    return last;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("game " + id + ": condition not met within " + ms + " ms; last " + last);
    }

    /** An answer for a failure message: the status and the start of the body. */
    static String brief(Api.Answer a) {
        String t = a.text();
        return a.status() + " " + (t.length() > 300 ? t.substring(0, 300) + "..." : t);
    }

    /** The last {@code move} event of an action's answer, or null when it has none. */
    static JsonNode lastMoveEvent(JsonNode answer) {
        JsonNode found = null;
        for (JsonNode e : answer.path("events")) {
            if (e.path("type").asText().equals("move")) {
                found = e;
            }
        }
        return found;
    }

    /** Opens a feed with the same-origin Origin and this client's X-Forwarded-For; fails when refused. */
    FeedClient feed(String id) {
        return feed(id, base, cookie(id));
    }

    /** Opens a feed with the given Origin (null: none) and Cookie (null: none); the handshake's failure thrown. */
    FeedClient feed(String id, String origin, String cookie) {
        WebSocket.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                .newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (origin != null) {
            b.header("Origin", origin);
        }
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        if (forwardedFor != null) {
            b.header("X-Forwarded-For", forwardedFor);
        }
        FeedClient f = new FeedClient();
        try {
            f.ws = b.buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/games/" + id), f).get(15, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (Exception e) {
            throw new AssertionError("feed " + id + ": " + e, e);
        }
        return f;
    }

    /** A feed connection that reads every message into a queue and records how it closed. */
    static final class FeedClient implements WebSocket.Listener {
        final LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();
        private final StringBuilder part = new StringBuilder();
        WebSocket ws;

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                messages.add(part.toString());
                part.setLength(0);
            }
            w.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
            w.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
            closed.complete(status);
            return null;
        }

        @Override
        public void onError(WebSocket w, Throwable error) {
            closed.complete(-1);
        }

        /** The next message as JSON; fails after {@code ms}. */
        JsonNode next(long ms) throws InterruptedException {
            String m = messages.poll(ms, TimeUnit.MILLISECONDS);
            if (m == null) {
                throw new AssertionError("no feed message within " + ms + " ms (closed: "
                        + (closed.isDone() ? closed.join() : "no") + ")");
            }
            try {
                return Api.JSON.readTree(m);
            } catch (IOException e) {
                throw new AssertionError("feed message not JSON: " + m, e);
            }
        }

        /** Every message received so far, as JSON. */
        List<JsonNode> drain() throws IOException {
            List<String> raw = new ArrayList<>();
            messages.drainTo(raw);
            List<JsonNode> out = new ArrayList<>();
            for (String m : raw) {
                out.add(Api.JSON.readTree(m));
            }
            return out;
        }

        /** Closes normally, without waiting long for the server's answer. */
        void close() {
            try {
                ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                ws.abort();
            }
        }
    }
}
