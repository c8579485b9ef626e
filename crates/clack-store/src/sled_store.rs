//! The sled backend: a real database directory on disk.
//!
//! Two trees. `log` holds every game, under keys that start with one byte saying what they are:
//! - `e`, the game id, a zero byte and the big-endian sequence: one event of a live game, without
//!   its game id and sequence (the key says both), so a game's events are one ordered range;
//! - `s` and the game id: a finished game's whole log, sealed (see `sealed.rs`);
//! - `g` and the game id: the game's summary;
//! - `i`, status, kind, creation time and game id: the listing index (see `listing.rs`);
//! - `mlayout`: which layout the directory is in.
//!
//! `records` holds small records. A group of appends is one sled batch on `log`, which sled
//! applies atomically, so a game's events, its summary and its index entries never disagree
//! after a crash. The append that finishes a game seals it in that same batch: its live events
//! are removed and the sealed record written, so a crash leaves the game wholly live or wholly
//! sealed, never both or neither.
//!
//! A move changes a game's sequence and little else, so the summary is written only when
//! something in it other than the sequence changes (a seat taken, the game over); a live game's
//! sequence is read from its last event key, a sealed game's is kept in its summary. What an
//! append is checked against (the game's last sequence) is kept in memory for games written
//! since the store opened, so an append reads nothing. That halves the work sled does per move,
//! which is most of the cost of a move on a busy server.
//!
//! sled's `flush_async` deadlocks under concurrent callers (sled issue #1308); only the blocking
//! `flush` is used, and only from blocking threads.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use clack_proto::v1 as pb;
use prost::Message;

use crate::listing::{self, Cursor, ListQuery, Page};
use crate::sealed;
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
    /// The summary as stored.
    summary: Vec<u8>,
    sealed: bool,
}

pub(crate) const EVENT: u8 = b'e';
const SEALED: u8 = b's';
pub(crate) const SUMMARY: u8 = b'g';
pub(crate) const LAYOUT_KEY: &[u8] = b"mlayout";
/// The layout this version writes: 2 since logs are sealed and listed through an index.
pub(crate) const LAYOUT: u8 = 2;

pub(crate) fn event_key(game_id: &str, sequence: u64) -> Vec<u8> {
    let mut key = Vec::with_capacity(game_id.len() + 10);
    key.push(EVENT);
    key.extend_from_slice(game_id.as_bytes());
    key.push(0);
    key.extend_from_slice(&sequence.to_be_bytes());
    key
}

pub(crate) fn summary_key(game_id: &str) -> Vec<u8> {
    [&[SUMMARY], game_id.as_bytes()].concat()
}

pub(crate) fn sealed_key(game_id: &str) -> Vec<u8> {
    [&[SEALED], game_id.as_bytes()].concat()
}

/// The sequence at the end of an event key.
fn key_sequence(key: &[u8]) -> Option<u64> {
    key.get(key.len().checked_sub(8)?..).and_then(|b| <[u8; 8]>::try_from(b).ok()).map(u64::from_be_bytes)
}

/// A live game's summary as stored: without its sequence, which changes with every move.
fn stored_summary(summary: &pb::GameSummary) -> Vec<u8> {
    pb::GameSummary { sequence: 0, ..summary.clone() }.encode_to_vec()
}

/// `<path>.<suffix>`, beside `path`.
fn sibling(path: &Path, suffix: &str) -> std::path::PathBuf {
    let name = path.file_name().map_or_else(|| "data".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!("{name}.{suffix}"))
}

/// Opens sled in `path` without looking at what it holds.
pub(crate) fn open_db(path: &Path) -> Result<sled::Db, StoreError> {
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
    Ok(db)
}

