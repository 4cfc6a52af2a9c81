package koma.server;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Accounts, lobby and ratings on a real SQLite file. */
class SqliteAccountTest extends AccountSuite {
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        startServer("jdbc:sqlite:" + dir.resolve("koma.db"), dir);
    }
}
