//! The journal: the events of every live game, appended to segment files as they are played,
//! and the live games themselves, kept in memory.
//!
//! Why a journal beside sled: a move appends a small record, and under a game server's pattern
//! (many small appends, a flush per group, everything of a game removed when it ends) sled
//! 0.34's segment cleaning falls behind and its directory grows without end. Measured when each
//! move was a sled write: 47 KB (server) to 164 KB (`clack store fill`) a game played, never given
//! back while the server ran; 8.4 KB a game with sled's segments at 16 MiB and its flusher on,
//! but memory still growing by 84 MB from 2,000 to 20,000 games; with this journal, 9.8 KB a game
//! at 20,000 games and memory within 23 MB (docs/benchmarks.md, "Storage over a long run"). The
//! journal also makes a move cheaper: one append and a CRC instead of a sled batch, whose apply
//! and flush were a third of a move's CPU. Here a move costs one framed record appended to the newest segment, and a
//! group of moves one `fdatasync`; a finished game leaves the journal for the archive (sled),
//! which then sees one write per game. A segment is removed once no live game has a record in it;
//! a game that keeps an old segment alive (it waits long for players, or plays slowly) is first
//! copied whole into the newest segment ("relocated"). So the journal stays within about twice
//! the size of the live games plus a segment, however many games are played.
//!
//! Every record carries a number one higher than the record before it (its LSN), so a record or
//! a segment missing in the middle is seen, and the archive's write count as it was when the
//! record was written, so an archive that lost acknowledged writes is seen (see `sled_store.rs`).
//! Files and framing are `segment.rs`'s.
//!
//! The journal checks nothing about events but their order: the store above it checks appends.

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use prost::Message;

use crate::StoreError;

pub(crate) mod segment;

/// One record. Which fields mean something depends on `kind`.
#[derive(Clone, PartialEq, prost::Message)]
struct Record {
    #[prost(uint64, tag = "1")]
    lsn: u64,
    #[prost(uint32, tag = "2")]
    kind: u32,
    #[prost(string, tag = "3")]
    game_id: String,
    /// The sequence of `events[0]`.
    #[prost(uint64, tag = "4")]
    first_sequence: u64,
    #[prost(bytes = "vec", repeated, tag = "5")]
    events: Vec<Vec<u8>>,
    #[prost(bytes = "vec", optional, tag = "6")]
    summary: Option<Vec<u8>>,
    /// The archive's write count when the record was written.
    #[prost(uint64, tag = "7")]
    archived: u64,
    /// `BOOT`: the kernel's boot id when the journal was opened for writing.
    #[prost(string, tag = "8")]
    boot: String,
}

/// A game's events continue its log (and its summary, when given, replaces the last).
const APPEND: u32 = 0;
/// A game's whole state, replacing what came before (a relocation, or a migrated game).
const RELOCATED: u32 = 1;
/// A game is in the archive now and out of the journal.
const SEALED: u32 = 2;
/// Only the archive's write count.
const WITNESS: u32 = 3;
/// The segment is full: records go on in the next.
const NEXT: u32 = 4;
/// The journal was opened for writing, on the machine's boot `boot`.
const BOOT: u32 = 5;

/// Room kept at the end of every segment for its `NEXT` record.
const NEXT_ROOM: u64 = 128;

/// A live game as the journal holds it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Live {
    /// Its events in order from sequence 1, each without game id and sequence.
    pub events: Vec<Vec<u8>>,
    /// Its summary as the store keeps it.
    pub summary: Vec<u8>,
    /// The oldest segment that holds a record of it.
    oldest: u64,
}

impl Live {
    fn bytes(&self) -> u64 {
        (self.events.iter().map(Vec::len).sum::<usize>() + self.summary.len()) as u64
    }
}

