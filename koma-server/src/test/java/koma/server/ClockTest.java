package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

/** The server's clock arithmetic: Fischer increments, byoyomi periods, flag times and the shown times. */
class ClockTest {
    @Test
    void fischerChargesTheMoveAndAddsTheIncrement() {
        Clock c = new Clock(Clock.Type.FISCHER, 60_000, 2_000, 0, 0);
        c.turnStartedAt = 1_000_000;
        assertEquals(1_060_000, c.flagAt(0));
        assertTrue(c.charge(0, 1_005_000));
        assertEquals(57_000, c.ms[0]); // 60 s - 5 s + 2 s
        c.turnStartedAt = 1_005_000;
        assertFalse(c.charge(1, 1_065_001), "61 s for a 60 s clock");
        assertEquals(60_000, c.ms[1], "a failed charge changes nothing");
    }

    @Test
    void byoyomiKeepsThePeriodWhenTheMoveIsInTimeAndLosesUsedUpPeriods() {
        Clock c = new Clock(Clock.Type.BYOYOMI, 10_000, 0, 5_000, 3);
        c.turnStartedAt = 100_000;
        assertEquals(100_000 + 10_000 + 3 * 5_000, c.flagAt(0));
        assertTrue(c.charge(0, 104_000));
        assertEquals(6_000, c.ms[0]);
        assertEquals(3, c.periodsLeft[0]);
        c.turnStartedAt = 200_000;
        // 6 s main time, then 4 s into the first period: main time gone, no period lost
        assertTrue(c.charge(0, 210_000));
        assertEquals(0, c.ms[0]);
        assertEquals(3, c.periodsLeft[0]);
        c.turnStartedAt = 300_000;
        // 11 s in byoyomi: two periods used up, the move comes in the third
        assertTrue(c.charge(0, 311_000));
        assertEquals(1, c.periodsLeft[0]);
        c.turnStartedAt = 400_000;
        assertFalse(c.charge(0, 405_001), "the last period ran out");
    }

    @Test
    void viewShowsTheRunningSidesTimeAtServerTime() {
        Clock c = new Clock(Clock.Type.BYOYOMI, 3_000, 0, 10_000, 2);
        c.turnStartedAt = 50_000;
        Map<String, Object> v = c.view(1, 57_500);
        @SuppressWarnings("unchecked")
        Map<String, Object> second = (Map<String, Object>) v.get("second");
        // 7.5 s used: 3 s main time, then 4.5 s of the first 10 s period
        assertEquals(5_500L, second.get("ms"));
        assertEquals(true, second.get("inByoyomi"));
        assertEquals(2, second.get("periods"));
        @SuppressWarnings("unchecked")
        Map<String, Object> first = (Map<String, Object>) v.get("first");
        assertEquals(3_000L, first.get("ms"));
        assertEquals("second", v.get("running"));
        assertEquals(57_500L, v.get("serverTime"));
    }
}
