//! The real `clack` binary as an operator runs it: `clack keys` against a closed server, and a
//! SIGTERM that must end open streams and exit cleanly.

mod support;

use std::process::Command;
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use support::{keyed, spawn_server, straight_options};
use tokio_stream::StreamExt;
use tonic::Code;

const ADMIN_KEY: &str = "the-bootstrap-admin-key-of-the-process-test";

/// Runs `clack keys ...` with the admin key in the environment; returns what it printed.
fn keys(url: &str, args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["keys", "--server", url])
        .args(args)
        .env("CLACK_KEY", ADMIN_KEY)
        .output()
        .expect("clack keys runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "clack keys {args:?} failed: {stderr}");
    String::from_utf8(output.stdout).expect("text")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clack_keys_makes_and_revokes_keys_on_a_closed_server() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url) = spawn_server(dir.path(), &["--mode", "closed"], &[("CLACK_ADMIN_KEY", ADMIN_KEY)]);
    let printed = keys(&url, &["create-account", "ada", "--with-key"]);
    let key = printed.lines().find(|l| l.starts_with("clack_")).expect("the key is printed once").to_owned();
    let mut games = GameServiceClient::connect(url.clone()).await.expect("connect");
    let anonymous = games.list_games(pb::ListGamesRequest::default()).await;
    assert_eq!(anonymous.expect_err("closed").code(), Code::Unauthenticated);
    games.list_games(keyed(pb::ListGamesRequest::default(), &key)).await.expect("the new key works");

    let listed = keys(&url, &["list"]);
    let key_id = key.split('_').nth(1).expect("clack_<id>_<secret>");
    assert!(listed.contains(key_id) && !listed.contains(&key), "ids are listed, never keys:\n{listed}");
    keys(&url, &["revoke", key_id]);
    let revoked = games.list_games(keyed(pb::ListGamesRequest::default(), &key)).await;
    assert_eq!(revoked.expect_err("revoked").code(), Code::Unauthenticated);
    child.kill().expect("stop");
    child.wait().expect("reaped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_open_watch_streams_and_the_server_exits_cleanly() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url) = spawn_server(dir.path(), &["--grace-secs", "30"], &[]);
    let mut games = GameServiceClient::connect(url).await.expect("connect");
    let request = pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: Vec::new(), seed: Some(1) };
    let id = games.create_game(request).await.expect("create").into_inner().game_id;
    let watch = pb::WatchRequest { game_id: id, seat: None, from_sequence: 0 };
    let mut stream = games.watch(watch).await.expect("watch").into_inner();
    stream.next().await.expect("the creation event").expect("ok");

    let pid = child.id().to_string();
    let signalled = Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(signalled.success());
    // Events already sent may come first; the stream must then end with a status.
    let ending = async {
        loop {
            match stream.next().await {
                Some(Ok(_)) => continue,
                Some(Err(status)) => return Some(status),
                None => return None,
            }
        }
    };
    let ended = tokio::time::timeout(Duration::from_secs(20), ending).await.expect("the stream ends");
    let status = ended.expect("the stream ends with a status, not silently");
    assert_eq!(status.code(), Code::Unavailable, "{status:?}");
    let exit = tokio::task::spawn_blocking(move || child.wait()).await.expect("task").expect("exit status");
    assert!(exit.success(), "the server exits 0 after SIGTERM, well inside its 30 s grace: {exit:?}");
}
