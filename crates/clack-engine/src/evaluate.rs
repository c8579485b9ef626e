//! The value of each legal action, from the mover's information set.
//!
//! Determinized Monte Carlo: sample a world from the [`InfoSet`], and in it play every legal
//! action followed by a greedy playout. Every action is tried in the same worlds with the same
//! playout randomness (common random numbers), so the difference between two actions is
//! measured on the same deals and draws, and its standard error, from the paired differences, is
//! far smaller than either value's. The budget is a number of worlds, never a time, so the same
//! record, seed and budget give the same answer everywhere.
//!
//! When nothing is hidden any more and few tiles are left, the margins come from exhaustive
//! search instead ([`crate::exact`]), and are exact. Otherwise, in Straight Dominoes played by
//! two sides (two players, or four in teams), an information-set tree ([`crate::ismcts`]) gives
//! the margins and the choice, and the playouts only the probabilities of winning.

use clack_rules::Seat;
use clack_rules::game::{Action, Game, Turn};

use crate::infoset::InfoSet;
use crate::ismcts::Goal;
use crate::lean::{self, Move};
use crate::rng::Rng;
use crate::search::{Search, World};
use crate::{EngineError, exact, inference, ismcts, rollout};

/// How much work one evaluation may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Worlds sampled.
    pub worlds: u32,
    /// Every legal action is played out in the first `screen` worlds; after them only the
    /// `finalists` best go on to the rest. Streets and Avenues often has dozens of placements,
    /// most of them plainly worse: screening spends the budget where the choice is made.
    pub screen: u32,
    pub finalists: usize,
    /// Exhaustive search is used when nothing is hidden and at most this many tiles are left in
    /// hands,
    pub exact_tiles: u8,
    /// and if it visits at most this many positions; past them it gives up, and the sampled
    /// values stand.
    pub exact_nodes: u64,
    /// Two-player Straight Dominoes, away from the end of the match: the positions a
    /// perfect-information search of each world may visit ([`crate::search`]); 0 values each
    /// world by a greedy playout alone. Where a tree is grown it chooses, and the searched worlds
    /// serve [`compare`] alone: a review measures what a move cost on them, pair by pair.
    pub search_nodes: u64,
    /// Straight Dominoes with two sides: iterations of information-set search
    /// ([`crate::ismcts`]), whose root values replace the playouts' margins and whose most
    /// visited move is the choice (near the end of the match, where it plays each match out, it
    /// only chooses); 0 keeps the playouts' (as `engine:legacy-strong` does).
    pub tree_iterations: u32,
    /// The tree stops once its choice is settled: when no other root move could reach the most
    /// visited one's visits in the iterations left. The choice is then the one the whole budget
    /// would make, at less cost, but the root values rest on fewer iterations: false where they
    /// are needed whole (a team review measures its losses on them).
    pub settle: bool,
    /// Straight Dominoes with two sides: worlds drawn and weighed by how likely the other seats'
    /// plays were in each ([`crate::inference`]), from which the evaluation draws its own (the
    /// tree's, and the playouts' near the end of a match); 0 draws them uniformly from the
    /// information set (as `engine:legacy-strong` does).
    pub inference_pool: u32,
}

/// A mean with its standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub stderr: f64,
}

impl Estimate {
    /// The mean and standard error of `values`.
    pub fn of(values: &[f64]) -> Estimate {
        let n = values.len() as f64;
        if values.is_empty() {
            return Estimate::default();
        }
        let mean = values.iter().sum::<f64>() / n;
        let var =
            if values.len() > 1 { values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
        Estimate { mean, stderr: (var / n).sqrt() }
    }

    /// A figure known exactly.
    pub fn exact(mean: f64) -> Estimate {
        Estimate { mean, stderr: 0.0 }
    }

    /// The sum of independent estimates.
    pub fn sum(items: impl IntoIterator<Item = Estimate>) -> Estimate {
        let (mean, var) = items.into_iter().fold((0.0, 0.0), |(m, v), e| (m + e.mean, v + e.stderr * e.stderr));
        Estimate { mean, stderr: var.sqrt() }
    }
}

/// One legal action's value for the mover's side.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionValue {
    pub action: Action,
    /// Straight Dominoes: points the side gains to the end of the round (round-end count
    /// included) less the mean of the other sides'; Streets and Avenues: the final score less the
    /// mean of the others'.
    pub margin: Estimate,
    /// The probability of winning the game (Straight Dominoes plays the match out; a shared win
    /// counts as a share).
    pub win: Estimate,
    /// The worlds it was played out in: all of them for a finalist, the screening worlds for
    /// an action dropped after them.
    pub worlds: u32,
    /// Margins per world, kept for paired comparisons.
    samples: Vec<f64>,
    wins: Vec<f64>,
}

