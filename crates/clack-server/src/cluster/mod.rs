//! The state a cluster of shards shares, in PostgreSQL: the room for everything that must be
//! one thing across shards rather than one per server.
//!
//! Without `--database` a server keeps all of it in its own sled store and this module is not
//! used. With it, the parts moved here so far are accounts and API keys ([`accounts`]), bots
//! and their versions and statistics ([`bots`]), the index of every shard's games behind
//! `ListGames` ([`index`]) and the registry of shards with their heartbeats ([`shards`]); each
//! shard still keeps its games' event logs in its own store, and nothing on a move's path ever
//! calls the database.
//!
//! [`Database`] owns the pool of connections and turns every failure into
//! [`Error::Database`](crate::error::Error::Database), which a client sees as UNAVAILABLE naming
//! the database: a shard whose database is away keeps playing its games and refuses only what
//! needs shared state. [`migrate`] owns the schema. This module knows nothing of gRPC beyond
//! that error, and nothing of games.

pub(crate) mod accounts;
pub(crate) mod bots;
pub(crate) mod follow;
pub mod index;
pub mod migrate;
pub mod shards;

use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use crate::error::{Error, Result};

/// How long a connection attempt, or a wait for a free pooled connection, may take before the
/// call answers UNAVAILABLE: short, so that a call meets a missing database quickly.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// Connections one shard keeps open at most. Shared state is read at start and followed by one
/// listener; calls that write it (accounts, keys) are rare, so a few connections serve them.
const POOL_SIZE: usize = 8;

/// What a cluster's shard shares, and how it behaves when the database is away.
#[derive(Clone, Debug)]
pub struct Shared {
    pub database: Arc<Database>,
    /// How long keys this shard knows stay accepted after it last heard from the database.
    pub key_grace: Duration,
}

/// The default of `--database-key-grace-secs`: long enough to ride out a database restart or
/// a failover, short enough that a key revoked meanwhile does not live on for long.
pub const DEFAULT_KEY_GRACE: Duration = Duration::from_secs(60);

/// The shared database: a connection pool and the settings to open more connections.
pub struct Database {
    pool: Pool,
    config: tokio_postgres::Config,
    /// The URL with any password masked, for logs and errors.
    shown: String,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database").field("url", &self.shown).finish_non_exhaustive()
    }
}

impl Database {
    /// Parses `url` (`postgres://user:password@host:port/dbname`, or libpq's `key=value` form)
    /// and builds the pool; no connection is made yet. A bad URL is an error naming the setting,
    /// never quoting the password.
    pub fn new(url: &str) -> Result<Arc<Database>> {
        let shown = masked(url);
        let mut config: tokio_postgres::Config =
            url.parse().map_err(|e| Error::Internal(format!("database: {shown} is not a PostgreSQL URL: {e}")))?;
        config.connect_timeout(CONNECT_TIMEOUT);
        if config.get_application_name().is_none() {
            config.application_name("clack");
        }
        let manager =
            Manager::from_config(config.clone(), NoTls, ManagerConfig { recycling_method: RecyclingMethod::Fast });
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(CONNECT_TIMEOUT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| Error::Internal(format!("database: cannot build the pool: {e}")))?;
        Ok(Arc::new(Database { pool, config, shown }))
    }

    /// Applies every migration not yet applied; answers the versions applied now.
    pub async fn migrate(&self) -> Result<Vec<i32>> {
        let mut client = self.client().await?;
        migrate::apply(&mut client).await.map_err(|e| self.failed("migrate", e))
    }

    /// The migration versions the database has.
    pub async fn applied(&self) -> Result<Vec<i32>> {
        let client = self.client().await?;
        migrate::applied(&client).await.map_err(|e| self.failed("reading the schema version", e))
    }

    /// A pooled connection, or UNAVAILABLE naming the database.
    pub async fn client(&self) -> Result<deadpool_postgres::Object> {
        self.pool.get().await.map_err(|e| {
            tracing::warn!(database = %self.shown, error = %e, "no connection to the shared database");
            Error::Database(format!("cannot connect: {}", short(&e.to_string())))
        })
    }

    /// A failed statement as the error a client sees: UNAVAILABLE naming the database, detail
    /// in the server's log.
    pub(crate) fn failed(&self, doing: &str, error: impl std::fmt::Display) -> Error {
        tracing::warn!(database = %self.shown, doing, %error, "a shared database call failed");
        Error::Database(format!("{doing} failed: {}", short(&error.to_string())))
    }

    /// The settings for a connection of its own (the listener's).
    pub(crate) fn config(&self) -> &tokio_postgres::Config {
        &self.config
    }

    /// The URL with the password masked.
    pub fn shown(&self) -> &str {
        &self.shown
    }
}

/// The first line of an error, at most 200 characters: enough to act on, never a wall of text.
fn short(text: &str) -> String {
    text.lines().next().unwrap_or_default().chars().take(200).collect()
}

/// `url` with the password replaced by `***`, in both URL forms, for anything printed.
pub fn masked(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((userinfo, host)) = rest.rsplit_once('@')
            && let Some((user, _)) = userinfo.split_once(':')
        {
            return format!("{scheme}://{user}:***@{host}");
        }
        return url.to_owned();
    }
    url.split_whitespace()
        .map(|pair| if pair.starts_with("password=") { "password=***" } else { pair })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_masked_in_both_url_forms() {
        assert_eq!(masked("postgres://clack:s3cret@db:5432/clack"), "postgres://clack:***@db:5432/clack");
        assert_eq!(masked("postgres://clack@db/clack"), "postgres://clack@db/clack");
        assert_eq!(masked("host=db user=clack password=s3cret"), "host=db user=clack password=***");
    }

    #[test]
    fn a_bad_url_is_refused_without_quoting_its_password() {
        let error = Database::new("postgres://clack:s3cret@db:notaport/clack").expect_err("a bad port");
        assert!(!error.to_string().contains("s3cret"), "{error}");
        assert!(error.to_string().starts_with("database:"), "{error}");
    }
}
