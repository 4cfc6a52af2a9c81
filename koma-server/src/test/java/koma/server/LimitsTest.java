package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.net.http.WebSocketHandshakeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Each of {@link ServerConfig.Limits}, black-box: the attack it bounds is reproduced against a real in-process
 * server, and the server is seen to refuse or shed it while it still serves other clients. The server trusts
 * 127.0.0.1 as a proxy, so the test speaks as several clients with {@code X-Forwarded-For: 198.51.100.N}.
 */
class LimitsTest {
    private static final String HOTSEAT = "{\"variant\":\"chess\",\"mode\":\"hotseat\"}";

    @TempDir
    Path dir;
    private final List<KomaServer> servers = new ArrayList<>();

    /** Starts a server with the given limits, trusting 127.0.0.1 as a proxy, without rate limit. */
    private KomaServer start(ServerConfig.Limits limits, int engineThreads, List<String> trusted) {
        KomaServer s = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, dir, 0, 100, engineThreads, limits,
                trusted, List.of()));
        servers.add(s);
        return s;
    }

    private KomaServer start(ServerConfig.Limits limits) {
        return start(limits, 1, List.of("127.0.0.1"));
    }

    @AfterEach
    void stopServers() {
        for (KomaServer s : servers) {
            s.close();
        }
    }

    /** Waits until the condition holds, failing after {@code ms}. */
    private static void await(String what, java.util.function.BooleanSupplier cond, long ms)
            throws InterruptedException {
        long end = System.nanoTime() + ms * 1_000_000;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail(what + ": not within " + ms + " ms");
            }
            Thread.sleep(20);
        }
    }

    @Test
    void gamesPerClientCapsUnfinishedGames() {
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withGamesPerClient(3));
        TestClient a = new TestClient(s.port(), "198.51.100.1"), b = new TestClient(s.port(), "198.51.100.2");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(a.create(HOTSEAT).get("id").asText());
        }
        Api.Answer fourth = a.post("/api/games", HOTSEAT);
        assertEquals(429, fourth.status(), TestClient.brief(fourth));
        assertTrue(fourth.error().startsWith("games:"), TestClient.brief(fourth));
        Api.Answer friend = a.post("/api/games", "{\"variant\":\"shogi\",\"mode\":\"friend\"}");
        assertEquals(429, friend.status(), "every mode counts: " + TestClient.brief(friend));
        // another client still creates
        b.create(HOTSEAT);
        // the key of an IPv6 client is its /64: two addresses of one /64 share the cap, another /64 does not
        TestClient v6a = new TestClient(s.port(), "2001:db8:1:2::1"), v6b = new TestClient(s.port(), "2001:db8:1:2::2");
        for (int i = 0; i < 3; i++) {
            v6a.create(HOTSEAT);
        }
        assertEquals(429, v6b.post("/api/games", HOTSEAT).status(), "same /64, same client");
        new TestClient(s.port(), "2001:db8:1:3::1").create(HOTSEAT);
        // a finished game no longer counts
        Api.Answer resigned = a.post("/api/games/" + ids.get(0) + "/resign", "{}");
        assertEquals(200, resigned.status(), TestClient.brief(resigned));
        a.create(HOTSEAT);
        assertEquals(429, a.post("/api/games", HOTSEAT).status(), "and the cap holds again at three");
    }

    @Test
    void forwardedForIsIgnoredWithoutATrustedProxy() {
        // the same server without trusted proxies: a client forging X-Forwarded-For is still 127.0.0.1
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withGamesPerClient(3), 1, List.of());
        for (int i = 1; i <= 3; i++) {
            new TestClient(s.port(), "198.51.100." + i).create(HOTSEAT);
        }
        Api.Answer forged = new TestClient(s.port(), "198.51.100.4").post("/api/games", HOTSEAT);
        assertEquals(429, forged.status(), TestClient.brief(forged));
    }

    /**
     * A proxy that adds its own X-Forwarded-For line (HAProxy's {@code option forwardfor}) after the one the
     * client forged: the client is the rightmost entry over all the lines, so forging the first line does not make
     * a client look like many.
     */
    @Test
    void forgedFirstForwardedForLineDoesNotMakeANewClient() {
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withGamesPerClient(3));
        TestClient plain = new TestClient(s.port(), null);
        List<Integer> statuses = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            // the forged line first, then the proxy's line naming the real client 198.51.100.1
            Api.Answer r = plain.send(plain.request("/api/games").header("X-Forwarded-For", "203.0.113." + i)
                    .header("X-Forwarded-For", "198.51.100.1").header("Content-Type", "application/json")
                    .header("Origin", plain.base).POST(java.net.http.HttpRequest.BodyPublishers.ofString(HOTSEAT)));
            statuses.add(r.status());
        }
        assertEquals(List.of(201, 201, 201, 429), statuses,
                "four games of 198.51.100.1 behind forged first lines: the fourth is over the cap of 3");
    }

    @Test
    void gamesInMemoryAreBoundedAndUnloadedGamesComeBack() throws Exception {
        int cap = 5, games = 12;
        Duration idle = Duration.ofMillis(500);
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withGamesInMemory(cap)
                .withTimeouts(Duration.ofHours(1), Duration.ofDays(1), idle, idle));
        AtomicInteger max = new AtomicInteger();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                max.accumulateAndGet(s.gamesInMemory(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.start();
        try {
            TestClient a = new TestClient(s.port(), "198.51.100.1");
            List<String> ids = new ArrayList<>();
            int refused = 0;
            long end = System.nanoTime() + 30_000_000_000L;
            while (ids.size() < games) {
                assertTrue(System.nanoTime() < end, "created only " + ids.size() + " games in 30 s");
                Api.Answer r = a.post("/api/games", HOTSEAT);
                if (r.status() == 503) {
                    // no idle game to unload yet: a 503 that says when to come back
                    assertTrue(r.raw().headers().firstValue("Retry-After").isPresent(), TestClient.brief(r));
                    refused++;
                    Thread.sleep(100);
                    continue;
                }
                assertEquals(201, r.status(), TestClient.brief(r));
                String id = r.json().get("id").asText();
                a.move(id, "e2e4", 0);
                ids.add(id);
            }
            // every game reads back, the unloaded ones from the database
            for (String id : ids) {
                JsonNode g = retry503(() -> a.get("/api/games/" + id), end).json();
                assertEquals(id, g.get("id").asText());
                assertEquals(1, g.get("ply").asInt(), id);
                assertEquals("e2e4", g.get("lastMove").asText(), id);
                assertEquals("both", g.get("you").asText(), "the seat survives unloading: " + id);
            }
            // and the oldest is still playable
            Api.Answer moved = retry503(() -> a.post("/api/games/" + ids.get(0) + "/moves",
                    "{\"move\":\"e7e5\",\"ply\":1}"), end);
            assertEquals(200, moved.status(), TestClient.brief(moved));
            assertEquals(2, a.get("/api/games/" + ids.get(0)).json().get("ply").asInt());
            System.out.println("LimitsTest: " + games + " games with gamesInMemory " + cap + ", " + refused
                    + " creates answered 503 first, most in memory seen " + max.get());
        } finally {
            sampling.set(false);
            sampler.join(1000);
        }
        assertTrue(max.get() <= cap, "at most " + cap + " games in memory, saw " + max.get());
        assertTrue(max.get() >= 1, "the sampler saw games in memory");
    }

    /** Repeats a request while it answers 503 (with Retry-After), until the deadline. */
    private static Api.Answer retry503(java.util.function.Supplier<Api.Answer> request, long deadline)
            throws InterruptedException {
        while (true) {
            Api.Answer r = request.get();
            if (r.status() != 503) {
                return r;
            }
            assertTrue(r.raw().headers().firstValue("Retry-After").isPresent(), TestClient.brief(r));
            assertTrue(System.nanoTime() < deadline, "still 503: " + TestClient.brief(r));
            Thread.sleep(100);
        }
    }

    /**
     * joinTimeout 1 s and abandonAfter 2 s, once with games staying in memory (idleUnload 60 s) and once with
     * them unloaded long before they time out (idleUnload 300 ms: the defaults unload after 10 minutes and
     * abandon after 7 days, so the timeouts must work on unloaded games).
     */
    @ParameterizedTest(name = "idleUnload {0} ms")
    @ValueSource(longs = {60_000, 300})
    void unjoinedAndAbandonedGamesEnd(long idleMs) throws Exception {
        Duration idle = Duration.ofMillis(idleMs);
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2),
                idle, idle));
        TestClient a = new TestClient(s.port(), "198.51.100.1");
        long t0 = System.nanoTime();
        JsonNode friend = a.create("{\"variant\":\"chess\",\"mode\":\"friend\"}");
        assertEquals("waiting", friend.get("status").asText());
        String[] opening = {"e2e4", "e7e5", "g1f3", "b8c6"};
        List<String> played = new ArrayList<>(); // game k has k moves
        for (int k = 0; k <= 3; k++) {
            String id = a.create(HOTSEAT).get("id").asText();
            for (int i = 0; i < k; i++) {
                a.move(id, opening[i], i);
            }
            played.add(id);
        }
        // a game whose players act every 500 ms is never abandoned (single pawn steps: no repetition)
        String busy = a.create(HOTSEAT).get("id").asText();
        String[] steps = {"a2a3", "a7a6", "b2b3", "b7b6", "c2c3", "c7c6", "d2d3", "d7d6", "e2e3", "e7e6", "f2f3",
                "f7f6", "g2g3", "g7g6", "h2h3", "h7h6"};
        int busyPly = 0;
        long lastBusy = System.nanoTime();
        List<String> watched = new ArrayList<>(played);
        watched.add(friend.get("id").asText());
        // not at once: half a second in, every game still runs (no timeout fires early)
        Thread.sleep(500);
        for (String id : watched) {
            assertFalse(a.get("/api/games/" + id).json().get("status").asText().equals("finished"), id);
        }
        long end = t0 + 12_000_000_000L;
        List<JsonNode> done = new ArrayList<>(Collections.nCopies(watched.size(), null));
        while (done.contains(null)) {
            assertTrue(System.nanoTime() < end, "games not ended within 12 s: " + done);
            for (int i = 0; i < watched.size(); i++) {
                if (done.get(i) == null) {
                    JsonNode g = a.get("/api/games/" + watched.get(i)).json();
                    if (g.get("status").asText().equals("finished")) {
                        done.set(i, g);
                    }
                }
            }
            if (System.nanoTime() - lastBusy > 500_000_000L && busyPly < steps.length) {
                a.move(busy, steps[busyPly], busyPly);
                busyPly++;
                lastBusy = System.nanoTime();
            }
            Thread.sleep(100);
        }
        long took = (System.nanoTime() - t0) / 1_000_000;
        JsonNode unjoined = done.get(4);
        assertEquals("aborted", unjoined.get("result").get("termination").asText(), unjoined.toString());
        assertTrue(unjoined.get("result").get("winner").isNull());
        for (int k = 0; k <= 1; k++) {
            JsonNode g = done.get(k).get("result");
            assertEquals("aborted", g.get("termination").asText(), k + " moves: " + g);
            assertTrue(g.get("winner").isNull(), k + " moves: nobody wins an aborted game");
        }
        // two moves: first to move, first loses; three moves: second to move, second loses
        JsonNode two = done.get(2).get("result"), three = done.get(3).get("result");
        assertEquals("abandoned", two.get("termination").asText(), two.toString());
        assertEquals("second", two.get("winner").asText(), two.toString());
        assertEquals("abandoned", three.get("termination").asText(), three.toString());
        assertEquals("first", three.get("winner").asText(), three.toString());
        JsonNode kept = a.get("/api/games/" + busy).json();
        assertEquals("active", kept.get("status").asText(), "a game in play is not abandoned: " + kept.get("result"));
        assertEquals(busyPly, kept.get("ply").asInt());
        System.out.println("LimitsTest: idleUnload " + idleMs + " ms: every timeout fired, all within " + took
                + " ms of the first creation");
    }

    /**
     * Wa shogi with drops, both kings alone on the board and one of every other piece type in each hand: each
     * position has about 1,900 legal moves (1,889 at the start, counted with koma-rules), so each move event is
     * about 13.5 KB. On loopback the kernel absorbs about 1.7 MB for a reader that never reads (measured with a
     * 1 KB receive buffer: the server's send buffer grows to 2 MB), so some 130 events fill it, and a few more
     * fill a feed queue of 8.
     */
    static final String BIG_HANDS = "5k5/11/11/11/11/11/11/11/11/11/5K5[HMLCVWGUDOESFPRXhmlcvwgudoesfprx] w - - 0 1";

    /**
     * King moves that never end the game: each king walks a snake over its own five ranks (first: f1..a1, then
     * ranks 2 to 5; second: the mirror from f11), forward, back and forward again. Positions repeat at most three
     * times (fourfold repetition ends Wa shogi), the kings never meet, nobody is ever in check: 294 moves,
     * checked with koma-rules.
     */
    static List<String> snakeMoves() {
        List<String> p1 = snake(1, 1), p2 = snake(11, -1), out = new ArrayList<>();
        for (int pass = 0; pass < 3; pass++) {
            List<String> a = new ArrayList<>(p1), b = new ArrayList<>(p2);
            if (pass == 1) {
                Collections.reverse(a);
                Collections.reverse(b);
            }
            for (int i = 0; i + 1 < a.size(); i++) {
                out.add(a.get(i) + a.get(i + 1));
                out.add(b.get(i) + b.get(i + 1));
            }
        }
        return out;
    }

    private static List<String> snake(int startRank, int dir) {
        String files = "abcdefghijk";
        List<String> p = new ArrayList<>();
        for (int f = 5; f >= 0; f--) {
            p.add(files.charAt(f) + "" + startRank);
        }
        for (int r = 1; r <= 4; r++) {
            int rank = startRank + dir * r;
            for (int i = 0; i < 11; i++) {
                p.add(files.charAt(r % 2 == 1 ? i : 10 - i) + "" + rank);
            }
        }
        return p;
    }

    @Test
    void slowFeedReaderIsDisconnectedWhileOthersGetEveryEvent() throws Exception {
        int queue = 8;
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withFeeds(queue, 16, 10_000));
        TestClient owner = new TestClient(s.port(), "198.51.100.1");
        JsonNode g = owner.create("{\"variant\":\"washogi-drops\",\"mode\":\"hotseat\",\"fen\":\"" + BIG_HANDS + "\"}");
        String id = g.get("id").asText();
        assertTrue(g.get("legalMoves").size() > 1800, "big events: " + g.get("legalMoves").size() + " legal moves");
        TestClient.FeedClient reader = new TestClient(s.port(), "198.51.100.2").feed(id);
        JsonNode hello = reader.next(10_000);
        assertEquals("game", hello.get("type").asText());
        long v0 = hello.get("version").asLong();
        try (RawFeed slow = RawFeed.open(s.port(), id, "198.51.100.3")) {
            await("both feeds open", () -> s.feedConnections() == 2, 5_000);
            List<String> moves = snakeMoves();
            int played = 0, droppedAt = -1;
            long maxMoveMs = 0;
            for (String m : moves) {
                long t = System.nanoTime();
                owner.move(id, m, played);
                maxMoveMs = Math.max(maxMoveMs, (System.nanoTime() - t) / 1_000_000);
                played++;
                if (droppedAt < 0 && s.feedsDropped() > 0) {
                    droppedAt = played;
                }
                if (droppedAt >= 0 && played >= droppedAt + 10) {
                    break; // ten more events after the drop, for the reader that stays
                }
            }
            assertEquals(1, s.feedsDropped(), "the server gave up on the stalled feed within " + played + " moves");
            assertTrue(maxMoveMs < 3000, "moves answer while a feed is stuck: slowest " + maxMoveMs + " ms");
            // the stalled connection, which still reads nothing, is cut off and counted off (docs/server-api.md,
            // Feed: closed with 4008; the server cuts a client that does not read the close frame off 5 s later)
            long t = System.nanoTime();
            await("the stalled feed cut off", () -> s.feedConnections() == 1, 10_000);
            long cutMs = (System.nanoTime() - t) / 1_000_000;

            // the reader that reads got every event, in version order, without a gap
            long last = v0 + played;
            List<Long> versions = new ArrayList<>();
            long end = System.nanoTime() + 20_000_000_000L;
            int ply = 0;
            while (versions.isEmpty() || versions.get(versions.size() - 1) < last) {
                assertTrue(System.nanoTime() < end, "reader stopped at " + versions.size() + " events of " + played);
                JsonNode e = reader.next(10_000);
                versions.add(e.get("version").asLong());
                assertEquals("move", e.get("type").asText(), e.get("type").asText());
                assertEquals(++ply, e.get("ply").asInt());
            }
            for (int i = 0; i < versions.size(); i++) {
                assertEquals(v0 + 1 + i, versions.get(i), "event " + i + " in order, no gap");
            }
            assertFalse(reader.closed.isDone(), "the reading feed was not closed");

            // what the slow reader finds when it finally reads: messages, then the end of the connection
            RawFeed.Rest rest = slow.readRest(15_000);
            System.out.println("LimitsTest: slow feed dropped after move " + droppedAt + " of " + played
                    + " (~13.5 KB events, feedQueue " + queue + "), its connection gone " + cutMs + " ms after the"
                    + " last move; slowest move " + maxMoveMs + " ms; it then read " + rest.messages
                    + " messages and " + (rest.closeCode >= 0 ? "close code " + rest.closeCode : rest.end));
            assertTrue(rest.messages < played, "the slow reader did not get everything: " + rest.messages);
            if (rest.closeCode >= 0) {
                assertEquals(4008, rest.closeCode, "a slow reader is closed with 4008");
            }
        }
        reader.close();
    }

    /**
     * The close code promised for a reader that fell too far behind (docs/server-api.md, Feed: 4008, "reconnect
     * and resync") reaches a client that stalls and then reads again: the same stalled raw reader as above starts
     * reading the moment the server gives up on it ({@link KomaServer#feedsDropped()}), and must find, after the
     * messages queued before the drop, a close frame with code 4008 rather than a bare end of the connection.
     */
    @Test
    void stalledFeedReaderThatReadsAgainSeesCloseCode4008() throws Exception {
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withFeeds(8, 16, 10_000));
        TestClient owner = new TestClient(s.port(), "198.51.100.1");
        String id = owner.create("{\"variant\":\"washogi-drops\",\"mode\":\"hotseat\",\"fen\":\"" + BIG_HANDS + "\"}")
                .get("id").asText();
        try (RawFeed slow = RawFeed.open(s.port(), id, "198.51.100.3")) {
            await("the feed open", () -> s.feedConnections() == 1, 5_000);
            int played = 0;
            for (String m : snakeMoves()) {
                owner.move(id, m, played++);
                if (s.feedsDropped() > 0) {
                    break;
                }
            }
            assertEquals(1, s.feedsDropped(), "the stalled feed was dropped within " + played + " moves");
            RawFeed.Rest rest = slow.readRest(15_000);
            System.out.println("LimitsTest: a stalled reader dropped after " + played + " moves read " + rest.messages
                    + " messages and " + (rest.closeCode >= 0 ? "close code " + rest.closeCode : rest.end));
            assertEquals(4008, rest.closeCode, "the stalled reader's connection ended with " + rest.end
                    + ", not with the documented close code 4008");
        }
    }

    /**
     * A WebSocket client on a plain socket with a 1 KB receive buffer that completes the upgrade and then reads
     * nothing until asked ({@link #readRest}).
     */
    static final class RawFeed implements AutoCloseable {
        final Socket socket;
        final InputStream in;

        private RawFeed(Socket socket, InputStream in) {
            this.socket = socket;
            this.in = in;
        }

        static RawFeed open(int port, String id, String forwardedFor) throws IOException {
            Socket s = new Socket();
            s.setReceiveBufferSize(1024); // before connecting, so the window is small from the start
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(10_000);
            byte[] key = new byte[16];
            new java.util.Random().nextBytes(key);
            String req = "GET /ws/games/" + id + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\n"
                    + "Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:" + port + "\r\nX-Forwarded-For: "
                    + forwardedFor + "\r\n\r\n";
            OutputStream out = s.getOutputStream();
            out.write(req.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // the answer's head, byte by byte so that nothing after it is consumed
            InputStream in = s.getInputStream();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0 || head.size() > 8192) {
                    throw new IOException("upgrade answer ended: " + head);
                }
                head.write(b);
            }
            String h = head.toString(StandardCharsets.US_ASCII);
            if (!h.startsWith("HTTP/1.1 101")) {
                s.close();
                throw new IOException("upgrade refused: " + h);
            }
            return new RawFeed(s, in);
        }

        /** What reading found: complete text messages, the close code (-1: none), and how it ended. */
        record Rest(int messages, int closeCode, String end) {
        }

        /** Reads frames until a close frame, the end of the stream, a reset, or {@code ms} without data. */
        Rest readRest(int ms) throws IOException {
            socket.setSoTimeout(ms);
            DataInputStream d = new DataInputStream(new BufferedInputStream(in, 1 << 16));
            int messages = 0;
            try {
                while (true) {
                    int b0 = d.readUnsignedByte(), b1 = d.readUnsignedByte();
                    long len = b1 & 0x7f;
                    if (len == 126) {
                        len = d.readUnsignedShort();
                    } else if (len == 127) {
                        len = d.readLong();
                    }
                    if ((b1 & 0x80) != 0) {
                        d.skipNBytes(4); // a server never masks, but skip a mask key if one came
                    }
                    byte[] payload = d.readNBytes((int) len);
                    if (payload.length < len) {
                        return new Rest(messages, -1, "end of stream inside a frame");
                    }
                    int opcode = b0 & 0x0f;
                    if (opcode == 8) {
                        int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
                        return new Rest(messages, code, "close frame");
                    }
                    if ((b0 & 0x80) != 0 && opcode != 9 && opcode != 10) {
                        messages++; // the final frame of a message
                    }
                }
            } catch (EOFException e) {
                return new Rest(messages, -1, "end of stream");
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the slow feed stayed open: no data for " + ms + " ms after " + messages
                        + " messages");
            } catch (IOException e) {
                return new Rest(messages, -1, "reset (" + e.getMessage() + ")");
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void feedsPerClientAreCapped() throws Exception {
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withFeeds(64, 4, 10_000));
        TestClient a = new TestClient(s.port(), "198.51.100.1"), b = new TestClient(s.port(), "198.51.100.2");
        String id = a.create(HOTSEAT).get("id").asText();
        String other = b.create(HOTSEAT).get("id").asText();
        List<TestClient.FeedClient> open = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            TestClient.FeedClient f = a.feed(id);
            assertEquals("game", f.next(10_000).get("type").asText());
            open.add(f);
        }
        // the fifth from the same client, on this game or another one, is refused
        assertFeedRefused(a, id);
        assertFeedRefused(a, other);
        // another client still connects
        TestClient.FeedClient fromB = b.feed(id);
        assertEquals("game", fromB.next(10_000).get("type").asText());
        await("four of a's feeds and b's open", () -> s.feedConnections() == 5, 5_000);
        // a closed feed frees its place
        open.remove(0).close();
        await("a's closed feed counted off", () -> s.feedConnections() == 4, 5_000);
        TestClient.FeedClient again = a.feed(id);
        assertEquals("game", again.next(10_000).get("type").asText());
        open.add(again);
        for (TestClient.FeedClient f : open) {
            f.close();
        }
        fromB.close();
    }

    /** Asserts that a feed is refused: 429 at the upgrade, or opened and closed at once with 4429. */
    private static void assertFeedRefused(TestClient c, String id) throws Exception {
        try {
            TestClient.FeedClient f = c.feed(id);
            Integer code = f.closed.get(5, TimeUnit.SECONDS);
            assertEquals(4429, code, "refused with close code 4429");
        } catch (CompletionException e) {
            WebSocketHandshakeException h = assertInstanceOf(WebSocketHandshakeException.class, e.getCause());
            assertEquals(429, h.getResponse().statusCode(), "refused with 429 at the upgrade");
        } catch (java.util.concurrent.TimeoutException e) {
            fail("a fifth feed from one client stayed open");
        }
    }

    /**
     * Asserts that answer times (ms, any order) are at least 200 ms apart: the analyses ran one after another. An
     * analysis is given 500 ms (GameService.ANALYSIS_MS), and the search may stop before an iteration it would not
     * finish (gaps of 388 ms were seen); two analyses run side by side would answer within milliseconds.
     */
    private static void assertOneAtATime(List<Long> servedAt) {
        Collections.sort(servedAt);
        for (int i = 1; i < servedAt.size(); i++) {
            long gap = servedAt.get(i) - servedAt.get(i - 1);
            assertTrue(gap >= 200, "two analyses answered " + gap + " ms apart: they ran at the same time");
        }
    }

    @Test
    void analysisQueueBoundsManyClients() throws Exception {
        // one engine thread, two analyses waiting at most: ten clients asking at once cannot all be queued
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withAnalysisQueue(2), 1, List.of("127.0.0.1"));
        String id = new TestClient(s.port(), "198.51.100.1").create(HOTSEAT).get("id").asText();
        int n = 10;
        List<CompletableFuture<HttpResponse<String>>> asks = new ArrayList<>();
        long[] answered = new long[n];
        for (int i = 0; i < n; i++) {
            TestClient c = new TestClient(s.port(), "198.51.100." + (10 + i));
            int k = i;
            asks.add(c.http.sendAsync(c.request("/api/games/" + id + "/analysis").GET().build(),
                    HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> answered[k] = System.nanoTime()));
        }
        int ok = 0, full = 0;
        List<Long> servedAt = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = asks.get(i).get(30, TimeUnit.SECONDS);
            if (r.statusCode() == 200) {
                ok++;
                servedAt.add(answered[i] / 1_000_000);
            } else {
                assertEquals(503, r.statusCode(), "a full queue answers 503: " + r.body());
                assertTrue(r.headers().firstValue("Retry-After").isPresent(), r.body());
                assertTrue(Api.JSON.readTree(r.body()).get("error").asText().startsWith("analysis:"), r.body());
                full++;
            }
        }
        System.out.println("LimitsTest: 10 clients' analyses at once with analysisQueue 2 and one engine thread: "
                + ok + " x 200, " + full + " x 503");
        // the queue holds 2 waiting plus 1 running; the ten arrive within about a second, in which the engine
        // finishes two at most (500 ms each): at most 5 are accepted
        assertTrue(ok >= 1 && ok <= 5, ok + " accepted");
        assertOneAtATime(servedAt); // one engine thread
    }

    @Test
    void analysisFloodLeavesTheServerResponsive() throws Exception {
        // one engine thread and an analysis queue of 2: the flood competes with the computer player for the engine
        KomaServer s = start(ServerConfig.Limits.DEFAULTS.withAnalysisQueue(2), 1, List.of("127.0.0.1"));
        TestClient flood = new TestClient(s.port(), "198.51.100.1"), other = new TestClient(s.port(), "198.51.100.2"),
                player = new TestClient(s.port(), "198.51.100.3");
        String id = flood.create(HOTSEAT).get("id").asText();
        JsonNode cg = player.create("{\"variant\":\"chess\",\"mode\":\"computer\",\"color\":\"first\",\"level\":0}");
        String computerGame = cg.get("id").asText();
        assertEquals("computer:0", cg.get("players").get("second").asText());

        // the other client reads once before the flood: its connection is open and the variant list built, so
        // what is measured below is the flood's effect, not a cold start
        assertEquals(200, other.get("/api/variants").status());

        int n = 30;
        long[] sent = new long[n], answered = new long[n];
        List<CompletableFuture<HttpResponse<String>>> burst = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int k = i;
            sent[k] = System.nanoTime();
            burst.add(flood.http.sendAsync(flood.request("/api/games/" + id + "/analysis").GET().build(),
                    HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> answered[k] = System.nanoTime()));
        }
        // meanwhile: another client's reads answer at once, and the computer answers a move
        long tMove = System.nanoTime();
        player.move(computerGame, "e2e4", 0);
        long slowestRead = 0;
        List<Long> reads = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long t = System.nanoTime();
            Api.Answer v = other.get("/api/variants");
            reads.add((System.nanoTime() - t) / 1_000_000);
            slowestRead = Math.max(slowestRead, reads.get(i));
            assertEquals(200, v.status(), TestClient.brief(v));
        }
        JsonNode replied = player.waitFor(computerGame, g -> g.get("ply").asInt() >= 2, 15_000);
        long computerMs = (System.nanoTime() - tMove) / 1_000_000;
        assertEquals("first", replied.get("sideToMove").asText());

        int ok = 0, tooMany = 0, full = 0;
        long slowestAnalysis = 0;
        List<Long> servedAt = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpResponse<String> r = burst.get(i).get(20, TimeUnit.SECONDS);
            slowestAnalysis = Math.max(slowestAnalysis, (answered[i] - sent[i]) / 1_000_000);
            switch (r.statusCode()) {
                case 200 -> {
                    ok++;
                    servedAt.add(answered[i] / 1_000_000);
                    assertNotNull(Api.JSON.readTree(r.body()).get("pv"), r.body());
                }
                case 429, 503 -> {
                    if (r.statusCode() == 429) {
                        tooMany++;
                    } else {
                        full++;
                    }
                    assertTrue(r.headers().firstValue("Retry-After").isPresent(), r.statusCode() + " " + r.body());
                }
                default -> fail("analysis answered " + r.statusCode() + ": " + r.body());
            }
        }
        long burstMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("LimitsTest: 30 concurrent analyses from one client: " + ok + " x 200, " + tooMany
                + " x 429, " + full + " x 503, slowest " + slowestAnalysis + " ms; another client's GET /api/variants"
                + " took " + reads + " ms; the computer's reply after " + computerMs + " ms");
        assertTrue(ok >= 1, "one analysis is served");
        assertTrue(ok < n / 2, "most of the burst is refused: " + ok + " accepted");
        // one at a time per client: one accepted after another finished answers an analysis' time later
        assertOneAtATime(servedAt);
        assertTrue(slowestAnalysis < 5_000, "every analysis request answered within 5 s: " + slowestAnalysis);
        assertTrue(slowestRead < 1_000, "another client's read during the flood took " + slowestRead + " ms");
        assertTrue(computerMs < 10_000, "the computer replied after " + computerMs + " ms");
        assertTrue(burstMs < 20_000);
    }
}