/// Every legal action's value, and the engine's choice.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    pub seat: Seat,
    /// In the game's legal-action order.
    pub actions: Vec<ActionValue>,
    /// The index of the engine's choice.
    pub best: usize,
    pub worlds: u32,
    /// The margins are exact (exhaustive search of the one world that fits).
    pub exact: bool,
    /// Positions the exhaustive search visited (at most the budget's `exact_nodes`), whether or
    /// not it finished; 0 when it was not tried.
    pub searched: u64,
    /// The choice was made on winning the match, not the margin (near the end of a Straight
    /// Dominoes match): by an information-set tree that plays each match out, where two sides
    /// play and a tree is in the budget, else on the playouts' probability of winning. Either
    /// way the actions' values are the playouts', and a review labels by their probabilities of
    /// winning.
    pub endgame: bool,
    /// The margins and the choice come from information-set search (two sides, see
    /// [`Budget::tree_iterations`]), away from the end of the match: an action's margin is the
    /// mean of the iterations that took it, its `worlds` those iterations, and a loss is the
    /// difference of two such means, unpaired. The probabilities of winning are still the
    /// playouts', paired.
    pub tree: bool,
}

/// When some side of a Straight Dominoes game is this close to the target, the engine chooses
/// by winning the match rather than by the round's margin: near the end, points that do not win
/// are worth nothing.
const ENDGAME: u32 = 60;

impl Evaluation {
    pub fn best(&self) -> &ActionValue {
        &self.actions[self.best]
    }

    /// The best action's margins and wins less action `index`'s, world by world, over the
    /// worlds both were played in (a review adds worlds to these when they do not settle a
    /// label; see [`compare`]).
    pub fn differences(&self, index: usize) -> (Vec<f64>, Vec<f64>) {
        let (best, chosen) = (self.best(), &self.actions[index]);
        let minus = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x - y).collect();
        (minus(&best.samples, &chosen.samples), minus(&best.wins, &chosen.wins))
    }

    /// What playing action `index` instead of the best costs, in margin and in win probability,
    /// measured on the same worlds (paired), so the error is that of the difference; a tree's
    /// margins were measured on different iterations, so their errors add.
    pub fn loss(&self, index: usize) -> (Estimate, Estimate) {
        let best = self.best();
        let chosen = &self.actions[index];
        if index == self.best {
            return (Estimate::exact(0.0), Estimate::exact(0.0));
        }
        if self.tree {
            let paired = Estimate::of(&self.differences(index).1);
            let negated = Estimate { mean: -chosen.margin.mean, ..chosen.margin };
            return (Estimate::sum([best.margin, negated]), paired);
        }
        let paired = |a: &[f64], b: &[f64], exact_value: Option<(f64, f64)>| match exact_value {
            Some((a, b)) => Estimate::exact(a - b),
            None => Estimate::of(&a.iter().zip(b).map(|(x, y)| x - y).collect::<Vec<_>>()),
        };
        let margin_exact = self.exact.then_some((best.margin.mean, chosen.margin.mean));
        (paired(&best.samples, &chosen.samples, margin_exact), paired(&best.wins, &chosen.wins, None))
    }
}

/// Evaluates every legal action of the seat to move, from that seat's information set.
pub fn evaluate(info: &mut InfoSet, budget: &Budget, seed: u64) -> Result<Evaluation, EngineError> {
    Worlds::new(info, budget, seed)?.evaluate(budget, seed)
}

