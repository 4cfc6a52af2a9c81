package koma.engine;

/**
 * One progress report of a search, for the protocols' {@code info} lines: depth reached, selective depth,
 * score (centipawns, or mate in {@code mateIn} moves when not 0: positive when the side to move mates),
 * nodes, elapsed milliseconds, and the principal variation as moves.
 */
public record SearchInfo(int depth, int selDepth, int multiPv, int score, int mateIn, long nodes, long timeMs,
                         int[] pv, int hashfull) {
    public long nps() {
        return timeMs <= 0 ? nodes * 1000 : nodes * 1000 / timeMs;
    }
}
