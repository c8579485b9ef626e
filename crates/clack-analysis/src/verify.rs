//! The rule every analysis tool applies to a game before it counts: its log replays through
//! `GameLog` (the server's own fold, so every derived event and chance outcome is checked) and
//! the game ended. `clack analyze` and both formats of `clack export` go through [`replay`], so
//! they count the same games; a game that fails the rule is left out and named, never
//! half-counted, and [`Rejections`] keeps what the tools report about it.

use clack_log::GameLog;
use clack_proto::v1 as pb;

/// Rejections kept word for word; the rest are only counted.
const KEEP: usize = 20;

/// Replays a game's whole log, calling `each` with every event after the first and the game as
/// it stood before that event (what an action is judged against), and returns the game. A log
/// that does not replay, or whose game never ended, is refused with the reason.
pub fn replay(events: &[pb::Event], mut each: impl FnMut(&GameLog, &pb::Event)) -> Result<GameLog, String> {
    let (first, rest) = events.split_first().ok_or("an empty game")?;
    let mut log = GameLog::begin(first).map_err(|e| e.to_string())?;
    for event in rest {
        each(&log, event);
        log.apply(event).map_err(|e| e.to_string())?;
    }
    log.finish_replay().map_err(|e| e.to_string())?;
    // A log that stops where a seat is to move replays, but a finished game's log never does:
    // it has lost its tail.
    if log.ended().is_none() {
        return Err("the game never ended".to_owned());
    }
    Ok(log)
}

/// The games left out: how many, and the first few named with their reasons.
#[derive(Clone, Debug, Default)]
pub struct Rejections {
    count: u64,
    first: Vec<String>,
}

impl Rejections {
    /// Notes that the game of `events` was left out, and why.
    pub fn add(&mut self, events: &[pb::Event], reason: &str) {
        self.count += 1;
        if self.first.len() < KEEP {
            let id = events.first().map_or("", |e| e.game_id.as_str());
            self.first.push(format!("game {id}: {reason}"));
        }
    }

    /// Adds the rejections of a later part of the input to these.
    pub fn merge(&mut self, other: Rejections) {
        self.count += other.count;
        let room = KEEP.saturating_sub(self.first.len());
        self.first.extend(other.first.into_iter().take(room));
    }

    /// The number of games left out.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The first games left out, as `game ID: reason`.
    pub fn first(&self) -> &[String] {
        &self.first
    }
}
