//! `clack audit`: whether the labels of the engine's reviews survive a stronger look. It plays a
//! duplicate match between bots (as `clack arena` does, keeping every game's record), reviews
//! every game at a level and twice at a judge level (with the game's seed and with another), and
//! counts how the labels the reviews give the same decisions agree. The counting is here; the
//! games and the reviews are the arena's and the engine's own.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clack_bots::arena::{Match, play_game};
use clack_bots::{Limits, sandbox};
use clack_engine::Level;
use clack_engine::review::{DecisionReview, Label};
use clack_rules::game::{Options, Step};
use serde::Serialize;

use crate::botcli;
use crate::selfplay::TableArgs;

#[derive(Debug, clap::Args)]
// `--game` is required elsewhere; an audit is of Straight Dominoes unless it says otherwise.
#[command(mut_arg("game", |a| a.default_value("straight").required(false)))]
pub(crate) struct Args {
    #[command(flatten)]
    table: TableArgs,
    /// Bot scripts or engine players (`engine:default`), one per seat, comma-separated. The
    /// default names the repository's bots, from its root.
    #[arg(long, value_delimiter = ',', default_value = "bots/straight-greedy.rhai,bots/straight-defender.rhai")]
    bots: Vec<PathBuf>,
    /// Games to play and review; with duplicate deals, each deal is played once from every seat.
    #[arg(long, default_value_t = 40)]
    games: u32,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The review level whose labels are audited.
    #[arg(long, default_value = "default")]
    level: Level,
    /// The level that audits them.
    #[arg(long, default_value = "judge")]
    judge: Level,
    /// Reviews run at once (default: the machine's cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Also write the figures here, as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
}

/// The judge's second look at a game is seeded with the game's seed XOR this, so that it
/// samples other worlds: a label both looks give is not an accident of one set of worlds.
const OTHER_SEED: u64 = 0xA0D1_7A0D_17A0_D17A;

/// The normal quantile of a two-sided 95% interval, as the review's labels use it.
const Z95: f64 = 1.96;

/// A decision as the audit counts it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Labelled {
    /// The index of the step in the game's record: how the reviews of one game are matched.
    step: usize,
    label: Label,
    /// Labelled on the probability of winning, near the end of a Straight match.
    endgame: bool,
    /// The lower end of the 95% interval of the loss the label measures is zero or below: the
    /// review could not tell the move from the best one.
    reaches_zero: bool,
}

impl Labelled {
    fn of(decision: &DecisionReview) -> Labelled {
        let measured = if decision.endgame { decision.win_loss } else { decision.loss };
        Labelled {
            step: decision.step,
            label: decision.label,
            endgame: decision.endgame,
            reaches_zero: measured.mean - Z95 * measured.stderr <= 0.0,
        }
    }
}

/// A share of a count, left undefined when the count is of nothing.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
struct Share {
    count: u64,
    of: u64,
    share: Option<f64>,
}

impl Share {
    fn new(count: u64, of: u64) -> Share {
        Share { count, of, share: (of > 0).then(|| count as f64 / of as f64) }
    }

    fn shown(self) -> String {
        match self.share {
            Some(share) => format!("{share:.3} ({}/{})", self.count, self.of),
            None => "- (none)".to_owned(),
        }
    }
}

/// How two reviews labelled the same decisions: `counts[row][column]`, indexed in
/// [`Label::ALL`] order, the row one review's label and the column the other's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
struct Confusion {
    counts: [[u64; 5]; 5],
}

impl Confusion {
    /// Counts each of `rows` with the decision of the same step in `columns` (one without is
    /// left out).
    fn add<'a>(&mut self, rows: impl IntoIterator<Item = &'a Labelled>, columns: &[Labelled]) {
        let by_step: HashMap<usize, Label> = columns.iter().map(|d| (d.step, d.label)).collect();
        for row in rows {
            if let Some(&column) = by_step.get(&row.step) {
                self.counts[row.label as usize][column as usize] += 1;
            }
        }
    }

    /// Of the decisions with a row label in `rows`, the share whose column label is in `columns`.
    fn share(&self, rows: &[Label], columns: &[Label]) -> Share {
        let in_rows = || rows.iter().map(|&r| &self.counts[r as usize]);
        let of = in_rows().flatten().sum();
        let count = in_rows().map(|row| columns.iter().map(|&c| row[c as usize]).sum::<u64>()).sum();
        Share::new(count, of)
    }

    fn decisions(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }
}

