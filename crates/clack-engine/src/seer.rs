//! A seer: a player who sees every other hand but not the order the boneyard will be drawn in.
//!
//! Like [`crate::omniscient`], it is a measuring instrument for `clack arena`, never a seat of a
//! server. It plays as an engine level does ([`crate::evaluate`], the same budget, the same
//! search and playouts), with one difference: every world it evaluates is the true position,
//! its other hands real and only the boneyard's order left to chance. So it measures what
//! knowing the hidden hands is worth to the engine's own way of choosing: the most that
//! inferring them from play could ever give it (docs/engine.md, "The limit, measured").
//! In two-player Straight Dominoes a player who sees the other hand knows the boneyard's tiles
//! as well; only their order is hidden.

use clack_rules::game::{Action, Game, Turn};

use crate::EngineError;
use crate::evaluate::{Evaluation, One, evaluate_in};
use crate::player::{Level, decision_seed};

/// The move of the seat to move in the true `game`, taken after `steps` steps of a game seeded
/// with `seed`, as `level` would choose it seeing every hand; `None` if no seat is to move or
/// the evaluation fails.
pub fn decide(game: &Game, steps: usize, level: Level, seed: u64) -> Option<Action> {
    let legal = game.legal_actions();
    if let [only] = legal.as_slice() {
        return Some(*only);
    }
    Some(evaluate(game, steps, level, seed).ok()?.best().action)
}

/// The evaluation behind [`decide`]: `level`'s, its every world the true `game` (the boneyard
/// drawn at random in its playouts and searches, as in any world), seeded as `level`'s own
/// decision after `steps` steps would be. Where only one world fits what the mover saw, it is
/// the engine's own evaluation.
pub fn evaluate(game: &Game, steps: usize, level: Level, seed: u64) -> Result<Evaluation, EngineError> {
    let Turn::Seat { seat } = game.turn() else { return Err(EngineError::NoDecision) };
    let certain = game.boneyard().is_empty();
    evaluate_in(game, (seat, certain), &mut One(game), &level.budget(), decision_seed(seed, steps))
}
