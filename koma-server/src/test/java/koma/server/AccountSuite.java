package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Accounts, the lobby, ratings and profiles (issue 12) through the API of a real server with a real database; the
 * subclasses give the database. The server trusts 127.0.0.1 as a proxy, so each test client claims an address of
 * its own (X-Forwarded-For) and the per-address limits of one test do not spill into another.
 */
abstract class AccountSuite {
    static KomaServer server;
    static int port;
    private static final AtomicInteger ADDRESSES = new AtomicInteger(1);

    static void startServer(String jdbcUrl, Path data) {
        server = KomaServer.start(new ServerConfig(0, "127.0.0.1", jdbcUrl, data, 0, 100, 1)
                .withTrustedProxies(List.of("127.0.0.1")));
        port = server.port();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** A browser of its own: its cookie jar and address. */
    static Api browser() {
        int n = ADDRESSES.getAndIncrement();
        return new Api(port, "10.1." + (n / 250) + "." + (n % 250 + 1));
    }

    /** A fresh unique account name (the suites share one database per run). */
    static String name(String base) {
        return base + ADDRESSES.getAndIncrement() + Long.toString(System.nanoTime() % 100_000, 36);
    }

    static Api signedUp(String name) {
        Api a = browser();
        Api.Answer r = a.post("/api/account/signup", "{\"name\":\"" + name + "\",\"password\":\"secret-" + name + "\"}");
        assertEquals(201, r.status(), r.text());
        return a;
    }

    @Test
    void signUpLogInLogOut() {
        String n = name("Ann");
        Api a = signedUp(n);
        assertEquals(n, a.get("/api/account").json().get("name").asText());
        // names are unique whatever their case
        Api b = browser();
        Api.Answer dup = b.post("/api/account/signup", "{\"name\":\"" + n.toUpperCase() + "\",\"password\":\"whatever123\"}");
        assertEquals(409, dup.status());
        assertTrue(dup.error().contains("is taken"), dup.error());
        // the rules, each with a message naming the field
        for (String[] bad : new String[][]{{"a", "2 to 20"}, {"no spaces", "only letters"}, {"a--b", "not two in a row"},
                {"_ab", "beginning and ending"}, {"Admin", "reserved"}, {"x".repeat(21), "2 to 20"}}) {
            Api.Answer r = b.post("/api/account/signup", "{\"name\":\"" + bad[0] + "\",\"password\":\"whatever123\"}");
            assertEquals(400, r.status(), bad[0]);
            assertTrue(r.error().startsWith("name: ") && r.error().contains(bad[1]), r.error());
        }
        Api.Answer shortPw = b.post("/api/account/signup", "{\"name\":\"" + name("Bo") + "\",\"password\":\"short\"}");
        assertEquals(400, shortPw.status());
        assertTrue(shortPw.error().startsWith("password: "), shortPw.error());
        // the session cookie is HttpOnly
        String setCookie = a.post("/api/account/login", "{\"name\":\"" + n + "\",\"password\":\"secret-" + n + "\"}")
                .raw().headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.startsWith("koma_session=") && setCookie.contains("HttpOnly"), setCookie);
        // logout ends the session; a wrong password and an unknown name answer alike
        assertTrue(a.post("/api/account/logout", "{}").json().get("name").isNull());
        assertTrue(a.get("/api/account").json().get("name").isNull());
        Api.Answer wrong = a.post("/api/account/login", "{\"name\":\"" + n + "\",\"password\":\"not-it-at-all\"}");
        Api.Answer unknown = a.post("/api/account/login", "{\"name\":\"nobody" + n + "\",\"password\":\"not-it-at-all\"}");
        assertEquals(403, wrong.status());
        assertEquals(wrong.text(), unknown.text());
        // login is case-insensitive in the name and shows the name as written at sign-up
        Api.Answer ok = a.post("/api/account/login", "{\"name\":\"" + n.toLowerCase() + "\",\"password\":\"secret-" + n + "\"}");
        assertEquals(200, ok.status(), ok.text());
        assertEquals(n, a.get("/api/account").json().get("name").asText());
    }

