//! A store that runs a hook before each flush, for tests that need to count flushes or hold
//! one open (group commit, reads during a slow flush). It changes nothing else.

use clack_proto::v1 as pb;

use crate::{Append, EventStore, ListQuery, Page, StoreError};

/// `inner`, with `hook` called before every flush.
pub struct FlushHook<S> {
    pub inner: S,
    pub hook: Box<dyn Fn() + Send + Sync>,
}

impl<S> std::fmt::Debug for FlushHook<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlushHook").finish_non_exhaustive()
    }
}

impl<S: EventStore> EventStore for FlushHook<S> {
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
        self.inner.append_all(appends)
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
        self.inner.put(key, value)
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.inner.get(key)
    }

    fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        self.inner.scan(prefix)
    }

    fn flush(&self) -> Result<(), StoreError> {
        (self.hook)();
        self.inner.flush()
    }

    fn disk_bytes(&self) -> Option<u64> {
        self.inner.disk_bytes()
    }

    fn backup(&self) -> Result<Vec<u8>, StoreError> {
        self.inner.backup()
    }
}
