//! Seats played by bots. The server asks a [`BotHost`] for a decision whenever a bot seat is to
//! move. A decision that fails in any way (an error, a limit, the deadline, an answer that is not
//! a legal action) never stops the game: it is recorded as a `BotFaulted` event, and the first
//! legal action is played in its place.
//!
//! The room holds everything that makes a bot: the library of uploaded scripts and their
//! versions, statistics and pool of threads ([`library`]), its tables in the shared database
//! when the server is a shard ([`shared`]), the engine's seats ([`engines`]) and bots that play
//! over a stream from elsewhere ([`remote`]). It must not know live games: the hub asks it for
//! decisions through [`BotHost`], never the other way round.

pub mod engines;
pub mod library;
pub mod remote;
pub mod shared;

use std::future::Future;
use std::pin::Pin;

use clack_log::{GameLog, Occupant};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use clack_rules::game::Action;

/// Why a bot gave no usable answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// A short, stable word: "error", "operations", "deadline", "bad_answer", "unknown_bot"...
    pub reason: String,
    /// What went wrong, for the bot's author.
    pub detail: String,
}

pub type Decision = Result<Action, Fault>;

/// Something that can run bots.
pub trait BotHost: Send + Sync + 'static {
    /// The action bot `bot_id` at `version` chooses for `seat` in `log`'s game.
    fn decide<'a>(
        &'a self,
        bot_id: &'a str,
        version: &'a str,
        log: &'a GameLog,
        seat: Seat,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>>;

    /// The game a bot version plays (`None`: either game, as an engine seat does), if it may
    /// take a seat: NOT_FOUND for an unknown bot or version, FAILED_PRECONDITION for a retired
    /// one. Checked when a game is created.
    fn playable(&self, bot_id: &str, version: &str) -> crate::error::Result<Option<clack_rules::game::Kind>>;

    /// The connections of remote bots, if `bot_id` is one: its program plays its seats over
    /// `Play`, so the game waits for the seat's moves instead of asking for them.
    fn remote(&self, bot_id: &str) -> Option<&std::sync::Arc<remote::Remotes>>;

    /// A remote bot's move arrived `took` after its turn began, in a game played as `played`
    /// says: counted with every other decision. Nothing to do for a host without metrics.
    fn remote_decided(&self, played: crate::metrics::PlayedIn, took: std::time::Duration) {
        let _ = (played, took);
    }

    /// Makes sure the host knows `bot_id`, and `version` of it when one is named, before
    /// [`BotHost::playable`] is asked: on a cluster's shard, a bot or a version uploaded through
    /// another shard a moment ago may not have reached this one yet. Nothing to do for a host
    /// that keeps every bot itself.
    fn learn<'a>(
        &'a self,
        bot_id: &'a str,
        version: Option<&'a str>,
    ) -> Pin<Box<dyn Future<Output = crate::error::Result<()>> + Send + 'a>> {
        let _ = (bot_id, version);
        Box::pin(std::future::ready(Ok(())))
    }
}

/// If a bot seat is to move, asks its bot and returns the game after its move with the events
/// to record; `None` when no bot is to move.
pub async fn drive_bots(host: &dyn BotHost, log: &GameLog) -> Option<(GameLog, Vec<pb::Event>)> {
    let seat = log.to_move()?;
    let Occupant::Bot { bot_id, version } = log.seats().get(seat.index())? else { return None };
    let decision = match host.decide(bot_id, version, log, seat).await {
        Ok(action) if !log.game().is_legal(seat, action) => {
            Err(Fault { reason: "bad_answer".into(), detail: "the bot chose an action that is not legal".into() })
        }
        decision => decision,
    };
    play_decision(log, seat, decision)
}

/// The game after bot seat `seat` acts on `decision`: its action, or, when it failed, a
/// `BotFaulted` event and the first legal action in its place. `None` when `seat` is no bot's.
pub fn play_decision(log: &GameLog, seat: Seat, decision: Decision) -> Option<(GameLog, Vec<pb::Event>)> {
    let Occupant::Bot { bot_id, version } = log.seats().get(seat.index())? else { return None };
    let mut next = log.clone();
    let mut events = Vec::new();
    let action = match decision {
        Ok(action) => action,
        Err(fault) => {
            tracing::warn!(game = log.id(), seat = seat.0, bot = %bot_id, reason = %fault.reason, "bot faulted");
            let record = pb::BotFaulted {
                seat: u32::from(seat.0),
                bot_id: bot_id.clone(),
                version: version.clone(),
                reason: fault.reason,
                detail: fault.detail,
            };
            events.push(next.fault(record, crate::now()));
            *log.game().legal_actions().first()?
        }
    };
    events.extend(next.perform(seat, action, crate::now()).ok()?);
    Some((next, events))
}
