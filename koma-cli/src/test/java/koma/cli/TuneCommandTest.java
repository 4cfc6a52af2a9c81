package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import koma.engine.EvalWeights;
import koma.engine.Evaluation;
import koma.engine.tune.Sample;
import koma.rules.RuleSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code koma tune}: a small run writes its data and a loadable .eval file; bad options are refused by name. */
class TuneCommandTest {
    @Test
    void smallRunWritesDataAndWeights(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data.txt"), out = dir.resolve("shodo.eval");
        Cli.Result r = Cli.inProcess("tune", "-v", "shodo", "--games", "4", "--nodes", "200", "--holdout", "2",
                "--min-count", "5", "--data-out", data.toString(), "-o", out.toString(), "-q");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("4 games"), r.out());
        assertTrue(r.out().contains("wrote " + out), r.out());
        assertTrue(!Sample.read(data).isEmpty());
        Map<String, Integer> w = EvalWeights.read(out);
        // every weight of the rule set is written, and the file builds an evaluation
        RuleSet rs = RuleSet.of("shodo");
        assertEquals(new Evaluation(rs).weights().keySet(), w.keySet());
        assertEquals(w, new Evaluation(rs, w).weights());
        assertTrue(Files.readString(out).startsWith("# Evaluation weights for Shodo, tuned by 'koma tune'"));

        // the same data read back gives the same weights
        Path again = dir.resolve("again.eval");
        r = Cli.inProcess("tune", "-v", "shodo", "--data-in", data.toString(), "--holdout", "2", "--min-count", "5",
                "-o", again.toString(), "-q");
        assertEquals(0, r.exit(), r.err());
        assertEquals(w, EvalWeights.read(again));
    }

    @Test
    void badOptionsAreNamed() {
        Cli.Result r = Cli.process("tune", "-v", "chess", "--games", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("games must be at least 1"), r.err());
        r = Cli.process("tune", "-v", "chess", "--games", "1", "--freeze", "king-hand-danger", "--nodes", "50");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--freeze: no weight 'king-hand-danger'"), r.err());
    }
}
