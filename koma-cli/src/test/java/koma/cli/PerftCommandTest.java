package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/** {@code koma perft}: the RULES.md 9.4 output with --divide, plain totals, --fen and --moves, and bad input. */
class PerftCommandTest {

    /** Parses a whole --divide stdout: 'move: count' lines, one empty line, 'Nodes searched: N', nothing else. */
    private static Map<String, Long> divide(String out, long expectedTotal) {
        assertTrue(out.endsWith("\n"), out);
        String[] lines = out.substring(0, out.length() - 1).split("\n", -1);
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < lines.length - 2; i++) {
            assertTrue(lines[i].matches("\\S+: \\d+"), "not 'move: count': '" + lines[i] + "'");
            String[] mc = lines[i].split(": ");
            assertEquals(null, counts.put(mc[0], Long.parseLong(mc[1])), "listed twice: " + mc[0]);
        }
        assertEquals("", lines[lines.length - 2], "empty line before the total");
        assertEquals("Nodes searched: " + expectedTotal, lines[lines.length - 1]);
        assertEquals(expectedTotal, counts.values().stream().mapToLong(Long::longValue).sum(), "sum of the counts");
        return counts;
    }

    // 1110 = 30 x 37, from Fairy-Stockfish over USI (shared/tools/oracle.py perft shogi 2 7g7f).
    @Test
    void shogiDivideAfterAMoveInUsiNotation() {
        Cli.Result r = Cli.inProcess("perft", "--variant", "shogi", "--moves", "7g7f", "--depth", "2", "--divide");
        assertEquals(0, r.exit(), r.err());
        Map<String, Long> counts = divide(r.out(), 1110);
        Position p = Position.start(RuleSet.of("shogi"));
        p.doMove(MoveNotation.parse(p, "7g7f", MoveNotation.Style.USI));
        Set<String> legal = Arrays.stream(p.legalMoves())
                .mapToObj(m -> MoveNotation.format(p, m, MoveNotation.Style.USI)).collect(Collectors.toSet());
        assertEquals(legal, counts.keySet(), "one line per legal move of the second player, in USI notation");
        assertEquals(30, counts.size());
        assertTrue(counts.containsKey("3c3d"));
        assertTrue(r.err().startsWith("time "), "timing goes to stderr, not into the perft output: " + r.err());
    }

    @ParameterizedTest(name = "{0} depth {1}")
    @CsvSource({"chess, 3, 8902", "shogi, 3, 25470", "washogi, 2, 2601", "washogi-drops, 2, 2601", "shodo, 3, 51308",
        "shodo-deathmatch, 3, 66080"})
    void plainTotalFromTheStartPosition(String variant, int depth, long nodes) {
        Cli.Result r = Cli.inProcess("perft", "-v", variant, "-d", String.valueOf(depth));
        assertEquals(0, r.exit(), r.err());
        assertEquals("Nodes searched: " + nodes + "\n", r.out());
    }

    // "Kiwipete": the published chess perft position (48 / 2039 / 97862).
    @Test
    void fromAFen() {
        String kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        Cli.Result r = Cli.inProcess("perft", "--fen", kiwipete, "--depth", "2", "--divide");
        assertEquals(0, r.exit(), r.err());
        Map<String, Long> counts = divide(r.out(), 2039);
        assertEquals(48, counts.size());
        assertTrue(counts.containsKey("e1g1") && counts.containsKey("e1c1"), "castling is the king's move");
    }

    @Test
    void chessDivideAtDepthOneListsTwentyMoves() {
        Cli.Result r = Cli.inProcess("perft", "-d", "1", "--divide");
        Map<String, Long> counts = divide(r.out(), 20);
        assertTrue(counts.values().stream().allMatch(n -> n == 1));
        assertTrue(counts.keySet().containsAll(Set.of("e2e4", "g1f3", "a2a3", "b1c3")));
    }

    // A malformed FEN: exit 2, one message naming the FEN field, no stack trace, nothing on stdout (real main).
    @Test
    void badFenNamesTheFieldWithoutAStackTrace() {
        Cli.Result r = Cli.process("perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "-d", "1");
        assertEquals(2, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("koma perft: FEN field 'side to move'"), r.err());
        assertEquals(1, r.err().lines().count(), "a single line: " + r.err());
        assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
    }

    @Test
    void badBoardFieldNamesTheField() {
        Cli.Result r = Cli.process("perft", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "-d", "1");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("koma perft: FEN field 'board'"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void unknownVariantListsTheSixIdentifiers() {
        Cli.Result r = Cli.process("perft", "--variant", "xiangqi", "-d", "1");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("koma perft: ") && r.err().contains("'xiangqi'"), r.err());
        for (String id : new String[]{"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"}) {
            assertTrue(r.err().contains(id), id + " not listed in: " + r.err());
        }
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void illegalMoveIsNamed() {
        Cli.Result r = Cli.process("perft", "--moves", "e2e4", "e2e4", "-d", "1");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("koma perft: move 'e2e4': not a legal move"), r.err());
    }

    @Test
    void depthOutOfRange() {
        Cli.Result r = Cli.process("perft", "-d", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("koma perft: --depth must be from 1 to 30"), r.err());
    }

    // picocli itself refuses a missing required option and shows the usage on stderr.
    @Test
    void missingDepth() {
        Cli.Result r = Cli.inProcess("perft", "--variant", "shogi");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("Missing required option: '--depth=<depth>'"), r.err());
        assertTrue(r.err().contains("Usage: koma perft"), r.err());
        assertEquals("", r.out());
    }
}
