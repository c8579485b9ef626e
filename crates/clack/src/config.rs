//! `clack serve`'s settings, from four places: a flag, else a `CLACK_…` environment variable,
//! else a key of the optional TOML file (`--config`), else the default.
//!
//! Every setting has the same name in all three: the flag `--request-timeout-ms`, the variable
//! `CLACK_REQUEST_TIMEOUT_MS`, the key `request-timeout-ms`. Flags and variables come from clap
//! (which also rejects a bad value in either); none has a clap default, so that a value from
//! the file is never hidden behind one. The file is read with `deny_unknown_fields`, so a typo is
//! an error that names the key. Secrets (the first admin key) come from the environment or a
//! file only, and `--print-config` masks them. This module knows nothing of what the settings
//! do; `serve.rs` uses them.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::Context;
use clack_server::Quotas;
use clap::builder::BoolishValueParser;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Durability {
    /// Acknowledge a move only after its own flush.
    Sync,
    /// Concurrent moves share one flush (group commit); still acknowledged only once on disk.
    Batched,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    /// Anyone who reaches the port (for a local server).
    Open,
    /// Accounts with an API key only (for a shared server).
    Closed,
}

/// One layer of settings: what the command line and environment say, or what the file says.
/// Every field is optional; [`Settings::resolve`] fills the gaps from the next layer down.
#[derive(Debug, Default, clap::Args, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Layer {
    /// Address to listen on for gRPC; port 0 picks a free port [default: 127.0.0.1:50051].
    #[arg(long, env = "CLACK_ADDR")]
    addr: Option<SocketAddr>,
    /// Address of the Prometheus `/metrics` port; "off" (or "") turns it off
    /// [default: 127.0.0.1:9464].
    #[arg(long, env = "CLACK_METRICS_ADDR")]
    metrics_addr: Option<String>,
    /// The sled database directory; created if missing [default: clack-data].
    #[arg(long, env = "CLACK_DATA")]
    data: Option<PathBuf>,
    /// When a move is acknowledged [default: batched].
    #[arg(long, value_enum, env = "CLACK_DURABILITY")]
    durability: Option<Durability>,
    /// Requests not answered in this many milliseconds end with DEADLINE_EXCEEDED
    /// [default: 10000].
    #[arg(long, env = "CLACK_REQUEST_TIMEOUT_MS")]
    request_timeout_ms: Option<u64>,
    /// Requests in flight at once; past it, RESOURCE_EXHAUSTED [default: 4096].
    #[arg(long, env = "CLACK_CONCURRENCY_LIMIT")]
    concurrency_limit: Option<usize>,
    /// Live games at once; past it, CreateGame answers RESOURCE_EXHAUSTED [default: 10000].
    #[arg(long, env = "CLACK_MAX_LIVE_GAMES")]
    max_live_games: Option<usize>,
    /// A game whose open seats are not all taken this many seconds after its creation is
    /// abandoned (fractions allowed); 0 means never [default: 600].
    #[arg(long, env = "CLACK_JOIN_TIMEOUT_SECS")]
    join_timeout_secs: Option<f64>,
    /// Whom the server serves [default: open].
    #[arg(long, value_enum, env = "CLACK_MODE")]
    mode: Option<Mode>,
    /// A file holding the first admin key (at least 32 characters; the account `admin`). The
    /// key itself may instead come from CLACK_ADMIN_KEY (never a flag: flags show in `ps`).
    #[arg(long, env = "CLACK_ADMIN_KEY_FILE")]
    admin_key_file: Option<PathBuf>,
    /// Unfinished games one caller may have created; 0 turns it off [default: 100].
    #[arg(long, env = "CLACK_QUOTA_LIVE_GAMES")]
    quota_live_games: Option<usize>,
    /// Bots one caller may own; 0 turns it off [default: 50].
    #[arg(long, env = "CLACK_QUOTA_BOTS")]
    quota_bots: Option<usize>,
    /// Versions kept of one bot; 0 turns it off [default: 100].
    #[arg(long, env = "CLACK_QUOTA_VERSIONS_PER_BOT")]
    quota_versions_per_bot: Option<usize>,
    /// Match games one caller may play per minute; 0 turns it off [default: 1000].
    #[arg(long, env = "CLACK_QUOTA_MATCH_GAMES_PER_MINUTE")]
    quota_match_games_per_minute: Option<u32>,
    /// Games one RunMatch call may ask for; 0 turns it off [default: 200].
    #[arg(long, env = "CLACK_QUOTA_MATCH_GAMES_PER_CALL")]
    quota_match_games_per_call: Option<u32>,
    /// Requests one caller may make per second; 0 turns it off [default: 5000].
    #[arg(long, env = "CLACK_QUOTA_REQUESTS_PER_SECOND")]
    quota_requests_per_second: Option<u32>,
    /// Seconds open calls and streams get to finish on shutdown before the server stops anyway
    /// [default: 5].
    #[arg(long, env = "CLACK_GRACE_SECS")]
    grace_secs: Option<f64>,
    /// Writes are refused (UNAVAILABLE, "the disk is full") while the data directory's
    /// filesystem has less than this many MiB free, so that the database never meets a full
    /// disk; reads go on, and writes resume once space is freed [default: 64].
    #[arg(long, env = "CLACK_MIN_FREE_MB")]
    min_free_mb: Option<u64>,
    /// sled's page cache for finished games, the listing index and small records, in MiB
    /// [default: 16].
    #[arg(long, env = "CLACK_CACHE_MB")]
    cache_mb: Option<u64>,
    /// Log as JSON lines instead of text (`--log-json` alone means true) [default: false].
    #[arg(
        long,
        env = "CLACK_LOG_JSON",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_parser = BoolishValueParser::new(),
    )]
    log_json: Option<bool>,
    /// Serve gRPC only: no web app on the gRPC port (gRPC-Web still answers; `--no-web` alone
    /// means true) [default: false].
    #[arg(
        long,
        env = "CLACK_NO_WEB",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_parser = BoolishValueParser::new(),
    )]
    no_web: Option<bool>,
    /// This server's shard name, when games are spread over several servers [default: main].
    #[arg(long, env = "CLACK_SHARD")]
    shard: Option<String>,
    /// Every shard as `name=url,...`, so that ListGames shows all their games [default: none].
    #[arg(long, env = "CLACK_PEERS")]
    peers: Option<String>,
    /// Run the ladder: every active bot version plays rated deals in the background (`--ladder`
    /// alone means true) [default: false].
    #[arg(
        long,
        env = "CLACK_LADDER",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "true",
        value_parser = BoolishValueParser::new(),
    )]
    ladder: Option<bool>,
    /// The share of the bots' pool the ladder may keep busy, above 0 and at most 1
    /// [default: 0.25].
    #[arg(long, env = "CLACK_LADDER_SHARE")]
    ladder_share: Option<f64>,
    /// The engine level every ladder is anchored to, at a fixed 1500 [default: engine:default].
    #[arg(long, env = "CLACK_LADDER_ANCHOR")]
    ladder_anchor: Option<String>,
    /// The ladders to play, comma-separated: straight-2, straight-4-teams, streets-3
    /// [default: all three].
    #[arg(long, env = "CLACK_LADDER_CONFIGURATIONS")]
    ladder_configurations: Option<String>,
    /// How long a remote bot's program may take over one move before the move is recorded as
    /// a fault and its first legal action played, in milliseconds [default: 5000].
    #[arg(long, env = "CLACK_REMOTE_MOVE_MS")]
    remote_move_ms: Option<u64>,
    /// The cluster's shared PostgreSQL database, `postgres://user:password@host:port/dbname`:
    /// accounts and keys are shared by every shard that names it (docs/cluster.md). Give a
    /// password through CLACK_DATABASE rather than the flag (flags show in `ps`). Unset, this
    /// server keeps everything in its own store [default: none].
    #[arg(long, env = "CLACK_DATABASE")]
    database: Option<String>,
    /// With a database: seconds the keys this shard knows stay accepted after it last heard from
    /// the database; then keys answer UNAVAILABLE until it is back [default: 60].
    #[arg(long, env = "CLACK_DATABASE_KEY_GRACE_SECS")]
    database_key_grace_secs: Option<f64>,
}

