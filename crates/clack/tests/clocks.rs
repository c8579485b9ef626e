//! Turn clocks and abandoned games over real sockets, against the real `clack serve` binary:
//! what happens is read from the game's events and status, never from how long anything took.

mod support;

use std::process::Child;

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use support::{authed, spectate, straight_options};
use tonic::transport::Channel;

/// A `clack serve` process on a free port, killed when dropped.
struct Served {
    child: Child,
    url: String,
    client: GameServiceClient<Channel>,
}

impl Served {
    async fn replay(&self) -> ReplayServiceClient<Channel> {
        ReplayServiceClient::connect(self.url.clone()).await.expect("connect")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `clack serve` over `data` with extra flags.
async fn serve(data: &std::path::Path, flags: &[&str]) -> Served {
    let (child, url) = support::spawn_server(data, flags, &[]);
    let client = GameServiceClient::connect(url.clone()).await.expect("connect");
    Served { child, url, client }
}

async fn create(client: &mut GameServiceClient<Channel>, options: pb::GameOptions) -> String {
    let request = pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: Some(11) };
    client.create_game(request).await.expect("create").into_inner().game_id
}

async fn join(client: &mut GameServiceClient<Channel>, game_id: &str, seat: u32) -> String {
    let request = pb::JoinGameRequest { game_id: game_id.into(), seat: Some(seat), name: format!("p{seat}") };
    client.join_game(request).await.expect("join").into_inner().seat_token
}

/// Watches a game as a spectator from event `from` until an event `until` picks; returns
/// every message so far.
async fn watch_from(
    client: &mut GameServiceClient<Channel>,
    game_id: &str,
    from: u64,
    until: impl Fn(&Payload) -> bool,
) -> Vec<pb::WatchResponse> {
    let request = pb::WatchRequest { game_id: game_id.into(), seat: None, from_sequence: from };
    let mut stream = client.watch(request).await.expect("watch").into_inner();
    let mut messages = Vec::new();
    let wait = std::time::Duration::from_secs(20);
    loop {
        let message = tokio::time::timeout(wait, stream.message()).await.expect("the event comes").expect("stream");
        let message = message.expect("the stream goes on");
        let done = message.event.as_ref().and_then(|e| e.payload.as_ref()).is_some_and(&until);
        messages.push(message);
        if done {
            return messages;
        }
    }
}

/// The events of a game from its start until one `until` picks.
async fn watch_until(
    client: &mut GameServiceClient<Channel>,
    game_id: &str,
    until: impl Fn(&Payload) -> bool,
) -> Vec<pb::Event> {
    let messages = watch_from(client, game_id, 1, until).await;
    messages.into_iter().map(|m| m.event.expect("an event")).collect()
}

async fn events_to_end(client: &mut GameServiceClient<Channel>, game_id: &str) -> Vec<pb::Event> {
    watch_until(client, game_id, |p| matches!(p, Payload::GameEnded(_))).await
}

fn per_move(millis: u64, policy: pb::TimeoutPolicy) -> pb::GameOptions {
    let clock = pb::time_control::Clock::PerMoveMillis(millis);
    pb::GameOptions {
        time_control: Some(pb::TimeControl { clock: Some(clock), on_timeout: policy as i32 }),
        ..straight_options(2, 100)
    }
}

/// A two-seat game with both seats joined: (game id, token per seat).
async fn started(client: &mut GameServiceClient<Channel>, options: pb::GameOptions) -> (String, Vec<String>) {
    let game = create(client, options).await;
    let mut tokens = Vec::new();
    for seat in 0..2 {
        tokens.push(join(client, &game, seat).await);
    }
    (game, tokens)
}

fn timeout_of(events: &[pb::Event]) -> (usize, pb::SeatTimedOut) {
    events
        .iter()
        .enumerate()
        .find_map(|(i, e)| match e.payload {
            Some(Payload::SeatTimedOut(t)) => Some((i, t)),
            _ => None,
        })
        .expect("a timeout")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_nobody_finishes_joining_is_abandoned_and_frees_its_slot() {
    let dir = tempfile::tempdir().expect("dir");
    let mut served = serve(dir.path(), &["--join-timeout-secs", "1", "--max-live-games", "1"]).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_per_move_clock_runs_out_under_auto_move_and_the_first_legal_action_is_played() {
    let dir = tempfile::tempdir().expect("dir");
    let mut served = serve(dir.path(), &[]).await;
    let client = &mut served.client;
    let (game, tokens) = started(client, per_move(1_000, pb::TimeoutPolicy::AutoMove)).await;
    let view = spectate(client, &game).await;
    let seat = view.to_move.expect("a seat to act");
    assert!(view.deadline_unix_millis.is_some(), "the clock runs");
    let legal = pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(seat) };
    let legal = client.list_legal_actions(authed(legal, &tokens[seat as usize])).await.expect("legal").into_inner();

    let messages = watch_from(client, &game, 1, |p| matches!(p, Payload::ActionApplied(_))).await;
    let events: Vec<pb::Event> = messages.iter().map(|m| m.event.clone().expect("an event")).collect();
    let (at, timed_out) = timeout_of(&events);
    assert_eq!(timed_out.seat, seat);
    assert_eq!(timed_out.policy, pb::TimeoutPolicy::AutoMove as i32);
    // The stream carries the clocks with the move's last event: the other seat's turn started
    // with it.
    let live = messages.last().expect("the auto-move");
    assert_eq!(live.deadline_unix_millis, Some(events[at + 1].unix_millis + 1_000));
    assert_eq!(live.clocks.len(), 2);
    assert_eq!(events[at].sequence, legal.sequence + 1, "nothing happened between the listing and the timeout");
    assert!(events[at].unix_millis >= view.deadline_unix_millis.unwrap_or(i64::MAX));
    match &events[at + 1].payload {
        Some(Payload::ActionApplied(applied)) => {
            assert_eq!(applied.seat, seat);
            assert_eq!(applied.action, legal.actions.first().cloned(), "the first legal action");
        }
        other => panic!("expected the auto-move, got {other:?}"),
    }
    // Play goes on: the other seat is to act, on its own clock.
    let after = spectate(client, &game).await;
    assert_eq!(after.status, pb::GameStatus::Active as i32);
    let mut replay = served.replay().await;
    let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
    assert!(verified.ok, "{}", verified.detail);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_per_move_clock_runs_out_under_forfeit_and_the_other_side_wins() {
    let dir = tempfile::tempdir().expect("dir");
    let mut served = serve(dir.path(), &[]).await;
    let client = &mut served.client;
    let (game, tokens) = started(client, per_move(300, pb::TimeoutPolicy::Forfeit)).await;
    let seat = spectate(client, &game).await.to_move.expect("a seat to act");

    let events = events_to_end(client, &game).await;
    let (at, timed_out) = timeout_of(&events);
    assert_eq!(timed_out.seat, seat);
    assert_eq!(timed_out.policy, pb::TimeoutPolicy::Forfeit as i32);
    match &events[at + 1].payload {
        Some(Payload::GameEnded(ended)) => {
            assert_eq!(ended.reason, "timed_out");
            assert_eq!(ended.winners, vec![1 - seat]);
        }
        other => panic!("expected the end, got {other:?}"),
    }
    let view = spectate(client, &game).await;
    assert_eq!(view.status, pb::GameStatus::Finished as i32);
    assert_eq!(view.deadline_unix_millis, None);
    let legal = pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(seat) };
    let legal = client.list_legal_actions(authed(legal, &tokens[seat as usize])).await.expect("legal").into_inner();
    assert!(legal.actions.is_empty(), "a finished game has no moves");
    let mut replay = served.replay().await;
    let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
    assert!(verified.ok, "{}", verified.detail);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fischer_bank_is_spent_by_the_seats_own_turns() {
    let dir = tempfile::tempdir().expect("dir");
    let mut served = serve(dir.path(), &[]).await;
    let client = &mut served.client;
    let fischer = pb::FischerClock { initial_millis: 60_000, increment_millis: 0 };
    let options = pb::GameOptions {
        time_control: Some(pb::TimeControl {
            clock: Some(pb::time_control::Clock::Fischer(fischer)),
            on_timeout: pb::TimeoutPolicy::Forfeit as i32,
        }),
        ..straight_options(2, 100)
    };
    let (game, tokens) = started(client, options).await;
    let before = spectate(client, &game).await;
    let seat = before.to_move.expect("a seat to act");
    let bank = |view: &pb::View, seat: u32| view.clocks.iter().find(|c| c.seat == seat).map(|c| c.remaining_millis);
    assert_eq!(bank(&before, seat), Some(60_000));
    assert_eq!(bank(&before, 1 - seat), Some(60_000));

    // The seat thinks for a while (at least 20 ms), then plays.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let token = &tokens[seat as usize];
    let legal = pb::ListLegalActionsRequest { game_id: game.clone(), seat: Some(seat) };
    let legal = client.list_legal_actions(authed(legal, token)).await.expect("legal").into_inner();
    let mut request = support::act_request(&game, seat, &legal, legal.actions[0]);
    request.view = pb::ActView::Full as i32;
    let after = client.act(authed(request, token)).await.expect("act").into_inner().view.expect("full view");

    // The bank lost exactly the time between the event that gave the seat its turn and its
    // action, as the events' own times say.
    let events = watch_until(client, &game, |p| matches!(p, Payload::ActionApplied(_))).await;
    let turn_started = events[events.len() - 2].unix_millis;
    let acted = events[events.len() - 1].unix_millis;
    assert!(acted - turn_started >= 20);
    assert_eq!(bank(&after, seat), Some(60_000 - (acted - turn_started)));
    assert_eq!(bank(&after, 1 - seat), Some(60_000), "the other seat's bank is untouched");
    assert_eq!(after.sequence, events[events.len() - 1].sequence);
    assert_eq!(after.deadline_unix_millis, Some(acted + 60_000), "the other seat's turn started at the action");
    // A watcher catching up gets the same clocks with the latest event.
    let latest = watch_from(client, &game, after.sequence, |_| true).await.remove(0);
    assert_eq!(latest.event.map(|e| e.sequence), Some(after.sequence));
    assert_eq!(latest.clocks, after.clocks);
    assert_eq!(latest.deadline_unix_millis, after.deadline_unix_millis);
}

fn unix_millis() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).expect("after 1970");
    i64::try_from(since.as_millis()).expect("fits")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_survive_sigkill_and_a_deadline_passed_while_down_fires_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    let flags = ["--join-timeout-secs", "3"];
    let mut served = serve(dir.path(), &flags).await;
    let client = &mut served.client;
    let (short, _) = started(client, per_move(3_000, pb::TimeoutPolicy::AutoMove)).await;
    let (long, _) = started(client, per_move(600_000, pb::TimeoutPolicy::Forfeit)).await;
    let unjoined = create(client, straight_options(2, 100)).await;
    join(client, &unjoined, 0).await;
    let short_view = spectate(client, &short).await;
    let short_deadline = short_view.deadline_unix_millis.expect("the short clock runs");
    let long_deadline = spectate(client, &long).await.deadline_unix_millis.expect("the long clock runs");

    served.child.kill().expect("SIGKILL");
    served.child.wait().expect("reaped");
    let killed_at = unix_millis();
    assert!(killed_at < short_deadline, "the server died before the short clock ran out");
    // Stay down until the short clock has run out.
    while unix_millis() <= short_deadline + 100 {
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    let mut served = serve(dir.path(), &flags).await;
    let client = &mut served.client;
    let events = watch_until(client, &short, |p| matches!(p, Payload::ActionApplied(_))).await;
    let (at, timed_out) = timeout_of(&events);
    assert_eq!(Some(timed_out.seat), short_view.to_move);
    assert!(events[at].unix_millis > killed_at, "the timeout was recorded after the restart");
    assert!(matches!(events[at + 1].payload, Some(Payload::ActionApplied(_))), "the auto-move follows");

    let long_view = spectate(client, &long).await;
    assert_eq!(long_view.status, pb::GameStatus::Active as i32);
    assert_eq!(long_view.deadline_unix_millis, Some(long_deadline), "the clock continues from its stored deadline");

    let ending = events_to_end(client, &unjoined).await;
    assert!(ending.iter().any(|e| matches!(&e.payload, Some(Payload::GameAbandoned(a)) if a.reason == "join_timeout")));

    let mut replay = served.replay().await;
    for game in [&short, &long, &unjoined] {
        let verified = replay.verify(pb::VerifyRequest { game_id: game.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{game}: {}", verified.detail);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_time_control_is_refused_naming_the_field() {
    let dir = tempfile::tempdir().expect("dir");
    let mut served = serve(dir.path(), &[]).await;
    let client = &mut served.client;
    let no_clock = pb::GameOptions {
        time_control: Some(pb::TimeControl { clock: None, on_timeout: 0 }),
        ..straight_options(2, 100)
    };
    let bad_policy = pb::GameOptions {
        time_control: Some(pb::TimeControl {
            clock: Some(pb::time_control::Clock::PerMoveMillis(1_000)),
            on_timeout: 42,
        }),
        ..straight_options(2, 100)
    };
    let zero_bank = pb::GameOptions {
        time_control: Some(pb::TimeControl {
            clock: Some(pb::time_control::Clock::Fischer(pb::FischerClock { initial_millis: 0, increment_millis: 5 })),
            on_timeout: 0,
        }),
        ..straight_options(2, 100)
    };
    for (options, field) in [
        (per_move(0, pb::TimeoutPolicy::Forfeit), "options.time_control.per_move_millis"),
        (no_clock, "options.time_control.clock"),
        (bad_policy, "options.time_control.on_timeout"),
        (zero_bank, "options.time_control.fischer.initial_millis"),
    ] {
        let request = pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: None };
        let status = client.create_game(request).await.expect_err("refused");
        assert_eq!(status.code(), tonic::Code::InvalidArgument);
        assert!(status.message().contains(field), "{field}: {}", status.message());
    }
}
