//! A `clack serve` process killed with SIGKILL in the middle of games, restarted on the same
//! data directory: every acknowledged action is still there and play continues to the end.

mod support;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use support::{new_game, play_one, play_to_end, spectate, straight_options, streets_options};

fn spawn_server(data: &std::path::Path) -> (std::process::Child, String) {
    support::spawn_server(data, &[], &[])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_actions_survive_sigkill_and_play_resumes() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url) = spawn_server(dir.path());
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let mut games = Vec::new();
    for seed in 0..2 {
        games.push(new_game(&mut client, straight_options(2, 100), seed).await);
        games.push(new_game(&mut client, streets_options(2), seed).await);
    }
    // Every game moves in its own task; each remembers the last sequence the server
    // acknowledged. The process is killed while they are still playing.
    let mut tasks = Vec::new();
    for (game, tokens) in games.clone() {
        let mut client = client.clone();
        tasks.push(tokio::spawn(async move {
            let mut acknowledged = 0;
            for _ in 0..10_000 {
                match play_one(&mut client, &game, &tokens).await {
                    Ok(Some(sequence)) => acknowledged = sequence,
                    Ok(None) | Err(_) => break,
                }
            }
            (game, acknowledged)
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    child.kill().expect("SIGKILL");
    child.wait().expect("reaped");
    let mut acknowledged = Vec::new();
    for task in tasks {
        acknowledged.push(task.await.expect("task"));
    }
    assert!(acknowledged.iter().any(|(_, seq)| *seq > 10), "games were under way when the server died");

    let (mut child, url) = spawn_server(dir.path());
    let mut client = GameServiceClient::connect(url.clone()).await.expect("reconnect");
    let mut replay = ReplayServiceClient::connect(url).await.expect("reconnect");
    for ((game, tokens), (_, acked)) in games.iter().zip(&acknowledged) {
        let view = spectate(&mut client, game).await;
        assert!(view.sequence >= *acked, "game {game}: acknowledged {acked}, found {}", view.sequence);
        play_to_end(&mut client, game, tokens).await;
        let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{}", verified.detail);
    }
    child.kill().expect("stop");
    child.wait().expect("reaped");
}
