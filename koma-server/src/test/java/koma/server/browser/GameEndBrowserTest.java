package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;

import koma.server.ServerConfig;

/**
 * Games the server ends by itself, seen on an open page: a friend game nobody joins is aborted (no result), an
 * untimed game nobody moves in is abandoned (the side to move loses); each with its short explanation. The server
 * runs with a join timeout of 2 s and an abandon time of 3 s.
 */
class GameEndBrowserTest extends SiteBrowserTest {

    @Override
    protected String siteName() {
        return "end";
    }

    @Override
    protected ServerConfig.Limits limits() {
        return ServerConfig.Limits.DEFAULTS.with("joinTimeout", "2s").with("abandonAfter", "3s");
    }

    @Test
    void aFriendGameNobodyJoinsIsAborted() {
        browser.newGame("chess", "friend", 0, "first", null);
        browser.waitFor("#share-link");
        browser.waiting(20).until(d -> !browser.all("#result[data-termination='aborted']").isEmpty());
        browser.screenshot("end-aborted");
        assertEquals("none", browser.waitFor("#result").getAttribute("data-winner"));
        assertTrue(browser.text("#result").startsWith("* No result (aborted)"), browser.text("#result"));
        assertTrue(browser.text("#result .result-note").startsWith("The game was aborted"), browser.text("#result .result-note"));
        assertEquals("Game over", browser.text("#status"));
        assertTrue(browser.all("#share-link").isEmpty(), "no share link once the game is over");
        assertTrue(browser.all("#resign").isEmpty(), "no actions once the game is over");
    }

    @Test
    void anUntimedGameNobodyMovesInIsAbandoned() {
        String id = browser.newGame("chess", "hotseat", 0, null, null);
        browser.clickMove("e2e4", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        browser.clickMove("e7e5", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 2);
        browser.waiting(20).until(d -> !browser.all("#result[data-termination='abandoned']").isEmpty());
        browser.screenshot("end-abandoned");
        assertEquals("second", browser.waitFor("#result").getAttribute("data-winner"), "White was to move and lost");
        assertTrue(browser.text("#result").contains("Black wins (abandoned)"), browser.text("#result"));
        assertTrue(browser.text("#result .result-note").startsWith("The game was abandoned"), browser.text("#result .result-note"));
        assertTrue(browser.all("circle.dest").isEmpty() && browser.all("#resign").isEmpty(), "nothing to play any more");
        // the game over, a request is refused and the refusal shown as text
        browser.js("window.__komaFeed.page.sendMove('d2d4');");
        browser.waiting(20).until(d -> browser.text("#game-error").startsWith("Move d2d4 was refused: "));
        assertEquals(id, browser.js("return window.__komaFeed.page.id;"));
    }
}
