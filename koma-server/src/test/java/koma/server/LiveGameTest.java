package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.server.GameView.Seat;

/**
 * The owner of a live game without HTTP or database: each change returns its events with consecutive versions,
 * snapshots never change after they are taken, refusals are domain errors of the right kind, and the rules that
 * end games nobody plays and that give back a restart's downtime.
 */
class LiveGameTest {
    private static final RuleSet CHESS = RuleSet.of("chess");

    private static LiveGame hotseat(String fen, Clock clock, long now) {
        Position start = fen == null ? Position.start(CHESS) : Fen.parse(CHESS, fen);
        return LiveGame.create("g1", CHESS, LiveGame.Mode.HOTSEAT, start, clock, List.of(), 0, 0, "h", "c", now);
    }

    private static List<String> types(LiveGame.Change c) {
        return c.events().stream().map(e -> e.type).toList();
    }

    @Test
    void everyEventTakesTheNextVersion() {
        LiveGame g = hotseat(null, Clock.none(), 1000);
        assertEquals(0, g.snapshot().version());
        LiveGame.Change m1 = g.move(Seat.BOTH, "e2e4", 0, 1001);
        assertEquals(List.of("move"), types(m1));
        assertEquals(1, m1.events().get(0).version);
        assertEquals("e2e4", m1.move());
        assertEquals(1, m1.ply());
        LiveGame.Change offer = g.draw(Seat.BOTH, "offer", 1002); // hot-seat: the side to move (second) offers
        assertEquals(List.of("drawOffer"), types(offer));
        assertEquals(2, offer.events().get(0).version);
        assertEquals("second", offer.events().get(0).fields.get("drawOffer"));
        // the first player moves instead of answering: the offer is declined with the move, two events
        LiveGame.Change m2 = g.move(Seat.BOTH, "e7e5", 1, 1003);
        assertEquals(List.of("move"), types(m2), "the second player moved: its own offer stands");
        LiveGame.Change m3 = g.move(Seat.BOTH, "g1f3", 2, 1004);
        assertEquals(List.of("move", "drawOffer"), types(m3));
        assertEquals(List.of(4, 5), m3.events().stream().map(e -> e.version).toList());
        assertEquals(5, g.snapshot().version());
    }

    @Test
    void aMateGivesAMoveThenAStatusEvent() {
        LiveGame g = hotseat(null, Clock.none(), 0);
        String[] fools = {"f2f3", "e7e5", "g2g4"};
        for (int i = 0; i < fools.length; i++) {
            g.move(Seat.BOTH, fools[i], i, i);
        }
        LiveGame.Change mate = g.move(Seat.BOTH, "d8h4", 3, 10);
        assertEquals(List.of("move", "status"), types(mate));
        assertEquals("finished", mate.events().get(1).fields.get("status"));
        assertEquals(List.of(), mate.events().get(0).fields.get("legalMoves"));
        GameError after = assertThrows(GameError.class, () -> g.move(Seat.BOTH, "a2a3", 4, 11));
        assertEquals(GameError.Kind.CONFLICT, after.kind());
    }

    @Test
    void snapshotsDoNotChangeAfterTheyAreTaken() {
        LiveGame g = hotseat(null, Clock.none(), 0);
        g.move(Seat.BOTH, "d2d4", 0, 1);
        GameSnapshot before = g.snapshot();
        String fen = Fen.format(before.current());
        for (String m : new String[]{"d7d5", "c2c4", "e7e6"}) {
            g.move(Seat.BOTH, m, g.snapshot().ply(), 2);
        }
        assertEquals(1, before.ply());
        assertEquals(1, before.history().size());
        assertEquals(fen, Fen.format(before.current()));
        assertEquals(1, before.version());
        assertEquals(4, g.snapshot().history().size());
    }

    @Test
    void refusalsAreDomainErrorsOfTheirKind() {
        LiveGame g = hotseat(null, Clock.none(), 0);
        assertEquals(GameError.Kind.INVALID, assertThrows(GameError.class, () -> g.move(Seat.BOTH, "e2e5", 0, 1)).kind());
        assertEquals(GameError.Kind.INVALID, assertThrows(GameError.class, () -> g.move(Seat.BOTH, "zz", 0, 1)).kind());
        assertEquals(GameError.Kind.FORBIDDEN, assertThrows(GameError.class, () -> g.move(Seat.NONE, "e2e4", 0, 1)).kind());
        assertEquals(GameError.Kind.FORBIDDEN, assertThrows(GameError.class, () -> g.move(Seat.SECOND, "e2e4", 0, 1)).kind());
        assertEquals(GameError.Kind.CONFLICT, assertThrows(GameError.class, () -> g.move(Seat.BOTH, "e2e4", 3, 1)).kind());
        g.move(Seat.BOTH, "e2e4", 0, 1);
        assertNull(g.move(Seat.BOTH, "e2e4", 0, 2), "the same request again is no change");
        assertEquals(1, g.snapshot().version());
    }

    @Test
    void abandonmentAbortsBeforeBothSidesMovedElseTheSideToMoveLoses() {
        LiveGame early = hotseat(null, Clock.none(), 0);
        early.move(Seat.BOTH, "e2e4", 0, 1);
        LiveGame.Change aborted = early.abandon(100);
        assertEquals("aborted", aborted.snapshot().termination());
        assertEquals(LiveGame.NO_RESULT, aborted.snapshot().winner());
        assertEquals("*", GameView.result(aborted.snapshot().winner(), aborted.snapshot().termination()).get("text"));

        LiveGame late = hotseat(null, Clock.none(), 0);
        late.move(Seat.BOTH, "e2e4", 0, 1);
        late.move(Seat.BOTH, "e7e5", 1, 2);
        LiveGame.Change abandoned = late.abandon(100);
        assertEquals("abandoned", abandoned.snapshot().termination());
        assertEquals(1, abandoned.snapshot().winner(), "the first player was to move and loses");
        assertEquals(List.of("status"), types(abandoned));

        LiveGame clocked = hotseat(null, new Clock(Clock.Type.FISCHER, 60_000, 0, 0, 0), 1_000_000);
        assertNull(clocked.abandon(1_000_100), "a running clock ends the game by itself");
    }

    @Test
    void aRestartGivesBackTheDowntime() {
        Clock k = new Clock(Clock.Type.FISCHER, 60_000, 0, 0, 0);
        LiveGame g = hotseat(null, k, 10_000);
        // the turn started at 10 000; the server was last alive at 14 000 and restarts at 50 000
        g.resumeClock(14_000, 50_000);
        Clock c = g.snapshot().clock();
        assertEquals(46_000, c.turnStartedAt, "36 s of downtime given back");
        assertEquals(60_000 - 4_000, c.remaining(0, 50_000), "only the 4 s before the stop are charged");
        assertNull(hotseat(null, Clock.none(), 0).resumeClock(1, 2), "no running clock, nothing to give back");
    }

    @Test
    void aMoveAfterTheFlagFellEndsTheGameByTime() {
        // (times are epoch ms: a turn start of 0 would mean a stopped clock)
        LiveGame g = hotseat(null, new Clock(Clock.Type.FISCHER, 1_000, 0, 0, 0), 1_000_000);
        LiveGame.FlagFell f = assertThrows(LiveGame.FlagFell.class, () -> g.move(Seat.BOTH, "e2e4", 0, 1_005_000));
        assertEquals("time forfeit", f.change.snapshot().termination());
        assertEquals(List.of("status"), types(f.change));
        assertTrue(g.snapshot().finished());
        assertEquals(0, g.snapshot().ply(), "the late move was not played");
    }
}
