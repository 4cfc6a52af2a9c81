package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Several nodes (issue 14; docs/deploy.md, "Several nodes"), all real: a PostgreSQL (PgCluster), a Redis of its own
 * (Debian's redis-server on a free port), two nodes each in a JVM of its own ({@link ServerMain}, so that SIGKILL is
 * real) and nginx in front of them (Debian's, its own configuration in a temporary directory, WebSocket upgrade and
 * unbuffered answers). Outside CI a missing redis-server or nginx skips the tests with a message; under CI=true they
 * fail, since .ci/run installs both.
 */
class ClusterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The nodes' lease: a dead node's games are taken over this long after its last renewal. */
    private static final long LEASE_MS = 3000;

    @TempDir
    Path dir;
    private Process redis, nginx;
    private final Process[] nodes = new Process[2];
    private final int[] nodePorts = new int[2];
    private int redisPort, nginxPort;
    private String pgUrl;
    private final List<Feed> feeds = new ArrayList<>();
    private final List<koma.server.browser.Browser> browsers = new ArrayList<>();
    /** Extra options of the nodes (set by a test before it starts the cluster itself). */
    private final List<String> nodeOptions = new ArrayList<>();
    private Process worker;

    @BeforeEach
    void startCluster(org.junit.jupiter.api.TestInfo info) throws Exception {
        if (info.getTestMethod().map(m -> m.getName().startsWith("aWorker")).orElse(false)) {
            // the nodes send engine work to the workers; a computer move waits a minute before a node plays it itself
            nodeOptions.addAll(List.of("--engine-workers-fallback-ms", "60000"));
        }
        if (info.getTestMethod().map(m -> m.getName().startsWith("aClients")).orElse(false)) {
            nodeOptions.addAll(List.of("--limit", "gamesPerClient=2"));
        }
        String redisBin = which("redis-server");
        String nginxBin = which("nginx");
        boolean ci = "true".equals(System.getenv("CI"));
        if (!ci) {
            assumeTrue(redisBin != null, "redis-server is not installed (apt-get install redis-server)");
            assumeTrue(nginxBin != null, "nginx is not installed (apt-get install nginx-light)");
        }
        assertTrue(redisBin != null && nginxBin != null, "CI installs redis-server and nginx (.ci/run)");
        pgUrl = PgCluster.get().url;
        redisPort = freePort();
        redis = started(new ProcessBuilder(redisBin, "--port", String.valueOf(redisPort), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString()), "redis.log", "Ready to accept connections");
        for (int i = 0; i < 2; i++) {
            nodePorts[i] = freePort();
            nodes[i] = startNode(i);
        }
        nginxPort = freePort();
        nginx = startNginx(nginxBin);
    }

    @AfterEach
    void stopCluster(org.junit.jupiter.api.TestInfo info) throws Exception {
        for (Feed f : feeds) {
            f.close();
        }
        for (koma.server.browser.Browser b : browsers) {
            b.close();
        }
        for (Process p : new Process[]{worker, nginx, nodes[0], nodes[1], redis}) {
            if (p != null) {
                p.destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
        // the processes' logs, kept with the build's output for a look after a failure
        Path keep = Path.of("target", "cluster-logs", info.getTestMethod().map(m -> m.getName()).orElse("test"));
        Files.createDirectories(keep);
        try (var logs = Files.list(dir)) {
            for (Path log : logs.filter(f -> f.toString().endsWith(".log")).toList()) {
                Files.copy(log, keep.resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Two players on different nodes play; a spectator follows through nginx; the node that owns the game is
     * killed (SIGKILL) mid-game; the game goes on through the other node with every acknowledged move kept, the
     * clocks fair and every feed resynced to the same moves.
     */
    @Test
    void aGameGoesOnWhenItsNodeIsKilled() throws Exception {
        Player alice = new Player(node(0)), bob = new Player(node(1));
        JsonNode created = alice.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"friend\",\"color\":\"first\","
                + "\"clock\":{\"type\":\"fischer\",\"initialMs\":600000,\"incrementMs\":0}}");
        String id = created.get("id").asText();
        // Bob joins on the other node: the request goes to the owner, and its seat cookie comes back
        assertEquals("second", bob.post("/api/games/" + id + "/join", "{}").get("you").asText());
        Feed aliceFeed = feed(node(0), id, alice), bobFeed = feed(node(1), id, bob), watcher = feed(nginx(), id, null);
        String[] opening = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"};
        List<String> acknowledged = new ArrayList<>();
        JsonNode last = null;
        for (int i = 0; i < opening.length; i++) {
            Player p = i % 2 == 0 ? alice : bob;
            last = p.post("/api/games/" + id + "/moves", "{\"move\":\"" + opening[i] + "\",\"ply\":" + i + "}");
            acknowledged.add(opening[i]);
        }
        long lastMoveAt = System.currentTimeMillis();
        // Bob (second) is to move; his time when Alice's move was acknowledged (the move event's clock)
        long bobBefore = moveEvent(last).get("clock").get("second").get("ms").asLong();
        long aliceBefore = moveEvent(last).get("clock").get("first").get("ms").asLong();
        for (Feed f : List.of(aliceFeed, bobFeed, watcher)) {
            f.await(s -> s.moves.size() == opening.length, "all feeds have the 5 moves before the kill");
        }
        // and a real page, in headless Chromium through nginx, follows the game as a spectator
        koma.server.browser.Browser page = new koma.server.browser.Browser(nginx());
        browsers.add(page);
        page.open("/game/" + id);
        page.waiting(30).until(d -> page.shownPly() == opening.length);
        // the game lives on node 0, where it was made: kill it
        nodes[0].destroyForcibly();
        assertTrue(nodes[0].waitFor(10, TimeUnit.SECONDS));
        long killedAt = System.currentTimeMillis();
        Thread.sleep(500);
        // Bob moves through node 1: it waits out the dead node's lease, takes the game over and plays the move
        JsonNode bobMove = bob.post("/api/games/" + id + "/moves", "{\"move\":\"g8f6\",\"ply\":5}");
        long bobMovedAt = System.currentTimeMillis();
        acknowledged.add("g8f6");
        // Alice's node is gone: she comes back through nginx (which tries the live node)
        alice.base = nginx();
        JsonNode aliceMove = alice.post("/api/games/" + id + "/moves", "{\"move\":\"e1g1\",\"ply\":6}");
        acknowledged.add("e1g1");

        JsonNode game = new Player(nginx()).get("/api/games/" + id);
        List<String> moves = new ArrayList<>();
        game.get("moves").forEach(m -> moves.add(m.get("move").asText()));
        assertEquals(acknowledged, moves, "every acknowledged move kept, in order");
        // clocks: Bob was charged for his thinking while the nodes ran, not for the outage. The outage lasted at
        // least from the kill to the lease's end, LEASE_MS after the dead node's last renewal (renewed every
        // LEASE_MS / 3), so at least 2 * LEASE_MS / 3 (2 s) is given back: he is charged at most the time from the
        // acknowledged move to his own move, less that, plus 200 ms for the requests' own time.
        long bobAfter = moveEvent(bobMove).get("clock").get("second").get("ms").asLong();
        long charged = bobBefore - bobAfter;
        long wall = bobMovedAt - lastMoveAt;
        assertTrue(charged >= 0 && charged <= wall - 2 * LEASE_MS / 3 + 200, "Bob charged " + charged + " ms of "
                + wall + " ms (killed " + (killedAt - lastMoveAt) + " ms after the last move)");
        // Alice's clock stood while Bob thought (Fischer, no increment): unchanged until her move
        assertEquals(aliceBefore, moveEvent(bobMove).get("clock").get("first").get("ms").asLong(), "Alice's clock");
        assertTrue(moveEvent(aliceMove) != null);
        // every feed resynced (reconnecting by itself, as the page does) and shows the same moves
        for (Feed f : List.of(aliceFeed, bobFeed, watcher)) {
            f.await(s -> s.moves.equals(acknowledged), f.name + " ends with the game's moves");
        }
        // the page reconnected by itself (its node may have been the dead one) and shows the two new moves
        page.waiting(60).until(d -> page.shownPly() == acknowledged.size());
        page.waiting(60).until(d -> Boolean.FALSE.equals(page.js(
                "return document.querySelector('.game-page').classList.contains('offline');")));
        page.screenshot("cluster-page-after-failover");
        System.out.println("cluster: moves " + acknowledged + "; Bob charged " + charged + " ms over " + wall + " ms; feeds reconnected: alice "
                + aliceFeed.connects + ", bob " + bobFeed.connects + ", watcher " + watcher.connects);
    }

    /** A seek posted on one node is listed on the other and accepted from there; both players get the game. */
    @Test
    void aSeekPostedOnOneNodeIsAcceptedFromTheOther() throws Exception {
        Player carol = new Player(node(0)), dave = new Player(node(1));
        Lobby carolLobby = new Lobby(node(0), carol, "carol"), daveLobby = new Lobby(node(1), dave, "dave");
        String sri = carolLobby.await(m -> m.path("type").asText().equals("hello")).get("sri").asText();
        daveLobby.await(m -> m.path("type").asText().equals("hello"));
        // Carol posts through node 1 although her lobby connection is on node 0: node 1 sends it there
        JsonNode seek = carol.withBase(node(1)).post("/api/lobby/seeks",
                "{\"sri\":\"" + sri + "\",\"variant\":\"shogi\",\"clock\":\"5+3\",\"color\":\"first\"}");
        String seekId = seek.get("id").asText();
        daveLobby.await(m -> m.path("type").asText().equals("seekAdded")
                && m.path("seek").path("id").asText().equals(seekId));
        JsonNode accepted = dave.post("/api/lobby/seeks/" + seekId + "/accept", "{}");
        String game = accepted.get("game").asText();
        carolLobby.await(m -> m.path("type").asText().equals("paired") && m.path("game").asText().equals(game));
        JsonNode seen = dave.get("/api/games/" + game);
        assertEquals("second", seen.get("you").asText(), "Dave holds the second seat (Carol sought first)");
        assertEquals("shogi", seen.get("variant").asText());
        daveLobby.await(m -> m.path("type").asText().equals("seekRemoved") && m.path("id").asText().equals(seekId));
        carolLobby.close();
        daveLobby.close();
    }

    /**
     * With the nodes' engine work on workers (issue 14 item 3), one worker process serves the computer's moves and
     * analyses of games on both nodes; the nodes would play a computer move themselves only after a minute.
     */
    @Test
    void aWorkerServesTheComputerForBothNodes() throws Exception {
        worker = WorkerProcess.start(pgUrl, 1, "w1", 2000, dir.resolve("worker.log"));
        for (int i = 0; i < 2; i++) {
            Player p = new Player(node(i));
            String id = p.post("/api/games", "{\"variant\":\"shogi\",\"mode\":\"computer\",\"color\":\"second\","
                    + "\"level\":0}").get("id").asText();
            long t0 = System.currentTimeMillis();
            JsonNode g = p.get("/api/games/" + id);
            while (g.get("moves").size() < 1 && System.currentTimeMillis() - t0 < 20_000) {
                Thread.sleep(100);
                g = p.get("/api/games/" + id);
            }
            assertEquals(1, g.get("moves").size(), "node " + i + ": the computer's first move, from the worker");
            assertTrue(System.currentTimeMillis() - t0 < 20_000, "well before the nodes' own 60 s fallback");
            JsonNode a = p.get("/api/games/" + id + "/analysis?ply=1");
            // analyses have no fallback on the node: only the worker can have answered
            assertTrue(a.has("pv") && a.get("pv").size() > 0, "node " + i + ": " + a);
        }
    }

    /**
     * The Bot API across nodes: a bot's event stream on one node hears a challenge made on the other (over Redis),
     * its answer goes to the node holding the challenge, the game starts there, and the bot plays it and follows its
     * game stream through its own node (forwarded).
     */
    @Test
    void aChallengeMadeOnOneNodeReachesABotOnTheOther() throws Exception {
        AccountAdmin.Created white = AccountAdmin.add(pgUrl, "WhiteBot", true);
        AccountAdmin.Created black = AccountAdmin.add(pgUrl, "BlackBot", true);
        Ndjson events = new Ndjson(node(0) + "/api/stream/event", black.token());
        Thread.sleep(500); // the stream is open before the challenge
        String challenge = form(node(1), "/api/challenge/" + black.name(), white.token(),
                "variant=chess&clock.limit=600&clock.increment=0&color=white").get("id").asText();
        JsonNode seen = events.await(m -> m.path("type").asText().equals("challenge")).get("challenge");
        assertEquals(challenge, seen.get("id").asText(), "the challenge made on node 1 reached the stream on node 0");
        // a stream opened later on node 0 is told the open challenge node 1 holds
        Ndjson late = new Ndjson(node(0) + "/api/stream/event", black.token());
        late.await(m -> m.path("type").asText().equals("challenge")
                && m.path("challenge").path("id").asText().equals(challenge));
        late.close();
        form(node(0), "/api/challenge/" + challenge + "/accept", black.token(), "");
        String game = events.await(m -> m.path("type").asText().equals("gameStart")).get("game").get("gameId").asText();
        Ndjson gameStream = new Ndjson(node(0) + "/api/bot/game/stream/" + game, black.token());
        gameStream.await(m -> m.path("type").asText().equals("gameFull"));
        form(node(1), "/api/bot/game/" + game + "/move/e2e4", white.token(), "");
        JsonNode state = gameStream.await(m -> m.path("type").asText().equals("gameState")
                && m.path("moves").asText().equals("e2e4"));
        assertEquals("started", state.get("status").asText());
        form(node(0), "/api/bot/game/" + game + "/move/e7e5", black.token(), "");
        gameStream.await(m -> m.path("type").asText().equals("gameState")
                && m.path("moves").asText().equals("e2e4 e7e5"));
        events.close();
        gameStream.close();
    }

    /**
     * Quick pairing across nodes: a player waiting in one node's pool is paired with a player joining the pool on the
     * other node; both hear {@code paired} with the same game and take their seats.
     */
    @Test
    void aPlayerInOnePoolIsPairedWithOneOnTheOther() throws Exception {
        Player carol = new Player(node(0)), dave = new Player(node(1));
        Lobby carolLobby = new Lobby(node(0), carol, "carol"), daveLobby = new Lobby(node(1), dave, "dave");
        String carolSri = carolLobby.await(m -> m.path("type").asText().equals("hello")).get("sri").asText();
        String daveSri = daveLobby.await(m -> m.path("type").asText().equals("hello")).get("sri").asText();
        JsonNode waiting = carol.post("/api/lobby/pool", "{\"sri\":\"" + carolSri
                + "\",\"variants\":[\"shogi\",\"chess\"],\"clocks\":[\"3+2\",\"10|30\"]}");
        assertTrue(waiting.get("game").isNull(), "nobody else waits yet: " + waiting);
        carolLobby.await(m -> m.path("type").asText().equals("pool") && m.path("waiting").asBoolean());
        // node 1 hears node 0's pool when it changes
        String game = null;
        long end = System.currentTimeMillis() + 10_000;
        while (game == null && System.currentTimeMillis() < end) {
            JsonNode a = dave.post("/api/lobby/pool", "{\"sri\":\"" + daveSri
                    + "\",\"variants\":[\"chess\"],\"clocks\":[\"3+2\"]}");
            if (a.get("game").isTextual()) {
                game = a.get("game").asText();
            } else {
                dave.post("/api/lobby/pool/leave", "{\"sri\":\"" + daveSri + "\"}");
                Thread.sleep(200);
            }
        }
        assertTrue(game != null, "Dave was paired across the nodes");
        String g = game;
        carolLobby.await(m -> m.path("type").asText().equals("paired") && m.path("game").asText().equals(g));
        daveLobby.await(m -> m.path("type").asText().equals("paired") && m.path("game").asText().equals(g));
        carol.post("/api/lobby/seat", "{\"sri\":\"" + carolSri + "\",\"game\":\"" + g + "\"}");
        dave.post("/api/lobby/seat", "{\"sri\":\"" + daveSri + "\",\"game\":\"" + g + "\"}");
        JsonNode seenByCarol = carol.get("/api/games/" + g), seenByDave = dave.get("/api/games/" + g);
        assertEquals("chess", seenByDave.get("variant").asText(), "the one rule set both would play");
        assertEquals("3+2", clockText(seenByDave.get("clock")), "the one clock both would play");
        assertTrue(!seenByCarol.get("you").asText().equals(seenByDave.get("you").asText()),
                "one seat each: " + seenByCarol.get("you") + " / " + seenByDave.get("you"));
        carolLobby.close();
        daveLobby.close();
    }

    /** A Fischer clock's lobby text (minutes+seconds) from the game's clock JSON. */
    private static String clockText(JsonNode c) {
        return c.get("initialMs").asLong() / 60_000 + "+" + c.get("incrementMs").asLong() / 1000;
    }

    /** The cap on a client's unfinished games (here 2) counts the games it made on every node. */
    @Test
    void aClientsGameCapCountsEveryNode() throws Exception {
        Player p = new Player(node(0));
        String body = "{\"variant\":\"chess\",\"mode\":\"hotseat\"}";
        p.post("/api/games", body);
        p.withBase(node(1)).post("/api/games", body);
        HttpResponse<String> third = p.http.send(HttpRequest.newBuilder(URI.create(node(0) + "/api/games"))
                .header("Content-Type", "application/json").header("Origin", node(0)).header("X-Forwarded-For", p.address)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(429, third.statusCode(), third.body());
        assertEquals("tooManyGames", JSON.readTree(third.body()).get("code").asText(), third.body());
        // another client is not held back by it
        new Player(node(0)).post("/api/games", body);
    }

    /** A form POST with an API token (as lichess-bot sends them); 200 expected. */
    private static JsonNode form(String base, String path, String token, String body) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), "POST " + path + " on " + base + ": " + r.body());
        return JSON.readTree(r.body());
    }

    /** An ndjson stream read as it comes (the Bot API's event and game streams). */
    private static final class Ndjson {
        final List<JsonNode> lines = new CopyOnWriteArrayList<>();
        private final java.util.concurrent.CompletableFuture<HttpResponse<Void>> call;

        Ndjson(String url, String token) {
            call = HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create(url))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.fromLineSubscriber(
                    new java.util.concurrent.Flow.Subscriber<String>() {
                        @Override
                        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
                            s.request(Long.MAX_VALUE);
                        }

                        @Override
                        public void onNext(String line) {
                            if (!line.isBlank()) {
                                try {
                                    lines.add(JSON.readTree(line));
                                } catch (IOException e) {
                                    throw new java.io.UncheckedIOException(e);
                                }
                            }
                        }

                        @Override
                        public void onError(Throwable t) {
                        }

                        @Override
                        public void onComplete() {
                        }
                    }));
        }

        JsonNode await(Predicate<JsonNode> p) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < end) {
                for (JsonNode m : lines) {
                    if (p.test(m)) {
                        return m;
                    }
                }
                Thread.sleep(50);
            }
            throw new AssertionError("the stream did not say it; it said " + lines);
        }

        void close() {
            call.cancel(true);
        }
    }

    // ---- the parts ----

    private String node(int i) {
        return "http://127.0.0.1:" + nodePorts[i];
    }

    private String nginx() {
        return "http://127.0.0.1:" + nginxPort;
    }

    private static JsonNode moveEvent(JsonNode answer) {
        for (JsonNode e : answer.get("events")) {
            if (e.get("type").asText().equals("move")) {
                return e;
            }
        }
        throw new AssertionError("no move event in " + answer);
    }

    private Process startNode(int i) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ServerMain.class.getName(), "--port", String.valueOf(nodePorts[i]),
                "--db", pgUrl, "--data", dir.resolve("data" + i).toString(), "--rate-limit", "0", "--redis",
                "redis://127.0.0.1:" + redisPort, "--node-id", "n" + i, "--lease-ms", String.valueOf(LEASE_MS),
                "--trusted-proxy", "127.0.0.1"));
        cmd.addAll(nodeOptions);
        return started(new ProcessBuilder(cmd), "node" + i + ".log", "listening on port");
    }

    private Process startNginx(String bin) throws Exception {
        Path n = dir.resolve("nginx");
        Files.createDirectories(n.resolve("logs"));
        n.toFile().setWritable(true, false);
        String conf = """
                worker_processes 1;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log warn;
                events { worker_connections 256; }
                http {
                  access_log off;
                  client_body_temp_path %1$s/body; proxy_temp_path %1$s/proxy; fastcgi_temp_path %1$s/fastcgi;
                  uwsgi_temp_path %1$s/uwsgi; scgi_temp_path %1$s/scgi;
                  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
                  upstream koma { server 127.0.0.1:%2$d max_fails=1 fail_timeout=10s;
                                  server 127.0.0.1:%3$d max_fails=1 fail_timeout=10s; }
                  server {
                    listen 127.0.0.1:%4$d;
                    location / {
                      proxy_pass http://koma;
                      proxy_http_version 1.1;
                      proxy_set_header Upgrade $http_upgrade;
                      proxy_set_header Connection $connection_upgrade;
                      proxy_set_header Host $http_host;
                      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                      proxy_buffering off;
                      proxy_read_timeout 1h;
                      proxy_connect_timeout 2s;
                    }
                  }
                }
                """.formatted(n, nodePorts[0], nodePorts[1], nginxPort);
        Path file = n.resolve("nginx.conf");
        Files.writeString(file, conf);
        Process p = new ProcessBuilder(bin, "-p", n.toString(), "-c", file.toString(), "-g", "daemon off;")
                .redirectErrorStream(true).redirectOutput(dir.resolve("nginx.log").toFile()).start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        HttpClient http = HttpClient.newHttpClient();
        while (System.nanoTime() < end) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(nginx() + "/api/variants")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode() == 200) {
                    return p;
                }
            } catch (IOException e) {
                Thread.sleep(100);
            }
            if (!p.isAlive()) {
                break;
            }
        }
        throw new AssertionError("nginx did not start: " + Files.readString(dir.resolve("nginx.log"))
                + (Files.exists(n.resolve("logs/error.log")) ? Files.readString(n.resolve("logs/error.log")) : ""));
    }

    /** Starts a process logging to {@code log} and waits (60 s at most) for {@code ready} in its output. */
    private Process started(ProcessBuilder pb, String log, String ready) throws Exception {
        Path file = dir.resolve(log);
        Process p = pb.redirectErrorStream(true).redirectOutput(file.toFile()).start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end && p.isAlive()) {
            if (Files.exists(file) && Files.readString(file, StandardCharsets.ISO_8859_1).contains(ready)) {
                return p;
            }
            Thread.sleep(50);
        }
        p.destroyForcibly();
        throw new AssertionError(log + ": did not start:\n" + Files.readString(file, StandardCharsets.ISO_8859_1));
    }

    private static String which(String name) {
        for (String d : List.of("/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/sbin")) {
            File f = new File(d, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** A player: an HTTP client with its own cookies, on one base URL (a node or nginx). */
    private static final class Player {
        final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
        final HttpClient http = HttpClient.newBuilder().cookieHandler(cookies).connectTimeout(Duration.ofSeconds(5))
                .build();
        String base;
        /** The player's own address, as a trusted proxy names it (X-Forwarded-For): each player a client of its own. */
        final String address;
        private static int players;

        Player(String base) {
            this(base, "198.51.100." + (++players));
        }

        Player(String base, String address) {
            this.base = base;
            this.address = address;
        }

        /** The same player (cookies, address) on another base URL. */
        Player withBase(String other) {
            Player p = new Player(other, address);
            cookies.getCookieStore().getCookies().forEach(c -> p.cookies.getCookieStore().add(URI.create(other), c));
            return p;
        }

        JsonNode get(String path) throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("X-Forwarded-For", address).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(r.statusCode() == 200, "GET " + path + ": " + r.statusCode() + " " + r.body());
            return JSON.readTree(r.body());
        }

        JsonNode post(String path, String body) throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json").header("Origin", base)
                    .header("X-Forwarded-For", address)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(r.statusCode() == 200 || r.statusCode() == 201, "POST " + path + " on " + base + ": "
                    + r.statusCode() + " " + r.body());
            return JSON.readTree(r.body());
        }

        String cookieHeader(String url) {
            return cookies.getCookieStore().get(URI.create(url)).stream().map(HttpCookie::toString)
                    .collect(Collectors.joining("; "));
        }
    }

    /** What a feed shows: the moves, from the whole game then each move event, and the last version. */
    private static final class State {
        final List<String> moves = new ArrayList<>();
        int version = -1;
    }

    /**
     * A game feed as the page keeps one: the whole game, then the events in order; when its connection closes
     * (its node died, or the game moved to another node) it connects again and starts from the whole game.
     */
    private final class Feed implements WebSocket.Listener {
        final String name;
        final String base;
        final String gameId;
        final Player player;
        volatile State state = new State();
        volatile int connects;
        /** What went wrong on the listener's thread (a version gap), checked by {@link #await}. */
        final List<String> errors = new CopyOnWriteArrayList<>();
        volatile boolean closed;
        private final StringBuilder partial = new StringBuilder();
        private volatile WebSocket ws;

        Feed(String name, String base, String gameId, Player player) {
            this.name = name;
            this.base = base;
            this.gameId = gameId;
            this.player = player;
        }

        void connect() {
            while (!closed) {
                // a player's page reconnects where the player now is (nginx once the node died)
                String at = player == null ? base : player.base;
                try {
                    WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().header("Origin", at)
                            .connectTimeout(Duration.ofSeconds(5));
                    if (player != null) {
                        b.header("X-Forwarded-For", player.address);
                    }
                    String c = player == null ? "" : player.cookieHeader(at);
                    if (!c.isEmpty()) {
                        b.header("Cookie", c);
                    }
                    ws = b.buildAsync(URI.create(at.replace("http:", "ws:") + "/ws/games/" + gameId), this)
                            .get(10, TimeUnit.SECONDS);
                    connects++;
                    return;
                } catch (Exception e) {
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException ie) {
                        return;
                    }
                }
            }
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    handle(JSON.readTree(text));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }
            w.request(1);
            return null;
        }

        private synchronized void handle(JsonNode m) {
            String type = m.path("type").asText();
            if (type.equals("game")) {
                State s = new State();
                m.get("game").get("moves").forEach(x -> s.moves.add(x.get("move").asText()));
                s.version = m.get("version").asInt();
                state = s;
                return;
            }
            if (!m.has("version")) {
                return;
            }
            int v = m.get("version").asInt();
            if (v != state.version + 1) {
                errors.add(name + ": version " + v + " after " + state.version);
            }
            state.version = v;
            if (type.equals("move")) {
                state.moves.add(m.get("move").asText());
            }
        }

        @Override
        public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
            reconnectLater();
            return null;
        }

        @Override
        public void onError(WebSocket w, Throwable error) {
            reconnectLater();
        }

        private void reconnectLater() {
            if (!closed) {
                Thread.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(300);
                    } catch (InterruptedException e) {
                        return;
                    }
                    connect();
                });
            }
        }

        void await(Predicate<State> p, String what) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < end) {
                assertEquals(List.of(), errors, "events in order without a gap");
                synchronized (this) {
                    if (p.test(state)) {
                        return;
                    }
                }
                Thread.sleep(50);
            }
            throw new AssertionError(what + ": " + name + " shows " + state.moves + " at version " + state.version);
        }

        void close() {
            closed = true;
            WebSocket w = ws;
            if (w != null) {
                w.abort();
            }
        }
    }

    private Feed feed(String base, String gameId, Player player) {
        Feed f = new Feed(player == null ? "watcher" : base, base, gameId, player);
        feeds.add(f);
        f.connect();
        return f;
    }

    /** A lobby connection: the messages it got. */
    private static final class Lobby implements WebSocket.Listener {
        final List<JsonNode> messages = new CopyOnWriteArrayList<>();
        final String name;
        private final StringBuilder partial = new StringBuilder();
        private final WebSocket ws;

        Lobby(String base, Player player, String name) throws Exception {
            this.name = name;
            WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().header("Origin", base)
                    .header("X-Forwarded-For", player.address);
            String c = player.cookieHeader(base);
            if (!c.isEmpty()) {
                b.header("Cookie", c);
            }
            ws = b.buildAsync(URI.create(base.replace("http:", "ws:") + "/ws/lobby"), this).get(10, TimeUnit.SECONDS);
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    messages.add(JSON.readTree(partial.toString()));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
                partial.setLength(0);
            }
            w.request(1);
            return null;
        }

        JsonNode await(Predicate<JsonNode> p) throws InterruptedException {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < end) {
                for (JsonNode m : messages) {
                    if (p.test(m)) {
                        return m;
                    }
                }
                Thread.sleep(50);
            }
            throw new AssertionError(name + "'s lobby did not get it; it got " + messages);
        }

        void close() {
            ws.abort();
        }
    }
}
