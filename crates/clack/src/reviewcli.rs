//! `clack review`: the engine's judgement of a finished game, decision by decision, and per seat
//! the points lost by play against the points won or lost by luck. The log comes from a server
//! or a JSON lines export, as for `clack replay`.

use anyhow::{Context, bail};
use clack_engine::review::{Label, Review};
use clack_engine::{Estimate, Level};
use clack_log::GameLog;

use crate::replay;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    source: replay::Args,
    /// The engine level that judges: fast, default, strong or judge (16 times default's worlds,
    /// for audits; docs/engine.md gives its cost).
    #[arg(long, default_value = "default")]
    level: Level,
}

#[allow(clippy::print_stdout)]
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let events = replay::events(&args.source).await?;
    let log = GameLog::replay(&events).with_context(|| format!("game {} does not replay", args.source.game))?;
    if log.ended().is_none() {
        bail!("game {} has not ended: only finished games are reviewed", args.source.game);
    }
    let options = log.game().options();
    let steps = log.steps().to_vec();
    let bar = indicatif::ProgressBar::new(steps.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} steps  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let review =
        clack_engine::review(options, &steps, args.level, log.seed(), |done, _| bar.set_position(done as u64))?;
    bar.finish_and_clear();
    print(&args.source.game, &review);
    Ok(())
}

fn shown(e: Estimate) -> String {
    format!("{:+.1} ±{:.1}", e.mean, 1.96 * e.stderr)
}

/// A loss in probability of winning, with its 95% interval.
fn shown_share(e: Estimate) -> String {
    format!("{:+.3} ±{:.3}", e.mean, 1.96 * e.stderr)
}

#[allow(clippy::print_stdout)]
fn print(game: &str, review: &Review) {
    println!(
        "review of game {game} by engine:{} (values are points of margin, ±95%; near a match's end, \
         where labels are measured in the probability of winning, that loss too)",
        review.level
    );
    for d in review.decisions.iter().filter(|d| d.label > Label::Good) {
        println!(
            "step {:>4}  seat {}  {:<10}  played {:<16} best {:<16} loss {}{}",
            d.step,
            d.seat.0,
            d.label.name(),
            d.played.to_string(),
            d.best.to_string(),
            shown(d.loss),
            if d.endgame { format!(", win {}", shown_share(d.win_loss)) } else { String::new() }
        );
    }
    println!();
    println!(
        "{:<6} {:>9} {:>18} {:>18}  best/good/inaccuracy/mistake/blunder",
        "seat", "decisions", "lost by play", "won by luck"
    );
    for s in &review.seats {
        let labels: Vec<String> = s.labels.iter().map(u32::to_string).collect();
        println!(
            "{:<6} {:>9} {:>18} {:>18}  {}",
            s.seat.0,
            s.decisions,
            shown(s.loss),
            shown(s.luck),
            labels.join("/")
        );
    }
}
