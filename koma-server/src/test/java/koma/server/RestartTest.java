package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Durability across restarts of a server started as a separate process from the test class path: killed with
 * SIGKILL ({@link Process#destroyForcibly()}) or stopped with SIGTERM ({@link Process#destroy()}), then started
 * again on the same SQLite file. It keeps every acknowledged move exactly once (also under the load of 40 games
 * played at once), the seats, and fair clocks: the side to move is charged the time the server was up, never
 * the time it was down.
 */
class RestartTest {
    @TempDir
    Path dir;
    private int launches;
    /** When the last {@link #launch} saw the server's "listening" line (epoch ms). */
    private long listeningAt;

    @Test
    void killedServerKeepsTheGameAndDoesNotChargeTheDowntime() throws Exception {
        clockAcrossRestart(true);
    }

    @Test
    void stoppedServerKeepsTheGameAndDoesNotChargeTheDowntime() throws Exception {
        clockAcrossRestart(false);
    }

    /**
     * A Fischer game with five moves (the second player to move, its clock running), 2.5 s of play time, the
     * server killed or stopped, 3 s down, started again. The side to move is charged the time the server was up,
     * never the time it was down. The server records that it is alive once a second (its heartbeat) and at a clean
     * stop (docs/server-api.md), so after SIGKILL the charge may miss up to the last second before the kill, after
     * SIGTERM nothing; 250 ms more are allowed for scheduling on a busy machine. The time up after the restart is
     * at least from the "listening" line (the game is resumed before it) and at most from the launch.
     */
    private void clockAcrossRestart(boolean kill) throws Exception {
        int port = freePort();
        Process first = launch(port);
        Api a = new Api(port);
        String id;
        JsonNode before;
        String[] moves = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"};
        long tStop, tDown;
        try {
            JsonNode g = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\",\"clock\":{\"type\":\"fischer\","
                    + "\"initialMs\":600000,\"incrementMs\":2000}}");
            id = g.get("id").asText();
            for (int i = 0; i < moves.length; i++) {
                a.move(id, moves[i], i);
            }
            before = a.get("/api/games/" + id).json();
            Thread.sleep(2500); // the second player thinks while the server is up: this time is charged
            tStop = System.currentTimeMillis();
        } finally {
            if (kill) {
                first.destroyForcibly();
            } else {
                first.destroy();
            }
            assertTrue(first.waitFor(30, TimeUnit.SECONDS), "the first server ended");
        }
        tDown = System.currentTimeMillis();
        Thread.sleep(3000); // the server is down: this time is not charged
        long tLaunch = System.currentTimeMillis();
        Process second = launch(port);
        long tListening = listeningAt;
        try {
            JsonNode after = a.get("/api/games/" + id).json();
            assertEquals(5, after.get("ply").asInt());
            List<String> played = new ArrayList<>();
            after.get("moves").forEach(m -> played.add(m.get("move").asText()));
            assertEquals(List.of(moves), played);
            assertEquals(before.get("fen").asText(), after.get("fen").asText());
            assertEquals(before.get("version").asLong(), after.get("version").asLong(), "no event added or lost");
            assertEquals("both", after.get("you").asText(), "the seat cookie still holds both seats");
            JsonNode c0 = before.get("clock"), c1 = after.get("clock");
            assertEquals("second", c1.get("running").asText());
            // the first player is not to move: its stored time is shown unchanged
            assertEquals(c0.get("first").get("ms").asLong(), c1.get("first").get("ms").asLong());
            long used = c0.get("second").get("ms").asLong() - c1.get("second").get("ms").asLong();
            long upBeforeMin = tStop - c0.get("serverTime").asLong(), upBeforeMax = tDown - c0.get("serverTime").asLong();
            long upAfterMax = c1.get("serverTime").asLong() - tLaunch; // includes the JVM's start
            long upAfterMin = c1.get("serverTime").asLong() - tListening;
            long down = tLaunch - tDown;
            long heartbeat = kill ? 1000 : 0, noise = 250;
            System.out.println("RestartTest: " + (kill ? "SIGKILL" : "SIGTERM") + ": the running clock lost " + used
                    + " ms; the server was up " + upBeforeMin + ".." + upBeforeMax + " ms before the stop and "
                    + upAfterMin + ".." + upAfterMax + " ms after the restart, down " + down + " ms");
            assertTrue(down >= 3000, "down " + down);
            // charging the downtime would be used = upBefore + down + upAfter: over this bound by down - 1250 ms
            assertTrue(used <= upBeforeMax + upAfterMax + noise,
                    "charged " + used + " ms: more than the time up (" + upBeforeMax + " + " + upAfterMax
                            + " ms); the " + down + " ms down were charged");
            assertTrue(used >= upBeforeMin + upAfterMin - heartbeat - noise,
                    "charged " + used + " ms: less than the time up (" + upBeforeMin + " + " + upAfterMin + " ms)"
                            + (kill ? " less a heartbeat" : ""));
            // and the game goes on
            JsonNode next = TestClient.lastMoveEvent(a.move(id, "a7a6", 5));
            assertNotNull(next, "the answer has the move event");
            assertEquals(6, next.get("ply").asInt());
        } finally {
            second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** One game's player in the load test: random legal moves, each recorded once the server said 200. */
    private static final class Player extends Thread {
        final String id;
        final HttpClient http;
        final String base;
        final Random random;
        final List<String> acked = new ArrayList<>();
        final AtomicBoolean stop;
        volatile String inFlight;
        volatile String failure;
        volatile String ended = "stopped";
        List<String> legal;
        int retries;

        Player(String base, HttpClient http, String id, List<String> legal, long seed, AtomicBoolean stop) {
            this.base = base;
            this.http = http;
            this.id = id;
            this.legal = legal;
            this.random = new Random(seed);
            this.stop = stop;
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!stop.get() && !legal.isEmpty()) {
                String move = legal.get(random.nextInt(legal.size()));
                inFlight = move;
                HttpResponse<String> r;
                try {
                    r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/games/" + id + "/moves"))
                            .timeout(Duration.ofSeconds(15)).header("Content-Type", "application/json")
                            .header("Origin", base).POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"move\":\"" + move + "\",\"ply\":" + acked.size() + "}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                } catch (IOException e) {
                    ended = "server gone";
                    return; // the server is gone: the move stays in flight, played or not
                } catch (InterruptedException e) {
                    return;
                }
                if (r.statusCode() == 503) { // the writer is full: not played, try again
                    inFlight = null;
                    retries++;
                    sleepQuietly(50);
                    continue;
                }
                if (r.statusCode() != 200) {
                    inFlight = null;
                    failure = "move " + move + " at ply " + acked.size() + ": " + r.statusCode() + " " + r.body();
                    return;
                }
                JsonNode event;
                try {
                    event = TestClient.lastMoveEvent(Api.JSON.readTree(r.body()));
                } catch (IOException e) {
                    failure = "not JSON: " + r.body();
                    return;
                }
                if (event == null || event.get("ply").asInt() != acked.size() + 1) {
                    failure = "move " + move + ": no move event for ply " + (acked.size() + 1) + ": " + r.body();
                    return;
                }
                acked.add(move);
                inFlight = null;
                List<String> next = new ArrayList<>();
                event.get("legalMoves").forEach(m -> next.add(m.asText()));
                legal = next; // empty once the game is over
                if (legal.isEmpty()) {
                    ended = "game over";
                }
            }
        }

        private static void sleepQuietly(long ms) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void noAcknowledgedMoveIsLostOrDoubledWhenKilledUnderLoad() throws Exception {
        int games = 40;
        int port = freePort();
        String base = "http://127.0.0.1:" + port;
        // all 40 games come from loopback, one client: over the default cap of 20 unfinished games
        Process first = launch(port, "--limit", "gamesPerClient=100");
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(10)).build();
        AtomicBoolean stop = new AtomicBoolean();
        List<Player> players = new ArrayList<>();
        long loadMs;
        try {
            for (int i = 0; i < games; i++) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/games"))
                        .header("Content-Type", "application/json").header("Origin", base)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"variant\":\"chess\",\"mode\":\"hotseat\"}"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, r.statusCode(), r.body());
                JsonNode g = Api.JSON.readTree(r.body());
                List<String> legal = new ArrayList<>();
                g.get("legalMoves").forEach(m -> legal.add(m.asText()));
                players.add(new Player(base, http, g.get("id").asText(), legal, i, stop));
            }
            long t0 = System.nanoTime();
            players.forEach(Thread::start);
            // kill in the middle of the load: after 2 s once 300 moves are acknowledged (or after 20 s, whatever came)
            while ((players.stream().mapToInt(p -> p.acked.size()).sum() < 300 || System.nanoTime() - t0 < 2e9)
                    && System.nanoTime() - t0 < 20e9) {
                Thread.sleep(10);
            }
            loadMs = (System.nanoTime() - t0) / 1_000_000;
        } finally {
            first.destroyForcibly();
            assertTrue(first.waitFor(30, TimeUnit.SECONDS), "the first server ended");
        }
        stop.set(true);
        for (Player p : players) {
            p.join(30_000);
            assertTrue(!p.isAlive(), "player of " + p.id + " ended");
        }
        for (Player p : players) {
            assertTrue(p.failure == null, p.failure);
        }

        Process second = launch(port, "--limit", "gamesPerClient=100");
        try {
            Api reader = new Api(port);
            int acked = 0, lost = 0, duplicated = 0, inFlight = 0, inFlightStored = 0, retries = 0;
            for (Player p : players) {
                JsonNode g = reader.get("/api/games/" + p.id).json();
                List<String> stored = new ArrayList<>();
                g.get("moves").forEach(m -> stored.add(m.get("move").asText()));
                int same = 0;
                while (same < p.acked.size() && same < stored.size() && stored.get(same).equals(p.acked.get(same))) {
                    same++;
                }
                acked += p.acked.size();
                retries += p.retries;
                lost += p.acked.size() - same;
                String unacked = p.inFlight;
                inFlight += unacked == null ? 0 : 1;
                int extra = stored.size() - same;
                if (extra == 1 && same == p.acked.size() && stored.get(same).equals(unacked)) {
                    inFlightStored++; // the move in flight at the kill was committed, its answer lost: allowed
                } else if (same == p.acked.size()) {
                    duplicated += extra; // more than the acknowledged moves and the one in flight
                }
                assertEquals(p.acked, stored.subList(0, Math.min(stored.size(), p.acked.size())),
                        p.id + ": the stored moves start with every acknowledged move, in order");
                assertTrue(stored.size() <= p.acked.size() + (unacked == null ? 0 : 1),
                        p.id + ": stored " + stored.size() + " moves, acknowledged " + p.acked.size() + ", in flight "
                                + unacked + ": " + stored);
                assertEquals(stored.size(), g.get("ply").asInt(), p.id);
            }
            java.util.Map<String, Long> ends = new java.util.TreeMap<>();
            players.forEach(p -> ends.merge(p.ended, 1L, Long::sum));
            System.out.println("RestartTest durability: SIGKILL after " + loadMs + " ms of load on " + games
                    + " games (players ended: " + ends + "): " + acked + " acknowledged moves, " + lost + " lost, " + duplicated + " duplicated; "
                    + inFlightStored + " of " + inFlight + " moves in flight at the kill were stored; " + retries
                    + " answers 503 (writer full)");
            assertEquals(0, lost);
            assertEquals(0, duplicated);
            assertTrue(acked >= 300, "the load acknowledged " + acked + " moves before the kill");
            // the games go on after the restart
            Player p = players.get(0);
            JsonNode g = reader.get("/api/games/" + p.id).json();
            if (g.get("legalMoves").size() > 0) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/games/" + p.id
                        + "/moves")).header("Content-Type", "application/json").header("Origin", base)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"move\":\"" + g.get("legalMoves").get(0).asText()
                                + "\",\"ply\":" + g.get("ply").asInt() + "}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), "the seat cookie still plays: " + r.body());
            }
        } finally {
            second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts {@link ServerMain} in a new JVM on the test class path, on the port and the test's data directory,
     * without rate limit, with extra options; its output goes to a log file in the data directory, and the start
     * waits (60 s at most) for its "listening on port" line.
     */
    private Process launch(int port, String... extra) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ServerMain.class.getName(), "--port", String.valueOf(port), "--data",
                dir.toString(), "--rate-limit", "0"));
        cmd.addAll(List.of(extra));
        Path log = dir.resolve("server-" + (++launches) + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end && p.isAlive()) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.ISO_8859_1).contains("listening on port")) {
                listeningAt = System.currentTimeMillis();
                return p;
            }
            Thread.sleep(50);
        }
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("the server did not start:\n" + Files.readString(log, StandardCharsets.ISO_8859_1));
    }
}
