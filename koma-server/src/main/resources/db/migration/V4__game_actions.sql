-- In-game actions (docs/server-api.md): takeback requests and their refusals, rematch offers and the rematch's game,
-- the start position's side to move (for "games where it is my turn"), and the chat rooms. Portable SQL (SQLite and PostgreSQL).
ALTER TABLE games ADD COLUMN takeback_offer VARCHAR(8);
ALTER TABLE games ADD COLUMN takebacks_refused_first INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN takebacks_refused_second INTEGER NOT NULL DEFAULT 0;
-- 'first' or 'second' (the side that offered), 'declined', or NULL
ALTER TABLE games ADD COLUMN rematch_offer VARCHAR(8);
ALTER TABLE games ADD COLUMN rematch_id VARCHAR(32);
-- the side to move in the start position ('first' or 'second'), written when the game is created: with ply it
-- gives the side to move ("games where it is my turn") without a write per move
ALTER TABLE games ADD COLUMN start_side VARCHAR(8);

-- the sweep of overdue correspondence games
CREATE INDEX games_clock_running ON games (clock_type, status, turn_started_at);

-- chat messages; version is the game's version of the message's event (unique per game)
CREATE TABLE chat (
    game_id VARCHAR(32) NOT NULL REFERENCES games (id),
    version INTEGER     NOT NULL,
    room    VARCHAR(16) NOT NULL,
    sender  VARCHAR(16) NOT NULL,
    text    TEXT        NOT NULL,
    sent_at BIGINT      NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE INDEX chat_room ON chat (game_id, room, version);
