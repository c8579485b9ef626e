-- The shards of the cluster: each registers itself at start and beats every second; a shard whose
-- last beat is older than a few seconds is shown as down. Rows are kept when a shard stops, so
-- that a shard that is gone stays visible as down until an operator removes its row.

CREATE TABLE shards (
    name text PRIMARY KEY CHECK (name ~ '^[a-z0-9]([a-z0-9-]{0,18}[a-z0-9])?$'),
    address text NOT NULL,
    version text NOT NULL,
    started_at timestamptz NOT NULL,
    last_beat timestamptz NOT NULL
);
