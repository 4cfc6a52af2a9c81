package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code koma nnue train} end to end on a few real self-play games: where its files go, and a warm start from a net
 * of another rule set (Wa shogi's net starting Wa shogi with drops), accepted on the same board and refused by name
 * on another.
 */
class NnueTrainCommandTest {
    @TempDir
    Path tmp;

    /** Two shards of two short self-play games each, searched at a few nodes a move. */
    private Path data(String variant) {
        Path out = tmp.resolve("data-" + variant);
        Cli.Result r = Cli.inProcess("nnue", "gen", "-v", variant, "--out", out.toString(), "--shards", "2",
                "--games-per-shard", "2", "--nodes", "40", "--max-plies", "40", "--seed", "3");
        assertEquals(0, r.exit(), r.err());
        return out;
    }

    @Test
    void trainsAcrossRuleSetsAndNamesItsFiles() throws Exception {
        Path wa = tmp.resolve("nets").resolve("wa.nnue");
        Cli.Result first = Cli.inProcess("nnue", "train", "-v", "washogi", "--data", data("washogi").toString(),
                "--hidden", "8", "--epochs", "1", "--holdout-every", "2", "--out", wa.toString());
        assertEquals(0, first.exit(), first.err());
        // --out wa.nnue: the net is wa.nnue itself, not wa.nnue.nnue (stop 55 tested a net path that did not exist)
        assertTrue(Files.isRegularFile(wa), first.out());
        assertTrue(Files.isRegularFile(tmp.resolve("nets").resolve("wa.ckpt")), first.out());
        assertTrue(Files.isRegularFile(tmp.resolve("nets").resolve("wa.manifest")), first.out());
        assertFalse(Files.exists(tmp.resolve("nets").resolve("wa.nnue.nnue")));
        assertTrue(first.out().contains("wrote " + tmp.resolve("nets").resolve("wa") + ".nnue"), first.out());

        Path drops = tmp.resolve("nets").resolve("wd");
        Cli.Result second = Cli.inProcess("nnue", "train", "-v", "washogi-drops", "--data",
                data("washogi-drops").toString(), "--hidden", "8", "--epochs", "1", "--holdout-every", "2", "--init",
                wa.toString(), "--out", drops.toString());
        assertEquals(0, second.exit(), second.err());
        assertTrue(second.out().contains("started from " + wa), second.out());
        assertTrue(Files.isRegularFile(tmp.resolve("nets").resolve("wd.nnue")), second.out());

        Cli.Result refused = Cli.process("nnue", "train", "-v", "shogi", "--data", data("shogi").toString(),
                "--hidden", "8", "--epochs", "1", "--holdout-every", "2", "--init", wa.toString(), "--out",
                tmp.resolve("nets").resolve("sh").toString());
        assertTrue(refused.exit() != 0, refused.out());
        assertTrue(refused.err().contains("a net for washogi, not shogi") && refused.err().contains("another board"),
                refused.err());
    }

    /**
     * --output-buckets 8 on chess: the manifest names the buckets over chess's 32 pieces, and the net the engine
     * reads back has them; 0 buckets is refused by name.
     */
    @Test
    void trainsOutputBuckets() throws Exception {
        Path data = data("chess"), out = tmp.resolve("ob");
        Cli.Result r = Cli.inProcess("nnue", "train", "-v", "chess", "--data", data.toString(), "--hidden", "8",
                "--epochs", "1", "--holdout-every", "2", "--output-buckets", "8", "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("8 output buckets over 32 pieces"), r.out());
        koma.engine.nnue.Network net = koma.engine.nnue.Network.read(tmp.resolve("ob.nnue"));
        assertEquals(8, net.outputBuckets);
        assertEquals(32, net.bucketPieces);
        Cli.Result refused = Cli.process("nnue", "train", "-v", "chess", "--data", data.toString(), "--hidden", "8",
                "--epochs", "1", "--holdout-every", "2", "--output-buckets", "0", "--out", out.toString());
        assertTrue(refused.exit() != 0, refused.out());
        assertTrue(refused.err().contains("output buckets must be 1..32, got 0"), refused.err());
    }

    /**
     * --king-buckets 2x1 --init PLAIN on chess: the plain net starts the bucketed model, so the loss before training
     * is the plain net's own (printed by both runs on the same held-out shard); the bucketed net is written with the
     * grid, and its manifest says the int16 read-back is not measured instead of printing NaN.
     */
    @Test
    void kingBucketsStartFromThePlainNet() throws Exception {
        Path data = data("chess"), plain = tmp.resolve("plain"), bucketed = tmp.resolve("kb");
        Cli.Result first = Cli.inProcess("nnue", "train", "-v", "chess", "--data", data.toString(), "--hidden", "8",
                "--epochs", "1", "--holdout-every", "2", "--out", plain.toString());
        assertEquals(0, first.exit(), first.err());
        Cli.Result again = Cli.inProcess("nnue", "train", "-v", "chess", "--data", data.toString(), "--hidden", "8",
                "--epochs", "1", "--holdout-every", "2", "--init", plain + ".nnue", "--out",
                tmp.resolve("again").toString());
        Cli.Result second = Cli.inProcess("nnue", "train", "-v", "chess", "--data", data.toString(), "--hidden", "8",
                "--epochs", "1", "--holdout-every", "2", "--king-buckets", "2x1", "--init", plain + ".nnue", "--out",
                bucketed.toString());
        assertEquals(0, again.exit(), again.err());
        assertEquals(0, second.exit(), second.err());
        String before = lineStarting(again.out(), "validation loss before training");
        assertEquals(before, lineStarting(second.out(), "validation loss before training"), second.out());
        assertTrue(second.out().contains("king buckets 2x1"), second.out());
        assertTrue(second.out().contains("the exported int16 net's: not measured with king buckets"), second.out());
        koma.engine.nnue.Network net = koma.engine.nnue.Network.read(tmp.resolve("kb.nnue"));
        assertEquals(2, net.kingFiles);
        assertEquals(1, net.kingRanks);
    }

    /** The first line of {@code out} that starts with {@code prefix}. */
    private static String lineStarting(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no line '" + prefix + "' in:\n" + out));
    }
}
