//! `clack serve`: the gRPC server over a sled directory.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use std::io::Write;

use clack_server::metrics::Metrics;
use clack_server::{BotLibrary, Hub, Limits, Mode, ServeConfig};
use clack_store::{Durability, Durable, Reserve, SledStore};

pub(crate) use crate::config::Args;
pub(crate) use crate::config::Durability as DurabilityArg;
use crate::config::{Mode as ModeArg, Settings};

/// The bootstrap admin key, from the file or the environment, if either is given.
fn admin_key(settings: &Settings) -> anyhow::Result<Option<String>> {
    if let Some(path) = &settings.admin_key_file {
        let key = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        return Ok(Some(key.trim().to_owned()));
    }
    Ok(settings.admin_key.clone())
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

#[allow(clippy::print_stdout)] // the resolved settings, asked for
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let settings = args.settings()?;
    if args.print_config() {
        print!("{}", settings.to_toml()?);
        return Ok(());
    }
    serve(&settings).await
}

#[allow(clippy::print_stdout)] // the lines a supervisor or test reads to find the ports
async fn serve(args: &Settings) -> anyhow::Result<()> {
    init_tracing(args.log_json);
    let settings = clack_store::Settings { cache_mb: args.cache_mb };
    let store = SledStore::open_with(&args.data, settings).with_context(|| {
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
    let shared = args.shared()?;
    let database = shared.as_ref().map(|shared| shared.database.clone());
    if let Some(database) = &database {
        let applied = database.migrate().await.context("the shared database")?;
        tracing::info!(database = %database.shown(), ?applied, "shared database ready");
    }
    let bots = match &database {
        Some(database) => {
            BotLibrary::open_shared(store.clone(), database.clone(), clack_bots::Limits::default()).await?
        }
        None => BotLibrary::open(store.clone(), clack_bots::Limits::default()).await?,
    };
    if args.remote_move_ms == 0 {
        anyhow::bail!("remote-move-ms must be at least 1");
    }
    bots.remotes().set_move_limit(Duration::from_millis(args.remote_move_ms));
    let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
    let join_timeout = Duration::try_from_secs_f64(args.join_timeout_secs)
        .context("--join-timeout-secs must be a number of seconds, 0 or more")?;
    let mode = match args.mode {
        ModeArg::Open => Mode::Open,
        ModeArg::Closed => Mode::Closed,
    };
    let (shard, peers) = (args.shard_name()?, args.peer_list()?);
    let limits = Limits { live_games: args.max_live_games, join_timeout, mode, quotas: args.quotas(), shard };
    let hub = Hub::open_shard(store, Some(host), limits, shared).await?;
    match admin_key(args)? {
        Some(key) => hub.access().bootstrap_admin(&key).await.context("the admin key")?,
        None if mode == Mode::Closed => tracing::warn!("closed server without an admin key: nobody can make accounts"),
        None => {}
    }
    let grace = Duration::try_from_secs_f64(args.grace_secs).context("--grace-secs must be 0 or more")?;
    let listener =
        tokio::net::TcpListener::bind(args.addr).await.with_context(|| format!("cannot listen on {}", args.addr))?;
    let metrics_listener = metrics_listener(args).await?;
    let addr = listener.local_addr()?;
    let beating = match &database {
        Some(database) => {
            use clack_server::cluster::shards;
            shards::register(database, &args.shard, &addr.to_string()).await.context("the shared database")?;
            Some(tokio::spawn(shards::beat(database.clone(), args.shard.clone())))
        }
        None => None,
    };
    println!("listening on {addr}");
    if !args.no_web {
        tracing::info!(url = %format!("http://{addr}/"), "web app");
    }
    tracing::info!(%addr, data = %args.data.display(), ?durability, ?mode, "clack serving");
    let metrics = metrics_listener.is_some().then(|| Metrics::install(&hub, Some(&bots)));
    let metrics_task = match (&metrics, metrics_listener) {
        (Some(metrics), Some(listener)) => {
            let metrics_addr = listener.local_addr()?;
            // Not println!: a supervisor may have stopped reading after the first line.
            let _ = writeln!(std::io::stdout(), "metrics on {metrics_addr}");
            tracing::info!(%metrics_addr, "metrics served at /metrics");
            let served = clack_server::metrics::serve_http(metrics.clone(), listener, std::future::pending());
            Some(tokio::spawn(served))
        }
        _ => None,
    };
    let config = ServeConfig {
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        concurrency_limit: args.concurrency_limit,
        grace,
        metrics,
        peers,
        web_app: !args.no_web,
        ladder: args.ladder_settings()?,
    };
    let served = clack_server::serve(hub, Some(bots), listener, config, shutdown_signal()).await;
    if let Some(task) = metrics_task {
        task.abort();
    }
    if let Some(task) = beating {
        task.abort();
    }
    served.map_err(|e| anyhow::anyhow!(e))
}

/// The metrics port's listener, if metrics are on. A taken port is an error when the address
/// was asked for, and only turns metrics off when it is the default (two local servers).
async fn metrics_listener(args: &Settings) -> anyhow::Result<Option<tokio::net::TcpListener>> {
    let Some(addr) = args.metrics_socket()? else { return Ok(None) };
    match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => Ok(Some(listener)),
        Err(error) if args.metrics_addr_is_default => {
            tracing::warn!(%addr, %error, "the default metrics port is taken; metrics are off (set --metrics-addr)");
            Ok(None)
        }
        Err(error) => Err(error).with_context(|| format!("cannot serve metrics on {addr}")),
    }
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
