package koma.rules;

import koma.rules.notation.Fen;

/**
 * A mutable game position of any rule set: board, hands, side to move, castling rights, en-passant square,
 * move clocks and an incrementally updated Zobrist key. {@link #doMove}/{@link #undoMove} allocate nothing;
 * {@link #legalMoves} writes into a caller's {@code int[]} buffer (see {@link Move} for the encoding).
 *
 * <p>Colour 0 is the first player (White in chess, Black/sente in shogi), who moves toward higher ranks.
 */
public final class Position {
    /** Castling-right bits: first player king side, queen side; second player king side, queen side. */
    public static final int WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8;
    private static final int MAX_LEVELS = 4;
    private static final int MAX_HAND = 64;

    final RuleSet rs;
    final MoveTables t;
    final Geometry g;
    private final int squares;
    private final int types;

    final int[] board;
    /** Bitboards per piece code and per colour, kept only when the rule set has {@link Bitboards}. */
    private final Bitboards bbt;
    private final long[] bb;
    private final long[] colorBB = new long[2];
    private final long[] pinLine = new long[64];
    /** Codes of each colour that attack by jumps (bitboard attack detection). */
    private final int[][] jumpCodes = new int[2][];
    private final int[] smallBuf = new int[16];
    private final int[] hand;
    private final int[][] plist = new int[2][];
    private final int[] pcount = new int[2];
    private final int[] pindex;
    private final int[] kingSq = {-1, -1};
    private int side;
    private int castling;
    private int ep = -1;
    private int halfmove;
    private int gamePly;
    private long key;

    // undo stack, preallocated and grown only when a game gets very long
    private int sp;
    private int[] uMove = new int[256], uMoved = new int[256], uCaptured = new int[256], uCastling = new int[256],
            uEp = new int[256], uHalfmove = new int[256];
    private long[] uKey = new long[256];

    // move-generation scratch, one set per nesting level (the pawn-drop-mate test generates inside generation)
    private int level;
    private final int[][] pinDir = new int[MAX_LEVELS][];
    private final int[][] evasion = new int[MAX_LEVELS][];
    private final int[][] scratch = new int[MAX_LEVELS][];
    private final int[][] emptyBuf = new int[MAX_LEVELS][];
    private final int[][] checkMark = new int[MAX_LEVELS][];
    private int stamp;
    private final int[] checkerBuf = new int[8];
    private int lastCheckers;
    /** While true the generators emit only captures and promotions ({@link #tacticalMoves}). */
    private boolean tactical;

    // castling geometry (standard chess castling)
    private final int[] castleMask;
    private final int[] castleKingFrom = new int[4], castleKingTo = new int[4], castleRookFrom = new int[4],
            castleRookTo = new int[4];

    // rule-set derived lookups
    private final PieceType[] pieceTypes;
    private final int[] fileOf;
    private final int[][] promotions;
    private final int[] droppable;
    private final int epPawnType;
    private final int maxMoves;

    private Position(RuleSet rs) {
        this.rs = rs;
        this.t = rs.tables;
        this.g = rs.geometry;
        this.squares = g.squares;
        this.types = rs.pieceCount();
        this.board = new int[squares];
        this.bbt = rs.bitboards;
        this.bb = new long[(types + 1) * 2];
        for (int c = 0; c < 2; c++) {
            int[] list = new int[types];
            int k = 0;
            for (int ty = 0; ty < types; ty++) {
                int code = MoveTables.code(c, ty);
                if (bbt != null) {
                    long any = 0;
                    for (int sq = 0; sq < squares; sq++) {
                        any |= bbt.jumpAttackFrom[code * 64 + sq];
                    }
                    if (any != 0) {
                        list[k++] = code;
                    }
                }
            }
            jumpCodes[c] = java.util.Arrays.copyOf(list, k);
        }
        this.hand = new int[2 * types];
        this.pindex = new int[squares];
        this.plist[0] = new int[squares];
        this.plist[1] = new int[squares];
        for (int l = 0; l < MAX_LEVELS; l++) {
            pinDir[l] = new int[squares * 2];
            evasion[l] = new int[squares];
            emptyBuf[l] = new int[squares];
            checkMark[l] = new int[squares];
        }
        this.castleMask = new int[squares];
        java.util.Arrays.fill(castleMask, 15);
        this.pieceTypes = rs.pieces.toArray(new PieceType[0]);
        this.fileOf = new int[squares];
        for (int sq = 0; sq < squares; sq++) {
            fileOf[sq] = g.file(sq);
        }
        this.promotions = new int[types][];
        int[] drop = new int[types];
        int nd = 0;
        int epType = -1;
        for (PieceType p : rs.pieces) {
            promotions[p.index()] = p.promotions();
            if (rs.drops && !p.royal() && p.demotesTo() == p.index()) {
                drop[nd++] = p.index();
            }
            if (t.enPassant && p.pawn()) {
                epType = p.index();
            }
        }
        // hands list the strongest first in shogi order: reverse of definition order
        this.droppable = new int[nd];
        for (int i = 0; i < nd; i++) {
            droppable[i] = drop[nd - 1 - i];
        }
        this.epPawnType = epType;
        this.maxMoves = 1024 + nd * squares;
    }

    // ------------------------------------------------------------------ construction

    /** The rule set's start position. */
    public static Position start(RuleSet rs) {
        return fromFen(rs, rs.startFen);
    }

    /** Parses FEN or SFEN (whichever the string is); see {@link Fen}. */
    public static Position fromFen(RuleSet rs, String fen) {
        return Fen.parse(rs, fen);
    }

    /** An empty board of the rule set, for building positions square by square. Call {@link #validate} after. */
    public static Position empty(RuleSet rs) {
        return new Position(rs);
    }

