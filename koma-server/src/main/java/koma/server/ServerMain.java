package koma.server;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a server from plain arguments ({@code --port N --bind ADDR --db URL --data DIR --rate-limit R --limit NAME=VALUE
 * --redis URI --node-id ID --lease-ms N --trusted-proxy A
 * --engine-workers-fallback-ms N}); the
 * {@code koma serve} command is the usual way, this entry point serves tests that start a server as a
 * separate process from the class path.
 */
public final class ServerMain {
    private ServerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = 8080;
        String bind = "127.0.0.1", db = null;
        Path data = Path.of("data");
        double rate = ServerConfig.DEFAULT_RATE;
        ServerConfig.Limits limits = ServerConfig.Limits.DEFAULTS;
        String redis = null, nodeId = null;
        java.time.Duration workers = null;
        List<String> proxies = new java.util.ArrayList<>();
        long lease = 5000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--limit" -> {
                    String[] kv = args[i + 1].split("=", 2);
                    limits = limits.with(kv[0], kv.length > 1 ? kv[1] : "");
                }
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--bind" -> bind = args[i + 1];
                case "--db" -> db = args[i + 1];
                case "--data" -> data = Path.of(args[i + 1]);
                case "--rate-limit" -> rate = Double.parseDouble(args[i + 1]);
                case "--redis" -> redis = args[i + 1];
                case "--trusted-proxy" -> proxies.add(args[i + 1]);
                case "--engine-workers-fallback-ms" -> workers = java.time.Duration.ofMillis(Long.parseLong(args[i + 1]));
                case "--node-id" -> nodeId = args[i + 1];
                case "--lease-ms" -> lease = Long.parseLong(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        ServerConfig cfg = new ServerConfig(port, bind, db, data, rate, ServerConfig.DEFAULT_BURST,
                ServerConfig.defaultEngineThreads()).withLimits(limits).withTrustedProxies(proxies);
        if (workers != null) {
            cfg = cfg.withEngineWorkers(new ServerConfig.EngineWorkers(workers));
        }
        if (redis != null) {
            cfg = cfg.withCluster(new ServerConfig.Cluster(redis, nodeId, "http://" + bind + ":" + port, lease));
        }
        KomaServer s = KomaServer.start(cfg);
        System.out.println("listening on port " + s.port());
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(s::close));
        new CountDownLatch(1).await();
    }
}
