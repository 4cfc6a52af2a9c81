package koma.server;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An engine worker in a JVM of its own, for the tests that kill one (SIGKILL): {@code main(url, threads, id,
 * leaseMs)} starts an {@link EngineWorker} and says "ready" on stdout; {@link #start} launches it with the test's
 * class path.
 */
final class WorkerProcess {
    private WorkerProcess() {
    }

    public static void main(String[] args) throws InterruptedException {
        EngineWorker w = EngineWorker.start(args[0], Integer.parseInt(args[1]), args[2],
                Duration.ofMillis(Long.parseLong(args[3])));
        Runtime.getRuntime().addShutdownHook(new Thread(w::close)); // as koma worker does: SIGTERM hands jobs back
        System.out.println("ready " + w.id());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Starts a worker process and waits (at most 60 s) until it is ready; its output goes to {@code log}. */
    static Process start(String url, int threads, String id, long leaseMs, Path log) throws Exception {
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(javaBin, "-Xss16m", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), WorkerProcess.class.getName(), url, String.valueOf(threads), id,
                String.valueOf(leaseMs)));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            if (Files.readString(log).contains("ready " + id)) {
                return p;
            }
            if (!p.isAlive()) {
                throw new AssertionError("worker " + id + " exited: " + Files.readString(log));
            }
            Thread.sleep(50);
        }
        p.destroyForcibly();
        throw new AssertionError("worker " + id + " not ready in 60 s: " + Files.readString(log));
    }
}
