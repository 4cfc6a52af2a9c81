package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Glicko-2 against the worked example of Glickman's paper "Example of the Glicko-2 system". */
class Glicko2Test {
    @Test
    void glickmansWorkedExample() {
        // The paper's player 1500/200/0.06 against 1400/30 (win), 1550/100 (loss), 1700/300 (loss) with tau = 0.5:
        // the paper gives r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
        Glicko2.Rating p = new Glicko2.Rating(1500, 200, 0.06);
        Glicko2.Rating after = Glicko2.update(p, new Glicko2.Result[]{
                new Glicko2.Result(new Glicko2.Rating(1400, 30, 0.06), 1),
                new Glicko2.Result(new Glicko2.Rating(1550, 100, 0.06), 0),
                new Glicko2.Result(new Glicko2.Rating(1700, 300, 0.06), 0)}, 0.5, false);
        assertEquals(1464.06, after.rating(), 0.01);
        assertEquals(151.52, after.deviation(), 0.01);
        assertEquals(0.05999, after.volatility(), 0.00001);
    }

    @Test
    void noGamesOnlyWidensTheDeviation() {
        // step 6 of the paper: phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale
        Glicko2.Rating after = Glicko2.update(new Glicko2.Rating(1500, 200, 0.06), new Glicko2.Result[0], Glicko2.TAU, false);
        double phi = 200 / Glicko2.SCALE;
        assertEquals(Math.sqrt(phi * phi + 0.0036) * Glicko2.SCALE, after.deviation(), 1e-9);
        assertEquals(1500, after.rating(), 1e-9);
    }

    @Test
    void aGameMovesBothPlayersOppositeWays() {
        Glicko2.Rating[] r = Glicko2.game(Glicko2.Rating.START, Glicko2.Rating.START, 1);
        assertTrue(r[0].rating() > 1500 && r[1].rating() < 1500);
        // symmetric players: the winner gains what the loser loses
        assertEquals(r[0].rating() - 1500, 1500 - r[1].rating(), 1e-9);
        assertTrue(r[0].provisional(), "one game leaves the deviation above 110");
        Glicko2.Rating[] d = Glicko2.game(Glicko2.Rating.START, Glicko2.Rating.START, 0.5);
        assertEquals(1500, d[0].rating(), 1e-9);
        assertTrue(d[0].deviation() < 350);
        assertFalse(new Glicko2.Rating(1500, 100, 0.06).provisional());
    }
}
