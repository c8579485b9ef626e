//! The in-memory backend, for tests whose subject is not storage.

use std::collections::BTreeMap;
use std::sync::Mutex;

use clack_proto::v1 as pb;

use crate::listing::{self, Cursor, ListQuery, Page};
use crate::{Append, EventStore, StoreError, check_continues};

#[derive(Debug, Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    logs: BTreeMap<String, Vec<pb::Event>>,
    summaries: BTreeMap<String, pb::GameSummary>,
    records: BTreeMap<String, Vec<u8>>,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a half-appended log: appends are checked
        // before anything is written. So a poisoned lock is still consistent.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Inner {
    fn append(&mut self, append: &Append) -> Result<(), StoreError> {
        check_continues(append)?;
        let log = self.logs.entry(append.game_id.clone()).or_default();
        let actual = log.len() as u64;
        if actual != append.expected {
            return Err(StoreError::Conflict { expected: append.expected, actual });
        }
        log.extend_from_slice(&append.events);
        self.summaries.insert(append.game_id.clone(), append.summary.clone());
        Ok(())
    }
}

impl EventStore for MemoryStore {
    fn append_all(&self, appends: &[Append]) -> Vec<Result<(), StoreError>> {
        let mut inner = self.lock();
        appends.iter().map(|append| inner.append(append)).collect()
    }

    fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>, StoreError> {
        let inner = self.lock();
        let log = inner.logs.get(game_id).map_or(&[][..], Vec::as_slice);
        Ok(log.iter().filter(|e| e.sequence >= from).cloned().collect())
    }

    fn summary(&self, game_id: &str) -> Result<Option<pb::GameSummary>, StoreError> {
        Ok(self.lock().summaries.get(game_id).cloned())
    }

    fn summaries(&self) -> Result<Vec<pb::GameSummary>, StoreError> {
        Ok(self.lock().summaries.values().rev().cloned().collect())
    }

    fn list(&self, query: &ListQuery) -> Result<Page, StoreError> {
        let inner = self.lock();
        let mut games: Vec<&pb::GameSummary> =
            inner.summaries.values().filter(|s| listing::wanted(query, s) && listing::after_cursor(query, s)).collect();
        games.sort_by(|a, b| (b.created_unix_millis, &b.game_id).cmp(&(a.created_unix_millis, &a.game_id)));
        let more = games.len() > query.limit;
        games.truncate(query.limit);
        let next = if more { games.last().map(|s| Cursor::of(s)) } else { None };
        Ok(Page { games: games.into_iter().cloned().collect(), next })
    }

    fn put(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.lock().records.insert(key.to_owned(), value.to_vec());
        Ok(())
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.lock().records.get(key).cloned())
    }

    fn scan(&self, prefix: &str) -> Result<Vec<(String, Vec<u8>)>, StoreError> {
        let inner = self.lock();
        Ok(inner
            .records
            .range(prefix.to_owned()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect())
    }

    fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }
}
