import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load client of bench/server-latency.sh: GAMES hot-seat games played at once against a running Koma server,
 * each a virtual user that posts a random legal move as soon as the previous answer came back, until each game
 * has made PLIES moves (a finished game is replaced by a new one). Prints the move round-trip latency
 * (POST /api/games/{id}/moves until the full answer is read) as median, p95 and p99, and the throughput.
 *
 * <p>Usage: java bench/ServerLatency.java BASE_URL GAMES PLIES VARIANT SEED
 */
public final class ServerLatency {
    private static final Pattern ID = Pattern.compile("\"id\":\"([a-z0-9]+)\"");
    private static final Pattern LEGAL = Pattern.compile("\"legalMoves\":\\[([^\\]]*)]");
    private static final Pattern STATUS = Pattern.compile("\"status\":\"(\\w+)\"");

    public static void main(String[] args) throws Exception {
        String base = args[0];
        int games = Integer.parseInt(args[1]), plies = Integer.parseInt(args[2]);
        String variant = args[3];
        long seed = Long.parseLong(args[4]);
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(30)).executor(Executors.newFixedThreadPool(4)).build();
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicInteger errors = new AtomicInteger(), created = new AtomicInteger();
        long start = System.nanoTime();
        try (ExecutorService users = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int u = 0; u < games; u++) {
                long userSeed = seed * 1_000_003L + u;
                users.submit(() -> {
                    Random rnd = new Random(userSeed);
                    try {
                        String game = post(http, base + "/api/games", "{\"variant\":\"" + variant + "\",\"mode\":\"hotseat\"}");
                        created.incrementAndGet();
                        int ply = 0;
                        for (int made = 0; made < plies; made++) {
                            List<String> legal = legal(game);
                            if (legal.isEmpty() || !status(game).equals("active")) {
                                game = post(http, base + "/api/games", "{\"variant\":\"" + variant + "\",\"mode\":\"hotseat\"}");
                                created.incrementAndGet();
                                ply = 0;
                                legal = legal(game);
                            }
                            String move = legal.get(rnd.nextInt(legal.size()));
                            String id = match(ID, game);
                            long t0 = System.nanoTime();
                            game = post(http, base + "/api/games/" + id + "/moves",
                                    "{\"move\":\"" + move + "\",\"ply\":" + ply + "}");
                            latencies.add(System.nanoTime() - t0);
                            ply++;
                        }
                    } catch (Exception e) {
                        if (errors.incrementAndGet() <= 5) {
                            System.err.println("user failed: " + e);
                        }
                    }
                    return null;
                });
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] ms = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf("games at once: %d (%s, hot-seat), moves per game: %d, games created: %d, failed users: %d%n",
                games, variant, plies, created.get(), errors.get());
        System.out.printf("moves: %d in %.1f s = %.0f moves/s%n", ms.length, seconds, ms.length / seconds);
        System.out.printf("move round trip: median %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                pct(ms, 50), pct(ms, 95), pct(ms, 99), ms.length == 0 ? 0 : ms[ms.length - 1] / 1e6);
        System.exit(errors.get() == 0 ? 0 : 1); // the HTTP client's threads would keep the JVM alive
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    private static String post(HttpClient http, String url, String body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException(url + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    private static String match(Pattern p, String text) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + p + " in " + text.substring(0, Math.min(200, text.length())));
        }
        return m.group(1);
    }

    private static String status(String game) {
        return match(STATUS, game);
    }

    private static List<String> legal(String game) {
        String inner = match(LEGAL, game);
        List<String> out = new ArrayList<>();
        for (String s : inner.split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip().replace("\"", ""));
            }
        }
        return out;
    }
}
