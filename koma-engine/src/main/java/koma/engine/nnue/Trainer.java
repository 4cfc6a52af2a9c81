package koma.engine.nnue;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * Trains a net in floating point from {@link DataGen} shards and quantises it into a {@link Network}. Loss: the
 * squared error between sigmoid(K x output) and the target lambda x sigmoid(K x score / 400) + (1 - lambda) x
 * result, where K is fitted on the data first (the scale at which a search score predicts the result, which differs
 * between rule sets), so that the net's output is in the search's centipawns. Adam with the learning rate decayed
 * by {@code gamma} per epoch, mini-batches split over threads, weights clipped to what int16 holds after
 * quantisation. Every {@code holdoutEvery}-th shard is kept out of training to measure a validation loss after each
 * epoch; the epoch with the lowest validation loss is kept. The data are shuffled (seeded) every epoch.
 *
 * <p>With king buckets the float model also has one shared block of the inputs of a single bucket (a factoriser,
 * as shogi trainers do for HalfKP): each position switches on its bucket's features and the same features in the
 * shared block, so what holds in every bucket is learnt from all the data, and a bucket's own weights learn only
 * the differences. The export adds the shared block to every bucket, so the net computes what the model does.
 * A bucket decay ({@link #setBucketDecay}) shrinks the buckets' own weights toward 0 after every step (decoupled
 * weight decay, as AdamW's), so that a bucket departs from the shared block only where the data keep pulling it.
 *
 * <p>With output buckets ({@link Network#outputBuckets}) the model has one output layer per bucket, each position
 * trained through its own ({@link Network#outputBucket} of its pieces on the board); the hidden layer is shared.
 */
public final class Trainer {
    /** Settings of a training run. */
    public record Settings(int hidden, int epochs, int batch, double lr, double gamma, double lambda,
                           int holdoutEvery, long seed, int threads, boolean mirror) {
        /** Settings without the mirrored copies. */
        public Settings(int hidden, int epochs, int batch, double lr, double gamma, double lambda, int holdoutEvery,
                        long seed, int threads) {
            this(hidden, epochs, batch, lr, gamma, lambda, holdoutEvery, seed, threads, false);
        }

        /**
         * {@code mirror}: every training position is also learnt turned left for right (files reversed, hands
         * kept), with its score and result: twice the data where the rules are the same mirrored (the shogi family,
         * and chess once no castling right is left; a position that still has one is learnt once, since its mirror
         * would lose them). Each mirrored position's legal moves are counted against the original's, so a rule set
         * that is not symmetric is refused at load. The held-out positions are not mirrored.
         */
        public Settings {
            if (hidden < 1 || hidden > 4096) {
                throw new IllegalArgumentException("hidden size must be 1..4096, got " + hidden);
            }
            if (epochs < 1 || batch < 1 || threads < 1) {
                throw new IllegalArgumentException("epochs, batch and threads must be at least 1");
            }
            if (lambda < 0 || lambda > 1) {
                throw new IllegalArgumentException("lambda must be in 0..1, got " + lambda);
            }
            if (holdoutEvery < 2) {
                throw new IllegalArgumentException("holdout-every must be at least 2, got " + holdoutEvery);
            }
        }
    }

    /** Weights are clipped to this so that they fit int16 once scaled by QA (features) or QB (output). */
    static final float CLIP = 1.98f;
    static final int MAX_SCORE = 4000;

    /** The training positions: features of both perspectives (side to move's first), score and result. */
    public static final class Data {
        /** The number of positions. */
        public int size() {
            return size;
        }

        final List<char[]> feats = new ArrayList<>();
        int[] start = new int[1 << 16];
        short[] count = new short[1 << 16];
        short[] score = new short[1 << 16];
        byte[] result = new byte[1 << 16];
        /** The pieces on the board of each position (what picks its output bucket). */
        short[] pieces = new short[1 << 16];
        /**
         * The hand-written evaluation of each position (side to move, clipped as the score); held-out data only,
         * null for training data (see {@link #withTeacher}).
         */
        short[] teacher;
        int size;
        private char[] chunk = new char[1 << 20];
        private int chunkUsed;
        private int[] chunkOf = new int[1 << 16];

        /** Makes this data keep the hand-written evaluation of each position added from now on. */
        Data withTeacher() {
            teacher = new short[start.length];
            return this;
        }

        void add(int[] us, int[] them, int n, int sc, double res) {
            add(us, them, n, sc, res, 0, 0);
        }

        void add(int[] us, int[] them, int n, int sc, double res, int teacherScore, int pieceCount) {
            if (size == start.length) {
                int m = size * 2;
                if (teacher != null) {
                    teacher = java.util.Arrays.copyOf(teacher, m);
                }
                start = java.util.Arrays.copyOf(start, m);
                count = java.util.Arrays.copyOf(count, m);
                score = java.util.Arrays.copyOf(score, m);
                result = java.util.Arrays.copyOf(result, m);
                pieces = java.util.Arrays.copyOf(pieces, m);
                chunkOf = java.util.Arrays.copyOf(chunkOf, m);
            }
            if (chunkUsed + 2 * n > chunk.length || feats.isEmpty()) {
                chunk = new char[Math.max(1 << 20, 2 * n)];
                chunkUsed = 0;
                feats.add(chunk);
            }
            for (int i = 0; i < n; i++) {
                chunk[chunkUsed + i] = (char) us[i];
                chunk[chunkUsed + n + i] = (char) them[i];
            }
            start[size] = chunkUsed;
            chunkOf[size] = feats.size() - 1;
            count[size] = (short) n;
            score[size] = (short) Math.max(-MAX_SCORE, Math.min(MAX_SCORE, sc));
            result[size] = (byte) Math.round(res * 2);
            pieces[size] = (short) pieceCount;
            if (teacher != null) {
                teacher[size] = (short) Math.max(-MAX_SCORE, Math.min(MAX_SCORE, teacherScore));
            }
            chunkUsed += 2 * n;
            size++;
        }

        char[] chunkOf(int i) {
            return feats.get(chunkOf[i]);
        }
    }

    private final RuleSet rs;
    private final FeatureSet fs;
    private final Settings s;
    private final int n, h;
    /** Output buckets, and the start position's pieces on the board that divide them ({@link Network#bucketPieces}). */
    private final int buckets, bucketPieces;
    /**
     * The float model: feature weights [input * H + h], biases, output weights (2H for each output bucket in turn),
     * output biases (one a bucket).
     */
    final float[] w, b, ow, ob;
    private double k = 1;
    /** The decoupled weight decay of the buckets' own weights, per unit of learning rate (0: none). */
    private double bucketDecay;
    private double weightDecay;
    /** Whether the model was started from a net ({@link #initFrom}): then the start competes with the epochs. */
    private boolean warmStart;
    /**
     * What {@link #calibrate} measured of the hidden layer on the training data, for {@link #quantise}: per hidden
     * output (the side to move's half, then the other's) the mean activation (clipped, squared), the mean slope of
     * the activation (2x where 0 < x < 1), and the covariance of the activations (2H x 2H, row-major; null above
     * {@link #COVARIANCE_HIDDEN} neurons). Null before.
     */
    private float[] meanActivation, meanSlope, activationCovariance;
    /** At most this many positions, spread evenly over the data, are read by {@link #calibrate}. */
    static final int CALIBRATION_POSITIONS = 50_000;
    /**
     * The bound of {@link #calibrate}'s covariance work (positions x (2H)^2 / 2): fewer positions for wider nets, at
     * least 1,000; about 2 s. Above this many hidden neurons no covariance is kept (it would be (2H)^2 floats in the
     * checkpoint) and the output weights go to their nearest steps, the bias still taking their mean shift.
     */
    static final long CALIBRATION_WORK = 2_000_000_000L;
    static final int COVARIANCE_HIDDEN = 1024;

    /** A trainer of a net without king buckets. */
    public Trainer(RuleSet rs, Settings s) {
        this(rs, s, new FeatureSet(rs));
    }

    /** A trainer of a net with the inputs of {@code fs} (its king buckets) and one output layer. */
    public Trainer(RuleSet rs, Settings s, FeatureSet fs) {
        this(rs, s, fs, 1);
    }

    /** A trainer of a net with the inputs of {@code fs} (its king buckets) and {@code outputBuckets} output layers. */
    public Trainer(RuleSet rs, Settings s, FeatureSet fs, int outputBuckets) {
        Network.checkOutputBuckets(outputBuckets); // before the arrays are sized by it
        this.rs = rs;
        this.buckets = outputBuckets;
        Position start = Position.start(rs);
        this.bucketPieces = Math.max(1, start.pieceCount(0) + start.pieceCount(1));
        this.fs = fs;
        this.s = s;
        this.n = fs.inputs + (factorised() ? fs.perBucket : 0);
        if (n > Character.MAX_VALUE) {
            throw new IllegalArgumentException(rs.id + " has " + n + " inputs" + (factorised() ? " with the shared block"
                    : "") + ", more than the trainer holds (" + (int) Character.MAX_VALUE + "); fewer king buckets");
        }
        this.h = s.hidden();
        Random rng = new Random(s.seed());
        w = new float[n * h];
        b = new float[h];
        ow = new float[buckets * 2 * h];
        ob = new float[buckets];
        float a = (float) (1 / Math.sqrt(Math.max(8, fs.maxActive() / 2.0)));
        // factorised: the buckets' own weights start at 0, so the model starts as the shared block alone
        for (int i = factorised() ? fs.inputs * h : 0; i < w.length; i++) {
            w[i] = (float) ((rng.nextDouble() * 2 - 1) * a);
        }
        for (int i = 0; i < h; i++) {
            b[i] = 0.5f;
        }
        float o = (float) (1 / Math.sqrt(2.0 * h));
        for (int i = 0; i < ow.length; i++) {
            ow[i] = (float) ((rng.nextDouble() * 2 - 1) * o);
        }
    }

    /** Whether the model has the shared block of a bucketed layout (see the class comment). */
    private boolean factorised() {
        return fs.buckets > 1;
    }

    /** The model's inputs of {@code pos} seen by {@code persp}: the layout's, then the shared block's. */
    int features(Position pos, int persp, int[] out) {
        int cnt = fs.active(pos, persp, out);
        if (!factorised()) {
            return cnt;
        }
        for (int i = 0; i < cnt; i++) {
            out[cnt + i] = fs.inputs + out[i] % fs.perBucket;
        }
        return 2 * cnt;
    }

    /** Scratch size for {@link #features}. */
    int maxFeatures() {
        return fs.maxActive() * (factorised() ? 2 : 1);
    }

    /** Whether shard {@code k} of a directory is held out for the validation loss: every {@code every}-th one. */
    static boolean heldOut(long k, int every) {
        return k % every == every - 1;
    }

    /** Reads the shards of {@code dirs} into training and held-out data. */
    public Data[] load(List<Path> files, Consumer<String> log) throws IOException {
        Data train = new Data(), val = new Data().withTeacher();
        koma.engine.Evaluation teacher = new koma.engine.Evaluation(rs);
        int[] us = new int[maxFeatures()], them = new int[maxFeatures()];
        int[] moves = s.mirror() ? Position.start(rs).newMoveBuffer() : null;
        long t0 = System.currentTimeMillis();
        for (Path f : files) {
            Data d = heldOut(DataGen.shardNumber(f), s.holdoutEvery()) ? val : train;
            try (BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                String line;
                int ln = 0;
                while ((line = in.readLine()) != null) {
                    ln++;
                    String[] p = line.split(" ", 4);
                    if (p.length < 4) {
                        throw new IOException(f + ":" + ln + ": expected GAME RESULT SCORE FEN");
                    }
                    Position pos;
                    try {
                        pos = Fen.parse(rs, p[3]);
                    } catch (IllegalArgumentException e) {
                        throw new IOException(f + ":" + ln + ": " + e.getMessage());
                    }
                    int stm = pos.sideToMove();
                    int cnt = features(pos, stm, us);
                    features(pos, stm ^ 1, them);
                    int score = Integer.parseInt(p[2]);
                    double result = Double.parseDouble(p[1]);
                    int onBoard = pos.pieceCount(0) + pos.pieceCount(1);
                    d.add(us, them, cnt, score, result, d.teacher != null ? teacher.evaluate(pos) : 0, onBoard);
                    if (s.mirror() && d == train && pos.castlingRights() == 0) {
                        Position m;
                        try {
                            m = mirrored(pos);
                        } catch (IllegalArgumentException e) {
                            throw new IOException(f + ":" + ln + ": --mirror: the mirrored position is not legal in "
                                    + rs.id + ": " + e.getMessage());
                        }
                        int n0 = pos.legalMoves(moves), n1 = m.legalMoves(moves);
                        if (n0 != n1) {
                            throw new IOException(f + ":" + ln + ": --mirror: " + rs.id + " is not the same turned "
                                    + "left for right here (" + n0 + " legal moves, " + n1 + " in the mirrored position)");
                        }
                        cnt = features(m, stm, us);
                        features(m, stm ^ 1, them);
                        d.add(us, them, cnt, score, result, 0, onBoard);
                    }
                }
            }
        }
        log.accept(String.format("%d training and %d held-out positions from %d shards in %d s", train.size,
                val.size, files.size(), (System.currentTimeMillis() - t0) / 1000));
        return new Data[]{train, val};
    }

    /**
     * The position turned left for right: each piece on the square of the same rank and the mirrored file, hands,
     * side to move and the en passant square likewise; castling rights are dropped (so a position that has them
     * differs in its moves, which the caller notices).
     */
    private Position mirrored(Position pos) {
        int files = rs.geometry.files, squares = rs.geometry.squares;
        Position m = Position.empty(rs);
        for (int sq = 0; sq < squares; sq++) {
            if (!pos.isEmpty(sq)) {
                m.setPiece(mirrorFile(sq, files), pos.colorAt(sq), pos.typeAt(sq));
            }
        }
        for (int c = 0; c < 2; c++) {
            for (int t = 0; t < rs.pieceCount(); t++) {
                m.setHandCount(c, t, pos.handCount(c, t));
            }
        }
        m.setSideToMove(pos.sideToMove());
        int ep = pos.enPassantSquare();
        if (ep >= 0) {
            m.setEnPassantSquare(mirrorFile(ep, files));
        }
        m.validate();
        return m;
    }

    /** The square on the same rank as {@code sq} and the mirrored file. */
    private static int mirrorFile(int sq, int files) {
        return sq - sq % files + files - 1 - sq % files;
    }

    /** Fits K of sigmoid(K x score / 400) against the results (golden-section search on 0.01..4). */
    public double fitK(Data d) {
        double lo = 0.01, hi = 4;
        double g = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < 60; it++) {
            double a = hi - g * (hi - lo), c = lo + g * (hi - lo);
            if (kLoss(d, a) < kLoss(d, c)) {
                hi = c;
            } else {
                lo = a;
            }
        }
        k = (lo + hi) / 2;
        return k;
    }

    /**
     * Sets K instead of fitting it: for data whose results say little (self-play that is nearly all draws fits a K
     * near 0, which flattens the targets so that nothing is learnt); pair it with lambda 1, the score alone.
     */
    public void setK(double k) {
        if (!(k > 0 && k <= 10)) {
            throw new IllegalArgumentException("K must be in (0, 10], not " + k);
        }
        this.k = k;
    }

    /**
     * Sets the decoupled weight decay (as AdamW's) of the feature and output weights: after each step they are
     * multiplied by 1 - lr x decay (biases are not decayed), pulling toward 0 every weight the data do not keep
     * pulling, against a small data set's memorising. With king buckets it adds to {@link #setBucketDecay}.
     */
    public void setWeightDecay(double decay) {
        if (!(decay >= 0 && decay <= 100)) {
            throw new IllegalArgumentException("weight decay must be in 0..100, not " + decay);
        }
        weightDecay = decay;
    }

    /**
     * Sets the decay of the buckets' own weights: after each step they are multiplied by 1 - lr x decay (the shared
     * block and the other weights are not decayed). Only for a layout with king buckets.
     */
    public void setBucketDecay(double decay) {
        if (!(decay >= 0 && decay <= 100)) {
            throw new IllegalArgumentException("bucket decay must be in 0..100, not " + decay);
        }
        if (decay > 0 && !factorised()) {
            throw new IllegalArgumentException("bucket decay needs king buckets (a layout of one bucket has none)");
        }
        bucketDecay = decay;
    }

    /**
     * Starts the model from a quantised net (a warm start: the next round trains on from the shipped net instead of
     * from random weights): its weights divided by their scales. The net must have at most this hidden size (a
     * narrower net starts the first neurons; the others keep their random input weights and start with output
     * weights 0, so that a net grows without forgetting) and be either
     * <ul>
     *   <li>of this rule set, in this trainer's layout or in the plain layout (no buckets, no window) when the trainer
     *       adds a king window to it: the window's inputs then start at 0;
     *   <li>or of another rule set on the same board with the same pieces and no hands, in its plain layout, when this
     *       trainer's layout has no king window ({@link #sameBoard}: Wa shogi's net starting Wa shogi with drops). Its
     *       piece features are this layout's, feature for feature; the hand features start at 0.
     * </ul>
     * With king buckets the net must be of this rule set, either in the plain layout, whose weights then start the
     * shared block (each bucket's own weights at 0, so that every bucket starts as the plain net and learns only how
     * it differs), or in this trainer's bucketed layout, whose weights start each bucket's own (the shared block at
     * 0). Either way the model starts as the net on every position of the net's layout.
     */
    public void initFrom(Network net) {
        if (net.hidden > h) {
            throw new IllegalArgumentException("--init: a net with " + net.hidden + " hidden neurons, more than " + h);
        }
        if (net.outputBuckets != buckets && net.outputBuckets != 1) {
            throw new IllegalArgumentException("--init: a net with " + net.outputBuckets + " output buckets, not "
                    + buckets + " (or one, copied to each)");
        }
        // where the net's input i goes in this model: the same input, or the shared block's
        int offset = 0;
        if (factorised()) {
            if (!net.ruleSet.equals(rs.id)) {
                throw new IllegalArgumentException("--init: a net for " + net.ruleSet + ", not " + rs.id
                        + ": with king buckets only a net of this rule set");
            }
            boolean plain = net.layoutHash == new FeatureSet(rs).layoutHash && net.inputs == fs.perBucket;
            if (!plain && net.layoutHash != fs.layoutHash) {
                throw new IllegalArgumentException("--init: the net's inputs (" + net.inputs + ", king buckets "
                        + net.kingFiles + "x" + net.kingRanks + ") are neither this layout's (king buckets "
                        + fs.kingFiles + "x" + fs.kingRanks + ") nor the plain one");
            }
            offset = plain ? fs.inputs : 0;
        } else if (net.ruleSet.equals(rs.id)) {
            boolean same = net.layoutHash == fs.layoutHash;
            boolean plainUnderWindow = fs.kingWindow > 0 && net.kingWindow == 0 && net.kingFiles * net.kingRanks == 1
                    && net.inputs == fs.windowBase;
            if (!same && !plainUnderWindow) {
                throw new IllegalArgumentException("--init: the net's inputs (" + net.inputs + ") are not this layout's ("
                        + fs.inputs + ") nor its part without the king window");
            }
        } else {
            String why = sameBoard(net);
            if (why != null) {
                throw new IllegalArgumentException("--init: a net for " + net.ruleSet + ", not " + rs.id + ": " + why);
            }
        }
        int nh = net.hidden;
        for (int in = 0; in < n; in++) { // the net's neurons: its weights, 0 on inputs it has not (window, buckets)
            int from = in - offset;
            for (int j = 0; j < nh; j++) {
                w[in * h + j] = from >= 0 && from < net.inputs ? net.featureWeights[from * nh + j] / (float) Network.QA
                        : 0;
            }
        }
        for (int j = 0; j < nh; j++) {
            b[j] = net.featureBias[j] / (float) Network.QA;
        }
        for (int bk = 0; bk < buckets; bk++) { // a net of one output bucket starts each of them
            int from = net.outputBuckets == 1 ? 0 : bk;
            for (int half = 0; half < 2; half++) { // the side to move's neurons, then the other side's
                for (int j = 0; j < h; j++) {
                    ow[bk * 2 * h + half * h + j] = j < nh
                            ? net.outputWeights[from * 2 * nh + half * nh + j] / (float) Network.QB : 0;
                }
            }
            ob[bk] = net.outputBias(from) / (float) (Network.QA * Network.QB);
        }
        meanActivation = meanSlope = activationCovariance = null;
        warmStart = true;
    }

    /**
     * Why a net of another rule set cannot start this trainer, or null when it can: its rule set must have this
     * board, the same pieces in the same order (name, letter, moves, promotions) and no hands, the net must be in its
     * plain layout, and this trainer's layout must have no king window, so that the net's inputs are exactly this
     * layout's piece features.
     */
    private String sameBoard(Network net) {
        RuleSet other = RuleSet.of(net.ruleSet);
        FeatureSet plain = new FeatureSet(other);
        if (other.geometry.files != rs.geometry.files || other.geometry.ranks != rs.geometry.ranks) {
            return "another board (" + other.geometry.files + "x" + other.geometry.ranks + ")";
        }
        if (other.pieceCount() != rs.pieceCount()) {
            return "another set of pieces (" + other.pieceCount() + " kinds, not " + rs.pieceCount() + ")";
        }
        for (int t = 0; t < rs.pieceCount(); t++) {
            PieceType a = other.pieces.get(t), b = rs.pieces.get(t);
            if (!a.name().equals(b.name()) || !a.letter().equals(b.letter()) || !a.betza().equals(b.betza())
                    || !java.util.Arrays.equals(a.promotions(), b.promotions())) {
                return "its piece " + (t + 1) + " is " + a.name() + " (" + a.betza() + "), here " + b.name() + " ("
                        + b.betza() + ")";
            }
        }
        if (other.drops) {
            return "its rule set has hands";
        }
        if (net.layoutHash != plain.layoutHash || net.inputs != plain.inputs) {
            return "only a net in the plain layout (no king buckets, no king window) starts another rule set";
        }
        if (fs.kingWindow > 0 || fs.rotate != plain.rotate) {
            return "this layout's piece features are not the net's (a king window, or another orientation)";
        }
        return null;
    }

    private static double kLoss(Data d, double k) {
        double sum = 0;
        for (int i = 0; i < d.size; i++) {
            double e = sigmoid(k * d.score[i] / 400) - d.result[i] / 2.0;
            sum += e * e;
        }
        return sum / Math.max(1, d.size);
    }

    static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    /**
     * Runs the epochs; returns the validation loss of the kept (best) epoch. After a warm start the starting net is
     * kept when no epoch's validation loss is below its own.
     */
    public double train(Data train, Data val, Consumer<String> log) throws IOException {
        int[] order = new int[train.size];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Random rng = new Random(s.seed() + 1);
        float[] mw = new float[w.length], vw = new float[w.length], mb = new float[h], vb = new float[h],
                mo = new float[ow.length], vo = new float[ow.length];
        float[] mob = new float[buckets], vob = new float[buckets];
        int threads = s.threads();
        float[][] gw = new float[threads][w.length], gb = new float[threads][h], go = new float[threads][ow.length];
        float[][] gob = new float[threads][buckets];
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        double best = warmStart ? loss(val) : Double.MAX_VALUE;
        int keptEpoch = 0;
        float[] bw = w.clone(), bb = b.clone(), bo = ow.clone(), bob = ob.clone();
        long step = 0;
        try {
            for (int epoch = 1; epoch <= s.epochs(); epoch++) {
                long t0 = System.currentTimeMillis();
                for (int i = order.length - 1; i > 0; i--) {
                    int j = rng.nextInt(i + 1);
                    int t = order[i];
                    order[i] = order[j];
                    order[j] = t;
                }
                double lr = s.lr() * Math.pow(s.gamma(), epoch - 1);
                double trainLoss = 0;
                for (int from = 0; from < order.length; from += s.batch()) {
                    int to = Math.min(order.length, from + s.batch());
                    int per = (to - from + threads - 1) / threads;
                    List<Future<Double>> parts = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        int tf = from + t * per, tt = Math.min(to, tf + per), ti = t;
                        parts.add(pool.submit(() -> gradient(train, order, tf, tt, gw[ti], gb[ti], go[ti], gob[ti])));
                    }
                    for (Future<Double> f : parts) {
                        trainLoss += f.get();
                    }
                    step++;
                    float scale = 1f / (to - from);
                    adam(w, gw, mw, vw, scale, lr, step);
                    if (bucketDecay > 0) {
                        decay(w, fs.inputs * h, (float) (1 - lr * bucketDecay));
                    }
                    if (weightDecay > 0) {
                        decay(w, w.length, (float) (1 - lr * weightDecay));
                    }
                    adam(b, gb, mb, vb, scale, lr, step);
                    adam(ow, go, mo, vo, scale, lr, step);
                    if (weightDecay > 0) {
                        decay(ow, ow.length, (float) (1 - lr * weightDecay));
                    }
                    adam(ob, gob, mob, vob, scale, lr, step);
                }
                double vl = loss(val);
                log.accept(String.format("epoch %d: lr %.6f, train loss %.6f, validation loss %.6f, %d s", epoch, lr,
                        trainLoss / order.length, vl, (System.currentTimeMillis() - t0) / 1000));
                if (vl < best) {
                    best = vl;
                    keptEpoch = epoch;
                    System.arraycopy(w, 0, bw, 0, w.length);
                    System.arraycopy(b, 0, bb, 0, h);
                    System.arraycopy(ow, 0, bo, 0, ow.length);
                    System.arraycopy(ob, 0, bob, 0, buckets);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("training interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("training failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
        if (keptEpoch == 0 && warmStart) {
            log.accept("no epoch was below the starting net's validation loss; kept the starting net");
        }
        System.arraycopy(bw, 0, w, 0, w.length);
        System.arraycopy(bb, 0, b, 0, h);
        System.arraycopy(bo, 0, ow, 0, ow.length);
        System.arraycopy(bob, 0, ob, 0, buckets);
        calibrate(train);
        return best;
    }

    /**
     * Measures the hidden layer on {@code d} (at most {@link #CALIBRATION_POSITIONS} of its positions, evenly
     * spread) so that {@link #quantise} can round the weights without moving the scores. Rounding each weight to its
     * nearest int16 step is not enough: a net trained with weight decay spreads a piece's value over many neurons
     * in weights below one step, and its activations sit between 0 and 1 and move little from position to
     * position, so the rounding errors add up instead of cancelling. In stop 50's Wa shogi nets they shifted every
     * score by up to 33 cp and raised the held-out loss by up to 51%. The fix is that of post-training quantisation
     * (bias correction, Nagel et al. 2019; rounding chosen against the layer's own statistics, as AdaRound and GPTQ
     * do), here in its simplest greedy form.
     */
    public void calibrate(Data d) {
        if (d.size == 0) {
            return;
        }
        int m = 2 * h;
        boolean covariance = h <= COVARIANCE_HIDDEN;
        float[] accU = new float[h], accT = new float[h], a = new float[m];
        double[] act = new double[m], slope = new double[m], cov = new double[covariance ? m * m : 0];
        long positions = Math.min(CALIBRATION_POSITIONS, Math.max(1000, CALIBRATION_WORK / ((long) m * m / 2)));
        int step = (int) Math.max(1, d.size / positions), used = 0;
        for (int i = 0; i < d.size; i += step) {
            forward(d, i, accU, accT);
            for (int x = 0; x < h; x++) {
                float u = accU[x], v = accT[x];
                float cu = Math.min(Math.max(u, 0), 1), cv = Math.min(Math.max(v, 0), 1);
                a[x] = cu * cu;
                a[h + x] = cv * cv;
                slope[x] += u > 0 && u < 1 ? 2 * u : 0;
                slope[h + x] += v > 0 && v < 1 ? 2 * v : 0;
            }
            for (int x = 0; x < m; x++) {
                act[x] += a[x];
                double ax = a[x];
                for (int y = x, row = x * m; covariance && y < m; y++) {
                    cov[row + y] += ax * a[y];
                }
            }
            used++;
        }
        meanActivation = new float[m];
        meanSlope = new float[m];
        activationCovariance = covariance ? new float[m * m] : null;
        for (int x = 0; x < m; x++) {
            meanActivation[x] = (float) (act[x] / used);
            meanSlope[x] = (float) (slope[x] / used);
        }
        for (int x = 0; covariance && x < m; x++) {
            for (int y = x; y < m; y++) {
                float c = (float) (cov[x * m + y] / used - act[x] / used * (act[y] / used));
                activationCovariance[x * m + y] = c;
                activationCovariance[y * m + x] = c;
            }
        }
    }

    /** Multiplies the first {@code n} weights of {@code p} by {@code keep} (decoupled weight decay). */
    private static void decay(float[] p, int n, float keep) {
        for (int i = 0; i < n; i++) {
            p[i] *= keep;
        }
    }

    /** Adam on one parameter array, summing the threads' gradients (and clearing them), then clipping. */
    private static void adam(float[] p, float[][] g, float[] m, float[] v, float scale, double lr, long step) {
        final float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
        float c1 = (float) (1 - Math.pow(b1, step)), c2 = (float) (1 - Math.pow(b2, step));
        float a = (float) lr;
        for (int i = 0; i < p.length; i++) {
            float gr = 0;
            for (float[] t : g) {
                gr += t[i];
                t[i] = 0;
            }
            gr *= scale;
            m[i] = b1 * m[i] + (1 - b1) * gr;
            v[i] = b2 * v[i] + (1 - b2) * gr * gr;
            float x = p[i] - a * (m[i] / c1) / ((float) Math.sqrt(v[i] / c2) + eps);
            p[i] = Math.max(-CLIP, Math.min(CLIP, x));
        }
    }

    /** Accumulates the loss gradient of positions {@code order[from..to)}; returns their summed loss. */
    private double gradient(Data d, int[] order, int from, int to, float[] gw, float[] gb, float[] go, float[] gob) {
        float[] accU = new float[h], accT = new float[h], dU = new float[h], dT = new float[h];
        double sum = 0;
        for (int o = from; o < to; o++) {
            int i = order[o];
            char[] c = d.chunkOf(i);
            int st = d.start[i], cnt = d.count[i];
            float out = forward(d, i, accU, accT);
            double pred = sigmoid(k * out);
            double target = target(d, i);
            double err = pred - target;
            sum += err * err;
            float g = (float) (2 * err * pred * (1 - pred) * k);
            int bk = bucket(d, i), o0 = bk * 2 * h;
            gob[bk] += g;
            for (int x = 0; x < h; x++) {
                float u = accU[x], v = accT[x];
                float cu = Math.min(Math.max(u, 0), 1), cv = Math.min(Math.max(v, 0), 1);
                go[o0 + x] += g * cu * cu;
                go[o0 + h + x] += g * cv * cv;
                dU[x] = u > 0 && u < 1 ? g * ow[o0 + x] * 2 * u : 0;
                dT[x] = v > 0 && v < 1 ? g * ow[o0 + h + x] * 2 * v : 0;
                gb[x] += dU[x] + dT[x];
            }
            for (int j = 0; j < cnt; j++) {
                int fu = c[st + j] * h, ft = c[st + cnt + j] * h;
                for (int x = 0; x < h; x++) {
                    gw[fu + x] += dU[x];
                    gw[ft + x] += dT[x];
                }
            }
        }
        return sum;
    }

    /** The output bucket of position {@code i} of {@code d}. */
    private int bucket(Data d, int i) {
        return Network.outputBucket(d.pieces[i], buckets, bucketPieces);
    }

    private double target(Data d, int i) {
        return s.lambda() * sigmoid(k * d.score[i] / 400) + (1 - s.lambda()) * d.result[i] / 2.0;
    }

    /**
     * The mean loss on held-out {@code d} of the hand-written evaluation (the first teacher) in the net's place, with
     * the same K and target: a net whose validation loss is not below it predicts the search's scores (and results)
     * worse than the static evaluation it learns from does. NaN for data without the teacher's scores (training data).
     */
    public double teacherLoss(Data d) {
        if (d.teacher == null) {
            return Double.NaN;
        }
        double sum = 0;
        for (int i = 0; i < d.size; i++) {
            double e = sigmoid(k * d.teacher[i] / 400) - target(d, i);
            sum += e * e;
        }
        return sum / Math.max(1, d.size);
    }

    /**
     * The mean loss on {@code d} of the exported net ({@link #quantise}: int16 weights) read back as floats, with the
     * same K: what the engine plays with, up to its integer rounding. Far above {@link #loss} when the weights are
     * small against the quantisation steps (1/QA for the features, 1/QB for the output), as weight decay makes them.
     * NaN with king buckets (whose exported net has no float twin here).
     */
    public double exportedLoss(Data d) {
        if (factorised()) {
            return Double.NaN;
        }
        Trainer t = new Trainer(rs, s, fs, buckets);
        t.initFrom(quantise());
        t.k = k;
        return t.loss(d);
    }

    /** The mean loss of the float model on {@code d}. */
    public double loss(Data d) {
        float[] accU = new float[h], accT = new float[h];
        double sum = 0;
        for (int i = 0; i < d.size; i++) {
            double e = sigmoid(k * forward(d, i, accU, accT)) - target(d, i);
            sum += e * e;
        }
        return sum / Math.max(1, d.size);
    }

    /** The float model's output for position {@code i} of {@code d} (times 400: centipawns). */
    float forward(Data d, int i, float[] accU, float[] accT) {
        char[] c = d.chunkOf(i);
        int st = d.start[i], cnt = d.count[i];
        System.arraycopy(b, 0, accU, 0, h);
        System.arraycopy(b, 0, accT, 0, h);
        for (int j = 0; j < cnt; j++) {
            int fu = c[st + j] * h, ft = c[st + cnt + j] * h;
            for (int x = 0; x < h; x++) {
                accU[x] += w[fu + x];
                accT[x] += w[ft + x];
            }
        }
        int bk = bucket(d, i), o0 = bk * 2 * h;
        float out = ob[bk];
        for (int x = 0; x < h; x++) {
            float u = Math.min(Math.max(accU[x], 0), 1), v = Math.min(Math.max(accT[x], 0), 1);
            out += u * u * ow[o0 + x] + v * v * ow[o0 + h + x];
        }
        return out;
    }

    public double k() {
        return k;
    }

    /**
     * The quantised net (the export). When the model was {@link #calibrate calibrated} (after training, or read from
     * a checkpoint that has the measurements) its weights are rounded so as not to move the scores; otherwise each to
     * its nearest step.
     */
    public Network quantise() {
        short[] fw = new short[fs.inputs * h], fb = new short[h], qo = new short[ow.length];
        float[] row = new float[h];
        double[] du = new double[h], dt = new double[h];
        Integer[] order = new Integer[h];
        for (int x = 0; x < h; x++) {
            order[x] = x;
            if (calibrated()) { // how much a change of the neuron's input moves the output, on average, each side
                for (int bk = 0; bk < buckets; bk++) { // (over the output buckets, each counted alike)
                    du[x] += meanSlope[x] * ow[bk * 2 * h + x] / buckets;
                    dt[x] += meanSlope[h + x] * ow[bk * 2 * h + h + x] / buckets;
                }
            }
        }
        java.util.Arrays.sort(order, (p, q) -> Double.compare(Math.abs(du[q]) + Math.abs(dt[q]),
                Math.abs(du[p]) + Math.abs(dt[p])));
        for (int f = 0; f < fs.inputs; f++) {
            for (int x = 0; x < h; x++) {
                float v = w[f * h + x];
                if (factorised()) { // the shared block added to every bucket
                    v = Math.max(-CLIP, Math.min(CLIP, v + w[(fs.inputs + f % fs.perBucket) * h + x]));
                }
                row[x] = v;
            }
            roundFeature(row, du, dt, order, fw, f * h);
        }
        for (int i = 0; i < h; i++) {
            fb[i] = (short) Math.round(b[i] * Network.QA);
        }
        int[] qob = new int[buckets];
        for (int bk = 0; bk < buckets; bk++) {
            // the mean score change of the bucket's output weights' rounding, taken off its bias
            double shift = roundOutput(qo, bk * 2 * h);
            qob[bk] = Math.toIntExact(Math.round((ob[bk] - shift) * Network.QA * Network.QB));
        }
        return new Network(rs.id, fs.layoutHash, fs.kingFiles, fs.kingRanks, fs.kingWindow, fs.inputs, h, fw, fb,
                buckets, bucketPieces, qo, qob);
    }

    /**
     * Rounds one input's weights (one per neuron) to steps of 1/QA into {@code out[at..]}. Calibrated, each weight
     * goes up or down so that the rounding errors so far, each times its neuron's mean effect on the output
     * ({@code du} when the input is the side to move's, {@code dt} when the other side's), stay nearest 0: the
     * input's value survives even when it is spread over many neurons in weights below one step. Not calibrated,
     * each goes to the nearest step.
     */
    private void roundFeature(float[] row, double[] du, double[] dt, Integer[] order, short[] out, int at) {
        if (!calibrated()) {
            for (int x = 0; x < h; x++) {
                out[at + x] = (short) Math.round(row[x] * Network.QA);
            }
            return;
        }
        double eu = 0, et = 0;
        for (int x : order) {
            double v = row[x] * Network.QA, lo = Math.floor(v), dl = (lo - v) / Network.QA, dh = dl + 1.0 / Network.QA;
            double cl = sq(eu + du[x] * dl) + sq(et + dt[x] * dl), ch = sq(eu + du[x] * dh) + sq(et + dt[x] * dh);
            double d = cl <= ch ? dl : dh;
            out[at + x] = (short) (cl <= ch ? lo : lo + 1);
            eu += du[x] * d;
            et += dt[x] * d;
        }
    }

    /**
     * Rounds one output bucket's weights (the 2H from {@code at}) to steps of 1/QB into {@code qo} and returns the
     * mean score change that makes (in the float model's units), for its bias to take off. With several output
     * buckets each is rounded against the hidden layer's statistics over all positions, not its own. Calibrated, the weights are rounded one by one, those of
     * the most varying activations first, each up or down as gives the least variance of the errors so far against
     * the activations' covariance (a greedy GPTQ without the updates of the weights left). Calibrated without the
     * covariance (a net wider than {@link #COVARIANCE_HIDDEN}), each to the nearest step, the mean change returned;
     * not calibrated, each to the nearest step and the change is 0.
     */
    private double roundOutput(short[] qo, int at) {
        int m = 2 * h;
        if (activationCovariance == null) {
            double shift = 0;
            for (int i = 0; i < m; i++) {
                qo[at + i] = (short) Math.max(-Network.MAX_OUTPUT_WEIGHT, Math.min(Network.MAX_OUTPUT_WEIGHT,
                        Math.round(ow[at + i] * Network.QB)));
                shift += calibrated() ? meanActivation[i] * (qo[at + i] / (double) Network.QB - ow[at + i]) : 0;
            }
            return shift;
        }
        float[] c = activationCovariance;
        Integer[] order = new Integer[m];
        for (int x = 0; x < m; x++) {
            order[x] = x;
        }
        java.util.Arrays.sort(order, (p, q) -> Float.compare(c[q * m + q], c[p * m + p]));
        double[] r = new double[m]; // covariance times the errors chosen so far
        double shift = 0;
        for (int x : order) {
            double v = ow[at + x] * Network.QB, lo = Math.floor(v);
            double dl = (lo - v) / Network.QB, dh = dl + 1.0 / Network.QB, cxx = c[x * m + x];
            boolean down = cxx * dl * dl + 2 * dl * r[x] <= cxx * dh * dh + 2 * dh * r[x];
            int q = (int) Math.max(-Network.MAX_OUTPUT_WEIGHT, Math.min(Network.MAX_OUTPUT_WEIGHT, down ? lo : lo + 1));
            double d = q / (double) Network.QB - ow[at + x];
            qo[at + x] = (short) q;
            for (int y = 0; y < m; y++) {
                r[y] += c[y * m + x] * d;
            }
            shift += meanActivation[x] * d;
        }
        return shift;
    }

    private static double sq(double x) {
        return x * x;
    }

    /**
     * A checkpoint's hidden size carries the output buckets above this bit (none: one bucket), so that the
     * checkpoints written before output buckets read as they were.
     */
    private static final int CHECKPOINT_BUCKET_SHIFT = 16;

    /** Saves the float model (a checkpoint that {@link #loadCheckpoint} reads, and that export quantises). */
    public void saveCheckpoint(Path file) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(file)))) {
            out.writeUTF(rs.id);
            out.writeLong(fs.layoutHash);
            out.writeInt(n);
            out.writeInt(buckets > 1 ? h | buckets << CHECKPOINT_BUCKET_SHIFT : h);
            out.writeDouble(k);
            writeFloats(out, w, b, ow, ob);
            out.writeInt(calibrated() ? meanActivation.length : 0);
            if (calibrated()) {
                out.writeBoolean(activationCovariance != null);
                writeFloats(out, meanActivation, meanSlope);
                if (activationCovariance != null) {
                    writeFloats(out, activationCovariance);
                }
            }
        }
    }

    /** Writes the arrays' floats one after another; {@link #readFloats} reads them back into arrays of the same sizes. */
    private static void writeFloats(DataOutputStream out, float[]... arrays) throws IOException {
        for (float[] a : arrays) {
            for (float x : a) {
                out.writeFloat(x);
            }
        }
    }

    /** Fills the arrays, in order, with floats written by {@link #writeFloats}. */
    private static void readFloats(DataInputStream in, float[]... arrays) throws IOException {
        for (float[] a : arrays) {
            for (int i = 0; i < a.length; i++) {
                a[i] = in.readFloat();
            }
        }
    }

    /** Whether {@link #quantise} will round against the hidden layer's statistics (see {@link #calibrate}). */
    public boolean calibrated() {
        return meanActivation != null;
    }

    /**
     * The layout whose fingerprint a checkpoint names: without king buckets, or the bucket grid or king window that
     * gives it (a checkpoint does not store them, so that those written before buckets existed still read).
     */
    private static FeatureSet layoutOf(RuleSet rs, long hash) {
        for (int r = 1; r < Math.max(rs.geometry.files, rs.geometry.ranks); r++) {
            FeatureSet fs = new FeatureSet(rs, 1, 1, r);
            if (fs.layoutHash == hash) {
                return fs;
            }
        }
        for (int f = 1; f <= rs.geometry.files; f++) {
            for (int r = 1; r <= rs.geometry.ranks; r++) {
                FeatureSet fs = new FeatureSet(rs, f, r);
                if (fs.layoutHash == hash) {
                    return fs;
                }
            }
        }
        return new FeatureSet(rs);
    }

    /** Reads a checkpoint written by {@link #saveCheckpoint} for this rule set into a trainer of its size. */
    public static Trainer loadCheckpoint(Path file, RuleSet rs) throws IOException {
        try (java.io.BufferedInputStream buffered = new java.io.BufferedInputStream(Files.newInputStream(file));
             DataInputStream in = new DataInputStream(buffered)) {
            String id = in.readUTF();
            if (!id.equals(rs.id)) {
                throw new IOException(file + ": a checkpoint for " + id + ", not " + rs.id);
            }
            long hash = in.readLong();
            int n = in.readInt(), hb = in.readInt();
            int h = hb & ((1 << CHECKPOINT_BUCKET_SHIFT) - 1), buckets = Math.max(1, hb >>> CHECKPOINT_BUCKET_SHIFT);
            if (h < 1 || h > 4096 || buckets > Network.MAX_OUTPUT_BUCKETS) {
                throw new IOException(file + ": " + h + " hidden neurons and " + buckets + " output buckets: not a "
                        + "checkpoint of this trainer");
            }
            Trainer t = new Trainer(rs, new Settings(h, 1, 1, 0, 1, 0, 2, 0, 1), layoutOf(rs, hash), buckets);
            if (hash != t.fs.layoutHash || n != t.n) {
                throw new IOException(file + ": made for another input layout of " + rs.id);
            }
            t.k = in.readDouble();
            readFloats(in, t.w, t.b, t.ow, t.ob);
            buffered.mark(1);
            if (buffered.read() >= 0) { // checkpoints written before calibration end at the output bias
                buffered.reset();
                int m = in.readInt();
                if (m != 0 && m != 2 * h) {
                    throw new IOException(file + ": " + m + " activation means for " + h + " hidden neurons");
                }
                if (m > 0) {
                    t.meanActivation = new float[m];
                    t.meanSlope = new float[m];
                    t.activationCovariance = in.readBoolean() ? new float[m * m] : null;
                    readFloats(in, t.meanActivation, t.meanSlope);
                    if (t.activationCovariance != null) {
                        readFloats(in, t.activationCovariance);
                    }
                }
            }
            return t;
        } catch (java.io.EOFException e) {
            throw new IOException(file + ": truncated checkpoint");
        }
    }
}
