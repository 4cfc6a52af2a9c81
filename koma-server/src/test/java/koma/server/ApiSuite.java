package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import koma.engine.SkillLevels;

/**
 * The API of docs/server-api.md against a real server started in-process on a free port with a real database;
 * the subclasses give the database (a SQLite file, a PostgreSQL server).
 */
abstract class ApiSuite {
    static KomaServer server;
    static int port;
    /** The shared server's database and data directory (tests of the in-game actions look into the database). */
    static String jdbcUrl;
    static Path dataDir;

    /** Starts the shared server of a subclass on the given JDBC URL, without rate limit. */
    static void startServer(String jdbcUrl, Path data) {
        ApiSuite.jdbcUrl = jdbcUrl;
        ApiSuite.dataDir = data;
        server = KomaServer.start(new ServerConfig(0, "127.0.0.1", jdbcUrl, data, 0, 100, 1));
        port = server.port();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    Api client() {
        return new Api(port);
    }

    @Test
    void levelsSayWhatEachComputerLevelIsWorth() {
        JsonNode levels = client().get("/api/levels").json();
        // the engine's measured table (SkillLevels; bench/results/2026-12-06-stop64.txt), levels 0..20 in order
        assertEquals(SkillLevels.MAX + 1, levels.size());
        for (int l = 0; l <= SkillLevels.MAX; l++) {
            assertEquals(l, levels.get(l).get("level").asInt());
            assertEquals(SkillLevels.elo(l), levels.get(l).get("elo").asInt());
        }
        assertEquals(735, levels.get(0).get("elo").asInt(), "level 0 as measured in stop 64 (SkillLevels)");
    }

    @Test
    void variantsCarryPieceDiagramsFromBetza() {
        Api a = client();
        JsonNode list = a.get("/api/variants").json();
        assertEquals(7, list.size(), "RULES.md's six rule sets and minishogi");
        JsonNode shogi = a.get("/api/variants/shogi").json();
        // what the page shows comes from the definitions (shogi.rules, minishogi.rules, chess.rules)
        assertEquals("shogi", shogi.get("family").asText());
        assertTrue(shogi.get("sfen").asBoolean());
        assertEquals(List.of("pgn", "kif", "csa"), strings(shogi.get("records")));
        assertEquals(List.of("western", "japanese-jsa"), strings(shogi.get("notations")));
        assertEquals("王", piece(shogi, "K").get("kanji").get("second").asText());
        assertEquals("全", piece(shogi, "+S").get("kanji").get("board").asText());
        assertEquals("成銀", piece(shogi, "+S").get("kanji").get("name").asText());
        JsonNode mini = a.get("/api/variants/minishogi").json();
        assertEquals(5, mini.get("files").asInt());
        assertTrue(mini.get("drops").asBoolean());
        assertEquals("shogi", mini.get("family").asText());
        assertEquals("minishogi", mini.get("externalNames").get("fairyStockfish").asText());
        assertEquals(List.of("pgn"), strings(mini.get("records")));
        JsonNode chessV = a.get("/api/variants/chess").json();
        assertEquals("chess", chessV.get("family").asText());
        assertEquals(List.of("san"), strings(chessV.get("notations")));
        assertEquals("normal", chessV.get("externalNames").get("xboard").asText());
        assertTrue(piece(chessV, "K").get("kanji") == null, "chess pieces have no kanji");
        // the claims come from each rule set's end rules: chess's claimable repetition and 50-move rule, shogi's
        // impasse count, none in Wa shogi (automatic fourfold repetition) or Shodo (automatic threefold)
        assertTrue(a.get("/api/variants/chess").json().get("claims").get("draw").asBoolean());
        assertFalse(a.get("/api/variants/chess").json().get("claims").get("impasse").asBoolean());
        assertTrue(shogi.get("claims").get("impasse").asBoolean());
        assertFalse(shogi.get("claims").get("draw").asBoolean());
        for (String v : List.of("washogi", "washogi-drops", "shodo", "shodo-deathmatch")) {
            JsonNode c = a.get("/api/variants/" + v).json().get("claims");
            assertFalse(c.get("draw").asBoolean() || c.get("impasse").asBoolean(), v);
        }
        assertEquals(9, shogi.get("files").asInt());
        JsonNode silver = piece(shogi, "S");
        // silver = FfW: four diagonal steps and one forward step, each moving and capturing
        assertEquals("FfW", silver.get("betza").asText());
        assertEquals(5, silver.get("moves").size());
        assertTrue(hasMove(silver, 0, 1, 1, "both", false));
        assertTrue(hasMove(silver, -1, -1, 1, "both", false));
        assertEquals("+S", silver.get("promotesTo").asText());
        assertTrue(piece(shogi, "+S").get("promoted").asBoolean());
        JsonNode chess = a.get("/api/variants/chess").json();
        JsonNode pawn = piece(chess, "P");
        assertTrue(hasMove(pawn, 0, 1, 1, "move", false));
        assertTrue(hasMove(pawn, 1, 1, 1, "capture", false));
        JsonNode knight = piece(chess, "N");
        assertEquals(8, knight.get("moves").size());
        assertTrue(hasMove(knight, 1, 2, 1, "both", true));
        assertTrue(hasMove(piece(chess, "R"), 0, 1, 0, "both", false), "a rook slides without limit (range 0)");
        assertEquals(404, a.get("/api/variants/xiangqi").status());
    }

    /** The strings of a JSON array. */
    private static List<String> strings(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    private static JsonNode piece(JsonNode variant, String letter) {
        for (JsonNode p : variant.get("pieces")) {
            if (p.get("letter").asText().equals(letter)) {
                return p;
            }
        }
        throw new AssertionError("no piece " + letter);
    }

    private static boolean hasMove(JsonNode piece, int dx, int dy, int range, String mode, boolean jump) {
        for (JsonNode m : piece.get("moves")) {
            if (m.get("dx").asInt() == dx && m.get("dy").asInt() == dy && m.get("range").asInt() == range
                    && m.get("mode").asText().equals(mode) && m.get("jump").asBoolean() == jump) {
                return true;
            }
        }
        return false;
    }

    @Test
    void pagesServeTheWebAppsIndex() throws java.io.IOException {
        Api a = client();
        java.io.InputStream in = KomaServer.class.getResourceAsStream("/web/index.html");
        for (String page : List.of("/", "/game/abcdefghij", "/rules/shogi")) {
            Api.Answer r = a.get(page);
            if (in == null) {
                assertEquals(404, r.status(), "no web app on the class path");
            } else {
                assertEquals(200, r.status(), page);
                assertTrue(r.raw().headers().firstValue("Content-Type").orElse("").startsWith("text/html"), page);
            }
        }
        if (in != null) {
            String index = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            in.close();
            assertEquals(index, a.get("/game/x").text());
        }
        // path traversal: refused (Jetty answers 400 for a path leaving the root, the file handler 404)
        for (String evil : List.of("/web/../../pom.xml", "/%2e%2e/%2e%2e/pom.xml", "/..%2F..%2Fpom.xml")) {
            Api.Answer r = a.get(evil);
            assertTrue(r.status() == 400 || r.status() == 404, evil + ": " + r.status());
            assertFalse(r.text().contains("<project"), evil);
        }
        assertEquals(404, a.get("/no/such/file.css").status());
    }

    @Test
    void hotseatGamePlaysMovesAndRetriesAreIdempotent() {
        Api a = client();
        JsonNode g = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}");
        String id = g.get("id").asText();
        assertEquals("both", g.get("you").asText());
        assertEquals(20, g.get("legalMoves").size());
        assertEquals(0, g.get("version").asInt());
        // the answer is small: the new version and the events of the move, never the whole game
        JsonNode first = a.move(id, "e2e4", 0);
        assertEquals(1, first.get("version").asInt());
        assertEquals(1, first.get("events").size());
        JsonNode ev = Api.event(first, "move");
        assertEquals(1, ev.get("version").asInt());
        assertEquals(1, ev.get("ply").asInt());
        assertEquals("e4", ev.get("san").asText());
        assertEquals("second", ev.get("sideToMove").asText());
        assertEquals(20, ev.get("legalMoves").size());
        assertTrue(first.toString().length() < 1200, "small answer: " + first.toString().length() + " bytes");
        JsonNode second = a.move(id, "e7e5", 1);
        assertEquals(2, second.get("version").asInt());
        assertEquals("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
                Api.event(second, "move").get("fen").asText());
        JsonNode after = a.get("/api/games/" + id).json();
        assertEquals(2, after.get("ply").asInt());
        assertEquals(2, after.get("version").asInt());
        assertEquals("e4", after.get("moves").get(0).get("san").asText());
        assertEquals("e7e5", after.get("lastMove").asText());
        // the same request again (a retry after a lost answer) does not play twice
        JsonNode retry = a.move(id, "e7e5", 1);
        assertEquals(2, retry.get("version").asInt());
        assertEquals(0, retry.get("events").size());
        assertEquals(2, a.get("/api/games/" + id).json().get("ply").asInt());
        Api.Answer stale = a.post("/api/games/" + id + "/moves", "{\"move\":\"d2d4\",\"ply\":1}");
        assertEquals(409, stale.status());
        assertTrue(stale.error().contains("ply"), stale.text());
        // a spectator sees the game without a seat
        JsonNode seen = client().get("/api/games/" + id).json();
        assertTrue(seen.get("you").isNull());
        assertEquals(2, seen.get("ply").asInt());
    }

    @Test
    void badInputGetsClearErrors() {
        Api a = client();
        Api.Answer malformed = a.post("/api/games", "{\"variant\": \"chess\", ");
        assertEquals(400, malformed.status());
        assertTrue(malformed.error().startsWith("body: malformed JSON"), malformed.text());
        Api.Answer notObject = a.post("/api/games", "[1,2]");
        assertEquals(400, notObject.status());
        Api.Answer unknown = a.post("/api/games", "{\"variant\":\"xiangqi\",\"mode\":\"hotseat\"}");
        assertEquals(400, unknown.status());
        assertTrue(unknown.error().startsWith("variant: unknown rule set 'xiangqi'"), unknown.text());
        Api.Answer badMode = a.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"blitz\"}");
        assertTrue(badMode.error().startsWith("mode:"), badMode.text());
        Api.Answer badLevel = a.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"computer\",\"level\":99}");
        assertEquals(400, badLevel.status());
        assertTrue(badLevel.error().startsWith("level:"), badLevel.text());
        Api.Answer badClock = a.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"hotseat\",\"clock\":{\"type\":\"fischer\"}}");
        assertEquals("initialMs: missing", badClock.error());
        Api.Answer badFen = a.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"hotseat\",\"fen\":\"not a fen\"}");
        assertEquals(400, badFen.status());
        assertTrue(badFen.error().startsWith("fen:"), badFen.text());

        String id = a.create("{\"variant\":\"shogi\",\"mode\":\"hotseat\"}").get("id").asText();
        Api.Answer illegal = a.post("/api/games/" + id + "/moves", "{\"move\":\"e3e5\",\"ply\":0}");
        assertEquals(400, illegal.status());
        assertTrue(illegal.error().startsWith("move:"), illegal.text());
        Api.Answer noPly = a.post("/api/games/" + id + "/moves", "{\"move\":\"e3e4\"}");
        assertEquals("ply: missing", noPly.error());
        Api.Answer wrongType = a.post("/api/games/" + id + "/moves", "{\"move\":5,\"ply\":0}");
        assertEquals("move: must be a string", wrongType.error());

        String big = "{\"variant\":\"chess\",\"mode\":\"hotseat\",\"fen\":\"" + "x".repeat(70_000) + "\"}";
        Api.Answer oversized = a.post("/api/games", big);
        assertEquals(413, oversized.status());
        assertTrue(oversized.error().startsWith("body:"), oversized.text());

        assertEquals(404, a.get("/api/games/zzzzzzzzzz").status());
        assertEquals(404, a.get("/api/games/..%2F..%2Fetc").status());
        assertEquals(404, a.get("/api/nothing").status());
        Api.Answer missingFile = a.get("/no-such-file.js");
        assertEquals(404, missingFile.status());
        Api.Answer badExport = a.get("/api/games/" + id + "/export?format=doc");
        assertTrue(badExport.error().startsWith("format:"), badExport.text());
        Api.Answer badRecord = a.post("/api/games", "{\"variant\":\"shogi\",\"mode\":\"hotseat\",\"record\":\"nonsense\"}");
        assertEquals(400, badRecord.status());
        assertTrue(badRecord.error().startsWith("record:"), badRecord.text());
    }

    @Test
    void friendGameSeatsAndTurns() {
        Api alice = client(), bob = client(), carol = client();
        JsonNode g = alice.create("{\"variant\":\"washogi\",\"mode\":\"friend\",\"color\":\"first\"}");
        String id = g.get("id").asText();
        assertEquals("waiting", g.get("status").asText());
        assertEquals("/game/" + id + "?join", g.get("joinUrl").asText());
        Api.Answer early = alice.post("/api/games/" + id + "/moves", "{\"move\":\"a3a4\",\"ply\":0}");
        assertEquals(409, early.status());
        JsonNode joined = bob.post("/api/games/" + id + "/join", "{}").json();
        assertEquals("second", joined.get("you").asText());
        assertEquals("active", joined.get("status").asText());
        assertEquals(409, carol.post("/api/games/" + id + "/join", "{}").status());
        String first = g.get("legalMoves").get(0).asText();
        Api.Answer wrongSeat = bob.post("/api/games/" + id + "/moves", "{\"move\":\"" + first + "\",\"ply\":0}");
        assertEquals(403, wrongSeat.status());
        assertTrue(wrongSeat.error().startsWith("not your turn"), wrongSeat.text());
        Api.Answer noSeat = carol.post("/api/games/" + id + "/moves", "{\"move\":\"" + first + "\",\"ply\":0}");
        assertEquals(403, noSeat.status());
        JsonNode after = Api.event(alice.move(id, first, 0), "move");
        String reply = after.get("legalMoves").get(0).asText();
        bob.move(id, reply, 1);
        assertEquals("second", bob.get("/api/games/" + id).json().get("you").asText());
        assertEquals("first", alice.get("/api/games/" + id).json().get("you").asText());

        // draw offer by the first player: declined, then offered again and accepted
        alice.post("/api/games/" + id + "/draw", "{\"action\":\"offer\"}");
        assertEquals(403, alice.post("/api/games/" + id + "/draw", "{\"action\":\"accept\"}").status());
        JsonNode declined = Api.event(bob.post("/api/games/" + id + "/draw", "{\"action\":\"decline\"}").json(), "drawOffer");
        assertTrue(declined.get("drawOffer").isNull());
        assertEquals("first", Api.event(alice.post("/api/games/" + id + "/draw", "{\"action\":\"offer\"}").json(),
                "drawOffer").get("drawOffer").asText());
        JsonNode drawn = Api.event(bob.post("/api/games/" + id + "/draw", "{\"action\":\"accept\"}").json(), "status");
        assertEquals("finished", drawn.get("status").asText());
        assertEquals("agreement", drawn.get("result").get("termination").asText());
        assertTrue(drawn.get("result").get("winner").isNull());
        assertEquals(409, alice.post("/api/games/" + id + "/resign", "{}").status());
    }

    @Test
    void resignationAndClaims() {
        Api a = client();
        String id = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        String[] shuffle = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
        assertTrue(!a.get("/api/games/" + id).json().get("canClaimDraw").asBoolean(), "no claim at the start");
        for (int i = 0; i < shuffle.length; i++) {
            Api.Answer early = i == 4 ? a.post("/api/games/" + id + "/claim", "{\"kind\":\"draw\"}") : null;
            if (early != null) {
                assertEquals(409, early.status(), "the start position occurred only twice");
            }
            a.move(id, shuffle[i], i);
        }
        // the start position now stands for the third time: a draw by repetition may be claimed (and the game says so)
        assertTrue(a.get("/api/games/" + id).json().get("canClaimDraw").asBoolean(), "canClaimDraw after the shuffle");
        JsonNode claimed = Api.event(a.post("/api/games/" + id + "/claim", "{\"kind\":\"draw\"}").json(), "status");
        assertEquals("repetition", claimed.get("result").get("termination").asText());
        assertEquals("1/2-1/2", claimed.get("result").get("text").asText());

        String shogi = a.create("{\"variant\":\"shogi\",\"mode\":\"hotseat\"}").get("id").asText();
        Api.Answer impasse = a.post("/api/games/" + shogi + "/claim", "{\"kind\":\"impasse\"}");
        assertEquals(409, impasse.status());
        assertTrue(impasse.error().contains("promotion zones"), impasse.text());
        // the refusal's code and params, which the page translates (docs/server-api.md, Errors)
        assertEquals("impasseKings", impasse.json().get("code").asText(), impasse.text());
        assertTrue(impasse.json().get("params").isObject(), impasse.text());
        Api.Answer stale = a.post("/api/games/" + shogi + "/moves", "{\"move\":\"7g7f\",\"ply\":3}");
        assertEquals(409, stale.status(), stale.text());
        assertEquals("stalePly", stale.json().get("code").asText(), stale.text());
        assertEquals("0", stale.json().get("params").get("ply").asText(), stale.text());
        Api.Answer win = a.post("/api/games/" + shogi + "/claim", "{\"kind\":\"win\"}");
        assertEquals(400, win.status());
        assertTrue(win.json().get("code") == null, "an API client's mistake has no code, only its English text");
        assertEquals(403, client().post("/api/games/" + shogi + "/resign", "{}").status());
        JsonNode resigned = Api.event(a.post("/api/games/" + shogi + "/resign", "{}").json(), "status");
        assertEquals("second", resigned.get("result").get("winner").asText(), "in hot-seat the side to move resigns");
        assertEquals("resignation", resigned.get("result").get("termination").asText());
    }

    @Test
    void flagFallsByServerTimer() throws InterruptedException {
        Api a = client();
        JsonNode g = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\",\"clock\":{\"type\":\"fischer\","
                + "\"initialMs\":1500,\"incrementMs\":0}}");
        String id = g.get("id").asText();
        assertEquals("first", g.get("clock").get("running").asText());
        JsonNode done = waitFor(a, id, n -> n.get("status").asText().equals("finished"), 10_000);
        assertEquals("time forfeit", done.get("result").get("termination").asText());
        assertEquals("second", done.get("result").get("winner").asText());
        assertEquals(0, done.get("clock").get("first").get("ms").asLong());
        // a flag against a lone king is a draw: that side could never mate (FIDE 6.9)
        JsonNode lone = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\",\"fen\":\"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\","
                + "\"clock\":{\"type\":\"byoyomi\",\"initialMs\":500,\"byoyomiMs\":300,\"periods\":2}}");
        JsonNode drawn = waitFor(a, lone.get("id").asText(), n -> n.get("status").asText().equals("finished"), 10_000);
        assertEquals("time forfeit", drawn.get("result").get("termination").asText());
        assertTrue(drawn.get("result").get("winner").isNull());
    }

    @Test
    void computerAnswersAMove() throws InterruptedException {
        Api a = client();
        JsonNode g = a.create("{\"variant\":\"shodo\",\"mode\":\"computer\",\"color\":\"second\",\"level\":0}");
        String id = g.get("id").asText();
        assertEquals("computer:0", g.get("players").get("first").asText());
        JsonNode moved = waitFor(a, id, n -> n.get("ply").asInt() == 1, 30_000);
        List<String> startMoves = new ArrayList<>();
        g.get("legalMoves").forEach(m -> startMoves.add(m.asText()));
        assertTrue(startMoves.contains(moved.get("moves").get(0).get("move").asText()), moved.toString());
        String reply = moved.get("legalMoves").get(0).asText();
        assertEquals(1, moved.get("version").asInt());
        a.move(id, reply, 1);
        JsonNode again = waitFor(a, id, n -> n.get("ply").asInt() == 3, 30_000);
        assertEquals(3, again.get("moves").size());
        assertEquals("second", again.get("sideToMove").asText(), "the human (second) is to move at ply 3");
    }

    @Test
    void exportAndRecords() {
        Api a = client();
        String id = a.create("{\"variant\":\"shogi\",\"mode\":\"hotseat\"}").get("id").asText();
        a.move(id, "c3c4", 0); // 7g7f in USI
        a.move(id, "g7g6", 1); // 3c3d
        JsonNode two = a.get("/api/games/" + id).json();
        assertEquals("P-7f", two.get("moves").get(0).get("western").asText());
        assertEquals("７六歩", two.get("moves").get(0).get("japanese").asText());
        assertEquals("P-3d", two.get("moves").get(1).get("western").asText());
        assertTrue(two.get("moves").get(1).get("san").isNull());
        // Wa shogi moves carry Japanese notation too (README, Game records): e3e4 is ７八萑歩, g9g8 is ５四萑歩
        String wa = a.create("{\"variant\":\"washogi-drops\",\"mode\":\"hotseat\"}").get("id").asText();
        a.move(wa, "e3e4", 0);
        a.move(wa, "g9g8", 1);
        JsonNode waTwo = a.get("/api/games/" + wa).json();
        assertEquals("７八萑歩", waTwo.get("moves").get(0).get("japanese").asText());
        assertEquals("５四萑歩", waTwo.get("moves").get(1).get("japanese").asText());
        assertEquals("P-5d", waTwo.get("moves").get(1).get("western").asText());
        String kif = a.get("/api/games/" + id + "/export?format=kif").text();
        assertTrue(kif.contains("７六歩(77)"), kif);
        assertTrue(kif.contains("３四歩(33)"), kif);
        String csa = a.get("/api/games/" + id + "/export?format=csa").text();
        assertTrue(csa.contains("+7776FU") && csa.contains("-3334FU"), csa);
        // the players by readable names (Export.playerName), an untimed game without a time limit
        assertTrue(kif.contains("\n先手：Hot-seat\n") && kif.contains("\n後手：Hot-seat\n"), kif);
        assertFalse(kif.contains("持ち時間"), kif);
        assertTrue(csa.contains("\nN+Hot-seat\nN-Hot-seat\n"), csa);
        // a KIF and a CSA record start new games with those moves
        for (String rec : List.of(kif, csa)) {
            JsonNode copy = a.create("{\"variant\":\"shogi\",\"mode\":\"hotseat\",\"record\":" + Api.JSON.valueToTree(rec) + "}");
            assertEquals(2, copy.get("ply").asInt(), rec);
            assertEquals("g7g6", copy.get("lastMove").asText());
        }
        String fen = a.get("/api/games/" + id + "/export?format=fen&ply=1").text().strip();
        assertEquals("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2", fen);
        assertEquals(400, a.get("/api/games/" + id + "/export?format=fen&ply=9").status());
        assertEquals(400, a.get("/api/games/" + id + "/export?format=kif&ply=x").status());

        String chess = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        a.move(chess, "e2e4", 0);
        a.move(chess, "c7c5", 1);
        a.move(chess, "g1f3", 2);
        String pgn = a.get("/api/games/" + chess + "/export?format=pgn").text();
        assertTrue(pgn.contains("1. e4 c5 2. Nf3 *"), pgn);
        assertTrue(pgn.contains("[Result \"*\"]"), pgn);
        assertTrue(pgn.contains("[White \"Hot-seat\"]") && pgn.contains("[Black \"Hot-seat\"]"), pgn);
        // the exported record starts a new game at its final position, moves kept
        JsonNode fromRecord = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\",\"record\":"
                + Api.JSON.valueToTree(pgn) + "}");
        assertEquals(3, fromRecord.get("ply").asInt());
        assertEquals("Nf3", fromRecord.get("moves").get(2).get("san").asText());
        Api.Answer wrong = a.post("/api/games", "{\"variant\":\"shogi\",\"mode\":\"hotseat\",\"record\":"
                + Api.JSON.valueToTree(pgn) + "}");
        assertEquals(400, wrong.status());
        assertTrue(wrong.error().startsWith("record:"), wrong.text());
    }

    /** The analysis board's stateless position and typed-move readers: answers, and errors naming the field. */
    @Test
    void theAnalysisBoardAnswersPositionsAndReadsTypedMoves() {
        Api a = client();
        JsonNode p = a.post("/api/analysis/position", "{\"variant\":\"chess\",\"moves\":[\"e2e4\",\"e7e5\"]}").json();
        assertEquals(2, p.get("ply").asInt());
        assertEquals("e5", p.get("moves").get(1).get("san").asText());
        assertEquals(29, p.get("legalMoves").size(), "White's moves after 1.e4 e5 (Stockfish 15.1: go perft 1 gives 29)");
        Api.Answer bad = a.post("/api/analysis/position", "{\"variant\":\"chess\",\"moves\":[\"e2e5\"]}");
        assertEquals(400, bad.status(), bad.text());
        assertTrue(bad.error().startsWith("moves[0]:"), bad.text());
        String fen = p.get("fen").asText();
        JsonNode nf3 = a.post("/api/analysis/parse", "{\"variant\":\"chess\",\"fen\":\"" + fen + "\",\"text\":\"Nf3\"}").json();
        assertEquals("g1f3", nf3.get("move").asText());
        assertEquals("Nf3", nf3.get("text").asText());
        Api.Answer none = a.post("/api/analysis/parse", "{\"variant\":\"chess\",\"fen\":\"" + fen + "\",\"text\":\"Qh7\"}");
        assertEquals(400, none.status(), none.text());
        assertTrue(none.error().startsWith("text: no legal move is named by 'Qh7'"), none.text());
    }

    @Test
    void analysisGivesALegalPrincipalVariation() {
        Api a = client();
        String id = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\",\"fen\":\"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"}")
                .get("id").asText();
        JsonNode an = a.get("/api/games/" + id + "/analysis").json();
        // Ra8 mates at once (back-rank mate), so a full-strength search finds mate in 1
        assertEquals(1, an.get("score").get("mate").asInt(), an.toString());
        assertEquals("a1a8", an.get("pv").get(0).asText());
        assertEquals("Ra8#", an.get("pvText").get(0).asText());
        assertEquals(400, a.get("/api/games/" + id + "/analysis?ply=5").status());
        // a game between two people is not analysed while it goes on (the engine would help one of them)
        String friend = a.create("{\"variant\":\"chess\",\"mode\":\"friend\"}").get("id").asText();
        Api.Answer refused = a.get("/api/games/" + friend + "/analysis");
        assertEquals(409, refused.status(), refused.text());
        assertTrue(refused.error().startsWith("analysis: not while"), refused.text());
    }

    @Test
    void webSocketFeedPushesEveryChange() throws Exception {
        Api a = client();
        String id = a.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        LinkedBlockingQueue<String> seatFeed = new LinkedBlockingQueue<>(), spectatorFeed = new LinkedBlockingQueue<>();
        WebSocket seat = connect(id, a.cookie(id), seatFeed);
        WebSocket spectator = connect(id, null, spectatorFeed);
        JsonNode hello = Api.JSON.readTree(seatFeed.poll(10, TimeUnit.SECONDS));
        assertEquals("game", hello.get("type").asText());
        assertEquals("both", hello.get("game").get("you").asText());
        assertTrue(Api.JSON.readTree(spectatorFeed.poll(10, TimeUnit.SECONDS)).get("game").get("you").isNull());
        assertEquals(0, hello.get("version").asInt());
        a.move(id, "d2d4", 0);
        a.move(id, "d7d5", 1);
        // after the whole game, only the events, in version order, the same for every seat
        for (LinkedBlockingQueue<String> feed : List.of(seatFeed, spectatorFeed)) {
            for (int v = 1; v <= 2; v++) {
                JsonNode pushed = Api.JSON.readTree(feed.poll(10, TimeUnit.SECONDS));
                assertEquals("move", pushed.get("type").asText(), pushed.toString());
                assertEquals(v, pushed.get("version").asInt());
                assertEquals(v, pushed.get("ply").asInt());
                assertEquals(v == 1 ? "d2d4" : "d7d5", pushed.get("move").asText());
                assertTrue(pushed.get("clock").isObject());
            }
        }
        a.post("/api/games/" + id + "/resign", "{}");
        JsonNode ended = Api.JSON.readTree(spectatorFeed.poll(10, TimeUnit.SECONDS));
        assertEquals("status", ended.get("type").asText());
        assertEquals(3, ended.get("version").asInt());
        assertEquals("resignation", ended.get("result").get("termination").asText());
        Api.JSON.readTree(seatFeed.poll(10, TimeUnit.SECONDS));
        seat.sendText("{\"type\":\"ping\"}", true).join();
        assertEquals("pong", Api.JSON.readTree(seatFeed.poll(10, TimeUnit.SECONDS)).get("type").asText());
        seat.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        spectator.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
    }

    private WebSocket connect(String id, String cookie, LinkedBlockingQueue<String> into) {
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        b.header("Origin", "http://127.0.0.1:" + port);
        return b.buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/games/" + id), new WebSocket.Listener() {
            private final StringBuilder part = new StringBuilder();

            @Override
            public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                part.append(data);
                if (last) {
                    into.add(part.toString());
                    part.setLength(0);
                }
                ws.request(1);
                return null;
            }
        }).join();
    }

    /** Polls a game until the condition holds, failing after {@code ms}. */
    static JsonNode waitFor(Api a, String id, java.util.function.Predicate<JsonNode> cond, long ms)
            throws InterruptedException {
        long end = System.currentTimeMillis() + ms;
        JsonNode last = null;
        while (System.currentTimeMillis() < end) {
            last = a.get("/api/games/" + id).json();
            if (cond.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("condition not met within " + ms + " ms: " + last);
    }

    @Test
    void rateLimitAnswers429(@TempDir Path tmp) {
        try (KomaServer limited = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, tmp, 1, 5, 1))) {
            Api a = new Api(limited.port());
            List<Integer> statuses = new ArrayList<>();
            Api.Answer refused = null;
            for (int i = 0; i < 10; i++) {
                Api.Answer r = a.get("/api/variants");
                statuses.add(r.status());
                if (r.status() == 429 && refused == null) {
                    refused = r;
                }
            }
            // burst of 5, one token per second: the first five pass, and some of the rest are refused
            assertEquals(List.of(200, 200, 200, 200, 200), statuses.subList(0, 5));
            assertNotNull(refused, statuses.toString());
            assertTrue(refused.raw().headers().firstValue("Retry-After").isPresent());
            assertTrue(refused.error().startsWith("too many requests"), refused.text());
        }
    }

    // ---- in-game actions: abort, takeback, rematch, chat, correspondence ----

    /** A friend game of the given variant and clock JSON: alice plays first, bob joined second. Returns its id. */
    private static String friendGame(Api alice, Api bob, String clock) {
        String id = alice.create("{\"variant\":\"chess\",\"mode\":\"friend\",\"color\":\"first\""
                + (clock == null ? "" : ",\"clock\":" + clock) + "}").get("id").asText();
        assertEquals(200, bob.post("/api/games/" + id + "/join", "{}").status());
        return id;
    }

    /** Rows of a table for a game, read straight from the database. */
    static int rows(String table, String id) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl);
             java.sql.PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE game_id = ?")) {
            st.setString(1, id);
            try (java.sql.ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** A game's stored status, termination and winner. */
    static String[] stored(String id) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl);
             java.sql.PreparedStatement st = c.prepareStatement(
                     "SELECT status, result_termination, result_winner FROM games WHERE id = ?")) {
            st.setString(1, id);
            try (java.sql.ResultSet rs = st.executeQuery()) {
                rs.next();
                return new String[]{rs.getString(1), rs.getString(2), rs.getString(3)};
            }
        }
    }

    @Test
    void abortBeforeBothSidesMovedNotAfter() {
        Api alice = client(), bob = client();
        String id = friendGame(alice, bob, null);
        assertEquals(403, client().post("/api/games/" + id + "/abort", "{}").status());
        alice.move(id, "e2e4", 0);
        JsonNode st = Api.event(bob.post("/api/games/" + id + "/abort", "{}").json(), "status");
        assertEquals("aborted", st.get("result").get("termination").asText());
        assertEquals("*", st.get("result").get("text").asText());
        assertTrue(st.get("result").get("winner").isNull());
        String late = friendGame(alice, bob, null);
        alice.move(late, "e2e4", 0);
        bob.move(late, "e7e5", 1);
        Api.Answer refused = alice.post("/api/games/" + late + "/abort", "{}");
        assertEquals(409, refused.status());
        assertTrue(refused.error().contains("both sides have moved"), refused.text());
    }

    @Test
    void takebackAcceptedDeclinedAndAgainstTheComputer() throws Exception {
        Api alice = client(), bob = client();
        String id = friendGame(alice, bob, null);
        alice.move(id, "e2e4", 0);
        bob.move(id, "e7e5", 1);
        assertEquals(403, client().post("/api/games/" + id + "/takeback", "{\"action\":\"offer\"}").status());
        JsonNode asked = Api.event(alice.post("/api/games/" + id + "/takeback", "{\"action\":\"offer\"}").json(), "takebackOffer");
        assertEquals("first", asked.get("takebackOffer").asText());
        assertEquals("first", bob.get("/api/games/" + id).json().get("takebackOffer").asText());
        JsonNode no = Api.event(bob.post("/api/games/" + id + "/takeback", "{\"action\":\"decline\"}").json(), "takebackOffer");
        assertTrue(no.get("takebackOffer").isNull());
        assertEquals(2, rows("moves", id));
        alice.post("/api/games/" + id + "/takeback", "{\"action\":\"offer\"}");
        assertEquals(403, alice.post("/api/games/" + id + "/takeback", "{\"action\":\"accept\"}").status());
        JsonNode back = Api.event(bob.post("/api/games/" + id + "/takeback", "{\"action\":\"accept\"}").json(), "takeback");
        // the first player asked while to move: its move and the reply are taken back (ply 2 -> 0)
        assertEquals(0, back.get("ply").asInt());
        assertEquals("first", back.get("sideToMove").asText());
        assertEquals(20, back.get("legalMoves").size());
        assertEquals(0, rows("moves", id), "the taken back moves are deleted in the writer's transaction");
        JsonNode g = alice.get("/api/games/" + id).json();
        assertEquals(0, g.get("ply").asInt());
        assertEquals(0, g.get("moves").size());
        assertEquals(back.get("version").asInt(), g.get("version").asInt());
        // the game goes on from there, stored as played
        alice.move(id, "d2d4", 0);
        assertEquals(1, rows("moves", id));
        assertEquals(409, alice.post("/api/games/" + id + "/takeback", "{\"action\":\"accept\"}").status());
        assertEquals(400, alice.post("/api/games/" + id + "/takeback", "{\"action\":\"undo\"}").status());

        // against the computer: at once, the computer's reply and the player's move
        Api c = client();
        String vs = c.create("{\"variant\":\"chess\",\"mode\":\"computer\",\"color\":\"first\",\"level\":0}")
                .get("id").asText();
        c.move(vs, "e2e4", 0);
        waitFor(c, vs, n -> n.get("ply").asInt() == 2, 30_000);
        JsonNode undone = Api.event(c.post("/api/games/" + vs + "/takeback", "{\"action\":\"offer\"}").json(), "takeback");
        assertEquals(0, undone.get("ply").asInt());
        assertEquals(0, rows("moves", vs));
        c.move(vs, "d2d4", 0);
        JsonNode replied = waitFor(c, vs, n -> n.get("ply").asInt() == 2, 30_000);
        assertEquals("d2d4", replied.get("moves").get(0).get("move").asText());
    }

    @Test
    void rematchOfferedAcceptedSeatsBothPlayersWithColoursSwapped() {
        Api alice = client(), bob = client(), carol = client();
        String id = friendGame(alice, bob, "{\"type\":\"fischer\",\"initialMs\":300000,\"incrementMs\":2000}");
        alice.move(id, "e2e4", 0);
        assertEquals(409, bob.post("/api/games/" + id + "/rematch", "{\"action\":\"offer\"}").status(), "not over yet");
        assertFalse(alice.get("/api/games/" + id).json().get("rematch").get("available").asBoolean(), "not over yet");
        alice.post("/api/games/" + id + "/resign", "{}");
        assertTrue(alice.get("/api/games/" + id).json().get("rematch").get("available").asBoolean());
        assertEquals(403, carol.post("/api/games/" + id + "/rematch", "{\"action\":\"offer\"}").status());
        JsonNode offer = Api.event(bob.post("/api/games/" + id + "/rematch", "{\"action\":\"offer\"}").json(), "rematchOffer");
        assertEquals("second", offer.get("rematch").get("offer").asText());
        assertEquals(409, alice.post("/api/games/" + id + "/rematch", "{\"action\":\"seat\"}").status(), "not agreed yet");
        JsonNode agreed = Api.event(alice.post("/api/games/" + id + "/rematch", "{\"action\":\"accept\"}").json(), "rematch");
        String next = agreed.get("rematch").get("gameId").asText();
        assertFalse(next.isEmpty());
        assertEquals(next, carol.get("/api/games/" + id).json().get("rematch").get("gameId").asText());
        // each player proves its old seat and gets its cookie for the new game
        assertEquals(403, carol.post("/api/games/" + id + "/rematch", "{\"action\":\"seat\"}").status());
        JsonNode a = alice.post("/api/games/" + id + "/rematch", "{\"action\":\"seat\"}").json();
        JsonNode b = bob.post("/api/games/" + id + "/rematch", "{\"action\":\"seat\"}").json();
        assertEquals(next, a.get("gameId").asText());
        assertEquals("second", a.get("you").asText());
        assertEquals("first", b.get("you").asText());
        JsonNode ng = bob.get("/api/games/" + next).json();
        assertEquals("first", ng.get("you").asText());
        assertEquals("second", alice.get("/api/games/" + next).json().get("you").asText());
        assertTrue(carol.get("/api/games/" + next).json().get("you").isNull());
        assertEquals("active", ng.get("status").asText());
        assertEquals("friend", ng.get("mode").asText());
        assertEquals(300000, ng.get("clock").get("initialMs").asLong());
        assertEquals(2000, ng.get("clock").get("incrementMs").asLong());
        bob.move(next, "d2d4", 0);
        alice.move(next, "d7d5", 1);
        assertEquals(409, bob.post("/api/games/" + id + "/rematch", "{\"action\":\"offer\"}").status(), "one rematch per game");
        assertFalse(alice.get("/api/games/" + id).json().get("rematch").get("available").asBoolean(), "agreed already");
        // a friend game nobody joined has nobody to play a rematch with
        String alone = alice.create("{\"variant\":\"chess\",\"mode\":\"friend\"}").get("id").asText();
        alice.post("/api/games/" + alone + "/abort", "{}");
        assertFalse(alice.get("/api/games/" + alone).json().get("rematch").get("available").asBoolean());
        Api.Answer nobody = alice.post("/api/games/" + alone + "/rematch", "{\"action\":\"offer\"}");
        assertEquals(409, nobody.status());
        assertTrue(nobody.error().contains("nobody joined"), nobody.text());
    }

    @Test
    void chatRoomsEscapingAndLimits() throws Exception {
        Api alice = client(), bob = client(), carol = client();
        String id = friendGame(alice, bob, null);
        LinkedBlockingQueue<String> playerFeed = new LinkedBlockingQueue<>(), spectatorFeed = new LinkedBlockingQueue<>();
        WebSocket pw = connect(id, bob.cookie(id), playerFeed);
        WebSocket sw = connect(id, null, spectatorFeed);
        assertEquals("game", Api.JSON.readTree(playerFeed.poll(10, TimeUnit.SECONDS)).get("type").asText());
        assertEquals("game", Api.JSON.readTree(spectatorFeed.poll(10, TimeUnit.SECONDS)).get("type").asText());
        String evil = "<img src=x onerror=alert(1)>";
        JsonNode said = Api.event(alice.post("/api/games/" + id + "/chat", "{\"text\":\" " + evil + " \"}").json(), "chat");
        assertEquals(evil, said.get("text").asText(), "the JSON carries the text as given (trimmed)");
        assertEquals("players", said.get("room").asText());
        assertEquals("first", said.get("from").asText());
        JsonNode heard = Api.JSON.readTree(playerFeed.poll(10, TimeUnit.SECONDS));
        assertEquals("chat", heard.get("type").asText());
        assertEquals(evil, heard.get("text").asText());
        JsonNode skipped = Api.JSON.readTree(spectatorFeed.poll(10, TimeUnit.SECONDS));
        assertEquals("skip", skipped.get("type").asText(), "the spectators do not read the players' room");
        assertEquals(said.get("version").asInt(), skipped.get("version").asInt());
        JsonNode watching = Api.event(carol.post("/api/games/" + id + "/chat", "{\"text\":\"nice opening\"}").json(), "chat");
        assertEquals("spectators", watching.get("room").asText());
        assertEquals("skip", Api.JSON.readTree(playerFeed.poll(10, TimeUnit.SECONDS)).get("type").asText(),
                "the spectators' messages are not sent to players");
        assertEquals("nice opening", Api.JSON.readTree(spectatorFeed.poll(10, TimeUnit.SECONDS)).get("text").asText());
        // each sees its own room with the game (and the feed's first message)
        JsonNode forBob = bob.get("/api/games/" + id).json().get("chat");
        assertEquals(1, forBob.size());
        assertEquals(evil, forBob.get(0).get("text").asText());
        JsonNode forCarol = carol.get("/api/games/" + id).json().get("chat");
        assertEquals(1, forCarol.size());
        assertEquals("nice opening", forCarol.get(0).get("text").asText());
        assertEquals(2, rows("chat", id));
        // limits: length, control characters, rate (5 per 10 s per sender, the first message counts)
        Api.Answer tooLong = alice.post("/api/games/" + id + "/chat", "{\"text\":\"" + "x".repeat(141) + "\"}");
        assertEquals(400, tooLong.status());
        assertTrue(tooLong.error().startsWith("text: 141 characters"), tooLong.text());
        Api.Answer control = alice.post("/api/games/" + id + "/chat", "{\"text\":\"a\\u0007b\"}");
        assertEquals(400, control.status());
        assertTrue(control.error().contains("control characters"), control.text());
        assertEquals(400, alice.post("/api/games/" + id + "/chat", "{}").status());
        for (int i = 0; i < LiveGame.CHAT_PER_SENDER - 1; i++) {
            assertEquals(200, alice.post("/api/games/" + id + "/chat", "{\"text\":\"m" + i + "\"}").status());
        }
        Api.Answer fast = alice.post("/api/games/" + id + "/chat", "{\"text\":\"one too many\"}");
        assertEquals(429, fast.status());
        assertTrue(fast.raw().headers().firstValue("Retry-After").isPresent());
        assertTrue(fast.error().contains("5 messages in 10 s"), fast.text());
        pw.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
        sw.sendClose(WebSocket.NORMAL_CLOSURE, "bye").join();
    }

    @Test
    void correspondenceGamesAndTheOverdueSweep(@TempDir Path tmp) throws Exception {
        Api alice = client();
        assertEquals(400, alice.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"computer\","
                + "\"clock\":{\"type\":\"correspondence\",\"days\":3}}").status(), "friend games only");
        Api.Answer fourDays = alice.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"friend\","
                + "\"clock\":{\"type\":\"correspondence\",\"days\":4}}");
        assertEquals(400, fourDays.status());
        assertTrue(fourDays.error().startsWith("clock.days"), fourDays.text());
        // a second server on the same database plays the game, so that the shared server never holds it in memory
        String id;
        Api a, b;
        try (KomaServer other = KomaServer.start(new ServerConfig(0, "127.0.0.1", jdbcUrl, tmp, 0, 100, 1))) {
            a = new Api(other.port());
            b = new Api(other.port());
            JsonNode g = a.create("{\"variant\":\"chess\",\"mode\":\"friend\",\"color\":\"first\","
                    + "\"clock\":{\"type\":\"correspondence\",\"days\":3}}");
            id = g.get("id").asText();
            assertEquals("correspondence", g.get("clock").get("type").asText());
            assertEquals(3, g.get("clock").get("daysPerMove").asInt());
            assertEquals(3 * 86_400_000L, g.get("clock").get("first").get("ms").asLong());
            assertEquals(200, b.post("/api/games/" + id + "/join", "{}").status());
            // both sides move first: a flag before that aborts a game between two people (LiveGame.flag)
            a.move(id, "e2e4", 0);
            b.move(id, "e7e5", 1);
            a.move(id, "g1f3", 2);
            // games where it is a seat's turn, by the hashes of seat tokens
            String bobHash = GameService.hash(b.cookie(id).substring(b.cookie(id).indexOf('=') + 1));
            String aliceHash = GameService.hash(a.cookie(id).substring(a.cookie(id).indexOf('=') + 1));
            List<Database.Turn> bobs = other.games().myTurn(List.of(bobHash), 10);
            assertEquals(1, bobs.size());
            assertEquals(id, bobs.get(0).id());
            assertEquals("second", bobs.get(0).side());
            assertTrue(bobs.get(0).deadline() > System.currentTimeMillis() + 2 * 86_400_000L);
            assertTrue(other.games().myTurn(List.of(aliceHash), 10).isEmpty(), "not the first player's turn");
        }
        // the second player's three days ran out: written into the database as if the move was four days ago
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(jdbcUrl);
             java.sql.PreparedStatement st = c.prepareStatement("UPDATE games SET turn_started_at = ? WHERE id = ?")) {
            st.setLong(1, System.currentTimeMillis() - 4 * 86_400_000L);
            st.setString(2, id);
            assertEquals(1, st.executeUpdate());
        }
        // a server that never loaded the game finds it by the database sweep and ends it on time
        try (KomaServer sweeper = KomaServer.start(new ServerConfig(0, "127.0.0.1", jdbcUrl, tmp, 0, 100, 1)
                .withLimits(ServerConfig.Limits.DEFAULTS.with("finishedUnload", "1s")))) {
            // watched in the database only: a request for the game would load it and check its clock itself
            long end = System.currentTimeMillis() + 20_000;
            String[] row = null;
            while (System.currentTimeMillis() < end) {
                row = stored(id);
                if ("finished".equals(row[0])) {
                    break;
                }
                Thread.sleep(100);
            }
            assertEquals("finished", row[0]);
            assertEquals("time forfeit", row[1]);
            assertEquals("first", row[2]);
        }
    }

    /** A client of another server on the same database holding the same seats (cookies) as {@code from}. */
    private static Api sameSeats(Api from, int port) {
        Api to = new Api(port);
        for (java.net.HttpCookie c : from.cookies.getCookieStore().getCookies()) {
            to.cookies.getCookieStore().add(URI.create(to.base), c);
        }
        return to;
    }

    @Test
    void inGameActionsSurviveAReloadFromTheDatabase(@TempDir Path tmp) throws Exception {
        Api alice = client(), bob = client(), carol = client();
        String id = friendGame(alice, bob, null);
        alice.move(id, "e2e4", 0);
        bob.move(id, "e7e5", 1);
        alice.move(id, "d2d4", 2);
        alice.post("/api/games/" + id + "/takeback", "{\"action\":\"offer\"}");
        alice.post("/api/games/" + id + "/chat", "{\"text\":\"hello\"}");
        carol.post("/api/games/" + id + "/chat", "{\"text\":\"hi all\"}");
        String over = friendGame(alice, bob, null);
        alice.post("/api/games/" + over + "/resign", "{}");
        bob.post("/api/games/" + over + "/rematch", "{\"action\":\"offer\"}");
        // another server on the same database loads both games from what was stored
        try (KomaServer other = KomaServer.start(new ServerConfig(0, "127.0.0.1", jdbcUrl, tmp, 0, 100, 1))) {
            Api a = sameSeats(alice, other.port()), b = sameSeats(bob, other.port()), c = new Api(other.port());
            JsonNode seen = c.get("/api/games/" + id).json();
            assertEquals(3, seen.get("ply").asInt());
            assertEquals("first", seen.get("takebackOffer").asText());
            assertEquals(1, seen.get("chat").size());
            assertEquals("hi all", seen.get("chat").get(0).get("text").asText());
            assertEquals("spectator", seen.get("chat").get(0).get("from").asText());
            JsonNode mine = a.get("/api/games/" + id).json();
            assertEquals("first", mine.get("you").asText());
            assertEquals("hello", mine.get("chat").get(0).get("text").asText());
            JsonNode back = Api.event(b.post("/api/games/" + id + "/takeback", "{\"action\":\"accept\"}").json(), "takeback");
            assertEquals(2, back.get("ply").asInt(), "the first player's last move, the second had not replied");
            assertEquals(2, rows("moves", id));
            assertEquals("second", c.get("/api/games/" + over).json().get("rematch").get("offer").asText());
            JsonNode agreed = Api.event(a.post("/api/games/" + over + "/rematch", "{\"action\":\"accept\"}").json(), "rematch");
            String next = agreed.get("rematch").get("gameId").asText();
            assertEquals("first", b.post("/api/games/" + over + "/rematch", "{\"action\":\"seat\"}").json().get("you").asText());
            assertEquals("active", c.get("/api/games/" + next).json().get("status").asText());
        }
    }
}
