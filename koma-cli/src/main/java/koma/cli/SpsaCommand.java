package koma.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import koma.engine.SearchDefaults;
import koma.engine.SearchParam;
import koma.engine.tune.Spsa;
import koma.rules.RuleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code koma spsa}: SPSA tuning of the search's numeric parameters by self-play game pairs (koma.engine.tune.Spsa). */
@Command(name = "spsa", mixinStandardHelpOptions = true,
        description = {"Tunes the search's numeric parameters (the .search file's margins and factors) by SPSA, as "
                + "fishtest tunes Stockfish's: each iteration plays one random opening twice, colours swapped, "
                + "between the values moved a step up and down by random signs, and moves each value toward the "
                + "side that scored more. Games at --nodes nodes a move. The state is written to --state after "
                + "every iteration; the same command resumes from it. At the end the values are printed as "
                + ".search lines.",
                "The values start from the built-in .search file, or from -Dkoma.eval.dir=DIR."})
public final class SpsaCommand implements Callable<Integer> {
    @Mixin
    VariantOption variant;

    @Option(names = "--params", split = ",", paramLabel = "KEY",
            description = "The parameters to tune (comma-separated keys). Default: all of them.")
    List<String> params = new ArrayList<>();

    @Option(names = "--iterations", defaultValue = "5000",
            description = "Game pairs in the run (the schedules' N). Default: ${DEFAULT-VALUE}.")
    int iterations;

    @Option(names = "--nodes", defaultValue = "10000", description = "Nodes per move. Default: ${DEFAULT-VALUE}.")
    long nodes;

    @Mixin
    SelfPlayOptions play;

    @Option(names = "--threads", defaultValue = "1", description = "Pairs played at once. Default: ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "--r-end", defaultValue = "0.002",
            description = "Learning rate a/c^2 at the last iteration (fishtest's r_end). Default: ${DEFAULT-VALUE}.")
    double rEnd;

    @Option(names = "--hash", defaultValue = "16", description = "Hash table per side, MB (at most "
            + Spsa.MAX_HASH_MB + "). Default: ${DEFAULT-VALUE}.")
    int hash;

    @Option(names = "--state", required = true, description = "The state file (written after every iteration; "
            + "read to resume when it exists).")
    Path stateFile;

    @Override
    public Integer call() throws IOException {
        RuleSet rs = variant.rules();
        List<SearchParam> tuned = new ArrayList<>();
        if (params.isEmpty()) {
            tuned.addAll(Arrays.asList(SearchParam.values()));
        }
        for (String key : params) {
            SearchParam p = SearchParam.ofKey(key);
            if (p == null) {
                throw new IllegalArgumentException("--params: no search parameter '" + key + "'; parameters: "
                        + SearchParam.keys());
            }
            tuned.add(p);
        }
        Spsa.Settings s = new Spsa.Settings(rs, SearchDefaults.forRuleSet(rs.id), tuned, iterations, nodes,
                play.randomPlies, play.maxPlies, play.seed, threads, rEnd, hash);
        Spsa.State state = Files.exists(stateFile)
                ? Spsa.State.parse(Files.readString(stateFile), s, stateFile.toString()) : Spsa.State.start(s);
        System.out.println((state.done() == 0 ? "starting" : "resuming after iteration " + state.done()) + ": "
                + rs.id + ", " + tuned.size() + " parameters, " + iterations + " iterations at " + nodes
                + " nodes a move, " + threads + " thread(s)");
        long t0 = System.currentTimeMillis();
        state = new Spsa(s, state, stateFile, System.out::println).run();
        long[] wld = state.wld();
        System.out.printf("done %d iterations (upper side %d-%d-%d), %d s; the values as .search lines:%n",
                state.done(), wld[0], wld[1], wld[2], (System.currentTimeMillis() - t0) / 1000);
        System.out.print(state.searchLines(s));
        return 0;
    }
}