/// The worlds one decision is measured on: drawn from the mover's information set, or picked
/// from the pool of worlds weighed by the others' plays ([`crate::inference`]). The pool is
/// drawn once for the decision and shared by its evaluation and by every comparison a review
/// makes there: drawing it again for each (as reviews did) was a sixth of a review's time.
#[derive(Debug)]
pub struct Worlds<'a> {
    info: &'a mut InfoSet,
    pool: Option<inference::Pool>,
}

impl<'a> Worlds<'a> {
    /// The worlds of an evaluation of `info` with `seed` under `budget`.
    pub fn new(info: &'a mut InfoSet, budget: &Budget, seed: u64) -> Result<Worlds<'a>, EngineError> {
        let pool = weighed(info, budget, seed)?;
        Ok(Worlds { info, pool })
    }

    /// The information set the worlds come from.
    pub fn info(&self) -> &InfoSet {
        self.info
    }

    /// [`evaluate`] on these worlds.
    pub fn evaluate(&mut self, budget: &Budget, seed: u64) -> Result<Evaluation, EngineError> {
        let (seat, certain) = (self.info.seat(), self.info.is_certain());
        let position = self.info.position().clone();
        if certain {
            // One world fits: it is drawn once, and no generator is spent drawing it again, so
            // that the tree's walk through it is the one a seer given that world takes.
            let world = self.info.sample(&mut Rng::new(seed))?;
            return evaluate_in(&position, (seat, certain), &mut One(&world), budget, seed);
        }
        evaluate_in(&position, (seat, certain), self, budget, seed)
    }
}

/// Where an evaluation draws its worlds: each with the generator it is given, as the rules'
/// position (for playouts and searches) or as the tree plays on it.
pub(crate) trait Sample {
    fn game(&mut self, rng: &mut Rng) -> Result<Game, EngineError>;

    /// The world [`Sample::game`] draws with `rng`, as the tree plays on it; `None` outside
    /// Straight Dominoes.
    fn lean(&mut self, rng: &mut Rng) -> Result<Option<lean::Straight>, EngineError> {
        Ok(lean_of(&self.game(rng)?))
    }
}

impl Sample for Worlds<'_> {
    fn game(&mut self, rng: &mut Rng) -> Result<Game, EngineError> {
        match &self.pool {
            Some(pool) => Ok(pool.pick(rng)),
            None => self.info.sample(rng),
        }
    }

    fn lean(&mut self, rng: &mut Rng) -> Result<Option<lean::Straight>, EngineError> {
        match &self.pool {
            Some(pool) => Ok(Some(pool.pick_lean(rng))),
            None => Ok(lean_of(&self.info.sample(rng)?)),
        }
    }
}

/// The one world there is: the seer's, or the only one an information set allows.
pub(crate) struct One<'a>(pub(crate) &'a Game);

impl Sample for One<'_> {
    fn game(&mut self, _: &mut Rng) -> Result<Game, EngineError> {
        Ok(self.0.clone())
    }

    fn lean(&mut self, _: &mut Rng) -> Result<Option<lean::Straight>, EngineError> {
        Ok(lean_of(self.0))
    }
}

fn lean_of(world: &Game) -> Option<lean::Straight> {
    match world {
        Game::Straight(state) => Some(lean::Straight::from_state(state)),
        Game::Streets(_) => None,
    }
}

/// The pool of weighed worlds an evaluation with `seed` draws its worlds from
/// ([`crate::inference`]), or `None` when they come from the information set's uniform sampler:
/// without a pool in the budget, when only one world fits (nothing to infer), and outside
/// Straight Dominoes played by two sides. There the pool gives the tree its worlds and, near the
/// end of the match, where no tree is grown, the playouts that measure the probability of
/// winning. It was measured to pay in both: with the tree, it lifted `engine:default` from 0.536
/// to 0.590 of 2,000 team deals against `engine:legacy-strong`; near the end of two-player
/// matches, from 0.581 to 0.597 of 1,000 (docs/engine.md, "Strength").
fn weighed(info: &mut InfoSet, budget: &Budget, seed: u64) -> Result<Option<inference::Pool>, EngineError> {
    if info.is_certain() || !two_sides(info.position()) {
        return Ok(None);
    }
    inference::Pool::draw(info, budget.inference_pool, seed ^ POOL_SEED)
}

