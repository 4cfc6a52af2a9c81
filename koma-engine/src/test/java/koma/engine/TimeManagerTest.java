package koma.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The time budget keeps its reserve: the hard limit never reaches the clock, whatever the clock shows. */
class TimeManagerTest {
    private final TimeManager tm = new TimeManager(30);

    @Test
    void hardLimitStaysBelowTheClockMinusTheOverhead() {
        for (long main = 0; main <= 5000; main += 7) {
            for (long inc : new long[]{0, 10, 100, 1000}) {
                long[] b = tm.budget(new Limits(main, main, inc, inc, 0, 0, -1, 0, -1, false), 0);
                assertTrue(b[0] >= 1 && b[0] <= b[1], "soft within hard at " + main + "+" + inc);
                assertTrue(b[1] <= Math.max(1, main - 30) + inc / 2,
                        "hard " + b[1] + " ms at " + main + "+" + inc + " leaves no reserve");
            }
        }
    }

    @Test
    void byoyomiKeepsAFifthAndTheOverheadOfThePeriod() {
        long[] b = tm.budget(new Limits(0, 0, 0, 0, 0, 100, -1, 0, -1, false), 0);
        assertEquals(50, b[1], "100 ms byoyomi: 100 - 30 overhead - 20 reserve");
        assertEquals(50, b[0], "the whole period: time left in it is lost");
        long[] thirty = tm.budget(new Limits(0, 0, 0, 0, 0, 30_000, -1, 0, -1, false), 0);
        assertEquals(28_970, thirty[1], "30 s byoyomi: 30000 - 30 overhead - 1000 reserve (a fifth, at most 1 s)");
        assertEquals(28_970, thirty[0]);
    }

    @Test
    void moveTimeAndInfinite() {
        assertEquals(210, tm.budget(Limits.moveTime(300), 0)[1], "300 - 30 overhead - 60 reserve");
        assertEquals(50, tm.budget(Limits.moveTime(100), 0)[1], "100 - 30 overhead - 20 reserve");
        assertEquals(4870, tm.budget(Limits.moveTime(5000), 0)[1], "5000 - 30 overhead - 100 reserve");
        assertEquals(-1, tm.budget(Limits.forever(), 0)[1]);
        assertEquals(-1, tm.budget(Limits.depth(5), 1)[0]);
    }

    @Test
    void oneSecondPlusTenMillisecondsSpendsAboutAThirtiethPerMove() {
        long[] b = tm.budget(new Limits(1000, 1000, 10, 10, 0, 0, -1, 0, -1, false), 1);
        // usable = 1000 - 30 - 62 = 908; soft = 908 / 30 + 7 = 37; hard = min(908 / 5 + 10, 4 * 37) = 148
        assertEquals(37, b[0]);
        assertEquals(148, b[1]);
    }

    /** A rule set's time-horizon shares the main time over that many moves (shogi's .search sets one). */
    @Test
    void theHorizonSharesTheClockOverThatManyMoves() {
        Limits tenPlusOne = new Limits(10_000, 10_000, 100, 100, 0, 0, -1, 0, -1, false);
        // usable = 10000 - 30 - 100 = 9870; soft = 9870 / H + 75; hard = min(9870 / 5 + 100, 4 x soft)
        assertEquals(9870 / 30 + 75, tm.budget(tenPlusOne, 0)[0], "the default horizon, 30 moves");
        assertEquals(9870 / 50 + 75, tm.budget(tenPlusOne, 0, 50)[0]);
        assertEquals(4 * (9870 / 50 + 75), tm.budget(tenPlusOne, 0, 50)[1]);
        assertEquals(9870 / 20 + 75, tm.budget(new Limits(10_000, 10_000, 100, 100, 20, 0, -1, 0, -1, false), 0, 50)[0],
                "moves-to-go, when the clock gives it, wins over the horizon");
        assertEquals(50, SearchDefaults.parse("time-horizon = 50", "t").timeHorizon());
        assertEquals(TimeManager.HORIZON, SearchDefaults.parse("", "t").timeHorizon());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SearchDefaults.parse("time-horizon = 0", "t"));
        assertTrue(e.getMessage().contains("time-horizon"), e.getMessage());
    }

    /**
     * The soft limit's factor under time-scaling (Ethereal's): 1.5 x (1.2 - 0.04 x stability, at most 10) x (score
     * fall / 20, within 0.75..1.25) x (2 x the other moves' share of the nodes + 0.4, at least 0.5).
     */
    @Test
    void theSoftLimitShrinksWhenTheSearchIsSettledAndGrowsWhenNot() {
        // best move held 10 iterations, score steady, 90% of the nodes on it: 1.5 x 0.8 x 0.75 x 0.6
        assertEquals(0.54, Search.softScale(10, 0, 90, 100), 1e-9);
        // a new best move, the score 40 cp down, 30% of the nodes on it: 1.5 x 1.2 x 1.25 x 1.8
        assertEquals(4.05, Search.softScale(0, 40, 30, 100), 1e-9);
        // the same held 20 iterations counts as 10; a rising score as a steady one; no nodes counted as half
        assertEquals(Search.softScale(10, 0, 5, 10), Search.softScale(20, -100, 5, 10), 1e-9);
        assertEquals(Search.softScale(3, 10, 1, 2), Search.softScale(3, 10, 0, 0), 1e-9);
        assertTrue(SearchDefaults.parse("time-scaling = 1", "t").timeScaling());
        assertTrue(!SearchDefaults.parse("", "t").timeScaling());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SearchDefaults.parse("time-scaling = 2", "t"));
        assertTrue(e.getMessage().contains("time-scaling"), e.getMessage());
    }

    @Test
    void aLowClockWithAnIncrementSpendsAtMostHalfTheIncrement() {
        // below overhead + four increments the search may use only half the increment, so the clock grows back
        for (long main = 0; main <= 70; main++) {
            long[] b = tm.budget(new Limits(main, main, 10, 10, 0, 0, -1, 0, -1, false), 0);
            assertTrue(b[1] <= 5, "hard " + b[1] + " ms at " + main + "+10");
        }
    }
}
