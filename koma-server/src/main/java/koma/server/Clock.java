package koma.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A game clock kept by the server: none, Fischer (main time plus an increment after each move), byoyomi
 * (main time, then {@code periods} periods of {@code byoyomiMs} each; a move inside a period keeps it, a
 * period used up is lost) or correspondence ({@code initialMs} is the time for every move, a whole number of days:
 * each move gives the mover the full time again, so {@code ms} is always {@code initialMs}). The stored state is each side's main time and periods at the start of the
 * current turn plus the server time the turn started, so the clock of a restarted server goes on from it. A clock
 * is changed only by its game's owner ({@link LiveGame}); snapshots hold a {@link #copy}.
 */
final class Clock {
    enum Type { NONE, FISCHER, BYOYOMI, CORRESPONDENCE }

    /** The days per move a correspondence clock may have. */
    static final java.util.List<Integer> CORRESPONDENCE_DAYS = java.util.List.of(1, 2, 3, 5, 7, 14);
    static final long DAY_MS = 86_400_000L;

    final Type type;
    final long initialMs;
    final long incrementMs;
    final long byoyomiMs;
    final int periods;
    /** Main time left per side at the start of the current turn. */
    final long[] ms = new long[2];
    /** Byoyomi periods left per side. */
    final int[] periodsLeft = new int[2];
    /** Epoch ms when the side to move's time started running; 0 when the clock is stopped. */
    long turnStartedAt;

    Clock(Type type, long initialMs, long incrementMs, long byoyomiMs, int periods) {
        this.type = type;
        this.initialMs = initialMs;
        this.incrementMs = incrementMs;
        this.byoyomiMs = byoyomiMs;
        this.periods = periods;
        ms[0] = ms[1] = initialMs;
        periodsLeft[0] = periodsLeft[1] = periods;
    }

    /** A copy that the owner's later changes do not touch (for snapshots). */
    Clock copy() {
        Clock c = new Clock(type, initialMs, incrementMs, byoyomiMs, periods);
        c.ms[0] = ms[0];
        c.ms[1] = ms[1];
        c.periodsLeft[0] = periodsLeft[0];
        c.periodsLeft[1] = periodsLeft[1];
        c.turnStartedAt = turnStartedAt;
        return c;
    }

    static Clock none() {
        return new Clock(Type.NONE, 0, 0, 0, 0);
    }

    boolean timed() {
        return type != Type.NONE;
    }

    /** A correspondence clock (days per move): its game may leave memory while it runs; a sweep finds it overdue. */
    boolean correspondence() {
        return type == Type.CORRESPONDENCE;
    }

    boolean running() {
        return timed() && turnStartedAt > 0;
    }

    /** The epoch ms at which {@code side}, to move since {@link #turnStartedAt}, runs out of time. */
    long flagAt(int side) {
        if (!running()) {
            return Long.MAX_VALUE;
        }
        return switch (type) {
            case NONE -> Long.MAX_VALUE;
            case FISCHER, CORRESPONDENCE -> turnStartedAt + ms[side];
            case BYOYOMI -> turnStartedAt + ms[side] + periodsLeft[side] * byoyomiMs;
        };
    }

    /**
     * Charges the time {@code side} used from the turn's start to {@code now} and gives the increment; returns
     * false (state unchanged) when the side had run out of time before {@code now}.
     */
    boolean charge(int side, long now) {
        if (!running()) {
            return true;
        }
        long used = Math.max(0, now - turnStartedAt);
        if (now > flagAt(side)) {
            return false;
        }
        if (type == Type.FISCHER) {
            ms[side] = ms[side] - used + incrementMs;
        } else if (type == Type.CORRESPONDENCE) {
            ms[side] = initialMs; // the full time again for the next move
        } else if (used <= ms[side]) {
            ms[side] -= used;
        } else {
            long over = used - ms[side];
            ms[side] = 0;
            periodsLeft[side] -= (int) (over / byoyomiMs);
        }
        return true;
    }

    /**
     * After a takeback: the time {@code side} used on the turn that was taken back is charged without increment
     * (a correspondence clock gives the full time again), and the clock is stopped; the caller starts the next turn.
     * False (state unchanged) when the side had run out of time before {@code now}.
     */
    boolean chargeWithoutIncrement(int side, long now) {
        if (!running()) {
            return true;
        }
        if (now > flagAt(side)) {
            return false;
        }
        if (type == Type.FISCHER) {
            ms[side] -= Math.max(0, now - turnStartedAt);
        } else if (type == Type.BYOYOMI) {
            charge(side, now);
        }
        turnStartedAt = 0;
        return true;
    }

    /** After a side ran out of time: its clock shows zero. */
    void exhaust(int side) {
        ms[side] = 0;
        periodsLeft[side] = 0;
        turnStartedAt = 0;
    }

    /** The clock as the API shows it at {@code now}, with {@code running} the side whose time runs or -1. */
    Map<String, Object> view(int running, long now) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type.name().toLowerCase());
        if (type == Type.NONE) {
            return out;
        }
        out.put("initialMs", initialMs);
        if (type == Type.FISCHER) {
            out.put("incrementMs", incrementMs);
        } else if (type == Type.CORRESPONDENCE) {
            out.put("daysPerMove", initialMs / DAY_MS);
        } else {
            out.put("byoyomiMs", byoyomiMs);
            out.put("periods", periods);
        }
        for (int side = 0; side < 2; side++) {
            long elapsed = running() && side == running ? Math.max(0, now - turnStartedAt) : 0;
            Map<String, Object> s = new LinkedHashMap<>();
            if (type == Type.FISCHER || type == Type.CORRESPONDENCE) {
                s.put("ms", Math.max(0, ms[side] - elapsed));
            } else if (elapsed < ms[side]) {
                s.put("ms", ms[side] - elapsed);
                s.put("periods", periodsLeft[side]);
                s.put("inByoyomi", false);
            } else {
                long over = elapsed - ms[side];
                int lost = byoyomiMs > 0 ? (int) (over / byoyomiMs) : periodsLeft[side];
                int left = Math.max(0, periodsLeft[side] - lost);
                s.put("ms", left == 0 ? 0 : byoyomiMs - over % byoyomiMs);
                s.put("periods", left);
                s.put("inByoyomi", true);
            }
            out.put(side == 0 ? "first" : "second", s);
        }
        out.put("running", running() && running >= 0 ? (running == 0 ? "first" : "second") : null);
        out.put("serverTime", now);
        return out;
    }

    /** The remaining time of the side to move at {@code now}, main time plus periods, for the engine's budget. */
    long remaining(int side, long now) {
        long elapsed = running() ? Math.max(0, now - turnStartedAt) : 0;
        return Math.max(0, flagAtOrStatic(side) - elapsed);
    }

    private long flagAtOrStatic(int side) {
        return type == Type.BYOYOMI ? ms[side] + periodsLeft[side] * byoyomiMs : ms[side];
    }
}
