//! Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse
//! 2012) for Straight Dominoes played by two sides: the engine's evaluation of two-player games
//! and of four-player team games.
//!
//! One tree holds what the mover knows. Each iteration samples a world from the mover's information
//! set, walks the tree choosing among the moves legal in that world, adds one node, and plays the
//! round out by the guarded policy ([`lean::Straight::guarded_policy`]). A move's statistics count
//! the iterations that took it and, separately, the iterations in which it was available, and the
//! choice between moves is UCB on those counts; a draw is chance in the world and does not branch
//! the tree. Every node of the tree is a history the mover could tell apart, so the partners in a
//! team plan on what the mover knows, not on each other's hands: that is what the flat evaluation,
//! which values every move world by world as if the hands were seen, cannot do ("strategy fusion"),
//! and why the tree beat it, in teams and then in two-player play, where the opponent's choices are
//! nodes of the tree too (docs/engine.md).
//!
//! An iteration's worth is the round's margin, except near the end of the match ([`Goal::Match`]),
//! where the playout goes on to the match's end and a win is what counts.
//!
//! This module knows nothing of reviews or levels: it takes a number of iterations and a seed,
//! and returns every root move's value and visits. Everything is counted, nothing is timed, so
//! the same information set, iterations and seed give the same tree everywhere.

use clack_rules::Seat;
use clack_rules::game::Game;

use crate::EngineError;
use crate::evaluate::Estimate;
use crate::lean::{self, Buffer, Move, Phase, Policy};
use crate::rng::Rng;

/// The exploration constant of UCB, in points of round margin. Pilots of 200 two-player games
/// at 10,000 iterations against `engine:legacy-strong` placed it: 10, 20, 40, 80 and 160 points
/// took 0.455, 0.550, 0.560, 0.485 and 0.440 of the deals (each ± 0.06 to 0.07); 30 sits between
/// the two best, and is the constant the 2,000 team games of docs/engine.md were played with.
pub(crate) const EXPLORATION: f64 = 30.0;

/// What an iteration's playout is worth to the root's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// The round's margin: the points the side gained to the round's end less the other side's.
    Round,
    /// The match, near its end: the playout goes on, round after round, until a side reaches the
    /// target, and is worth [`WIN_POINTS`] for a win and as much less for a loss, plus
    /// [`MARGIN_SHARE`] of the first round's margin. Points that do not win are worth nothing
    /// there; the share of the margin only breaks near-ties between moves that win as often.
    Match,
}

/// A match won or lost, in points of round margin: a round's margins spread over some tens of
/// points, where the exploration constant was tuned, so a win weighs as a good round does.
const WIN_POINTS: f64 = 50.0;
/// The share of the round's margin added to a match's outcome ([`Goal::Match`]).
const MARGIN_SHARE: f64 = 0.2;

/// One root move's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct RootValue {
    pub(crate) mv: Move,
    /// The mean worth ([`Goal`]) of the iterations that took it, for the mover's side (with
    /// [`Goal::Round`], points its side gained to the round's end less the other side's), with a
    /// standard error from the variance within moves pooled over all root moves: a move visited
    /// a few times has too few margins to estimate its own spread.
    pub(crate) margin: Estimate,
    pub(crate) visits: u32,
}

struct Edge {
    mv: Move,
    child: u32,
    visits: u32,
    /// Iterations in which the move was legal when its node was reached.
    available: u32,
    /// Sums of the root side's margins, and of their squares, over the visits.
    sum: f64,
    squares: f64,
}

#[derive(Default)]
struct Node {
    edges: Vec<Edge>,
}

/// A node's child not yet added.
const NONE: u32 = u32::MAX;

