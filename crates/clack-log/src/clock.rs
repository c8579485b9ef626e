//! Turn clocks as a pure function of the log.
//!
//! A seat's turn starts at the time of the event that made it the seat to act, and every event
//! after that is stamped with its own time, so how long each turn took is read from the
//! envelopes. Remaining time and the next deadline are therefore rebuilt exactly by a replay and
//! survive a restart; time itself is never replayed. This module keeps the banks; the log
//! decides when they are charged. It knows nothing of timers: the server sleeps until the
//! deadline the log reports.

/// How much time an open seat has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// A fresh allowance for every action.
    PerMove { millis: i64 },
    /// A bank that the seat spends while it is to act, plus `increment` after each action.
    Fischer { initial: i64, increment: i64 },
}

/// What happens to a seat whose time runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutPolicy {
    /// Its first legal action is played for it.
    AutoMove,
    /// Its side loses, as if it had resigned.
    Forfeit,
}

/// A game's time control, the same for every open seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub allowance: Allowance,
    pub policy: TimeoutPolicy,
}

/// Every seat's clock: the banks of the clocked seats and when the current turn started.
#[derive(Clone, Debug)]
pub(crate) struct Clocks {
    control: TimeControl,
    /// Time left at the start of the seat's turn; `None` for a seat with no clock (a bot).
    banks: Vec<Option<i64>>,
    /// The time of the last event: when the turn of the seat now to act started.
    turn_started: i64,
}

impl Clocks {
    pub(crate) fn new(control: TimeControl, clocked: impl IntoIterator<Item = bool>, created: i64) -> Clocks {
        let full = match control.allowance {
            Allowance::PerMove { millis } => millis,
            Allowance::Fischer { initial, .. } => initial,
        };
        Clocks { control, banks: clocked.into_iter().map(|c| c.then_some(full)).collect(), turn_started: created }
    }

    pub(crate) fn control(&self) -> TimeControl {
        self.control
    }

    /// Time left for `seat` at the start of the current turn; `None` for a seat with no clock.
    pub(crate) fn remaining(&self, seat: usize) -> Option<i64> {
        self.banks.get(seat).copied().flatten()
    }

    /// When `seat` runs out of time if it is to act now.
    pub(crate) fn deadline(&self, seat: usize) -> Option<i64> {
        self.remaining(seat).map(|left| self.turn_started.saturating_add(left))
    }

    /// `seat` acted (or timed out, `acted` false) at `at`: its bank loses the time the turn
    /// took, never below zero, and a Fischer clock gains its increment for an action.
    pub(crate) fn charge(&mut self, seat: usize, at: i64, acted: bool) {
        let used = at.saturating_sub(self.turn_started).max(0);
        let Some(Some(bank)) = self.banks.get_mut(seat) else { return };
        if let Allowance::Fischer { increment, .. } = self.control.allowance {
            *bank = bank.saturating_sub(used).max(0);
            if acted {
                *bank = bank.saturating_add(increment);
            }
        }
    }

    /// An event was recorded at `at`: whoever is to act after it starts their turn then.
    pub(crate) fn passed(&mut self, at: i64) {
        self.turn_started = at;
    }
}
