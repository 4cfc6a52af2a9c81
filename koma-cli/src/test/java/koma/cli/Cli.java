package koma.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import picocli.CommandLine;

/**
 * Test helper running the koma command line two ways: in-process (picocli on a new Main, stdout/stderr captured,
 * for the normal paths), and as a child JVM running the real {@link Main#main} on the test class path (for exit
 * codes and error messages, which come from the exception handler set up inside main).
 */
final class Cli {
    private Cli() {
    }

    /** What a run printed and returned. Line ends are normalised to '\n'. */
    record Result(int exit, String out, String err) {
    }

    /**
     * In-process: {@code new CommandLine(new Main()).execute(args)}. Commands print with System.out/err and picocli
     * with its own writers; both are captured. No execution-exception handler is installed (main's lives in main),
     * so use {@link #process} for runs that are meant to fail inside a command.
     */
    static synchronized Result inProcess(String... args) {
        PrintStream oldOut = System.out, oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        PrintStream pOut = new PrintStream(out, true, UTF_8), pErr = new PrintStream(err, true, UTF_8);
        int exit;
        try {
            System.setOut(pOut);
            System.setErr(pErr);
            CommandLine cli = new CommandLine(new Main());
            cli.setOut(new PrintWriter(pOut, true));
            cli.setErr(new PrintWriter(pErr, true));
            exit = cli.execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        pOut.flush();
        pErr.flush();
        return new Result(exit, norm(out.toString(UTF_8)), norm(err.toString(UTF_8)));
    }

    /** A child JVM running {@code koma.cli.Main} with {@code args} and {@code stdin} as its standard input. */
    static Result processWithInput(String stdin, String... args) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xss16m", "-cp", System.getProperty("java.class.path"),
                "koma.cli.Main"));
        cmd.addAll(List.of(args));
        try {
            Path in = Files.createTempFile("koma-cli-in", ".txt");
            Path out = Files.createTempFile("koma-cli-out", ".txt");
            Path err = Files.createTempFile("koma-cli-err", ".txt");
            try {
                Files.writeString(in, stdin, UTF_8);
                Process p = new ProcessBuilder(cmd).redirectInput(in.toFile()).redirectOutput(out.toFile())
                        .redirectError(err.toFile()).start();
                boolean done = p.waitFor(120, TimeUnit.SECONDS);
                if (!done) {
                    p.destroyForcibly();
                }
                assertTrue(done, "koma " + String.join(" ", args) + " did not finish");
                return new Result(p.exitValue(), norm(Files.readString(out, UTF_8)), norm(Files.readString(err, UTF_8)));
            } finally {
                Files.deleteIfExists(in);
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Result process(String... args) {
        return processWithInput("", args);
    }

    private static String norm(String s) {
        return s.replace("\r\n", "\n");
    }
}