    /** A deep copy with an empty undo history. */
    /**
     * A copy that also keeps the plies played on this object (its undo stack), so that a search on the copy sees
     * the game's earlier positions for repetition ({@link #keyBack}) and may undo past its root.
     */
    public Position copyWithHistory() {
        Position p = copy();
        if (p.uKey.length < uKey.length) {
            p.uMove = new int[uMove.length];
            p.uMoved = new int[uMove.length];
            p.uCaptured = new int[uMove.length];
            p.uCastling = new int[uMove.length];
            p.uEp = new int[uMove.length];
            p.uHalfmove = new int[uMove.length];
            p.uKey = new long[uMove.length];
        }
        System.arraycopy(uMove, 0, p.uMove, 0, sp);
        System.arraycopy(uMoved, 0, p.uMoved, 0, sp);
        System.arraycopy(uCaptured, 0, p.uCaptured, 0, sp);
        System.arraycopy(uCastling, 0, p.uCastling, 0, sp);
        System.arraycopy(uEp, 0, p.uEp, 0, sp);
        System.arraycopy(uHalfmove, 0, p.uHalfmove, 0, sp);
        System.arraycopy(uKey, 0, p.uKey, 0, sp);
        p.sp = sp;
        return p;
    }

    public Position copy() {
        Position p = new Position(rs);
        System.arraycopy(board, 0, p.board, 0, squares);
        System.arraycopy(hand, 0, p.hand, 0, hand.length);
        for (int c = 0; c < 2; c++) {
            System.arraycopy(plist[c], 0, p.plist[c], 0, pcount[c]);
            p.pcount[c] = pcount[c];
            p.kingSq[c] = kingSq[c];
        }
        System.arraycopy(pindex, 0, p.pindex, 0, squares);
        System.arraycopy(bb, 0, p.bb, 0, bb.length);
        System.arraycopy(colorBB, 0, p.colorBB, 0, 2);
        System.arraycopy(castleMask, 0, p.castleMask, 0, squares);
        System.arraycopy(castleKingFrom, 0, p.castleKingFrom, 0, 4);
        System.arraycopy(castleKingTo, 0, p.castleKingTo, 0, 4);
        System.arraycopy(castleRookFrom, 0, p.castleRookFrom, 0, 4);
        System.arraycopy(castleRookTo, 0, p.castleRookTo, 0, 4);
        p.side = side;
        p.castling = castling;
        p.ep = ep;
        p.halfmove = halfmove;
        p.gamePly = gamePly;
        p.key = key;
        return p;
    }

    /** Puts a piece on an empty square (setup only). */
    public void setPiece(int sq, int color, int type) {
        if (board[sq] != 0) {
            throw new IllegalStateException("square " + sq + " is occupied");
        }
        addPiece(sq, MoveTables.code(color, type));
    }

    public void setHandCount(int color, int type, int count) {
        hand[color * types + type] = count;
    }

    public void setSideToMove(int color) {
        side = color;
    }

    public void setCastlingRights(int rights) {
        castling = rights;
    }

    public void setEnPassantSquare(int sq) {
        ep = sq;
    }

    public void setHalfmoveClock(int n) {
        halfmove = n;
    }

    /** Plies played since the game's first position (fullmove number 1, first player to move = 0). */
    public void setGamePly(int ply) {
        gamePly = ply;
    }

    /**
     * Checks a position built by setup calls and computes its key; throws IllegalArgumentException naming the
     * problem: royal pieces, hand counts, pieces on squares where they could never move, doubled pawns where
     * drops forbid them, castling rights without king and rook at home, en passant, and the side not to move
     * being in check.
     */
    public Position validate() {
        if (rs.royalType >= 0) {
            for (int c = 0; c < 2; c++) {
                int n = 0;
                for (int i = 0; i < pcount[c]; i++) {
                    if (MoveTables.type(board[plist[c][i]]) == rs.royalType) {
                        n++;
                    }
                }
                if (n != 1) {
                    throw new IllegalArgumentException((c == 0 ? "first" : "second") + " player has " + n + " "
                            + rs.piece(rs.royalType).name() + "s; exactly one is required");
                }
            }
        }
        for (int c = 0; c < 2; c++) {
            for (int ty = 0; ty < types; ty++) {
                int n = hand[c * types + ty];
                if (n == 0) {
                    continue;
                }
                if (!rs.drops) {
                    throw new IllegalArgumentException("pieces in hand, but " + rs.id + " has no drops");
                }
                PieceType p = rs.piece(ty);
                if (p.royal() || p.demotesTo() != ty) {
                    throw new IllegalArgumentException("a " + p.name() + " cannot be in hand");
                }
                if (n < 0 || n >= MAX_HAND) {
                    throw new IllegalArgumentException("impossible hand count " + n + " for " + p.name());
                }
            }
        }
        for (int sq = 0; sq < squares; sq++) {
            int code = board[sq];
            if (code != 0 && t.forced[code * squares + sq]) {
                throw new IllegalArgumentException("unpromoted " + rs.piece(MoveTables.type(code)).name() + " on "
                        + Fen.squareName(g, sq) + ", a square it could never leave");
            }
        }
        for (int c = 0; c < 2; c++) {
            for (PieceType p : rs.pieces) {
                if (!rs.drops || !p.dropOneFile()) {
                    continue;
                }
                int seen = 0;
                for (int i = 0; i < pcount[c]; i++) {
                    int sq = plist[c][i];
                    if (MoveTables.type(board[sq]) == p.index()) {
                        int bit = 1 << g.file(sq);
                        if ((seen & bit) != 0) {
                            throw new IllegalArgumentException("two unpromoted " + p.name() + "s of one player on file "
                                    + Fen.fileName(g, g.file(sq)));
                        }
                        seen |= bit;
                    }
                }
            }
        }
        setupCastling();
        if (ep >= 0) {
            int behind = g.square(g.file(ep), g.rank(ep) + (side == 0 ? -1 : 1));
            if (epPawnType < 0 || g.relativeRank(side, ep) != g.ranks - 3
                    || board[behind] != MoveTables.code(side ^ 1, epPawnType) || board[ep] != 0) {
                throw new IllegalArgumentException("en-passant square " + Fen.squareName(g, ep)
                        + " does not follow a double pawn step");
            }
            if (!epCapturePossible(behind, side)) {
                ep = -1; // no pawn can take: the square is not part of the position (as in repetition rules)
            }
        }
        if (kingSq[side ^ 1] >= 0 && attacked(kingSq[side ^ 1], side)) {
            throw new IllegalArgumentException("the side not to move is in check");
        }
        key = computeKey();
        return this;
    }

