package koma.protocol.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import koma.rules.RuleSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The XBoard client in real matches: Koma's own XBoard dialect against Koma over UCI/USI in every rule set (both
 * protocols must agree on every move), and Sjaak II and HaChu from Debian in Wa shogi when they are installed.
 */
class XBoardClientTest {
    static EngineConfig xboard(String name) {
        return new EngineConfig(TestEngineMain.command("xboard"), EngineConfig.Protocol.XBOARD, name, List.of());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void komaOverXBoardAgainstKoma(String variant, @TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of(variant);
        Path pgn = dir.resolve("games.pgn");
        Match.Config config = new Match.Config(rs, xboard("Koma-XB"), MatchTest.koma(rs, "Koma"), 2,
                TimeControl.depth(2), 50, 120, 1, Opening.random(rs, 4, 2, 1), pgn, null, null, "test");
        Match.Summary s = MatchTest.run(config).summary();
        assertEquals(2, s.games().size());
        for (RefereedGame g : s.games()) {
            assertFalse(Set.of(GameResult.ILLEGAL_MOVE, GameResult.TIME_FORFEIT, GameResult.ENGINE_CRASH)
                    .contains(g.result().termination()), g.result().toString());
            assertTrue(g.moves().size() > 4, "no move was played: " + g.result());
        }
        assertTrue(Files.readString(pgn).contains("[Variant \"" + variant + "\"]") || variant.equals("chess"));
    }

    @Test
    void sjaakAndHachuPlayWaShogiThroughXBoard() throws Exception {
        RuleSet rs = RuleSet.of("washogi");
        for (String engine : List.of("/usr/games/sjaakii", "/usr/games/hachu")) {
            Assumptions.assumeTrue(Files.isExecutable(Path.of(engine)), engine + " is not installed");
            // a real time per move: at a fixed depth of 2, HaChu (a king-capture engine) can leave its king in check;
            // HaChu also refuses repetitions unless told to allow them
            List<java.util.Map.Entry<String, String>> options = engine.endsWith("hachu")
                    ? List.of(java.util.Map.entry("memory", "32"), java.util.Map.entry("Allow repeats", "1"))
                    : List.of(java.util.Map.entry("memory", "32"));
            EngineConfig other = new EngineConfig(engine, EngineConfig.Protocol.XBOARD, null, options);
            Match.Config config = new Match.Config(rs, MatchTest.koma(rs, "Koma"), other, 1, TimeControl.moveTime(300),
                    1500, 40, 1, Opening.random(rs, 2, 1, 7), null, null, null, "test");
            Match.Summary s = MatchTest.run(config).summary();
            RefereedGame g = s.games().get(0);
            assertFalse(g.result().termination().equals(GameResult.ENGINE_CRASH), engine + ": " + g.result());
            if (g.result().termination().equals(GameResult.ILLEGAL_MOVE)) {
                // HaChu searches by capturing kings and can, short of time, answer a check with a move that ignores
                // it; the referee must then be right: the engine was in check (the client did not desynchronise)
                assertTrue(engine.endsWith("hachu"), engine + ": " + g.result());
                assertTrue(g.finalPosition().inCheck(), "an illegal move outside check means the boards differ: "
                        + g.result());
            }
            assertTrue(g.moves().size() > 10, engine + " played too few moves: " + g.result());
            assertTrue(g.moveTimesMs().stream().allMatch(t -> t < 1800), engine + " overran: " + g.moveTimesMs());
        }
    }
}
