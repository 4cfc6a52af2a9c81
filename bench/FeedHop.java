import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The relay hop of several nodes (bench/cluster-load.sh, run "feed"): a hot-seat chess game made on node A, a feed
 * of it on A (served from A's memory) and one on node B (relayed over Redis pub/sub); N moves posted to A one after
 * another, each after both feeds saw the previous one. Prints the time from sending the move to its answer and to
 * its event arriving on each feed (median, p95, p99), and the difference of the feeds: what the relay adds to a move
 * seen on another node.
 *
 * <pre>java -cp koma.jar bench/FeedHop.java http://127.0.0.1:A http://127.0.0.1:B [moves=300]</pre>
 */
public final class FeedHop {
    private static final Pattern ID = Pattern.compile("\"id\":\"([a-z0-9]+)\"");
    private static final Pattern LEGAL = Pattern.compile("\"legalMoves\":\\[\"([^\\]]+)\"\\]");

    /** A feed: when each version's event arrived (ns). */
    static final class Feed implements WebSocket.Listener {
        final Map<Integer, Long> arrived = new ConcurrentHashMap<>();
        private final StringBuilder partial = new StringBuilder();
        private final Pattern version = Pattern.compile("\"version\":(\\d+)");

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                long t = System.nanoTime();
                String s = partial.toString();
                partial.setLength(0);
                if (s.startsWith("{\"type\":\"move\"")) {
                    Matcher m = version.matcher(s);
                    if (m.find()) {
                        arrived.put(Integer.parseInt(m.group(1)), t);
                    }
                }
            }
            w.request(1);
            return null;
        }
    }

    public static void main(String[] args) throws Exception {
        String a = args[0], b = args[1];
        int n = args.length > 2 ? Integer.parseInt(args[2].replace("moves=", "")) : 300;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(a + "/api/games"))
                .header("Content-Type", "application/json").header("Origin", a)
                .POST(HttpRequest.BodyPublishers.ofString("{\"variant\":\"chess\",\"mode\":\"hotseat\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher idm = ID.matcher(created.body());
        idm.find();
        String id = idm.group(1);
        String cookie = created.headers().allValues("set-cookie").stream().filter(c -> c.startsWith("koma_" + id))
                .findFirst().orElseThrow().split(";")[0];
        Feed local = new Feed(), relayed = new Feed();
        http.newWebSocketBuilder().header("Origin", a).buildAsync(URI.create(a.replace("http", "ws") + "/ws/games/" + id), local).get();
        http.newWebSocketBuilder().header("Origin", b).buildAsync(URI.create(b.replace("http", "ws") + "/ws/games/" + id), relayed).get();
        Thread.sleep(500);
        String body = created.body();
        List<Double> dl = new ArrayList<>(), dr = new ArrayList<>(), da = new ArrayList<>();
        int made = 0;
        java.util.Random rnd = new java.util.Random(1);
        for (int ply = 0; made < n; ply++) {
            Matcher lm = LEGAL.matcher(body);
            if (!lm.find()) { // game over: a new one would need new feeds; stop here
                break;
            }
            long sent = System.nanoTime();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(a + "/api/games/" + id + "/moves"))
                    .header("Content-Type", "application/json").header("Origin", a).header("Cookie", cookie)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"move\":\"" + pick(lm.group(1), rnd) + "\",\"ply\":" + ply + "}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            long answered = System.nanoTime();
            if (r.statusCode() != 200) {
                throw new IllegalStateException("move " + ply + ": " + r.statusCode() + " " + r.body());
            }
            Matcher vm = Pattern.compile("\\{\"type\":\"move\",\"version\":(\\d+)").matcher(r.body());
            vm.find();
            int v = Integer.parseInt(vm.group(1));
            long end = System.nanoTime() + 5_000_000_000L;
            while ((!local.arrived.containsKey(v) || !relayed.arrived.containsKey(v)) && System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            if (ply >= 10) { // the first moves warm up
                dl.add((local.arrived.getOrDefault(v, end) - sent) / 1e6);
                dr.add((relayed.arrived.getOrDefault(v, end) - sent) / 1e6);
                da.add((answered - sent) / 1e6);
            }
            body = r.body();
            made++;
        }
        Collections.sort(dl);
        Collections.sort(dr);
        Collections.sort(da);
        System.out.printf("moves measured: %d (of %d played in one game)%n", dl.size(), made);
        System.out.printf("the move's answer, from the request: median %.2f ms, p95 %.2f ms, p99 %.2f ms%n", q(da, .5), q(da, .95), q(da, .99));
        System.out.printf("owner's feed: the move's event, from the request: median %.2f ms, p95 %.2f ms, p99 %.2f ms%n", q(dl, .5), q(dl, .95), q(dl, .99));
        System.out.printf("other node's feed (Redis relay), from the request: median %.2f ms, p95 %.2f ms, p99 %.2f ms%n", q(dr, .5), q(dr, .95), q(dr, .99));
        System.out.printf("relay hop: +%.2f ms at the median, +%.2f ms at p99%n", q(dr, .5) - q(dl, .5), q(dr, .99) - q(dl, .99));
        System.exit(0);
    }

    /** A random move of a legal-move list's inside ({@code a","b","c}). */
    private static String pick(String inside, java.util.Random rnd) {
        String[] moves = inside.split("\",\"");
        return moves[rnd.nextInt(moves.length)];
    }

    private static double q(List<Double> xs, double p) {
        return xs.isEmpty() ? Double.NaN : xs.get(Math.min(xs.size() - 1, (int) Math.floor(p * xs.size())));
    }
}
