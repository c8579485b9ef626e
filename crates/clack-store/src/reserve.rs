//! Writes refused before the disk is full, so that the database never meets a full disk.
//!
//! sled does not recover from a failed write in the same process: after an I/O error it answers
//! every later call, reads included, with that error until it is opened again. So the store keeps
//! a reserve: before each group of writes it asks the filesystem how much space is left, and
//! below `min_free` bytes it refuses the writes with [`StoreError::Full`], without touching sled.
//! Reads go on, and once space is freed the next write goes through. What was acknowledged is on
//! disk already; a refused write was never acknowledged.
//!
//! Flushes are never refused: they make durable what was written while there was room.

use std::path::PathBuf;

use clack_proto::v1 as pb;

use crate::listing::{ListQuery, Page};
use crate::{Append, EventStore, StoreError};

/// `inner`, refusing writes while the filesystem holding `path` has less than `min_free` bytes
/// free.
#[derive(Debug)]
pub struct Reserve<S> {
    inner: S,
    path: PathBuf,
    min_free: u64,
}

impl<S: EventStore> Reserve<S> {
    pub fn new(inner: S, path: impl Into<PathBuf>, min_free: u64) -> Reserve<S> {
        Reserve { inner, path: path.into(), min_free }
    }

    fn room(&self) -> Result<(), StoreError> {
        // If the filesystem cannot say, the write goes ahead: sled reports a real failure.
        match fs2::available_space(&self.path) {
            Ok(free) if free < self.min_free => Err(StoreError::Full(format!(
                "{} has {free} bytes free, below the reserve of {} bytes",
                self.path.display(),
                self.min_free
            ))),
            _ => Ok(()),
        }
    }
}

impl<S: EventStore> EventStore for Reserve<S> {
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
        match self.room() {
            Ok(()) => self.inner.append_all(appends),
            Err(full) => appends.iter().map(|_| Err(full.clone())).collect(),
        }
    }

    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        self.inner.read(game_id, from)
    }

    fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        self.inner.summary(game_id)
    }

    fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError> {
        self.inner.summaries()
    }

    fn list(&self, query: &ListQuery) -> Result<Page, StoreError> {
        self.inner.list(query)
    }

    fn put(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.room()?;
        self.inner.put(key, value)
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }

    fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        self.inner.scan(prefix)
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.inner.flush()
    }

    fn disk_bytes(&self) -> Option<u64> {
        self.inner.disk_bytes()
    }

    fn backup(&self) -> Result<Vec<u8>, StoreError> {
        self.inner.backup()
    }
}
