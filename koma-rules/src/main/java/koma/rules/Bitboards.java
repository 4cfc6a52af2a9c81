package koma.rules;

/**
 * The move tables of a rule set on at most 64 squares without drops (chess, Shodo, deathmatch) as 64-bit
 * bitboards, compiled from the same Betza tables as {@link MoveTables}. They let {@link Position} find
 * checkers, pins and targets with a few masks and bit scans, and count leaf moves with popcounts (perft).
 * All arrays are flat: {@code [code * 64 + sq]}, {@code [sq * 8 + d]}.
 */
final class Bitboards {
    /**
     * Everything about one piece code on one square, interleaved for locality: {@code piece[(code * 64 + sq) *
     * STRIDE + field]} with the fields below.
     */
    final long[] piece;
    static final int STRIDE = 8;
    /** Leap targets (steps and jumps, not lame) that may move to an empty square / may capture. */
    static final int LEAP_MOVE = 0, LEAP_CAPTURE = 1;
    /** The one lame leap (e.g. the pawn's double step): its target and the square it needs empty. */
    static final int LAME_TARGET = 2, LAME_MIDDLE = 3;
    /** Targets where the move may promote, and where it must. */
    static final int PROMOTION_ZONE = 4, FORCED_ZONE = 5;
    /** The squares of the piece's unlimited slides in the orthogonal and the diagonal family. */
    static final int ORTHOGONAL = 6, DIAGONAL = 7;
    /** jumpAttackFrom[code * 64 + sq]: squares from which that piece captures on sq by a jump (not a line step). */
    final long[] jumpAttackFrom;
    /** Full rays from each square in each line direction. */
    final long[] ray;
    /** rayPrefix[(sq * 8 + d) * 65 + r]: the first r squares of the ray (r up to 64). */
    final long[] rayPrefix;
    /** Slide ranges of a code in direction d (0 = none), for slides that reach two or more squares. */
    final int[] slideMove, slideCapture;
    /** Whether a code has any slide of two or more squares. */
    final boolean[] slides;
    /** Number of promotion choices of a code. */
    final int[] promotionChoices;
    /**
     * Line attacks by table: for each square and each of the two line families (orthogonal, diagonal), the
     * relevant occupancy mask and, indexed by {@code Long.compress(occ, mask)} (PEXT), the squares reached.
     */
    final long[] lineMask = new long[64 * 2];
    final int[] lineOffset = new int[64 * 2];
    final long[] lineTable;
    /** Codes whose slides are all unlimited with the same move and capture range: table lookups suffice. */
    final boolean[] fast;
    /** Whether the promotion trigger is touching the zone (start or end) rather than arrival. */
    final boolean touch;
    final long[] zone;

    static boolean applies(RuleSet rs) {
        if (rs.geometry.squares > 64 || rs.drops) {
            return false;
        }
        MoveTables t = rs.tables;
        for (int code = 2; code < t.codes; code++) {
            for (int sq = 0; sq < t.squares; sq++) {
                int lame = 0;
                for (MoveTables.Leap leap : t.leaps(code, sq)) {
                    if (leap.middle() >= 0) {
                        lame++;
                    }
                }
                if (lame > 1) {
                    return false;
                }
            }
        }
        return true;
    }