#[derive(Debug)]
pub(crate) struct Journal {
    dir: PathBuf,
    store: u64,
    /// Segment numbers on disk, oldest first; the last is written to.
    segments: Vec<u64>,
    file: File,
    /// Where the next record goes in the newest segment.
    end: u64,
    /// Records framed but not written yet.
    pending: Vec<u8>,
    /// Older segments written since the last sync (a segment filled up meanwhile).
    unsynced: Vec<File>,
    lsn: u64,
    archived: u64,
    games: HashMap<String, Live>,
    /// Games finished since the last sync: their `SEALED` records wait until the archive holds
    /// them, and their segments stay until then.
    sealing: Vec<String>,
    /// Segments older than the journal's start, left by a removal that stopped.
    stale: Vec<u64>,
    /// What the live games hold, kept as they change: the journal's size is measured against it
    /// after every group.
    live_bytes: u64,
}

fn io(what: &str) -> impl Fn(std::io::Error) -> StoreError + '_ {
    move |e| StoreError::Backend(format!("journal: {what}: {e}"))
}

/// A journal that does not say what it was told: the store has lost acknowledged writes.
fn lost(detail: String) -> StoreError {
    StoreError::Lost(format!("the journal of live games is damaged: {detail}"))
}

impl Journal {
    /// A new, empty journal in `dir` (which must not hold one), witnessing `archived`.
    pub(crate) fn create(dir: &Path, store: u64, archived: u64) -> Result<Journal, StoreError> {
        std::fs::create_dir_all(dir).map_err(io("creating the directory"))?;
        let file = segment::create(dir, 0, store).map_err(io("creating segment 0"))?;
        let mut journal = Journal {
            dir: dir.to_owned(),
            store,
            segments: vec![0],
            file,
            end: segment::HEADER_BYTES,
            pending: Vec::new(),
            unsynced: Vec::new(),
            lsn: 0,
            archived,
            games: HashMap::new(),
            sealing: Vec::new(),
            stale: Vec::new(),
            live_bytes: 0,
        };
        journal.push(&mut Record { kind: BOOT, boot: boot_id(), ..Record::default() })?;
        journal.sync(archived)?;
        Ok(journal)
    }

    /// Opens the journal in `dir`, whose oldest segment the archive says is `first`, and reads
    /// every live game back. Anything a crash cannot explain is [`StoreError::Lost`].
    pub(crate) fn open(dir: &Path, store: u64, first: u64) -> Result<Journal, StoreError> {
        let mut numbers = segment_numbers(dir)?;
        // Segments before `first` were being removed when the process stopped; they go once the
        // store has checked everything ([`Journal::remove_stale`]), never from a directory that
        // is refused.
        let stale: Vec<u64> = numbers.iter().copied().filter(|n| *n < first).collect();
        numbers.retain(|n| *n >= first);
        match numbers.first() {
            None => {
                return Err(lost(format!("segment {first} and every one after it are missing from {}", dir.display())));
            }
            Some(&oldest) if oldest != first => return Err(lost(format!("segment {first} is missing"))),
            Some(_) => {}
        }
        if let Some(gap) = numbers.windows(2).find(|pair| pair[1] != pair[0] + 1) {
            return Err(lost(format!("segment {} is missing", gap[0] + 1)));
        }
        let mut records = Vec::new();
        let mut end = segment::HEADER_BYTES;
        let mut torn = None;
        for (i, &number) in numbers.iter().enumerate() {
            let scanned = segment::scan(dir, number, store, i + 1 == numbers.len()).map_err(lost)?;
            for bytes in &scanned.records {
                let record = Record::decode(bytes.as_slice())
                    .map_err(|e| lost(format!("a record in segment {number} does not decode: {e}")))?;
                records.push((number, record));
            }
            end = scanned.end;
            torn = scanned.torn.map(|torn| (torn, number));
        }
        // A game sealed further on may have begun in a segment already removed: its records
        // are not needed, and it is left out whole.
        let sealed: HashSet<String> =
            records.iter().filter(|(_, r)| r.kind == SEALED).map(|(_, r)| r.game_id.clone()).collect();
        let mut replay = Replay::default();
        for (number, record) in records {
            replay.apply(number, record, &sealed)?;
        }
        if let Some((torn, number)) = torn {
            check_torn(&torn, number, &replay.boot)?;
        }
        if replay.last_kind == Some(NEXT) {
            return Err(lost(format!("segment {} is missing", numbers[numbers.len() - 1] + 1)));
        }
        let newest = numbers[numbers.len() - 1];
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(segment::path(dir, newest))
            .map_err(io("opening the newest segment"))?;
        segment::clear_after(&file, end).map_err(io("clearing after the last record"))?;
        let live_bytes = replay.games.values().map(Live::bytes).sum();
        let mut journal = Journal {
            dir: dir.to_owned(),
            store,
            segments: numbers,
            file,
            end,
            pending: Vec::new(),
            unsynced: Vec::new(),
            lsn: replay.lsn,
            archived: replay.archived,
            games: replay.games,
            sealing: Vec::new(),
            stale,
            live_bytes,
        };
        journal.push(&mut Record { kind: BOOT, boot: boot_id(), ..Record::default() })?;
        Ok(journal)
    }

