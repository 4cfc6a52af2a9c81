package koma.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ways a search is bounded or ended over UCI/USI, with one and two threads: go infinite + stop, go ponder +
 * ponderhit, nodes, depth, movestogo, byoyomi. Each must end with exactly one bestmove.
 */
class SearchControlTranscriptTest {
    private static long count(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).count();
    }

    @ParameterizedTest(name = "Threads {0}")
    @ValueSource(ints = {1, 2})
    void infiniteStopsOnStop(int threads) {
        String out = Transcript.uci("setoption name Threads value " + threads, "go infinite", "stop", "isready");
        assertEquals(1, count(out, "bestmove "), out);
        assertTrue(out.indexOf("bestmove ") < out.indexOf("readyok"), "stop answers before isready: " + out);
    }

    @ParameterizedTest(name = "Threads {0}")
    @ValueSource(ints = {1, 2})
    void ponderhitStartsTheClock(int threads) {
        String out = Transcript.uci("setoption name Threads value " + threads, "position startpos moves e2e4",
                "go ponder wtime 300 btime 300", "ponderhit");
        assertEquals(1, count(out, "bestmove "), out);
    }

    @ParameterizedTest(name = "Threads {0}")
    @ValueSource(ints = {1, 2})
    void depthIsExact(int threads) {
        String out = Transcript.uci("setoption name Threads value " + threads, "go depth 4");
        assertTrue(out.contains("info depth 4 "), out);
        assertFalse(out.contains("info depth 5 "), out);
        assertEquals(1, count(out, "bestmove "), out);
    }

    @ParameterizedTest(name = "Threads {0}")
    @ValueSource(ints = {1, 2})
    void nodesBoundTheSearch(int threads) {
        String out = Transcript.uci("setoption name Threads value " + threads, "go nodes 3000");
        assertEquals(1, count(out, "bestmove "), out);
        // every info line's node count (both threads' nodes) stays near the budget: the main thread stops at 3000
        // and a helper runs at most as long, so twice the budget per thread bounds it
        out.lines().filter(l -> l.startsWith("info depth")).forEach(l -> {
            long n = Long.parseLong(l.split(" nodes ")[1].split(" ")[0]);
            assertTrue(n <= 3000L * 2 * threads + 1000, l);
        });
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"go wtime 2000 btime 2000 movestogo 1", "go wtime 500 btime 500 winc 10 binc 10",
            "go movetime 100"})
    void clocksAnswer(String go) {
        String out = Transcript.uci("position startpos", go);
        assertEquals(1, count(out, "bestmove "), out);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"go btime 0 wtime 0 byoyomi 100", "go btime 1000 wtime 1000 byoyomi 100"})
    void byoyomiAnswers(String go) {
        String out = Transcript.usi("position startpos", go);
        assertEquals(1, count(out, "bestmove "), out);
    }
}
