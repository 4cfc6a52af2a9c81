package koma.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import koma.engine.EvalWeights;
import koma.engine.Evaluation;
import koma.engine.tune.Sample;
import koma.engine.tune.SelfPlay;
import koma.engine.tune.Tuner;
import koma.rules.RuleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code koma tune}: self-play data, then Texel tuning of a rule set's evaluation weights into an .eval file. */
@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {"Tunes the evaluation weights of a rule set (Texel method). Koma plays itself --games games "
                + "from random openings at --nodes nodes per move and keeps the quiet positions with the game result "
                + "(or reads them from --data-in); every --holdout-th game is kept out of the fit to measure it. "
                + "The scale K of sigmoid(K * eval / 400) is fitted on the current weights, then integer coordinate "
                + "descent minimises the mean squared error against the results, stopped when the held-out loss stops "
                + "falling. Writes the tuned weights as an "
                + ".eval file (KEY = VALUE lines). The same seed gives the same games and weights.",
                "The weights start from the built-in ones, or from -Dkoma.eval.dir=DIR (a directory of "
                        + "<rule set>.eval files, e.g. KOMA_JAVA_OPTS=-Dkoma.eval.dir=DIR ./koma tune ...)."})
public final class TuneCommand implements Callable<Integer> {
    @Option(names = {"-v", "--variant"}, required = true,
            description = "Rule set: ${COMPLETION-CANDIDATES}.", completionCandidates = Variants.class)
    String variant;

    @Option(names = "--games", defaultValue = "1000", description = "Self-play games. Default: ${DEFAULT-VALUE}.")
    int games;

    @Option(names = "--nodes", defaultValue = "1500", description = "Nodes per move. Default: ${DEFAULT-VALUE}.")
    long nodes;

    @Mixin
    SelfPlayOptions play;

