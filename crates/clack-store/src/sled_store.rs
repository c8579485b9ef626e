//! The on-disk store: a journal of live games beside a sled archive of finished ones.
//!
//! The data directory holds sled's files and `journal/` (see `journal/mod.rs`). A live game's
//! events, and its summary when that changes, are appended to the journal; the journal keeps
//! every live game in memory too, so an append reads nothing and a read of a live game touches no
//! disk. The append that finishes a game seals it into the archive, sled's `log` tree, in one
//! batch: its whole log as one record (`sealed.rs`), its summary and its listing index entries;
//! the journal then drops the game. So sled sees one write per finished game (and the small
//! records: seat tokens, owners, bots, accounts), a pattern it keeps within bounds, where a write
//! per move made it grow without end.
//!
//! **Settling.** The finishing append is made durable by the journal, like any other: its events
//! go to the journal too, and the game is *settling* (sealed in sled, not yet flushed there).
//! sled's own flusher writes the archive out within milliseconds, and a later group, at least
//! [`SETTLE_AFTER`] on, flushes the archive (by then a check that finds nothing to write) and
//! lets the journal drop the game. So finishing a game costs the moves queued behind it no
//! archive flush of their own: a server whose ladder finishes a game a second paid one sled
//! fsync a second on the path of every move (docs/ladder.md). A settling game is read from the
//! journal and listed from the archive's index; a crash before it settles leaves it in the
//! journal, finished, and opening seals it again if the archive lost it.
//!
//! Keys of the `log` tree, each led by one byte saying what it is:
//! - `s` and the game id: a finished game's whole log, sealed;
//! - `g` and the game id: a finished game's summary, with its last sequence;
//! - `i`, status, kind, creation time and game id: the listing index of finished games (live
//!   games' entries are kept in memory, and a listing merges the two);
//! - `mlayout` (the layout, 3), `mstore` (this directory's id, also in every journal segment's
//!   header), `mcount` (how many times the archive has been flushed with new writes: its write
//!   count), `mjournal` (the journal's oldest segment).
//!
//! `records` holds small records.
//!
//! **What is detected.** After each flush that wrote to the archive, the journal records the
//! archive's write count with its next sync, and every journal record carries the count as it
//! was. sled recovers a damaged file by keeping what precedes the damage, so an archive that lost
//! acknowledged writes holds a count below the one the journal saw, or nothing at all; a journal
//! with a segment or record missing, cut short or overwritten fails its own checks
//! (`journal/segment.rs`). Either refuses to open with [`StoreError::Lost`]. A panic inside sled
//! while opening is the same refusal.
//!
//! **Order of writes.** A group's sealing batch is applied before the journal learns that the
//! game left it, and the archive is flushed before the journal writes that down: a crash between
//! leaves the game in both, and on open the archive's sealed copy wins (or, if the archive lost
//! it, the journal's finished copy is sealed again). Segments are removed only
//! after the archive has recorded the journal's new start.
//!
//! sled's `flush_async` deadlocks under concurrent callers (sled issue #1308); only the blocking
//! `flush` is used, and only from blocking threads.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use prost::Message;

use crate::journal::Journal;
use crate::listing::{self, Cursor, ListQuery, Page};
use crate::sealed;
use crate::{Append, EventStore, StoreError, check_continues};

#[derive(Debug, Clone)]
pub struct SledStore {
    db: sled::Db,
    log: sled::Tree,
    records: sled::Tree,
    state: Arc<Mutex<State>>,
}

/// What the store keeps in memory, behind one lock: the journal (with the live games) and the
/// live games' listing index.
#[derive(Debug)]
struct State {
    journal: Journal,
    /// Index keys of live games (the archive indexes finished games only).
    live_index: BTreeSet<Vec<u8>>,
    /// The archive's write count, as stored under `mcount` and flushed: what the journal may
    /// witness.
    archived: u64,
    /// The count last written under `mcount`, flushed or not (sealing batches carry it).
    written: u64,
    /// Records took writes since the archive's last flush.
    dirty: bool,
    /// Games sealed in the archive and still in the journal until the archive is flushed, and
    /// when the first of them was sealed.
    settling: HashSet<String>,
    settling_since: Option<Instant>,
}

