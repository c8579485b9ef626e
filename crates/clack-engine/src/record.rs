//! A game as the engine reads it: its options and every step from the start, chance outcomes
//! included. The engine replays the steps through the rules, so a record that does not replay is
//! refused here, before any search starts.

use clack_rules::Seat;
use clack_rules::game::{Action, Chance, Game, Options};

use crate::EngineError;

/// One step of a game: a chance outcome, or a seat's action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Chance(Chance),
    Act(Seat, Action),
}

impl Step {
    /// Whether this step deals new hands (a new round of Straight Dominoes, or the deal of
    /// Streets and Avenues): what went before it is no longer hidden.
    pub fn is_deal(&self) -> bool {
        matches!(
            self,
            Step::Chance(Chance::Straight(clack_rules::straight::Chance::Deal { .. }))
                | Step::Chance(Chance::Streets(clack_rules::streets::Chance::Deal { .. }))
        )
    }
}

/// Applies one step to `game`, or says which step did not fit.
pub fn apply(game: &mut Game, step: &Step, index: usize) -> Result<(), EngineError> {
    let refused = |reason: String| EngineError::Record { step: index, reason };
    match step {
        Step::Chance(chance) => game.apply_chance(chance.clone()).map_err(|e| refused(e.to_string())),
        Step::Act(seat, action) => game.apply(*seat, *action).map(|_| ()).map_err(|e| refused(e.to_string())),
    }
}

/// The game after `steps`.
pub fn replay(options: Options, steps: &[Step]) -> Result<Game, EngineError> {
    let mut game = Game::new(options).map_err(|e| EngineError::Record { step: 0, reason: e.to_string() })?;
    for (index, step) in steps.iter().enumerate() {
        apply(&mut game, step, index)?;
    }
    Ok(game)
}

/// The index of the last deal in `steps`, if any.
pub fn last_deal(steps: &[Step]) -> Option<usize> {
    steps.iter().rposition(Step::is_deal)
}
