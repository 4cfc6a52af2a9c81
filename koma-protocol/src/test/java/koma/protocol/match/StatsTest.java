package koma.protocol.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Elo, error margin, LOS and SPRT against values worked out by hand (derivations in the comments). */
class StatsTest {
    private static final double EPS = 1e-6;

    /*
     * W = 12, L = 5, D = 3, N = 20.
     * p = (12 + 3/2) / 20 = 13.5 / 20 = 0.675.
     * Elo = -400 log10(1/0.675 - 1) = -400 log10(0.481481...) = -400 * (-0.3174204) = 126.96816.
     * Frequencies w = 0.6, d = 0.15, l = 0.25.
     * var = 0.6 * 0.325^2 + 0.15 * 0.175^2 + 0.25 * 0.675^2 = 0.063375 + 0.00459375 + 0.11390625 = 0.181875,
     * sigma = 0.4264681.
     * 95%: dev = 1.959964 * 0.4264681 / sqrt(20) = 0.1869044; p + dev = 0.8619044, p - dev = 0.4880956.
     * Elo(0.8619044) = -400 log10(0.1602214) = 318.11175; Elo(0.4880956) = -400 log10(1.0487791) = -8.27361.
     * margin = (318.11175 + 8.27361) / 2 = 163.19268.
     * LOS = 1/2 (1 + erf(7 / sqrt(34))) = 1/2 (1 + erf(1.2004901)) = 1/2 (1 + 0.9104449) = 0.9552225.
     * SPRT elo0 = 0, elo1 = 5: s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 0.5071951.
     * LLR = N (s1 - s0)(2p - s0 - s1) / (2 var) = 20 * 0.0071951 * (1.35 - 1.0071951) / 0.36375 = 0.1356156.
     * Bounds with alpha = beta = 0.05: ln(0.05/0.95) = -2.944439, ln(0.95/0.05) = 2.944439.
     */
    @Test
    void twelveFiveThree() {
        Stats s = new Stats(12, 5, 3);
        assertEquals(20, s.games());
        assertEquals(0.675, s.score(), EPS);
        assertEquals(126.96816, s.eloDiff(), 1e-4);
        assertEquals(Math.sqrt(0.181875), s.stdDevPerGame(), EPS);
        assertEquals(163.19268, s.eloMargin(), 1e-3);
        assertEquals(0.9552225, s.los(), 1e-6);
        assertEquals(0.1356156, s.llr(0, 5), 1e-6);
        assertEquals("Score of A vs B: 12 - 5 - 3 [0.675] 20", s.scoreLine("A", "B"));
        assertEquals("Elo difference: 127.0 +/- 163.2, LOS: 95.5 %", s.eloLine());
        Stats.Sprt sprt = Stats.Sprt.parse("elo0=0,elo1=5,alpha=0.05,beta=0.05");
        assertEquals(-2.944439, sprt.lowerBound(), 1e-6);
        assertEquals(2.944439, sprt.upperBound(), 1e-6);
        assertEquals(Stats.Sprt.Decision.CONTINUE, sprt.decide(s));
        assertEquals("SPRT: llr 0.136, lbound -2.944, ubound 2.944", sprt.line(s));
    }

    /*
     * W = 30, L = 10, D = 60, N = 100: p = 0.6, Elo = -400 log10(2/3) = 70.43650.
     * var = 0.3 * 0.4^2 + 0.6 * 0.1^2 + 0.1 * 0.6^2 = 0.048 + 0.006 + 0.036 = 0.09, sigma = 0.3.
     * dev = 1.959964 * 0.3 / 10 = 0.0587989: Elo(0.6587989) = 114.29699, Elo(0.5412011) = 28.69451,
     * margin = 42.80124.
     * LOS = 1/2 (1 + erf(20 / sqrt(80))) = 1/2 (1 + erf(2.2360680)) = 1/2 (1 + 0.9984346) = 0.9992173.
     * LLR(0, 5) = 100 * 0.0071951 * (1.2 - 1.0071951) / 0.18 = 0.7706929.
     * Ten times the games with the same proportions: LLR scales with N, 7.706929 > 2.944 -> H1; the mirror
     * image (100 wins, 300 losses, 600 draws: p = 0.4, same variance) gives
     * 1000 * 0.0071951 * (0.8 - 1.0071951) / 0.18 = -8.28214 < -2.944 -> H0.
     */
    @Test
    void thirtyTenSixty() {
        Stats s = new Stats(30, 10, 60);
        assertEquals(0.6, s.score(), EPS);
        assertEquals(70.43650, s.eloDiff(), 1e-4);
        assertEquals(0.3, s.stdDevPerGame(), EPS);
        assertEquals(42.80124, s.eloMargin(), 1e-3);
        assertEquals(0.9992173, s.los(), 1e-6);
        assertEquals(0.7706929, s.llr(0, 5), 1e-6);
        Stats.Sprt sprt = Stats.Sprt.parse("elo0=0,elo1=5");
        assertEquals(7.706929, new Stats(300, 100, 600).llr(0, 5), 1e-5);
        assertEquals(Stats.Sprt.Decision.H1, sprt.decide(new Stats(300, 100, 600)));
        assertEquals(-8.28214, new Stats(100, 300, 600).llr(0, 5), 1e-4);
        assertEquals(Stats.Sprt.Decision.H0, sprt.decide(new Stats(100, 300, 600)));
        assertTrue(sprt.line(new Stats(300, 100, 600)).endsWith("H1 was accepted"));
    }

