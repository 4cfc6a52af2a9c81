package koma.protocol.match;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import koma.protocol.EngineSession;

/**
 * Test-only engine processes for the match tests, started as
 * {@code java -cp <test class path> koma.protocol.match.TestEngineMain MODE}:
 * <ul>
 *   <li>{@code uci}, {@code usi}: Koma itself ({@link EngineSession} on standard input/output);</li>
 *   <li>{@code illegal}: a UCI engine that answers every {@code go} with {@code bestmove a1a1};</li>
 *   <li>{@code hang}: a UCI engine that never answers {@code go} (nor {@code stop});</li>
 *   <li>{@code crash}: a UCI engine that exits when asked to move;</li>
 *   <li>{@code slow}: Koma over UCI that waits {@link #SLOW_MS} before each search and then searches one ply,
 *   whatever its clock: an engine that keeps running over its time by less than the margin.</li>
 * </ul>
 */
public final class TestEngineMain {
    private TestEngineMain() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "uci";
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        switch (mode) {
            case "uci" -> new EngineSession(EngineSession.Dialect.UCI, out).run(in);
            case "usi" -> new EngineSession(EngineSession.Dialect.USI, out).run(in);
            case "xboard" -> new koma.protocol.XBoardSession(out).run(in);
            case "illegal", "hang", "crash" -> fake(mode, in, out);
            case "slow" -> slow(in, out);
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
        out.flush();
    }

    private static void fake(String mode, BufferedReader in, PrintStream out) throws Exception {
        String line;
        while ((line = in.readLine()) != null) {
            String cmd = line.strip().split("\\s+")[0];
            switch (cmd) {
                case "uci" -> {
                    out.println("id name Test-" + mode);
                    out.println("option name UCI_Variant type combo default chess var chess var shogi");
                    out.println("uciok");
                }
                case "isready" -> out.println("readyok");
                case "go" -> {
                    if (mode.equals("illegal")) {
                        out.println("info depth 1 score cp 0");
                        out.println("bestmove a1a1");
                    } else if (mode.equals("crash")) {
                        System.exit(3);
                    }
                }
                case "quit" -> {
                    return;
                }
                default -> {
                }
            }
        }
    }

    /** How long the {@code slow} engine waits before it starts each search. */
    static final long SLOW_MS = 250;

    /** Koma's UCI session fed through a pipe that holds back each {@code go} and turns it into {@code go depth 1}. */
    private static void slow(BufferedReader in, PrintStream out) throws Exception {
        java.io.PipedWriter toSession = new java.io.PipedWriter();
        BufferedReader sessionIn = new BufferedReader(new java.io.PipedReader(toSession, 1 << 16));
        Thread feeder = new Thread(() -> {
            try (toSession) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.strip().startsWith("go")) {
                        Thread.sleep(SLOW_MS);
                        line = "go depth 1";
                    }
                    toSession.write(line + "\n");
                    toSession.flush();
                }
            } catch (Exception e) {
                // the session ends when its input does
            }
        });
        feeder.setDaemon(true);
        feeder.start();
        new EngineSession(EngineSession.Dialect.UCI, out).run(sessionIn);
    }

    /** The command line that starts this class in MODE with the current test class path. */
    static String command(String mode) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> argv = new ArrayList<>(List.of(java, "-Xss16m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", cp, TestEngineMain.class.getName(), mode));
        return String.join(" ", argv);
    }
}
