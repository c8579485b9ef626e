//! Seats played by Clack's own engine: `engine:fast`, `engine:default` and `engine:strong`.
//!
//! An engine seat is a bot seat whose `bot_id` names a level (user bots' ids cannot hold a
//! colon, so the names never clash) and whose `version` is the engine's version (or empty when
//! a game is created). It plays either game, needs no upload and no sandbox, and never faults:
//! its decisions are a pure function of the game's steps, its level and the game's seed, so a
//! stored game replays and reviews to the same choices. Decisions run on the bots' pool, like a
//! script's, and their time is counted the same way.

use std::time::{Duration, Instant};

use clack_engine::player::{self, Decision};
use clack_engine::rng::Rng;
use clack_engine::{InfoSet, Level};
use clack_log::GameLog;
use clack_log::convert::FieldError;
use clack_proto::v1 as pb;
use clack_rules::game::{Action, Options, Step};

use crate::error::{Error, Result};

/// The level an engine seat's `bot_id` names, if it names one a server seats (the judge is a
/// review level only: sixteen times the default's work on every move of a live game).
pub fn level(bot_id: &str) -> Option<Level> {
    bot_id.strip_prefix("engine:")?.parse().ok().filter(|level: &Level| level.is_seat())
}

/// Whether `bot_id` claims to be an engine seat (`engine:` and anything).
pub fn is_engine(bot_id: &str) -> bool {
    bot_id.starts_with("engine:")
}

/// Checks an engine seat: a known level, and the engine's version or none.
pub fn check(bot_id: &str, version: &str) -> Result<Level> {
    let level = level(bot_id).ok_or_else(|| {
        Error::NotFound(format!(
            "{bot_id} is not an engine player: there are engine:fast, engine:default and engine:strong"
        ))
    })?;
    if !version.is_empty() && version != clack_engine::VERSION {
        return Err(Error::NotFound(format!(
            "{bot_id} has no version {version}: the engine's version is {}",
            clack_engine::VERSION
        )));
    }
    Ok(level)
}

/// Gives every engine seat that names no version the engine's, so the game records which
/// engine played it.
pub fn pin_versions(seats: &mut [pb::SeatSpec]) {
    for spec in seats {
        if let Some(pb::seat_spec::Occupant::Bot(bot)) = &mut spec.occupant
            && is_engine(&bot.bot_id)
            && bot.version.is_empty()
        {
            bot.version = clack_engine::VERSION.to_owned();
        }
    }
}

/// A re-deal of what `seat` could not see after event `sequence` of `parent` (a finished game's
/// events): a chance history sampled by the engine from `seed`, uniformly among those that fit
/// what the seat saw, recorded for the fork's log.
pub fn redeal(parent: &[pb::Event], sequence: u64, seat: u32, seed: u64) -> Result<pb::Redeal> {
    let field = |message: String| Error::from(FieldError::new("redeal_for", message));
    let upto = usize::try_from(sequence).ok().filter(|&n| n >= 1 && n <= parent.len());
    let upto =
        upto.ok_or_else(|| Error::from(FieldError::new("sequence", format!("must be from 1 to {}", parent.len()))))?;
    let unreadable = |e: clack_log::ReplayError| Error::Internal(format!("the parent does not replay: {e}"));
    let mut log = GameLog::begin(&parent[0]).map_err(unreadable)?;
    for event in &parent[1..upto] {
        log.apply(event).map_err(unreadable)?;
    }
    if log.to_move().is_none() {
        return Err(field(format!("no seat is to move after event {sequence}: re-deal at a seat's turn")));
    }
    let options = log.game().options();
    let seat = u8::try_from(seat).ok().filter(|&s| s < log.game().players());
    let seat = seat.ok_or_else(|| field(format!("no such seat: the game has {} players", log.game().players())))?;
    let seat = clack_rules::Seat(seat);
    let mut info = InfoSet::new(options, log.steps(), seat).map_err(|e| field(e.to_string()))?;
    let history = info.sample_history(log.steps(), &mut Rng::new(seed)).map_err(|e| field(e.to_string()))?;
    Ok(clack_log::redeal::record(options, &history, seat)?)
}

/// The engine's move for the seat to move after `steps`, and how long it took to decide.
pub fn decide(options: Options, steps: &[Step], level: Level, seed: u64) -> (Result<Action>, Duration) {
    let started = Instant::now();
    let decision = player::decide(options, steps, level, seed)
        .map(|Decision { action, .. }| action)
        .map_err(|e| Error::Internal(format!("the engine could not decide: {e}")));
    (decision, started.elapsed())
}
