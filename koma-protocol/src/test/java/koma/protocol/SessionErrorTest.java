package koma.protocol;

import static koma.protocol.Transcript.fields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import koma.protocol.EngineSession.Dialect;

/**
 * Bad input to EngineSession: every error is one {@code info string error: } line, the session keeps its state
 * (checked with {@code d}) and keeps answering {@code isready}; plus line length, end of input and {@code quit}.
 */
class SessionErrorTest {
    private static final String PREFIX = "info string error: ";

    /**
     * Runs {@code lines} then {@code isready}; the output must be exactly one error line and {@code readyok}.
     * Returns the error message (after the prefix).
     */
    private static String singleError(Dialect dialect, String... lines) {
        List<String> input = new ArrayList<>(Arrays.asList(lines));
        input.add("isready");
        String out = Transcript.of(dialect, input.toArray(String[]::new));
        String[] outLines = out.split("\n", -1);
        assertEquals(3, outLines.length, "expected one error line then readyok, got:\n" + out);
        assertTrue(outLines[0].startsWith(PREFIX), outLines[0]);
        assertEquals("readyok", outLines[1]);
        assertEquals("", outLines[2]);
        return outLines[0].substring(PREFIX.length());
    }

    /** The FEN/SFEN shown by {@code d} before and after {@code bad}: it must not change. */
    private static void assertPositionKept(Dialect dialect, String setup, String bad) {
        String prefix = dialect == Dialect.USI ? "Sfen: " : "Fen: ";
        String out = Transcript.of(dialect, setup, "d", bad, "d", "isready");
        List<String> shown = fields(out, prefix);
        assertEquals(2, shown.size(), out);
        assertEquals(shown.get(0), shown.get(1), "the position changed after: " + bad);
        assertEquals(1, out.lines().filter(l -> l.startsWith(PREFIX)).count(), out);
        assertTrue(out.endsWith("readyok\n"));
    }

    /** Contempt takes centipawns from -500 to 500 and names the range otherwise; a good value is taken silently. */
    @Test
    void contemptRange() {
        assertEquals("setoption Contempt: expected a number from -500 to 500, got '501'",
                singleError(Dialect.UCI, "setoption name Contempt value 501"));
        assertEquals("setoption Contempt: expected a number from -500 to 500, got 'high'",
                singleError(Dialect.USI, "setoption name Contempt value high"));
        String out = Transcript.uci("setoption name Contempt value -40", "position startpos", "go depth 2");
        assertTrue(out.contains("bestmove ") && !out.contains("error"), out);
    }

    /** A net file that is not there is refused when chosen; Use NNUE takes only true or false. */
    @Test
    void evalFileAndUseNnue() {
        assertEquals("EvalFile: no readable file /nonexistent/koma.nnue",
                singleError(Dialect.UCI, "setoption name EvalFile value /nonexistent/koma.nnue"));
        assertEquals("setoption Use NNUE: expected true or false, got 'yes'",
                singleError(Dialect.UCI, "setoption name Use NNUE value yes"));
    }

    /**
     * A net made for another rule set (a chess net while shogi is played) is reported at the search, which goes on
     * with the built-in evaluation and answers a move.
     */
    @Test
    void evalFileForAnotherRuleSet() throws Exception {
        java.nio.file.Path net = java.nio.file.Files.createTempFile("koma-chess", ".nnue");
        try {
            koma.engine.nnue.Trainer t = new koma.engine.nnue.Trainer(koma.rules.RuleSet.of("chess"),
                    new koma.engine.nnue.Trainer.Settings(8, 1, 1, 0, 1, 0, 2, 1, 1));
            t.quantise().write(net);
            String out = Transcript.of(Dialect.USI, "setoption name EvalFile value " + net, "position startpos",
                    "go depth 1", "isready");
            assertTrue(out.contains("info string EvalFile: " + net + ": a net for chess, not shogi; using the built-in"
                    + " evaluation"), out);
            assertTrue(out.contains("bestmove "), out);
        } finally {
            java.nio.file.Files.delete(net);
        }
    }

    @Test
    void unknownCommand() {
        assertEquals("unknown command 'foo'", singleError(Dialect.UCI, "foo bar"));
        assertEquals("unknown command 'ISREADY'", singleError(Dialect.USI, "ISREADY"));
    }

