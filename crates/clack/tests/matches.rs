//! A match's games over real gRPC: `RunMatch` stores every game it plays as an ordinary finished
//! game, lists them in its reply, and each one then reads, replays, verifies and exports like any
//! other game, belongs to whoever ran the match, and is still there after a restart.

mod support;

use std::collections::HashMap;
use std::path::Path;

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_store::Durability;
use support::{Server, owned, straight_options};
use tonic::Code;

fn source(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).expect("script")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_stores_its_games_and_each_replays_and_verifies() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    for (name, path) in [("greedy", "bots/straight-greedy.rhai"), ("random", "bots/straight-random.rhai")] {
        let upload =
            pb::UploadBotRequest { name: name.into(), kind: pb::GameKind::Straight as i32, source: source(path) };
        bots.upload_bot(upload).await.expect("upload");
    }
    let entrants = vec![
        pb::MatchEntrant { bot_id: "greedy".into(), version: None },
        pb::MatchEntrant { bot_id: "random".into(), version: None },
    ];
    let request = pb::RunMatchRequest { options: Some(straight_options(2, 100)), entrants, games: 4, seed: Some(7) };
    let report = bots.run_match(request).await.expect("match").into_inner();
    assert_eq!(report.games, 4);
    assert_eq!(report.match_games.len(), 4, "every game of the match is listed");
    assert!(!report.owner_token.is_empty(), "an anonymous runner gets the owner token of the games");

    let mut replay = server.replay().await;
    let mut games = server.games().await;
    let mut wins: HashMap<String, u32> = HashMap::new();
    for (i, game) in report.match_games.iter().enumerate() {
        assert_eq!(game.status, pb::GameStatus::Finished as i32, "game {i} is over");
        // Seats rotate by one from game to game: entrant (seat + i) mod 2 sits at seat `seat`.
        let seated: Vec<&str> =
            game.seats.iter().map(|s| s.bot.as_ref().expect("a bot seat").bot_id.as_str()).collect();
        let expected = if i % 2 == 0 { ["greedy", "random"] } else { ["random", "greedy"] };
        assert_eq!(seated, expected, "game {i}'s seats");
        for &winner in &game.winners {
            *wins.entry(seated[winner as usize].to_owned()).or_default() += 1;
        }

        let id = game.game_id.clone();
        assert!(id.starts_with("main_"), "a match game has an id of this shard: {id}");
        let verified = replay.verify(pb::VerifyRequest { game_id: id.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "game {i} verifies: {}", verified.detail);
        assert_eq!(verified.events, game.sequence, "the whole log was checked");
        let log = replay.get_log(pb::GetLogRequest { game_id: id.clone() }).await.expect("log").into_inner().events;
        assert_eq!(log.len() as u64, game.sequence);
        let Some(Payload::GameCreated(created)) = &log[0].payload else { panic!("a game starts with GameCreated") };
        // Duplicate deals: the two games of one rotation of the seats share a seed.
        assert_eq!(created.seed, Some(7 + i as u64 / 2), "game {i} is dealt from the match's seed plus its deal");
        assert!(matches!(log.last().and_then(|e| e.payload.as_ref()), Some(Payload::GameEnded(_))));
        let at = pb::GetStateAtRequest { game_id: id.clone(), sequence: game.sequence / 2 };
        let middle = replay.get_state_at(at).await.expect("state at").into_inner().view.expect("view");
        assert_eq!(middle.sequence, game.sequence / 2);
        let mut export = replay.export(pb::ExportRequest { game_id: id.clone() }).await.expect("export").into_inner();
        let mut lines = 0;
        while export.message().await.expect("line").is_some() {
            lines += 1;
        }
        assert_eq!(lines, game.sequence, "the export has every event");
    }
    // The standings count the games the way the stored games say they went.
    for result in &report.results {
        assert_eq!(result.wins, wins.get(&result.bot_id).copied().unwrap_or(0), "{}'s wins", result.bot_id);
    }

    // Listed with the other finished games, newest first.
    let listed = games
        .list_games(pb::ListGamesRequest { status: pb::GameStatus::Finished as i32, ..Default::default() })
        .await
        .expect("list")
        .into_inner()
        .games;
    let ids: Vec<&str> = listed.iter().map(|g| g.game_id.as_str()).collect();
    let mut played: Vec<&str> = report.match_games.iter().map(|g| g.game_id.as_str()).collect();
    played.reverse();
    assert_eq!(ids, played, "the lobby lists the match's games");

    // They belong to whoever ran the match: a stranger is refused, the owner is told the game is over.
    let first = report.match_games[0].game_id.clone();
    let stranger = games
        .cancel_game(owned(pb::CancelGameRequest { game_id: first.clone() }, "not-the-token"))
        .await
        .expect_err("a stranger");
    assert_eq!(stranger.code(), Code::PermissionDenied, "{}", stranger.message());
    let owner = games
        .cancel_game(owned(pb::CancelGameRequest { game_id: first.clone() }, &report.owner_token))
        .await
        .expect_err("a finished game");
    assert_eq!(owner.code(), Code::FailedPrecondition, "{}", owner.message());
    server.stop().await;

    // After a restart the games are still there, finished, and verify; none came back to life.
    let server = Server::restart(dir.path()).await;
    let mut replay = server.replay().await;
    for game in &report.match_games {
        let verified =
            replay.verify(pb::VerifyRequest { game_id: game.game_id.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{}", verified.detail);
    }
    let mut games = server.games().await;
    let active = pb::ListGamesRequest { status: pb::GameStatus::Active as i32, ..Default::default() };
    assert!(games.list_games(active).await.expect("list").into_inner().games.is_empty(), "no game is live");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_match_stores_no_game() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let upload = pb::UploadBotRequest {
        name: "greedy".into(),
        kind: pb::GameKind::Straight as i32,
        source: source("bots/straight-greedy.rhai"),
    };
    bots.upload_bot(upload).await.expect("upload");
    let entrant = pb::MatchEntrant { bot_id: "greedy".into(), version: None };
    let unknown = pb::MatchEntrant { bot_id: "nobody".into(), version: None };
    let request = pb::RunMatchRequest {
        options: Some(straight_options(2, 100)),
        entrants: vec![entrant, unknown],
        games: 3,
        seed: None,
    };
    let refused = bots.run_match(request).await.expect_err("an unknown entrant");
    assert_eq!(refused.code(), Code::NotFound, "{}", refused.message());
    assert!(refused.message().contains("entrants[1]"), "{}", refused.message());
    let mut games = server.games().await;
    let listed = games.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    assert!(listed.games.is_empty(), "no game was stored");
    server.stop().await;
}

/// Engine players enter matches like bots (`engine:<level>`, no upload), are listed in the
/// results and in the games' seats, never fault, and keep no statistics in the library; a level
/// that does not exist is refused, naming the entrant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_players_enter_matches() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let upload = pb::UploadBotRequest {
        name: "greedy".into(),
        kind: pb::GameKind::Straight as i32,
        source: source("bots/straight-greedy.rhai"),
    };
    bots.upload_bot(upload).await.expect("upload");
    let entrants = vec![
        pb::MatchEntrant { bot_id: "engine:fast".into(), version: None },
        pb::MatchEntrant { bot_id: "greedy".into(), version: None },
    ];
    let request = pb::RunMatchRequest {
        options: Some(straight_options(2, 60)),
        entrants: entrants.clone(),
        games: 2,
        seed: Some(3),
    };
    let report = bots.run_match(request).await.expect("match").into_inner();
    let engine = report.results.iter().find(|r| r.bot_id == "engine:fast").expect("the engine's result");
    assert_eq!(engine.faults, 0);
    assert_eq!(engine.version, "1");
    for game in &report.match_games {
        let seated: Vec<&str> =
            game.seats.iter().map(|s| s.bot.as_ref().expect("a bot seat").bot_id.as_str()).collect();
        assert!(seated.contains(&"engine:fast"), "{seated:?}");
    }
    let listed = bots.list_bots(pb::ListBotsRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed.bots.len(), 1, "the engine is not an uploaded bot");

    let mut wrong = entrants;
    wrong[0].bot_id = "engine:grandmaster".into();
    let request = pb::RunMatchRequest { options: Some(straight_options(2, 60)), entrants: wrong, games: 2, seed: None };
    let refused = bots.run_match(request).await.expect_err("no such level");
    assert_eq!(refused.code(), Code::NotFound);
    assert!(refused.message().contains("entrants[0]"), "{}", refused.message());
    server.stop().await;
}