/// Mixed into a decision's seed for its pool of weighted worlds, so that the pool's worlds are
/// not the evaluation's own.
const POOL_SEED: u64 = 0x1f3a_55c7;

/// [`evaluate`]'s work for `seat` at `position`, its worlds drawn by `sample`; `certain` when
/// only one world fits, so that an exhaustive search may replace the sampled margins.
pub(crate) fn evaluate_in(
    position: &Game,
    (seat, certain): (Seat, bool),
    sample: &mut impl Sample,
    budget: &Budget,
    seed: u64,
) -> Result<Evaluation, EngineError> {
    if position.turn() != (Turn::Seat { seat }) {
        return Err(EngineError::NoDecision);
    }
    let legal = position.legal_actions();
    let worlds = budget.worlds.max(1);
    let whole_match = matches!(position, Game::Straight(_));
    let mut values: Vec<ActionValue> = legal
        .iter()
        .map(|&action| ActionValue {
            action,
            margin: Estimate::default(),
            win: Estimate::default(),
            worlds: 0,
            samples: Vec::with_capacity(worlds as usize),
            wins: Vec::with_capacity(worlds as usize),
        })
        .collect();
    let endgame = is_endgame(position);
    let searched = searches(budget, position);
    let mut playing: Vec<usize> = (0..values.len()).collect();
    for w in 0..u64::from(worlds) {
        if w == u64::from(budget.screen) && playing.len() > budget.finalists.max(1) {
            playing = finalists(endgame, &values, budget.finalists.max(1));
        }
        let world = sample.game(&mut Rng::derive(seed, 2 * w))?;
        let actions: Vec<Action> = playing.iter().map(|&i| values[i].action).collect();
        let margins = if searched { search_world(&world, &actions, budget.search_nodes, (seed, w)) } else { None };
        for (k, &i) in playing.iter().enumerate() {
            let value = &mut values[i];
            let mut next = world.clone();
            next.apply(seat, value.action).map_err(|e| EngineError::Inconsistent(e.to_string()))?;
            let played = rollout::play_out(&world, &next, seat, &mut Rng::derive(seed, 2 * w + 1), whole_match);
            value.samples.push(margins.as_ref().map_or(played.margin, |m| f64::from(m[k])));
            value.wins.push(played.win);
        }
    }
    for value in &mut values {
        value.margin = Estimate::of(&value.samples);
        value.win = Estimate::of(&value.wins);
        value.worlds = value.samples.len() as u32;
    }
    let mut searched = 0;
    let mut exact = false;
    if certain && exact::within(position, budget.exact_tiles) {
        let outcome = exact::margins(position, seat, budget.exact_nodes);
        searched = outcome.nodes;
        if let Some(margins) = outcome.margins {
            exact = true;
            for (value, margin) in values.iter_mut().zip(margins) {
                value.margin = Estimate::exact(margin);
            }
        }
    }
    let mut best = choose(endgame, &values, &playing);
    let mut tree = false;
    if !exact && grows_tree(budget, position) {
        // Near the end of the match the tree plays each iteration's match out and only chooses:
        // its worths are not margins, so the actions keep the playouts' values, and it may stop
        // once its choice is settled even where a review needs a whole tree's values.
        let (goal, effort) = if endgame {
            (Goal::Match, (budget.tree_iterations / MATCH_TREE_SHARE, true))
        } else {
            (Goal::Round, (budget.tree_iterations, budget.settle))
        };
        let roots = ismcts::search((position, seat), |rng| sample.lean(rng), effort, goal, seed)?;
        if let Some(roots) = roots.as_deref()
            && let Some((indices, chosen)) = tree_choice(&values, roots)
        {
            best = indices[chosen];
            if goal == Goal::Round {
                adopt(&mut values, roots, &indices);
                tree = true;
            }
        }
    }
    Ok(Evaluation { seat, actions: values, best, worlds, exact, searched, endgame, tree })
}

