package koma.engine.nnue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import koma.engine.Evaluation;
import koma.engine.tune.SelfPlay;
import koma.rules.Position;
import koma.rules.RuleSet;

/** {@code nnue expand}: quiet successors of self-play positions, repeatable, resumable, never of held-out shards. */
class ExpandTest {
    @TempDir
    Path dir;

    private static final RuleSet RS = RuleSet.of("minishogi");

    /** Three shards of minishogi self-play (three games each, 300 nodes a move, seed 5) in {@code dir/data}. */
    private Path data() throws Exception {
        Path data = dir.resolve("data");
        DataGen.run(new DataGen.Settings(RS, data, 0, 3, 3, 300, 4, 120, 5, 2, SelfPlay.HAND_WRITTEN), null);
        return data;
    }

    private static Expand.Settings settings(Path in, Path out, int threads, int holdoutEvery) {
        return new Expand.Settings(RS, in, out, 2, 60, 7, threads, holdoutEvery);
    }

    /**
     * Every written position is legal, quiet (the hand-written evaluation within the 60 cp margin of its score), of
     * a game of the shard it came from, with that game's result seen from its side to move; shard 2, which the
     * trainer holds out with --holdout-every 3, is not expanded; with 0 it is.
     */
    @Test
    void writesQuietSuccessorsOfTheTrainingShardsOnly() throws Exception {
        Path data = data(), out = dir.resolve("out");
        long n = Expand.run(settings(data, out, 1, 3), null);
        assertTrue(n > 20, n + " positions");
        assertTrue(Files.exists(out.resolve("shard-00000.txt")) && Files.exists(out.resolve("shard-00001.txt")));
        assertFalse(Files.exists(out.resolve("shard-00002.txt")), "the held-out shard is not expanded");
        Evaluation eval = new Evaluation(RS);
        long lines = 0;
        for (String shard : List.of("shard-00000.txt", "shard-00001.txt")) {
            Set<String> games = new HashSet<>();
            for (String line : Files.readAllLines(data.resolve(shard))) {
                games.add(line.split(" ")[0]);
            }
            for (String line : Files.readAllLines(out.resolve(shard))) {
                String[] f = line.split(" ", 4);
                assertTrue(games.contains(f[0]), "game " + f[0] + " is one of " + shard);
                double result = Double.parseDouble(f[1]);
                assertTrue(result == 0 || result == 0.5 || result == 1, line);
                Position p = Position.fromFen(RS, f[3]);
                assertFalse(p.inCheck(), line);
                assertTrue(Math.abs(Integer.parseInt(f[2]) - eval.evaluate(p)) <= 60, line);
                lines++;
            }
        }
        assertEquals(n, lines);
        Path all = dir.resolve("all");
        Expand.run(settings(data, all, 1, 0), null);
        assertTrue(Files.exists(all.resolve("shard-00002.txt")), "--holdout-every 0 expands every shard");
        assertThrows(IllegalArgumentException.class, () -> settings(data, all, 1, 1));
    }

    /**
     * The same settings give the same files whatever the thread count; a second run writes nothing; a lost shard is
     * written again identical.
     */
    @Test
    void isRepeatableAndResumable() throws Exception {
        Path data = data(), a = dir.resolve("a"), b = dir.resolve("b");
        Expand.run(settings(data, a, 1, 0), null);
        Expand.run(settings(data, b, 2, 0), null);
        for (int k = 0; k < 3; k++) {
            Path f = DataGen.shardFile(a, k);
            assertEquals(Files.readString(f), Files.readString(DataGen.shardFile(b, k)));
        }
        assertEquals(0, Expand.run(settings(data, a, 1, 0), null));
        String second = Files.readString(DataGen.shardFile(a, 1));
        Files.delete(DataGen.shardFile(a, 1));
        assertTrue(Expand.run(settings(data, a, 1, 0), null) > 0);
        assertEquals(second, Files.readString(DataGen.shardFile(a, 1)));
    }
}