/// The settings `clack serve` runs with, every one resolved.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) struct Settings {
    pub addr: SocketAddr,
    pub metrics_addr: String,
    pub data: PathBuf,
    pub durability: Durability,
    pub request_timeout_ms: u64,
    pub concurrency_limit: usize,
    pub max_live_games: usize,
    pub join_timeout_secs: f64,
    pub mode: Mode,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub admin_key_file: Option<PathBuf>,
    pub quota_live_games: usize,
    pub quota_bots: usize,
    pub quota_versions_per_bot: usize,
    pub quota_match_games_per_minute: u32,
    pub quota_match_games_per_call: u32,
    pub quota_requests_per_second: u32,
    pub grace_secs: f64,
    pub min_free_mb: u64,
    pub cache_mb: u64,
    pub log_json: bool,
    pub no_web: bool,
    pub shard: String,
    pub peers: String,
    pub ladder: bool,
    pub ladder_share: f64,
    pub ladder_anchor: String,
    pub ladder_configurations: String,
    pub remote_move_ms: u64,
    /// The shared database's URL, empty for none; printed with its password masked.
    #[serde(serialize_with = "masked_url")]
    pub database: String,
    pub database_key_grace_secs: f64,
    /// The first admin key, from CLACK_ADMIN_KEY; never printed.
    #[serde(skip)]
    pub admin_key: Option<String>,
    /// Whether the metrics address is the default one (then a taken port only turns metrics
    /// off, so that two local servers can run side by side).
    #[serde(skip)]
    pub metrics_addr_is_default: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        let quotas = Quotas::default();
        Settings {
            addr: SocketAddr::from(([127, 0, 0, 1], 50051)),
            metrics_addr: "127.0.0.1:9464".into(),
            data: PathBuf::from("clack-data"),
            durability: Durability::Batched,
            request_timeout_ms: 10_000,
            concurrency_limit: 4096,
            max_live_games: 10_000,
            join_timeout_secs: 600.0,
            mode: Mode::Open,
            admin_key_file: None,
            quota_live_games: quotas.live_games,
            quota_bots: quotas.bots,
            quota_versions_per_bot: quotas.versions_per_bot,
            quota_match_games_per_minute: quotas.match_games_per_minute,
            quota_match_games_per_call: quotas.match_games_per_call,
            quota_requests_per_second: quotas.requests_per_second,
            grace_secs: 5.0,
            min_free_mb: 64,
            cache_mb: clack_store::DEFAULT_CACHE_MB,
            log_json: false,
            no_web: false,
            shard: "main".into(),
            peers: String::new(),
            ladder: false,
            ladder_share: 0.25,
            ladder_anchor: "engine:default".into(),
            ladder_configurations: "straight-2,straight-4-teams,streets-3".into(),
            remote_move_ms: 5000,
            database: String::new(),
            database_key_grace_secs: clack_server::cluster::DEFAULT_KEY_GRACE.as_secs_f64(),
            admin_key: None,
            metrics_addr_is_default: true,
        }
    }
}