    /// Removes the segments older than the journal's start that a stopped removal left.
    pub(crate) fn remove_stale(&mut self) -> Result<(), StoreError> {
        for number in std::mem::take(&mut self.stale) {
            std::fs::remove_file(segment::path(&self.dir, number)).map_err(io("removing an old segment"))?;
        }
        Ok(())
    }

    /// The archive's write count the journal has witnessed: the archive must hold at least this.
    pub(crate) fn archived(&self) -> u64 {
        self.archived
    }

    pub(crate) fn live(&self, game_id: &str) -> Option<&Live> {
        self.games.get(game_id)
    }

    pub(crate) fn games(&self) -> impl Iterator<Item = (&String, &Live)> {
        self.games.iter()
    }

    /// Bytes the segments take on disk (they are sparse: what was written, not their size).
    pub(crate) fn disk_bytes(&self) -> u64 {
        use std::os::unix::fs::MetadataExt;
        let size = |n: &u64| std::fs::metadata(segment::path(&self.dir, *n)).map_or(0, |m| m.blocks() * 512);
        self.segments.iter().map(size).sum()
    }

    /// Appends a game's new events (from `first_sequence`; 1 starts a new game), with its summary
    /// when that changed. Written at once, durable at the next [`Journal::sync`].
    pub(crate) fn append(
        &mut self,
        game_id: &str,
        first_sequence: u64,
        events: Vec<Vec<u8>>,
        summary: Option<Vec<u8>>,
    ) -> Result<(), StoreError> {
        let mut record =
            Record { kind: APPEND, game_id: game_id.to_owned(), first_sequence, events, summary, ..Record::default() };
        let segment = self.push(&mut record)?;
        let game = self.games.entry(record.game_id).or_insert_with(|| Live { oldest: segment, ..Live::default() });
        let mut added: u64 = record.events.iter().map(|e| e.len() as u64).sum();
        game.events.append(&mut record.events);
        if let Some(summary) = record.summary {
            added += summary.len() as u64;
            self.live_bytes -= game.summary.len() as u64;
            game.summary = summary;
        }
        self.live_bytes += added;
        Ok(())
    }

    /// A game has been written to the archive: it leaves the journal. Its `SEALED` record is
    /// written at the next sync, after the archive's flush.
    pub(crate) fn seal(&mut self, game_id: &str) {
        if let Some(game) = self.games.remove(game_id) {
            self.live_bytes -= game.bytes();
            self.sealing.push(game_id.to_owned());
        }
    }

    /// Makes everything written durable, recording that the archive (flushed just before) has
    /// made `archived` writes and holds the games sealed since the last sync.
    pub(crate) fn sync(&mut self, archived: u64) -> Result<(), StoreError> {
        self.archived = archived;
        for game_id in std::mem::take(&mut self.sealing) {
            self.push(&mut Record { kind: SEALED, game_id, ..Record::default() })?;
        }
        self.push(&mut Record { kind: WITNESS, ..Record::default() })?;
        self.write_pending()?;
        for file in self.unsynced.drain(..) {
            file.sync_data().map_err(io("syncing a full segment"))?;
        }
        self.file.sync_data().map_err(io("syncing"))
    }

