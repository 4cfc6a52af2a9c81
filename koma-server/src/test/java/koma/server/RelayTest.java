package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The nodes' Redis relay against a real redis-server of its own: the rate-limit buckets are shared by the nodes
 * (a client has one allowance whichever node it reaches), and what one node publishes the other hears.
 */
class RelayTest {
    @TempDir
    Path dir;
    private Process redis;
    private String uri;

    @BeforeEach
    void start() throws Exception {
        File bin = new File("/usr/bin/redis-server");
        if (!"true".equals(System.getenv("CI"))) {
            assumeTrue(bin.canExecute(), "redis-server is not installed (apt-get install redis-server)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("redis.log");
        redis = new ProcessBuilder(bin.getPath(), "--port", String.valueOf(port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", dir.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!(Files.exists(log) && Files.readString(log).contains("Ready to accept connections"))) {
            assertTrue(System.nanoTime() < end && redis.isAlive(), "redis did not start: " + Files.readString(log));
            Thread.sleep(50);
        }
        uri = "redis://127.0.0.1:" + port;
    }

    @AfterEach
    void stop() throws Exception {
        if (redis == null) {
            return; // skipped before a server was started (no redis-server outside CI)
        }
        redis.destroy();
        redis.waitFor(10, TimeUnit.SECONDS);
    }

    /** A bucket of 3 refilled at one token per 100 s: three requests pass, on either node, and the fourth waits. */
    @Test
    void aClientHasOneAllowanceOnEveryNode() {
        try (Relay a = new Relay(uri, "a"); Relay b = new Relay(uri, "b")) {
            RateLimiter onA = new RateLimiter(0.01, 3, a, "req"), onB = new RateLimiter(0.01, 3, b, "req");
            assertEquals(0, onA.acquire("198.51.100.7"));
            assertEquals(0, onB.acquire("198.51.100.7"));
            assertEquals(0, onA.acquire("198.51.100.7"));
            long wait = onB.acquire("198.51.100.7");
            // a token comes back after 100 s at 0.01 per second: the answer says to wait for it
            assertTrue(wait >= 99 && wait <= 100, "wait " + wait);
            assertEquals(0, onB.acquire("198.51.100.8"), "another client has its own bucket");
        }
    }

    /** What one node publishes on the lobby channel and the sign-out channel, the other hears. */
    @Test
    void whatOneNodePublishesTheOtherHears() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (Relay a = new Relay(uri, "a"); Relay b = new Relay(uri, "b")) {
            b.start(new Relay.Listener() {
                @Override
                public void gameEvents(String gameId, String fromNode, List<Relay.RemoteEvent> events) {
                    heard.add("game " + gameId + " " + fromNode + " " + events.size());
                }

                @Override
                public void lobby(JsonNode message) {
                    heard.add("lobby " + message.path("node").asText());
                }

                @Override
                public void auth(String invalidation) {
                    heard.add("auth " + invalidation);
                }
            });
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            // the subscription starts on b's own thread: publish until it is heard
            while (heard.isEmpty() && System.nanoTime() < end) {
                a.publishLobby("{\"node\":\"a\",\"seeks\":[]}");
                Thread.sleep(100);
            }
            a.publishAuth("u:42");
            while (!heard.contains("auth u:42") && System.nanoTime() < end) {
                Thread.sleep(20);
            }
            assertTrue(heard.contains("lobby a"), heard.toString());
            assertTrue(heard.contains("auth u:42"), heard.toString());
        }
    }
}