    @Test
    void loginAttemptsAreRateLimited() {
        String n = name("Cy");
        signedUp(n);
        Api attacker = browser();
        int refused = 0;
        String retry = null;
        // Accounts: 5 attempts per name at once, one more per minute; so the sixth wrong attempt in a row is refused
        for (int i = 0; i < 6; i++) {
            Api.Answer r = attacker.post("/api/account/login", "{\"name\":\"" + n + "\",\"password\":\"guess-" + i + "xx\"}");
            if (r.status() == 429) {
                refused++;
                retry = r.raw().headers().firstValue("Retry-After").orElse(null);
                assertTrue(r.error().contains("too many login attempts"), r.error());
            } else {
                assertEquals(403, r.status());
            }
        }
        assertEquals(1, refused);
        assertNotNull(retry);
        // now even the right password waits: the limit is per name
        assertEquals(429, browser().post("/api/account/login", "{\"name\":\"" + n + "\",\"password\":\"secret-" + n + "\"}").status());
    }

    @Test
    void passwordChangeEndsOtherSessionsAndDeletionAnonymisesGames() {
        String n = name("Di");
        Api a = signedUp(n);
        Api other = browser();
        assertEquals(200, other.post("/api/account/login", "{\"name\":\"" + n + "\",\"password\":\"secret-" + n + "\"}").status());
        assertEquals(403, a.post("/api/account/password", "{\"current\":\"wrong-one-1\",\"password\":\"new-secret-1\"}").status());
        assertEquals(200, a.post("/api/account/password", "{\"current\":\"secret-" + n + "\",\"password\":\"new-secret-1\"}").status());
        assertEquals(n, a.get("/api/account").json().get("name").asText(), "the changing browser stays signed in");
        assertTrue(other.get("/api/account").json().get("name").isNull(), "other sessions end");
        // a game against the computer is seated with the account, then the account is deleted
        JsonNode g = a.create("{\"variant\":\"chess\",\"mode\":\"computer\",\"color\":\"first\",\"level\":0}");
        String id = g.get("id").asText();
        assertEquals(n, g.get("accounts").get(0).get("name").asText());
        assertEquals(403, a.post("/api/account/delete", "{\"password\":\"secret-" + n + "\"}").status());
        assertEquals(200, a.post("/api/account/delete", "{\"password\":\"new-secret-1\"}").status());
        assertTrue(a.get("/api/account").json().get("name").isNull());
        assertEquals(404, a.get("/api/users/" + n).status());
        // the game stays; once reloaded from the database it shows the account without a name
        JsonNode summary = a.get("/api/games?ids=" + id).json().get("games").get(0);
        assertTrue(summary.get("sides").get(0).get("account").asBoolean());
        assertTrue(summary.get("sides").get(0).get("name").isNull());
        // the name is free again
        signedUp(n);
    }

