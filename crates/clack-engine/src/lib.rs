//! Clack's engine: it plays both games, judges every move of a finished game, and separates the
//! luck of the tiles from the quality of the play.
//!
//! Dominoes hides tiles, so the engine never searches the real position. From one seat's record
//! it builds an [`InfoSet`]: the seat's hand, everything public, and what draws and passes
//! revealed. It samples complete worlds from it, uniformly among the chance histories that fit,
//! plays each legal action in every world (the same worlds for every action, so that their
//! differences are measured with little noise), and averages: [`evaluate`] gives each action's
//! expected margin and, for Straight Dominoes, its probability of winning the match, each with a
//! standard error. [`Level`]s fix a budget in worlds, never in time, so a decision is the same on
//! every machine. [`review`] walks a whole record and labels each decision and each chance event.
//!
//! Architecture invariant: this crate depends on `clack-rules` only. It does no IO, has no
//! clock, no async, no protobuf, no storage and no scripting; given a record, a seed and a
//! budget, its answers are a pure function of them.

pub mod evaluate;
mod exact;
mod inference;
pub mod infoset;
mod ismcts;
pub mod lean;
pub mod omniscient;
pub mod player;
pub mod record;
pub mod review;
pub mod rng;
mod rollout;
mod search;
pub mod seer;

pub use evaluate::{ActionValue, Budget, Estimate, Evaluation, evaluate};
pub use infoset::InfoSet;
pub use player::Level;
pub use record::Step;
pub use review::{Review, review};

/// Why the engine cannot answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("step {step} of the record does not fit the game: {reason}")]
    Record { step: usize, reason: String },
    #[error("no hands have been dealt yet")]
    NotDealt,
    #[error("seat {0} is not at this table")]
    NoSuchSeat(u8),
    #[error("no seat is to move")]
    NoDecision,
    #[error("the record contradicts itself: {0}")]
    Inconsistent(String),
    #[error("this position is too complex to sample exactly: {0}")]
    TooComplex(String),
}

/// The engine's version, recorded as the `version` of an engine seat: a game played by one
/// version of the engine is reviewed, and replayed, knowing which.
pub const VERSION: &str = "1";
