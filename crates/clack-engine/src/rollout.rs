//! Playouts: a world played on to the end of its round (Straight Dominoes) or game (Streets and
//! Avenues) by a fixed, fast policy, with chance drawn from the engine's generator.
//!
//! The policy is greedy with random tie-breaks: take the action that scores most now; among
//! equals in Straight Dominoes, the heaviest tile (pips left in hand are the round's penalty).
//! A greedy playout is a far better guess of what follows than a random one. Straight Dominoes
//! plays out on the engine's lean state ([`crate::lean`]), which scores every legal action from
//! the four ends and the count; Streets and Avenues on the rules' state, with a `preview` per
//! placement.

use clack_rules::game::Game;
use clack_rules::straight;
use clack_rules::{Seat, streets};

use crate::lean;
use crate::rng::Rng;

/// What a playout ended with, from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Result {
    /// Points the side gained from the start to the end of the round (Straight) or its final
    /// score (Streets), less the mean of the other sides'.
    pub margin: f64,
    /// 1 if the side won the game, 0 if it lost, a share for a tie; Straight Dominoes plays on
    /// to the end of the match for this.
    pub win: f64,
}

/// Plays `game` out from here for the side of `seat`. Straight Dominoes margins count the points
/// gained since `since` (the same game some moves earlier: the position an action was chosen in).
pub(crate) fn play_out(since: &Game, game: &Game, seat: Seat, rng: &mut Rng, whole_match: bool) -> Result {
    match game {
        Game::Straight(g) => straight_out(&since.scores(), g, seat, rng, whole_match),
        Game::Streets(g) => streets_out(g, seat, rng),
    }
}

/// The policy's action for `seat` in `game`.
pub(crate) fn policy(game: &Game, seat: Seat, rng: &mut Rng) -> clack_rules::game::Action {
    match game {
        Game::Straight(g) => clack_rules::game::Action::Straight(straight_policy(g, rng)),
        Game::Streets(g) => clack_rules::game::Action::Streets(streets_policy(g, seat, rng)),
    }
}

/// The mover's side's margin over the mean of the other sides, from per-side figures.
pub(crate) fn margin(values: &[f64], side: usize) -> f64 {
    let others = values.len().saturating_sub(1).max(1) as f64;
    let rest: f64 = values.iter().enumerate().filter(|&(s, _)| s != side).map(|(_, v)| v).sum();
    values[side] - rest / others
}

fn straight_out(since: &[i64], start: &straight::State, seat: Seat, rng: &mut Rng, whole_match: bool) -> Result {
    let side = start.options().side(seat);
    let mut state = lean::Straight::from_state(start);
    let mut buffer = lean::buffer();
    state.play_round(lean::Policy::Greedy, rng, &mut buffer);
    // At most four sides: the figures live on the stack.
    let mut gained = [0.0; straight::MAX_PLAYERS];
    for ((gain, &after), &before) in gained.iter_mut().zip(state.scores()).zip(since) {
        *gain = f64::from(after) - before as f64;
    }
    let margin = margin(&gained[..state.scores().len()], side);
    if !whole_match {
        return Result { margin, win: 0.0 };
    }
    while !state.is_over() {
        state.deal(rng);
        state.play_round(lean::Policy::Greedy, rng, &mut buffer);
    }
    let win = state.winning_side().map_or(0.0, |winner| f64::from(u8::from(winner == side)));
    Result { margin, win }
}

/// The greedy choice in Straight Dominoes: most points now, then the heaviest tile, ties at
/// random (see [`lean::Straight::policy`]).
pub(crate) fn straight_policy(state: &straight::State, rng: &mut Rng) -> straight::Action {
    lean::Straight::from_state(state).policy(rng, &mut lean::buffer()).action()
}

/// The action with the highest key, ties broken uniformly at random (the k-th equal one replaces
/// the choice with probability 1/k); actions without a key are skipped.
pub(crate) fn greedy<A: Copy, K: PartialOrd + Copy>(
    actions: &[A],
    rng: &mut Rng,
    mut key: impl FnMut(A) -> Option<K>,
) -> Option<A> {
    let mut best: Option<(A, K)> = None;
    let mut ties = 0usize;
    for &action in actions {
        let Some(k) = key(action) else { continue };
        match best {
            Some((_, b)) if k == b => {
                ties += 1;
                if rng.below(ties) == 0 {
                    best = Some((action, k));
                }
            }
            Some((_, b)) if k < b => {}
            _ => {
                best = Some((action, k));
                ties = 1;
            }
        }
    }
    best.map(|(action, _)| action)
}

fn streets_out(start: &streets::State, seat: Seat, rng: &mut Rng) -> Result {
    let mut state = start.clone();
    loop {
        match state.to_move() {
            streets::ToMove::Seat { seat } => {
                let action = streets_policy(&state, seat, rng);
                let _ = state.apply(seat, action);
            }
            streets::ToMove::Chance { .. } => {
                let Some(tile) = rng.pick(state.boneyard()) else { break };
                let _ = state.apply_chance(streets::Chance::Draw { tile });
            }
            streets::ToMove::Over => break,
        }
    }
    let scores: Vec<f64> = state.scores().iter().map(|&s| f64::from(s)).collect();
    let win =
        state.outcome().map_or(0.0, |o| if o.winners.contains(&seat) { 1.0 / o.winners.len() as f64 } else { 0.0 });
    Result { margin: margin(&scores, seat.index()), win }
}

/// The greedy choice: the placement that closes most blocks, ties at random; discards and
/// passes only when nothing can be placed (a discard of the heaviest tile before a pass).
pub(crate) fn streets_policy(state: &streets::State, seat: Seat, rng: &mut Rng) -> streets::Action {
    let legal = state.legal_actions();
    let key = |action| {
        Some(match action {
            streets::Action::Place { .. } => (2 + state.preview(seat, action).map_or(0, |p| p.scored), 0),
            streets::Action::Discard { tile } => (1, tile.pips()),
            streets::Action::Pass => (0, 0),
        })
    };
    greedy(&legal, rng, key).unwrap_or(streets::Action::Pass)
}
