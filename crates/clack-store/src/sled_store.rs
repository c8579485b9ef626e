//! The sled backend: a real database directory on disk.
//!
//! Two trees. `log` holds every game: its events under `e`, the game id, a zero byte and the
//! big-endian sequence number (so a game's events are one ordered range), and its summary under
//! `g` and the game id. `records` holds small records. A group of appends is one sled batch on
//! `log`, which sled applies atomically, so a game's events and its summary never disagree after
//! a crash.
//!
//! A move changes a game's sequence and little else, so the summary is written only when
//! something in it other than the sequence changes (a seat taken, the game over); the sequence
//! a summary reports is read from the game's last event key. What an append is checked against
//! (the game's last sequence) is kept in memory for games written since the store opened, so an
//! append reads nothing. That halves the work sled does per move, which is most of the cost of a
//! move on a busy server.
//!
//! sled's `flush_async` deadlocks under concurrent callers (sled issue #1308); only the blocking
//! `flush` is used, and only from blocking threads.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use clack_proto::v1 as pb;
use prost::Message;

use crate::{Append, EventStore, StoreError, check_continues};

#[derive(Debug, Clone)]
pub struct SledStore {
    db: sled::Db,
    log: sled::Tree,
    records: sled::Tree,
    heads: Arc<Mutex<HashMap<String, Head>>>,
}

/// What the store remembers of a game it has written to since it opened.
#[derive(Debug, Clone)]
struct Head {
    sequence: u64,
    /// The summary as stored, sequence left at zero.
    summary: Vec<u8>,
}

const EVENT: u8 = b'e';
const SUMMARY: u8 = b'g';

fn event_key(game_id: &str, sequence: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(game_id.len() + 10);
    key.push(EVENT);
    key.extend_from_slice(game_id.as_bytes());
    key.push(0);
    key.extend_from_slice(&sequence.to_be_bytes());
    key
}

fn summary_key(game_id: &str) -> Vec<u8> {
    [&[SUMMARY], game_id.as_bytes()].concat()
}

/// A summary as stored: without its sequence, which changes with every move.
fn stored_summary(summary: &pb::GameSummary) -> Vec<u8> {
    pb::GameSummary { sequence: 0, ..summary.clone() }.encode_to_vec()
}

impl SledStore {
    /// Opens (or creates) the database in `path`. One process per directory: sled locks it.
    pub fn open(path: &Path) -> Result<SledStore, StoreError> {
        // Every acknowledged write is flushed explicitly (see `Durable`), so sled's own timed
        // flusher would only add flushes nobody waits for.
        let db = sled::Config::new().path(path).flush_every_ms(None).open()?;
        if db.tree_names().iter().any(|name| name.as_ref() == b"events") {
            return Err(StoreError::Corrupt(format!(
                "{} holds games in the layout of an earlier Clack (trees `events` and `games`); \
                 export them with that version or start with an empty directory",
                path.display()
            )));
        }
        Ok(SledStore { log: db.open_tree("log")?, records: db.open_tree("records")?, db, heads: Arc::default() })
    }

    fn heads(&self) -> MutexGuard<'_, HashMap<String, Head>> {
        // Heads are replaced whole after a batch lands, so a panic cannot leave one half-made.
        self.heads.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The last sequence of a game as stored: that of its last event, 0 if it has none.
    fn last_sequence(&self, game_id: &str) -> Result<u64, StoreError> {
        let Some((key, _)) =
            self.log.range(event_key(game_id, 0)..=event_key(game_id, u64::MAX)).next_back().transpose()?
        else {
            return Ok(0);
        };
        let bytes = key.get(key.len() - 8..).and_then(|b| <[u8; 8]>::try_from(b).ok());
        bytes.map(u64::from_be_bytes).ok_or_else(|| StoreError::Corrupt(format!("event key of {game_id} is short")))
    }

    fn load_head(&self, game_id: &str) -> Result<Head, StoreError> {
        let summary = self.log.get(summary_key(game_id))?.map(|v| v.to_vec()).unwrap_or_default();
        Ok(Head { sequence: self.last_sequence(game_id)?, summary })
    }

    /// A stored summary with its sequence filled in.
    fn full_summary(&self, game_id: &str, stored: &[u8]) -> Result<pb::GameSummary, StoreError> {
        let mut summary = pb::GameSummary::decode(stored)?;
        summary.sequence = self.last_sequence(game_id)?;
        Ok(summary)
    }
}

/// Adds one append to `batch` if it continues its game; returns the game's new head.
fn stage(append: &Append, head: &Head, batch: &mut sled::Batch) -> Result<Head, StoreError> {
    check_continues(append)?;
    if head.sequence != append.expected {
        return Err(StoreError::Conflict { expected: append.expected, actual: head.sequence });
    }
    for event in &append.events {
        batch.insert(event_key(&append.game_id, event.sequence), event.encode_to_vec());
    }
    let summary = stored_summary(&append.summary);
    if head.summary != summary {
        batch.insert(summary_key(&append.game_id), summary.as_slice());
    }
    Ok(Head { sequence: append.expected + append.events.len() as u64, summary })
}

impl EventStore for SledStore {
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
        let mut heads = self.heads();
        let mut batch = sled::Batch::default();
        // Heads as they will be once the batch lands; a game may append twice in one group.
        let mut staged: HashMap<&str, Head> = HashMap::new();
        let mut results = Vec::with_capacity(appends.len());
        for append in appends {
            let id = append.game_id.as_str();
            let loaded;
            let head = match staged.get(id).or_else(|| heads.get(id)) {
                Some(head) => head,
                None => match self.load_head(id) {
                    Ok(head) => {
                        loaded = head;
                        &loaded
                    }
                    Err(error) => {
                        results.push(Err(error));
                        continue;
                    }
                },
            };
            let result = stage(append, head, &mut batch);
            results.push(result.map(|head| {
                staged.insert(id, head);
            }));
        }
        if let Err(error) = self.log.apply_batch(batch) {
            let error = StoreError::from(error);
            return appends.iter().map(|_| Err(error.clone())).collect();
        }
        for (id, head) in staged {
            match heads.get_mut(id) {
                Some(known) => *known = head,
                None => {
                    heads.insert(id.to_owned(), head);
                }
            }
        }
        // A finished game takes no more appends worth remembering it for.
        for append in appends.iter().filter(|a| a.summary.status == pb::GameStatus::Finished as i32) {
            heads.remove(&append.game_id);
        }
        results
    }

    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        let range = event_key(game_id, from)..=event_key(game_id, u64::MAX);
        self.log.range(range).values().map(|v| Ok(pb::Event::decode(&*v?)?)).collect()
    }

    fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        let stored = self.log.get(summary_key(game_id))?;
        stored.map(|bytes| self.full_summary(game_id, &bytes)).transpose()
    }

    fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError> {
        self.log
            .scan_prefix([SUMMARY])
            .rev()
            .map(|item| {
                let (key, bytes) = item?;
                let id = String::from_utf8_lossy(&key[1..]);
                self.full_summary(&id, &bytes)
            })
            .collect()
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

    fn disk_bytes(&self) -> Option<u64> {
        self.db.size_on_disk().ok()
    }
}
