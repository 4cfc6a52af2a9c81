-- Several nodes on one PostgreSQL database (docs/deploy.md, "Several nodes"; unused on SQLite, where one process is
-- the whole server). Each node has a row it renews (alive_at, epoch ms of the node's clock) while it runs; a live
-- game belongs to the node named in game_owners, for as long as that node's row is renewed within the lease. A
-- node that finds an owner's row stale takes the game over with one conditional upsert (the database serialises
-- two takers), reloads it and gives the running side back the time since the dead node's last renewal.
-- `cluster_secret` holds the random secret with which nodes recognise each other's forwarded requests.
-- Portable SQL: the same script runs on SQLite and PostgreSQL.
CREATE TABLE nodes (
    id         VARCHAR(32)  PRIMARY KEY,
    address    VARCHAR(200) NOT NULL,
    started_at BIGINT       NOT NULL,
    alive_at   BIGINT       NOT NULL,
    -- set when the node stopped cleanly: its games are taken over at once, the clocks given back time from here
    left_at    BIGINT
);

CREATE TABLE game_owners (
    game_id VARCHAR(32) PRIMARY KEY,
    node_id VARCHAR(32) NOT NULL,
    since   BIGINT      NOT NULL
);

CREATE INDEX game_owners_node ON game_owners (node_id);

CREATE TABLE cluster_secret (
    id     INTEGER     PRIMARY KEY,
    secret VARCHAR(64) NOT NULL
);
