package koma.engine;

/**
 * Turns the clock into a thinking budget: a soft limit (do not start another iteration after it) and a hard
 * limit (stop at once), in milliseconds, -1 for none. Sudden death and increments share the remaining time
 * over an expected number of moves; each move may spend its USI byoyomi period whole (time left in a period is
 * lost), beside its share of the main time; a fixed
 * move time is honoured minus a safety margin for the protocol round trip.
 */
public final class TimeManager {
    /** The moves a clock without moves-to-go is shared over, unless the rule set's time-horizon says otherwise. */
    public static final int HORIZON = 30;

    /** Milliseconds kept back for process and protocol latency. */
    private final long overhead;

    public TimeManager(long overheadMs) {
        this.overhead = overheadMs;
    }

    /**
     * {soft, hard} in milliseconds for the side to move, -1 for "no limit". The clock the opponent's referee
     * keeps is wall time, which includes process scheduling on a loaded machine, so a reserve beyond the
     * protocol overhead is never planned into the search: {@code overhead + max(min(main / 16, 100), min(4 * inc, 100))}
     * of the main time, and a fifth of a USI byoyomi period (at most a second). The soft limit takes the whole
     * period: an iteration the hard limit cuts short still counts when it found a better move
     * ({@link Search}'s iterative deepening), so stopping early would only waste time that cannot be saved.
     */
    public long[] budget(Limits l, int side) {
        return budget(l, side, HORIZON);
    }

    /**
     * {@link #budget(Limits, int)} with the main time shared over {@code horizon} moves when the clock gives no
     * moves-to-go (the rule set's {@code time-horizon}, {@link SearchDefaults}).
     */
    public long[] budget(Limits l, int side, int horizon) {
        if (l.infinite()) {
            return new long[]{-1, -1};
        }
        if (l.moveTime() > 0) {
            // a fifth of a short move time (up to 100 ms) is kept back too: at 100 ms a move, the scheduling delay
            // of a loaded machine and a cold JIT are a large part of the move
            long t = Math.max(1, l.moveTime() - overhead - Math.min(l.moveTime() / 5, 100));
            return new long[]{t, t};
        }
        long time = side == 0 ? l.time0() : l.time1();
        long inc = side == 0 ? l.inc0() : l.inc1();
        if (time < 0 && l.byoyomi() <= 0) {
            return new long[]{-1, -1};
        }
        long main = Math.max(0, time);
        // the reserve: a sixteenth of the clock (up to 100 ms), and at least four increments (up to 100 ms), so
        // that at 1s+0.01s the clock settles well above the overhead instead of draining move by move
        long reserve = Math.max(Math.min(main / 16, 100), Math.min(4 * inc, 100));
        long usable = Math.max(0, main - overhead - reserve);
        int movesLeft = l.movesToGo() > 0 ? Math.min(l.movesToGo(), 40) : horizon;
        long soft = usable / movesLeft + inc * 3 / 4;
        long hard = Math.min(usable / 5 + inc, soft * 4);
        long ceiling = usable + inc / 2;
        if (l.byoyomi() > 0) {
            long period = Math.max(1, l.byoyomi() - overhead - Math.min(l.byoyomi() / 5, 1000));
            soft += period;
            hard += period;
            ceiling = usable + period;
        }
        hard = Math.max(1, Math.min(hard, ceiling));
        soft = Math.max(1, Math.min(soft, hard));
        return new long[]{soft, hard};
    }
}
