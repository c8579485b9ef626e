//! Exhaustive search, for positions where nothing is hidden and nothing is left to chance.
//!
//! Each seat in turn takes the action best for its own side (max-n; with two sides this is
//! minimax), to the end of the round in Straight Dominoes and of the game in Streets and Avenues.
//! It is used only when few tiles remain, where it is cheap and where sampling would add noise to
//! a value that is certain.

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

/// The exact margin of each legal action for `seat`'s side, in legal-action order.
pub(crate) fn margins(position: &Game, seat: Seat) -> Vec<f64> {
    let start = position.scores();
    let side = side_of(position, seat);
    position
        .legal_actions()
        .into_iter()
        .map(|action| {
            let mut next = position.clone();
            let _ = next.apply(seat, action);
            let end = settle(&next);
            margin(position, &start, &end, side)
        })
        .collect()
}

/// The scores at the end of the round (Straight) or game (Streets) when every seat plays its
/// side's best.
fn settle(position: &Game) -> Vec<i64> {
    let Turn::Seat { seat } = position.turn() else { return position.scores() };
    let start = position.scores();
    let side = side_of(position, seat);
    let mut best: Option<(f64, Vec<i64>)> = None;
    for action in position.legal_actions() {
        let mut next = position.clone();
        let _ = next.apply(seat, action);
        let end = settle(&next);
        let value = margin(position, &start, &end, side);
        if best.as_ref().is_none_or(|(v, _)| value > *v) {
            best = Some((value, end));
        }
    }
    best.map_or(start, |(_, end)| end)
}

fn side_of(position: &Game, seat: Seat) -> usize {
    match position {
        Game::Straight(g) => g.options().side(seat),
        Game::Streets(_) => seat.index(),
    }
}

/// A side's margin between two score lists: points gained (Straight) or final scores (Streets).
fn margin(position: &Game, start: &[i64], end: &[i64], side: usize) -> f64 {
    let values: Vec<f64> = match position {
        Game::Straight(_) => end.iter().zip(start).map(|(e, s)| (e - s) as f64).collect(),
        Game::Streets(_) => end.iter().map(|&e| e as f64).collect(),
    };
    rollout::margin(&values, side)
}