/// Searches `iterations` times from the information set of `seat`, the mover, whose worlds
/// `sample` draws as the tree plays on them (iteration `i` from `Rng::derive(seed, i)`), and
/// returns every root move's value; with `settle`, it stops as soon as the most visited move can
/// no longer be overtaken; each iteration is worth what `goal` says. `None` when `position` is
/// not Straight Dominoes with two sides.
pub(crate) fn search(
    (position, seat): (&Game, Seat),
    mut sample: impl FnMut(&mut Rng) -> Result<Option<lean::Straight>, EngineError>,
    (iterations, settle): (u32, bool),
    goal: Goal,
    seed: u64,
) -> Result<Option<Vec<RootValue>>, EngineError> {
    let Game::Straight(root) = position else { return Ok(None) };
    if root.options().sides() != 2 {
        return Ok(None);
    }
    let mut tree = Tree { nodes: vec![Node::default()], side: root.options().side(seat), buffer: lean::buffer() };
    let since: Vec<u32> = root.scores().to_vec();
    let mut path = Vec::with_capacity(64);
    for i in 0..u64::from(iterations) {
        let mut rng = Rng::derive(seed, i);
        let Some(mut state) = sample(&mut rng)? else { return Ok(None) };
        tree.descend(&mut state, &mut rng, &mut path);
        state.play_round(Policy::Guarded, &mut rng, &mut tree.buffer);
        let gain = |s: usize| f64::from(state.scores()[s]) - f64::from(since[s]);
        let margin = gain(tree.side) - gain(1 - tree.side);
        let worth = match goal {
            Goal::Round => margin,
            Goal::Match => {
                WIN_POINTS * play_match(&mut state, tree.side, &mut rng, &mut tree.buffer) + MARGIN_SHARE * margin
            }
        };
        tree.back_up(&path, worth);
        if settle && tree.settled(iterations - 1 - i as u32) {
            break;
        }
    }
    Ok(Some(tree.root_values()))
}

