package koma.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bot and board API on a real PostgreSQL server ({@link PgCluster}). Skipped only when no PostgreSQL is installed
 * and the run is not CI; in CI ({@code CI=true}) a missing server fails the build.
 */
class PostgresBotApiTest extends BotApiSuite {
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        PgCluster pg = PgCluster.get();
        if (pg.url == null) {
            if ("true".equals(System.getenv("CI"))) {
                fail("CI=true but no PostgreSQL: set KOMA_TEST_PG_URL or install postgresql (.ci/run does)");
            }
            Assumptions.abort("no PostgreSQL (KOMA_TEST_PG_URL unset, nothing under /usr/lib/postgresql)");
        }
        startServer(pg.url, dir);
    }
}
