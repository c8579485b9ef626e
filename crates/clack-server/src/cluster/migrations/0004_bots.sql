-- Bots and their versions, and the matches' results, shared by every shard: a bot uploaded through any shard can be seated
-- on every shard. A version is immutable (its id is its source's hash, or a remote bot's label),
-- so a shard may cache a version's source and compiled script for ever. Statistics and ratings
-- are updated by increments in one statement, so two shards finishing games of the same version
-- at once lose no update.
--
-- Shards follow these tables as they follow accounts (0001): by writing transaction id, woken by
-- NOTIFY on `clack_bots`. The source is not part of what they follow; it is read when a version
-- is first played on a shard.

CREATE TABLE bots (
    id text PRIMARY KEY,
    kind integer NOT NULL,
    remote boolean NOT NULL,
    -- Who owns it, as the server stores an owner (an account, or an owner token's hash).
    owner bytea NOT NULL,
    -- Whose quota it counts against, and how the owner is shown to others.
    quota_key text NOT NULL,
    owner_shown text NOT NULL,
    retired boolean NOT NULL DEFAULT false,
    created_unix_millis bigint NOT NULL,
    changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);

CREATE TABLE bot_versions (
    bot_id text NOT NULL REFERENCES bots (id),
    version text NOT NULL,
    -- A script's source; NULL for a remote bot's version.
    source text,
    size integer NOT NULL,
    uploaded_unix_millis bigint NOT NULL,
    retired boolean NOT NULL DEFAULT false,
    rating double precision NOT NULL DEFAULT 1500,
    games bigint NOT NULL DEFAULT 0,
    wins bigint NOT NULL DEFAULT 0,
    faults bigint NOT NULL DEFAULT 0,
    mean_decision_micros double precision NOT NULL DEFAULT 0,
    changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    PRIMARY KEY (bot_id, version)
);

-- What each finished match added to each seat's version, recorded in the same transaction as
-- the addition: a match counted again (a shard stopped between counting it and marking it
-- finished, then resumed it) finds its rows and adds nothing.
CREATE TABLE match_results (
    match_id text NOT NULL,
    seat integer NOT NULL,
    bot_id text NOT NULL,
    version text NOT NULL,
    games bigint NOT NULL,
    wins bigint NOT NULL,
    faults bigint NOT NULL,
    mean_decision_micros double precision NOT NULL,
    rating_change double precision NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (match_id, seat),
    FOREIGN KEY (bot_id, version) REFERENCES bot_versions (bot_id, version)
);

CREATE INDEX bots_changed ON bots (changed_xid);
CREATE INDEX bot_versions_changed ON bot_versions (changed_xid);
CREATE INDEX bots_by_quota ON bots (quota_key);

CREATE TRIGGER bots_changed BEFORE INSERT OR UPDATE ON bots
    FOR EACH ROW EXECUTE FUNCTION clack_row_changed('clack_bots');
CREATE TRIGGER bot_versions_changed BEFORE INSERT OR UPDATE ON bot_versions
    FOR EACH ROW EXECUTE FUNCTION clack_row_changed('clack_bots');
