//! A full disk: the data directory on a small tmpfs that the test mounts (it must run as root,
//! as CI does). When the disk fills up, moves are refused with UNAVAILABLE and a message that
//! says the disk is full, nothing acknowledged is lost, views, listings and watch streams keep
//! working, the server stays up, and once space is freed it takes moves again.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use support::{authed, new_game, spectate, straight_options, streets_options};
use tonic::transport::Channel;
use tonic::{Code, Status};

/// A tmpfs of a fixed size, unmounted when dropped.
struct Tmpfs {
    path: PathBuf,
}

impl Tmpfs {
    fn mount(path: &Path, size: &str) -> Tmpfs {
        std::fs::create_dir_all(path).expect("mount point");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(path)
            .status()
            .expect("mount runs");
        assert!(status.success(), "mounting a tmpfs needs root (CI runs the tests as root)");
        Tmpfs { path: path.to_owned() }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

/// Writes zeros to `path` until the filesystem refuses more.
fn fill(path: &Path) -> u64 {
    use std::io::Write;
    let mut file = std::fs::File::create(path).expect("ballast");
    let chunk = vec![0u8; 64 * 1024];
    let mut written = 0;
    loop {
        match file.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) => {
                assert_eq!(e.raw_os_error(), Some(28), "the disk fills up: {e}");
                break;
            }
        }
    }
    // Whatever the page cache still holds must reach the filesystem, or it is not full yet.
    let _ = file.sync_all();
    written
}

/// One move in `game`: the seat to move plays its first legal action. Returns the action and the
/// acknowledged sequence, or `None` once the game is over.
async fn move_once(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    tokens: &[String],
) -> Result<Option<(u32, pb::Action, u64)>, Status> {
    let view = spectate(client, game).await;
    let Some(seat) = view.to_move else { return Ok(None) };
    let token = &tokens[seat as usize];
    let request = pb::ListLegalActionsRequest { game_id: game.into(), seat: Some(seat) };
    let legal = client.list_legal_actions(authed(request, token)).await?.into_inner();
    let action = legal.actions[0];
    let request = support::act_request(game, seat, &legal, action);
    let reply = client.act(authed(request, token)).await?.into_inner();
    Ok(Some((seat, action, reply.sequence)))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_refuses_moves_keeps_reads_and_recovers_when_space_is_freed() {
    let dir = tempfile::tempdir().expect("dir");
    let disk = Tmpfs::mount(&dir.path().join("disk"), "24m");
    let data = disk.path.join("data");
    let (mut child, url) = support::spawn_server(&data, &["--min-free-mb", "1"], &[]);
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let mut games = Vec::new();
    for seed in 0..3 {
        games.push(new_game(&mut client, straight_options(2, 150), seed).await);
        games.push(new_game(&mut client, streets_options(2), seed).await);
    }
    // Acknowledged actions per game, in order.
    let mut acked: Vec<Vec<(u32, pb::Action)>> = vec![Vec::new(); games.len()];
    for (i, (game, tokens)) in games.iter().enumerate() {
        for _ in 0..3 {
            let (seat, action, _) = move_once(&mut client, game, tokens).await.expect("a move").expect("not over");
            acked[i].push((seat, action));
        }
    }
    let watch = pb::WatchRequest { game_id: games[0].0.clone(), seat: None, from_sequence: 1 };
    let mut watching = client.watch(watch).await.expect("watch").into_inner();

    let ballast = disk.path.join("ballast");
    assert!(fill(&ballast) > 0, "the ballast took some space");
    let refused = loop_until_refused(&mut client, &games, &mut acked).await;
    assert_eq!(refused.code(), Code::Unavailable, "{refused:?}");
    assert!(refused.message().contains("disk is full"), "the message says why: {}", refused.message());

    // Reads go on: views, the list of games, a new watch from the start, the open watch.
    for (game, _) in &games {
        let view = spectate(&mut client, game).await;
        assert_eq!(view.status, pb::GameStatus::Active as i32);
    }
    let listed = client.list_games(pb::ListGamesRequest::default()).await.expect("list while full").into_inner();
    assert_eq!(listed.games.len(), games.len());
    let watch = pb::WatchRequest { game_id: games[1].0.clone(), seat: None, from_sequence: 1 };
    let mut replayed = client.watch(watch).await.expect("watch while full").into_inner();
    assert!(replayed.message().await.expect("an event").is_some(), "the history streams while the disk is full");
    let first = watching.message().await.expect("the open watch still works");
    assert!(first.is_some());
    assert!(child.try_wait().expect("status").is_none(), "the server is still running");

    std::fs::remove_file(&ballast).expect("free the space");
    let started = Instant::now();
    let (game, tokens) = &games[0];
    let recovered = loop {
        match move_once(&mut client, game, tokens).await {
            Ok(Some((seat, action, sequence))) => {
                acked[0].push((seat, action));
                break sequence;
            }
            Ok(None) => panic!("the game ended"),
            Err(status) => {
                assert_eq!(status.code(), Code::Unavailable, "{status:?}");
                assert!(started.elapsed() < Duration::from_secs(30), "moves are still refused: {status:?}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    assert!(recovered > 0);

    // Every game plays to the end, every acknowledged action is in its log, every log verifies.
    let mut replay = ReplayServiceClient::connect(url).await.expect("connect");
    for (i, (game, tokens)) in games.iter().enumerate() {
        while let Some((seat, action, _)) = move_once(&mut client, game, tokens).await.expect("a move after recovery") {
            acked[i].push((seat, action));
        }
        let log = replay.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect("log").into_inner();
        let stored: Vec<(u32, pb::Action)> = log
            .events
            .iter()
            .filter_map(|e| match &e.payload {
                Some(pb::event::Payload::ActionApplied(a)) => Some((a.seat, a.action?)),
                _ => None,
            })
            .collect();
        assert_eq!(stored, acked[i], "game {game}: the acknowledged actions, in order, and nothing else");
        let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{}", verified.detail);
    }
    child.kill().expect("stop");
    child.wait().expect("reaped");
}

/// Plays moves round the games until one is refused; returns the refusal.
async fn loop_until_refused(
    client: &mut GameServiceClient<Channel>,
    games: &[(String, Vec<String>)],
    acked: &mut [Vec<(u32, pb::Action)>],
) -> Status {
    for _ in 0..2_000 {
        for (i, (game, tokens)) in games.iter().enumerate() {
            match move_once(client, game, tokens).await {
                Ok(Some((seat, action, _))) => acked[i].push((seat, action)),
                Ok(None) => panic!("game {game} ended before the disk filled up"),
                Err(status) => return status,
            }
        }
    }
    panic!("no move was refused on a full disk");
}
