-- Leases, and the ladder as one service of the cluster.
--
-- A lease names the one process that does a piece of the cluster's work: playing a ladder
-- board (`ladder/{configuration}`), playing a match (`match/{id}`). It is held by a process (the
-- shard's name and a random id, so that a shard restarted under the same name is a new holder)
-- until `expires_at`, by the database's clock; its holder renews it every second. `epoch` goes
-- up at every change of holder and is the fencing token: every write of what a lease guards is
-- one statement that locks the lease's row and writes only if its holder and epoch are the
-- writer's and it has not expired, so a holder that was paused past its lease and wakes up
-- writes nothing.

CREATE TABLE leases (
    name text PRIMARY KEY,
    holder text NOT NULL,
    epoch bigint NOT NULL,
    expires_at timestamptz NOT NULL
);

-- A board's players, in the order the deals number them (a protobuf list; it only grows).
CREATE TABLE ladder_players (
    configuration text PRIMARY KEY,
    record bytea NOT NULL
);

-- A board's deals by number. A deal is written after each of its games (`closed` false) and
-- once more when it ends, with the ratings after it (`closed` true). A deal left open by a
-- holder that died is closed by the next holder, counting the games it stored.
CREATE TABLE ladder_deals (
    configuration text NOT NULL,
    n bigint NOT NULL,
    closed boolean NOT NULL,
    record bytea NOT NULL,
    epoch bigint NOT NULL,
    PRIMARY KEY (configuration, n)
);
