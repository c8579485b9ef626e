-- The bots seated in each indexed game, so that ListGames by bot_id is one indexed query over
-- the whole cluster, newest first and paged by (created, id) like every other listing, instead
-- of a scan of each shard's own store.
--
-- A row is written in the same statement as its game's row in `games`, and only when that row
-- is (a write that is behind changes neither). Kind and status are kept here too, with an index
-- per filter as `games` has, so that a filtered page of a bot's games never walks the bot's
-- other games: a bot's few live games among its hundred thousand finished ones are one range.

CREATE TABLE game_bots (
    bot_id text NOT NULL,
    game_id text NOT NULL,
    kind integer NOT NULL,
    status integer NOT NULL,
    created_unix_millis bigint NOT NULL,
    PRIMARY KEY (bot_id, game_id)
);

CREATE INDEX game_bots_newest ON game_bots (bot_id, created_unix_millis, game_id);
CREATE INDEX game_bots_by_kind ON game_bots (bot_id, kind, created_unix_millis, game_id);
CREATE INDEX game_bots_by_status ON game_bots (bot_id, status, created_unix_millis, game_id);
CREATE INDEX game_bots_by_kind_status ON game_bots (bot_id, kind, status, created_unix_millis, game_id);

-- Games indexed before this table have no rows in it: set their sequence below any real one,
-- so that each shard's next reconciliation (at its start) writes them again, bots included.
UPDATE games SET sequence = -1;
