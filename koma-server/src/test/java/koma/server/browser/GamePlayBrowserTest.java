package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;
import org.openqa.selenium.Keys;
import org.openqa.selenium.interactions.Actions;

/**
 * What players of lichess and lishogi take for granted, as the page does it: sounds for moves, captures and the
 * end (with the mute switch), a move typed on the keyboard, a piece dragged from the hand, and a premove played
 * when it becomes legal or cancelled when it is not. Sounds are counted by the page (window.__komaSounds), since
 * the test machine has no audio output.
 */
class GamePlayBrowserTest extends SiteBrowserTest {
    /** The premove highlight of css/koma.css (#b9a2e6), as getComputedStyle gives it. */
    private static final String PREMOVE = "rgb(185, 162, 230)";


    @Override
    protected String siteName() {
        return "play";
    }

    private static long sounds(Browser b, String kind) {
        Object n = b.js("const s = window.__komaSounds; return s && s.counts[arguments[0]] ? s.counts[arguments[0]] : 0;", kind);
        return ((Number) n).longValue();
    }

    private static void waitForPly(Browser b, int ply) {
        b.waiting(20).until(d -> b.shownPly() == ply);
    }

    @Test
    void movesCapturesAndTheEndSoundUnlessMuted() {
        browser.open("/");
        browser.js("localStorage.removeItem('koma.mute');");
        browser.newGame("chess", "hotseat", 0, null, null);
        browser.waitFor("#sound");
        assertEquals("true", browser.waitFor("#sound").getAttribute("aria-pressed"));
        browser.clickMove("e2e4", "first");
        waitForPly(browser, 1);
        browser.waiting(5).until(d -> sounds(browser, "move") == 1);
        browser.clickMove("d7d5", "second");
        waitForPly(browser, 2);
        browser.clickMove("e4d5", "first");
        waitForPly(browser, 3);
        browser.waiting(5).until(d -> sounds(browser, "capture") == 1);
        assertEquals(2, sounds(browser, "move"), "a capture is not also a move sound");
        // muted: the page still asks for the sound, but none plays
        browser.clickRetrying("#sound");
        browser.waiting(5).until(d -> "false".equals(browser.waitFor("#sound").getAttribute("aria-pressed")));
        assertEquals("Sound: off", browser.text("#sound"));
        Object askedBefore = browser.js("return window.__komaSounds.asked;");
        browser.clickMove("g8f6", "second");
        waitForPly(browser, 4);
        browser.waiting(5).until(d -> !askedBefore.equals(browser.js("return window.__komaSounds.asked;")));
        assertEquals(2, sounds(browser, "move"), "muted: no move sound played");
        browser.clickRetrying("#sound");
        browser.waiting(5).until(d -> "true".equals(browser.waitFor("#sound").getAttribute("aria-pressed")));
        // 1.f3 e5 2.g4 Qh4#: the game's end sounds (not a check)
        browser.newGame("chess", "hotseat", 0, null, null);
        for (String[] m : new String[][]{{"f2f3", "first"}, {"e7e5", "second"}, {"g2g4", "first"}, {"d8h4", "second"}}) {
            int ply = browser.shownPly();
            browser.clickMove(m[0], m[1]);
            waitForPly(browser, ply + 1);
        }
        browser.waiting(10).until(d -> sounds(browser, "end") == 1);
    }

    @Test
    void aMoveTypedOnTheKeyboardIsPlayedAndAWrongOneNamed() throws Exception {
        browser.newGame("chess", "hotseat", 0, null, null);
        var input = browser.waitFor("#move-input");
        assertEquals("Type a move", browser.text("label[for='move-input']"), "the box is labelled");
        input.sendKeys("e2e4", Keys.ENTER);
        waitForPly(browser, 1);
        assertEquals("P", browser.pieceOn("e4"));
        browser.waitFor("#move-input").sendKeys("e7e6x", Keys.ENTER);
        browser.waiting(5).until(d -> browser.text("#game-error").contains("e7e6x is not a legal move here"));
        assertEquals(1, browser.shownPly());
        browser.waitFor("#move-input").clear();
        browser.waitFor("#move-input").sendKeys("E7E5", Keys.ENTER);
        waitForPly(browser, 2);
        assertEquals("P", browser.pieceOn("e5"), "typed in capitals, still the move");
        assertEquals("second", browser.js("return document.querySelector(\"g.pc[data-on='e5']\").dataset.side;"));
        // SAN too: the server reads it in the rule set's notations
        browser.waitFor("#move-input").sendKeys("Nf3", Keys.ENTER);
        waitForPly(browser, 3);
        assertEquals("N", browser.pieceOn("f3"));
        // and in shogi Western notation and USI strings: P-7f is the move c3c4 in the API's squares (file 7 = c,
        // rank g = 3), USI 3c3d is g7g6
        String shogi = browser.newGame("shogi", "hotseat", 0, null, null);
        browser.waitFor("#move-input").sendKeys("P-7f", Keys.ENTER);
        waitForPly(browser, 1);
        browser.waitFor("#move-input").sendKeys("3c3d", Keys.ENTER);
        waitForPly(browser, 2);
        var played = site.game(shogi).get("moves");
        assertEquals("c3c4 g7g6", played.get(0).get("move").asText() + " " + played.get(1).get("move").asText());
    }