    // Malformed position commands: the message names the problem (a FEN field, the bad word) in its text.
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "position | startpos",
        "position bogus | bogus",
        "position startpos extra | extra",
        "position fen | missing",
        "position sfen | missing",
        "position fen 8/8 w | board",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1 | side to move",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1 | 'Z'",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1 | en passant",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1 | king",
        "position fen 4k3/8/8/8/8/8/8/4R2K w - - 0 1 | check",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra | extra",
    })
    void malformedPosition(String command, String mentioned) {
        String message = singleError(Dialect.UCI, command);
        assertTrue(message.contains(mentioned), message);
        assertPositionKept(Dialect.UCI, "position startpos moves d2d4", command);
    }

    @Test
    void overlongFen() {
        String command = "position fen " + "8/".repeat(600) + "8 w - - 0 1";
        assertTrue(singleError(Dialect.UCI, command).contains("1000"));
        assertPositionKept(Dialect.UCI, "position startpos moves d2d4", command);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 99P 1 | hand",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1 | side to move",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN+ b - 1 | '+'",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0 | move number",
    })
    void malformedSfen(String command, String mentioned) {
        String message = singleError(Dialect.USI, command);
        assertTrue(message.contains(mentioned), message);
        assertPositionKept(Dialect.USI, "position startpos moves 7g7f", command);
    }

    // A chess rank holds 8 squares: a ninth pawn must be refused, not silently dropped (regression: it was dropped).
    @Test
    void fenRankWithTooManyPiecesIsRejected() {
        String command = "position fen rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        String message = singleError(Dialect.UCI, command);
        assertTrue(message.contains("board"), message);
        assertPositionKept(Dialect.UCI, "position startpos moves d2d4", command);
    }

    // An illegal or malformed move anywhere in the list rejects the whole command; the previous position stays.
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "position startpos moves e2e4 e7e5 e2e4 | e2e4",
        "position startpos moves e7e5 | e7e5",
        "position startpos moves zz | zz",
        "position startpos moves e2e4 e7e5 g1f3 e8e7 e1e2 e7e8 e2e1 e8e9 | e8e9",
        // a pawn reaching the last rank must name its piece; a king is not a promotion choice
        "position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8 | a7a8",
        "position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8k | a7a8k",
    })
    void illegalMoveInPositionCommand(String command, String move) {
        String message = singleError(Dialect.UCI, command);
        assertTrue(message.contains("'" + move + "'"), message);
        assertPositionKept(Dialect.UCI, "position startpos moves d2d4 d7d5", command);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "position startpos moves 7g7f 7g7f",
        "position startpos moves P*5e",
        "position startpos moves 7g7f+",
        "position startpos moves c3c4",
    })
    void illegalMoveInUsiPositionCommand(String command) {
        assertTrue(singleError(Dialect.USI, command).contains("move '"));
        assertPositionKept(Dialect.USI, "position startpos moves 2g2f", command);
    }

    @Test
    void unknownRuleSetListsTheSixAndKeepsTheCurrentOne() {
        String message = singleError(Dialect.UCI, "setoption name UCI_Variant value xiangqi");
        assertTrue(message.contains("'xiangqi'"), message);
        for (String id : List.of("chess", "shogi", "washogi", "washogi-drops", "shodo", "shodo-deathmatch")) {
            assertTrue(message.contains(id), id + " missing from: " + message);
        }
        // the rule set and the position after the failed setoption are those from before it
        String out = Transcript.uci("setoption name UCI_Variant value shodo", "position startpos moves b1c3",
                "setoption name UCI_Variant value xiangqi", "d");
        assertEquals("nnnqknnn/nnnnnnnn/8/8/8/2N5/NNNNNNNN/N1NQKNNN b - - 1 1", Transcript.field(out, "Fen: "));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "setoption name UCI_Variant value Chess",
        "setoption name UCI_Variant value",
        "setoption name UCI_Variant",
        "setoption UCI_Variant value chess",
        "setoption",
        "setoption name Hash value 0",
        "setoption name Threads value 0",
        "setoption name Threads value many",
    })
    void badSetoption(String command) {
        singleError(Dialect.UCI, command);
        assertPositionKept(Dialect.UCI, "position startpos moves e2e4", command);
    }

    @Test
    void usiRefusesOtherRuleSets() {
        String message = singleError(Dialect.USI, "setoption name UCI_Variant value chess");
        assertTrue(message.contains("chess"), message);
        assertPositionKept(Dialect.USI, "position startpos moves 7g7f", "setoption name UCI_Variant value chess");
    }

    @ParameterizedTest(name = "''{0}''")
    @ValueSource(strings = {"go perft", "go perft 0", "go perft -1", "go perft abc", "go perft 100", "go perft 2 3",
        "go perft 1.5"})
    void goPerftWithBadDepth(String command) {
        assertEquals("go perft: expected a depth from 1 to 99", singleError(Dialect.UCI, command));
        assertEquals("go perft: expected a depth from 1 to 99", singleError(Dialect.USI, command));
    }

    // 'go' searches: info lines, then a legal best move, in each dialect; the session still answers isready.
    @Test
    void goSearchesAndAnswersWithALegalMove() {
        String uci = Transcript.uci("go depth 3", "isready");
        assertTrue(uci.contains("info depth 3 "), uci);
        String best = uci.lines().filter(l -> l.startsWith("bestmove ")).findFirst().orElseThrow().split(" ")[1];
        koma.rules.Position start = koma.rules.Position.start(koma.rules.RuleSet.of("chess"));
        koma.rules.notation.MoveNotation.parseUci(start, best);
        assertTrue(uci.contains("readyok"), uci);
        String usi = Transcript.usi("go btime 1000 wtime 1000 byoyomi 100", "isready");
        String usiBest = usi.lines().filter(l -> l.startsWith("bestmove ")).findFirst().orElseThrow().split(" ")[1];
        koma.rules.notation.MoveNotation.parseUsi(koma.rules.Position.start(koma.rules.RuleSet.of("shogi")), usiBest);
    }

    // Threads 2 (Lazy SMP): the search still reaches the depth asked and answers a legal move; isready follows
    @Test
    void twoThreadsSearchAndAnswer() {
        String uci = Transcript.uci("setoption name Threads value 2", "position startpos moves e2e4", "go depth 5",
                "isready");
        assertTrue(uci.contains("info depth 5 "), uci);
        String best = uci.lines().filter(l -> l.startsWith("bestmove ")).findFirst().orElseThrow().split(" ")[1];
        koma.rules.Position p = koma.rules.Position.start(koma.rules.RuleSet.of("chess"));
        p.doMove(koma.rules.notation.MoveNotation.parseUci(p, "e2e4"));
        koma.rules.notation.MoveNotation.parseUci(p, best);
        assertTrue(uci.contains("readyok"), uci);
    }

    // A bad 'go' parameter is refused with a message naming it, and no search starts.
    @Test
    void goWithABadParameterIsRefused() {
        String out = Transcript.uci("go depth x", "go wibble 5", "isready");
        assertTrue(out.contains("go depth: expected a number, got 'x'"), out);
        assertTrue(out.contains("go: unknown parameter 'wibble'"), out);
        assertTrue(!out.contains("bestmove"), out);
    }

    @Test
    void overlongLineIsRefusedAndTheSessionGoesOn() {
        String input = "x".repeat(EngineSession.MAX_LINE + 1) + "\nisready\n";
        assertEquals(PREFIX + "line longer than " + EngineSession.MAX_LINE + " characters ignored\nreadyok\n",
                Transcript.raw(Dialect.UCI, input));
    }

    // A valid command made too long by padding is refused whole: the position does not change.
    @Test
    void overlongPositionCommandIsNotApplied() {
        String input = "position startpos moves e2e4" + " ".repeat(EngineSession.MAX_LINE) + "\nd\n";
        String out = Transcript.raw(Dialect.UCI, input);
        assertTrue(out.startsWith(PREFIX + "line longer than"), out);
        assertEquals("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Transcript.field(out, "Fen: "));
    }

    // Exactly MAX_LINE characters is still accepted (the limit is inclusive).
    @Test
    void lineOfExactlyMaxLengthIsAccepted() {
        String line = "isready" + " ".repeat(EngineSession.MAX_LINE - "isready".length());
        assertEquals("readyok\n", Transcript.raw(Dialect.UCI, line + "\n"));
    }

    @Test
    void overlongLastLineWithoutNewline() {
        assertEquals("readyok\n" + PREFIX + "line longer than " + EngineSession.MAX_LINE + " characters ignored\n",
                Transcript.raw(Dialect.UCI, "isready\n" + "y".repeat(EngineSession.MAX_LINE + 5)));
    }

    // End of input ends the session without quit; a last line without a line break still counts, CRLF is fine.
    @Test
    void endOfInputWithoutQuit() {
        assertEquals("", Transcript.raw(Dialect.UCI, ""));
        assertEquals("readyok\nreadyok\n", Transcript.raw(Dialect.UCI, "isready\r\nisready"));
        assertEquals("readyok\n", Transcript.raw(Dialect.USI, "\n\nisready\n\n"));
    }

    @Test
    void quitStopsReading() {
        assertEquals("readyok\n", Transcript.uci("isready", "quit", "isready", "uci"));
        assertEquals("readyok\n", Transcript.usi("isready", "quit", "isready"));
    }

    // After a run of different errors the session still works normally.
    @Test
    void manyErrorsThenNormalWork() {
        String out = Transcript.uci("foo", "position bogus", "go perft 0", "setoption name UCI_Variant value x",
                "position startpos moves e2e5", "x".repeat(3000), "position startpos moves e2e4", "go perft 1", "isready");
        List<String> lines = out.lines().toList();
        assertEquals(6, lines.stream().filter(l -> l.startsWith(PREFIX)).count(), out);
        assertTrue(out.endsWith("\nNodes searched: 20\nreadyok\n"), out);
    }
}
