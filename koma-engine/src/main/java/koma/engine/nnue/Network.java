package koma.engine.nnue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import koma.rules.RuleSet;

/**
 * A quantised net: (inputs -> H) x 2 -> 1 with squared clipped ReLU. Feature weights and biases are int16 scaled by
 * {@link #QA}, output weights int16 scaled by {@link #QB}, the output bias int32 scaled by QA x QB; the output times
 * {@link #SCALE} / (QA x QB) is centipawns for the side to move. Immutable and shared by every search thread.
 *
 * <p>File format (the engine's resource format, gzip-compressed, big-endian): the magic {@code KOMANNUE}, format
 * version 1, the rule-set id, the {@link FeatureSet#layoutHash}, inputs, H, then featureWeights[input * H + h],
 * featureBias[H], outputWeights[2H] (the side to move's half first) as int16 and the output bias as int32. Version 2
 * (a net with king buckets) has the bucket grid's files and ranks as two int32 after the layout hash; version 3 (a net
 * with a king window) has those and the window's reach as a third int32. A net without either is written as version
 * 1, one with buckets alone as version 2. Version 4 (a net with output buckets) has the bucket grid, the window's reach,
 * the number of output buckets and {@link #bucketPieces} as five int32 after the layout hash, then outputWeights for
 * each bucket in turn (2H each) and one int32 output bias per bucket.
 *
 * <p>Output buckets: the output layer is one of {@link #outputBuckets}, chosen by the number of pieces on the board
 * ({@link #bucket}), as Stockfish's and most small nets' are: the same hidden layer read differently in the opening,
 * the middle game and the ending. One bucket is the plain net.
 */
public final class Network {
    public static final int QA = 255, QB = 64, SCALE = 400;
    /** The largest output weight (1.98 x QB): what keeps the output's int sums ({@link Kernels#half}) from overflowing. */
    public static final int MAX_OUTPUT_WEIGHT = 127;
    private static final long MAGIC = 0x4B4F4D414E4E5545L; // "KOMANNUE"
    private static final int VERSION = 1, VERSION_BUCKETS = 2, VERSION_WINDOW = 3, VERSION_OUTPUT = 4;
    /** The most output buckets a net may have. */
    public static final int MAX_OUTPUT_BUCKETS = 32;
    /** The directory of the built-in nets (class-path resources). */
    public static final String RESOURCE_DIR = "/koma/engine/nnue/";

    public final String ruleSet;
    public final long layoutHash;
    public final int inputs, hidden;
    /** The king-bucket grid of its inputs ({@link FeatureSet}; 1 x 1: none). */
    public final int kingFiles, kingRanks;
    /** The reach of its inputs' king window ({@link FeatureSet}; 0: none). */
    public final int kingWindow;
    /**
     * featureWeights[input * H + h], followed by one row of zeros (row {@link #inputs}): an update that switches
     * fewer features than its loop has slots points the rest at that row, so that one branch-free pass serves every
     * move.
     */
    final short[] featureWeights;
    final short[] featureBias;
    /** outputWeights[bucket * 2H + i]: each output bucket's 2H weights, the side to move's half first. */
    final short[] outputWeights;
    /** The output bias of each output bucket. */
    final int[] outputBiases;
    /** The number of output buckets (1: one output layer). */
    public final int outputBuckets;
    /**
     * The pieces on the board of the rule set's start position: {@link #bucket} divides the piece counts from 1 to
     * this into {@link #outputBuckets} equal ranges.
     */
    public final int bucketPieces;

    /** A net without king buckets. */
    public Network(String ruleSet, long layoutHash, int inputs, int hidden, short[] featureWeights,
                   short[] featureBias, short[] outputWeights, int outputBias) {
        this(ruleSet, layoutHash, 1, 1, 0, inputs, hidden, featureWeights, featureBias, outputWeights, outputBias);
    }

    /** A net with king buckets (1 x 1: none) and a king window (0: none), one output bucket. */
    public Network(String ruleSet, long layoutHash, int kingFiles, int kingRanks, int kingWindow, int inputs,
                   int hidden, short[] featureWeights, short[] featureBias, short[] outputWeights, int outputBias) {
        this(ruleSet, layoutHash, kingFiles, kingRanks, kingWindow, inputs, hidden, featureWeights, featureBias, 1, 1,
                outputWeights, new int[]{outputBias});
    }

