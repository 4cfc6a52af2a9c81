package koma.server;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@link ServerMain} for tests that need limits it has no option for: the same start, log line and shutdown
 * hook, plus {@code --games-per-client N} (RestartTest's load runs more games from loopback than the default
 * cap of {@link ServerConfig.Limits#DEFAULTS} allows one client).
 */
public final class TestServerMain {
    private TestServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = 8080, gamesPerClient = ServerConfig.Limits.DEFAULTS.gamesPerClient();
        Path data = Path.of("data");
        double rate = ServerConfig.DEFAULT_RATE;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--data" -> data = Path.of(args[i + 1]);
                case "--rate-limit" -> rate = Double.parseDouble(args[i + 1]);
                case "--games-per-client" -> gamesPerClient = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        KomaServer s = KomaServer.start(new ServerConfig(port, "127.0.0.1", null, data, rate,
                ServerConfig.DEFAULT_BURST, ServerConfig.defaultEngineThreads())
                .withLimits(ServerConfig.Limits.DEFAULTS.withGamesPerClient(gamesPerClient)));
        System.out.println("listening on port " + s.port());
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        new CountDownLatch(1).await();
    }
}