/// Prints a database URL with its password masked.
fn masked_url<S: serde::Serializer>(url: &str, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&clack_server::cluster::masked(url))
}

/// `clack serve`'s command line: the file, what to do, and the top layer of settings.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// A TOML file of settings, keys named like the flags (see deploy/clack.toml.sample).
    #[arg(long, env = "CLACK_CONFIG")]
    config: Option<PathBuf>,
    /// Print the resolved settings as TOML (secrets masked) and exit.
    #[arg(long)]
    print_config: bool,
    #[command(flatten)]
    settings: Layer,
}

impl Args {
    pub(crate) fn print_config(&self) -> bool {
        self.print_config
    }

    /// The settings: flags and environment over the file over the defaults.
    pub(crate) fn settings(&self) -> anyhow::Result<Settings> {
        let file = match &self.config {
            Some(path) => read_file(path)?,
            None => Layer::default(),
        };
        Settings::resolve(&self.settings, file, std::env::var("CLACK_ADMIN_KEY").ok())
    }
}

/// Keys a settings file must not hold: secrets belong in the environment or a file of their own,
/// not in a file that gets copied, committed and printed.
const SECRET_KEYS: [&str; 2] = ["admin-key", "admin_key"];

/// Reads a settings file; an unknown key or a bad value is an error naming it. The error never
/// quotes the file's text: the line at fault may hold a secret (toml's own error prints it).
fn read_file(path: &Path) -> anyhow::Result<Layer> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let bad = |what: String| anyhow::anyhow!("bad settings file {}: {what}", path.display());
    if let Ok(table) = text.parse::<toml::Table>()
        && let Some(key) = SECRET_KEYS.iter().find(|key| table.contains_key(**key))
    {
        return Err(bad(format!(
            "{key}: a secret is never read from the settings file; name a file holding it with              admin-key-file, or set CLACK_ADMIN_KEY"
        )));
    }
    toml::from_str(&text).map_err(|error| {
        let start = error.span().map(|span| span.start.min(text.len()));
        let line = start.map(|start| text[..start].lines().count().max(1));
        let at = line.map(|line| format!("line {line}: ")).unwrap_or_default();
        match start.and_then(|start| key_at(&text, start)) {
            Some(key) if SECRET_BEARING_KEYS.contains(&key) => {
                bad(format!("{at}{key}: not a valid value (not shown: it may hold a password)"))
            }
            Some(key) => bad(format!("{at}{key}: {}", error.message())),
            None => bad(format!("{at}{}", error.message())),
        }
    })
}

