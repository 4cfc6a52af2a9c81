package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code koma spsa}: a small run writes its state and prints .search lines, resumes from it; bad options named. */
class SpsaCommandTest {
    @Test
    void smallRunWritesStateAndResumes(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("chess.spsa");
        Cli.Result r = Cli.inProcess("spsa", "-v", "chess", "--params", "futility-base,see-quiet", "--iterations", "2",
                "--nodes", "200", "--hash", "1", "--state", state.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("starting: chess, 2 parameters, 2 iterations at 200 nodes a move"), r.out());
        assertTrue(r.out().contains("iteration 2: "), r.out());
        assertTrue(r.out().contains("done 2 iterations"), r.out());
        assertTrue(r.out().matches("(?s).*\nfutility-base = \\d+\nsee-quiet = \\d+\n"), r.out());
        assertTrue(Files.readString(state).contains("\ndone 2\n"), Files.readString(state));

        // a longer schedule resumes after iteration 2 and plays only the third
        r = Cli.inProcess("spsa", "-v", "chess", "--params", "futility-base,see-quiet", "--iterations", "3",
                "--nodes", "200", "--hash", "1", "--state", state.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("resuming after iteration 2"), r.out());
        assertTrue(!r.out().contains("\niteration 2: ") && r.out().contains("\niteration 3: "), r.out());
        assertTrue(Files.readString(state).contains("\ndone 3\n"));
    }

    @Test
    void badOptionsAreNamed(@TempDir Path dir) throws Exception {
        Path state = dir.resolve("s");
        Cli.Result r = Cli.process("spsa", "-v", "chess", "--params", "futility", "--state", state.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--params: no search parameter 'futility'"), r.err());
        r = Cli.process("spsa", "-v", "chess", "--iterations", "0", "--state", state.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("iterations must be at least 1"), r.err());
        Files.writeString(state, "done 1\nwld 0 0 0\naspiration 30\n");
        r = Cli.process("spsa", "-v", "chess", "--params", "see-quiet", "--state", state.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("tunes [aspiration], but this run tunes [see-quiet]"), r.err());
    }
}
