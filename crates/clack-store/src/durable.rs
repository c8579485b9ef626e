//! Durability for async callers: when a write is acknowledged, and who pays for the flush.
//!
//! Every write (appends, records, flushes) goes to one writer thread, in the order it was asked.
//! Under `sync`, the writer takes one write at a time and flushes after each. Under `batched`,
//! it takes everything that has queued up while it was busy, writes all the appends as one
//! group ([`EventStore::append_all`]) and flushes once for all of them (group commit). Either
//! way, an acknowledged write is on disk, and a busy server pays for fewer, larger flushes.
//!
//! One thread, rather than a task on tokio's blocking pool per write, because a hand-off per
//! write to a pool of threads costs more than the write itself once hundreds of games move at
//! once. Reads still run on the blocking pool: they do not need ordering.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use tokio::sync::{mpsc, oneshot};

use crate::{Append, EventStore, ListQuery, Page, StoreError};

/// When a write counts as done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Flush before acknowledging each write.
    Sync,
    /// Writes that queue up together share one flush.
    Batched,
}

/// The most writes one group takes, so that a flood of them still gets acknowledged in steps.
const MAX_GROUP: usize = 512;

type Done = oneshot::Sender<Result<(), StoreError>>;

/// Told what the writer did, for metrics. It runs on the writer thread, so it must only count
/// (no IO, no waiting); the store itself knows nothing of how the figures are kept.
pub trait StoreObserver: Send + Sync + 'static {
    /// An append is on disk: `waited` is how long its caller waited, queue, write and flush.
    fn appended(&self, append: &Append, waited: Duration);
    /// The writer flushed one group of `writes` writes; the flush itself took `took`.
    fn flushed(&self, writes: usize, took: Duration);
}

type Observer = Arc<OnceLock<Arc<dyn StoreObserver>>>;

/// What the writer thread is asked to do.
enum Write {
    /// An append and when it was asked for.
    Append(Append, Instant, Done),
    Put {
        key: String,
        value: Vec<u8>,
        done: Done,
    },
    Flush(Done),
    /// A backup, taken after the writes of its group are flushed.
    Backup(oneshot::Sender<Result<Vec<u8>, StoreError>>),
}

/// A store with a durability policy, for use from async code. Cheap to clone; the writer
/// thread stops when the last clone is dropped.
#[derive(Clone)]
pub struct Durable {
    store: Arc<dyn EventStore>,
    durability: Durability,
    writer: mpsc::UnboundedSender<Write>,
    observer: Observer,
}

impl std::fmt::Debug for Durable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Durable").field("durability", &self.durability).finish_non_exhaustive()
    }
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f).await.map_err(|e| StoreError::Backend(format!("store task failed: {e}")))?
}

fn writer_gone() -> StoreError {
    StoreError::Backend("the store's writer has stopped".into())
}

impl Durable {
    /// Wraps a store and starts its writer thread.
    pub fn new(store: Arc<dyn EventStore>, durability: Durability) -> Result<Durable, StoreError> {
        let (writer, requests) = mpsc::unbounded_channel();
        let backend = store.clone();
        let observer = Observer::default();
        let watching = observer.clone();
        std::thread::Builder::new()
            .name("clack-store-writer".into())
            .spawn(move || write_loop(backend.as_ref(), durability, &watching, requests))
            .map_err(|e| StoreError::Backend(format!("cannot start the store's writer: {e}")))?;
        Ok(Durable { store, durability, writer, observer })
    }

    /// Installs the one observer of this store's writes; false if one was already installed.
    pub fn observe(&self, observer: Arc<dyn StoreObserver>) -> bool {
        self.observer.set(observer).is_ok()
    }

    /// The store's size on disk, if the backend knows it.
    pub fn disk_bytes(&self) -> Option<u64> {
        self.store.disk_bytes()
    }

    pub fn durability(&self) -> Durability {
        self.durability
    }

    /// Appends and returns once the events are durable.
    pub async fn append(
        &self,
        game_id: &str,
        expected: u64,
        events: Vec<pb::Event>,
        summary: pb::GameSummary,
    ) -> Result<(), StoreError> {
        let append = Append { game_id: game_id.to_owned(), expected, events, summary };
        self.write(|done| Write::Append(append, Instant::now(), done)).await
    }

