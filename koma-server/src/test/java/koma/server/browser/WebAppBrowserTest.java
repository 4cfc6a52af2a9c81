package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

import koma.engine.Limits;
import koma.engine.Search;
import koma.engine.TimeManager;
import koma.engine.TranspositionTable;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * The web app in a real headless Chromium against the real server (in-process, random port, temporary
 * SQLite file): complete games against the computer in every rule set, a two-seat game through the share
 * link, drops, promotions, resignation, languages and the rules pages. Screenshots go to
 * target/screenshots/.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebAppBrowserTest {
    /**
     * Start positions for the games against the computer: the test's side (first, to move) has overwhelming
     * material, so the game ends in a few moves while the test picks its moves with Koma's own search and
     * plays them by clicking. Chosen by hand; the ply counts they take are printed by the test.
     */
    private static final Map<String, String> ENDGAMES = Map.of(
            "chess", "7k/8/8/8/8/8/2Q5/R3K3 w - - 0 1",
            "shodo", "4k3/8/8/8/8/8/8/Q2QK3 w - - 0 1",
            "shodo-deathmatch", "7n/8/8/8/8/8/NNNNNNNN/NNNNNNNN w - - 0 1",
            "shogi", "8k/9/9/9/9/9/9/9/K8 b 2RG 1",
            "washogi", "5k5/11/11/11/11/11/11/11/+S10/+S10/+S4K5 w - - 0 1",
            "washogi-drops", "5k5/11/11/11/11/11/11/11/11/+S10/+S4K5[SS] w - - 0 1",
            "minishogi", "4k/5/5/5/K4[GR] w - - 0 1");

    /** Moves after which the test side resigns a whole game in a rule set without a move-count rule. */
    private static final int RESIGN_AFTER = 250;

    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private TestSite site;
    private String base;
    private Browser browser;

    @BeforeAll
    void start() throws IOException {
        site = TestSite.start("web", null);
        base = site.base;
        browser = new Browser(base);
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (site != null) {
            site.close();
        }
    }

    private JsonNode game(String id) throws IOException, InterruptedException {
        return site.game(id);
    }

    /**
     * The test player's move: Koma's search to a fixed depth, from the game's start position with every move
     * played so far, so that the search sees the repetitions of the game and does not walk into a repetition draw.
     */
    private static String engineMove(String variant, JsonNode game, int depth) {
        RuleSet rs = RuleSet.of(variant);
        Position p = Fen.parse(rs, game.get("initialFen").asText());
        for (JsonNode m : game.get("moves")) {
            p.doMove(MoveNotation.parseUci(p, m.get("move").asText()));
        }
        Search s = new Search(rs, new TranspositionTable(16));
        // the test side takes a draw when it is behind (the deathmatch's default contempt, 50, would make both
        // sides shun repetitions, and a game without a move rule could run past the test's bound)
        s.setContempt(0);
        Search.Result r = s.search(p, Limits.depth(depth), new TimeManager(0), info -> { });
        return MoveNotation.formatUci(p, r.bestMove());
    }

    /**
     * Plays the first player's moves by clicking (each chosen by Koma's search to the given depth) until the
     * server reports the game finished; returns the number of moves clicked. After {@code resignAfter} moves
     * (0: never) the test side resigns on the page instead of playing on.
     */
    private int playOut(String id, String variant, int depth, int maxMoves, int resignAfter, long timeoutMs)
            throws Exception {
        JsonNode g = game(id);
        int clicks = 0;
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!g.get("status").asText().equals("finished")) {
            assertTrue(System.currentTimeMillis() < deadline, variant + ": no result after " + clicks + " moves");
            if (g.get("sideToMove").asText().equals("first")) {
                int ply = g.get("ply").asInt();
                browser.waiting(20).until(d -> browser.shownPly() == ply
                        && !browser.all("rect.sq").isEmpty());
                if (resignAfter > 0 && clicks >= resignAfter) {
                    browser.clickRetrying("#resign");
                    browser.clickRetrying("#resign.confirm");
                    browser.waiting(20).until(d -> !browser.all("#result").isEmpty());
                    g = game(id);
                    continue;
                }
                String move = engineMove(variant, g, depth);
                browser.clickMove(move, "first");
                clicks++;
                browser.waiting(20).until(d -> browser.shownPly() > ply);
                assertTrue(clicks <= maxMoves, variant + ": the game should end within " + maxMoves + " moves");
            } else {
                Thread.sleep(50);
            }
            g = game(id);
        }
        return clicks;
    }

    /**
     * A whole game from the rule set's start position against the computer at its lowest level (Skill Level 0),
     * the test side searching 3 plies: it must end by a rule of the game, shown on the page as the server has it.
     * A rule set with a move-count rule (chess's fifty moves) must end within 300 moves. One without (every other
     * rule set here) can go on as long as neither side repeats; in the deathmatch a knight against a knight is a
     * chase that a 3-ply search cannot end (of 500 such games played offline, the longest took 207 moves; one in
     * CI passed 300), so there the test side resigns after {@link #RESIGN_AFTER} moves.
     */
    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi"})
    void wholeGameFromTheStartPosition(String variant) throws Exception {
        String id = browser.newGame(variant, "computer", 0, "first", null);
        long start = System.currentTimeMillis();
        RuleSet.MoveRule rule = RuleSet.of(variant).endRules.moveRule();
        boolean moveRule = rule.claimPlies() > 0 || rule.autoPlies() > 0;
        int clicks = playOut(id, variant, 3, 300, moveRule ? 0 : RESIGN_AFTER, 360_000);
        JsonNode result = game(id).get("result");
        assertFalse(result.isNull(), variant + ": a finished game has a result");
        String winner = result.get("winner").isNull() ? "none" : result.get("winner").asText();
        assertEquals(winner, browser.waitFor("#result").getAttribute("data-winner"), variant + ": the page shows the server's result");
        browser.screenshot("start-" + variant + "-result");
        System.out.printf("browser: %s from the start position against the computer (level 0): %d moves, %s, %.1f s%n",
                variant, clicks, result, (System.currentTimeMillis() - start) / 1000.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi"})
    void completeGameAgainstTheComputer(String variant) throws Exception {
        String id = browser.newGame(variant, "computer", 0, "first", ENDGAMES.get(variant));
        int clicks = playOut(id, variant, 4, 40, 0, 90_000);
        JsonNode g = game(id);
        browser.waitFor("#result");
        String shown = browser.text("#result");
        browser.screenshot("computer-" + variant + "-result");
        assertEquals("first", g.get("result").get("winner").asText(), variant + ": " + g.get("result"));
        assertEquals("first", browser.waitFor("#result").getAttribute("data-winner"));
        assertFalse(shown.isBlank());
        if (variant.equals("chess")) {
            // after the game: the engine's view of the position before the mate, and the PGN record
            int last = browser.shownPly();
            browser.waitFor("[data-nav='prev']").click();
            browser.waiting(10).until(d -> browser.shownPly() == last - 1);
            browser.waitFor("#analyse").click();
            String score = browser.text("#analysis-out .eval .score");
            assertTrue(score.contains("mate") || score.startsWith("+"), "White is winning: " + score);
            assertFalse(browser.text("#analysis-out .pv").isBlank());
            browser.screenshot("computer-chess-analysis");
            browser.waitFor("[data-export='pgn']").click();
            browser.waiting(10).until(d -> browser.waitFor("#export-out").getAttribute("value").contains("1-0"));
        }
        System.out.printf("browser: %s against the computer (level 0) from %s: won in %d moves (%s)%n",
                variant, ENDGAMES.get(variant), clicks, shown);
    }

    @Test
    void twoSeatGameThroughTheShareLink() throws Exception {
        String id = browser.newGame("chess", "friend", 0, "first", null, "fischer");
        String link = browser.waitFor("#share-link").getAttribute("value");
        assertTrue(link.endsWith("/game/" + id + "?join"), link);
        try (Browser friend = new Browser(base)) {
            friend.driver.get(link);
            friend.clickRetrying("#join");
            friend.waiting(20).until(d -> friend.all("#join").isEmpty());
            JsonNode g = game(id);
            assertEquals("active", g.get("status").asText());
            // the friend sees the board from the second player's side
            browser.waiting(20).until(d -> browser.waitFor("#status").getText().contains("White"));
            // the clocks (Fischer, the form's default 5 min + 3 s): White's runs down locally, Black's stands
            // on a wide window the clocks stand beside the board, the bars' copies hidden (issue 11, item 3)
            String white = browser.text(".side-clocks [data-clock='first']");
            String black = browser.text(".side-clocks [data-clock='second']");
            assertTrue(white.matches("[45]:\\d\\d"), white);
            browser.waiting(5).until(d -> !browser.text(".side-clocks [data-clock='first']").equals(white));
            assertEquals(black, browser.text(".side-clocks [data-clock='second']"));
            assertFalse(browser.waitFor("#bar-bottom").findElement(org.openqa.selenium.By.cssSelector(".clock")).isDisplayed());
            // the page's own clock (the bottom one) is beside the board: left of its right edge is the side panel,
            // and its top is above the board's lower half, not at the window's bottom edge
            Object[] r = ((java.util.List<?>) browser.js("const b = document.querySelector('svg.board').getBoundingClientRect();"
                    + " const c = document.querySelector('.side-clock.bottom .clock').getBoundingClientRect();"
                    + " return [b.top, b.bottom, b.right, c.top, c.left];")).toArray();
            double boardTop = ((Number) r[0]).doubleValue(), boardBottom = ((Number) r[1]).doubleValue();
            double clockTop = ((Number) r[3]).doubleValue();
            assertTrue(((Number) r[4]).doubleValue() > ((Number) r[2]).doubleValue(), "the clock is right of the board");
            assertTrue(clockTop < (boardTop + boardBottom) / 2, "own clock at " + clockTop + ", board " + boardTop
                    + ".." + boardBottom);
            browser.clickMove("e2e4", "first");
            try {
                friend.waiting(20).until(d -> "P".equals(friend.pieceOn("e4")));
            } catch (RuntimeException e) {
                friend.screenshot("fail-friend");
                browser.screenshot("fail-first");
                System.out.println("friend console: " + friend.driver.manage().logs().get("browser").getAll());
                throw e;
            }
            friend.clickMove("e7e5", "second");
            browser.waiting(20).until(d -> "P".equals(browser.pieceOn("e5")));
            assertEquals("e4 e5", browser.texts("#move-list button.mv"));
            friend.screenshot("friend-second-seat");
            browser.screenshot("friend-first-seat");
            // a spectator in a third profile sees the same position and no actions
            try (Browser watcher = new Browser(base)) {
                watcher.open("/game/" + id);
                watcher.waiting(20).until(d -> "P".equals(watcher.pieceOn("e5")));
                assertTrue(watcher.all("#resign").isEmpty());
            }
            // resignation: two clicks (the second confirms); both seats see the result
            friend.waitFor("#resign").click();
            friend.waitFor("#resign.confirm").click();
            browser.waiting(20).until(d -> !browser.all("#result[data-winner='first']").isEmpty());
            friend.waiting(20).until(d -> !friend.all("#result[data-winner='first']").isEmpty());
            assertEquals("resignation", game(id).get("result").get("termination").asText());
        }
    }

    @Test
    void dropFromHand() throws Exception {
        browser.newGame("shogi", "hotseat", 0, null, "4k4/9/9/9/9/9/9/9/4K4 b G2P 1");
        assertEquals(1, browser.all(".hand [data-hand='G'][data-side='first']").size());
        browser.clickMove("G@e5", "first");
        browser.waiting(20).until(d -> "G".equals(browser.pieceOn("e5")));
        assertTrue(browser.all(".hand [data-hand='G'][data-side='first']").isEmpty(), "the gold left the hand");
        assertEquals("2", browser.text(".hand [data-hand='P'][data-side='first'] .count"));
        // the move list in Western notation, then in Japanese (▲ for sente, the kanji of the gold)
        String western = browser.text("#move-list button.mv");
        assertTrue(western.startsWith("G") && western.contains("5e"), western);
        new Select(browser.driver.findElement(By.id("notation"))).selectByValue("japanese");
        browser.waiting(10).until(d -> browser.text("#move-list button.mv").matches("▲５五金.*"));
        browser.screenshot("shogi-drop");
        new Select(browser.driver.findElement(By.id("notation"))).selectByValue("western");
    }

    /**
     * Minishogi, the rule set added as a definition file only: the 5x5 board with hands, a game through the page
     * with a capture and a drop, both notations, the export formats its definition lists (PGN and FEN, no KIF).
     * The expected notations are written out from the notation rules by hand: the bishop d1 to b3 lands on file 4
     * (the fourth file from the first player's right on a 5-file board) rank c (the third from the top).
     */
    @Test
    void minishogiGameThroughThePage() throws Exception {
        String id = browser.newGame("minishogi", "hotseat", 0, null, null);
        assertEquals(25, browser.all("rect.sq").size(), "a 5x5 board");
        assertEquals(12, browser.all("g.pc").size(), "six pieces a side");
        browser.screenshot("board-minishogi-kanji");
        browser.clickMove("d1b3", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        assertEquals("B-4c", browser.text("#move-list button.mv"));
        new Select(browser.driver.findElement(By.id("notation"))).selectByValue("japanese");
        browser.waiting(10).until(d -> browser.text("#move-list button.mv").equals("▲４三角"));
        new Select(browser.driver.findElement(By.id("notation"))).selectByValue("western");
        // the second player's pawn steps forward and the first player's rook takes it (check): a pawn in hand, then dropped
        browser.clickMove("e4e3", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 2);
        browser.clickMove("e1e3", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 3);
        assertEquals(1, browser.all(".hand [data-hand='P'][data-side='first']").size(), "the captured pawn is in hand");
        browser.clickMove("d5e4", "second"); // the rook on e3 gives check: the gold blocks
        browser.waiting(20).until(d -> browser.shownPly() == 4);
        browser.clickMove("P@d4", "first");
        browser.waiting(20).until(d -> "P".equals(browser.pieceOn("d4")));
        assertTrue(browser.all(".hand [data-hand='P'][data-side='first']").isEmpty(), "the pawn left the hand");
        JsonNode g = game(id);
        assertEquals(5, g.get("ply").asInt());
        List<String> formats = browser.all("[data-export]").stream().map(e -> e.getAttribute("data-export")).toList();
        assertEquals(List.of("pgn", "fen"), formats, "the records minishogi.rules lists, and the position");
        browser.waitFor("[data-export='pgn']").click();
        browser.waiting(10).until(d -> browser.waitFor("#export-out").getAttribute("value").contains("[Variant \"minishogi\"]"));
        browser.screenshot("minishogi-after-drop");
        browser.open("/rules/minishogi");
        browser.waitFor(".piece-card");
        assertEquals(10, browser.all(".piece-card").size(), "ten piece types, promoted ones included");
    }

    @Test
    void waShogiMoveListOffersJapaneseNotation() throws Exception {
        browser.newGame("washogi", "hotseat", 0, null, null);
        browser.clickMove("e3e4", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        assertEquals("P-7h", browser.text("#move-list button.mv"));
        // the switch is shown for Wa shogi too; the sparrow pawn's RULES.md 3.3 name
        new Select(browser.driver.findElement(By.id("notation"))).selectByValue("japanese");
        browser.waiting(10).until(d -> browser.text("#move-list button.mv").equals("▲７八萑歩"));
        new Select(browser.driver.findElement(By.id("notation"))).selectByValue("western");
    }

    @Test
    void optionalPromotionAsksAndForcedPromotionDoesNot() throws Exception {
        // a sente silver on 5d (e6) may promote on 5c (e7); a sente pawn on 1b (i8) must promote on 1a (i9)
        browser.newGame("shogi", "hotseat", 0, null, "k8/8P/9/4S4/9/9/9/9/4K4 b - 1");
        browser.square("e6").click();
        browser.square("e7").click();
        browser.waitFor(".promo-dialog");
        browser.screenshot("shogi-promotion-choice");
        assertEquals(2, browser.all(".promo-option").size());
        browser.waitFor(".promo-option[data-promo='+']").click();
        browser.waiting(20).until(d -> "+S".equals(browser.pieceOn("e7")));
        // gote answers, then the pawn's forced promotion goes through without a dialog
        browser.clickMove("a9b9", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 2);
        browser.square("i8").click();
        browser.square("i9").click();
        browser.waiting(20).until(d -> "+P".equals(browser.pieceOn("i9")));
        assertTrue(browser.all(".promo-dialog").isEmpty(), "no dialog for a forced promotion");
    }

    @Test
    void languageSwitchChangesTheTextAndIsRemembered() {
        browser.open("/");
        browser.waitFor("#new-game-form");
        String english = browser.waitFor("#ng-start").getText();
        new Select(browser.driver.findElement(By.id("lang-select"))).selectByValue("cs");
        browser.waiting(10).until(d -> !browser.waitFor("#ng-start").getText().equals(english));
        assertEquals("Začít hru", browser.waitFor("#ng-start").getText());
        browser.open("/rules/washogi");
        browser.waitFor(".piece-card");
        assertTrue(browser.waitFor(".piece-card[data-letter='K'] h2").getText().startsWith("Jeřábí král"));
        new Select(browser.driver.findElement(By.id("lang-select"))).selectByValue("ja");
        browser.waiting(10).until(d -> browser.waitFor(".piece-card[data-letter='K'] h2").getText().startsWith("鶴玉"));
        browser.screenshot("rules-washogi-ja");
        new Select(browser.driver.findElement(By.id("lang-select"))).selectByValue("en");
        browser.waiting(10).until(d -> browser.waitFor(".piece-card[data-letter='K'] h2").getText().startsWith("Crane king"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi"})
    void rulesPageDrawsEveryPiece(String variant) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/variants/" + variant)).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode v = json.readTree(r.body());
        browser.open("/rules/" + variant);
        browser.waitFor(".piece-card");
        List<String> letters = new ArrayList<>();
        v.get("pieces").forEach(p -> letters.add(p.get("letter").asText()));
        assertEquals(letters.size(), browser.all("svg.rules-diagram").size());
        for (JsonNode p : v.get("pieces")) {
            String css = "svg.rules-diagram[data-piece='" + p.get("letter").asText() + "']";
            int marks = browser.all(css + " .mv-step, " + css + " .mv-jump, " + css + " .mv-slide").size();
            assertTrue(marks >= p.get("moves").size(), variant + " " + p.get("letter") + ": " + marks + " marks");
        }
        browser.screenshot("rules-" + variant);
    }

    @ParameterizedTest
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi"})
    void boardInBothPieceSets(String variant) throws Exception {
        String id = browser.newGame(variant, "hotseat", 0, null, null);
        JsonNode g = game(id);
        assertEquals(g.get("board").size(), browser.all("g.pc").size());
        boolean shogiFamily = RuleSet.of(variant).conventions.family() == koma.rules.Conventions.Family.SHOGI;
        browser.screenshot("board-" + variant + (shogiFamily ? "-kanji" : ""));
        if (shogiFamily) {
            new Select(browser.driver.findElement(By.id("piece-set"))).selectByValue("international");
            browser.waiting(10).until(d -> !browser.all("g.pc .diagram").isEmpty());
            assertEquals(g.get("board").size(), browser.all("g.pc .diagram").size());
            browser.screenshot("board-" + variant + "-international");
            new Select(browser.driver.findElement(By.id("piece-set"))).selectByValue("kanji");
        }
        if (variant.equals("shogi")) {
            // flipped (gote at the bottom) with kanji rank numerals: rank 一 is then at the bottom right
            browser.waitFor("#kanji-numerals").click();
            browser.waitFor("#flip").click();
            browser.waiting(10).until(d -> browser.texts("text.coord-rank").contains("一"));
            Object flipped = browser.js("const t = Array.from(document.querySelectorAll('text.coord-rank'));"
                    + " const y = (s) => +t.find(e => e.textContent === s).getAttribute('y'); return y('一') > y('九');");
            assertEquals(Boolean.TRUE, flipped, "flipped: rank 一 (gote's back rank) at the bottom");
            browser.screenshot("board-shogi-flipped-kanji-numerals");
            browser.waitFor("#kanji-numerals").click();
            browser.waitFor("#flip").click();
        }
        String first = g.get("legalMoves").get(0).asText();
        if (variant.equals("chess")) {
            // drag and drop: press on the piece, move over the board, release on the destination
            first = "e2e4";
            // (by offsets: the board is redrawn when the piece is picked up, so elements go stale)
            var from = browser.square("e2").getRect();
            var to = browser.square("e4").getRect();
            int dx = to.getX() - from.getX();
            int dy = to.getY() - from.getY();
            new Actions(browser.driver).clickAndHold(browser.square("e2")).moveByOffset(0, -10)
                    .moveByOffset(dx, dy + 10).release().perform();
        } else {
            browser.clickMove(first, "first");
        }
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        browser.waitFor("[data-nav='prev']").click();
        browser.waiting(10).until(d -> browser.shownPly() == 0);
        var m = java.util.regex.Pattern.compile("([a-p]\\d{1,2})([a-p]\\d{1,2}).*").matcher(first);
        assertTrue(m.matches(), first);
        assertTrue(browser.pieceOn(m.group(1)) != null, "stepping back shows the piece on its square again");
        assertNull(browser.pieceOn(m.group(2)), "and its destination empty again");
    }
}
