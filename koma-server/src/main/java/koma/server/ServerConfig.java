package koma.server;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How a server runs: where it listens, which database it uses (a JDBC URL; null = SQLite file
 * {@code <dataDir>/koma.db}), the per-client rate limit (requests per second and burst; 0 = off), the number of
 * engine threads for computer moves and analysis, and the {@link Limits} that bound every resource a client can
 * make the server hold. {@code trustedProxies} are the addresses or CIDR ranges whose {@code X-Forwarded-For} is
 * believed; {@code origins} are extra origins (besides the server's own) allowed to change state.
 * {@code engineWorkers}, when not null, sends engine work to {@code koma worker} processes (PostgreSQL only).
 */
public record ServerConfig(int port, String bind, String dbUrl, Path dataDir, double ratePerSecond, int rateBurst,
                           int engineThreads, Limits limits, List<String> trustedProxies, List<String> origins,
                           EngineWorkers engineWorkers, Cluster cluster) {
    public static final double DEFAULT_RATE = 20;
    public static final int DEFAULT_BURST = 100;

    public ServerConfig {
        limits = limits == null ? Limits.DEFAULTS : limits;
        trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
        origins = origins == null ? List.of() : List.copyOf(origins);
    }

    /**
     * Engine work (the computer's moves, analyses) goes into the shared job queue in PostgreSQL and is run by
     * {@code koma worker} processes; a computer move no worker has claimed within {@code computerWait} runs on the
     * node's own engine threads, so that a live game goes on when every worker is down.
     */
    public record EngineWorkers(Duration computerWait) {
        public static final EngineWorkers DEFAULTS = new EngineWorkers(Duration.ofSeconds(5));

        public EngineWorkers {
            if (computerWait == null || computerWait.isNegative() || computerWait.isZero()) {
                throw new IllegalArgumentException("--engine-fallback: must be a positive duration, got " + computerWait);
            }
        }
    }

    /** A node alone (no other node shares its database). */
    public ServerConfig(int port, String bind, String dbUrl, Path dataDir, double ratePerSecond, int rateBurst,
                        int engineThreads, Limits limits, List<String> trustedProxies, List<String> origins,
                        EngineWorkers engineWorkers) {
        this(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, limits, trustedProxies, origins,
                engineWorkers, null);
    }

    /**
     * One of several nodes sharing a PostgreSQL database and a Redis (docs/deploy.md, "Several nodes"): its id
     * ({@code [a-z0-9]{1,16}}), the base URL the other nodes reach it at, the Redis URI, and the lease: a node whose
     * renewal is older than this is taken for dead and its games are taken over.
     */
    public record Cluster(String redisUri, String nodeId, String address, long leaseMs) {
        public Cluster {
            if (redisUri == null || !redisUri.matches("rediss?://.+")) {
                throw new IllegalArgumentException("--redis: must be redis://HOST:PORT, got " + redisUri);
            }
            if (nodeId == null || !koma.server.Cluster.NODE_ID.matcher(nodeId).matches()) {
                throw new IllegalArgumentException("--node-id: 1 to 16 lower-case letters and digits, got " + nodeId);
            }
            if (address == null || !address.matches("https?://[^/]+")) {
                throw new IllegalArgumentException("--node-address: must be http://HOST:PORT, got " + address);
            }
            if (leaseMs < 500 || leaseMs > 600_000) {
                throw new IllegalArgumentException("--lease: from 500 ms to 10 minutes, got " + leaseMs + " ms");
            }
        }
    }

    /** The same configuration as one of several nodes ({@code c}), or alone (null). */
    public ServerConfig withCluster(Cluster c) {
        return new ServerConfig(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, limits,
                trustedProxies, origins, engineWorkers, c);
    }

    /** Engine work on this node's own engine threads. */
    public ServerConfig(int port, String bind, String dbUrl, Path dataDir, double ratePerSecond, int rateBurst,
                        int engineThreads, Limits limits, List<String> trustedProxies, List<String> origins) {
        this(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, limits, trustedProxies, origins, null);
    }

    /** The default limits, no trusted proxy, no extra origin. */
    public ServerConfig(int port, String bind, String dbUrl, Path dataDir, double ratePerSecond, int rateBurst,
                        int engineThreads) {
        this(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, Limits.DEFAULTS, List.of(), List.of());
    }

    /** The same configuration with other limits. */
    public ServerConfig withLimits(Limits l) {
        return new ServerConfig(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, l, trustedProxies,
                origins, engineWorkers, cluster);
    }

    /** The same configuration with trusted proxies. */
    public ServerConfig withTrustedProxies(List<String> proxies) {
        return new ServerConfig(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, limits, proxies,
                origins, engineWorkers, cluster);
    }

    /** The same configuration with engine work on workers ({@code w}) or on the node's own threads (null). */
    public ServerConfig withEngineWorkers(EngineWorkers w) {
        return new ServerConfig(port, bind, dbUrl, dataDir, ratePerSecond, rateBurst, engineThreads, limits,
                trustedProxies, origins, w, cluster);
    }

    /** The JDBC URL to use: the given one, or the SQLite file under the data directory. */
    public String jdbcUrl() {
        return dbUrl != null ? dbUrl : "jdbc:sqlite:" + dataDir.resolve("koma.db");
    }

    /** One engine thread per two cores, at least one. */
    public static int defaultEngineThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }

    /**
     * Every bound on what clients can make the server hold (docs/server-api.md, "Limits"). A client is an IPv4
     * address or an IPv6 /64 prefix ({@link ClientAddress}).
     *
     * @param gamesInMemory   live games held in memory at once; beyond it idle ones are unloaded, and when none can
     *                        be, creating or loading a game answers 503
     * @param gamesPerClient  unfinished games one client may have created and not yet finished
     * @param joinTimeout     a friend game nobody joined in this time is aborted
     * @param abandonAfter    an active game whose clock does not run and in which nobody acted for this long ends:
     *                        aborted before both sides moved, else lost by the side to move ("abandoned")
     * @param idleUnload      a game without a running clock, engine job or change in this time leaves memory
     * @param finishedUnload  a finished game leaves memory this long after its last change or load
     * @param feedQueue       messages queued for one feed connection; a client that falls further behind is
     *                        disconnected (close code 4008) and resyncs when it reconnects
     * @param feedsPerClient  open feed connections per client
     * @param feeds           open feed connections in all
     * @param analysisQueue   analyses waiting for an engine thread; a full queue answers 503 with Retry-After
     * @param writeQueue      changes waiting for the database writer; beyond it changes answer 503
     * @param backgroundQueue background engine jobs (whole-game analyses, one job per position) waiting for an
     *                        engine; beyond it 503 with Retry-After
     */
    public record Limits(int gamesInMemory, int gamesPerClient, Duration joinTimeout, Duration abandonAfter,
                         Duration idleUnload, Duration finishedUnload, int feedQueue, int feedsPerClient, int feeds,
                         int analysisQueue, int writeQueue, int backgroundQueue) {
        public static final Limits DEFAULTS = new Limits(5_000, 20, Duration.ofHours(24), Duration.ofDays(7),
                Duration.ofMinutes(10), Duration.ofMinutes(1), 64, 16, 10_000, 16, 20_000, 256);

        public Limits {
            positive("gamesInMemory", gamesInMemory);
            positive("gamesPerClient", gamesPerClient);
            positive("feedQueue", feedQueue);
            positive("feedsPerClient", feedsPerClient);
            positive("feeds", feeds);
            positive("analysisQueue", analysisQueue);
            positive("writeQueue", writeQueue);
            positive("backgroundQueue", backgroundQueue);
            for (Duration d : new Duration[]{joinTimeout, abandonAfter, idleUnload, finishedUnload}) {
                if (d == null || d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("limits: durations must be positive, got " + d);
                }
            }
        }

        private static void positive(String name, int v) {
            if (v < 1) {
                throw new IllegalArgumentException("limits: " + name + " must be at least 1, got " + v);
            }
        }

        /** The names of the limits, as {@link #with} takes them (and {@code koma serve} spells them as options). */
        public static final List<String> NAMES = List.of("gamesInMemory", "gamesPerClient", "joinTimeout",
                "abandonAfter", "idleUnload", "finishedUnload", "feedQueue", "feedsPerClient", "feeds", "analysisQueue",
                "writeQueue", "backgroundQueue");

        /** These limits with one changed by name; the value is a number, or a duration such as 90s, 10m, 24h, 7d. */
        public Limits with(String name, String value) {
            try {
                return switch (name) {
                    case "gamesInMemory" -> withGamesInMemory(Integer.parseInt(value));
                    case "gamesPerClient" -> withGamesPerClient(Integer.parseInt(value));
                    case "joinTimeout" -> withTimeouts(duration(value), abandonAfter, idleUnload, finishedUnload);
                    case "abandonAfter" -> withTimeouts(joinTimeout, duration(value), idleUnload, finishedUnload);
                    case "idleUnload" -> withTimeouts(joinTimeout, abandonAfter, duration(value), finishedUnload);
                    case "finishedUnload" -> withTimeouts(joinTimeout, abandonAfter, idleUnload, duration(value));
                    case "feedQueue" -> withFeeds(Integer.parseInt(value), feedsPerClient, feeds);
                    case "feedsPerClient" -> withFeeds(feedQueue, Integer.parseInt(value), feeds);
                    case "feeds" -> withFeeds(feedQueue, feedsPerClient, Integer.parseInt(value));
                    case "analysisQueue" -> withAnalysisQueue(Integer.parseInt(value));
                    case "writeQueue" -> new Limits(gamesInMemory, gamesPerClient, joinTimeout, abandonAfter, idleUnload,
                            finishedUnload, feedQueue, feedsPerClient, feeds, analysisQueue, Integer.parseInt(value),
                            backgroundQueue);
                    case "backgroundQueue" -> withBackgroundQueue(Integer.parseInt(value));
                    default -> throw new IllegalArgumentException("limits: unknown limit '" + name + "'; known: "
                            + String.join(", ", NAMES));
                };
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("limits: " + name + " must be a number, got '" + value + "'");
            }
        }

        /** A duration written as a number and a unit: ms, s, m, h or d (e.g. 500ms, 90s, 10m, 24h, 7d). */
        public static Duration duration(String text) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,9})(ms|s|m|h|d)").matcher(text.strip());
            if (!m.matches()) {
                throw new IllegalArgumentException("limits: '" + text + "' is not a duration such as 500ms, 90s, 10m, 24h or 7d");
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }

        public Limits withGamesInMemory(int n) {
            return new Limits(n, gamesPerClient, joinTimeout, abandonAfter, idleUnload, finishedUnload, feedQueue,
                    feedsPerClient, feeds, analysisQueue, writeQueue, backgroundQueue);
        }

        public Limits withGamesPerClient(int n) {
            return new Limits(gamesInMemory, n, joinTimeout, abandonAfter, idleUnload, finishedUnload, feedQueue,
                    feedsPerClient, feeds, analysisQueue, writeQueue, backgroundQueue);
        }

        public Limits withTimeouts(Duration join, Duration abandon, Duration idle, Duration finished) {
            return new Limits(gamesInMemory, gamesPerClient, join, abandon, idle, finished, feedQueue, feedsPerClient,
                    feeds, analysisQueue, writeQueue, backgroundQueue);
        }

        public Limits withFeeds(int queue, int perClient, int total) {
            return new Limits(gamesInMemory, gamesPerClient, joinTimeout, abandonAfter, idleUnload, finishedUnload,
                    queue, perClient, total, analysisQueue, writeQueue, backgroundQueue);
        }

        public Limits withAnalysisQueue(int n) {
            return new Limits(gamesInMemory, gamesPerClient, joinTimeout, abandonAfter, idleUnload, finishedUnload,
                    feedQueue, feedsPerClient, feeds, n, writeQueue, backgroundQueue);
        }

        public Limits withBackgroundQueue(int n) {
            return new Limits(gamesInMemory, gamesPerClient, joinTimeout, abandonAfter, idleUnload, finishedUnload,
                    feedQueue, feedsPerClient, feeds, analysisQueue, writeQueue, n);
        }
    }
}
