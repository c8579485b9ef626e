//! The ladder's boards against the games themselves, over real gRPC: the team board orders two
//! versions as a duplicate team match between them does. How a real ladder's intervals narrow
//! with its games is a measurement, not a test: `cargo bench -p clack --bench ladder_intervals`.

mod support;

use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_server::ladder::Configuration;
use support::ladder::{board_when, ladder_server, upload};
use support::{owned, straight_options};
use tonic::transport::Channel;

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
/// every pair of the anchor and the three bundled Straight bots whose duplicate team match (200
/// games) is decided (its interval excludes one half), the board, after 300 games each, puts
/// the match's winner above its loser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[allow(clippy::print_stdout)] // the figures docs/ladder.md quotes
async fn the_team_board_orders_versions_as_duplicate_team_matches_between_them_do() {
    let dir = tempfile::tempdir().expect("dir");
    let anchor = "engine:fast";
    let server = ladder_server(dir.path(), Configuration::Straight4Teams, anchor).await;
    let mut bots = server.bots().await;
    let scripts = [
        ("greedy", "bots/straight-greedy.rhai"),
        ("random", "bots/straight-random.rhai"),
        ("defender", "bots/straight-defender.rhai"),
    ];
    let token = upload(&mut bots, &scripts).await;
    let board =
        board_when(&mut bots, "straight-4-teams", |b| b.entries.len() == 4 && b.entries.iter().all(|e| e.games >= 300))
            .await;
    let rating = |id: &str| board.entries.iter().find(|e| e.bot_id == id).expect("on the board").rating;
    let mut decided = 0;
    let names = [anchor, "greedy", "random", "defender"];
    let pairs = names.iter().enumerate().flat_map(|(i, a)| names[i + 1..].iter().map(move |b| (*a, *b)));
    for (a, b) in pairs {
        let (share, ci95) = team_match(&mut bots, &token, a, b, 200).await;
        println!("{a} against {b}: {share:.3} ± {ci95:.3}; board {:.0} and {:.0}", rating(a), rating(b));
        if (share - 0.5).abs() > ci95 {
            decided += 1;
            assert_eq!(share > 0.5, rating(a) > rating(b), "{a} {share:.2} ± {ci95:.2} against {b}; board {board:?}");
        }
    }
    assert!(decided >= 4, "too few decided matches to check the board's order");
    server.stop().await;
}
