//! Exhaustive search, for positions where nothing is hidden and nothing is left to chance.
//!
//! Each seat in turn takes the action best for its own side, to the end of the round in
//! Straight Dominoes and of the game in Streets and Avenues. With two sides (two players, or
//! four in teams) that is minimax, searched by alpha-beta on the difference of the sides' gains;
//! with more sides it is max-n, each side maximising its gain over the mean of the others'.
//!
//! The search counts the positions it visits and gives up past a limit: Streets and Avenues has
//! dozens of placements per tile, and eight tiles in hand were once enough for a search of
//! minutes. A search that gives up answers nothing, and the evaluation keeps its sampled values;
//! since the limit counts positions, not time, whether a position is searched exactly is the
//! same on every machine.

use clack_rules::Seat;
use clack_rules::game::{Game, Turn};

use crate::rollout;

/// Whether `position` is small enough, and free of chance, for exhaustive search.
pub(crate) fn within(position: &Game, tiles: u8) -> bool {
    let in_hands: usize = position.hands().iter().map(|h| h.len()).sum();
    let no_chance = match position {
        Game::Straight(g) => g.drawable() == 0,
        Game::Streets(g) => g.boneyard().is_empty(),
    };
    no_chance && in_hands <= usize::from(tiles)
}

/// What an exhaustive search found: each legal action's exact margin for the mover's side, in
/// legal-action order, or nothing if it visited more than its limit of positions; and the
/// positions it visited either way.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Outcome {
    pub margins: Option<Vec<f64>>,
    pub nodes: u64,
}

/// Searches every legal action of `seat` in `position`, visiting at most `limit` positions.
pub(crate) fn margins(position: &Game, seat: Seat, limit: u64) -> Outcome {
    let mut search = Search { nodes: 0, limit };
    let margins = search.root(position, seat);
    Outcome { margins, nodes: search.nodes.min(limit) }
}

/// Beyond any margin a round or a game can have, and far from overflowing when gains are added.
const INFINITY: i64 = 1 << 40;

/// A search in progress: the positions visited so far and how many it may visit.
struct Search {
    nodes: u64,
    limit: u64,
}

impl Search {
    /// Counts one position; `None` once the limit is passed, which unwinds the whole search.
    fn visit(&mut self) -> Option<()> {
        self.nodes += 1;
        (self.nodes <= self.limit).then_some(())
    }

    fn root(&mut self, position: &Game, seat: Seat) -> Option<Vec<f64>> {
        let sides = sides(position);
        let side = side_of(position, seat);
        let start = position.scores();
        position
            .legal_actions()
            .into_iter()
            .map(|action| {
                let next = child(position, seat, action);
                let gains = if sides == 2 {
                    let gained = gain(position, &next, side);
                    let rest = match mover_side(&next) {
                        Some(s) if s == side => self.alphabeta(&next, -INFINITY, INFINITY)?,
                        Some(_) => -self.alphabeta(&next, -INFINITY, INFINITY)?,
                        None => 0,
                    };
                    // The difference of the two sides' gains, carried on the mover's side: the
                    // margin of two sides depends on nothing else.
                    let mut gains = vec![0.0; 2];
                    gains[side] = (gained + rest) as f64;
                    gains
                } else {
                    let after = next.scores();
                    let tail = self.maxn(&next)?;
                    after.iter().zip(&start).zip(tail).map(|((a, s), t)| (a - s) as f64 + t).collect()
                };
                Some(margin(position, &start, &gains, side))
            })
            .collect()
    }

    /// The side to move's gain less the other side's, from `position` to the end, when both play
    /// their best; exact inside (`alpha`, `beta`), a bound outside it.
    fn alphabeta(&mut self, position: &Game, mut alpha: i64, beta: i64) -> Option<i64> {
        self.visit()?;
        let Turn::Seat { seat } = position.turn() else { return Some(0) };
        let side = side_of(position, seat);
        let mut best = -INFINITY;
        for action in position.legal_actions() {
            let next = child(position, seat, action);
            let gained = gain(position, &next, side);
            let value = match mover_side(&next) {
                Some(s) if s == side => gained + self.alphabeta(&next, alpha - gained, beta - gained)?,
                Some(_) => gained - self.alphabeta(&next, gained - beta, gained - alpha)?,
                None => gained,
            };
            best = best.max(value);
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }

    /// Each side's points gained from `position` to the end, when every seat takes the action
    /// best for its side (the first in legal order on equals).
    fn maxn(&mut self, position: &Game) -> Option<Vec<f64>> {
        self.visit()?;
        let start = position.scores();
        let Turn::Seat { seat } = position.turn() else { return Some(vec![0.0; start.len()]) };
        let side = side_of(position, seat);
        let mut best: Option<(f64, Vec<f64>)> = None;
        for action in position.legal_actions() {
            let next = child(position, seat, action);
            let after = next.scores();
            let tail = self.maxn(&next)?;
            let gains: Vec<f64> = after.iter().zip(&start).zip(tail).map(|((a, s), t)| (a - s) as f64 + t).collect();
            let value = rollout::margin(&gains, side);
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, gains));
            }
        }
        Some(best.map_or_else(|| vec![0.0; start.len()], |(_, gains)| gains))
    }
}

fn child(position: &Game, seat: Seat, action: clack_rules::game::Action) -> Game {
    let mut next = position.clone();
    // Every action comes from the position's own legal actions.
    let _ = next.apply(seat, action);
    next
}

fn sides(position: &Game) -> usize {
    position.scores().len()
}

fn side_of(position: &Game, seat: Seat) -> usize {
    match position {
        Game::Straight(g) => g.options().side(seat),
        Game::Streets(_) => seat.index(),
    }
}

/// The side to move, or `None` when the round (Straight) or the game (Streets) is over.
fn mover_side(position: &Game) -> Option<usize> {
    match position.turn() {
        Turn::Seat { seat } => Some(side_of(position, seat)),
        _ => None,
    }
}

/// `side`'s points gained less the other side's, from `before` to `after` (two sides).
fn gain(before: &Game, after: &Game, side: usize) -> i64 {
    let (b, a) = (before.scores(), after.scores());
    (a[side] - b[side]) - (a[1 - side] - b[1 - side])
}

/// A side's margin from the scores at the decision (`start`) and each side's gains to the end:
/// points gained (Straight) or final scores (Streets), less the mean of the other sides'.
fn margin(position: &Game, start: &[i64], gains: &[f64], side: usize) -> f64 {
    let values: Vec<f64> = match position {
        Game::Straight(_) => gains.to_vec(),
        Game::Streets(_) => start.iter().zip(gains).map(|(&s, g)| s as f64 + g).collect(),
    };
    rollout::margin(&values, side)
}
