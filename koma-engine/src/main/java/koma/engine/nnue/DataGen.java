package koma.engine.nnue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import koma.engine.tune.Sample;
import koma.engine.tune.SelfPlay;
import koma.rules.RuleSet;

/**
 * Training data for the nets, as resumable shards: shard {@code k} is the self-play run ({@link SelfPlay}) of
 * {@code gamesPerShard} games with seed {@code seed * 1_000_003 + k}, written to {@code shard-KKKKK.txt} in the
 * output directory (through a temporary file, renamed when complete). A shard already on disk is skipped, so an
 * interrupted run is resumed by starting it again; the same settings give the same shards, whatever the thread
 * count. Each line is a {@link Sample}: game, result for the side to move, search score, FEN.
 */
public final class DataGen {
    /**
     * What to generate: shards {@code [firstShard, firstShard + shards)} of {@code gamesPerShard} games each, the
     * search evaluating with {@code net} (as {@link SelfPlay.Settings#net}), games adjudicated at {@code adjudicate}
     * centipawns (as {@link SelfPlay.Settings#adjudicate}).
     */
    public record Settings(RuleSet rs, Path dir, int firstShard, int shards, int gamesPerShard, long nodes,
                           int randomPlies, int maxPlies, long seed, int threads, Network net, int adjudicate) {
        /** Settings with the default adjudication bound ({@link SelfPlay#ADJUDICATE}). */
        public Settings(RuleSet rs, Path dir, int firstShard, int shards, int gamesPerShard, long nodes,
                        int randomPlies, int maxPlies, long seed, int threads, Network net) {
            this(rs, dir, firstShard, shards, gamesPerShard, nodes, randomPlies, maxPlies, seed, threads, net,
                    SelfPlay.ADJUDICATE);
        }

        public Settings {
            if (firstShard < 0 || shards < 1) {
                throw new IllegalArgumentException("shards must be at least 1 from shard 0 on, got " + firstShard
                        + "+" + shards);
            }
            if (gamesPerShard < 1) {
                throw new IllegalArgumentException("games per shard must be at least 1, got " + gamesPerShard);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            SelfPlay.checkAdjudicate(adjudicate);
        }
    }

    private DataGen() {
    }

    /** The file of shard {@code k}. */
    public static Path shardFile(Path dir, int k) {
        return dir.resolve(String.format("shard-%05d.txt", k));
    }

    /** K of a shard file's name shard-K.txt (the inverse of {@link #shardFile}). */
    public static long shardNumber(Path shard) {
        return Long.parseLong(shard.getFileName().toString().replaceAll("\\D", ""));
    }

    /** Generates the missing shards; returns the number of positions written by this run. */
    public static long run(Settings s, Consumer<String> progress) throws IOException {
        return runShards(s.dir(), s.firstShard(), s.shards(), s.threads(), shard -> {
            SelfPlay.Settings play = new SelfPlay.Settings(s.rs(), s.gamesPerShard(), s.nodes(), s.randomPlies(),
                    s.maxPlies(), s.seed() * 1_000_003L + shard, 1, s.net(), s.adjudicate());
            List<Sample> samples = new ArrayList<>();
            for (int g = 0; g < s.gamesPerShard(); g++) {
                samples.addAll(SelfPlay.playGame(play, g).samples());
            }
            return samples;
        }, progress);
    }

    /**
     * Makes shards {@code [first, first + count)} of {@code dir} that are not there yet, {@code threads} at once:
     * {@code make} gives shard k's samples, which are written through a temporary file renamed when complete (so a
     * stopped run leaves no partial shard). Returns the number of positions written by this run.
     */
    public static long runShards(Path dir, int first, int count, int threads, IntFunction<List<Sample>> make,
                                 Consumer<String> progress) throws IOException {
        Files.createDirectories(dir);
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(null, r, "datagen", 64L << 20);
            t.setDaemon(true);
            return t;
        });
        AtomicInteger done = new AtomicInteger();
        try {
            List<Future<Integer>> futures = new ArrayList<>();
            for (int k = first; k < first + count; k++) {
                int shard = k;
                if (Files.exists(shardFile(dir, shard))) {
                    continue;
                }
                futures.add(pool.submit(() -> {
                    long t0 = System.currentTimeMillis();
                    List<Sample> samples = make.apply(shard);
                    Path tmp = dir.resolve(shardFile(dir, shard).getFileName() + ".tmp");
                    Sample.write(tmp, samples);
                    Files.move(tmp, shardFile(dir, shard), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                    if (progress != null) {
                        progress.accept(String.format("shard %d: %d positions in %d s (%d shards done)", shard,
                                samples.size(), (System.currentTimeMillis() - t0) / 1000, done.incrementAndGet()));
                    }
                    return samples.size();
                }));
            }
            long total = 0;
            for (Future<Integer> f : futures) {
                total += f.get();
            }
            return total;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("data generation interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            throw new IOException("data generation failed: "
                    + (cause.getMessage() != null ? cause.getMessage() : cause.toString()), cause);
        } finally {
            pool.shutdownNow();
        }
    }
}
