//! The sled backend: a real database directory on disk.
//!
//! Three trees: `events` keyed by game id, a zero byte and the big-endian sequence number (so a
//! game's events are one ordered range); `games` keyed by game id holding the encoded summary
//! (whose `sequence` is the game's last sequence, the value appends compare against); and
//! `records` for small records. A group of appends is one sled transaction over `events` and
//! `games`.
//!
//! sled's `flush_async` deadlocks under concurrent callers (sled issue #1308); only the blocking
//! `flush` is used, and only from blocking threads.

use std::path::Path;

use clack_proto::v1 as pb;
use prost::Message;
use sled::Transactional;
use sled::transaction::{ConflictableTransactionError, TransactionError, TransactionalTree};

use crate::{Append, EventStore, StoreError, check_continues};

#[derive(Debug, Clone)]
pub struct SledStore {
    db: sled::Db,
    events: sled::Tree,
    games: sled::Tree,
    records: sled::Tree,
}

impl SledStore {
    /// Opens (or creates) the database in `path`. One process per directory: sled locks it.
    pub fn open(path: &Path) -> Result<SledStore, StoreError> {
        let db = sled::Config::new().path(path).open()?;
        Ok(SledStore {
            events: db.open_tree("events")?,
            games: db.open_tree("games")?,
            records: db.open_tree("records")?,
            db,
        })
    }
}

fn event_key(game_id: &str, sequence: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(game_id.len() + 9);
    key.extend_from_slice(game_id.as_bytes());
    key.push(0);
    key.extend_from_slice(&sequence.to_be_bytes());
    key
}

/// One append with its keys and values encoded.
struct Prepared<'a> {
    game_id: &'a str,
    expected: u64,
    events: Vec<(Vec<u8>, Vec<u8>)>,
    summary: Vec<u8>,
}

impl<'a> Prepared<'a> {
    fn new(append: &'a Append) -> Result<Prepared<'a>, StoreError> {
        check_continues(append)?;
        let game_id = append.game_id.as_str();
        let events = append.events.iter().map(|e| (event_key(game_id, e.sequence), e.encode_to_vec())).collect();
        Ok(Prepared { game_id, expected: append.expected, events, summary: append.summary.encode_to_vec() })
    }

    /// Writes the append if its game is still at `expected`. The outer error aborts the whole
    /// transaction (the database failed); the inner one is this append's own answer.
    fn write(
        &self,
        log: &TransactionalTree,
        games: &TransactionalTree,
    ) -> Result<Result<(), StoreError>, ConflictableTransactionError<sled::Error>> {
        let actual = match games.get(self.game_id.as_bytes())? {
            None => 0,
            Some(bytes) => match pb::GameSummary::decode(&*bytes) {
                Ok(summary) => summary.sequence,
                Err(error) => return Ok(Err(StoreError::Corrupt(error.to_string()))),
            },
        };
        if actual != self.expected {
            return Ok(Err(StoreError::Conflict { expected: self.expected, actual }));
        }
        for (key, value) in &self.events {
            log.insert(key.as_slice(), value.as_slice())?;
        }
        games.insert(self.game_id.as_bytes(), self.summary.as_slice())?;
        Ok(Ok(()))
    }
}

impl EventStore for SledStore {
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
        // Everything that does not need the database is done once, outside the transaction,
        // which sled may run more than once.
        let prepared: Vec<Result<Prepared, StoreError>> = appends.iter().map(Prepared::new).collect();
        let result = (&self.events, &self.games).transaction(|(log, games)| {
            let mut results = Vec::with_capacity(prepared.len());
            for prepared in &prepared {
                results.push(match prepared {
                    Ok(prepared) => prepared.write(log, games)?,
                    Err(error) => Err(error.clone()),
                });
            }
            Ok(results)
        });
        match result {
            Ok(results) => results,
            Err(TransactionError::Abort(error)) | Err(TransactionError::Storage(error)) => {
                let error = StoreError::from(error);
                appends.iter().map(|_| Err(error.clone())).collect()
            }
        }
    }

    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        let start = event_key(game_id, from);
        let end = event_key(game_id, u64::MAX);
        self.events.range(start..=end).values().map(|v| Ok(pb::Event::decode(&*v?)?)).collect()
    }

    fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        self.games.get(game_id.as_bytes())?.map(|v| Ok(pb::GameSummary::decode(&*v)?)).transpose()
    }

    fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError> {
        self.games.iter().values().rev().map(|v| Ok(pb::GameSummary::decode(&*v?)?)).collect()
    }

    fn put(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.records.insert(key.as_bytes(), value)?;
        Ok(())
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.records.get(key.as_bytes())?.map(|v| v.to_vec()))
    }

    fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        self.records
            .scan_prefix(prefix.as_bytes())
            .map(|item| {
                let (k, v) = item?;
                Ok((String::from_utf8_lossy(&k).into_owned(), v.to_vec()))
            })
            .collect()
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.db.flush()?;
        Ok(())
    }
}
