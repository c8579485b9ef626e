//! `clack db`: the cluster's shared PostgreSQL database. `migrate` applies the schema this build
//! knows (a shard also does so when it starts), for operators who migrate before they roll
//! shards out; `status` says which migrations a database has; `shards` which shards are
//! registered and whether each still beats; `bench` times the shared game index
//! (`dbbench.rs`).
//!
//! This module parses the command and reports; the schema and its SQL are
//! `clack_server::cluster`'s.

use anyhow::Context;
use clack_server::cluster::{Database, migrate};

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Apply every migration the database does not have yet, in one transaction.
    Migrate(DbArgs),
    /// List the migrations this build knows and whether the database has each.
    Status(DbArgs),
    /// List the cluster's shards: address, version, when each started and last beat, up or down;
    /// and every lease: which process plays each ladder board (`ladder/…`) and each match.
    Shards(DbArgs),
    /// Time ListGames pages over a game index filled to `--games` rows (synthetic games of a
    /// shard named `bench`; refused on a database that holds any other shard's games).
    Bench(BenchArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    db: DbArgs,
    /// How many games the index holds when timed (synthetic ones are added up to it).
    #[arg(long, default_value_t = 1_000_000)]
    games: usize,
    /// Queries timed per case.
    #[arg(long, default_value_t = 200)]
    rounds: usize,
    /// Also time ListGames over gRPC on this running shard (`http://host:port`), which must
    /// use the same database.
    #[arg(long)]
    server: Option<String>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct DbArgs {
    /// The database, as given to `clack serve --database` (better through CLACK_DATABASE).
    #[arg(long, env = "CLACK_DATABASE")]
    pub(crate) database: String,
}

pub(crate) async fn run(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Migrate(args) => migrate_now(args).await,
        Command::Status(args) => status(args).await,
        Command::Shards(args) => shards(args).await,
        Command::Bench(args) => {
            crate::dbbench::run(&args.db.database, args.games, args.rounds, args.server.as_deref()).await
        }
    }
}

fn open(args: &DbArgs) -> anyhow::Result<std::sync::Arc<Database>> {
    Database::new(args.database.trim()).map_err(|e| anyhow::anyhow!("{e}"))
}

#[allow(clippy::print_stdout)] // the command's report
async fn migrate_now(args: &DbArgs) -> anyhow::Result<()> {
    let database = open(args)?;
    let applied = database.migrate().await.map_err(|e| anyhow::anyhow!("{e}")).context(database.shown().to_owned())?;
    if applied.is_empty() {
        println!("{}: the schema is current (version {})", database.shown(), migrate::latest());
    } else {
        println!("{}: applied {applied:?}; now at version {}", database.shown(), migrate::latest());
    }
    Ok(())
}

#[allow(clippy::print_stdout)] // the command's report
async fn status(args: &DbArgs) -> anyhow::Result<()> {
    let database = open(args)?;
    let applied = database.applied().await.map_err(|e| anyhow::anyhow!("{e}")).context(database.shown().to_owned())?;
    for (version, name, _) in migrate::MIGRATIONS {
        let state = if applied.contains(version) { "applied" } else { "pending" };
        println!("{version:>4}  {state:<8} {name}");
    }
    Ok(())
}

#[allow(clippy::print_stdout)] // the command's report
async fn shards(args: &DbArgs) -> anyhow::Result<()> {
    let database = open(args)?;
    let rows = clack_server::cluster::shards::list(&database)
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context(database.shown().to_owned())?;
    let now = clack_server::now();
    println!("{:<20} {:<5} {:<22} {:<8} {:>12}", "shard", "state", "address", "version", "last beat");
    for row in rows {
        let state = if row.up { "up" } else { "down" };
        let ago = (now - row.last_beat_unix_millis).max(0) as f64 / 1000.0;
        println!("{:<20} {state:<5} {:<22} {:<8} {ago:>10.1} s ago", row.name, row.address, row.version);
    }
    let leases = clack_server::cluster::lease::list(&database, "")
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context(database.shown().to_owned())?;
    if !leases.is_empty() {
        println!();
        println!("{:<30} {:<36} {:>6} {:>16}", "lease", "held by", "epoch", "");
    }
    for lease in leases {
        let left = lease.expires_in_millis as f64 / 1000.0;
        let state = if left > 0.0 { format!("{left:.1} s left") } else { format!("expired {:.1} s ago", -left) };
        println!("{:<30} {:<36} {:>6} {state:>16}", lease.name, lease.holder, lease.epoch);
    }
    Ok(())
}