    @Option(names = "--threads", defaultValue = "1", description = "Games played at once. Default: ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "--data-out", description = "Write the self-play positions to this file (GAME RESULT FEN lines).")
    Path dataOut;

    @Option(names = "--data-in", description = "Read positions from this file instead of playing games.")
    Path dataIn;

    @Option(names = "--holdout", defaultValue = "10",
            description = "Every N-th game is held out: tuning stops when the loss on its positions (against the game "
                    + "results alone, whatever --lambda) stops falling (0: none). Default: ${DEFAULT-VALUE}.")
    int holdout;

    @Option(names = "--lambda", defaultValue = "1",
            description = "Target: lambda * game result + (1 - lambda) * sigmoid(K * search score / 400). "
                    + "Default: ${DEFAULT-VALUE} (the result alone).")
    double lambda;

    @Option(names = "--steps", defaultValue = "16,4,1", split = ",",
            description = "Coordinate-descent step sizes, in order. Default: ${DEFAULT-VALUE}.")
    int[] steps;

    @Option(names = "--passes", defaultValue = "60", description = "Most passes per step. Default: ${DEFAULT-VALUE}.")
    int passes;

    @Option(names = "--min-count", defaultValue = "200",
            description = "A weight seen in fewer positions is left as it is. Default: ${DEFAULT-VALUE}.")
    int minCount;

    @Option(names = "--freeze", split = ",", paramLabel = "KEY",
            description = "Weights to leave as they are (comma-separated keys, e.g. king-center,king-advance).")
    List<String> freeze = new ArrayList<>();

    @Option(names = {"-o", "--out"}, description = "The tuned .eval file. Default: <rule set>.eval here.")
    Path out;

    @Option(names = {"-q", "--quiet"}, description = "No line per game or pass.")
    boolean quiet;

    @Override
    public Integer call() throws IOException {
        RuleSet rs = Variants.rules(variant);
        for (int s : steps) {
            if (s < 1) {
                throw new IllegalArgumentException("--steps must be positive, got " + s);
            }
        }
        if (holdout < 0) {
            throw new IllegalArgumentException("--holdout must be 0 or more, got " + holdout);
        }
        long t0 = System.currentTimeMillis();
        List<Sample> samples;
        if (dataIn != null) {
            samples = Sample.read(dataIn);
            System.out.println("read " + samples.size() + " positions from " + dataIn);
        } else {
            SelfPlay.Settings settings = new SelfPlay.Settings(rs, games, nodes, play.randomPlies, play.maxPlies, play.seed, threads);
            List<SelfPlay.GameData> played = SelfPlay.run(settings, quiet ? null : System.out::println);
            samples = new ArrayList<>();
            double score = 0;
            long plies = 0;
            for (SelfPlay.GameData g : played) {
                samples.addAll(g.samples());
                score += g.result();
                plies += g.plies();
            }
            System.out.printf("%d games (first player scored %.1f%%, %.1f plies on average), %d positions, %d s%n",
                    played.size(), 100 * score / played.size(), (double) plies / played.size(), samples.size(),
                    (System.currentTimeMillis() - t0) / 1000);
            if (dataOut != null) {
                Sample.write(dataOut, samples);
            }
        }
        List<Sample> train = new ArrayList<>(), test = new ArrayList<>();
        for (Sample s : samples) {
            (holdout > 0 && s.game() % holdout == holdout - 1 ? test : train).add(s);
        }
        if (train.isEmpty()) {
            throw new IllegalArgumentException("no positions to tune on");
        }
        Map<String, Integer> start = new Evaluation(rs).weights();
        Tuner tuner = new Tuner(rs, start, train);
        int[] w0 = tuner.vector(start);
        double k = tuner.fitK(w0);
        if (lambda != 1) {
            tuner = new Tuner(rs, start, train, lambda, k);
        }
        Tuner check = test.isEmpty() ? null : new Tuner(rs, start, test); // held out: against the results alone
        double before = tuner.loss(w0, k);
        double checkBefore = check == null ? Double.NaN : check.loss(w0, k);
        System.out.printf("K = %.4f, lambda %s; %d training positions, %d held out; loss %.6f (held out %.6f)%n", k,
                lambda, train.size(),
                test.size(), before, checkBefore);
        for (String key : freeze) {
            if (!tuner.keys().contains(key)) {
                throw new IllegalArgumentException("--freeze: no weight '" + key + "' in " + rs.id + "; weights: "
                        + tuner.keys());
            }
        }
        tuner.freeze(freeze);
        int[] w = tuner.optimise(w0, k, steps, passes, minCount, check, quiet ? null : System.out::println);
        double after = tuner.loss(w, k);
        double checkAfter = check == null ? Double.NaN : check.loss(w, k);
        System.out.printf("tuned: loss %.6f -> %.6f; held out %.6f -> %.6f%n", before, after, checkBefore, checkAfter);
        Map<String, Integer> counts = tuner.counts();
        for (int i = 0; i < w.length; i++) {
            String key = tuner.keys().get(i);
            System.out.printf("  %-18s %6d -> %6d  (%d positions)%n", key, w0[i], w[i], counts.get(key));
        }
        Path file = out != null ? out : Path.of(rs.id + ".eval");
        String header = String.format("""
                Evaluation weights for %s, tuned by 'koma tune' (Texel method, koma.engine.tune).
                %s%s
                K = %.4f, lambda %s; %d training positions, %d held out; loss %.6f -> %.6f, held out %.6f -> %.6f""",
                rs.name, dataIn != null ? "data: " + dataIn
                        : String.format("self-play: %d games, %d nodes/move, %d random plies, seed %d, max %d plies",
                                games, nodes, play.randomPlies, play.seed, play.maxPlies),
                freeze.isEmpty() ? "" : "; frozen: " + String.join(", ", freeze), k, lambda, train.size(), test.size(),
                before, after, checkBefore, checkAfter);
        Files.writeString(file, EvalWeights.format(tuner.map(w), header));
        System.out.printf("wrote %s (steps %s, %d s)%n", file, Arrays.toString(steps),
                (System.currentTimeMillis() - t0) / 1000);
        return 0;
    }
}
