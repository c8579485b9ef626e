//! One segment file of the journal: a header, then framed records, in a file given its whole
//! size when it is made.
//!
//! A file made whole-size up front (sparse: the zeros take no disk) is what lets a reader tell
//! damage from a crash. A crash can only tear the last group written, at the end of the records
//! of the newest segment: the bytes after the last whole record are zeros, or the remains of
//! that one group (at most [`MAX_GROUP_BYTES`]) and zeros after them. A file that is shorter than
//! its size was cut short or emptied; a record that does not check in the middle, or bytes
//! after the records that no crash could have written, were overwritten.
//!
//! Header (32 bytes): `CLACKJ01`, the segment's number and the store's id (each a little-endian
//! u64), the CRC-32 of those 24 bytes, four zero bytes. A record: its length and the CRC-32 of
//! its bytes (little-endian u32 each), then the bytes. A length of 0 never starts a record, so
//! the zeros after the last one end the list.
//!
//! This module knows files and bytes; what a record means is the journal's.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Every segment's size. Smaller segments are removed sooner (the journal of a busy server is a
/// few of them); larger ones relocate games less often. 8 MiB holds about 150 groups of 500
/// games' moves, so a two-player game spans two segments or so.
pub(crate) const SEGMENT_BYTES: u64 = 8 << 20;
/// The most one write of records may be: a longer group is written in pieces of this size, so a
/// torn write never leaves more than this behind the last whole record.
pub(crate) const MAX_GROUP_BYTES: usize = 1 << 20;
pub(crate) const HEADER_BYTES: u64 = 32;
/// A record's framing: its length and checksum.
pub(crate) const FRAME_BYTES: u64 = 8;
const MAGIC: &[u8; 8] = b"CLACKJ01";

/// The file name of segment `number`.
pub(crate) fn file_name(number: u64) -> String {
    format!("{number:016x}.seg")
}

/// The segment number a file name gives, if it is a segment's.
pub(crate) fn number_of(name: &str) -> Option<u64> {
    let hex = name.strip_suffix(".seg")?;
    (hex.len() == 16).then(|| u64::from_str_radix(hex, 16).ok()).flatten()
}

pub(crate) fn path(dir: &Path, number: u64) -> PathBuf {
    dir.join(file_name(number))
}

fn header(number: u64, store: u64) -> [u8; HEADER_BYTES as usize] {
    let mut header = [0; HEADER_BYTES as usize];
    header[..8].copy_from_slice(MAGIC);
    header[8..16].copy_from_slice(&number.to_le_bytes());
    header[16..24].copy_from_slice(&store.to_le_bytes());
    let crc = crc32fast::hash(&header[..24]);
    header[24..28].copy_from_slice(&crc.to_le_bytes());
    header
}

/// Makes segment `number` in `dir`: its header, its whole size, both on disk before it is used
/// (the directory too, so the file survives a crash).
pub(crate) fn create(dir: &Path, number: u64, store: u64) -> std::io::Result<File> {
    let mut file = OpenOptions::new().read(true).write(true).create_new(true).open(path(dir, number))?;
    file.write_all(&header(number, store))?;
    file.set_len(SEGMENT_BYTES)?;
    file.sync_all()?;
    sync_dir(dir)?;
    Ok(file)
}

/// Makes a directory's entries (a file made, renamed or removed) durable.
pub(crate) fn sync_dir(dir: &Path) -> std::io::Result<()> {
    File::open(dir)?.sync_all()
}

/// A record's bytes as written: framing, then the record.
pub(crate) fn frame(record: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(&(record.len() as u32).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(record).to_le_bytes());
    out.extend_from_slice(record);
}

/// What a segment holds.
#[derive(Debug)]
pub(crate) struct Scanned {
    pub records: Vec<Vec<u8>>,
    /// Where the next record goes: just after the last whole one.
    pub end: u64,
    /// After the last whole record, something that is not one.
    pub torn: Option<Torn>,
}

/// What follows the last whole record, when something does.
#[derive(Debug)]
pub(crate) struct Torn {
    pub at: u64,
    /// The bytes there end in zeros before the record they start would: the front part of a
    /// write that stopped (a process killed in the middle of a write leaves exactly this). A
    /// record whose bytes are all there and do not check was changed after it was written.
    pub partial: bool,
}

/// Reads segment `number` and checks it whole. `last` says whether it is the newest segment,
/// the only one a crash can have left a torn write in. The error says what is wrong, for a
/// person.
pub(crate) fn scan(dir: &Path, number: u64, store: u64, last: bool) -> Result<Scanned, String> {
    let file = path(dir, number);
    let bytes = std::fs::read(&file).map_err(|e| format!("{} cannot be read: {e}", file.display()))?;
    let name = file_name(number);
    if bytes.len() as u64 != SEGMENT_BYTES {
        return Err(format!("{name} is {} bytes, not {SEGMENT_BYTES}: it was cut short or emptied", bytes.len()));
    }
    if bytes[..HEADER_BYTES as usize] != header(number, store) {
        return Err(format!("{name} has a damaged header, or belongs to another store"));
    }
    let mut records = Vec::new();
    let mut at = HEADER_BYTES as usize;
    let torn = loop {
        let Some(frame) = bytes.get(at..at + FRAME_BYTES as usize) else { break None };
        let len = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]) as usize;
        let crc = u32::from_le_bytes([frame[4], frame[5], frame[6], frame[7]]);
        if len == 0 && crc == 0 {
            break None;
        }
        let start = at + FRAME_BYTES as usize;
        match bytes.get(start..start + len) {
            Some(record) if crc32fast::hash(record) == crc => records.push(record.to_vec()),
            _ => {
                let written = bytes.iter().rposition(|b| *b != 0).map_or(0, |i| i + 1);
                break Some(Torn { at: at as u64, partial: start.saturating_add(len) > written });
            }
        }
        at = start + len;
    };
    if torn.is_some() && !last {
        return Err(format!("{name}: the record at byte {at} does not check, and newer segments follow it"));
    }
    // After the records: zeros, or (in the newest segment) what one torn group left, then zeros.
    let allowed = if torn.is_some() { MAX_GROUP_BYTES } else { 0 };
    let rest = bytes.get(at.saturating_add(allowed)..).unwrap_or_default();
    if let Some(stray) = rest.iter().position(|b| *b != 0) {
        let offset = at + allowed + stray;
        return Err(format!(
            "{name}: bytes at offset {offset} were written after its last record ({at}), which no crash does"
        ));
    }
    Ok(Scanned { records, end: at as u64, torn })
}

/// Zeros what a torn write may have left after `end` in the newest segment, before anything is
/// written there: a later group shorter than the torn one would otherwise leave its remains
/// behind records that are whole, where no crash could have put them.
pub(crate) fn clear_after(file: &File, end: u64) -> std::io::Result<()> {
    use std::os::unix::fs::FileExt;
    let len = (SEGMENT_BYTES.saturating_sub(end)).min(MAX_GROUP_BYTES as u64) as usize;
    file.write_all_at(&vec![0; len], end)?;
    file.sync_data()
}
