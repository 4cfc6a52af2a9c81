package koma.engine.nnue;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import koma.engine.Evaluation;
import koma.engine.Search;
import koma.engine.TranspositionTable;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * More training positions from self-play shards, labelled by the hand-written evaluation (the first teacher): for
 * each position, up to {@code perPosition} of its successors (one random legal move each) that are quiet, i.e.
 * their side to move is not in check and the quiescence search agrees with the static evaluation within
 * {@code quietMargin} centipawns, scored by that quiescence search. The game's result goes with them, seen from
 * the successor's side to move. Shard {@code k} of the input becomes shard {@code k} of the output (through a
 * temporary file); shards already there are skipped, and the choice of moves depends only on the seed, the shard
 * and the line, so a run is resumable and repeatable. The shards {@link Trainer} holds out with the same
 * {@code holdoutEvery} are not expanded: the trainer holds out by shard number in every directory, so their copies
 * would be read as held-out positions, labelled by the teacher's own quiescence search, and would pull both the
 * held-out loss and the teacher's reference loss toward it (stop 51 found stop 50's hand-deleted copies written again
 * by a resumed run).
 */
public final class Expand {
    /**
     * What to expand: every shard of {@code in} into {@code out} but those numbered K with K % holdoutEvery ==
     * holdoutEvery - 1 (0: every shard).
     */
    public record Settings(RuleSet rs, Path in, Path out, int perPosition, int quietMargin, long seed, int threads,
                           int holdoutEvery) {
        public Settings {
            if (perPosition < 1 || threads < 1) {
                throw new IllegalArgumentException("per-position and threads must be at least 1");
            }
            if (holdoutEvery != 0 && holdoutEvery < 2) {
                throw new IllegalArgumentException("holdout-every must be 0 (expand every shard) or at least 2, got "
                        + holdoutEvery);
            }
        }

        /** Whether shard {@code k} is one the trainer holds out (and so is not expanded). */
        boolean heldOut(long k) {
            return holdoutEvery > 0 && Trainer.heldOut(k, holdoutEvery);
        }
    }

    private Expand() {
    }

    /** Expands the shards not yet expanded; returns the positions written. */
    public static long run(Settings s, Consumer<String> progress) throws IOException {
        Files.createDirectories(s.out());
        List<Path> shards;
        try (var st = Files.list(s.in())) {
            shards = st.filter(f -> f.getFileName().toString().matches("shard-\\d+\\.txt")).sorted().toList();
        }
        ExecutorService pool = Executors.newFixedThreadPool(s.threads());
        try {
            List<Future<Integer>> parts = new ArrayList<>();
            for (Path shard : shards) {
                Path target = s.out().resolve(shard.getFileName());
                if (Files.exists(target) || s.heldOut(DataGen.shardNumber(shard))) {
                    continue;
                }
                parts.add(pool.submit(() -> {
                    int n = expand(s, shard, target);
                    if (progress != null) {
                        progress.accept(shard.getFileName() + ": " + n + " positions");
                    }
                    return n;
                }));
            }
            long total = 0;
            for (Future<Integer> f : parts) {
                total += f.get();
            }
            return total;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("expansion interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("expansion failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static int expand(Settings s, Path shard, Path target) throws IOException {
        RuleSet rs = s.rs();
        Search search = new Search(rs, new TranspositionTable(1));
        search.setNetwork(null);
        Evaluation eval = new Evaluation(rs);
        long shardNo = DataGen.shardNumber(shard);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        int written = 0, ln = 0;
        try (BufferedReader in = Files.newBufferedReader(shard, StandardCharsets.UTF_8);
             BufferedWriter out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                ln++;
                String[] f = line.split(" ", 4);
                if (f.length < 4) {
                    throw new IOException(shard + ":" + ln + ": expected GAME RESULT SCORE FEN");
                }
                Position p;
                try {
                    p = Fen.parse(rs, f[3]);
                } catch (IllegalArgumentException e) {
                    throw new IOException(shard + ":" + ln + ": " + e.getMessage());
                }
                double result = Double.parseDouble(f[1]);
                int[] moves = p.legalMoves();
                SplittableRandom rng = new SplittableRandom(s.seed() * 0x9E3779B97F4A7C15L + shardNo * 1_000_003L + ln);
                for (int i = 0; i < s.perPosition() && moves.length > 0; i++) {
                    int m = moves[rng.nextInt(moves.length)];
                    p.doMove(m);
                    if (!p.inCheck() && p.hasLegalMove()) {
                        int q = search.quiescenceScore(p, 20_000);
                        if (q != Integer.MIN_VALUE && Math.abs(q) < Search.MATE_BOUND
                                && Math.abs(q - eval.evaluate(p)) <= s.quietMargin()) {
                            out.write(f[0] + " " + (1 - result) + " " + q + " " + Fen.format(p));
                            out.newLine();
                            written++;
                        }
                    }
                    p.undoMove();
                }
            }
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return written;
    }
}
