//! The review of a game: every decision judged, every chance event weighed, and per seat the
//! points lost by play against the points won or lost by luck.
//!
//! A decision is evaluated exactly as an engine player of the review's level would have evaluated
//! it (same information set, budget and seed), so a seat that always played the engine's choice has
//! no loss. A decision's loss is the best action's value less the played one's, measured on the
//! same worlds: in two-player Straight Dominoes, where a tree chose the best, on worlds of their
//! own, each searched, pair by pair; in team games, on the iterations of one information-set tree
//! that took each, unpaired. A chance event's luck is the change it made to its seat's expected
//! margin: the expectation just after it less the expectation just before, both by playouts of the
//! same greedy policy, so that luck averages to zero over the possible outcomes.

use clack_rules::game::{Action, Chance, Game, Options, Turn};
use clack_rules::{Dealer, Seat, straight, streets};

use crate::evaluate::{Budget, Estimate, Worlds, measures_by_search};
use crate::infoset::InfoSet;
use crate::player::{Level, decision_seed};
use crate::record::{self, Step};
use crate::rng::Rng;
use crate::{EngineError, rollout};

/// How bad a decision was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Label {
    Best,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Label {
    pub const ALL: [Label; 5] = [Label::Best, Label::Good, Label::Inaccuracy, Label::Mistake, Label::Blunder];

    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    /// The label of a loss that is not the best move, given the upper bounds of good, inaccuracy
    /// and mistake.
    fn of(loss: f64, bounds: [f64; 3]) -> Label {
        match bounds.iter().position(|&b| loss < b) {
            Some(0) => Label::Good,
            Some(1) => Label::Inaccuracy,
            Some(2) => Label::Mistake,
            _ => Label::Blunder,
        }
    }

    /// The label a measured loss supports: the mildest its 95% interval allows (the label of
    /// the interval's lower end, a loss below zero counting as none), and whether the interval
    /// lies within that one label's band, so that more worlds would not change it.
    fn supported(loss: Estimate, bounds: [f64; 3]) -> (Label, bool) {
        let (low, high) = (loss.mean - Z95 * loss.stderr, loss.mean + Z95 * loss.stderr);
        let label = Label::of(low.max(0.0), bounds);
        (label, Label::of(high.max(0.0), bounds) == label)
    }

    /// Whether `worlds` in all could settle a label that `loss`, measured in `now` worlds, does
    /// not: the interval the same mean would have with that many worlds (its error shrinking as
    /// one over the square root) lies within one label's band. A loss sitting on a band's edge
    /// never settles, however many worlds are added; worlds spent on it would only cost time.
    fn may_settle(loss: Estimate, bounds: [f64; 3], (now, worlds): (u32, u32)) -> bool {
        let narrowed = loss.stderr * (f64::from(now) / f64::from(worlds.max(1))).sqrt();
        Label::supported(Estimate { stderr: narrowed, ..loss }, bounds).1
    }
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// Worlds a review adds, in turn, to a decision whose label its first worlds do not settle, as
/// multiples of the level's worlds: at most eight times the level's worlds in all, for the best
/// action and the one played. A decision gets them only while its loss could still be settled
/// by the worlds the schedule has left (`Label::may_settle`); one whose mean sits on a band's
/// edge keeps the milder label its worlds so far support. The schedule and the rule are fixed
/// in advance and counted in worlds, so a review labels the same on every machine.
pub const EXTRA_WORLDS: [u32; 3] = [1, 2, 4];

/// Losses below these (points of round margin) are good, inaccuracies and mistakes in Straight
/// Dominoes; from the last bound on, a blunder. Every score is a multiple of five: half a scoring
/// unit is within the noise of a good move, one unit an inaccuracy, two or three a mistake.
pub const STRAIGHT_POINTS: [f64; 3] = [2.5, 7.5, 15.0];
/// The same bounds for the probability of winning, used where the engine chooses on it (within
/// sixty points of the target).
pub const STRAIGHT_WIN: [f64; 3] = [0.02, 0.05, 0.10];
/// The same bounds for Streets and Avenues, in points of final margin (a block or a tile left in
/// hand is one point).
pub const STREETS_POINTS: [f64; 3] = [0.5, 1.5, 3.0];

/// One decision, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionReview {
    /// The index of the step in the record.
    pub step: usize,
    pub seat: Seat,
    pub played: Action,
    pub best: Action,
    pub best_value: Estimate,
    pub played_value: Estimate,
    /// The best value less the played one's (points of margin).
    pub loss: Estimate,
    /// The same in probability of winning the game.
    pub win_loss: Estimate,
    /// The engine's expected margin and probability of winning before the move (its best
    /// action's), for drawing the game's evaluation.
    pub win: Estimate,
    pub label: Label,
    pub choices: usize,
    /// The worlds the loss was measured in: the level's (fewer for an action screened out), and
    /// more when they did not settle the label ([`EXTRA_WORLDS`]); 0 when it is exact, or is
    /// that of the tree's own choice (nothing).
    pub worlds: u32,
    /// The label measures the loss in probability of winning (`win_loss`), not in margin: near
    /// the end of a Straight Dominoes match, where the engine chooses on it.
    pub endgame: bool,
    /// The loss was measured by information-set search (Straight Dominoes in teams): `worlds`
    /// are the iterations that took the played action, and none were added. In two-player
    /// Straight the tree chooses too, but the loss against its choice is measured on searched
    /// worlds, paired, and this is false.
    pub tree: bool,
}

