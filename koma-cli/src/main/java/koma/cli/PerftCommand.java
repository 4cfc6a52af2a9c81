package koma.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import koma.rules.Perft;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code koma perft}: leaf counts of the legal-move tree, printed as RULES.md 9.4. */
@Command(name = "perft", mixinStandardHelpOptions = true,
        description = {"Counts the leaves of the legal-move tree to a depth (perft).",
                "With --divide, prints one line 'move: count' per legal move, then an empty line and "
                        + "'Nodes searched: N', as Stockfish does. Moves are UCI strings (USI for shogi)."})
public final class PerftCommand implements Callable<Integer> {
    @Mixin
    VariantOption variant;

    @Option(names = "--fen", description = "Start from this FEN (SFEN for shogi) instead of the start position.")
    String fen;

    @Option(names = "--moves", arity = "1..*", description = "Moves to play first.")
    List<String> moves = new ArrayList<>();

    @Option(names = {"-d", "--depth"}, required = true, description = "Depth in plies (1 or more).")
    int depth;

    @Option(names = "--divide", description = "Print the count below each legal move.")
    boolean divide;

    @Override
    public Integer call() {
        RuleSet rs = variant.rules();
        if (depth < 1 || depth > 30) {
            throw new IllegalArgumentException("--depth must be from 1 to 30, got " + depth);
        }
        Position p = fen == null ? Position.start(rs) : Position.fromFen(rs, fen);
        MoveNotation.Style style = Variants.style(rs);
        for (String m : moves) {
            p.doMove(MoveNotation.parse(p, m, style));
        }
        long t0 = System.nanoTime();
        long total;
        if (divide) {
            total = 0;
            for (Perft.Entry e : new Perft(p, depth).divide(depth, m -> MoveNotation.format(p, m, style))) {
                System.out.println(e.move() + ": " + e.nodes());
                total += e.nodes();
            }
            System.out.println();
        } else {
            total = new Perft(p, depth).perft(depth);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("Nodes searched: " + total);
        System.err.printf("time %d ms, %d nodes/s%n", ms, total * 1000 / Math.max(1, ms));
        return 0;
    }
}
