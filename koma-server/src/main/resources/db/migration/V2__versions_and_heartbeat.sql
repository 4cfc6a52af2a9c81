-- Live games: each game's event version, an index for the sweeps of stale games, and the server's heartbeat
-- (the last time it was known to run), so that a restart does not charge the downtime to a running clock.
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

CREATE INDEX games_status_updated ON games (status, updated_at);

CREATE TABLE server_state (
    id       INTEGER PRIMARY KEY,
    alive_at BIGINT  NOT NULL
);
