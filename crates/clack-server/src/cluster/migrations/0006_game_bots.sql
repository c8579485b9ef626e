-- The bots seated in each indexed game, so that ListGames by bot_id is one indexed query over
-- the whole cluster, newest first and paged by (created, id) like every other listing, instead
-- of a scan of each shard's own store.
--
-- A game's bots are fixed when it is created, so a row is written once (again: nothing
-- changes) in the same statement as the game's row in `games`.

CREATE TABLE game_bots (
    bot_id text NOT NULL,
    created_unix_millis bigint NOT NULL,
    game_id text NOT NULL,
    PRIMARY KEY (bot_id, created_unix_millis, game_id)
);

-- Games indexed before this table have no rows in it: set their sequence below any real one,
-- so that each shard's next reconciliation (at its start) writes them again, bots included.
UPDATE games SET sequence = -1;
