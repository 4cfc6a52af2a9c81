package koma.engine;

/**
 * What bounds a search: clock times and increments in milliseconds (first player's and second player's),
 * moves to go, USI byoyomi, a fixed move time, depth or node count, or none ({@code infinite}).
 */
public record Limits(long time0, long time1, long inc0, long inc1, int movesToGo, long byoyomi, long moveTime,
                     int depth, long nodes, boolean infinite) {
    public static Limits depth(int depth) {
        return new Limits(-1, -1, 0, 0, 0, 0, -1, depth, -1, false);
    }

    public static Limits moveTime(long ms) {
        return new Limits(-1, -1, 0, 0, 0, 0, ms, 0, -1, false);
    }

    public static Limits nodes(long nodes) {
        return new Limits(-1, -1, 0, 0, 0, 0, -1, 0, nodes, false);
    }

    public static Limits forever() {
        return new Limits(-1, -1, 0, 0, 0, 0, -1, 0, -1, true);
    }

    /** True when a clock is running for the side to move. */
    public boolean timed(int side) {
        return (side == 0 ? time0 : time1) >= 0 || byoyomi > 0;
    }
}
