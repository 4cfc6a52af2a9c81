package koma.rules;

/**
 * Zobrist hashing keys: pseudo-random 64-bit numbers for every (piece code, square), hand count, castling-right
 * set, en-passant file and the side to move. Fixed seed, so keys are the same in every run.
 */
final class Zobrist {
    private static final int MAX_CODES = 130;
    private static final int MAX_SQUARES = 256;
    private static final int MAX_HAND_SLOTS = 128;
    private static final int MAX_COUNT = 64;
    private static final long[] PIECE = new long[MAX_CODES * MAX_SQUARES];
    private static final long[] HAND = new long[MAX_HAND_SLOTS * MAX_COUNT];
    private static final long[] CASTLING = new long[16];
    private static final long[] EP = new long[16];
    static final long SIDE;

    static {
        long[] s = {0x9E3779B97F4A7C15L};
        for (int i = 0; i < PIECE.length; i++) {
            PIECE[i] = next(s);
        }
        for (int i = 0; i < HAND.length; i++) {
            // count 0 contributes nothing, so an empty hand needs no key
            HAND[i] = i % MAX_COUNT == 0 ? 0 : next(s);
        }
        for (int i = 1; i < 16; i++) {
            CASTLING[i] = next(s);
        }
        for (int i = 0; i < 16; i++) {
            EP[i] = next(s);
        }
        SIDE = next(s);
    }

    private Zobrist() {
    }

    /** SplitMix64 step. */
    private static long next(long[] state) {
        long z = (state[0] += 0x9E3779B97F4A7C15L);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    static long piece(int code, int sq) {
        return PIECE[code * MAX_SQUARES + sq];
    }

    /** Key of holding {@code count} pieces in hand slot {@code slot} (colour * types + type). */
    static long hand(int slot, int count) {
        return HAND[slot * MAX_COUNT + count];
    }

    static long castling(int rights) {
        return CASTLING[rights];
    }

    static long ep(int file) {
        return EP[file];
    }
}