/// How long a sealed game waits before the group that lets the journal drop it. sled's flusher
/// runs every [`FLUSH_EVERY_MS`], so by then the archive flush finds its writes already on disk.
pub(crate) const SETTLE_AFTER: Duration = Duration::from_millis(100);

pub(crate) const EVENT: u8 = b'e';
const SEALED: u8 = b's';
pub(crate) const SUMMARY: u8 = b'g';
pub(crate) const LAYOUT_KEY: &[u8] = b"mlayout";
const STORE_KEY: &[u8] = b"mstore";
const COUNT_KEY: &[u8] = b"mcount";
const JOURNAL_KEY: &[u8] = b"mjournal";
/// The layout this version writes: 3 since live games are journaled and sled archives finished
/// ones. (2: live events in sled, one record each; 1: no sealing, no index.)
pub(crate) const LAYOUT: u8 = 3;
/// The journal's folder inside the data directory.
pub(crate) const JOURNAL_DIR: &str = "journal";

/// The key of one live event in layout 2 (migration reads them).
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

/// A live game's summary as stored: without its sequence, which changes with every move.
pub(crate) fn stored_summary(summary: &pb::GameSummary) -> Vec<u8> {
    pb::GameSummary { sequence: 0, ..summary.clone() }.encode_to_vec()
}

/// `<path>.<suffix>`, beside `path`.
fn sibling(path: &Path, suffix: &str) -> std::path::PathBuf {
    let name = path.file_name().map_or_else(|| "data".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!("{name}.{suffix}"))
}

/// A panic inside sled (seen on damaged files) as the refusal it should have been.
fn unpanicked<T>(what: &str, f: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(StoreError::Lost(format!("sled panicked while {what}: its files are damaged"))))
}

/// How the store is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// sled's page cache, in MiB: what the archive keeps of finished games, the listing index and
    /// the small records in memory. sled's own default is 1 GiB, most of which a game server
    /// never reads again (a finished game is read when someone replays it).
    pub cache_mb: u64,
}

/// The page cache a store gets unless told otherwise.
pub const DEFAULT_CACHE_MB: u64 = 16;

impl Default for Settings {
    fn default() -> Settings {
        Settings { cache_mb: DEFAULT_CACHE_MB }
    }
}

/// sled's segment size for an archive: 16 MiB, where sled's default (512 KiB) made a directory
/// grow by about 150 KB per game played and never give it back (docs/benchmarks.md, "Storage
/// over a long run"). It is fixed when sled makes a directory; one made with another size is
/// opened with its own.
const ARCHIVE_SEGMENT: usize = 16 << 20;
/// sled's background flusher, every this many milliseconds. Acknowledged writes are flushed
/// explicitly (see `Durable`); the flusher is one of the two places where sled moves pages out
/// of segments it is cleaning, and without it the archive grew several times as fast.
const FLUSH_EVERY_MS: u64 = 10;

/// Opens sled in `path` without looking at what it holds.
pub(crate) fn open_db(path: &Path) -> Result<sled::Db, StoreError> {
    open_db_with(path, Settings::default())
}

fn sled_config(path: &Path, settings: Settings, segment: usize) -> sled::Config {
    sled::Config::new()
        .path(path)
        .flush_every_ms(Some(FLUSH_EVERY_MS))
        .cache_capacity(settings.cache_mb << 20)
        .segment_size(segment)
}

/// The segment size sled says a directory was made with, from its refusal to open it with
/// another ("... please change it back to 524288").
fn kept_segment_size(refusal: &str) -> Option<usize> {
    let (_, size) = refusal.rsplit_once("please change it back to ")?;
    size.trim().trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()
}

fn open_db_with(path: &Path, settings: Settings) -> Result<sled::Db, StoreError> {
    let open = |segment| unpanicked("opening", || Ok(sled_config(path, settings, segment).open()?));
    let db = match open(ARCHIVE_SEGMENT) {
        Err(StoreError::Backend(refusal)) if let Some(segment) = kept_segment_size(&refusal) => open(segment)?,
        opened => opened?,
    };
    if db.tree_names().iter().any(|name| name.as_ref() == b"events") {
        return Err(StoreError::Corrupt(format!(
            "{} holds games in the layout of an earlier Clack (trees `events` and `games`); \
             export them with that version or start with an empty directory",
            path.display()
        )));
    }
    Ok(db)
}

