package koma.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import koma.protocol.EngineSession;
import koma.protocol.XBoardSession;
import picocli.CommandLine.Command;

/** The engine-protocol modes: {@code koma uci} and {@code koma usi} read commands from standard input. */
final class ProtocolCommands {
    private ProtocolCommands() {
    }

    static int run(EngineSession.Dialect dialect) throws Exception {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        new EngineSession(dialect, out).run(in);
        out.flush();
        return 0;
    }

    /** UCI for every rule set (chosen with UCI_Variant). */
    @Command(name = "uci", mixinStandardHelpOptions = true,
            description = {"Speaks UCI on standard input/output, for every rule set: choose one with "
                    + "'setoption name UCI_Variant value <chess|shodo|shodo-deathmatch|washogi|washogi-drops|shogi>'."})
    static final class Uci implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return run(EngineSession.Dialect.UCI);
        }
    }

    /** USI for shogi. */
    @Command(name = "usi", mixinStandardHelpOptions = true, description = "Speaks USI (shogi) on standard input/output.")
    static final class Usi implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            return run(EngineSession.Dialect.USI);
        }
    }

    /** XBoard / CECP v2 for every rule set. */
    @Command(name = "xboard", mixinStandardHelpOptions = true,
            description = "Speaks XBoard / CECP v2 on standard input/output, for every rule set ('variant V').")
    static final class XBoard implements Callable<Integer> {
        @Override
        public Integer call() throws Exception {
            PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                    StandardCharsets.UTF_8);
            new XBoardSession(out).run(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            out.flush();
            return 0;
        }
    }
}
