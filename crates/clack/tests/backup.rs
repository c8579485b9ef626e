//! `clack backup` of a running server while games are being played, and `clack restore` of the
//! file into a new directory: every game in it verifies, and a server started on it plays on.

mod support;

use std::path::Path;
use std::process::Command;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use support::{new_game, play_one, play_to_end, straight_options, streets_options};

const ADMIN_KEY: &str = "backup-test-admin-key-0123456789abcdef";

fn clack(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(args)
        .current_dir(dir)
        .env("CLACK_KEY", ADMIN_KEY)
        .output()
        .expect("runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_serving_restores_into_games_that_verify_and_play_on() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url) = support::spawn_server(&dir.path().join("data"), &[], &[("CLACK_ADMIN_KEY", ADMIN_KEY)]);
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let mut games = Vec::new();
    for seed in 0..3 {
        games.push(new_game(&mut client, straight_options(2, 100), seed).await);
        games.push(new_game(&mut client, streets_options(2), seed).await);
    }
    play_to_end(&mut client, &games[0].0, &games[0].1).await;
    // Games go on moving while the backup is taken.
    let moving = games[1..].to_vec();
    let mut mover = client.clone();
    let load = tokio::spawn(async move {
        for _ in 0..40 {
            for (game, tokens) in &moving {
                let _ = play_one(&mut mover, game, tokens).await;
            }
        }
    });
    let backup = dir.path().join("games.clackbak");
    let server = url.clone();
    let root = dir.path().to_owned();
    let taken =
        tokio::task::spawn_blocking(move || clack(&["backup", "--server", &server, "--out", "games.clackbak"], &root))
            .await
            .expect("backup");
    assert!(taken.status.success(), "{}", String::from_utf8_lossy(&taken.stderr));
    load.await.expect("load");
    child.kill().expect("stop");
    child.wait().expect("reaped");

    let restored = clack(&["restore", "--from", "games.clackbak", "--data", "restored"], dir.path());
    let stdout = String::from_utf8_lossy(&restored.stdout);
    assert!(restored.status.success(), "{stdout}{}", String::from_utf8_lossy(&restored.stderr));
    assert!(stdout.contains("6 games, 6 verify"), "{stdout}");
    let again = clack(&["restore", "--from", "games.clackbak", "--data", "restored"], dir.path());
    assert!(!again.status.success(), "a restore never writes into an existing directory");
    let mut damaged = std::fs::read(&backup).expect("read");
    damaged.truncate(damaged.len() - 100);
    std::fs::write(dir.path().join("cut.clackbak"), damaged).expect("write");
    let cut = clack(&["restore", "--from", "cut.clackbak", "--data", "from-cut"], dir.path());
    assert!(!cut.status.success());
    assert!(String::from_utf8_lossy(&cut.stderr).contains("checksum"), "{}", String::from_utf8_lossy(&cut.stderr));
    assert!(!dir.path().join("from-cut").exists(), "nothing is written from a damaged backup");

    let (mut child, url) = support::spawn_server(&dir.path().join("restored"), &[], &[]);
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let mut replay = ReplayServiceClient::connect(url).await.expect("connect");
    for (game, tokens) in &games {
        play_to_end(&mut client, game, tokens).await;
        let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{}", verified.detail);
    }
    child.kill().expect("stop");
    child.wait().expect("reaped");
}
