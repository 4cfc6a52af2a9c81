package koma.server;

import java.nio.file.Path;

/**
 * How a server runs: where it listens, which database it uses (a JDBC URL; null = SQLite file
 * {@code <dataDir>/koma.db}), the per-client rate limit (requests per second and burst; 0 = off) and the
 * number of engine threads for computer moves and analysis.
 */
public record ServerConfig(int port, String bind, String dbUrl, Path dataDir, double ratePerSecond, int rateBurst,
                           int engineThreads) {
    public static final double DEFAULT_RATE = 20;
    public static final int DEFAULT_BURST = 100;

    /** The JDBC URL to use: the given one, or the SQLite file under the data directory. */
    public String jdbcUrl() {
        return dbUrl != null ? dbUrl : "jdbc:sqlite:" + dataDir.resolve("koma.db");
    }

    /** One engine thread per two cores, at least one. */
    public static int defaultEngineThreads() {
        return Math.max(1, Runtime.getRuntime().availableProcessors() / 2);
    }
}
