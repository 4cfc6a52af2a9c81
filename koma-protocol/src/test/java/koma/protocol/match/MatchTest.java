package koma.protocol.match;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongBiFunction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import koma.rules.Game;
import koma.rules.RuleSet;
import koma.rules.notation.Kif;
import koma.rules.notation.Pgn;

/**
 * Real matches between real processes: Koma against itself on every rule set (over USI for shogi, UCI otherwise),
 * and Koma against test engines that play an illegal move, hang, or crash.
 */
class MatchTest {
    /** Terminations that come from the rule book (the replayed PGN must end the same way by itself). */
    private static final Set<String> RULE_TERMINATIONS = Set.of("checkmate", "stalemate", "no legal move",
            "repetition", "perpetual check", "fifty moves", "seventy five moves", "insufficient material",
            "extinction");

    record Run(Match.Summary summary, String output) {
    }

    static Run run(Match.Config config) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, UTF_8);
        Match.Summary s = new Match(config, out).run();
        return new Run(s, bytes.toString(UTF_8));
    }

    static EngineConfig koma(RuleSet rs, String name) {
        EngineConfig.Protocol p = rs.sfen ? EngineConfig.Protocol.USI : EngineConfig.Protocol.UCI;
        return new EngineConfig(TestEngineMain.command(p.name().toLowerCase()), p, name, List.of());
    }

    static EngineConfig fake(String mode) {
        return new EngineConfig(TestEngineMain.command(mode), EngineConfig.Protocol.UCI, null, List.of());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch"})
    void komaAgainstItself(String variant, @TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of(variant);
        Path pgn = dir.resolve("games.pgn");
        Path kif = rs.sfen ? dir.resolve("games.kif") : null;
        List<Opening> openings = Opening.random(rs, 4, 7, 1);
        Match.Config config = new Match.Config(rs, koma(rs, "Koma-A"), koma(rs, "Koma-B"), 2, TimeControl.depth(2),
                50, 160, variant.equals("chess") ? 2 : 1, openings, pgn, kif, null, "test");
        Run run = run(config);
        Match.Summary s = run.summary();

        assertEquals(2, s.games().size());
        assertEquals(2, s.stats().games());
        for (RefereedGame g : s.games()) {
            assertNotNull(g.result());
            assertFalse(g.result().termination().isBlank());
            assertFalse(g.result().reason().isBlank());
            // colours alternate: engine 1 first in game 1, second in game 2
            assertEquals(g.round() == 1 ? List.of("Koma-A", "Koma-B") : List.of("Koma-B", "Koma-A"), g.players());
            // both games start with the same opening
            assertEquals(4, g.bookPlies());
            assertEquals(openings.get(0).moves(), g.moves().subList(0, 4));
            assertTrue(g.moves().size() > 4, "the engines played no move: " + g.result());
            assertFalse(Set.of(GameResult.ILLEGAL_MOVE, GameResult.TIME_FORFEIT, GameResult.ENGINE_CRASH)
                    .contains(g.result().termination()), g.result().toString());
        }

        // the PGN parses back, and its moves replay legally through the rules core
        List<koma.rules.notation.GameRecord> read = new ArrayList<>(Pgn.parseAll(Files.readString(pgn, UTF_8)));
        assertEquals(2, read.size());
        read.sort(Comparator.comparing(p -> p.tags().get("Round")));
        for (int i = 0; i < 2; i++) {
            koma.rules.notation.GameRecord pg = read.get(i);
            RefereedGame rec = s.games().get(i);
            assertEquals(String.valueOf(i + 1), pg.tags().get("Round"));
            assertEquals(i == 0 ? "Koma-A" : "Koma-B", pg.tags().get("White"));
            assertEquals(i == 0 ? "Koma-B" : "Koma-A", pg.tags().get("Black"));
            assertEquals(variant, pg.variant());
            assertEquals(rec.result().score(), pg.result());
            assertEquals(rec.result().reason(), pg.closingComment());
            assertEquals(rec.result().termination(), pg.tags().get("Termination"));
            Game replayed = Match.replay(pg);
            assertEquals(rec.moves(), replayed.moves());
            assertEquals(String.valueOf(rec.moves().size()), pg.tags().get("PlyCount"));
            if (RULE_TERMINATIONS.contains(rec.result().termination())) {
                assertTrue(replayed.isOver());
                assertEquals(rec.result().score(), replayed.result().orElseThrow().score());
            } else {
                assertEquals(GameResult.ADJUDICATION, rec.result().termination());
                assertFalse(replayed.isOver());
            }
        }
        if (kif != null) {
            String k = Files.readString(kif, UTF_8);
            assertEquals(2, k.split("手合割：平手", -1).length - 1, k);
            assertTrue(k.contains("先手：Koma-A") && k.contains("先手：Koma-B"), k);
            assertEquals(2, k.lines().filter(l -> l.startsWith("まで")).count(), k);
            // the first game of the file reads back with the moves the referee recorded
            koma.rules.notation.GameRecord first = Kif.parse(k.substring(0, k.indexOf("#KIF", 1)));
            assertEquals(s.games().get(0).toRecord("test").moves(), first.moves());
        }
        assertTrue(run.output().contains("Finished game 1 (Koma-A vs Koma-B)"), run.output());
        assertTrue(run.output().contains("Finished game 2 (Koma-B vs Koma-A)"), run.output());
        assertTrue(run.output().contains(s.stats().scoreLine("Koma-A", "Koma-B") + "\nElo difference: "), run.output());
    }

    /** A value of every engine move (not book) the named player made in the run's games. */
    private static List<Long> byPlayer(Run run, String player, ToLongBiFunction<RefereedGame, Integer> value) {
        List<Long> out = new ArrayList<>();
        for (RefereedGame g : run.summary().games()) {
            for (int i = g.bookPlies(); i < g.moves().size(); i++) {
                if (g.players().get(i % 2).equals(player)) {
                    out.add(value.applyAsLong(g, i));
                }
            }
        }
        assertFalse(out.isEmpty(), player + " made no move");
        return out;
    }

    /**
     * Node odds: engine 2 searches 100,000 nodes a move, engine 1 300, in both colours; so every move of engine 2 is
     * searched deeper than every move of engine 1 (the depth each reported, in the move's comment "+0.35/12 0.051s").
     */
    @Test
    void nodeOdds() throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Match.Config config = new Match.Config(rs, koma(rs, "Few"), koma(rs, "Many"), 2, TimeControl.nodes(300), 50,
                16, 1, Opening.random(rs, 4, 3, 1), null, null, null, "test", TimeControl.nodes(100_000));
        Run run = run(config);
        assertTrue(run.output().contains("nodes 300 against nodes 100000"), run.output());
        ToLongBiFunction<RefereedGame, Integer> depth = (g, i) -> {
            String c = g.comments().get(i);
            return Long.parseLong(c.substring(c.indexOf('/') + 1, c.indexOf(' ')));
        };
        long fewMax = Collections.max(byPlayer(run, "Few", depth));
        long manyMin = Collections.min(byPlayer(run, "Many", depth));
        assertTrue(manyMin > fewMax, "depths: engine 2 from " + manyMin + ", engine 1 up to " + fewMax);
        assertThrows(IllegalArgumentException.class, () -> new Match.Config(rs, koma(rs, "A"), koma(rs, "B"), 2,
                TimeControl.depth(3), 50, 16, 1, null, null, null, null, "test", TimeControl.nodes(1000)));
    }

    /**
     * Time odds: engine 2 at eight times engine 1's time per move takes longer over every move than engine 1 over
     * any, and the PGN names each colour's control (cutechess-cli's WhiteTimeControl and BlackTimeControl).
     */
    @Test
    void timeOdds(@TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Path pgn = dir.resolve("odds.pgn");
        Match.Config config = new Match.Config(rs, koma(rs, "Fast"), koma(rs, "Slow"), 2, TimeControl.moveTime(50),
                500, 12, 1, Opening.random(rs, 4, 5, 1), pgn, null, null, "test", TimeControl.moveTime(400));
        Run run = run(config);
        assertTrue(run.output().contains("0.05/move against 0.4/move"), run.output());
        ToLongBiFunction<RefereedGame, Integer> time = (g, i) -> g.moveTimesMs().get(i);
        long fastMax = Collections.max(byPlayer(run, "Fast", time));
        long slowMin = Collections.min(byPlayer(run, "Slow", time));
        assertTrue(slowMin > fastMax, "move times: engine 2 from " + slowMin + " ms, engine 1 up to " + fastMax);
        String text = Files.readString(pgn);
        assertTrue(text.contains("[WhiteTimeControl \"0.05/move\"]\n[BlackTimeControl \"0.4/move\"]"), text);
        assertTrue(text.contains("[WhiteTimeControl \"0.4/move\"]\n[BlackTimeControl \"0.05/move\"]"), text);
        assertFalse(text.contains("[TimeControl "), text);
        assertThrows(IllegalArgumentException.class, () -> new Match.Config(rs, koma(rs, "A"), koma(rs, "B"), 2,
                TimeControl.moveTime(100), 50, 16, 1, null, null, null, null, "test", TimeControl.nodes(1000)));
    }

    /** Clocks: a Fischer clock in chess (UCI) and byoyomi in shogi (USI), a few moves each, nobody flags. */
    @Test
    void clocks() throws Exception {
        for (String variant : List.of("chess", "shogi")) {
            RuleSet rs = RuleSet.of(variant);
            TimeControl tc = rs.sfen ? TimeControl.byoyomi(200, 100) : TimeControl.clock(1000, 50);
            Match.Config config = new Match.Config(rs, koma(rs, "A"), koma(rs, "B"), 1, tc, 500, 12, 1, null, null,
                    null, null, null);
            RefereedGame g = run(config).summary().games().get(0);
            assertEquals(GameResult.ADJUDICATION, g.result().termination(), g.result().reason());
            assertEquals(12, g.moves().size());
            assertTrue(g.moveTimesMs().stream().allMatch(t -> t < 1500), g.moveTimesMs().toString());
        }
    }

    /**
     * Time used beyond a Fischer clock within the margin is a debt, as in cutechess-cli: an engine that takes at
     * least 250 ms a move at 300 ms + 100 ms with a 400 ms margin is down at least 150 ms a move, so its clock reads
     * at most 150, 0, -150 after its first three moves and its fourth or fifth move loses on time (earlier when the
     * machine is slow). Forgiving the overrun on every move instead (the clock back to 0 plus the increment, which
     * the referee did until stop 61) let it play at 2.5 times the increment for all 40 plies.
     */
    @Test
    void overrunWithinTheMarginIsADebt() throws Exception {
        RuleSet rs = RuleSet.of("chess");
        EngineConfig slow = new EngineConfig(TestEngineMain.command("slow"), EngineConfig.Protocol.UCI, "Slow",
                List.of());
        Match.Summary s = run(new Match.Config(rs, koma(rs, "Koma"), slow, 2, TimeControl.clock(300, 100), 400, 40, 1,
                null, null, null, null, null)).summary();
        assertEquals(new Stats(2, 0, 0), s.stats());
        for (RefereedGame g : s.games()) {
            assertEquals(GameResult.TIME_FORFEIT, g.result().termination(), g.result().reason());
            assertTrue(g.result().reason().startsWith("Slow loses on time"), g.result().reason());
            int slowSide = g.players().get(0).equals("Slow") ? 0 : 1;
            long slowMoves = java.util.stream.IntStream.range(0, g.moves().size()).filter(i -> i % 2 == slowSide)
                    .count();
            assertTrue(slowMoves >= 1 && slowMoves <= 4, slowMoves + " moves; " + g.result().reason() + "; times "
                    + g.moveTimesMs());
        }
    }

    @Test
    void illegalMoveLoses(@TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Path pgn = dir.resolve("g.pgn");
        Run run = run(new Match.Config(rs, koma(rs, "Koma"), fake("illegal"), 2, TimeControl.depth(1), 50, 100, 1,
                null, pgn, null, null, null));
        Match.Summary s = run.summary();
        assertEquals("Test-illegal", s.name2());
        assertEquals(new Stats(2, 0, 0), s.stats());
        for (RefereedGame g : s.games()) {
            assertEquals(GameResult.ILLEGAL_MOVE, g.result().termination());
            assertTrue(g.result().reason().contains("a1a1"), g.result().reason());
            assertEquals(g.round() == 1 ? 1 : 0, g.moves().size()); // game 2: the illegal engine moves first
        }
        assertTrue(run.output().contains("Score of Koma vs Test-illegal: 2 - 0 - 0 [1.000] 2"), run.output());
        assertTrue(run.output().contains("Elo difference: inf +/- inf"), run.output());
        for (koma.rules.notation.GameRecord pg : Pgn.parseAll(Files.readString(pgn, UTF_8))) {
            assertEquals("illegal move", pg.tags().get("Termination"));
            Match.replay(pg);
        }
    }

    @Test
    void hangingEngineLosesOnTime() throws Exception {
        RuleSet rs = RuleSet.of("chess");
        long t0 = System.nanoTime();
        // 100 ms per move and a 400 ms margin (so that Koma does not flag on a busy machine): 500 ms at most
        Match.Summary s = run(new Match.Config(rs, koma(rs, "Koma"), fake("hang"), 2, TimeControl.moveTime(100), 400,
                100, 1, null, null, null, null, null)).summary();
        assertEquals(new Stats(2, 0, 0), s.stats());
        for (RefereedGame g : s.games()) {
            assertEquals(GameResult.TIME_FORFEIT, g.result().termination(), g.result().reason());
            assertTrue(g.result().reason().contains("no move within 500 ms"), g.result().reason());
        }
        assertTrue(System.nanoTime() - t0 < 30_000_000_000L, "the match took too long");
    }

    @Test
    void crashingEngineLosesAndIsRestarted() throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Match.Summary s = run(new Match.Config(rs, koma(rs, "Koma"), fake("crash"), 2, TimeControl.depth(1), 50, 100,
                1, null, null, null, null, null)).summary();
        assertEquals(new Stats(2, 0, 0), s.stats());
        for (RefereedGame g : s.games()) {
            assertEquals(GameResult.ENGINE_CRASH, g.result().termination(), g.result().reason());
        }
    }

    /** All wins: the SPRT accepts H1 at the 21st game (StatsTest: 20 straight wins give LLR 2.926, below 2.944). */
    @Test
    void sprtStopsTheMatch() throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Run run = run(new Match.Config(rs, koma(rs, "Koma"), fake("illegal"), 40, TimeControl.depth(1), 50, 100, 1,
                null, null, null, Stats.Sprt.parse("elo0=0,elo1=5"), null));
        assertEquals(Stats.Sprt.Decision.H1, run.summary().sprtDecision());
        assertEquals(21, run.summary().games().size(), run.output());
        assertTrue(run.output().contains("H1 was accepted"), run.output());
    }

    /**
     * An engine that reports an error while its options are set (Koma given an EvalFile it cannot read) stops the
     * match before the first game: before this check such a match played the engine's default evaluation instead,
     * and a net's test came out as an exact tie (stop 55's first Wa shogi-with-drops SPRT, 199-199-2).
     */
    @Test
    void engineThatRefusesItsOptions(@TempDir Path dir) {
        RuleSet rs = RuleSet.of("washogi");
        Path missing = dir.resolve("no-such-net.nnue");
        EngineConfig k = koma(rs, "Koma-net");
        EngineConfig withNet = new EngineConfig(k.command(), k.protocol(), k.name(),
                List.of(Map.entry("EvalFile", missing.toString())));
        EngineException e = assertThrows(EngineException.class, () -> run(new Match.Config(rs, withNet,
                koma(rs, "Koma"), 2, TimeControl.depth(1), 50, 100, 1, null, null, null, null, null)));
        assertTrue(e.getMessage().contains("refused its options"), e.getMessage());
        assertTrue(e.getMessage().contains("EvalFile") && e.getMessage().contains(missing.toString()), e.getMessage());
    }

    @Test
    void engineThatCannotStart() {
        RuleSet rs = RuleSet.of("chess");
        EngineConfig missing = new EngineConfig("/nonexistent/engine", EngineConfig.Protocol.UCI, null, List.of());
        EngineException e = assertThrows(EngineException.class, () -> run(new Match.Config(rs, koma(rs, "Koma"),
                missing, 2, TimeControl.depth(1), 50, 100, 1, null, null, null, null, null)));
        assertTrue(e.getMessage().contains("/nonexistent/engine"), e.getMessage());
    }

    /**
     * A match stopped after two games goes on with --resume: the file's two games are counted and only rounds 3 and 4
     * are played, from the same openings, so the file ends with one game of each round and the score counts all four.
     */
    @Test
    void resumedMatchPlaysOnlyTheMissingRounds(@TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Path pgn = dir.resolve("games.pgn");
        List<Opening> openings = Opening.random(rs, 6, 11, 2);
        Run first = run(new Match.Config(rs, koma(rs, "Koma-A"), koma(rs, "Koma-B"), 2, TimeControl.depth(1), 50, 120,
                1, openings, pgn, null, null, "test"));
        Run second = run(resumed(rs, 4, openings, pgn, null));

        assertTrue(second.output().contains("Resumed from " + pgn + ": 2 game(s)"), second.output());
        assertEquals(List.of(3, 4), second.summary().games().stream().map(RefereedGame::round).toList());
        Stats a = first.summary().stats(), b = second.summary().stats();
        assertEquals(4, b.games());
        int newWins = 0, newLosses = 0;
        for (RefereedGame g : second.summary().games()) {
            boolean engine1First = g.round() % 2 == 1;
            if (!g.result().isDraw()) {
                if ((g.result().winner() == 0) == engine1First) {
                    newWins++;
                } else {
                    newLosses++;
                }
            }
        }
        assertEquals(a.wins() + newWins, b.wins());
        assertEquals(a.losses() + newLosses, b.losses());
        List<koma.rules.notation.GameRecord> all = Pgn.parseAll(Files.readString(pgn, UTF_8));
        assertEquals(List.of("1", "2", "3", "4"), all.stream().map(g -> g.tags().get("Round")).toList());
        // round 3 starts from the second opening, as a match of four games from the start would have played it
        assertEquals(openings.get(1).moves(), second.summary().games().get(0).moves().subList(0, 6));

        // resumed again with nothing left to play: the four games are counted and none is played
        Run third = run(resumed(rs, 4, openings, pgn, null));
        assertEquals(0, third.summary().games().size());
        assertEquals(b, third.summary().stats());
    }

    /** A match resumed from games that are not its own is refused before any game, naming the game and what differs. */
    @Test
    void resumeRefusesAnotherMatchsGames(@TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Path pgn = dir.resolve("games.pgn");
        List<Opening> openings = Opening.random(rs, 6, 11, 1);
        run(new Match.Config(rs, koma(rs, "Koma-A"), koma(rs, "Koma-B"), 2, TimeControl.depth(1), 50, 120, 1,
                openings, pgn, null, null, "test"));
        String games = Files.readString(pgn, UTF_8);

        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> run(resumed(rs, 4, Opening.random(rs, 6, 12, 2), pgn, null)));
        assertTrue(other.getMessage().contains("game 1 of the file: round 1 did not start from this match's opening")
                && other.getMessage().contains("seed 11 #1"), other.getMessage());

        IllegalArgumentException names = assertThrows(IllegalArgumentException.class, () -> run(new Match.Config(rs,
                koma(rs, "Koma-B"), koma(rs, "Koma-A"), 4, TimeControl.depth(1), 50, 120, 1, openings, pgn, null, null,
                "test", null, true)));
        assertTrue(names.getMessage().contains("round 1 is Koma-A vs Koma-B, this match's Koma-B vs Koma-A"),
                names.getMessage());

        IllegalArgumentException fewer = assertThrows(IllegalArgumentException.class,
                () -> run(resumed(rs, 1, openings, pgn, null)));
        assertTrue(fewer.getMessage().contains("round 2 is not among this match's 1..1"), fewer.getMessage());

        IllegalArgumentException clock = assertThrows(IllegalArgumentException.class, () -> run(new Match.Config(rs,
                koma(rs, "Koma-A"), koma(rs, "Koma-B"), 4, TimeControl.parseClock("2+0.02"), 50, 120, 1, openings,
                pgn, null, null, "test", null, true)));
        assertTrue(clock.getMessage().contains("its TimeControl is '-', this match's '2+0.02'"), clock.getMessage());

        Files.writeString(pgn, games + games, UTF_8);
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> run(resumed(rs, 4, openings, pgn, null)));
        assertTrue(twice.getMessage().contains("game 3 of the file: round 1 is in the file twice"), twice.getMessage());

        Files.writeString(pgn, games.substring(0, games.lastIndexOf("1. ") + 10), UTF_8);
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
                () -> run(resumed(rs, 4, openings, pgn, null)));
        assertTrue(cut.getMessage().contains("does not read as PGN"), cut.getMessage());

        assertThrows(IllegalArgumentException.class, () -> new Match.Config(rs, koma(rs, "A"), koma(rs, "B"), 2,
                TimeControl.depth(1), 50, 120, 1, openings, null, null, null, "test", null, true));
    }

    /**
     * The SPRT goes on from the resumed games: a match that reached H1 and is resumed with more games decides H1 at
     * once from its file, and plays nothing.
     */
    @Test
    void resumedSprtDecidesFromTheFile(@TempDir Path dir) throws Exception {
        RuleSet rs = RuleSet.of("chess");
        Path pgn = dir.resolve("games.pgn");
        Stats.Sprt sprt = Stats.Sprt.parse("elo0=0,elo1=5");
        Run first = run(new Match.Config(rs, koma(rs, "Koma"), fake("illegal"), 40, TimeControl.depth(1), 50, 100, 1,
                null, pgn, null, sprt, null));
        assertEquals(Stats.Sprt.Decision.H1, first.summary().sprtDecision());
        Run again = run(new Match.Config(rs, koma(rs, "Koma"), fake("illegal"), 60, TimeControl.depth(1), 50, 100, 1,
                null, pgn, null, sprt, null, null, true));
        assertEquals(Stats.Sprt.Decision.H1, again.summary().sprtDecision());
        assertEquals(0, again.summary().games().size(), again.output());
        assertEquals(first.summary().stats(), again.summary().stats());
        assertTrue(again.output().contains("H1 was accepted"), again.output());
    }

    /** Koma-A against Koma-B at depth 1, resumed from {@code pgn}. */
    private static Match.Config resumed(RuleSet rs, int games, List<Opening> openings, Path pgn, Stats.Sprt sprt) {
        return new Match.Config(rs, koma(rs, "Koma-A"), koma(rs, "Koma-B"), games, TimeControl.depth(1), 50, 120, 1,
                openings, pgn, null, sprt, "test", null, true);
    }
}
