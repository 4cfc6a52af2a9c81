package koma.server.browser;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;


import org.junit.jupiter.api.Test;

/**
 * Defects of the game page seen in what the browser draws: square highlights (selection, last move, check) on
 * light and dark squares, the chess promotion dialog's labels, the draw and claim actions and their messages,
 * and the move list's rows.
 */
class PageDefectsBrowserTest extends SiteBrowserTest {
    /** The square colours of css/koma.css, as getComputedStyle gives them. */
    private static final String LIGHT = "rgb(238, 221, 184)";
    private static final String DARK = "rgb(181, 136, 99)";
    private static final String SELECTED = "rgb(143, 195, 255)";
    private static final String LAST_LIGHT = "rgb(232, 211, 106)";
    private static final String LAST_DARK = "rgb(201, 178, 74)";
    private static final String CHECK = "rgb(240, 106, 106)";


    @Override
    protected String siteName() {
        return "defects";
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

    /** The text of the first element matching css now (visible or not), or "". */
    private String textNow(String css) {
        Object t = browser.js("const e = document.querySelector(arguments[0]); return e ? e.textContent : '';", css);
        return t == null ? "" : t.toString();
    }

    @Test
    void theChessPromotionDialogNamesThePieces() {
        browser.newGame("chess", "hotseat", 0, null, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        browser.clickSquare("a7");
        browser.waitFor("circle.dest[data-dest='a8']");
        browser.clickSquare("a8");
        browser.waitFor(".promo-dialog");
        browser.screenshot("defects-promotion");
        Object labels = browser.js("return Array.from(document.querySelectorAll('.promo-option')).map(b => b.dataset.promo + '='"
                + " + b.lastElementChild.textContent + '/' + b.getAttribute('aria-label') + '/' + b.title).sort().join(',');");
        assertEquals("b=Bishop/Bishop/Bishop,n=Knight/Knight/Knight,q=Queen/Queen/Queen,r=Rook/Rook/Rook", labels);
        assertEquals("Promote to", textNow(".promo-title"));
        browser.clickRetrying(".promo-option[data-promo='n']");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        assertEquals("N", browser.pieceOn("a8"));
    }

    @Test
    void theComputerDecliningADrawOfferIsSaid() {
        browser.newGame("chess", "computer", 0, "first", null);
        browser.clickRetrying("#draw-offer");
        browser.waiting(30).until(d -> textNow("#game-notice").equals("The computer declined the draw offer."));
        browser.screenshot("defects-draw-declined");
        assertEquals("active", browser.waitFor("#status").getAttribute("data-status"));
        assertTrue(browser.all("#draw-offer").size() == 1, "the offer can be made again");
        // the player's next move clears the message
        browser.clickMove("e2e4", "first");
        browser.waiting(20).until(d -> textNow("#game-notice").isEmpty());
    }

    /**
     * "Claim a draw" is offered only when the position allows it (issue 11, item 6): not at the start; after the
     * knights went out and back twice the start position stands for the third time, the button appears, and the
     * claim ends the game by repetition.
     */
    @Test
    void aDrawClaimIsOfferedOnlyWhenOneCanBeClaimed() {
        browser.newGame("chess", "hotseat", 0, null, null);
        browser.waitFor("#resign");
        assertTrue(browser.all("#claim").isEmpty(), "no claim at the start");
        String[] shuffle = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
        for (int i = 0; i < shuffle.length; i++) {
            browser.clickMove(shuffle[i], i % 2 == 0 ? "first" : "second");
            int ply = i + 1;
            browser.waiting(20).until(d -> browser.shownPly() == ply);
            if (ply < shuffle.length) {
                assertTrue(browser.all("#claim").isEmpty(), "no claim at ply " + ply);
            }
        }
        browser.clickRetrying("#claim");
        browser.waiting(20).until(d -> "finished".equals(browser.waitFor("#status").getAttribute("data-status")));
        assertTrue(textNow("#result").contains(uiText("en", "termination.repetition")), textNow("#result"));
    }

    /**
     * A refusal is named in words, with the action that failed and without the API's field name: a spectator who
     * chats faster than the limit (5 messages in 10 s per sender) is told to wait.
     */
    @Test
    void aRefusedActionIsNamedAndTheFieldNameLeftOut() {
        String error = chatUntilRefused("en");
        assertTrue(error.startsWith("The message was refused: "), error);
        assertTrue(error.matches("The message was refused: " + pattern(uiText("en", "err.chatRate"))), error);
        assertTrue(!error.contains("text:"), error);
        assertTrue(!error.contains("The request was refused"), error);
    }

    /**
     * A refusal reads in the page's language: the server answers with the refusal's code (docs/server-api.md,
     * Errors) and the page shows that code's sentence from its own language file, here Japanese and Czech.
     */
    @Test
    void aRefusalIsSaidInThePagesLanguage() {
        for (String lang : new String[] {"ja", "cs"}) {
            String error = chatUntilRefused(lang);
            assertTrue(error.matches(java.util.regex.Pattern.quote(uiText(lang, "error.chat") + ": ")
                    + pattern(uiText(lang, "err.chatRate"))), lang + ": " + error);
        }
    }

    /**
     * A computer game watched by a second browser in language {@code lang}, whose spectators' chat is sent messages
     * until the server refuses one; the page's error line then.
     */
    private String chatUntilRefused(String lang) {
        String id = browser.newGame("chess", "computer", 0, "first", null);
        try (Browser watcher = new Browser(site.base)) {
            watcher.open("/");
            watcher.js("localStorage.setItem('koma.lang', arguments[0]);", lang);
            watcher.open("/game/" + id);
            for (int i = 0; i < 12; i++) {
                watcher.waitFor("#chat-input").sendKeys("hello " + i);
                watcher.waitFor("#chat-send").click();
                watcher.waiting(10).until(d -> !String.valueOf(watcher.js(
                        "return document.getElementById('chat-input').value;")).startsWith("hello")
                        || !watcher.text("#game-error").isBlank());
                String error = watcher.text("#game-error");
                if (!error.isBlank()) {
                    watcher.screenshot("defects-refusal-" + lang);
                    return error;
                }
            }
            throw new AssertionError("12 messages in a row were not refused");
        }
    }

    /** A regular expression for a translated text with its {placeholders} standing for numbers. */
    private static String pattern(String text) {
        StringBuilder sb = new StringBuilder();
        for (String part : text.split("\\{[a-zA-Z]+\\}", -1)) {
            sb.append(java.util.regex.Pattern.quote(part)).append("\\d+");
        }
        return sb.substring(0, sb.length() - 3);
    }

    @Test
    void impasseIsOfferedOnlyWithBothKingsInTheirZones() {
        browser.newGame("shogi", "hotseat", 0, null, null);
        browser.waitFor("#resign");
        assertTrue(browser.all("#claim").isEmpty(), "no impasse at the start");
        // the first player's king one step outside its zone (5d), the second's in its own (5i)
        browser.newGame("shogi", "hotseat", 0, null, "9/9/9/4K4/9/9/9/9/4k4 b - 1");
        browser.waitFor("#resign");
        assertTrue(browser.all("#claim").isEmpty(), "no impasse with one king outside its zone");
        browser.clickMove("e6e7", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        assertEquals("Declare impasse", browser.text("#claim"));
        browser.screenshot("defects-impasse");
    }

    @Test
    void onlyTheClaimsTheRuleSetHasAreOffered() {
        // from GET /api/variants/{id}: claims (chess: a draw; Shodo and Wa shogi: none, their repetitions are automatic);
        // chess from a position with 100 plies without capture or pawn move, where the fifty-move draw may be claimed
        browser.newGame("chess", "hotseat", 0, null, "4k3/8/8/8/8/8/8/R3K3 w - - 100 80");
        browser.waitFor("#resign");
        assertEquals("Claim a draw", browser.text("#claim"));
        for (String v : new String[]{"shodo", "washogi"}) {
            browser.newGame(v, "hotseat", 0, null, null);
            browser.waitFor("#resign");
            assertTrue(browser.all("#claim").isEmpty(), v + ": no claim button");
        }
    }

    @Test
    void theMoveListHasOneRowPerMoveNumber() {
        browser.newGame("chess", "hotseat", 0, null, null);
        String[] moves = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "e1g1"};
        for (int i = 0; i < moves.length; i++) {
            browser.clickMove(moves[i], i % 2 == 0 ? "first" : "second");
            int ply = i + 1;
            browser.waiting(20).until(d -> browser.shownPly() == ply);
        }
        // a narrow list: a running paragraph would wrap inside the moves
        browser.js("document.getElementById('move-list').style.width = '10em';");
        browser.screenshot("defects-move-list");
        assertEquals("e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Bc5 O-O", browser.texts("#move-list button.mv"));
        Object bad = browser.js("const list = document.getElementById('move-list');"
                + " const tops = new Map(Array.from(list.querySelectorAll('.mvno')).map(e => [e.textContent, e]));"
                + " const out = [];"
                + " for (const b of list.querySelectorAll('button.mv')) {"
                + "   const n = Math.ceil(Number(b.dataset.ply) / 2) + '.';"
                + "   const no = tops.get(n);"
                + "   if (!no) { out.push('no number ' + n + ' for ' + b.textContent); continue; }"
                + "   const top = (e) => e.getBoundingClientRect().top;"
                + "   const bottom = (e) => e.getBoundingClientRect().bottom;"
                + "   if (Math.abs(no.offsetTop - b.offsetTop) > 3 || bottom(b) <= top(no) || top(b) >= bottom(no))"
                + "     out.push(n + ' at ' + no.offsetTop + ', ' + b.textContent + ' at ' + b.offsetTop);"
                + "   if (b.getClientRects().length !== 1) out.push(b.textContent + ' broken over lines');"
                + " }"
                + " return out.join('; ');");
        assertEquals("", bad);
        assertEquals(5L, browser.js("return document.querySelectorAll('#move-list .mvno').length;"));
        // the current move is marked, and a click on a move shows it
        assertEquals("9", browser.js("return document.querySelector('#move-list button.mv.current').dataset.ply;"));
        browser.clickRetrying("#move-list button.mv[data-ply='4']");
        browser.waiting(10).until(d -> browser.shownPly() == 4);
        assertEquals("4", browser.js("return document.querySelector('#move-list button.mv.current').dataset.ply;"));
        browser.clickRetrying("[data-nav='prev']");
        browser.waiting(10).until(d -> browser.shownPly() == 3);
        assertEquals("Nf3", browser.text("#move-list button.mv.current"));
        // a move made now joins the last row
        browser.clickRetrying("[data-nav='last']");
        browser.waiting(10).until(d -> browser.shownPly() == 9);
        browser.clickMove("d7d6", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 10);
        assertEquals(5L, browser.js("return document.querySelectorAll('#move-list .mv-row').length;"));
        assertEquals("d6", browser.js("return document.querySelector('#move-list .mv-row:last-child button.mv[data-ply=\"10\"]').textContent;"));
    }

    @Test
    void aGameTheSecondSideStartsHasAnEmptyFirstCell() {
        browser.newGame("chess", "hotseat", 0, null, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        browser.clickMove("e7e5", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        browser.clickMove("g1f3", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 2);
        assertEquals("1. … e5 2. Nf3", browser.js("return Array.from(document.querySelectorAll('#move-list .mv-row'))"
                + ".map(r => Array.from(r.children).map(c => c.textContent).filter(s => s).join(' ')).join(' ');"));
    }

    @Test
    void theShogiFamilyNumbersEveryPly() {
        // KIF and lishogi number each ply: one move a row, 1. 2. 3.
        browser.newGame("shogi", "hotseat", 0, null, null);
        browser.clickMove("c3c4", "first");
        browser.waiting(20).until(d -> browser.shownPly() == 1);
        browser.clickMove("g7g6", "second");
        browser.waiting(20).until(d -> browser.shownPly() == 2);
        assertEquals("1. P-7f 2. P-3d", browser.js("return Array.from(document.querySelectorAll('#move-list .mv-row'))"
                + ".map(r => Array.from(r.children).map(c => c.textContent).filter(s => s).join(' ')).join(' ');"));
    }

    @Test
    void aFinishedGameOffersANewOneWithTheSameSettings() throws Exception {
        // a game against the computer from a set-up position, as the second player: the next one keeps all of that
        String fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
        String first = browser.newGame("chess", "computer", 2, "second", fen);
        browser.waitFor("#resign").click();
        browser.waitFor("#resign.confirm").click();
        browser.waitFor("#again").click();
        browser.waiting(20).until(d -> d.getCurrentUrl().contains("/game/") && !d.getCurrentUrl().contains(first));
        browser.waitFor("svg.board");
        String url = browser.driver.getCurrentUrl();
        com.fasterxml.jackson.databind.JsonNode next = site.game(url.substring(url.indexOf("/game/") + 6));
        assertEquals("chess", next.get("variant").asText());
        assertEquals("computer", next.get("mode").asText());
        assertEquals("computer:2", next.get("players").get("first").asText());
        assertEquals(fen, next.get("initialFen").asText());
        assertEquals("active", next.get("status").asText());
    }

    @Test
    void theShogiRulesPageStatesNifuUchifuzumeAndImpasseAndHidesBetza() {
        // from the rule set's data: the pawn's one-file and no-mate drop rules, forced promotions, the impasse claim
        browser.open("/rules/shogi");
        browser.waitFor(".piece-card");
        String rules = browser.texts(".rules-list li");
        assertTrue(rules.contains("Nifu: a Pawn may not be dropped"), rules);
        assertTrue(rules.contains("Uchifuzume: a Pawn may not be dropped to give checkmate"), rules);
        assertTrue(rules.contains("Impasse:"), rules);
        assertTrue(rules.contains("A Knight must promote on the last 2 ranks, and may not be dropped there."), rules);
        assertTrue(rules.contains("A Pawn must promote on the last rank, and may not be dropped there."), rules);
        // Betza is there for engine authors, folded away
        assertEquals(0L, browser.js("return Array.from(document.querySelectorAll('details.betza')).filter(d => d.open).length;"));
        assertTrue((Long) browser.js("return document.querySelectorAll('details.betza code').length;") > 0);
        browser.screenshot("defects-rules-shogi");
        // Wa shogi without drops has no drop rules and no impasse
        browser.open("/rules/washogi");
        browser.waitFor(".piece-card");
        String wa = browser.texts(".rules-list li");
        assertTrue(!wa.contains("Nifu") && !wa.contains("Impasse"), wa);
    }
}
