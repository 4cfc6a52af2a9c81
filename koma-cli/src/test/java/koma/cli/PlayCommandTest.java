package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code koma play} as a real process fed on standard input: moves, commands, errors and the end of the game. */
class PlayCommandTest {
    @Test
    void aShortGameWithCommands() {
        Cli.Result r = Cli.processWithInput("e2e4\nmoves\nhint\nzz\nundo\nd2d4\nresign\n", "play", "--movetime", "50");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Koma plays "), r.out());
        assertTrue(r.out().contains("Hint: "), r.out());
        assertTrue(r.out().contains("malformed"), r.out());
        assertTrue(r.out().endsWith("Game over: 0-1 (resignation)\n"), r.out());
    }

    @Test
    void shogiAsSecondPlayerWithUsiMoves() {
        Cli.Result r = Cli.processWithInput("fen\nquit\n", "play", "--variant", "shogi", "--color", "second",
                "--movetime", "50");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Koma plays "), r.out());
        assertTrue(r.out().contains(" w - 2\n"), "after Koma's first move it is the second player's turn: " + r.out());
    }

    @Test
    void badOptionsAreRefused() {
        Cli.Result r = Cli.process("play", "--color", "purple");
        assertTrue(r.exit() != 0);
        assertTrue(r.err().contains("--color must be first or second"), r.err());
    }
}
