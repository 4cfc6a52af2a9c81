package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/** {@code koma bench perft}: the node counts it reports (times are not asserted) and its argument checks. */
class BenchCommandTest {
    // "nodes 8,902" with the grouping separator of any locale
    private static final Pattern NODES = Pattern.compile("nodes\\s+([\\d.,\\u00a0\\u202f']+)\\s");

    private static long nodes(String line) {
        Matcher m = NODES.matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1).replaceAll("\\D", ""));
    }

    @Test
    void chessDepthThreeCounts8902() {
        Cli.Result r = Cli.inProcess("bench", "perft", "--variant", "chess", "--depth", "3", "--runs", "1");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("chess ") && lines.get(0).contains("depth 3") && lines.get(0).contains(" nps "),
                lines.get(0));
        assertEquals(8902, nodes(lines.get(0)));
        assertTrue(lines.get(1).startsWith("total "), lines.get(1));
        assertEquals(8902, nodes(lines.get(1)));
    }

    // Every rule set at depth 2, in one run: seven lines and a total that adds them up (minishogi 181: Fairy-Stockfish
    // 11.1, UCI_Variant minishogi, go perft 2).
    @Test
    void allRuleSetsAtDepthTwo() {
        Cli.Result r = Cli.inProcess("bench", "perft", "--depth", "2", "--runs", "1");
        assertEquals(0, r.exit(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(8, lines.size(), r.out());
        List<String> ids = lines.subList(0, 7).stream().map(l -> l.split("\\s+")[0]).toList();
        assertEquals(List.of("chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch", "minishogi"), ids);
        List<Long> counts = lines.subList(0, 7).stream().map(BenchCommandTest::nodes).toList();
        assertEquals(List.of(400L, 900L, 2601L, 2601L, 1296L, 1600L, 181L), counts);
        assertEquals(400 + 900 + 2601 + 2601 + 1296 + 1600 + 181, nodes(lines.get(7)));
    }

    @Test
    void unknownBenchmarkIsRefused() {
        Cli.Result r = Cli.process("bench", "sort");
        assertEquals(2, r.exit());
        assertEquals("koma bench: unknown benchmark 'sort'; available: search, perft\n", r.err());
    }

    /**
     * 'bench search' refuses --variant and --depth by name instead of ignoring them (stop 59 found them silently
     * ignored): its node count is the signature of the whole list at the list's depths.
     */
    @Test
    void searchRefusesPerftOptions() {
        for (String[] args : new String[][]{{"bench", "search", "-v", "chess"}, {"bench", "-d", "16"}}) {
            Cli.Result r = Cli.process(args);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.out());
            assertTrue(r.err().contains("--variant and --depth are for 'bench perft'"), r.err());
        }
    }

    /** An unknown --variant is refused by name, the known ones listed, as 'koma perft --variant' does. */
    @Test
    void unknownVariantIsRefused() {
        Cli.Result r = Cli.process("bench", "perft", "--variant", "xiangqi", "--depth", "1", "--runs", "1");
        assertNotEquals(0, r.exit(), "stdout was:\n" + r.out());
        assertTrue(r.err().contains("xiangqi") && r.err().contains("shodo-deathmatch"), r.err());
    }

    /** Depth 0 (or negative) is refused, as 'koma perft' refuses depths below 1. */
    @Test
    void depthBelowOneIsRefused() {
        Cli.Result r = Cli.process("bench", "perft", "--variant", "chess", "--depth", "0", "--runs", "1");
        assertNotEquals(0, r.exit(), "stdout was:\n" + r.out());
        assertTrue(r.err().contains("depth"), r.err());
    }
}
