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
    subcommands = {})
public final class Main implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    // No subcommand given: show the usage.
    spec.commandLine().usage(System.out);
  }

  public static void main(String[] args) {
    int exit = new CommandLine(new Main()).execute(args);
    System.exit(exit);
  }
}
