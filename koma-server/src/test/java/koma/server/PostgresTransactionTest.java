package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.ResultSet;

import org.junit.jupiter.api.Test;

/**
 * {@link Database#transaction} on a real PostgreSQL server ({@link PgCluster#urlOrSkip}): work that throws an Error
 * (an assertion, say) is rolled back like work that throws an exception. Before, the Error passed the catch and the
 * {@code finally} that puts the connection back in auto-commit committed the half-done work.
 */
class PostgresTransactionTest {
    @Test
    void anErrorInsideATransactionRollsItBack() throws Exception {
        try (Database db = new Database(PgCluster.urlOrSkip())) {
            db.transaction(c -> c.createStatement().execute("CREATE TABLE tx_probe (n INTEGER)"));
            AssertionError thrown = assertThrows(AssertionError.class, () -> db.transaction(c -> {
                c.createStatement().execute("INSERT INTO tx_probe VALUES (1)");
                throw new AssertionError("inside the transaction");
            }));
            assertEquals("inside the transaction", thrown.getMessage());
            IllegalStateException failed = assertThrows(IllegalStateException.class, () -> db.transaction(c -> {
                c.createStatement().execute("INSERT INTO tx_probe VALUES (2)");
                throw new IllegalStateException("an exception");
            }));
            assertEquals("an exception", failed.getMessage());
            db.transaction(c -> c.createStatement().execute("INSERT INTO tx_probe VALUES (3)"));
            db.transaction(c -> {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT n FROM tx_probe ORDER BY n")) {
                    rs.next();
                    assertEquals(3, rs.getInt(1), "only the committed row");
                    org.junit.jupiter.api.Assertions.assertFalse(rs.next(), "the rolled-back rows are gone");
                }
            });
        }
    }
}
