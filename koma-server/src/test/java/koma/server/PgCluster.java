package koma.server;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A PostgreSQL server for the tests: the one named by {@code KOMA_TEST_PG_URL} (CI starts Debian's cluster and
 * sets it), or else a private cluster started here with the binaries under {@code /usr/lib/postgresql/N/bin}
 * (initdb runs as the {@code postgres} user when the tests run as root). {@link #url} is null when neither
 * exists.
 */
final class PgCluster {
    private static PgCluster shared;

    final String url;
    private final Path dir;
    private final Path bin;
    private final boolean asPostgres;

    private PgCluster(String url, Path dir, Path bin, boolean asPostgres) {
        this.url = url;
        this.dir = dir;
        this.bin = bin;
        this.asPostgres = asPostgres;
    }

    /** The cluster of this test run, started once; its database is emptied each time it is handed out. */
    static synchronized PgCluster get() throws Exception {
        if (shared == null) {
            String env = System.getenv("KOMA_TEST_PG_URL");
            if (env != null && !env.isBlank()) {
                shared = new PgCluster(env, null, null, false);
            } else {
                shared = startPrivate();
                if (shared.dir != null) {
                    Runtime.getRuntime().addShutdownHook(new Thread(shared::stop));
                }
            }
        }
        if (shared.url != null) {
            shared.reset();
        }
        return shared;
    }

    private static Path binaries() {
        File[] versions = new File("/usr/lib/postgresql").listFiles();
        if (versions == null) {
            return null;
        }
        return Arrays.stream(versions).filter(v -> new File(v, "bin/initdb").canExecute())
                .max(Comparator.comparingInt(v -> v.getName().matches("\\d+") ? Integer.parseInt(v.getName()) : 0))
                .map(v -> v.toPath().resolve("bin")).orElse(null);
    }

    private static PgCluster startPrivate() throws Exception {
        Path bin = binaries();
        if (bin == null) {
            return new PgCluster(null, null, null, false);
        }
        boolean root = "root".equals(System.getProperty("user.name"));
        Path dir = Files.createTempDirectory("koma-pg");
        if (root) {
            run(List.of("chown", "postgres:postgres", dir.toString()), false);
        }
        Path data = dir.resolve("data");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        PgCluster c = new PgCluster("jdbc:postgresql://127.0.0.1:" + port + "/koma_test?user=postgres", dir, bin, root);
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust", "-U", "postgres",
                "-E", "UTF8", "--no-sync"), root);
        run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-l", dir.resolve("log").toString(), "-w",
                "-o", "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start"), root);
        try (Connection conn = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres");
             Statement st = conn.createStatement()) {
            st.execute("CREATE DATABASE koma_test");
        }
        return c;
    }

    /** Drops every table, so each suite starts from an empty database. */
    private void reset() throws SQLException {
        try (Connection conn = DriverManager.getConnection(url); Statement st = conn.createStatement()) {
            java.util.List<String> tables = new java.util.ArrayList<>();
            try (java.sql.ResultSet rs = st.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
                while (rs.next()) {
                    tables.add('"' + rs.getString(1) + '"');
                }
            }
            if (!tables.isEmpty()) {
                st.execute("DROP TABLE IF EXISTS " + String.join(", ", tables) + " CASCADE");
            }
        }
    }

    private void stop() {
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(), "-m", "immediate",
                    "stop"), asPostgres);
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        } catch (Exception e) {
            System.err.println("could not stop the test PostgreSQL: " + e.getMessage());
        }
    }

    private static void run(List<String> cmd, boolean asPostgres) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asPostgres) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(cmd);
        Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException(String.join(" ", full) + " failed: " + out);
        }
    }

    /**
     * The test database's URL for a suite: skipped (JUnit assumption) only when no PostgreSQL is installed and the run
     * is not CI; in CI ({@code CI=true}) a missing server fails the build.
     */
    static String urlOrSkip() throws Exception {
        PgCluster pg = get();
        if (pg.url == null) {
            if ("true".equals(System.getenv("CI"))) {
                org.junit.jupiter.api.Assertions.fail(
                        "CI=true but no PostgreSQL: set KOMA_TEST_PG_URL or install postgresql (.ci/run does)");
            }
            org.junit.jupiter.api.Assumptions.abort("no PostgreSQL (KOMA_TEST_PG_URL unset, nothing under /usr/lib/postgresql)");
        }
        return pg.url;
    }
}
