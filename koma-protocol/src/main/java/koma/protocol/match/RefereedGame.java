package koma.protocol.match;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.MoveNotation;

/**
 * One finished game as the referee saw it: the players by colour (index 0 moved first), the root position, every
 * move from the root (the first {@code bookPlies} from the opening), a comment per move ({@code book}, or the
 * engine's last score/depth and its time, e.g. {@code +0.35/12 0.051s}), the wall time of each move in ms (0 for
 * book moves), the time control of each colour (the same but under node or time odds) and the result.
 * {@link #toRecord} turns it into the rules core's record, which the PGN, KIF and CSA writers take.
 */
public record RefereedGame(int round, RuleSet rules, List<String> players, Position root, boolean fromStart,
                         List<Integer> moves, List<String> comments, List<Long> moveTimesMs, int bookPlies,
                         GameResult result, List<TimeControl> timeControls, String openingSource,
                         ZonedDateTime started) {
    public RefereedGame {
        timeControls = List.copyOf(timeControls);
        if (timeControls.size() != 2) {
            throw new IllegalArgumentException("a time control per colour, got " + timeControls.size());
        }
        players = List.copyOf(players);
        root = root.copy();
        moves = List.copyOf(moves);
        comments = List.copyOf(comments);
        moveTimesMs = List.copyOf(moveTimesMs);
    }

    /**
     * The PGN tags of a game's time controls by colour: {@code TimeControl} when both colours have the same, else
     * {@code WhiteTimeControl} and {@code BlackTimeControl} (as cutechess-cli writes them under odds).
     */
    static Map<String, String> timeControlTags(List<TimeControl> byColour) {
        Map<String, String> tags = new LinkedHashMap<>();
        if (byColour.get(0).equals(byColour.get(1))) {
            tags.put("TimeControl", byColour.get(0).pgnTag());
        } else {
            tags.put("WhiteTimeControl", byColour.get(0).pgnTag());
            tags.put("BlackTimeControl", byColour.get(1).pgnTag());
        }
        return tags;
    }

    /** The position after all moves. */
    public Position finalPosition() {
        Position p = root.copy();
        for (int m : moves) {
            p.doMove(m);
        }
        return p;
    }

    /**
     * The game as a record for {@link koma.rules.notation.Pgn}, {@link koma.rules.notation.Kif} and
     * {@link koma.rules.notation.Csa}: tags {@code Event}, {@code Site}, {@code Date}, {@code Time}, {@code Round},
     * {@code White}, {@code Black}, {@code TimeControl} (under odds {@code WhiteTimeControl} and
     * {@code BlackTimeControl} instead, as cutechess-cli writes them), {@code PlyCount}, {@code Termination} (the
     * referee's label) and {@code Opening} when the game left from a book; the engines' comments; the referee's
     * reason as the closing comment; the move times.
     */
    public koma.rules.notation.GameRecord toRecord(String event) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("Event", event);
        tags.put("Site", "?");
        tags.put("Date", started.format(DateTimeFormatter.ofPattern("yyyy.MM.dd")));
        tags.put("Round", String.valueOf(round));
        tags.put("White", players.get(0));
        tags.put("Black", players.get(1));
        tags.put("Time", started.format(DateTimeFormatter.ofPattern("HH:mm:ss")));
        tags.putAll(timeControlTags(timeControls));
        tags.put("PlyCount", String.valueOf(moves.size()));
        tags.put("Termination", result.termination());
        if (bookPlies > 0 || !openingSource.equals("startpos")) {
            tags.put("Opening", openingSource);
        }
        List<String> uci = new ArrayList<>();
        Position p = root.copy();
        for (int m : moves) {
            uci.add(MoveNotation.formatUci(p, m));
            p.doMove(m);
        }
        List<String> notes = new ArrayList<>(comments);
        notes.add(result.reason());
        return new koma.rules.notation.GameRecord(rules.id, fromStart ? null : Fen.format(root), uci, tags,
                result.score(), notes, moveTimesMs);
    }
}
