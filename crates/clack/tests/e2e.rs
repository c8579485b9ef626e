//! End-to-end over a real socket: full games of both kinds from a tonic client, replay of the
//! result, auth and validation statuses, hidden information, racing clients, and a watch stream
//! dropped and resumed.

mod support;

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_store::Durability;
use support::{Server, authed, new_game, play_to_end, spectate, straight_options, streets_options};
use tokio_stream::StreamExt;
use tonic::Code;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_games_of_both_kinds_play_to_the_end_and_replay() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let mut replay = server.replay().await;
    for (options, seed) in [(straight_options(3, 100), 1), (streets_options(3), 2)] {
        let (game, tokens) = new_game(&mut client, options, seed).await;
        let moves = play_to_end(&mut client, &game, &tokens).await;
        assert!(moves > 10);
        let view = spectate(&mut client, &game).await;
        assert_eq!(view.status, pb::GameStatus::Finished as i32);
        assert!(!view.winners.is_empty());
        let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{}", verified.detail);
        let log = replay.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect("log").into_inner().events;
        assert_eq!(log.len() as u64, view.sequence);
        assert!(matches!(log.last().and_then(|e| e.payload.as_ref()), Some(Payload::GameEnded(_))));
        let mut export = replay.export(pb::ExportRequest { game_id: game.clone() }).await.expect("export").into_inner();
        let mut lines = 0;
        while let Some(line) = export.next().await {
            let event = clack_log::json::from_line(&line.expect("line").json_line).expect("a line is an event");
            assert_eq!(event, log[lines]);
            lines += 1;
        }
        assert_eq!(lines, log.len());
        let middle = replay
            .get_state_at(pb::GetStateAtRequest { game_id: game.clone(), sequence: view.sequence / 2 })
            .await
            .expect("state at")
            .into_inner()
            .view
            .expect("view");
        assert_eq!(middle.sequence, view.sequence / 2);
        assert_eq!(middle.hands.len(), 3, "a finished game's replay shows every hand");
        let printed = std::process::Command::new(env!("CARGO_BIN_EXE_clack"))
            .args(["replay", &game, "--addr", &format!("http://{}", server.addr)])
            .output()
            .expect("clack replay runs");
        let text = String::from_utf8_lossy(&printed.stdout);
        assert!(printed.status.success(), "{}", String::from_utf8_lossy(&printed.stderr));
        assert!(text.contains("game over (played_out)") && text.contains("points)"), "{text}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seats_need_their_own_tokens() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 250), 3).await;
    let legal = |seat: u32| pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(seat) };
    let status = client.list_legal_actions(legal(0)).await.expect_err("no token");
    assert_eq!(status.code(), Code::Unauthenticated, "{status:?}");
    let status = client.list_legal_actions(authed(legal(0), &tokens[1])).await.expect_err("seat 1's token");
    assert_eq!(status.code(), Code::PermissionDenied, "{status:?}");
    let status = client.list_legal_actions(authed(legal(0), "not-a-token")).await.expect_err("bad token");
    assert_eq!(status.code(), Code::Unauthenticated);
    client.list_legal_actions(authed(legal(0), &tokens[0])).await.expect("own token");
    let status = client.list_legal_actions(authed(legal(9), &tokens[0])).await.expect_err("no seat 9");
    assert_eq!(status.code(), Code::NotFound);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_get_a_status_that_names_the_field() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let status = client.create_game(pb::CreateGameRequest::default()).await.expect_err("no options");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("options"), "{}", status.message());
    let bad_enum = pb::GameOptions {
        time_control: None,
        rules: Some(pb::game_options::Rules::Straight(pb::StraightOptions { spinner: 42, ..Default::default() })),
        bot_pace_millis: 0,
    };
    let status = client
        .create_game(pb::CreateGameRequest { options: Some(bad_enum), ..Default::default() })
        .await
        .expect_err("enum");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("options.straight.spinner"), "{}", status.message());
    let status = client
        .create_game(pb::CreateGameRequest { options: Some(straight_options(7, 250)), ..Default::default() })
        .await
        .expect_err("7 players");
    assert_eq!(status.code(), Code::InvalidArgument);
    let status =
        client.get_view(pb::GetViewRequest { game_id: "no such/game".into(), seat: None }).await.expect_err("bad id");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("game_id"));
    let status =
        client.get_view(pb::GetViewRequest { game_id: "0000-unknown".into(), seat: None }).await.expect_err("unknown");
    assert_eq!(status.code(), Code::NotFound);
    let (game, tokens) = new_game(&mut client, straight_options(2, 250), 4).await;
    let view = spectate(&mut client, &game).await;
    let seat = view.to_move.expect("a seat leads");
    let act = |action: Option<pb::Action>, expected| pb::ActRequest {
        game_id: game.clone(),
        seat: Some(seat),
        expected_sequence: expected,
        action,
        ..Default::default()
    };
    let status = client.act(authed(act(None, view.sequence), &tokens[seat as usize])).await.expect_err("no action");
    assert_eq!(status.code(), Code::InvalidArgument);
    let huge = pb::Action {
        game: Some(pb::action::Game::Straight(pb::StraightAction {
            kind: pb::straight_action::Kind::Lead as i32,
            tile: Some(pb::Tile { low: 3, high: 99 }),
            ..Default::default()
        })),
    };
    let status =
        client.act(authed(act(Some(huge), view.sequence), &tokens[seat as usize])).await.expect_err("tile 3-99");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("action.straight.tile"), "{}", status.message());
    let pass = pb::Action {
        game: Some(pb::action::Game::Straight(pb::StraightAction {
            kind: pb::straight_action::Kind::Pass as i32,
            ..Default::default()
        })),
    };
    let status =
        client.act(authed(act(Some(pass), view.sequence), &tokens[seat as usize])).await.expect_err("pass at the lead");
    assert_eq!(status.code(), Code::FailedPrecondition, "{status:?}");
    let status =
        client.act(authed(act(Some(pass), view.sequence - 1), &tokens[seat as usize])).await.expect_err("stale");
    assert_eq!(status.code(), Code::Aborted);
    let unknown_view = pb::ActRequest { view: 7, ..act(Some(pass), view.sequence) };
    let status = client.act(authed(unknown_view, &tokens[seat as usize])).await.expect_err("view 7");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("view"), "{}", status.message());
    let page =
        client.list_games(pb::ListGamesRequest { page_size: 500, ..Default::default() }).await.expect_err("page");
    assert_eq!(page.code(), Code::InvalidArgument);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_view_or_stream_shows_a_seat_another_seats_tiles() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 250), 5).await;
    // Play a while, so that draws happen.
    for _ in 0..30 {
        support::play_one(&mut client, &game, &tokens).await.expect("move").expect("not over yet");
    }
    // A full reply to `Act` shows the acting seat its own hand and nobody else's; a basic one
    // carries no view at all.
    for view in [pb::ActView::Full, pb::ActView::Basic] {
        let seat = spectate(&mut client, &game).await.to_move.expect("the game goes on");
        let token = &tokens[seat as usize];
        let legal = client
            .list_legal_actions(authed(pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(seat) }, token))
            .await
            .expect("legal")
            .into_inner();
        let action = legal.actions.first().cloned().expect("a seat to move has a legal action");
        let request = pb::ActRequest { view: view as i32, ..support::act_request(&game, seat, &legal, action) };
        let reply = client.act(authed(request, token)).await.expect("act").into_inner();
        assert_eq!(reply.to_move, spectate(&mut client, &game).await.to_move);
        match reply.view {
            Some(seen) => {
                assert_eq!(view, pb::ActView::Full);
                assert!(seen.hands.is_empty(), "no other hands in an Act reply");
                assert_eq!(seen.viewer_seat, Some(seat));
                assert_eq!(seen.hand.len() as u32, seen.hand_sizes[seat as usize]);
                assert_eq!(seen.to_move, reply.to_move);
            }
            None => assert_eq!(view, pb::ActView::Basic),
        }
    }
    for seat in 0..2u32 {
        let view = client
            .get_view(authed(pb::GetViewRequest { game_id: game.clone(), seat: Some(seat) }, &tokens[seat as usize]))
            .await
            .expect("view")
            .into_inner()
            .view
            .expect("view");
        assert!(view.hands.is_empty(), "no other hands in a seat's view");
        assert_eq!(view.hand.len() as u32, view.hand_sizes[seat as usize]);
        let request = pb::WatchRequest { game_id: game.clone(), seat: Some(seat), from_sequence: 1 };
        let mut stream = client.watch(authed(request, &tokens[seat as usize])).await.expect("watch").into_inner();
        let last = view.sequence;
        while let Some(item) = stream.next().await {
            let event = item.expect("event").event.expect("event");
            match event.payload.as_ref() {
                Some(Payload::GameCreated(created)) => assert_eq!(created.seed, None),
                Some(Payload::Dealt(dealt)) => {
                    for hand in &dealt.hands {
                        assert_eq!(hand.tiles.is_empty(), hand.seat != seat, "a deal shows only the viewer's hand");
                    }
                }
                Some(Payload::TileDrawn(drawn)) => assert_eq!(drawn.tile.is_some(), drawn.seat == seat),
                _ => {}
            }
            if event.sequence == last {
                break;
            }
        }
    }
    let status = client
        .watch(pb::WatchRequest { game_id: game.clone(), seat: Some(0), from_sequence: 1 })
        .await
        .expect_err("a seat's stream needs its token");
    assert_eq!(status.code(), Code::Unauthenticated);
    let log = server.replay().await.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect_err("unfinished");
    assert_eq!(log.code(), Code::FailedPrecondition);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_racing_for_one_turn_one_wins() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Sync).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 250), 6).await;
    for _ in 0..20 {
        let view = spectate(&mut client, &game).await;
        let Some(seat) = view.to_move else { break };
        let token = tokens[seat as usize].clone();
        let legal = client
            .list_legal_actions(authed(pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(seat) }, &token))
            .await
            .expect("legal")
            .into_inner();
        let race = |action: pb::Action| {
            let mut client = client.clone();
            let request = support::act_request(&game, seat, &legal, action);
            let token = token.clone();
            tokio::spawn(async move { client.act(authed(request, &token)).await })
        };
        let first = race(legal.actions[0]);
        let second = race(legal.actions.last().cloned().expect("an action"));
        let results = [first.await.expect("task"), second.await.expect("task")];
        let wins = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(wins, 1, "exactly one of two racing moves is taken");
        let loser = results.iter().find_map(|r| r.as_ref().err()).expect("one lost");
        assert!(matches!(loser.code(), Code::Aborted | Code::FailedPrecondition), "{loser:?}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watch_dropped_and_resumed_misses_nothing_and_repeats_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, streets_options(2), 7).await;
    let watch = |from: u64| pb::WatchRequest { game_id: game.clone(), seat: None, from_sequence: from };
    let mut seen: Vec<u64> = Vec::new();
    let mut stream = client.watch(watch(1)).await.expect("watch").into_inner();
    // Live: moves are made while the stream is open.
    for _ in 0..10 {
        support::play_one(&mut client, &game, &tokens).await.expect("move").expect("not over yet");
    }
    let now = spectate(&mut client, &game).await.sequence;
    while seen.last() != Some(&now) {
        let event = stream.next().await.expect("more events").expect("event").event.expect("event");
        seen.push(event.sequence);
    }
    drop(stream); // the connection drops
    for _ in 0..10 {
        support::play_one(&mut client, &game, &tokens).await.expect("move").expect("not over yet");
    }
    let mut stream = client.watch(watch(seen.last().copied().unwrap_or(0) + 1)).await.expect("resume").into_inner();
    play_to_end(&mut client, &game, &tokens).await;
    while let Some(item) = stream.next().await {
        seen.push(item.expect("event").event.expect("event").sequence);
    }
    let end = spectate(&mut client, &game).await.sequence;
    assert_eq!(seen, (1..=end).collect::<Vec<_>>(), "every event once, in order; the stream ends with the game");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_listed_newest_first_a_page_at_a_time() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let mut ids = Vec::new();
    for seed in 0..5 {
        ids.push(new_game(&mut client, straight_options(2, 250), seed).await.0);
        ids.push(new_game(&mut client, streets_options(2), seed).await.0);
    }
    ids.reverse();
    let mut listed = Vec::new();
    let mut token = String::new();
    loop {
        let page = client
            .list_games(pb::ListGamesRequest { page_size: 3, page_token: token.clone(), ..Default::default() })
            .await
            .expect("page")
            .into_inner();
        listed.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(listed, ids);
    let streets = client
        .list_games(pb::ListGamesRequest { kind: pb::GameKind::Streets as i32, page_size: 100, ..Default::default() })
        .await
        .expect("filtered")
        .into_inner();
    assert_eq!(streets.games.len(), 5);
    server.stop().await;
}

/// A server whose protective layers are set very tight.
async fn tight_server(dir: &std::path::Path, config: clack_server::ServeConfig) -> Server {
    use std::sync::Arc;
    let store =
        clack_store::Durable::new(Arc::new(clack_store::SledStore::open(dir).expect("store")), Durability::Sync)
            .expect("writer");
    let hub = clack_server::Hub::open(store, None, clack_server::Limits::default()).await.expect("hub");
    Server::start_with(hub, None, config).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_past_the_concurrency_limit_are_shed() {
    let dir = tempfile::tempdir().expect("dir");
    let config = clack_server::ServeConfig { concurrency_limit: 1, ..Default::default() };
    let server = tight_server(dir.path(), config).await;
    let client = server.games().await;
    // Twenty creations at once, each waiting for its own flush: only one fits at a time.
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let mut client = client.clone();
            tokio::spawn(async move {
                client
                    .create_game(pb::CreateGameRequest {
                        options: Some(straight_options(2, 250)),
                        ..Default::default()
                    })
                    .await
            })
        })
        .collect();
    let mut codes = Vec::new();
    for task in tasks {
        codes.push(task.await.expect("task").map(|_| Code::Ok).unwrap_or_else(|s| s.code()));
    }
    assert!(codes.contains(&Code::Ok), "{codes:?}");
    assert!(codes.contains(&Code::ResourceExhausted), "{codes:?}");
    assert!(codes.iter().all(|c| matches!(c, Code::Ok | Code::ResourceExhausted)), "{codes:?}");
    server.stop().await;
}
