package koma.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * The real XBoard 4.9 GUI (Debian's {@code xboard}) under a private Xvfb display, once per rule set, with
 * {@code koma xboard} as both engines: XBoard is started with the rule set's XBoard name ({@code -variant
 * wa-shogi}), plays one game to a result (a short clock, and XBoard's own draw adjudication after 12 moves) and
 * writes its debug file and its PGN. The test reads them: the board XBoard set up (the {@code FEN} tag of its
 * PGN, which is XBoard's own reading of the {@code setup} command) has the rule set's size, holdings and start
 * position; XBoard refused no move ("Illegal move", "invalid move" in its debug file); the game has a result.
 * For the variants XBoard knows itself (normal, shogi) no {@code setup} may be sent and XBoard's own start is used.
 * Skipped when xboard or Xvfb is missing, except under CI=true, where it fails ({@code .ci/run} installs both).
 */
class XBoardGuiTest {
    static final Path XBOARD = Path.of("/usr/games/xboard");
    static final Path XVFB = Path.of("/usr/bin/Xvfb");
    private static Process xvfb;
    private static int display;

    @BeforeAll
    static void startXvfb() throws Exception {
        boolean present = Files.isExecutable(XBOARD) && Files.isExecutable(XVFB);
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, "CI must install xboard and xvfb (.ci/run)");
        }
        assumeTrue(present, "xboard or Xvfb is not installed");
        for (int d = 90; d < 140 && xvfb == null; d++) {
            if (Files.exists(Path.of("/tmp/.X" + d + "-lock"))) {
                continue;
            }
            Process p = new ProcessBuilder(XVFB.toString(), ":" + d, "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            // Xvfb exits at once when the display is taken; otherwise its socket appears
            for (int i = 0; i < 50 && p.isAlive() && !Files.exists(Path.of("/tmp/.X11-unix/X" + d)); i++) {
                Thread.sleep(100);
            }
            if (p.isAlive()) {
                xvfb = p;
                display = d;
            }
        }
        assertTrue(xvfb != null, "no free X display from :90 to :139 for Xvfb");
    }

    @AfterAll
    static void stopXvfb() {
        if (xvfb != null) {
            xvfb.destroy();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyRuleSetPlaysInXBoard(@TempDir Path dir) {
        List<DynamicTest> tests = new ArrayList<>();
        for (String id : RuleSet.IDS) {
            tests.add(DynamicTest.dynamicTest(id, () -> playOneGame(RuleSet.of(id), dir.resolve(id))));
        }
        return tests.stream();
    }

    private static void playOneGame(RuleSet rs, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path debug = dir.resolve("xboard-debug.txt");
        Path pgn = dir.resolve("game.pgn");
        Path settings = dir.resolve("xboardrc");
        // XBoard keeps an engine command in a 512-byte buffer: the long test class path goes into a script
        Path engineScript = dir.resolve("koma-xboard.sh");
        Files.writeString(engineScript, "#!/bin/sh\nexec " + MatchCommandTest.koma("xboard") + "\n", UTF_8);
        engineScript.toFile().setExecutable(true);
        String engine = engineScript.toString();
        List<String> cmd = List.of(XBOARD.toString(), "-variant", rs.conventions.xboard(),
                "-fcp", engine, "-scp", engine, "-mg", "1", "-mps", "40", "-tc", "0:06",
                "-adjudicateDrawMoves", "12", "-xexit", "-popupMoveErrors", "false",
                "-debug", "-nameOfDebugFile", debug.toString(), "-sgf", pgn.toString(),
                "-settingsFile", settings.toString(), "-saveSettingsFile", settings.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("xboard-out.txt").toFile());
        pb.environment().put("DISPLAY", ":" + display);
        pb.environment().put("HOME", dir.toString()); // XBoard keeps its settings under HOME
        Process p = pb.start();
        boolean done = p.waitFor(90, TimeUnit.SECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        String log = Files.exists(debug) ? Files.readString(debug, UTF_8) : "";
        String out = Files.readString(dir.resolve("xboard-out.txt"), UTF_8);
        assertTrue(done, rs.id + ": XBoard did not finish its one-game match in 90 s; output:\n" + out);
        assertFalse(log.isEmpty(), rs.id + ": no XBoard debug file");
        for (String refusal : List.of("Illegal move", "invalid move", "Engine did not send setup")) {
            assertFalse(log.contains(refusal) || out.contains(refusal), rs.id + ": XBoard says '" + refusal + "':\n"
                    + lines(log + out, refusal));
        }
        String game = Files.readString(pgn, UTF_8);
        Matcher result = Pattern.compile("\\[Result \"(1-0|0-1|1/2-1/2)\"]").matcher(game);
        assertTrue(result.find(), rs.id + ": the game has no result:\n" + game);
        Matcher fenTag = Pattern.compile("\\[FEN \"([^\"]+)\"]").matcher(game);
        if (rs.conventions.xboardNative()) {
            assertFalse(log.contains("<first : setup"), rs.id + ": a variant XBoard knows needs no setup");
            assertFalse(fenTag.find(), rs.id + ": XBoard's own start position expected:\n" + game);
            return;
        }
        // the setup command as Koma sent it: board size and holdings
        int holdings = 0;
        for (var pt : rs.pieces) {
            holdings += rs.drops && !pt.royal() && !pt.promoted() ? 1 : 0;
        }
        String size = rs.geometry.files + "x" + rs.geometry.ranks + "+" + holdings + "_" + rs.conventions.xboardParent();
        assertTrue(log.contains("<first : setup (") && log.contains(") " + size + " "), rs.id + ": no setup with "
                + size + ":\n" + lines(log, "setup"));
        // the board XBoard set up from it, as XBoard writes it in its PGN
        assertTrue(fenTag.find(), rs.id + ": XBoard's PGN has no FEN tag for the set-up board:\n" + game);
        String xb = fenTag.group(1);
        String placement = xb.split(" ")[0];
        String expected = Fen.formatFen(Position.start(rs)).split(" ")[0];
        assertEquals(boardOf(expected), boardOf(placement), rs.id + ": XBoard's start position " + xb);
        assertEquals(rs.geometry.ranks, boardOf(placement).split("/").length, rs.id + ": ranks in " + xb);
        assertEquals(rs.drops, placement.contains("["), rs.id + ": holdings in XBoard's FEN " + xb);
        assertTrue(game.contains("[Variant \"" + rs.conventions.xboard() + "\"]"), rs.id + ": variant tag:\n" + game);
    }

    /** The placement field without the holdings part ({@code KGSBR[-]} gives {@code KGSBR}). */
    private static String boardOf(String placement) {
        int b = placement.indexOf('[');
        return b < 0 ? placement : placement.substring(0, b);
    }

    private static String lines(String text, String containing) {
        StringBuilder sb = new StringBuilder();
        for (String l : text.split("\n")) {
            if (l.contains(containing)) {
                sb.append(l).append('\n');
            }
        }
        return sb.toString();
    }
}
