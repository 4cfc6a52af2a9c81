package koma.protocol.match;

import java.time.ZonedDateTime;
import java.util.List;

import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * One finished game as the referee saw it: the players by colour (index 0 moved first), the root position, every
 * move from the root (the first {@code bookPlies} from the opening), a comment per move ({@code book}, or the
 * engine's last score/depth and its time, e.g. {@code +0.35/12 0.051s}), the wall time of each move in ms (0 for
 * book moves) and the result.
 */
public record GameRecord(int round, RuleSet rules, List<String> players, Position root, boolean fromStart,
                         List<Integer> moves, List<String> comments, List<Long> moveTimesMs, int bookPlies,
                         GameResult result, TimeControl timeControl, String openingSource, ZonedDateTime started) {
    public GameRecord {
        players = List.copyOf(players);
        root = root.copy();
        moves = List.copyOf(moves);
        comments = List.copyOf(comments);
        moveTimesMs = List.copyOf(moveTimesMs);
    }

    /** The position after all moves. */
    public Position finalPosition() {
        Position p = root.copy();
        for (int m : moves) {
            p.doMove(m);
        }
        return p;
    }
}
