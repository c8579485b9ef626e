//! Backups: everything a data directory holds, as one file, and a fresh directory made from one.
//!
//! The file is `CLACKBK1`, then sled's export (every tree: its kind and name, then its records,
//! each a list of byte strings) and the journal's live games as one more such tree, each piece
//! length-prefixed, then the SHA-256 of all that. The
//! copy is made on the store's writer thread (see `Durable::backup`), between two groups of
//! writes, so it is one moment of the store even while the server serves: no write runs while it
//! is taken. A restore checks the checksum before it writes anything, and only into a directory
//! that does not exist yet.

use std::path::Path;

use sha2::{Digest, Sha256};

use crate::StoreError;

const MAGIC: &[u8; 8] = b"CLACKBK1";
/// A tree's kind and name follow.
const TREE: u8 = 1;
/// A record (a list of byte strings) follows.
const RECORD: u8 = 2;

fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// The tree of a backup that holds the live games of the journal, one record each: the game id,
/// its summary, then its events. It is not one of sled's.
const LIVE_KIND: &[u8] = b"clack";
const LIVE_NAME: &[u8] = b"journal-live";

/// A live game as a backup takes it: id, summary, events.
pub(crate) type LiveGame<'a> = (&'a [u8], &'a [u8], &'a [Vec<u8>]);

/// Everything in `db` and the journal's `live` games, as a backup file's bytes.
pub(crate) fn encode<'a>(db: &sled::Db, live: impl Iterator<Item = LiveGame<'a>>) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    let live: Vec<Vec<Vec<u8>>> =
        live.map(|(id, summary, events)| [vec![id.to_vec(), summary.to_vec()], events.to_vec()].concat()).collect();
    let trees = db
        .export()
        .into_iter()
        .map(|(kind, name, records)| (kind, name, Box::new(records) as Box<dyn Iterator<Item = Vec<Vec<u8>>>>));
    let journal = std::iter::once((
        LIVE_KIND.to_vec(),
        LIVE_NAME.to_vec(),
        Box::new(live.into_iter()) as Box<dyn Iterator<Item = Vec<Vec<u8>>>>,
    ));
    for (kind, name, records) in trees.chain(journal) {
        out.push(TREE);
        put(&mut out, &kind);
        put(&mut out, &name);
        for record in records {
            out.push(RECORD);
            out.extend_from_slice(&(record.len() as u64).to_le_bytes());
            for field in record {
                put(&mut out, &field);
            }
        }
    }
    let digest = Sha256::digest(&out);
    out.extend_from_slice(&digest);
    out
}

type Tree = (Vec<u8>, Vec<u8>, Vec<Vec<Vec<u8>>>);

/// Reads bytes from the front of a backup.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], StoreError> {
        if self.0.len() < n {
            return Err(StoreError::Corrupt("the backup ends early".into()));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn number(&mut self) -> Result<usize, StoreError> {
        let bytes = self.take(8)?;
        let n = u64::from_le_bytes(bytes.try_into().map_err(|_| StoreError::Corrupt("a short length".into()))?);
        usize::try_from(n).map_err(|_| StoreError::Corrupt("a length too large".into()))
    }

    fn bytes(&mut self) -> Result<Vec<u8>, StoreError> {
        let n = self.number()?;
        Ok(self.take(n)?.to_vec())
    }
}

/// The trees of a backup file, after its checksum is checked.
fn decode(file: &[u8]) -> Result<Vec<Tree>, StoreError> {
    let bad = |what: &str| StoreError::Corrupt(format!("not a Clack backup: {what}"));
    if file.len() < MAGIC.len() + 32 || &file[..MAGIC.len()] != MAGIC {
        return Err(bad("it does not start with CLACKBK1"));
    }
    let (body, digest) = file.split_at(file.len() - 32);
    if Sha256::digest(body).as_slice() != digest {
        return Err(bad("its checksum does not match (the file is damaged or cut short)"));
    }
    let mut reader = Reader(&body[MAGIC.len()..]);
    let mut trees: Vec<Tree> = Vec::new();
    while let Ok(tag) = reader.take(1).map(|t| t[0]) {
        match (tag, trees.last_mut()) {
            (TREE, _) => trees.push((reader.bytes()?, reader.bytes()?, Vec::new())),
            (RECORD, Some(tree)) => {
                let fields = reader.number()?;
                let record = (0..fields).map(|_| reader.bytes()).collect::<Result<Vec<_>, _>>()?;
                tree.2.push(record);
            }
            _ => return Err(bad("a record outside a tree")),
        }
    }
    Ok(trees)
}

/// Makes a new data directory at `path` from a backup file's bytes; returns how many records it
/// holds. `path` must not exist.
pub fn restore(file: &[u8], path: &Path) -> Result<usize, StoreError> {
    if path.exists() {
        return Err(StoreError::Backend(format!("{} exists; restore into a new directory", path.display())));
    }
    let (live, trees): (Vec<Tree>, Vec<Tree>) =
        decode(file)?.into_iter().partition(|(kind, name, _)| kind == LIVE_KIND && name == LIVE_NAME);
    let records = trees.iter().chain(&live).map(|t| t.2.len()).sum();
    let db = crate::sled_store::open_db(path)?;
    db.import(trees.into_iter().map(|(kind, name, records)| (kind, name, records.into_iter())).collect());
    db.flush()?;
    // A backup of layout 3 holds the live games: they go into a new journal, which starts at
    // segment 0. (An older backup restores to its own layout, which `clack store migrate` moves on.)
    let log = db.open_tree("log")?;
    if log.get(crate::sled_store::LAYOUT_KEY)?.as_deref() == Some(&[crate::sled_store::LAYOUT]) {
        crate::sled_store::restart_journal(path, &log, live.into_iter().flat_map(|t| t.2))?;
        db.flush()?;
    }
    Ok(records)
}
