package koma.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

import koma.protocol.match.EngineConfig;
import koma.rules.RuleSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koma bot}: an engine on a Koma server through the bot API (docs/bot-api.md). */
@Command(name = "bot", mixinStandardHelpOptions = true,
        description = {"Connects an engine to a Koma server as a bot account: accepts the challenges that fit, plays"
                + " each game with its clock, reconnects when a stream drops. Make the account with"
                + " 'koma accounts add NAME --bot' (which prints the token)."})
public final class BotCommand implements Callable<Integer> {
    @Option(names = "--server", required = true, description = "The server's base URL, e.g. http://127.0.0.1:8080.")
    String server;

    @Option(names = "--token", description = "The bot account's API token (default: the KOMA_TOKEN environment variable).")
    String token;

    @Option(names = "--engine", description = "The engine command. Default: Koma's own engine (UCI).")
    String engine;

    @Option(names = "--proto", defaultValue = "uci", description = "The engine's protocol: uci, usi or xboard. Default: ${DEFAULT-VALUE}.")
    String proto;

    @Option(names = "--option", description = "An engine option Name=Value (repeatable).")
    List<String> options = new ArrayList<>();

    @Option(names = "--accept", split = ",", description = "Rule sets to accept (comma-separated). Default: all.")
    List<String> accept = new ArrayList<>();

    @Option(names = "--concurrency", defaultValue = "1", description = "Games at once at most. Default: ${DEFAULT-VALUE}.")
    int concurrency;

    @Option(names = "--casual-only", description = "Decline rated challenges.")
    boolean casualOnly;

    @Option(names = "--move-overhead", defaultValue = "500",
            description = "Milliseconds kept back from the engine's clock for the way to the server and back. Default: ${DEFAULT-VALUE}.")
    long moveOverhead;

    @Override
    public Integer call() throws Exception {
        String t = token != null ? token : System.getenv("KOMA_TOKEN");
        if (t == null || t.isBlank()) {
            System.err.println("koma bot: --token: missing (or set KOMA_TOKEN)");
            return 2;
        }
        for (String v : accept) {
            if (!RuleSet.IDS.contains(v)) {
                System.err.println("koma bot: --accept: unknown rule set '" + v + "'; known: " + String.join(", ", RuleSet.IDS));
                return 2;
            }
        }
        if (concurrency < 1 || concurrency > 64) {
            System.err.println("koma bot: --concurrency: from 1 to 64");
            return 2;
        }
        EngineConfig cfg = new EngineConfig(engine != null ? engine : ownEngine(), EngineConfig.Protocol.parse(proto), null,
                EngineConfig.parseOptions("--option", options));
        Set<String> variants = new LinkedHashSet<>(accept);
        try (BotBridge b = new BotBridge(new BotBridge.Settings(server, t, cfg, variants, concurrency, !casualOnly, true,
                Math.max(0, moveOverhead)),
                System.out)) {
            Runtime.getRuntime().addShutdownHook(new Thread(b::close));
            b.run();
        }
        return 0;
    }

    /** Koma's own engine in a child JVM: this Java, this class path, {@code koma uci}. */
    static String ownEngine() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return java + " -cp " + System.getProperty("java.class.path") + " koma.cli.Main uci";
    }
}
