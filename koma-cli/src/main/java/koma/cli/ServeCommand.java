package koma.cli;

import java.nio.file.Path;
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
        KomaServer server = KomaServer.start(new ServerConfig(port, bind, db, data, rateLimit,
                ServerConfig.DEFAULT_BURST, threads));
        System.out.println("Koma serves http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + server.port() + "/");
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        new CountDownLatch(1).await();
        return 0;
    }
}
