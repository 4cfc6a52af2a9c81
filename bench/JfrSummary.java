import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a Koma server's CPU time goes, from a JFR recording made by bench/server-load.sh (KOMA_BENCH_JFR=1).
 *
 * <p>Usage: {@code java bench/JfrSummary.java FILE.jfr [TOP=25]}
 *
 * <p>Uses the CPU-time samples ({@code jdk.CPUTimeSample}, JDK 25+: samples taken per slice of a thread's CPU
 * time, Java and native code alike, so SQLite's C code counts; GC and JIT threads are not Java threads and are
 * not sampled) when the recording has them, and as a cross-check the areas of the execution samples
 * ({@code jdk.ExecutionSample}, every 10 ms, threads running Java code only). Prints:
 * <ul>
 *   <li>areas: each sample goes to the innermost frame (leaf first) that belongs to a known area (the koma
 *       rules core, the game view / JSON building, Jackson, SQLite / JDBC, Jetty / Javalin / NIO, ...);
 *   <li>inclusive: the share of samples whose stack holds a method (each method counted once per sample);
 *   <li>self: the share of samples whose leaf frame is a method;
 *   <li>threads: samples per thread (pool names with their numbers cut off);
 *   <li>GC pause total and allocation by class (sampled weights).
 * </ul>
 */