const FLAGGED: [Label; 2] = [Label::Mistake, Label::Blunder];
const CLEARED: [Label; 2] = [Label::Best, Label::Good];

/// The counts of an audit, game by game.
#[derive(Clone, Debug, Default, PartialEq)]
struct Tally {
    games: u32,
    /// The level's decisions.
    decisions: u64,
    /// The level's label (row) against the judge's (column).
    level_judge: Confusion,
    /// The same, for the decisions the level labelled on the probability of winning.
    endgame: Confusion,
    /// The judge's label (row) against the judge's with the other seed (column).
    judge_again: Confusion,
    /// The level's decisions labelled inaccuracy or worse, and those whose interval reaches zero.
    labelled: u64,
    reaching_zero: u64,
}

impl Tally {
    /// Counts one game's three reviews: at the level, at the judge level, and at the judge level
    /// with the other seed.
    fn add(&mut self, level: &[Labelled], judge: &[Labelled], again: &[Labelled]) {
        self.games += 1;
        self.decisions += level.len() as u64;
        self.level_judge.add(level, judge);
        self.endgame.add(level.iter().filter(|d| d.endgame), judge);
        self.judge_again.add(judge, again);
        let labelled = level.iter().filter(|d| d.label >= Label::Inaccuracy);
        for decision in labelled {
            self.labelled += 1;
            self.reaching_zero += u64::from(decision.reaches_zero);
        }
    }

    fn figures(&self) -> Figures {
        Figures {
            games: self.games,
            decisions: self.decisions,
            flagged_confirmed: self.level_judge.share(&FLAGGED, &FLAGGED),
            flagged_cleared: self.level_judge.share(&FLAGGED, &CLEARED),
            endgame_flagged_confirmed: self.endgame.share(&FLAGGED, &FLAGGED),
            endgame_flagged_cleared: self.endgame.share(&FLAGGED, &CLEARED),
            reaching_zero: Share::new(self.reaching_zero, self.labelled),
            judge_repeated: self.judge_again.share(&FLAGGED, &FLAGGED),
            level_judge: self.level_judge,
            endgame: self.endgame,
            judge_again: self.judge_again,
        }
    }
}

/// What an audit found.
#[derive(Clone, Debug, PartialEq, Serialize)]
struct Figures {
    games: u32,
    /// The decisions the level reviewed (those with more than one legal action).
    decisions: u64,
    /// Of the level's mistakes and blunders, those the judge calls a mistake or a blunder...
    flagged_confirmed: Share,
    /// ...and those it calls best or good.
    flagged_cleared: Share,
    /// The same two, of the level's mistakes and blunders labelled on the probability of winning.
    endgame_flagged_confirmed: Share,
    endgame_flagged_cleared: Share,
    /// Of the level's inaccuracies or worse, those whose loss interval reaches zero.
    reaching_zero: Share,
    /// Of the judge's mistakes and blunders, those the judge with the other seed repeats.
    judge_repeated: Share,
    level_judge: Confusion,
    endgame: Confusion,
    judge_again: Confusion,
}

/// One game of the match, as played.
#[derive(Debug)]
struct Record {
    seed: u64,
    steps: Vec<Step>,
}

/// The three looks at every game, in the order they are reviewed in: the judge's first, being
/// the longest, so that the threads finish together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Look {
    Judge,
    Again,
    Level,
}

impl Look {
    const ALL: [Look; 3] = [Look::Judge, Look::Again, Look::Level];

    fn level(self, args: &Args) -> Level {
        if self == Look::Level { args.level } else { args.judge }
    }

    fn seed(self, game: u64) -> u64 {
        if self == Look::Again { game ^ OTHER_SEED } else { game }
    }

    fn name(self, args: &Args) -> String {
        match self {
            Look::Again => format!("{} (other seed)", args.judge),
            _ => self.level(args).to_string(),
        }
    }
}

/// The labels of one game's decisions by each look (in [`Look::ALL`] order), and how long each
/// review took.
type Looks = [(Vec<Labelled>, Duration); 3];

