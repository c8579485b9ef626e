//! Finished games, sealed into one record each, served as before over real gRPC after a restart
//! (log, state at any sequence, watch from any sequence, export); and ListGames' page tokens
//! checked before use.

mod support;

use clack_proto::v1 as pb;
use clack_store::Durability;
use support::{Server, new_game, play_to_end, straight_options, streets_options};
use tokio_stream::StreamExt;
use tonic::Code;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_game_reads_watches_and_exports_as_it_was_played() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 11).await;
    play_to_end(&mut client, &game, &tokens).await;
    let mut replay = server.replay().await;
    let before = replay.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect("log").into_inner().events;
    let middle = before.len() as u64 / 2;
    let state = |sequence| pb::GetStateAtRequest { game_id: game.clone(), sequence };
    let view_before = replay.get_state_at(state(middle)).await.expect("state").into_inner();
    server.stop().await;

    let server = Server::restart(dir.path()).await;
    let mut replay = server.replay().await;
    let after = replay.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect("log").into_inner().events;
    assert_eq!(after, before, "the sealed log is the log that was played");
    assert_eq!(replay.get_state_at(state(middle)).await.expect("state").into_inner(), view_before);
    let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
    assert!(verified.ok, "{}", verified.detail);
    let lines: Vec<String> = replay
        .export(pb::ExportRequest { game_id: game.clone() })
        .await
        .expect("export")
        .into_inner()
        .map(|line| line.expect("line").json_line)
        .collect()
        .await;
    assert_eq!(lines.len(), before.len());
    let mut client = server.games().await;
    let watched: Vec<u64> = client
        .watch(pb::WatchRequest { game_id: game.clone(), seat: None, from_sequence: middle })
        .await
        .expect("watch")
        .into_inner()
        .map(|item| item.expect("event").event.expect("an event").sequence)
        .collect()
        .await;
    assert_eq!(watched, (middle..=before.len() as u64).collect::<Vec<_>>(), "a watch may start anywhere");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_games_refuses_a_page_token_it_did_not_give() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut client = server.games().await;
    for seed in 0..3 {
        new_game(&mut client, straight_options(2, 100), seed).await;
        new_game(&mut client, streets_options(2), seed).await;
    }
    let request = |page_token: &str, kind: pb::GameKind| pb::ListGamesRequest {
        page_size: 2,
        page_token: page_token.to_owned(),
        kind: kind as i32,
        ..pb::ListGamesRequest::default()
    };
    let first = client.list_games(request("", pb::GameKind::Straight)).await.expect("first").into_inner();
    assert_eq!(first.games.len(), 2);
    let token = first.next_page_token.clone();
    assert!(!token.is_empty());
    let second = client.list_games(request(&token, pb::GameKind::Straight)).await.expect("second").into_inner();
    assert_eq!(second.games.len(), 1);
    assert!(second.next_page_token.is_empty());
    // Malformed, cut short, edited, a game id (what tokens used to be), or made for another filter.
    let game_id = first.games[0].game_id.clone();
    for bad in ["garbage", &token[..token.len() - 1], &token.replace('a', "b"), &game_id] {
        if bad == token {
            continue;
        }
        let status = client.list_games(request(bad, pb::GameKind::Straight)).await.expect_err("refused");
        assert_eq!(status.code(), Code::InvalidArgument, "{bad}");
        assert!(status.message().contains("page_token"), "{}", status.message());
    }
    let status = client.list_games(request(&token, pb::GameKind::Streets)).await.expect_err("other filter");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("page_token"), "{}", status.message());
    server.stop().await;
}
