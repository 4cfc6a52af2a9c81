package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.chromium.ChromiumNetworkConditions;

/**
 * The game page following a game it does not play: a second client (Java's HttpClient with its own cookies)
 * creates a hot-seat game and plays both sides through the API while the browser watches. The page must show
 * each move as the feed brings it, resync after its connection was down while moves were played, and fetch the
 * whole game when an event arrives with a version gap.
 */
class GameFeedBrowserTest extends SiteBrowserTest {

    @Override
    protected String siteName() {
        return "feed";
    }

    private String newHotSeatGame() throws IOException, InterruptedException {
        return site.post("/api/games", "{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
    }

    private String moveList() {
        return browser.texts("#move-list button.mv");
    }

    private void waitForMoves(String expected) {
        try {
            browser.waiting(20).until(d -> moveList().equals(expected));
        } catch (RuntimeException e) {
            browser.screenshot("fail-feed");
            throw new AssertionError("move list: expected '" + expected + "', shown '" + moveList() + "'", e);
        }
    }

    private void network(boolean offline) {
        browser.driver.setNetworkConditions(new ChromiumNetworkConditions() {
            {
                setOffline(offline);
                setLatency(Duration.ZERO);
            }
        });
    }

    @Test
    void spectatorSeesEveryMoveAndResyncsAfterTheConnectionWasDown() throws Exception {
        String id = newHotSeatGame();
        browser.open("/game/" + id);
        browser.waitFor("svg.board");
        browser.waiting(20).until(d -> Boolean.TRUE.equals(browser.js(
                "return !!window.__komaFeed && !!window.__komaFeed.socket && window.__komaFeed.socket.readyState === 1;")));
        assertTrue(browser.all("#resign").isEmpty(), "a spectator has no actions");
        site.play(id, "e2e4");
        waitForMoves("e4");
        site.play(id, "e7e5");
        waitForMoves("e4 e5");
        site.play(id, "g1f3", "b8c6");
        waitForMoves("e4 e5 Nf3 Nc6");
        assertEquals("N", browser.pieceOn("f3"));

        // the connection drops (and stays down: the browser is offline); moves are played meanwhile
        network(true);
        try {
            browser.js("window.__komaFeed.socket.close();");
            browser.waiting(10).until(d -> !browser.all(".game-page.offline").isEmpty());
            site.play(id, "f1b5", "a7a6", "b5a4");
            Thread.sleep(1500);
            assertEquals("e4 e5 Nf3 Nc6", moveList(), "offline, the page cannot have heard of the new moves");
        } finally {
            network(false);
        }
        // back online: the page reconnects (or polls) and shows the whole game again
        waitForMoves("e4 e5 Nf3 Nc6 Bb5 a6 Ba4");
        browser.waiting(20).until(d -> browser.all(".game-page.offline").isEmpty());
        assertEquals("B", browser.pieceOn("a4"));
        assertEquals(null, browser.pieceOn("f1"));
        assertEquals("p", browser.pieceOn("a6").toLowerCase());
        assertEquals(7, browser.shownPly());
        assertTrue(browser.text("#ply-label").contains("7"), browser.text("#ply-label"));
        // and keeps following
        site.play(id, "g8f6");
        waitForMoves("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6");
        assertEquals("second", browser.js("return document.querySelector(\"g.pc[data-on='f6']\").dataset.side;"));
    }

    @Test
    void aMoveEventIsAppendedNotRebuilt() throws Exception {
        String id = newHotSeatGame();
        assumeTrue(site.game(id).has("version"), "the server sends versions and events");
        browser.open("/game/" + id);
        browser.waitFor("svg.board");
        site.play(id, "d2d4");
        waitForMoves("d4");
        // a mark on the first entry survives the next move: the list gained an entry, it was not redrawn
        browser.js("document.querySelector('#move-list button.mv').dataset.mark = 'kept';");
        site.play(id, "d7d5");
        waitForMoves("d4 d5");
        assertEquals("kept", browser.js("return document.querySelector('#move-list button.mv').dataset.mark;"));
        assertEquals(2L, browser.js("return window.__komaFeed.version;"), "version 0 at creation, one per move");
    }

    @Test
    void anEventAfterAGapMakesThePageFetchTheGame() throws Exception {
        String id = newHotSeatGame();
        assumeTrue(site.game(id).has("version"), "the server sends versions and events");
        site.play(id, "c2c4");
        browser.open("/game/" + id);
        browser.waitFor("svg.board");
        waitForMoves("c4");
        long version = ((Number) browser.js("return window.__komaFeed.version;")).longValue();
        long fetches = ((Number) browser.js("return window.__komaFeed.fetches;")).longValue();
        // an event three versions ahead (a made-up move): not applied, the whole game fetched instead (three
        // ahead rather than two, so that the real next event does not make the made-up one follow on)
        browser.js("window.__komaFeed.receive(arguments[0]);", Map.of("type", "move", "version", version + 3,
                "ply", 3, "move", "h2h4", "san", "h4", "fen", "rnbqkbnr/pppppppp/8/8/2P4P/8/PP1PPPP1/RNBQKBNR b KQkq - 0 2",
                "sideToMove", "second", "check", false, "legalMoves", java.util.List.of(), "clock", Map.of("type", "none")));
        browser.waiting(10).until(d -> ((Number) browser.js("return window.__komaFeed.fetches;")).longValue() > fetches);
        assertEquals("c4", moveList(), "the gap's event is not applied");
        assertEquals(null, browser.pieceOn("h4"));
        // the real next move still comes through
        site.play(id, "e7e5");
        waitForMoves("c4 e5");
        assertEquals(version + 1, ((Number) browser.js("return window.__komaFeed.version;")).longValue());
    }

    /**
     * After the game, the analysis follows the shown ply with one request at a time: stepping back five plies
     * at once sends only the first and the last wanted, never two at once, and shows the last one.
     */
    @Test
    void analysisSendsOneRequestAtATimeAndShowsTheLastWantedPly() throws Exception {
        String id = newHotSeatGame();
        site.play(id, "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6");
        site.post("/api/games/" + id + "/resign", "{}");
        browser.open("/game/" + id);
        browser.waitFor("#analyse").click();
        browser.waiting(10).until(d -> !browser.all("#analysis-out .loading").isEmpty());
        // five steps back at once (in one script, so that the first request is surely still running)
        browser.js("for (let i = 0; i < 5; i++) document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}));");
        assertEquals(1, browser.shownPly());
        browser.waitFor("#analysis-out .eval[data-ply='1']");
        List<?> list = analysisRequests();
        System.out.println("browser: analysis requests (ply:status@start-end ms): " + list);
        // the plies answered: the first and the last wanted. (A 429 may come in between: the server frees a
        // client's analysis slot only just after its answer is sent; the page then asks again after Retry-After.)
        List<String> answered = list.stream().map(Object::toString).filter(e -> e.contains(":200@"))
                .map(e -> e.replaceAll(":.*", "")).toList();
        assertEquals(List.of("6", "1"), answered, list.toString());
        for (int i = 1; i < list.size(); i++) {
            String prev = list.get(i - 1).toString();
            String cur = list.get(i).toString();
            assertTrue(prev.contains(":200@") || prev.replaceAll(":.*", "").equals(cur.replaceAll(":.*", "")),
                    "a refused request is followed by the same ply once more: " + list);
            long prevEnd = Long.parseLong(prev.replaceAll(".*-", ""));
            long start = Long.parseLong(cur.replaceAll(".*@(\\d+)-.*", "$1"));
            assertTrue(start >= prevEnd - 1, "one request at a time: " + list);
        }
        assertFalse(browser.text("#analysis-out .score").isBlank());

        // another analysis of the same client runs (a fetch of its own): the page's request is refused with 429
        // and Retry-After, and the page asks once more after that time
        int before = list.size();
        Thread.sleep(300);
        browser.js("window.__other = fetch(arguments[0]).then((r) => r.status);", "/api/games/" + id + "/analysis?ply=3");
        browser.js("document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'End', bubbles: true}));");
        browser.waiting(20).until(d -> !browser.all("#analysis-out .eval[data-ply='6']").isEmpty());
        List<String> later = analysisRequests().stream().skip(before).map(e -> e.toString().replaceAll("@.*", "")).toList();
        System.out.println("browser: then (ply:status): " + later);
        assertEquals(List.of("3:200", "6:429", "6:200"), later);
    }

    /** The page's analysis requests so far, in the order they started: "ply:status@start-end" (ms). */
    private List<?> analysisRequests() {
        return (List<?>) browser.js("""
                return performance.getEntriesByType('resource').filter((e) => e.name.includes('/analysis?'))
                  .sort((a, b) => a.startTime - b.startTime)
                  .map((e) => e.name.replace(/.*ply=/, '') + ':' + e.responseStatus + '@' + Math.round(e.startTime)
                    + '-' + Math.round(e.responseEnd));""");
    }
}
