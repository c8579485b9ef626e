//! A damaged store. A finished game's sealed log cut short or changed: that game answers
//! DATA_LOSS, alone, and the other games load and play on. The directory's files (sled's and the
//! journal's) cut short, overwritten, emptied or missing: the server refuses to start with a
//! message that names `clack restore`, or serves every game exactly as it was acknowledged; it
//! never serves a game rolled back, never loses one from the listing, and never panics.

mod support;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use support::{new_game, play_one, play_to_end, spectate, straight_options, streets_options};
use tonic::Code;

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
async fn a_damaged_sealed_game_is_data_loss_alone_and_the_others_play_on() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let (child, url) = support::spawn_server(&data, &[], &[]);
    let mut client = GameServiceClient::connect(url).await.expect("connect");
    let mut games = Vec::new();
    for (seed, options) in
        [straight_options(2, 100), streets_options(2), straight_options(2, 100)].into_iter().enumerate()
    {
        let game = new_game(&mut client, options, seed as u64).await;
        for _ in 0..6 {
            play_one(&mut client, &game.0, &game.1).await.expect("a move");
        }
        games.push(game);
    }
    play_to_end(&mut client, &games[0].0, &games[0].1).await;
    play_to_end(&mut client, &games[1].0, &games[1].1).await;
    stop(child);
    // Killed at once, the server may have left the two finished games settling: in the journal,
    // and in the archive only as far as sled's flusher had written them. Opening seals them
    // again where the archive lost them and flushes it, so after one start they are sealed.
    let (child, _) = support::spawn_server(&data, &[], &[]);
    stop(child);

    {
        // Games 0 and 1 are finished and sealed in the archive: game 0's sealed log cut in half,
        // a byte in the middle of game 1's changed. sled takes both writes as its own.
        // The archive's segment size, which sled checks on open (clack-store's sled_store.rs).
        let db = sled::Config::new().path(&data).segment_size(16 << 20).open().expect("sled opens the archive");
        let log = db.open_tree("log").expect("log tree");
        let key = sealed_key(&games[0].0);
        let sealed = log.get(&key).expect("read").expect("sealed log").to_vec();
        log.insert(&key, &sealed[..sealed.len() / 2]).expect("write");
        let key = sealed_key(&games[1].0);
        let mut sealed = log.get(&key).expect("read").expect("sealed log").to_vec();
        let middle = sealed.len() / 2;
        sealed[middle] ^= 0xff;
        log.insert(&key, sealed).expect("write");
        db.flush().expect("flush");
    }

    let (child, url) = start_or_refuse(&data).expect("the server starts with damaged games");
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let mut replay = ReplayServiceClient::connect(url).await.expect("connect");
    for (game, _) in &games[..2] {
        let status = replay.get_log(pb::GetLogRequest { game_id: game.clone() }).await.expect_err("lost");
        assert_eq!(status.code(), Code::DataLoss, "{status:?}");
        assert!(status.message().contains(game.as_str()), "the message names the game: {}", status.message());
        let status = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect_err("lost");
        assert_eq!(status.code(), Code::DataLoss, "{status:?}");
    }
    let listed = client.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed.games.len(), games.len(), "every game is still listed");

    let (game, tokens) = &games[2];
    play_to_end(&mut client, game, tokens).await;
    let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
    assert!(verified.ok, "{}", verified.detail);
    assert_eq!(spectate(&mut client, game).await.status, pb::GameStatus::Finished as i32);
    stop(child);
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

/// One way of damaging a data directory, as an operator might find it after a disk fault.
struct Damage {
    what: &'static str,
    /// The file, relative to the data directory; `None` for the newest journal segment.
    file: Option<&'static str>,
    how: fn(&Path),
}

fn cut_short(file: &Path) {
    let len = std::fs::metadata(file).expect("metadata").len();
    std::fs::OpenOptions::new().write(true).open(file).expect("open").set_len(len.saturating_sub(4096)).expect("cut");
}

fn overwrite_at(file: &Path, at: u64) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(file).expect("open");
    f.seek(SeekFrom::Start(at)).expect("seek");
    f.write_all(&[0xa5; 256]).expect("write");
}

/// Where the written part of a file ends: sled's files are written whole, the journal's segments
/// are made whole-size and written from the front.
fn written(file: &Path) -> u64 {
    let bytes = std::fs::read(file).expect("read");
    bytes.iter().rposition(|b| *b != 0).map_or(0, |last| last as u64 + 1)
}

