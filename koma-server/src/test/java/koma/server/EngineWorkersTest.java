package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.Fen;

/**
 * Engine work on workers (issue 14, item 3), on a real PostgreSQL: a worker alone serves the computer's moves and the
 * analyses of two nodes that run no engine work themselves; a worker killed with SIGKILL mid-job (a JVM of its own)
 * loses the job to another worker when its lease runs out; with every worker down a live game's computer move is
 * played by its node after the fallback wait; the shared queue's bounds refuse with 429 and 503.
 */
class EngineWorkersTest {
    private static final String CHESS = Fen.format(Position.start(RuleSet.of("chess")));

    @TempDir
    Path dir;
    private String url;
    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    @BeforeEach
    void database() throws Exception {
        url = PgCluster.urlOrSkip();
    }

    @AfterEach
    void stop() throws Exception {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    /** A node whose engine work goes to the workers; a computer move waits {@code fallback} for one. */
    private KomaServer node(String name, Duration fallback, ServerConfig.Limits limits) throws Exception {
        Path data = Files.createDirectories(dir.resolve(name));
        KomaServer s = KomaServer.start(new ServerConfig(0, "127.0.0.1", url, data, 0, 100, 1, limits, List.of(),
                List.of()).withEngineWorkers(new ServerConfig.EngineWorkers(fallback)));
        open.add(s);
        return s;
    }

    private EngineWorker worker(String id, long leaseMs) {
        EngineWorker w = EngineWorker.start(url, 1, id, Duration.ofMillis(leaseMs));
        open.add(w);
        return w;
    }

    private static RemoteEngines remote(KomaServer s) {
        return s.games().engines().remote();
    }

    @Test
    void oneWorkerServesTheComputerAndAnalysesOfTwoNodes() throws Exception {
        // the fallback wait is long: a computer move in this test can only come from the worker
        KomaServer a = node("a", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        KomaServer b = node("b", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        EngineWorker w = worker("solo", 10_000);
        List<String> games = new ArrayList<>();
        for (KomaServer s : List.of(a, b)) {
            TestClient c = new TestClient(s.port(), null);
            // the computer plays first: its move arrives without a human move
            String id = c.create("{\"variant\":\"chess\",\"mode\":\"computer\",\"color\":\"second\",\"level\":0}")
                    .get("id").asText();
            games.add(id);
            JsonNode moved = c.waitFor(id, n -> n.get("ply").asInt() == 1, 30_000);
            String reply = moved.get("legalMoves").get(0).asText();
            c.move(id, reply, 1);
            c.waitFor(id, n -> n.get("ply").asInt() == 3, 30_000);
            Api.Answer an = c.get("/api/games/" + id + "/analysis");
            assertEquals(200, an.status(), an.text());
            assertTrue(an.json().get("depth").asInt() >= 1, an.text());
            assertTrue(an.json().get("pv").size() >= 1, an.text());
            assertEquals(0, remote(s).fallbacks(), "no computer move ran on the node");
            assertEquals(3, remote(s).answered(), "two computer moves and one analysis through the queue");
        }
        awaitCount(6, w::served, "the worker answered both nodes' jobs");
        assertEquals(0, w.failed());
        try (Connection c = DriverManager.getConnection(url); var st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM engine_jobs")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "each node deleted the rows it read");
        }
    }

    @Test
    void workersTakeJobsByPriorityThenAgeAndEachJobOnce() throws Exception {
        KomaServer a = node("a", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        EngineQueue q = a.games().engines();
        // queued while no worker runs: background first, then an analysis, then a computer move
        List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<EngineResult>> all = new ArrayList<>();
        EngineJob job = EngineJob.analysis("chess", CHESS, List.of(), 50, 2, 1);
        for (int i = 0; i < 3; i++) {
            int k = i;
            all.add(q.submit(job, EngineQueue.Priority.BACKGROUND, "x").whenComplete((r, e) -> order.add("b" + k)));
            Thread.sleep(5); // distinct creation times
        }
        all.add(q.submit(job, EngineQueue.Priority.ANALYSIS, "x").whenComplete((r, e) -> order.add("a")));
        all.add(q.submit(EngineJob.move("chess", CHESS, List.of(), 0, 50, 1), EngineQueue.Priority.COMPUTER, "game:1")
                .whenComplete((r, e) -> order.add("c")));
        EngineWorker one = worker("one", 10_000); // one thread: the jobs run one after the other, in claim order
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
        assertEquals(List.of("c", "a", "b0", "b1", "b2"), order);
        // two workers of two threads each on 40 jobs queued at once: every job answered, each by one claim
        EngineWorker two = EngineWorker.start(url, 2, "two", Duration.ofSeconds(10));
        EngineWorker three = EngineWorker.start(url, 2, "three", Duration.ofSeconds(10));
        open.add(two);
        open.add(three);
        awaitCount(5, one::served, "the first five jobs");
        one.close();
        long before = one.served();
        all.clear();
        for (int i = 0; i < 40; i++) {
            all.add(q.submit(job, EngineQueue.Priority.BACKGROUND, "x"));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        for (CompletableFuture<EngineResult> f : all) {
            assertNotNull(f.get().bestMove());
        }
        awaitCount(40, () -> two.served() + three.served() + one.served() - before, "each job run once");
        assertTrue(two.served() > 0 && three.served() > 0, "both workers took jobs: " + two.served() + ", "
                + three.served());
    }

    @Test
    void aJobOfAKilledWorkerIsDoneByAnother() throws Exception {
        KomaServer a = node("a", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        Process doomed = WorkerProcess.start(url, 1, "doomed", 2_000, dir.resolve("doomed.log"));
        processes.add(doomed);
        // a 6-second analysis: long enough to be killed in the middle
        EngineJob job = EngineJob.analysis("chess", CHESS, List.of("e2e4"), 6_000, 0, 2);
        long t0 = System.nanoTime();
        CompletableFuture<EngineResult> f = a.games().engines().submit(job, EngineQueue.Priority.ANALYSIS, "tester");
        String[] row = awaitRow(r -> "running".equals(r[0]) && "doomed".equals(r[1]), 20_000);
        Thread.sleep(500); // well inside the search
        doomed.destroyForcibly(); // SIGKILL: no hand-back, the lease must run out
        assertTrue(doomed.waitFor(10, TimeUnit.SECONDS));
        assertFalse(f.isDone());
        EngineWorker rescuer = worker("rescuer", 10_000);
        // the rescuer claims it once the 2 s lease ran out, as the job's second attempt
        row = awaitRow(r -> "rescuer".equals(r[1]), 20_000);
        assertEquals("2", row[2], "second claim");
        EngineResult r = f.get(60, TimeUnit.SECONDS);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(2, r.lines().size(), r.toString());
        assertNotNull(r.bestMove());
        awaitCount(1, rescuer::served, "the rescuer answered it");
        // one search of 6 s by the rescuer after the doomed worker's partial one: more than 6.5 s in all
        assertTrue(ms > 6_500, ms + " ms");
        System.out.println("EngineWorkersTest: job of a killed worker answered by another after " + ms + " ms");
    }

    @Test
    void aWorkerStoppedGracefullyHandsItsJobBackAtOnce() throws Exception {
        KomaServer a = node("a", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        // a long lease (60 s): the job can come back this soon only by the hand-back
        Process leaving = WorkerProcess.start(url, 1, "leaving", 60_000, dir.resolve("leaving.log"));
        processes.add(leaving);
        EngineJob job = EngineJob.analysis("chess", CHESS, List.of("d2d4"), 4_000, 0, 1);
        CompletableFuture<EngineResult> f = a.games().engines().submit(job, EngineQueue.Priority.ANALYSIS, "tester");
        awaitRow(r -> "running".equals(r[0]) && "leaving".equals(r[1]), 20_000);
        long t0 = System.nanoTime();
        leaving.destroy(); // SIGTERM: the shutdown hook closes the worker
        assertTrue(leaving.waitFor(20, TimeUnit.SECONDS));
        String[] row = awaitRow(r -> "queued".equals(r[0]), 5_000);
        assertEquals("0", row[2], "the handed-back claim does not count");
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 20_000);
        EngineWorker next = worker("next", 10_000);
        assertEquals(1, f.get(30, TimeUnit.SECONDS).lines().size());
        awaitCount(1, next::served, "the next worker answered it");
    }

    /**
     * Waits (at most 5 s) until a worker's count reaches {@code expected}, then checks it stays there: a worker counts
     * a job after its answer is written, so the node may hear the answer a moment before the count moves.
     */
    private static void awaitCount(long expected, java.util.function.LongSupplier count, String what)
            throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (count.getAsLong() < expected && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        Thread.sleep(50);
        assertEquals(expected, count.getAsLong(), what);
    }

    /** The job row's state, claimed_by and attempts once {@code cond} holds (the one row of the table). */
    private String[] awaitRow(java.util.function.Predicate<String[]> cond, long ms) throws Exception {
        long end = System.nanoTime() + ms * 1_000_000;
        String[] last = null;
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement st = c.prepareStatement("SELECT state, claimed_by, attempts FROM engine_jobs")) {
            while (System.nanoTime() < end) {
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        last = new String[]{rs.getString(1), rs.getString(2), String.valueOf(rs.getInt(3))};
                        if (cond.test(last)) {
                            return last;
                        }
                    }
                }
                Thread.sleep(50);
            }
        }
        throw new AssertionError("job row not as expected within " + ms + " ms; last " + java.util.Arrays.toString(last));
    }

    @Test
    void aJobWhoseWorkersKeepDyingFailsAfterThreeClaims() throws Exception {
        KomaServer a = node("a", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        CompletableFuture<EngineResult> f = a.games().engines().submit(
                EngineJob.analysis("chess", CHESS, List.of(), 100, 1, 1), EngineQueue.Priority.ANALYSIS, "tester");
        try (Connection c = DriverManager.getConnection(url)) {
            // three claims by workers that never renew (a 1 ms lease: each has run out when the next one looks)
            for (int i = 1; i <= EngineJobTable.MAX_ATTEMPTS; i++) {
                EngineJobTable.Claim claim = null;
                for (int k = 0; k < 100 && claim == null; k++) {
                    claim = EngineJobTable.claim(c, "ghost" + i, 1);
                    Thread.sleep(10);
                }
                assertNotNull(claim, "claim " + i);
                assertEquals(i, claim.attempt());
            }
            Thread.sleep(10);
            assertEquals(null, EngineJobTable.claim(c, "ghost4", 1), "no fourth claim");
            assertEquals(1, EngineJobTable.sweep(c), "the sweep fails it");
        }
        java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                () -> f.get(10, TimeUnit.SECONDS));
        GameError g = (GameError) e.getCause();
        assertEquals(GameError.Kind.UNAVAILABLE, g.kind());
        assertEquals("engine workers: the job was claimed 3 times and its worker stopped each time", g.getMessage());
    }

    @Test
    void withEveryWorkerDownTheNodePlaysTheComputersMove() throws Exception {
        KomaServer a = node("a", Duration.ofSeconds(1), ServerConfig.Limits.DEFAULTS);
        TestClient c = new TestClient(a.port(), null);
        String id = c.create("{\"variant\":\"shogi\",\"mode\":\"computer\",\"color\":\"second\",\"level\":0}")
                .get("id").asText();
        long t0 = System.nanoTime();
        c.waitFor(id, n -> n.get("ply").asInt() == 1, 30_000);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(1, remote(a).fallbacks());
        assertEquals(0, remote(a).answered());
        // the move waited the 1 s fallback, then 0.2 s of thinking (level 0)
        assertTrue(ms >= 1_000, ms + " ms");
        System.out.println("EngineWorkersTest: computer move with no worker, played by the node after " + ms + " ms");
        // an analysis nobody takes fails after the analysis queue wait, with 503 and a reason
        long t1 = System.nanoTime();
        Api.Answer an = c.get("/api/games/" + id + "/analysis");
        long waited = (System.nanoTime() - t1) / 1_000_000;
        assertEquals(503, an.status(), an.text());
        assertTrue(an.text().contains("no worker took the job"), an.text());
        assertTrue(waited >= RemoteEngines.ANALYSIS_WAIT_MS, waited + " ms");
    }

    @Test
    void theSharedQueuesBoundsRefuse() throws Exception {
        // no worker: the jobs stay queued; one analysis and two background jobs waiting in all
        KomaServer a = node("a", Duration.ofMinutes(5),
                ServerConfig.Limits.DEFAULTS.withAnalysisQueue(1).withBackgroundQueue(2));
        TestClient first = new TestClient(a.port(), null);
        String id = first.create("{\"variant\":\"chess\",\"mode\":\"hotseat\"}").get("id").asText();
        CompletableFuture<HttpResponse<String>> waiting = first.http.sendAsync(
                first.request("/api/games/" + id + "/analysis").GET().build(), HttpResponse.BodyHandlers.ofString());
        awaitRow(r -> "queued".equals(r[0]), 10_000);
        // the same client again: 429 (one at a time per client)
        Api.Answer again = first.get("/api/games/" + id + "/analysis");
        assertEquals(429, again.status(), again.text());
        // the other node (one analysis per client is counted per node): the shared queue holds its one analysis, 503
        KomaServer b = node("b", Duration.ofMinutes(5),
                ServerConfig.Limits.DEFAULTS.withAnalysisQueue(1).withBackgroundQueue(2));
        TestClient other = new TestClient(b.port(), null);
        Api.Answer full = other.get("/api/games/" + id + "/analysis");
        assertEquals(503, full.status(), full.text());
        assertTrue(full.raw().headers().firstValue("Retry-After").isPresent());
        EngineQueue q = a.games().engines();
        EngineJob job = EngineJob.analysis("chess", CHESS, List.of(), 100, 1, 1);
        q.submit(job, EngineQueue.Priority.BACKGROUND, "x");
        q.submit(job, EngineQueue.Priority.BACKGROUND, "x");
        GameError e = assertThrows(GameError.class, () -> q.submit(job, EngineQueue.Priority.BACKGROUND, "x"));
        assertEquals(GameError.Kind.UNAVAILABLE, e.kind());
        // a worker drains the queue: the waiting analysis is answered
        worker("drain", 10_000);
        assertEquals(200, waiting.get(30, TimeUnit.SECONDS).statusCode());
    }

    @Test
    void theQueueCostsAFewMillisecondsPerJobAndAWorkerThreadServesOneMoveAtATime() throws Exception {
        KomaServer a = node("a", Duration.ofMinutes(5), ServerConfig.Limits.DEFAULTS);
        EngineWorker w = worker("bench", 10_000);
        EngineQueue remote = a.games().engines();
        // overhead: a depth-1 analysis takes well under a millisecond to search, so its round trip is the queue's cost
        EngineJob tiny = EngineJob.analysis("chess", CHESS, List.of("e2e4"), 1_000, 1, 1);
        long[] viaQueue = new long[40], local = new long[40];
        try (EngineQueue here = new EngineQueue(1, 16, 16)) {
            for (int i = -5; i < 40; i++) { // 5 to warm up
                long t0 = System.nanoTime();
                remote.submit(tiny, EngineQueue.Priority.COMPUTER, "bench").get(10, TimeUnit.SECONDS);
                long t1 = System.nanoTime();
                here.submit(tiny, EngineQueue.Priority.COMPUTER, "bench").get(10, TimeUnit.SECONDS);
                long t2 = System.nanoTime();
                if (i >= 0) {
                    viaQueue[i] = (t1 - t0) / 1_000;
                    local[i] = (t2 - t1) / 1_000;
                }
            }
        }
        java.util.Arrays.sort(viaQueue);
        java.util.Arrays.sort(local);
        System.out.printf("EngineWorkersTest: depth-1 job round trip, median/p90: via the queue %.1f/%.1f ms, "
                + "on the node's own thread %.1f/%.1f ms%n", viaQueue[20] / 1e3, viaQueue[36] / 1e3, local[20] / 1e3,
                local[36] / 1e3);
        assertTrue(viaQueue[20] < 100_000, "median round trip through the queue under 100 ms: " + viaQueue[20] + " us");
        // throughput: 10 full-strength computer moves of 200 ms queued at once on one worker thread
        EngineJob move = EngineJob.move("chess", CHESS, List.of("e2e4"), 20, 200, 1);
        long t0 = System.nanoTime();
        List<CompletableFuture<EngineResult>> all = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            all.add(remote.submit(move, EngineQueue.Priority.COMPUTER, "bench"));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("EngineWorkersTest: 10 computer moves of 200 ms on one worker thread: %.2f s, %.2f moves/s%n",
                s, 10 / s);
        // each search stops at 160 ms (TimeManager keeps a fifth of a move time back): one after the other, >= 1.6 s
        assertTrue(s >= 1.6, "one thread runs them one after the other: " + s + " s");
        awaitCount(55, w::served, "45 tiny jobs and 10 moves");
    }
}
