package koma.engine.nnue;

import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * The per-ply accumulator stack of one search thread: {@code acc[ply]} holds both perspectives' hidden-layer sums
 * (first player's at 0, second's at H) for the position at that ply. {@link #push} only notes which features the
 * move switches (at most two on and two off per perspective); the sums of a ply are computed when it is evaluated,
 * from the nearest computed ply before it, so that moves searched without an evaluation cost no update. Castling
 * (which moves two pieces), a king's move into another king bucket (or any king's move with a king window) and the
 * capture of a royal piece are refreshed from scratch right after they are played ({@link #push} says so). With a
 * king window a move switches up to four features on and six off per perspective (the piece's window features
 * near both kings, and the captured piece's). Undoing a move is just going back a ply.
 * Preallocated for the search's plies, so the search allocates nothing.
 */
public final class Accumulators {
    private final Network net;
    private final FeatureSet fs;
    private final RuleSet rs;
    private final int h;
    private final short[][] acc;
    /** computed[ply]: acc[ply] is up to date for the position at that ply of the current line. */
    private final boolean[] computed;
    /** Slots per perspective for the features a move switches on (ADD) and off (REM). */
    private static final int ADD = 4, REM = 6;
    /** The features switched by the move into each ply: [ply][persp * ADD + i] and [ply][persp * REM + i], -1 for none. */
    private final int[][] added, removed;
    /** Scratch for a full refresh. */
    private final int[] active;

    public Accumulators(Network net, RuleSet rs, int plies) {
        this.net = net;
        this.rs = rs;
        this.fs = new FeatureSet(rs, net.kingFiles, net.kingRanks, net.kingWindow);
        if (fs.layoutHash != net.layoutHash) {
            throw new IllegalArgumentException("the net was made for another layout of " + rs.id);
        }
        this.h = net.hidden;
        this.acc = new short[plies + 1][2 * h];
        this.computed = new boolean[plies + 1];
        this.added = new int[plies + 1][2 * ADD];
        this.removed = new int[plies + 1][2 * REM];
        this.active = new int[fs.maxActive()];
    }

    public Network network() {
        return net;
    }

    /** Computes {@code acc[ply]} from scratch for {@code p}. */
    public void refresh(Position p, int ply) {
        short[] a = acc[ply];
        for (int persp = 0; persp < 2; persp++) {
            int off = persp * h;
            System.arraycopy(net.featureBias, 0, a, off, h);
            int n = fs.active(p, persp, active);
            short[] w = net.featureWeights;
            for (int i = 0; i < n; i++) {
                int base = active[i] * h;
                for (int j = 0; j < h; j++) {
                    a[off + j] += w[base + j];
                }
            }
        }
        computed[ply] = true;
    }

    /** Notes that ply + 1 is ply after a null move (no feature switched). */
    public void pushNull(int ply) {
        java.util.Arrays.fill(added[ply + 1], -1);
        java.util.Arrays.fill(removed[ply + 1], -1);
        computed[ply + 1] = false;
    }

    /**
     * Notes the features {@code move} switches, from {@code p} before the move is played, for ply + 1. Returns true
     * when they cannot be noted (castling, a king's move into another bucket, a royal piece taken): then call
     * {@link #refresh} for ply + 1 once the move is played.
     */
    public boolean push(Position p, int move, int ply) {
        int[] add = added[ply + 1], rem = removed[ply + 1];
        java.util.Arrays.fill(add, -1);
        java.util.Arrays.fill(rem, -1);
        computed[ply + 1] = false;
        int us = p.sideToMove();
        int kind = Move.kind(move);
        int to = Move.to(move);
        if (kind == Move.CASTLING) {
            return true;
        }
        int b0 = fs.bucket(p, 0), b1 = fs.bucket(p, 1);
        int k0 = p.kingSquare(0), k1 = p.kingSquare(1);
        if (kind == Move.DROP) {
            int type = Move.type(move);
            int held = p.handCount(us, type);
            for (int persp = 0; persp < 2; persp++) {
                int b = persp == 0 ? b0 : b1;
                rem[persp * REM] = fs.hand(persp, b, us, type, held);
                add[persp * ADD] = fs.piece(persp, b, us, type, to);
                add[persp * ADD + 1] = fs.window(persp, 0, k0, us, type, to);
                add[persp * ADD + 2] = fs.window(persp, 1, k1, us, type, to);
            }
            return false;
        }
        int from = Move.from(move);
        if (fs.buckets > 1 && (from == p.kingSquare(us) && fs.bucketOf(us, to) != (us == 0 ? b0 : b1)
                || to == p.kingSquare(us ^ 1))) {
            return true;
        }
        if (fs.kingWindow > 0 && (from == p.kingSquare(us) || to == p.kingSquare(us ^ 1))) {
            return true;
        }
        int type = p.typeAt(from);
        int newType = kind == Move.PROMOTION ? Move.type(move) : type;
        int capSq = kind == Move.EN_PASSANT ? rs.geometry.square(rs.geometry.file(to), rs.geometry.rank(from)) : to;
        boolean capture = !p.isEmpty(capSq);
        int capType = capture ? p.typeAt(capSq) : -1;
        int handType = -1, handCount = 0;
        if (capture && rs.drops) {
            PieceType cp = rs.pieces.get(capType);
            handType = cp.demotesTo();
            handCount = p.handCount(us, handType) + 1;
        }
        for (int persp = 0; persp < 2; persp++) {
            int b = persp == 0 ? b0 : b1;
            rem[persp * REM] = fs.piece(persp, b, us, type, from);
            add[persp * ADD] = fs.piece(persp, b, us, newType, to);
            if (capture) {
                rem[persp * REM + 1] = fs.piece(persp, b, us ^ 1, capType, capSq);
                if (handType >= 0) {
                    add[persp * ADD + 1] = fs.hand(persp, b, us, handType, handCount);
                }
            }
            if (fs.kingWindow > 0) {
                rem[persp * REM + 2] = fs.window(persp, 0, k0, us, type, from);
                rem[persp * REM + 3] = fs.window(persp, 1, k1, us, type, from);
                add[persp * ADD + 2] = fs.window(persp, 0, k0, us, newType, to);
                add[persp * ADD + 3] = fs.window(persp, 1, k1, us, newType, to);
                if (capture) {
                    rem[persp * REM + 4] = fs.window(persp, 0, k0, us ^ 1, capType, capSq);
                    rem[persp * REM + 5] = fs.window(persp, 1, k1, us ^ 1, capType, capSq);
                }
            }
        }
        return false;
    }

    /** The net's evaluation of the position at {@code ply} for {@code sideToMove}, in centipawns. */
    public int evaluate(int ply, int sideToMove) {
        ensure(ply);
        short[] a = acc[ply];
        return net.forward(a, sideToMove * h, a, (sideToMove ^ 1) * h);
    }

    /** Brings acc[ply] up to date from the nearest computed ply before it. */
    private void ensure(int ply) {
        if (!computed[ply]) {
            int from = ply;
            while (!computed[from - 1]) {
                from--;
            }
            for (int q = from; q <= ply; q++) {
                update(q);
            }
        }
    }

    /** The accumulator of a ply (for tests). */
    short[] at(int ply) {
        ensure(ply);
        return acc[ply];
    }

    /**
     * Computes acc[q] from acc[q - 1] and the features noted for q in one pass per perspective: two rows added,
     * two subtracted, the missing ones pointing at the net's row of zeros; with a king window a second and third
     * pass in place for the window's rows.
     */
    private void update(int q) {
        short[] src = acc[q - 1], dst = acc[q];
        short[] w = net.featureWeights;
        int[] add = added[q], rem = removed[q];
        int zero = net.inputs * h;
        for (int persp = 0; persp < 2; persp++) {
            int off = persp * h;
            int a = persp * ADD, r = persp * REM;
            Kernels.update(src, dst, off, w, row(add[a], zero), row(add[a + 1], zero), row(rem[r], zero),
                    row(rem[r + 1], zero), h);
            if (fs.kingWindow > 0) {
                Kernels.update(dst, dst, off, w, row(add[a + 2], zero), row(add[a + 3], zero), row(rem[r + 2], zero),
                        row(rem[r + 3], zero), h);
                if (rem[r + 4] >= 0 || rem[r + 5] >= 0) {
                    Kernels.update(dst, dst, off, w, zero, zero, row(rem[r + 4], zero), row(rem[r + 5], zero), h);
                }
            }
        }
        computed[q] = true;
    }

    /** The offset of a feature's row, or of the zero row for none (-1). */
    private int row(int feature, int zero) {
        return feature < 0 ? zero : feature * h;
    }
}