impl SledStore {
    /// Opens (or creates) the database in `path`. One process per directory: sled locks it. A
    /// directory written by a Clack from before sealed logs is refused until it is migrated.
    pub fn open(path: &Path) -> Result<SledStore, StoreError> {
        let kept = sibling(path, "before-compact");
        if kept.exists() {
            return Err(StoreError::Backend(format!(
                "a compaction of {} was interrupted; the data is in {}: move it back to {0} and compact again",
                path.display(),
                kept.display()
            )));
        }
        let db = open_db(path)?;
        let log = db.open_tree("log")?;
        match log.get(LAYOUT_KEY)?.as_deref() {
            Some([LAYOUT]) => {}
            None if log.is_empty() => {
                log.insert(LAYOUT_KEY, &[LAYOUT])?;
            }
            None => {
                return Err(StoreError::Corrupt(format!(
                    "{0} holds games in the layout of an earlier Clack (one record per event, no listing \
                     index); run `clack store migrate --data {0}` once, then start again",
                    path.display()
                )));
            }
            Some(other) => {
                return Err(StoreError::Corrupt(format!(
                    "{} is in storage layout {other:?}, which this Clack does not know",
                    path.display()
                )));
            }
        }
        Ok(SledStore { log, records: db.open_tree("records")?, db, heads: Arc::default() })
    }

    /// Migrates a directory from the layout of an earlier Clack (see `migrate.rs`).
    pub fn migrate(path: &Path) -> Result<crate::Migrated, StoreError> {
        crate::migrate::run(path)
    }

    /// Rewrites the directory at `path` (which no process may have open) into a fresh one that
    /// holds only what is there now: sled keeps the space of removed and overwritten records in
    /// its segments for a while, and this gives it back. The original is kept beside it, as
    /// `<path>.before-compact`, until the copy is complete and flushed.
    pub fn compact(path: &Path) -> Result<(), StoreError> {
        let fresh = sibling(path, "compacting");
        let kept = sibling(path, "before-compact");
        let io = |e: std::io::Error| StoreError::Backend(format!("compacting {}: {e}", path.display()));
        if fresh.exists() {
            std::fs::remove_dir_all(&fresh).map_err(io)?;
        }
        {
            let db = open_db(path)?;
            let copy = sled::Config::new().path(&fresh).flush_every_ms(None).open()?;
            copy.import(db.export());
            copy.flush()?;
        }
        std::fs::rename(path, &kept).map_err(io)?;
        std::fs::rename(&fresh, path).map_err(io)?;
        std::fs::remove_dir_all(&kept).map_err(io)
    }

    /// The tree that holds every game, for tools that must write below the store's API: the
    /// fuzz target of the reader puts arbitrary bytes under a game's keys with it. Nothing that
    /// serves games uses it.
    #[doc(hidden)]
    pub fn raw_log(&self) -> &sled::Tree {
        &self.log
    }

