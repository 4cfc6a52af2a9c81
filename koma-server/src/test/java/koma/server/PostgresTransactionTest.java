package koma.server;

import org.junit.jupiter.api.Test;

/**
 * {@link Database#transaction} on a real PostgreSQL server ({@link PgCluster#urlOrSkip}): work that throws an Error
 * (an assertion, say) is rolled back like work that throws an exception. Before, the Error passed the catch and the
 * {@code finally} that puts the connection back in auto-commit committed the half-done work.
 */
class PostgresTransactionTest {
    @Test
    void failedWorkIsRolledBack() throws Exception {
        try (Database db = new Database(PgCluster.urlOrSkip())) {
            RollbackCheck.failedWorkIsRolledBack(db, db, "tx_probe");
        }
    }
}