/// Plays the match on from the end of a round, every round by the guarded policy, and returns
/// 1 if `side` won it, -1 if it lost, 0 if no side won.
fn play_match(state: &mut lean::Straight, side: usize, rng: &mut Rng, buffer: &mut Buffer) -> f64 {
    while !state.is_over() {
        state.deal(rng);
        state.play_round(Policy::Guarded, rng, buffer);
    }
    match state.winning_side() {
        Some(winner) if winner == side => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The move a search chooses: the most visited, the higher mean breaking ties (the usual final
/// choice of UCB: a visit count is a steadier guide than a mean measured on few visits).
pub(crate) fn chosen(values: &[RootValue]) -> Option<usize> {
    let key = |v: &RootValue| (v.visits, v.margin.mean);
    (0..values.len()).reduce(|best, i| if key(&values[i]) > key(&values[best]) { i } else { best })
}

struct Tree {
    nodes: Vec<Node>,
    /// The mover's side, whose margins the tree stores.
    side: usize,
    buffer: Buffer,
}

/// The natural logarithm of a count of availability. UCB takes one at every step of every
/// descent (they were a tenth of it), so the counts most trees reach are looked up in a table
/// built once for the process, not once a search (a tree that settles early would pay for
/// logarithms it never reads); past the table, computed as before, with the same value.
fn ln_count(n: u32) -> f64 {
    static LOGS: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let logs = LOGS.get_or_init(|| (0..1u32 << 16).map(|n| f64::from(n).ln()).collect());
    logs.get(n as usize).copied().unwrap_or_else(|| f64::from(n).ln())
}

impl Tree {
    /// Walks from the root through the world `state`, moving it on, until it adds a node or the
    /// round ends; `path` gets the (node, edge) pairs taken.
    fn descend(&mut self, state: &mut lean::Straight, rng: &mut Rng, path: &mut Vec<(u32, usize)>) {
        path.clear();
        let mut node = 0u32;
        loop {
            let seat = match state.phase() {
                Phase::Drawing(_) => {
                    state.draw(rng);
                    continue;
                }
                Phase::Turn(seat) => seat,
                Phase::Deal | Phase::Over => return,
            };
            let sign = if state.options().side(seat) == self.side { 1.0 } else { -1.0 };
            let len = state.legal_actions_into(&mut self.buffer);
            let Some((edge, fresh)) = self.select(node, len, sign, rng) else { return };
            let mv = self.nodes[node as usize].edges[edge].mv;
            path.push((node, edge));
            state.apply(mv);
            if fresh {
                let child = self.nodes.len() as u32;
                self.nodes.push(Node::default());
                self.nodes[node as usize].edges[edge].child = child;
                return;
            }
            node = self.nodes[node as usize].edges[edge].child;
        }
    }

    /// The edge of `node` to follow among the first `len` moves of the buffer (the moves legal in
    /// this world), counting each as available: an untried one at random if any (and `true`),
    /// else the highest UCB for the side to move (`sign` turns the root side's margins into it).
    fn select(&mut self, node: u32, len: usize, sign: f64, rng: &mut Rng) -> Option<(usize, bool)> {
        let edges = &mut self.nodes[node as usize].edges;
        let (mut untried, mut untried_seen, mut best) = (None, 0usize, None::<(usize, f64)>);
        for &mv in &self.buffer[..len] {
            let e = edges.iter().position(|e| e.mv == mv).unwrap_or_else(|| {
                edges.push(Edge { mv, child: NONE, visits: 0, available: 0, sum: 0.0, squares: 0.0 });
                edges.len() - 1
            });
            let edge = &mut edges[e];
            edge.available += 1;
            if edge.visits == 0 {
                untried_seen += 1;
                if rng.below(untried_seen) == 0 {
                    untried = Some(e);
                }
                continue;
            }
            let visits = f64::from(edge.visits);
            let ucb = sign * edge.sum / visits + EXPLORATION * (ln_count(edge.available) / visits).sqrt();
            if best.is_none_or(|(_, b)| ucb > b) {
                best = Some((e, ucb));
            }
        }
        untried.map(|e| (e, true)).or(best.map(|(e, _)| (e, false)))
    }

    /// Whether the most visited root move stays the most visited whatever the `left` iterations
    /// do: its lead over every other move is more than they could add to one. Every root move is
    /// legal in every world (they are the mover's own), so each has its edge after the first
    /// iterations, and [`chosen`]'s tie-break on the mean never comes into play.
    fn settled(&self, left: u32) -> bool {
        let (mut first, mut second) = (0u32, 0u32);
        for edge in &self.nodes[0].edges {
            if edge.visits > first {
                (first, second) = (edge.visits, first);
            } else if edge.visits > second {
                second = edge.visits;
            }
        }
        first > second + left
    }

    fn back_up(&mut self, path: &[(u32, usize)], margin: f64) {
        for &(node, e) in path {
            let edge = &mut self.nodes[node as usize].edges[e];
            edge.visits += 1;
            edge.sum += margin;
            edge.squares += margin * margin;
        }
    }

    fn root_values(&self) -> Vec<RootValue> {
        let edges = &self.nodes[0].edges;
        let visits: f64 = edges.iter().map(|e| f64::from(e.visits)).sum();
        let within: f64 =
            edges.iter().filter(|e| e.visits > 0).map(|e| e.squares - e.sum * e.sum / f64::from(e.visits)).sum();
        let pooled = within.max(0.0) / (visits - edges.len() as f64).max(1.0);
        edges
            .iter()
            .map(|e| {
                let n = f64::from(e.visits.max(1));
                RootValue {
                    mv: e.mv,
                    margin: Estimate { mean: e.sum / n, stderr: (pooled / n).sqrt() },
                    visits: e.visits,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use clack_rules::game::{Options, Turn};
    use clack_rules::{Dealer, straight};

    use super::*;
    use crate::exact;

    /// A game with `options` played at random from `seed` until `stop` finds what it looks for
    /// at a seat's turn (before that seat moves); `None` if the game ended first.
    fn played_until<T>(options: Options, seed: u64, mut stop: impl FnMut(&Game, Seat) -> Option<T>) -> Option<T> {
        let mut game = Game::new(options).ok()?;
        let mut dealer = Dealer::from_seed(seed);
        loop {
            match game.turn() {
                Turn::Chance => {
                    let chance = game.sample_chance(&mut dealer)?;
                    game.apply_chance(chance).ok()?;
                }
                Turn::Seat { seat } => {
                    if let Some(found) = stop(&game, seat) {
                        return Some(found);
                    }
                    let legal = game.legal_actions();
                    game.apply(seat, legal[dealer.index(legal.len())]).ok()?;
                }
                Turn::Over => return None,
            }
        }
    }

    /// A four-player team game played at random from `seed` until at most `tiles` are left in
    /// hands and the mover has a choice; `None` if the game ended first.
    fn team_position(seed: u64, tiles: usize) -> Option<(Game, Seat)> {
        let options = Options::Straight(straight::Options { players: 4, teams: true, ..straight::Options::default() });
        played_until(options, seed, |game, seat| {
            let in_hands: usize = game.hands().iter().map(|h| h.len()).sum();
            (in_hands <= tiles && game.legal_actions().len() > 1).then(|| (game.clone(), seat))
        })
    }

    fn seen(game: &Game, seat: Seat, iterations: u32, seed: u64) -> Vec<RootValue> {
        seen_for(game, seat, (iterations, Goal::Round), seed)
    }

    /// The tree grown on the one world of `game` (every hand seen) for `goal`.
    fn seen_for(game: &Game, seat: Seat, (iterations, goal): (u32, Goal), seed: u64) -> Vec<RootValue> {
        let Game::Straight(state) = game else { panic!("a Straight position") };
        let world = lean::Straight::from_state(state);
        search((game, seat), |_| Ok(Some(world.clone())), (iterations, false), goal, seed)
            .expect("searches")
            .expect("two sides")
    }

    /// A two-player game to 100 played at random until the mover could win the match with a lay
    /// but has other moves, and the other player is within 10 points of the target too; with
    /// the lays that win at once. `None` if the match ended first.
    fn match_point(seed: u64) -> Option<(Game, Seat, Vec<Move>)> {
        let options = Options::Straight(straight::Options { players: 2, target: 100, ..straight::Options::default() });
        played_until(options, seed, |game, seat| {
            let Game::Straight(state) = game else { return None };
            let lean = lean::Straight::from_state(state);
            let (mut moves, side) = (lean::buffer(), state.options().side(seat));
            let len = lean.legal_actions_into(&mut moves);
            let need = |s: usize| 100u32.saturating_sub(state.scores()[s]);
            let winning: Vec<Move> = moves[..len].iter().copied().filter(|&m| lean.scored(m) >= need(side)).collect();
            let at_match_point = need(side) > 0 && need(1 - side) <= 10 && !winning.is_empty() && winning.len() < len;
            at_match_point.then(|| (game.clone(), seat, winning))
        })
    }

    /// Played for the match, the tree takes the lay that wins it at once over moves that leave
    /// the other player, ten points or less from the target, a turn.
    #[test]
    fn at_match_point_the_match_tree_wins_at_once() {
        let mut checked = 0;
        for seed in 0..400 {
            let Some((game, seat, winning)) = match_point(seed) else { continue };
            let values = seen_for(&game, seat, (2_000, Goal::Match), seed);
            let choice = values[chosen(&values).expect("a move")].mv;
            assert!(winning.contains(&choice), "seed {seed}: {} against {:?}", choice.action(), values);
            checked += 1;
        }
        assert!(checked >= 30, "only {checked} positions");
    }

    /// With every hand seen (the tree's one world is the true position) and few tiles left, the
    /// tree grows the whole round, and its most visited move is one the exhaustive search values
    /// best: UCB's visits go to the best move as the tree's values become exact.
    #[test]
    fn a_seen_endgame_is_played_as_exhaustive_search_plays_it() {
        let mut checked = 0;
        for seed in 0..40 {
            let Some((game, seat)) = team_position(seed, 7) else { continue };
            let exact = exact::margins(&game, seat, u64::MAX).margins.expect("searched");
            let best = exact.iter().copied().fold(f64::MIN, f64::max);
            let values = seen(&game, seat, 10_000, seed);
            let choice = values[chosen(&values).expect("a move")].mv.action();
            let legal = game.legal_actions();
            let index = legal.iter().position(|&a| a == clack_rules::game::Action::Straight(choice)).expect("legal");
            assert_eq!(exact[index], best, "seed {seed}: {choice} against {exact:?}");
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} positions");
    }

    /// A tree that stops once its choice is settled chooses what the whole tree chooses, on
    /// fewer iterations where the choice was clear early.
    #[test]
    fn a_settled_tree_chooses_what_the_whole_tree_chooses() {
        let mut stopped = 0;
        for seed in 0..30 {
            let Some((game, seat)) = team_position(seed, 20) else { continue };
            let Game::Straight(state) = &game else { unreachable!("a Straight position") };
            let world = lean::Straight::from_state(state);
            let grow = |settle| search((&game, seat), |_| Ok(Some(world.clone())), (3_000, settle), Goal::Round, seed);
            let (whole, settled) =
                (grow(false).expect("searches").expect("two sides"), grow(true).expect("searches").expect("two sides"));
            let choice = |values: &[RootValue]| values[chosen(values).expect("a move")].mv;
            assert_eq!(choice(&settled), choice(&whole), "seed {seed}");
            let iterations: u32 = settled.iter().map(|v| v.visits).sum();
            assert!(iterations <= 3_000);
            stopped += usize::from(iterations < 3_000);
        }
        assert!(stopped >= 5, "only {stopped} trees stopped early");
    }

    /// Every root move is tried, the visits add up to the iterations, and the same seed grows
    /// the same tree.
    #[test]
    fn every_iteration_is_counted_and_the_seed_decides() {
        let (game, seat) = (0..20).find_map(|seed| team_position(seed, 20)).expect("a position");
        let values = seen(&game, seat, 2_000, 1);
        assert_eq!(values.len(), game.legal_actions().len());
        assert!(values.iter().all(|v| v.visits > 0 && v.margin.stderr > 0.0), "{values:?}");
        assert_eq!(values.iter().map(|v| v.visits).sum::<u32>(), 2_000);
        assert_eq!(values, seen(&game, seat, 2_000, 1));
        assert_ne!(values, seen(&game, seat, 2_000, 2));
    }
}
