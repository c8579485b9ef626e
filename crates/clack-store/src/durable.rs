//! Durability for async callers: when an append is acknowledged, and who pays for the flush.
//!
//! Every blocking store call runs on tokio's blocking pool. Under `sync`, each append flushes
//! before it returns. Under `batched`, appends hand their flush to one flusher task: everything
//! that asks while a flush is running waits for the next one, which covers all of them (group
//! commit). Either way, an acknowledged append is on disk.

use std::sync::Arc;

use clack_proto::v1 as pb;
use tokio::sync::{mpsc, oneshot};

use crate::{EventStore, StoreError};

/// When an append counts as done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// Flush before acknowledging each append.
    Sync,
    /// Concurrent appends share one flush.
    Batched,
}

type Waiter = oneshot::Sender<Result<(), StoreError>>;

/// A store with a durability policy, for use from async code. Cheap to clone.
#[derive(Clone)]
pub struct Durable {
    store: Arc<dyn EventStore>,
    durability: Durability,
    flusher: Option<mpsc::UnboundedSender<Waiter>>,
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

impl Durable {
    /// Wraps a store. With `Batched`, starts the flusher task: call from inside a tokio runtime.
    pub fn new(store: Arc<dyn EventStore>, durability: Durability) -> Durable {
        let flusher = (durability == Durability::Batched).then(|| {
            let (sender, receiver) = mpsc::unbounded_channel();
            tokio::spawn(run_flusher(store.clone(), receiver));
            sender
        });
        Durable { store, durability, flusher }
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
        let store = self.store.clone();
        let id = game_id.to_owned();
        blocking(move || store.append(&id, expected, &events, &summary)).await?;
        self.flush().await
    }

    /// Returns once everything written so far is durable.
    pub async fn flush(&self) -> Result<(), StoreError> {
        match &self.flusher {
            Some(flusher) => {
                let (done, wait) = oneshot::channel();
                flusher.send(done).map_err(|_| StoreError::Backend("the flusher has stopped".into()))?;
                wait.await.map_err(|_| StoreError::Backend("the flusher has stopped".into()))?
            }
            None => {
                let store = self.store.clone();
                blocking(move || store.flush()).await
            }
        }
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

    /// Stores a record durably.
    pub async fn put(&self, key: &str, value: Vec<u8>) -> Result<(), StoreError> {
        let store = self.store.clone();
        let key = key.to_owned();
        blocking(move || store.put(&key, &value)).await?;
        self.flush().await
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

/// Flushes for everyone who asked since the last flush began.
async fn run_flusher(store: Arc<dyn EventStore>, mut requests: mpsc::UnboundedReceiver<Waiter>) {
    while let Some(first) = requests.recv().await {
        let mut waiters = vec![first];
        while let Ok(more) = requests.try_recv() {
            waiters.push(more);
        }
        let store = store.clone();
        let result = blocking(move || store.flush()).await;
        tracing::trace!(batch = waiters.len(), ok = result.is_ok(), "group flush");
        for waiter in waiters {
            let _ = waiter.send(result.clone());
        }
    }
}
