//! Why did my bot do that: one decision of a bot in a finished game, run again on exactly the
//! view it was given (`BotService.ExplainDecision`).
//!
//! The game's log is replayed up to the decision, which rebuilds the game and the public history
//! the bot was shown as they stood when it was asked; the library runs the same version under
//! the same limits, on the bots' pool like any decision. Bots have no clock and no random
//! generator (their `view.nonce` comes from the history), so the run again chooses what the
//! game recorded, and uses the same number of operations; only a decision stopped by the
//! deadline may come out otherwise, since time differs from machine to machine.
//!
//! Only finished games: in a game still being played the view would show the bot's owner the
//! bot's hand while others play against it, or beside it as partners. Engine seats are Clack's
//! own players, and the engine's review (`ReplayService.ReviewGame`) explains their moves.

use clack_log::convert::{FieldError, stored_action};
use clack_log::{GameLog, Occupant};
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::Seat;
use clack_rules::game::Game;

use crate::bots::library::{Asker, BotLibrary, history_of};
use crate::error::{Error, Result};
use crate::games::hub::Hub;

/// One bot decision of a log, as the game recorded it.
struct Recorded {
    /// The events before the decision: the game as the bot was asked.
    before: usize,
    seat: Seat,
    /// The action played, if the log holds it.
    applied: Option<pb::ActionApplied>,
    /// The fault's reason, if the decision failed.
    fault: String,
}

/// Runs the decision at `request.sequence` of finished game `request.game_id` again.
pub async fn explain(
    hub: &Hub,
    library: &BotLibrary,
    request: &pb::ExplainDecisionRequest,
    asker: Asker<'_>,
) -> Result<pb::ExplainDecisionResponse> {
    let events = hub.full_log(&request.game_id).await?;
    let recorded = recorded(&events, request.sequence)?;
    let log = GameLog::replay(&events[..recorded.before])
        .map_err(|error| Error::DataLoss { game: request.game_id.clone(), error })?;
    let (bot_id, version) = bot_at(&log, recorded.seat)?;
    let recorded_action = match &recorded.applied {
        Some(applied) => {
            stored_action(applied.action.as_ref(), log.game()).map_or_else(|e| e.to_string(), |a| a.to_string())
        }
        None => String::new(),
    };
    let history = history_of(&log);
    let view = clack_bots::view::view(log.game(), recorded.seat, &history);
    let game: Game = log.game().clone();
    let (decision, limits) = library.rerun((&bot_id, &version), (game, recorded.seat, history), asker).await?;
    let chosen = decision.choice.as_ref().ok().and_then(|&i| log.game().legal_actions().get(i).copied());
    let action = chosen.map(|a| a.to_string()).unwrap_or_default();
    let (fault_reason, fault_detail) = match &decision.choice {
        Ok(_) => (String::new(), String::new()),
        Err(fault) => (fault.reason.to_owned(), fault.detail.clone()),
    };
    let same = if recorded.fault.is_empty() {
        !action.is_empty() && action == recorded_action
    } else {
        fault_reason == recorded.fault
    };
    Ok(pb::ExplainDecisionResponse {
        bot_id,
        version,
        seat: u32::from(recorded.seat.0),
        view_json: clack_bots::view::to_json(&view).to_string(),
        output: decision.output,
        choice: decision.choice.ok().and_then(|i| u32::try_from(i).ok()),
        action,
        fault_reason,
        fault_detail,
        operations: decision.operations,
        micros: u64::try_from(decision.elapsed.as_micros()).unwrap_or(u64::MAX),
        max_operations: limits.operations,
        deadline_millis: u64::try_from(limits.deadline.as_millis()).unwrap_or(u64::MAX),
        recorded_action,
        recorded_fault: recorded.fault,
        same,
    })
}

/// The decision that event `sequence` records: a `BotFaulted` event, or an `ActionApplied` one
/// (which, just after a fault of its seat, is the move played in the fault's place).
fn recorded(events: &[pb::Event], sequence: u64) -> Result<Recorded> {
    let at = |i: usize| events.get(i).and_then(|e| e.payload.as_ref());
    let index = usize::try_from(sequence).ok().filter(|&s| (1..=events.len()).contains(&s)).map(|s| s - 1);
    let Some(index) = index else {
        return Err(FieldError::new("sequence", format!("must be from 1 to {}", events.len())).into());
    };
    let not_a_decision =
        || FieldError::new("sequence", format!("event {sequence} is not a move or a bot's fault")).into();
    match at(index) {
        Some(Payload::BotFaulted(fault)) => {
            let applied = match at(index + 1) {
                Some(Payload::ActionApplied(a)) if a.seat == fault.seat => Some(*a),
                _ => None,
            };
            Ok(Recorded { before: index, seat: seat(fault.seat)?, applied, fault: fault.reason.clone() })
        }
        Some(Payload::ActionApplied(applied)) => match index.checked_sub(1).and_then(at) {
            Some(Payload::BotFaulted(fault)) if fault.seat == applied.seat => Ok(Recorded {
                before: index - 1,
                seat: seat(applied.seat)?,
                applied: Some(*applied),
                fault: fault.reason.clone(),
            }),
            _ => {
                Ok(Recorded { before: index, seat: seat(applied.seat)?, applied: Some(*applied), fault: String::new() })
            }
        },
        _ => Err(not_a_decision()),
    }
}

fn seat(seat: u32) -> Result<Seat> {
    u8::try_from(seat).map(Seat).map_err(|_| FieldError::new("sequence", "the event names no seat of the game").into())
}

/// The bot version in `seat`; an error for a seat a person or the engine played.
fn bot_at(log: &GameLog, seat: Seat) -> Result<(String, String)> {
    match log.seats().get(seat.index()) {
        Some(Occupant::Bot { bot_id, .. }) if crate::bots::engines::is_engine(bot_id) => {
            Err(Error::FailedPrecondition(format!(
                "seat {} is played by {bot_id}, Clack's engine: ReviewGame explains its moves",
                seat.0
            )))
        }
        Some(Occupant::Bot { bot_id, version }) => Ok((bot_id.clone(), version.clone())),
        _ => Err(FieldError::new(
            "sequence",
            format!("seat {} is not a bot's: only a bot's decision runs again", seat.0),
        )
        .into()),
    }
}
