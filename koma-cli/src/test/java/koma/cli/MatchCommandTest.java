package koma.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import koma.protocol.match.Match;
import koma.rules.notation.GameRecord;
import koma.rules.notation.Pgn;
import picocli.CommandLine;

/** {@code koma match}: help, argument errors, and a real (tiny) match of Koma against itself. */
class MatchCommandTest {
    /** Koma itself as an engine: {@code java -cp <test class path> koma.cli.Main uci|usi}. */
    static String koma(String protocol) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return String.join(" ", java, "-Xss16m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", cp,
                "koma.cli.Main", protocol);
    }

    @Test
    void help() {
        Cli.Result r = Cli.inProcess("match", "--help");
        assertEquals(0, r.exit());
        assertEquals("", r.err()); // e.g. no picocli warning about a '%' in the description
        assertTrue(r.out().startsWith("Usage: koma match "), r.out());
        for (String s : List.of("--engine1", "--engine2", "--proto1", "--option1", "--games", "--tc", "--byoyomi",
                "--movetime", "--depth", "--nodes", "--concurrency", "--openings", "--random-plies", "--seed", "--pgn",
                "--kif", "--max-plies", "--sprt", "--margin", "--resume")) {
            assertTrue(r.out().contains(s), s + " missing from:\n" + r.out());
        }
    }

    @Test
    void matchOfKomaAgainstItself(@TempDir Path dir) throws Exception {
        Path pgn = dir.resolve("m.pgn");
        Cli.Result r = Cli.inProcess("match", "--variant", "shodo", "--engine1", koma("uci"), "--engine2", koma("uci"),
                "--name1", "One", "--name2", "Two", "--games", "2", "--depth", "1", "--random-plies", "2", "--seed", "5",
                "--pgn", pgn.toString(), "--max-plies", "40");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Random openings: 2 plies, seed 5"), r.out());
        assertTrue(r.out().contains("Finished game 1 (One vs Two)"), r.out());
        assertTrue(r.out().contains("Finished game 2 (Two vs One)"), r.out());
        assertTrue(r.out().matches("(?s).*Score of One vs Two: \\d - \\d - \\d \\[[01]\\.\\d{3}] 2\nElo difference: .*"),
                r.out());
        List<GameRecord> games = Pgn.parseAll(Files.readString(pgn, UTF_8));
        assertEquals(2, games.size());
        for (GameRecord g : games) {
            assertEquals("shodo", g.variant());
            Match.replay(g);
        }
    }

    /** Shogi over USI (the default protocol for shogi) with byoyomi and a KIF record. */
    @Test
    void shogiOverUsi(@TempDir Path dir) throws Exception {
        Path kif = dir.resolve("m.kif");
        Cli.Result r = Cli.inProcess("match", "--variant", "shogi", "--engine1", koma("usi"), "--engine2", koma("usi"),
                "--games", "1", "--byoyomi", "0+0.1", "--margin", "1000", "--kif", kif.toString(), "--max-plies", "10");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains(": 0 - 0 - 1 [0.500] 1\n"), r.out());
        assertTrue(Files.readString(kif, UTF_8).contains("まで10手で持将棋"));
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "--games 2|a time control is required",
        "--games 2 --depth 2 --movetime 100|give only one of",
        "--games 2 --byoyomi 5+1|--byoyomi is for the shogi family",
        "--games 2 --tc 10m|--tc: expected seconds",
        "--games 2 --depth 2 --proto1 usi|USI does not speak chess",
        "--games 2 --depth 2 --proto2 ucci|unknown protocol 'ucci'",
        "--games 2 --depth 2 --option1 Hash|--option1: expected Name=Value",
        "--games 0 --depth 2|--games must be at least 1",
        "--games 2 --depth 2 --sprt elo0=0|elo0 and elo1 are required",
        "--games 2 --depth 2 --concurrency 0|--concurrency must be from 1 to 64",
        "--games 2 --depth 2 --variant xiangqi|xiangqi",
        "--games 2 --depth 2 --random-plies 2 --openings x.txt|either --openings or --random-plies",
        "--games 2 --depth 2 --openings /nonexistent/o.txt|cannot read openings file",
        "--games 2 --depth 2 --kif k.kif|--kif is not written for chess",
        "--games 2 --depth 2 --movetime2 500|--movetime2 gives engine 2's time per move",
        "--games 2 --movetime 100 --movetime2 0|--movetime2 must be positive",
        "--games 2 --nodes 100 --nodes2 50 --movetime2 500|--movetime2 gives engine 2's time per move",
        "--games 2 --depth 2 --resume|--resume continues the match recorded in --pgn: give --pgn",
        "--games 2 --depth 2 --resume --pgn g.pgn --random-plies 4|--resume with --random-plies needs the --seed",
    })
    void badArguments(String args, String message) {
        List<String> argv = new ArrayList<>(List.of("match", "--engine1", "/nonexistent/a", "--engine2", "/nonexistent/b"));
        argv.addAll(List.of(args.split(" ")));
        // in-process with main's exception handler (a child JVM per case would be slow); main itself is run below
        PrintStream oldOut = System.out;
        StringWriter err = new StringWriter();
        int exit;
        try {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, UTF_8));
            CommandLine cli = new CommandLine(new Main());
            cli.setErr(new PrintWriter(err, true));
            cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
                cmd.getErr().println("koma " + cmd.getCommandName() + ": " + e.getMessage());
                return e instanceof IllegalArgumentException ? 2 : 1;
            });
            exit = cli.execute(argv.toArray(String[]::new));
        } finally {
            System.setOut(oldOut);
        }
        assertEquals(2, exit, err.toString());
        assertTrue(err.toString().startsWith("koma match: "), err.toString());
        assertTrue(err.toString().contains(message), err.toString());
    }

    /** The real main: an argument error exits with 2 and one message line. */
    @Test
    void badArgumentThroughMain() {
        Cli.Result r = Cli.process("match", "--engine1", "x", "--engine2", "y", "--games", "2", "--tc", "fast");
        assertEquals(2, r.exit(), r.err());
        assertEquals("koma match: --tc: expected seconds as BASE+INCREMENT such as '10+0.1' or '60', got 'fast'\n", r.err());
    }

    @Test
    void engineThatCannotStart() {
        Cli.Result r = Cli.process("match", "--engine1", "/nonexistent/engine", "--engine2", "/nonexistent/engine",
                "--games", "1", "--depth", "1");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("cannot start engine '/nonexistent/engine'"), r.err());
    }

    @Test
    void missingRequiredOption() {
        Cli.Result r = Cli.process("match", "--engine1", "x", "--games", "1", "--depth", "1");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--engine2"), r.err());
    }
}
