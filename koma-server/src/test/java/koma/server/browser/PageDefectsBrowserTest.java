package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import koma.server.KomaServer;
import koma.server.ServerConfig;

/**
 * Defects of the game page seen in what the browser draws: square highlights (selection, last move, check) on
 * light and dark squares, the chess promotion dialog's labels, the draw and claim actions and their messages,
 * and the move list's rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PageDefectsBrowserTest {
    /** The square colours of css/koma.css, as getComputedStyle gives them. */
    private static final String LIGHT = "rgb(238, 221, 184)";
    private static final String DARK = "rgb(181, 136, 99)";
    private static final String SELECTED = "rgb(143, 195, 255)";
    private static final String LAST_LIGHT = "rgb(232, 211, 106)";
    private static final String LAST_DARK = "rgb(201, 178, 74)";
    private static final String CHECK = "rgb(240, 106, 106)";

    private KomaServer server;
    private Path dataDir;
    private Browser browser;

    @BeforeAll
    void start() throws IOException {
        assertTrue(Files.isExecutable(Browser.CHROMIUM) && Files.isExecutable(Browser.CHROMEDRIVER),
                "the browser tests need Debian's chromium and chromium-driver");
        dataDir = Files.createTempDirectory("koma-defects-test-");
        server = KomaServer.start(new ServerConfig(0, "127.0.0.1", null, dataDir, 0, 0, 1));
        browser = new Browser("http://127.0.0.1:" + server.port());
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
        if (dataDir != null) {
            try (var files = Files.walk(dataDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The computed fill of a square's rect, read in one script call. */
    private String fill(String sq) {
        browser.square(sq);
        Object f = browser.js("const r = document.querySelector(\"rect[data-square='\" + arguments[0] + \"']\");"
                + " return r ? getComputedStyle(r).fill : null;", sq);
        return String.valueOf(f);
    }

    private void waitForFill(String sq, String colour) {
        try {
            browser.waiting(10).until(d -> colour.equals(fill(sq)));
        } catch (org.openqa.selenium.TimeoutException e) {
            assertEquals(colour, fill(sq), "fill of " + sq);
        }
    }

    @Test
    void selectionLastMoveAndCheckShowOnLightAndDarkSquares() {
        browser.newGame("chess", "hotseat", 0, null, null);
        assertEquals(DARK, fill("f2"));
        assertEquals(LIGHT, fill("g2"));
        assertEquals(DARK, fill("e1"));
        // selection, on a dark square (f2) and on a light one (g2)
        browser.clickSquare("f2");
        browser.waitFor("circle.dest[data-dest='f3']");
        waitForFill("f2", SELECTED);
        browser.clickSquare("g2");
        browser.waitFor("circle.dest[data-dest='g3']");
        waitForFill("g2", SELECTED);
        assertEquals(DARK, fill("f2"), "the old selection is gone");
        browser.clickSquare("g2");
        // 1.f3: from a dark square to a light one
        browser.clickMove("f2f3", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        waitForFill("f2", LAST_DARK);
        waitForFill("f3", LAST_LIGHT);
        // 1...e5: from a dark square to a dark one
        browser.clickMove("e7e5", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 2);
        waitForFill("e7", LAST_DARK);
        waitForFill("e5", LAST_DARK);
        assertEquals(DARK, fill("f2"), "the older move is no longer marked");
        // 2.g4: from a light square to a light one
        browser.clickMove("g2g4", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 3);
        waitForFill("g2", LAST_LIGHT);
        waitForFill("g4", LAST_LIGHT);
        // 2...Qh4#: the checked king's square (e1, dark) is red
        browser.clickMove("d8h4", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 4);
        waitForFill("e1", CHECK);
        waitForFill("d8", LAST_DARK);
        waitForFill("h4", LAST_DARK);
        browser.screenshot("defects-check");
        // stepping back to 2.g4 shows that move, and no check
        browser.clickRetrying("[data-nav='prev']");
        browser.waiting(10).until(d -> browser.shownPly() == 3);
        waitForFill("g4", LAST_LIGHT);
        assertEquals(DARK, fill("e1"));
        assertNotEquals(CHECK, fill("e1"));
    }
}
