package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import koma.server.Glicko2;

/**
 * The meeting place in three real headless Chromium profiles: two players sign up, one posts a rated seek in the
 * lobby, the other accepts it, and both land in the game; a third (a guest) finds it in the lobby's list of games
 * being played and watches; they play and chat, one resigns, both see their rating changes on the game page and the game in
 * their history with the new rating. Screenshots of the lobby, a profile and the finished game (desktop and phone).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LobbyBrowserTest {
    private TestSite site;
    private Browser ann, ben, cat;

    @BeforeAll
    void start() throws IOException {
        site = TestSite.start("lobby", null);
        ann = new Browser(site.base);
        ben = new Browser(site.base);
        cat = new Browser(site.base);
    }

    @AfterAll
    void stop() throws IOException {
        for (Browser b : new Browser[]{ann, ben, cat}) {
            if (b != null) {
                b.close();
            }
        }
        if (site != null) {
            site.close();
        }
    }

    private static void signUp(Browser b, String name) {
        b.open("/account");
        b.waitFor("#signup");
        b.driver.findElement(By.id("signup-name")).sendKeys(name);
        b.driver.findElement(By.id("signup-password")).sendKeys("secret-" + name);
        b.driver.findElement(By.cssSelector("#signup button[type=submit]")).click();
        b.waiting(20).until(d -> d.getCurrentUrl().endsWith("/lobby"));
        b.waiting(20).until(d -> b.text("#me-link").equals(name));
        b.waitFor("#online");
    }

    private static String gameId(Browser b) {
        b.waiting(20).until(d -> d.getCurrentUrl().contains("/game/"));
        b.waitFor("svg.board");
        String url = b.driver.getCurrentUrl();
        return url.substring(url.indexOf("/game/") + 6).replaceAll("[?#].*", "");
    }

    @Test
    void twoPlayersMeetInTheLobbyPlayRatedAndAThirdWatches() {
        signUp(ann, "Ann");
        signUp(ben, "Ben");
        // Ann posts a rated chess seek, playing first
        new Select(ann.driver.findElement(By.id("seek-variant"))).selectByValue("chess");
        WebElement clock = ann.driver.findElement(By.id("seek-clock"));
        clock.clear();
        clock.sendKeys("5+3");
        new Select(ann.driver.findElement(By.id("seek-color"))).selectByValue("first");
        assertTrue(ann.driver.findElement(By.id("seek-rated")).isSelected(), "rated by default when signed in");
        ann.driver.findElement(By.id("seek-post")).click();
        ann.waitFor("tr.mine .cancel-seek");
        // Ben sees it live, with Ann's provisional rating, and accepts
        ben.waitFor("tr[data-seek] .accept-seek");
        String row = ben.text("tr[data-seek]");
        assertTrue(row.contains("Ann (1500?)") && row.contains("Chess") && row.contains("5+3") && row.contains("rated"), row);
        ann.screenshot("lobby-seek-desktop");
        ben.clickRetrying("tr[data-seek] .accept-seek");
        String id = gameId(ben);
        assertEquals(id, gameId(ann), "the seeker lands in the same game");
        // the guest finds the game in the lobby's list of games being played and opens it
        cat.open("/lobby");
        cat.waitFor("#games-now li[data-game='" + id + "'] a");
        String listed = cat.text("#games-now li[data-game='" + id + "']");
        assertTrue(listed.contains("Ann (1500?) – Ben (1500?)") && listed.contains("5+3"), listed);
        cat.driver.manage().window().setSize(new Dimension(390, 844));
        cat.screenshot("lobby-phone");
        cat.driver.manage().window().setSize(new Dimension(1300, 1000));
        cat.clickRetrying("#games-now li[data-game='" + id + "'] a");
        assertEquals(id, gameId(cat));
        // the bars name both accounts with their ratings; Ann plays first
        assertTrue(ann.texts(".player-name").contains("Ann (1500?)") && ann.texts(".player-name").contains("Ben (1500?)"),
                ann.texts(".player-name"));
        // they chat: Ann's message reaches Ben as text; the spectator does not see the players' room
        ann.waitFor("#chat-input").sendKeys("Have fun <b>Ben</b>");
        ann.waitFor("#chat-send").click();
        ben.waiting(20).until(d -> ben.texts("#chat-log .chat-text").equals("Have fun <b>Ben</b>"));
        assertTrue(ben.all("#chat-log b").isEmpty(), "markup stays text");
        assertTrue(cat.texts("#chat-log .chat-text").isEmpty(), "the spectator sees only the spectators' room");
        ann.clickMove("e2e4", "first");
        ben.waiting(20).until(d -> ben.shownPly() == 1);
        ben.clickMove("e7e5", "second");
        cat.waiting(20).until(d -> cat.shownPly() == 2);
        assertTrue(cat.all("#resign").isEmpty(), "a spectator has no actions");
        // Ben resigns (two clicks: the button asks for confirmation)
        ben.clickRetrying("#resign");
        ben.clickRetrying("#resign.confirm");
        for (Browser b : new Browser[]{ann, ben, cat}) {
            b.waiting(20).until(d -> !b.all("#result[data-winner='first']").isEmpty());
        }
        // the rating changes: Glicko-2 for two new players (1500/350/0.06) after a win of the first, rounded
        Glicko2.Rating[] r = Glicko2.game(Glicko2.Rating.START, Glicko2.Rating.START, 1);
        long up = Math.round(r[0].rating()) - 1500, down = Math.round(r[1].rating()) - 1500;
        for (Browser b : new Browser[]{ann, ben}) {
            b.waiting(20).until(d -> b.all(".player-bar .diff").size() == 2);
            String diffs = b.texts(".player-bar .diff");
            assertTrue(diffs.contains("+" + up) && diffs.contains(String.valueOf(down)), diffs);
        }
        ann.screenshot("game-rated-finished-desktop");
        ben.driver.manage().window().setSize(new Dimension(390, 844));
        ben.screenshot("game-rated-finished-phone");
        ben.driver.manage().window().setSize(new Dimension(1300, 1000));
        // both find the game in their history, with their new rating on their page
        for (Object[] p : new Object[][]{{ann, "Ann", up, "Win"}, {ben, "Ben", down, "Loss"}}) {
            Browser b = (Browser) p[0];
            b.clickRetrying("#me-link");
            b.waitFor("tr[data-game='" + id + "']");
            String rating = b.text("table.ratings tr[data-variant='chess'] td.rating");
            assertEquals((1500 + (long) p[2]) + "?", rating);
            String line = b.text("tr[data-game='" + id + "']");
            assertTrue(line.contains((String) p[3]) && line.contains("Ann – Ben"), line);
            assertEquals((long) p[2], Long.parseLong(b.text("tr[data-game='" + id + "'] .diff").strip().replace("+", "")));
            b.waiting(20).until(d -> b.all(".rating-chart circle.dot").size() == 1); // one rated game, one point
        }
        ann.screenshot("profile-desktop");
        ann.driver.manage().window().setSize(new Dimension(390, 844));
        ann.screenshot("profile-phone");
        ann.driver.manage().window().setSize(new Dimension(1300, 1000));
    }

    @Test
    void aGuestSeesTheirGamesAndKeepsThemWhenSigningUp() {
        Browser guest = new Browser(site.base);
        try {
            String id = guest.newGame("shogi", "computer", 0, "first", null);
            guest.open("/games");
            guest.waitFor("tr[data-game='" + id + "']");
            assertTrue(guest.text("tr[data-game='" + id + "']").contains("Shogi"), guest.text("tr[data-game='" + id + "']"));
            signUp(guest, "Dee");
            guest.clickRetrying("#me-link");
            guest.waitFor("tr[data-game='" + id + "']");
            String line = guest.text("tr[data-game='" + id + "']");
            assertTrue(line.contains("Dee – ") && line.contains("Computer"), line);
        } finally {
            guest.close();
        }
    }
}
