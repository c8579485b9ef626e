//! Migration from layout 1 (one record per event, each carrying its game id and sequence; no
//! index) to layout 2 (live records without what their key says, finished games sealed, a
//! listing index).
//!
//! Each game is migrated in one sled batch, and the layout mark is written only after the last
//! one, so the directory is not served half-migrated. A migration stopped part way is simply run
//! again: a game already migrated is recognised (sealed, or live records without a game id) and
//! rewritten to the same thing.

use std::path::Path;

use clack_proto::v1 as pb;
use prost::Message;

use crate::sled_store::{LAYOUT, LAYOUT_KEY, SUMMARY, event_key, open_db, sealed_key, summary_key};
use crate::{StoreError, listing, sealed};

/// What a migration did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Migrated {
    /// The directory was already in the new layout: nothing was done.
    pub already: bool,
    pub games: u64,
    pub sealed: u64,
    pub events: u64,
}

pub(crate) fn run(path: &Path) -> Result<Migrated, StoreError> {
    let db = open_db(path)?;
    let log = db.open_tree("log")?;
    let mut migrated = Migrated::default();
    match log.get(LAYOUT_KEY)?.as_deref() {
        Some([LAYOUT]) => return Ok(Migrated { already: true, ..Migrated::default() }),
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
    log.insert(LAYOUT_KEY, &[LAYOUT])?;
    db.flush()?;
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
