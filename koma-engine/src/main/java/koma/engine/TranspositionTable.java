package koma.engine;

/**
 * The transposition table: one entry per slot, a full 64-bit key and one packed long of data
 * ({@code move:26 | score:16 | depth:8 | bound:2}). Its size is set in megabytes (the Hash option).
 * Several search threads share it without locks: a slot stores {@code key ^ data} beside {@code data}, so an
 * entry torn by two threads writing at once fails the key check on probing and reads as empty.
 */
public final class TranspositionTable {
    public static final int BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3;
    private long[] keys;
    private long[] data;
    private int mask;

    public TranspositionTable(int megabytes) {
        resize(megabytes);
    }

    /** Resizes to the largest power-of-two number of 16-byte entries that fits; clears the table. */
    public void resize(int megabytes) {
        long entries = Math.max(1024, (long) megabytes * 1024 * 1024 / 16);
        int size = Integer.highestOneBit((int) Math.min(entries, 1 << 28));
        keys = new long[size];
        data = new long[size];
        mask = size - 1;
    }

    public void clear() {
        java.util.Arrays.fill(keys, 0);
        java.util.Arrays.fill(data, 0);
    }

    /** The data stored for the key, or 0 when there is none. */
    public long probe(long key) {
        int i = (int) key & mask;
        long d = data[i];
        return (keys[i] ^ d) == key ? d : 0;
    }

    public void store(long key, int move, int score, int depth, int bound) {
        int i = (int) key & mask;
        long old = data[i];
        if ((keys[i] ^ old) == key && depthOf(old) > depth && bound != BOUND_EXACT) {
            return; // keep the deeper result for the same position
        }
        long d = (move & 0x3FFFFFFL) | ((long) (score & 0xFFFF) << 26) | ((long) (depth & 0xFF) << 42)
                | ((long) bound << 50);
        keys[i] = key ^ d;
        data[i] = d;
    }

    public static int moveOf(long d) {
        return (int) (d & 0x3FFFFFF);
    }

    public static int scoreOf(long d) {
        return (short) (d >>> 26);
    }

    public static int depthOf(long d) {
        return (int) (d >>> 42) & 0xFF;
    }

    public static int boundOf(long d) {
        return (int) (d >>> 50) & 3;
    }

    /** Permille of the first thousand slots in use (UCI hashfull). */
    public int hashfull() {
        int used = 0;
        for (int i = 0; i < Math.min(1000, keys.length); i++) {
            if (data[i] != 0) {
                used++;
            }
        }
        return used * 1000 / Math.min(1000, keys.length);
    }
}
