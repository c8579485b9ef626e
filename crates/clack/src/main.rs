//! `clack`: the command-line entry point. Each subcommand lives in its own module; this file
//! only parses arguments and dispatches.

mod selfplay;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "clack", version, about = "A domino game server: Straight Dominoes and Streets and Avenues")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play games between random players, without a server, and export their logs.
    Selfplay(selfplay::Args),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Selfplay(args) => selfplay::run(&args),
    }
}
