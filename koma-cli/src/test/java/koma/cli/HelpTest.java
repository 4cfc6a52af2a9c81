package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** --help, -h and --version on koma and each subcommand: exit 0 and the usage on stdout. */
class HelpTest {

    @ParameterizedTest(name = "koma {0} --help")
    @ValueSource(strings = {"perft", "uci", "usi", "bench", "worker"})
    void subcommandHelp(String sub) {
        for (String flag : new String[]{"--help", "-h"}) {
            Cli.Result r = Cli.inProcess(sub, flag);
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().startsWith("Usage: koma " + sub + " "), r.out());
            assertTrue(r.out().contains("-h, --help"), r.out());
            assertEquals("", r.err());
        }
    }

    @Test
    void topLevelHelpListsEverySubcommand() {
        Cli.Result r = Cli.inProcess("--help");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("Usage: koma "), r.out());
        for (String sub : new String[]{"perft", "uci", "usi", "bench", "worker"}) {
            assertTrue(r.out().contains("\n  " + sub + " "), sub + " missing from:\n" + r.out());
        }
    }

    // With no subcommand, Main.run prints the same usage (to System.out) and succeeds.
    @Test
    void noArgumentsShowsTheUsage() {
        Cli.Result r = Cli.inProcess();
        assertEquals(0, r.exit());
        assertEquals(Cli.inProcess("--help").out(), r.out());
    }

    @Test
    void perftHelpListsTheRuleSets() {
        String out = Cli.inProcess("perft", "--help").out().replaceAll("\\s+", " ");
        assertTrue(out.contains("Rule set: chess, shogi, washogi, washogi-drops, shodo, shodo-deathmatch, minishogi."), out);
    }

    @Test
    void version() {
        Cli.Result r = Cli.inProcess("--version");
        assertEquals(0, r.exit());
        assertEquals("Koma 0.1.0\n", r.out());
    }

    @Test
    void unknownSubcommandFails() {
        Cli.Result r = Cli.inProcess("frobnicate");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("frobnicate"), r.err());
    }
}
