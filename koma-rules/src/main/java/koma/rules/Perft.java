package koma.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Perft: the number of leaf nodes of the legal-move tree to a fixed depth, the standard exactness test of a
 * move generator. Leaves are counted in bulk (the move count at depth 1), and move buffers are allocated
 * once per ply, so the walk itself allocates nothing.
 */
public final class Perft {
    private final Position pos;
    private final int[][] buffers;

    /** One line of a divide: a root move in the caller's notation and its subtree count. */
    public record Entry(String move, long nodes) {
    }

    public Perft(Position pos, int maxDepth) {
        this.pos = pos;
        this.buffers = new int[Math.max(1, maxDepth) + 1][];
        for (int i = 0; i < buffers.length; i++) {
            buffers[i] = pos.newMoveBuffer();
        }
    }

    /** Leaf count at {@code depth} from the current position. */
    public long perft(int depth) {
        if (depth <= 0) {
            return 1;
        }
        if (depth >= buffers.length) {
            throw new IllegalArgumentException("depth " + depth + " beyond the buffers made for " + (buffers.length - 1));
        }
        return walk(depth);
    }

    private long walk(int depth) {
        int[] moves = buffers[depth];
        if (depth == 1) {
            return pos.countLegal(moves);
        }
        int n = pos.legalMoves(moves);
        long total = 0;
        for (int i = 0; i < n; i++) {
            pos.doMove(moves[i]);
            total += walk(depth - 1);
            pos.undoMove();
        }
        return total;
    }

    /** Perft per root move, in the order the moves are generated, named by {@code name}. */
    public List<Entry> divide(int depth, IntFunction<String> name) {
        if (depth < 1) {
            throw new IllegalArgumentException("divide needs depth 1 or more, got " + depth);
        }
        int[] moves = pos.legalMoves();
        List<Entry> out = new ArrayList<>();
        for (int m : moves) {
            String s = name.apply(m);
            pos.doMove(m);
            out.add(new Entry(s, perft(depth - 1)));
            pos.undoMove();
        }
        return out;
    }
}
