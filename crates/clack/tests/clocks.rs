//! Turn clocks and abandoned games over real sockets, against the real `clack serve` binary:
//! what happens is read from the game's events and status, never from how long anything took.

mod support;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_proto::v1::game_service_client::GameServiceClient;
use support::{spectate, straight_options};
use tonic::transport::Channel;

/// A `clack serve` process on a free port, killed when dropped.
struct Served {
    child: Child,
    client: GameServiceClient<Channel>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `clack serve` over `data` with extra flags.
async fn serve(data: &std::path::Path, flags: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(flags)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("clack serve starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("a first line");
    let addr = line.trim().strip_prefix("listening on ").expect("listening on ADDR").to_owned();
    let client = GameServiceClient::connect(format!("http://{addr}")).await.expect("connect");
    Served { child, client }
}

async fn create(client: &mut GameServiceClient<Channel>, options: pb::GameOptions) -> String {
    let request = pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: Some(11) };
    client.create_game(request).await.expect("create").into_inner().game_id
}

async fn join(client: &mut GameServiceClient<Channel>, game_id: &str, seat: u32) -> String {
    let request = pb::JoinGameRequest { game_id: game_id.into(), seat: Some(seat), name: format!("p{seat}") };
    client.join_game(request).await.expect("join").into_inner().seat_token
}

/// Watches a game as a spectator until it ends; returns every event.
async fn events_to_end(client: &mut GameServiceClient<Channel>, game_id: &str) -> Vec<pb::Event> {
    let request = pb::WatchRequest { game_id: game_id.into(), seat: None, from_sequence: 1 };
    let mut stream = client.watch(request).await.expect("watch").into_inner();
    let mut events = Vec::new();
    let wait = std::time::Duration::from_secs(20);
    while let Some(message) =
        tokio::time::timeout(wait, stream.message()).await.expect("the game ends").expect("stream")
    {
        let event = message.event.expect("an event");
        let over = matches!(event.payload, Some(Payload::GameEnded(_)));
        events.push(event);
        if over {
            break;
        }
    }
    events
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_nobody_finishes_joining_is_abandoned_and_frees_its_slot() {
    let dir = tempfile::tempdir().expect("dir");
    let mut served = serve(dir.path(), &["--join-timeout-secs", "0.3", "--max-live-games", "1"]).await;
    let client = &mut served.client;
    let game = create(client, straight_options(2, 100)).await;
    join(client, &game, 0).await;

    let events = events_to_end(client, &game).await;
    let tail: Vec<_> = events.iter().rev().take(2).rev().filter_map(|e| e.payload.as_ref()).collect();
    match tail[..] {
        [Payload::GameAbandoned(abandoned), Payload::GameEnded(ended)] => {
            assert_eq!(abandoned.reason, "join_timeout");
            assert_eq!(ended.reason, "abandoned");
            assert!(ended.winners.is_empty());
        }
        ref other => panic!("expected GameAbandoned then GameEnded, got {other:?}"),
    }
    assert_eq!(spectate(client, &game).await.status, pb::GameStatus::Finished as i32);
    let late = pb::JoinGameRequest { game_id: game.clone(), seat: Some(1), name: "late".into() };
    let refused = client.join_game(late).await.expect_err("the game is over");
    assert_eq!(refused.code(), tonic::Code::FailedPrecondition);
    // The server holds one live game at most; the abandoned one stops counting once its task
    // has ended, a moment after its last event.
    let next = pb::CreateGameRequest { options: Some(straight_options(2, 100)), seats: Vec::new(), seed: None };
    let mut created = client.create_game(next.clone()).await;
    for _ in 0..50 {
        if created.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        created = client.create_game(next.clone()).await;
    }
    created.expect("the abandoned game's slot is free");
}
