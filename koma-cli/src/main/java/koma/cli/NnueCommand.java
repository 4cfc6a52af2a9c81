package koma.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.Callable;

import koma.engine.nnue.DataGen;
import koma.engine.nnue.FeatureSet;
import koma.engine.nnue.Network;
import koma.engine.nnue.Trainer;
import koma.engine.tune.SelfPlay;
import koma.rules.RuleSet;
import koma.rules.notation.Csa;
import koma.rules.notation.GameRecord;
import koma.rules.notation.Kif;
import koma.rules.notation.Pgn;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code koma nnue}: the learned evaluation's pipeline (data, training, export). */
@Command(name = "nnue", mixinStandardHelpOptions = true,
        description = "The learned evaluation's pipeline: gen (self-play data in resumable shards), label (data from "
                + "games already played), train (a net from the shards), export (a trained net into the engine's "
                + "resource format).",
        subcommands = {NnueCommand.Gen.class, NnueCommand.Label.class, NnueCommand.Expand.class, NnueCommand.Train.class,
                NnueCommand.Export.class})
public final class NnueCommand implements Runnable {
    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
                "name a subcommand: gen, label, expand, train or export");
    }

    /** The net of gen's and label's --eval: null for the rule set's default, the hand-written marker, or a file. */
    static Network searchNet(String eval, RuleSet rs) throws java.io.IOException {
        return switch (eval) {
            case "default" -> null;
            case "hand" -> SelfPlay.HAND_WRITTEN;
            default -> Network.read(Path.of(eval), rs);
        };
    }

    /** {@code koma nnue gen}: self-play positions, scored by the search, with their game's result. */
    @Command(name = "gen", mixinStandardHelpOptions = true,
            description = {"Self-play training data in shards: shard K is --games-per-shard games from random openings "
                    + "at --nodes nodes a move with seed SEED*1000003+K, its quiet positions written as GAME RESULT "
                    + "SCORE FEN lines (result and score for the side to move) to OUT/shard-KKKKK.txt.",
                    "Shards already there are skipped, so a stopped run resumes when started again with the same "
                            + "options; the same options give the same files whatever --threads is."})
    static final class Gen implements Callable<Integer> {
        @Mixin
        VariantOption variant;

        @Option(names = "--out", required = true, description = "Directory of the shards (keep it outside git).")
        Path out;

        @Option(names = "--first-shard", defaultValue = "0", description = "First shard. Default: ${DEFAULT-VALUE}.")
        int firstShard;

        @Option(names = "--shards", defaultValue = "10", description = "Shards to make. Default: ${DEFAULT-VALUE}.")
        int shards;

        @Option(names = "--games-per-shard", defaultValue = "50",
                description = "Games per shard. Default: ${DEFAULT-VALUE}.")
        int gamesPerShard;

        @Option(names = "--nodes", defaultValue = "1000", description = "Nodes per move. Default: ${DEFAULT-VALUE}.")
        long nodes;

        @Mixin
        SelfPlayOptions play;

        @Option(names = "--adjudicate", defaultValue = "" + SelfPlay.ADJUDICATE, paramLabel = "CP",
                description = "A score of at least CP centipawns for one side, seen by both sides on 4 plies running, "
                        + "ends the game as that side's win (lower it for rule sets whose evaluation runs on a larger "
                        + "scale, or whose wins take longer than --max-plies to convert). Default: ${DEFAULT-VALUE}.")
        int adjudicate;

        @Option(names = "--threads", defaultValue = "1", description = "Shards made at once. Default: ${DEFAULT-VALUE}.")
        int threads;

        @Option(names = "--eval", defaultValue = "default",
                description = "The evaluation of the self-play search: default (the built-in net when the rule set "
                        + "has one, else the hand-written evaluation), hand (the hand-written one) or a net file. "
                        + "Default: ${DEFAULT-VALUE}.")
        String eval;

        @Override
        public Integer call() throws Exception {
            RuleSet rs = variant.rules();
            Network net = searchNet(eval, rs);
            long t0 = System.currentTimeMillis();
            long n = DataGen.run(new DataGen.Settings(rs, out, firstShard, shards, gamesPerShard, nodes, play.randomPlies,
                    play.maxPlies, play.seed, threads, net, adjudicate), System.out::println);
            System.out.printf("%d positions in %d s%n", n, (System.currentTimeMillis() - t0) / 1000);
            return 0;
        }
    }

    /** {@code koma nnue label}: training data from games already played (records), scored by Koma's search. */
    @Command(name = "label", mixinStandardHelpOptions = true,
            description = {"Training data from game records (PGN, or KIF/CSA for shogi; a KIF file may hold several "
                    + "games, each starting with its #KIF line, as koma match --kif writes them): each position from "
                    + "--skip-plies on is searched at --nodes nodes and kept when quiet (as gen keeps them), with the "
                    + "score and the game's result for its side to move. Shard K holds games K*G to K*G+G-1 "
                    + "(G = --games-per-shard) in the order of the files; unfinished games (*) give nothing.",
                    "Shards already there are skipped, so a stopped run resumes when started again with the same "
                            + "files and options; the same files and options give the same shards whatever --threads is."})
    static final class Label implements Callable<Integer> {
        @Mixin
        VariantOption variant;

        @Option(names = "--records", required = true, split = ",", paramLabel = "FILE",
                description = "Record files (comma-separated): .pgn, .kif/.kifu or .csa.")
        List<Path> records;

        @Option(names = "--out", required = true, description = "Directory of the shards (keep it outside git).")
        Path out;

        @Option(names = "--games-per-shard", defaultValue = "50",
                description = "Games per shard. Default: ${DEFAULT-VALUE}.")
        int gamesPerShard;

        @Option(names = "--nodes", defaultValue = "1000", description = "Nodes per position. Default: ${DEFAULT-VALUE}.")
        long nodes;

        @Option(names = "--skip-plies", defaultValue = "0",
                description = "Plies of each game not labelled (a random opening, say). Default: ${DEFAULT-VALUE}.")
        int skipPlies;

        @Option(names = "--threads", defaultValue = "1", description = "Shards labelled at once. Default: ${DEFAULT-VALUE}.")
        int threads;

        @Option(names = "--eval", defaultValue = "default",
                description = "The evaluation of the search, as for gen: default, hand or a net file. "
                        + "Default: ${DEFAULT-VALUE}.")
        String eval;

        @Override
        public Integer call() throws Exception {
            RuleSet rs = variant.rules();
            List<GameRecord> games = new ArrayList<>();
            for (Path f : records) {
                games.addAll(readRecords(f));
            }
            Network net = searchNet(eval, rs);
            long t0 = System.currentTimeMillis();
            long n = koma.engine.nnue.Label.run(new koma.engine.nnue.Label.Settings(rs, games, out, gamesPerShard, nodes,
                    skipPlies, threads, net), System.out::println);
            System.out.printf("%d games, %d positions in %d s%n", games.size(), n,
                    (System.currentTimeMillis() - t0) / 1000);
            return 0;
        }

        /** The games of one record file, by its extension; a record that does not read is refused with its place. */
        static List<GameRecord> readRecords(Path f) throws java.io.IOException {
            String name = f.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
            String text = Files.readString(f);
            List<GameRecord> out = new ArrayList<>();
            try {
                if (name.endsWith(".pgn")) {
                    out.addAll(Pgn.parseAll(text));
                } else if (name.endsWith(".kif") || name.endsWith(".kifu")) {
                    out.addAll(Kif.parseAll(text));
                } else if (name.endsWith(".csa")) {
                    out.add(Csa.parse(text));
                } else {
                    throw new IllegalArgumentException("unknown record format; expected .pgn, .kif, .kifu or .csa");
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
            }
            return out;
        }
    }

    /** {@code koma nnue expand}: more positions, labelled by the hand-written evaluation. */
    @Command(name = "expand", mixinStandardHelpOptions = true,
            description = "More training positions from the shards of --data: for each position up to "
                    + "--per-position successors (a random legal move each) whose quiescence score agrees with the "
                    + "hand-written static evaluation within --quiet-margin, scored by that quiescence search and "
                    + "given the game's result. Shard K of --data becomes shard K of --out; shards there are skipped.")
    static final class Expand implements Callable<Integer> {
        @Mixin
        VariantOption variant;

        @Option(names = "--data", required = true, description = "Directory of the shards to expand.")
        Path data;

        @Option(names = "--out", required = true, description = "Directory of the expanded shards.")
        Path out;

        @Option(names = "--per-position", defaultValue = "4",
                description = "Successors tried per position. Default: ${DEFAULT-VALUE}.")
        int perPosition;

        @Option(names = "--quiet-margin", defaultValue = "60",
                description = "Largest gap (cp) between quiescence and static score. Default: ${DEFAULT-VALUE}.")
        int quietMargin;

        @Option(names = "--seed", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Option(names = "--threads", defaultValue = "1", description = "Shards expanded at once. Default: ${DEFAULT-VALUE}.")
        int threads;

        @Option(names = "--holdout-every", defaultValue = "10",
                description = "Shard K is not expanded when K %% N = N - 1: the shards nnue train holds out with the "
                        + "same --holdout-every (by number, in every directory), whose copies would join the held-out "
                        + "positions with the teacher's own scores; 0 expands every shard. Default: ${DEFAULT-VALUE}.")
        int holdoutEvery;

        @Override
        public Integer call() throws Exception {
            long t0 = System.currentTimeMillis();
            long n = koma.engine.nnue.Expand.run(new koma.engine.nnue.Expand.Settings(variant.rules(), data, out,
                    perPosition, quietMargin, seed, threads, holdoutEvery), System.out::println);
            System.out.printf("%d positions in %d s%n", n, (System.currentTimeMillis() - t0) / 1000);
            return 0;
        }
    }

    /** {@code koma nnue train}: a net from shards. */
    @Command(name = "train", mixinStandardHelpOptions = true,
            description = {"Trains a net (inputs -> H) x 2 -> 1 on the shards of the --data directories (every "
                    + "--holdout-every-th shard held out for the validation loss), keeps the epoch with the lowest "
                    + "validation loss, and writes OUT.ckpt (the float model), OUT.nnue (the engine's format) and "
                    + "OUT.manifest (data, seeds, epochs, losses).",
                    "Use -Xmx (KOMA_JAVA_OPTS) for large data: a position takes about 4 bytes per piece."})
    static final class Train implements Callable<Integer> {
        @Mixin
        VariantOption variant;

        @Option(names = "--data", required = true, split = ",", description = "Shard directories (comma-separated).")
        List<Path> data;

        @Option(names = "--out", required = true, description = "Output path without extension (a trailing .nnue is "
                + "taken off: --out wa.nnue writes wa.nnue, wa.ckpt and wa.manifest).")
        Path out;

        @Option(names = "--hidden", defaultValue = "128", description = "Hidden neurons per side. Default: ${DEFAULT-VALUE}.")
        int hidden;

        @Option(names = "--epochs", defaultValue = "12", description = "Epochs. Default: ${DEFAULT-VALUE}.")
        int epochs;

        @Option(names = "--batch", defaultValue = "4096", description = "Batch size. Default: ${DEFAULT-VALUE}.")
        int batch;

        @Option(names = "--lr", defaultValue = "0.002", description = "Learning rate. Default: ${DEFAULT-VALUE}.")
        double lr;

        @Option(names = "--gamma", defaultValue = "0.8", description = "Learning rate factor per epoch. Default: ${DEFAULT-VALUE}.")
        double gamma;

        @Option(names = "--lambda", defaultValue = "0.75",
                description = "Weight of the search score in the target (the rest: the result). Default: ${DEFAULT-VALUE}.")
        double lambda;

        @Option(names = "--k", description = "Fixed K of sigmoid(K x score / 400) instead of fitting it to the results "
                + "(for data of nearly all draws; use with --lambda 1).")
        Double fixedK;

        @Option(names = "--holdout-every", defaultValue = "10",
                description = "Every N-th shard (number mod N = N-1) is held out. Default: ${DEFAULT-VALUE}.")
        int holdoutEvery;

        @Option(names = "--max-shards", defaultValue = "100000",
                description = "Read at most this many shards of each directory. Default: ${DEFAULT-VALUE}.")
        int maxShards;

        @Option(names = "--seed", defaultValue = "1", description = "Initialisation and shuffling seed. Default: ${DEFAULT-VALUE}.")
        long seed;

        @Option(names = "--threads", defaultValue = "2", description = "Threads. Default: ${DEFAULT-VALUE}.")
        int threads;

        @Option(names = "--king-buckets", defaultValue = "1x1",
                description = "King buckets FxR: the inputs repeated for each of F x R equal regions of the board, the "
                        + "region of the perspective's own king chosen (files x ranks, as each side sees the board). "
                        + "Default: ${DEFAULT-VALUE} (none).")
        String kingBuckets;

        @Option(names = "--king-window", defaultValue = "0",
                description = "King window R: each piece is also an input by its offset from each king (but that king "
                        + "itself), when at most R files and ranks away (as each side sees the board), so that an attacker next to "
                        + "the king is one input wherever the king stands. Not with --king-buckets. Default: "
                        + "${DEFAULT-VALUE} (none).")
        int kingWindow;

        @Option(names = "--output-buckets", defaultValue = "1",
                description = "Output buckets N: N output layers, each position read through the one of its pieces "
                        + "on the board ((pieces - 1) x N / the start position's pieces: Stockfish's (pieces - 1) / 4 "
                        + "for chess with 8), the hidden layer shared; 1.." + Network.MAX_OUTPUT_BUCKETS
                        + ". A net of one bucket given to --init starts every bucket. Default: ${DEFAULT-VALUE} (one "
                        + "output layer).")
        int outputBuckets;

        @Option(names = "--init", paramLabel = "NET",
                description = "Start from this net instead of random weights (a warm start): a net file, or 'builtin' "
                        + "for the rule set's built-in net. Its layout must be this one's, or the plain one when "
                        + "--king-window adds a window (whose inputs then start at 0); or a plain net of another rule "
                        + "set on the same board with the same pieces and no hands (Wa shogi's for Wa shogi with "
                        + "drops), whose piece weights then start this net's, the hand features at 0. It may have "
                        + "fewer hidden neurons than --hidden (a net grown): they start the first ones, the others "
                        + "keep random input weights and start with output weights 0. With --king-buckets: a plain "
                        + "net of this rule set starts the shared block (every bucket starts as that net), a net of "
                        + "this grid each bucket's own weights.")
        String init;

        @Option(names = "--bucket-decay", defaultValue = "0",
                description = "With king buckets: the buckets' own weights are multiplied by 1 - lr x this after "
                        + "every step (decoupled weight decay; the shared block is not decayed), so that a bucket "
                        + "departs from the shared weights only where the data keep pulling it. Default: "
                        + "${DEFAULT-VALUE} (none).")
        double bucketDecay;

        @Option(names = "--weight-decay", defaultValue = "0",
                description = "Every feature and output weight is multiplied by 1 - lr x this after every step "
                        + "(decoupled weight decay, as AdamW's; biases are not decayed), against memorising a small "
                        + "data set. Default: ${DEFAULT-VALUE} (none).")
        double weightDecay;

        @Option(names = "--mirror", description = "Also learn every training position turned left for right (files "
                + "reversed): twice the data for rule sets whose rules are the same mirrored (the shogi family, and "
                + "chess once no castling right is left; a chess position that still has one is learnt once); a rule "
                + "set that is not is refused when a position shows it.")
        boolean mirror;

        @Override
        public Integer call() throws Exception {
            RuleSet rs = variant.rules();
            if (!kingBuckets.matches("\\d{1,2}x\\d{1,2}")) {
                throw new IllegalArgumentException("--king-buckets: expected FILESxRANKS such as 3x1, got '" + kingBuckets
                        + "'");
            }
            String[] grid = kingBuckets.split("x");
            FeatureSet fs = new FeatureSet(rs, Integer.parseInt(grid[0]), Integer.parseInt(grid[1]), kingWindow);
            List<Path> files = new ArrayList<>();
            for (Path d : data) {
                if (!Files.isDirectory(d)) {
                    throw new IllegalArgumentException("--data " + d + ": not a directory");
                }
                try (Stream<Path> st = Files.list(d)) {
                    st.filter(f -> f.getFileName().toString().matches("shard-\\d+\\.txt")).sorted().limit(maxShards)
                            .forEach(files::add);
                }
            }
            if (files.isEmpty()) {
                throw new IllegalArgumentException("no shard-NNNNN.txt files in " + data);
            }
            Trainer.Settings ts = new Trainer.Settings(hidden, epochs, batch, lr, gamma, lambda, holdoutEvery, seed,
                    threads, mirror);
            Trainer t = new Trainer(rs, ts, fs, outputBuckets);
            t.setBucketDecay(bucketDecay);
            t.setWeightDecay(weightDecay);
            if (init != null) {
                t.initFrom(init.equals("builtin") ? Network.builtIn(rs).orElseThrow(() -> new IllegalArgumentException(
                        "--init builtin: " + rs.id + " has no built-in net")) : Network.read(Path.of(init)));
            }
            Trainer.Data[] d = t.load(files, System.out::println);
            double fitted = t.fitK(d[0]);
            if (fixedK != null) {
                t.setK(fixedK);
                System.out.printf("K = %.4f (given; fitted to the results it would be %.4f)%n", t.k(), fitted);
            } else {
                System.out.printf("K = %.4f (sigmoid(K * score / 400) fitted to the results)%n", fitted);
            }
            System.out.printf("validation loss before training %.6f%n", t.loss(d[1]));
            double teacherLoss = t.teacherLoss(d[1]);
            System.out.printf("the hand-written evaluation's validation loss %.6f (a net above it predicts the "
                    + "search worse than its teacher)%n", teacherLoss);
            long t0 = System.currentTimeMillis();
            double best = t.train(d[0], d[1], System.out::println);
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            String base = out.toString().replaceFirst("\\.nnue$", "");
            // NaN with king buckets, whose exported net has no float twin to read it back through
            double exportedLoss = t.exportedLoss(d[1]);
            String exported = Double.isNaN(exportedLoss) ? "not measured with king buckets"
                    : String.format("%.6f", exportedLoss);
            System.out.printf("the exported net's validation loss: %s (int16 weights read back)%n", exported);
            t.saveCheckpoint(Path.of(base + ".ckpt"));
            Network net = t.quantise();
            net.write(Path.of(base + ".nnue"));
            String manifest = String.format("rule set: %s%ndata: %s (%d shards, %d training + %d held-out positions)%n"
                            + "net: (%d -> %d) x 2 -> 1, SCReLU, QA %d QB %d, king buckets %dx%d%s%s%ntraining: %d epochs, batch %d, lr %s, "
                            + "gamma %s, lambda %s, seed %d, K %.4f%s%s%s, %d s%nbest validation loss: %.6f (the hand-written "
                            + "evaluation's: %.6f; the exported int16 net's: %s)%n",
                    rs.id, data, files.size(), d[0].size(), d[1].size(), net.inputs, hidden, Network.QA,
                    Network.QB, fs.kingFiles, fs.kingRanks, fs.kingWindow > 0 ? ", king window " + fs.kingWindow : "",
                    net.outputBuckets > 1 ? ", " + net.outputBuckets + " output buckets over " + net.bucketPieces
                            + " pieces" : "",
                    epochs, batch, lr, gamma, lambda, seed, t.k(), fixedK != null ? " (given)" : " (fitted)",
                    mirror ? ", training positions mirrored too" : "",
                    (bucketDecay > 0 ? ", bucket decay " + bucketDecay : "")
                            + (weightDecay > 0 ? ", weight decay " + weightDecay : "") + (init != null ? ", started from " + init : ""),
                    (System.currentTimeMillis() - t0) / 1000,
                    best, teacherLoss, exported);
            Files.writeString(Path.of(base + ".manifest"), manifest);
            System.out.print(manifest);
            System.out.println("wrote " + base + ".nnue, " + base + ".ckpt and " + base + ".manifest");
            return 0;
        }
    }

    /** {@code koma nnue export}: a checkpoint into the engine's net format. */
    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Quantises a float checkpoint (OUT.ckpt of nnue train) into the engine's net format "
                    + "(int16, gzip), to be put in koma-engine/src/main/resources/koma/engine/nnue/<rule set>.nnue "
                    + "or given to the engine with the EvalFile option.")
    static final class Export implements Callable<Integer> {
        @Mixin
        VariantOption variant;

        @Option(names = "--ckpt", required = true, description = "The checkpoint.")
        Path ckpt;

        @Option(names = {"-o", "--out"}, required = true, description = "The net file to write.")
        Path out;

        @Override
        public Integer call() throws Exception {
            RuleSet rs = variant.rules();
            Trainer t = Trainer.loadCheckpoint(ckpt, rs);
            Network net = t.quantise();
            net.write(out);
            System.out.printf("%s: %d inputs, %d hidden, %d bytes, %s%n", out, net.inputs, net.hidden, Files.size(out),
                    t.calibrated() ? "weights rounded against the hidden layer's measurements"
                            : "weights rounded to the nearest step (the checkpoint has no measurements of the hidden "
                            + "layer; written before they were kept, it may lose much in the rounding)");
            return 0;
        }
    }
}
