-- Accounts and their API keys, shared by every shard of a cluster.
--
-- A key row holds the SHA-256 hash of the whole key, never the key. Rows are never deleted: a
-- revoked key keeps its row with the time of revocation, so that every shard learns of it.
--
-- Shards follow changes by transaction id: every insert or update stamps its row with the id of
-- the transaction that wrote it (`changed_xid`), and a shard reads the rows stamped at or after
-- the oldest transaction still running when it last read (its snapshot's xmin). A transaction
-- that commits late is therefore never skipped, which a sequence number could not promise. A
-- NOTIFY on `clack_access` tells listening shards to read at once; they also read every half
-- second in case a notification is lost with its connection.

CREATE TABLE accounts (
    name text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9_-]{1,64}$'),
    admin boolean NOT NULL,
    created_unix_millis bigint NOT NULL,
    changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);

CREATE TABLE api_keys (
    id text PRIMARY KEY,
    account text NOT NULL REFERENCES accounts (name),
    hash bytea NOT NULL CHECK (octet_length(hash) = 32),
    created_unix_millis bigint NOT NULL,
    revoked_unix_millis bigint NOT NULL DEFAULT 0,
    changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);

CREATE INDEX accounts_changed ON accounts (changed_xid);
CREATE INDEX api_keys_changed ON api_keys (changed_xid);

-- Stamps a row with the transaction that writes it and notifies the channel named by the
-- trigger's argument. Every followed table's trigger uses it.
CREATE FUNCTION clack_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_xid := pg_current_xact_id();
    PERFORM pg_notify(TG_ARGV[0], TG_TABLE_NAME);
    RETURN NEW;
END
$$;

CREATE TRIGGER accounts_changed BEFORE INSERT OR UPDATE ON accounts
    FOR EACH ROW EXECUTE FUNCTION clack_row_changed('clack_access');
CREATE TRIGGER api_keys_changed BEFORE INSERT OR UPDATE ON api_keys
    FOR EACH ROW EXECUTE FUNCTION clack_row_changed('clack_access');
