//! `clack`: the command-line entry point. Each subcommand lives in its own module; this file
//! only parses arguments and dispatches.

mod bench;
mod selfplay;
mod serve;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "clack", version, about = "A domino game server: Straight Dominoes and Streets and Avenues")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load-test the server in-process over loopback gRPC, beside a bare tonic call.
    Bench(bench::Args),
    /// Serve games over gRPC, keeping every game in a sled directory.
    Serve(serve::Args),
    /// Play games between random players, without a server, and export their logs.
    Selfplay(selfplay::Args),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Bench(args) => runtime()?.block_on(bench::run(&args)),
        Command::Serve(args) => runtime()?.block_on(serve::run(&args)),
        Command::Selfplay(args) => selfplay::run(&args),
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread().enable_all().build()?)
}
