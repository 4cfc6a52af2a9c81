package koma.protocol.match;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;
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
    /** HaChu's hash size, and its permission to repeat positions, which Wa shogi allows and HaChu otherwise refuses. */
    static final List<Map.Entry<String, String>> HACHU_OPTIONS = List.of(Map.entry("memory", "32"),
            Map.entry("Allow repeats", "1"));

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
            List<Map.Entry<String, String>> options = engine.endsWith("hachu") ? HACHU_OPTIONS
                    : List.of(Map.entry("memory", "32"));
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

    /**
     * HaChu plays Wa shogi with Chu shogi's "promote on entry" rule unless told otherwise: a non-capture may promote
     * only when it enters the zone. RULES.md 3.4 lets any move that starts in, ends in or stays within the zone
     * promote, so HaChu refused two of Koma's legal promotions in stop 52 (hachu-wa-promotions.txt) and the match
     * scored them as HaChu's crashes. With {@code Promote on entry=0} HaChu takes both and answers with a move; with
     * its default it refuses them, which shows the option is what makes the difference.
     */
    @Test
    void hachuTakesWaPromotionsWithPromoteOnEntryOff() throws Exception {
        String hachu = "/usr/games/hachu";
        Assumptions.assumeTrue(Files.isExecutable(Path.of(hachu)), hachu + " is not installed");
        RuleSet rs = RuleSet.of("washogi");
        Path file = Path.of(XBoardClientTest.class.getResource("/hachu-wa-promotions.txt").toURI());
        // readFile plays every move through Koma's rules, so both refused promotions are legal there
        List<Opening> games = Opening.readFile(rs, file);
        assertEquals(2, games.size());
        for (Opening game : games) {
            Position pos = game.root().copy();
            List<String> moves = new ArrayList<>();
            for (int m : game.moves()) {
                moves.add(MoveNotation.format(pos, m, MoveNotation.Style.UCI));
                pos.doMove(m);
            }
            assertTrue(moves.get(moves.size() - 1).endsWith("+"), "each game ends with Koma's promotion");
            for (boolean off : new boolean[] {true, false}) {
                List<Map.Entry<String, String>> options = new ArrayList<>(HACHU_OPTIONS);
                if (off) {
                    options.add(Map.entry("Promote on entry", "0"));
                }
                EngineConfig config = new EngineConfig(hachu, EngineConfig.Protocol.XBOARD, null, options);
                try (EngineClient c = EngineClient.start(config, rs)) {
                    c.newGame();
                    Reply r = c.think(new ThinkRequest(game.root(), game.fromStart(), moves, moves, pos.sideToMove(),
                            TimeControl.moveTime(200), new long[] {200, 200}), 5000);
                    String last = moves.get(moves.size() - 1);
                    if (off) {
                        assertEquals(Reply.Kind.MOVE, r.kind(), last + " with Promote on entry=0: " + r);
                    } else {
                        assertEquals(Reply.Kind.CRASH, r.kind(), last + " with HaChu's default: " + r);
                        assertTrue(r.detail().contains("Illegal move"), r.detail());
                    }
                }
            }
        }
    }
}
