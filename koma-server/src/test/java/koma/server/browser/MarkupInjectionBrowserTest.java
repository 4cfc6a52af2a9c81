package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * No text from the address, the server or a user reaches the page as HTML: markup is fed through every text the
 * page shows (rule-set and game ids in the address, the server's error texts for a bad start position, an
 * illegal move and an unknown export format, the remembered language) and must come out as literal text, with
 * no element made from it and no script run.
 */
class MarkupInjectionBrowserTest extends SiteBrowserTest {
    /** Runs a script if it ever becomes an element. */
    private static final String IMG = "<img src=x onerror=\"window.__xss=1\">";
    private static final String BOLD = "<b>bold</b>";


    @Override
    protected String siteName() {
        return "markup";
    }

    /** Percent-encodes every byte but letters and digits (spaces as %20, not +). */
    private static String encode(String s) {
        StringBuilder b = new StringBuilder();
        for (byte c : s.getBytes(StandardCharsets.UTF_8)) {
            if (Character.isLetterOrDigit(c)) {
                b.append((char) c);
            } else {
                b.append('%').append(String.format("%02X", c & 0xff));
            }
        }
        return b.toString();
    }

    /** No script ran, and no element came from data: the app itself never makes img or b elements. */
    private void assertNoMarkupRan(String where) {
        assertEquals(null, browser.js("return window.__xss === undefined ? null : String(window.__xss);"), where + ": a script ran");
        assertEquals(0L, browser.js("return document.querySelectorAll('img, b, iframe, object, embed').length;"),
                where + ": an element was made from data");
    }

    private String pageText() {
        return String.valueOf(browser.js("return document.body.textContent;"));
    }

    @Test
    void ruleSetIdInTheAddress() {
        browser.open("/rules/" + encode(IMG));
        WebElement error = browser.waitFor("#app .error");
        browser.screenshot("markup-rules");
        assertNoMarkupRan("/rules/");
        assertTrue(error.getText().contains(IMG), "shown as text: " + error.getText());
    }

    @Test
    void gameIdInTheAddressAndAGameThatDoesNotExist() {
        browser.open("/game/" + encode(IMG + BOLD) + "?join");
        WebElement error = browser.waitFor("#app .error");
        assertTrue(error.getText().startsWith("Cannot load the game"), error.getText());
        assertNoMarkupRan("/game/<img>");
        browser.open("/game/no-such-game");
        assertTrue(browser.waitFor("#app .error").getText().startsWith("Cannot load the game"));
        assertNoMarkupRan("/game/no-such-game");
    }

    @Test
    void serverErrorTextsForABadStartPositionAnIllegalMoveAndAnUnknownFormat() {
        // a start position that is markup: the server's error text is shown as text
        browser.open("/");
        browser.waitFor("#new-game-form");
        browser.driver.findElement(By.cssSelector("input[name=mode][value=hotseat]")).click();
        browser.driver.findElement(By.cssSelector("details.field summary")).click();
        browser.driver.findElement(By.id("ng-fen")).sendKeys(BOLD + IMG);
        browser.driver.findElement(By.id("ng-start")).click();
        browser.waiting(20).until(d -> !browser.text("#ng-error").isBlank());
        String createError = browser.text("#ng-error");
        System.out.println("browser: bad start position: " + createError);
        assertTrue(createError.startsWith("The game could not be created: "), createError);
        assertNoMarkupRan("new game");

        // a hot-seat game; a move and an export format that are markup, sent through the page's own code
        browser.driver.findElement(By.id("ng-fen")).clear();
        browser.driver.findElement(By.id("ng-start")).click();
        browser.waiting(20).until(d -> d.getCurrentUrl().contains("/game/"));
        browser.waitFor("svg.board");
        browser.js("window.__komaFeed.page.sendMove(arguments[0]);", BOLD + IMG);
        browser.waiting(20).until(d -> !browser.text("#game-error").isBlank());
        String moveError = browser.text("#game-error");
        System.out.println("browser: illegal move: " + moveError);
        assertTrue(moveError.startsWith("Move " + BOLD + IMG + " was refused: "), moveError);
        assertNoMarkupRan("illegal move");
        browser.js("window.__komaFeed.page.sendMove(arguments[0]);", "<b>e4</b>");
        browser.waiting(20).until(d -> browser.text("#game-error").startsWith("Move <b>e4</b> was refused: "));
        System.out.println("browser: illegal move: " + browser.text("#game-error"));
        assertNoMarkupRan("illegal move");
        browser.js("window.__komaFeed.page.exportRecord(arguments[0]);", IMG + BOLD);
        browser.waiting(20).until(d -> browser.text("#game-error").startsWith("Export failed"));
        System.out.println("browser: unknown export format: " + browser.text("#game-error"));
        assertTrue(pageText().contains("Export failed: "));
        assertNoMarkupRan("export");
        // the page still works: a move by clicking
        browser.clickMove("e2e4", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        assertEquals("", browser.text("#game-error"));
    }

    @Test
    void rememberedLanguageThatIsMarkup() {
        browser.open("/");
        browser.waitFor("#new-game-form");
        browser.js("localStorage.setItem('koma.lang', arguments[0]);", IMG);
        browser.open("/rules/chess");
        browser.waitFor(".piece-card");
        assertEquals("en", browser.js("return document.documentElement.lang;"));
        assertTrue(browser.waitFor(".rules-page h1").getText().equals("Chess"));
        assertNoMarkupRan("language");
        browser.js("localStorage.removeItem('koma.lang');");
    }
}