    Bitboards(RuleSet rs) {
        MoveTables t = rs.tables;
        Geometry g = rs.geometry;
        int n = g.squares, codes = t.codes;
        piece = new long[codes * 64 * STRIDE];
        jumpAttackFrom = new long[codes * 64];
        ray = new long[64 * 8];
        rayPrefix = new long[64 * 8 * 65];
        slideMove = new int[codes * 8];
        slideCapture = new int[codes * 8];
        slides = new boolean[codes];
        promotionChoices = new int[codes];
        touch = rs.promotion.trigger() == RuleSet.PromotionTrigger.TOUCH;
        zone = new long[2];
        for (int sq = 0; sq < n; sq++) {
            for (int c = 0; c < 2; c++) {
                if (t.zone[c * n + sq]) {
                    zone[c] |= 1L << sq;
                }
            }
            for (int d = 0; d < 8; d++) {
                int[] r = g.ray(sq, d);
                long acc = 0;
                rayPrefix[(sq * 8 + d) * 65] = 0;
                for (int k = 0; k < 64; k++) {
                    if (k < r.length) {
                        acc |= 1L << r[k];
                    }
                    rayPrefix[(sq * 8 + d) * 65 + k + 1] = acc;
                }
                ray[sq * 8 + d] = acc;
            }
        }
        int total = 0;
        for (int sq = 0; sq < n; sq++) {
            for (int f = 0; f < 2; f++) {
                long mask = 0;
                for (int d = f * 4; d < f * 4 + 4; d++) {
                    int[] r = g.ray(sq, d);
                    for (int k = 0; k + 1 < r.length; k++) {
                        mask |= 1L << r[k];
                    }
                }
                lineMask[sq * 2 + f] = mask;
                lineOffset[sq * 2 + f] = total;
                total += 1 << Long.bitCount(mask);
            }
        }
        lineTable = new long[total];
        for (int sq = 0; sq < n; sq++) {
            for (int f = 0; f < 2; f++) {
                long mask = lineMask[sq * 2 + f];
                for (int i = 0; i < 1 << Long.bitCount(mask); i++) {
                    long occ = Long.expand(i, mask);
                    long att = 0;
                    for (int d = f * 4; d < f * 4 + 4; d++) {
                        att |= slideReach(sq, d, occ);
                    }
                    lineTable[lineOffset[sq * 2 + f] + i] = att;
                }
            }
        }
        fast = new boolean[codes];
        for (int code = 2; code < codes; code++) {
            PieceType p = rs.piece(MoveTables.type(code));
            promotionChoices[code] = p.promotions().length;
            for (int sq = 0; sq < n; sq++) {
                int at = (code * 64 + sq) * STRIDE;
                for (MoveTables.Leap leap : t.leaps(code, sq)) {
                    int to = leap.to();
                    long bit = 1L << to;
                    if (leap.middle() >= 0) {
                        piece[at + LAME_TARGET] |= bit;
                        piece[at + LAME_MIDDLE] |= 1L << leap.middle();
                    } else {
                        if (leap.moves()) {
                            piece[at + LEAP_MOVE] |= bit;
                        }
                        if (leap.captures()) {
                            piece[at + LEAP_CAPTURE] |= bit;
                            if (g.direction(sq, to) < 0 || g.distance(sq, to) > 1) {
                                jumpAttackFrom[code * 64 + to] |= 1L << sq;
                            }
                        }
                    }
                    markPromotion(at, bit, leap.promotion());
                }
                for (MoveTables.Ray r : t.rays(code, sq)) {
                    int d = g.direction(sq, r.squares()[0]);
                    slideMove[code * 8 + d] = Math.min(r.moveRange(), 64);
                    slideCapture[code * 8 + d] = Math.min(r.captureRange(), 64);
                    slides[code] = true;
                    for (int k = 0; k < r.squares().length; k++) {
                        markPromotion(at, 1L << r.squares()[k], r.promotion()[k]);
                    }
                }
            }
            boolean allUnlimited = true;
            for (int d = 0; d < 8; d++) {
                int mr = slideMove[code * 8 + d], cr = slideCapture[code * 8 + d];
                if ((mr | cr) != 0 && (mr != cr || mr < Math.max(g.files, g.ranks))) {
                    allUnlimited = false;
                }
            }
            fast[code] = allUnlimited;
            for (int sq = 0; sq < n; sq++) {
                for (int d = 0; d < 8; d++) {
                    if (slideMove[code * 8 + d] != 0) {
                        piece[(code * 64 + sq) * STRIDE + (d < 4 ? ORTHOGONAL : DIAGONAL)] |= ray[sq * 8 + d];
                    }
                }
            }
        }
    }

    /** Records a target's promotion bits ({@link MoveTables#PROMOTES}, {@link MoveTables#MUST_PROMOTE}). */
    private void markPromotion(int at, long bit, int promotion) {
        if ((promotion & MoveTables.PROMOTES) != 0) {
            piece[at + PROMOTION_ZONE] |= bit;
        }
        if ((promotion & MoveTables.MUST_PROMOTE) != 0) {
            piece[at + FORCED_ZONE] |= bit;
        }
    }

    /** Squares reached along every line of one family (0 orthogonal, 1 diagonal) from sq, by table. */
    long lineAttacks(int sq, int family, long occ) {
        int i = sq * 2 + family;
        return lineTable[lineOffset[i] + (int) Long.compress(occ, lineMask[i])];
    }

    /**
     * The squares a piece of {@code code} whose slides all run to the edge ({@link #fast}) reaches from sq on the
     * occupancy: its rank/file and diagonal lines from the line table, up to and including the first piece each way,
     * kept to the directions it slides in. Its move targets and its attacks (the move generator, the evaluation's
     * attack sets) both start from this.
     */
    long fastSlides(int code, int sq, long occ) {
        int fi = (code * 64 + sq) * STRIDE;
        long orth = piece[fi + ORTHOGONAL], diag = piece[fi + DIAGONAL], reach = 0;
        if (orth != 0) {
            reach = lineAttacks(sq, 0, occ) & orth;
        }
        if (diag != 0) {
            reach |= lineAttacks(sq, 1, occ) & diag;
        }
        return reach;
    }

    /** True when direction d runs toward higher square indices (its first blocker is the lowest bit). */
    static boolean ascending(int d) {
        return Geometry.DY[d] > 0 || (Geometry.DY[d] == 0 && Geometry.DX[d] > 0);
    }

    /** The nearest occupied square from sq in direction d, or -1. */
    int firstBlocker(int sq, int d, long occ) {
        long b = ray[sq * 8 + d] & occ;
        if (b == 0) {
            return -1;
        }
        return ascending(d) ? Long.numberOfTrailingZeros(b) : 63 - Long.numberOfLeadingZeros(b);
    }

    /** Squares a slide from sq in direction d reaches on the occupancy: up to and including the first blocker. */
    long slideReach(int sq, int d, long occ) {
        long r = ray[sq * 8 + d];
        long b = r & occ;
        if (b == 0) {
            return r;
        }
        int first = ascending(d) ? Long.numberOfTrailingZeros(b) : 63 - Long.numberOfLeadingZeros(b);
        return r ^ ray[first * 8 + d];
    }
}