    @Test
    void apiTokensAuthoriseAndCanBeRevoked() throws Exception {
        String n = name("Eve");
        Api a = signedUp(n);
        String token = a.post("/api/account/tokens", "{\"label\":\"my bot\"}").json().get("token").asText();
        assertTrue(token.startsWith("koma_"));
        Api bare = browser();
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(bare.base + "/api/account"))
                .header("Authorization", "Bearer " + token).GET();
        assertEquals(n, bare.send(req).json().get("name").asText());
        JsonNode list = a.get("/api/account/tokens").json().get("tokens");
        assertEquals(1, list.size());
        assertEquals("my bot", list.get(0).get("label").asText());
        String tid = list.get(0).get("id").asText();
        assertEquals(200, a.post("/api/account/tokens/" + tid + "/revoke", "{}").status());
        Api.Answer after = bare.send(HttpRequest.newBuilder(URI.create(bare.base + "/api/account"))
                .header("Authorization", "Bearer " + token).GET());
        assertEquals(401, after.status());
        assertTrue(after.error().contains("API token"), after.error());
    }

    @Test
    void aSeekAcceptedFromTheLobbySeatsBothPlayers() throws Exception {
        String n1 = name("Fay"), n2 = name("Gus");
        Api a = signedUp(n1), b = signedUp(n2);
        try (Lobby la = Lobby.open(a); Lobby lb = Lobby.open(b)) {
            JsonNode seek = a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"shogi\",\"clock\":\"10|30\","
                    + "\"rated\":false,\"color\":\"first\"}").json();
            JsonNode added = lb.next("seekAdded");
            assertEquals(seek.get("id").asText(), added.get("seek").get("id").asText());
            assertEquals(n1, added.get("seek").get("name").asText());
            assertEquals(1500, added.get("seek").get("rating").asInt());
            assertTrue(added.get("seek").get("provisional").asBoolean());
            assertEquals(409, a.post("/api/lobby/seeks/" + seek.get("id").asText() + "/accept", "{}").status(),
                    "one's own seek");
            JsonNode acc = b.post("/api/lobby/seeks/" + seek.get("id").asText() + "/accept", "{}").json();
            String game = acc.get("game").asText();
            assertEquals(game, la.next("paired").get("game").asText());
            assertEquals(200, a.post("/api/lobby/seat", "{\"sri\":\"" + la.sri + "\",\"game\":\"" + game + "\"}").status());
            assertEquals(404, a.post("/api/lobby/seat", "{\"sri\":\"" + la.sri + "\",\"game\":\"" + game + "\"}").status(),
                    "a seat is taken once");
            JsonNode ga = a.get("/api/games/" + game).json(), gb = b.get("/api/games/" + game).json();
            assertEquals("first", ga.get("you").asText());
            assertEquals("second", gb.get("you").asText());
            assertEquals("active", ga.get("status").asText());
            assertEquals(n1, ga.get("accounts").get(0).get("name").asText());
            assertEquals(n2, ga.get("accounts").get(1).get("name").asText());
            assertEquals("byoyomi", ga.get("clock").get("type").asText());
            // both seats move: any legal move of each side
            a.move(game, ga.get("legalMoves").get(0).asText(), 0);
            b.move(game, b.get("/api/games/" + game).json().get("legalMoves").get(0).asText(), 1);
        }
    }

    @Test
    void twoPlayersAcceptingOneSeekAtOnceMakeOneGame() throws Exception {
        Api a = browser();
        try (Lobby la = Lobby.open(a)) {
            for (int round = 0; round < 5; round++) {
                String id = a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"chess\",\"clock\":\"5+3\"}")
                        .json().get("id").asText();
                Api b = browser(), c = browser();
                CompletableFuture<Api.Answer> fb = CompletableFuture.supplyAsync(() -> b.post("/api/lobby/seeks/" + id + "/accept", "{}"));
                CompletableFuture<Api.Answer> fc = CompletableFuture.supplyAsync(() -> c.post("/api/lobby/seeks/" + id + "/accept", "{}"));
                List<Integer> statuses = new ArrayList<>(List.of(fb.get().status(), fc.get().status()));
                statuses.sort(null);
                assertEquals(List.of(200, 404), statuses, "exactly one accept wins");
                la.next("paired");
                assertNull(la.poll("paired", 300), "the seeker is paired once");
            }
        }
    }

    @Test
    void aCorrespondenceSeekMakesACorrespondenceGameListedAsMyTurn() throws Exception {
        String n1 = name("Nia"), n2 = name("Oto");
        Api a = signedUp(n1), b = signedUp(n2);
        try (Lobby la = Lobby.open(a)) {
            assertEquals(400, a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"shogi\",\"clock\":\"4d\"}")
                    .status(), "days per move: 1, 2, 3, 5, 7 or 14");
            String id = a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"shogi\",\"clock\":\"3d\","
                    + "\"color\":\"second\"}").json().get("id").asText();
            String game = b.post("/api/lobby/seeks/" + id + "/accept", "{}").json().get("game").asText();
            JsonNode g = b.get("/api/games/" + game).json();
            assertEquals("correspondence", g.get("clock").get("type").asText());
            assertEquals(3, g.get("clock").get("daysPerMove").asInt());
            // the account of the side to move (the acceptor plays first) finds it among its games, its turn
            JsonNode mine = b.get("/api/account/playing").json().get("nowPlaying");
            assertEquals(game, mine.get(0).get("gameId").asText());
            assertTrue(mine.get(0).get("isMyTurn").asBoolean());
            assertEquals("correspondence", mine.get(0).get("speed").asText());
            assertFalse(a.get("/api/account/playing").json().get("nowPlaying").get(0).get("isMyTurn").asBoolean());
        }
    }

    @Test
    void aSeekVanishesWhenItsSeekerLeaves() throws Exception {
        Api a = browser(), b = browser();
        try (Lobby lb = Lobby.open(b)) {
            String id;
            try (Lobby la = Lobby.open(a)) {
                id = a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"washogi\",\"clock\":\"10+5\"}")
                        .json().get("id").asText();
                assertEquals(id, lb.next("seekAdded").get("seek").get("id").asText());
                assertEquals(403, a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"chess\","
                        + "\"clock\":\"5+3\",\"rated\":true}").status(), "rated seeks need an account");
                assertEquals(400, a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"chess\","
                        + "\"clock\":\"5 minutes\"}").status());
            }
            assertEquals(id, lb.next("seekRemoved").get("id").asText());
            assertEquals(404, b.post("/api/lobby/seeks/" + id + "/accept", "{}").status());
        }
    }

    @Test
    void quickPairingMatchesACommonRuleSetAndClock() throws Exception {
        Api a = browser(), b = browser();
        try (Lobby la = Lobby.open(a); Lobby lb = Lobby.open(b)) {
            // a would play Wa shogi or Shodo at 10+5 or 15+10; b only Shodo, at 15+10 or 3+2: they meet in Shodo 15+10
            JsonNode first = a.post("/api/lobby/pool", "{\"sri\":\"" + la.sri + "\",\"variants\":[\"washogi\",\"shodo\"],"
                    + "\"clocks\":[\"10+5\",\"15+10\"]}").json();
            assertTrue(first.get("game").isNull());
            assertTrue(la.next("pool").get("waiting").asBoolean());
            String game = b.post("/api/lobby/pool", "{\"sri\":\"" + lb.sri + "\",\"variants\":[\"chess\",\"shodo\"],"
                    + "\"clocks\":[\"3+2\",\"15+10\"]}").json().get("game").asText();
            assertEquals(game, la.next("paired").get("game").asText());
            assertEquals(game, lb.next("paired").get("game").asText());
            assertEquals(200, a.post("/api/lobby/seat", "{\"sri\":\"" + la.sri + "\",\"game\":\"" + game + "\"}").status());
            assertEquals(200, b.post("/api/lobby/seat", "{\"sri\":\"" + lb.sri + "\",\"game\":\"" + game + "\"}").status());
            JsonNode g = a.get("/api/games/" + game).json();
            assertEquals("shodo", g.get("variant").asText());
            assertEquals(15 * 60_000, g.get("clock").get("initialMs").asInt());
            String you = g.get("you").asText(), other = b.get("/api/games/" + game).json().get("you").asText();
            assertTrue(!you.equals(other) && List.of("first", "second").contains(you));
            assertEquals(400, a.post("/api/lobby/pool", "{\"sri\":\"" + la.sri + "\",\"variants\":[\"chess\"],"
                    + "\"clocks\":[\"7+7\"]}").status(), "only pool clocks");
        }
    }

    @Test
    void aRatedResultMovesBothRatingsByGlicko2() throws Exception {
        String n1 = name("Hal"), n2 = name("Ivy");
        Api a = signedUp(n1), b = signedUp(n2);
        String game;
        try (Lobby la = Lobby.open(a)) {
            String id = a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"chess\",\"clock\":\"5+3\","
                    + "\"rated\":true,\"color\":\"second\"}").json().get("id").asText();
            game = b.post("/api/lobby/seeks/" + id + "/accept", "{}").json().get("game").asText();
            la.next("paired");
            a.post("/api/lobby/seat", "{\"sri\":\"" + la.sri + "\",\"game\":\"" + game + "\"}");
        }
        assertTrue(a.get("/api/games/" + game).json().get("rated").asBoolean());
        b.move(game, "e2e4", 0);
        a.move(game, "e7e5", 1);
        assertEquals(200, a.post("/api/games/" + game + "/resign", "{}").status());
        // expected: Glicko-2 for two new players (1500/350/0.06), b (first) wins; rounded as the API shows them
        Glicko2.Rating[] r = Glicko2.game(Glicko2.Rating.START, Glicko2.Rating.START, 1);
        JsonNode pb = b.get("/api/users/" + n2).json().get("ratings").get(0);
        JsonNode pa = b.get("/api/users/" + n1).json().get("ratings").get(0);
        assertEquals("chess", pb.get("variant").asText());
        assertEquals(Math.round(r[0].rating()), pb.get("rating").asInt());
        assertEquals(Math.round(r[1].rating()), pa.get("rating").asInt());
        assertEquals(1, pb.get("games").asInt());
        assertTrue(pb.get("provisional").asBoolean());
        JsonNode view = a.get("/api/games/" + game).json();
        assertEquals(Math.round(r[0].rating()) - 1500, view.get("accounts").get(0).get("diff").asInt());
        assertEquals(Math.round(r[1].rating()) - 1500, view.get("accounts").get(1).get("diff").asInt());
        JsonNode hist = a.get("/api/users/" + n1 + "/rating-history?variant=chess").json().get("points");
        assertEquals(1, hist.size());
        assertEquals(game, hist.get(0).get("game").asText());
        // the history filters by result from the player's side
        assertEquals(1, a.get("/api/users/" + n2 + "/games?result=win").json().get("total").asInt());
        assertEquals(0, a.get("/api/users/" + n2 + "/games?result=loss").json().get("total").asInt());
        JsonNode lost = a.get("/api/users/" + n1 + "/games?result=loss&variant=chess").json().get("games").get(0);
        assertEquals(game, lost.get("id").asText());
        assertEquals("second", lost.get("color").asText());
        assertEquals("loss", lost.get("outcome").asText());
        assertEquals(Math.round(r[1].rating()) - 1500, lost.get("ratingDiff").asInt());
        assertEquals(400, a.get("/api/users/" + n1 + "/games?result=maybe").status());
    }

    @Test
    void aRatedGameAbortedBeforeBothSidesMovedIsNotRated() throws Exception {
        String n1 = name("Lu"), n2 = name("Mo");
        Api a = signedUp(n1), b = signedUp(n2);
        String game;
        try (Lobby la = Lobby.open(a)) {
            // 0+1: no main time, so the first player's flag falls at once, before anybody moved
            String id = a.post("/api/lobby/seeks", "{\"sri\":\"" + la.sri + "\",\"variant\":\"shogi\",\"clock\":\"0+1\","
                    + "\"rated\":true}").json().get("id").asText();
            game = b.post("/api/lobby/seeks/" + id + "/accept", "{}").json().get("game").asText();
        }
        JsonNode g = null;
        for (int i = 0; i < 100 && (g == null || !g.get("status").asText().equals("finished")); i++) {
            Thread.sleep(100);
            g = b.get("/api/games/" + game).json();
        }
        assertEquals("aborted", g.get("result").get("termination").asText());
        assertTrue(g.get("result").get("winner").isNull());
        assertEquals(0, b.get("/api/users/" + n1).json().get("ratings").size(), "no rating moved");
        assertEquals(0, b.get("/api/users/" + n2 + "/rating-history?variant=shogi").json().get("points").size());
    }

    @Test
    void aGuestWhoSignsUpClaimsTheGamesOfTheirBrowser() {
        Api a = browser();
        String id = a.create("{\"variant\":\"shogi\",\"mode\":\"computer\",\"color\":\"first\",\"level\":0}").get("id").asText();
        assertTrue(a.get("/api/games/" + id).json().get("accounts").get(0).isNull());
        String n = name("Jo");
        assertEquals(201, a.post("/api/account/signup", "{\"name\":\"" + n + "\",\"password\":\"secret-" + n + "\"}").status());
        JsonNode claimed = a.post("/api/games/" + id + "/account", "{}").json();
        assertEquals(n, claimed.get("accounts").get(0).get("name").asText());
        assertTrue(claimed.get("accounts").get(1).isNull(), "the computer's side has no account");
        assertEquals(1, a.get("/api/users/" + n + "/games").json().get("total").asInt());
        // someone else's browser holds no seat there
        Api other = signedUp(name("Kim"));
        assertEquals(403, other.post("/api/games/" + id + "/account", "{}").status());
    }

    /** A lobby WebSocket of a test browser: its sri and the messages received. */
    static final class Lobby implements AutoCloseable {
        final WebSocket ws;
        final String sri;
        final LinkedBlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();

        private Lobby(Api api) throws Exception {
            WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder().header("Origin", api.base);
            String session = api.cookies.getCookieStore().getCookies().stream()
                    .filter(c -> c.getName().equals(KomaServer.SESSION_COOKIE)).map(c -> c.getName() + "=" + c.getValue())
                    .findFirst().orElse(null);
            if (session != null) {
                b.header("Cookie", session);
            }
            if (api.address != null) {
                b.header("X-Forwarded-For", api.address);
            }
            StringBuilder partial = new StringBuilder();
            ws = b.buildAsync(URI.create(api.base.replace("http", "ws") + "/ws/lobby"), new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                    partial.append(data);
                    if (last) {
                        messages.add(new Api.Answer(200, partial.toString(), null).json());
                        partial.setLength(0);
                    }
                    w.request(1);
                    return null;
                }
            }).get(10, TimeUnit.SECONDS);
            JsonNode hello = next("hello");
            sri = hello.get("sri").asText();
        }

        static Lobby open(Api api) throws Exception {
            return new Lobby(api);
        }

        /** The next message of a type (others skipped), failing after 10 s. */
        JsonNode next(String type) throws InterruptedException {
            JsonNode m = poll(type, 10_000);
            if (m == null) {
                throw new AssertionError("no " + type + " message within 10 s");
            }
            return m;
        }

        JsonNode poll(String type, long ms) throws InterruptedException {
            long until = System.currentTimeMillis() + ms;
            while (true) {
                long left = until - System.currentTimeMillis();
                JsonNode m = left <= 0 ? null : messages.poll(left, TimeUnit.MILLISECONDS);
                if (m == null) {
                    return null;
                }
                if (m.get("type").asText().equals(type)) {
                    return m;
                }
            }
        }

        @Override
        public void close() {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        }
    }
}