    /// How many bytes sled says the directory holds.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        Ok(self.db.size_on_disk()?)
    }

    fn heads(&self) -> MutexGuard<'_, HashMap<String, Head>> {
        // Heads are replaced whole after a batch lands, so a panic cannot leave one half-made.
        self.heads.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn live_range(game_id: &str) -> std::ops::RangeInclusive<Vec<u8>> {
        event_key(game_id, 0)..=event_key(game_id, u64::MAX)
    }

    /// The sequence of a live game's last event, 0 if it has none.
    fn last_live_sequence(&self, game_id: &str) -> Result<u64, StoreError> {
        let Some((key, _)) = self.log.range(Self::live_range(game_id)).next_back().transpose()? else {
            return Ok(0);
        };
        key_sequence(&key).ok_or_else(|| StoreError::Corrupt(format!("event key of {game_id} is short")))
    }

    fn load_head(&self, game_id: &str) -> Result<Head, StoreError> {
        let summary = self.log.get(summary_key(game_id))?.map(|v| v.to_vec()).unwrap_or_default();
        let sealed = self.log.contains_key(sealed_key(game_id))?;
        let sequence = if sealed {
            pb::GameSummary::decode(summary.as_slice())?.sequence
        } else {
            self.last_live_sequence(game_id)?
        };
        Ok(Head { sequence, summary, sealed })
    }

    /// A stored summary with its sequence filled in (a sealed game's is stored with it).
    fn full_summary(&self, game_id: &str, stored: &[u8]) -> Result<pb::GameSummary, StoreError> {
        let mut summary = pb::GameSummary::decode(stored)?;
        if summary.sequence == 0 {
            summary.sequence = self.last_live_sequence(game_id)?;
        }
        Ok(summary)
    }

    /// Adds the append at `index` to `batch` if it continues its game; returns the new head.
    /// `results` says which earlier appends of the group landed.
    fn stage(
        &self,
        appends: &[Append],
        results: &[Result<(), StoreError>],
        head: &Head,
        batch: &mut sled::Batch,
    ) -> Result<Head, StoreError> {
        let append = &appends[results.len()];
        check_continues(append)?;
        if head.sealed {
            return Err(StoreError::Sealed(append.game_id.clone()));
        }
        if head.sequence != append.expected {
            return Err(StoreError::Conflict { expected: append.expected, actual: head.sequence });
        }
        let sequence = append.expected + append.events.len() as u64;
        let finished = append.summary.status == pb::GameStatus::Finished as i32;
        let summary = if finished {
            self.stage_seal(appends, results, batch)?;
            pb::GameSummary { sequence, ..append.summary.clone() }.encode_to_vec()
        } else {
            for event in &append.events {
                batch.insert(event_key(&append.game_id, event.sequence), sealed::live_value(event));
            }
            stored_summary(&append.summary)
        };
        if head.summary != summary {
            batch.insert(summary_key(&append.game_id), summary.as_slice());
            stage_index(&head.summary, &append.summary, batch)?;
        }
        Ok(Head { sequence, summary, sealed: finished })
    }

    /// Seals the game of the last append of `results.len() + 1` into `batch`: its events already
    /// on disk, those of earlier appends in this group, and the append's own, as one record; every
    /// live record of the game removed.
    fn stage_seal(
        &self,
        appends: &[Append],
        results: &[Result<(), StoreError>],
        batch: &mut sled::Batch,
    ) -> Result<(), StoreError> {
        let append = &appends[results.len()];
        let id = append.game_id.as_str();
        let mut values = Vec::new();
        for item in self.log.range(Self::live_range(id)) {
            let (key, value) = item?;
            batch.remove(key);
            values.push(value.to_vec());
        }
        let landed = appends.iter().zip(results).filter(|(a, r)| a.game_id == id && r.is_ok()).map(|(a, _)| a);
        for event in landed.chain(std::iter::once(append)).flat_map(|a| &a.events) {
            // Inserted earlier in this batch; the removal replaces the insertion.
            batch.remove(event_key(id, event.sequence));
            values.push(sealed::live_value(event));
        }
        batch.insert(sealed_key(id), sealed::seal(values.iter().map(Vec::as_slice))?);
        Ok(())
    }

    /// What the directory holds, and whatever in it breaks the layout's rules (a game both live
    /// and sealed, a finished game not sealed, an index entry missing or left over). Reads
    /// everything: for operators and tests, not for serving.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let mut stats = Stats::default();
        let mut live = HashSet::new();
        let mut sealed = HashSet::new();
        let mut index = HashSet::new();
        let mut summaries = Vec::new();
        for item in self.log.iter() {
            let (key, value) = item?;
            let bytes = (key.len() + value.len()) as u64;
            match key.first() {
                Some(&EVENT) => {
                    stats.live_events += 1;
                    stats.live_event_bytes += bytes;
                    live.insert(key.get(1..key.len().saturating_sub(9)).unwrap_or_default().to_vec());
                }
                Some(&SEALED) => {
                    stats.sealed_games += 1;
                    stats.sealed_bytes += bytes;
                    sealed.insert(key[1..].to_vec());
                }
                Some(&SUMMARY) => {
                    stats.summary_bytes += bytes;
                    summaries.push((String::from_utf8_lossy(&key[1..]).into_owned(), value));
                }
                Some(&listing::INDEX) => {
                    stats.index_bytes += bytes;
                    index.insert(key.to_vec());
                }
                _ => {}
            }
        }
        stats.games = summaries.len() as u64;
        stats.live_games = live.len() as u64;
        let mut expected_index = 0;
        for (id, value) in summaries {
            let summary = pb::GameSummary::decode(&*value)?;
            let finished = summary.status == pb::GameStatus::Finished as i32;
            let (is_live, is_sealed) = (live.contains(id.as_bytes()), sealed.contains(id.as_bytes()));
            if is_live && is_sealed {
                stats.problems.push(format!("game {id} is both live and sealed"));
            }
            if finished != is_sealed {
                stats.problems.push(format!("game {id}: finished {finished}, sealed {is_sealed}"));
            }
            for key in listing::index_keys(&summary) {
                expected_index += 1;
                if !index.contains(&key) {
                    stats.problems.push(format!("game {id} is missing from the index"));
                }
            }
        }
        if expected_index != index.len() {
            stats.problems.push(format!("{} index entries for {expected_index} expected", index.len()));
        }
        Ok(stats)
    }
}

