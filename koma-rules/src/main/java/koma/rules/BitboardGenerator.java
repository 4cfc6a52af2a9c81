package koma.rules;

/**
 * The bitboard generator, for boards of at most 64 squares without drops (chess, Shodo, deathmatch): the same
 * rules as {@link TableWalkGenerator} with the masks of {@link Bitboards}. Checkers and pins come from bit scans
 * along the eight lines and jump masks, evasion and pin masks cut the targets, and perft leaves are counted
 * with popcounts without listing the moves.
 */
final class BitboardGenerator extends MoveGenerator {
    private final Bitboards bbt;
    /** The position's bitboards per piece code and per colour (the same arrays, read directly). */
    private final long[] bb, colorBB;
    /** The line from the king to the pinner of each pinned square (valid while its bit is in {@code pinned}). */
    private final long[] pinLine = new long[64];
    /** Codes of each colour that attack by jumps. */
    private final int[][] jumpCodes = new int[2][];
    /** En passant and castling land here when moves are only counted. */
    private final int[] smallBuf = new int[16];

    BitboardGenerator(Position pos, Bitboards bbt) {
        super(pos);
        this.bbt = bbt;
        this.bb = pos.bb;
        this.colorBB = pos.colorBB;
        for (int c = 0; c < 2; c++) {
            int[] list = new int[pos.types];
            int k = 0;
            for (int ty = 0; ty < pos.types; ty++) {
                int code = MoveTables.code(c, ty);
                long any = 0;
                for (int sq = 0; sq < g.squares; sq++) {
                    any |= bbt.jumpAttackFrom[code * 64 + sq];
                }
                if (any != 0) {
                    list[k++] = code;
                }
            }
            jumpCodes[c] = java.util.Arrays.copyOf(list, k);
        }
    }

    /**
     * Legal moves with bitboards: writes them into {@code moves}, or only counts them when {@code moves} is
     * null. Same rules as {@link TableWalkGenerator}: checkers and pins from bit scans along the
     * eight lines and jump masks, evasion and pin masks on the targets, promotions counted per target.
     */
    @Override
    int generate(int[] moves) {
        final Position p = pos;
        final long[] colorBB = this.colorBB, bb = this.bb;
        final int side = p.side;
        final Bitboards b = bbt;
        final int us = side, them = us ^ 1;
        final long own = colorBB[us], enemy = colorBB[them], occ = own | enemy, empty = ~occ;
        final int ksq = p.kingSq[us];
        long evasion = -1L, pinned = 0;
        int nCheckers = 0;
        if (ksq >= 0) {
            long jumpCheckers = 0;
            for (int c : jumpCodes[them]) {
                jumpCheckers |= bb[c] & b.jumpAttackFrom[c * 64 + ksq];
            }
            long checkers = jumpCheckers, block = 0;
            // the first piece on each line from the king: enemy ones may check, own ones may be pinned
            long firstOrth = b.lineAttacks(ksq, 0, occ), firstDiag = b.lineAttacks(ksq, 1, occ);
            long first = firstOrth | firstDiag;
            for (long hits = first & enemy; hits != 0; hits &= hits - 1) {
                int h = Long.numberOfTrailingZeros(hits);
                int d = g.direction(ksq, h);
                if (t.capturesAlong(board[h], Geometry.OPPOSITE[d], g.distance(ksq, h))) {
                    checkers |= 1L << h;
                    block = b.ray[ksq * 8 + d] & ~b.ray[h * 8 + d];
                }
            }
            long shields = first & own;
            if (shields != 0) {
                long open = occ & ~shields;
                long behind = ((b.lineAttacks(ksq, 0, open) & ~firstOrth) | (b.lineAttacks(ksq, 1, open) & ~firstDiag))
                        & enemy;
                for (; behind != 0; behind &= behind - 1) {
                    int h = Long.numberOfTrailingZeros(behind);
                    int d = g.direction(ksq, h);
                    if (t.capturesAlong(board[h], Geometry.OPPOSITE[d], g.distance(ksq, h))) {
                        long line = b.ray[ksq * 8 + d] & ~b.ray[h * 8 + d];
                        int shield = Long.numberOfTrailingZeros(line & shields);
                        pinned |= 1L << shield;
                        pinLine[shield] = line;
                    }
                }
            }
            nCheckers = Long.bitCount(checkers);
            p.lastCheckers = nCheckers;
            if (nCheckers == 1) {
                evasion = (checkers & jumpCheckers) != 0 ? checkers : block;
            }
            int kc = board[ksq];
            int ki = (kc * 64 + ksq) * Bitboards.STRIDE;
            long targets = (b.piece[ki + Bitboards.LEAP_MOVE] & empty) | (b.piece[ki + Bitboards.LEAP_CAPTURE] & enemy);
            if (b.slides[kc]) {
                targets |= slideTargets(kc, ksq, occ, empty, enemy);
            }
            if (p.tactical) {
                targets &= enemy;
            }
            long occNoKing = occ ^ 1L << ksq;
            int n = 0;
            for (; targets != 0; targets &= targets - 1) {
                int to = Long.numberOfTrailingZeros(targets);
                if (!attacked(to, them, occNoKing)) {
                    if (moves != null) {
                        moves[n] = Move.normal(ksq, to);
                    }
                    n++;
                }
            }
            if (nCheckers >= 2) {
                return n;
            }
            return otherMoves(moves, n, own & ~(1L << ksq), occ, empty, enemy, evasion, pinned, nCheckers);
        }
        p.lastCheckers = 0;
        return otherMoves(moves, 0, own, occ, empty, enemy, evasion, pinned, 0);
    }

