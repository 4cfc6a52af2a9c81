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
 */
public final class FeatureSet {
    public final int squares, types, inputs;
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

    public FeatureSet(RuleSet rs) {
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
        inputs = n;
        long h = 1469598103934665603L;
        for (long v : new long[]{files, ranks, types, inputs, rotate ? 1 : 0}) {
            h = (h ^ v) * 1099511628211L;
        }
        for (int c : handCap) {
            h = (h ^ c) * 1099511628211L;
        }
        layoutHash = h;
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

    /** The feature of a piece of {@code color} and {@code type} on {@code sq}, seen by {@code persp}. */
    public int piece(int persp, int color, int type, int sq) {
        return ((color == persp ? 0 : types) + type) * squares + orient(persp, sq);
    }

    /** The feature switched on by holding the {@code count}-th piece of {@code type}, or -1 when not encoded. */
    public int hand(int persp, int color, int type, int count) {
        int base = handBase[(color == persp ? 0 : types) + type];
        return base < 0 || count < 1 || count > handCap[type] ? -1 : base + count - 1;
    }

    /** Writes the active features of {@code p} seen by {@code persp} into {@code out}; returns their number. */
    public int active(Position p, int persp, int[] out) {
        int n = 0;
        for (int c = 0; c < 2; c++) {
            for (int i = 0, k = p.pieceCount(c); i < k; i++) {
                int sq = p.pieceSquare(c, i);
                out[n++] = piece(persp, c, p.typeAt(sq), sq);
            }
            for (int type : handTypes) {
                for (int k = 1, held = p.handCount(c, type); k <= held; k++) {
                    int f = hand(persp, c, type, k);
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
        int n = squares;
        for (int c : handCap) {
            n += 2 * c;
        }
        return n;
    }
}
