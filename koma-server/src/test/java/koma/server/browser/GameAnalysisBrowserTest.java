package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The whole-game analysis of a finished game: requested once, the graph with one point per position, a blunder
 * made on purpose marked in the graph, the move list and the counts, and the engine's best move as an arrow at the
 * ply before it; a second page reads the stored analysis without asking again.
 */
class GameAnalysisBrowserTest extends SiteBrowserTest {
    @Override
    protected String siteName() {
        return "game-analysis";
    }

    @Test
    void aBlunderIsMarkedAndTheBestMoveShown() {
        // 1.e4 e5 2.Qh5 Nc6 3.Qxe5+?? Nxe5: White gives the queen for a pawn at ply 5, then resigns
        String id = browser.newGame("chess", "hotseat", 0, null, null);
        String[][] moves = {{"e2e4", "first"}, {"e7e5", "second"}, {"d1h5", "first"}, {"b8c6", "second"},
                {"h5e5", "first"}, {"c6e5", "second"}};
        for (String[] m : moves) {
            int ply = browser.shownPly();
            browser.clickMove(m[0], m[1]);
            browser.waiting(10).until(d -> browser.shownPly() == ply + 1);
        }
        browser.clickRetrying("#resign");
        browser.clickRetrying("#resign");
        browser.waiting(10).until(d -> browser.all("#game-analysis-request").size() == 1);
        assertTrue(browser.all("#eval-graph").isEmpty(), "no graph before it is asked for");
        browser.clickRetrying("#game-analysis-request");
        // seven positions (plies 0 to 6), one point each, once the background jobs are done
        browser.waiting(60).until(d -> browser.all("#eval-graph circle.eval-point").size() == 7
                && browser.all("#game-analysis-progress").isEmpty());
        assertEquals(1, browser.all("#eval-graph circle.eval-point.blunder[data-graph-ply='5']").size(), "Qxe5+ marked");
        assertTrue(browser.js("return document.querySelector(\".move-list [data-ply='5']\").classList.contains('blunder');")
                .equals(Boolean.TRUE), "the move list marks Qxe5+ as a blunder");
        assertTrue(browser.text(".analysis-summary tr[data-side='first'] td[data-kind='blunder']").startsWith("1 "),
                browser.text(".analysis-summary tr[data-side='first']"));
        // a click on the graph's point before the blunder: the board shows that position and the best move's arrow
        browser.clickRetrying("#eval-graph circle[data-graph-ply='4']");
        browser.waiting(10).until(d -> browser.shownPly() == 4 && !browser.all("svg.board .arrow").isEmpty());
        String best = browser.js("return document.querySelector('svg.board .arrow').dataset.arrow;").toString();
        assertNotEquals("h5e5", best, "the engine does not recommend the blunder");
        browser.screenshot("game-analysis-desktop");
        // a second browser reads the stored analysis: the graph at once, no button
        try (Browser other = new Browser(site.base)) {
            other.open("/game/" + id);
            other.waiting(20).until(d -> other.all("#eval-graph circle.eval-point").size() == 7);
            assertTrue(other.all("#game-analysis-request").isEmpty());
        }
    }
}
