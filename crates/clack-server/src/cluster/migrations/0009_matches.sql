-- Matches, shared by the cluster: each match's record (the request with its entrants pinned,
-- the ratings they started with, its owner, every game played with its result, its status), so
-- that any shard answers WatchMatch and ListGames by match, and a match whose shard dies is
-- resumed by another. A running match is played by the holder of the lease `match/{id}`
-- (migration 7), and its record is written only under that lease.
CREATE TABLE matches (
    match_id text PRIMARY KEY,
    -- A MatchStatus: 1 running, 2 finished, 3 failed.
    status integer NOT NULL,
    record bytea NOT NULL,
    updated_unix_millis bigint NOT NULL
);

-- The running matches, which shards look through for one whose holder is gone.
CREATE INDEX matches_running ON matches (match_id) WHERE status = 1;
