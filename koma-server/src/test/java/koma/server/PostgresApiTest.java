package koma.server;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The API suite on a real PostgreSQL server ({@link PgCluster#urlOrSkip}). */
class PostgresApiTest extends ApiSuite {
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws Exception {
        startServer(PgCluster.urlOrSkip(), dir);
    }
}