    /**
     * A net with king buckets (1 x 1: none), a king window (0: none) and {@code outputBuckets} output layers
     * ({@code outputWeights} 2H for each in turn, one bias each), bucketed by the pieces on the board out of
     * {@code bucketPieces}.
     */
    public Network(String ruleSet, long layoutHash, int kingFiles, int kingRanks, int kingWindow, int inputs,
                   int hidden, short[] featureWeights, short[] featureBias, int outputBuckets, int bucketPieces,
                   short[] outputWeights, int[] outputBiases) {
        checkOutputBuckets(outputBuckets);
        if (bucketPieces < 1) {
            throw new IllegalArgumentException("the pieces that divide the output buckets must be at least 1, got "
                    + bucketPieces);
        }
        if (featureWeights.length != inputs * hidden || featureBias.length != hidden
                || outputWeights.length != outputBuckets * 2 * hidden || outputBiases.length != outputBuckets) {
            throw new IllegalArgumentException("net arrays do not match " + inputs + " inputs, " + hidden
                    + " hidden neurons and " + outputBuckets + " output bucket(s)");
        }
        for (short w : outputWeights) {
            if (Math.abs(w) > MAX_OUTPUT_WEIGHT) {
                throw new IllegalArgumentException("an output weight of " + w + " is beyond +-" + MAX_OUTPUT_WEIGHT);
            }
        }
        this.ruleSet = ruleSet;
        this.layoutHash = layoutHash;
        this.kingFiles = kingFiles;
        this.kingRanks = kingRanks;
        this.kingWindow = kingWindow;
        this.inputs = inputs;
        this.hidden = hidden;
        this.featureWeights = java.util.Arrays.copyOf(featureWeights, (inputs + 1) * hidden);
        this.featureBias = featureBias;
        this.outputWeights = outputWeights;
        this.outputBiases = outputBiases;
        this.outputBuckets = outputBuckets;
        this.bucketPieces = bucketPieces;
    }

    /** Refuses a number of output buckets outside 1..{@link #MAX_OUTPUT_BUCKETS}, naming it. */
    static void checkOutputBuckets(int outputBuckets) {
        if (outputBuckets < 1 || outputBuckets > MAX_OUTPUT_BUCKETS) {
            throw new IllegalArgumentException("output buckets must be 1.." + MAX_OUTPUT_BUCKETS + ", got "
                    + outputBuckets);
        }
    }

    /** The output bucket of a position with {@code pieces} pieces on the board (0 with one bucket). */
    public int bucket(int pieces) {
        return outputBucket(pieces, outputBuckets, bucketPieces);
    }

    /**
     * The output bucket of {@code pieces} pieces on the board out of {@code bucketPieces}, of {@code buckets}: (pieces
     * - 1) x buckets / bucketPieces, within 0..buckets - 1 (Stockfish's (pieces - 1) / 4 for chess's 32 and 8).
     */
    public static int outputBucket(int pieces, int buckets, int bucketPieces) {
        return Math.max(0, Math.min(buckets - 1, (pieces - 1) * buckets / bucketPieces));
    }

    /**
     * The output for accumulators {@code us} (side to move) and {@code them}, each {@code hidden} long from {@code
     * off}, through output bucket {@code bucket}.
     */
    int forward(short[] us, int usOff, short[] them, int themOff, int bucket) {
        int w = bucket * 2 * hidden;
        long sum = Kernels.half(us, usOff, outputWeights, w, hidden, QA)
                + Kernels.half(them, themOff, outputWeights, w + hidden, hidden, QA);
        long out = sum / QA + outputBiases[bucket];
        return (int) (out * SCALE / (QA * QB));
    }

    /** Output bucket {@code bucket}'s bias (scaled by QA x QB). */
    public int outputBias(int bucket) {
        return outputBiases[bucket];
    }

