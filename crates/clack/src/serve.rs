//! `clack serve`: the gRPC server over a sled directory.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clack_server::{BotLibrary, Hub, Limits, Mode, Quotas, ServeConfig};
use clack_store::{Durability, Durable, Reserve, SledStore};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum DurabilityArg {
    /// Acknowledge a move only after its own flush.
    Sync,
    /// Concurrent moves share one flush (group commit); still acknowledged only once on disk.
    Batched,
}

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:50051")]
    addr: SocketAddr,
    /// The sled database directory; created if missing.
    #[arg(long, default_value = "clack-data")]
    data: PathBuf,
    #[arg(long, value_enum, default_value = "batched")]
    durability: DurabilityArg,
    /// Writes are refused (UNAVAILABLE, "the disk is full") while the data directory's
    /// filesystem has less than this many MiB free, so that the database never meets a full
    /// disk; reads go on, and writes resume once space is freed.
    #[arg(long, default_value_t = 64, env = "CLACK_MIN_FREE_MB")]
    min_free_mb: u64,
    /// Requests not answered in this many milliseconds end with DEADLINE_EXCEEDED.
    #[arg(long, default_value_t = 10_000)]
    request_timeout_ms: u64,
    /// Requests in flight at once; past it, RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = 4096)]
    concurrency_limit: usize,
    /// Live games at once; past it, CreateGame answers RESOURCE_EXHAUSTED.
    #[arg(long, default_value_t = 10_000)]
    max_live_games: usize,
    /// A game whose open seats are not all taken this many seconds after its creation is
    /// abandoned (fractions allowed); 0 means never.
    #[arg(long, default_value_t = 600.0)]
    join_timeout_secs: f64,
    /// Whom the server serves: `open` (anyone who reaches the port; for a local server) or
    /// `closed` (accounts with an API key only; for a shared server).
    #[arg(long, value_enum, default_value = "open", env = "CLACK_MODE")]
    mode: ModeArg,
    /// A file holding the first admin key (at least 32 characters; the account `admin`).
    #[arg(long, env = "CLACK_ADMIN_KEY_FILE")]
    admin_key_file: Option<PathBuf>,
    /// The first admin key itself, from the environment only (never a flag: flags show in `ps`).
    #[arg(skip = std::env::var("CLACK_ADMIN_KEY").ok())]
    admin_key: Option<String>,
    #[command(flatten)]
    quotas: QuotaArgs,
    /// Seconds open calls and streams get to finish on shutdown before the server stops anyway.
    #[arg(long, default_value_t = 5.0, env = "CLACK_GRACE_SECS")]
    grace_secs: f64,
    /// Log as JSON lines instead of text.
    #[arg(long)]
    log_json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ModeArg {
    Open,
    Closed,
}

/// What one account (or, on an open server, one client address) may use; 0 turns a quota off.
#[derive(Debug, clap::Args)]
pub(crate) struct QuotaArgs {
    /// Unfinished games one caller may have created.
    #[arg(long, default_value_t = Quotas::default().live_games, env = "CLACK_QUOTA_LIVE_GAMES")]
    quota_live_games: usize,
    /// Bots one caller may own.
    #[arg(long, default_value_t = Quotas::default().bots, env = "CLACK_QUOTA_BOTS")]
    quota_bots: usize,
    /// Versions kept of one bot.
    #[arg(long, default_value_t = Quotas::default().versions_per_bot, env = "CLACK_QUOTA_VERSIONS_PER_BOT")]
    quota_versions_per_bot: usize,
    /// Match games one caller may play per minute.
    #[arg(long, default_value_t = Quotas::default().match_games_per_minute, env = "CLACK_QUOTA_MATCH_GAMES_PER_MINUTE")]
    quota_match_games_per_minute: u32,
    /// Games one RunMatch call may ask for.
    #[arg(long, default_value_t = Quotas::default().match_games_per_call, env = "CLACK_QUOTA_MATCH_GAMES_PER_CALL")]
    quota_match_games_per_call: u32,
    /// Requests one caller may make per second.
    #[arg(long, default_value_t = Quotas::default().requests_per_second, env = "CLACK_QUOTA_REQUESTS_PER_SECOND")]
    quota_requests_per_second: u32,
}

impl QuotaArgs {
    fn quotas(&self) -> Quotas {
        Quotas {
            live_games: self.quota_live_games,
            bots: self.quota_bots,
            versions_per_bot: self.quota_versions_per_bot,
            match_games_per_minute: self.quota_match_games_per_minute,
            match_games_per_call: self.quota_match_games_per_call,
            requests_per_second: self.quota_requests_per_second,
        }
    }
}

/// The bootstrap admin key, from the file or the environment, if either is given.
fn admin_key(args: &Args) -> anyhow::Result<Option<String>> {
    if let Some(path) = &args.admin_key_file {
        let key = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        return Ok(Some(key.trim().to_owned()));
    }
    Ok(args.admin_key.as_ref().map(|key| key.trim().to_owned()))
}

pub(crate) fn init_tracing(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    use std::io::IsTerminal;
    // Colours only for a person at a terminal, never in files or log collectors.
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    if json {
        builder.json().init();
    } else {
        builder.init();
    }
}

#[allow(clippy::print_stdout)] // the one line a supervisor or test reads to find the port
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    init_tracing(args.log_json);
    let store = SledStore::open(&args.data).with_context(|| {
        format!(
            "cannot open the store in {0}. If the directory is damaged, keep it aside and restore the \
             newest backup into a fresh directory (`clack restore`); docs/durability.md says how to \
             save what still verifies",
            args.data.display()
        )
    })?;
    let durability = match args.durability {
        DurabilityArg::Sync => Durability::Sync,
        DurabilityArg::Batched => Durability::Batched,
    };
    let store = Reserve::new(store, &args.data, args.min_free_mb.saturating_mul(1 << 20));
    let store = Durable::new(Arc::new(store), durability)?;
    let bots = BotLibrary::open(store.clone(), clack_bots::Limits::default()).await?;
    let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
    let join_timeout = Duration::try_from_secs_f64(args.join_timeout_secs)
        .context("--join-timeout-secs must be a number of seconds, 0 or more")?;
    let mode = match args.mode {
        ModeArg::Open => Mode::Open,
        ModeArg::Closed => Mode::Closed,
    };
    let limits = Limits { live_games: args.max_live_games, join_timeout, mode, quotas: args.quotas.quotas() };
    let hub = Hub::open(store, Some(host), limits).await?;
    match admin_key(args)? {
        Some(key) => hub.access().bootstrap_admin(&key).await.context("the admin key")?,
        None if mode == Mode::Closed => tracing::warn!("closed server without an admin key: nobody can make accounts"),
        None => {}
    }
    let grace = Duration::try_from_secs_f64(args.grace_secs).context("--grace-secs must be 0 or more")?;
    let listener =
        tokio::net::TcpListener::bind(args.addr).await.with_context(|| format!("cannot listen on {}", args.addr))?;
    let addr = listener.local_addr()?;
    println!("listening on {addr}");
    tracing::info!(%addr, data = %args.data.display(), ?durability, ?mode, "clack serving");
    let config = ServeConfig {
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        concurrency_limit: args.concurrency_limit,
        grace,
    };
    clack_server::serve(hub, Some(bots), listener, config, shutdown_signal()).await.map_err(|e| anyhow::anyhow!(e))?;
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl-C: shutting down"),
        () = terminate => tracing::info!("SIGTERM: shutting down"),
    }
}
