import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import koma.rules.Position;
import koma.rules.RuleSet;
import koma.rules.notation.MoveNotation;

/**
 * Load client of bench/server-load.sh: plays many hot-seat games at once against a running Koma server
 * (127.0.0.1 only) and measures the move round trip (POST /api/games/{id}/moves until the whole answer is read),
 * the throughput, and the CPU time the server process and this client spent over the measured run.
 *
 * <p>Usage (needs koma.jar on the class path for the rules core, JDK 21+):
 * <pre>
 *   java -cp koma-cli/target/koma.jar bench/ServerLoad.java base=http://127.0.0.1:PORT [key=value ...]
 * </pre>
 * Keys (defaults in brackets):
 * <ul>
 *   <li>{@code mode=closed|paced|open} [closed]: closed = each game posts its next move as soon as the answer
 *       came (the server at saturation); paced = each game waits {@code pace} ms after each answer (think
 *       time); open = a fixed offered {@code rate} of moves/s spread evenly over the games, sent on a timetable
 *       whatever the answers (one move in flight per game; a move sent late because its game's previous answer
 *       was late counts its delay: latency is measured from the scheduled send time, no coordinated omission).
 *   <li>{@code games} [200] games at once; {@code variant} [chess]; {@code seed} [1].
 *   <li>{@code moves} [30] moves per game (closed, paced); {@code rounds} [1]: closed and paced play that many
 *       rounds, each with {@code games} new games (the run is longer, the games as short); {@code pace} [3000] ms;
 *       {@code rate} [1000] moves/s and {@code seconds} [30] measured duration (open).
 *   <li>{@code warmup} [3000] moves played closed-loop by {@code warmupGames} [50] games before measuring (JIT);
 *       then {@code idle} [5] seconds without requests, over which the server's idle CPU is measured (background
 *       work: JIT still compiling, timers, GC), to read the per-move CPU of the slow paced runs against.
 *   <li>{@code picker=local|server} [local]: local = the client keeps each game's position with Koma's rules
 *       core ({@code koma.rules}) and picks a random legal move itself; server = it takes the legal moves from
 *       the server's answer (the last {@code move} event's {@code legalMoves} in the new small answer, else the
 *       top-level {@code legalMoves} of the old whole-game answer). Both work against the old and new server.
 *   <li>{@code serverPid} (for the server's CPU time from /proc/PID/stat), {@code clk} [100] clock ticks/s;
 *       {@code dbProc=postgres}: also the CPU time of all processes of that name (the database server).
 *   <li>{@code jcmd}, {@code jfr}: when both are given, a JFR recording (settings=profile plus CPU-time samples
 *       at {@code cpuSampleRate} [1000/s] for the whole process, JDK 25+)
 *       of the server is started with {@code jcmd serverPid JFR.start} after the warm-up and written to the
 *       {@code jfr} file when the measured run ends, so the profile holds the measured run only.
 *   <li>{@code createBase} [none]: several nodes: games are created on this node and played on {@code base}, so
 *       that each move is forwarded from {@code base} to the game's owner (bench/cluster-load.sh).
 *   <li>{@code maxSeconds} [600]: hard bound on the measured run; {@code timeout} [30] s per request.
 *   <li>{@code http=raw|jdk} [raw]: raw = a minimal HTTP/1.1 client, one keep-alive socket per game, blocking I/O
 *       on virtual threads (Content-Length and chunked answers; a request that fails on a reused connection
 *       before any answer byte is sent once more on a new one); jdk = java.net.http.HttpClient (HTTP/1.1, two
 *       executor threads), which costs the client about twice the CPU per move.
 * </ul>
 * Every POST carries {@code Content-Type: application/json} and {@code Origin: base}; the seat cookie
 * ({@code koma_<id>}) is kept per game and sent by hand, so no shared cookie store is searched per request.
 * A finished game (an answer with {@code "status":"finished"}, or no legal move left) is replaced by a new one.
 * The process exits 0 when no request failed, 1 otherwise.
 */
public final class ServerLoad {
    private static final Pattern ID = Pattern.compile("\"id\":\"([A-Za-z0-9_-]+)\"");
    private static final Pattern LEGAL = Pattern.compile("\"legalMoves\":\\[([^\\]]*)]");