    /// How many segments the journal may keep: twice the live games' size, and one to spare.
    fn segments_needed(&self) -> usize {
        1 + (2 * self.live_bytes).div_ceil(segment::SEGMENT_BYTES).max(1) as usize
    }

    /// Whether the oldest segment can go: no live game has a record in it, or the journal holds
    /// more segments than the live games need and the games that keep it are relocated first
    /// (and that made durable). Returns the segment that becomes the oldest once the archive has
    /// recorded it (then call [`Journal::drop_oldest`]).
    pub(crate) fn relocate_oldest(&mut self) -> Result<Option<u64>, StoreError> {
        if self.segments.len() < 2 || !self.sealing.is_empty() {
            return Ok(None);
        }
        let oldest = self.segments[0];
        let pinned: Vec<String> =
            self.games.iter().filter(|(_, game)| game.oldest == oldest).map(|(id, _)| id.clone()).collect();
        if pinned.is_empty() {
            return Ok(Some(oldest + 1));
        }
        if self.segments.len() <= self.segments_needed() {
            return Ok(None);
        }
        for game_id in pinned {
            let Some(game) = self.games.get(&game_id) else { continue };
            let mut record = Record {
                kind: RELOCATED,
                game_id: game_id.clone(),
                first_sequence: 1,
                events: game.events.clone(),
                summary: Some(game.summary.clone()),
                ..Record::default()
            };
            let segment = self.push(&mut record)?;
            if let Some(game) = self.games.get_mut(&game_id) {
                game.oldest = segment;
            }
        }
        self.sync(self.archived)?;
        Ok(Some(oldest + 1))
    }

    /// Removes the oldest segment (the archive has recorded that the journal starts after it).
    pub(crate) fn drop_oldest(&mut self) -> Result<(), StoreError> {
        let oldest = self.segments.remove(0);
        std::fs::remove_file(segment::path(&self.dir, oldest)).map_err(io("removing a segment"))?;
        segment::sync_dir(&self.dir).map_err(io("syncing the directory"))
    }

    /// Frames a record into the pending bytes, moving to a new segment first if it would not fit;
    /// returns the segment it lands in.
    fn push(&mut self, record: &mut Record) -> Result<u64, StoreError> {
        record.lsn = self.lsn + 1;
        record.archived = self.archived;
        let framed = record.encoded_len() as u64 + segment::FRAME_BYTES;
        if framed + NEXT_ROOM + segment::HEADER_BYTES > segment::SEGMENT_BYTES {
            return Err(StoreError::Backend(format!("journal: a record of {framed} bytes is too large")));
        }
        if self.end + self.pending.len() as u64 + framed + NEXT_ROOM > segment::SEGMENT_BYTES {
            // The `NEXT` record takes this LSN; the record takes the one after.
            self.roll()?;
            record.lsn = self.lsn + 1;
        }
        self.lsn = record.lsn;
        segment::frame(&record.encode_to_vec(), &mut self.pending);
        if self.pending.len() >= segment::MAX_GROUP_BYTES {
            self.write_pending()?;
        }
        Ok(self.segments[self.segments.len() - 1])
    }

    fn write_pending(&mut self) -> Result<(), StoreError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.file.write_all_at(&self.pending, self.end).map_err(io("writing"))?;
        self.end += self.pending.len() as u64;
        self.pending.clear();
        Ok(())
    }

    /// Ends the newest segment with a `NEXT` record and starts the next one. The new file is
    /// made (and synced) before anything says it exists.
    fn roll(&mut self) -> Result<(), StoreError> {
        let number = self.segments[self.segments.len() - 1] + 1;
        let file = segment::create(&self.dir, number, self.store).map_err(io("creating a segment"))?;
        self.lsn += 1;
        let next = Record { lsn: self.lsn, kind: NEXT, archived: self.archived, ..Record::default() };
        segment::frame(&next.encode_to_vec(), &mut self.pending);
        self.write_pending()?;
        let full = std::mem::replace(&mut self.file, file);
        self.unsynced.push(full);
        self.segments.push(number);
        self.end = segment::HEADER_BYTES;
        Ok(())
    }
}

