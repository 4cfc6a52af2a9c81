package koma.engine.nnue;

import koma.rules.Move;
import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * The per-ply accumulator stack of one search thread: {@code acc[ply]} holds both perspectives' hidden-layer sums
 * (first player's at 0, second's at H) for the position at that ply. {@link #push} only notes which features the
 * move switches (two on and two off per perspective at most without a king window); the sums of a ply are computed
 * when it is evaluated, from the nearest computed ply before it, so that moves searched without an evaluation cost no
 * update. Castling (which moves two pieces) and the capture of a royal piece are refreshed from scratch right after
 * they are played ({@link #push} says so); so is a king's move into another king bucket, but for the mover's
 * perspective alone: the other perspective's bucket is unchanged, so its half is updated as after any move. With a
 * king window a move also switches the moved and the captured piece's window features near both kings, and a king's
 * move those of every piece in its window before and after (at most the window's squares plus four each way, the
 * lists' size). Undoing a move is just going back a ply. Preallocated for the search's plies, so the search allocates
 * nothing.
 */
public final class Accumulators {
    private final Network net;
    private final FeatureSet fs;
    private final RuleSet rs;
    private final int h;
    private final short[][] acc;
    /** computed[ply]: acc[ply] is up to date for the position at that ply of the current line. */
    private final boolean[] computed;
    /** Slots per perspective in the lists of switched features: 4, or the window's squares plus 4 with a window. */
    private final int slots;
    /**
     * The features switched on and off by the move into each ply: [ply][persp * slots + i] for i below
     * addCount[ply][persp] and remCount[ply][persp].
     */
    private final int[][] added, removed, addCount, remCount;
    /**
     * alone[q]: the one perspective whose half of acc[q] {@link #refresh} computes from scratch (the mover's, after a
     * king's move into another bucket; {@link #update} then computes the other half), or -1 when a refresh is of both.
     */
    private final int[] alone;
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
        this.slots = fs.kingWindow > 0 ? fs.windowSide * fs.windowSide + 4 : 4;
        this.added = new int[plies + 1][2 * slots];
        this.removed = new int[plies + 1][2 * slots];
        this.addCount = new int[plies + 1][2];
        this.remCount = new int[plies + 1][2];
        this.alone = new int[plies + 1];
        java.util.Arrays.fill(alone, -1);
        this.active = new int[fs.maxActive()];
    }

    public Network network() {
        return net;
    }

    /**
     * Computes {@code acc[ply]} from scratch for {@code p}; after a {@link #push} that asked for it, only the half of
     * the perspective that needs it (the other is brought up to date when the ply is evaluated).
     */
    public void refresh(Position p, int ply) {
        short[] a = acc[ply];
        short[] w = net.featureWeights;
        int zero = net.inputs * h;
        for (int persp = 0; persp < 2; persp++) {
            if (alone[ply] >= 0 && persp != alone[ply]) {
                continue;
            }
            int off = persp * h;
            System.arraycopy(net.featureBias, 0, a, off, h);
            int n = fs.active(p, persp, active);
            for (int i = 0; i < n; i += 2) { // two rows a pass, in place
                Kernels.update(a, a, off, w, active[i] * h, i + 1 < n ? active[i + 1] * h : zero, zero, zero, h);
            }
        }
        computed[ply] = alone[ply] < 0;
    }

    /** Notes that ply + 1 is ply after a null move (no feature switched). */
    public void pushNull(int ply) {
        clear(ply + 1);
    }

    private void clear(int q) {
        addCount[q][0] = addCount[q][1] = remCount[q][0] = remCount[q][1] = 0;
        computed[q] = false;
        alone[q] = -1;
    }

    /** Notes feature {@code f} (none when negative) as switched on for {@code persp} by the move into ply q. */
    private void on(int q, int persp, int f) {
        if (f >= 0) {
            added[q][persp * slots + addCount[q][persp]++] = f;
        }
    }

    /** Notes feature {@code f} (none when negative) as switched off for {@code persp} by the move into ply q. */
    private void off(int q, int persp, int f) {
        if (f >= 0) {
            removed[q][persp * slots + remCount[q][persp]++] = f;
        }
    }

    /**
     * Notes the features {@code move} switches, from {@code p} before the move is played, for ply + 1. Returns true
     * when they cannot be noted (castling, a royal piece taken; for the mover's perspective, a king's move into another
     * bucket): then call {@link #refresh} for ply + 1 once the move is played.
     */
    public boolean push(Position p, int move, int ply) {
        int q = ply + 1;
        clear(q);
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
                off(q, persp, fs.hand(persp, b, us, type, held));
                on(q, persp, fs.piece(persp, b, us, type, to));
                on(q, persp, fs.window(persp, 0, k0, us, type, to));
                on(q, persp, fs.window(persp, 1, k1, us, type, to));
            }
            return false;
        }
        int from = Move.from(move);
        if (to == p.kingSquare(us ^ 1)) {
            return true;
        }
        // a king's move into another of its own buckets changes every feature of the mover's perspective alone
        boolean rebucket = fs.buckets > 1 && from == p.kingSquare(us) && fs.bucketOf(us, to) != (us == 0 ? b0 : b1);
        if (rebucket) {
            alone[q] = us;
        }
        boolean kingMove = fs.kingWindow > 0 && from == p.kingSquare(us);
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
            if (persp == alone[q]) {
                continue;
            }
            int b = persp == 0 ? b0 : b1;
            off(q, persp, fs.piece(persp, b, us, type, from));
            on(q, persp, fs.piece(persp, b, us, newType, to));
            if (capture) {
                off(q, persp, fs.piece(persp, b, us ^ 1, capType, capSq));
                if (handType >= 0) {
                    on(q, persp, fs.hand(persp, b, us, handType, handCount));
                }
                off(q, persp, fs.window(persp, 0, k0, us ^ 1, capType, capSq));
                off(q, persp, fs.window(persp, 1, k1, us ^ 1, capType, capSq));
            }
            if (kingMove) {
                kingWindowMoved(p, q, persp, us, from, to, capture ? capSq : -1);
            } else {
                off(q, persp, fs.window(persp, 0, k0, us, type, from));
                off(q, persp, fs.window(persp, 1, k1, us, type, from));
                on(q, persp, fs.window(persp, 0, k0, us, newType, to));
                on(q, persp, fs.window(persp, 1, k1, us, newType, to));
            }
        }
        return rebucket;
    }

    /**
     * The window features a king's move from {@code from} to {@code to} switches for {@code persp}: the king's own
     * near the other king, and those of every other piece (but the one taken, on {@code taken}) near the king,
     * before and after.
     */
    private void kingWindowMoved(Position p, int q, int persp, int us, int from, int to, int taken) {
        int king = p.typeAt(from), other = p.kingSquare(us ^ 1);
        off(q, persp, fs.window(persp, us ^ 1, other, us, king, from));
        on(q, persp, fs.window(persp, us ^ 1, other, us, king, to));
        for (int c = 0; c < 2; c++) {
            for (int i = 0, k = p.pieceCount(c); i < k; i++) {
                int sq = p.pieceSquare(c, i);
                if (sq != from && sq != taken) {
                    int type = p.typeAt(sq);
                    off(q, persp, fs.window(persp, us, from, c, type, sq));
                    on(q, persp, fs.window(persp, us, to, c, type, sq));
                }
            }
        }
    }

    /**
     * The net's evaluation of the position at {@code ply} for {@code sideToMove}, in centipawns; {@code pieces}, the
     * pieces on its board, choose the output bucket.
     */
    public int evaluate(int ply, int sideToMove, int pieces) {
        ensure(ply);
        short[] a = acc[ply];
        return net.forward(a, sideToMove * h, a, (sideToMove ^ 1) * h, net.bucket(pieces));
    }

    /** {@link #evaluate(int, int, int)} for position {@code p} standing at {@code ply}. */
    public int evaluate(int ply, Position p) {
        return evaluate(ply, p.sideToMove(), p.pieceCount(0) + p.pieceCount(1));
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
     * Computes acc[q] from acc[q - 1] and the features noted for q, per perspective in passes of two rows added and
     * two subtracted (one pass for every move without a king window), the missing ones pointing at the net's row of
     * zeros; the passes after the first work in place. A half already refreshed on its own ({@link #alone}) is kept.
     */
    private void update(int q) {
        short[] src = acc[q - 1], dst = acc[q];
        short[] w = net.featureWeights;
        int zero = net.inputs * h;
        for (int persp = 0; persp < 2; persp++) {
            if (persp == alone[q]) { // refreshed on its own after the move
                continue;
            }
            int off = persp * h, base = persp * slots;
            int[] add = added[q], rem = removed[q];
            int na = addCount[q][persp], nr = remCount[q][persp];
            short[] from = src;
            for (int i = 0; i == 0 || i < na || i < nr; i += 2) {
                Kernels.update(from, dst, off, w, row(add, base, i, na, zero), row(add, base, i + 1, na, zero),
                        row(rem, base, i, nr, zero), row(rem, base, i + 1, nr, zero), h);
                from = dst;
            }
        }
        computed[q] = true;
    }

    /** The offset of the row of list entry i (of n), or of the zero row past the end. */
    private int row(int[] list, int base, int i, int n, int zero) {
        return i < n ? list[base + i] * h : zero;
    }

}
