//! A damaged store. Single stored events changed or removed, and a sealed log cut short: each
//! such game answers DATA_LOSS, alone, and the other games load and play on. sled's own files
//! truncated or overwritten in the middle: the server either starts or refuses to start with a
//! message that says what to do, and never panics.

mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use support::{new_game, play_one, play_to_end, spectate, straight_options, streets_options};
use tonic::Code;

/// The key of one live event in the store's `log` tree (layout in clack-store's sled_store.rs).
fn event_key(game: &str, sequence: u64) -> Vec<u8> {
    [b"e", game.as_bytes(), &[0], &sequence.to_be_bytes()].concat()
}

fn sealed_key(game: &str) -> Vec<u8> {
    [b"s", game.as_bytes()].concat()
}

/// Starts `clack serve` on `data`: its URL, or what it said when it stopped instead.
fn start_or_refuse(data: &Path) -> Result<(std::process::Child, String), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["serve", "--addr", "127.0.0.1:0", "--min-free-mb", "0", "--data"])
        .arg(data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clack serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("stdout");
    if let Some(addr) = line.trim().strip_prefix("listening on ") {
        return Ok((child, format!("http://{addr}")));
    }
    let mut stderr = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut stderr).expect("stderr");
    let status = child.wait().expect("exits");
    assert!(!status.success(), "a server that did not start exits with an error");
    Err(stderr)
}

fn stop(mut child: std::process::Child) {
    child.kill().expect("stop");
    child.wait().expect("reaped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_game_is_data_loss_alone_and_the_others_play_on() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let (child, url) = support::spawn_server(&data, &[], &[]);
    let mut client = GameServiceClient::connect(url).await.expect("connect");
    let mut games = Vec::new();
    for (seed, options) in [straight_options(2, 100), streets_options(2), straight_options(2, 100), streets_options(2)]
        .into_iter()
        .enumerate()
    {
        let game = new_game(&mut client, options, seed as u64).await;
        for _ in 0..6 {
            play_one(&mut client, &game.0, &game.1).await.expect("a move");
        }
        games.push(game);
    }
    play_to_end(&mut client, &games[2].0, &games[2].1).await;
    stop(child);

    {
        let db = sled::open(&data).expect("sled opens the directory");
        let log = db.open_tree("log").expect("log tree");
        // Game 0: a byte of its first action changed (events 1 to 5 are the creation, the
        // draw for the lead, the deal and two joins). A changed player name would replay: the
        // log checks what the rules derive, not free text (docs/durability.md).
        let key = event_key(&games[0].0, 6);
        let mut value = log.get(&key).expect("read").expect("event 6").to_vec();
        let middle = value.len() / 2;
        value[middle] ^= 0xff;
        log.insert(&key, value).expect("write");
        // Game 1: one event gone.
        log.remove(event_key(&games[1].0, 4)).expect("remove").expect("event 4");
        // Game 2 (finished, sealed): its sealed log cut in half.
        let key = sealed_key(&games[2].0);
        let sealed = log.get(&key).expect("read").expect("sealed log").to_vec();
        log.insert(&key, &sealed[..sealed.len() / 2]).expect("write");
        db.flush().expect("flush");
    }

    let (child, url) = start_or_refuse(&data).expect("the server starts with damaged games");
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let mut replay = ReplayServiceClient::connect(url).await.expect("connect");
    for (game, _) in &games[..2] {
        let status = client.get_view(pb::GetViewRequest { game_id: game.clone(), seat: None }).await.expect_err("lost");
        assert_eq!(status.code(), Code::DataLoss, "{status:?}");
        assert!(status.message().contains(game.as_str()), "the message names the game: {}", status.message());
    }
    let status = replay.get_log(pb::GetLogRequest { game_id: games[2].0.clone() }).await.expect_err("lost");
    assert_eq!(status.code(), Code::DataLoss, "{status:?}");
    let status = replay.verify(pb::VerifyRequest { game_id: games[2].0.clone() }).await.expect_err("lost");
    assert_eq!(status.code(), Code::DataLoss, "{status:?}");
    let listed = client.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed.games.len(), games.len(), "every game is still listed");

    let (game, tokens) = &games[3];
    play_to_end(&mut client, game, tokens).await;
    let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
    assert!(verified.ok, "{}", verified.detail);
    assert_eq!(spectate(&mut client, game).await.status, pb::GameStatus::Finished as i32);
    stop(child);
}

/// Every regular file under `dir`, largest first.
fn files(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir").flatten() {
            let meta = entry.metadata().expect("metadata");
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                found.push((entry.path(), meta.len()));
            }
        }
    }
    found.sort_by_key(|(_, len)| std::cmp::Reverse(*len));
    found
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.metadata().expect("metadata").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn damaged_sled_files_never_make_the_server_panic() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let (child, url) = support::spawn_server(&data, &[], &[]);
    let mut client = GameServiceClient::connect(url).await.expect("connect");
    for seed in 0..4 {
        let game = new_game(&mut client, straight_options(2, 100), seed).await;
        for _ in 0..10 {
            play_one(&mut client, &game.0, &game.1).await.expect("a move");
        }
    }
    stop(child);

    let (largest, len) = files(&data).into_iter().next().expect("sled wrote files");
    type Damage = Box<dyn Fn(&Path)>;
    let damages: [(&str, Damage); 3] = [
        (
            "truncated to half",
            Box::new(move |file: &Path| {
                std::fs::OpenOptions::new().write(true).open(file).expect("open").set_len(len / 2).expect("truncate");
            }),
        ),
        (
            "a block overwritten in the middle",
            Box::new(move |file: &Path| {
                use std::io::{Seek, SeekFrom, Write};
                let mut f = std::fs::OpenOptions::new().write(true).open(file).expect("open");
                f.seek(SeekFrom::Start(len / 2)).expect("seek");
                f.write_all(&[0xa5; 4096]).expect("write");
            }),
        ),
        ("emptied", Box::new(|file: &Path| std::fs::write(file, b"").expect("empty"))),
    ];
    for (i, (what, damage)) in damages.iter().enumerate() {
        let copy = dir.path().join(format!("copy{i}"));
        copy_dir(&data, &copy);
        damage(&copy.join(largest.strip_prefix(&data).expect("inside")));
        match start_or_refuse(&copy) {
            Ok((child, url)) => {
                // It started: whatever it still has answers, game by game, without a panic.
                let mut client = GameServiceClient::connect(url).await.expect("connect");
                let listed =
                    tokio::time::timeout(Duration::from_secs(30), client.list_games(pb::ListGamesRequest::default()))
                        .await
                        .expect("answers");
                if let Ok(listed) = listed {
                    for game in listed.into_inner().games {
                        let view = client.get_view(pb::GetViewRequest { game_id: game.game_id, seat: None }).await;
                        if let Err(status) = view {
                            assert_eq!(status.code(), Code::DataLoss, "{what}: {status:?}");
                        }
                    }
                }
                stop(child);
            }
            Err(stderr) => {
                assert!(!stderr.contains("panicked"), "{what}: the server panicked:\n{stderr}");
                assert!(stderr.contains("clack restore"), "{what}: the message says what to do:\n{stderr}");
            }
        }
    }
}
