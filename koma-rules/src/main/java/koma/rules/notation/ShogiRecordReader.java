package koma.rules.notation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * What reading a shogi game record (KIF, CSA) has in common whatever the format: the text split into lines,
 * the tags, the moves checked against the rules as they are played, a comment per move and the closing
 * comment, the time per move, and the {@link GameRecord} built at the end. {@link Kif} and {@link Csa} read
 * their own syntax and call these.
 */
final class ShogiRecordReader {
    final String format;
    final RuleSet rs = ShogiNotation.KIFU_RULES;
    /** The record's lines (a byte-order mark dropped; any line ending). */
    final String[] lines;
    final Map<String, String> tags = new LinkedHashMap<>();
    private final List<String> moves = new ArrayList<>();
    private final List<String> comments = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();
    private boolean anyTime;
    private String closingComment;
    private Position start;
    /** The position after the moves read so far; null until the start position is known. */
    Position position;

    /** Starts reading {@code text} in {@code format} ("KIF", "CSA"); refuses an empty record. */
    ShogiRecordReader(String format, String text) {
        if (text == null || text.isBlank()) {
            throw new NotationException(format, "empty record");
        }
        this.format = format;
        this.lines = text.replace("\uFEFF", "").split("\r?\n|\r");
    }

    /** The start position is known: moves follow from it. */
    void begin(Position start) {
        this.start = start;
        this.position = start.copy();
    }

    /** Number of moves read so far. */
    int moveCount() {
        return moves.size();
    }

    /** Plays a legal move of the current position and records it, with its time if the record gives one (else -1). */
    void play(int move, long timeMs) {
        moves.add(MoveNotation.formatUci(position, move));
        comments.add(null);
        times.add(Math.max(0, timeMs));
        anyTime |= timeMs >= 0;
        position.doMove(move);
    }

    /** Sets the time of the last move (a format that writes it on its own line). */
    void lastMoveTime(long timeMs) {
        times.set(times.size() - 1, timeMs);
        anyTime = true;
    }

    /**
     * A comment line: after the end of the game it joins the closing comment, after a move that move's comment.
     * Returns false when it is neither (a comment before the first move, left to the format).
     */
    boolean comment(String c, boolean afterEnd) {
        if (afterEnd) {
            closingComment = closingComment == null ? c : closingComment + "\n" + c;
        } else if (!moves.isEmpty()) {
            int i = moves.size() - 1;
            comments.set(i, comments.get(i) == null ? c : comments.get(i) + "\n" + c);
        } else {
            return false;
        }
        return true;
    }

    /** A start date and time ("2024/05/01 10:00:00") as the Date ("2024.05.01") and Time tags. */
    void dateTags(String value) {
        String[] dt = value.strip().split("\\s+", 2);
        tags.put("Date", dt[0].replace('/', '.'));
        if (dt.length > 1) {
            tags.put("Time", dt[1]);
        }
    }

    /** The game read, with {@code result}; {@code noStart} is the error when no start position was found. */
    GameRecord record(String result, String noStart) {
        if (position == null) {
            throw new NotationException(format, noStart);
        }
        List<String> c = new ArrayList<>(comments);
        if (closingComment != null) {
            c.add(closingComment);
        }
        while (!c.isEmpty() && c.get(c.size() - 1) == null) {
            c.remove(c.size() - 1);
        }
        String startFen = GameRecord.startKey(start).equals(GameRecord.startKey(Position.start(rs))) ? null
                : Fen.format(start);
        return new GameRecord(rs.id, startFen, moves, tags, result, c, anyTime ? times : List.of());
    }
}