    /** Writes the net in the resource format. */
    public void write(OutputStream raw) throws IOException {
        GZIPOutputStream gz = new GZIPOutputStream(raw);
        DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(gz, 1 << 16));
        out.writeLong(MAGIC);
        int version = outputBuckets > 1 ? VERSION_OUTPUT : kingWindow > 0 ? VERSION_WINDOW
                : kingFiles * kingRanks > 1 ? VERSION_BUCKETS : VERSION;
        out.writeInt(version);
        out.writeUTF(ruleSet);
        out.writeLong(layoutHash);
        if (version != VERSION) {
            out.writeInt(kingFiles);
            out.writeInt(kingRanks);
        }
        if (version >= VERSION_WINDOW) {
            out.writeInt(kingWindow);
        }
        if (version == VERSION_OUTPUT) {
            out.writeInt(outputBuckets);
            out.writeInt(bucketPieces);
        }
        out.writeInt(inputs);
        out.writeInt(hidden);
        short[] weights = java.util.Arrays.copyOf(featureWeights, inputs * hidden);
        ByteBuffer b = ByteBuffer.allocate(2 * (weights.length + featureBias.length + outputWeights.length));
        b.order(ByteOrder.BIG_ENDIAN);
        for (short[] a : new short[][]{weights, featureBias, outputWeights}) {
            for (short s : a) {
                b.putShort(s);
            }
        }
        out.write(b.array());
        for (int bias : outputBiases) {
            out.writeInt(bias);
        }
        out.flush();
        gz.finish();
    }

    /** Writes the net to a file. */
    public void write(Path file) throws IOException {
        try (OutputStream o = Files.newOutputStream(file)) {
            write(o);
        }
    }

    /**
     * Reads a net and checks it against the rule set's feature layout; a wrong file is refused with the reason
     * (not a net, another rule set, another layout, truncated).
     */
    public static Network read(InputStream raw, RuleSet rs, String name) throws IOException {
        return read(raw, id -> {
            if (!id.equals(rs.id)) {
                throw new IOException(name + ": a net for " + id + ", not " + rs.id);
            }
            return rs;
        }, name);
    }

    /** The rule set a net names in its header, given the id; refuses it by throwing. */
    private interface RuleSetFor {
        RuleSet of(String id) throws IOException;
    }

    private static Network read(InputStream raw, RuleSetFor ruleSetFor, String name) throws IOException {
        DataInputStream in;
        try {
            in = new DataInputStream(new java.io.BufferedInputStream(new GZIPInputStream(raw), 1 << 16));
        } catch (java.util.zip.ZipException e) {
            throw new IOException(name + ": not a Koma net (not gzip data)");
        }
        try {
            if (in.readLong() != MAGIC) {
                throw new IOException(name + ": not a Koma net (bad magic)");
            }
            int version = in.readInt();
            if (version < VERSION || version > VERSION_OUTPUT) {
                throw new IOException(name + ": net format version " + version + ", this engine reads " + VERSION
                        + " to " + VERSION_OUTPUT);
            }
            String id = in.readUTF();
            RuleSet rs = ruleSetFor.of(id);
            long hash = in.readLong();
            int kingFiles = 1, kingRanks = 1, kingWindow = 0, outputBuckets = 1, bucketPieces = 1;
            if (version != VERSION) {
                kingFiles = in.readInt();
                kingRanks = in.readInt();
            }
            if (version >= VERSION_WINDOW) {
                kingWindow = in.readInt();
            }
            if (version == VERSION_OUTPUT) {
                outputBuckets = in.readInt();
                bucketPieces = in.readInt();
                if (outputBuckets < 1 || outputBuckets > MAX_OUTPUT_BUCKETS || bucketPieces < 1
                        || bucketPieces > rs.geometry.squares) {
                    throw new IOException(name + ": " + outputBuckets + " output buckets over " + bucketPieces
                            + " pieces; this engine reads 1.." + MAX_OUTPUT_BUCKETS + " over 1.."
                            + rs.geometry.squares);
                }
            }
            FeatureSet fs;
            try {
                fs = new FeatureSet(rs, kingFiles, kingRanks, kingWindow);
            } catch (IllegalArgumentException e) {
                throw new IOException(name + ": " + e.getMessage());
            }
            int inputs = in.readInt(), hidden = in.readInt();
            if (hash != fs.layoutHash || inputs != fs.inputs) {
                throw new IOException(name + ": its inputs (" + inputs + ") do not match the rule set's layout ("
                        + fs.inputs + " inputs)");
            }
            if (hidden < 1 || hidden > 4096) {
                throw new IOException(name + ": hidden size " + hidden + " out of 1..4096");
            }
            short[] fw = readShorts(in, inputs * hidden), fb = readShorts(in, hidden),
                    ow = readShorts(in, outputBuckets * 2 * hidden);
            int[] ob = new int[outputBuckets];
            for (int i = 0; i < outputBuckets; i++) {
                ob[i] = in.readInt();
            }
            try {
                return new Network(id, hash, kingFiles, kingRanks, kingWindow, inputs, hidden, fw, fb, outputBuckets,
                        bucketPieces, ow, ob);
            } catch (IllegalArgumentException e) {
                throw new IOException(name + ": " + e.getMessage());
            }
        } catch (java.io.EOFException e) {
            throw new IOException(name + ": truncated net");
        }
    }

    private static short[] readShorts(DataInputStream in, int n) throws IOException {
        byte[] b = new byte[2 * n];
        in.readFully(b);
        short[] s = new short[n];
        ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN).asShortBuffer().get(s);
        return s;
    }

    /**
     * Reads a net file for whichever built-in rule set it names (the trainer's --init may start one rule set from a
     * net of another), checked against that rule set's layout as {@link #read(InputStream, RuleSet, String)} does.
     */
    public static Network read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, id -> {
                try {
                    return RuleSet.of(id);
                } catch (IllegalArgumentException e) { // "unknown rule set 'X'; known: ..."
                    throw new IOException(file + ": a net for an " + e.getMessage());
                }
            }, file.toString());
        }
    }

    /** Reads a net file for the rule set. */
    public static Network read(Path file, RuleSet rs) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, rs, file.toString());
        }
    }

    private static final Map<String, java.util.Optional<Network>> BUILT_IN = new ConcurrentHashMap<>();

    /** The rule set's built-in net ({@code RESOURCE_DIR/<id>.nnue}), read once, or empty when it has none. */
    public static java.util.Optional<Network> builtIn(RuleSet rs) {
        return BUILT_IN.computeIfAbsent(rs.id, id -> {
            try (InputStream in = Network.class.getResourceAsStream(RESOURCE_DIR + id + ".nnue")) {
                return in == null ? java.util.Optional.empty() : java.util.Optional.of(read(in, rs, id + ".nnue"));
            } catch (IOException e) {
                throw new IllegalStateException("built-in net: " + e.getMessage(), e);
            }
        });
    }
}
