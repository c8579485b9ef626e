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

/// `url` with every password replaced by `***`, for anything printed: the configuration,
/// `clack db` output, logs and errors.
///
/// It reads `url` the way tokio-postgres does, so that every place the driver takes a password
/// from is masked: the `user:password@` of a `postgres://` or `postgresql://` URL, a
/// `password=` parameter of its query (the key percent-decoded, as the driver decodes it), and
/// a `password` key of libpq's `key = value` form, quoted or not. As a last guard, if the
/// password the driver would use still shows in the result (a form this reading missed), only
/// the parts the driver parsed are shown, rebuilt without it.
pub fn masked(url: &str) -> String {
    let shown = match url.strip_prefix("postgres://").or_else(|| url.strip_prefix("postgresql://")) {
        Some(rest) => format!("{}{}", &url[..url.len() - rest.len()], masked_url(rest)),
        None => masked_pairs(url),
    };
    match url.parse::<tokio_postgres::Config>().ok().and_then(|c| c.get_password().map(<[u8]>::to_vec)) {
        Some(password) if !password.is_empty() && contains(shown.as_bytes(), &password) => rebuilt(url),
        _ => shown,
    }
}

/// The part of a URL after its scheme, masked: credentials end at the first `@` and the
/// password at the first `:` in them; the query's parameters are split on `&`.
fn masked_url(rest: &str) -> String {
    let (credentials, rest) = match rest.split_once('@') {
        Some((credentials, rest)) => match credentials.split_once(':') {
            Some((user, _)) => (format!("{user}:***@"), rest),
            None => (format!("{credentials}@"), rest),
        },
        None => (String::new(), rest),
    };
    let Some((path, query)) = rest.split_once('?') else { return format!("{credentials}{rest}") };
    let query: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if percent_encoding::percent_decode_str(key).decode_utf8_lossy() == "password" => {
                format!("{key}=***")
            }
            _ => pair.to_owned(),
        })
        .collect();
    format!("{credentials}{path}?{}", query.join("&"))
}

/// libpq's `key = value` form, masked: spaces may surround `=`, and a value is either quoted
/// (`'...'`, backslash escapes) or runs to the next space (backslash escapes too). What cannot
/// be read is not shown.
fn masked_pairs(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start();
        out.push_str(&rest[..rest.len() - trimmed.len()]);
        if trimmed.is_empty() {
            return out;
        }
        let key_end = trimmed.find(|c: char| c.is_whitespace() || c == '=').unwrap_or(trimmed.len());
        let (key, after_key) = trimmed.split_at(key_end);
        let after_space = after_key.trim_start();
        let Some(after_equals) = after_space.strip_prefix('=') else {
            out.push_str("…");
            return out;
        };
        let value_start = after_equals.trim_start();
        let Some(value_len) = value_length(value_start) else {
            out.push_str(key);
            out.push_str("=…");
            return out;
        };
        out.push_str(&trimmed[..trimmed.len() - value_start.len()]);
        out.push_str(if key == "password" { "***" } else { &value_start[..value_len] });
        rest = &value_start[value_len..];
    }
}

/// The length in bytes of the value at the start of `text`, quotes included; `None` when it
/// is empty or its quote is never closed.
fn value_length(text: &str) -> Option<usize> {
    let quoted = text.starts_with('\'');
    let mut chars = text.char_indices().skip(usize::from(quoted));
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '\'' if quoted => return Some(i + 1),
            c if c.is_whitespace() && !quoted => return Some(i),
            _ => {}
        }
    }
    (!quoted && !text.is_empty()).then_some(text.len())
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

/// What the driver parsed of `url`, without the password: user, hosts and ports, database.
fn rebuilt(url: &str) -> String {
    let Ok(config) = url.parse::<tokio_postgres::Config>() else { return "(a database URL, not shown)".into() };
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .zip(config.get_ports().iter().chain(std::iter::repeat(&5432)))
        .map(|(host, port)| match host {
            tokio_postgres::config::Host::Tcp(name) => format!("{name}:{port}"),
            tokio_postgres::config::Host::Unix(path) => format!("{}:{port}", path.display()),
        })
        .collect();
    format!(
        "postgres://{}:***@{}/{}",
        config.get_user().unwrap_or_default(),
        hosts.join(","),
        config.get_dbname().unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form tokio-postgres takes a password from, each masked, and the URL still parses
    /// to the same password (so the test feeds the driver forms it really accepts).
    #[test]
    fn every_form_of_password_the_driver_accepts_is_masked() {
        let cases = [
            ("postgres://clack:s3cret@db:5432/clack", "postgres://clack:***@db:5432/clack"),
            ("postgresql://clack:s3cret@db/clack", "postgresql://clack:***@db/clack"),
            ("postgres://clack:s3%40cret@db/clack", "postgres://clack:***@db/clack"),
            ("postgres://clack@db:5432/clack?password=s3cret", "postgres://clack@db:5432/clack?password=***"),
            (
                "postgres://clack@db/clack?application_name=x&password=s3cret&connect_timeout=5",
                "postgres://clack@db/clack?application_name=x&password=***&connect_timeout=5",
            ),
            ("postgres://clack@db/clack?pass%77ord=s3cret", "postgres://clack@db/clack?pass%77ord=***"),
            ("postgres://db/clack?user=clack&password=s3%20cret", "postgres://db/clack?user=clack&password=***"),
            ("host=db user=clack password=s3cret", "host=db user=clack password=***"),
            ("host=db password = s3cret user=clack", "host=db password = *** user=clack"),
            ("host=db password='s3 cret' user=clack", "host=db password=*** user=clack"),
            ("host=db password='it\\'s s3cret' dbname=clack", "host=db password=*** dbname=clack"),
            ("host=db password=s3\\ cret", "host=db password=***"),
        ];
        for (url, shown) in cases {
            let config: tokio_postgres::Config = url.parse().unwrap_or_else(|e| panic!("{url}: {e}"));
            let password = String::from_utf8_lossy(config.get_password().unwrap_or_default()).into_owned();
            assert!(password.starts_with("s3") || password.starts_with("it's"), "{url} has password {password:?}");
            assert_eq!(masked(url), shown, "{url}");
            assert!(!masked(url).contains("cret"), "{url}");
        }
        assert_eq!(masked("postgres://clack@db/clack"), "postgres://clack@db/clack");
        assert_eq!(masked("host=db user=clack"), "host=db user=clack");
    }

    #[test]
    fn a_password_the_reading_missed_is_never_shown() {
        // A password that also appears elsewhere in the string falls back to the rebuilt form.
        let url = "postgres://clack:db@db:5432/clack";
        assert_eq!(masked(url), "postgres://clack:***@db:5432/clack");
        let url = "postgres://db:db@db/db";
        assert!(!masked(url).contains("db:db@"), "{}", masked(url));
        // Half a key=value string is not shown past the point it stops making sense.
        assert_eq!(masked("host=db password='s3cret"), "host=db password=…");
    }

    #[test]
    fn a_bad_url_is_refused_without_quoting_its_password() {
        let error = Database::new("postgres://clack:s3cret@db:notaport/clack").expect_err("a bad port");
        assert!(!error.to_string().contains("s3cret"), "{error}");
        assert!(error.to_string().starts_with("database:"), "{error}");
    }
}
