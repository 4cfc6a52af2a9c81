package koma.rules;

/**
 * Board geometry: square indexing, the eight line directions and their rays, and the direction between two
 * squares. A square is {@code rank * files + file}; file 0 is the first player's left, rank 0 the first
 * player's back rank. Any size up to 16x16 works (no fixed stride).
 */
public final class Geometry {
    /** The eight line directions as (file delta, rank delta): N, S, E, W, NE, NW, SE, SW. */
    public static final int[] DX = {0, 0, 1, -1, 1, -1, 1, -1};
    public static final int[] DY = {1, -1, 0, 0, 1, 1, -1, -1};
    /** Index of the opposite direction. */
    public static final int[] OPPOSITE = {1, 0, 3, 2, 7, 6, 5, 4};

    public final int files;
    public final int ranks;
    public final int squares;
    /** rays[sq * 8 + d]: the squares from sq outward in direction d, nearest first. */
    private final int[][] rays;
    /** dirTo[a * squares + b]: the direction from a to b when they share a line, else -1. */
    private final byte[] dirTo;
    /** distance[a * squares + b]: the number of steps from a to b along their shared line. */
    private final byte[] lineDistance;

    public Geometry(int files, int ranks) {
        if (files < 1 || ranks < 1 || files > 16 || ranks > 16) {
            throw new IllegalArgumentException("board must be between 1x1 and 16x16, got " + files + "x" + ranks);
        }
        this.files = files;
        this.ranks = ranks;
        this.squares = files * ranks;
        this.rays = new int[squares * 8][];
        this.dirTo = new byte[squares * squares];
        this.lineDistance = new byte[squares * squares];
        java.util.Arrays.fill(dirTo, (byte) -1);
        for (int sq = 0; sq < squares; sq++) {
            for (int d = 0; d < 8; d++) {
                int n = 0;
                int f = file(sq) + DX[d], r = rank(sq) + DY[d];
                int[] buf = new int[Math.max(files, ranks)];
                while (onBoard(f, r)) {
                    int to = square(f, r);
                    buf[n++] = to;
                    dirTo[sq * squares + to] = (byte) d;
                    lineDistance[sq * squares + to] = (byte) n;
                    f += DX[d];
                    r += DY[d];
                }
                rays[sq * 8 + d] = java.util.Arrays.copyOf(buf, n);
            }
        }
    }

    public int file(int sq) {
        return sq % files;
    }

    public int rank(int sq) {
        return sq / files;
    }

    public int square(int file, int rank) {
        return rank * files + file;
    }

    public boolean onBoard(int file, int rank) {
        return file >= 0 && file < files && rank >= 0 && rank < ranks;
    }

    /** The squares from sq outward in direction d, nearest first. */
    public int[] ray(int sq, int d) {
        return rays[sq * 8 + d];
    }

    /** The direction from a to b along a line, or -1. */
    public int direction(int from, int to) {
        return dirTo[from * squares + to];
    }

    /** Steps from a to b along their shared line (only meaningful when {@link #direction} is not -1). */
    public int distance(int from, int to) {
        return lineDistance[from * squares + to];
    }

    /** King steps between two squares: the larger of their file and rank distances. */
    public int kingSteps(int a, int b) {
        return Math.max(Math.abs(file(a) - file(b)), Math.abs(rank(a) - rank(b)));
    }

    /** The direction index of a unit vector, or -1. */
    public static int directionOf(int dx, int dy) {
        for (int d = 0; d < 8; d++) {
            if (DX[d] == dx && DY[d] == dy) {
                return d;
            }
        }
        return -1;
    }

    /** Rank counted from the given side's back rank (0 = own back rank). */
    public int relativeRank(int color, int sq) {
        return color == 0 ? rank(sq) : ranks - 1 - rank(sq);
    }

    /** True when the two squares have the same colour on a chequered board (a1 dark). */
    public boolean sameShade(int a, int b) {
        return ((file(a) + rank(a)) & 1) == ((file(b) + rank(b)) & 1);
    }

    /** Engine-coordinate name of a square ("e4", "k11"): the file letter from 'a', the rank number from 1. */
    public String squareName(int sq) {
        return fileName(file(sq)) + (rank(sq) + 1);
    }

    /** The letter of a file ('a' for the first). */
    public String fileName(int file) {
        return String.valueOf((char) ('a' + file));
    }
}
