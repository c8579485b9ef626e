//! A game as the engine reads it: its options and every step from the start, chance outcomes
//! included. The engine replays the steps through the rules, so a record that does not replay is
//! refused here, before any search starts.

pub use clack_rules::game::Step;
use clack_rules::game::{Game, Options};

use crate::EngineError;

/// Applies one step to `game`, or says which step did not fit.
pub fn apply(game: &mut Game, step: &Step, index: usize) -> Result<(), EngineError> {
    game.apply_step(step).map_err(|e| EngineError::Record { step: index, reason: e.to_string() })
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