/// The tree that plays each match out near its end grows an eighth of the level's iterations:
/// its iterations cost more (a whole match each), and a review grows it at every such decision.
const MATCH_TREE_SHARE: u32 = 8;

/// The index among the actions of each of the tree's root moves, and which root move the tree
/// chose; `None` if the root moves are not the actions.
fn tree_choice(values: &[ActionValue], roots: &[ismcts::RootValue]) -> Option<(Vec<usize>, usize)> {
    let position = |mv: Move| values.iter().position(|v| v.action == Action::Straight(mv.action()));
    let indices: Vec<usize> = roots.iter().map(|r| position(r.mv)).collect::<Option<_>>()?;
    if indices.len() != values.len() {
        return None;
    }
    let chosen = ismcts::chosen(roots)?;
    Some((indices, chosen))
}

/// Gives each action the tree's root value for it, the root moves being the actions at
/// `indices`.
fn adopt(values: &mut [ActionValue], roots: &[ismcts::RootValue], indices: &[usize]) {
    for (root, &i) in roots.iter().zip(indices) {
        values[i].margin = root.margin;
        values[i].worlds = root.visits;
    }
}

/// Whether information-set search chooses: Straight Dominoes played by two sides (two players,
/// or four in teams) with iterations in the budget. Away from the end of the match the tree's
/// round margins are the actions' margins too; near it the tree plays each match out and
/// chooses by wins, and the actions keep the playouts' values. Choosing there by the playouts'
/// probability of winning (64 greedy playouts an action, as `engine:legacy-strong` does with
/// 256) took 0.595 of 2,000 two-player deals against `engine:legacy-strong`; the match tree with
/// the level's whole iterations, 0.634 of the same deals, and with an eighth of them (shipped, so
/// that a review stays under 2 s), 0.615 (docs/engine.md, "Strength").
fn grows_tree(budget: &Budget, position: &Game) -> bool {
    budget.tree_iterations > 0 && two_sides(position)
}

/// Whether `position` is of Straight Dominoes played by two sides: two players, or four in teams.
fn two_sides(position: &Game) -> bool {
    matches!(position, Game::Straight(g) if g.options().sides() == 2)
}

/// Whether a world's margins can come from a search of its round rather than a playout: in
/// two-player Straight Dominoes with positions in the budget. Near the end of a match the choice
/// is made on the probability of winning, which only the whole-match playouts measure: the search
/// of the round is of no use there.
pub fn measures_by_search(budget: &Budget, position: &Game) -> bool {
    budget.search_nodes > 0
        && !is_endgame(position)
        && matches!(position, Game::Straight(g) if g.options().players == 2)
}

/// Whether each world's margins in [`evaluate`] come from a search: where they can and no tree
/// is grown. Where a tree is grown, it chooses (the tree, with inference and guarded playouts,
/// took 0.587 of 2,000 two-player deals against `engine:legacy-strong` where the searched worlds
/// took 0.510; docs/engine.md), and the searched worlds measure [`compare`]'s pairs for a review.
/// The omniscient player's search is the same ([`crate::search`]).
fn searches(budget: &Budget, position: &Game) -> bool {
    measures_by_search(budget, position) && !grows_tree(budget, position)
}

/// The margin of each of `actions` in `world` (the `w`-th of an evaluation seeded with `seed`)
/// by a search of its round within `nodes` positions, its boneyard drawn in an order of its own;
/// `None` if the budget did not allow one move and its playout.
fn search_world(world: &Game, actions: &[Action], nodes: u64, (seed, w): (u64, u64)) -> Option<Vec<i32>> {
    let Game::Straight(state) = world else { return None };
    let moves: Vec<Move> = actions
        .iter()
        .map(|a| match a {
            Action::Straight(a) => Some(Move::of(*a)),
            Action::Streets(_) => None,
        })
        .collect::<Option<_>>()?;
    let world = World::shuffled(lean::Straight::from_state(state), &mut Rng::derive(seed ^ DRAW_ORDER, w));
    Search::new(&world, nodes).root(&world.state, &moves)
}

/// Mixed into an evaluation's seed for the order each world's boneyard is drawn in.
const DRAW_ORDER: u64 = 0x0D2A_A0D2_E200_0000;