fn read_u64(log: &sled::Tree, key: &[u8]) -> Result<Option<u64>, StoreError> {
    let Some(value) = log.get(key)? else { return Ok(None) };
    let bytes = <[u8; 8]>::try_from(value.as_ref()).map_err(|_| StoreError::Lost(format!("{key:?} is damaged")))?;
    Ok(Some(u64::from_le_bytes(bytes)))
}

/// A fresh id for a new directory: the time, the process and the path, hashed.
pub(crate) fn new_store_id(path: &Path) -> u64 {
    use sha2::{Digest, Sha256};
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let seed = format!("{nanos} {} {}", std::process::id(), path.display());
    let digest = Sha256::digest(seed.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().unwrap_or_default())
}

/// Adds what a new layout-3 archive starts with (its id, count 1, the journal from segment 0,
/// the layout mark) to `batch`.
pub(crate) fn start_archive(batch: &mut sled::Batch, store: u64) {
    batch.insert(STORE_KEY, &store.to_le_bytes());
    batch.insert(COUNT_KEY, &1u64.to_le_bytes());
    batch.insert(JOURNAL_KEY, &0u64.to_le_bytes());
    batch.insert(LAYOUT_KEY, &[LAYOUT]);
}

/// The journal's directory in a data directory.
pub(crate) fn journal_dir(path: &Path) -> std::path::PathBuf {
    path.join(JOURNAL_DIR)
}

/// Where a migration to layout 3 builds the journal before it moves it into place.
pub(crate) fn migrating_dir(path: &Path) -> std::path::PathBuf {
    path.join("journal.migrating")
}

/// A migration that stopped after the archive moved to layout 3 had only to move the journal
/// it built into place: this does that.
pub(crate) fn finish_migration(path: &Path) -> Result<(), StoreError> {
    if journal_dir(path).exists() || !migrating_dir(path).exists() {
        return Ok(());
    }
    let io = |e: std::io::Error| StoreError::Backend(format!("finishing the migration of {}: {e}", path.display()));
    std::fs::rename(migrating_dir(path), journal_dir(path)).map_err(io)?;
    crate::journal::segment::sync_dir(path).map_err(io)
}

/// Starts a new journal for a restored archive, from segment 0, holding the `live` games (each a
/// record of id, summary, then events).
pub(crate) fn restart_journal(
    path: &Path,
    log: &sled::Tree,
    live: impl Iterator<Item = Vec<Vec<u8>>>,
) -> Result<(), StoreError> {
    let missing = || StoreError::Corrupt("the backup's archive has no `mstore` or `mcount` record".into());
    let store = read_u64(log, STORE_KEY)?.ok_or_else(missing)?;
    let archived = read_u64(log, COUNT_KEY)?.ok_or_else(missing)?;
    log.insert(JOURNAL_KEY, &0u64.to_le_bytes())?;
    let mut journal = Journal::create(&journal_dir(path), store, archived)?;
    for record in live {
        let mut fields = record.into_iter();
        let (Some(id), Some(summary)) = (fields.next(), fields.next()) else {
            return Err(StoreError::Corrupt("a live game in the backup has no id or summary".into()));
        };
        let id = String::from_utf8(id).map_err(|_| StoreError::Corrupt("a live game's id is not text".into()))?;
        journal.append(&id, 1, fields.collect(), Some(summary))?;
    }
    journal.sync(archived)
}

impl SledStore {
    /// Opens (or creates) the store in `path`. One process per directory: sled locks it. A
    /// directory in an earlier layout is refused until it is migrated; one that has lost
    /// acknowledged writes is refused with [`StoreError::Lost`].
    pub fn open(path: &Path) -> Result<SledStore, StoreError> {
        SledStore::open_with(path, Settings::default())
    }