public final class JfrSummary {
    /** Areas by class-name prefix, tried in this order for every frame from the leaf down. */
    private static final String[][] AREAS = {
        {"koma.server.GameView", "koma server: game view (whole game -> JSON tree)"},
        {"koma.server.GameWriter", "koma server: GameWriter (group commit)"},
        {"koma.server.Database", "koma server: Database (SQL statements)"},
        {"koma.server.GameEvent", "koma server: events (-> JSON tree)"},
        {"koma.server.GameSnapshot", "koma server: game snapshot"},
        {"koma.server.RequestGuard", "koma server: request guard (origin, headers)"},
        {"koma.server.ClientAddress", "koma server: client address"},
        {"koma.server.EngineQueue", "koma server: engine queue"},
        {"koma.server.Feed", "koma server: Feed (WebSocket pushes)"},
        {"koma.server.Clock", "koma server: clocks"},
        {"koma.server.Export", "koma server: export / records"},
        {"koma.server.RateLimiter", "koma server: rate limiter"},
        {"koma.rules.notation", "koma rules: notation (SAN / FEN / UCI / KIF)"},
        {"koma.rules.Game", "koma rules: Game (outcome, repetition)"},
        {"koma.rules", "koma rules: move generation / make move"},
        {"koma.engine", "koma engine"},
        {"koma.server", "koma server: other (GameService, LiveGame, KomaServer, ...)"},
        {"koma.", "koma: other"},
        {"com.fasterxml.jackson", "Jackson JSON (parse / serialise)"},
        {"org.sqlite", "SQLite JDBC (incl. native sqlite3)"},
        {"com.zaxxer.hikari", "HikariCP pool"},
        {"org.postgresql", "PostgreSQL JDBC"},
        {"org.flywaydb", "Flyway"},
        {"io.javalin", "Javalin"},
        {"org.eclipse.jetty", "Jetty (HTTP parse, dispatch, I/O)"},
        {"sun.nio.ch", "NIO sockets"},
        {"java.util.concurrent", "java.util.concurrent (queues, locks, pools)"},
        {"jdk.internal.misc.Unsafe.park", "parking"},
    };

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 25;
        List<RecordedEvent> cpu = new ArrayList<>(), exec = new ArrayList<>(), nat = new ArrayList<>();
        Map<String, Long> alloc = new HashMap<>();
        long gcPauseNs = 0, gcCount = 0, lost = 0, gcCpuNs = 0;
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                switch (e.getEventType().getName()) {
                    case "jdk.CPUTimeSample" -> cpu.add(e);
                    case "jdk.ExecutionSample" -> exec.add(e);
                    case "jdk.NativeMethodSample" -> nat.add(e);
                    case "jdk.CPUTimeSamplesLost" -> lost += e.getLong("lostSamples");
                    case "jdk.GCCPUTime" -> gcCpuNs += e.getLong("userTime") + e.getLong("systemTime");
                    case "jdk.GarbageCollection" -> {
                        gcPauseNs += e.getDuration("sumOfPauses").toNanos();
                        gcCount++;
                    }
                    case "jdk.ObjectAllocationSample" -> alloc.merge(e.getClass("objectClass").getName(),
                            e.getLong("weight"), Long::sum);
                    default -> { }
                }
            }
        }
        List<RecordedEvent> samples;
        String what;
        if (!cpu.isEmpty()) {
            samples = cpu;
            what = "CPU-time samples (jdk.CPUTimeSample, Java and native code; lost: " + lost + ")";
        } else {
            samples = exec;
            what = "execution samples (jdk.ExecutionSample, Java code only)";
        }
        System.out.printf("JFR %s: %d %s; %d GCs, %.0f ms of GC pauses, %.0f ms GC CPU (jdk.GCCPUTime)%n",
                file.getFileName(), samples.size(), what, gcCount, gcPauseNs / 1e6, gcCpuNs / 1e6);
        Map<String, Integer> areas = new LinkedHashMap<>(), incl = new HashMap<>(), self = new HashMap<>(),
                threads = new HashMap<>();
        int n = tally(samples, areas, incl, self, threads);
        if (n == 0) {
            System.out.println("no samples with stack traces");
            return;
        }
        print("areas (innermost known frame of each sample)", areas, n, top);
        if (samples != exec && !exec.isEmpty()) {
            Map<String, Integer> a2 = new LinkedHashMap<>();
            int n2 = tally(exec, a2, new HashMap<>(), new HashMap<>(), new HashMap<>());
            print("cross-check, areas of the " + n2 + " execution samples (Java code only, 10 ms wall period)", a2,
                    n2, 12);
        }
        print("inclusive (samples with the method on the stack; frameworks' dispatch frames left out)",
                filtered(incl), n, top);
        print("self (leaf frame)", self, n, top);
        print("threads", threads, n, 12);
        if (!alloc.isEmpty()) {
            Map<String, Integer> mb = new HashMap<>();
            long total = alloc.values().stream().mapToLong(Long::longValue).sum();
            alloc.forEach((k, v) -> mb.put(k, (int) (v >> 20)));
            System.out.printf("allocation by class (sampled weight, %d MB in all):%n", total >> 20);
            mb.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(12).forEach(en ->
                    System.out.printf("  %5.1f%%  %6d MB  %s%n", 100.0 * (alloc.get(en.getKey())) / total,
                            en.getValue(), en.getKey()));
        }
    }

    /** Inclusive counts without the frames every request passes through (thread pool, Jetty and Javalin dispatch). */
    private static Map<String, Integer> filtered(Map<String, Integer> incl) {
        Map<String, Integer> out = new HashMap<>();
        incl.forEach((k, v) -> {
            boolean plumbing = k.startsWith("java.lang.Thread.") || k.startsWith("java.lang.VirtualThread")
                    || k.startsWith("jdk.internal.vm.Continuation") || k.startsWith("java.util.concurrent.FutureTask.")
                    || k.startsWith("java.util.concurrent.ThreadPerTaskExecutor")
                    || k.startsWith("java.util.concurrent.Executors$RunnableAdapter")
                    || k.startsWith("java.util.concurrent.ThreadPoolExecutor") || k.startsWith("org.eclipse.jetty.util.thread.")
                    || k.startsWith("org.eclipse.jetty.server.handler.") || k.startsWith("org.eclipse.jetty.servlet.")
                    || k.startsWith("org.eclipse.jetty.server.session.") || k.startsWith("org.eclipse.jetty.io.")
                    || k.startsWith("org.eclipse.jetty.server.HttpChannel") || k.startsWith("org.eclipse.jetty.server.Server.")
                    || k.startsWith("org.eclipse.jetty.server.HttpConnection.") || k.startsWith("jakarta.servlet.")
                    || k.startsWith("io.javalin.jetty.") || k.startsWith("io.javalin.http.servlet.JavalinServlet.")
                    || k.startsWith("io.javalin.http.servlet.JavalinServletContext.");
            if (!plumbing) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static int tally(List<RecordedEvent> samples, Map<String, Integer> areas, Map<String, Integer> incl,
            Map<String, Integer> self, Map<String, Integer> threads) {
        int n = 0;
        for (RecordedEvent e : samples) {
            RecordedStackTrace st = e.getStackTrace();
            if (st == null || st.getFrames().isEmpty()) {
                continue;
            }
            n++;
            List<RecordedFrame> frames = st.getFrames();
            String area = null;
            Set<String> seen = new HashSet<>();
            for (RecordedFrame f : frames) {
                String m = name(f);
                if (area == null) {
                    for (String[] a : AREAS) {
                        if (m.startsWith(a[0])) {
                            area = a[1];
                            break;
                        }
                    }
                }
                if (seen.add(m)) {
                    incl.merge(m, 1, Integer::sum);
                }
            }
            areas.merge(area == null ? "other (JDK: " + pkg(name(frames.get(0))) + " ...)" : area, 1, Integer::sum);
            self.merge(name(frames.get(0)), 1, Integer::sum);
            String t = thread(e);
            threads.merge(t, 1, Integer::sum);
        }
        return n;
    }

    private static String name(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    private static String pkg(String method) {
        String[] p = method.split("\\.");
        return p.length > 3 ? p[0] + "." + p[1] + "." + p[2] : method;
    }

    private static String thread(RecordedEvent e) {
        for (String field : new String[] {"sampledThread", "eventThread"}) {
            if (e.hasField(field) && e.getThread(field) != null) {
                String name = e.getThread(field).getJavaName();
                return name == null ? "?" : name.replaceAll("\\d+", "N");
            }
        }
        return "?";
    }

    private static void print(String title, Map<String, Integer> counts, int n, int top) {
        System.out.println(title + ":");
        counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(top).forEach(en ->
                System.out.printf("  %5.1f%%  %6d  %s%n", 100.0 * en.getValue() / n, en.getValue(), en.getKey()));
    }
}
