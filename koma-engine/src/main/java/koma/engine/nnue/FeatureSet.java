package koma.engine.nnue;

import koma.rules.PieceType;
import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * The net's inputs for one rule set, derived from its definition alone: one feature per (owner relative to the
 * perspective, piece type, square seen from the perspective), and for drop games one per (owner, type in hand,
 * count k) that is on while the owner holds at least k (a thermometer code, so that taking a piece in hand switches
 * exactly one feature). Counts beyond the pieces of that kind in the start position are not encoded.
 *
 * <p>The second player's perspective sees the board turned so that its own pieces stand where the first player's
 * do: mirrored top to bottom when the start position is symmetric that way (chess, Shodo), turned half round when
 * it is symmetric under that (shogi, Wa shogi). Layout: piece features {@code (rel * types + type) * squares + sq}
 * ({@code rel} 0 for the perspective's own pieces), then the hand features.
 *
 * <p>King buckets (optional): the board seen from a perspective is cut into a grid of {@code kingFiles} x
 * {@code kingRanks} equal regions, and the whole layout above is repeated once per region; a perspective's features
 * are those of the region its own royal piece stands in (region 0 when it has none). So the net can weigh every
 * piece by where the own king is, as shogi engines' HalfKP does, at a cost of {@code kingFiles x kingRanks} times the
 * inputs. A move of the king into another region switches all of that perspective's features
 * ({@link Accumulators#push} asks for a refresh). A 1 x 1 grid is the layout without buckets.
 *
 * <p>King windows (optional, not with buckets): each piece on the board also switches on one feature per king it
 * stands near (other than that king itself): (which king: the perspective's own or the other's, owner, type, offset
 * from that king), the offset seen from the perspective and at most {@code kingWindow} files and ranks each way. The
 * same attacker next to the king is then the same input wherever the king stands, which is what king buckets cannot
 * learn from few games. These features follow the piece and hand features; a king's move switches those of every
 * piece near it before and after ({@link Accumulators#push} notes them).
 */
public final class FeatureSet {
    public final int squares, types, inputs;
    /** The king-bucket grid (1 x 1: none), and the features of one bucket (inputs / buckets). */
    public final int kingFiles, kingRanks, buckets, perBucket;
    private final int files, ranks;
    /** Whether the second perspective turns the board half round (otherwise it mirrors the ranks). */
    public final boolean rotate;
    /** handBase[rel * types + type]: the first hand feature of that type (count 1), -1 when never held. */
    private final int[] handBase;
    /** handCap[type]: the counts encoded. */
    private final int[] handCap;
    private final int[] handTypes;
    /** A fingerprint of the layout, stored in a net so that a net is never read for a different layout. */
    public final long layoutHash;
    /** The king window's reach in files and ranks (0: none), its side (2 x reach + 1) and its first feature. */
    public final int kingWindow, windowSide, windowBase;

    /** The layout without king buckets. */
    public FeatureSet(RuleSet rs) {
        this(rs, 1, 1);
    }

    /** The layout with a {@code kingFiles} x {@code kingRanks} grid of king buckets (1 x 1: none). */
    public FeatureSet(RuleSet rs, int kingFiles, int kingRanks) {
        this(rs, kingFiles, kingRanks, 0);
    }

    /**
     * The layout with king buckets and a king window reaching {@code kingWindow} files and ranks (0: none); buckets
     * and a window together are refused.
     */
    public FeatureSet(RuleSet rs, int kingFiles, int kingRanks, int kingWindow) {
        files = rs.geometry.files;
        ranks = rs.geometry.ranks;
        squares = rs.geometry.squares;
        types = rs.pieceCount();
        Position start = Position.start(rs);
        rotate = !symmetric(start, false) && symmetric(start, true);
        handBase = new int[2 * types];
        handCap = new int[types];
        java.util.Arrays.fill(handBase, -1);
        handTypes = rs.drops ? start.handTypes() : new int[0];
        if (rs.drops) {
            for (int sq = 0; sq < squares; sq++) {
                if (!start.isEmpty(sq)) {
                    PieceType p = rs.pieces.get(start.typeAt(sq));
                    if (!p.royal()) {
                        handCap[p.demotesTo()]++;
                    }
                }
            }
        }
        int n = 2 * types * squares;
        for (int rel = 0; rel < 2; rel++) {
            for (int type : handTypes) {
                if (handCap[type] > 0) {
                    handBase[rel * types + type] = n;
                    n += handCap[type];
                }
            }
        }
        if (kingFiles < 1 || kingFiles > files || kingRanks < 1 || kingRanks > ranks) {
            throw new IllegalArgumentException("king buckets: a grid of " + kingFiles + " x " + kingRanks + " does not fit "
                    + rs.id + "'s " + files + " x " + ranks + " board");
        }
        int reach = Math.max(files, ranks) - 1;
        if (kingWindow < 0 || kingWindow > reach) {
            throw new IllegalArgumentException("king window: a reach of " + kingWindow + " is outside 0.." + reach
                    + " on " + rs.id + "'s " + files + " x " + ranks + " board");
        }
        if (kingWindow > 0 && kingFiles * kingRanks > 1) {
            throw new IllegalArgumentException("king window: not with king buckets (" + kingFiles + " x " + kingRanks
                    + ")");
        }
        this.kingFiles = kingFiles;
        this.kingRanks = kingRanks;
        buckets = kingFiles * kingRanks;
        perBucket = n;
        this.kingWindow = kingWindow;
        windowSide = 2 * kingWindow + 1;
        windowBase = n * buckets;
        inputs = windowBase + (kingWindow > 0 ? 2 * 2 * types * windowSide * windowSide : 0);
        long h = 1469598103934665603L;
        for (long v : new long[]{files, ranks, types, perBucket, rotate ? 1 : 0}) {
            h = (h ^ v) * 1099511628211L;
        }
        for (int c : handCap) {
            h = (h ^ c) * 1099511628211L;
        }
        if (buckets > 1) { // a layout without buckets keeps the fingerprint it had before buckets existed
            h = (h ^ kingFiles) * 1099511628211L;
            h = (h ^ kingRanks) * 1099511628211L;
        }
        if (kingWindow > 0) { // likewise a layout without a window
            h = (h ^ (0x57494E00L + kingWindow)) * 1099511628211L;
        }
        layoutHash = h;
    }

    /** The king bucket of {@code persp} in {@code p}: the region of the grid its own royal piece stands in. */
    public int bucket(Position p, int persp) {
        return buckets == 1 ? 0 : bucketOf(persp, p.kingSquare(persp));
    }

    /** The king bucket of {@code persp} with its royal piece on {@code kingSq} (negative: none, bucket 0). */
    public int bucketOf(int persp, int kingSq) {
        if (buckets == 1 || kingSq < 0) {
            return 0;
        }
        int o = orient(persp, kingSq);
        return (o / files) * kingRanks / ranks * kingFiles + (o % files) * kingFiles / files;
    }

    /** Whether the start position equals itself with colours swapped and the board mirrored or turned. */
    private boolean symmetric(Position p, boolean turn) {
        for (int sq = 0; sq < squares; sq++) {
            int o = turn ? squares - 1 - sq : (ranks - 1 - sq / files) * files + sq % files;
            if (p.isEmpty(sq) != p.isEmpty(o)) {
                return false;
            }
            if (!p.isEmpty(sq) && (p.typeAt(sq) != p.typeAt(o) || p.colorAt(sq) == p.colorAt(o))) {
                return false;
            }
        }
        return true;
    }

    /** The square as the perspective {@code persp} sees it. */
    public int orient(int persp, int sq) {
        if (persp == 0) {
            return sq;
        }
        return rotate ? squares - 1 - sq : (ranks - 1 - sq / files) * files + sq % files;
    }

    /** The feature of a piece of {@code color} and {@code type} on {@code sq}, seen by {@code persp} (bucket 0). */
    public int piece(int persp, int color, int type, int sq) {
        return ((color == persp ? 0 : types) + type) * squares + orient(persp, sq);
    }

    /** The same in king bucket {@code bucket}. */
    public int piece(int persp, int bucket, int color, int type, int sq) {
        return bucket * perBucket + piece(persp, color, type, sq);
    }

    /**
     * The king-window feature of a piece of {@code color} and {@code type} on {@code sq} near the royal piece of
     * {@code kingColor} on {@code kingSq}, seen by {@code persp}; -1 when there is no window, no such royal piece, the
     * piece is farther than the window reaches, or it is that royal piece itself.
     */
    public int window(int persp, int kingColor, int kingSq, int color, int type, int sq) {
        if (kingWindow == 0 || kingSq < 0 || sq == kingSq) {
            return -1;
        }
        int o = orient(persp, sq), k = orient(persp, kingSq);
        int df = o % files - k % files + kingWindow, dr = o / files - k / files + kingWindow;
        if (df < 0 || df >= windowSide || dr < 0 || dr >= windowSide) {
            return -1;
        }
        int which = (kingColor == persp ? 0 : 2) + (color == persp ? 0 : 1);
        return windowBase + ((which * types + type) * windowSide + dr) * windowSide + df;
    }

    /**
     * The feature switched on by holding the {@code count}-th piece of {@code type} (bucket 0), or -1 when not
     * encoded.
     */
    public int hand(int persp, int color, int type, int count) {
        int base = handBase[(color == persp ? 0 : types) + type];
        return base < 0 || count < 1 || count > handCap[type] ? -1 : base + count - 1;
    }

    /** The same in king bucket {@code bucket}. */
    public int hand(int persp, int bucket, int color, int type, int count) {
        int f = hand(persp, color, type, count);
        return f < 0 ? -1 : bucket * perBucket + f;
    }

    /** Writes the active features of {@code p} seen by {@code persp} into {@code out}; returns their number. */
    public int active(Position p, int persp, int[] out) {
        int n = 0;
        int bucket = bucket(p, persp);
        for (int c = 0; c < 2; c++) {
            for (int i = 0, k = p.pieceCount(c); i < k; i++) {
                int sq = p.pieceSquare(c, i);
                int type = p.typeAt(sq);
                out[n++] = piece(persp, bucket, c, type, sq);
                if (kingWindow > 0) {
                    for (int kc = 0; kc < 2; kc++) {
                        int f = window(persp, kc, p.kingSquare(kc), c, type, sq);
                        if (f >= 0) {
                            out[n++] = f;
                        }
                    }
                }
            }
            for (int type : handTypes) {
                for (int k = 1, held = p.handCount(c, type); k <= held; k++) {
                    int f = hand(persp, bucket, c, type, k);
                    if (f >= 0) {
                        out[n++] = f;
                    }
                }
            }
        }
        return n;
    }

    /** An upper bound on the active features of one perspective. */
    public int maxActive() {
        int n = squares * (kingWindow > 0 ? 3 : 1);
        for (int c : handCap) {
            n += 2 * c;
        }
        return n;
    }
}
