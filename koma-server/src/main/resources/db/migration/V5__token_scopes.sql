-- What a personal API token may do (space-separated scopes, as lichess's: bot:play, board:play, challenge:read,
-- challenge:write); tokens made before this had every scope.
ALTER TABLE api_tokens ADD COLUMN scopes VARCHAR(200) NOT NULL DEFAULT 'bot:play board:play challenge:read challenge:write';