    private void setupCastling() {
        java.util.Arrays.fill(castleMask, 15);
        if (!rs.castling) {
            if (castling != 0) {
                throw new IllegalArgumentException("castling rights, but " + rs.id + " has no castling");
            }
            return;
        }
        int rook = rs.typeOf("R");
        for (int c = 0; c < 2; c++) {
            int backRank = c == 0 ? 0 : g.ranks - 1;
            int ksq = g.square(4, backRank);
            for (int wing = 0; wing < 2; wing++) {
                int right = 1 << (c * 2 + wing);
                int rookSq = g.square(wing == 0 ? g.files - 1 : 0, backRank);
                int i = c * 2 + wing;
                castleKingFrom[i] = ksq;
                castleKingTo[i] = g.square(wing == 0 ? 6 : 2, backRank);
                castleRookFrom[i] = rookSq;
                castleRookTo[i] = g.square(wing == 0 ? 5 : 3, backRank);
                castleMask[rookSq] &= ~right;
                castleMask[ksq] &= ~right;
                if ((castling & right) != 0 && (kingSq[c] != ksq
                        || board[rookSq] != MoveTables.code(c, rook))) {
                    throw new IllegalArgumentException("castling right '" + "KQkq".charAt(i)
                            + "' needs the king on " + Fen.squareName(g, ksq) + " and a rook on "
                            + Fen.squareName(g, rookSq));
                }
            }
        }
    }

    // ------------------------------------------------------------------ accessors

    public RuleSet ruleSet() {
        return rs;
    }

    public Geometry geometry() {
        return g;
    }

    public int sideToMove() {
        return side;
    }

    public long key() {
        return key;
    }

    public int castlingRights() {
        return castling;
    }

    public int enPassantSquare() {
        return ep;
    }

    public int halfmoveClock() {
        return halfmove;
    }

    public int gamePly() {
        return gamePly;
    }

    /** Plies played with {@link #doMove} on this object and not yet undone. */
    public int historyLength() {
        return sp;
    }

    /** The move played {@code back} plies ago on this object (1 = the last), or {@link Move#NONE}. */
    public int moveBack(int back) {
        return back >= 1 && back <= sp ? uMove[sp - back] : Move.NONE;
    }

    /** The key of the position {@code back} plies ago on this object (1 = before the last move), for repetition. */
    public long keyBack(int back) {
        return uKey[sp - back];
    }

    /**
     * True when the rule set's insufficient-material list (RULES.md 1.7, 5.7, 3.6) declares the position dead:
     * the game is drawn whatever is played.
     */
    public boolean isDeadPosition() {
        return Material.insufficient(this, rs.endRules.material());
    }

    public boolean isEmpty(int sq) {
        return board[sq] == 0;
    }

    /** Colour of the piece on sq; only meaningful when the square is not empty. */
    public int colorAt(int sq) {
        return MoveTables.color(board[sq]);
    }

    /** Type of the piece on sq, or -1 when empty. */
    public int typeAt(int sq) {
        return board[sq] == 0 ? -1 : MoveTables.type(board[sq]);
    }

    public int handCount(int color, int type) {
        return hand[color * types + type];
    }

    /** Types that can be held in hand, in the conventional writing order (strongest first). */
    public int[] handTypes() {
        return droppable.clone();
    }

    public int kingSquare(int color) {
        return kingSq[color];
    }

    /** Number of pieces of the colour on the board. */
    public int pieceCount(int color) {
        return pcount[color];
    }

    /** Square of the colour's i-th piece in the piece list (order is arbitrary). */
    public int pieceSquare(int color, int i) {
        return plist[color][i];
    }

    /** A move buffer large enough for any position of this rule set. */
    public int[] newMoveBuffer() {
        return new int[maxMoves];
    }

    public boolean inCheck() {
        int k = kingSq[side];
        if (k < 0) {
            return false;
        }
        return bbt != null ? attackedBitboard(k, side ^ 1, colorBB[0] | colorBB[1]) : attacked(k, side ^ 1);
    }

    // ------------------------------------------------------------------ board edits

    private void addPiece(int sq, int code) {
        int c = MoveTables.color(code);
        board[sq] = code;
        if (bbt != null) {
            bb[code] |= 1L << sq;
            colorBB[c] |= 1L << sq;
        }
        pindex[sq] = pcount[c];
        plist[c][pcount[c]++] = sq;
        if (MoveTables.type(code) == rs.royalType) {
            kingSq[c] = sq;
        }
    }

    private void removePiece(int sq) {
        int c = MoveTables.color(board[sq]);
        if (bbt != null) {
            bb[board[sq]] &= ~(1L << sq);
            colorBB[c] &= ~(1L << sq);
        }
        int last = plist[c][--pcount[c]];
        int idx = pindex[sq];
        plist[c][idx] = last;
        pindex[last] = idx;
        board[sq] = 0;
    }

    private void movePiece(int from, int to) {
        int code = board[from];
        board[to] = code;
        board[from] = 0;
        if (bbt != null) {
            long fromTo = 1L << from | 1L << to;
            bb[code] ^= fromTo;
            colorBB[code & 1] ^= fromTo;
        }
        int idx = pindex[from];
        plist[MoveTables.color(code)][idx] = to;
        pindex[to] = idx;
        if (MoveTables.type(code) == rs.royalType) {
            kingSq[MoveTables.color(code)] = to;
        }
    }

