//! `clack selfplay`: random players, no server. Every game is played through the same
//! [`GameLog`] the server uses, so the export is exactly the server's event log (the format of
//! `docs/export-format.md`) and can be checked by any program from the file alone.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clack_log::{GameLog, json};
use clack_rules::game::{Options, Turn};
use clack_rules::streets::DominoSet;
use clack_rules::{Dealer, straight, streets};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum GameArg {
    Straight,
    Streets,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SetArg {
    DoubleNine,
    DoubleTwelve,
}

/// Which game and its table, as given on the command line.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct TableArgs {
    /// Which game.
    #[arg(long)]
    pub(crate) game: GameArg,
    /// Players at the table.
    #[arg(long)]
    pub(crate) players: Option<u8>,
    /// Straight Dominoes, four players: seats 0 and 2 against 1 and 3.
    #[arg(long)]
    pub(crate) teams: bool,
    /// Straight Dominoes: the score that ends a game.
    #[arg(long)]
    pub(crate) target: Option<u32>,
    /// Streets and Avenues: which set.
    #[arg(long, value_enum)]
    pub(crate) set: Option<SetArg>,
}

impl TableArgs {
    pub(crate) fn options(&self) -> anyhow::Result<Options> {
        let options = match self.game {
            GameArg::Straight => {
                let d = straight::Options::default();
                Options::Straight(straight::Options {
                    players: self.players.unwrap_or(d.players),
                    teams: self.teams,
                    target: self.target.unwrap_or(d.target),
                    ..d
                })
            }
            GameArg::Streets => {
                let d = streets::Options::default();
                let set = match self.set {
                    Some(SetArg::DoubleTwelve) => DominoSet::DoubleTwelve,
                    Some(SetArg::DoubleNine) | None => d.set,
                };
                Options::Streets(streets::Options { players: self.players.unwrap_or(d.players), set, ..d })
            }
        };
        clack_rules::Game::new(options)?;
        Ok(options)
    }
}

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    table: TableArgs,
    /// How many games.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Game `i` is dealt from seed `seed + i`; the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write every game's log here as JSON lines (`-` for standard output).
    #[arg(long)]
    export: Option<PathBuf>,
}

#[allow(clippy::print_stdout)] // a command-line report
pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let options = args.table.options()?;
    let mut out: Option<Box<dyn Write>> = match &args.export {
        None => None,
        Some(path) if path.as_os_str() == "-" => Some(Box::new(BufWriter::new(std::io::stdout().lock()))),
        Some(path) => {
            let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
            Some(Box::new(BufWriter::new(file)))
        }
    };
    let started = Instant::now();
    let mut summary = Summary::new(usize::from(options.players()));
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(i);
        let events = play(options, &format!("selfplay-{seed}"), seed)?;
        summary.add(&events)?;
        if let Some(out) = out.as_mut() {
            for event in &events {
                writeln!(out, "{}", json::to_line(event))?;
            }
        }
    }
    if let Some(mut out) = out {
        out.flush()?;
    }
    if args.export.as_ref().is_none_or(|p| p.as_os_str() != "-") {
        summary.print(started.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Plays one game with random players; returns its whole log.
pub(crate) fn play(options: Options, id: &str, seed: u64) -> anyhow::Result<Vec<clack_proto::v1::Event>> {
    let (mut log, mut events) = GameLog::create(id, options, Vec::new(), seed, now())?;
    // The players' choices come from their own stream, apart from the dealer's.
    let mut players = Dealer::from_seed(!seed);
    while let Turn::Seat { seat } = log.game().turn() {
        let legal = log.game().legal_actions();
        let action = legal[players.index(legal.len())];
        events.extend(log.perform(seat, action, now())?);
    }
    Ok(events)
}

pub(crate) fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// Wins and events over all games.
struct Summary {
    games: u64,
    events: u64,
    wins: Vec<u64>,
}

impl Summary {
    fn new(players: usize) -> Summary {
        Summary { games: 0, events: 0, wins: vec![0; players] }
    }

    fn add(&mut self, events: &[clack_proto::v1::Event]) -> anyhow::Result<()> {
        use clack_proto::v1::event::Payload;
        self.games += 1;
        self.events += events.len() as u64;
        let ended = events.iter().rev().find_map(|e| match &e.payload {
            Some(Payload::GameEnded(ended)) => Some(ended),
            _ => None,
        });
        for &seat in &ended.context("a self-played game always ends")?.winners {
            if let Some(w) = self.wins.get_mut(seat as usize) {
                *w += 1;
            }
        }
        Ok(())
    }

    #[allow(clippy::print_stdout)]
    fn print(&self, seconds: f64) {
        println!(
            "{} games, {} events in {:.2} s ({:.0} games/s)",
            self.games,
            self.events,
            seconds,
            self.games as f64 / seconds
        );
        for (seat, wins) in self.wins.iter().enumerate() {
            println!("  seat {seat}: {wins} wins");
        }
    }
}
