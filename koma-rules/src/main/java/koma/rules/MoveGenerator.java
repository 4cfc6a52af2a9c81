package koma.rules;

/**
 * What the two legal-move generators of a {@link Position} share: the position they read, how a move that may
 * promote is written out, en passant and castling. {@link TableWalkGenerator} serves every rule set,
 * {@link BitboardGenerator} the boards of at most 64 squares without drops; both give the same moves
 * ({@code BitboardCrossCheckTest}). A generator belongs to one position and keeps its scratch buffers, so it
 * allocates nothing while generating.
 */
abstract class MoveGenerator {
    final Position pos;
    final Geometry g;
    final MoveTables t;
    /** The position's board: {@code board[sq]} is a piece code (see {@link MoveTables}), 0 when empty. */
    final int[] board;

    MoveGenerator(Position pos) {
        this.pos = pos;
        this.g = pos.g;
        this.t = pos.t;
        this.board = pos.board;
    }

    /**
     * What an attacker of piece type {@code type} is worth when the least valuable one is chosen for a static
     * exchange: {@code typeValue[type]}, except that the royal type counts as the most valuable (it recaptures last).
     */
    static int attackerValue(int type, int[] typeValue, int royalType) {
        return type == royalType ? Integer.MAX_VALUE - 1 : typeValue[type];
    }

    /** Writes the legal moves of the side to move into {@code moves} and returns how many. */
    abstract int generate(int[] moves);

    /** True when {@code sq} is attacked by a piece of colour {@code by} on the current board. */
    abstract boolean attacked(int sq, int by);

    /** Whether the squares strictly between {@code lo} and {@code hi} (on one rank) are all empty. */
    boolean emptyBetween(int lo, int hi) {
        for (int s = lo + 1; s < hi; s++) {
            if (board[s] != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Emits a move that may promote: each promotion choice, and the plain move unless promotion is forced
     * ({@code mustPromote}) or only tactical moves are wanted and the move is quiet.
     */
    final int addPromotions(int[] moves, int n, int from, int to, int code, boolean mustPromote) {
        for (int p : pos.promotions[MoveTables.type(code)]) {
            moves[n++] = Move.promotion(from, to, p);
        }
        if (!mustPromote && !(pos.tactical && board[to] == 0)) {
            moves[n++] = Move.normal(from, to);
        }
        return n;
    }

    /** The legal en-passant captures onto the position's en-passant square (each tried on the board). */
    final int enPassantMoves(int[] moves, int n, int us) {
        final Position p = pos;
        int ep = p.ep;
        int pawn = MoveTables.code(us, p.epPawnType);
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
            p.doMove(move);
            boolean legal = p.kingSq[us] < 0 || !p.attacked(p.kingSq[us], us ^ 1);
            p.undoMove();
            if (legal) {
                moves[n++] = move;
            }
        }
        return n;
    }

    /** Standard castling: the squares between king and rook empty, the king's path not attacked. */
    final int castlingMoves(int[] moves, int n, int us, int them) {
        final Position p = pos;
        for (int wing = 0; wing < 2; wing++) {
            int i = us * 2 + wing;
            if ((p.castling & (1 << i)) == 0) {
                continue;
            }
            int kf = p.castleKingFrom[i], kt = p.castleKingTo[i], rf = p.castleRookFrom[i];
            int lo = Math.min(kf, rf), hi = Math.max(kf, rf);
            if (!emptyBetween(lo, hi)) {
                continue;
            }
            int step = kt > kf ? 1 : -1;
            boolean safe = true;
            for (int s = kf + step; safe; s += step) {
                safe = !attacked(s, them);
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
}