    /// A consistent copy of everything stored (a backup file's bytes), taken on the writer
    /// thread between two groups of writes, while the server goes on serving.
    pub async fn backup(&self) -> Result<Vec<u8>, StoreError> {
        let (done, wait) = oneshot::channel();
        self.writer.send(Write::Backup(done)).map_err(|_| writer_gone())?;
        wait.await.map_err(|_| writer_gone())?
    }

    /// Returns once everything written so far is durable.
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.write(Write::Flush).await
    }

    async fn write(&self, write: impl FnOnce(Done) -> Write) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.writer.send(write(done)).map_err(|_| writer_gone())?;
        wait.await.map_err(|_| writer_gone())?
    }

    pub async fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        let store = self.store.clone();
        let id = game_id.to_owned();
        blocking(move || store.read(&id, from)).await
    }

    pub async fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        let store = self.store.clone();
        let id = game_id.to_owned();
        blocking(move || store.summary(&id)).await
    }

    pub async fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError> {
        let store = self.store.clone();
        blocking(move || store.summaries()).await
    }

    pub async fn list(&self, query: ListQuery) -> Result<Page, StoreError> {
        let store = self.store.clone();
        blocking(move || store.list(&query)).await
    }

    /// Stores a record durably.
    pub async fn put(&self, key: &str, value: Vec<u8>) -> Result<(), StoreError> {
        let key = key.to_owned();
        self.write(|done| Write::Put { key, value, done }).await
    }

    pub async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let store = self.store.clone();
        let key = key.to_owned();
        blocking(move || store.get(&key)).await
    }

    pub async fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let store = self.store.clone();
        let prefix = prefix.to_owned();
        blocking(move || store.scan(&prefix)).await
    }
}

/// The writer thread: takes a group of writes (one under `sync`), does them, flushes, answers.
fn write_loop(
    store: &dyn EventStore,
    durability: Durability,
    observer: &Observer,
    mut requests: mpsc::UnboundedReceiver<Write>,
) {
    while let Some(first) = requests.blocking_recv() {
        let mut group = vec![first];
        while durability == Durability::Batched && group.len() < MAX_GROUP {
            match requests.try_recv() {
                Ok(write) => group.push(write),
                Err(_) => break,
            }
        }
        write_group(store, observer.get().map(Arc::as_ref), group);
    }
}

/// Where a write's answer comes from once the group is flushed.
enum Answer {
    /// The result of the group's `append_all` at this index.
    Append(usize),
    Ready(Result<(), StoreError>),
}

fn write_group(store: &dyn EventStore, observer: Option<&dyn StoreObserver>, group: Vec<Write>) {
    let size = group.len();
    let mut appends = Vec::new();
    let mut asked = Vec::new();
    let mut waiting = Vec::with_capacity(size);
    let mut backups = Vec::new();
    for write in group {
        match write {
            Write::Append(append, at, done) => {
                waiting.push((done, Answer::Append(appends.len())));
                appends.push(append);
                asked.push(at);
            }
            Write::Put { key, value, done } => waiting.push((done, Answer::Ready(store.put(&key, &value)))),
            Write::Flush(done) => waiting.push((done, Answer::Ready(Ok(())))),
            Write::Backup(done) => backups.push(done),
        }
    }
    let appended = if appends.is_empty() { Vec::new() } else { store.append_all(&appends) };
    let flush_started = Instant::now();
    let flushed = store.flush();
    tracing::trace!(writes = size, appends = appends.len(), flushed = flushed.is_ok(), "group written");
    if let (Some(observer), true) = (observer, flushed.is_ok()) {
        observer.flushed(size, flush_started.elapsed());
        for ((append, at), result) in appends.iter().zip(&asked).zip(&appended) {
            if result.is_ok() {
                observer.appended(append, at.elapsed());
            }
        }
    }
    for (done, answer) in waiting {
        let result = match answer {
            Answer::Append(i) => appended.get(i).cloned().unwrap_or_else(|| Err(writer_gone())),
            Answer::Ready(result) => result,
        };
        // A caller that gave up waiting is no error.
        let _ = done.send(result.and_then(|()| flushed.clone()));
    }
    for done in backups {
        let _ = done.send(flushed.clone().and_then(|()| store.backup()));
    }
}
