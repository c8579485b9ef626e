//! The ladder's boards against the games themselves, over real gRPC: the team board orders two
//! versions as a duplicate team match between them does, and (ignored by default, for it plays
//! about two thousand games) a real six-version ladder's intervals narrow as one over the square
//! root of the games.

mod support;

use std::sync::Arc;

use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_server::ladder::{Configuration, LadderSettings};
use clack_store::Durability;
use support::{Server, owned, straight_options};
use tonic::transport::Channel;

fn source(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).expect("script")
}

/// A server in `dir` whose ladder plays `configuration` alone, with all of the pool it may.
async fn ladder_server(dir: &std::path::Path, configuration: Configuration, anchor: &str) -> Server {
    let store =
        clack_store::Durable::new(Arc::new(clack_store::SledStore::open(dir).expect("store")), Durability::Batched)
            .expect("writer");
    let library = clack_server::BotLibrary::open(store.clone(), clack_bots::Limits::default()).await.expect("bots");
    let host: Arc<dyn clack_server::bots::BotHost> = library.clone();
    let hub = clack_server::Hub::open(store, Some(host), clack_server::Limits::default()).await.expect("hub");
    let ladder = LadderSettings { share: 1.0, anchor: anchor.into(), configurations: vec![configuration] };
    // A 200-game match is one RunMatch call: in a debug build it takes longer than the default
    // ten seconds a request may run.
    let request_timeout = std::time::Duration::from_secs(900);
    let config =
        clack_server::ServeConfig { ladder: Some(ladder), request_timeout, ..clack_server::ServeConfig::default() };
    Server::start_with(hub, Some(library), config).await
}

/// Uploads Straight bots `(name, script)` under one owner; returns the owner's token.
async fn upload(bots: &mut BotServiceClient<Channel>, scripts: &[(&str, &str)]) -> String {
    let mut token = String::new();
    for (name, path) in scripts {
        let upload =
            pb::UploadBotRequest { name: (*name).into(), kind: pb::GameKind::Straight as i32, source: source(path) };
        let request = if token.is_empty() { tonic::Request::new(upload) } else { owned(upload, &token) };
        let uploaded = bots.upload_bot(request).await.expect("upload").into_inner();
        if token.is_empty() {
            token = uploaded.owner_token;
        }
    }
    token
}

async fn board(bots: &mut BotServiceClient<Channel>, configuration: &str) -> pb::GetLeaderboardResponse {
    let request =
        pb::GetLeaderboardRequest { configuration: configuration.into(), page_size: 100, page_token: String::new() };
    bots.get_leaderboard(request).await.expect("leaderboard").into_inner()
}

