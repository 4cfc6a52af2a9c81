package koma.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.ResultSet;

/**
 * The rollback check that SQLite's and PostgreSQL's transaction tests share: work that throws an Error (an
 * assertion, say) or an exception inside {@link Database#transaction} is rolled back, and a later write, made
 * through {@code other} (another connection to the same database, or the same one), is the only row kept.
 */
final class RollbackCheck {
    private RollbackCheck() {
    }

    /** Creates {@code table} through {@code db}, fails two transactions in it, writes once through {@code other}. */
    static void failedWorkIsRolledBack(Database db, Database other, String table) {
        db.transaction(c -> c.createStatement().execute("CREATE TABLE " + table + " (n INTEGER)"));
        AssertionError thrown = assertThrows(AssertionError.class, () -> db.transaction(c -> {
            c.createStatement().execute("INSERT INTO " + table + " VALUES (1)");
            throw new AssertionError("inside the transaction");
        }));
        assertEquals("inside the transaction", thrown.getMessage());
        IllegalStateException failed = assertThrows(IllegalStateException.class, () -> db.transaction(c -> {
            c.createStatement().execute("INSERT INTO " + table + " VALUES (2)");
            throw new IllegalStateException("an exception");
        }));
        assertEquals("an exception", failed.getMessage());
        other.transaction(c -> c.createStatement().execute("INSERT INTO " + table + " VALUES (3)"));
        other.transaction(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT n FROM " + table + " ORDER BY n")) {
                rs.next();
                assertEquals(3, rs.getInt(1), "only the committed row");
                assertFalse(rs.next(), "the rolled-back rows are gone");
            }
        });
    }
}