const DAMAGES: [Damage; 12] = [
    Damage { what: "sled's file cut short by 4 KB", file: Some("db"), how: cut_short },
    Damage {
        what: "256 bytes of sled's file overwritten in the middle",
        file: Some("db"),
        how: |f| overwrite_at(f, written(f) / 2),
    },
    Damage {
        what: "256 bytes of sled's file overwritten near its end",
        file: Some("db"),
        how: |f| overwrite_at(f, written(f).saturating_sub(1024)),
    },
    Damage { what: "sled's file emptied", file: Some("db"), how: |f| std::fs::write(f, b"").expect("empty") },
    Damage { what: "sled's file missing", file: Some("db"), how: |f| std::fs::remove_file(f).expect("remove") },
    Damage { what: "sled's conf missing", file: Some("conf"), how: |f| std::fs::remove_file(f).expect("remove") },
    Damage { what: "the journal cut short by 4 KB", file: None, how: cut_short },
    Damage {
        what: "256 bytes of the journal overwritten in the middle",
        file: None,
        how: |f| overwrite_at(f, written(f) / 2),
    },
    Damage {
        what: "256 bytes of the journal overwritten near the end of its records",
        file: None,
        how: |f| overwrite_at(f, written(f).saturating_sub(300)),
    },
    Damage {
        what: "256 bytes of the journal overwritten near the end of its file",
        file: None,
        how: |f| overwrite_at(f, std::fs::metadata(f).expect("metadata").len() - 4096),
    },
    Damage { what: "the journal emptied", file: None, how: |f| std::fs::write(f, b"").expect("empty") },
    Damage { what: "the journal's segment missing", file: None, how: |f| std::fs::remove_file(f).expect("remove") },
];

/// The newest segment of the journal in `data`.
fn newest_segment(data: &Path) -> std::path::PathBuf {
    let mut segments: Vec<_> =
        std::fs::read_dir(data.join("journal")).expect("journal").flatten().map(|e| e.path()).collect();
    segments.sort();
    segments.pop().expect("a segment")
}

/// Every kind of damage, to a copy of a directory that holds finished and live games, against the
/// real binary: the server either refuses to start, naming `clack restore`, or serves every game
/// exactly as it was acknowledged (or DATA_LOSS for it). It never serves a game rolled back, never
/// loses one from the listing, and never starts empty over a directory that had games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_directory_is_refused_or_served_whole_never_rolled_back() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let (child, url) = support::spawn_server(&data, &[], &[]);
    let mut client = GameServiceClient::connect(url).await.expect("connect");
    let mut acknowledged = Vec::new();
    for seed in 0..12 {
        let options = if seed % 2 == 0 { straight_options(2, 100) } else { streets_options(2) };
        let (game, tokens) = new_game(&mut client, options, seed).await;
        if seed < 8 {
            play_to_end(&mut client, &game, &tokens).await;
        } else {
            for _ in 0..10 {
                play_one(&mut client, &game, &tokens).await.expect("a move");
            }
        }
        let view = spectate(&mut client, &game).await;
        acknowledged.push((game, view.sequence, view.status));
    }
    stop(child);

    for (i, damage) in DAMAGES.iter().enumerate() {
        let copy = dir.path().join(format!("copy{i}"));
        copy_dir(&data, &copy);
        let file = damage.file.map_or_else(|| newest_segment(&copy), |name| copy.join(name));
        (damage.how)(&file);
        let what = damage.what;
        match start_or_refuse(&copy) {
            Ok((child, url)) => {
                let mut client = GameServiceClient::connect(url).await.expect("connect");
                let request = pb::ListGamesRequest { page_size: 100, ..Default::default() };
                let listed = client.list_games(request).await.expect("list").into_inner().games;
                assert_eq!(listed.len(), acknowledged.len(), "{what}: a game is missing from the listing");
                for (game, sequence, status) in &acknowledged {
                    match client.get_view(pb::GetViewRequest { game_id: game.clone(), seat: None }).await {
                        Ok(view) => {
                            let view = view.into_inner().view.expect("a view");
                            assert_eq!(
                                (view.sequence, view.status),
                                (*sequence, *status),
                                "{what}: game {game} rolled back"
                            );
                        }
                        Err(status) => assert_eq!(status.code(), Code::DataLoss, "{what}: {status:?}"),
                    }
                }
                stop(child);
            }
            Err(stderr) => {
                assert!(
                    !stderr.contains("task") || !stderr.contains("panicked"),
                    "{what}: the server crashed:\n{stderr}"
                );
                assert!(stderr.contains("clack restore"), "{what}: the message says what to do:\n{stderr}");
            }
        }
    }
}