#[allow(clippy::print_stdout)]
pub(crate) fn run(args: &Args) -> anyhow::Result<()> {
    let options = botcli::match_options(&args.table, args.bots.len())?;
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let entrants = botcli::entrants(&engine, &limits, &args.bots, &HashMap::new())?;
    let labels: Vec<String> = entrants.iter().map(|e| e.label.clone()).collect();
    let started = Instant::now();
    let mut played = Match::new(options, entrants, args.seed);
    let mut records = Vec::new();
    for _ in 0..args.games {
        let next = played.next_game();
        let (result, steps) = play_game((&engine, &limits), options, played.entrants(), &next);
        played.record(&next, &result);
        records.push(Record { seed: next.seed, steps });
    }
    let play_time = started.elapsed();
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
    let looks = review_all(args, options, &records, threads)?;
    let mut tally = Tally::default();
    let mut busy = [Duration::ZERO; 3];
    for [(judge, j), (again, a), (level, l)] in &looks {
        tally.add(level, judge, again);
        for (total, took) in busy.iter_mut().zip([j, a, l]) {
            *total += *took;
        }
    }
    let figures = tally.figures();
    println!(
        "{} games of {} between {} (duplicate deals from seed {}), played in {:.1} s",
        args.games,
        options.kind().name(),
        labels.join(", "),
        args.seed,
        play_time.as_secs_f64()
    );
    let busy: Vec<String> =
        Look::ALL.iter().zip(busy).map(|(l, t)| format!("{} {:.1} s", l.name(args), t.as_secs_f64())).collect();
    println!(
        "reviewed in {:.1} s on {threads} threads (busy: {}); total {:.1} s",
        (started.elapsed() - play_time).as_secs_f64(),
        busy.join(", "),
        started.elapsed().as_secs_f64()
    );
    print(args, &figures);
    if let Some(path) = &args.json {
        let json = serde_json::json!({
            "level": args.level.name(),
            "judge": args.judge.name(),
            "bots": labels,
            "seed": args.seed,
            "threads": threads,
            "seconds": started.elapsed().as_secs_f64(),
            "labels": Label::ALL.map(Label::name),
            "figures": figures,
        });
        std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

/// Reviews every game at every look, on `threads` threads, each taking the next review to do.
fn review_all(args: &Args, options: Options, records: &[Record], threads: usize) -> anyhow::Result<Vec<Looks>> {
    let jobs: Vec<(usize, Look)> = Look::ALL.iter().flat_map(|&l| (0..records.len()).map(move |g| (g, l))).collect();
    let bar = indicatif::ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} reviews  eta {eta}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let done: Mutex<Vec<Looks>> = Mutex::new(vec![Looks::default(); records.len()]);
    let failed: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(jobs.len()) {
            scope.spawn(|| {
                while let Some(&(game, look)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let started = Instant::now();
                    let record = &records[game];
                    let reviewed = clack_engine::review(
                        options,
                        &record.steps,
                        look.level(args),
                        look.seed(record.seed),
                        |_, _| {},
                    )
                    .with_context(|| format!("game {game} does not review at {}", look.name(args)));
                    match reviewed {
                        Ok(review) => {
                            let labelled = review.decisions.iter().map(Labelled::of).collect();
                            lock(&done)[game][look as usize] = (labelled, started.elapsed());
                            bar.inc(1);
                        }
                        Err(error) => {
                            // The others stop at their next review: the audit has failed.
                            next.store(jobs.len(), Ordering::Relaxed);
                            lock(&failed).get_or_insert(error);
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(error) = lock(&failed).take() {
        return Err(error);
    }
    Ok(std::mem::take(&mut *lock(&done)))
}

/// A lock whose holder cannot have left its data half-written (it only stores whole values).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[allow(clippy::print_stdout)]
fn print(args: &Args, figures: &Figures) {
    let (level, judge) = (args.level.name(), args.judge.name());
    println!("{} decisions reviewed in {} games", figures.decisions, figures.games);
    println!();
    println!("(a) of {level}'s mistakes and blunders:");
    println!("    {judge} calls a mistake or blunder too   {}", figures.flagged_confirmed.shown());
    println!("    {judge} calls best or good               {}", figures.flagged_cleared.shown());
    println!(
        "    (of them labelled on win probability: confirmed {}, cleared {})",
        figures.endgame_flagged_confirmed.shown(),
        figures.endgame_flagged_cleared.shown()
    );
    println!("(b) of {level}'s inaccuracies or worse, loss interval reaching zero   {}", figures.reaching_zero.shown());
    println!("(c) of {judge}'s mistakes and blunders, also so with another seed    {}", figures.judge_repeated.shown());
    println!("(d) labels: {level} (rows) by {judge} (columns)");
    print_table(&figures.level_judge);
    println!("    the same, decisions labelled on win probability");
    print_table(&figures.endgame);
    println!("    {judge} (rows) by {judge} with another seed (columns)");
    print_table(&figures.judge_again);
}

#[allow(clippy::print_stdout)]
fn print_table(table: &Confusion) {
    let header: Vec<String> = Label::ALL.iter().map(|l| format!("{:>11}", l.name())).collect();
    println!("    {:<11}{}", "", header.join(""));
    for label in Label::ALL {
        let row: Vec<String> = table.counts[label as usize].iter().map(|n| format!("{n:>11}")).collect();
        println!("    {:<11}{}", label.name(), row.join(""));
    }
    println!("    ({} decisions)", table.decisions());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labelled(step: usize, label: Label) -> Labelled {
        Labelled { step, label, endgame: false, reaches_zero: false }
    }

    #[test]
    fn nothing_counted_leaves_every_share_undefined() {
        let figures = Tally::default().figures();
        for share in [figures.flagged_confirmed, figures.flagged_cleared, figures.reaching_zero, figures.judge_repeated]
        {
            assert_eq!(share, Share { count: 0, of: 0, share: None });
        }
        let mut tally = Tally::default();
        // Decisions, but no mistake or blunder anywhere and nothing labelled inaccuracy or worse.
        let good = [labelled(1, Label::Best), labelled(4, Label::Good)];
        tally.add(&good, &good, &good);
        let figures = tally.figures();
        assert_eq!((figures.games, figures.decisions), (1, 2));
        assert_eq!(figures.flagged_confirmed.share, None);
        assert_eq!(figures.reaching_zero.share, None);
        assert_eq!(figures.judge_repeated.share, None);
        assert_eq!(figures.level_judge.counts[0][0], 1);
        assert_eq!(figures.level_judge.counts[1][1], 1);
    }

    #[test]
    fn shares_count_the_labels_of_the_same_steps() {
        use Label::*;
        let level = [
            labelled(1, Blunder),
            labelled(3, Mistake),
            Labelled { reaches_zero: true, ..labelled(5, Mistake) },
            Labelled { endgame: true, ..labelled(7, Mistake) },
            labelled(9, Inaccuracy),
            labelled(11, Good),
            // A step the judge did not review is left out of the comparisons, not of the level's counts.
            labelled(13, Blunder),
        ];
        // In another order: decisions are matched by step, not by place.
        let judge = [
            labelled(11, Mistake),
            labelled(1, Blunder),
            labelled(3, Good),
            labelled(5, Best),
            labelled(7, Mistake),
            labelled(9, Inaccuracy),
        ];
        let again = [
            labelled(1, Mistake),
            labelled(3, Good),
            labelled(5, Inaccuracy),
            labelled(7, Best),
            labelled(9, Inaccuracy),
            labelled(11, Mistake),
        ];
        let mut tally = Tally::default();
        tally.add(&level, &judge, &again);
        let figures = tally.figures();
        assert_eq!(figures.decisions, 7);
        // The level's mistakes and blunders the judge saw: steps 1, 3, 5 and 7.
        assert_eq!(figures.flagged_confirmed, Share { count: 2, of: 4, share: Some(0.5) });
        assert_eq!(figures.flagged_cleared, Share { count: 2, of: 4, share: Some(0.5) });
        assert_eq!(figures.endgame_flagged_confirmed, Share { count: 1, of: 1, share: Some(1.0) });
        assert_eq!(figures.endgame_flagged_cleared, Share { count: 0, of: 1, share: Some(0.0) });
        // Inaccuracy or worse: steps 1, 3, 5, 7, 9 and 13; only step 5's interval reaches zero.
        assert_eq!(figures.reaching_zero, Share { count: 1, of: 6, share: Some(1.0 / 6.0) });
        // The judge's mistakes and blunders: steps 11, 1 and 7; the other seed keeps 11 and 1.
        assert_eq!(figures.judge_repeated, Share { count: 2, of: 3, share: Some(2.0 / 3.0) });
        assert_eq!(figures.level_judge.decisions(), 6);
        assert_eq!(figures.level_judge.counts[Mistake as usize][Good as usize], 1);
        assert_eq!(figures.level_judge.counts[Good as usize][Mistake as usize], 1);
        assert_eq!(figures.endgame.decisions(), 1);
        assert_eq!(figures.judge_again.counts[Blunder as usize][Mistake as usize], 1);

        // A second game adds to the first.
        tally.add(&level, &judge, &again);
        let twice = tally.figures();
        assert_eq!((twice.games, twice.decisions), (2, 14));
        assert_eq!(twice.flagged_confirmed, Share { count: 4, of: 8, share: Some(0.5) });
    }
}
