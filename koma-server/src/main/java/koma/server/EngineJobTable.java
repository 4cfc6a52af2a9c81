package koma.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of the shared engine job queue, the {@code engine_jobs} table of PostgreSQL (migration V7), for the nodes
 * ({@link RemoteEngines}) and the workers ({@link EngineWorker}) alike. Every statement runs in autocommit on the
 * caller's connection. Times come from the database's clock (so that the machines' clocks need not agree), and
 * every change a waiting party must hear of is followed by a NOTIFY: {@link #JOBS_CHANNEL} when a job is queued
 * (workers wake up), {@link #DONE_CHANNEL} with the job's id when it is done or failed (its node reads it).
 */
final class EngineJobTable {
    /** NOTIFY channel: a job was queued. */
    static final String JOBS_CHANNEL = "koma_engine_jobs";
    /** NOTIFY channel: the job whose id is the payload is done or failed. */
    static final String DONE_CHANNEL = "koma_engine_done";
    /** Claims of one job before it fails (a worker that dies mid-job costs one). */
    static final int MAX_ATTEMPTS = 3;
    /** Finished rows nobody read (their node died) are deleted after this; so are rows this old in any state. */
    static final long FINISHED_KEPT_MS = 10 * 60_000L, ABANDONED_MS = 60 * 60_000L;

    /** The database's clock in epoch milliseconds, as SQL. */
    private static final String NOW = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

    private EngineJobTable() {
    }

    /** A claimed job: its row id, its JSON and which claim this is (1 = first). */
    record Claim(String id, String job, int attempt) {
    }

    /** A finished job: done with its result JSON, or failed with an error. */
    record Finished(String id, boolean done, String result, String error) {
    }

    /**
     * Queues a job unless {@code bound} jobs of its priority are already queued or running (then false); wakes the
     * workers. The count and the insert are one statement, so concurrent nodes overshoot the bound by a few at most.
     */
    static boolean insert(Connection c, String id, int priority, String json, int bound) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("WITH ins AS (INSERT INTO engine_jobs (id, priority, job, state, "
                + "attempts, created_at) SELECT ?, ?, ?, 'queued', 0, " + NOW + " WHERE (SELECT count(*) FROM engine_jobs "
                + "WHERE priority = ? AND state IN ('queued', 'running')) < ? RETURNING id) "
                + "SELECT pg_notify('" + JOBS_CHANNEL + "', id) FROM ins")) {
            st.setString(1, id);
            st.setInt(2, priority);
            st.setString(3, json);
            st.setInt(4, priority);
            st.setLong(5, bound);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Claims the first waiting job by priority then age, or a running one whose lease ran out (its worker died) and
     * that has claims left, for {@code worker} until {@code leaseMs} from now; null when there is none.
     */
    static Claim claim(Connection c, String worker, long leaseMs) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("UPDATE engine_jobs SET state = 'running', claimed_by = ?, "
                + "lease_until = " + NOW + " + ?, attempts = attempts + 1 WHERE id = (SELECT id FROM engine_jobs "
                + "WHERE (state = 'queued' OR state = 'running' AND lease_until < " + NOW + ") AND attempts < ? "
                + "ORDER BY priority, created_at, id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, job, attempts")) {
            st.setString(1, worker);
            st.setLong(2, leaseMs);
            st.setInt(3, MAX_ATTEMPTS);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? new Claim(rs.getString(1), rs.getString(2), rs.getInt(3)) : null;
            }
        }
    }

    /** Extends a claim's lease; false when the claim is no longer this worker's (its lease ran out and it was taken). */
    static boolean renew(Connection c, String id, String worker, long leaseMs) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("UPDATE engine_jobs SET lease_until = " + NOW + " + ? "
                + "WHERE id = ? AND claimed_by = ? AND state = 'running'")) {
            st.setLong(1, leaseMs);
            st.setString(2, id);
            st.setString(3, worker);
            return st.executeUpdate() == 1;
        }
    }

    /**
     * Writes a claimed job's answer (result JSON, or an error when {@code result} is null) and tells its node;
     * false when the claim was no longer this worker's (another one took the job over; its answer counts).
     */
    static boolean finish(Connection c, String id, String worker, String result, String error) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("WITH up AS (UPDATE engine_jobs SET state = ?, result = ?, "
                + "error = ?, lease_until = NULL, finished_at = " + NOW + " WHERE id = ? AND claimed_by = ? "
                + "AND state = 'running' RETURNING id) SELECT pg_notify('" + DONE_CHANNEL + "', id) FROM up")) {
            st.setString(1, result != null ? "done" : "failed");
            st.setString(2, result);
            st.setString(3, result != null ? null : error);
            st.setString(4, id);
            st.setString(5, worker);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Fails the running jobs whose lease ran out after their last claim, tells their nodes, and deletes rows nobody
     * will read (finished long ago, or abandoned); returns how many jobs it failed.
     */
    static int sweep(Connection c) throws SQLException {
        int failed;
        try (PreparedStatement st = c.prepareStatement("WITH up AS (UPDATE engine_jobs SET state = 'failed', "
                + "error = 'engine workers: the job was claimed ' || attempts || ' times and its worker stopped each time', "
                + "finished_at = " + NOW + " WHERE state = 'running' AND lease_until < " + NOW + " AND attempts >= ? "
                + "RETURNING id) SELECT pg_notify('" + DONE_CHANNEL + "', id) FROM up")) {
            st.setInt(1, MAX_ATTEMPTS);
            try (ResultSet rs = st.executeQuery()) {
                failed = 0;
                while (rs.next()) {
                    failed++;
                }
            }
        }
        try (PreparedStatement st = c.prepareStatement("DELETE FROM engine_jobs WHERE state IN ('done', 'failed') "
                + "AND finished_at < " + NOW + " - ? OR created_at < " + NOW + " - ?")) {
            st.setLong(1, FINISHED_KEPT_MS);
            st.setLong(2, ABANDONED_MS);
            st.executeUpdate();
        }
        return failed;
    }

    /** Reads and deletes the answers of those of {@code ids} that are finished. */
    static List<Finished> take(Connection c, List<String> ids) throws SQLException {
        List<Finished> out = new ArrayList<>();
        if (ids.isEmpty()) {
            return out;
        }
        try (PreparedStatement st = c.prepareStatement("DELETE FROM engine_jobs WHERE id = ANY(?) "
                + "AND state IN ('done', 'failed') RETURNING id, state, result, error")) {
            st.setArray(1, c.createArrayOf("varchar", ids.toArray()));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(new Finished(rs.getString(1), "done".equals(rs.getString(2)), rs.getString(3),
                            rs.getString(4)));
                }
            }
        }
        return out;
    }

    /** Deletes a job that no worker has claimed yet; true when it did (no worker will run it now). */
    static boolean withdrawQueued(Connection c, String id) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("DELETE FROM engine_jobs WHERE id = ? AND state = 'queued'")) {
            st.setString(1, id);
            return st.executeUpdate() == 1;
        }
    }

    /** Deletes a job in any state (its node gave up on it). */
    static void delete(Connection c, String id) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("DELETE FROM engine_jobs WHERE id = ?")) {
            st.setString(1, id);
            st.executeUpdate();
        }
    }

    /** Puts a stopping worker's running jobs back in the queue (the claim does not count) and wakes the workers. */
    static int handBack(Connection c, String worker) throws SQLException {
        int n;
        try (PreparedStatement st = c.prepareStatement("UPDATE engine_jobs SET state = 'queued', claimed_by = NULL, "
                + "lease_until = NULL, attempts = attempts - 1 WHERE claimed_by = ? AND state = 'running'")) {
            st.setString(1, worker);
            n = st.executeUpdate();
        }
        if (n > 0) {
            try (Statement st = c.createStatement()) {
                st.execute("NOTIFY " + JOBS_CHANNEL);
            }
        }
        return n;
    }

    /** LISTENs on a channel on this connection. */
    static void listen(Connection c, String channel) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("LISTEN " + channel);
        }
    }
}
