package koma.protocol.match;

import java.util.Locale;

/**
 * An engine's evaluation from its own point of view: centipawns, or mate in {@code value} moves (negative: the
 * engine is mated). USI mate distances (plies) are converted to moves when read.
 */
public record Score(boolean mate, int value) {
    /** {@code +0.35}, {@code -1.20}, {@code +M3}, {@code -M2}, as cutechess writes them in PGN comments. */
    public String format() {
        if (mate) {
            return (value >= 0 ? "+M" : "-M") + Math.abs(value);
        }
        return String.format(Locale.ROOT, "%+.2f", value / 100.0);
    }

    @Override
    public String toString() {
        return format();
    }
}
