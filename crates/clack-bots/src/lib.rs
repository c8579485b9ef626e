//! Bots: user-uploaded Rhai scripts that play Clack games.
//!
//! A bot defines `fn choose(view)` and returns an index into `view.legal`. This crate owns the
//! hardened engine ([`sandbox`]), the bot's view of both games ([`view`]), compiling a script
//! ([`Bot::compile`]) and running one decision ([`Bot::decide`]), which always ends in an action
//! index or a [`Fault`] that says why not, never in a panic. It depends on the rules only: it
//! knows nothing of the log, the store or the network, and runs synchronously; the server runs
//! decisions on its own bounded pool.

pub mod arena;
pub mod sandbox;
pub mod view;

use std::time::{Duration, Instant};

use clack_rules::Seat;
use clack_rules::game::Game;
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Scope};
use sha2::{Digest, Sha256};

pub use sandbox::Limits;

/// The random bot of each game, the yardstick for validation games.
pub fn random_bot(kind: clack_rules::Kind) -> &'static str {
    match kind {
        clack_rules::Kind::Straight => include_str!("../../../bots/straight-random.rhai"),
        clack_rules::Kind::Streets => include_str!("../../../bots/streets-random.rhai"),
    }
}
pub use view::Played;

/// A script that cannot be a bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    #[error("the script is {size} bytes; the limit is {limit}")]
    TooLarge { size: usize, limit: usize },
    #[error("the script does not compile: {0}")]
    Syntax(String),
    #[error("the script must define `fn choose(view)`, taking one argument")]
    NoChoose,
}

/// Why a decision produced no usable action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// "operations", "deadline", "limit", "error", "bad_answer" or "no_choose".
    pub reason: &'static str,
    pub detail: String,
}

/// The outcome of one decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The index into the legal actions, or why there is none.
    pub choice: Result<usize, Fault>,
    /// What the bot printed, capped.
    pub output: String,
    pub elapsed: Duration,
    /// The Rhai operations it used: unlike the time, the same on every machine, so a decision
    /// stopped by the operations limit is stopped again when it is run again.
    pub operations: u64,
}

/// A compiled bot.
#[derive(Clone, Debug)]
pub struct Bot {
    ast: AST,
    version: String,
}

/// The version of a script: the first 16 hex digits of the SHA-256 of its source.
pub fn version_of(source: &str) -> String {
    hex::encode(&Sha256::digest(source.as_bytes())[..8])
}

impl Bot {
    /// Compiles a script under `limits`, checking it defines `choose(view)`.
    pub fn compile(engine: &Engine, limits: &Limits, source: &str) -> Result<Bot, CompileError> {
        if source.len() > limits.script_size {
            return Err(CompileError::TooLarge { size: source.len(), limit: limits.script_size });
        }
        let ast = engine.compile(source).map_err(|e| CompileError::Syntax(e.to_string()))?;
        if !ast.iter_functions().any(|f| f.name == "choose" && f.params.len() == 1) {
            return Err(CompileError::NoChoose);
        }
        Ok(Bot { ast, version: version_of(source) })
    }

    pub fn version(&self) -> &str {
        &self.version
    }

    /// Asks the bot for `seat`'s move in `game`. Runs on the calling thread, under the limits.
    pub fn decide(&self, engine: &Engine, limits: &Limits, game: &Game, seat: Seat, history: &[Played]) -> Decision {
        let (view, legal) = view::counted_view(game, seat, history);
        self.decide_on(engine, limits, view, legal)
    }

    /// Runs `choose` on a view already built (for benchmarks of the call alone).
    pub fn decide_on(&self, engine: &Engine, limits: &Limits, view: Dynamic, legal: usize) -> Decision {
        let started = Instant::now();
        let (result, run) = sandbox::guarded(limits, || {
            let mut scope = Scope::new();
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
            engine.call_fn_with_options::<Dynamic>(options, &mut scope, &self.ast, "choose", (view,))
        });
        let choice = match result {
            Ok(answer) => index(&answer, legal),
            Err(error) => Err(fault(*error, run.deadline)),
        };
        Decision { choice, output: run.output, elapsed: started.elapsed(), operations: run.operations }
    }
}

fn index(answer: &Dynamic, legal: usize) -> Result<usize, Fault> {
    let bad = |detail: String| Fault { reason: "bad_answer", detail };
    let n =
        answer.as_int().map_err(|kind| bad(format!("choose returned a {kind}; return an index into view.legal")))?;
    usize::try_from(n).ok().filter(|&i| i < legal).ok_or_else(|| {
        bad(format!("choose returned {n}; view.legal has {legal} actions (0 to {})", legal.saturating_sub(1)))
    })
}

fn fault(error: EvalAltResult, deadline: bool) -> Fault {
    let detail = error.to_string();
    let reason = match error {
        EvalAltResult::ErrorTerminated(..) if deadline => "deadline",
        EvalAltResult::ErrorTooManyOperations(_) => "operations",
        EvalAltResult::ErrorStackOverflow(_)
        | EvalAltResult::ErrorDataTooLarge(..)
        | EvalAltResult::ErrorTooManyVariables(_)
        | EvalAltResult::ErrorTooManyModules(_) => "limit",
        EvalAltResult::ErrorFunctionNotFound(ref name, _) if name.starts_with("choose") => "no_choose",
        _ => "error",
    };
    Fault { reason, detail }
}
