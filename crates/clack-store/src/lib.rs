//! Clack's event store.
//!
//! [`EventStore`] is the whole contract: append a game's new events *if* the game's last
//! sequence number is still the one the caller saw, read a game's events, list games a page at a
//! time (with a small summary kept beside each log), keep small records (seat tokens, bots), and
//! flush. Two
//! backends implement it: [`SledStore`] on disk and [`MemoryStore`] for tests that are about
//! something else. [`Durable`] puts a durability policy on top for async callers: `sync` flushes
//! before every acknowledgement, `batched` lets concurrent appends share one flush.
//!
//! The store knows events only as protobuf messages with a game id and a sequence number; it
//! knows nothing of the rules, redaction or the network.

mod backup;
mod durable;
mod hook;
mod journal;
mod listing;
mod memory;
mod migrate;
mod reserve;
mod sealed;
mod sled_store;

pub use backup::restore;
pub use durable::{Durability, Durable, StoreObserver};
pub use hook::FlushHook;
pub use listing::{Cursor, ListQuery, Page, TokenError};
pub use memory::MemoryStore;
pub use migrate::Migrated;
pub use reserve::Reserve;
pub use sled_store::{DEFAULT_CACHE_MB, Settings, SledStore, Stats};

use clack_proto::v1 as pb;

/// Why a store operation failed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The game has moved on since the caller looked: its last sequence is `actual`.
    #[error("stale sequence: expected {expected}, the game is at {actual}")]
    Conflict { expected: u64, actual: u64 },
    /// The events given do not continue the log one by one from `expected + 1`.
    #[error("events must continue the log from sequence {0}")]
    Gap(u64),
    /// A stored record does not decode.
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
    /// The backend failed (disk, lock, ...).
    #[error("storage failure: {0}")]
    Backend(String),
    /// The disk is full, or too close to full to write (see [`Reserve`]).
    #[error("the disk is full: {0}")]
    Full(String),
    /// The store has lost writes it acknowledged, or a part of it is missing: a damaged
    /// directory, which must not be served as if it were whole.
    #[error(
        "the store has lost acknowledged writes: {0}. Do not serve this directory as it is: keep it aside and \
         restore the newest backup into a fresh directory (`clack restore`); docs/durability.md says how to save what \
         still verifies"
    )]
    Lost(String),
    /// The game is finished and its log sealed: it takes no more events.
    #[error("game {0} is finished; its log takes no more events")]
    Sealed(String),
}

impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> StoreError {
        match &e {
            // ENOSPC: sled met the full disk itself (the reserve was too small for a burst, or
            // another process filled the disk). sled answers nothing until it is reopened.
            sled::Error::Io(io) if io.raw_os_error() == Some(28) => {
                StoreError::Full(format!("{e}; restart the server once space is freed"))
            }
            _ => StoreError::Backend(e.to_string()),
        }
    }
}

impl From<prost::DecodeError> for StoreError {
    fn from(e: prost::DecodeError) -> StoreError {
        StoreError::Corrupt(e.to_string())
    }
}

/// New events for one game: they must be numbered `expected + 1, expected + 2, ...`, belong to
/// `game_id`, and land only if the game's last sequence is still `expected` (0 for a new game).
/// The summary replaces the game's summary with them.
#[derive(Clone, Debug, PartialEq)]
pub struct Append {
    pub game_id: String,
    pub expected: u64,
    pub events: Vec<pb::Event>,
    pub summary: pb::GameSummary,
}

/// An append-only log per game, plus small records. Every method is blocking; [`Durable`] runs
/// them off the async runtime.
pub trait EventStore: Send + Sync + 'static {
    /// Applies each append as one write and says, in order, which landed: an append whose
    /// game has moved on fails with [`StoreError::Conflict`] and the others still land. Each
    /// append lands whole or not at all. Taking many games' appends at once is what lets a
    /// group of them share one write and one flush.
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>>;

    /// One append, for callers that have only one.
    fn append(
        &self,
        game_id: &str,
        expected: u64,
        events: &[pb::Event],
        summary: &pb::GameSummary,
    ) -> Result<(), StoreError> {
        let append =
            Append { game_id: game_id.to_owned(), expected, events: events.to_vec(), summary: summary.clone() };
        let result = self.append_all(std::slice::from_ref(&append)).into_iter().next();
        result.unwrap_or_else(|| Err(StoreError::Backend("the store gave no result for an append".into())))
    }

    /// A game's events with sequence `from` or later, in order; empty for an unknown game.
    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError>;

    /// The summary of one game.
    fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError>;

    /// Summaries of every game, newest first (game ids sort by creation time). This reads every
    /// game; listings for people use [`EventStore::list`].
    fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError>;

    /// One page of the games a query wants, newest created first (ties: larger game id first).
    fn list(&self, query: &ListQuery) -> Result<Page, StoreError>;

    /// Stores a small record under `key`.
    fn put(&self, key: &str, value: &[u8]) -> Result<(), StoreError>;

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Every record whose key starts with `prefix`, in key order.
    fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError>;

    /// Makes everything written so far durable.
    fn flush(&self) -> Result<(), StoreError>;

    /// Bytes the store takes on disk, if it keeps any there.
    fn disk_bytes(&self) -> Option<u64> {
        None
    }

    /// A copy of everything stored, as a backup file's bytes (see `backup.rs`). [`Durable`]
    /// calls it on its writer thread, so no write runs while it is taken.
    fn backup(&self) -> Result<Vec<u8>, StoreError> {
        Err(StoreError::Backend("this store cannot make backups".into()))
    }
}

/// Checks that an append's events continue its log at `expected`, for both backends.
fn check_continues(append: &Append) -> Result<(), StoreError> {
    let Append { game_id, expected, events, .. } = append;
    // Checked: a damaged summary can claim any last sequence, u64::MAX included.
    let continues = events
        .iter()
        .enumerate()
        .all(|(i, e)| &e.game_id == game_id && expected.checked_add(1 + i as u64) == Some(e.sequence));
    if events.is_empty() || !continues { Err(StoreError::Gap(expected.saturating_add(1))) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `store` fuzz target: a damaged summary claiming the last sequence u64::MAX
    /// made the continuity check overflow. It is a gap like any other.
    #[test]
    fn an_append_after_the_largest_sequence_is_a_gap_not_an_overflow() {
        let event = pb::Event { game_id: "g".into(), sequence: 0, ..Default::default() };
        let append =
            Append { game_id: "g".into(), expected: u64::MAX, events: vec![event], summary: Default::default() };
        assert_eq!(check_continues(&append), Err(StoreError::Gap(u64::MAX)));
    }
}
