package koma.rules;

/**
 * A mutable game position of any rule set: board, hands, side to move, castling rights, en-passant square,
 * move clocks and an incrementally updated Zobrist key. {@link #doMove}/{@link #undoMove} allocate nothing;
 * {@link #legalMoves} writes into a caller's {@code int[]} buffer (see {@link Move} for the encoding), through
 * the position's generators ({@link TableWalkGenerator}, and {@link BitboardGenerator} where the rule set has
 * {@link Bitboards}), which read its state directly.
 *
 * <p>Colour 0 is the first player (White in chess, Black/sente in shogi), who moves toward higher ranks.
 */
public final class Position {
    /** Castling-right bits: first player king side, queen side; second player king side, queen side. */
    public static final int WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8;
    private static final int MAX_HAND = 64;

    final RuleSet rs;
    final MoveTables t;
    final Geometry g;
    private final int squares;
    final int types;

    /** {@code board[sq]}: the piece code on the square (see {@link MoveTables}), 0 when empty. */
    final int[] board;
    /** Whether {@link #bb} and {@link #colorBB} are kept up to date: when the rule set has {@link Bitboards}. */
    private final boolean keepsBitboards;
    /** Bitboards per piece code and per colour. */
    final long[] bb;
    final long[] colorBB = new long[2];
    /** {@code hand[color * types + type]}: pieces in hand. */
    final int[] hand;
    /** Piece lists: the squares of each colour's pieces, {@code pcount[color]} of them; {@code pindex[sq]} a square's place. */
    final int[][] plist = new int[2][];
    final int[] pcount = new int[2];
    private final int[] pindex;
    final int[] kingSq = {-1, -1};
    int side;
    int castling;
    int ep = -1;
    private int halfmove;
    private int gamePly;
    private long key;
    /** The Zobrist key of the pawns on the board alone ({@link #pawnKey}), kept by the board edits. */
    private long pawnKey;

    // undo stack, preallocated and grown only when a game gets very long
    private int sp;
    private int[] uMove = new int[256], uMoved = new int[256], uCaptured = new int[256], uCastling = new int[256],
            uEp = new int[256], uHalfmove = new int[256];
    private long[] uKey = new long[256];

    /** The generators: the table walk always (attacks, mobility, and the cross-check), bitboards when the rule set has them. */
    private final TableWalkGenerator walk;
    private final BitboardGenerator bits;
    /** Checkers found by the last generation (0, 1 or 2+). */
    int lastCheckers;
    /** While true the generators emit only captures and promotions ({@link #tacticalMoves}). */
    boolean tactical;
    /** The buffer of {@link #hasLegalMove}. */
    private int[] anyMoveBuf;
    /** codeCount[code]: the pieces of that code on the board, kept by every board edit. */
    private final int[] codeCount;

    // castling geometry (standard chess castling)
    private final int[] castleMask;
    final int[] castleKingFrom = new int[4], castleKingTo = new int[4], castleRookFrom = new int[4];
    private final int[] castleRookTo = new int[4];

    // rule-set derived lookups
    final PieceType[] pieceTypes;
    final int[] fileOf;
    /** promotions[type]: the types it may promote to. */
    final int[][] promotions;
    /** The types that can be dropped, strongest first. */
    final int[] droppable;
    final int epPawnType;
    private final int maxMoves;

    private Position(RuleSet rs) {
        this.rs = rs;
        this.t = rs.tables;
        this.g = rs.geometry;
        this.squares = g.squares;
        this.types = rs.pieceCount();
        this.board = new int[squares];
        this.keepsBitboards = rs.bitboards != null;
        this.bb = new long[pieceCodeCount(rs)];
        this.codeCount = new int[pieceCodeCount(rs)];
        this.hand = new int[2 * types];
        this.pindex = new int[squares];
        this.plist[0] = new int[squares];
        this.plist[1] = new int[squares];
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
        this.walk = new TableWalkGenerator(this);
        this.bits = rs.bitboards != null ? new BitboardGenerator(this, rs.bitboards) : null;
    }

