//! Sealing finished games, listing through the index, and migrating a directory written in the
//! earlier layout; the sled store on a real directory, reopened.

use clack_proto::v1 as pb;
use clack_store::{Append, Cursor, EventStore, ListQuery, MemoryStore, SledStore, StoreError, TokenError};
use prost::Message;

/// An event with a payload, so that what is stored is more than a key.
fn event(game: &str, sequence: u64) -> pb::Event {
    let applied = pb::ActionApplied { seat: (sequence % 2) as u32, points: sequence as u32, action: None };
    pb::Event {
        game_id: game.into(),
        sequence,
        unix_millis: 1_700_000_000_000 + sequence as i64,
        payload: Some(pb::event::Payload::ActionApplied(applied)),
    }
}

fn events(game: &str, from: u64, to: u64) -> Vec<pb::Event> {
    (from..=to).map(|s| event(game, s)).collect()
}

fn summary(game: &str, status: pb::GameStatus, kind: pb::GameKind, created: i64) -> pb::GameSummary {
    pb::GameSummary {
        game_id: game.into(),
        kind: kind as i32,
        status: status as i32,
        created_unix_millis: created,
        ..Default::default()
    }
}

fn open(dir: &std::path::Path) -> SledStore {
    // sled lets go of a directory's lock a moment after its last handle is dropped.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match SledStore::open(dir) {
            Ok(store) => return store,
            Err(error) if std::time::Instant::now() > deadline => panic!("open: {error}"),
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
}

#[test]
fn a_finished_game_is_sealed_into_one_record_and_reads_as_before() {
    use pb::{GameKind::Straight, GameStatus::*};
    let dir = tempfile::tempdir().expect("dir");
    {
        let store = open(dir.path());
        store.append("g", 0, &events("g", 1, 3), &summary("g", Waiting, Straight, 5)).expect("create");
        store.append("g", 3, &events("g", 4, 9), &summary("g", Active, Straight, 5)).expect("play");
        let stats = store.stats().expect("stats");
        assert_eq!((stats.live_games, stats.live_events, stats.sealed_games), (1, 9, 0));
        store.append("g", 9, &events("g", 10, 12), &summary("g", Finished, Straight, 5)).expect("end");
        let stats = store.stats().expect("stats");
        assert_eq!((stats.live_games, stats.live_events, stats.sealed_games), (0, 0, 1), "{stats:?}");
        assert!(stats.problems.is_empty(), "{:?}", stats.problems);
        assert_eq!(store.read("g", 1).expect("read"), events("g", 1, 12));
        store.flush().expect("flush");
    }
    let store = open(dir.path());
    assert_eq!(store.read("g", 0).expect("read"), events("g", 1, 12), "from 0 is the whole game");
    assert_eq!(store.read("g", 7).expect("read"), events("g", 7, 12), "a watcher may start anywhere");
    assert!(store.read("g", 13).expect("read").is_empty());
    let summary_read = store.summary("g").expect("summary").expect("there");
    assert_eq!((summary_read.sequence, summary_read.status), (12, Finished as i32));
    assert_eq!(store.summaries().expect("all")[0].sequence, 12);
    assert_eq!(
        store.append("g", 12, &events("g", 13, 13), &summary("g", Finished, Straight, 5)),
        Err(StoreError::Sealed("g".into())),
        "a sealed log takes no more events"
    );
    assert!(store.stats().expect("stats").problems.is_empty());
}

#[test]
fn a_game_that_starts_and_ends_in_one_group_is_sealed_whole() {
    use pb::{GameKind::Streets, GameStatus::*};
    let dir = tempfile::tempdir().expect("dir");
    let store = open(dir.path());
    store.append("a", 0, &events("a", 1, 2), &summary("a", Active, Streets, 1)).expect("a starts");
    let append = |game: &str, expected: u64, last: u64, status| Append {
        game_id: game.into(),
        expected,
        events: events(game, expected + 1, last),
        summary: summary(game, status, Streets, 2),
    };
    let results = store.append_all(&[
        append("b", 0, 4, Active),
        append("a", 2, 5, Active),
        append("b", 4, 6, Finished),
        append("a", 5, 8, Finished),
    ]);
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    assert_eq!(store.read("b", 1).expect("b"), events("b", 1, 6), "events of the same group are sealed too");
    assert_eq!(store.read("a", 1).expect("a"), events("a", 1, 8), "with those already on disk");
    let stats = store.stats().expect("stats");
    assert_eq!((stats.sealed_games, stats.live_events), (2, 0));
    assert!(stats.problems.is_empty(), "{:?}", stats.problems);
}

