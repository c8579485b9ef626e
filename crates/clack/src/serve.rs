//! `clack serve`: the gRPC server over a sled directory.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clack_server::{BotLibrary, Hub, Limits, ServeConfig};
use clack_store::{Durability, Durable, SledStore};

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
    /// Log as JSON lines instead of text.
    #[arg(long)]
    log_json: bool,
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
    let store =
        SledStore::open(&args.data).with_context(|| format!("cannot open the store in {}", args.data.display()))?;
    let durability = match args.durability {
        DurabilityArg::Sync => Durability::Sync,
        DurabilityArg::Batched => Durability::Batched,
    };
    let store = Durable::new(Arc::new(store), durability)?;
    let bots = BotLibrary::open(store.clone(), clack_bots::Limits::default()).await?;
    let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
    let join_timeout = Duration::try_from_secs_f64(args.join_timeout_secs)
        .context("--join-timeout-secs must be a number of seconds, 0 or more")?;
    let limits = Limits { live_games: args.max_live_games, join_timeout };
    let hub = Hub::open(store, Some(host), limits).await?;
    let listener =
        tokio::net::TcpListener::bind(args.addr).await.with_context(|| format!("cannot listen on {}", args.addr))?;
    let addr = listener.local_addr()?;
    println!("listening on {addr}");
    tracing::info!(%addr, data = %args.data.display(), ?durability, "clack serving");
    let config = ServeConfig {
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        concurrency_limit: args.concurrency_limit,
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