/// Action `a`'s margins and wins less action `b`'s, world by world, in worlds `worlds` of the
/// evaluation seeded with `seed` under `budget`: world `w` is sampled, searched (wherever
/// [`measures_by_search`]) and played out as [`evaluate`]'s world `w` would be, so numbers past
/// an evaluation's budget are new worlds of the same kind (from the same pool of weighed worlds,
/// where there is one), measured the same way, and its common random numbers hold for the pair.
/// Where a tree chose, the tree's values are not paired, and a review measures the pair here
/// from the first world on.
/// The pair's search gets the positions per move that each of the evaluation's finalists had in
/// such a world ([`pair_nodes`]), so it looks as deep as they did, not deeper at several times
/// the cost; where both reach the round's end the margins are the same.
pub fn compare(
    info: &mut InfoSet,
    pair: (Action, Action),
    worlds: std::ops::Range<u64>,
    (budget, seed): (&Budget, u64),
) -> Result<(Vec<f64>, Vec<f64>), EngineError> {
    Worlds::new(info, budget, seed)?.compare(pair, worlds, (budget, seed))
}

impl Worlds<'_> {
    /// [`compare`] on these worlds, which must be those of the evaluation seeded with `seed`.
    pub fn compare(
        &mut self,
        (a, b): (Action, Action),
        worlds: std::ops::Range<u64>,
        (budget, seed): (&Budget, u64),
    ) -> Result<(Vec<f64>, Vec<f64>), EngineError> {
        let (seat, position) = (self.info.seat(), self.info.position());
        let whole_match = matches!(position, Game::Straight(_));
        let searched = measures_by_search(budget, position);
        let nodes = pair_nodes(budget, position.legal_actions().len());
        let (mut margins, mut wins) = (Vec::new(), Vec::new());
        for w in worlds {
            let world = self.game(&mut Rng::derive(seed, 2 * w))?;
            let mut played = [rollout::Result::default(); 2];
            for (action, out) in [a, b].into_iter().zip(&mut played) {
                let mut next = world.clone();
                next.apply(seat, action).map_err(|e| EngineError::Inconsistent(e.to_string()))?;
                *out = rollout::play_out(&world, &next, seat, &mut Rng::derive(seed, 2 * w + 1), whole_match);
            }
            let search = if searched { search_world(&world, &[a, b], nodes, (seed, w)) } else { None };
            margins.push(search.map_or(played[0].margin - played[1].margin, |m| f64::from(m[0] - m[1])));
            wins.push(played[0].win - played[1].win);
        }
        Ok((margins, wins))
    }
}

/// The positions a world's search of two actions may visit so that each gets the share each of
/// an evaluation's finalists got in a world past its screening: the budget is per world, shared
/// by the moves searched, and the evaluation searched `finalists` of the `legal` actions there.
fn pair_nodes(budget: &Budget, legal: usize) -> u64 {
    let moves = budget.finalists.clamp(1, legal.max(1)).max(2) as u64;
    budget.search_nodes.saturating_mul(2) / moves
}

/// The engine's choice: the highest margin, or near the end of a Straight Dominoes match the
/// highest probability of winning (margin breaking ties); the first in legal order on equals.
fn choose(endgame: bool, values: &[ActionValue], among: &[usize]) -> usize {
    let key = |v: &ActionValue| if endgame { (v.win.mean, v.margin.mean) } else { (v.margin.mean, v.win.mean) };
    let mut best = among.first().copied().unwrap_or(0);
    for &i in among {
        if key(&values[i]) > key(&values[best]) {
            best = i;
        }
    }
    best
}

/// The `count` actions with the best means so far, in legal order, judged as [`choose`] does.
fn finalists(endgame: bool, values: &[ActionValue], count: usize) -> Vec<usize> {
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let key =
        |v: &ActionValue| if endgame { (mean(&v.wins), mean(&v.samples)) } else { (mean(&v.samples), mean(&v.wins)) };
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| {
        key(&values[b]).partial_cmp(&key(&values[a])).unwrap_or(std::cmp::Ordering::Equal).then(a.cmp(&b))
    });
    order.truncate(count);
    order.sort_unstable();
    order
}