    @Test
    void aMoveWaitsForConfirmationWhenThePlayerAsksForIt() {
        browser.newGame("chess", "computer", 0, "first", null);
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#confirm-moves")).selectByValue("always");
        browser.clickSquare("e2");
        browser.waitFor("circle.dest[data-dest='e4']");
        browser.clickSquare("e4");
        browser.waitFor("#confirm-box:not([hidden])");
        assertEquals("Play e2e4?", browser.text("#confirm-box span"));
        browser.clickRetrying("#confirm-no");
        browser.waiting(5).until(d -> browser.all("#confirm-box:not([hidden])").isEmpty());
        assertEquals(0, browser.shownPly(), "a cancelled move is not sent");
        assertEquals("P", browser.pieceOn("e2"));
        browser.clickMove("e2e4", "first");
        browser.waiting(20).until(d -> browser.shownPly() >= 1);
        assertEquals("P", browser.pieceOn("e4"));
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#confirm-moves")).selectByValue("slow");
    }

    @Test
    void aBoardThemeRecolorsTheSquaresAndIsRemembered() {
        browser.newGame("chess", "hotseat", 0, null, null);
        String fill = "return getComputedStyle(document.querySelector(\"rect[data-square='a1']\")).fill;";
        // the default wood theme: a1 is dark, #b58863 (css/koma.css --dark-sq)
        assertEquals("rgb(181, 136, 99)", browser.js(fill));
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#board-theme")).selectByValue("night");
        // the night theme's dark square, #4a4337
        browser.waiting(5).until(d -> "rgb(74, 67, 55)".equals(browser.js(fill)));
        browser.newGame("shogi", "hotseat", 0, null, null);
        // kept for the next game: the shogi board's wood in the night theme, #6e5c3f
        browser.waiting(5).until(d -> "rgb(110, 92, 63)".equals(browser.js(
                "return getComputedStyle(document.querySelector(\"rect[data-square='e5']\")).fill;")));
        // the ebony piece theme: dark bodies (#2e2419) and light ink (#f4ead2), kept like the board theme
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#piece-theme")).selectByValue("ebony");
        browser.waiting(5).until(d -> "rgb(46, 36, 25)".equals(browser.js(
                "return getComputedStyle(document.querySelector(\"g.pc[data-piece='K'] .pc-body\")).fill;")));
        assertEquals("rgb(244, 234, 210)", browser.js(
                "return getComputedStyle(document.querySelector(\"g.pc[data-piece='K'] text.kanji\")).fill;"));
        browser.screenshot("play-theme-night-shogi");
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#piece-theme")).selectByValue("classic");
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#board-theme")).selectByValue("wood");
    }

    @Test
    void onAPhoneTheStatusAndResignAreAboveTheFoldAndByoyomiPeriodsAreSaid() {
        browser.viewport(390, 701);
        browser.newGame("shogi", "computer", 0, "first", null, "byoyomi");
        browser.waitFor("#resign");
        double bottom = ((Number) browser.js("return document.querySelector('#resign').getBoundingClientRect().bottom;"))
                .doubleValue();
        double status = ((Number) browser.js("return document.querySelector('#status').getBoundingClientRect().bottom;"))
                .doubleValue();
        assertTrue(bottom <= 701 && status <= 701, "resign ends at " + bottom + " px, the status at " + status + " (701 high)");
        browser.screenshot("play-shogi-phone-actions");
        // each player bar is one row: "Computer (level 0)" and "10:00 (1×)" do not wrap
        for (String bar : new String[]{"#bar-top", "#bar-bottom"}) {
            double h = ((Number) browser.js("return document.querySelector(arguments[0]).getBoundingClientRect().height;", bar))
                    .doubleValue();
            assertTrue(h < 45, bar + " is " + h + " px high");
        }
        // the clock's "(1×)" is said in words
        browser.waiting(5).until(d -> browser.js("const c = document.querySelector(\"[data-clock='first']\");"
                + " return c ? c.title : '';").toString().startsWith("byoyomi periods left: "));
        browser.viewport(1300, 1000);
    }

