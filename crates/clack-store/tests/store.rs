//! Both backends against the same contract; the sled one on a real directory, reopened.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use clack_proto::v1 as pb;
use clack_store::{Append, Durability, Durable, EventStore, FlushHook, MemoryStore, SledStore, StoreError};

fn event(game: &str, sequence: u64) -> pb::Event {
    pb::Event { game_id: game.into(), sequence, unix_millis: sequence as i64, payload: None }
}

fn summary(game: &str, sequence: u64) -> pb::GameSummary {
    pb::GameSummary { game_id: game.into(), sequence, ..Default::default() }
}

fn contract(store: &dyn EventStore) {
    store.append("a", 0, &[event("a", 1), event("a", 2)], &summary("a", 2)).expect("new game");
    store.append("b", 0, &[event("b", 1)], &summary("b", 1)).expect("another");
    assert_eq!(
        store.append("a", 1, &[event("a", 2)], &summary("a", 2)),
        Err(StoreError::Conflict { expected: 1, actual: 2 }),
        "a stale expected sequence is rejected, never merged"
    );
    assert_eq!(store.append("a", 2, &[event("a", 4)], &summary("a", 4)), Err(StoreError::Gap(3)));
    assert_eq!(store.append("a", 2, &[event("b", 3)], &summary("a", 3)), Err(StoreError::Gap(3)));
    store.append("a", 2, &[event("a", 3)], &summary("a", 3)).expect("continues");
    let read: Vec<u64> = store.read("a", 0).expect("read").iter().map(|e| e.sequence).collect();
    assert_eq!(read, vec![1, 2, 3]);
    assert_eq!(store.read("a", 3).expect("read").len(), 1);
    assert!(store.read("zz", 0).expect("read").is_empty());
    assert_eq!(store.summary("a").expect("summary").map(|s| s.sequence), Some(3));
    let ids: Vec<String> = store.summaries().expect("list").into_iter().map(|s| s.game_id).collect();
    assert_eq!(ids, vec!["b", "a"], "newest (largest id) first");
    store.put("token/a/0", b"x").expect("put");
    store.put("token/a/1", b"y").expect("put");
    store.put("bot/1", b"z").expect("put");
    assert_eq!(store.get("token/a/0").expect("get"), Some(b"x".to_vec()));
    assert_eq!(store.scan("token/").expect("scan").len(), 2);
    store.flush().expect("flush");
    group_of_appends(store);
}

/// Appends of several games in one write: each lands or fails on its own.
fn group_of_appends(store: &dyn EventStore) {
    let append = |game: &str, expected: u64| Append {
        game_id: game.into(),
        expected,
        events: vec![event(game, expected + 1)],
        summary: summary(game, expected + 1),
    };
    let results = store.append_all(&[append("c", 0), append("a", 1), append("d", 0), append("c", 1)]);
    assert_eq!(
        results,
        vec![Ok(()), Err(StoreError::Conflict { expected: 1, actual: 3 }), Ok(()), Ok(())],
        "a stale append fails alone, and a game may continue within the group it started in"
    );
    assert_eq!(store.read("c", 0).expect("read").len(), 2);
    assert_eq!(store.read("a", 0).expect("read").len(), 3, "the stale append left nothing behind");
    assert_eq!(store.summary("d").expect("summary").map(|s| s.sequence), Some(1));
}

#[test]
fn the_memory_store_keeps_the_contract() {
    contract(&MemoryStore::new());
}

#[test]
fn the_sled_store_keeps_the_contract_and_survives_reopening() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let store = SledStore::open(dir.path()).expect("open");
        contract(&store);
    }
    let store = reopen(dir.path());
    assert_eq!(store.read("a", 0).expect("read").len(), 3);
    assert_eq!(store.summaries().expect("list").len(), 4);
    // What appends are checked against is rebuilt from the disk, not from memory.
    assert_eq!(
        store.append("a", 2, &[event("a", 3)], &summary("a", 3)),
        Err(StoreError::Conflict { expected: 2, actual: 3 })
    );
    store.append("a", 3, &[event("a", 4)], &summary("a", 4)).expect("continues after reopening");
    assert_eq!(store.summary("a").expect("summary").map(|s| s.sequence), Some(4));
}

#[test]
fn a_directory_in_an_older_layout_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    {
        let db = sled::open(dir.path()).expect("sled");
        db.open_tree("events").expect("tree").insert("x", "y").expect("insert");
        db.flush().expect("flush");
    }
    let error = std::iter::repeat_with(|| SledStore::open(dir.path()))
        .take(250)
        .find_map(|opened| match opened {
            Err(StoreError::Corrupt(reason)) => Some(reason),
            _ => {
                std::thread::sleep(std::time::Duration::from_millis(20));
                None
            }
        })
        .expect("refused as an older layout");
    assert!(error.contains("earlier Clack"), "{error}");
}

/// Opens the directory again. sled's background flusher lets go of the directory's lock a
/// moment after the last handle is dropped, so an immediate reopen in the same process may
/// have to wait for it.
fn reopen(path: &std::path::Path) -> SledStore {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match SledStore::open(path) {
            Ok(store) => return store,
            Err(error) if std::time::Instant::now() > deadline => panic!("reopen: {error}"),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batched_appends_share_flushes_and_sync_appends_flush_each() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The real store, with each flush counted and slowed down so that appends pile up behind it.
    let count = Arc::new(AtomicUsize::new(0));
    let counted = count.clone();
    let hook = Box::new(move || {
        counted.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(5));
    });
    let store = Arc::new(FlushHook { inner: SledStore::open(dir.path()).expect("open"), hook });
    let mut flushes = Vec::new();
    for durability in [Durability::Batched, Durability::Sync] {
        let before = count.load(Ordering::SeqCst);
        let durable = Durable::new(store.clone(), durability).expect("writer");
        let tasks: Vec<_> = (0..200)
            .map(|i| {
                let durable = durable.clone();
                let game = format!("{durability:?}-{i:04}");
                tokio::spawn(async move { durable.append(&game, 0, vec![event(&game, 1)], summary(&game, 1)).await })
            })
            .collect();
        for task in tasks {
            task.await.expect("task").expect("every append is acknowledged");
        }
        flushes.push(count.load(Ordering::SeqCst) - before);
    }
    assert!(flushes[0] <= 10, "200 concurrent batched appends took {} flushes", flushes[0]);
    assert_eq!(flushes[1], 200, "a sync append has a flush of its own");
    assert_eq!(store.summaries().expect("list").len(), 400);
    let acknowledged = store.read("Batched-0199", 1).expect("read");
    assert_eq!(acknowledged.len(), 1, "an acknowledged append is in the store");
}
