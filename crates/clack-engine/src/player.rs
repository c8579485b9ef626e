//! Engine players: `engine:fast`, `engine:default` and `engine:strong`; and the `judge`, a
//! review level far above them that audits their reviews.
//!
//! A level is a fixed budget, counted in sampled worlds and (in Straight Dominoes with two sides)
//! tree iterations and weighed worlds, so an engine seat plays the same game for the same record
//! and seed on every machine, however busy it is. Each decision is seeded from the game's seed and
//! the decision's place in the record, so a review of the game (run with the same level and seed)
//! evaluates every decision exactly as the player did.

use std::fmt;
use std::str::FromStr;

use clack_rules::Seat;
use clack_rules::game::{Action, Options, Turn};

use crate::EngineError;
use crate::evaluate::{Budget, Evaluation, evaluate};
use crate::infoset::InfoSet;
use crate::record::{self, Step};
use crate::rng::Rng;

/// How hard the engine thinks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    Fast,
    Default,
    Strong,
    /// Sixteen times `default`'s worlds per decision: a review level, to audit the others'
    /// reviews, and a measure in `clack arena`; a server seats only the three levels below it.
    Judge,
    /// `strong` as it played before the tree and inference (greedy playouts alone): kept for
    /// `clack arena`, to measure the engine against its former self. Never seated by a server.
    LegacyStrong,
}

impl Level {
    pub const ALL: [Level; 5] = [Level::Fast, Level::Default, Level::Strong, Level::Judge, Level::LegacyStrong];
    /// The levels a server seats.
    pub const SEATS: [Level; 3] = [Level::Fast, Level::Default, Level::Strong];
    /// The levels a server reviews at.
    pub const REVIEWS: [Level; 4] = [Level::Fast, Level::Default, Level::Strong, Level::Judge];

    pub fn name(self) -> &'static str {
        match self {
            Level::Fast => "fast",
            Level::Default => "default",
            Level::Strong => "strong",
            Level::Judge => "judge",
            Level::LegacyStrong => "legacy-strong",
        }
    }

    /// Whether a server may seat this level as a player.
    pub fn is_seat(self) -> bool {
        Level::SEATS.contains(&self)
    }

    /// Whether a server may review a game at this level.
    pub fn is_review(self) -> bool {
        Level::REVIEWS.contains(&self)
    }

    /// The seat name that seats this level: `engine:default`.
    pub fn seat_name(self) -> String {
        format!("engine:{}", self.name())
    }

    pub fn budget(self) -> Budget {
        match self {
            Level::Fast => Budget {
                worlds: 16,
                screen: 4,
                finalists: 4,
                exact_tiles: 6,
                exact_nodes: 20_000,
                search_nodes: SEARCH_FAST,
                tree_iterations: TREE_FAST,
                inference_pool: INFERENCE_FAST,
                settle: true,
            },
            Level::Default => Budget {
                worlds: 64,
                screen: 8,
                finalists: 5,
                exact_tiles: 8,
                exact_nodes: 100_000,
                search_nodes: SEARCH_DEFAULT,
                tree_iterations: TREE_DEFAULT,
                inference_pool: INFERENCE_DEFAULT,
                settle: true,
            },
            Level::Strong => Budget {
                worlds: 256,
                screen: 32,
                finalists: 8,
                exact_tiles: 10,
                exact_nodes: 400_000,
                search_nodes: SEARCH_STRONG,
                tree_iterations: TREE_STRONG,
                inference_pool: INFERENCE_STRONG,
                settle: true,
            },
            Level::Judge => Budget {
                worlds: 1024,
                screen: 64,
                finalists: 12,
                exact_tiles: 10,
                exact_nodes: 400_000,
                search_nodes: SEARCH_STRONG,
                tree_iterations: 16 * TREE_DEFAULT,
                inference_pool: INFERENCE_STRONG,
                settle: true,
            },
            Level::LegacyStrong => {
                Budget { search_nodes: 0, tree_iterations: 0, inference_pool: 0, ..Level::Strong.budget() }
            }
        }
    }
}

/// Worlds weighed by the others' plays ([`crate::inference`]), per level (Straight Dominoes).
const INFERENCE_FAST: u32 = 250;
const INFERENCE_DEFAULT: u32 = 1000;
const INFERENCE_STRONG: u32 = 2000;

/// Positions searched in each world when a review measures what a move cost against the
/// engine's choice in two-player Straight Dominoes (`crate::evaluate::compare`): the tree chooses,
/// and the loss is measured pair by pair on the same worlds, each searched. The judge searches
/// as `strong` does, with four times its worlds, and its review values every move on them
/// (`crate::review`).
const SEARCH_FAST: u64 = 1000;
const SEARCH_DEFAULT: u64 = 3000;
const SEARCH_STRONG: u64 = 10_000;

/// Iterations of information-set search per decision, per level (Straight Dominoes with two
/// sides: two players, or four in teams). The judge gets sixteen times `default`'s, as it gets
/// sixteen times its worlds.
const TREE_FAST: u32 = 2_500;
const TREE_DEFAULT: u32 = 10_000;
const TREE_STRONG: u32 = 40_000;

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an engine level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not an engine level: write engine:fast, engine:default, engine:strong or engine:judge")]
pub struct ParseLevelError(pub String);

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Reads `fast`, `default`, `strong`, with or without the `engine:` prefix.
    fn from_str(text: &str) -> Result<Level, ParseLevelError> {
        let name = text.strip_prefix("engine:").unwrap_or(text);
        Level::ALL.into_iter().find(|l| l.name() == name).ok_or_else(|| ParseLevelError(text.to_owned()))
    }
}

/// The seed of the decision taken after `steps` steps of a game seeded with `seed`.
pub fn decision_seed(seed: u64, steps: usize) -> u64 {
    Rng::derive(seed, steps as u64).next_u64()
}

/// What an engine seat decided: its action and, unless the move was forced, the evaluation
/// behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub action: Action,
    pub evaluation: Option<Evaluation>,
}

/// The action `level` takes for the seat to move after `steps` of a game with `options`.
pub fn decide(options: Options, steps: &[Step], level: Level, seed: u64) -> Result<Decision, EngineError> {
    let game = record::replay(options, steps)?;
    let Turn::Seat { seat } = game.turn() else { return Err(EngineError::NoDecision) };
    let legal = game.legal_actions();
    if let [only] = legal.as_slice() {
        return Ok(Decision { action: *only, evaluation: None });
    }
    match evaluate_decision(options, steps, seat, level, seed) {
        Ok(evaluation) => Ok(Decision { action: evaluation.best().action, evaluation: Some(evaluation) }),
        // A position whose hidden tiles cannot be counted exactly within the model's limits is
        // still played: by the playout policy, which needs no sampling.
        Err(EngineError::TooComplex(_)) => {
            let mut rng = Rng::new(decision_seed(seed, steps.len()));
            Ok(Decision { action: crate::rollout::policy(&game, seat, &mut rng), evaluation: None })
        }
        Err(other) => Err(other),
    }
}

/// The evaluation `level` makes of the decision after `steps`, for `seat`, as a player and a
/// review both make it.
pub fn evaluate_decision(
    options: Options,
    steps: &[Step],
    seat: Seat,
    level: Level,
    seed: u64,
) -> Result<Evaluation, EngineError> {
    let mut info = InfoSet::new(options, steps, seat)?;
    evaluate(&mut info, &level.budget(), decision_seed(seed, steps.len()))
}
