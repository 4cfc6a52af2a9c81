package koma.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * The Betza definitions of a rule set compiled into flat tables, per piece code and square, for move
 * generation and attack detection. Built once when the rule set loads. This class is the one place that knows
 * the layout of the move tables: the generators read them only through {@link #reach} (the walk, on a board)
 * and the bitboard compiler through {@link #leaps}/{@link #rays} (a decoded view), so a new kind of move
 * changes {@link #compile} and those three methods.
 *
 * <p>A piece code is {@code ((type + 1) << 1) | color}; 0 is the empty square.
 *
 * <p>The table of a piece code on a square is a run of ints in {@code gen} starting at
 * {@code genAt[code * squares + sq]}:
 * {@code nLeaps, (dest, info)*, nRays, (moveRange, captureRange, length, sq1..sqLength)*}. Leaps are jumps
 * and single steps (which cannot be blocked); {@code info} bit 0 = may move, bit 1 = may capture, then
 * {@link #PROMOTES} and {@link #MUST_PROMOTE}, and above {@link #LEAP_MIDDLE_SHIFT} the square a lame jump
 * needs empty, plus one. Rays are the slides reaching two or more squares, cut at the board edge and at the
 * longer of the two ranges; each ray square is {@code sq | promotionBits << RAY_FLAG_SHIFT}.
 */
final class MoveTables {
    /** Promotion bits (of {@link Leap#promotion}, {@link Ray#promotion}): the move may promote, and it must. */
    static final int PROMOTES = 4, MUST_PROMOTE = 8;
    /** Leap info bits: the leap may move to an empty square, may capture. */
    private static final int LEAP_MOVES = 1, LEAP_CAPTURES = 2;
    /** Leap info: {@code (info >> LEAP_MIDDLE_SHIFT) - 1} is the square a lame leap needs empty, or -1. */
    private static final int LEAP_MIDDLE_SHIFT = 4;
    /** Ray squares carry the promotion bits above the square index. */
    private static final int RAY_FLAG_SHIFT = 6, RAY_SQUARE = 0xFF;

    /** {@link #reach} mode: list the empty squares the piece may move to (its moves). */
    static final int MOVES = LEAP_MOVES;
    /** {@link #reach} mode: list the empty squares the piece attacks (where it would capture). */
    static final int ATTACKS = LEAP_CAPTURES;
    /** {@link #reach} {@code friend} value: no colour is a friend, every occupied square reached is listed. */
    static final int ANY_COLOR = 2;
    /** A {@link #reach} entry: the square in the low bits, then whether a move there may promote, and must. */
    static final int TARGET_SQUARE = RAY_SQUARE, TARGET_PROMOTES = PROMOTES << RAY_FLAG_SHIFT,
            TARGET_MUST_PROMOTE = MUST_PROMOTE << RAY_FLAG_SHIFT;

    final int squares;
    final int codes;
    /** All compiled tables back to back; {@code genAt[code * squares + sq]} is where that table starts. */
    private final int[] gen;
    private final int[] genAt;
    /** The most entries {@link #reach} can write for one piece: the size of its output buffer. */
    final int maxReach;
    /** attackRange[code * 8 + d]: how far the piece captures along line direction d (0 = not at all). */
    private final int[] attackRange;
    /** maxAttackRange[color * 8 + d]: the longest such range of any piece of that colour. */
    private final int[] maxAttackRange;
    /** Distinct capturing jump vectors (absolute dx, dy) of all pieces. */
    private final int jumpCount;
    /** jumpSource[sq * jumpCount + j]: the square from which jump j lands on sq, or -1. */
    private final int[] jumpSource;
    /** jumpAttacks[code * jumpCount + j]: whether that piece captures with jump j. */
    private final boolean[] jumpAttacks;
    /** jumpBetween[from * squares + to]: the capturing jump j that lands on {@code to} from {@code from}, or -1. */
    private final short[] jumpBetween;
    /** forced[code * squares + sq]: the piece must promote on arriving there, and may not be dropped there. */
    final boolean[] forced;
    /** zone[color * squares + sq]: the square is in that side's promotion zone. */
    final boolean[] zone;
    /** True when some piece can capture en passant (a pawn with a lame initial double step). */
    final boolean enPassant;
    /** pawnCode[code]: the piece is of a pawn type (the definition's pawn flag), for {@link Position#pawnKey}. */
    final boolean[] pawnCode;

    static int code(int color, int type) {
        return ((type + 1) << 1) | color;
    }

    static int color(int code) {
        return code & 1;
    }

    static int type(int code) {
        return (code >> 1) - 1;
    }

    MoveTables(RuleSet rs) {
        Geometry g = rs.geometry;
        squares = g.squares;
        int types = rs.pieceCount();
        codes = Position.pieceCodeCount(rs);
        int[][] tables = new int[codes * squares][];
        attackRange = new int[codes * 8];
        maxAttackRange = new int[16];
        forced = new boolean[codes * squares];
        zone = new boolean[2 * squares];
        boolean ep = false;
        List<int[]> jumpVectors = new ArrayList<>();
        boolean[][] initial = initialSquares(rs);
        for (int color = 0; color < 2; color++) {
            for (int sq = 0; sq < squares; sq++) {
                zone[color * squares + sq] = rs.inZone(color, sq);
            }
        }
        pawnCode = new boolean[codes];
        for (PieceType p : rs.pieces) {
            for (Betza.Move m : p.moves()) {
                if (m.lame() && m.initialOnly() && p.pawn()) {
                    ep = true;
                }
            }
            pawnCode[code(0, p.index())] = pawnCode[code(1, p.index())] = p.pawn();
            for (int color = 0; color < 2; color++) {
                int code = code(color, p.index());
                int sign = color == 0 ? 1 : -1;
                for (Betza.Move m : p.moves()) {
                    int dx = m.dx() * sign, dy = m.dy() * sign;
                    if (!m.jump() && m.canCapture() && !m.initialOnly()) {
                        int d = Geometry.directionOf(dx, dy);
                        attackRange[code * 8 + d] = Math.max(attackRange[code * 8 + d], m.range());
                        maxAttackRange[color * 8 + d] = Math.max(maxAttackRange[color * 8 + d], m.range());
                    }
                    if (m.jump() && m.canCapture() && !m.lame() && indexOf(jumpVectors, dx, dy) < 0) {
                        jumpVectors.add(new int[]{dx, dy});
                    }
                }
                for (int sq = 0; sq < squares; sq++) {
                    forced[code * squares + sq] = p.forcedRanks() > 0
                            && g.relativeRank(color, sq) >= g.ranks - p.forcedRanks();
                    tables[code * squares + sq] = compile(rs, p, color, sq, initial[code][sq]);
                }
            }
        }
        genAt = new int[codes * squares];
        int total = 0;
        for (int[] tb : tables) {
            total += tb == null ? 0 : tb.length;
        }
        gen = new int[total];
        int at = 0;
        for (int i = 0; i < tables.length; i++) {
            genAt[i] = at;
            if (tables[i] != null) {
                System.arraycopy(tables[i], 0, gen, at, tables[i].length);
                at += tables[i].length;
            }
        }
        int most = 0;
        for (int i = 0; i < genAt.length; i++) {
            most = Math.max(most, reachBound(genAt[i]));
        }
        maxReach = most;
        enPassant = ep;
        jumpCount = jumpVectors.size();
        jumpSource = new int[squares * Math.max(1, jumpCount)];
        jumpAttacks = new boolean[codes * Math.max(1, jumpCount)];
        jumpBetween = new short[squares * squares];
        java.util.Arrays.fill(jumpBetween, (short) -1);
        for (int sq = 0; sq < squares; sq++) {
            for (int j = 0; j < jumpCount; j++) {
                int f = g.file(sq) - jumpVectors.get(j)[0], r = g.rank(sq) - jumpVectors.get(j)[1];
                jumpSource[sq * jumpCount + j] = g.onBoard(f, r) ? g.square(f, r) : -1;
                if (g.onBoard(f, r)) {
                    jumpBetween[g.square(f, r) * squares + sq] = (short) j;
                }
            }
        }
        for (PieceType p : rs.pieces) {
            for (int color = 0; color < 2; color++) {
                int sign = color == 0 ? 1 : -1;
                for (Betza.Move m : p.moves()) {
                    if (m.jump() && m.canCapture() && !m.lame()) {
                        int j = indexOf(jumpVectors, m.dx() * sign, m.dy() * sign);
                        jumpAttacks[code(color, p.index()) * jumpCount + j] = true;
                    }
                }
            }
        }
    }

    /** How many entries the table starting at {@code idx} can give {@link #reach}: its leaps and ray squares. */
    private int reachBound(int idx) {
        int n = gen[idx];
        idx += 1 + 2 * n;
        for (int r = gen[idx++]; r > 0; r--) {
            n += gen[idx + 2];
            idx += 3 + gen[idx + 2];
        }
        return n;
    }

    /**
     * The walk of the tables on a board, shared by every generator and attack test: writes into {@code out} (at
     * least {@link #maxReach} long) the squares the piece {@code code} standing on {@code from} reaches, and
     * returns how many. An empty square is listed when the piece may move there ({@link #MOVES}) or would capture
     * there ({@link #ATTACKS}), as {@code mode} says; an occupied square when the piece may capture there and the
     * occupant is not of colour {@code friend} ({@link #ANY_COLOR}: listed whatever its colour). A slide stops at
     * the first occupied square; a lame leap needs its middle square empty. Entries are {@link #TARGET_SQUARE}
     * with {@link #TARGET_PROMOTES} and {@link #TARGET_MUST_PROMOTE}, leaps first, in table order.
     * Allocation-free: the generators' hot loop.
     */
    int reach(int[] board, int code, int from, int friend, int mode, int[] out) {
        final int[] tb = gen;
        int idx = genAt[code * squares + from];
        int n = 0;
        for (int j = tb[idx++]; j > 0; j--, idx += 2) {
            int to = tb[idx], info = tb[idx + 1];
            int c = board[to];
            if (c == 0 ? (info & mode) == 0 : (c & 1) == friend || (info & LEAP_CAPTURES) == 0) {
                continue;
            }
            if (info >= 1 << LEAP_MIDDLE_SHIFT && board[(info >> LEAP_MIDDLE_SHIFT) - 1] != 0) {
                continue;
            }
            out[n++] = to | (info & (PROMOTES | MUST_PROMOTE)) << RAY_FLAG_SHIFT;
        }
        for (int r = tb[idx++]; r > 0; r--) {
            int emptyRange = mode == MOVES ? tb[idx] : tb[idx + 1], captureRange = tb[idx + 1], len = tb[idx + 2];
            idx += 3;
            for (int k = 0; k < len; k++) {
                int e = tb[idx + k];
                int c = board[e & RAY_SQUARE];
                if (c == 0) {
                    if (k < emptyRange) {
                        out[n++] = e;
                    }
                } else {
                    if ((c & 1) != friend && k < captureRange) {
                        out[n++] = e;
                    }
                    break;
                }
            }
            idx += len;
        }
        return n;
    }

    // ------------------------------------------------------------------ attack tables (attack detection)

    /** How far any piece of colour {@code color} captures along line direction {@code d} (0: none does). */
    int lineReach(int color, int d) {
        return maxAttackRange[color * 8 + d];
    }

    /** Whether the piece {@code code} captures along line direction {@code d} at {@code distance} squares. */
    boolean capturesAlong(int code, int d, int distance) {
        return attackRange[code * 8 + d] >= distance;
    }

    /** Whether a piece of colour {@code by} on {@code board} captures on {@code sq} by a jump. */
    boolean jumpAttacked(int[] board, int sq, int by) {
        final int jc = jumpCount;
        for (int j = 0; j < jc; j++) {
            int s = jumpSource[sq * jc + j];
            if (s >= 0) {
                int c = board[s];
                if (c != 0 && (c & 1) == by && jumpAttacks[c * jc + j]) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the piece {@code code} standing on {@code from} captures on {@code to} by a jump. */
    boolean jumpCaptures(int code, int from, int to) {
        int j = jumpBetween[from * squares + to];
        return j >= 0 && jumpAttacks[code * jumpCount + j];
    }

    /**
     * Writes into {@code out} from index {@code n} the squares of the pieces of colour {@code by} that capture on
     * {@code sq} by a jump, and returns the new count.
     */
    int jumpAttackers(int[] board, int sq, int by, int[] out, int n) {
        final int jc = jumpCount;
        for (int j = 0; j < jc; j++) {
            int s = jumpSource[sq * jc + j];
            if (s >= 0) {
                int c = board[s];
                if (c != 0 && (c & 1) == by && jumpAttacks[c * jc + j]) {
                    out[n++] = s;
                }
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ decoded view (compiling other tables)

    /** One leap of a table, decoded: its target, its modes, the square a lame leap needs empty (or -1), promotion bits. */
    record Leap(int to, boolean moves, boolean captures, int middle, int promotion) {
    }

    /** One ray of a table, decoded: its move and capture ranges, and its squares with their promotion bits. */
    record Ray(int moveRange, int captureRange, int[] squares, int[] promotion) {
    }

    /** The leaps of the piece {@code code} on {@code sq} (for compiling other tables from these; allocates). */
    List<Leap> leaps(int code, int sq) {
        int idx = genAt[code * squares + sq];
        List<Leap> out = new ArrayList<>();
        for (int j = gen[idx++]; j > 0; j--, idx += 2) {
            int info = gen[idx + 1];
            out.add(new Leap(gen[idx], (info & LEAP_MOVES) != 0, (info & LEAP_CAPTURES) != 0,
                    (info >> LEAP_MIDDLE_SHIFT) - 1, info & (PROMOTES | MUST_PROMOTE)));
        }
        return out;
    }

    /** The rays (slides of two or more squares) of the piece {@code code} on {@code sq} (allocates). */
    List<Ray> rays(int code, int sq) {
        int idx = genAt[code * squares + sq];
        idx += 1 + 2 * gen[idx];
        List<Ray> out = new ArrayList<>();
        for (int r = gen[idx++]; r > 0; r--) {
            int len = gen[idx + 2];
            int[] squares = new int[len], promotion = new int[len];
            for (int k = 0; k < len; k++) {
                squares[k] = gen[idx + 3 + k] & RAY_SQUARE;
                promotion[k] = gen[idx + 3 + k] >> RAY_FLAG_SHIFT;
            }
            out.add(new Ray(gen[idx], gen[idx + 1], squares, promotion));
            idx += 3 + len;
        }
        return out;
    }

    private static int indexOf(List<int[]> vs, int dx, int dy) {
        for (int i = 0; i < vs.size(); i++) {
            if (vs.get(i)[0] == dx && vs.get(i)[1] == dy) {
                return i;
            }
        }
        return -1;
    }

    /** initial[code][sq]: the piece of that code stands on sq in the start position (for Betza 'i'). */
    private static boolean[][] initialSquares(RuleSet rs) {
        int codes = (rs.pieceCount() + 1) * 2;
        boolean[][] out = new boolean[codes][rs.geometry.squares];
        String board = rs.startFen.split("\\s+")[0];
        int bracket = board.indexOf('[');
        if (bracket >= 0) {
            board = board.substring(0, bracket);
        }
        String[] rows = board.split("/");
        Geometry g = rs.geometry;
        for (int i = 0; i < rows.length && i < g.ranks; i++) {
            int rank = g.ranks - 1 - i, file = 0;
            String row = rows[i];
            for (int k = 0; k < row.length(); k++) {
                char c = row.charAt(k);
                if (Character.isDigit(c)) {
                    int n = 0;
                    while (k < row.length() && Character.isDigit(row.charAt(k))) {
                        n = n * 10 + (row.charAt(k++) - '0');
                    }
                    k--;
                    file += n;
                    continue;
                }
                String letter = String.valueOf(c);
                if (c == '+' && k + 1 < row.length()) {
                    letter = "+" + row.charAt(++k);
                }
                int type = rs.typeOf(letter.toUpperCase());
                if (type >= 0 && file < g.files) {
                    int color = Character.isUpperCase(letter.charAt(letter.length() - 1)) ? 0 : 1;
                    out[code(color, type)][g.square(file, rank)] = true;
                }
                file++;
            }
        }
        return out;
    }

    /** Adds a leap to the list, merging its modes with an existing leap to the same square. */
    private static void addLeap(List<int[]> leaps, int dest, int flags, int mid) {
        for (int[] j : leaps) {
            if (j[0] == dest && j[2] == mid) {
                j[1] |= flags;
                return;
            }
        }
        leaps.add(new int[]{dest, flags, mid});
    }

    /** Promotion bits of a move of {@code p} from {@code from} to {@code to}: may promote, must promote. */
    private static int promotionBits(RuleSet rs, PieceType p, int color, int from, int to) {
        if (!p.canPromote()) {
            return 0;
        }
        Geometry g = rs.geometry;
        boolean may = rs.inZone(color, to)
                || (rs.promotion.trigger() == RuleSet.PromotionTrigger.TOUCH && rs.inZone(color, from));
        boolean must = p.forcedRanks() > 0 && g.relativeRank(color, to) >= g.ranks - p.forcedRanks();
        return (may ? PROMOTES : 0) | (must ? MUST_PROMOTE : 0);
    }

    private static int[] compile(RuleSet rs, PieceType p, int color, int sq, boolean onInitial) {
        Geometry g = rs.geometry;
        int sign = color == 0 ? 1 : -1;
        int[] moveRange = new int[8], captureRange = new int[8];
        List<int[]> jumps = new ArrayList<>();
        for (Betza.Move m : p.moves()) {
            if (m.initialOnly() && !onInitial) {
                continue;
            }
            int dx = m.dx() * sign, dy = m.dy() * sign;
            if (m.jump()) {
                int f = g.file(sq) + dx, r = g.rank(sq) + dy;
                if (!g.onBoard(f, r)) {
                    continue;
                }
                int mid = -1;
                if (m.lame()) {
                    mid = g.square(g.file(sq) + dx / 2, g.rank(sq) + dy / 2);
                }
                addLeap(jumps, g.square(f, r), (m.canMove() ? LEAP_MOVES : 0) | (m.canCapture() ? LEAP_CAPTURES : 0), mid);
            } else {
                int d = Geometry.directionOf(dx, dy);
                if (m.canMove()) {
                    moveRange[d] = Math.max(moveRange[d], m.range());
                }
                if (m.canCapture()) {
                    captureRange[d] = Math.max(captureRange[d], m.range());
                }
            }
        }
        // one-square reaches are leaps too: a step cannot be blocked
        for (int d = 0; d < 8; d++) {
            int reach = Math.max(moveRange[d], captureRange[d]);
            int[] ray = g.ray(sq, d);
            if (reach == 1 && ray.length > 0) {
                addLeap(jumps, ray[0], (moveRange[d] >= 1 ? LEAP_MOVES : 0) | (captureRange[d] >= 1 ? LEAP_CAPTURES : 0), -1);
            }
        }
        List<Integer> out = new ArrayList<>();
        out.add(jumps.size());
        for (int[] j : jumps) {
            out.add(j[0]);
            out.add(j[1] | promotionBits(rs, p, color, sq, j[0]) | (j[2] + 1) << LEAP_MIDDLE_SHIFT);
        }
        int raysAt = out.size();
        out.add(0);
        int nRays = 0;
        for (int d = 0; d < 8; d++) {
            int reach = Math.max(moveRange[d], captureRange[d]);
            if (reach < 2) {
                continue;
            }
            int[] ray = g.ray(sq, d);
            int len = (int) Math.min(ray.length, (long) reach);
            if (len == 0) {
                continue;
            }
            nRays++;
            out.add(moveRange[d]);
            out.add(captureRange[d]);
            out.add(len);
            for (int i = 0; i < len; i++) {
                out.add(ray[i] | promotionBits(rs, p, color, sq, ray[i]) << RAY_FLAG_SHIFT);
            }
        }
        out.set(raysAt, nRays);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
