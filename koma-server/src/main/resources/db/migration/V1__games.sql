-- Games and their moves. Portable SQL: the same script runs on SQLite and PostgreSQL.
CREATE TABLE games (
    id                 VARCHAR(32) PRIMARY KEY,
    variant            VARCHAR(32) NOT NULL,
    mode               VARCHAR(16) NOT NULL,
    status             VARCHAR(16) NOT NULL,
    initial_fen        TEXT        NOT NULL,
    first_player       VARCHAR(32) NOT NULL,
    second_player      VARCHAR(32) NOT NULL,
    -- SHA-256 (hex) of the seat tokens; NULL while a seat is free
    first_token        VARCHAR(64),
    second_token       VARCHAR(64),
    clock_type         VARCHAR(16) NOT NULL,
    clock_initial_ms   BIGINT      NOT NULL,
    clock_increment_ms BIGINT      NOT NULL,
    clock_byoyomi_ms   BIGINT      NOT NULL,
    clock_periods      INTEGER     NOT NULL,
    -- each side's remaining main time and byoyomi periods at the start of the current turn
    first_ms           BIGINT      NOT NULL,
    second_ms          BIGINT      NOT NULL,
    first_periods      INTEGER     NOT NULL,
    second_periods     INTEGER     NOT NULL,
    -- server time (epoch ms) when the side to move's clock started; NULL when no clock runs
    turn_started_at    BIGINT,
    ply                INTEGER     NOT NULL,
    draw_offer         VARCHAR(8),
    result_winner      VARCHAR(8),
    result_termination VARCHAR(32),
    created_at         BIGINT      NOT NULL,
    updated_at         BIGINT      NOT NULL
);

CREATE INDEX games_status ON games (status);

CREATE TABLE moves (
    game_id   VARCHAR(32) NOT NULL REFERENCES games (id),
    ply       INTEGER     NOT NULL,
    move      VARCHAR(16) NOT NULL,
    played_at BIGINT      NOT NULL,
    PRIMARY KEY (game_id, ply)
);