    /// [`SledStore::open`] with settings.
    pub fn open_with(path: &Path, settings: Settings) -> Result<SledStore, StoreError> {
        let kept = sibling(path, "before-compact");
        if kept.exists() {
            return Err(StoreError::Backend(format!(
                "a compaction of {} was interrupted; the data is in {}: move it back to {0} and compact again",
                path.display(),
                kept.display()
            )));
        }
        let db = open_db_with(path, settings)?;
        let log = unpanicked("reading", || Ok(db.open_tree("log")?))?;
        let records = unpanicked("reading", || Ok(db.open_tree("records")?))?;
        unpanicked("reading", || Self::check_layout(path, &db, &log))?;
        let state = unpanicked("reading", || Self::recover(path, &log))?;
        Ok(SledStore { db, log, records, state: Arc::new(Mutex::new(state)) })
    }

    /// Checks the layout mark; a new directory gets layout 3 and an empty journal.
    fn check_layout(path: &Path, db: &sled::Db, log: &sled::Tree) -> Result<(), StoreError> {
        match log.get(LAYOUT_KEY)?.as_deref() {
            Some([LAYOUT]) => finish_migration(path),
            None if log.is_empty() => {
                let journal = journal_dir(path);
                if journal.exists() {
                    return Err(StoreError::Lost(format!(
                        "sled's files in {} hold nothing, but the journal of live games is there: the archive was \
                         emptied or replaced",
                        path.display()
                    )));
                }
                let store = new_store_id(path);
                let mut batch = sled::Batch::default();
                start_archive(&mut batch, store);
                log.apply_batch(batch)?;
                db.flush()?;
                Journal::create(&journal, store, 1)?;
                Ok(())
            }
            Some([2]) | None => Err(StoreError::Corrupt(format!(
                "{0} holds games in the layout of an earlier Clack; run `clack store migrate --data {0}` once, \
                 then start again",
                path.display()
            ))),
            Some(other) => Err(StoreError::Corrupt(format!(
                "{} is in storage layout {other:?}, which this Clack does not know",
                path.display()
            ))),
        }
    }

    /// Opens the journal, checks it against the archive, and settles games a crash left in both.
    fn recover(path: &Path, log: &sled::Tree) -> Result<State, StoreError> {
        let missing = |key: &str| StoreError::Lost(format!("the archive's `{key}` record is missing"));
        let store = read_u64(log, STORE_KEY)?.ok_or_else(|| missing("mstore"))?;
        let archived = read_u64(log, COUNT_KEY)?.ok_or_else(|| missing("mcount"))?;
        let first = read_u64(log, JOURNAL_KEY)?.ok_or_else(|| missing("mjournal"))?;
        let mut journal = Journal::open(&journal_dir(path), store, first)?;
        if archived < journal.archived() {
            return Err(StoreError::Lost(format!(
                "the archive (sled) in {} holds {archived} flushed writes, but the journal saw {} acknowledged: sled \
                 lost the newest of them",
                path.display(),
                journal.archived()
            )));
        }
        // Sealed in the archive, still in the journal: the process stopped between the two.
        let sealed: Vec<String> = journal
            .games()
            .map(|(id, _)| id.clone())
            .filter(|id| log.contains_key(sealed_key(id)).unwrap_or(false))
            .collect();
        for id in &sealed {
            journal.seal(id);
        }
        let archived = Self::seal_finished(log, &mut journal, archived)?;
        journal.sync(archived)?;
        journal.remove_stale()?;
        let mut live_index = BTreeSet::new();
        for (_, game) in journal.games() {
            live_index.extend(listing::index_keys(&pb::GameSummary::decode(game.summary.as_slice())?));
        }
        let settling = HashSet::new();
        Ok(State { journal, live_index, archived, written: archived, dirty: false, settling, settling_since: None })
    }

    /// Seals the finished games the journal still holds (settling when the process stopped, and
    /// not in the archive: sled had not written them out) and flushes the archive; returns its
    /// write count.
    fn seal_finished(log: &sled::Tree, journal: &mut Journal, archived: u64) -> Result<u64, StoreError> {
        let mut batch = sled::Batch::default();
        let mut finished = Vec::new();
        for (id, game) in journal.games() {
            let summary = pb::GameSummary::decode(game.summary.as_slice())?;
            if summary.status == pb::GameStatus::Finished as i32 {
                let summary = pb::GameSummary { sequence: game.events.len() as u64, ..summary };
                Self::add_sealed(&mut batch, &sealed::seal(game.events.iter().map(Vec::as_slice))?, &summary);
                finished.push(id.clone());
            }
        }
        if finished.is_empty() {
            return Ok(archived);
        }
        let count = archived + 1;
        batch.insert(COUNT_KEY, &count.to_le_bytes());
        log.apply_batch(batch)?;
        log.flush()?;
        for id in &finished {
            journal.seal(id);
        }
        Ok(count)
    }