/// A finished game is sealed at once and settles: the journal keeps it until a flush at least
/// `SETTLE_AFTER` (100 ms) later has flushed the archive. If the archive loses it before then
/// (sled had not written it out when the process stopped), opening seals it again from the
/// journal's copy.
#[test]
fn a_finished_game_settles_and_is_sealed_again_if_the_archive_lost_it() {
    use pb::{GameKind::Straight, GameStatus::*};
    let dir = tempfile::tempdir().expect("dir");
    {
        let store = open(dir.path());
        store.append("g", 0, &events("g", 1, 5), &summary("g", Active, Straight, 5)).expect("play");
        store.append("g", 5, &events("g", 6, 8), &summary("g", Finished, Straight, 5)).expect("end");
        store.flush().expect("flush");
        let stats = store.stats().expect("stats");
        assert_eq!((stats.live_games, stats.settling_games, stats.sealed_games), (0, 1, 1), "{stats:?}");
        assert!(stats.problems.is_empty(), "{:?}", stats.problems);
        let listed = store.list(&ListQuery { kind: 0, status: 0, after: None, limit: 10 }).expect("list");
        assert_eq!(listed.games.len(), 1, "listed once while settling");
        assert_eq!(store.summaries().expect("all").len(), 1);
        assert_eq!(store.read("g", 1).expect("read"), events("g", 1, 8));
        assert_eq!(
            store.append("g", 8, &events("g", 9, 9), &summary("g", Finished, Straight, 5)),
            Err(StoreError::Sealed("g".into())),
            "a settling game takes no more events"
        );
        // The archive loses the game, as if the process had stopped before sled wrote it out.
        let log = store.raw_log();
        let keys: Vec<Vec<u8>> = log.iter().keys().map(|k| k.expect("key").to_vec()).collect();
        for key in keys.iter().filter(|k| k.ends_with(b"g") && matches!(k[0], b's' | b'g' | b'i')) {
            log.remove(key).expect("remove");
        }
        log.flush().expect("flush");
        assert_eq!(store.stats().expect("stats").sealed_games, 0);
    }
    let store = open(dir.path());
    let stats = store.stats().expect("stats");
    assert_eq!((stats.live_games, stats.settling_games, stats.sealed_games), (0, 0, 1), "{stats:?}");
    assert!(stats.problems.is_empty(), "{:?}", stats.problems);
    assert_eq!(store.read("g", 1).expect("read"), events("g", 1, 8));
    assert_eq!(store.summary("g").expect("summary").map(|s| (s.sequence, s.status)), Some((8, Finished as i32)));
    // A later game settles in a flush 100 ms on, and is then in the archive alone.
    store.append("h", 0, &events("h", 1, 3), &summary("h", Finished, Straight, 6)).expect("whole game");
    store.flush().expect("flush");
    std::thread::sleep(std::time::Duration::from_millis(150));
    store.flush().expect("flush");
    let stats = store.stats().expect("stats");
    assert_eq!((stats.live_games, stats.settling_games, stats.sealed_games), (0, 0, 2), "{stats:?}");
    assert!(stats.problems.is_empty(), "{:?}", stats.problems);
    drop(store);
    let store = open(dir.path());
    assert_eq!(store.read("h", 1).expect("read"), events("h", 1, 3));
    assert!(store.stats().expect("stats").problems.is_empty());
}

/// Games of both kinds, all statuses, some created in the same millisecond.
fn fill_for_listing(store: &dyn EventStore) -> Vec<pb::GameSummary> {
    use pb::GameStatus::*;
    let mut all = Vec::new();
    for i in 0..40u64 {
        let kind = if i % 3 == 0 { pb::GameKind::Streets } else { pb::GameKind::Straight };
        let id = format!("game-{:02}", (i * 7) % 40);
        let created = 1000 + (i / 2) as i64;
        let mut s = pb::GameSummary { sequence: 1, ..summary(&id, Waiting, kind, created) };
        store.append(&id, 0, &events(&id, 1, 1), &s).expect("create");
        let status = [Waiting, Active, Finished][(i % 3) as usize];
        if status != Waiting {
            s.status = Active as i32;
            s.sequence = 2;
            store.append(&id, 1, &events(&id, 2, 2), &s).expect("start");
        }
        if status == Finished {
            s.status = Finished as i32;
            s.sequence = 3;
            store.append(&id, 2, &events(&id, 3, 3), &s).expect("end");
        }
        all.push(s);
    }
    all.sort_by(|a, b| (b.created_unix_millis, &b.game_id).cmp(&(a.created_unix_millis, &a.game_id)));
    all
}

