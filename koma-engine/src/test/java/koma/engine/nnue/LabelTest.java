package koma.engine.nnue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.engine.tune.Sample;
import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;
import koma.rules.notation.GameRecord;
import koma.rules.notation.MoveNotation;

/**
 * {@link Label}: training data from game records. The records are random legal games of minishogi made here (their
 * positions are known by replaying them), so every label can be checked against the game it came from.
 */
class LabelTest {
    @TempDir
    Path tmp;

    private static final RuleSet MINI = RuleSet.of("minishogi");

    /** A game of {@code plies} random legal moves (stopping early if it ends) with the given result. */
    private static GameRecord randomGame(long seed, int plies, String result) {
        Random rng = new Random(seed);
        Position p = Position.start(MINI);
        List<String> moves = new ArrayList<>();
        for (int i = 0; i < plies; i++) {
            int[] legal = p.legalMoves();
            if (legal.length == 0) {
                break;
            }
            int m = legal[rng.nextInt(legal.length)];
            moves.add(MoveNotation.formatUci(p, m));
            p.doMove(m);
        }
        return new GameRecord("minishogi", null, moves, Map.of(), result);
    }

    /** Each position of a game (as FEN) with its side to move. */
    private static Map<String, Integer> positions(GameRecord g) {
        Map<String, Integer> out = new HashMap<>();
        Position p = Position.start(MINI);
        for (String m : g.moves()) {
            out.put(Fen.format(p), p.sideToMove());
            p.doMove(MoveNotation.parseUci(p, m));
        }
        return out;
    }

    private static Label.Settings settings(List<GameRecord> games, Path dir, int skip, int threads) {
        return new Label.Settings(MINI, games, dir, 2, 200, skip, threads, null);
    }

    @Test
    void everyLabelIsAQuietPositionOfItsGameWithTheGamesResultForItsSideToMove() {
        List<GameRecord> games = List.of(randomGame(1, 40, "1-0"), randomGame(2, 40, "0-1"),
                randomGame(3, 40, "1/2-1/2"));
        Label.Settings s = settings(games, tmp, 6, 1);
        int total = 0;
        for (int g = 0; g < games.size(); g++) {
            Map<String, Integer> known = positions(games.get(g));
            double first = g == 0 ? 1 : g == 1 ? 0 : 0.5;
            List<Sample> samples = Label.game(s, g);
            total += samples.size();
            for (Sample x : samples) {
                assertEquals(g, x.game());
                Integer side = known.get(x.fen());
                assertTrue(side != null, "not a position of game " + g + ": " + x.fen());
                assertEquals(side == 0 ? first : 1 - first, x.result(), x.fen());
                assertFalse(Fen.parse(MINI, x.fen()).inCheck(), "kept a position in check: " + x.fen());
                assertTrue(Math.abs(x.score()) < koma.engine.Search.MATE_BOUND, "kept a mate score: " + x);
            }
        }
        // random games are mostly captures and checks: the quiet test keeps some of the 3 x 34 labelled plies, not all
        int labelled = games.stream().mapToInt(g -> Math.max(0, g.moves().size() - 6)).sum();
        assertTrue(total > 0 && total < labelled, total + " positions kept of " + labelled);
        // the first six plies of each game are skipped: the start position is never labelled
        String start = Fen.format(Position.start(MINI));
        for (int g = 0; g < games.size(); g++) {
            assertTrue(Label.game(s, g).stream().noneMatch(x -> x.fen().equals(start)), "game " + g);
        }
    }

    @Test
    void anUnfinishedGameGivesNothingAndSkippingEveryPlyGivesNothing() {
        GameRecord open = randomGame(4, 30, "*");
        assertTrue(Label.game(settings(List.of(open), tmp, 0, 1), 0).isEmpty());
        GameRecord done = randomGame(4, 30, "1-0");
        assertFalse(Label.game(settings(List.of(done), tmp, 0, 1), 0).isEmpty());
        assertTrue(Label.game(settings(List.of(done), tmp, done.moves().size(), 1), 0).isEmpty());
    }

    @Test
    void shardsAreDeterministicWhateverTheThreadsAndResumable() throws Exception {
        List<GameRecord> games = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            games.add(randomGame(10 + i, 30, i % 2 == 0 ? "1-0" : "0-1"));
        }
        Path a = tmp.resolve("a"), b = tmp.resolve("b");
        long n = Label.run(settings(games, a, 0, 1), null);
        assertEquals(3, settings(games, a, 0, 1).shards(), "5 games, 2 a shard");
        assertEquals(n, Label.run(settings(games, b, 0, 2), null));
        long lines = 0;
        for (int k = 0; k < 3; k++) {
            String text = Files.readString(DataGen.shardFile(a, k));
            assertEquals(text, Files.readString(DataGen.shardFile(b, k)), "shard " + k);
            lines += text.lines().count();
        }
        assertEquals(n, lines);
        // shard 2 holds game 5 (index 4) alone
        assertTrue(Sample.read(DataGen.shardFile(a, 2)).stream().allMatch(x -> x.game() == 4));
        assertEquals(0, Label.run(settings(games, a, 0, 1), null), "nothing left to do");
        String second = Files.readString(DataGen.shardFile(a, 1));
        Files.delete(DataGen.shardFile(a, 1));
        assertTrue(Label.run(settings(games, a, 0, 1), null) > 0);
        assertEquals(second, Files.readString(DataGen.shardFile(a, 1)));
    }

    @Test
    void badRecordsAreRefusedWithTheirPlace() {
        GameRecord good = randomGame(20, 10, "1-0");
        List<String> moves = new ArrayList<>(good.moves());
        moves.set(2, "a1a1");
        GameRecord bad = new GameRecord("minishogi", null, moves, Map.of(), "1-0");
        IOException e = assertThrows(IOException.class,
                () -> Label.run(settings(List.of(good, bad), tmp.resolve("bad"), 0, 1), null));
        assertTrue(e.getMessage().contains("game 2, ply 3"), e.getMessage());
        assertFalse(Files.exists(DataGen.shardFile(tmp.resolve("bad"), 0)), "no partial shard left");
        GameRecord chess = new GameRecord("chess", null, List.of("e2e4"), Map.of(), "1-0");
        IllegalArgumentException v = assertThrows(IllegalArgumentException.class,
                () -> settings(List.of(good, chess), tmp, 0, 1));
        assertEquals("game 2 is chess, not minishogi", v.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Label.Settings(MINI, List.of(good), tmp, 0, 200, 0, 1,
                null), "no games per shard");
        assertThrows(IllegalArgumentException.class, () -> new Label.Settings(MINI, List.of(good), tmp, 1, 200, -1, 1,
                null), "negative skip");
    }
}