/// This boot of the machine, as the kernel names it; empty where it does not.
fn boot_id() -> String {
    std::fs::read_to_string("/proc/sys/kernel/random/boot_id").map(|id| id.trim().to_owned()).unwrap_or_default()
}

/// Whether a torn end of the newest segment can be a crash's. A process that dies in the middle
/// of a write leaves the front of it and zeros; only a machine that stopped (a new boot since the
/// journal was opened) can leave a write's pieces in any order. A record that is all there and
/// does not check, on the boot that wrote it, was changed afterwards.
fn check_torn(torn: &segment::Torn, number: u64, written_on: &str) -> Result<(), StoreError> {
    let same_boot = !written_on.is_empty() && written_on == boot_id();
    if same_boot && !torn.partial {
        return Err(lost(format!(
            "the record at byte {} of segment {number} does not check, though it was written whole and the machine \
             has not restarted since",
            torn.at
        )));
    }
    Ok(())
}

/// The segment files in `dir`, by number.
fn segment_numbers(dir: &Path) -> Result<Vec<u64>, StoreError> {
    let entries = std::fs::read_dir(dir).map_err(|e| lost(format!("{} cannot be read: {e}", dir.display())))?;
    let mut numbers = Vec::new();
    for entry in entries {
        let entry = entry.map_err(io("listing the directory"))?;
        if let Some(number) = entry.file_name().to_str().and_then(segment::number_of) {
            numbers.push(number);
        }
    }
    numbers.sort_unstable();
    Ok(numbers)
}

/// The games as the records so far leave them.
#[derive(Default)]
struct Replay {
    lsn: u64,
    archived: u64,
    last_kind: Option<u32>,
    /// The boot the journal was last opened on.
    boot: String,
    games: HashMap<String, Live>,
}

impl Replay {
    fn apply(&mut self, segment: u64, record: Record, sealed: &HashSet<String>) -> Result<(), StoreError> {
        if self.lsn != 0 && record.lsn != self.lsn + 1 {
            return Err(lost(format!("record {} follows record {} in segment {segment}", record.lsn, self.lsn)));
        }
        self.lsn = record.lsn;
        self.archived = self.archived.max(record.archived);
        self.last_kind = Some(record.kind);
        match record.kind {
            APPEND | RELOCATED if sealed.contains(&record.game_id) => Ok(()),
            APPEND => self.append(segment, record),
            RELOCATED => {
                let game = Live { events: record.events, summary: record.summary.unwrap_or_default(), oldest: segment };
                self.games.insert(record.game_id, game);
                Ok(())
            }
            SEALED => {
                self.games.remove(&record.game_id);
                Ok(())
            }
            WITNESS | NEXT => Ok(()),
            BOOT => {
                self.boot = record.boot;
                Ok(())
            }
            other => Err(lost(format!("record {} is of an unknown kind {other}", record.lsn))),
        }
    }

    fn append(&mut self, segment: u64, record: Record) -> Result<(), StoreError> {
        let game =
            self.games.entry(record.game_id.clone()).or_insert_with(|| Live { oldest: segment, ..Live::default() });
        let next = game.events.len() as u64 + 1;
        if record.first_sequence != next {
            return Err(lost(format!(
                "record {} gives game {} events from {}, but it continues at {next}",
                record.lsn, record.game_id, record.first_sequence
            )));
        }
        game.events.extend(record.events);
        if let Some(summary) = record.summary {
            game.summary = summary;
        }
        Ok(())
    }
}
