package koma.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import koma.server.AccountAdmin;
import koma.server.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code koma accounts}: account administration on a server's database (the server may be running). */
@Command(name = "accounts", mixinStandardHelpOptions = true, subcommands = AccountsCommand.Add.class,
        description = "Account administration on a server's database.")
public final class AccountsCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** {@code koma accounts add NAME [--bot]}: creates an account and prints its API token. */
    @Command(name = "add", mixinStandardHelpOptions = true,
            description = {"Creates an account (no password: it acts through the API) and prints its personal API token,"
                    + " for 'Authorization: Bearer <token>'. The token is shown once."})
    static final class Add implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "2 to 20 letters, digits, '-' or '_'.")
        String name;

        @Option(names = "--bot", description = "Mark the account as a bot (shown as BOT; for the bot API).")
        boolean bot;

        @Option(names = "--db", description = "JDBC URL of the server's database. Default: SQLite file <data>/koma.db.")
        String db;

        @Option(names = "--data", defaultValue = "./data", description = "The server's data directory. Default: ${DEFAULT-VALUE}.")
        Path data;

        @Override
        public Integer call() {
            String url = new ServerConfig(0, "127.0.0.1", db, data, 0, 0, 1).jdbcUrl();
            try {
                AccountAdmin.Created c = AccountAdmin.add(url, name, bot);
                System.out.println("account: " + c.name() + (c.bot() ? " (bot)" : ""));
                System.out.println("token: " + c.token());
                return 0;
            } catch (IllegalArgumentException e) {
                System.err.println("koma accounts add: " + e.getMessage());
                return 2;
            }
        }
    }
}