    private int otherMoves(int[] moves, int n, long pieces, long occ, long empty, long enemy, long evasion,
                           long pinned, int nCheckers) {
        final Bitboards b = bbt;
        final boolean tactical = pos.tactical;
        final int[] board = this.board;
        final long[] pt = b.piece, pinLine = this.pinLine;
        for (; pieces != 0; pieces &= pieces - 1) {
            int from = Long.numberOfTrailingZeros(pieces);
            int code = board[from];
            int ci = (code * 64 + from) * Bitboards.STRIDE;
            long targets = (pt[ci + Bitboards.LEAP_MOVE] & empty) | (pt[ci + Bitboards.LEAP_CAPTURE] & enemy);
            long lame = pt[ci + Bitboards.LAME_TARGET];
            if (lame != 0 && (pt[ci + Bitboards.LAME_MIDDLE] & occ) == 0) {
                targets |= lame & empty;
            }
            if (b.slides[code]) {
                targets |= slideTargets(code, from, occ, empty, enemy);
            }
            targets &= evasion;
            if (tactical) {
                targets &= enemy | pt[ci + Bitboards.PROMOTION_ZONE];
            }
            if ((pinned >>> from & 1) != 0) {
                targets &= pinLine[from];
            }
            if (targets == 0) {
                continue;
            }
            long promo = pt[ci + Bitboards.PROMOTION_ZONE] & targets;
            if (moves == null) {
                n += Long.bitCount(targets);
                if (promo != 0) {
                    n += Long.bitCount(promo) * b.promotionChoices[code] - Long.bitCount(promo & pt[ci + Bitboards.FORCED_ZONE]);
                }
                continue;
            }
            for (; targets != 0; targets &= targets - 1) {
                int to = Long.numberOfTrailingZeros(targets);
                if ((promo >>> to & 1) == 0) {
                    moves[n++] = Move.normal(from, to);
                } else {
                    n = addPromotions(moves, n, from, to, code, (pt[ci + Bitboards.FORCED_ZONE] >>> to & 1) != 0);
                }
            }
        }
        final Position p = pos;
        int[] buf = moves != null ? moves : smallBuf;
        int at = moves != null ? n : 0;
        int before = at;
        if (p.ep >= 0) {
            at = enPassantMoves(buf, at, p.side);
        }
        if (p.rs.castling && nCheckers == 0 && p.castling != 0 && !p.tactical) {
            at = castlingMoves(buf, at, p.side, p.side ^ 1);
        }
        return n + (at - before);
    }

    /**
     * The number of squares the piece on {@code from} could move to (empty) or capture on (enemy), ignoring pins
     * and checks: the table walk's {@link TableWalkGenerator#mobility} with the generator's masks.
     */
    int mobility(int from) {
        final Bitboards b = bbt;
        int code = board[from];
        int color = code & 1;
        long enemy = colorBB[color ^ 1], occ = colorBB[color] | enemy, empty = ~occ;
        int ci = (code * 64 + from) * Bitboards.STRIDE;
        long targets = (b.piece[ci + Bitboards.LEAP_MOVE] & empty) | (b.piece[ci + Bitboards.LEAP_CAPTURE] & enemy);
        long lame = b.piece[ci + Bitboards.LAME_TARGET];
        if (lame != 0 && (b.piece[ci + Bitboards.LAME_MIDDLE] & occ) == 0) {
            targets |= lame & empty;
        }
        if (b.slides[code]) {
            targets |= slideTargets(code, from, occ, empty, enemy);
        }
        return Long.bitCount(targets);
    }