/// Keys whose value may hold a secret, so that an error about them never repeats the value.
const SECRET_BEARING_KEYS: [&str; 1] = ["database"];

/// The key of the `key = value` line holding byte `offset` of `text`: toml's errors point at a
/// value, and name neither its key nor, for a bad value, anything a reader can search for.
fn key_at(text: &str, offset: usize) -> Option<&str> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[line_start..].lines().next()?;
    let (key, _) = line.split_once('=')?;
    let key = key.trim().trim_matches(|c| c == '"' || c == '\'');
    (!key.is_empty()).then_some(key)
}

impl Settings {
    /// Resolves every setting from the top layer, else the file, else the default.
    pub(crate) fn resolve(top: &Layer, file: Layer, admin_key: Option<String>) -> anyhow::Result<Settings> {
        let d = Settings::default();
        let metrics_addr = top.metrics_addr.clone().or(file.metrics_addr);
        let settings = Settings {
            addr: top.addr.or(file.addr).unwrap_or(d.addr),
            metrics_addr_is_default: metrics_addr.is_none(),
            metrics_addr: metrics_addr.unwrap_or(d.metrics_addr),
            data: top.data.clone().or(file.data).unwrap_or(d.data),
            durability: top.durability.or(file.durability).unwrap_or(d.durability),
            request_timeout_ms: top.request_timeout_ms.or(file.request_timeout_ms).unwrap_or(d.request_timeout_ms),
            concurrency_limit: top.concurrency_limit.or(file.concurrency_limit).unwrap_or(d.concurrency_limit),
            max_live_games: top.max_live_games.or(file.max_live_games).unwrap_or(d.max_live_games),
            join_timeout_secs: top.join_timeout_secs.or(file.join_timeout_secs).unwrap_or(d.join_timeout_secs),
            mode: top.mode.or(file.mode).unwrap_or(d.mode),
            admin_key_file: top.admin_key_file.clone().or(file.admin_key_file),
            quota_live_games: top.quota_live_games.or(file.quota_live_games).unwrap_or(d.quota_live_games),
            quota_bots: top.quota_bots.or(file.quota_bots).unwrap_or(d.quota_bots),
            quota_versions_per_bot: top
                .quota_versions_per_bot
                .or(file.quota_versions_per_bot)
                .unwrap_or(d.quota_versions_per_bot),
            quota_match_games_per_minute: top
                .quota_match_games_per_minute
                .or(file.quota_match_games_per_minute)
                .unwrap_or(d.quota_match_games_per_minute),
            quota_match_games_per_call: top
                .quota_match_games_per_call
                .or(file.quota_match_games_per_call)
                .unwrap_or(d.quota_match_games_per_call),
            quota_requests_per_second: top
                .quota_requests_per_second
                .or(file.quota_requests_per_second)
                .unwrap_or(d.quota_requests_per_second),
            grace_secs: top.grace_secs.or(file.grace_secs).unwrap_or(d.grace_secs),
            min_free_mb: top.min_free_mb.or(file.min_free_mb).unwrap_or(d.min_free_mb),
            cache_mb: top.cache_mb.or(file.cache_mb).unwrap_or(d.cache_mb),
            log_json: top.log_json.or(file.log_json).unwrap_or(d.log_json),
            no_web: top.no_web.or(file.no_web).unwrap_or(d.no_web),
            shard: top.shard.clone().or(file.shard).unwrap_or(d.shard),
            peers: top.peers.clone().or(file.peers).unwrap_or(d.peers),
            ladder: top.ladder.or(file.ladder).unwrap_or(d.ladder),
            ladder_share: top.ladder_share.or(file.ladder_share).unwrap_or(d.ladder_share),
            ladder_anchor: top.ladder_anchor.clone().or(file.ladder_anchor).unwrap_or(d.ladder_anchor),
            ladder_configurations: top
                .ladder_configurations
                .clone()
                .or(file.ladder_configurations)
                .unwrap_or(d.ladder_configurations),
            remote_move_ms: top.remote_move_ms.or(file.remote_move_ms).unwrap_or(d.remote_move_ms),
            database: top.database.clone().or(file.database).unwrap_or(d.database),
            database_key_grace_secs: top
                .database_key_grace_secs
                .or(file.database_key_grace_secs)
                .unwrap_or(d.database_key_grace_secs),
            admin_key: admin_key.map(|key| key.trim().to_owned()).filter(|key| !key.is_empty()),
        };
        settings.check()?;
        Ok(settings)
    }

