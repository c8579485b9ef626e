//! `clack store fill` killed with SIGKILL while games are being played and sealed, again and
//! again on the same directory: after each kill every game is wholly live or wholly sealed,
//! every log reads back whole and replays, and every game is in the listing index once.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_store::{EventStore, ListQuery, SledStore};

/// Starts a fill of many small appends (so that at any moment some games are live and some are
/// being sealed) and kills it `millis` after it reports its `reports`-th forty games finished: on a busy machine a fixed delay might come before any game ends.
fn fill_and_kill(data: &std::path::Path, seed: u64, reports: usize, millis: u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["store", "fill", "--game", "straight", "--players", "2", "--games", "400", "--distinct", "8"])
        .args(["--moves", "1", "--concurrent", "12", "--every", "40", "--seed", &seed.to_string(), "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("clack store fill starts");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut written = stdout.lines().map(|line| line.expect("a line")).filter(|line| line.starts_with("soak: "));
    for _ in 0..reports {
        written.next().expect("the fill reports progress");
    }
    std::thread::sleep(Duration::from_millis(millis));
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
}

fn open(data: &std::path::Path) -> SledStore {
    // The killed process's lock on the directory goes with it, but give the kernel a moment.
    for _ in 0..250 {
        if let Ok(store) = SledStore::open(data) {
            return store;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    SledStore::open(data).expect("the directory opens after a kill")
}

/// Every game reads back from 1 without a gap and replays; a finished one reads sealed whole.
fn check_every_game(store: &SledStore) -> (usize, usize) {
    let (mut live, mut finished) = (0, 0);
    let mut after = None;
    loop {
        let page = store.list(&ListQuery { kind: 0, status: 0, after, limit: 100 }).expect("list");
        for summary in &page.games {
            let events = store.read(&summary.game_id, 1).expect("read");
            let sequences: Vec<u64> = events.iter().map(|e| e.sequence).collect();
            assert_eq!(sequences, (1..=events.len() as u64).collect::<Vec<_>>(), "{}", summary.game_id);
            assert_eq!(summary.sequence, events.len() as u64, "{}: summary and log agree", summary.game_id);
            let game = GameLog::replay(&events).expect("the log replays");
            let over = game.status() == clack_log::Status::Finished;
            assert_eq!(over, summary.status == pb::GameStatus::Finished as i32, "{}", summary.game_id);
            if over { finished += 1 } else { live += 1 }
        }
        match page.next {
            Some(next) => after = Some(next),
            None => return (live, finished),
        }
    }
}

#[test]
fn a_fill_killed_at_any_moment_leaves_every_game_wholly_live_or_wholly_sealed() {
    let dir = tempfile::tempdir().expect("dir");
    let mut finished_before = 0;
    for (round, (reports, millis)) in [(1, 0), (2, 40), (1, 90), (3, 150)].into_iter().enumerate() {
        fill_and_kill(dir.path(), round as u64, reports, millis);
        let store = open(dir.path());
        let stats = store.stats().expect("stats");
        assert!(stats.problems.is_empty(), "after kill {round}: {:?}", stats.problems);
        let (live, finished) = check_every_game(&store);
        assert_eq!(stats.sealed_games as usize, finished, "every finished game is sealed");
        assert_eq!(stats.games as usize, live + finished, "every game is listed once");
        assert!(finished > finished_before, "kill {round} came after some games were sealed");
        assert!(live > 0, "kill {round} came while games were under way");
        finished_before = finished;
    }
}
