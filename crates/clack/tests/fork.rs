//! ForkGame over gRPC against a real server and store: a bot game forked at every event and
//! played out by bots verifies on its own; a fork of a fork records its chain; a seat of a fork
//! sees only its own hand in the embedded parent events; forks are refused where there is no
//! move left, for unknown and unfinished games; `clack fork` forks from the command line.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_store::Durability;
use support::{Server, authed, spectate, streets_options};
use tokio_stream::StreamExt;
use tonic::Code;
use tonic::transport::Channel;

type Games = clack_proto::v1::game_service_client::GameServiceClient<Channel>;
type Replay = clack_proto::v1::replay_service_client::ReplayServiceClient<Channel>;

fn bot_seat(bot_id: &str, version: &str) -> pb::SeatSpec {
    pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: bot_id.into(), version: version.into() })),
    }
}

async fn wait_finished(games: &mut Games, game: &str) {
    let started = Instant::now();
    while spectate(games, game).await.status != pb::GameStatus::Finished as i32 {
        assert!(started.elapsed() < Duration::from_secs(120), "game {game} did not finish");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn log(replay: &mut Replay, game: &str) -> Vec<pb::Event> {
    replay.get_log(pb::GetLogRequest { game_id: game.into() }).await.expect("log").into_inner().events
}

fn fork_of(events: &[pb::Event]) -> &pb::Fork {
    match events.first().and_then(|e| e.payload.as_ref()) {
        Some(Payload::GameCreated(created)) => created.fork.as_ref().expect("a fork"),
        other => panic!("the first event is {other:?}"),
    }
}

fn fork_request(game: &str, sequence: u64, seats: Vec<pb::SeatSpec>) -> pb::ForkGameRequest {
    pb::ForkGameRequest { game_id: game.into(), sequence, seats, seed: Some(sequence), redeal_for: None }
}

/// A fork that re-deals what one seat could not see: that seat keeps its hand, the hidden
/// tiles move, the fork's log records the re-deal, replays and verifies on its own after being
/// played out by engine seats, and the other seat's copy of the record hides the new hands. A
/// seat that does not exist, or a fork point where no seat is to move, is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fork_re_dealt_from_one_seat_keeps_its_hand_and_verifies() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut games, mut replay) = (server.games().await, server.replay().await);
    let engines = || vec![bot_seat("engine:fast", ""), bot_seat("engine:fast", "")];
    let create =
        pb::CreateGameRequest { options: Some(support::straight_options(2, 60)), seats: engines(), seed: Some(4) };
    let parent = games.create_game(create).await.expect("create").into_inner().game_id;
    wait_finished(&mut games, &parent).await;
    let parent_log = log(&mut replay, &parent).await;
    // A point a few moves into the first round where seat 1 is to move.
    let at = parent_log
        .iter()
        .position(|e| matches!(&e.payload, Some(Payload::ActionApplied(a)) if a.seat == 0) && e.sequence > 6)
        .map(|i| parent_log[i].sequence)
        .expect("seat 0 acted");
    let before = pb::GetStateAtRequest { game_id: parent.clone(), sequence: at };
    let real = replay.get_state_at(before).await.expect("state").into_inner().view.expect("view");
    let mut moved = 0;
    for seed in 0..4u64 {
        let request =
            pb::ForkGameRequest { seed: Some(seed), redeal_for: Some(1), ..fork_request(&parent, at, engines()) };
        let fork = replay.fork_game(request).await.expect("fork").into_inner().game.expect("game").game_id;
        wait_finished(&mut games, &fork).await;
        let events = log(&mut replay, &fork).await;
        let redeal = fork_of(&events).redeal.as_ref().expect("the re-deal is recorded");
        assert_eq!(redeal.seat, 1);
        let verified = replay.verify(pb::VerifyRequest { game_id: fork.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "the re-dealt fork verifies: {}", verified.detail);
        let start = pb::GetStateAtRequest { game_id: fork.clone(), sequence: 1 };
        let view = replay.get_state_at(start).await.expect("state").into_inner().view.expect("view");
        let hand = |v: &pb::View, seat: u32| v.hands.iter().find(|h| h.seat == seat).map(|h| h.tiles.clone());
        assert_eq!(hand(&view, 1), hand(&real, 1), "the seat whose view was kept keeps its hand");
        moved += usize::from(hand(&view, 0) != hand(&real, 0));
    }
    assert!(moved > 0, "the hidden tiles moved in at least one of four re-deals");

    let refused = replay
        .fork_game(pb::ForkGameRequest { redeal_for: Some(5), ..fork_request(&parent, at, engines()) })
        .await
        .expect_err("no seat 5");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("redeal_for"), "{}", refused.message());
    let dealt = parent_log.iter().position(|e| matches!(e.payload, Some(Payload::Dealt(_)))).expect("a deal") as u64;
    let refused = replay
        .fork_game(pb::ForkGameRequest { redeal_for: Some(0), ..fork_request(&parent, dealt, engines()) })
        .await
        .expect_err("before the deal nothing is hidden yet");
    assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_game_forked_at_every_event_and_played_out_by_bots_verifies() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut games, mut replay, mut bots) = (server.games().await, server.replay().await, server.bots().await);
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots/streets-greedy.rhai"))
        .expect("bot");
    let upload = pb::UploadBotRequest { name: "greedy".into(), kind: pb::GameKind::Streets as i32, source };
    let bot = bots.upload_bot(upload).await.expect("upload").into_inner();
    let seats = || vec![bot_seat(&bot.bot_id, &bot.version), bot_seat(&bot.bot_id, &bot.version)];
    let create = pb::CreateGameRequest { options: Some(streets_options(2)), seats: seats(), seed: Some(9) };
    let parent = games.create_game(create).await.expect("create").into_inner().game_id;
    wait_finished(&mut games, &parent).await;
    let parent_log = log(&mut replay, &parent).await;
    let last = parent_log.len() as u64;

    let mut forks = Vec::new();
    for n in 1..=last {
        match replay.fork_game(fork_request(&parent, n, seats())).await {
            Ok(reply) => forks.push((n, reply.into_inner().game.expect("game").game_id)),
            Err(status) => {
                // The last action ends the game and only GameEnded follows it: no move is left.
                assert!(n >= last - 1, "the fork at {n} of {last} was refused: {status:?}");
                assert_eq!(status.code(), Code::InvalidArgument);
                assert!(status.message().contains("sequence"), "{}", status.message());
            }
        }
    }
    assert_eq!(forks.len() as u64, last - 2);
    for (n, fork) in &forks {
        wait_finished(&mut games, fork).await;
        let verified = replay.verify(pb::VerifyRequest { game_id: fork.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "the fork at {n} does not verify: {}", verified.detail);
        let events = log(&mut replay, fork).await;
        let origin = fork_of(&events);
        assert_eq!((origin.game_id.as_str(), origin.sequence), (parent.as_str(), *n));
        assert_eq!(origin.events, parent_log[..*n as usize], "the fork holds the parent's events up to {n}");
        // The log alone is enough: it replays without the server and without the parent.
        clack_log::GameLog::replay(&events).expect("replays alone");
    }

    // A fork of a fork records the chain.
    let (n, first) = forks[forks.len() / 2].clone();
    let second = replay
        .fork_game(fork_request(&first, 4, seats()))
        .await
        .expect("fork of a fork")
        .into_inner()
        .game
        .expect("game");
    wait_finished(&mut games, &second.game_id).await;
    let events = log(&mut replay, &second.game_id).await;
    let origin = fork_of(&events);
    assert_eq!((origin.game_id.as_str(), origin.sequence), (first.as_str(), 4));
    let grand = fork_of(&origin.events);
    assert_eq!((grand.game_id.as_str(), grand.sequence), (parent.as_str(), n));
    let chain = clack_log::GameLog::replay(&events).expect("replays").fork_chain();
    assert_eq!(chain, vec![(first.clone(), 4), (parent.clone(), n)]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_of_a_fork_sees_only_its_own_hand_and_bad_forks_are_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut games, mut replay) = (server.games().await, server.replay().await);
    let (parent, tokens) = support::new_game(&mut games, streets_options(2), 5).await;
    // Unfinished and unknown games cannot be forked.
    let status = replay.fork_game(fork_request(&parent, 2, Vec::new())).await.expect_err("live");
    assert_eq!(status.code(), Code::FailedPrecondition);
    let status = replay.fork_game(fork_request("no-such-game", 2, Vec::new())).await.expect_err("unknown");
    assert_eq!(status.code(), Code::NotFound);
    while support::play_one(&mut games, &parent, &tokens).await.expect("a move").is_some() {}
    wait_finished(&mut games, &parent).await;
    let status = replay.fork_game(fork_request(&parent, 0, Vec::new())).await.expect_err("sequence 0");
    assert_eq!(status.code(), Code::InvalidArgument);
    let status = replay.fork_game(fork_request(&parent, 4, vec![Default::default()])).await.expect_err("one seat");
    assert_eq!(status.code(), Code::InvalidArgument, "a two-player game needs two seats");
    let unknown = vec![bot_seat("nobody", "v"), bot_seat("nobody", "v")];
    let status = replay.fork_game(fork_request(&parent, 4, unknown)).await.expect_err("unknown bot");
    assert_eq!(status.code(), Code::NotFound, "as for CreateGame");

    // A fork with open seats, after the deal: seat 1 joins and watches.
    let fork = replay.fork_game(fork_request(&parent, 4, Vec::new())).await.expect("fork").into_inner();
    let fork = fork.game.expect("game").game_id;
    let join = pb::JoinGameRequest { game_id: fork.clone(), seat: Some(1), name: "b".into() };
    let token = games.join_game(join).await.expect("join").into_inner().seat_token;
    let status = replay.get_log(pb::GetLogRequest { game_id: fork.clone() }).await.expect_err("live fork");
    assert_eq!(status.code(), Code::FailedPrecondition);
    let watch = pb::WatchRequest { game_id: fork.clone(), seat: Some(1), from_sequence: 1 };
    let mut stream = games.watch(authed(watch, &token)).await.expect("watch").into_inner();
    let first = stream.next().await.expect("an event").expect("ok").event.expect("event");
    let Some(Payload::GameCreated(created)) = &first.payload else { panic!("GameCreated first") };
    assert_eq!(created.seed, None);
    let origin = created.fork.as_ref().expect("fork");
    let dealt = origin.events.iter().find_map(|e| match &e.payload {
        Some(Payload::Dealt(dealt)) => Some(dealt),
        _ => None,
    });
    for hand in &dealt.expect("the parent's deal").hands {
        assert_eq!(hand.tiles.is_empty(), hand.seat != 1, "seat 1 sees its own tiles only");
    }
    let spectator = games.watch(pb::WatchRequest { game_id: fork.clone(), seat: None, from_sequence: 1 });
    let seen = spectator.await.expect("watch").into_inner().next().await.expect("event").expect("ok");
    let Some(Payload::GameCreated(created)) = seen.event.and_then(|e| e.payload) else { panic!("GameCreated") };
    let embedded = created.fork.expect("fork").events;
    assert!(embedded.iter().all(|e| match &e.payload {
        Some(Payload::Dealt(dealt)) => dealt.hands.iter().all(|h| h.tiles.is_empty()),
        Some(Payload::TileDrawn(drawn)) => drawn.tile.is_none(),
        _ => true,
    }));

    // `clack fork` on the command line.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_clack"))
        .args([
            "fork",
            &parent,
            "3",
            "--server",
            &format!("http://{}", server.addr),
            "--seat",
            "open",
            "--seat",
            "open",
        ])
        .output()
        .expect("clack fork runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text} {}", String::from_utf8_lossy(&output.stderr));
    assert!(text.contains(&format!("forked from {parent} after event 3")), "{text}");
    server.stop().await;
}
