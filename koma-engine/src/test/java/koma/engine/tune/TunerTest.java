package koma.engine.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.engine.Evaluation;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Self-play data are reproducible and well formed; the tuner lowers the loss and its K fit is a minimum. */
class TunerTest {
    static final RuleSet CHESS = RuleSet.of("chess");
    static List<SelfPlay.GameData> games;

    @BeforeAll
    static void play() {
        games = SelfPlay.run(new SelfPlay.Settings(CHESS, 8, 400, 8, 200, 11, 2), null);
    }

    static List<Sample> samples() {
        List<Sample> all = new ArrayList<>();
        games.forEach(g -> all.addAll(g.samples()));
        return all;
    }

    @Test
    void selfPlayIsDeterministicWhateverTheThreads() {
        List<SelfPlay.GameData> again = SelfPlay.run(new SelfPlay.Settings(CHESS, 8, 400, 8, 200, 11, 1), null);
        assertEquals(games, again);
    }

    /**
     * A lower adjudication bound ends games sooner, as a win for the side the last quiet scores favour, and a bound
     * out of range is refused by name. (The 8 games at 1500 cp are the class's; no numbers are assumed but that a
     * bound of 150 adjudicates at least one of them.)
     */
    @Test
    void adjudicationBoundEndsGamesForTheSideAhead() {
        List<SelfPlay.GameData> low = SelfPlay.run(new SelfPlay.Settings(CHESS, 8, 400, 8, 200, 11, 2, null, 150),
                null);
        int adjudicated = 0;
        for (int i = 0; i < games.size(); i++) {
            SelfPlay.GameData g = low.get(i);
            assertTrue(g.plies() <= games.get(i).plies(), "game " + i + " longer with the lower bound");
            if (g.termination().equals("adjudicated")) {
                adjudicated++;
                assertTrue(g.result() != 0.5, "an adjudicated game is decided");
                Sample last = g.samples().get(g.samples().size() - 1);
                String[] f = last.fen().split(" ");
                int ply = (Integer.parseInt(f[5]) - 1) * 2 + (f[1].equals("w") ? 0 : 1) - 8;
                if (ply >= g.plies() - 4) {   // one of the 4 scores the adjudication saw
                    int forWhite = f[1].equals("w") ? last.score() : -last.score();
                    assertEquals(g.result() == 1, forWhite > 0, "game " + i + " adjudicated against its last score");
                }
            }
        }
        assertTrue(adjudicated > 0, "no game adjudicated at 150 cp");
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new SelfPlay.Settings(CHESS, 8, 400, 8, 200, 11, 2, null, 0));
        assertTrue(e.getMessage().contains("adjudication bound"), e.getMessage());
    }

    @Test
    void samplesAreQuietAndLabelledForTheSideToMove() {
        List<Sample> all = samples();
        assertTrue(all.size() > 50, "only " + all.size() + " positions");
        for (SelfPlay.GameData g : games) {
            for (Sample s : g.samples()) {
                Position p = Fen.parse(CHESS, s.fen());
                assertTrue(!p.inCheck(), s.fen());
                assertEquals(p.sideToMove() == 0 ? g.result() : 1 - g.result(), s.result(), s.fen());
            }
        }
    }

    @Test
    void dataFileRoundTrip(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("data.txt");
        Sample.write(f, samples());
        assertEquals(samples(), Sample.read(f));
    }

    /**
     * The tuner recovers known weights: results drawn from sigmoid(eval / 400) of the built-in chess weights
     * (a fixed seed) on the self-play positions, tuning starts from a pawn worth 900 and must bring it back near
     * 100 while the loss falls; the same run gives the same weights. Only the piece values are tuned (the rest
     * frozen at their true values): with every weight free, the pawn value and the pawns' square table trade off
     * along a ridge, and where the search ends on that ridge depends on the sample (after the quiescence change of
     * f630874 the same test ended at a pawn of 340).
     */
    @Test
    void tuningRecoversKnownWeights() {
        Map<String, Integer> good = new Evaluation(CHESS).weights();
        Evaluation truth = new Evaluation(CHESS, good);
        java.util.Random rng = new java.util.Random(5);
        List<Sample> drawn = new ArrayList<>();
        for (Sample s : samples()) {
            double pWin = Tuner.sigmoid(1, truth.evaluate(Fen.parse(CHESS, s.fen())));
            drawn.add(new Sample(s.game(), s.fen(), rng.nextDouble() < pWin ? 1 : 0, 0));
        }
        Map<String, Integer> bad = new LinkedHashMap<>(good);
        bad.put("P", 900);
        Tuner t = new Tuner(CHESS, bad, drawn);
        java.util.Set<String> pieces = java.util.Set.of("P", "N", "B", "R", "Q");
        t.freeze(t.keys().stream().filter(key -> !pieces.contains(key)).toList());
        int[] w0 = t.vector(bad);
        double k = 1;
        double before = t.loss(w0, k);
        int[] w = t.optimise(w0, k, new int[] {16, 4}, 60, 5, null, null);
        double after = t.loss(w, k);
        assertTrue(after < before, after + " vs " + before);
        int p = t.keys().indexOf("P");
        // the true pawn is 100; this sample brings it back to 140 (from 900)
        assertTrue(w[p] > 30 && w[p] < 250, "pawn " + w[p]);
        assertEquals(java.util.Arrays.toString(w), java.util.Arrays.toString(t.optimise(w0, k, new int[] {16, 4}, 60, 5,
                null, null)));
    }

    /** With held-out positions the result is never worse on them than the start (early stopping keeps the best). */
    @Test
    void earlyStoppingNeverLosesOnHeldOutPositions() {
        Map<String, Integer> start = new LinkedHashMap<>(new Evaluation(CHESS).weights());
        start.put("N", 150);
        List<Sample> train = new ArrayList<>(), test = new ArrayList<>();
        for (Sample s : samples()) {
            (s.game() % 2 == 0 ? train : test).add(s);
        }
        Tuner t = new Tuner(CHESS, start, train), held = new Tuner(CHESS, start, test);
        int[] w0 = t.vector(start);
        double k = t.fitK(w0);
        int[] w = t.optimise(w0, k, new int[] {16, 4}, 30, 5, held, null);
        assertTrue(held.loss(w, k) <= held.loss(w0, k));
        assertTrue(t.loss(w, k) <= t.loss(w0, k));
    }

    /** A frozen weight keeps its value while the others move. */
    @Test
    void frozenWeightsStay() {
        Map<String, Integer> start = new LinkedHashMap<>(new Evaluation(CHESS).weights());
        start.put("P", 400);
        start.put("N", 900);
        Tuner t = new Tuner(CHESS, start, samples());
        t.freeze(List.of("P"));
        int[] w0 = t.vector(start);
        int[] w = t.optimise(w0, t.fitK(w0), new int[] {16}, 20, 5, null, null);
        assertEquals(400, w[t.keys().indexOf("P")]);
        assertTrue(w[t.keys().indexOf("N")] != 900);
    }

    /** The fitted K is a minimum: a little more or less gives a higher loss. */
    @Test
    void fittedKIsAMinimum() {
        Tuner t = new Tuner(CHESS, new Evaluation(CHESS).weights(), samples());
        int[] w = t.vector(new Evaluation(CHESS).weights());
        double k = t.fitK(w);
        assertTrue(t.loss(w, k) <= t.loss(w, k * 1.2));
        assertTrue(t.loss(w, k) <= t.loss(w, k / 1.2));
    }
}
