//! The database a cluster of shards shares (PostgreSQL): the connection, the schema, and the
//! follower that keeps each shard's memory in step with the tables.
//!
//! Without `--database` a server keeps everything in its own sled store and this module is not
//! used. With it, the rooms that own shared state keep their own tables through it: accounts and
//! API keys ([`crate::who::shared`]), bots and their versions and statistics
//! ([`crate::bots::shared`]), the index of every shard's games behind `ListGames`
//! ([`crate::games::index`]), matches ([`crate::matches::shared`]), the ladder's boards
//! ([`crate::ladder::shared`]) and kept reviews ([`crate::review::shared`]). The registry of
//! shards with their heartbeats ([`shards`]) and the leases that name the one shard doing a piece
//! of shared work ([`lease`]) are the cluster's own. Each shard still keeps its games' event logs
//! in its own store, and nothing on a move's path ever calls the database.
//!
//! The client is tokio-postgres with a deadpool pool, chosen over sqlx: no build-time database or
//! offline query data, a smaller build on two cores, and `LISTEN/NOTIFY` on a plain connection.
//!
//! [`Database`] owns the pool of connections, runs every call under one bound
//! ([`Database::call`]), and turns every failure, and a database that does not answer in time,
//! into [`Error::Database`](crate::error::Error::Database), which a client sees as UNAVAILABLE
//! naming the database: a shard whose database is away or hung keeps playing its games and
//! refuses only what needs shared state. [`migrate`] owns the schema, [`follow`] the reading of
//! what other shards changed. This module is the lowest room of the server: it knows nothing of
//! gRPC beyond that error, of games, of bots or of accounts.

pub(crate) mod follow;
pub mod lease;
pub mod migrate;
pub mod shards;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use tokio_postgres::NoTls;

use crate::error::{Error, Result};

