package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Two people in two browser profiles play a friend game with a correspondence clock: they chat (markup in a
 * message shows as text; a spectator in a third profile chats in the spectators' room, which the players do not see), the first player's takeback request is accepted, the second player resigns, and the
 * rematch offered by one and accepted by the other brings both pages into the new game with the colours swapped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GameActionsBrowserTest {
    /** Runs a script if it ever becomes an element. */
    private static final String IMG = "<img src=x onerror=\"window.__xss=1\">";

    private TestSite site;
    private Browser alice;

    @BeforeAll
    void start() throws IOException {
        site = TestSite.start("actions", null);
        alice = new Browser(site.base);
    }

    @AfterAll
    void stop() throws IOException {
        if (alice != null) {
            alice.close();
        }
        if (site != null) {
            site.close();
        }
    }

    /** The seat the page's game holds ("first", "second") and the game id it shows. */
    private static String you(Browser b) {
        Object y = b.js("return window.__komaFeed && window.__komaFeed.page.game ? window.__komaFeed.page.game.you : null;");
        return y == null ? null : y.toString();
    }

    private static String shownGame(Browser b) {
        String url = b.driver.getCurrentUrl();
        return url.substring(url.indexOf("/game/") + 6).replaceAll("[?#].*", "");
    }

    @Test
    void chatTakebackResignationAndRematch() throws Exception {
        String id = alice.newGame("chess", "friend", 0, "first", null, "correspondence");
        String link = alice.waitFor("#share-link").getAttribute("value");
        // the creator may call the game off while nobody joined: Abort, no Resign
        alice.waitFor("#abort");
        try (Browser bob = new Browser(site.base)) {
            bob.driver.get(link);
            bob.clickRetrying("#join");
            bob.waiting(20).until(d -> bob.all("#join").isEmpty());
            JsonNode g = site.game(id);
            assertEquals("correspondence", g.get("clock").get("type").asText());
            assertEquals(3, g.get("clock").get("daysPerMove").asInt(), "the form's default: 3 days per move");
            // the clock shows days and hours (3 days per move, a few seconds gone: 2d 23h)
            alice.waiting(20).until(d -> alice.text(".side-clocks [data-clock='first']").matches("2d 23h"));

            alice.clickMove("e2e4", "first");
            bob.waiting(20).until(d -> "P".equals(bob.pieceOn("e4")));
            assertEquals(1, bob.all("#abort").size(), "before both sides moved: Abort instead of Resign");
            bob.clickMove("e7e5", "second");
            alice.waiting(20).until(d -> "P".equals(alice.pieceOn("e5")));
            alice.waitFor("#resign");
            assertTrue(alice.all("#abort").isEmpty(), "both sides moved: Resign, no Abort");

            // chat: markup in a message arrives as text, in the players' room of both
            alice.waitFor("#chat-input").sendKeys(IMG);
            alice.waitFor("#chat-send").click();
            bob.waiting(20).until(d -> IMG.equals(bob.texts("#chat-log .chat-text")));
            alice.waiting(20).until(d -> IMG.equals(alice.texts("#chat-log .chat-text")));
            assertEquals("", alice.waitFor("#chat-input").getAttribute("value"), "the input is emptied once sent");
            bob.waitFor("#chat-input").sendKeys("good luck");
            bob.waitFor("#chat-send").click();
            alice.waiting(20).until(d -> alice.texts("#chat-log .chat-text").endsWith("good luck"));
            assertEquals("White: Black:", alice.texts("#chat-log .chat-from"));
            for (Browser b : new Browser[]{alice, bob}) {
                assertTrue(b.all("#chat-log img").isEmpty(), "no element made from a message");
                assertNull(b.js("return window.__xss === undefined ? null : String(window.__xss);"), "no script ran");
            }
            alice.screenshot("actions-chat");
            // a spectator in a third profile reads and writes the spectators' room, apart from the players'
            try (Browser carol = new Browser(site.base)) {
                carol.open("/game/" + id);
                assertEquals("Spectators' chat", carol.text("#chat-title"));
                carol.waiting(20).until(d -> "No messages yet.".equals(carol.texts("#chat-log li")));
                carol.waitFor("#chat-input").sendKeys("nice game");
                carol.waitFor("#chat-send").click();
                carol.waiting(20).until(d -> "nice game".equals(carol.texts("#chat-log .chat-text")));
                assertEquals("Spectator:", carol.texts("#chat-log .chat-from"));
                carol.screenshot("actions-spectator-chat");
                // the players' pages got the spectator's message only as a skipped version: nothing shown
                long version = site.game(id).get("version").asLong();
                alice.waiting(20).until(d -> Long.valueOf(version).equals(alice.js("return window.__komaFeed.version;")));
                assertEquals(IMG + " good luck", alice.texts("#chat-log .chat-text"));
            }

            // takeback: the first player, to move again, asks; the second accepts; both pages go back to the start
            alice.waitFor("#takeback").click();
            bob.waitFor("#takeback-accept");
            alice.waiting(20).until(d -> !alice.all(".takeback-offer").isEmpty());
            bob.screenshot("actions-takeback-request");
            bob.waitFor("#takeback-accept").click();
            for (Browser b : new Browser[]{alice, bob}) {
                b.waiting(20).until(d -> b.shownPly() == 0 && b.pieceOn("e4") == null && "P".equals(b.pieceOn("e2")));
                b.waiting(20).until(d -> b.all("#move-list button.mv").isEmpty());
            }
            assertEquals(0, site.game(id).get("ply").asInt());
            alice.clickMove("d2d4", "first");
            bob.waiting(20).until(d -> "P".equals(bob.pieceOn("d4")));
            bob.clickMove("d7d5", "second");
            alice.waiting(20).until(d -> "P".equals(alice.pieceOn("d5")));
            assertEquals("d4 d5", alice.texts("#move-list button.mv"));

            // the second player resigns
            bob.waitFor("#resign").click();
            bob.waitFor("#resign.confirm").click();
            alice.waiting(20).until(d -> !alice.all("#result[data-winner='first']").isEmpty());

            // rematch: offered by the winner, accepted by the loser; both pages open the new game, colours swapped
            alice.waitFor("#rematch").click();
            bob.waitFor("#rematch-accept");
            alice.screenshot("actions-rematch-offered");
            bob.waitFor("#rematch-accept").click();
            for (Browser b : new Browser[]{alice, bob}) {
                b.waiting(20).until(d -> !shownGame(b).equals(id));
                b.waitFor("svg.board");
                b.waiting(20).until(d -> you(b) != null);
            }
            String next = shownGame(alice);
            assertEquals(next, shownGame(bob));
            assertNotEquals(id, next);
            assertEquals("second", you(alice));
            assertEquals("first", you(bob));
            assertEquals(next, site.game(id).get("rematch").get("gameId").asText());
            JsonNode ng = site.game(next);
            assertEquals("active", ng.get("status").asText());
            assertEquals("correspondence", ng.get("clock").get("type").asText());
            // the new game is played with the seats the pages took: Bob now moves first
            bob.clickMove("e2e4", "first");
            alice.waiting(20).until(d -> "P".equals(alice.pieceOn("e4")));
            alice.screenshot("actions-rematch-second");
            bob.screenshot("actions-rematch-first");
        }
    }

    @Test
    void againstTheComputerATakebackIsMadeAtOnce() {
        alice.newGame("chess", "computer", 0, "first", null);
        alice.clickMove("e2e4", "first");
        // the computer (level 0: 0.2 s) replies; the player takes back its move and the reply in one click
        alice.waiting(30).until(d -> alice.shownPly() == 2);
        alice.waitFor("#takeback").click();
        alice.waiting(20).until(d -> alice.shownPly() == 0 && "P".equals(alice.pieceOn("e2")) && alice.pieceOn("e4") == null);
        assertTrue(alice.all(".takeback-offer").isEmpty(), "no request to answer: made at once");
        assertTrue(alice.all("#chat").stream().noneMatch(e -> e.isDisplayed()), "no chat against the computer");
        alice.clickMove("d2d4", "first");
        alice.waiting(30).until(d -> alice.shownPly() == 2);
        assertEquals("d4", alice.texts("#move-list button.mv").split(" ")[0]);
    }
}
