package koma.rules;

/**
 * The table-walk generator, for every rule set: legal moves, attacks and mobility read from the compiled
 * {@link MoveTables} through their one walk, {@link MoveTables#reach}. Legality uses the checkers and pins
 * found once per node by {@link #scanKing}; drops respect dead squares, nifu and the drop-mate ban (which
 * plays the drop and generates the replies, one scratch level deeper).
 */
final class TableWalkGenerator extends MoveGenerator {
    private static final int MAX_LEVELS = 4;

    // scratch, one set per nesting level (the pawn-drop-mate test generates inside generation)
    private int level;
    private final int[][] pinDir = new int[MAX_LEVELS][];
    private final int[][] evasion = new int[MAX_LEVELS][];
    private final int[][] scratch = new int[MAX_LEVELS][];
    private final int[][] emptyBuf = new int[MAX_LEVELS][];
    private final int[][] checkMark = new int[MAX_LEVELS][];
    private int stamp;
    /** Checkers of the king: at most one per line direction plus the jump attackers (distinct squares). */
    private final int[] checkerBuf;
    /** The attackers {@link #leastValuableAttacker} chooses from. */
    private final int[] seeBuf;
    /** The squares one piece reaches ({@link MoveTables#reach}); used and read before the next walk. */
    private final int[] reached;
    private final int squares;

    TableWalkGenerator(Position pos) {
        super(pos);
        this.squares = g.squares;
        this.reached = new int[Math.max(1, t.maxReach)];
        this.checkerBuf = new int[8 + squares];
        this.seeBuf = new int[8 + squares];
        for (int l = 0; l < MAX_LEVELS; l++) {
            pinDir[l] = new int[squares * 2];
            evasion[l] = new int[squares];
            emptyBuf[l] = new int[squares];
            checkMark[l] = new int[squares];
        }
    }

    /** True while a generation is under way (the drop-mate test nests one). */
    boolean generating() {
        return level != 0;
    }

    // ------------------------------------------------------------------ attacks

    @Override
    boolean attacked(int sq, int by) {
        final int[] board = this.board;
        for (int d = 0; d < 8; d++) {
            int od = Geometry.OPPOSITE[d];
            int max = t.lineReach(by, od);
            if (max == 0) {
                continue;
            }
            int[] ray = g.ray(sq, d);
            int lim = Math.min(ray.length, max);
            for (int k = 0; k < lim; k++) {
                int c = board[ray[k]];
                if (c != 0) {
                    if ((c & 1) == by && t.capturesAlong(c, od, k + 1)) {
                        return true;
                    }
                    break;
                }
            }
        }
        return t.jumpAttacked(board, sq, by);
    }

    /**
     * Whether colour {@code by} attacks the king on {@code ksq} once its piece has moved from {@code from} (-1: a
     * drop) to {@code to}, the board already showing the move, given that it did not attack that square before:
     * then only the piece now on {@code to}, or a line through the square it left, can. {@link #attacked} under
     * that condition, at the cost of two lines instead of eight and every jump ({@link Position#givesCheck}, which
     * GivesCheckTest holds to playing the move).
     */
    boolean attackedAfterMove(int ksq, int by, int from, int to) {
        final int[] board = this.board;
        int code = board[to];
        int d = g.direction(ksq, to);
        if (d >= 0) {
            int k = g.distance(ksq, to);
            if (t.capturesAlong(code, Geometry.OPPOSITE[d], k) && firstOccupied(ksq, d, k) == k - 1) {
                return true;
            }
        }
        if (t.jumpCaptures(code, to, ksq)) {
            return true;
        }
        // a line through the square left: its first piece from the king (which may be the moved one, or one it
        // jumped over along that line)
        int e = from < 0 ? -1 : g.direction(ksq, from);
        if (e < 0) {
            return false;
        }
        int od = Geometry.OPPOSITE[e];
        int k = firstOccupied(ksq, e, t.lineReach(by, od));
        if (k < 0) {
            return false;
        }
        int c = board[g.ray(ksq, e)[k]];
        return (c & 1) == by && t.capturesAlong(c, od, k + 1);
    }

