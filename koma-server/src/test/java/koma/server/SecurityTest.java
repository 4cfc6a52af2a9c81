package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The browser-facing defences of a real server, black-box: the security headers on every kind of answer,
 * cross-site request forgery from another port of the same host (same site, so SameSite=Lax cookies go along),
 * cross-site WebSocket hijacking, and ids carrying markup. The server runs in-process on a free port with a
 * SQLite file and allows one extra origin, {@code https://koma.example} (as behind a TLS proxy).
 */
class SecurityTest {
    /** The extra origin the server allows. */
    private static final String EXTRA = "https://koma.example";

    @TempDir
    static Path dir;
    static KomaServer server;
    static int port;

    @BeforeAll
    static void start() {
        server = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, dir, 0, 100, 1, ServerConfig.Limits.DEFAULTS,
                List.of(), List.of(EXTRA)));
        port = server.port();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A plain HTTP client without a cookie jar: the attacker's page sends exactly the headers given. */
    private static final HttpClient RAW = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static HttpResponse<String> raw(HttpRequest.Builder b) throws Exception {
        return RAW.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String error(HttpResponse<String> r) throws Exception {
        return Api.JSON.readTree(r.body()).path("error").asText();
    }

    /** Asserts that an answer carries every security header with its value. */
    private static void assertSecurityHeaders(String what, HttpResponse<String> r) {
        for (Map.Entry<String, String> h : RequestGuard.HEADERS.entrySet()) {
            assertEquals(h.getValue(), r.headers().firstValue(h.getKey()).orElse(null),
                    what + " (" + r.statusCode() + "): header " + h.getKey());
        }
    }

    @Test
    void everyAnswerCarriesTheSecurityHeaders() throws Exception {
        TestClient c = new TestClient(port, null);
        String id = c.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        List<String[]> gets = List.of(new String[]{"page", "/"}, new String[]{"game page", "/game/" + id},
                new String[]{"API", "/api/variants"}, new String[]{"game", "/api/games/" + id},
                new String[]{"export", "/api/games/" + id + "/export?format=pgn"},
                new String[]{"unknown API path", "/api/nothing"}, new String[]{"unknown game", "/api/games/zzzzzzzzzz"},
                new String[]{"missing file", "/no-such-file.css"}, new String[]{"bad query", "/api/games/" + id
                        + "/export?format=doc"});
        for (String[] g : gets) {
            assertSecurityHeaders(g[0], c.get(g[1]).raw());
        }
        assertEquals(404, c.get("/api/nothing").status());
        assertEquals(400, c.get("/api/games/" + id + "/export?format=doc").status());
        assertSecurityHeaders("bad body", c.post("/api/games", "{\"variant\":").raw());
        assertSecurityHeaders("wrong method", c.send(c.request("/api/variants").DELETE()
                .header("Content-Type", "application/json").header("Origin", c.base)).raw());
        assertSecurityHeaders("created", c.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"hotseat\"}").raw());
        assertSecurityHeaders("cross-site refusal", raw(HttpRequest.newBuilder(URI.create(c.base + "/api/games"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{}"))));
    }

    @Test
    void crossPortFormPostCannotMoveForTheVictim() throws Exception {
        TestClient victim = new TestClient(port, null);
        String id = victim.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        String seat = victim.cookie(id);
        assertNotNull(seat);
        // a page on another port of 127.0.0.1: the same site, so the browser sends the SameSite=Lax seat cookie
        String evil = "http://127.0.0.1:" + (port == 65535 ? port - 1 : port + 1);
        String body = "{\"move\":\"e2e4\",\"ply\":0}";
        URI moves = URI.create(victim.base + "/api/games/" + id + "/moves");

        // an HTML form (enctype text/plain) posting the JSON text
        HttpResponse<String> form = raw(HttpRequest.newBuilder(moves).header("Content-Type", "text/plain")
                .header("Cookie", seat).header("Origin", evil).header("Sec-Fetch-Site", "same-site")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(403, form.statusCode(), form.body());
        assertTrue(error(form).startsWith("content-type:"), form.body());
        assertEquals(0, victim.get("/api/games/" + id).json().get("ply").asInt(), "the game still has ply 0");

        // a fetch with a JSON content type from the foreign origin (the browser's preflight is not granted, and
        // a client that skips it is refused by its Origin)
        HttpResponse<String> foreign = raw(HttpRequest.newBuilder(moves).header("Content-Type", "application/json")
                .header("Cookie", seat).header("Origin", evil).POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(403, foreign.statusCode(), foreign.body());
        assertTrue(error(foreign).startsWith("origin:"), foreign.body());

        // no Origin and no Sec-Fetch-Site: refused (a browser always sends one of them)
        HttpResponse<String> bare = raw(HttpRequest.newBuilder(moves).header("Content-Type", "application/json")
                .header("Cookie", seat).POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(403, bare.statusCode(), bare.body());
        assertEquals("origin: a request that changes state must carry a same-origin Origin or Sec-Fetch-Site header",
                error(bare));

        // Sec-Fetch-Site without Origin: cross-site and same-site are refused
        for (String site : List.of("cross-site", "same-site")) {
            HttpResponse<String> r = raw(HttpRequest.newBuilder(moves).header("Content-Type", "application/json")
                    .header("Cookie", seat).header("Sec-Fetch-Site", site)
                    .POST(HttpRequest.BodyPublishers.ofString(body)));
            assertEquals(403, r.statusCode(), site + ": " + r.body());
            assertTrue(error(r).startsWith("sec-fetch-site:"), r.body());
        }
        // Origin: null (a sandboxed frame, a file: page)
        HttpResponse<String> opaque = raw(HttpRequest.newBuilder(moves).header("Content-Type", "application/json")
                .header("Cookie", seat).header("Origin", "null").POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(403, opaque.statusCode(), opaque.body());
        // the other state changes are guarded too: creating a game, resigning
        HttpResponse<String> create = raw(HttpRequest.newBuilder(URI.create(victim.base + "/api/games"))
                .header("Content-Type", "text/plain").header("Origin", evil)
                .POST(HttpRequest.BodyPublishers.ofString("{\"variant\":\"chess\",\"mode\":\"hotseat\"}")));
        assertEquals(403, create.statusCode(), create.body());
        HttpResponse<String> resign = raw(HttpRequest.newBuilder(URI.create(victim.base + "/api/games/" + id
                + "/resign")).header("Content-Type", "application/json").header("Cookie", seat).header("Origin", evil)
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(403, resign.statusCode(), resign.body());
        JsonNode untouched = victim.get("/api/games/" + id).json();
        assertEquals(0, untouched.get("ply").asInt(), "nothing of the above played");
        assertEquals("active", untouched.get("status").asText(), "nothing of the above resigned");

        // the same origin, and Sec-Fetch-Site same-origin without Origin, and the configured extra origin: allowed
        HttpResponse<String> own = raw(HttpRequest.newBuilder(moves).header("Content-Type", "application/json")
                .header("Cookie", seat).header("Origin", victim.base).POST(HttpRequest.BodyPublishers.ofString(body)));
        assertEquals(200, own.statusCode(), own.body());
        HttpResponse<String> sameOrigin = raw(HttpRequest.newBuilder(moves)
                .header("Content-Type", "application/json; charset=utf-8").header("Cookie", seat)
                .header("Sec-Fetch-Site", "same-origin")
                .POST(HttpRequest.BodyPublishers.ofString("{\"move\":\"e7e5\",\"ply\":1}")));
        assertEquals(200, sameOrigin.statusCode(), sameOrigin.body());
        HttpResponse<String> extra = raw(HttpRequest.newBuilder(moves).header("Content-Type", "application/json")
                .header("Cookie", seat).header("Origin", EXTRA)
                .POST(HttpRequest.BodyPublishers.ofString("{\"move\":\"g1f3\",\"ply\":2}")));
        assertEquals(200, extra.statusCode(), extra.body());
        assertEquals(3, victim.get("/api/games/" + id).json().get("ply").asInt());
    }

    @Test
    void feedUpgradeFromAnotherOriginIsRefused() throws Exception {
        TestClient c = new TestClient(port, null);
        String id = c.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        String seat = c.cookie(id);
        for (String evil : List.of("http://evil.example", "http://127.0.0.1:" + (port + 1), "null")) {
            CompletionException e = assertThrows(CompletionException.class, () -> c.feed(id, evil, seat), evil);
            WebSocketHandshakeException h = assertInstanceOf(WebSocketHandshakeException.class, e.getCause(), evil);
            assertEquals(403, h.getResponse().statusCode(), evil + ": refused before the upgrade");
        }
        assertEquals(0, server.feedConnections(), "no refused feed is counted as open");
        // the same origin connects and hears the whole game first
        TestClient.FeedClient own = c.feed(id, c.base, seat);
        JsonNode hello = own.next(10_000);
        assertEquals("game", hello.get("type").asText(), hello.toString());
        assertTrue(hello.get("version").isIntegralNumber(), hello.toString());
        assertEquals("both", hello.get("game").get("you").asText());
        // a client without Origin (not a browser: nothing to hijack) connects too, as a spectator
        TestClient.FeedClient noOrigin = c.feed(id, null, null);
        assertEquals("game", noOrigin.next(10_000).get("type").asText());
        own.close();
        noOrigin.close();
    }

    @Test
    void idsWithMarkupAnswerEscapedJson() throws Exception {
        TestClient c = new TestClient(port, null);
        c.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}");
        // percent-encoded: <script>alert(1) (no closing tag: Jetty refuses an encoded slash as ambiguous), an img
        // onerror, and a quote that would end the JSON string if the id were pasted in unescaped
        Map<String, String> ids = Map.of("%3Cscript%3Ealert(1)", "<script>alert(1)",
                "%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E", "<img src=x onerror=alert(1)>",
                "%22%2C%22you%22%3A%22both", "\",\"you\":\"both");
        List<String> seen = new ArrayList<>();
        for (Map.Entry<String, String> e : ids.entrySet()) {
            for (String suffix : List.of("", "/export?format=pgn", "/analysis")) {
                Api.Answer a = c.get("/api/games/" + e.getKey() + suffix);
                String what = e.getValue() + suffix;
                assertEquals(404, a.status(), what + ": " + TestClient.brief(a));
                assertTrue(a.raw().headers().firstValue("Content-Type").orElse("").startsWith("application/json"),
                        what + ": JSON, never HTML");
                assertEquals("nosniff", a.raw().headers().firstValue("X-Content-Type-Options").orElse(null), what);
                JsonNode body = a.json(); // parses: the id did not break the JSON
                Iterator<String> fields = body.fieldNames();
                assertEquals("error", fields.next(), what);
                // the refusal's text, then its code and (empty) params for the page's translation: nothing injected
                assertEquals("code", fields.next(), what);
                assertEquals("params", fields.next(), what);
                assertTrue(!fields.hasNext(), what + ": three fields only, nothing injected: " + TestClient.brief(a));
                assertEquals("noGame", body.get("code").asText(), what);
                assertEquals(0, body.get("params").size(), what);
                String err = body.get("error").asText();
                // the id, if quoted back, is quoted whole (the escape round-trips), never cut at the quote
                assertTrue(!err.contains("\"") || err.contains(e.getValue()), what + ": " + err);
                seen.add(err);
            }
        }
        assertEquals(9, seen.size());
    }
}
