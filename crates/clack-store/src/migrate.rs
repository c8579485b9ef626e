//! Migration from the layouts of earlier Clacks to layout 3.
//!
//! Layout 1 (one record per event, each carrying its game id and sequence; no index) goes to
//! layout 2 (live records without what their key says, finished games sealed, a listing index)
//! first: each game in one sled batch, and the layout mark written only after the last one, so
//! a migration stopped part way is simply run again (a game already migrated is recognised and
//! rewritten to the same thing).
//!
//! Layout 2 goes to layout 3 (live games in the journal, sled an archive of finished ones): the
//! journal is built beside the data, in `journal.migrating`, and synced; then one sled batch
//! removes the live games from sled and marks layout 3; then the journal is moved into place.
//! A crash before the batch leaves the directory in layout 2, usable by the Clack that wrote it
//! (the next migration starts the journal again); a crash after it leaves only the move to do,
//! which opening the store finishes.

use std::path::Path;

use clack_proto::v1 as pb;
use prost::Message;

use crate::journal::Journal;
use crate::sled_store::{
    LAYOUT, LAYOUT_KEY, SUMMARY, event_key, finish_migration, journal_dir, migrating_dir, new_store_id, open_db,
    sealed_key, start_archive, stored_summary, summary_key,
};
use crate::{StoreError, listing, sealed};

/// Layout 2: live events one record each in sled.
const LAYOUT_2: u8 = 2;

/// What a migration did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Migrated {
    /// The directory was already in the new layout: nothing was done.
    pub already: bool,
    pub games: u64,
    pub sealed: u64,
    pub events: u64,
    /// Live games moved into the journal (layout 2 to 3).
    pub journaled: u64,
}

pub(crate) fn run(path: &Path) -> Result<Migrated, StoreError> {
    let db = open_db(path)?;
    let log = db.open_tree("log")?;
    let mut migrated = Migrated::default();
    match log.get(LAYOUT_KEY)?.as_deref() {
        Some([LAYOUT]) => {
            finish_migration(path)?;
            return Ok(Migrated { already: true, ..Migrated::default() });
        }
        Some([LAYOUT_2]) => return to_journal(path, db, log, migrated),
        Some(other) => return Err(StoreError::Corrupt(format!("unknown storage layout {other:?}"))),
        None => {}
    }
    for item in log.scan_prefix([SUMMARY]) {
        let (key, value) = item?;
        let id = String::from_utf8(key[1..].to_vec())
            .map_err(|_| StoreError::Corrupt("a summary key is not a game id".into()))?;
        let summary = pb::GameSummary::decode(&*value)?;
        migrate_game(&log, &id, summary, &mut migrated)?;
    }
    log.insert(LAYOUT_KEY, &[LAYOUT_2])?;
    db.flush()?;
    to_journal(path, db, log, migrated)
}

/// Layout 2 to 3: every live game into a new journal, then out of sled in one batch.
fn to_journal(path: &Path, db: sled::Db, log: sled::Tree, mut migrated: Migrated) -> Result<Migrated, StoreError> {
    let io = |e: std::io::Error| StoreError::Backend(format!("migrating {}: {e}", path.display()));
    if journal_dir(path).exists() {
        return Err(StoreError::Corrupt(format!("{} is in layout 2 but holds a journal", path.display())));
    }
    let staging = migrating_dir(path);
    if staging.exists() {
        std::fs::remove_dir_all(&staging).map_err(io)?;
    }
    let store = new_store_id(path);
    let mut journal = Journal::create(&staging, store, 1)?;
    let mut batch = sled::Batch::default();
    for item in log.scan_prefix([SUMMARY]) {
        let (key, value) = item?;
        let summary = pb::GameSummary::decode(&*value)?;
        if summary.status == pb::GameStatus::Finished as i32 {
            continue;
        }
        let id = String::from_utf8(key[1..].to_vec())
            .map_err(|_| StoreError::Corrupt("a summary key is not a game id".into()))?;
        let mut events = Vec::new();
        for item in log.range(event_key(&id, 0)..=event_key(&id, u64::MAX)) {
            let (key, value) = item?;
            batch.remove(key);
            events.push(value.to_vec());
        }
        for key in listing::index_keys(&summary) {
            batch.remove(key);
        }
        batch.remove(key);
        migrated.journaled += 1;
        journal.append(&id, 1, events, Some(stored_summary(&summary)))?;
    }
    journal.sync(1)?;
    drop(journal);
    // One batch: the live games leave sled as layout 3 begins, or neither happens.
    start_archive(&mut batch, store);
    log.apply_batch(batch)?;
    db.flush()?;
    finish_migration(path)?;
    // The archive was made with sled's small segments: a copy with the archive's gives back the
    // space of the live records just removed, and keeps it bounded from now on.
    drop(log);
    crate::SledStore::rewrite(db, path)?;
    Ok(migrated)
}

/// Rewrites one game in one batch.
fn migrate_game(
    log: &sled::Tree,
    id: &str,
    summary: pb::GameSummary,
    migrated: &mut Migrated,
) -> Result<(), StoreError> {
    let mut batch = sled::Batch::default();
    let finished = summary.status == pb::GameStatus::Finished as i32;
    let mut values = Vec::new();
    for item in log.range(event_key(id, 0)..=event_key(id, u64::MAX)) {
        let (key, value) = item?;
        // A layout-1 record carries its game id; `live_value` drops it (and the sequence).
        let event = pb::Event::decode(&*value)?;
        let value = sealed::live_value(&event);
        if finished {
            batch.remove(key);
        } else {
            batch.insert(key, value.as_slice());
        }
        values.push(value);
    }
    migrated.games += 1;
    migrated.events += values.len() as u64;
    let already_sealed = log.contains_key(sealed_key(id))?;
    if finished && !already_sealed {
        let sequence = values.len() as u64;
        batch.insert(sealed_key(id), sealed::seal(values.iter().map(Vec::as_slice))?);
        let stored = pb::GameSummary { sequence, ..summary.clone() };
        batch.insert(summary_key(id), stored.encode_to_vec());
        migrated.sealed += 1;
    }
    for key in listing::index_keys(&summary) {
        batch.insert(key, &[]);
    }
    log.apply_batch(batch)?;
    Ok(())
}