    /** Changes the piece on an occupied square to another of the same colour (promotion and its undo). */
    private void setCode(int sq, int code) {
        if (bbt != null) {
            bb[board[sq]] &= ~(1L << sq);
            bb[code] |= 1L << sq;
        }
        board[sq] = code;
    }

    // ------------------------------------------------------------------ make / unmake

    /** Plays a legal move (as produced by {@link #legalMoves}); no validation is done here. */
    public void doMove(int move) {
        if (sp == uMove.length) {
            growUndo();
        }
        int us = side, them = us ^ 1;
        uMove[sp] = move;
        uCastling[sp] = castling;
        uEp[sp] = ep;
        uHalfmove[sp] = halfmove;
        uKey[sp] = key;
        uCaptured[sp] = 0;
        long k = key;
        if (ep >= 0) {
            k ^= Zobrist.ep(g.file(ep));
            ep = -1;
        }
        int kind = Move.kind(move);
        int to = Move.to(move);
        halfmove++;
        if (kind == Move.DROP) {
            int type = Move.type(move);
            int code = MoveTables.code(us, type);
            int hi = us * types + type;
            k ^= Zobrist.hand(hi, hand[hi]);
            hand[hi]--;
            k ^= Zobrist.hand(hi, hand[hi]);
            addPiece(to, code);
            k ^= Zobrist.piece(code, to);
        } else {
            int from = Move.from(move);
            int code = board[from];
            uMoved[sp] = code;
            int captured = board[to];
            if (kind == Move.EN_PASSANT) {
                int capSq = g.square(g.file(to), g.rank(from));
                captured = board[capSq];
                k ^= Zobrist.piece(captured, capSq);
                removePiece(capSq);
                uCaptured[sp] = captured;
                halfmove = 0;
            } else if (captured != 0) {
                k ^= Zobrist.piece(captured, to);
                removePiece(to);
                uCaptured[sp] = captured;
                halfmove = 0;
                if (rs.drops) {
                    int ht = pieceTypes[MoveTables.type(captured)].demotesTo();
                    int hi = us * types + ht;
                    k ^= Zobrist.hand(hi, hand[hi]);
                    hand[hi]++;
                    k ^= Zobrist.hand(hi, hand[hi]);
                }
            }
            k ^= Zobrist.piece(code, from);
            movePiece(from, to);
            int type = MoveTables.type(code);
            if (kind == Move.PROMOTION) {
                code = MoveTables.code(us, Move.type(move));
                setCode(to, code);
            }
            k ^= Zobrist.piece(code, to);
            if (kind == Move.CASTLING) {
                int i = us * 2 + (to > from ? 0 : 1);
                int rf = castleRookFrom[i], rt = castleRookTo[i];
                int rook = board[rf];
                k ^= Zobrist.piece(rook, rf) ^ Zobrist.piece(rook, rt);
                movePiece(rf, rt);
            }
            if (pieceTypes[type].pawn()) {
                halfmove = 0;
                if (type == epPawnType && Math.abs(g.rank(to) - g.rank(from)) == 2) {
                    int mid = (from + to) >>> 1;
                    if (epCapturePossible(to, them)) {
                        ep = mid;
                        k ^= Zobrist.ep(g.file(mid));
                    }
                }
            }
            if (castling != 0) {
                int nc = castling & castleMask[from] & castleMask[to];
                if (nc != castling) {
                    k ^= Zobrist.castling(castling) ^ Zobrist.castling(nc);
                    castling = nc;
                }
            }
        }
        side = them;
        k ^= Zobrist.SIDE;
        key = k;
        gamePly++;
        sp++;
    }

    /** Takes back the last move played with {@link #doMove}. */
    public void undoMove() {
        sp--;
        int move = uMove[sp];
        int them = side, us = them ^ 1;
        side = us;
        gamePly--;
        int kind = Move.kind(move);
        int to = Move.to(move);
        if (kind == Move.DROP) {
            removePiece(to);
            hand[us * types + Move.type(move)]++;
        } else {
            int from = Move.from(move);
            setCode(to, uMoved[sp]);
            movePiece(to, from);
            if (kind == Move.CASTLING) {
                int i = us * 2 + (to > from ? 0 : 1);
                movePiece(castleRookTo[i], castleRookFrom[i]);
            }
            int captured = uCaptured[sp];
            if (captured != 0) {
                if (kind == Move.EN_PASSANT) {
                    addPiece(g.square(g.file(to), g.rank(from)), captured);
                } else {
                    addPiece(to, captured);
                    if (rs.drops) {
                        hand[us * types + pieceTypes[MoveTables.type(captured)].demotesTo()]--;
                    }
                }
            }
        }
        castling = uCastling[sp];
        ep = uEp[sp];
        halfmove = uHalfmove[sp];
        key = uKey[sp];
    }

    /** Passes the turn (null move) for search; undo with {@link #undoNullMove}. Not legal in any rule set. */
    public void doNullMove() {
        if (sp == uMove.length) {
            growUndo();
        }
        uMove[sp] = Move.NONE;
        uCastling[sp] = castling;
        uEp[sp] = ep;
        uHalfmove[sp] = halfmove;
        uKey[sp] = key;
        uCaptured[sp] = 0;
        if (ep >= 0) {
            key ^= Zobrist.ep(g.file(ep));
            ep = -1;
        }
        key ^= Zobrist.SIDE;
        side ^= 1;
        halfmove++;
        gamePly++;
        sp++;
    }

    public void undoNullMove() {
        sp--;
        side ^= 1;
        gamePly--;
        ep = uEp[sp];
        halfmove = uHalfmove[sp];
        key = uKey[sp];
    }