/// Every filter, paged in small pages, gives exactly the games it wants in listing order.
fn listing_contract(store: &dyn EventStore) {
    let all = fill_for_listing(store);
    for kind in [0, 1, 2] {
        for status in [0, 1, 2, 3] {
            let wanted: Vec<&str> = all
                .iter()
                .filter(|s| (kind == 0 || s.kind == kind) && (status == 0 || s.status == status))
                .map(|s| s.game_id.as_str())
                .collect();
            let mut seen = Vec::new();
            let mut after = None;
            loop {
                let page = store.list(&ListQuery { kind, status, after, limit: 3 }).expect("page");
                assert!(page.games.len() <= 3);
                seen.extend(page.games.iter().map(|s| s.game_id.clone()));
                match page.next {
                    // Through the token, as a client would carry it.
                    Some(cursor) => {
                        let token = cursor.to_token(kind, status);
                        after = Some(Cursor::from_token(&token, kind, status).expect("own token"));
                    }
                    None => break,
                }
            }
            assert_eq!(seen, wanted, "kind {kind}, status {status}");
        }
    }
    let first = store.list(&ListQuery { kind: 0, status: 3, after: None, limit: 100 }).expect("finished");
    assert!(first.games.iter().all(|s| s.sequence == 3), "finished games list their last sequence");
}

#[test]
fn listing_pages_through_every_filter_on_both_backends() {
    listing_contract(&MemoryStore::new());
    let dir = tempfile::tempdir().expect("dir");
    listing_contract(&open(dir.path()));
    assert!(open_again_and_check(dir.path()).is_empty());
}

fn open_again_and_check(dir: &std::path::Path) -> Vec<String> {
    open(dir).stats().expect("stats").problems
}

#[test]
fn a_page_token_is_checked_before_it_is_used() {
    let cursor = Cursor { created_unix_millis: 1_764_500_000_000, game_id: "0193-abc".into() };
    let token = cursor.to_token(1, 3);
    assert_eq!(Cursor::from_token(&token, 1, 3), Ok(cursor));
    assert_eq!(Cursor::from_token(&token, 2, 3), Err(TokenError::OtherFilter));
    assert_eq!(Cursor::from_token(&token, 1, 0), Err(TokenError::OtherFilter));
    for bad in ["x", "p1", "p1zz", "0193-abc", &token[..token.len() - 2], &format!("{token}00")] {
        assert_eq!(Cursor::from_token(bad, 1, 3), Err(TokenError::Malformed), "{bad}");
    }
    let mut flipped = token.clone().into_bytes();
    flipped[10] = if flipped[10] == b'0' { b'1' } else { b'0' };
    let flipped = String::from_utf8(flipped).expect("ascii");
    assert_eq!(Cursor::from_token(&flipped, 1, 3), Err(TokenError::Malformed), "an edited token");
}

/// Writes two games the way the earlier layout did: full events under `e`, summaries under `g`.
fn write_layout_one(dir: &std::path::Path) {
    use pb::{GameKind::Straight, GameStatus::*};
    let db = sled::open(dir).expect("sled");
    let log = db.open_tree("log").expect("log");
    for (id, status, last) in [("old-live", Active, 4), ("old-done", Finished, 7)] {
        for event in events(id, 1, last) {
            let key = [b"e", id.as_bytes(), &[0], &event.sequence.to_be_bytes()].concat();
            log.insert(key, event.encode_to_vec()).expect("event");
        }
        let stored = summary(id, status, Straight, 9);
        log.insert([b"g", id.as_bytes()].concat(), stored.encode_to_vec()).expect("summary");
    }
    db.open_tree("records").expect("records").insert("token/old-live/0", "h").expect("record");
    db.flush().expect("flush");
}

/// Why opening `dir` is refused as an older layout, once sled has let go of the directory
/// (its background flusher holds the lock a moment after the last handle is dropped).
fn refused(dir: &std::path::Path) -> String {
    for _ in 0..250 {
        match SledStore::open(dir) {
            Err(StoreError::Corrupt(reason)) => return reason,
            _ => std::thread::sleep(std::time::Duration::from_millis(20)),
        }
    }
    panic!("{} was not refused as an older layout", dir.display())
}

