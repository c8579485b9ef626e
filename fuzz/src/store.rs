//! The sled store's reader under arbitrary bytes stored under a game's keys.
//!
//! The input is framed (see [`crate::frames`]); each frame is one record: a byte choosing the key
//! (a live event of layout 2 with the sequence in the next 8 bytes, which the archive must ignore,
//! the sealed log, the summary, or an index entry), then the value. The records are written
//! straight into the archive's `log` tree (sled) for a fresh game id, below the store's API, as a
//! damaged disk or a bug could leave them. (The journal of live games checks its own records with
//! CRCs; `crates/clack/tests/damaged_store.rs` damages it on disk.) Then
//! everything that reads a game runs: `read` from the start and from a later sequence,
//! `summary`, `list`, `stats`, an append, and the replay the server does on load. Each ends in a
//! value or a `StoreError`/`ReplayError`, never a panic, and what `read` returns is numbered
//! from where it was asked, in order, under the game's id.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_store::{EventStore, ListQuery, SledStore};

/// The key kinds a frame's first byte chooses from, as the store lays them out
/// (crates/clack-store/src/sled_store.rs).
pub const KINDS: usize = 4;

fn store() -> &'static SledStore {
    static STORE: OnceLock<SledStore> = OnceLock::new();
    STORE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("clack-fuzz-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        SledStore::open(&dir).expect("a store in the temporary directory")
    })
}

/// The key of a record of `kind` for `game`, with `rest` for the sequence or index key.
pub fn key(kind: u8, game: &str, rest: &[u8]) -> (Vec<u8>, usize) {
    match usize::from(kind) % KINDS {
        0 => {
            let mut sequence = [0u8; 8];
            let n = rest.len().min(8);
            sequence[8 - n..].copy_from_slice(&rest[..n]);
            ([b"e", game.as_bytes(), &[0], &sequence].concat(), n)
        }
        1 => ([b"s", game.as_bytes()].concat(), 0),
        2 => ([b"g", game.as_bytes()].concat(), 0),
        _ => {
            // A length byte, then that much of the index key before the game id.
            let n = rest.first().map_or(0, |&n| usize::from(n).min(rest.len() - 1));
            let part = rest.get(1..1 + n).unwrap_or_default();
            ([b"i", part, game.as_bytes()].concat(), (1 + n).min(rest.len()))
        }
    }
}

pub fn run(data: &[u8]) {
    static GAMES: AtomicU64 = AtomicU64::new(0);
    let store = store();
    let tree = store.raw_log();
    let game = format!("f{}", GAMES.fetch_add(1, Ordering::Relaxed));
    tree.clear().expect("clear");
    let mut later = 1;
    for frame in crate::frames(data) {
        let Some((&kind, rest)) = frame.split_first() else { continue };
        let (key, used) = key(kind, &game, rest);
        if usize::from(kind) % KINDS == 0 {
            later = later.max(u64::from_be_bytes(key[key.len() - 8..].try_into().expect("8 bytes")));
        }
        tree.insert(key, &rest[used..]).expect("insert");
    }
    if let Ok(events) = store.read(&game, 1) {
        check_numbered(&events, &game);
        if let Ok(log) = GameLog::replay(&events) {
            let _ = log.status();
        }
    }
    if let Ok(events) = store.read(&game, later) {
        check_numbered(&events, &game);
    }
    let summary = store.summary(&game).ok().flatten();
    let _ = store.list(&ListQuery { kind: 0, status: 0, after: None, limit: 10 });
    let _ = store.stats();
    let expected = summary.as_ref().map_or(0, |s| s.sequence);
    let event = pb::Event {
        game_id: game.clone(),
        sequence: expected.wrapping_add(1),
        unix_millis: 1,
        payload: Some(pb::event::Payload::BotFaulted(pb::BotFaulted::default())),
    };
    let _ = store.append(&game, expected, &[event], &summary.unwrap_or_default());
}

/// What `read` returns is in sequence order, under the game's id, whatever was stored.
fn check_numbered(events: &[pb::Event], game: &str) {
    for pair in events.windows(2) {
        assert!(pair[0].sequence < pair[1].sequence, "events out of order");
    }
    assert!(events.iter().all(|e| e.game_id == game), "an event under another game's id");
}
