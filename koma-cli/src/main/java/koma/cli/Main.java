package koma.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Entry point of the {@code koma} command line. Subcommands are registered in {@link Command#subcommands()}. */
@Command(
    name = "koma",
    mixinStandardHelpOptions = true,
    version = "Koma 0.1.0",
    description = "Koma: play and study chess, shogi, Wa shogi and Shodo",
    subcommands = {ServeCommand.class, PerftCommand.class, ProtocolCommands.Uci.class, ProtocolCommands.Usi.class,
        ProtocolCommands.XBoard.class,
        BenchCommand.class, MatchCommand.class, PlayCommand.class, TuneCommand.class, AccountsCommand.class, BotCommand.class,
        WorkerCommand.class, NnueCommand.class, SpsaCommand.class})
public final class Main implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    // No subcommand given: show the usage.
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    CommandLine cli = new CommandLine(new Main());
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      // bad input (a malformed FEN, an illegal move) gets its message, not a stack trace
      cmd.getErr().println("koma " + cmd.getCommandName() + ": " + e.getMessage());
      return e instanceof IllegalArgumentException ? 2 : 1;
    });
    int exit = cli.execute(args);
    System.exit(exit);
  }
}