/// Whether a side of a Straight Dominoes game is within [`ENDGAME`] points of the target.
fn is_endgame(position: &Game) -> bool {
    match position {
        Game::Straight(g) => g.scores().iter().any(|&s| s + ENDGAME >= g.options().target),
        Game::Streets(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pair searched in an added world gets each finalist's share of a world's positions: with
    /// 3,000 positions and `default`'s five finalists, 1,200 for the two; with only two or three
    /// legal actions, all of which the evaluation searched, two of two or three shares.
    #[test]
    fn a_pair_gets_the_positions_two_finalists_had() {
        let budget = Budget { search_nodes: 3_000, ..crate::Level::Default.budget() };
        assert_eq!(budget.finalists, 5);
        assert_eq!(pair_nodes(&budget, 12), 1_200);
        assert_eq!(pair_nodes(&budget, 3), 2_000);
        assert_eq!(pair_nodes(&budget, 2), 3_000);
        assert_eq!(pair_nodes(&Budget { search_nodes: u64::MAX, ..budget }, 12), u64::MAX / 5);
    }

    /// The record of a two-player game to 100 played at random from `seed` until a side is
    /// within [`ENDGAME`] of the target, the mover has a choice and cannot tell where every tile
    /// is; `None` if the match ended first.
    fn near_the_end(seed: u64) -> Option<(clack_rules::game::Options, Vec<crate::Step>, Seat)> {
        use clack_rules::{Dealer, straight};
        let options = clack_rules::game::Options::Straight(straight::Options {
            players: 2,
            target: 100,
            ..straight::Options::default()
        });
        let (mut game, mut dealer, mut steps) = (Game::new(options).ok()?, Dealer::from_seed(seed), Vec::new());
        loop {
            let step = match game.turn() {
                Turn::Chance => crate::Step::Chance(game.sample_chance(&mut dealer)?),
                Turn::Seat { seat } => {
                    let legal = game.legal_actions();
                    let info = InfoSet::new(options, &steps, seat).ok()?;
                    if is_endgame(&game) && legal.len() > 1 && !info.is_certain() {
                        return Some((options, steps, seat));
                    }
                    crate::Step::Act(seat, legal[dealer.index(legal.len())])
                }
                Turn::Over => return None,
            };
            game.apply_step(&step).ok()?;
            steps.push(step);
        }
    }

    /// Near the end of a two-sided match the tree chooses, playing each iteration's match out,
    /// and the actions keep the values of the playouts, which measure the probability of winning
    /// a review labels by: the evaluation is the flat one but for its choice, which is the match
    /// tree's, and which is not always the flat choice.
    #[test]
    fn near_the_end_the_match_tree_chooses_and_the_playouts_value() {
        let budget = crate::Level::Fast.budget();
        let (mut checked, mut changed) = (0, 0);
        for seed in 0..40 {
            let Some((options, steps, seat)) = near_the_end(seed) else { continue };
            let mut info = InfoSet::new(options, &steps, seat).expect("an information set");
            let tree = evaluate(&mut info, &budget, seed).expect("evaluates");
            let flat = evaluate(&mut info, &Budget { tree_iterations: 0, ..budget }, seed).expect("evaluates");
            assert!(tree.endgame && !tree.tree, "seed {seed}");
            assert_eq!(tree.actions, flat.actions, "seed {seed}");
            let position = info.position().clone();
            let mut worlds = Worlds::new(&mut info, &budget, seed).expect("worlds");
            let iterations = (budget.tree_iterations / MATCH_TREE_SHARE, true);
            let roots = ismcts::search((&position, seat), |rng| worlds.lean(rng), iterations, Goal::Match, seed)
                .expect("searches")
                .expect("two sides");
            let choice = roots[ismcts::chosen(&roots).expect("a move")].mv.action();
            assert_eq!(tree.best().action, Action::Straight(choice), "seed {seed}");
            checked += 1;
            changed += usize::from(tree.best != flat.best);
        }
        assert!(checked >= 20, "only {checked} positions");
        assert!(changed >= 1, "the tree chose as the playouts did in all {checked} positions");
    }
}
