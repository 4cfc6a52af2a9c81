package koma.protocol;

import static koma.protocol.Transcript.divide;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/**
 * {@code go perft N} over UCI and USI: the output format of RULES.md 9.4 and the counts. The start-position counts
 * are published / reference-engine values, not Koma's own: chess from the standard perft tables; shogi from the
 * published shogi perft; Wa shogi from Sjaak II; Shodo and its deathmatch from Fairy-Stockfish with
 * shared/tools/shodo.ini (all reproducible with {@code shared/tools/oracle.py perft V D}).
 */
class PerftTranscriptTest {

    /** The moves Koma itself calls legal from {@code p}, written in the protocol's notation. */
    private static Set<String> legalMoves(Position p, MoveNotation.Style style) {
        return Arrays.stream(p.legalMoves()).mapToObj(m -> MoveNotation.format(p, m, style)).collect(Collectors.toSet());
    }

    @ParameterizedTest(name = "{0} perft {1} = {2}")
    @CsvSource({
        "chess, 1, 20", "chess, 2, 400", "chess, 3, 8902",
        "shogi, 1, 30", "shogi, 2, 900", "shogi, 3, 25470",
        "washogi, 1, 51", "washogi, 2, 2601", "washogi, 3, 126574",
        // no capture is possible within three plies, so drops change nothing yet (Sjaak II agrees)
        "washogi-drops, 1, 51", "washogi-drops, 2, 2601", "washogi-drops, 3, 126574",
        "shodo, 1, 36", "shodo, 2, 1296", "shodo, 3, 51308",
        "shodo-deathmatch, 1, 40", "shodo-deathmatch, 2, 1600", "shodo-deathmatch, 3, 66080",
        // minishogi: fairy-stockfish 11.1, UCI_Variant minishogi, go perft 1..3
        "minishogi, 1, 14", "minishogi, 2, 181", "minishogi, 3, 2512",
    })
    void uciStartPositionPerft(String variant, int depth, long expected) {
        String out = Transcript.uci("setoption name UCI_Variant value " + variant, "position startpos", "go perft " + depth);
        Transcript.Divide d = divide(out);
        assertEquals(expected, d.total(), "Nodes searched");
        assertEquals(d.total(), d.sum(), "the per-move counts must add up to the total");
        Position start = Position.start(RuleSet.of(variant));
        assertEquals(legalMoves(start, MoveNotation.Style.UCI), d.counts().keySet(), "one line per legal move");
        if (depth == 1) {
            assertTrue(d.counts().values().stream().allMatch(n -> n == 1), "depth 1 counts every move once");
        }
    }

    /** Minishogi over USI, chosen with USI_Variant as Fairy-Stockfish does; counts from fairy-stockfish 11.1. */
    @Test
    void usiMinishogi() {
        Transcript.Divide d = divide(Transcript.usi("setoption name USI_Variant value minishogi", "position startpos",
                "go perft 3"));
        assertEquals(2512, d.total());
        assertEquals(legalMoves(Position.start(RuleSet.of("minishogi")), MoveNotation.Style.USI), d.counts().keySet());
        assertTrue(d.counts().containsKey("2e3d"), "USI coordinates on the 5x5 board: the bishop d1-c2 is 2e3d");
        // after d1b3 e4e3 (USI 2e4c 1b1c) from the start SFEN: 16 moves (fairy-stockfish 11.1, UCI, perft 1)
        Transcript.Divide s = divide(Transcript.usi("setoption name USI_Variant value minishogi",
                "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 2e4c 1b1c", "go perft 1"));
        assertEquals(16, s.total());
    }

    @ParameterizedTest(name = "USI shogi perft {0} = {1}")
    @CsvSource({"1, 30", "2, 900", "3, 25470"})
    void usiStartPositionPerft(int depth, long expected) {
        Transcript.Divide d = divide(Transcript.usi("position startpos", "go perft " + depth));
        assertEquals(expected, d.total());
        assertEquals(d.total(), d.sum());
        assertEquals(legalMoves(Position.start(RuleSet.of("shogi")), MoveNotation.Style.USI), d.counts().keySet());
        assertTrue(d.counts().containsKey("7g7f"), "USI move strings (RULES.md 9.3)");
    }

    // The whole answer for a tiny position (king e8 in check from a rook: four king moves); move order is free.
    @Test
    void exactTranscriptOfASmallDivide() {
        String out = Transcript.uci("position fen 4k3/8/8/8/8/8/8/4R2K b - - 0 1", "go perft 1");
        Set<String> lines = Set.of(out.split("\n"));
        assertEquals(Set.of("e8d8: 1", "e8f8: 1", "e8d7: 1", "e8f7: 1", "", "Nodes searched: 4"), lines);
        assertTrue(out.endsWith(": 1\n\nNodes searched: 4\n"), out);
        assertEquals(7, out.split("\n", -1).length, "4 moves, empty line, total, and the final line break");
    }

    // Counts after moves, and a drop, from Fairy-Stockfish over USI (oracle.py perft shogi 2 7g7f 3c3d 8h2b+ 3a2b ...).
    @Test
    void usiPerftAfterMovesWithDropsInHand() {
        Transcript.Divide d = divide(Transcript.usi("position startpos moves 7g7f 3c3d 8h2b+ 3a2b", "go perft 2"));
        assertEquals(5390, d.total());
        assertEquals(d.total(), d.sum());
        assertTrue(d.counts().containsKey("B*5e"), "a bishop in hand is dropped as B*5e");
        assertEquals(3178, divide(Transcript.usi("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e", "go perft 2")).total());
    }

    // The same shogi line in UCI coordinates: drops are written P@e5 style with the upper-case letter (RULES.md 9.3).
    @Test
    void uciShogiPerftUsesUciCoordinatesAndAtDrops() {
        Transcript.Divide d = divide(Transcript.uci("setoption name UCI_Variant value shogi",
                "position startpos moves c3c4 g7g6 b2h8+ g9h8", "go perft 2"));
        assertEquals(5390, d.total());
        assertTrue(d.counts().containsKey("B@e5"), d.counts().keySet().toString());
        assertEquals(3178, divide(Transcript.uci("setoption name UCI_Variant value shogi",
                "position startpos moves c3c4 g7g6 b2h8+ g9h8 B@e5", "go perft 2")).total());
    }

    @Test
    void chessPerftAfterMoves() {
        // 24825: Fairy-Stockfish, oracle.py perft chess 3 e2e4 e7e5
        Transcript.Divide d = divide(Transcript.uci("position startpos moves e2e4 e7e5", "go perft 3"));
        assertEquals(24825, d.total());
        assertEquals(d.total(), d.sum());
        assertEquals(29, d.counts().size(), "white has 29 legal moves after 1.e4 e5");
    }

    @Test
    void perftLeavesThePositionAsItWas() {
        String out = Transcript.uci("position startpos moves e2e4", "d", "go perft 2", "d");
        assertEquals(Transcript.fields(out, "Fen: ").get(0), Transcript.fields(out, "Fen: ").get(1));
        assertEquals(Transcript.fields(out, "Key: ").get(0), Transcript.fields(out, "Key: ").get(1));
    }
}
