package koma.rules.notation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import koma.rules.Position;
import koma.rules.RuleSet;

/**
 * One game as the record formats ({@link Pgn}, {@link Kif}, {@link Csa}) write and read it.
 *
 * @param variant     the rule-set identifier (RULES.md 9.1)
 * @param startFen    null for the rule set's start position, else the start as FEN or SFEN (what {@link Fen#parse}
 *                    reads; {@link Fen#format} writes SFEN for shogi)
 * @param moves       every move from the start, as UCI/XBoard strings (RULES.md 9.3: {@code e2e4}, {@code c3c4},
 *                    {@code d9d10+}, {@code P@e5})
 * @param tags        PGN-style tags in order: {@code Event}, {@code Site}, {@code Date} ({@code yyyy.MM.dd}),
 *                    {@code Round}, {@code White} (the first player, sente), {@code Black}, and any others. The
 *                    formats add {@code Variant}, {@code SetUp}, {@code FEN} and {@code Result} themselves. The
 *                    tag {@code Termination} holds a lower-case label ({@code checkmate}, {@code resignation},
 *                    {@code repetition}, {@code time forfeit}, {@code illegal move}, {@code impasse},
 *                    {@code declaration}, {@code adjudication}, ...), which KIF and CSA turn into their closing
 *                    words ({@code 投了}, {@code %TORYO}...) and read back.
 * @param result      {@code 1-0} (the first player won), {@code 0-1}, {@code 1/2-1/2} or {@code *} (unfinished)
 * @param comments    one comment per move (null or empty: none), optionally one more: the closing comment, written
 *                    after the last move (PGN: before the result token); empty when there are none
 * @param moveTimesMs the time each move took in milliseconds (KIF time column, CSA {@code T} lines); empty when
 *                    unknown
 */
public record GameRecord(String variant, String startFen, List<String> moves, Map<String, String> tags, String result,
                         List<String> comments, List<Long> moveTimesMs) {
    /** The four result tokens. */
    public static final List<String> RESULTS = List.of("1-0", "0-1", "1/2-1/2", "*");

    public GameRecord {
        if (variant == null || !RuleSet.IDS.contains(variant)) {
            throw new NotationException("variant", "unknown rule set '" + variant + "'; known: " + String.join(", ", RuleSet.IDS));
        }
        if (!RESULTS.contains(result)) {
            throw new NotationException("result", "expected one of " + RESULTS + ", got '" + result + "'");
        }
        moves = List.copyOf(moves);
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
        comments = Collections.unmodifiableList(new ArrayList<>(comments));
        moveTimesMs = List.copyOf(moveTimesMs);
        if (comments.size() > moves.size() + 1) {
            throw new NotationException("comments", comments.size() + " comments for " + moves.size() + " moves");
        }
        if (!moveTimesMs.isEmpty() && moveTimesMs.size() != moves.size()) {
            throw new NotationException("move times", moveTimesMs.size() + " times for " + moves.size() + " moves");
        }
    }

    /** A record without comments or move times. */
    public GameRecord(String variant, String startFen, List<String> moves, Map<String, String> tags, String result) {
        this(variant, startFen, moves, tags, result, List.of(), List.of());
    }

    public RuleSet ruleSet() {
        return RuleSet.of(variant);
    }

    /** The start position (a fresh copy). */
    public Position startPosition() {
        RuleSet rs = ruleSet();
        return startFen == null ? Position.start(rs) : Fen.parse(rs, startFen);
    }

    /** The moves as ints, checked for legality one by one; the error names the move number and string. */
    public List<Integer> moveInts() {
        Position p = startPosition();
        List<Integer> out = new ArrayList<>(moves.size());
        for (int i = 0; i < moves.size(); i++) {
            int m = parseMove(p, i, moves.get(i));
            out.add(m);
            p.doMove(m);
        }
        return out;
    }

    /** The position after every move. */
    public Position finalPosition() {
        Position p = startPosition();
        for (int i = 0; i < moves.size(); i++) {
            p.doMove(parseMove(p, i, moves.get(i)));
        }
        return p;
    }

    private static int parseMove(Position p, int i, String move) {
        try {
            return MoveNotation.parseUci(p, move);
        } catch (NotationException e) {
            throw new NotationException("move " + (i + 1), e.getMessage());
        }
    }

    /** The comment after move {@code i} (0-based), or null. */
    public String comment(int i) {
        return i < comments.size() ? comments.get(i) : null;
    }

    /** The closing comment (after the last move), or null. */
    public String closingComment() {
        return comments.size() > moves.size() ? comments.get(moves.size()) : null;
    }

    /** The winner as 0 (first player), 1 (second player), -1 (draw) or -2 (unfinished). */
    public int winner() {
        return switch (result) {
            case "1-0" -> 0;
            case "0-1" -> 1;
            case "1/2-1/2" -> -1;
            default -> -2;
        };
    }

    /** Whether the start position is the rule set's own (startFen null or naming that position). */
    public boolean fromStart() {
        return startFen == null || startKey(startPosition()).equals(startKey(Position.start(ruleSet())));
    }

    /** The position without its move counters: SFEN's first three fields, FEN's first four. */
    static String startKey(Position p) {
        String[] f = Fen.format(p).split(" ");
        return String.join(" ", java.util.Arrays.copyOf(f, p.ruleSet().sfen ? 3 : 4));
    }

    /** The same game with other tags. */
    public GameRecord withTags(Map<String, String> newTags) {
        return new GameRecord(variant, startFen, moves, newTags, result, comments, moveTimesMs);
    }

    /** A tag's value or the default. */
    public String tag(String name, String dflt) {
        return tags.getOrDefault(name, dflt);
    }
}