/// What a data directory holds, from [`SledStore::stats`]. Bytes are keys plus values as
/// stored, before sled's own overhead.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub live_games: u64,
    pub live_events: u64,
    pub live_event_bytes: u64,
    pub sealed_games: u64,
    pub sealed_bytes: u64,
    pub summary_bytes: u64,
    pub index_bytes: u64,
    /// Breaches of the layout's rules; empty in a sound directory.
    pub problems: Vec<String>,
}

/// Moves a game's index entries from its old summary (empty for a new game) to its new one.
fn stage_index(old: &[u8], new: &pb::GameSummary, batch: &mut sled::Batch) -> Result<(), StoreError> {
    let new_keys = listing::index_keys(new);
    if !old.is_empty() {
        for key in listing::index_keys(&pb::GameSummary::decode(old)?) {
            if !new_keys.contains(&key) {
                batch.remove(key);
            }
        }
    }
    for key in new_keys {
        batch.insert(key, &[]);
    }
    Ok(())
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
            let result = self.stage(appends, &results, head, &mut batch);
            results.push(result.map(|head| {
                staged.insert(id, head);
            }));
        }
        if let Err(error) = self.log.apply_batch(batch) {
            let error = StoreError::from(error);
            return appends.iter().map(|_| Err(error.clone())).collect();
        }
        for (id, head) in staged {
            // A finished game takes no more appends worth remembering it for.
            if head.sealed {
                heads.remove(id);
            } else if let Some(known) = heads.get_mut(id) {
                *known = head;
            } else {
                heads.insert(id.to_owned(), head);
            }
        }
        results
    }

    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        let range = event_key(game_id, from)..=event_key(game_id, u64::MAX);
        let live: Vec<pb::Event> = self
            .log
            .range(range)
            .map(|item| {
                let (key, value) = item?;
                let sequence = key_sequence(&key).unwrap_or_default();
                sealed::from_live(&value, game_id, sequence)
            })
            .collect::<Result<_, _>>()?;
        // Looked for after the live records: a game sealed while they were read is read sealed.
        match self.log.get(sealed_key(game_id))? {
            Some(sealed) => sealed::unseal(&sealed, game_id, from),
            None => Ok(live),
        }
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

    fn list(&self, query: &ListQuery) -> Result<Page, StoreError> {
        let (start, end) = listing::index_range(query);
        let mut page = Page::default();
        for item in self.log.range(start..end).rev() {
            let (key, _) = item?;
            let id = listing::index_game_id(&key).ok_or_else(|| StoreError::Corrupt("an index key is short".into()))?;
            if page.games.len() == query.limit {
                page.next = page.games.last().map(Cursor::of);
                break;
            }
            let stored = self
                .log
                .get(summary_key(id))?
                .ok_or_else(|| StoreError::Corrupt(format!("the index names game {id}, which has no summary")))?;
            page.games.push(self.full_summary(id, &stored)?);
        }
        Ok(page)
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

    fn backup(&self) -> Result<Vec<u8>, StoreError> {
        Ok(crate::backup::encode(&self.db))
    }
}
