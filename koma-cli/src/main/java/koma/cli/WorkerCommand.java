package koma.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import koma.server.EngineWorker;
import koma.server.ServerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code koma worker}: runs the engine jobs of nodes started with {@code koma serve --engine-workers}. */
@Command(name = "worker", mixinStandardHelpOptions = true,
        description = {"Runs engine jobs (the computer's moves, analyses) from the shared queue of nodes started with "
                + "'koma serve --db jdbc:postgresql://... --engine-workers' (docs/deploy.md, Engine workers)."})
public final class WorkerCommand implements Callable<Integer> {
    @Option(names = "--db", required = true, paramLabel = "JDBC_URL",
            description = "The nodes' PostgreSQL database, e.g. jdbc:postgresql://host/koma?user=u&password=p.")
    String db;

    @Option(names = "--threads", paramLabel = "N", description = "Engine threads (jobs at once). Default: the cores.")
    Integer threads;

    @Option(names = "--id", paramLabel = "ID", description = "This worker's name in the jobs it claims. Default: host-pid.")
    String id;

    @Option(names = "--lease", paramLabel = "DURATION", defaultValue = "10s",
            description = "A claim's lease, renewed every third of it; a job whose worker died is taken over after it. Default: ${DEFAULT-VALUE}.")
    String lease;

    @Override
    public Integer call() throws InterruptedException {
        int n = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        Duration l = ServerConfig.Limits.duration(lease);
        EngineWorker w = EngineWorker.start(db, n, id, l);
        System.out.println("Koma engine worker " + w.id() + ": " + n + " threads, lease " + l.toMillis() + " ms");
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(w::close));
        new CountDownLatch(1).await();
        return 0;
    }
}
