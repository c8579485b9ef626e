-- The cluster's game index: one row per game of every shard, holding what ListGames filters and
-- sorts on and the summary it answers with. A shard writes a game's row when the game is
-- created, while its seats fill, when it starts and when it ends (and when a review is kept),
-- never per move; the shard's own store stays the truth, and the shard reconciles its rows
-- from it at start and after an outage.
--
-- A row never goes back in time: an update is applied only when its sequence is at least the
-- row's, so a late or repeated write changes nothing.

CREATE TABLE games (
    id text PRIMARY KEY,
    shard text NOT NULL,
    kind integer NOT NULL,
    status integer NOT NULL,
    created_unix_millis bigint NOT NULL,
    sequence bigint NOT NULL,
    -- Whose quota of live games the game counts against (empty: not known to the writer).
    quota_key text NOT NULL DEFAULT '',
    -- The engine levels with a kept review, comma-separated.
    reviewed text NOT NULL DEFAULT '',
    -- The GameSummary as protobuf, as ListGames answers it.
    summary bytea NOT NULL,
    indexed_at timestamptz NOT NULL DEFAULT now()
);

-- Newest first, paged by (created, id): one index per filter ListGames offers.
CREATE INDEX games_newest ON games (created_unix_millis, id);
CREATE INDEX games_by_kind ON games (kind, created_unix_millis, id);
CREATE INDEX games_by_status ON games (status, created_unix_millis, id);
CREATE INDEX games_by_kind_status ON games (kind, status, created_unix_millis, id);
-- An account's unfinished games on every shard (waiting = 1, active = 2), for its quota.
CREATE INDEX games_live_by_quota ON games (quota_key, shard) WHERE status IN (1, 2);
