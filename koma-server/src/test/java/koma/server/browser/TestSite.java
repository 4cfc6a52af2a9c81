package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import koma.server.KomaServer;
import koma.server.ServerConfig;

/**
 * What every browser test stands on: a real Koma server in-process on a free port with a fresh SQLite file in a
 * temporary directory (no rate limit), and an API client of its own (cookies kept, so it holds the seats of the
 * games it creates) that posts as the page does: JSON content type and the server's own Origin. Closing it stops
 * the server and deletes the directory.
 */
final class TestSite implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final KomaServer server;
    final String base;
    private final Path dataDir;
    private final HttpClient http;

    private TestSite(KomaServer server, Path dataDir) {
        this.server = server;
        this.dataDir = dataDir;
        this.base = "http://127.0.0.1:" + server.port();
        this.http = HttpClient.newBuilder().cookieHandler(new CookieManager()).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** Starts a server with the given limits (null: the defaults); fails when Chromium or its driver is missing. */
    static TestSite start(String name, ServerConfig.Limits limits) throws IOException {
        assertTrue(Files.isExecutable(Browser.CHROMIUM) && Files.isExecutable(Browser.CHROMEDRIVER),
                "the browser tests need Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)");
        Path dir = Files.createTempDirectory("koma-" + name + "-test-");
        ServerConfig cfg = new ServerConfig(0, "127.0.0.1", null, dir, 0, 0, 1);
        return new TestSite(KomaServer.start(limits == null ? cfg : cfg.withLimits(limits)), dir);
    }

    /** An answer's status and body. */
    record Answer(int status, String body) {
        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    /** Sends a request (20 s timeout). */
    Answer send(HttpRequest.Builder b) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    /** GET of an API path, asserting 200. */
    JsonNode get(String path) throws IOException, InterruptedException {
        Answer a = send(HttpRequest.newBuilder(URI.create(base + path)));
        assertEquals(200, a.status(), path + ": " + a.body());
        return a.json();
    }

    /** A POST as the page sends it, asserting 200 or 201. */
    JsonNode post(String path, String body) throws IOException, InterruptedException {
        Answer a = send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .header("Origin", base).POST(HttpRequest.BodyPublishers.ofString(body)));
        assertTrue(a.status() == 200 || a.status() == 201, path + ": " + a.status() + " " + a.body());
        return a.json();
    }

    /** The whole game. */
    JsonNode game(String id) throws IOException, InterruptedException {
        return get("/api/games/" + id);
    }

    /** Plays the moves in turn from the game's current ply (this client must hold the seats). */
    void play(String id, String... moves) throws IOException, InterruptedException {
        int ply = game(id).get("ply").asInt();
        for (String m : moves) {
            post("/api/games/" + id + "/moves", "{\"move\":\"" + m + "\",\"ply\":" + ply + "}");
            ply++;
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        try (var files = Files.walk(dataDir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
