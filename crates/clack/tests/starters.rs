//! The Python and Node starters (`clients/python`, `clients/node`) as a bot author runs them: the
//! real `clack serve` binary with the ladder on, and each starter's example bot as its own
//! process, which registers, connects and plays the ladder games it is offered until both
//! remote bots have ladder games on the leaderboard.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;

fn clients() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients")
}

/// A starter's example bot, run from a directory of its own (where it keeps its owner token).
fn start_bot(program: &str, script: &Path, name: &str, addr: &str, dir: &Path) -> Child {
    Command::new(program)
        .arg(script)
        .args(["--addr", addr, "--name", name])
        .env("PYTHONPATH", clients().join("python"))
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

/// Each remote bot's ladder games so far, by name.
async fn ladder_games(bots: &mut BotServiceClient<tonic::transport::Channel>) -> Vec<(String, u64)> {
    let request =
        pb::GetLeaderboardRequest { configuration: "straight-2".into(), page_size: 20, page_token: String::new() };
    let board = bots.get_leaderboard(request).await.expect("leaderboard").into_inner();
    board.entries.into_iter().map(|e| (e.bot_id, e.games)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_and_node_starters_play_ladder_games() {
    assert!(
        clients().join("node/node_modules/@connectrpc/connect-node").exists(),
        "the Node starter's packages are missing: run `npm ci --prefix clients/node`"
    );
    let data = tempfile::tempdir().expect("dir");
    let args = ["--ladder", "--ladder-configurations", "straight-2", "--ladder-share", "1"];
    let (server, url, metrics) = support::spawn_server_with_metrics(data.path(), &args, &[]);
    let addr = url.trim_start_matches("http://").to_owned();
    let home = tempfile::tempdir().expect("dir");
    let (python_home, node_home) = (home.path().join("python"), home.path().join("node"));
    std::fs::create_dir_all(&python_home).expect("mkdir");
    std::fs::create_dir_all(&node_home).expect("mkdir");
    let python = clients().join("python/examples/heavy_first.py");
    let node = clients().join("node/examples/heavy_first.mjs");
    let mut programs = vec![
        start_bot("python3", &python, "heavy-py", &addr, &python_home),
        start_bot("node", &node, "heavy-node", &addr, &node_home),
    ];

    let mut bots = BotServiceClient::connect(url.clone()).await.expect("connect");
    let mut played = Vec::new();
    for _ in 0..600 {
        played = ladder_games(&mut bots).await;
        let games = |name: &str| played.iter().find(|(bot, _)| bot == name).map_or(0, |(_, games)| *games);
        if games("heavy-py") >= 2 && games("heavy-node") >= 2 {
            break;
        }
        if let Some(exited) = programs.iter_mut().find_map(|p| p.try_wait().expect("wait")) {
            let outputs: Vec<_> = programs.into_iter().map(|p| p.wait_with_output().expect("output")).collect();
            panic!("a starter stopped ({exited}): {outputs:?}");
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for program in &mut programs {
        let _ = program.kill();
    }
    let outputs: Vec<_> = programs.into_iter().map(|p| p.wait_with_output().expect("output")).collect();
    let report = format!("{played:?}\n{outputs:?}");
    for name in ["heavy-py", "heavy-node"] {
        let games = played.iter().find(|(bot, _)| bot == name).map_or(0, |(_, games)| *games);
        assert!(games >= 2, "{name} has {games} ladder games: {report}");
    }
    // Each starter kept its owner token where it ran, readable by its owner only.
    for home in [&python_home, &node_home] {
        let token = home.join(".clack-owner-token");
        let mode =
            std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&token).expect("token kept").permissions());
        assert_eq!(mode & 0o077, 0, "{} is private", token.display());
    }
    // The remote programs' moves are counted among the decisions, as the ladder's.
    let (_, body) = support::http_get(metrics, "/metrics").await;
    let remote = body.lines().find(|line| {
        line.starts_with("clack_bot_decision_duration_seconds_count{")
            && line.contains("played=\"ladder\"")
            && line.contains("seat=\"remote\"")
    });
    let counted: f64 = remote.and_then(|line| line.rsplit(' ').next()?.parse().ok()).unwrap_or_default();
    assert!(counted >= 4.0, "remote decisions on the ladder: {remote:?}");
    let mut server = server;
    server.kill().expect("stop");
    server.wait().expect("reaped");
}