    // ------------------------------------------------------------------ options

    private final Map<String, String> opt = new LinkedHashMap<>();
    private final String base, variant, mode, picker, httpKind, hostHeader, createBase;
    private final int port;
    private final int games, movesPerGame, warmupMoves, warmupGames, rounds;
    private final long seed, paceMs, serverPid, clk, timeoutS, maxSeconds;
    private final double rate, seconds;
    private final HttpClient http;
    private final ExecutorService httpExecutor;
    private final RuleSet rules;

    // ------------------------------------------------------------------ measurements of one phase

    private long[] lat = new long[1 << 16];
    private final AtomicInteger latN = new AtomicInteger();
    private final AtomicLong answerBytes = new AtomicLong(), plySum = new AtomicLong();
    private final AtomicInteger errors = new AtomicInteger(), created = new AtomicInteger(),
            finished = new AtomicInteger(), unsent = new AtomicInteger(), inWindow = new AtomicInteger();
    private final Map<String, AtomicInteger> errorKinds = new ConcurrentHashMap<>();
    private final List<String> firstErrors = java.util.Collections.synchronizedList(new ArrayList<>());

    private ServerLoad(String[] args) {
        for (String a : args) {
            int eq = a.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("argument '" + a + "': expected key=value");
            }
            opt.put(a.substring(0, eq), a.substring(eq + 1));
        }
        base = req("base");
        if (!base.matches("http://127\\.0\\.0\\.1:\\d+")) {
            throw new IllegalArgumentException("base: only http://127.0.0.1:PORT is allowed, got " + base);
        }
        port = Integer.parseInt(base.substring(base.lastIndexOf(':') + 1));
        hostHeader = base.substring("http://".length());
        httpKind = get("http", "raw");
        createBase = opt.get("createBase");
        if (createBase != null && !createBase.matches("http://127\\.0\\.0\\.1:\\d+")) {
            throw new IllegalArgumentException("createBase: only http://127.0.0.1:PORT is allowed, got " + createBase);
        }
        variant = get("variant", "chess");
        mode = get("mode", "closed");
        picker = get("picker", "local");
        games = Integer.parseInt(get("games", "200"));
        movesPerGame = Integer.parseInt(get("moves", "30"));
        warmupMoves = Integer.parseInt(get("warmup", "3000"));
        warmupGames = Integer.parseInt(get("warmupGames", "50"));
        rounds = Integer.parseInt(get("rounds", "1"));
        seed = Long.parseLong(get("seed", "1"));
        paceMs = Long.parseLong(get("pace", "3000"));
        rate = Double.parseDouble(get("rate", "1000"));
        seconds = Double.parseDouble(get("seconds", "30"));
        serverPid = Long.parseLong(get("serverPid", "0"));
        clk = Long.parseLong(get("clk", "100"));
        timeoutS = Long.parseLong(get("timeout", "30"));
        maxSeconds = Long.parseLong(get("maxSeconds", "600"));
        if (!List.of("closed", "paced", "open").contains(mode) || !List.of("local", "server").contains(picker)
                || !List.of("raw", "jdk").contains(httpKind)
                || games < 1 || games > 10_000 || rounds < 1 || rounds > 100 || movesPerGame < 1 || movesPerGame > 100_000 || rate <= 0
                || seconds <= 0 || seconds > 3600 || maxSeconds > 7200) {
            throw new IllegalArgumentException("bad options: " + opt);
        }
        rules = picker.equals("local") ? RuleSet.of(variant) : null;
        // Two platform threads for the client's internal work; the callers are virtual threads blocked in send().
        httpExecutor = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "http");
            t.setDaemon(true);
            return t;
        });
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpExecutor)
                .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    private String get(String key, String dflt) {
        return opt.getOrDefault(key, dflt);
    }

    private String req(String key) {
        String v = opt.get(key);
        if (v == null) {
            throw new IllegalArgumentException(key + ": missing");
        }
        return v;
    }

    // ------------------------------------------------------------------ one game

    private final class Game {
        final Random rnd;
        String id, cookie;
        Conn conn;                 // http=raw
        Position pos;              // picker=local
        List<String> legal;        // picker=server
        int ply;
        boolean over;

        Game(long seed) {
            rnd = new Random(seed);
        }

        void create() throws IOException, InterruptedException {
            String req = "{\"variant\":\"" + variant + "\",\"mode\":\"hotseat\"}";
            Answer r = createBase == null ? post(this, "/api/games", req, null) : createOn(createBase, req);
            String body = r.body();
            if (r.status() != 201 && r.status() != 200) {
                throw new Failure("create", r.status(), body);
            }
            id = match(ID, body);
            String name = "koma_" + id + "=";
            cookie = null;
            for (String h : r.setCookies()) {
                if (h.startsWith(name)) {
                    int semi = h.indexOf(';');
                    cookie = semi < 0 ? h : h.substring(0, semi);
                    break;
                }
            }
            if (cookie == null) {
                throw new Failure("create: no seat cookie", r.status(), r.setCookies().toString());
            }
            ply = 0;
            over = false;
            if (rules != null) {
                pos = Position.start(rules);
            } else {
                legal = legal(body);
            }
            created.incrementAndGet();
        }

        /** Plays one random legal move; returns the answer's length. Sets {@link #over} when the game ended. */
        int move() throws IOException, InterruptedException {
            String uci;
            int m = 0;
            if (pos != null) {
                int[] ms = pos.legalMoves();
                if (ms.length == 0) {
                    over = true;
                    return -1;
                }
                m = ms[rnd.nextInt(ms.length)];
                uci = MoveNotation.formatUci(pos, m);
            } else {
                if (legal.isEmpty()) {
                    over = true;
                    return -1;
                }
                uci = legal.get(rnd.nextInt(legal.size()));
            }
            Answer r = post(this, "/api/games/" + id + "/moves", "{\"move\":\"" + uci + "\",\"ply\":" + ply + "}",
                    cookie);
            String body = r.body();
            if (r.status() != 200) {
                throw new Failure("move", r.status(), body);
            }
            ply++;
            if (pos != null) {
                pos.doMove(m);
            } else {
                legal = legal(body);
            }
            if (body.contains("\"status\":\"finished\"")) {
                over = true;
            }
            return body.length();
        }
    }

    /** A non-2xx answer: {@code kind} is what was asked and the status code, for the error histogram. */
    private static final class Failure extends IOException {
        final String kind;
        final int status;

        Failure(String kind, int status, String body) {
            super(kind + " " + status + ": " + (body.length() > 200 ? body.substring(0, 200) + "..." : body));
            this.kind = kind + " " + status;
            this.status = status;
        }

        /** 503 (writer queue full) and 429 (rate limit): the move was not played, the game goes on. */
        boolean refused() {
            return status == 503 || status == 429;
        }
    }

    /** An answer: status code, body (decoded as ISO-8859-1 in raw mode: only ASCII is looked for), Set-Cookie values. */
    private record Answer(int status, String body, List<String> setCookies) {
    }

    /**
     * Several nodes: a game created on another node ({@code createBase}), so that every move sent to {@code base}
     * is forwarded to the game's owner (the forwarding hop's cost).
     */
    private Answer createOn(String node, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(node + "/api/games"))
                .timeout(Duration.ofSeconds(timeoutS)).header("Content-Type", "application/json").header("Origin", node)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r.headers().allValues("set-cookie"));
    }

    private Answer post(Game g, String path, String body, String cookie) throws IOException, InterruptedException {
        if (httpKind.equals("raw")) {
            return rawPost(g, path, body, cookie);
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(timeoutS))
                .header("Content-Type", "application/json").header("Origin", base)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body(), r.headers().allValues("set-cookie"));
    }

    // ------------------------------------------------------------------ minimal HTTP/1.1 client

    /** One keep-alive connection of a game. */
    private static final class Conn {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        int uses;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    /** Thrown when a reused connection fails before any byte of the answer came: safe to send once more. */
    private static final class StaleConnection extends IOException {
        StaleConnection(Throwable cause) {
            super(cause);
        }
    }

    private Answer rawPost(Game g, String path, String body, String cookie) throws IOException {
        byte[] payload = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder h = new StringBuilder(256).append("POST ").append(path).append(" HTTP/1.1\r\nHost: ")
                .append(hostHeader).append("\r\nOrigin: ").append(base)
                .append("\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: ")
                .append(payload.length).append("\r\n");
        if (cookie != null) {
            h.append("Cookie: ").append(cookie).append("\r\n");
        }
        h.append("\r\n");
        byte[] head = h.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] request = Arrays.copyOf(head, head.length + payload.length);
        System.arraycopy(payload, 0, request, head.length, payload.length);
        for (int attempt = 0; ; attempt++) {
            if (g.conn != null && g.conn.socket.isClosed()) {
                g.conn = null; // the server said Connection: close
            }
            boolean reused = g.conn != null;
            if (g.conn == null) {
                Socket s = new Socket();
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                s.setSoTimeout((int) (timeoutS * 1000));
                g.conn = new Conn(s);
            }
            Conn c = g.conn;
            try {
                try {
                    c.out.write(request);
                    c.out.flush();
                } catch (IOException e) {
                    if (reused) {
                        throw new StaleConnection(e);
                    }
                    throw e;
                }
                Answer a = readAnswer(c, reused);
                c.uses++;
                return a;
            } catch (StaleConnection e) {
                c.close();
                g.conn = null;
                if (attempt > 0) {
                    throw new IOException("connection closed before the answer", e.getCause());
                }
            } catch (IOException | RuntimeException e) {
                c.close();
                g.conn = null;
                throw e;
            }
        }
    }

    private Answer readAnswer(Conn c, boolean reused) throws IOException {
        String status;
        try {
            status = readLine(c.in);
        } catch (IOException e) {
            if (reused) {
                throw new StaleConnection(e);
            }
            throw e;
        }
        if (status == null) {
            if (reused) {
                throw new StaleConnection(new IOException("closed"));
            }
            throw new IOException("connection closed before the status line");
        }
        if (!status.startsWith("HTTP/1.") || status.length() < 12) {
            throw new IOException("bad status line: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false, close = status.startsWith("HTTP/1.0");
        List<String> cookies = new ArrayList<>(2);
        for (String line; (line = readLine(c.in)) != null && !line.isEmpty(); ) {
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).trim(), value = line.substring(colon + 1).trim();
            if (name.equalsIgnoreCase("content-length")) {
                length = Long.parseLong(value);
            } else if (name.equalsIgnoreCase("transfer-encoding")) {
                chunked = value.toLowerCase().contains("chunked");
            } else if (name.equalsIgnoreCase("connection")) {
                close = value.equalsIgnoreCase("close");
            } else if (name.equalsIgnoreCase("set-cookie")) {
                cookies.add(value);
            }
        }
        byte[] bytes;
        if (chunked) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(8192);
            while (true) {
                String size = readLine(c.in);
                if (size == null) {
                    throw new IOException("connection closed in a chunked answer");
                }
                int semi = size.indexOf(';');
                int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (n == 0) {
                    for (String t; (t = readLine(c.in)) != null && !t.isEmpty(); ) {
                        // trailers
                    }
                    break;
                }
                buf.write(c.in.readNBytes(n));
                readLine(c.in);
            }
            bytes = buf.toByteArray();
        } else if (length >= 0) {
            if (length > 64L << 20) {
                throw new IOException("answer too long: " + length);
            }
            bytes = c.in.readNBytes((int) length);
            if (bytes.length != length) {
                throw new IOException("connection closed in the answer body");
            }
        } else {
            bytes = c.in.readNBytes(64 << 20); // until the server closes
            close = true;
        }
        if (close) {
            c.close(); // the game's next request opens a new connection (rawPost checks isClosed)
        }
        return new Answer(code, new String(bytes, StandardCharsets.ISO_8859_1), cookies);
    }

    /** A CRLF-terminated line as ISO-8859-1, without the CRLF; null at end of stream before any byte. */
    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (sb.isEmpty()) {
                    return null;
                }
                throw new IOException("connection closed in a line");
            }
            if (b == '\n') {
                int n = sb.length();
                if (n > 0 && sb.charAt(n - 1) == '\r') {
                    sb.setLength(n - 1);
                }
                return sb.toString();
            }
            if (sb.length() > 16 * 1024) {
                throw new IOException("line too long");
            }
            sb.append((char) b);
        }
    }

    private void error(Exception e) {
        String kind = e instanceof Failure f ? f.kind : e.getClass().getSimpleName();
        errorKinds.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        if (errors.incrementAndGet() <= 5) {
            firstErrors.add(e.toString());
        }
    }

    private void record(long nanos, int bytes, int ply) {
        plySum.addAndGet(ply);
        int i = latN.getAndIncrement();
        if (i < lat.length) {
            lat[i] = nanos;
        }
        if (bytes > 0) {
            answerBytes.addAndGet(bytes);
        }
    }

    /**
     * One move of a game, replacing the game first when it is over and after a failure (its state is then
     * unknown). Returns false when even creating a game failed.
     */
    private boolean replaceIfNeeded(Game g) {
        if (g.id != null && !g.over) {
            return true;
        }
        if (g.over) {
            finished.incrementAndGet();
        }
        try {
            g.create();
            return true;
        } catch (Exception e) {
            error(e);
            g.id = null;
            return false;
        }
    }

    // ------------------------------------------------------------------ phases

    private Game[] createGames(int n, long seedBase) throws InterruptedException {
        Game[] gs = new Game[n];
        Semaphore inFlight = new Semaphore(16);
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < n; i++) {
                Game g = gs[i] = new Game(seedBase * 1_000_003L + i);
                inFlight.acquire();
                ex.submit(() -> {
                    try {
                        g.create();
                    } catch (Exception e) {
                        error(e);
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        return gs;
    }

    /** Closed loop (pace 0) or paced: each game makes {@code moves} attempts, bounded by {@code deadline}. */
    private void runClosed(Game[] gs, int moves, long pace, long deadline) {
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (Game g : gs) {
                ex.submit(() -> {
                    try {
                        if (pace > 0) {
                            Thread.sleep(g.rnd.nextLong(pace)); // spread the games' start over one pace
                        }
                        for (int made = 0; made < moves && System.nanoTime() < deadline; made++) {
                            if (!replaceIfNeeded(g)) {
                                Thread.sleep(100);
                                continue;
                            }
                            long t0 = System.nanoTime();
                            try {
                                int bytes = g.move();
                                if (bytes >= 0) {
                                    record(System.nanoTime() - t0, bytes, g.ply);
                                } else {
                                    made--; // no legal move: the game is replaced, the move not counted
                                }
                            } catch (Failure e) {
                                error(e);
                                if (e.refused()) {
                                    Thread.sleep(100); // the server asks to come back later
                                } else {
                                    g.id = null;   // the game's state is unknown: a new game
                                }
                            } catch (IOException e) {
                                error(e);
                                g.id = null;
                            }
                            if (pace > 0) {
                                Thread.sleep(pace);
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return null;
                });
            }
        }
    }

    /**
     * Open loop: game i sends its k-th move at t0 + (i / games + k) * interval, interval = games / rate; the
     * latency counts from that scheduled time. Scheduling stops at t0 + seconds; a game behind its timetable
     * keeps sending back to back until it caught up or the hard deadline came, and the moves it could not send
     * by then are counted as unsent.
     */
    private void runOpen(Game[] gs, long t0, long end, long hardDeadline) {
        double interval = games * 1e9 / rate;
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < gs.length; i++) {
                Game g = gs[i];
                long first = t0 + (long) (interval * i / games);
                ex.submit(() -> {
                    long k = 0;
                    for (long sched = first; sched < end; sched = first + (long) (interval * ++k)) {
                        long now;
                        while ((now = System.nanoTime()) < sched) {
                            LockSupport.parkNanos(sched - now);
                        }
                        if (now >= hardDeadline) {
                            unsent.addAndGet((int) Math.ceil((end - sched) / interval));
                            break;
                        }
                        if (!replaceIfNeeded(g)) {
                            continue;
                        }
                        try {
                            int bytes = g.move();
                            long done = System.nanoTime();
                            if (bytes >= 0) {
                                record(done - sched, bytes, g.ply);
                                if (done <= end) {
                                    inWindow.incrementAndGet();
                                }
                            }
                        } catch (IOException e) {
                            error(e);
                            if (!(e instanceof Failure f && f.refused())) {
                                g.id = null; // else the move was refused (503/429): this game's next slot tries again
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return null;
                        }
                    }
                    return null;
                });
            }
        }
    }

    private void resetCounters(int capacity) {
        lat = new long[Math.max(1024, capacity)];
        latN.set(0);
        answerBytes.set(0);
        plySum.set(0);
        errors.set(0);
        created.set(0);
        finished.set(0);
        unsent.set(0);
        inWindow.set(0);
        errorKinds.clear();
        firstErrors.clear();
    }

    // ------------------------------------------------------------------ CPU and load

    /** utime + stime in clock ticks of a process, from /proc/PID/stat (fields 14 and 15). */
    private static long procTicks(String pid) {
        return procTicks(pid, 3);
    }

    /** utime (which = 1), stime (2) or both (3) in clock ticks of a process, from /proc/PID/stat. */
    private static long procTicks(String pid, int which) {
        try {
            String s = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            // fields 14, 15 counted from 1
            return ((which & 1) != 0 ? Long.parseLong(f[11]) : 0) + ((which & 2) != 0 ? Long.parseLong(f[12]) : 0);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** utime + stime of all processes whose command name is {@code comm} (those alive at both readings count). */
    private static Map<String, Long> procTicksByName(String comm) {
        Map<String, Long> out = new java.util.HashMap<>();
        java.io.File[] dirs = new java.io.File("/proc").listFiles((d, n) -> n.chars().allMatch(Character::isDigit));
        if (dirs == null) {
            return out;
        }
        for (java.io.File d : dirs) {
            try {
                String st = Files.readString(d.toPath().resolve("stat"));
                int open = st.indexOf('('), close = st.lastIndexOf(')');
                if (st.substring(open + 1, close).equals(comm)) {
                    String[] f = st.substring(close + 2).split(" ");
                    out.put(d.getName(), Long.parseLong(f[11]) + Long.parseLong(f[12]));
                }
            } catch (IOException | RuntimeException e) {
                // gone
            }
        }
        return out;
    }

    /** Busy clock ticks of the whole machine (all CPUs): user nice system irq softirq steal of /proc/stat. */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = 0;
            for (int i : new int[] {1, 2, 3, 6, 7, 8}) {
                busy += Long.parseLong(f[i]);
            }
            return busy;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String loadavg() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    private static long clientCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static String serverRss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return line.substring(6).trim();
                }
            }
        } catch (IOException e) {
            // gone
        }
        return "?";
    }

    private void jcmd(String... args) {
        String jcmd = opt.get("jcmd");
        if (jcmd == null || opt.get("jfr") == null || serverPid <= 0) {
            return;
        }
        List<String> cmd = new ArrayList<>(List.of(jcmd, Long.toString(serverPid)));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                System.out.println("# jcmd " + String.join(" ", args) + " failed: " + out);
            }
        } catch (IOException | InterruptedException e) {
            System.out.println("# jcmd failed: " + e);
        }
    }

    // ------------------------------------------------------------------ main

    public static void main(String[] args) throws Exception {
        ServerLoad b = new ServerLoad(args);
        int code = b.run();
        b.httpExecutor.shutdownNow();
        System.exit(code); // the HTTP client's selector thread would keep the JVM alive
    }

    private int run() throws InterruptedException {
        // Warm-up: JIT of server and client, closed loop, not measured.
        if (warmupMoves > 0) {
            int wg = Math.min(warmupGames, games);
            resetCounters(warmupMoves + wg);
            long w0 = System.nanoTime();
            Game[] ws = createGames(wg, seed + 7919);
            runClosed(ws, (warmupMoves + wg - 1) / wg, 0, w0 + 120_000_000_000L);
            System.out.printf("# warm-up: %d games, %d moves in %.1f s, %d errors%n", wg, latN.get(),
                    (System.nanoTime() - w0) / 1e9, errors.get());
        }
        double idleSeconds = Double.parseDouble(get("idle", "5"));
        String idleLine = null;
        if (idleSeconds > 0 && serverPid > 0) {
            long i0 = procTicks(Long.toString(serverPid)), n0 = System.nanoTime();
            Thread.sleep((long) (idleSeconds * 1000));
            long i1 = procTicks(Long.toString(serverPid));
            double s = (System.nanoTime() - n0) / 1e9;
            idleLine = String.format("server idle CPU after the warm-up: %.1f ms/s over %.0f s", (i1 - i0) * 1000.0
                    / clk / s, s);
        }
        // The measured games (of the first round) are created before the clock starts.
        resetCounters(0);
        Game[] gs = createGames(games, seed);
        int setupErrors = errors.get();
        long capacity = mode.equals("open") ? (long) (rate * seconds) + 2L * games
                : (long) games * movesPerGame * rounds;
        resetCounters((int) Math.min(capacity + 1024, 50_000_000));

        boolean jfr = opt.containsKey("jfr") && opt.containsKey("jcmd") && serverPid > 0;
        if (jfr) {
            jcmd("JFR.start", "name=bench", "settings=profile", "jdk.CPUTimeSample#enabled=true",
                    "jdk.CPUTimeSample#throttle=" + get("cpuSampleRate", "1000/s"), "filename=" + opt.get("jfr"));
        }
        String load0 = loadavg();
        long srv0 = serverPid > 0 ? procTicks(Long.toString(serverPid)) : -1;
        long srvSys0 = serverPid > 0 ? procTicks(Long.toString(serverPid), 2) : -1;
        String dbProc = opt.get("dbProc");
        Map<String, Long> db0 = dbProc == null ? Map.of() : procTicksByName(dbProc);
        long self0 = procTicks("self"), mach0 = machineBusyTicks(), cli0 = clientCpuNanos();
        long t0 = System.nanoTime();
        long hard = t0 + maxSeconds * 1_000_000_000L;
        long end = t0;
        switch (mode) {
            case "closed", "paced" -> {
                for (int r = 0; r < rounds && System.nanoTime() < hard; r++) {
                    if (r > 0) {
                        // the next round's games are new games, created within the measured run
                        gs = createGames(games, seed + 1_000L * r);
                    }
                    runClosed(gs, movesPerGame, mode.equals("paced") ? paceMs : 0, hard);
                }
            }
            default -> {
                end = t0 + (long) (seconds * 1e9);
                runOpen(gs, t0 + 1_000_000L, end, Math.min(hard, end + (long) (Math.max(10, seconds / 2) * 1e9)));
            }
        }
        long t1 = System.nanoTime();
        long srv1 = serverPid > 0 ? procTicks(Long.toString(serverPid)) : -1;
        long srvSys1 = serverPid > 0 ? procTicks(Long.toString(serverPid), 2) : -1;
        long self1 = procTicks("self"), mach1 = machineBusyTicks(), cli1 = clientCpuNanos();
        Map<String, Long> db1 = dbProc == null ? Map.of() : procTicksByName(dbProc);
        long dbTicks = 0;
        for (Map.Entry<String, Long> e : db1.entrySet()) {
            dbTicks += e.getValue() - db0.getOrDefault(e.getKey(), 0L); // a process born during the run: all of it
        }
        String load1 = loadavg();
        if (jfr) {
            jcmd("JFR.stop", "name=bench");
        }

        int n = Math.min(latN.get(), lat.length);
        long[] ms = Arrays.copyOf(lat, n);
        Arrays.sort(ms);
        double secs = (t1 - t0) / 1e9;
        String how = switch (mode) {
            case "closed" -> "closed loop, back to back, " + movesPerGame + " moves per game"
                    + (rounds > 1 ? ", " + rounds + " rounds of new games" : "");
            case "paced" -> "paced, one move per " + paceMs + " ms think time after each answer, " + movesPerGame
                    + " moves per game" + (rounds > 1 ? ", " + rounds + " rounds of new games" : "");
            default -> String.format("open loop, offered %.0f moves/s for %.0f s (%.0f ms between a game's moves)",
                    rate, seconds, games * 1000 / rate);
        };
        System.out.printf("mode: %s; %d %s hot-seat games at once; moves picked by %s; seed %d%n", how, games,
                variant, picker.equals("local") ? "the client (koma.rules)" : "the server's legalMoves", seed);
        System.out.printf("moves: %d in %.2f s = %.1f moves/s", n, secs, n / secs);
        if (mode.equals("open")) {
            System.out.printf(" (achieved within the %.0f s window: %.1f moves/s of %.0f offered; unsent at the "
                    + "deadline: %d)", seconds, inWindow.get() / seconds, rate, unsent.get());
        }
        System.out.println();
        System.out.printf("latency%s: median %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms, mean %.2f ms%n",
                mode.equals("open") ? " (from the scheduled send time)" : "", pct(ms, 50), pct(ms, 95), pct(ms, 99),
                n == 0 ? Double.NaN : ms[n - 1] / 1e6, n == 0 ? Double.NaN : Arrays.stream(ms).sum() / 1e6 / n);
        System.out.printf("answers: %.0f bytes per move on average, mean ply after the move %.1f; games finished and "
                + "replaced during the run: %d; games created during the run: %d%n",
                n == 0 ? 0.0 : (double) answerBytes.get() / n, n == 0 ? 0.0 : (double) plySum.get() / n,
                finished.get(), created.get());
        System.out.printf("errors: %d%s%s%n", errors.get(), errorKinds.isEmpty() ? "" : " " + new TreeMap<>(
                errorKinds.entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        e -> e.getValue().get()))), setupErrors > 0 ? " (+" + setupErrors + " creating games)" : "");
        for (String e : firstErrors) {
            System.out.println("  error: " + e);
        }
        double tick = 1000.0 / clk;
        double srvMs = (srv1 - srv0) * tick, selfMs = (self1 - self0) * tick, machMs = (mach1 - mach0) * tick;
        if (serverPid > 0 && srv0 >= 0 && srv1 >= 0) {
            System.out.printf("server CPU: %.0f ms (%.0f%% in the kernel) = %.3f ms per move (%.2f cores busy; at this "
                    + "cost %d cores would serve at most %.0f moves/s); RSS %s%n", srvMs,
                    srvMs > 0 ? 100.0 * (srvSys1 - srvSys0) * tick / srvMs : 0.0, n == 0 ? Double.NaN : srvMs / n,
                    srvMs / 1000 / secs, Runtime.getRuntime().availableProcessors(),
                    n == 0 ? Double.NaN : Runtime.getRuntime().availableProcessors() * 1000.0 / (srvMs / n),
                    serverRss(serverPid));
        }
        double dbMs = dbTicks * tick;
        if (dbProc != null) {
            System.out.printf("database CPU (%s processes): %.0f ms = %.3f ms per move (%.2f cores busy)%n", dbProc,
                    dbMs, n == 0 ? Double.NaN : dbMs / n, dbMs / 1000 / secs);
        }
        if (idleLine != null) {
            System.out.println(idleLine);
        }
        System.out.printf("client CPU: %.0f ms = %.3f ms per move (%.2f cores busy)%n", (cli1 - cli0) / 1e6,
                n == 0 ? Double.NaN : (cli1 - cli0) / 1e6 / n, (cli1 - cli0) / 1e9 / secs);
        if (mach0 >= 0 && mach1 >= 0) {
            int cores = Runtime.getRuntime().availableProcessors();
            System.out.printf("machine CPU over the run: %.2f of %d cores busy; others (not server, not client%s): "
                    + "%.2f cores%n", machMs / 1000 / secs, cores, dbProc == null ? "" : ", not database",
                    Math.max(0, machMs - (serverPid > 0 ? srvMs : 0) - selfMs - dbMs) / 1000 / secs);
        }
        System.out.printf("load average before: %s, after: %s%n", load0, load1);
        return errors.get() == 0 && setupErrors == 0 ? 0 : 1;
    }

    private static double pct(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    private static String match(Pattern p, String text) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw new IllegalStateException("no " + p + " in " + text.substring(0, Math.min(200, text.length())));
        }
        return m.group(1);
    }

    /** The legal moves of an answer: the (last) move event's in the new small answer, else the game's. */
    private static List<String> legal(String body) {
        Matcher m = LEGAL.matcher(body);
        String inner = null;
        while (m.find()) {
            inner = m.group(1);
        }
        if (inner == null) {
            throw new IllegalStateException("no legalMoves in " + body.substring(0, Math.min(200, body.length())));
        }
        List<String> out = new ArrayList<>();
        for (String s : inner.split(",")) {
            if (!s.isBlank()) {
                out.add(s.strip().replace("\"", ""));
            }
        }
        return out;
    }
}
