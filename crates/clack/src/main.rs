//! `clack`: the command-line entry point. Each subcommand lives in its own module; this file
//! only parses arguments and dispatches.

mod analyze;
mod audit;
mod backupcli;
mod bench;
mod botcli;
mod config;
mod crashloop;
mod dbbench;
mod dbcli;
mod health;
mod keys;
mod laddercli;
mod replay;
mod reviewcli;
mod selfplay;
mod serve;
mod soak;
mod storecli;

use clap::{Parser, Subcommand};

/// mimalloc rather than the system allocator: a gRPC server allocates and frees small buffers
/// on every call from several threads, where glibc's allocator spends its time consolidating.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Debug, Parser)]
#[command(name = "clack", version, about = "A domino game server: Straight Dominoes and Streets and Avenues")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Summarise many finished games (per configuration and bot version), with an HTML report.
    ///
    /// Every game is replayed first: one whose log does not replay, or that never ended, is left
    /// out and named.
    Analyze(analyze::AnalyzeArgs),
    /// Measure whether review labels survive a stronger look: play a duplicate match, review
    /// every game at a level and twice at a judge level, and compare the labels.
    Audit(audit::Args),
    /// Write a backup of a running server's data to a file (an admin's key needed).
    Backup(backupcli::BackupArgs),
    /// Play a match between bot scripts, seats rotated, and report results and ratings.
    Arena(botcli::ArenaArgs),
    /// Tools for bot authors.
    #[command(subcommand)]
    Bot(BotCommand),
    /// Load-test the server in-process over loopback gRPC, beside a bare tonic call.
    Bench(bench::Args),
    /// Ask a server whether it serves (exit 0 if so), for container health checks.
    Health(health::Args),
    /// Write finished games as Parquet tables (or JSON lines), from exports or a server.
    ///
    /// Every game is replayed first: one whose log does not replay, or that never ended, is left
    /// out and named, and the rest are written.
    Export(analyze::ExportArgs),
    /// Start a new game from a finished one as it stood after an event, with new seats.
    Fork(analyze::ForkArgs),
    /// Kill the server again and again under load and check that nothing acknowledged is lost.
    Crashloop(crashloop::Args),
    /// The cluster's shared PostgreSQL database: apply its migrations, or list them.
    #[command(subcommand)]
    Db(dbcli::Command),
    /// Manage accounts and API keys on a running server (needs an admin key).
    Keys(keys::Args),
    /// Print a finished game move by move, with the table after each move.
    Replay(replay::Args),
    /// The engine's review of a finished game: every decision labelled (best to blunder) with
    /// what it cost, and per seat the points lost by play against the points won by luck.
    Review(reviewcli::Args),
    /// A running server's ladder: its leaderboard, best first, with each rating's 95% interval.
    Ladder(laddercli::LadderArgs),
    /// Serve games over gRPC, keeping every game in a sled directory.
    Serve(Box<serve::Args>),
    /// Make a new data directory from a backup file and check that every game in it verifies.
    Restore(backupcli::RestoreArgs),
    /// Play games between random players, without a server, and export their logs.
    Selfplay(selfplay::Args),
    /// Play all-bot games on a running server for a long time and sample its memory and
    /// threads, to see whether they stay bounded.
    Soak(soak::Args),
    /// Data directory tools: fill, stats, migrate, compact, bench.
    #[command(subcommand)]
    Store(storecli::Command),
}

#[derive(Debug, Subcommand)]
enum BotCommand {
    /// Play one game of a bot script against random bots, showing its decisions, what it printed
    /// and any fault.
    Test(botcli::TestArgs),
    /// Upload a bot script to a running server.
    Upload(laddercli::UploadArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Analyze(args) => runtime()?.block_on(analyze::analyze(&args)),
        Command::Arena(args) => botcli::arena(&args),
        Command::Audit(args) => audit::run(&args),
        Command::Bot(BotCommand::Test(args)) => botcli::test(&args),
        Command::Bot(BotCommand::Upload(args)) => runtime()?.block_on(laddercli::upload(&args)),
        Command::Ladder(args) => runtime()?.block_on(laddercli::ladder(&args)),
        Command::Backup(args) => runtime()?.block_on(backupcli::backup(&args)),
        Command::Restore(args) => backupcli::restore(&args),
        Command::Bench(args) => runtime()?.block_on(bench::run(&args)),
        Command::Health(args) => runtime()?.block_on(health::run(&args)),
        Command::Export(args) => runtime()?.block_on(analyze::export(&args)),
        Command::Fork(args) => runtime()?.block_on(analyze::fork(&args)),
        Command::Crashloop(args) => runtime()?.block_on(crashloop::run(&args)),
        Command::Db(command) => runtime()?.block_on(dbcli::run(&command)),
        Command::Keys(args) => runtime()?.block_on(keys::run(&args)),
        Command::Replay(args) => runtime()?.block_on(replay::run(&args)),
        Command::Review(args) => runtime()?.block_on(reviewcli::run(&args)),
        Command::Serve(args) => serve_runtime()?.block_on(serve::run(&args)),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Soak(args) => runtime()?.block_on(soak::run(&args)),
        Command::Store(command) => storecli::run(&command),
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
}

/// Threads the server may run blocking work on at once: the store's reads (short) and the bots'
/// decisions (at most one per core, through the library's pool), so a few more than cores.
const SERVER_BLOCKING_THREADS: usize = 16;

/// The server's runtime: tokio's default workers, and a bounded pool for blocking work. Tokio
/// starts a new blocking thread whenever none is idle, up to 512; with a hundred bot games at
/// once, each game's store reads started threads faster than the idle ones were reused (150
/// threads measured), and every thread kept its own allocator heaps: memory grew with them.
/// Past the bound, blocking work waits in tokio's queue instead, which costs a read
/// microseconds.
fn serve_runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(SERVER_BLOCKING_THREADS)
        .build()?;
    Ok(runtime)
}
