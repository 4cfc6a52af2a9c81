package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.server.GameView.Seat;

/**
 * The in-game actions of a live game without HTTP or database (abort, takeback, rematch, chat, correspondence
 * clock): what each changes and its events, and each refusal with its kind (wrong seat, wrong state).
 */
class GameActionsTest {
    private static final RuleSet CHESS = RuleSet.of("chess");

    /** A friend game, first seat "a", joined by "b" at time 1000. */
    private static LiveGame friend(Clock clock) {
        LiveGame g = LiveGame.create("f1", CHESS, LiveGame.Mode.FRIEND, Position.start(CHESS), clock, List.of(), 0, 0,
                "a", "c", 1000);
        g.join(Seat.NONE, "b", 1000);
        return g;
    }

    private static GameError.Kind refused(Executable x) {
        return assertThrows(GameError.class, x).kind();
    }

    private static List<String> types(LiveGame.Change c) {
        return c.events().stream().map(e -> e.type).toList();
    }

    @Test
    void abortBeforeBothSidesMovedOnly() {
        LiveGame g = friend(Clock.none());
        assertEquals(GameError.Kind.FORBIDDEN, refused(() -> g.abort(Seat.NONE, 1)));
        g.move(Seat.FIRST, "e2e4", 0, 2);
        LiveGame.Change c = g.abort(Seat.SECOND, 3);
        assertEquals(List.of("status"), types(c));
        assertEquals("aborted", c.snapshot().termination());
        assertEquals(LiveGame.NO_RESULT, c.snapshot().winner());
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.abort(Seat.FIRST, 4)), "over already");

        LiveGame late = friend(Clock.none());
        late.move(Seat.FIRST, "e2e4", 0, 2);
        late.move(Seat.SECOND, "e7e5", 1, 3);
        assertEquals(GameError.Kind.CONFLICT, refused(() -> late.abort(Seat.FIRST, 4)), "both sides moved");

        // the creator of a friend game nobody joined may call it off
        LiveGame waiting = LiveGame.create("w1", CHESS, LiveGame.Mode.FRIEND, Position.start(CHESS), Clock.none(),
                List.of(), 0, 0, "a", "c", 1000);
        assertEquals("aborted", waiting.abort(Seat.FIRST, 5).snapshot().termination());
    }

    @Test
    void takebackRequestAcceptedUndoesTheAskersMoveAndTheReply() {
        LiveGame g = friend(Clock.none());
        g.move(Seat.FIRST, "e2e4", 0, 2);
        g.move(Seat.SECOND, "e7e5", 1, 3);
        GameSnapshot before = g.snapshot();
        // the first player, to move again, asks: its move and the reply go (two plies)
        assertEquals(GameError.Kind.FORBIDDEN, refused(() -> g.takeback(Seat.NONE, "offer", 4)));
        LiveGame.Change offer = g.takeback(Seat.FIRST, "offer", 4);
        assertEquals(List.of("takebackOffer"), types(offer));
        assertEquals("first", offer.events().get(0).fields.get("takebackOffer"));
        assertEquals(GameError.Kind.FORBIDDEN, refused(() -> g.takeback(Seat.FIRST, "accept", 5)), "not the asker");
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.takeback(Seat.SECOND, "offer", 5)), "answer first");
        LiveGame.Change done = g.takeback(Seat.SECOND, "accept", 5);
        assertEquals(List.of("takeback"), types(done));
        assertEquals(0, done.events().get(0).fields.get("ply"));
        assertEquals(0, done.truncateTo(), "the stored moves above ply 0 go");
        assertEquals(0, g.snapshot().ply());
        assertEquals("first", done.events().get(0).fields.get("sideToMove"));
        assertEquals(20, ((List<?>) done.events().get(0).fields.get("legalMoves")).size());
        // the snapshot taken before keeps its two moves
        assertEquals(2, before.ply());
        assertEquals("e7e5", before.history().get(1).get("move"));
        // the game goes on from the start position, with another move
        g.move(Seat.FIRST, "d2d4", 0, 6);
        assertEquals("d2d4", g.snapshot().history().get(0).get("move"));
        assertEquals(2, before.ply());
        assertEquals("e2e4", before.history().get(0).get("move"), "an old snapshot's moves are never overwritten");
    }

    @Test
    void takebackOfTheLastMoveWhileTheOpponentThinks() {
        LiveGame g = friend(Clock.none());
        g.move(Seat.FIRST, "e2e4", 0, 2);
        g.move(Seat.SECOND, "e7e5", 1, 3);
        g.move(Seat.FIRST, "g1f3", 2, 4);
        g.takeback(Seat.FIRST, "offer", 5);
        LiveGame.Change done = g.takeback(Seat.SECOND, "accept", 6);
        assertEquals(2, done.snapshot().ply(), "only the asker's own last move");
        assertEquals("e7e5", done.events().get(0).fields.get("lastMove"));
        assertEquals("first", done.events().get(0).fields.get("sideToMove"));
    }

    @Test
    void declinedTakebacksAreBoundedAndAMoveWithdrawsARequest() {
        LiveGame g = friend(Clock.none());
        g.move(Seat.FIRST, "e2e4", 0, 2);
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.takeback(Seat.SECOND, "offer", 3)),
                "the second player has no move to take back");
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.takeback(Seat.SECOND, "accept", 3)), "no request");
        for (int i = 0; i < LiveGame.MAX_TAKEBACK_REFUSALS; i++) {
            g.takeback(Seat.FIRST, "offer", 4);
            LiveGame.Change no = g.takeback(Seat.SECOND, "decline", 5);
            assertEquals(List.of("takebackOffer"), types(no));
            assertNull(no.events().get(0).fields.get("takebackOffer"));
        }
        assertEquals(GameError.Kind.TOO_MANY, refused(() -> g.takeback(Seat.FIRST, "offer", 6)));
        assertEquals(GameError.Kind.INVALID, refused(() -> g.takeback(Seat.FIRST, "please", 6)));

        LiveGame h = friend(Clock.none());
        h.move(Seat.FIRST, "e2e4", 0, 2);
        h.takeback(Seat.FIRST, "offer", 3);
        LiveGame.Change reply = h.move(Seat.SECOND, "e7e5", 1, 4);
        assertEquals(List.of("move", "takebackOffer"), types(reply), "the reply withdraws the request");
        assertEquals(-1, h.snapshot().actions().takebackOffer());
    }

    @Test
    void takebackInHotseatIsAtOnceAndRewindsRepetitions() {
        LiveGame g = LiveGame.create("h1", CHESS, LiveGame.Mode.HOTSEAT, Position.start(CHESS), Clock.none(), List.of(),
                0, 0, "h", "c", 0);
        String[] shuffle = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"};
        for (int i = 0; i < shuffle.length; i++) {
            g.move(Seat.BOTH, shuffle[i], i, i + 1);
        }
        // threefold: claimable; after the takeback of the last move not any more (the counts were rewound)
        LiveGame.Change c = g.takeback(Seat.BOTH, "offer", 20);
        assertEquals(List.of("takeback"), types(c));
        assertEquals(7, g.snapshot().ply());
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.claim(Seat.BOTH, "draw", 21)));
    }

    @Test
    void takebackChargesTheRunningClockWithoutIncrement() {
        LiveGame g = friend(new Clock(Clock.Type.FISCHER, 60_000, 2_000, 0, 0));
        g.move(Seat.FIRST, "e2e4", 0, 11_000); // first used 10 s, gets 2 s: 52 s
        g.takeback(Seat.FIRST, "offer", 12_000);
        g.takeback(Seat.SECOND, "accept", 16_000); // second thought 5 s: 55 s left, no increment
        Clock k = g.snapshot().clock();
        assertEquals(52_000, k.ms[0]);
        assertEquals(55_000, k.ms[1]);
        assertEquals(16_000, k.turnStartedAt, "the first player's time runs from the takeback");
        assertEquals(0, g.snapshot().current().sideToMove());
    }

    @Test
    void rematchOfferedAcceptedSwapsColours() {
        LiveGame g = friend(new Clock(Clock.Type.FISCHER, 60_000, 1_000, 0, 0));
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.rematch(Seat.FIRST, "offer", 2)), "not over");
        g.resign(Seat.SECOND, 3);
        assertEquals(GameError.Kind.FORBIDDEN, refused(() -> g.rematch(Seat.NONE, "offer", 4)));
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.rematch(Seat.SECOND, "accept", 4)), "no offer");
        LiveGame.Change offer = g.rematch(Seat.FIRST, "offer", 4);
        assertEquals(List.of("rematchOffer"), types(offer));
        assertTrue(!g.rematchStarts(Seat.FIRST, "accept"), "the offerer cannot accept its own offer");
        assertTrue(g.rematchStarts(Seat.SECOND, "accept"));
        LiveGame next = g.rematchGame("r1", "c", 5);
        LiveGame.Change agreed = g.rematchAgreed(Seat.SECOND, "r1", 5);
        assertEquals(List.of("rematch"), types(agreed));
        assertEquals("r1", g.rematchId());
        assertEquals(Seat.SECOND, next.seatOf("a"), "the first player of the old game plays second");
        assertEquals(Seat.FIRST, next.seatOf("b"));
        assertEquals("active", next.snapshot().status());
        assertEquals(60_000, next.snapshot().clock().ms[0]);
        assertEquals(1_000, next.snapshot().clock().incrementMs);
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.rematch(Seat.SECOND, "offer", 6)), "one rematch per game");
    }

    @Test
    void aDeclinedRematchIsFinalAndOnlyFriendGamesHaveThem() {
        LiveGame g = friend(Clock.none());
        g.resign(Seat.FIRST, 2);
        g.rematch(Seat.SECOND, "offer", 3);
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.rematch(Seat.SECOND, "decline", 4)), "own offer");
        g.rematch(Seat.FIRST, "decline", 4);
        assertEquals(GameError.Kind.CONFLICT, refused(() -> g.rematch(Seat.SECOND, "offer", 5)));
        LiveGame h = LiveGame.create("h2", CHESS, LiveGame.Mode.HOTSEAT, Position.start(CHESS), Clock.none(), List.of(),
                0, 0, "h", "c", 0);
        h.resign(Seat.BOTH, 1);
        assertEquals(GameError.Kind.CONFLICT, refused(() -> h.rematch(Seat.BOTH, "offer", 2)));
    }

    @Test
    void chatRoomsLimitsAndRefusals() {
        LiveGame g = friend(Clock.none());
        LiveGame.Change said = g.chat(Seat.FIRST, "x", "  <img src=x onerror=alert(1)>  ", 10_000);
        GameEvent e = said.events().get(0);
        assertEquals("chat", e.type);
        assertEquals("<img src=x onerror=alert(1)>", e.fields.get("text"), "trimmed, otherwise as given");
        assertEquals(GameEvent.Audience.SEATS, e.audience);
        assertEquals("{\"type\":\"skip\",\"version\":" + e.version + "}", e.jsonFor(Seat.NONE));
        assertNotNull(said.chat());
        LiveGame.Change spectator = g.chat(Seat.NONE, "1.2.3.4", "hello", 10_001);
        assertEquals(GameEvent.Audience.SPECTATORS, spectator.events().get(0).audience);
        assertTrue(spectator.events().get(0).jsonFor(Seat.FIRST).contains("skip"));
        assertEquals(1, g.snapshot().actions().playersChat().size());
        assertEquals(1, g.snapshot().actions().spectatorsChat().size());
        assertEquals(GameError.Kind.INVALID, refused(() -> g.chat(Seat.FIRST, "x", "   ", 10_002)));
        assertEquals(GameError.Kind.INVALID, refused(() -> g.chat(Seat.FIRST, "x", "a\nb", 10_002)));
        assertEquals(GameError.Kind.INVALID, refused(() -> g.chat(Seat.FIRST, "x", "x".repeat(141), 10_002)));
        // 140 characters outside the BMP are 280 UTF-16 units: still 140 characters
        g.chat(Seat.FIRST, "x", "\uD83D\uDE00".repeat(140), 10_003);
        for (int i = 0; i < LiveGame.CHAT_PER_SENDER - 2; i++) {
            g.chat(Seat.FIRST, "x", "m" + i, 10_004 + i);
        }
        GameError slow = assertThrows(GameError.class, () -> g.chat(Seat.FIRST, "x", "one more", 10_100));
        assertEquals(GameError.Kind.TOO_MANY, slow.kind());
        assertTrue(slow.retryAfter() > 0);
        g.chat(Seat.SECOND, "x", "the other player may still talk", 10_100);
        g.chat(Seat.FIRST, "x", "ten seconds later", 20_001);
    }

    @Test
    void aRoomTakesTwentyMessagesInTenSecondsFromAllItsSenders() {
        LiveGame g = friend(Clock.none());
        for (int i = 0; i < LiveGame.CHAT_PER_ROOM; i++) {
            g.chat(Seat.NONE, "client" + i, "m" + i, 50_000 + i);
        }
        GameError full = assertThrows(GameError.class, () -> g.chat(Seat.NONE, "newcomer", "hi", 50_100));
        assertEquals(GameError.Kind.TOO_MANY, full.kind());
        assertTrue(full.getMessage().contains("spectators' room"), full.getMessage());
        // the players' room is another room; once the window passed the newcomer may speak, its refusal not counted
        g.chat(Seat.FIRST, "x", "players talk", 50_100);
        for (int i = 0; i < LiveGame.CHAT_PER_SENDER; i++) {
            g.chat(Seat.NONE, "newcomer", "n" + i, 60_100 + i);
        }
    }

    @Test
    void chatHistoryKeepsTheLastHundredPerRoom() {
        LiveGame g = friend(Clock.none());
        for (int i = 0; i < LiveGame.CHAT_HISTORY + 5; i++) {
            g.chat(Seat.NONE, "client" + i, "m" + i, 1_000_000L + i * 1_000L);
        }
        List<java.util.Map<String, Object>> kept = g.snapshot().actions().spectatorsChat();
        assertEquals(LiveGame.CHAT_HISTORY, kept.size());
        assertEquals("m5", kept.get(0).get("text"));
        assertEquals("m" + (LiveGame.CHAT_HISTORY + 4), kept.get(kept.size() - 1).get("text"));
    }

    @Test
    void correspondenceClockGivesTheFullTimeForEachMove() {
        long day = Clock.DAY_MS;
        LiveGame g = friend(new Clock(Clock.Type.CORRESPONDENCE, 3 * day, 0, 0, 0));
        GameSnapshot s = g.snapshot();
        assertEquals(1000 + 3 * day, s.clock().flagAt(0));
        g.move(Seat.FIRST, "e2e4", 0, 1000 + 2 * day);
        Clock k = g.snapshot().clock();
        assertEquals(3 * day, k.ms[0], "the mover has the full three days again for its next move");
        assertEquals(1000 + 5 * day, k.flagAt(1));
        assertEquals(3L, k.view(1, 1000 + 2 * day).get("daysPerMove"));
        assertTrue(g.snapshot().clock().correspondence());
        // after its three days the second player's first move comes too late: between two people a flag before both
        // sides moved aborts the game (LiveGame.flag)
        LiveGame.FlagFell late = assertThrows(LiveGame.FlagFell.class,
                () -> g.move(Seat.SECOND, "e7e5", 1, 1000 + 5 * day + 1));
        assertEquals("aborted", late.change.snapshot().termination());
        assertEquals(LiveGame.NO_RESULT, late.change.snapshot().winner());
        // once both sides moved, a late move loses on time
        LiveGame h = friend(new Clock(Clock.Type.CORRESPONDENCE, 3 * day, 0, 0, 0));
        h.move(Seat.FIRST, "e2e4", 0, 2000);
        h.move(Seat.SECOND, "e7e5", 1, 3000);
        LiveGame.FlagFell lost = assertThrows(LiveGame.FlagFell.class,
                () -> h.move(Seat.FIRST, "g1f3", 2, 3000 + 3 * day + 1));
        assertEquals("time forfeit", lost.change.snapshot().termination());
        assertEquals(1, lost.change.snapshot().winner());
    }
}
