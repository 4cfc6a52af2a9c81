package koma.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code koma worker} and {@code koma serve --engine-workers} refuse what cannot work with a message naming the option
 * (the worker serving jobs is tested on a real PostgreSQL in koma-server's EngineWorkersTest).
 */
class WorkerCommandTest {
    @Test
    void aWorkerNeedsPostgresql() {
        Cli.Result r = Cli.process("worker", "--db", "jdbc:sqlite:/tmp/koma-none.db");
        assertEquals(2, r.exit(), r.out() + r.err()); // Main gives bad input exit code 2
        assertTrue(r.err().contains("--db: a worker needs the nodes' PostgreSQL database"), r.err());
    }

    @Test
    void badThreadsAndLeaseAreNamed() {
        Cli.Result threads = Cli.process("worker", "--db", "jdbc:postgresql://127.0.0.1:1/none", "--threads", "0");
        assertTrue(threads.err().contains("--threads: must be from 1 to 256, got 0"), threads.err());
        Cli.Result lease = Cli.process("worker", "--db", "jdbc:postgresql://127.0.0.1:1/none", "--lease", "10 minutes");
        assertTrue(lease.err().contains("is not a duration"), lease.err());
    }

    @Test
    void serveWithEngineWorkersNeedsPostgresql() {
        Cli.Result r = Cli.process("serve", "--port", "0", "--engine-workers");
        assertEquals(2, r.exit(), r.out() + r.err()); // Main gives bad input exit code 2
        assertTrue(r.err().contains("--engine-workers: needs a PostgreSQL database"), r.err());
    }
}
