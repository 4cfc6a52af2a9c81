-- Accounts (docs/server-api.md, "Accounts and ratings"): players with a name and an Argon2id password hash, their
-- login sessions and API tokens (SHA-256 of the secret only), one Glicko-2 rating per rule set with its history
-- per game, and the accounts seated in each game. Portable SQL: the same script runs on SQLite and PostgreSQL.
CREATE TABLE users (
    id            VARCHAR(16)  PRIMARY KEY,
    -- the name as its owner wrote it, and its lower case for case-insensitive uniqueness; both NULL once deleted
    name          VARCHAR(20),
    name_key      VARCHAR(20)  UNIQUE,
    password_hash VARCHAR(200),
    bot           INTEGER      NOT NULL DEFAULT 0,
    created_at    BIGINT       NOT NULL,
    deleted_at    BIGINT
);

CREATE TABLE sessions (
    token_hash VARCHAR(64) PRIMARY KEY,
    user_id    VARCHAR(16) NOT NULL REFERENCES users (id),
    created_at BIGINT      NOT NULL,
    seen_at    BIGINT      NOT NULL
);

CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE api_tokens (
    token_hash VARCHAR(64) PRIMARY KEY,
    user_id    VARCHAR(16) NOT NULL REFERENCES users (id),
    label      VARCHAR(40) NOT NULL,
    created_at BIGINT      NOT NULL
);

CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE ratings (
    user_id    VARCHAR(16)      NOT NULL REFERENCES users (id),
    variant    VARCHAR(32)      NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER          NOT NULL,
    updated_at BIGINT           NOT NULL,
    PRIMARY KEY (user_id, variant)
);

CREATE TABLE rating_history (
    game_id          VARCHAR(32)      NOT NULL,
    user_id          VARCHAR(16)      NOT NULL REFERENCES users (id),
    variant          VARCHAR(32)      NOT NULL,
    rating_before    DOUBLE PRECISION NOT NULL,
    rating_after     DOUBLE PRECISION NOT NULL,
    deviation_after  DOUBLE PRECISION NOT NULL,
    at               BIGINT           NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE INDEX rating_history_user ON rating_history (user_id, variant, at);

-- the accounts seated in a game (NULL: a guest or the computer) and whether it counts for their ratings
ALTER TABLE games ADD COLUMN first_user VARCHAR(16);
ALTER TABLE games ADD COLUMN second_user VARCHAR(16);
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE INDEX games_first_user ON games (first_user, created_at);
CREATE INDEX games_second_user ON games (second_user, created_at);