/// How long a connection attempt, or a wait for a free pooled connection, may take before the
/// call answers UNAVAILABLE: short, so that a call meets a missing database quickly.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the database may run one statement before it cancels it itself (its
/// `statement_timeout`, set on every connection). Clack's statements take milliseconds; one
/// that runs this long is stuck, and ends with an error while its connection stays usable.
const STATEMENT_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a shard waits for one call, all told: a connection from the pool, then every
/// statement of the call. A database that is paused or hung, or whose host is cut off without a
/// reset, accepts connections and statements and never answers; it enforces no timeout of its
/// own then, and TCP keepalives see nothing wrong, so only this bound ends the wait. Past it the
/// call answers UNAVAILABLE naming the database, well before a request's own timeout.
pub const CALL_BOUND: Duration = Duration::from_secs(2);
/// Connections one shard keeps open at most. Shared state is read at start and followed (each
/// follower's listener has a connection of its own); calls that write it (accounts, keys, bots)
/// are rare, so a few connections serve them.
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
        // Kept with whatever options the URL gives: a later `-c` of the same setting wins.
        let options = format!("-c statement_timeout={}", STATEMENT_TIMEOUT.as_millis());
        config.options(config.get_options().map_or(options.clone(), |given| format!("{given} {options}")));
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

    /// Applies every migration not yet applied; answers the versions applied now. Migrations
    /// have a bound of their own ([`migrate::BOUND`]): they run once, at start, and may build
    /// indexes over big tables.
    pub async fn migrate(&self) -> Result<Vec<i32>> {
        self.call_within("migrate", migrate::BOUND, async |client| Ok(migrate::apply(client).await?)).await
    }

    /// The migration versions the database has.
    pub async fn applied(&self) -> Result<Vec<i32>> {
        self.call("reading the schema version", async |client| Ok(migrate::applied(client).await?)).await
    }

    /// Runs `work` on a pooled connection within [`CALL_BOUND`]: the one way a shard's calls
    /// reach the database ([`Database::call_within`]).
    pub async fn call<T>(&self, doing: &str, work: impl AsyncFnOnce(&mut Object) -> Result<T, Failure>) -> Result<T> {
        self.call_within(doing, CALL_BOUND, work).await
    }

    /// Runs `work` on a pooled connection, getting the connection and the work together bounded
    /// by `bound`. A failed statement, or no connection, answers UNAVAILABLE naming the
    /// database, with the detail in the log; so does a database that has not answered within
    /// the bound, and then the connection, left in the middle of the call in a state nobody
    /// knows, is closed rather than pooled again. What `work` refuses on its own terms
    /// ([`Failure::Refused`]) is answered as it is.
    async fn call_within<T>(
        &self,
        doing: &str,
        bound: Duration,
        work: impl AsyncFnOnce(&mut Object) -> Result<T, Failure>,
    ) -> Result<T> {
        let mut held = None;
        let done = self
            .within(doing, bound, async {
                let client = held.insert(self.client().await?);
                let done = work(client).await;
                // Finished, well or not: the connection is fit to be pooled again.
                held = None;
                done.map_err(|failure| match failure {
                    Failure::Statement(e) => self.failed(doing, &e),
                    Failure::Refused(e) => e,
                })
            })
            .await;
        if let Some(unfinished) = held {
            drop(Object::take(unfinished));
        }
        done
    }

    /// `work`, or UNAVAILABLE naming the database once `bound` has passed without an answer:
    /// the bound on everything a shard waits for from the database (its listeners' connections
    /// too, which are not pooled).
    pub(crate) async fn within<T>(
        &self,
        doing: &str,
        bound: Duration,
        work: impl Future<Output = Result<T>>,
    ) -> Result<T> {
        tokio::time::timeout(bound, work).await.unwrap_or_else(|_| {
            tracing::warn!(database = %self.shown, doing, ?bound, "the shared database did not answer in time");
            Err(Error::Database(format!("{doing}: no answer within {} s", bound.as_secs_f64())))
        })
    }

    /// A pooled connection, or UNAVAILABLE naming the database.
    async fn client(&self) -> Result<Object> {
        self.pool.get().await.map_err(|e| {
            tracing::warn!(database = %self.shown, error = %e, "no connection to the shared database");
            Error::Database(format!("cannot connect: {}", short(&e.to_string())))
        })
    }

    /// A failed statement as the error a client sees: UNAVAILABLE naming the database, detail
    /// in the server's log.
    pub(crate) fn failed(&self, doing: &str, error: &tokio_postgres::Error) -> Error {
        let error = with_causes(error);
        tracing::warn!(database = %self.shown, doing, %error, "a shared database call failed");
        Error::Database(format!("{doing} failed: {}", short(&error)))
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

/// How a call's work stops short of its answer.
#[derive(Debug)]
pub enum Failure {
    /// A statement failed: answered as UNAVAILABLE naming the database, the detail logged.
    Statement(tokio_postgres::Error),
    /// The work refused on its own terms (a quota, a name taken): answered as it is.
    Refused(Error),
}

impl From<tokio_postgres::Error> for Failure {
    fn from(error: tokio_postgres::Error) -> Failure {
        Failure::Statement(error)
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        Failure::Refused(error)
    }
}

impl From<migrate::MigrateError> for Failure {
    fn from(error: migrate::MigrateError) -> Failure {
        match error {
            migrate::MigrateError::Postgres(error) => Failure::Statement(error),
            newer @ migrate::MigrateError::Newer { .. } => Failure::Refused(Error::Database(newer.to_string())),
        }
    }
}

/// An error and its causes, as one text: the driver's own says only "db error", and the
/// database's message ("canceling statement due to statement timeout") is its cause.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(error) = cause {
        text = format!("{text}: {error}");
        cause = error.source();
    }
    text
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
            out.push('…');
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
    fn every_connection_sets_the_statement_timeout_after_the_urls_own_options() {
        let database = Database::new("postgres://clack@db/clack?options=-c%20search_path%3Dx").expect("a URL");
        assert_eq!(database.config().get_options(), Some("-c search_path=x -c statement_timeout=1000"));
        let database = Database::new("postgres://clack@db/clack").expect("a URL");
        assert_eq!(database.config().get_options(), Some("-c statement_timeout=1000"));
    }

    #[test]
    fn a_bad_url_is_refused_without_quoting_its_password() {
        let error = Database::new("postgres://clack:s3cret@db:notaport/clack").expect_err("a bad port");
        assert!(!error.to_string().contains("s3cret"), "{error}");
        assert!(error.to_string().starts_with("database:"), "{error}");
    }
}