    @Test
    void aPieceIsDraggedFromTheHandToTheBoard() {
        // sente has a pawn in hand and none on file 1 (the page's file i): the drop P@i5 is legal
        browser.newGame("shogi", "hotseat", 0, null, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1");
        browser.waitFor(".hand [data-hand='P'][data-side='first']");
        // the page may redraw the hand once more as the feed connects: find both ends again if it did
        for (int attempt = 0; browser.shownPly() == 0; attempt++) {
            try {
                var hand = browser.waitFor(".hand [data-hand='P'][data-side='first']");
                var from = hand.getRect();
                var to = browser.square("i5").getRect();
                // by offsets: the board redraws while a piece is dragged, so its squares cannot be held as elements
                int dx = to.x + to.width / 2 - (from.x + from.width / 2);
                int dy = to.y + to.height / 2 - (from.y + from.height / 2);
                new Actions(browser.driver).moveToElement(hand).clickAndHold().moveByOffset(dx / 2, dy / 2)
                        .moveByOffset(dx - dx / 2, dy - dy / 2).release().perform();
                waitForPly(browser, 1);
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                if (attempt == 3) {
                    throw e;
                }
            }
        }
        assertEquals("P", browser.pieceOn("i5"));
        assertTrue(browser.all(".hand [data-hand='P'][data-side='first']").isEmpty(), "the hand is empty");
    }

    @Test
    void aPremoveIsPlayedWhenLegalAndCancelledWhenNot() throws Exception {
        String id = browser.newGame("chess", "friend", 0, "first", null);
        String link = browser.waitFor("#share-link").getAttribute("value");
        try (Browser bob = new Browser(site.base)) {
            bob.driver.get(link);
            bob.clickRetrying("#join");
            bob.waiting(20).until(d -> bob.all("#join").isEmpty());
            browser.waiting(20).until(d -> browser.all("#join-box:not([hidden])").isEmpty());
            browser.clickMove("e2e4", "first");
            waitForPly(bob, 1);
            // bob to move: alice premoves d2-d4 (shown in the premove colour)
            browser.clickSquare("d2");
            browser.clickSquare("d4");
            browser.waiting(5).until(d -> PREMOVE.equals(browser.js(
                    "return getComputedStyle(document.querySelector(\"rect[data-square='d4']\")).fill;")));
            assertTrue(browser.text("#game-notice").contains("d2-d4"), browser.text("#game-notice"));
            bob.clickMove("e7e5", "second");
            // the premove is played at once on alice's turn
            waitForPly(browser, 3);
            assertEquals("P", browser.pieceOn("d4"));
            assertEquals("d2d4", site.game(id).get("moves").get(2).get("move").asText());
            // now e4-e5 as a premove: the square is taken when the turn comes, so it is cancelled
            browser.clickSquare("e4");
            browser.clickSquare("e5");
            browser.waiting(5).until(d -> browser.text("#game-notice").contains("e4-e5"));
            bob.clickMove("b8c6", "second");
            browser.waiting(10).until(d -> browser.text("#game-notice").contains("Premove cancelled"));
            assertEquals(4, site.game(id).get("ply").asInt(), "nothing was played for alice");
            assertTrue(browser.all("rect.premove").isEmpty(), "the premove is no longer shown");
        }
    }

    @Test
    void theBoardFillsTheWindowsHeightOnADesktopAndTheWidthOnAPhone() {
        browser.newGame("washogi", "hotseat", 0, null, null);
        browser.viewport(1366, 757);
        double desktop = ((Number) browser.js("return document.querySelector('svg.board').getBoundingClientRect().width;"))
                .doubleValue();
        // the window is 757 px high: the board takes what the header and player bars leave (757 - 150 = 607 px)
        assertTrue(desktop > 550 && desktop < 620, "board width at 1366x757: " + desktop + ", window "
                + browser.js("return innerWidth + 'x' + innerHeight;"));
        browser.screenshot("play-washogi-desktop");
        // the key to Western notation's letters: Wa shogi's 17 unpromoted pieces, each letter with its name
        browser.clickRetrying("#notation-key summary");
        browser.waiting(5).until(d -> browser.all("#notation-key li").size() == 17);
        assertTrue(browser.texts("#notation-key li").contains("S Swallow's wings"), browser.texts("#notation-key li"));
        browser.viewport(390, 701);
        double phone = ((Number) browser.js("return document.querySelector('svg.board').getBoundingClientRect().width;"))
                .doubleValue();
        double page = ((Number) browser.js("return document.documentElement.clientWidth;")).doubleValue();
        assertTrue(phone > page - 40, "the board takes the phone's width: " + phone + " of " + page);
        double header = ((Number) browser.js("return document.querySelector('header.top').getBoundingClientRect().height;"))
                .doubleValue();
        assertTrue(header < 90, "the header takes at most two rows on a phone: " + header + " px");
        assertEquals("", browser.headerItemsCut(), "header links or menus cut or hidden on a phone");
        assertEquals(page, ((Number) browser.js("return document.documentElement.scrollWidth;")).doubleValue(),
                "no sideways scrolling on a phone");
        browser.screenshot("play-washogi-phone");
        // the one-kanji set for small screens: every Wa piece drawn with one large character (54 pieces at the start)
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#piece-set")).selectByValue("kanji-single");
        browser.waiting(5).until(d -> browser.all("svg.board g.pc text.kanji.k1").size() == 54);
        assertEquals(0, browser.all("svg.board g.pc text.kanji.k2").size());
        assertEquals("鶴", browser.js("return document.querySelector(\"svg.board g.pc[data-piece='K'] text\").textContent;"));
        browser.js("window.scrollTo(0, 0);");
        browser.screenshot("play-washogi-phone-one-kanji");
        new org.openqa.selenium.support.ui.Select(browser.waitFor("#piece-set")).selectByValue("kanji");
        browser.viewport(1300, 1000);
    }

}
