//! `clack bot test` and `clack arena`: bots on the command line, no server needed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clack_bots::arena::{Deals, Entrant, Player, play_match};
use clack_bots::{Bot, Limits, Played, random_bot, sandbox};
use clack_engine::Level;
use clack_rules::Kind;
use clack_rules::game::{Game, Options, Turn};

use crate::selfplay::{GameArg, TableArgs};

fn kind(game: GameArg) -> Kind {
    match game {
        GameArg::Straight => Kind::Straight,
        GameArg::Streets => Kind::Streets,
    }
}

fn load(engine: &rhai::Engine, limits: &Limits, path: &Path) -> anyhow::Result<Bot> {
    let source = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    Bot::compile(engine, limits, &source).with_context(|| format!("{} is not a bot", path.display()))
}

#[derive(Debug, clap::Args)]
pub(crate) struct TestArgs {
    /// The bot script.
    file: PathBuf,
    #[command(flatten)]
    table: TableArgs,
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

/// Plays one game of the bot (seat 0) against random bots, showing every decision it makes.
#[allow(clippy::print_stdout)]
pub(crate) fn test(args: &TestArgs) -> anyhow::Result<()> {
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let bot = load(&engine, &limits, &args.file)?;
    let options = args.table.options()?;
    let random = Bot::compile(&engine, &limits, random_bot(kind(args.table.game)))?;
    let mut game = Game::new(options)?;
    let mut history: Vec<Played> = Vec::new();
    let (mut faults, mut decisions) = (0, 0);
    println!("{} version {} as seat 0, against random bots", args.file.display(), bot.version());
    loop {
        match game.turn() {
            Turn::Over => break,
            Turn::Chance => {
                // Dealt as a server's game of this seed is.
                let chance = clack_rules::chance::by_round(args.seed, &game).context("a chance outcome")?;
                game.apply_chance(chance)?;
            }
            Turn::Seat { seat } => {
                let player = if seat.0 == 0 { &bot } else { &random };
                let decision = player.decide(&engine, &limits, &game, seat, &history);
                let legal = game.legal_actions();
                let index = match &decision.choice {
                    Ok(index) => *index,
                    Err(fault) => {
                        if seat.0 == 0 {
                            faults += 1;
                            println!("  FAULT ({}): {} — playing the first legal action", fault.reason, fault.detail);
                        }
                        0
                    }
                };
                let action = legal[index];
                let effects = game.apply(seat, action)?;
                if seat.0 == 0 {
                    decisions += 1;
                    println!(
                        "  {:>4} µs  {action:<14} {:>3} points  (of {} legal)",
                        decision.elapsed.as_micros(),
                        effects.scored(),
                        legal.len()
                    );
                    for line in decision.output.lines() {
                        println!("           printed: {line}");
                    }
                }
                history.push(Played { seat, action, points: effects.scored() });
            }
        }
    }
    println!("{}", game.render());
    println!("scores {:?}, winners {:?}; {decisions} decisions, {faults} faults", game.scores(), game.winners());
    Ok(())
}

/// A match entrant from its command-line name: an engine level or a script's path.
fn entrant(engine: &rhai::Engine, limits: &Limits, path: &Path) -> anyhow::Result<(String, Player)> {
    let name = path.to_string_lossy();
    if name == "omniscient" {
        return Ok(("omniscient".into(), Player::Omniscient));
    }
    if let Some(level) = name.strip_prefix("seer:") {
        let level: Level = level.parse()?;
        return Ok((format!("seer:{level}"), Player::Seer(level)));
    }
    if name.starts_with("engine:") {
        let level: Level = name.parse()?;
        return Ok((level.seat_name(), Player::Engine(level)));
    }
    let bot = load(engine, limits, path)?;
    let stem = path.file_stem().map_or_else(|| "bot".into(), |s| s.to_string_lossy().into_owned());
    Ok((format!("{stem}@{}", bot.version()), Player::Script(bot)))
}

#[derive(Debug, clap::Args)]
pub(crate) struct ArenaArgs {
    #[command(flatten)]
    table: TableArgs,
    /// Bot scripts or engine players (`engine:fast`, `engine:default`, `engine:strong`), one per
    /// seat, comma-separated; for measuring only, `omniscient` and `seer:LEVEL` (a level that
    /// sees the other hands) see hidden tiles.
    #[arg(long, value_delimiter = ',', required = true)]
    bots: Vec<PathBuf>,
    #[arg(long, default_value_t = 100)]
    games: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How games are dealt: `duplicate` (each deal played once from every seat, so the luck of
    /// the deal cancels) or `independent` (every game its own deal; for comparison).
    #[arg(long, value_enum, default_value = "duplicate")]
    deals: DealsArg,
    /// Ratings kept across matches: read before, written after (`label rating` lines).
    #[arg(long)]
    ratings: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum DealsArg {
    Duplicate,
    Independent,
}

fn read_ratings(path: Option<&Path>) -> anyhow::Result<HashMap<String, f64>> {
    let Some(path) = path.filter(|p| p.exists()) else { return Ok(HashMap::new()) };
    let text = std::fs::read_to_string(path)?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let (label, rating) = line.rsplit_once(' ').context("a line is `label rating`")?;
            Ok((label.to_owned(), rating.parse()?))
        })
        .collect()
}

/// The table of a match between `bots` bots: one seat each, so `--players`, if given, must
/// agree.
pub(crate) fn match_options(table: &TableArgs, bots: usize) -> anyhow::Result<Options> {
    if bots < 2 {
        bail!("name at least two bots");
    }
    if table.players.is_some_and(|p| usize::from(p) != bots) {
        bail!("one bot a seat: {bots} bots named for {} players", table.players.unwrap_or_default());
    }
    TableArgs { players: Some(bots as u8), ..table.clone() }.options()
}

/// The entrants of a match, from their command-line names, each with its rating in `ratings`
/// (1500 for one not there).
pub(crate) fn entrants(
    engine: &rhai::Engine,
    limits: &Limits,
    bots: &[PathBuf],
    ratings: &HashMap<String, f64>,
) -> anyhow::Result<Vec<Entrant>> {
    let mut entrants = Vec::new();
    for path in bots {
        let (label, player) = entrant(engine, limits, path)?;
        let rating = ratings.get(&label).copied().unwrap_or(1500.0);
        entrants.push(Entrant { label, player, rating });
    }
    Ok(entrants)
}

#[allow(clippy::print_stdout)]
pub(crate) fn arena(args: &ArenaArgs) -> anyhow::Result<()> {
    let options = match_options(&args.table, args.bots.len())?;
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let mut ratings = read_ratings(args.ratings.as_deref())?;
    let entrants = entrants(&engine, &limits, &args.bots, &ratings)?;
    let bar = indicatif::ProgressBar::new(u64::from(args.games));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let started = std::time::Instant::now();
    let deals = match args.deals {
        DealsArg::Duplicate => Deals::Duplicate,
        DealsArg::Independent => Deals::Independent,
    };
    let standings = play_match((&engine, &limits), options, &entrants, (args.games, args.seed, deals), |done| {
        bar.set_position(u64::from(done))
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{} games of {} in {seconds:.2} s ({:.1} games/s), {}",
        args.games,
        kind(args.table.game).name(),
        f64::from(args.games) / seconds,
        match deals {
            Deals::Duplicate => "duplicate deals: each deal played once from every seat",
            Deals::Independent => "independent deals: every game its own deal, seats rotated",
        }
    );
    println!(
        "{:<32} {:>6} {:>16} {:>16} {:>7} {:>10} {:>13} {:>10} {:>10} {:>8}",
        "bot",
        "wins",
        "win share ±95%",
        "mean score ±95%",
        "faults",
        "decisions",
        "decision µs",
        "median µs",
        "worst µs",
        "rating"
    );
    for s in &standings {
        println!(
            "{:<32} {:>6} {:>9.4} ±{:<6.4} {:>9.1} ±{:<5.1} {:>7} {:>10} {:>13.1} {:>10.0} {:>10.0} {:>8.0}",
            s.label,
            s.wins,
            s.win_share,
            s.win_ci95,
            s.mean_score,
            s.score_ci95,
            s.faults,
            s.decisions,
            s.mean_decision.as_secs_f64() * 1e6,
            s.median_decision.as_secs_f64() * 1e6,
            s.slowest_decision.as_secs_f64() * 1e6,
            s.rating
        );
        ratings.insert(s.label.clone(), s.rating);
    }
    if let Some(path) = &args.ratings {
        let mut lines: Vec<String> = ratings.iter().map(|(label, rating)| format!("{label} {rating:.1}")).collect();
        lines.sort();
        std::fs::write(path, lines.join("\n") + "\n")?;
    }
    Ok(())
}
