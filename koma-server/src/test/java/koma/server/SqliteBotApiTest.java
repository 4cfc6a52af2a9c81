package koma.server;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The bot and board API on a real SQLite file. */
class SqliteBotApiTest extends BotApiSuite {
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        startServer("jdbc:sqlite:" + dir.resolve("koma.db"), dir);
    }
}
