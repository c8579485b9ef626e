//! `clack db`: the cluster's shared PostgreSQL database. `migrate` applies the schema this build
//! knows (a shard also does so when it starts), for operators who migrate before they roll
//! shards out; `status` says which migrations a database has.
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
}

#[derive(Debug, clap::Args)]
pub(crate) struct DbArgs {
    /// The database, as given to `clack serve --database` (better through CLACK_DATABASE).
    #[arg(long, env = "CLACK_DATABASE")]
    database: String,
}

pub(crate) async fn run(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Migrate(args) => migrate_now(args).await,
        Command::Status(args) => status(args).await,
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