/// Polls a board until `done` says it is; no deadline but the harness's, since how fast the
/// ladder plays depends on the machine.
async fn board_when(
    bots: &mut BotServiceClient<Channel>,
    configuration: &str,
    done: impl Fn(&pb::GetLeaderboardResponse) -> bool,
) -> pb::GetLeaderboardResponse {
    loop {
        let board = board(bots, configuration).await;
        if done(&board) {
            return board;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// `a`'s side's share of the games of a duplicate team match of `a` (seats 0 and 2) against `b`
/// (seats 1 and 3), and the half-width of its 95% interval.
async fn team_match(bots: &mut BotServiceClient<Channel>, token: &str, a: &str, b: &str, games: u32) -> (f64, f64) {
    let mut options = straight_options(4, 250);
    if let Some(pb::game_options::Rules::Straight(straight)) = options.rules.as_mut() {
        straight.teams = Some(true);
    }
    let entrant = |bot_id: &str| pb::MatchEntrant { bot_id: bot_id.into(), version: None };
    let entrants = vec![entrant(a), entrant(b), entrant(a), entrant(b)];
    let request = pb::RunMatchRequest { options: Some(options), entrants, games, seed: Some(37) };
    let results = bots.run_match(owned(request, token)).await.expect("match").into_inner().results;
    // A side's win is shared by its two seats, so each seat's win share is half its side's, and
    // the two seats of a side move together deal by deal: the side's share and interval are
    // twice a seat's.
    assert_eq!(results[0].win_share, results[2].win_share, "partners share every result");
    (2.0 * results[0].win_share, 2.0 * results[0].win_ci95)
}

/// On `straight-4-teams` a side is what is rated: a version takes both partner seats. So for
/// every pair of the anchor and two bundled bots whose duplicate team match (200 games) is
/// decided (its interval excludes one half), the board, after 300 games each, puts the match's
/// winner above its loser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::print_stdout)] // the figures docs/ladder.md quotes
async fn the_team_board_orders_versions_as_duplicate_team_matches_between_them_do() {
    let dir = tempfile::tempdir().expect("dir");
    let anchor = "engine:fast";
    let server = ladder_server(dir.path(), Configuration::Straight4Teams, anchor).await;
    let mut bots = server.bots().await;
    let scripts = [("greedy", "bots/straight-greedy.rhai"), ("random", "bots/straight-random.rhai")];
    let token = upload(&mut bots, &scripts).await;
    let board =
        board_when(&mut bots, "straight-4-teams", |b| b.entries.len() == 3 && b.entries.iter().all(|e| e.games >= 300))
            .await;
    let rating = |id: &str| board.entries.iter().find(|e| e.bot_id == id).expect("on the board").rating;
    let mut decided = 0;
    for (a, b) in [(anchor, "greedy"), (anchor, "random"), ("greedy", "random")] {
        let (share, ci95) = team_match(&mut bots, &token, a, b, 200).await;
        println!("{a} against {b}: {share:.3} ± {ci95:.3}; board {:.0} and {:.0}", rating(a), rating(b));
        if (share - 0.5).abs() > ci95 {
            decided += 1;
            assert_eq!(share > 0.5, rating(a) > rating(b), "{a} {share:.2} ± {ci95:.2} against {b}; board {board:?}");
        }
    }
    assert!(decided >= 2, "too few decided matches to check the board's order");
    server.stop().await;
}

/// Six versions (the three bundled Straight bots and three test bots, two of the six playing
/// alike) and the anchor on a real straight-2 ladder, run until every version has 300 games:
/// each version's interval at 300 games against the one-over-root-n prediction from its
/// interval at its first 50. Prints the table docs/ladder.md shows. Run it with
/// `cargo test --release -p clack --test ladder -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "plays about two thousand games"]
#[allow(clippy::print_stdout)] // the table is the point
async fn a_real_ladders_intervals_narrow_as_one_over_root_n() {
    let dir = tempfile::tempdir().expect("dir");
    let anchor = "engine:default";
    let server = ladder_server(dir.path(), Configuration::Straight2, anchor).await;
    let mut bots = server.bots().await;
    let scripts = [
        ("greedy", "bots/straight-greedy.rhai"),
        ("random", "bots/straight-random.rhai"),
        ("defender", "bots/straight-defender.rhai"),
        ("greedy-twin", "tests/ladder/bots/straight-greedy-twin.rhai"),
        ("miser", "tests/ladder/bots/straight-miser.rhai"),
        ("coin", "tests/ladder/bots/straight-coin.rhai"),
    ];
    upload(&mut bots, &scripts).await;
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
        let points = bots.get_rating_history(request).await.expect("history").into_inner().points;
        let early = points.iter().find(|p| p.games >= 50).expect("50 games");
        let late = points.iter().find(|p| p.games >= 300).expect("300 games");
        let predicted = early.ci95 * (early.games as f64 / late.games as f64).sqrt();
        let ratio = late.ci95 / predicted;
        worst = worst.max(ratio);
        println!(
            "| {} | {:.0} | {} | {:.0} ({}) | {:.0} ({}) | {:.0} | {:.2} |",
            entry.bot_id, entry.rating, entry.games, early.ci95, early.games, late.ci95, late.games, predicted, ratio
        );
    }
    println!("deals: {}", board.deals);
    assert!(worst <= 1.5, "an interval narrowed slower than 1.5 times one over root n: {worst:.2}");
    server.stop().await;
}
