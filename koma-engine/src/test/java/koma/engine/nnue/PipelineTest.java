package koma.engine.nnue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.engine.tune.SelfPlay;
import koma.rules.RuleSet;

/** The data and training pipeline end to end, small: shards are deterministic and resumable, training learns. */
class PipelineTest {
    @TempDir
    Path dir;

    private static DataGen.Settings settings(Path dir, int shards, int threads) {
        return new DataGen.Settings(RuleSet.of("minishogi"), dir, 0, shards, 3, 300, 4, 120, 5, threads,
                SelfPlay.HAND_WRITTEN);
    }

    /**
     * The same settings give the same shard files whatever the thread count, a second run writes nothing (the
     * shards are there), and a lost shard is made again identical.
     */
    @Test
    void shardsAreDeterministicAndResumable() throws Exception {
        Path a = dir.resolve("a"), b = dir.resolve("b");
        long n = DataGen.run(settings(a, 3, 1), null);
        assertTrue(n > 0);
        DataGen.run(settings(b, 3, 2), null);
        for (int k = 0; k < 3; k++) {
            assertEquals(Files.readString(DataGen.shardFile(a, k)), Files.readString(DataGen.shardFile(b, k)));
        }
        assertEquals(0, DataGen.run(settings(a, 3, 1), null));
        String second = Files.readString(DataGen.shardFile(a, 1));
        Files.delete(DataGen.shardFile(a, 1));
        assertTrue(DataGen.run(settings(a, 3, 1), null) > 0);
        assertEquals(second, Files.readString(DataGen.shardFile(a, 1)));
        try (var files = Files.list(a)) {
            assertEquals(List.of("shard-00000.txt", "shard-00001.txt", "shard-00002.txt"),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "no temporary file is left");
        }
    }

    /**
     * Writes {@code shards} shards of {@code games} self-play games each (hand-written evaluation, 300 nodes a move,
     * seed 9) into {@code dir/data} and returns their files in order.
     */
    private List<Path> selfPlayShards(RuleSet rs, int shards, int games, int threads) throws Exception {
        Path data = dir.resolve("data");
        DataGen.run(new DataGen.Settings(rs, data, 0, shards, games, 300, 4, 120, 9, threads,
                SelfPlay.HAND_WRITTEN), null);
        try (var st = Files.list(data)) {
            return st.sorted().toList();
        }
    }

    /**
     * Training on self-play shards lowers the held-out loss below the untrained net's, and the exported net
     * file is read back by the engine (the shards' count: 10, of which every 5th is held out).
     */
    @Test
    void trainingLowersTheHeldOutLoss() throws Exception {
        List<Path> files = selfPlayShards(RuleSet.of("minishogi"), 10, 6, 2);
        Trainer t = new Trainer(RuleSet.of("minishogi"), new Trainer.Settings(16, 12, 256, 0.005, 0.9, 0.75, 5, 3, 2));
        Trainer.Data[] d = t.load(files, line -> { });
        assertTrue(d[0].size() > 100 && d[1].size() > 10, d[0].size() + " / " + d[1].size());
        t.fitK(d[0]);
        double before = t.loss(d[1]);
        double after = t.train(d[0], d[1], line -> { });
        assertTrue(after < before * 0.9, "held-out loss " + before + " -> " + after);
        double exported = t.exportedLoss(d[1]);
        assertTrue(Math.abs(exported - after) < 0.1 * after, "the int16 net's held-out loss " + exported
                + " is within 10% of the float net's " + after);
        Path net = dir.resolve("m.nnue");
        t.quantise().write(net);
        Network back = Network.read(net, RuleSet.of("minishogi"));
        assertEquals(16, back.hidden);
    }