    private void growUndo() {
        int n = uMove.length * 2;
        uMove = java.util.Arrays.copyOf(uMove, n);
        uMoved = java.util.Arrays.copyOf(uMoved, n);
        uCaptured = java.util.Arrays.copyOf(uCaptured, n);
        uCastling = java.util.Arrays.copyOf(uCastling, n);
        uEp = java.util.Arrays.copyOf(uEp, n);
        uHalfmove = java.util.Arrays.copyOf(uHalfmove, n);
        uKey = java.util.Arrays.copyOf(uKey, n);
    }

    /** Whether a pawn of {@code by} stands beside the pawn that just double-stepped to {@code to}. */
    private boolean epCapturePossible(int to, int by) {
        int pawn = MoveTables.code(by, epPawnType);
        int f = g.file(to);
        return (f > 0 && board[to - 1] == pawn) || (f < g.files - 1 && board[to + 1] == pawn);
    }

    // ------------------------------------------------------------------ attacks

    /** True when {@code sq} is attacked by a piece of colour {@code by}. */
    public boolean attacked(int sq, int by) {
        final int[] board = this.board;
        final int[] range = t.attackRange;
        for (int d = 0; d < 8; d++) {
            int od = Geometry.OPPOSITE[d];
            int max = t.maxAttackRange[by * 8 + od];
            if (max == 0) {
                continue;
            }
            int[] ray = g.ray(sq, d);
            int lim = Math.min(ray.length, max);
            for (int k = 0; k < lim; k++) {
                int c = board[ray[k]];
                if (c != 0) {
                    if ((c & 1) == by && range[c * 8 + od] > k) {
                        return true;
                    }
                    break;
                }
            }
        }
        int jc = t.jumpCount;
        for (int j = 0; j < jc; j++) {
            int s = t.jumpSource[sq * jc + j];
            if (s >= 0) {
                int c = board[s];
                if (c != 0 && (c & 1) == by && t.jumpAttacks[c * jc + j]) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Mobility of the piece on {@code sq}: how many squares it could move to (empty) or capture on (enemy) on the
     * current board, ignoring pins, checks and promotion choices. For evaluation; allocation-free.
     */
    public int mobility(int sq) {
        final int[] board = this.board;
        final int[] tb = t.gen;
        int code = board[sq];
        int us = code & 1;
        int idx = t.genAt[code * squares + sq];
        int count = 0;
        for (int j = tb[idx++]; j > 0; j--, idx += 2) {
            int to = tb[idx], info = tb[idx + 1];
            if (info >= 1 << MoveTables.LEAP_MIDDLE_SHIFT && board[(info >> MoveTables.LEAP_MIDDLE_SHIFT) - 1] != 0) {
                continue;
            }
            int c = board[to];
            if (c == 0 ? (info & 1) != 0 : (c & 1) != us && (info & 2) != 0) {
                count++;
            }
        }
        for (int r = tb[idx++]; r > 0; r--) {
            int mr = tb[idx], cr = tb[idx + 1], len = tb[idx + 2];
            idx += 3;
            for (int k = 0; k < len; k++) {
                int c = board[tb[idx + k] & MoveTables.RAY_SQUARE];
                if (c == 0) {
                    if (k < mr) {
                        count++;
                    }
                } else {
                    if ((c & 1) != us && k < cr) {
                        count++;
                    }
                    break;
                }
            }
            idx += len;
        }
        return count;
    }

    /** The squares of the pieces of colour {@code by} that attack {@code sq} (API use; not for hot loops). */
    public java.util.List<Integer> attackers(int sq, int by) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int i = 0; i < pcount[by]; i++) {
            int from = plist[by][i];
            if (attacksFrom(board[from], from, sq)) {
                out.add(from);
            }
        }
        return out;
    }

    /** Whether the piece {@code code} standing on {@code from} attacks {@code target} on the current board. */
    private boolean attacksFrom(int code, int from, int target) {
        final int[] tb = t.gen;
        int idx = t.genAt[code * squares + from];
        for (int j = tb[idx++]; j > 0; j--, idx += 2) {
            if (tb[idx] == target && (tb[idx + 1] & 2) != 0) {
                return true;
            }
        }
        for (int r = tb[idx++]; r > 0; r--) {
            int cr = tb[idx + 1], len = tb[idx + 2];
            idx += 3;
            for (int k = 0; k < len; k++) {
                int s = tb[idx + k] & MoveTables.RAY_SQUARE;
                if (s == target) {
                    if (k < cr) {
                        return true;
                    }
                    break;
                }
                if (board[s] != 0) {
                    break;
                }
            }
            idx += len;
        }
        return false;
    }

    // ------------------------------------------------------------------ legal move generation

    /**
     * Writes every legal move into {@code moves} (at least {@link #newMoveBuffer()} long) and returns how many.
     * The side to move in a royal game never leaves its royal piece attacked; drops respect dead squares, nifu
     * and the drop-mate ban.
     */
    public int legalMoves(int[] moves) {
        return bbt != null ? generateBitboard(moves) : generateByTables(moves);
    }

    /**
     * The legal captures and promotions only (no quiet moves, drops or castling), for quiescence search.
     * When it finds none, the side to move may still have quiet moves.
     */
    public int tacticalMoves(int[] moves) {
        tactical = true;
        try {
            return legalMoves(moves);
        } finally {
            tactical = false;
        }
    }

    /** Whether this position generates with bitboards (boards of at most 64 squares without drops). */
    boolean usesBitboards() {
        return bbt != null;
    }

    /** The table-walk generator, for every rule set (and a cross-check of the bitboard one in tests). */
    int generateByTables(int[] moves) {
        final int us = side, them = us ^ 1;
        final int[] board = this.board;
        final int lv = level;
        final int[] pins = pinDir[lv];
        final int[] ev = evasion[lv];
        final int[] tb = t.gen;
        final int st = ++stamp;
        final int ksq = kingSq[us];
        int nCheckers = 0;
        if (ksq >= 0) {
            nCheckers = scanKing(ksq, us, them, pins, ev, st);
        }
        int n = 0;
        final int[] list = plist[us];
        final int count = pcount[us];
        for (int i = 0; i < count; i++) {
            int from = list[i];
            int code = board[from];
            if (from == ksq) {
                n = kingMoves(moves, n, from, code, them);
                continue;
            }
            if (nCheckers >= 2) {
                continue;
            }
            int pin = pins[from * 2] == st ? pins[from * 2 + 1] : -1;
            boolean restricted = pin >= 0 || nCheckers == 1;
            int idx = t.genAt[code * squares + from];
            for (int j = tb[idx++]; j > 0; j--, idx += 2) {
                int to = tb[idx], info = tb[idx + 1];
                int c = board[to];
                if (c == 0) {
                    if ((info & 1) == 0 || (info >= 1 << MoveTables.LEAP_MIDDLE_SHIFT
                            && board[(info >> MoveTables.LEAP_MIDDLE_SHIFT) - 1] != 0)
                            || (tactical && (info & MoveTables.PROMOTES) == 0)) {
                        continue;
                    }
                } else if ((c & 1) == us || (info & 2) == 0) {
                    continue;
                }
                if (!restricted || allowed(to, pin, ksq, nCheckers, ev, st)) {
                    if ((info & MoveTables.PROMOTES) == 0) {
                        moves[n++] = Move.normal(from, to);
                    } else {
                        n = addPromotions(moves, n, from, to, code, info);
                    }
                }
            }
            for (int r = tb[idx++]; r > 0; r--) {
                int mr = tb[idx], cr = tb[idx + 1], len = tb[idx + 2];
                idx += 3;
                for (int k = 0; k < len; k++) {
                    int e = tb[idx + k];
                    int to = e & MoveTables.RAY_SQUARE;
                    int c = board[to];
                    if (c == 0) {
                        if (k >= mr || (tactical && e == to)) {
                            continue;
                        }
                    } else if ((c & 1) == us || k >= cr) {
                        break;
                    }
                    if (!restricted || allowed(to, pin, ksq, nCheckers, ev, st)) {
                        if (e == to) {
                            moves[n++] = Move.normal(from, to);
                        } else {
                            n = addPromotions(moves, n, from, to, code, e >> MoveTables.RAY_FLAG_SHIFT);
                        }
                    }
                    if (c != 0) {
                        break;
                    }
                }
                idx += len;
            }
        }
        if (ep >= 0 && nCheckers < 2) {
            n = enPassantMoves(moves, n, us);
        }
        if (rs.castling && nCheckers == 0 && castling != 0 && !tactical) {
            n = castlingMoves(moves, n, us, them);
        }
        if (rs.drops && nCheckers < 2 && !tactical) {
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
     * when it attacks by a slide). Pinned pieces get in {@code pins} their pin direction and, above bit 4, the pinner's distance.
     */
    private int scanKing(int ksq, int us, int them, int[] pins, int[] ev, int st) {
        final int[] board = this.board;
        final int[] range = t.attackRange;
        int n = 0;
        int blockDir = -1, blockLen = 0;
        for (int d = 0; d < 8; d++) {
            int od = Geometry.OPPOSITE[d];
            int max = t.maxAttackRange[them * 8 + od];
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
                if (range[c * 8 + od] > k) {
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
        int jc = t.jumpCount;
        boolean jumpChecker = false;
        for (int j = 0; j < jc; j++) {
            int s = t.jumpSource[ksq * jc + j];
            if (s >= 0) {
                int c = board[s];
                if (c != 0 && (c & 1) == them && t.jumpAttacks[c * jc + j]) {
                    boolean dup = false;
                    for (int i = 0; i < n; i++) {
                        dup |= checkerBuf[i] == s;
                    }
                    jumpChecker = true;
                    if (!dup) {
                        checkerBuf[n++] = s;
                    } else {
                        blockDir = -1;
                    }
                }
            }
        }
        lastCheckers = n;
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

    private int kingMoves(int[] moves, int n, int from, int code, int them) {
        final int[] board = this.board;
        board[from] = 0;
        final int[] tb = t.gen;
        int idx = t.genAt[code * squares + from];
        for (int j = tb[idx++]; j > 0; j--, idx += 2) {
            int to = tb[idx], info = tb[idx + 1];
            int c = board[to];
            boolean ok = c == 0 ? !tactical && (info & 1) != 0 && (info < 1 << MoveTables.LEAP_MIDDLE_SHIFT
                    || board[(info >> MoveTables.LEAP_MIDDLE_SHIFT) - 1] == 0)
                    : (c & 1) == them && (info & 2) != 0;
            if (ok && !attacked(to, them)) {
                moves[n++] = Move.normal(from, to);
            }
        }
        for (int r = tb[idx++]; r > 0; r--) {
            int mr = tb[idx], cr = tb[idx + 1], len = tb[idx + 2];
            idx += 3;
            for (int k = 0; k < len; k++) {
                int to = tb[idx + k] & MoveTables.RAY_SQUARE;
                int c = board[to];
                if (c == 0) {
                    if (k < mr && !tactical && !attacked(to, them)) {
                        moves[n++] = Move.normal(from, to);
                    }
                } else {
                    if ((c & 1) == them && k < cr && !attacked(to, them)) {
                        moves[n++] = Move.normal(from, to);
                    }
                    break;
                }
            }
            idx += len;
        }
        board[from] = code;
        return n;
    }

    /** Emits a move that may promote: each promotion choice, and the plain move unless promotion is forced. */
    private int addPromotions(int[] moves, int n, int from, int to, int code, int bits) {
        for (int p : promotions[(code >> 1) - 1]) {
            moves[n++] = Move.promotion(from, to, p);
        }
        if ((bits & MoveTables.MUST_PROMOTE) == 0 && !(tactical && board[to] == 0)) {
            moves[n++] = Move.normal(from, to);
        }
        return n;
    }

    private int enPassantMoves(int[] moves, int n, int us) {
        int pawn = MoveTables.code(us, epPawnType);
        int fromRank = g.rank(ep) + (us == 0 ? -1 : 1);
        int f = g.file(ep);
        for (int df = -1; df <= 1; df += 2) {
            int ff = f + df;
            if (ff < 0 || ff >= g.files) {
                continue;
            }
            int from = g.square(ff, fromRank);
            if (board[from] != pawn) {
                continue;
            }
            int move = Move.enPassant(from, ep);
            doMove(move);
            boolean legal = kingSq[us] < 0 || !attacked(kingSq[us], us ^ 1);
            undoMove();
            if (legal) {
                moves[n++] = move;
            }
        }
        return n;
    }

    private int castlingMoves(int[] moves, int n, int us, int them) {
        for (int wing = 0; wing < 2; wing++) {
            int i = us * 2 + wing;
            if ((castling & (1 << i)) == 0) {
                continue;
            }
            int kf = castleKingFrom[i], kt = castleKingTo[i], rf = castleRookFrom[i];
            int lo = Math.min(kf, rf), hi = Math.max(kf, rf);
            boolean clear = true;
            if (bbt != null) {
                long between = (1L << hi) - (2L << lo);
                clear = ((colorBB[0] | colorBB[1]) & between) == 0;
            } else {
                for (int s = lo + 1; s < hi && clear; s++) {
                    clear = board[s] == 0;
                }
            }
            if (!clear) {
                continue;
            }
            int step = kt > kf ? 1 : -1;
            boolean safe = true;
            long occ = colorBB[0] | colorBB[1];
            for (int s = kf + step; safe; s += step) {
                safe = bbt != null ? !attackedBitboard(s, them, occ) : !attacked(s, them);
                if (s == kt) {
                    break;
                }
            }
            if (safe) {
                moves[n++] = Move.castling(kf, kt);
            }
        }
        return n;
    }

    private int drops(int[] moves, int n, int us, int them, int nCheckers, int[] ev, int st) {
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
        final int theirKing = kingSq[them];
        final int[] mark = checkMark[level];
        for (int type : droppable) {
            if (hand[us * types + type] == 0) {
                continue;
            }
            PieceType p = pieceTypes[type];
            int code = MoveTables.code(us, type);
            int fileMask = 0;
            if (p.dropOneFile()) {
                for (int i = 0; i < pcount[us]; i++) {
                    int s = plist[us][i];
                    if (board[s] == code) {
                        fileMask |= 1 << fileOf[s];
                    }
                }
            }
            // squares from which the dropped piece would check: where the same piece of the other colour
            // standing on the king's square reaches (colours are 180-degree images of each other)
            int checkSt = 0;
            if (p.dropNoMate() && theirKing >= 0) {
                checkSt = ++stamp;
                markCaptures(MoveTables.code(them, type), theirKing, mark, checkSt);
            }
            boolean dead = p.forcedRanks() > 0;
            int base = code * squares;
            for (int i = 0; i < ne; i++) {
                int sq = empty[i];
                if ((dead && t.forced[base + sq]) || (fileMask & 1 << fileOf[sq]) != 0) {
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
        final int[] tb = t.gen;
        int idx = t.genAt[code * squares + from];
        for (int j = tb[idx++]; j > 0; j--, idx += 2) {
            if ((tb[idx + 1] & 2) != 0) {
                mark[tb[idx]] = st;
            }
        }
        for (int r = tb[idx++]; r > 0; r--) {
            int cr = tb[idx + 1], len = tb[idx + 2];
            idx += 3;
            for (int k = 0; k < len && k < cr; k++) {
                int s = tb[idx + k] & MoveTables.RAY_SQUARE;
                mark[s] = st;
                if (board[s] != 0) {
                    break;
                }
            }
            idx += len;
        }
    }

    /** Whether the (checking) drop leaves the opponent without a legal reply. */
    private boolean dropMates(int move) {
        if (level + 1 >= MAX_LEVELS) {
            throw new IllegalStateException("drop-mate test nested too deep");
        }
        doMove(move);
        level++;
        if (scratch[level] == null) {
            scratch[level] = new int[maxMoves];
        }
        int replies = legalMoves(scratch[level]);
        level--;
        undoMove();
        return replies == 0;
    }

    /** The number of legal moves (perft leaves); on bitboard rule sets counted without listing them. */
    public int countLegal(int[] scratch) {
        return bbt != null ? generateBitboard(null) : legalMoves(scratch);
    }

    // ------------------------------------------------------------------ bitboard generation (<= 64 squares, no drops)

    /**
     * Legal moves with bitboards: writes them into {@code moves}, or only counts them when {@code moves} is
     * null. Same rules as the table walk of {@link #legalMoves}: checkers and pins from bit scans along the
     * eight lines and jump masks, evasion and pin masks on the targets, promotions counted per target.
     */
    private int generateBitboard(int[] moves) {
        final Bitboards b = bbt;
        final int us = side, them = us ^ 1;
        final long own = colorBB[us], enemy = colorBB[them], occ = own | enemy, empty = ~occ;
        final int ksq = kingSq[us];
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
                if (t.attackRange[board[h] * 8 + Geometry.OPPOSITE[d]] >= g.distance(ksq, h)) {
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
                    if (t.attackRange[board[h] * 8 + Geometry.OPPOSITE[d]] >= g.distance(ksq, h)) {
                        long line = b.ray[ksq * 8 + d] & ~b.ray[h * 8 + d];
                        int shield = Long.numberOfTrailingZeros(line & shields);
                        pinned |= 1L << shield;
                        pinLine[shield] = line;
                    }
                }
            }
            nCheckers = Long.bitCount(checkers);
            lastCheckers = nCheckers;
            if (nCheckers == 1) {
                evasion = (checkers & jumpCheckers) != 0 ? checkers : block;
            }
            int kc = board[ksq];
            int ki = (kc * 64 + ksq) * Bitboards.STRIDE;
            long targets = (b.piece[ki + Bitboards.LEAP_MOVE] & empty) | (b.piece[ki + Bitboards.LEAP_CAPTURE] & enemy);
            if (b.slides[kc]) {
                targets |= slideTargets(kc, ksq, occ, empty, enemy);
            }
            if (tactical) {
                targets &= enemy;
            }
            long occNoKing = occ ^ 1L << ksq;
            int n = 0;
            for (; targets != 0; targets &= targets - 1) {
                int to = Long.numberOfTrailingZeros(targets);
                if (!attackedBitboard(to, them, occNoKing)) {
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
        lastCheckers = 0;
        return otherMoves(moves, 0, own, occ, empty, enemy, evasion, pinned, 0);
    }

    private int otherMoves(int[] moves, int n, long pieces, long occ, long empty, long enemy, long evasion,
                           long pinned, int nCheckers) {
        final Bitboards b = bbt;
        for (; pieces != 0; pieces &= pieces - 1) {
            int from = Long.numberOfTrailingZeros(pieces);
            int code = board[from];
            int ci = (code * 64 + from) * Bitboards.STRIDE;
            final long[] pt = b.piece;
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
                    n = addPromotions(moves, n, from, to, code,
                            (pt[ci + Bitboards.FORCED_ZONE] >>> to & 1) != 0 ? MoveTables.MUST_PROMOTE : 0);
                }
            }
        }
        int[] buf = moves != null ? moves : smallBuf;
        int at = moves != null ? n : 0;
        int before = at;
        if (ep >= 0) {
            at = enPassantMoves(buf, at, side);
        }
        if (rs.castling && nCheckers == 0 && castling != 0 && !tactical) {
            at = castlingMoves(buf, at, side, side ^ 1);
        }
        return n + (at - before);
    }

    /** Targets of the slides (two or more squares) of a piece, cut at their move and capture ranges. */
    private long slideTargets(int code, int from, long occ, long empty, long enemy) {
        final Bitboards b = bbt;
        if (b.fast[code]) {
            int fi = (code * 64 + from) * Bitboards.STRIDE;
            long orth = b.piece[fi + Bitboards.ORTHOGONAL], diag = b.piece[fi + Bitboards.DIAGONAL];
            long reach = 0;
            if (orth != 0) {
                reach = b.lineAttacks(from, 0, occ) & orth;
            }
            if (diag != 0) {
                reach |= b.lineAttacks(from, 1, occ) & diag;
            }
            return reach & (empty | enemy);
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

    /** {@link #attacked} on bitboards, with a given occupancy (the moving king taken off). */
    private boolean attackedBitboard(int sq, int by, long occ) {
        final Bitboards b = bbt;
        for (int c : jumpCodes[by]) {
            if ((bb[c] & b.jumpAttackFrom[c * 64 + sq]) != 0) {
                return true;
            }
        }
        long hits = (b.lineAttacks(sq, 0, occ) | b.lineAttacks(sq, 1, occ)) & colorBB[by];
        for (; hits != 0; hits &= hits - 1) {
            int h = Long.numberOfTrailingZeros(hits);
            if (t.attackRange[board[h] * 8 + Geometry.OPPOSITE[g.direction(sq, h)]] >= g.distance(sq, h)) {
                return true;
            }
        }
        return false;
    }

    /** Number of pieces giving check in the last {@link #legalMoves} call (0, 1 or 2+); for evaluation hooks. */
    public int lastCheckerCount() {
        return lastCheckers;
    }

    /** True when the side to move has at least one legal move. */
    public boolean hasLegalMove() {
        if (scratch[0] == null) {
            scratch[0] = new int[maxMoves];
        }
        if (level != 0) {
            throw new IllegalStateException("hasLegalMove inside move generation");
        }
        return legalMoves(scratch[0]) > 0;
    }

    /** The legal moves as a fresh array (API convenience; the hot path uses {@link #legalMoves(int[])}). */
    public int[] legalMoves() {
        int[] buf = newMoveBuffer();
        int n = legalMoves(buf);
        return java.util.Arrays.copyOf(buf, n);
    }

    /** True when the move is among the legal moves. */
    public boolean isLegal(int move) {
        for (int m : legalMoves()) {
            if (m == move) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ keys

    /** The Zobrist key computed from scratch; always equal to {@link #key()} (an invariant the tests check). */
    public long computeKey() {
        long k = 0;
        for (int sq = 0; sq < squares; sq++) {
            if (board[sq] != 0) {
                k ^= Zobrist.piece(board[sq], sq);
            }
        }
        for (int i = 0; i < hand.length; i++) {
            k ^= Zobrist.hand(i, hand[i]);
        }
        k ^= Zobrist.castling(castling);
        if (ep >= 0) {
            k ^= Zobrist.ep(g.file(ep));
        }
        if (side == 1) {
            k ^= Zobrist.SIDE;
        }
        return k;
    }

    /**
     * The key that identifies the position for repetition rules: as {@link #key()}, but an en-passant square
     * counts only when an en-passant capture is actually legal (FIDE 9.2.3).
     */
    public long repetitionKey() {
        if (ep < 0) {
            return key;
        }
        for (int m : legalMoves()) {
            if (Move.kind(m) == Move.EN_PASSANT) {
                return key;
            }
        }
        return key ^ Zobrist.ep(g.file(ep));
    }

    @Override
    public String toString() {
        return Fen.format(this);
    }
}
