//! How a real ladder's intervals narrow with its games: six versions (the three bundled Straight
//! bots and three test bots, two of the six playing alike) and the anchor `engine:default` on a
//! real straight-2 ladder over real gRPC, run until every version has 300 games; for each
//! version, its interval at 300 games against the one-over-root-n prediction from its interval
//! at its first 50. Prints the table docs/ladder.md shows, and fails if a ratio passes 1.5 (the
//! bar). That also checks that every version has met the anchor or a version that has: a group
//! of versions with no path of games to the anchor keeps the prior's width on the anchored
//! scale however many games it plays among itself, so its ratio would be far above 1.5.
//!
//! It plays about two thousand games with an engine seat, a few minutes in a release build and
//! far longer in the debug build the test suite uses, so it is a measurement run by hand, not a
//! test: `cargo bench -p clack --bench ladder_intervals`.
#![allow(clippy::print_stdout, clippy::unwrap_used)] // the table is the point

#[path = "../tests/support/mod.rs"]
mod support;

use clack_proto::v1 as pb;
use clack_server::ladder::Configuration;
use support::ladder::{board_when, ladder_server, upload};

const SCRIPTS: [(&str, &str); 6] = [
    ("greedy", "bots/straight-greedy.rhai"),
    ("random", "bots/straight-random.rhai"),
    ("defender", "bots/straight-defender.rhai"),
    ("greedy-twin", "tests/ladder/bots/straight-greedy-twin.rhai"),
    ("miser", "tests/ladder/bots/straight-miser.rhai"),
    ("coin", "tests/ladder/bots/straight-coin.rhai"),
];

fn main() {
    // `cargo bench` passes `--bench`; nothing here takes arguments.
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let worst = runtime.block_on(measure());
    assert!(worst <= 1.5, "an interval narrowed slower than 1.5 times one over root n: {worst:.2}");
}

/// Plays the ladder, prints the table, and returns the worst ratio.
async fn measure() -> f64 {
    let dir = tempfile::tempdir().unwrap();
    let server = ladder_server(dir.path(), Configuration::Straight2, "engine:default").await;
    let mut bots = server.bots().await;
    upload(&mut bots, &SCRIPTS).await;
    let board =
        board_when(&mut bots, "straight-2", |b| b.entries.len() == 7 && b.entries.iter().all(|e| e.games >= 300)).await;
    println!("| version | rating | games | ±95% at 50+ games | ±95% at 300+ | 1/√n prediction | ratio |");
    println!("|---|---|---|---|---|---|---|");
    let mut worst: f64 = 0.0;
    for entry in board.entries.iter().filter(|e| !e.anchor) {
        let request = pb::GetRatingHistoryRequest {
            configuration: "straight-2".into(),
            bot_id: entry.bot_id.clone(),
            version: entry.version.clone(),
        };
        let points = bots.get_rating_history(request).await.unwrap().into_inner().points;
        let early = points.iter().find(|p| p.games >= 50).unwrap();
        let late = points.iter().find(|p| p.games >= 300).unwrap();
        let predicted = early.ci95 * (early.games as f64 / late.games as f64).sqrt();
        let ratio = late.ci95 / predicted;
        worst = worst.max(ratio);
        println!(
            "| {} | {:.0} | {} | {:.0} ({}) | {:.0} ({}) | {:.0} | {:.2} |",
            entry.bot_id, entry.rating, entry.games, early.ci95, early.games, late.ci95, late.games, predicted, ratio
        );
    }
    println!("deals: {}; worst ratio {worst:.2}", board.deals);
    server.stop().await;
    worst
}