    /**
     * The same with king buckets (2 x 2) and the shared block: training lowers the held-out loss, the exported net
     * keeps its grid, and a checkpoint read back (nnue export) names the same layout and exports the same net.
     */
    @Test
    void trainingWithKingBuckets() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        Network back = trainAndExport(rs, new FeatureSet(rs, 2, 2));
        assertEquals(4 * new FeatureSet(rs).inputs, back.inputs);
        assertEquals(2, back.kingFiles);
        assertEquals(2, back.kingRanks);
    }

    /**
     * The same with 2 output buckets (minishogi's 12 pieces on the board in halves): training lowers the held-out
     * loss, and the net and the checkpoint keep both output layers.
     */
    @Test
    void trainingWithOutputBuckets() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        Network back = trainAndExport(rs, new FeatureSet(rs), 2);
        assertEquals(2, back.outputBuckets);
        assertEquals(12, back.bucketPieces);
    }

    /** The same with a king window of reach 2 (no buckets): the net and the checkpoint keep the window. */
    @Test
    void trainingWithKingWindow() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        FeatureSet fs = new FeatureSet(rs, 1, 1, 2);
        Network back = trainAndExport(rs, fs);
        assertEquals(fs.inputs, back.inputs);
        assertEquals(2, back.kingWindow);
    }

    /**
     * Trains a net of layout {@code fs} on minishogi self-play, asserts that the held-out loss falls by a tenth and
     * that the checkpoint read back exports the same net; returns the exported net read back from its file.
     */
    private Network trainAndExport(RuleSet rs, FeatureSet fs) throws Exception {
        return trainAndExport(rs, fs, 1);
    }

    /** {@link #trainAndExport(RuleSet, FeatureSet)} with {@code outputBuckets} output layers. */
    private Network trainAndExport(RuleSet rs, FeatureSet fs, int outputBuckets) throws Exception {
        List<Path> files = selfPlayShards(rs, 10, 6, 2);
        Trainer t = new Trainer(rs, new Trainer.Settings(16, 12, 256, 0.005, 0.9, 0.75, 5, 3, 2), fs, outputBuckets);
        Trainer.Data[] d = t.load(files, line -> { });
        t.fitK(d[0]);
        double before = t.loss(d[1]);
        double after = t.train(d[0], d[1], line -> { });
        assertTrue(after < before * 0.9, "held-out loss " + before + " -> " + after);
        Network net = t.quantise();
        Path ckpt = dir.resolve("m.ckpt"), file = dir.resolve("m.nnue");
        t.saveCheckpoint(ckpt);
        net.write(file);
        Trainer back = Trainer.loadCheckpoint(ckpt, rs);
        assertTrue(t.calibrated() && back.calibrated(), "training ends with the measurements, and the checkpoint keeps them");
        Network exported = back.quantise();
        assertEquals(net.layoutHash, exported.layoutHash);
        org.junit.jupiter.api.Assertions.assertArrayEquals(net.featureWeights, exported.featureWeights);
        org.junit.jupiter.api.Assertions.assertArrayEquals(net.outputWeights, exported.outputWeights);
        org.junit.jupiter.api.Assertions.assertArrayEquals(net.outputBiases, exported.outputBiases);
        assertEquals(outputBuckets, exported.outputBuckets);
        return Network.read(file, rs);
    }

    /**
     * A checkpoint written before the trainer kept its measurements of the hidden layer (it ends at the output bias)
     * still reads, and exports to the nearest steps; one cut inside the measurements is refused as truncated.
     */
    @Test
    void aCheckpointWithoutMeasurementsStillReads() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        Trainer t = new Trainer(rs, new Trainer.Settings(16, 1, 1, 0, 1, 0, 2, 7, 1));
        Path ckpt = dir.resolve("old.ckpt");
        t.saveCheckpoint(ckpt);
        byte[] bytes = Files.readAllBytes(ckpt);
        Files.write(ckpt, java.util.Arrays.copyOf(bytes, bytes.length - 4)); // without the count of measurements
        Trainer back = Trainer.loadCheckpoint(ckpt, rs);
        assertTrue(!back.calibrated());
        org.junit.jupiter.api.Assertions.assertArrayEquals(t.quantise().featureWeights, back.quantise().featureWeights);
        Trainer.Data d = new Trainer.Data();
        int[] us = new int[t.maxFeatures()], them = new int[t.maxFeatures()];
        koma.rules.Position p = koma.rules.Position.start(rs);
        int k = t.features(p, 0, us);
        t.features(p, 1, them);
        d.add(us, them, k, 0, 0.5);
        t.calibrate(d);
        t.saveCheckpoint(ckpt);
        bytes = Files.readAllBytes(ckpt);
        Files.write(ckpt, java.util.Arrays.copyOf(bytes, bytes.length - 10));
        java.io.IOException e = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> Trainer.loadCheckpoint(ckpt, rs));
        assertTrue(e.getMessage().contains("truncated checkpoint"), e.getMessage());
    }

    /**
     * A warm start (--init) keeps the starting net when training only makes the held-out loss worse: started from a
     * trained net and trained on at a learning rate far too high (0.5, which throws the weights about), the kept
     * model's held-out loss is the starting net's, not an epoch's.
     */
    @Test
    void warmStartKeepsTheStartWhenNoEpochBeatsIt() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        List<Path> files = selfPlayShards(rs, 10, 6, 2);
        Trainer first = new Trainer(rs, new Trainer.Settings(16, 6, 256, 0.005, 0.9, 0.75, 5, 3, 2));
        Trainer.Data[] d = first.load(files, line -> { });
        first.fitK(d[0]);
        first.train(d[0], d[1], line -> { });
        Network net = first.quantise();
        Trainer next = new Trainer(rs, new Trainer.Settings(16, 2, 256, 0.5, 0.9, 0.75, 5, 4, 2));
        next.initFrom(net);
        next.setK(first.k());
        double start = next.loss(d[1]);
        List<String> log = new java.util.ArrayList<>();
        double kept = next.train(d[0], d[1], log::add);
        assertEquals(start, kept, 0.0, String.join("; ", log));
        assertEquals(start, next.loss(d[1]), 0.0);
        assertTrue(log.get(log.size() - 1).contains("kept the starting net"), log.toString());
    }

    /**
     * --bucket-decay: trained on the same data with king buckets (2 x 2), the buckets' own weights set to 0.5 at the
     * start stay near it without decay (Adam moves a weight about the learning rate a step) and shrink with a decay of
     * 50 (each step keeps 1 - 0.005 x 50 = 75% of them): mean absolute weight under a third of the run without. (What
     * the decay does to the held-out loss needs real data: bench/results/2026-11-27-stop40.txt.) A decay without
     * buckets, or a negative one, is refused saying why.
     */
    @Test
    void bucketDecayShrinksTheBucketsOwnWeights() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        List<Path> files = selfPlayShards(rs, 10, 6, 2);
        FeatureSet fs = new FeatureSet(rs, 2, 2);
        Trainer.Settings settings = new Trainer.Settings(16, 6, 256, 0.005, 0.9, 0.75, 5, 3, 2);
        Trainer.Data[] d = new Trainer(rs, settings, fs).load(files, line -> { });
        double[] own = new double[2];
        for (int run = 0; run < 2; run++) {
            Trainer t = new Trainer(rs, settings, fs);
            t.setBucketDecay(run == 0 ? 0 : 50);
            java.util.Arrays.fill(t.w, 0, fs.inputs * 16, 0.5f);
            t.fitK(d[0]);
            t.train(d[0], d[1], line -> { });
            int e = fs.inputs * 16;
            for (int i = 0; i < e; i++) {
                own[run] += Math.abs(t.w[i]) / e;
            }
        }
        assertTrue(own[1] < own[0] / 3, "mean |own weight| without decay " + own[0] + ", with " + own[1]);
        Trainer plain = new Trainer(rs, new Trainer.Settings(8, 1, 256, 0.005, 0.9, 0.75, 5, 3, 1));
        var none = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> plain.setBucketDecay(1));
        assertTrue(none.getMessage().contains("bucket decay needs king buckets"), none.getMessage());
        Trainer bucketed = new Trainer(rs, new Trainer.Settings(8, 1, 256, 0.005, 0.9, 0.75, 5, 3, 1), fs);
        var negative = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> bucketed.setBucketDecay(-1));
        assertTrue(negative.getMessage().contains("bucket decay must be in 0..100"), negative.getMessage());
    }

    /**
     * The teacher's held-out loss: on shards whose score column is the hand-written evaluation itself (rewritten from
     * self-play shards), with lambda 1, the hand-written evaluation in the net's place predicts every target exactly,
     * so its loss is 0; with every score 200 cp above it, the loss is positive. Training data carry no teacher
     * scores (NaN).
     */
    @Test
    void theTeachersLossIsZeroWhereTheScoresAreItsOwn() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        List<Path> files = selfPlayShards(rs, 10, 4, 2);
        koma.engine.Evaluation ev = new koma.engine.Evaluation(rs);
        Trainer.Settings settings = new Trainer.Settings(8, 1, 256, 0.005, 0.9, 1.0, 5, 3, 1);
        double[] loss = new double[2];
        for (int shift = 0; shift < 2; shift++) {
            Path out = dir.resolve("teacher" + shift);
            Files.createDirectories(out);
            List<Path> rewritten = new java.util.ArrayList<>();
            for (Path f : files) {
                StringBuilder sb = new StringBuilder();
                for (String line : Files.readAllLines(f)) {
                    String[] p = line.split(" ", 4);
                    int score = ev.evaluate(koma.rules.notation.Fen.parse(rs, p[3])) + 200 * shift;
                    sb.append(p[0]).append(' ').append(p[1]).append(' ').append(score).append(' ').append(p[3]).append('\n');
                }
                Path g = out.resolve(f.getFileName());
                Files.writeString(g, sb);
                rewritten.add(g);
            }
            Trainer t = new Trainer(rs, settings);
            Trainer.Data[] d = t.load(rewritten, line -> { });
            t.setK(1.0);
            assertTrue(Double.isNaN(t.teacherLoss(d[0])), "training data have no teacher scores");
            loss[shift] = t.teacherLoss(d[1]);
        }
        assertEquals(0.0, loss[0], 1e-12, "the teacher's own scores");
        assertTrue(loss[1] > 1e-4, "scores 200 cp above the teacher's: " + loss[1]);
    }

    /**
     * --weight-decay: trained on the same data (no buckets), with every feature weight set to 0.5 at the start, the
     * weights stay near 0.5 without decay and shrink with a decay of 50 (each step keeps 1 - 0.005 x 50 = 75% of
     * them): mean absolute feature weight under a third of the run without. A negative decay is refused saying why.
     */
    @Test
    void weightDecayShrinksTheWeights() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        List<Path> files = selfPlayShards(rs, 10, 6, 2);
        Trainer.Settings settings = new Trainer.Settings(16, 6, 256, 0.005, 0.9, 0.75, 5, 3, 2);
        Trainer.Data[] d = new Trainer(rs, settings).load(files, line -> { });
        double[] mean = new double[2];
        for (int run = 0; run < 2; run++) {
            Trainer t = new Trainer(rs, settings);
            t.setWeightDecay(run == 0 ? 0 : 50);
            java.util.Arrays.fill(t.w, 0.5f);
            t.fitK(d[0]);
            t.train(d[0], d[1], line -> { });
            for (float x : t.w) {
                mean[run] += Math.abs(x) / t.w.length;
            }
        }
        assertTrue(mean[1] < mean[0] / 3, "mean |weight| without decay " + mean[0] + ", with " + mean[1]);
        Trainer t = new Trainer(rs, settings);
        var negative = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> t.setWeightDecay(-1));
        assertTrue(negative.getMessage().contains("weight decay must be in 0..100"), negative.getMessage());
    }

    /**
     * The trainer holds 65,535 inputs. The widest king window FeatureSet allows (a reach of the board's longest side
     * less one) fits on every built-in rule set, Wa shogi's 11 x 11 board and many piece types included, so only king
     * buckets can pass the limit: on Wa shogi a bucket per square is refused before any weight is allocated, the
     * message naming the buckets.
     */
    @Test
    void everyKingWindowFitsTheTrainerAndTooManyBucketsAreRefused() {
        Trainer.Settings settings = new Trainer.Settings(1, 1, 256, 0.005, 0.9, 0.75, 5, 3, 1);
        for (String id : RuleSet.IDS) {
            RuleSet rs = RuleSet.of(id);
            FeatureSet widest = new FeatureSet(rs, 1, 1, Math.max(rs.geometry.files, rs.geometry.ranks) - 1);
            assertTrue(widest.inputs <= Character.MAX_VALUE, id + ": " + widest.inputs + " inputs");
            assertEquals(widest.inputs, new Trainer(rs, settings, widest).w.length, id);
        }
        RuleSet wa = RuleSet.of("washogi");
        FeatureSet buckets = new FeatureSet(wa, wa.geometry.files, wa.geometry.ranks);
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new Trainer(wa, settings, buckets));
        assertTrue(e.getMessage().contains("more than the trainer holds (65535); fewer king buckets"), e.getMessage());
    }

    /**
     * --mirror: minishogi's training positions are learnt twice (each also turned left for right, whose legal moves
     * the trainer counts against the original's on every one), the held-out ones once; in chess a position that
     * still has a castling right is learnt once (its mirror would have none) and one without is learnt twice, its
     * mirror having the same number of legal moves (checked by the trainer, which would refuse otherwise).
     */
    @Test
    void mirroredTrainingPositions() throws Exception {
        RuleSet rs = RuleSet.of("minishogi");
        List<Path> files = selfPlayShards(rs, 4, 3, 1);
        Trainer.Data[] plain = new Trainer(rs, new Trainer.Settings(8, 1, 256, 0.005, 0.9, 0.75, 2, 3, 1))
                .load(files, line -> { });
        Trainer.Data[] both = new Trainer(rs, new Trainer.Settings(8, 1, 256, 0.005, 0.9, 0.75, 2, 3, 1, true))
                .load(files, line -> { });
        assertTrue(plain[0].size() > 0 && plain[1].size() > 0);
        assertEquals(2 * plain[0].size(), both[0].size());
        assertEquals(plain[1].size(), both[1].size());

        RuleSet chess = RuleSet.of("chess");
        Path shard = dir.resolve("chess").resolve("shard-00000.txt");
        Files.createDirectories(shard.getParent());
        Files.writeString(shard, "0 0.5 0 r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\n"
                + "0 0.5 0 r3k2r/8/8/8/8/8/8/R3K2R w K - 0 1\n"
                + "0 1.0 150 4k3/8/8/3pP3/8/8/8/R3K3 w - d6 0 2\n");
        Trainer.Data[] c = new Trainer(chess, new Trainer.Settings(8, 1, 256, 0.005, 0.9, 0.75, 2, 3, 1, true))
                .load(List.of(shard), line -> { });
        assertEquals(2 + 2, c[0].size(), "two positions with a castling right once, one without twice");
    }

    /** A given K (nnue train --k) is kept as given, and one outside (0, 10] is refused with a message saying so. */
    @Test
    void aGivenKIsKeptAndABadOneRefused() {
        Trainer t = new Trainer(RuleSet.of("minishogi"), new Trainer.Settings(8, 1, 256, 0.005, 0.9, 1.0, 5, 3, 1));
        t.setK(1.45);
        assertEquals(1.45, t.k());
        for (double bad : new double[]{0, -1, 11, Double.NaN}) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> t.setK(bad));
            assertTrue(e.getMessage().contains("K must be in (0, 10]"), e.getMessage());
        }
        assertEquals(1.45, t.k(), "a refused K leaves the last one");
    }
}