/// Migrates `dir`, waiting for sled's lock as [`refused`] does.
fn migrate(dir: &std::path::Path) -> clack_store::Migrated {
    for _ in 0..250 {
        if let Ok(migrated) = SledStore::migrate(dir) {
            return migrated;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    SledStore::migrate(dir).expect("the migration")
}

#[test]
fn a_directory_in_the_per_event_layout_is_refused_then_migrated() {
    let dir = tempfile::tempdir().expect("dir");
    write_layout_one(dir.path());
    let refusal = refused(dir.path());
    assert!(refusal.contains("clack store migrate"), "{refusal}");
    let migrated = migrate(dir.path());
    assert_eq!((migrated.games, migrated.sealed, migrated.events, migrated.journaled), (2, 1, 11, 1));
    assert!(dir.path().join("journal").is_dir() && !dir.path().join("journal.migrating").exists());
    let store = open(dir.path());
    assert_eq!(store.read("old-live", 1).expect("live"), events("old-live", 1, 4));
    assert_eq!(store.read("old-done", 1).expect("sealed"), events("old-done", 1, 7));
    let stats = store.stats().expect("stats");
    assert!(stats.problems.is_empty(), "{:?}", stats.problems);
    assert_eq!((stats.live_events, stats.sealed_games), (4, 1));
    let listed = store.list(&ListQuery { kind: 0, status: 0, after: None, limit: 10 }).expect("list");
    assert_eq!(listed.games.len(), 2);
    assert_eq!(store.get("token/old-live/0").expect("record"), Some(b"h".to_vec()), "records are kept");
    store.append("old-live", 4, &events("old-live", 5, 5), &listed.games[0]).expect("play goes on");
    drop(store);
    let again = migrate(dir.path());
    assert!(again.already, "a second migration has nothing to do");
}

/// Writes a directory as layout 2 did, for one live game: its events under `e`, each without
/// game id and sequence (what the key says), its summary without its sequence, a record, and the
/// layout mark. (Its index entries are left out: the migration only removes them.)
fn write_layout_two(dir: &std::path::Path) {
    use pb::{GameKind::Straight, GameStatus::Active};
    let db = sled::open(dir).expect("sled");
    let log = db.open_tree("log").expect("log");
    for event in events("old-live", 1, 4) {
        let key = [b"e", b"old-live".as_slice(), &[0], &event.sequence.to_be_bytes()].concat();
        let value = pb::Event { game_id: String::new(), sequence: 0, ..event };
        log.insert(key, value.encode_to_vec()).expect("event");
    }
    log.insert(b"gold-live", summary("old-live", Active, Straight, 9).encode_to_vec()).expect("summary");
    log.insert(b"mlayout", &[2]).expect("layout");
    db.open_tree("records").expect("records").insert("token/old-live/0", "h").expect("record");
    db.flush().expect("flush");
}

/// A crash while a layout-2 directory moves to layout 3, at either of the two points where it
/// can stop half-way, leaves a directory that is either still layout 2 (and migrates again) or
/// layout 3 with its journal still to be moved into place (which opening does).
#[test]
fn a_migration_stopped_half_way_leaves_a_usable_directory() {
    // Stopped before the batch that moves the live games out of sled: the journal being built
    // is left behind, half-written, and the directory is still in layout 2.
    let dir = tempfile::tempdir().expect("dir");
    write_layout_two(dir.path());
    std::fs::create_dir(dir.path().join("journal.migrating")).expect("mkdir");
    std::fs::write(dir.path().join("journal.migrating/0000000000000000.seg"), b"half").expect("write");
    let refusal = refused(dir.path());
    assert!(refusal.contains("clack store migrate"), "{refusal}");
    let migrated = migrate(dir.path());
    assert_eq!(migrated.journaled, 1);
    let store = open(dir.path());
    assert_eq!(store.read("old-live", 1).expect("live"), events("old-live", 1, 4));
    drop(store);

    // Stopped after the batch, before the journal was moved into place.
    std::thread::sleep(std::time::Duration::from_millis(200));
    std::fs::rename(dir.path().join("journal"), dir.path().join("journal.migrating")).expect("rename");
    let store = open(dir.path());
    assert_eq!(store.read("old-live", 1).expect("live"), events("old-live", 1, 4));
    assert_eq!(store.get("token/old-live/0").expect("record"), Some(b"h".to_vec()), "records are kept");
    assert!(store.stats().expect("stats").problems.is_empty());
}
