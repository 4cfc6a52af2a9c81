package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Durability: a server started as a separate process ({@link ServerMain} from the test class path) is killed
 * with SIGKILL after some moves; started again on the same SQLite file it has every acknowledged move, the
 * seats, and the clocks: the waiting side's time unchanged, the running side's time less the time that passed.
 */
class RestartTest {
    @TempDir
    Path dir;

    @Test
    void killedServerResumesGamesWithTheirClocks() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Process first = launch(port);
        Api a = new Api(port);
        JsonNode g = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\",\"clock\":{\"type\":\"fischer\","
                + "\"initialMs\":600000,\"incrementMs\":2000}}");
        String id = g.get("id").asText();
        String[] moves = {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"};
        for (int i = 0; i < moves.length; i++) {
            a.move(id, moves[i], i);
        }
        JsonNode before = a.get("/api/games/" + id).json();
        first.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        Thread.sleep(1500); // time passes while the server is down: the second player's clock runs

        Process second = launch(port);
        try {
            JsonNode after = a.get("/api/games/" + id).json();
            assertEquals(5, after.get("ply").asInt());
            List<String> played = new ArrayList<>();
            after.get("moves").forEach(m -> played.add(m.get("move").asText()));
            assertEquals(List.of(moves), played);
            assertEquals(before.get("fen").asText(), after.get("fen").asText());
            assertEquals("both", after.get("you").asText(), "the seat cookie still holds both seats");
            JsonNode c0 = before.get("clock"), c1 = after.get("clock");
            assertEquals("second", c1.get("running").asText());
            // the first player is not to move: the stored time is shown unchanged
            assertEquals(c0.get("first").get("ms").asLong(), c1.get("first").get("ms").asLong());
            // the second player's time ran on through the restart: what passed on the server's clock
            long passed = c1.get("serverTime").asLong() - c0.get("serverTime").asLong();
            long used = c0.get("second").get("ms").asLong() - c1.get("second").get("ms").asLong();
            assertTrue(passed >= 1500, "passed " + passed);
            assertEquals(passed, used, 5, "the running clock lost exactly the elapsed time");
            // and the game goes on
            assertEquals(6, a.move(id, "a7a6", 5).get("ply").asInt());
        } finally {
            second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process launch(int port) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), ServerMain.class.getName(), "--port", String.valueOf(port),
                "--data", dir.toString(), "--rate-limit", "0")
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder log = new StringBuilder();
        long end = System.currentTimeMillis() + 60_000;
        String line;
        while (System.currentTimeMillis() < end && (line = out.readLine()) != null) {
            log.append(line).append('\n');
            if (line.startsWith("listening on port")) {
                Thread drain = new Thread(() -> {
                    try {
                        while (out.readLine() != null) {
                            // keep the pipe empty so the server never blocks on its log
                        }
                    } catch (IOException e) {
                        // the process ended
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return p;
            }
        }
        p.destroyForcibly();
        throw new AssertionError("the server did not start:\n" + log);
    }
}
