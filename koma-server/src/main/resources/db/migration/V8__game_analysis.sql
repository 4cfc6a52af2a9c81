-- Whole-game analyses of finished games (GameAnalyses): the engine's judgement of each position of a game, one row
-- per ply (0 = the start position), written as each ply's background job ends; score from the side to move's view,
-- score_cp or mate (moves to mate, negative when the side to move is mated), and the best move there.
-- Portable SQL: the same script runs on SQLite and PostgreSQL. (V6 is left for the several-nodes work.)
CREATE TABLE game_analysis (
    game_id  VARCHAR(32) NOT NULL,
    ply      INTEGER     NOT NULL,
    depth    INTEGER     NOT NULL,
    score_cp INTEGER,
    mate     INTEGER,
    best     VARCHAR(16),
    PRIMARY KEY (game_id, ply)
);