    /**
     * The square of the least valuable piece of colour {@code by} that captures on {@code sq}, found as
     * {@link #attacked} finds any (the first piece along each line, then the jumps), or -1. {@code typeValue} per
     * piece type; the royal type counts as the most valuable. For static exchange evaluation. Its line scan is a
     * copy of {@link #attacked}'s on purpose: a shared helper measured about 6% slower in shogi perft(6).
     */
    int leastValuableAttacker(int sq, int by, int[] typeValue, int royalType) {
        final int[] board = this.board;
        int n = 0;
        for (int d = 0; d < 8; d++) {
            int od = Geometry.OPPOSITE[d];
            int max = t.lineReach(by, od);
            if (max == 0) {
                continue;
            }
            int[] ray = g.ray(sq, d);
            int lim = Math.min(ray.length, max);
            for (int k = 0; k < lim; k++) {
                int c = board[ray[k]];
                if (c != 0) {
                    if ((c & 1) == by && t.capturesAlong(c, od, k + 1)) {
                        seeBuf[n++] = ray[k];
                    }
                    break;
                }
            }
        }
        n = t.jumpAttackers(board, sq, by, seeBuf, n);
        int best = -1, bestValue = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int type = MoveTables.type(board[seeBuf[i]]);
            int v = attackerValue(type, typeValue, royalType);
            if (v < bestValue) {
                best = seeBuf[i];
                bestValue = v;
            }
        }
        return best;
    }

    /**
     * The index along the ray from {@code sq} in direction {@code d} of its first occupied square among the first
     * {@code max}, or -1 when they are all empty.
     */
    private int firstOccupied(int sq, int d, int max) {
        int[] ray = g.ray(sq, d);
        int lim = Math.min(ray.length, max);
        for (int k = 0; k < lim; k++) {
            if (board[ray[k]] != 0) {
                return k;
            }
        }
        return -1;
    }

    /** See {@link Position#mobility}: the squares the piece on {@code sq} could move to or capture on. */
    int mobility(int sq) {
        int code = board[sq];
        return t.reach(board, code, sq, code & 1, MoveTables.MOVES, reached);
    }

    /** Whether the piece {@code code} standing on {@code from} attacks {@code target} on the current board. */
    boolean attacksFrom(int code, int from, int target) {
        int n = t.reach(board, code, from, MoveTables.ANY_COLOR, MoveTables.ATTACKS, reached);
        for (int i = 0; i < n; i++) {
            if ((reached[i] & MoveTables.TARGET_SQUARE) == target) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ legal moves

    @Override
    int generate(int[] moves) {
        final Position p = pos;
        final int us = p.side, them = us ^ 1;
        final int[] board = this.board;
        final int[] reached = this.reached;
        final boolean tactical = p.tactical;
        final int lv = level;
        final int[] pins = pinDir[lv];
        final int[] ev = evasion[lv];
        final int st = ++stamp;
        final int ksq = p.kingSq[us];
        int nCheckers = 0;
        if (ksq >= 0) {
            nCheckers = scanKing(ksq, us, them, pins, ev, st);
        }
        int n = 0;
        final int[] list = p.plist[us];
        final int count = p.pcount[us];
        for (int i = 0; i < count; i++) {
            int from = list[i];
            int code = board[from];
            if (from == ksq) {
                n = kingMoves(moves, n, from, code, us, them, tactical);
                continue;
            }
            if (nCheckers >= 2) {
                continue;
            }
            int pin = pins[from * 2] == st ? pins[from * 2 + 1] : -1;
            boolean restricted = pin >= 0 || nCheckers == 1;
            int nr = t.reach(board, code, from, us, MoveTables.MOVES, reached);
            for (int k = 0; k < nr; k++) {
                int e = reached[k];
                int to = e & MoveTables.TARGET_SQUARE;
                if (tactical && (e & MoveTables.TARGET_PROMOTES) == 0 && board[to] == 0) {
                    continue;
                }
                if (restricted && !allowed(to, pin, ksq, nCheckers, ev, st)) {
                    continue;
                }
                if ((e & MoveTables.TARGET_PROMOTES) == 0) {
                    moves[n++] = Move.normal(from, to);
                } else {
                    n = addPromotions(moves, n, from, to, code, (e & MoveTables.TARGET_MUST_PROMOTE) != 0);
                }
            }
        }
        if (p.ep >= 0 && nCheckers < 2) {
            n = enPassantMoves(moves, n, us);
        }
        if (p.rs.castling && nCheckers == 0 && p.castling != 0 && !tactical) {
            n = castlingMoves(moves, n, us, them);
        }
        if (p.rs.drops && nCheckers < 2 && !tactical) {
            n = drops(moves, n, us, them, nCheckers, ev, st);
        }
        return n;
    }

    private boolean allowed(int to, int pin, int ksq, int nCheckers, int[] ev, int st) {
        // a pinned piece stays on the line between its king and the pinner (a jumper could leap past the pinner)
        if (pin >= 0 && (g.direction(ksq, to) != (pin & 15) || g.distance(ksq, to) > pin >> 4)) {
            return false;
        }
        return nCheckers == 0 || ev[to] == st;
    }

    /**
     * Finds the checkers of the king on {@code ksq} and the pieces pinned to it. Returns the number of checkers;
     * with one checker, marks in {@code ev} the squares that answer it (its square, and the squares between
     * when it attacks by a slide). Pinned pieces get in {@code pins} their pin direction and, above bit 4, the
     * pinner's distance.
     */
    private int scanKing(int ksq, int us, int them, int[] pins, int[] ev, int st) {
        final int[] board = this.board;
        int n = 0;
        int blockDir = -1, blockLen = 0;
        for (int d = 0; d < 8; d++) {
            int od = Geometry.OPPOSITE[d];
            int max = t.lineReach(them, od);
            if (max == 0) {
                continue;
            }
            int[] ray = g.ray(ksq, d);
            int lim = Math.min(ray.length, max);
            int own = -1;
            for (int k = 0; k < lim; k++) {
                int c = board[ray[k]];
                if (c == 0) {
                    continue;
                }
                if ((c & 1) == us) {
                    if (own >= 0) {
                        break;
                    }
                    own = ray[k];
                    continue;
                }
                if (t.capturesAlong(c, od, k + 1)) {
                    if (own >= 0) {
                        pins[own * 2] = st;
                        pins[own * 2 + 1] = d | (k + 1) << 4;
                    } else {
                        checkerBuf[n++] = ray[k];
                        blockDir = d;
                        blockLen = k;
                    }
                }
                break;
            }
        }
        // jump checkers; a piece found on a line already (a step that is also a jump vector) counts once
        int lineCheckers = n;
        int all = t.jumpAttackers(board, ksq, them, checkerBuf, n);
        boolean jumpChecker = all > lineCheckers;
        for (int i = lineCheckers; i < all; i++) {
            int s = checkerBuf[i];
            boolean dup = false;
            for (int k = 0; k < lineCheckers; k++) {
                dup |= checkerBuf[k] == s;
            }
            if (!dup) {
                checkerBuf[n++] = s;
            } else {
                blockDir = -1;
            }
        }
        pos.lastCheckers = n;
        if (n == 1) {
            ev[checkerBuf[0]] = st;
            if (!jumpChecker && blockDir >= 0) {
                int[] ray = g.ray(ksq, blockDir);
                for (int k = 0; k < blockLen; k++) {
                    ev[ray[k]] = st;
                }
            }
        }
        return n;
    }

    /** The royal piece's moves: to squares not attacked once it has left its own (taken off the board meanwhile). */
    private int kingMoves(int[] moves, int n, int from, int code, int us, int them, boolean tactical) {
        final int[] board = this.board;
        board[from] = 0;
        int nr = t.reach(board, code, from, us, MoveTables.MOVES, reached);
        for (int k = 0; k < nr; k++) {
            int to = reached[k] & MoveTables.TARGET_SQUARE;
            if ((!tactical || board[to] != 0) && !attacked(to, them)) {
                moves[n++] = Move.normal(from, to);
            }
        }
        board[from] = code;
        return n;
    }

    private int drops(int[] moves, int n, int us, int them, int nCheckers, int[] ev, int st) {
        final Position p = pos;
        final int[] board = this.board;
        final int[] empty = emptyBuf[level];
        int ne = 0;
        for (int sq = 0; sq < squares; sq++) {
            if (board[sq] == 0 && (nCheckers == 0 || ev[sq] == st)) {
                empty[ne++] = sq;
            }
        }
        if (ne == 0) {
            return n;
        }
        final int theirKing = p.kingSq[them];
        final int[] mark = checkMark[level];
        for (int type : p.droppable) {
            if (p.hand[us * p.types + type] == 0) {
                continue;
            }
            PieceType pt = p.pieceTypes[type];
            int code = MoveTables.code(us, type);
            int fileMask = 0;
            if (pt.dropOneFile()) {
                for (int i = 0; i < p.pcount[us]; i++) {
                    int s = p.plist[us][i];
                    if (board[s] == code) {
                        fileMask |= 1 << p.fileOf[s];
                    }
                }
            }
            // squares from which the dropped piece would check: where the same piece of the other colour
            // standing on the king's square reaches (colours are 180-degree images of each other)
            int checkSt = 0;
            if (pt.dropNoMate() && theirKing >= 0) {
                checkSt = ++stamp;
                markCaptures(MoveTables.code(them, type), theirKing, mark, checkSt);
            }
            boolean dead = pt.forcedRanks() > 0;
            int base = code * squares;
            for (int i = 0; i < ne; i++) {
                int sq = empty[i];
                if ((dead && t.forced[base + sq]) || (fileMask & 1 << p.fileOf[sq]) != 0) {
                    continue;
                }
                int move = Move.drop(type, sq);
                if (checkSt != 0 && mark[sq] == checkSt && dropMates(move)) {
                    continue;
                }
                moves[n++] = move;
            }
        }
        return n;
    }

    /** Marks with {@code st} every square the piece {@code code} on {@code from} could capture on. */
    private void markCaptures(int code, int from, int[] mark, int st) {
        int n = t.reach(board, code, from, MoveTables.ANY_COLOR, MoveTables.ATTACKS, reached);
        for (int i = 0; i < n; i++) {
            mark[reached[i] & MoveTables.TARGET_SQUARE] = st;
        }
    }

    /** Whether the (checking) drop leaves the opponent without a legal reply. */
    private boolean dropMates(int move) {
        if (level + 1 >= MAX_LEVELS) {
            throw new IllegalStateException("drop-mate test nested too deep");
        }
        pos.doMove(move);
        level++;
        if (scratch[level] == null) {
            scratch[level] = pos.newMoveBuffer();
        }
        int replies = pos.legalMoves(scratch[level]);
        level--;
        pos.undoMove();
        return replies == 0;
    }
}
