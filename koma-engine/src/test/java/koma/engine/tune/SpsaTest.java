package koma.engine.tune;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import koma.engine.SearchDefaults;
import koma.engine.SearchParam;
import koma.rules.RuleSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SPSA tuner: fishtest's schedules, its state file, and a run that resumes where it stopped. */
class SpsaTest {
    private static final List<SearchParam> TWO = List.of(SearchParam.FUTILITY_BASE, SearchParam.RFP_MARGIN);

    private static Spsa.Settings settings(int iterations, int threads) {
        return new Spsa.Settings(RuleSet.of("chess"), SearchDefaults.forRuleSet("chess"), TWO, iterations, 300, 8,
                120, 7, threads, 0.05, 1);
    }

    /**
     * The schedules are fishtest's: at the last iteration the step c_k is the parameter's step (c_end) and a_k / c_k^2
     * is r_end; at the first, c_1 = c_end N^0.101 and a_1 = r_end c_end^2 (1.1 N / 0.1 N + 1)^0.602.
     */
    @Test
    void schedulesAreFishtests() {
        Spsa.Settings s = settings(1000, 1);
        for (SearchParam p : TWO) {
            assertEquals(p.step, s.c(p, 1000), 1e-9);
            assertEquals(0.05, s.a(p, 1000) / Math.pow(s.c(p, 1000), 2), 1e-12);
            assertEquals(p.step * Math.pow(1000, 0.101), s.c(p, 1), 1e-9);
            assertEquals(0.05 * p.step * p.step * Math.pow(1100.0 / 101, 0.602), s.a(p, 1), 1e-9);
        }
    }

    /** Bad settings are refused naming what is wrong. */
    @Test
    void badSettingsAreRefused() {
        RuleSet chess = RuleSet.of("chess");
        SearchDefaults d = SearchDefaults.forRuleSet("chess");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Spsa.Settings(chess, d, List.of(), 10, 300, 8, 120, 1, 1, 0.002, 1));
        assertTrue(e.getMessage().contains("no parameter"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Spsa.Settings(chess, d,
                List.of(SearchParam.ASPIRATION, SearchParam.ASPIRATION), 10, 300, 8, 120, 1, 1, 0.002, 1));
        assertTrue(e.getMessage().contains("named twice"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Spsa.Settings(chess, d, TWO, 10, 300, 8, 120, 1, 1, 0, 1));
        assertTrue(e.getMessage().contains("r-end"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new Spsa.Settings(chess, d, TWO, 0, 300, 8, 120, 1, 1, 0.002, 1));
        assertTrue(e.getMessage().contains("iterations"), e.getMessage());
    }

    /**
     * The state file round-trips exactly; a file for other parameters, without its 'done' line, or with a line of
     * another format is refused naming the file and what is wrong.
     */
    @Test
    void stateFileRoundTripsAndBadFilesAreRefused() {
        Spsa.Settings s = settings(10, 1);
        Spsa.State st = new Spsa.State(3, new double[] {81.123456789, 119.5}, 2, 3, 1);
        Spsa.State back = Spsa.State.parse(st.format(s), s, "f");
        assertEquals(3, back.done());
        assertArrayEquals(st.theta(), back.theta());
        assertArrayEquals(new long[] {2, 3, 1}, back.wld());
        assertEquals("futility-base = 81\nrfp-margin = 120\n", back.searchLines(s));
        Spsa.Settings other = new Spsa.Settings(RuleSet.of("chess"), SearchDefaults.forRuleSet("chess"),
                List.of(SearchParam.ASPIRATION), 10, 300, 8, 120, 7, 1, 0.05, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Spsa.State.parse(st.format(s), other, "f"));
        assertTrue(e.getMessage().contains("f: tunes [futility-base, rfp-margin], but this run tunes [aspiration]"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Spsa.State.parse("wld 0 0 0\n", s, "f"));
        assertTrue(e.getMessage().contains("f: no 'done'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Spsa.State.parse(st.format(s) + "futility 3\n", s, "f"));
        assertTrue(e.getMessage().contains("f:6: expected"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Spsa.State.parse("done x\n", s, "f"));
        assertTrue(e.getMessage().contains("f:1: not a number"), e.getMessage());
    }

    /**
     * Real games (chess, 300 nodes a move): six iterations in one run, and the same six as three, then three more
     * resumed from the state file written after the third, end with the same theta and W-L-D (one thread:
     * deterministic). Every pair was counted (W + L + D = 12 games). (At 300 nodes a move both sides mostly play
     * the same moves, so a pair is mostly one win each and theta may not move: {@link #anIterationMovesTheta}.)
     */
    @Test
    void aRunResumesFromItsStateFile(@TempDir Path dir) throws Exception {
        Spsa.Settings s = settings(6, 1);
        List<String> lines = new java.util.ArrayList<>();
        Spsa.State straight = new Spsa(s, Spsa.State.start(s), null, lines::add).run();
        assertEquals(6, straight.done());
        assertEquals(6, lines.size());
        long[] wld = straight.wld();
        assertEquals(12, wld[0] + wld[1] + wld[2]);
        Path file = dir.resolve("spsa.state");
        Spsa.State first = new Spsa(s, Spsa.State.start(s), file, null).run(3);
        assertEquals(3, first.done());
        assertEquals(3, Spsa.State.parse(Files.readString(file), s, "f").done());
        Spsa.State resumed = new Spsa(s, Spsa.State.parse(Files.readString(file), s, "f"), file, null).run();
        assertEquals(6, resumed.done());
        assertArrayEquals(straight.theta(), resumed.theta());
        assertArrayEquals(straight.wld(), resumed.wld());
    }

    /**
     * An iteration moves each theta_i by a_k / c_k x R x d_i (fishtest's update): a pair the upper side won 2-0 at
     * k = 1 with signs (+1, -1) raises futility-base and lowers rfp-margin by a_1 / c_1 x 2 each; a 1-1 pair moves
     * nothing; W-L-D and the iterations done count the games; a value is held to its parameter's range.
     */
    @Test
    void anIterationMovesTheta() {
        Spsa.Settings s = settings(100, 1);
        Spsa.State st = Spsa.State.start(s);
        SearchParam fb = SearchParam.FUTILITY_BASE, rfp = SearchParam.RFP_MARGIN;
        // the start is chess.search's values (the built-in file's, since stop 77 the tuned ones)
        SearchDefaults chess = SearchDefaults.forRuleSet("chess");
        assertEquals(chess.param(fb), st.theta()[0]);
        assertEquals(chess.param(rfp), st.theta()[1]);
        Spsa run = new Spsa(s, st, null, null);
        run.apply(1, new int[] {1, -1}, 2, 1, 1);
        assertEquals(chess.param(fb) + s.a(fb, 1) / s.c(fb, 1) * 2, st.theta()[0], 1e-9);
        assertEquals(chess.param(rfp) - s.a(rfp, 1) / s.c(rfp, 1) * 2, st.theta()[1], 1e-9);
        double[] before = st.theta();
        run.apply(2, new int[] {1, 1}, 0, 1, 0);
        assertArrayEquals(before, st.theta());
        assertArrayEquals(new long[] {3, 1, 0}, st.wld());
        assertEquals(2, st.done());
        for (int k = 3; k < 2000; k++) {
            run.apply(k, new int[] {-1, -1}, 2, 1, 1);
        }
        assertEquals(fb.min, st.theta()[0]);
        assertEquals(rfp.min, st.theta()[1]);
    }
}