/// What kind of chance event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceKind {
    Deal,
    Draw,
}

/// One chance event's luck for one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceReview {
    pub step: usize,
    pub seat: Seat,
    pub kind: ChanceKind,
    /// The seat's expected margin just after less just before.
    pub luck: Estimate,
}

/// One seat's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatReview {
    pub seat: Seat,
    pub decisions: u32,
    /// Points of margin lost by play, summed.
    pub loss: Estimate,
    /// Points of margin won (or lost, when negative) by luck, summed.
    pub luck: Estimate,
    /// Decisions per label, in [`Label::ALL`] order.
    pub labels: [u32; 5],
}

/// A whole game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub level: Level,
    pub decisions: Vec<DecisionReview>,
    pub chances: Vec<ChanceReview>,
    pub seats: Vec<SeatReview>,
}

/// Reviews a game's record at `level`, with the game's `seed` (so that decisions of engine
/// players of that level are evaluated as they were made). `progress(done, total)` is called
/// after each step judged.
pub fn review(
    options: Options,
    steps: &[Step],
    level: Level,
    seed: u64,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, EngineError> {
    let mut game = Game::new(options).map_err(|e| EngineError::Record { step: 0, reason: e.to_string() })?;
    let players = game.players();
    let mut decisions = Vec::new();
    let mut chances = Vec::new();
    let total = steps.len();
    for (i, step) in steps.iter().enumerate() {
        match step {
            Step::Act(seat, action) if game.legal_actions().len() > 1 => {
                decisions.push(judge(options, &steps[..i], *seat, *action, level, seed)?);
            }
            Step::Chance(chance) if is_weighed(chance) => {
                let drawer = game.drawing_seat();
                let seats: Vec<Seat> = match drawer {
                    Some(seat) => vec![seat],
                    None => (0..players).map(Seat).collect(),
                };
                for seat in seats {
                    let before = value_before(&game, options, &steps[..i], seat, level, seed)?;
                    let after = value(options, &steps[..=i], seat, level, seed)?;
                    let luck = Estimate::sum([after, Estimate { mean: -before.mean, stderr: before.stderr }]);
                    let kind = if drawer.is_some() { ChanceKind::Draw } else { ChanceKind::Deal };
                    chances.push(ChanceReview { step: i, seat, kind, luck });
                }
            }
            _ => {}
        }
        record::apply(&mut game, step, i)?;
        progress(i + 1, total);
    }
    let seats = (0..players).map(Seat).map(|seat| totals(seat, &decisions, &chances)).collect();
    Ok(Review { level, decisions, chances, seats })
}

fn is_weighed(chance: &Chance) -> bool {
    matches!(
        chance,
        Chance::Straight(straight::Chance::Deal { .. } | straight::Chance::Draw { .. })
            | Chance::Streets(streets::Chance::Deal { .. } | streets::Chance::Draw { .. })
    )
}

fn judge(
    options: Options,
    before: &[Step],
    seat: Seat,
    played: Action,
    level: Level,
    seed: u64,
) -> Result<DecisionReview, EngineError> {
    let mut info = InfoSet::new(options, before, seat)?;
    let budget = budget(level, options);
    let decision = decision_seed(seed, before.len());
    let mut sampled = Worlds::new(&mut info, &budget, decision)?;
    let evaluation = sampled.evaluate(&budget, decision)?;
    let index = evaluation
        .actions
        .iter()
        .position(|v| v.action == played)
        .ok_or_else(|| EngineError::Inconsistent(format!("{played} was not a legal action")))?;
    let best = evaluation.best();
    let (mut loss, mut win_loss) = evaluation.loss(index);
    // Where a tree chose in two-player Straight Dominoes, the loss against its choice is measured
    // pair by pair on searched worlds (`compare`): the tree's own values are not paired, and
    // labels resting on them did not survive a stronger look (docs/engine.md, "Auditing").
    let paired = evaluation.tree && measures_by_search(&budget, sampled.info().position());
    let unmeasured = (evaluation.exact && !evaluation.endgame) || (paired && index == evaluation.best);
    let mut worlds = if unmeasured { 0 } else { evaluation.actions[index].worlds };
    let label = if index == evaluation.best {
        Label::Best
    } else {
        let bounds = bounds(options, evaluation.endgame);
        let measured = |loss: Estimate, win_loss: Estimate| if evaluation.endgame { win_loss } else { loss };
        let (mut margins, mut wins, mut next) = (Vec::new(), Vec::new(), 0);
        if paired {
            let first = u64::from(budget.worlds);
            (margins, wins) = sampled.compare((best.action, played), 0..first, (&budget, decision))?;
            (loss, win_loss, worlds, next) = (Estimate::of(&margins), Estimate::of(&wins), budget.worlds, first);
        } else if !evaluation.tree {
            (margins, wins) = evaluation.differences(index);
            next = u64::from(budget.worlds);
        }
        let most = budget.worlds * (1 + EXTRA_WORLDS.iter().sum::<u32>());
        // A tree's margins in team games are not paired world by world, so no worlds can be
        // added to them (the label stands on the tree's own intervals; the judge grows a bigger
        // tree).
        let schedule: &[u32] = if evaluation.tree && !paired { &[] } else { &EXTRA_WORLDS };
        for &extra in schedule {
            let now = measured(loss, win_loss);
            if Label::supported(now, bounds).1 || !Label::may_settle(now, bounds, (worlds, most)) {
                break;
            }
            let more = u64::from(extra * budget.worlds);
            let (m, w) = sampled.compare((best.action, played), next..next + more, (&budget, decision))?;
            next += more;
            margins.extend(m);
            wins.extend(w);
            (win_loss, worlds) = (Estimate::of(&wins), wins.len() as u32);
            if !evaluation.exact {
                loss = Estimate::of(&margins);
            }
        }
        Label::supported(measured(loss, win_loss), bounds).0
    };
    Ok(DecisionReview {
        step: before.len(),
        seat,
        played,
        best: best.action,
        best_value: best.margin,
        played_value: evaluation.actions[index].margin,
        loss,
        win_loss,
        win: best.win,
        label,
        choices: evaluation.actions.len(),
        worlds,
        endgame: evaluation.endgame,
        tree: evaluation.tree && !paired,
    })
}

/// The budget a review at `level` evaluates with: the level's own, so that a seat that played
/// the level's choice loses nothing, except the judge's in two-player Straight Dominoes. The
/// judge is an instrument, never a seat in users' games: it values every move on its searched
/// worlds and measures each loss against the best of them, rather than against its tree's
/// choice, which still changed with the seed between moves its worlds put 7.5 points apart
/// (docs/engine.md, "Auditing the reviews"). In team games the losses are the tree's own values,
/// so its tree runs to the end of its budget rather than stopping once its choice is settled
/// (the choice is the same either way).
fn budget(level: Level, options: Options) -> Budget {
    let budget = level.budget();
    match options {
        Options::Straight(o) if level == Level::Judge && o.players == 2 => Budget { tree_iterations: 0, ..budget },
        Options::Straight(o) if o.teams => Budget { settle: false, ..budget },
        _ => budget,
    }
}

/// The bounds of good, inaccuracy and mistake a decision's loss is labelled by.
fn bounds(options: Options, endgame: bool) -> [f64; 3] {
    match options {
        Options::Straight(_) if endgame => STRAIGHT_WIN,
        Options::Straight(_) => STRAIGHT_POINTS,
        Options::Streets(_) => STREETS_POINTS,
    }
}

/// `seat`'s expected margin after `steps`, by playouts from worlds of its information set.
fn value(options: Options, steps: &[Step], seat: Seat, level: Level, seed: u64) -> Result<Estimate, EngineError> {
    let mut info = InfoSet::new(options, steps, seat)?;
    let base = decision_seed(seed, steps.len()) ^ 0x5EED;
    let mut margins = Vec::new();
    for w in 0..u64::from(level.budget().worlds) {
        let world = info.sample(&mut Rng::derive(base, 2 * w))?;
        margins.push(rollout::play_out(&world, &world, seat, &mut Rng::derive(base, 2 * w + 1), false).margin);
    }
    Ok(Estimate::of(&margins))
}

/// `seat`'s expected margin just before a chance event, which is the mean over its outcomes.
/// Before a deal nothing is hidden, so the position is dealt afresh in each world; before a draw
/// the seat's information set is sampled and the playout makes the draw.
fn value_before(
    game: &Game,
    options: Options,
    steps: &[Step],
    seat: Seat,
    level: Level,
    seed: u64,
) -> Result<Estimate, EngineError> {
    if game.drawing_seat().is_some() {
        return value(options, steps, seat, level, seed);
    }
    let base = decision_seed(seed, steps.len()) ^ 0xDEA1;
    let mut margins = Vec::new();
    for w in 0..u64::from(level.budget().worlds) {
        let mut world = game.clone();
        let mut dealer = Dealer::from_seed(Rng::derive(base, 2 * w).next_u64());
        if let Some(deal) = world.sample_chance(&mut dealer) {
            world.apply_chance(deal).map_err(|e| EngineError::Inconsistent(e.to_string()))?;
        }
        if !matches!(world.turn(), Turn::Over) {
            margins.push(rollout::play_out(game, &world, seat, &mut Rng::derive(base, 2 * w + 1), false).margin);
        }
    }
    Ok(Estimate::of(&margins))
}

fn totals(seat: Seat, decisions: &[DecisionReview], chances: &[ChanceReview]) -> SeatReview {
    let mine: Vec<&DecisionReview> = decisions.iter().filter(|d| d.seat == seat).collect();
    let mut labels = [0u32; 5];
    for d in &mine {
        labels[d.label as usize] += 1;
    }
    SeatReview {
        seat,
        decisions: mine.len() as u32,
        loss: Estimate::sum(mine.iter().map(|d| d.loss)),
        luck: Estimate::sum(chances.iter().filter(|c| c.seat == seat).map(|c| c.luck)),
        labels,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loss(mean: f64, stderr: f64) -> Estimate {
        Estimate { mean, stderr }
    }

    /// A review values moves as its level plays them, but the judge's in two-player Straight
    /// Dominoes takes its best from its searched worlds, not from a tree; in teams every level
    /// grows its whole tree (its values are the losses), and Streets and Avenues has none.
    #[test]
    fn only_the_judge_of_two_players_reviews_without_its_tree() {
        let straight = |players, teams| Options::Straight(straight::Options { players, teams, ..Default::default() });
        let judge = Level::Judge.budget();
        assert_eq!(budget(Level::Judge, straight(2, false)), Budget { tree_iterations: 0, ..judge });
        assert!(judge.tree_iterations > 0 && judge.search_nodes > 0 && judge.settle);
        for level in [Level::Fast, Level::Default, Level::Strong, Level::Judge] {
            assert_eq!(budget(level, straight(4, true)), Budget { settle: false, ..level.budget() });
        }
        assert_eq!(budget(Level::Judge, Options::Streets(streets::Options::default())), judge);
        for level in [Level::Fast, Level::Default, Level::Strong] {
            assert_eq!(budget(level, straight(2, false)), level.budget());
        }
    }

    /// With 64 worlds of 512: a loss of 7.4 ± 1.0 sits on the edge between inaccuracy and
    /// mistake, and eight times the worlds (± 0.35) would still straddle it, so no world is added;
    /// 5.0 ± 2.0 straddles two edges now, but would lie within the inaccuracies then.
    #[test]
    fn worlds_are_added_only_to_a_label_they_could_settle() {
        let bounds = STRAIGHT_POINTS;
        assert_eq!(Label::supported(loss(7.4, 1.0), bounds), (Label::Inaccuracy, false));
        assert!(!Label::may_settle(loss(7.4, 1.0), bounds, (64, 512)));
        assert_eq!(Label::supported(loss(5.0, 2.0), bounds), (Label::Good, false));
        assert!(Label::may_settle(loss(5.0, 2.0), bounds, (64, 512)));
        // A blunder's band has no top: a loss well past 15 settles with the worlds it has.
        assert_eq!(Label::supported(loss(40.0, 5.0), bounds), (Label::Blunder, true));
    }
}
