-- Engine work shared by the nodes and the `koma worker` processes (PostgreSQL only; the table exists unused on
-- SQLite). A node inserts a job (state 'queued'); a worker claims it (FOR UPDATE SKIP LOCKED, by priority then age:
-- state 'running', claimed_by, lease_until renewed while it runs), then writes 'done' with the result JSON or
-- 'failed' with an error; the node that waits deletes the row as it reads the answer. A running job whose lease ran
-- out is claimed again until it has been tried `attempts` times. Times are epoch milliseconds of the database's clock.
-- Portable SQL: the same script runs on SQLite and PostgreSQL.
CREATE TABLE engine_jobs (
    id          VARCHAR(40)  PRIMARY KEY,
    -- 0: a computer move, 1: an analysis, 2: background work (EngineQueue.Priority)
    priority    INTEGER      NOT NULL,
    job         TEXT         NOT NULL,
    -- queued, running, done, failed
    state       VARCHAR(16)  NOT NULL,
    attempts    INTEGER      NOT NULL,
    claimed_by  VARCHAR(100),
    lease_until BIGINT,
    result      TEXT,
    error       TEXT,
    created_at  BIGINT       NOT NULL,
    finished_at BIGINT
);

CREATE INDEX engine_jobs_queue ON engine_jobs (state, priority, created_at);