    /**
     * The squares the piece on {@code from} attacks: where it would capture a piece of either colour standing
     * there (its capturing leaps, its slides up to and including the first piece within their capture ranges). A
     * piece whose slides all run to the board's edge ({@link Bitboards#fast}: chess's rook, bishop and queen) reads
     * its lines from the line table, as its move generation does; the others walk their slides direction by
     * direction.
     */
    long attacks(int from) {
        return attacksAs(board[from], from);
    }

    /**
     * The squares a piece of {@code code} would attack from {@code from} on this board's occupancy (whatever stands
     * on {@code from}): {@link #attacks} for a piece that is not there.
     */
    long attacksAs(int code, int from) {
        final Bitboards b = bbt;
        long occ = colorBB[0] | colorBB[1];
        long a = b.piece[(code * 64 + from) * Bitboards.STRIDE + Bitboards.LEAP_CAPTURE];
        if (b.fast[code]) {
            a |= b.fastSlides(code, from, occ);
        } else if (b.slides[code]) {
            for (int d = 0; d < 8; d++) {
                int cr = b.slideCapture[code * 8 + d];
                if (cr != 0) {
                    a |= b.slideReach(from, d, occ) & b.rayPrefix[(from * 8 + d) * 65 + cr];
                }
            }
        }
        return a;
    }

    /** Targets of the slides (two or more squares) of a piece, cut at their move and capture ranges. */
    private long slideTargets(int code, int from, long occ, long empty, long enemy) {
        final Bitboards b = bbt;
        if (b.fast[code]) {
            return b.fastSlides(code, from, occ) & (empty | enemy);
        }
        long out = 0;
        for (int d = 0; d < 8; d++) {
            int mr = b.slideMove[code * 8 + d], cr = b.slideCapture[code * 8 + d];
            if ((mr | cr) == 0) {
                continue;
            }
            long reach = b.slideReach(from, d, occ);
            int base = (from * 8 + d) * 65;
            out |= (reach & empty & b.rayPrefix[base + mr]) | (reach & enemy & b.rayPrefix[base + cr]);
        }
        return out;
    }

    @Override
    boolean emptyBetween(int lo, int hi) {
        return ((colorBB[0] | colorBB[1]) & ((1L << hi) - (2L << lo))) == 0;
    }

    @Override
    boolean attacked(int sq, int by) {
        return attacked(sq, by, colorBB[0] | colorBB[1]);
    }

    /**
     * {@link #attacked} when only the pieces in {@code occ} stand (the moving king taken off, or the pieces a static
     * exchange has used up).
     */
    boolean attacked(int sq, int by, long occ) {
        final Bitboards b = bbt;
        for (int c : jumpCodes[by]) {
            if ((bb[c] & b.jumpAttackFrom[c * 64 + sq] & occ) != 0) {
                return true;
            }
        }
        long hits = (b.lineAttacks(sq, 0, occ) | b.lineAttacks(sq, 1, occ)) & colorBB[by] & occ;
        for (; hits != 0; hits &= hits - 1) {
            int h = Long.numberOfTrailingZeros(hits);
            if (t.capturesAlong(board[h], Geometry.OPPOSITE[g.direction(sq, h)], g.distance(sq, h))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The square of the least valuable piece of colour {@code by} that captures on {@code sq} when only the pieces
     * in {@code occ} stand, or -1: {@link TableWalkGenerator#leastValuableAttacker} with jump masks and line
     * attacks instead of table walks, for {@link Position#seeAtLeast} (occupancy loses each exchanged piece, so
     * x-rays come in by themselves). {@code typeValue} per piece type; the royal type counts as the most valuable.
     */
    int leastValuableAttacker(int sq, int by, long occ, int[] typeValue, int royalType) {
        final Bitboards b = bbt;
        int best = -1, bestValue = Integer.MAX_VALUE;
        for (int c : jumpCodes[by]) {
            long hits = bb[c] & b.jumpAttackFrom[c * 64 + sq] & occ;
            if (hits != 0) {
                int type = MoveTables.type(c);
                int v = attackerValue(type, typeValue, royalType);
                if (v < bestValue) {
                    best = Long.numberOfTrailingZeros(hits);
                    bestValue = v;
                }
            }
        }
        long hits = (b.lineAttacks(sq, 0, occ) | b.lineAttacks(sq, 1, occ)) & colorBB[by] & occ;
        for (; hits != 0; hits &= hits - 1) {
            int h = Long.numberOfTrailingZeros(hits);
            int code = board[h];
            int type = MoveTables.type(code);
            int v = attackerValue(type, typeValue, royalType);
            if (v < bestValue && t.capturesAlong(code, Geometry.OPPOSITE[g.direction(sq, h)], g.distance(sq, h))) {
                best = h;
                bestValue = v;
            }
        }
        return best;
    }
}