    // ------------------------------------------------------------------ construction

    /** The rule set's start position. */
    public static Position start(RuleSet rs) {
        return fromFen(rs, rs.startFen);
    }

    /** Parses FEN or SFEN (whichever the string is); see {@link FenCodec}. */
    public static Position fromFen(RuleSet rs, String fen) {
        return FenCodec.parse(rs, fen);
    }

    /** An empty board of the rule set, for building positions square by square. Call {@link #validate} after. */
    public static Position empty(RuleSet rs) {
        return new Position(rs);
    }

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

    /** A deep copy with an empty undo history. */
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
        System.arraycopy(codeCount, 0, p.codeCount, 0, codeCount.length);
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
        p.pawnKey = pawnKey;
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
                        + g.squareName(sq) + ", a square it could never leave");
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
                                    + g.fileName(g.file(sq)));
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
                throw new IllegalArgumentException("en-passant square " + g.squareName(ep)
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
                            + "' needs the king on " + g.squareName(ksq) + " and a rook on "
                            + g.squareName(rookSq));
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

    /**
     * The piece code of a piece of {@code type} and {@code color}: the one definition ({@link MoveTables#code}),
     * from 2 up, 0 being an empty square. For tables indexed by piece, such as the engine's.
     */
    public static int pieceCode(int color, int type) {
        return MoveTables.code(color, type);
    }

    /** How many piece codes the rule set has: codes run from 0 (empty) up to this, exclusive. */
    public static int pieceCodeCount(RuleSet rs) {
        return (rs.pieceCount() + 1) * 2;
    }

    /** The piece code on {@code sq} ({@link #pieceCode}), 0 when the square is empty. */
    public int codeAt(int sq) {
        return board[sq];
    }

    /** How many pieces of this code ({@link #pieceCode}) stand on the board. */
    public int codeCount(int code) {
        return codeCount[code];
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
        return bits != null ? bits.attacked(k, side ^ 1) : walk.attacked(k, side ^ 1);
    }

    /**
     * Whether the legal move {@code move} puts the opponent in check: what {@link #inCheck} would say after
     * {@link #doMove}, found by standing the moved piece on its square for the attack test only (no key, hand,
     * history or piece-list update), so that a search can drop a quiet move that gives no check without playing it.
     * En passant and castling, which move two pieces, are played and taken back.
     */
    public boolean givesCheck(int move) {
        int us = side, them = us ^ 1;
        int ksq = kingSq[them];
        if (ksq < 0) {
            return false;
        }
        int kind = Move.kind(move);
        if (kind == Move.EN_PASSANT || kind == Move.CASTLING) {
            doMove(move);
            boolean check = inCheck();
            undoMove();
            return check;
        }
        int to = Move.to(move);
        boolean drop = kind == Move.DROP;
        int from = drop ? -1 : Move.from(move);
        int moved = drop ? 0 : board[from];
        int code = drop || kind == Move.PROMOTION ? MoveTables.code(us, Move.type(move)) : moved;
        int captured = board[to];
        if (!drop) {
            board[from] = 0;
        }
        board[to] = code;
        boolean check;
        if (keepsBitboards) {
            long ourBits = colorBB[us], theirBits = colorBB[them];
            long movedBits = drop ? 0 : bb[moved], codeBits = bb[code], capturedBits = captured != 0 ? bb[captured] : 0;
            long toBit = 1L << to, fromBit = drop ? 0 : 1L << from;
            if (!drop) {
                bb[moved] &= ~fromBit;
            }
            bb[code] |= toBit;
            colorBB[us] = (ourBits & ~fromBit) | toBit;
            if (captured != 0) {
                bb[captured] &= ~toBit;
                colorBB[them] = theirBits & ~toBit;
            }
            check = bits.attacked(ksq, us);
            if (captured != 0) {
                bb[captured] = capturedBits;
            }
            bb[code] = codeBits;
            if (!drop) {
                bb[moved] = movedBits;
            }
            colorBB[us] = ourBits;
            colorBB[them] = theirBits;
        } else {
            check = walk.attackedAfterMove(ksq, us, from, to);
        }
        board[to] = captured;
        if (!drop) {
            board[from] = moved;
        }
        return check;
    }

    // ------------------------------------------------------------------ board edits

    private void addPiece(int sq, int code) {
        int c = MoveTables.color(code);
        board[sq] = code;
        if (t.pawnCode[code]) {
            pawnKey ^= Zobrist.piece(code, sq);
        }
        if (keepsBitboards) {
            bb[code] |= 1L << sq;
            colorBB[c] |= 1L << sq;
        }
        codeCount[code]++;
        pindex[sq] = pcount[c];
        plist[c][pcount[c]++] = sq;
        if (MoveTables.type(code) == rs.royalType) {
            kingSq[c] = sq;
        }
    }

    private void removePiece(int sq) {
        int c = MoveTables.color(board[sq]);
        if (t.pawnCode[board[sq]]) {
            pawnKey ^= Zobrist.piece(board[sq], sq);
        }
        if (keepsBitboards) {
            bb[board[sq]] &= ~(1L << sq);
            colorBB[c] &= ~(1L << sq);
        }
        codeCount[board[sq]]--;
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
        if (t.pawnCode[code]) {
            pawnKey ^= Zobrist.piece(code, from) ^ Zobrist.piece(code, to);
        }
        if (keepsBitboards) {
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
        if (t.pawnCode[board[sq]]) {
            pawnKey ^= Zobrist.piece(board[sq], sq);
        }
        if (t.pawnCode[code]) {
            pawnKey ^= Zobrist.piece(code, sq);
        }
        if (keepsBitboards) {
            bb[board[sq]] &= ~(1L << sq);
            bb[code] |= 1L << sq;
        }
        codeCount[board[sq]]--;
        codeCount[code]++;
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

    // ------------------------------------------------------------------ attacks and moves (the generators)

    /** True when {@code sq} is attacked by a piece of colour {@code by}. */
    public boolean attacked(int sq, int by) {
        return walk.attacked(sq, by);
    }

    /**
     * Mobility of the piece on {@code sq}: how many squares it could move to (empty) or capture on (enemy) on the
     * current board, ignoring pins, checks and promotion choices. For evaluation; allocation-free.
     */
    public int mobility(int sq) {
        return bits != null ? bits.mobility(sq) : walk.mobility(sq);
    }

    /** The table walk's {@link #mobility}, where bitboards count it otherwise (for the tests that compare them). */
    int mobilityByWalk(int sq) {
        return walk.mobility(sq);
    }

    /**
     * The bitboard generator's {@link #attacked} on the current board (for the tests that compare it with the
     * walk).
     */
    boolean attackedByBitboards(int sq, int by) {
        return bits.attacked(sq, by);
    }

    /**
     * Whether this position keeps bitboards (boards of at most 64 squares without drops: bit i is square i), so
     * that {@link #attackBits} answers.
     */
    public boolean hasBitboards() {
        return bits != null;
    }

    /**
     * The squares the piece on {@code sq} attacks as a bitboard: where it would capture a piece of either colour
     * standing there (so its own pieces there are defended), ignoring pins. Only where {@link #hasBitboards}; for
     * evaluation terms, allocation-free.
     */
    public long attackBits(int sq) {
        return bits.attacks(sq);
    }

    /**
     * The squares a piece of {@code code} ({@link #pieceCode}) would attack standing on {@code sq}, as
     * {@link #attackBits} does for the piece that is there; whatever stands on {@code sq} is ignored. For a piece
     * whose moves are symmetric left to right, the piece of the same type and the other colour on the king's square
     * attacks exactly the squares from which this one would give check (the evaluation's safe checks). Only where
     * {@link #hasBitboards}; allocation-free.
     */
    public long attackBitsAs(int code, int sq) {
        return bits.attacksAs(code, sq);
    }

    /**
     * Static exchange evaluation: whether the board move {@code move} wins at least {@code threshold} when both sides
     * then capture on its square with their least valuable piece for as long as it pays. {@code typeValue} gives a
     * value per piece type (the engine's); a royal piece recaptures only when the other side has nothing left to
     * capture with. Pieces that could capture only through an exchanged piece (x-rays) take part, because the
     * exchanged pieces are lifted off the board while it runs (and put back). Pins, checks and promotions during
     * the exchange are ignored. A drop is the dropped piece standing on an empty square (the enemy may take it);
     * castling and en passant count as winning nothing. Allocation-free, for
     * move ordering and pruning (Stockfish's {@code see_ge}).
     */
    public boolean seeAtLeast(int move, int[] typeValue, int threshold) {
        return see(move, typeValue, threshold, bits != null);
    }

    /** {@link #seeAtLeast} with the table walk's attacker search even where bitboards exist (for SeeTest). */
    boolean seeAtLeastByWalk(int move, int[] typeValue, int threshold) {
        return see(move, typeValue, threshold, false);
    }

    /**
     * {@link #seeAtLeast}, its attackers found on bitboards ({@code onBits}: an occupancy that loses each exchanged
     * piece) or by the table walk (the exchanged pieces lifted off the board).
     */
    private boolean see(int move, int[] typeValue, int threshold, boolean onBits) {
        int kind = Move.kind(move);
        boolean drop = kind == Move.DROP;
        if (!drop && kind != Move.NORMAL && kind != Move.PROMOTION) {
            return 0 >= threshold;
        }
        int to = Move.to(move), from = drop ? -1 : Move.from(move);
        int swap = (board[to] == 0 ? 0 : typeValue[MoveTables.type(board[to])]) - threshold;
        if (swap < 0) {
            return false;
        }
        swap = typeValue[drop ? Move.type(move) : MoveTables.type(board[from])] - swap;
        if (swap <= 0) {
            return true;
        }
        int lifted0 = drop ? 0 : board[from];
        long occ = onBits ? colorBB[0] | colorBB[1] : 0;
        if (!drop) {
            board[from] = 0;
            occ &= ~(1L << from);
        }
        int liftedCount = 0;
        int res = 1;
        int stm = side;
        try {
            while (true) {
                stm ^= 1;
                int sq = onBits ? bits.leastValuableAttacker(to, stm, occ, typeValue, rs.royalType)
                        : walk.leastValuableAttacker(to, stm, typeValue, rs.royalType);
                if (sq < 0) {
                    break;
                }
                res ^= 1;
                if (MoveTables.type(board[sq]) == rs.royalType) {
                    boolean guarded = onBits ? bits.attacked(to, stm ^ 1, occ) : walk.attacked(to, stm ^ 1);
                    return (guarded ? res ^ 1 : res) != 0;
                }
                swap = typeValue[MoveTables.type(board[sq])] - swap;
                if (swap < res) {
                    break;
                }
                if (liftedCount == seeLifted.length) {
                    break;
                }
                seeLifted[liftedCount] = sq;
                seeLiftedCode[liftedCount++] = board[sq];
                board[sq] = 0;
                occ &= ~(1L << sq);
            }
            return res != 0;
        } finally {
            while (liftedCount > 0) {
                liftedCount--;
                board[seeLifted[liftedCount]] = seeLiftedCode[liftedCount];
            }
            if (!drop) {
                board[from] = lifted0;
            }
        }
    }

    /**
     * The square of the least valuable piece of colour {@code by} attacking {@code sq}, or -1, by trying every
     * piece: the slow reference that SeeTest holds the generator's {@code leastValuableAttacker} to.
     */
    int leastValuableAttackerByScan(int sq, int by, int[] typeValue) {
        int best = -1, bestValue = Integer.MAX_VALUE;
        for (int i = 0; i < pcount[by]; i++) {
            int from = plist[by][i];
            int code = board[from];
            if (from == sq || code == 0) {
                continue;
            }
            int v = MoveGenerator.attackerValue(MoveTables.type(code), typeValue, rs.royalType);
            if (v < bestValue && walk.attacksFrom(code, from, sq)) {
                best = from;
                bestValue = v;
            }
        }
        return best;
    }

    /** The table walk's least valuable attacker of {@code sq} of colour {@code by}, or -1 (for SeeTest). */
    int leastValuableAttacker(int sq, int by, int[] typeValue) {
        return walk.leastValuableAttacker(sq, by, typeValue, rs.royalType);
    }

    /** The bitboards' least valuable attacker of {@code sq} of colour {@code by}, or -1; -2 without bitboards. */
    int leastValuableAttackerOnBits(int sq, int by, int[] typeValue) {
        return bits == null ? -2 : bits.leastValuableAttacker(sq, by, colorBB[0] | colorBB[1], typeValue, rs.royalType);
    }

    /**
     * The square of the least valuable piece of colour {@code by} attacking {@code sq} (pieces weighed by
     * {@code typeValue}, a royal piece last), or -1 when none does; pins are ignored. Allocation-free, for
     * evaluation terms about threatened and undefended pieces.
     */
    public int cheapestAttacker(int sq, int by, int[] typeValue) {
        return bits != null ? bits.leastValuableAttacker(sq, by, colorBB[0] | colorBB[1], typeValue, rs.royalType)
                : walk.leastValuableAttacker(sq, by, typeValue, rs.royalType);
    }

    /** The squares (and pieces) {@link #seeAtLeast} lifted off the board, to put back. */
    private final int[] seeLifted = new int[128], seeLiftedCode = new int[128];

    /** The squares of the pieces of colour {@code by} that attack {@code sq} (API use; not for hot loops). */
    public java.util.List<Integer> attackers(int sq, int by) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int i = 0; i < pcount[by]; i++) {
            int from = plist[by][i];
            if (walk.attacksFrom(board[from], from, sq)) {
                out.add(from);
            }
        }
        return out;
    }

    /**
     * Writes every legal move into {@code moves} (at least {@link #newMoveBuffer()} long) and returns how many.
     * The side to move in a royal game never leaves its royal piece attacked; drops respect dead squares, nifu
     * and the drop-mate ban.
     */
    public int legalMoves(int[] moves) {
        return bits != null ? bits.generate(moves) : walk.generate(moves);
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
        return bits != null;
    }

    /** The table-walk generator's moves, for every rule set (a cross-check of the bitboard one in tests). */
    int generateByTables(int[] moves) {
        return walk.generate(moves);
    }

    /** The number of legal moves (perft leaves); on bitboard rule sets counted without listing them. */
    public int countLegal(int[] scratch) {
        return bits != null ? bits.generate(null) : legalMoves(scratch);
    }

    /** Number of pieces giving check in the last {@link #legalMoves} call (0, 1 or 2+); for evaluation hooks. */
    public int lastCheckerCount() {
        return lastCheckers;
    }

    /** True when the side to move has at least one legal move. */
    public boolean hasLegalMove() {
        if (walk.generating()) {
            throw new IllegalStateException("hasLegalMove inside move generation");
        }
        if (anyMoveBuf == null) {
            anyMoveBuf = new int[maxMoves];
        }
        return legalMoves(anyMoveBuf) > 0;
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

    /**
     * The Zobrist key of the pawns on the board (pieces of a type the definition calls a pawn; not those in hand):
     * equal for positions with the same pawns on the same squares, for tables indexed by pawn structure (the search's
     * correction history). Kept by every board edit, so doMove and undoMove keep it at no extra step.
     */
    public long pawnKey() {
        return pawnKey;
    }

    /** {@link #pawnKey()} computed from scratch (for the invariant test). */
    long computePawnKey() {
        long k = 0;
        for (int sq = 0; sq < squares; sq++) {
            if (board[sq] != 0 && t.pawnCode[board[sq]]) {
                k ^= Zobrist.piece(board[sq], sq);
            }
        }
        return k;
    }

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
        return FenCodec.format(this);
    }
}
