package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * lichess's Bot and Board API on Koma (docs/bot-api.md) through a real server with a real database; the subclasses
 * give the database. Two bot accounts made as `koma accounts add --bot` makes them (AccountAdmin) challenge each
 * other and play over their event and game streams. The transcript test checks every object of a game against
 * lichess's published schemas (test resource lichess-api-fields.txt, field names copied from the spec): each
 * required field present, no field the schema does not name unless it is one of Koma's documented extensions.
 */
abstract class BotApiSuite {
    static KomaServer server;
    static int port;
    static String jdbcUrl;
    private static final AtomicInteger NAMES = new AtomicInteger();

    static void startServer(String url, Path data) {
        jdbcUrl = url;
        server = KomaServer.start(new ServerConfig(0, "127.0.0.1", url, data, 0, 100, 1));
        port = server.port();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** A bot account and its token, made on the server's database as `koma accounts add NAME --bot` does. */
    record Bot(String name, String token) {
    }

    static Bot bot(String base) {
        String name = base + NAMES.incrementAndGet() + Long.toString(System.nanoTime() % 10_000, 36);
        return new Bot(name, AccountAdmin.add(jdbcUrl, name, true).token());
    }

    private final HttpClient http = HttpClient.newHttpClient();

    Api.Answer get(Bot b, String path) {
        return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + b.token()).GET());
    }

    /** A form post as lichess's clients send it (no Origin, no cookie: the token authorises). */
    Api.Answer post(Bot b, String path, String form) {
        return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + b.token())
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    private Api.Answer send(HttpRequest.Builder r) {
        try {
            HttpResponse<String> x = http.send(r.build(), HttpResponse.BodyHandlers.ofString());
            return new Api.Answer(x.statusCode(), x.body(), x);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** An open NDJSON stream: its lines (keep-alive empty lines included) as they arrive. */
    final class Lines implements AutoCloseable {
        final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final CompletableFuture<HttpResponse<Stream<String>>> response;

        Lines(Bot b, String path) {
            response = http.sendAsync(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + b.token()).GET()
                    .build(), HttpResponse.BodyHandlers.ofLines());
            response.thenAccept(r -> {
                assertEquals(200, r.statusCode());
                assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/x-ndjson"));
                Thread.ofVirtual().start(() -> {
                    try {
                        r.body().forEach(lines::add);
                    } catch (java.io.UncheckedIOException e) {
                        // the test closed the stream
                    }
                });
            });
        }

        /** The next JSON line of a type, skipping keep-alives and other types; fails after 10 s. */
        JsonNode next(String type) throws InterruptedException {
            return next(type, 10_000);
        }

        /** The same, failing after {@code ms}. */
        JsonNode next(String type, long ms) throws InterruptedException {
            long until = System.currentTimeMillis() + ms;
            while (System.currentTimeMillis() < until) {
                String l = lines.poll(until - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
                if (l == null || l.isEmpty()) {
                    continue;
                }
                JsonNode n = new Api.Answer(200, l, null).json();
                if (n.get("type").asText().equals(type)) {
                    return n;
                }
            }
            throw new AssertionError("no " + type + " line within " + ms / 1000 + " s");
        }

        @Override
        public void close() {
            response.thenAccept(r -> r.body().close());
            response.cancel(true);
        }
    }

    @Test
    void accountAndUserCarryLichessFields() {
        Bot a = bot("Ada");
        JsonNode me = get(a, "/api/account").json();
        assertEquals(a.name().toLowerCase(), me.get("id").asText());
        assertEquals(a.name(), me.get("username").asText());
        assertEquals("BOT", me.get("title").asText());
        assertTrue(me.get("perfs").isObject());
        JsonNode user = get(a, "/api/user/" + a.name()).json();
        assertEquals(a.name(), user.get("username").asText());
        assertEquals(404, get(a, "/api/user/nobody-" + a.name()).status());
        Api.Answer bad = send(HttpRequest.newBuilder(uri("/api/account")).header("Authorization", "Bearer koma_nope").GET());
        assertEquals(401, bad.status());
        assertTrue(bad.error().contains("API token"), bad.error());
    }

    @Test
    void twoBotsPlayARatedChessGameWithAFischerClock() throws Exception {
        Bot w = bot("Wes"), b = bot("Bea");
        try (Lines we = new Lines(w, "/api/stream/event"); Lines be = new Lines(b, "/api/stream/event")) {
            Thread.sleep(300); // both streams open before the challenge
            JsonNode ch = post(w, "/api/challenge/" + b.name(), "variant=chess&clock.limit=300&clock.increment=3&rated=true&color=white").json();
            String cid = ch.get("id").asText();
            JsonNode seen = be.next("challenge").get("challenge");
            assertEquals(cid, seen.get("id").asText());
            assertEquals("created", seen.get("status").asText());
            assertEquals(w.name(), seen.get("challenger").get("name").asText());
            assertEquals("BOT", seen.get("challenger").get("title").asText());
            assertEquals(b.name(), seen.get("destUser").get("name").asText());
            assertEquals("chess", seen.get("variant").get("key").asText());
            assertTrue(seen.get("rated").asBoolean());
            assertEquals("blitz", seen.get("speed").asText(), "300 + 40 x 3 = 420 s: blitz");
            assertEquals("clock", seen.get("timeControl").get("type").asText());
            assertEquals(300, seen.get("timeControl").get("limit").asInt());
            assertEquals(3, seen.get("timeControl").get("increment").asInt());
            assertEquals("white", seen.get("color").asText());
            assertEquals(403, post(w, "/api/challenge/" + cid + "/accept", "").status(), "only the challenged accepts");
            assertEquals(200, post(b, "/api/challenge/" + cid + "/accept", "").status());
            JsonNode startW = we.next("gameStart").get("game"), startB = be.next("gameStart").get("game");
            String id = startW.get("gameId").asText();
            assertEquals(id, startB.get("gameId").asText());
            assertEquals("white", startW.get("color").asText());
            assertEquals("black", startB.get("color").asText());
            assertTrue(startW.get("isMyTurn").asBoolean());
            assertFalse(startB.get("isMyTurn").asBoolean());
            assertEquals(b.name(), startW.get("opponent").get("name").asText());
            try (Lines wg = new Lines(w, "/api/bot/game/stream/" + id); Lines bg = new Lines(b, "/api/bot/game/stream/" + id)) {
                JsonNode full = wg.next("gameFull");
                bg.next("gameFull");
                assertEquals(id, full.get("id").asText());
                assertEquals("chess", full.get("variant").get("key").asText());
                assertEquals(300_000, full.get("clock").get("initial").asInt());
                assertEquals(3_000, full.get("clock").get("increment").asInt());
                assertEquals(w.name(), full.get("white").get("name").asText());
                assertEquals(b.name(), full.get("black").get("name").asText());
                assertEquals("startpos", full.get("initialFen").asText());
                assertEquals("", full.get("state").get("moves").asText());
                assertEquals("started", full.get("state").get("status").asText());
                assertEquals(200, post(w, "/api/bot/game/" + id + "/move/e2e4", "").status());
                JsonNode s1 = bg.next("gameState");
                assertEquals("e2e4", s1.get("moves").asText());
                assertTrue(s1.get("wtime").asLong() > 295_000 && s1.get("wtime").asLong() <= 303_000, s1.toString());
                assertEquals(3000, s1.get("winc").asInt());
                Api.Answer notYours = post(w, "/api/bot/game/" + id + "/move/d2d4", "");
                assertEquals(403, notYours.status(), notYours.text());
                assertNotNull(notYours.error());
                assertEquals(400, post(b, "/api/bot/game/" + id + "/move/e7e4", "").status(), "illegal");
                assertEquals(200, post(b, "/api/bot/game/" + id + "/move/e7e5", "").status());
                JsonNode s2 = wg.next("gameState");
                while (s2.get("moves").asText().equals("e2e4")) {
                    s2 = wg.next("gameState"); // its stream saw the first move too
                }
                assertEquals("e2e4 e7e5", s2.get("moves").asText());
                assertEquals(200, post(w, "/api/bot/game/" + id + "/resign", "").status());
                JsonNode end = bg.next("gameState");
                while (!end.get("status").asText().equals("resign")) {
                    end = bg.next("gameState");
                }
                assertEquals("black", end.get("winner").asText());
                JsonNode fin = we.next("gameFinish").get("game");
                assertEquals(id, fin.get("gameId").asText());
            }
        }
        // both ratings moved by Glicko-2 from two new players, the second player winning
        Glicko2.Rating[] r = Glicko2.game(Glicko2.Rating.START, Glicko2.Rating.START, 0);
        JsonNode pw = get(w, "/api/user/" + w.name()).json().get("perfs").get("chess");
        JsonNode pb = get(w, "/api/user/" + b.name()).json().get("perfs").get("chess");
        assertEquals(Math.round(r[0].rating()), pw.get("rating").asInt());
        assertEquals(Math.round(r[1].rating()), pb.get("rating").asInt());
        assertEquals(1, pw.get("games").asInt());
        assertTrue(pw.get("prov").asBoolean());
        assertTrue(pw.get("rd").asInt() < 350);
    }

    @Test
    void twoBotsPlayShogiWithByoyomiAndADrop() throws Exception {
        Bot s = bot("Sen"), g = bot("Go");
        try (Lines ge = new Lines(g, "/api/stream/event")) {
            Thread.sleep(300);
            String cid = post(s, "/api/challenge/" + g.name(), "variant=shogi&clock.limit=60&clock.byoyomi=10&color=white&rated=true")
                    .json().get("id").asText();
            JsonNode ch = ge.next("challenge").get("challenge");
            assertEquals(10, ch.get("timeControl").get("byoyomi").asInt());
            assertEquals(60, ch.get("timeControl").get("limit").asInt());
            assertEquals(200, post(g, "/api/challenge/" + cid + "/accept", "").status());
            String id = ge.next("gameStart").get("game").get("gameId").asText();
            try (Lines sg = new Lines(s, "/api/bot/game/stream/" + id)) {
                JsonNode full = sg.next("gameFull");
                assertEquals("shogi", full.get("variant").get("key").asText());
                assertEquals(10_000, full.get("clock").get("byoyomi").asInt());
                assertEquals(10_000, full.get("state").get("byo").asInt());
                // USI strings, as lishogi: the bishops are exchanged (with promotion) and sente drops one
                String[] moves = {"7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"};
                Bot[] by = {s, g, s, g, s};
                for (int i = 0; i < moves.length; i++) {
                    Api.Answer a = post(by[i], "/api/bot/game/" + id + "/move/" + moves[i], "");
                    assertEquals(200, a.status(), moves[i] + ": " + a.text());
                }
                JsonNode st = sg.next("gameState");
                while (st.get("moves").asText().split(" ").length < moves.length) {
                    st = sg.next("gameState");
                }
                assertEquals(String.join(" ", moves), st.get("moves").asText());
                assertEquals(10_000, st.get("byo").asInt());
                assertEquals(200, post(g, "/api/bot/game/" + id + "/resign", "").status());
                JsonNode end = sg.next("gameState");
                while (end.get("status").asText().equals("started")) {
                    end = sg.next("gameState");
                }
                assertEquals("resign", end.get("status").asText());
            }
        }
        // rated: both shogi ratings moved by Glicko-2 from two new players, sente winning
        Glicko2.Rating[] r = Glicko2.game(Glicko2.Rating.START, Glicko2.Rating.START, 1);
        assertEquals(Math.round(r[0].rating()), get(s, "/api/user/" + s.name()).json().get("perfs").get("shogi").get("rating").asInt());
        assertEquals(Math.round(r[1].rating()), get(s, "/api/user/" + g.name()).json().get("perfs").get("shogi").get("rating").asInt());
    }

    @Test
    void takebackChatAndAbortOverTheBotApi() throws Exception {
        Bot w = bot("Tak"), b = bot("Bak");
        try (Lines be = new Lines(b, "/api/stream/event")) {
            Thread.sleep(300);
            String cid = post(w, "/api/challenge/" + b.name(), "variant=chess&clock.limit=600&clock.increment=5&color=white")
                    .json().get("id").asText();
            assertEquals(200, post(b, "/api/challenge/" + cid + "/accept", "").status());
            String id = be.next("gameStart").get("game").get("gameId").asText();
            // the games an account plays, its turn first (lichess's nowPlaying)
            JsonNode mine = get(w, "/api/account/playing").json().get("nowPlaying");
            assertEquals(1, mine.size());
            assertEquals(id, mine.get(0).get("gameId").asText());
            assertTrue(mine.get(0).get("isMyTurn").asBoolean());
            assertFalse(get(b, "/api/account/playing").json().get("nowPlaying").get(0).get("isMyTurn").asBoolean());
            try (Lines bg = new Lines(b, "/api/bot/game/stream/" + id)) {
                bg.next("gameFull");
                assertEquals(200, post(w, "/api/bot/game/" + id + "/move/e2e4", "").status());
                bg.next("gameState");
                // White asks to take its move back; Black sees the request (lichess's wtakeback) and accepts
                assertEquals(200, post(w, "/api/bot/game/" + id + "/takeback/yes", "").status());
                JsonNode asked = bg.next("gameState");
                while (!asked.path("wtakeback").asBoolean()) {
                    asked = bg.next("gameState");
                }
                assertEquals(200, post(b, "/api/bot/game/" + id + "/takeback/yes", "").status());
                JsonNode back = bg.next("gameState");
                while (!back.get("moves").asText().isEmpty()) {
                    back = bg.next("gameState");
                }
                assertFalse(back.has("wtakeback"));
                // chat in the players' room reaches the other player's stream as text, as written
                String text = "good luck <b>&</b>";
                assertEquals(200, post(w, "/api/bot/game/" + id + "/chat", "room=player&text="
                        + java.net.URLEncoder.encode(text, java.nio.charset.StandardCharsets.UTF_8)).status());
                JsonNode line = bg.next("chatLine");
                assertEquals("player", line.get("room").asText());
                assertEquals(w.name(), line.get("username").asText());
                assertEquals(text, line.get("text").asText());
                assertEquals(400, post(w, "/api/bot/game/" + id + "/chat", "room=lobby&text=hi").status());
                // nobody has moved now: the game can be aborted, and it is not rated
                assertEquals(200, post(b, "/api/bot/game/" + id + "/abort", "").status());
                JsonNode end = bg.next("gameState");
                while (!end.get("status").asText().equals("aborted")) {
                    end = bg.next("gameState");
                }
                assertFalse(end.has("winner"));
            }
        }
    }

    @Test
    void anOpponentWhoLeavesIsGoneUntilBack() throws Exception {
        Bot w = bot("Ogw"), b = bot("Ogb");
        try (Lines be = new Lines(b, "/api/stream/event")) {
            Thread.sleep(300);
            String cid = post(w, "/api/challenge/" + b.name(), "variant=shodo&clock.limit=300&clock.increment=2&color=white")
                    .json().get("id").asText();
            post(b, "/api/challenge/" + cid + "/accept", "");
            String id = be.next("gameStart").get("game").get("gameId").asText();
            try (Lines wg = new Lines(w, "/api/bot/game/stream/" + id)) {
                wg.next("gameFull");
                Lines bg = new Lines(b, "/api/bot/game/stream/" + id);
                bg.next("gameFull");
                // Black's only connection closes: White hears it is gone once the server finds the stream dead, at
                // its next writes (keep-alives every 6 s: within two of them)
                bg.close();
                assertTrue(wg.next("opponentGone", 20_000).get("gone").asBoolean());
                try (Lines again = new Lines(b, "/api/bot/game/stream/" + id)) {
                    again.next("gameFull");
                    assertFalse(wg.next("opponentGone").get("gone").asBoolean(), "and back");
                }
            }
        }
    }

    @Test
    void scopesAndBadRequestsAreRefusedClearly() throws Exception {
        Bot a = bot("Kit"), b = bot("Lin");
        Api.Answer noLimit = post(a, "/api/challenge/" + b.name(), "variant=chess&clock.increment=3");
        assertEquals(400, noLimit.status());
        assertTrue(noLimit.error().startsWith("clock.limit: "), noLimit.error());
        Api.Answer badVariant = post(a, "/api/challenge/" + b.name(), "variant=go");
        assertEquals(400, badVariant.status());
        assertTrue(badVariant.error().startsWith("variant: unknown rule set 'go'"), badVariant.error());
        assertEquals(404, post(a, "/api/challenge/nobody" + b.name(), "variant=chess").status());
        JsonNode corr = post(a, "/api/challenge/" + b.name(), "variant=washogi-drops&days=3").json();
        assertEquals("correspondence", corr.get("timeControl").get("type").asText());
        assertEquals(3, corr.get("timeControl").get("daysPerTurn").asInt());
        assertEquals("correspondence", corr.get("speed").asText());
        assertEquals(400, post(a, "/api/challenge/" + b.name(), "variant=chess&days=4").status());
        // a board-only token may not challenge
        Api web = new Api(port);
        String n = "Web" + NAMES.incrementAndGet() + Long.toString(System.nanoTime() % 10_000, 36);
        assertEquals(201, web.post("/api/account/signup", "{\"name\":\"" + n + "\",\"password\":\"secret-" + n + "\"}").status());
        String boardOnly = web.post("/api/account/tokens", "{\"label\":\"board\",\"scopes\":[\"board:play\"]}").json()
                .get("token").asText();
        Api.Answer denied = post(new Bot(n, boardOnly), "/api/challenge/" + b.name(), "variant=chess");
        assertEquals(403, denied.status());
        assertTrue(denied.error().contains("challenge:write"), denied.error());
        // challenges can be declined and cancelled, and both sides hear it
        try (Lines ae = new Lines(a, "/api/stream/event")) {
            Thread.sleep(300);
            String c1 = post(a, "/api/challenge/" + b.name(), "variant=shodo").json().get("id").asText();
            assertEquals(200, post(b, "/api/challenge/" + c1 + "/decline", "reason=later").status());
            JsonNode d = ae.next("challengeDeclined").get("challenge");
            assertEquals("declined", d.get("status").asText());
            assertEquals("later", d.get("declineReason").asText());
            assertEquals("unlimited", d.get("timeControl").get("type").asText());
            String c2 = post(a, "/api/challenge/" + b.name(), "variant=washogi").json().get("id").asText();
            assertEquals(200, post(a, "/api/challenge/" + c2 + "/cancel", "").status());
            assertEquals("canceled", ae.next("challengeCanceled").get("challenge").get("status").asText());
            assertEquals(404, post(b, "/api/challenge/" + c2 + "/accept", "").status());
        }
    }

    @Test
    void aStreamSendsAKeepAliveLineWithinSevenSeconds() throws Exception {
        Bot a = bot("Kee");
        try (Lines ae = new Lines(a, "/api/stream/event")) {
            String l = ae.lines.poll(7, TimeUnit.SECONDS);
            assertEquals("", l, "lichess's clients expect an empty line at least every 7 s");
        }
    }

    @Test
    void botsStayOutOfTheLobby() throws Exception {
        Bot a = bot("Lob");
        Api person = new Api(port);
        try (AccountSuite.Lobby l = AccountSuite.Lobby.open(person)) {
            String id = person.post("/api/lobby/seeks", "{\"sri\":\"" + l.sri + "\",\"variant\":\"chess\",\"clock\":\"5+3\"}")
                    .json().get("id").asText();
            Api.Answer r = post(a, "/api/lobby/seeks/" + id + "/accept", "");
            assertEquals(403, r.status());
            assertTrue(r.error().contains("bots play through challenges"), r.error());
        }
    }

    /** A schema's properties and required properties, with Koma's extensions among the properties. */
    record Schema(Set<String> properties, Set<String> required) {
    }

    static Map<String, Schema> schemas() throws IOException {
        Map<String, Schema> out = new HashMap<>();
        try (InputStream in = BotApiSuite.class.getResourceAsStream("/lichess-api-fields.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String name = line.substring(0, line.indexOf(':')).strip();
                String rest = line.substring(line.indexOf(':') + 1);
                if (name.startsWith("+")) {
                    out.get(name.substring(1)).properties().addAll(List.of(rest.strip().split("\\s+")));
                    continue;
                }
                String[] parts = rest.split("\\|");
                out.put(name, new Schema(new LinkedHashSet<>(List.of(parts[0].strip().split("\\s+"))),
                        new LinkedHashSet<>(List.of(parts[1].strip().split("\\s+")))));
            }
        }
        return out;
    }

    private static void check(Map<String, Schema> schemas, String schema, JsonNode n, String where) {
        Schema s = schemas.get(schema);
        for (String r : s.required()) {
            assertTrue(n.has(r), where + ": " + schema + " requires '" + r + "': " + n);
        }
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!s.properties().contains(f)) {
                fail(where + ": '" + f + "' is not a field of lichess's " + schema + ": " + n);
            }
        }
    }

    @Test
    void everyObjectOfAGameMatchesLichessSchemas() throws Exception {
        Map<String, Schema> sc = schemas();
        Bot w = bot("Sha"), b = bot("Pe");
        try (Lines we = new Lines(w, "/api/stream/event"); Lines be = new Lines(b, "/api/stream/event")) {
            Thread.sleep(300);
            String declined = post(w, "/api/challenge/" + b.name(), "variant=shodo").json().get("id").asText();
            post(b, "/api/challenge/" + declined + "/decline", "reason=variant");
            JsonNode dec = we.next("challengeDeclined");
            check(sc, "ChallengeEvent", dec, "challengeDeclined");
            check(sc, "ChallengeDeclinedJson", dec.get("challenge"), "challengeDeclined.challenge");
            JsonNode created = post(w, "/api/challenge/" + b.name(), "variant=chess&clock.limit=180&clock.increment=2&rated=true")
                    .json();
            check(sc, "ChallengeJson", created, "POST /api/challenge");
            JsonNode ev = be.next("challenge");
            check(sc, "ChallengeEvent", ev, "challenge");
            check(sc, "ChallengeJson", ev.get("challenge"), "challenge.challenge");
            check(sc, "ChallengeUser", ev.get("challenge").get("challenger"), "challenge.challenger");
            check(sc, "ChallengeUser", ev.get("challenge").get("destUser"), "challenge.destUser");
            post(b, "/api/challenge/" + created.get("id").asText() + "/accept", "");
            JsonNode start = we.next("gameStart");
            check(sc, "GameStartEvent", start, "gameStart");
            check(sc, "GameEventInfo", start.get("game"), "gameStart.game");
            check(sc, "GameEventPlayer", start.get("game").get("opponent"), "gameStart.game.opponent");
            String id = start.get("game").get("gameId").asText();
            try (Lines g = new Lines(w, "/api/bot/game/stream/" + id)) {
                JsonNode full = g.next("gameFull");
                check(sc, "GameFullEvent", full, "gameFull");
                check(sc, "GameEventPlayer", full.get("white"), "gameFull.white");
                check(sc, "GameEventPlayer", full.get("black"), "gameFull.black");
                check(sc, "GameStateEvent", full.get("state"), "gameFull.state");
                String first = full.get("white").get("name").asText().equals(w.name()) ? "w" : "b";
                Bot white = first.equals("w") ? w : b, black = first.equals("w") ? b : w;
                post(white, "/api/bot/game/" + id + "/move/e2e4", "");
                check(sc, "GameStateEvent", g.next("gameState"), "gameState");
                post(black, "/api/bot/game/" + id + "/chat", "room=player&text=hello");
                check(sc, "ChatLineEvent", g.next("chatLine"), "chatLine");
                post(black, "/api/bot/game/" + id + "/draw/yes", "");
                JsonNode offered = g.next("gameState");
                check(sc, "GameStateEvent", offered, "gameState with a draw offer");
                post(black, "/api/bot/game/" + id + "/resign", "");
                JsonNode over = g.next("gameState");
                while (over.get("status").asText().equals("started")) {
                    over = g.next("gameState");
                }
                check(sc, "GameStateEvent", over, "gameState at the end");
            }
            JsonNode fin = we.next("gameFinish");
            check(sc, "GameFinishEvent", fin, "gameFinish");
            check(sc, "GameEventInfo", fin.get("game"), "gameFinish.game");
        }
        JsonNode me = get(w, "/api/account").json();
        check(sc, "User", me, "GET /api/account");
        JsonNode user = get(w, "/api/user/" + b.name()).json();
        check(sc, "User", user, "GET /api/user");
        check(sc, "Perf", user.get("perfs").get("chess"), "GET /api/user perfs.chess");
    }
}
