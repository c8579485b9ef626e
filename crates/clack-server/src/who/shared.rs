//! Accounts and API keys in the shared database, and how a shard follows them.
//!
//! Every shard holds all accounts and keys in memory, as a single server does
//! ([`crate::who::access`]), so identifying a request never waits on the database. Writes (a new
//! account, a new key, a revocation) go to the database first and then into this shard's
//! memory; the other shards learn of them through the follower ([`crate::cluster::follow`]), so a
//! revocation made on any shard is refused on every shard within a second.
//!
//! This module knows the tables and the SQL; what a key means and who may make one are
//! [`crate::who::access`]'s and [`crate::who::policy`]'s.

use crate::cluster::follow::{CHANGED_SINCE, Followed};
use crate::cluster::{Database, Failure};
use crate::error::Result;
use crate::who::access::{Access, AccountRecord, KeyRecord};

/// What changed since a shard last read.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    pub(crate) accounts: Vec<AccountRecord>,
    pub(crate) keys: Vec<KeyRecord>,
}

impl Followed for Access {
    type Changes = Changes;
    const LISTEN: &'static str = "LISTEN clack_access";
    const WHAT: &'static str = "accounts and keys";

    async fn read(database: &Database, from: &str) -> Result<(Changes, String)> {
        changes(database, from).await
    }

    fn apply(&self, changes: Changes) {
        Access::apply(self, changes);
    }
}

/// Every row written at or after transaction `from` (`"0"` for all), read in one snapshot, and
/// where the next read starts.
pub(crate) async fn changes(database: &Database, from: &str) -> Result<(Changes, String)> {
    crate::cluster::follow::in_snapshot(database, "reading accounts and keys", async |transaction| {
        rows(transaction, [CHANGED_SINCE; 2], from).await
    })
    .await
}

/// One key and its account, if the key exists (for a shard asked about a key made through
/// another shard a moment ago).
pub(crate) async fn key(database: &Database, key_id: &str) -> Result<Changes> {
    let account_of_key = "name IN (SELECT account FROM api_keys WHERE id = $1)";
    database
        .call("reading accounts and keys", async |client| rows(&*client, [account_of_key, "id = $1"], key_id).await)
        .await
}

/// The account rows and the key rows that match `conditions` (one each, on parameter `$1`).
async fn rows(
    client: &impl deadpool_postgres::GenericClient,
    [accounts_where, keys_where]: [&str; 2],
    parameter: &str,
) -> Result<Changes, Failure> {
    let accounts = client
        .query(&format!("SELECT name, admin, created_unix_millis FROM accounts WHERE {accounts_where}"), &[&parameter])
        .await?;
    let keys = client.query(&format!("SELECT {KEY_COLUMNS} FROM api_keys WHERE {keys_where}"), &[&parameter]).await?;
    Ok(Changes { accounts: accounts.iter().map(account_record).collect(), keys: keys.iter().map(key_record).collect() })
}

const KEY_COLUMNS: &str = "id, account, hash, created_unix_millis, revoked_unix_millis";

fn account_record(row: &tokio_postgres::Row) -> AccountRecord {
    AccountRecord { name: row.get(0), admin: row.get(1), created_unix_millis: row.get(2) }
}

fn key_record(row: &tokio_postgres::Row) -> KeyRecord {
    KeyRecord {
        id: row.get(0),
        account: row.get(1),
        hash: row.get(2),
        created_unix_millis: row.get(3),
        revoked_unix_millis: row.get(4),
    }
}

/// Adds an account; answers false (and changes nothing) if the name is taken.
pub(crate) async fn insert_account(database: &Database, account: &AccountRecord) -> Result<bool> {
    let inserted = database
        .call("adding an account", async |client| {
            Ok(client
                .execute(
                    "INSERT INTO accounts (name, admin, created_unix_millis) VALUES ($1, $2, $3) \
                     ON CONFLICT (name) DO NOTHING",
                    &[&account.name, &account.admin, &account.created_unix_millis],
                )
                .await?)
        })
        .await?;
    Ok(inserted == 1)
}

/// Whether an account of this name exists.
pub(crate) async fn account_exists(database: &Database, name: &str) -> Result<bool> {
    database
        .call("reading an account", async |client| {
            Ok(client.query_one("SELECT EXISTS (SELECT 1 FROM accounts WHERE name = $1)", &[&name]).await?.get(0))
        })
        .await
}

/// Stores a key, replacing the one with its id (the bootstrap key is replaced at each start).
pub(crate) async fn put_key(database: &Database, key: &KeyRecord) -> Result<()> {
    database
        .call("storing a key", async |client| {
            client
                .execute(
                    "INSERT INTO api_keys (id, account, hash, created_unix_millis, revoked_unix_millis) \
                     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET account = EXCLUDED.account, \
                     hash = EXCLUDED.hash, created_unix_millis = EXCLUDED.created_unix_millis, \
                     revoked_unix_millis = EXCLUDED.revoked_unix_millis",
                    &[&key.id, &key.account, &key.hash, &key.created_unix_millis, &key.revoked_unix_millis],
                )
                .await?;
            Ok(())
        })
        .await
}

/// Revokes a key at `now` unless it is revoked already; answers the key as it stands, or
/// `None` if there is no key with this id.
pub(crate) async fn revoke_key(database: &Database, id: &str, now: i64) -> Result<Option<KeyRecord>> {
    database
        .call("revoking a key", async |client| {
            let row = client
                .query_opt(
                    "WITH revoked AS (UPDATE api_keys SET revoked_unix_millis = $2 \
                                      WHERE id = $1 AND revoked_unix_millis = 0 RETURNING id) \
                     SELECT id, account, hash, created_unix_millis, \
                            CASE WHEN EXISTS (SELECT 1 FROM revoked) THEN $2 ELSE revoked_unix_millis END \
                     FROM api_keys WHERE id = $1",
                    &[&id, &now],
                )
                .await?;
            Ok(row.as_ref().map(key_record))
        })
        .await
}