    /// Adds a finished game's sealed log, summary and index entries to `batch`.
    fn add_sealed(batch: &mut sled::Batch, record: &[u8], summary: &pb::GameSummary) {
        batch.insert(sealed_key(&summary.game_id), record);
        batch.insert(summary_key(&summary.game_id), summary.encode_to_vec());
        for key in listing::index_keys(summary) {
            batch.insert(key, &[]);
        }
    }

    /// Migrates a directory from the layout of an earlier Clack (see `migrate.rs`).
    pub fn migrate(path: &Path) -> Result<crate::Migrated, StoreError> {
        crate::migrate::run(path)
    }

    /// Rewrites the archive in `path` (which no process may have open) into a fresh directory
    /// that holds only what is there now, and moves the journal into it: sled keeps the space of
    /// removed and overwritten records in its segments for a while, and this gives it back. The
    /// original is kept beside it, as `<path>.before-compact`, until the copy is complete.
    pub fn compact(path: &Path) -> Result<(), StoreError> {
        SledStore::rewrite(open_db(path)?, path)
    }

    /// [`SledStore::compact`] with the archive already open as `db` (it is closed here).
    pub(crate) fn rewrite(db: sled::Db, path: &Path) -> Result<(), StoreError> {
        let fresh = sibling(path, "compacting");
        let kept = sibling(path, "before-compact");
        let io = |e: std::io::Error| StoreError::Backend(format!("compacting {}: {e}", path.display()));
        if fresh.exists() {
            std::fs::remove_dir_all(&fresh).map_err(io)?;
        }
        {
            let copy = sled_config(&fresh, Settings::default(), ARCHIVE_SEGMENT).open()?;
            copy.import(db.export());
            copy.flush()?;
        }
        drop(db);
        std::fs::rename(path, &kept).map_err(io)?;
        if journal_dir(&kept).exists() {
            std::fs::rename(journal_dir(&kept), journal_dir(&fresh)).map_err(io)?;
        }
        std::fs::rename(&fresh, path).map_err(io)?;
        std::fs::remove_dir_all(&kept).map_err(io)
    }

    /// The archive tree, for tools that must write below the store's API: the fuzz target of
    /// the reader puts arbitrary bytes under a game's keys with it. Nothing that serves games
    /// uses it.
    #[doc(hidden)]
    pub fn raw_log(&self) -> &sled::Tree {
        &self.log
    }