    /// Checks what the types alone do not, naming the key.
    fn check(&self) -> anyhow::Result<()> {
        let seconds = [
            ("join-timeout-secs", self.join_timeout_secs),
            ("grace-secs", self.grace_secs),
            ("database-key-grace-secs", self.database_key_grace_secs),
        ];
        for (key, secs) in seconds {
            if !(secs.is_finite() && secs >= 0.0) {
                anyhow::bail!("{key} must be a number of seconds, 0 or more (not {secs})");
            }
        }
        self.metrics_socket()?;
        self.shard_name()?;
        self.peer_list()?;
        self.ladder_settings()?;
        self.shared()?;
        Ok(())
    }

    /// The cluster's shared state, checked, if a database is named: the one place
    /// `--database*` is read. Nothing connects yet.
    pub(crate) fn shared(&self) -> anyhow::Result<Option<clack_server::cluster::Shared>> {
        if self.database.trim().is_empty() {
            return Ok(None);
        }
        let database =
            clack_server::cluster::Database::new(self.database.trim()).map_err(|e| anyhow::anyhow!("{e}"))?;
        let key_grace = std::time::Duration::from_secs_f64(self.database_key_grace_secs);
        Ok(Some(clack_server::cluster::Shared { database, key_grace }))
    }

    /// The ladder's settings, checked, if the ladder runs: the one place `--ladder*` is read.
    pub(crate) fn ladder_settings(&self) -> anyhow::Result<Option<clack_server::ladder::LadderSettings>> {
        use clack_server::ladder::{Configuration, LadderSettings};
        if !(self.ladder_share > 0.0 && self.ladder_share <= 1.0) {
            anyhow::bail!("ladder-share must be above 0 and at most 1 (not {})", self.ladder_share);
        }
        if !clack_server::bots::engines::is_engine(&self.ladder_anchor)
            || clack_server::bots::engines::check(&self.ladder_anchor, clack_engine::VERSION).is_err()
        {
            anyhow::bail!("ladder-anchor must be an engine level: engine:fast, engine:default or engine:strong");
        }
        let configurations = self
            .ladder_configurations
            .split(',')
            .map(str::trim)
            .map(|name| {
                Configuration::parse(name).with_context(|| {
                    format!("ladder-configurations: {name:?} is not straight-2, straight-4-teams or streets-3")
                })
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let settings = LadderSettings { share: self.ladder_share, anchor: self.ladder_anchor.clone(), configurations };
        Ok(self.ladder.then_some(settings))
    }

    /// This server's shard name, checked: the one place `--shard` is read.
    pub(crate) fn shard_name(&self) -> anyhow::Result<clack_server::ShardName> {
        clack_server::ShardName::new(&self.shard).map_err(|e| anyhow::anyhow!("shard: {e}"))
    }

    /// The other shards, checked: the one place `--peers` is read.
    pub(crate) fn peer_list(&self) -> anyhow::Result<Vec<clack_server::games::shard::Peer>> {
        clack_server::games::shard::parse_peers(&self.peers).map_err(|e| anyhow::anyhow!("peers: {e}"))
    }

    /// Where `/metrics` is served, if anywhere.
    pub(crate) fn metrics_socket(&self) -> anyhow::Result<Option<SocketAddr>> {
        match self.metrics_addr.trim() {
            "" | "off" => Ok(None),
            addr => addr.parse().map(Some).with_context(|| {
                format!("metrics-addr must be an address like 127.0.0.1:9464, or \"off\" (not {addr:?})")
            }),
        }
    }

    pub(crate) fn quotas(&self) -> Quotas {
        Quotas {
            live_games: self.quota_live_games,
            bots: self.quota_bots,
            versions_per_bot: self.quota_versions_per_bot,
            match_games_per_minute: self.quota_match_games_per_minute,
            match_games_per_call: self.quota_match_games_per_call,
            requests_per_second: self.quota_requests_per_second,
        }
    }

    /// The settings as a TOML file would give them, secrets masked in a comment.
    pub(crate) fn to_toml(&self) -> anyhow::Result<String> {
        let body = toml::to_string(self).context("the settings do not print as TOML")?;
        let secret = match &self.admin_key {
            Some(_) => "# admin key: set by CLACK_ADMIN_KEY (masked: ********)",
            None => "# admin key: CLACK_ADMIN_KEY is not set",
        };
        Ok(format!(
            "# clack serve: resolved settings (flag > CLACK_* environment > --config file > default)\n{body}{secret}\n"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, clap::Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    fn layer(flags: &[&str]) -> Layer {
        let cli = Cli::try_parse_from(std::iter::once("serve").chain(flags.iter().copied())).expect("flags parse");
        cli.args.settings
    }

    #[test]
    fn a_flag_beats_the_file_and_the_file_beats_the_default() {
        let file: Layer = toml::from_str("durability = \"sync\"\nmax-live-games = 7\nshard = \"b\"").expect("toml");
        let settings = Settings::resolve(&layer(&["--max-live-games", "9"]), file, None).expect("resolves");
        assert_eq!(settings.max_live_games, 9, "the flag wins");
        assert_eq!(settings.durability, Durability::Sync, "the file beats the default");
        assert_eq!(settings.shard, "b");
        assert_eq!(settings.request_timeout_ms, 10_000, "the default fills the rest");
    }

    #[test]
    fn an_unknown_key_is_an_error_that_names_it() {
        let error = toml::from_str::<Layer>("max-live-gmes = 7").expect_err("a typo");
        assert!(error.to_string().contains("max-live-gmes"), "{error}");
    }

    #[test]
    fn the_database_url_is_checked_and_printed_without_its_password() {
        let settings =
            Settings::resolve(&layer(&["--database", "postgres://clack:s3cret@db:5432/clack"]), Layer::default(), None)
                .expect("a good URL");
        let printed = settings.to_toml().expect("prints");
        assert!(printed.contains("database = \"postgres://clack:***@db:5432/clack\""), "{printed}");
        assert!(!printed.contains("s3cret"), "{printed}");
        assert!(settings.shared().expect("checked").is_some());
        assert!(Settings::default().shared().expect("checked").is_none(), "no database by default");
        let bad =
            Settings::resolve(&layer(&["--database", "postgres://clack:s3cret@db:port/clack"]), Layer::default(), None);
        let error = bad.expect_err("a bad port").to_string();
        assert!(error.starts_with("database:") && !error.contains("s3cret"), "{error}");
        let grace = Settings::resolve(&layer(&["--database-key-grace-secs=-1"]), Layer::default(), None);
        assert!(grace.expect_err("negative").to_string().starts_with("database-key-grace-secs"));
    }

    #[test]
    fn log_json_is_a_flag_and_a_boolean() {
        assert_eq!(layer(&["--log-json"]).log_json, Some(true));
        assert_eq!(layer(&["--log-json=false"]).log_json, Some(false));
        assert_eq!(layer(&[]).log_json, None);
    }

    #[test]
    fn metrics_can_be_turned_off_and_a_bad_address_is_refused() {
        for off in ["off", ""] {
            let settings = Settings::resolve(&layer(&["--metrics-addr", off]), Layer::default(), None).expect("ok");
            assert_eq!(settings.metrics_socket().expect("valid"), None);
        }
        let error = Settings::resolve(&layer(&["--metrics-addr", "nowhere"]), Layer::default(), None);
        assert!(error.expect_err("refused").to_string().contains("metrics-addr"));
    }

    #[test]
    fn a_bad_shard_name_or_peer_is_refused_before_anything_is_printed_or_served() {
        let error = Settings::resolve(&layer(&["--shard", "Bad_Name"]), Layer::default(), None);
        assert!(error.expect_err("refused").to_string().starts_with("shard:"));
        for peers in ["a=notaurl", "a=ftp://h:1", "a=http://", "a"] {
            let error = Settings::resolve(&layer(&["--peers", peers]), Layer::default(), None);
            assert!(error.expect_err(peers).to_string().starts_with("peers:"), "{peers}");
        }
        let fine = Settings::resolve(
            &layer(&["--shard", "b", "--peers", "a=http://127.0.0.1:1,b=https://h:2"]),
            Layer::default(),
            None,
        );
        assert_eq!(fine.expect("valid").peer_list().expect("peers").len(), 2);
    }

    #[test]
    fn a_secret_in_the_settings_file_is_refused_without_being_quoted() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("clack.toml");
        let secret = "s3cret-s3cret-s3cret-s3cret-s3cret";
        for text in [format!("admin-key = \"{secret}\"\n"), format!("shard = \"a\"\nadmin_key = \"{secret}\"")] {
            std::fs::write(&path, &text).expect("write");
            let error = format!("{:#}", read_file(&path).expect_err("a secret in the file"));
            assert!(error.contains("admin") && error.contains("CLACK_ADMIN_KEY"), "{error}");
            assert!(!error.contains("s3cret"), "{error}");
        }
        // Any other bad line is named by its number, and not quoted either.
        std::fs::write(&path, "shard = \"a\"\nmax-live-games = \"s3cret\"\n").expect("write");
        let error = format!("{:#}", read_file(&path).expect_err("a bad value"));
        assert!(error.contains("line 2") && !error.contains("max-live-games = "), "{error}");
        // A bad value of a key that may hold a password is not repeated.
        std::fs::write(&path, "database = [\"postgres://clack:s3cret@db/clack\"]\n").expect("write");
        let error = format!("{:#}", read_file(&path).expect_err("a bad value"));
        assert!(error.contains("line 1: database:") && !error.contains("s3cret"), "{error}");
    }

    #[test]
    fn a_bad_value_in_the_settings_file_names_its_key() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("clack.toml");
        for (text, key, line) in [
            ("durability = \"sometimes\"\n", "durability", 1),
            ("shard = \"a\"\nmax-live-games = -3\n", "max-live-games", 2),
            ("shard = \"a\"\n\n  \"request-timeout-ms\" = \"soon\"\n", "request-timeout-ms", 3),
            ("mode = 'ajar'\n", "mode", 1),
        ] {
            std::fs::write(&path, text).expect("write");
            let error = format!("{:#}", read_file(&path).expect_err("a bad value"));
            assert!(error.contains(&format!("line {line}: {key}: ")), "{text:?}: {error}");
        }
    }

    #[test]
    fn the_printed_settings_read_back_as_a_file_and_hide_the_admin_key() {
        let settings = Settings::resolve(&layer(&["--grace-secs", "2.5"]), Layer::default(), Some("s3cret".into()))
            .expect("resolves");
        let printed = settings.to_toml().expect("prints");
        assert!(!printed.contains("s3cret"), "{printed}");
        let again = Settings::resolve(&Layer::default(), toml::from_str(&printed).expect("reads back"), None)
            .expect("resolves");
        assert_eq!(toml::to_string(&again).expect("prints"), toml::to_string(&settings).expect("prints"));
        assert_eq!(again.grace_secs, 2.5);
    }
}
