package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.support.ui.Select;

/**
 * The analysis board (/analysis): engine lines with MultiPV and their arrows, moves played freely (an earlier ply's
 * move replaces the line after it), set-up from FEN and from a record with readable errors, and the way there from
 * a game.
 */
class AnalysisBrowserTest extends SiteBrowserTest {
    @Override
    protected String siteName() {
        return "analysis";
    }

    private int arrows() {
        return browser.all("svg.board .arrow").size();
    }

    private void waitForLines(int n) {
        browser.waiting(30).until(d -> browser.all("#an-lines .analysis-line").size() == n && arrows() == n);
    }

    @Test
    void linesArrowsAndFreeMoves() {
        browser.viewport(1366, 757);
        browser.open("/analysis?variant=chess");
        browser.waitFor("svg.board g.pc");
        // MultiPV 3 by default: three lines, three arrows, each line's first move an arrow of its own
        waitForLines(3);
        String first = browser.js("return document.querySelector('svg.board .arrow-0').dataset.arrow;").toString();
        assertTrue(first.matches("[a-h][1-8][a-h][1-8]"), first);
        new Select(browser.waitFor("#an-multipv")).selectByValue("1");
        waitForLines(1);
        // both sides move freely; the moves show in SAN
        browser.clickMove("e2e4", "first");
        browser.waiting(10).until(d -> browser.text("#an-moves").contains("e4"));
        browser.clickMove("e7e5", "second");
        browser.waiting(10).until(d -> browser.text("#an-ply").equals("Ply 2 of 2"));
        waitForLines(1);
        browser.screenshot("analysis-chess-desktop");
        // back to the start and another first move: the old line is replaced
        browser.clickRetrying("#an-nav [data-nav='first']");
        browser.waiting(10).until(d -> browser.text("#an-ply").equals("Ply 0 of 2"));
        browser.clickMove("d2d4", "first");
        browser.waiting(10).until(d -> browser.text("#an-ply").equals("Ply 1 of 1"));
        assertEquals("d4", browser.text("#an-moves .mv"));
        assertTrue(browser.driver.getCurrentUrl().contains("variant=chess"), browser.driver.getCurrentUrl());
        // the engine off: no lines, no arrows
        browser.clickRetrying("#an-engine");
        browser.waiting(10).until(d -> arrows() == 0 && browser.all("#an-lines li").isEmpty());
        browser.clickRetrying("#an-engine");
        waitForLines(1);
        browser.viewport(390, 701);
        browser.screenshot("analysis-chess-phone");
        browser.viewport(1300, 1000);
    }

    @Test
    void setUpFromAFenAndARecordWithReadableErrors() {
        browser.open("/analysis?variant=shogi");
        browser.waitFor("svg.board g.pc");
        waitForLines(3);
        // a bad SFEN: the error says so in words, the board stays
        var fen = browser.waitFor("#an-fen");
        fen.clear();
        fen.sendKeys("not a position", Keys.ENTER);
        browser.waiting(10).until(d -> browser.text("#an-error").startsWith("The position could not be set up"));
        // a shogi position with a pawn in hand: the drop is among the lines' moves or the board's legal moves
        fen = browser.waitFor("#an-fen");
        fen.clear();
        fen.sendKeys("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1", Keys.ENTER);
        browser.waiting(10).until(d -> "".equals(browser.js("return document.querySelector('#an-error').textContent;"))
                && browser.all(".hand [data-hand='P'][data-side='first']").size() == 1);
        waitForLines(3);
        // a PGN record: its moves become the line, shown at its end
        new Select(browser.waitFor("#an-variant")).selectByValue("chess");
        browser.waitFor("svg.board g.pc");
        browser.waitFor("#an-record").sendKeys("1. e4 e5 2. Nf3 *");
        browser.clickRetrying("#an-load");
        browser.waiting(10).until(d -> browser.text("#an-ply").equals("Ply 3 of 3"));
        assertEquals("e4 e5 Nf3", browser.texts("#an-moves .mv"));
    }

    @Test
    void aFinishedOrHotSeatGameOpensOnTheAnalysisBoardAtTheShownPly() {
        browser.newGame("chess", "hotseat", 0, null, null);
        browser.clickMove("e2e4", "first");
        browser.waiting(10).until(d -> browser.shownPly() == 1);
        browser.clickMove("c7c5", "second");
        browser.waiting(10).until(d -> browser.shownPly() == 2);
        browser.clickRetrying("#analysis-link");
        browser.waiting(10).until(d -> browser.driver.getCurrentUrl().contains("/analysis?"));
        browser.waiting(10).until(d -> "Ply 2 of 2".equals(browser.text("#an-ply")));
        assertEquals("e4 c5", browser.texts("#an-moves .mv"));
    }
}
