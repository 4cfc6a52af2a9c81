package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import koma.protocol.match.EngineConfig;
import koma.server.AccountAdmin;
import koma.server.KomaServer;
import koma.server.ServerConfig;

/**
 * {@code koma bot} against a real server: the bridge with Koma's own engine accepts a chess challenge from an API
 * client and answers every move until the client resigns, declines a rule set it was not told to accept, and plays a
 * whole Shodo game against Fairy-Stockfish put online by a second bridge ({@code --engine fairy-stockfish}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BotCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private Path data;
    private KomaServer server;
    private String base;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void start() throws Exception {
        data = Files.createTempDirectory("koma-bot-test-");
        server = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, data, 0, 0, 1));
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private String token(String name, boolean bot) {
        return AccountAdmin.add("jdbc:sqlite:" + data.resolve("koma.db"), name, bot).token();
    }

    private JsonNode post(String token, String path, String form) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(r.statusCode() < 300, path + ": " + r.statusCode() + " " + r.body());
        return JSON.readTree(r.body());
    }

    private JsonNode get(String token, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Authorization", "Bearer " + token)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return JSON.readTree(r.body());
    }

    /** A bridge on its own thread; its log is kept. */
    private record Running(BotBridge bridge, Thread thread, ByteArrayOutputStream log) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            bridge.close();
            thread.interrupt();
            thread.join(10_000);
        }

        String text() {
            return log.toString(StandardCharsets.UTF_8);
        }
    }

    private Running bridge(String token, EngineConfig engine, Set<String> variants) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        BotBridge b = new BotBridge(new BotBridge.Settings(base, token, engine, variants, 2, true, true, 500),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try {
                b.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return new Running(b, t, log);
    }

    private static EngineConfig koma() {
        return new EngineConfig(BotCommand.ownEngine(), EngineConfig.Protocol.UCI, "Koma", List.of());
    }

    /** Waits until the game's status is not "active" any more, at most {@code ms}; returns the game. */
    private JsonNode waitEnd(String token, String id, long ms) throws Exception {
        long until = System.currentTimeMillis() + ms;
        JsonNode g = get(token, "/api/games/" + id);
        while (g.get("status").asText().equals("active") && System.currentTimeMillis() < until) {
            Thread.sleep(250);
            g = get(token, "/api/games/" + id);
        }
        return g;
    }

    /** Waits until {@code log} holds {@code text}, at most {@code ms}, and fails naming it when it does not. */
    private static void awaitLog(java.util.function.Supplier<String> log, String text, long ms) throws InterruptedException {
        long until = System.currentTimeMillis() + ms;
        while (!log.get().contains(text) && System.currentTimeMillis() < until) {
            Thread.sleep(50);
        }
        assertTrue(log.get().contains(text), "the bridge's log says \"" + text + "\" within " + ms + " ms:\n" + log.get());
    }

    @Test
    void komaAnswersEveryMoveOfAChallengerAndDeclinesOtherRuleSets() throws Exception {
        String bot = token("KomaBot1", true), me = token("Person1", false);
        try (Running r = bridge(bot, koma(), Set.of("chess"))) {
            awaitLog(r::text, "bot: signed in", 10_000); // open challenges are sent when its event stream opens
            String declined = post(me, "/api/challenge/KomaBot1", "variant=washogi").get("id").asText();
            String id = null;
            post(me, "/api/challenge/KomaBot1", "variant=chess&clock.limit=60&clock.increment=1&color=white");
            // the bridge accepts: the game appears in the person's account
            for (int i = 0; i < 100 && id == null; i++) {
                Thread.sleep(100);
                JsonNode games = get(me, "/api/users/Person1/games").get("games");
                id = games.isEmpty() ? null : games.get(0).get("id").asText();
            }
            assertTrue(id != null, "the bridge accepted the chess challenge:\n" + r.text());
            assertTrue(r.text().contains("declined challenge " + declined + " (variant)"), r.text());
            for (int ply = 0; ply < 8; ply += 2) {
                JsonNode g = get(me, "/api/games/" + id);
                assertEquals("first", g.get("you").asText(), "the person's account holds White");
                post(me, "/api/board/game/" + id + "/move/" + g.get("legalMoves").get(0).asText(), "");
                int next = ply + 2;
                long until = System.currentTimeMillis() + 20_000;
                while (get(me, "/api/games/" + id).get("ply").asInt() < next && System.currentTimeMillis() < until) {
                    Thread.sleep(100);
                }
                assertEquals(next, get(me, "/api/games/" + id).get("ply").asInt(), "Koma answered move " + (ply + 1)
                        + "\n" + r.text());
            }
            post(me, "/api/board/game/" + id + "/resign", "");
            JsonNode end = waitEnd(me, id, 5_000);
            assertEquals("second", end.get("result").get("winner").asText());
            long until = System.currentTimeMillis() + 10_000;
            while (!r.text().contains("game " + id + " over") && System.currentTimeMillis() < until) {
                Thread.sleep(100);
            }
            assertTrue(r.text().contains("game " + id + " over: resign, black won"), r.text());
        }
    }

    @Test
    void theBridgeReconnectsWhenTheServerComesBack() throws Exception {
        Path dir = Files.createTempDirectory("koma-bot-restart-");
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        String db = "jdbc:sqlite:" + dir.resolve("koma.db");
        KomaServer first = KomaServer.start(new ServerConfig(port, "127.0.0.1", null, dir, 0, 0, 1));
        String bot = AccountAdmin.add(db, "KomaBot4", true).token(), me = AccountAdmin.add(db, "Person4", false).token();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        BotBridge b = new BotBridge(new BotBridge.Settings(url, bot, koma(), Set.of(), 1, true, true, 500),
                new PrintStream(log, true, StandardCharsets.UTF_8));
        Thread t = Thread.ofPlatform().daemon().start(() -> {
            try {
                b.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            java.util.function.Supplier<String> bridgeLog = () -> log.toString(StandardCharsets.UTF_8);
            awaitLog(bridgeLog, "bot: signed in", 10_000);
            first.close(); // the event stream drops
            awaitLog(bridgeLog, "bot: event stream dropped", 10_000);
            try (KomaServer second = KomaServer.start(new ServerConfig(port, "127.0.0.1", null, dir, 0, 0, 1))) {
                String saved = base;
                base = url;
                try {
                    long until = System.currentTimeMillis() + 30_000;
                    String id = null;
                    // challenges until the bridge, back on its event stream, accepts one
                    while (id == null && System.currentTimeMillis() < until) {
                        post(me, "/api/challenge/KomaBot4", "variant=shogi&clock.limit=60&clock.byoyomi=5");
                        Thread.sleep(2000);
                        JsonNode games = get(me, "/api/users/Person4/games").get("games");
                        id = games.isEmpty() ? null : games.get(0).get("id").asText();
                    }
                    String text = log.toString(StandardCharsets.UTF_8);
                    assertTrue(id != null, "accepted after the restart:\n" + text);
                    assertTrue(text.contains("event stream dropped"), text);
                    post(me, "/api/board/game/" + id + "/resign", "");
                } finally {
                    base = saved;
                }
            }
        } finally {
            b.close();
            t.interrupt();
        }
    }

    @Test
    void komaPlaysAShodoGameAgainstFairyStockfishThroughTheServer() throws Exception {
        Path ini = Path.of(BotCommandTest.class.getResource("/shodo.ini").toURI());
        String koma = token("KomaBot2", true), fairy = token("FairyBot", true);
        EngineConfig fs = new EngineConfig("/usr/games/fairy-stockfish", EngineConfig.Protocol.UCI, "Fairy-Stockfish",
                List.of(Map.entry("VariantPath", ini.toString())));
        try (Running k = bridge(koma, koma(), Set.of("shodo")); Running f = bridge(fairy, fs, Set.of())) {
            awaitLog(k::text, "bot: signed in", 10_000);
            awaitLog(f::text, "bot: signed in", 10_000);
            post(fairy, "/api/challenge/KomaBot2", "variant=shodo&clock.limit=20&clock.increment=1&color=random");
            String id = null;
            for (int i = 0; i < 100 && id == null; i++) {
                Thread.sleep(100);
                JsonNode games = get(koma, "/api/users/KomaBot2/games").get("games");
                id = games.isEmpty() ? null : games.get(0).get("id").asText();
            }
            assertTrue(id != null, "Koma's bridge accepted:\n" + k.text());
            // both clocks: 20 s + 1 s a move each; a game of 150 moves fits in about 3 minutes at worst
            JsonNode end = waitEnd(koma, id, 240_000);
            assertEquals("finished", end.get("status").asText(), "Koma:\n" + k.text() + "\nFairy:\n" + f.text());
            assertNotEquals("aborted", end.get("result").get("termination").asText());
            assertTrue(end.get("ply").asInt() >= 4, "a real game: " + end.get("ply"));
            System.out.println("BotCommandTest: Shodo through the server, " + end.get("accounts").get(0).get("name").asText()
                    + " - " + end.get("accounts").get(1).get("name").asText() + ": " + end.get("result").get("text").asText() + " (" + end.get("result").get("termination").asText()
                    + ") after " + end.get("ply").asInt() + " plies");
        }
    }
}