    /**
     * A match stops at its decision; a game still in play then may take the LLR back inside the bounds (20 straight
     * wins: LLR 2.926, below 2.944), and the final line still reports the decision taken (as the Shodo net SPRT of
     * 2026-11-25 did not: H1 at game 193 at LLR 2.970, then 2.895 after game 194 and no verdict printed).
     */
    @Test
    void aDecisionTakenStandsInTheFinalLine() {
        Stats.Sprt sprt = Stats.Sprt.parse("elo0=0,elo1=5");
        Stats after = new Stats(20, 0, 0);
        assertEquals(Stats.Sprt.Decision.CONTINUE, sprt.decide(after));
        assertFalse(sprt.line(after).contains("accepted"), sprt.line(after));
        assertTrue(sprt.line(after, Stats.Sprt.Decision.H1).endsWith("H1 was accepted"));
    }

    /* Logistic model: Elo 0 <-> 0.5; Elo 400 <-> 10/11 (since 1/p - 1 = 1/10); round trip. */
    @Test
    void eloScoreRoundTrip() {
        assertEquals(0, Stats.elo(0.5), EPS);
        assertEquals(400, Stats.elo(10.0 / 11), 1e-9);
        assertEquals(10.0 / 11, Stats.scoreOf(400), 1e-12);
        for (double e = -800; e <= 800; e += 37.5) {
            assertEquals(e, Stats.elo(Stats.scoreOf(e)), 1e-9);
        }
    }

    /* p = 1 or 0: the Elo estimate is infinite and printed as such; LOS from W and L alone. */
    @Test
    void extremes() {
        Stats all = new Stats(4, 0, 0);
        assertEquals(Double.POSITIVE_INFINITY, all.eloDiff());
        // LOS = 1/2 (1 + erf(4 / sqrt(8))) = 1/2 (1 + erf(1.4142136)) = 1/2 (1 + 0.9544997) = 0.9772499
        assertEquals("Elo difference: inf +/- inf, LOS: 97.7 %", all.eloLine());
        assertEquals("Elo difference: -inf +/- inf, LOS: 2.3 %", new Stats(0, 4, 0).eloLine());
        assertEquals("Elo difference: 0.0 +/- 0.0, LOS: 50.0 %", new Stats(0, 0, 5).eloLine());
        // a zero win count is half a game: one won game is no evidence yet (it used to accept H1), straight wins
        // cross the bound 2.944 at the 21st game, all draws lean toward H0; with no games the LLR is 0. Values from
        // the formula above with w or l = 0.5 (python3): 1-0-0 0.0079197, 20-0-0 2.9258399, 21-0-0 above the bound,
        // 0-0-100 -1.0561952
        assertEquals(0.0079197, new Stats(1, 0, 0).llr(0, 5), 1e-6);
        assertEquals(2.9258399, new Stats(20, 0, 0).llr(0, 5), 1e-6);
        assertTrue(new Stats(21, 0, 0).llr(0, 5) > 2.944439);
        assertEquals(-1.0561952, new Stats(0, 0, 100).llr(0, 5), 1e-6);
        assertEquals(0, new Stats(0, 0, 0).llr(0, 5));
        // 30 wins, 1 loss: p = 30/31, var = (30 (1/31)^2 + (30/31)^2) / 31 = 0.0312175, s1 = 0.5071951:
        // LLR = 31 * 0.0071951 * (1.9354839 - 1.0071951) / 0.0624350 = 3.3162913 (python3, as above) -> H1
        assertEquals(3.3162913, new Stats(30, 1, 0).llr(0, 5), 1e-6);
        assertEquals("Elo difference: 0.0 +/- inf, LOS: 50.0 %", new Stats(0, 0, 0).eloLine());
    }

    /* erf against tabulated values: erf(0.5) = 0.5204999, erf(1) = 0.8427008, erf(2) = 0.9953223, odd. */
    @Test
    void erf() {
        assertEquals(0, Stats.erf(0), 1e-7);
        assertEquals(0.5204999, Stats.erf(0.5), 2e-7);
        assertEquals(0.8427008, Stats.erf(1), 2e-7);
        assertEquals(0.9953223, Stats.erf(2), 2e-7);
        assertEquals(-0.8427008, Stats.erf(-1), 2e-7);
    }

    @Test
    void badSprt() {
        assertThrows(IllegalArgumentException.class, () -> Stats.Sprt.parse("elo0=5,elo1=0"));
        assertThrows(IllegalArgumentException.class, () -> Stats.Sprt.parse("elo0=0"));
        assertThrows(IllegalArgumentException.class, () -> Stats.Sprt.parse("elo0=0,elo1=5,gamma=1"));
        assertThrows(IllegalArgumentException.class, () -> Stats.Sprt.parse("elo0=0,elo1=5,alpha=1.5"));
    }
}
