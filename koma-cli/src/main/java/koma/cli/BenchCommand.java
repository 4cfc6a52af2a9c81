package koma.cli;

import java.util.List;
import java.util.concurrent.Callable;

import koma.engine.Bench;
import koma.rules.Perft;
import koma.rules.Position;
import koma.rules.RuleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code koma bench perft}: single-threaded perft speed from every start position. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmarks. 'bench' (or 'bench search') searches a fixed list of positions of every rule set "
                + "to fixed depths and prints the total node count (the search's signature, quoted as 'Bench: N' in "
                + "commits) and nodes per second. 'bench perft' times single-threaded perft from the start positions "
                + "(best of --runs runs, after one warm-up) and prints nodes, time and nodes per second."})
public final class BenchCommand implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", description = "What to benchmark: search (default) or perft.",
            defaultValue = "search")
    String what;

    @Option(names = "--hash", defaultValue = "16", description = "Hash table megabytes for the search benchmark.")
    int hash;

    @Option(names = {"-v", "--variant"}, description = "Only this rule set (bench perft).", completionCandidates = Variants.class)
    String variant;

    @Option(names = {"-d", "--depth"}, description = "Depth instead of the default of each rule set (bench perft).")
    Integer depth;

    @Option(names = "--runs", defaultValue = "3", description = "Timed runs per rule set; the best is reported.")
    int runs;

    @Override
    public Integer call() {
        if (what.equals("search")) {
            if (variant != null || depth != null) { // the signature is the whole list at its own depths
                throw new IllegalArgumentException("--variant and --depth are for 'bench perft'; 'bench search' runs "
                        + "its fixed list at the list's depths, whose node count is the Bench signature");
            }
            Bench.Result r = Bench.run(hash, System.out::println);
            System.out.println();
            System.out.println("Total time (ms) : " + r.timeMs());
            System.out.println("Nodes searched  : " + r.nodes());
            System.out.println("Nodes/second    : " + r.nps());
            return 0;
        }
        if (!what.equals("perft")) {
            throw new IllegalArgumentException("unknown benchmark '" + what + "'; available: search, perft");
        }
        if (variant != null) {
            RuleSet.of(variant); // refuses an unknown identifier, naming the known ones
        }
        if (depth != null && (depth < 1 || depth > 30)) {
            throw new IllegalArgumentException("--depth must be from 1 to 30, got " + depth);
        }
        long totalNodes = 0, totalNs = 0;
        for (Bench.PerftEntry d : Bench.PERFT) {
            String id = d.variant();
            if (variant != null && !variant.equals(id)) {
                continue;
            }
            int depthHere = depth != null ? depth : d.depth();
            Position p = Position.start(RuleSet.of(id));
            Perft perft = new Perft(p, depthHere);
            perft.perft(Math.max(1, depthHere - 1));
            long best = Long.MAX_VALUE, nodes = 0;
            for (int r = 0; r < Math.max(1, runs); r++) {
                long t0 = System.nanoTime();
                nodes = perft.perft(depthHere);
                best = Math.min(best, System.nanoTime() - t0);
            }
            totalNodes += nodes;
            totalNs += best;
            System.out.printf("%-17s depth %d  nodes %,14d  time %7.3f s  nps %,13d%n", id, depthHere, nodes,
                    best / 1e9, (long) (nodes / (best / 1e9)));
        }
        System.out.printf("%-17s          nodes %,14d  time %7.3f s  nps %,13d%n", "total", totalNodes, totalNs / 1e9,
                (long) (totalNodes / Math.max(1e-9, totalNs / 1e9)));
        return 0;
    }
}