    /// How many bytes the directory takes: sled's files and the journal's.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        Ok(self.db.size_on_disk()? + self.state().journal.disk_bytes())
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // The state is changed only after each step has succeeded, so a panic cannot leave it
        // half-made.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A finished game's summary from the archive.
    fn archived_summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        self.log.get(summary_key(game_id))?.map(|bytes| Ok(pb::GameSummary::decode(&*bytes)?)).transpose()
    }

    /// A game's summary by id: live from the journal, else finished from the archive.
    fn summary_in(&self, state: &State, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        match state.journal.live(game_id) {
            Some(game) => {
                let mut summary = pb::GameSummary::decode(game.summary.as_slice())?;
                summary.sequence = game.events.len() as u64;
                Ok(Some(summary))
            }
            None => self.archived_summary(game_id),
        }
    }

    /// What the directory holds, and whatever in it breaks the layout's rules (a game both live
    /// and sealed, a finished game not sealed, an index entry missing or left over). Reads
    /// everything: for operators and tests, not for serving.
    pub fn stats(&self) -> Result<Stats, StoreError> {
        let state = self.state();
        let mut stats = Stats::default();
        for (_, game) in state.journal.games().filter(|(id, _)| !state.settling.contains(*id)) {
            stats.live_games += 1;
            stats.live_events += game.events.len() as u64;
            stats.live_event_bytes += game.events.iter().map(|e| e.len() as u64).sum::<u64>();
        }
        stats.settling_games = state.settling.len() as u64;
        stats.journal_bytes = state.journal.disk_bytes();
        let mut sealed = HashSet::new();
        let mut index = HashSet::new();
        let mut summaries = Vec::new();
        for item in self.log.iter() {
            let (key, value) = item?;
            let bytes = (key.len() + value.len()) as u64;
            match key.first() {
                Some(&EVENT) => stats.problems.push("a live event of layout 2 is in the archive".into()),
                Some(&SEALED) => {
                    stats.sealed_games += 1;
                    stats.sealed_bytes += bytes;
                    sealed.insert(String::from_utf8_lossy(&key[1..]).into_owned());
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
        stats.games = summaries.len() as u64 + stats.live_games;
        let mut expected_index = 0;
        for (id, value) in summaries {
            let summary = pb::GameSummary::decode(&*value)?;
            if summary.status != pb::GameStatus::Finished as i32 || !sealed.contains(&id) {
                stats.problems.push(format!("game {id} is in the archive but not finished and sealed"));
            }
            if state.journal.live(&id).is_some() && !state.settling.contains(&id) {
                stats.problems.push(format!("game {id} is both live and sealed"));
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

    /// Checks one append against the game as the journal and this group so far leave it, and
    /// says what to do with it.
    fn stage(&self, state: &State, append: &Append, staged: &mut HashMap<String, Staged>) -> Result<Step, StoreError> {
        check_continues(append)?;
        let id = append.game_id.as_str();
        let game = match staged.remove(id) {
            Some(game) => game,
            None if state.settling.contains(id) => Staged { sealed: true, ..Staged::default() },
            None => match state.journal.live(id) {
                Some(live) => {
                    Staged { sequence: live.events.len() as u64, summary: live.summary.clone(), ..Staged::default() }
                }
                None if self.log.contains_key(sealed_key(id))? => Staged { sealed: true, ..Staged::default() },
                None => Staged::default(),
            },
        };
        let result = Self::step(state, append, &game);
        // A refused append leaves the game as it was for the rest of the group.
        let next = match &result {
            Ok(Step::Append { events, summary, .. }) => Staged {
                sequence: append.expected + events.len() as u64,
                summary: summary.clone().unwrap_or(game.summary.clone()),
                events: [game.events.clone(), events.clone()].concat(),
                sealed: false,
            },
            Ok(Step::Seal { .. }) => Staged { sealed: true, ..Staged::default() },
            Err(_) => game,
        };
        staged.insert(id.to_owned(), next);
        result
    }

    fn step(state: &State, append: &Append, game: &Staged) -> Result<Step, StoreError> {
        if game.sealed {
            return Err(StoreError::Sealed(append.game_id.clone()));
        }
        if game.sequence != append.expected {
            return Err(StoreError::Conflict { expected: append.expected, actual: game.sequence });
        }
        let events: Vec<Vec<u8>> = append.events.iter().map(sealed::live_value).collect();
        if append.summary.status == pb::GameStatus::Finished as i32 {
            let journaled = state.journal.live(&append.game_id).map(|g| g.events.as_slice()).unwrap_or_default();
            let all = journaled.iter().chain(&game.events).chain(&events);
            let record = sealed::seal(all.map(Vec::as_slice))?;
            let sequence = append.expected + events.len() as u64;
            let summary = pb::GameSummary { sequence, ..append.summary.clone() };
            let first = append.expected + 1;
            return Ok(Step::Seal { record, summary, first, events, old: game.summary.clone() });
        }
        let summary = stored_summary(&append.summary);
        let changed = (summary != game.summary).then_some(summary);
        Ok(Step::Append { first: append.expected + 1, events, summary: changed, old: game.summary.clone() })
    }

    /// Moves a live game's index entries from its old summary (empty for a new game) to `new`.
    fn reindex(state: &mut State, old: &[u8], new: Option<&pb::GameSummary>) -> Result<(), StoreError> {
        if !old.is_empty() {
            for key in listing::index_keys(&pb::GameSummary::decode(old)?) {
                state.live_index.remove(&key);
            }
        }
        if let Some(new) = new {
            state.live_index.extend(listing::index_keys(new));
        }
        Ok(())
    }

    /// Flushes the archive if it took writes, then syncs the journal, witnessing the archive's
    /// count; then lets the journal drop segments it no longer needs.
    fn flush_in(&self, state: &mut State) -> Result<(), StoreError> {
        if state.dirty {
            self.count_write(state)?;
        }
        if state.settling_since.is_some_and(|since| since.elapsed() >= SETTLE_AFTER) {
            self.settle(state)?;
        }
        state.journal.sync(state.archived)?;
        while let Some(first) = state.journal.relocate_oldest()? {
            self.log.insert(JOURNAL_KEY, &first.to_le_bytes())?;
            self.count_write(state)?;
            state.journal.sync(state.archived)?;
            state.journal.drop_oldest()?;
        }
        Ok(())
    }

    /// Counts one more write of the archive and flushes it.
    fn count_write(&self, state: &mut State) -> Result<(), StoreError> {
        let count = state.written + 1;
        self.log.insert(COUNT_KEY, &count.to_le_bytes())?;
        state.written = count;
        self.db.flush()?;
        state.archived = count;
        state.dirty = false;
        Ok(())
    }

    /// Flushes the archive (its sealing batches are usually on disk by now) and lets the journal
    /// drop the settling games with its next sync.
    fn settle(&self, state: &mut State) -> Result<(), StoreError> {
        self.db.flush()?;
        state.archived = state.written;
        for id in std::mem::take(&mut state.settling) {
            state.journal.seal(&id);
        }
        state.settling_since = None;
        Ok(())
    }
}

/// A game as the appends of one group leave it.
#[derive(Debug, Default)]
struct Staged {
    sequence: u64,
    /// Its summary as stored.
    summary: Vec<u8>,
    /// Events of this group's earlier appends, not in the journal yet.
    events: Vec<Vec<u8>>,
    sealed: bool,
}

/// What one append does once the group's archive batch has landed.
#[derive(Debug)]
enum Step {
    /// Events (and a changed summary) to the journal.
    Append { first: u64, events: Vec<Vec<u8>>, summary: Option<Vec<u8>>, old: Vec<u8> },
    /// The game goes to the archive, sealed, and its last events to the journal, where it
    /// settles.
    Seal { record: Vec<u8>, summary: pb::GameSummary, first: u64, events: Vec<Vec<u8>>, old: Vec<u8> },
}

impl Drop for State {
    fn drop(&mut self) {
        // What was appended and not yet synced reaches the file at least (tools that append
        // without flushing). The archive flushes itself when sled closes.
        let _ = self.journal.sync(self.archived);
    }
}

/// What a data directory holds, from [`SledStore::stats`]. Bytes are keys plus values as
/// stored, before sled's own overhead.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub live_games: u64,
    /// Finished games sealed in the archive and still in the journal until the archive's next
    /// flush (see "Settling" above); counted in `sealed_games`, not in `live_games`.
    pub settling_games: u64,
    pub live_events: u64,
    pub live_event_bytes: u64,
    /// What the journal's segments take on disk.
    pub journal_bytes: u64,
    pub sealed_games: u64,
    pub sealed_bytes: u64,
    pub summary_bytes: u64,
    pub index_bytes: u64,
    /// Breaches of the layout's rules; empty in a sound directory.
    pub problems: Vec<String>,
}

impl EventStore for SledStore {
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
        let mut state = self.state();
        let mut staged = HashMap::new();
        let steps: Vec<Result<Step, StoreError>> =
            appends.iter().map(|append| self.stage(&state, append, &mut staged)).collect();
        let mut batch = sled::Batch::default();
        let mut sealing = false;
        for step in steps.iter().flatten() {
            if let Step::Seal { record, summary, .. } = step {
                Self::add_sealed(&mut batch, record, summary);
                sealing = true;
            }
        }
        if sealing {
            // The batch carries the next write count, so that the flush that settles it
            // counts it without writing again.
            batch.insert(COUNT_KEY, &(state.written + 1).to_le_bytes());
            if let Err(error) = self.log.apply_batch(batch) {
                let error = StoreError::from(error);
                return appends.iter().map(|_| Err(error.clone())).collect();
            }
            state.written += 1;
            state.settling_since.get_or_insert_with(Instant::now);
        }
        appends
            .iter()
            .zip(steps)
            .map(|(append, step)| {
                let id = append.game_id.as_str();
                match step? {
                    Step::Append { first, events, summary, old } => {
                        if let Some(new) = &summary {
                            Self::reindex(&mut state, &old, Some(&pb::GameSummary::decode(new.as_slice())?))?;
                        }
                        state.journal.append(id, first, events, summary)
                    }
                    Step::Seal { old, summary, first, events, .. } => {
                        Self::reindex(&mut state, &old, None)?;
                        state.settling.insert(id.to_owned());
                        state.journal.append(id, first, events, Some(stored_summary(&summary)))
                    }
                }
            })
            .collect()
    }

    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        let live: Option<Vec<(u64, Vec<u8>)>> = {
            let state = self.state();
            state.journal.live(game_id).map(|game| {
                let skip = from.saturating_sub(1) as usize;
                game.events.iter().enumerate().skip(skip).map(|(i, e)| (i as u64 + 1, e.clone())).collect()
            })
        };
        match live {
            Some(events) => {
                events.iter().map(|(sequence, value)| sealed::from_live(value, game_id, *sequence)).collect()
            }
            None => match self.log.get(sealed_key(game_id))? {
                Some(sealed) => sealed::unseal(&sealed, game_id, from),
                None => Ok(Vec::new()),
            },
        }
    }

    fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        let state = self.state();
        self.summary_in(&state, game_id)
    }

    fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError> {
        let mut all: Vec<pb::GameSummary> = {
            let state = self.state();
            let live = state.journal.games().filter(|(id, _)| !state.settling.contains(*id));
            let ids: Vec<String> = live.map(|(id, _)| id.clone()).collect();
            ids.iter().filter_map(|id| self.summary_in(&state, id).transpose()).collect::<Result<_, _>>()?
        };
        for item in self.log.scan_prefix([SUMMARY]) {
            let (_, bytes) = item?;
            all.push(pb::GameSummary::decode(&*bytes)?);
        }
        all.sort_by(|a, b| b.game_id.cmp(&a.game_id));
        Ok(all)
    }

    fn list(&self, query: &ListQuery) -> Result<Page, StoreError> {
        let (start, end) = listing::index_range(query);
        let state = self.state();
        let mut live = state.live_index.range(start.clone()..end.clone()).rev().peekable();
        let mut archived = self.log.range(start..end).rev().peekable();
        let mut page = Page::default();
        loop {
            // The newer of the two sources' next keys.
            let from_live = match (live.peek(), archived.peek()) {
                (None, None) => break,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(l), Some(Ok((a, _)))) => l.as_slice() > a.as_ref(),
                (Some(_), Some(Err(_))) => false,
            };
            let key: Vec<u8> = if from_live {
                live.next().cloned().unwrap_or_default()
            } else {
                match archived.next() {
                    Some(item) => item?.0.to_vec(),
                    None => break,
                }
            };
            if page.games.len() == query.limit {
                page.next = page.games.last().map(Cursor::of);
                break;
            }
            let id = listing::index_game_id(&key).ok_or_else(|| StoreError::Corrupt("an index key is short".into()))?;
            let summary = self
                .summary_in(&state, id)?
                .ok_or_else(|| StoreError::Corrupt(format!("the index names game {id}, which has no summary")))?;
            page.games.push(summary);
        }
        Ok(page)
    }

    fn put(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.records.insert(key.as_bytes(), value)?;
        self.state().dirty = true;
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
        let mut state = self.state();
        self.flush_in(&mut state)
    }

    fn disk_bytes(&self) -> Option<u64> {
        self.size_on_disk().ok()
    }

    fn backup(&self) -> Result<Vec<u8>, StoreError> {
        let mut guard = self.state();
        let state = &mut *guard;
        // A settling game is in the archive's copy; the journal must not give it twice.
        self.settle(state)?;
        state.journal.sync(state.archived)?;
        let live =
            state.journal.games().map(|(id, game)| (id.as_bytes(), game.summary.as_slice(), game.events.as_slice()));
        Ok(crate::backup::encode(&self.db, live))
    }
}
