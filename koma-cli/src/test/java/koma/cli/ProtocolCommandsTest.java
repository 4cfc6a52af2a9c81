package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code koma uci} and {@code koma usi} as real processes fed on standard input. They write to the stdout file
 * descriptor directly (not System.out), so they cannot be captured in-process.
 */
class ProtocolCommandsTest {

    @Test
    void uciOverStandardIo() {
        Cli.Result r = Cli.processWithInput("uci\nisready\nsetoption name UCI_Variant value shodo\ngo perft 2\nquit\nisready\n", "uci");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("id name Koma 0.1.0\nid author the Koma developers\noption name Hash type spin default 16 min 1 max 4096\n"), r.out());
        assertTrue(r.out().contains("\noption name UCI_Variant type combo default chess "), r.out());
        assertTrue(r.out().contains("\nuciok\nreadyok\n"), r.out());
        // shodo perft 2 = 1296 (Fairy-Stockfish with shodo.ini); nothing after quit
        assertTrue(r.out().endsWith("\n\nNodes searched: 1296\n"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void usiOverStandardIoEndsAtEndOfInput() {
        Cli.Result r = Cli.processWithInput("usi\nposition startpos moves 7g7f\ngo perft 1\nbogus\nisready", "usi");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("id name Koma 0.1.0\nid author the Koma developers\noption name USI_Hash type spin default 16 min 1 max 4096\n"), r.out());
        assertTrue(r.out().contains("\nusiok\n"), r.out());
        assertTrue(r.out().contains("3c3d: 1\n"), r.out());
        assertTrue(r.out().endsWith("\nNodes searched: 30\ninfo string error: unknown command 'bogus'\nreadyok\n"), r.out());
    }
}
