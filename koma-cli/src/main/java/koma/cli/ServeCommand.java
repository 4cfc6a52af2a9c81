package koma.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import koma.server.KomaServer;
import koma.server.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koma serve}: the web app and its API (docs/server-api.md) until the process is stopped. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serves the web app and its HTTP/WebSocket API. Games are stored in SQLite "
                + "(<data>/koma.db) unless --db gives a JDBC URL (jdbc:postgresql://host/db?user=..&password=..)."})
public final class ServeCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8080", description = "TCP port (0 = any free port). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on. Default: ${DEFAULT-VALUE}.")
    String bind;

    @Option(names = "--db", description = "JDBC URL of the database. Default: SQLite file <data>/koma.db.")
    String db;

    @Option(names = "--data", defaultValue = "./data", description = "Data directory. Default: ${DEFAULT-VALUE}.")
    Path data;

    @Option(names = "--rate-limit", defaultValue = "20",
            description = "Requests per second allowed per client address (burst 100); 0 = no limit. Default: ${DEFAULT-VALUE}.")
    double rateLimit;

    @Option(names = "--engine-threads", description = "Threads for computer moves and analysis. Default: half the cores, at least 1.")
    Integer engineThreads;

    @Option(names = "--trusted-proxy", paramLabel = "ADDR|CIDR",
            description = "A reverse proxy whose X-Forwarded-For is believed (repeatable). Default: none.")
    List<String> trustedProxies = new ArrayList<>();

    @Option(names = "--origin", paramLabel = "URL",
            description = "Another origin allowed to change games, e.g. https://koma.example (repeatable). Default: the server's own only.")
    List<String> origins = new ArrayList<>();

    @Option(names = "--max-games", paramLabel = "N", description = "Live games held in memory at once; idle ones are unloaded, beyond it new games get 503. Default: 5000.")
    Integer gamesInMemory;

    @Option(names = "--max-games-per-client", paramLabel = "N", description = "Unfinished games one client (IPv4 address or IPv6 /64) may have created. Default: 20.")
    Integer gamesPerClient;

    @Option(names = "--join-timeout", paramLabel = "DURATION", description = "A friend game nobody joined is aborted after this (e.g. 30m, 24h). Default: 24h.")
    String joinTimeout;

    @Option(names = "--abandon-after", paramLabel = "DURATION", description = "An active game without a running clock in which nobody acted ends after this (aborted before both sides moved, else lost by the side to move). Default: 7d.")
    String abandonAfter;

    @Option(names = "--idle-unload", paramLabel = "DURATION", description = "A game without a running clock, watcher or change leaves memory after this. Default: 10m.")
    String idleUnload;

    @Option(names = "--finished-unload", paramLabel = "DURATION", description = "A finished game leaves memory this long after its last change or load. Default: 1m.")
    String finishedUnload;

    @Option(names = "--feed-queue", paramLabel = "N", description = "Messages queued for one feed connection; a slower reader is disconnected and resyncs. Default: 64.")
    Integer feedQueue;

    @Option(names = "--max-feeds-per-client", paramLabel = "N", description = "Open feed connections per client. Default: 16.")
    Integer feedsPerClient;

    @Option(names = "--max-feeds", paramLabel = "N", description = "Open feed connections in all. Default: 10000.")
    Integer feeds;

    @Option(names = "--analysis-queue", paramLabel = "N", description = "Analyses waiting for an engine thread (one per client); beyond it 503. Default: 16.")
    Integer analysisQueue;

    @Option(names = "--background-queue", paramLabel = "N", description = "Background engine jobs (whole-game analyses, one per position) waiting; beyond it 503. Default: 256.")
    Integer backgroundQueue;

    @Option(names = "--engine-workers", description = "Engine work goes to 'koma worker' processes through a job queue in the PostgreSQL database (--db jdbc:postgresql://... required).")
    boolean engineWorkers;

    @Option(names = "--engine-fallback", paramLabel = "DURATION", defaultValue = "5s",
            description = "With --engine-workers: a computer move no worker has taken after this runs on this node. Default: ${DEFAULT-VALUE}.")
    String engineFallback;

    @Option(names = "--redis", paramLabel = "URI", description = "One of several nodes: redis://HOST:PORT of the Redis the nodes share (pub/sub between them, shared rate limits); needs --db jdbc:postgresql://... (docs/deploy.md, Several nodes).")
    String redis;

    @Option(names = "--node-id", paramLabel = "ID", description = "With --redis: this node's id, 1 to 16 lower-case letters and digits. Default: n + the port.")
    String nodeId;

    @Option(names = "--node-address", paramLabel = "URL", description = "With --redis: the base URL the other nodes reach this node at. Default: http://BIND:PORT (127.0.0.1 when bound to all addresses).")
    String nodeAddress;

    @Option(names = "--lease", paramLabel = "DURATION", defaultValue = "5s", description = "With --redis: a node not heard from for this long is taken for dead and its games are taken over by the others. Default: ${DEFAULT-VALUE}.")
    String lease;

    @Option(names = "--write-queue", paramLabel = "N", description = "Changes waiting for the database writer; beyond it 503. Default: 20000.")
    Integer writeQueue;

    /** The limits: the defaults with every option given. */
    private ServerConfig.Limits limits() {
        ServerConfig.Limits l = ServerConfig.Limits.DEFAULTS;
        Object[][] given = {{"gamesInMemory", gamesInMemory}, {"gamesPerClient", gamesPerClient},
                {"joinTimeout", joinTimeout}, {"abandonAfter", abandonAfter}, {"idleUnload", idleUnload},
                {"finishedUnload", finishedUnload}, {"feedQueue", feedQueue}, {"feedsPerClient", feedsPerClient},
                {"feeds", feeds}, {"analysisQueue", analysisQueue}, {"writeQueue", writeQueue},
                {"backgroundQueue", backgroundQueue}};
        for (Object[] g : given) {
            if (g[1] != null) {
                l = l.with((String) g[0], String.valueOf(g[1]));
            }
        }
        return l;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be from 0 to 65535, got " + port);
        }
        if (rateLimit < 0) {
            throw new IllegalArgumentException("--rate-limit must not be negative, got " + rateLimit);
        }
        int threads = engineThreads == null ? ServerConfig.defaultEngineThreads() : engineThreads;
        if (threads < 1 || threads > 64) {
            throw new IllegalArgumentException("--engine-threads must be from 1 to 64, got " + threads);
        }
        if (engineWorkers && (db == null || !db.startsWith("jdbc:postgresql:"))) {
            throw new IllegalArgumentException("--engine-workers: needs a PostgreSQL database (--db jdbc:postgresql://...)");
        }
        ServerConfig.EngineWorkers workers = engineWorkers
                ? new ServerConfig.EngineWorkers(ServerConfig.Limits.duration(engineFallback)) : null;
        ServerConfig cfg = new ServerConfig(port, bind, db, data, rateLimit, ServerConfig.DEFAULT_BURST, threads,
                limits(), trustedProxies, origins, workers);
        if (redis != null) {
            if (db == null || !db.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("--redis: several nodes need a PostgreSQL database (--db jdbc:postgresql://...)");
            }
            if (port == 0) {
                throw new IllegalArgumentException("--redis: a node needs a fixed --port (the others reach it there)");
            }
            String host = bind.equals("0.0.0.0") || bind.equals("::") ? "127.0.0.1" : bind;
            cfg = cfg.withCluster(new ServerConfig.Cluster(redis, nodeId == null ? "n" + port : nodeId,
                    nodeAddress == null ? "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port : nodeAddress,
                    ServerConfig.Limits.duration(lease).toMillis()));
        } else if (nodeId != null || nodeAddress != null) {
            throw new IllegalArgumentException("--node-id and --node-address: only with --redis");
        }
        KomaServer server = KomaServer.start(cfg);
        System.out.println("Koma serves http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + server.port() + "/");
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        new CountDownLatch(1).await();
        return 0;
    }
}
