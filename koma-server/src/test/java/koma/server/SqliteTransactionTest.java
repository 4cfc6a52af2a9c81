package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two databases on one SQLite file, as the server and {@code koma accounts add} (or two of the server's own
 * connections): a transaction that reads and then writes is not refused with SQLITE_BUSY when the other writes in
 * between; the other waits for it instead. (With a deferred transaction it failed at once: BotCommandTest hit it in
 * a fresh-clone CI run, stop 49.)
 */
class SqliteTransactionTest {
    @TempDir
    Path dir;

    @Test
    void aReadThenWriteTransactionSurvivesAWriteFromAnotherConnection() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("koma.db");
        try (Database a = new Database(url); Database b = new Database(url)) {
            a.transaction(c -> c.createStatement().execute("CREATE TABLE t (n INTEGER)"));
            CountDownLatch read = new CountDownLatch(1);
            CountDownLatch otherWrote = new CountDownLatch(1);
            AtomicReference<Throwable> otherFailed = new AtomicReference<>();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    read.await();
                    b.transaction(c -> c.createStatement().execute("INSERT INTO t VALUES (2)"));
                    otherWrote.countDown();
                } catch (Throwable e) {
                    otherFailed.set(e);
                    otherWrote.countDown();
                }
            });
            a.transaction(c -> {
                try (PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM t"); ResultSet rs = st.executeQuery()) {
                    rs.next();
                    assertEquals(0, rs.getInt(1));
                }
                read.countDown();
                try {
                    // the other write commits here if it can (it cannot while this transaction holds the lock)
                    otherWrote.await(1, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                c.createStatement().execute("INSERT INTO t VALUES (1)");
            });
            other.join(20_000);
            assertNull(otherFailed.get(), () -> "the other connection's write: " + otherFailed.get());
            a.transaction(c -> {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM t")) {
                    rs.next();
                    assertEquals(2, rs.getInt(1), "both rows are there");
                }
            });
        }
    }

    /**
     * An Error or an exception thrown inside a transaction rolls it back: its row is not kept, and the write lock it
     * took is released, so another connection can write (without the rollback that write fails with SQLITE_BUSY once
     * the 10 s busy timeout is out).
     */
    @Test
    void failedWorkIsRolledBackAndReleasesTheLock() {
        String url = "jdbc:sqlite:" + dir.resolve("error.db");
        try (Database a = new Database(url); Database b = new Database(url)) {
            RollbackCheck.failedWorkIsRolledBack(a, b, "t");
        }
    }
}
