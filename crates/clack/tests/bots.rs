//! Bots over gRPC: upload, validate, list, get, retire; games whose seats are bots play to the
//! end by themselves; a hostile bot's faults are recorded while the game goes on; matches
//! report results and keep ratings.

mod support;

use std::path::Path;
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_store::Durability;
use support::{Server, spectate, straight_options};

use tonic::Code;

fn source(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).expect("script")
}

fn bot_seat(bot_id: &str, version: &str) -> pb::SeatSpec {
    pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: bot_id.into(), version: version.into() })),
    }
}

async fn wait_finished(
    client: &mut clack_proto::v1::game_service_client::GameServiceClient<tonic::transport::Channel>,
    game: &str,
) -> pb::View {
    let started = Instant::now();
    loop {
        let view = spectate(client, game).await;
        if view.status == pb::GameStatus::Finished as i32 {
            return view;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the bot game did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_play_games_by_themselves_and_faults_are_recorded() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let mut games = server.games().await;
    let upload = |name: &str, kind: pb::GameKind, path: &str| pb::UploadBotRequest {
        name: name.into(),
        kind: kind as i32,
        source: source(path),
    };
    let greedy = bots
        .upload_bot(upload("greedy", pb::GameKind::Straight, "bots/straight-greedy.rhai"))
        .await
        .expect("upload")
        .into_inner();
    let again = bots
        .upload_bot(support::owned(
            upload("greedy", pb::GameKind::Straight, "bots/straight-greedy.rhai"),
            &greedy.owner_token,
        ))
        .await
        .expect("upload")
        .into_inner();
    assert_eq!(greedy.version, again.version, "the version is the content hash");
    let looping = bots
        .upload_bot(upload("looper", pb::GameKind::Straight, "tests/hostile/endless-loop.rhai"))
        .await
        .expect("upload")
        .into_inner();
    let broken = pb::UploadBotRequest {
        name: "broken".into(),
        kind: pb::GameKind::Straight as i32,
        source: "fn choose(view) {".into(),
    };
    let status = bots.upload_bot(broken).await.expect_err("does not compile");
    assert_eq!(status.code(), Code::InvalidArgument);
    assert!(status.message().contains("source"));

    let validated = bots
        .validate_bot(support::owned(
            pb::ValidateBotRequest { bot_id: "greedy".into(), version: None, games: 2 },
            &greedy.owner_token,
        ))
        .await
        .expect("validate")
        .into_inner();
    assert!(validated.ok && validated.games == 2 && validated.faults == 0, "{validated:?}");

    // A game of bots only plays to the end by itself; one seat loops and faults every move.
    let seats = vec![bot_seat("greedy", &greedy.version), bot_seat("looper", &looping.version)];
    let created = games
        .create_game(pb::CreateGameRequest { options: Some(straight_options(2, 60)), seats, seed: Some(3) })
        .await
        .expect("create")
        .into_inner();
    let view = wait_finished(&mut games, &created.game_id).await;
    assert_eq!(view.winners, vec![0], "greedy beats a bot that never answers");
    let log = server
        .replay()
        .await
        .get_log(pb::GetLogRequest { game_id: created.game_id.clone() })
        .await
        .expect("log")
        .into_inner();
    let faults: Vec<&pb::BotFaulted> = log
        .events
        .iter()
        .filter_map(|e| match &e.payload {
            Some(Payload::BotFaulted(f)) => Some(f),
            _ => None,
        })
        .collect();
    assert!(!faults.is_empty());
    assert!(faults.iter().all(|f| f.seat == 1 && (f.reason == "deadline" || f.reason == "operations")), "{faults:?}");

    let unknown = games
        .create_game(pb::CreateGameRequest {
            options: Some(straight_options(2, 60)),
            seats: vec![bot_seat("nobody", "0"), bot_seat("greedy", &greedy.version)],
            seed: None,
        })
        .await
        .expect_err("unknown bot");
    assert_eq!(unknown.code(), Code::NotFound);

    let listed = bots.list_bots(pb::ListBotsRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed.bots.len(), 2);
    let got = bots
        .get_bot(support::owned(pb::GetBotRequest { bot_id: "greedy".into(), version: None }, &greedy.owner_token))
        .await
        .expect("get")
        .into_inner();
    assert_eq!(got.source, source("bots/straight-greedy.rhai"));
    let retire = pb::RetireBotRequest { bot_id: "looper".into(), version: None };
    bots.retire_bot(support::owned(retire, &looping.owner_token)).await.expect("retire");
    assert_eq!(bots.list_bots(pb::ListBotsRequest::default()).await.expect("list").into_inner().bots.len(), 1);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_reports_per_bot_results_and_keeps_ratings() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    for (name, path) in [("builder", "bots/streets-builder.rhai"), ("random", "bots/streets-random.rhai")] {
        bots.upload_bot(pb::UploadBotRequest {
            name: name.into(),
            kind: pb::GameKind::Streets as i32,
            source: source(path),
        })
        .await
        .expect("upload");
    }
    let options = pb::GameOptions {
        time_control: None,
        rules: Some(pb::game_options::Rules::Streets(pb::StreetsOptions { players: Some(2), ..Default::default() })),
        bot_pace_millis: 0,
    };
    let entrants = vec![
        pb::MatchEntrant { bot_id: "builder".into(), version: None },
        pb::MatchEntrant { bot_id: "random".into(), version: None },
    ];
    let report = bots
        .run_match(pb::RunMatchRequest { options: Some(options), entrants, games: 20, seed: Some(1) })
        .await
        .expect("match")
        .into_inner();
    assert_eq!(report.results.len(), 2);
    assert!(report.results.iter().map(|r| r.wins).sum::<u32>() >= 20, "every game has a winner");
    let rating = report.results[0].rating;
    let stored =
        bots.get_bot(pb::GetBotRequest { bot_id: "builder".into(), version: None }).await.expect("get").into_inner();
    let version = &stored.bot.expect("summary").versions[0];
    assert_eq!(version.rating, rating, "the rating is kept");
    assert_eq!(version.games, 20);
    server.stop().await;
}

/// Found by `clack crashloop`: `Verify` read a game's log and then its summary, so a bot game
/// that moved in between was reported as a summary that disagrees with its log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verify_agrees_with_itself_while_a_bot_game_plays() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let mut games = server.games().await;
    let mut replay = server.replay().await;
    let random = bots
        .upload_bot(pb::UploadBotRequest {
            name: "random".into(),
            kind: pb::GameKind::Straight as i32,
            source: source("bots/straight-random.rhai"),
        })
        .await
        .expect("upload")
        .into_inner();
    let created = games
        .create_game(pb::CreateGameRequest {
            options: Some(straight_options(4, 250)),
            seats: vec![bot_seat(&random.bot_id, &random.version); 4],
            seed: Some(5),
        })
        .await
        .expect("create")
        .into_inner();
    let mut verified = 0;
    loop {
        let reply = replay.verify(pb::VerifyRequest { game_id: created.game_id.clone() }).await.expect("verify");
        let reply = reply.into_inner();
        assert!(reply.ok, "after {verified} checks: {}", reply.detail);
        verified += 1;
        if spectate(&mut games, &created.game_id).await.status == pb::GameStatus::Finished as i32 {
            break;
        }
    }
    assert!(verified > 1, "the game was checked while it played");
    server.stop().await;
}

async fn upload_greedy(
    bots: &mut clack_proto::v1::bot_service_client::BotServiceClient<tonic::transport::Channel>,
) -> pb::UploadBotResponse {
    let upload = pb::UploadBotRequest {
        name: "greedy".into(),
        kind: pb::GameKind::Straight as i32,
        source: source("bots/straight-greedy.rhai"),
    };
    bots.upload_bot(upload).await.expect("upload").into_inner()
}

/// A game that people watch can be paced: its bots act no sooner than the pace after the move
/// before, the pace is kept in the game's options (so a replay shows it), and a pace past the
/// most allowed is refused, naming the field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paced_game_of_bots_moves_no_faster_than_its_pace() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut bots, mut games) = (server.bots().await, server.games().await);
    let greedy = upload_greedy(&mut bots).await;
    let seats = vec![bot_seat(&greedy.bot_id, &greedy.version); 2];
    let paced = |millis| pb::GameOptions { bot_pace_millis: millis, ..straight_options(2, 250) };
    let too_slow = pb::CreateGameRequest { options: Some(paced(10_001)), seats: seats.clone(), seed: Some(3) };
    let refused = games.create_game(too_slow).await.expect_err("a pace over ten seconds");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("options.bot_pace_millis"), "{}", refused.message());

    let create = pb::CreateGameRequest { options: Some(paced(150)), seats, seed: Some(3) };
    let game = games.create_game(create).await.expect("create").into_inner().game_id;
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let view = spectate(&mut games, &game).await;
    assert_eq!(view.status, pb::GameStatus::Active as i32, "a paced game is still under way after a second");
    let mut watch = games
        .watch(pb::WatchRequest { game_id: game.clone(), seat: None, from_sequence: 1 })
        .await
        .expect("watch")
        .into_inner();
    let mut times = Vec::new();
    while times.len() < 6 {
        let reply = watch.message().await.expect("healthy").expect("the game goes on");
        let event = reply.event.expect("an event");
        if let Some(Payload::GameCreated(created)) = &event.payload {
            assert_eq!(created.options.as_ref().map(|o| o.bot_pace_millis), Some(150), "the pace is in the log");
        }
        if matches!(event.payload, Some(Payload::ActionApplied(_))) {
            times.push(event.unix_millis);
        }
    }
    // Stamps are whole milliseconds of the wall clock: allow one for the rounding.
    for pair in times.windows(2) {
        assert!(pair[1] - pair[0] >= 149, "bot actions {} ms apart: {times:?}", pair[1] - pair[0]);
    }
    server.stop().await;
}

/// A game with a bot and an open seat does not start until the open seat is taken: the bot
/// does not lead while the lobby says "waiting" (nor does any seat act), and it plays as soon
/// as the last seat is taken.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_waits_for_every_seat_to_be_taken() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut bots, mut games) = (server.bots().await, server.games().await);
    let greedy = upload_greedy(&mut bots).await;
    let open = pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) };
    let seats = vec![bot_seat(&greedy.bot_id, &greedy.version), open];
    // Eight fixed seeds: the bot's seat leads in some of them, and has the move while seat 1 is
    // open.
    let mut created = Vec::new();
    for seed in 0..8 {
        let create =
            pb::CreateGameRequest { options: Some(straight_options(2, 100)), seats: seats.clone(), seed: Some(seed) };
        created.push(games.create_game(create).await.expect("create").into_inner());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    for game in &created {
        let view = spectate(&mut games, &game.game_id).await;
        assert_eq!(view.status, pb::GameStatus::Waiting as i32);
        assert_eq!(view.sequence, game.sequence, "nothing is played before every seat is taken");
        assert_eq!(view.to_move, None, "nobody is to act in a game that has not started");
    }
    // Once the last seat is taken, the game is on: where the bot leads, it plays at once.
    let mut bot_moves = 0;
    for game in &created {
        let join = pb::JoinGameRequest { game_id: game.game_id.clone(), seat: Some(1), name: "me".into() };
        let joined = games.join_game(join).await.expect("join").into_inner();
        assert_eq!(joined.sequence, game.sequence + 1, "the join comes straight after the deal");
        let started = Instant::now();
        loop {
            let view = spectate(&mut games, &game.game_id).await;
            if view.sequence > joined.sequence {
                bot_moves += 1;
                break;
            }
            if view.to_move == Some(1) {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the game did not start");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    assert!(bot_moves > 0, "in some of the games the bot led, once the seat was taken");
    server.stop().await;
}

/// The actions of a stored game, in order.
async fn actions_of(server: &Server, game_id: &str) -> Vec<pb::ActionApplied> {
    let log =
        server.replay().await.get_log(pb::GetLogRequest { game_id: game_id.into() }).await.expect("log").into_inner();
    assert!(
        !log.events.iter().any(|e| matches!(e.payload, Some(Payload::BotFaulted(_)))),
        "an engine seat never faults"
    );
    log.events
        .into_iter()
        .filter_map(|e| match e.payload {
            Some(Payload::ActionApplied(applied)) => Some(applied),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_seats_play_either_game_the_same_way_for_the_same_seed() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let mut games = server.games().await;
    let greedy = upload_greedy(&mut bots).await.version;
    let engine = |level: &str| bot_seat(&format!("engine:{level}"), "");
    let straight = pb::CreateGameRequest {
        options: Some(straight_options(2, 60)),
        seats: vec![engine("fast"), bot_seat("greedy", &greedy)],
        seed: Some(11),
    };
    let mut played = Vec::new();
    for _ in 0..2 {
        let created = games.create_game(straight.clone()).await.expect("create").into_inner();
        wait_finished(&mut games, &created.game_id).await;
        played.push(actions_of(&server, &created.game_id).await);
    }
    assert!(played[0].len() > 10);
    assert_eq!(played[0], played[1], "the same seed and seats play the same game");

    let streets = pb::CreateGameRequest {
        options: Some(support::streets_options(2)),
        seats: vec![engine("fast"), engine("fast")],
        seed: Some(5),
    };
    let created = games.create_game(streets).await.expect("create").into_inner();
    let view = wait_finished(&mut games, &created.game_id).await;
    assert!(!view.winners.is_empty());
    assert!(actions_of(&server, &created.game_id).await.len() > 10);

    // Listing by bot: the games with a seat of it, newest first, a page at a time.
    let list = |bot_id: &str, page_size, page_token| pb::ListGamesRequest {
        bot_id: bot_id.into(),
        page_size,
        page_token,
        ..Default::default()
    };
    let listed = games.list_games(list("engine:fast", 0, String::new())).await.expect("list").into_inner();
    assert_eq!(listed.games.len(), 3, "every game seats engine:fast");
    assert_eq!(listed.games[0].game_id, created.game_id, "newest first");
    let mut greedy_games = Vec::new();
    let mut token = String::new();
    loop {
        let page = games.list_games(list("greedy", 1, token)).await.expect("list").into_inner();
        assert!(page.games.len() <= 1);
        greedy_games.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    assert_eq!(greedy_games.len(), 2, "only the Straight games seat greedy: {greedy_games:?}");
    assert!(!greedy_games.contains(&created.game_id));
    let none = games.list_games(list("nobody", 0, String::new())).await.expect("list").into_inner();
    assert!(none.games.is_empty() && none.next_page_token.is_empty());

    for (bot_id, version) in [("engine:wizard", ""), ("engine:fast", "9")] {
        let refused = games
            .create_game(pb::CreateGameRequest {
                seats: vec![bot_seat(bot_id, version), engine("fast")],
                ..straight.clone()
            })
            .await
            .expect_err("no such engine player");
        assert_eq!(refused.code(), Code::NotFound, "{bot_id}@{version}: {refused:?}");
        assert!(refused.message().contains("seats[0]"), "{}", refused.message());
    }
    server.stop().await;
}

/// The events of a finished game.
async fn events_of(server: &Server, game_id: &str) -> Vec<pb::Event> {
    let request = pb::GetLogRequest { game_id: game_id.into() };
    server.replay().await.get_log(request).await.expect("log").into_inner().events
}

/// Why did my bot do that: a bot's owner runs one of its decisions in a finished game again and
/// gets the view it saw, what it printed, what it chose and what that cost; a decision stopped
/// by the operations limit is stopped again at the same count. Nobody else may ask, and
/// anything but a bot's decision in a finished game is refused with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bots_owner_runs_one_of_its_decisions_again_on_the_view_it_saw() {
    use clack_store::{Durable, SledStore};
    let dir = tempfile::tempdir().expect("dir");
    let store = Durable::new(std::sync::Arc::new(SledStore::open(dir.path()).expect("store")), Durability::Batched)
        .expect("writer");
    // A deadline far beyond the operations limit, so that the looping bot always stops on the
    // operations, as it would on any machine.
    let limits =
        clack_bots::Limits { operations: 20_000, deadline: Duration::from_secs(20), ..clack_bots::Limits::default() };
    let library = clack_server::BotLibrary::open(store.clone(), limits).await.expect("bots");
    let host: std::sync::Arc<dyn clack_server::bots::BotHost> = library.clone();
    let hub = clack_server::Hub::open(store, Some(host), clack_server::Limits::default()).await.expect("hub");
    let server = Server::start_with(hub, Some(library), clack_server::ServeConfig::default()).await;
    let (mut bots, mut games) = (server.bots().await, server.games().await);
    let upload = |name: &str, source: &str| pb::UploadBotRequest {
        name: name.into(),
        kind: pb::GameKind::Straight as i32,
        source: source.into(),
    };
    let talker = "fn choose(view) { print(`my hand has ${view.hand.len()} tiles`); view.legal.len() - 1 }";
    let talker = bots.upload_bot(upload("talker", talker)).await.expect("upload").into_inner();
    let looper = source("tests/hostile/endless-loop.rhai");
    let looper = bots.upload_bot(upload("looper", &looper)).await.expect("upload").into_inner();
    let seats = vec![bot_seat("talker", &talker.version), bot_seat("looper", &looper.version)];
    let options = Some(straight_options(2, 60));
    let created = games.create_game(pb::CreateGameRequest { options, seats, seed: Some(5) }).await.expect("create");
    let game_id = created.into_inner().game_id;
    wait_finished(&mut games, &game_id).await;
    let events = events_of(&server, &game_id).await;
    let explain = |sequence: u64, token: &str| {
        support::owned(pb::ExplainDecisionRequest { game_id: game_id.clone(), sequence }, token)
    };

    // The talker's third move: the same choice, what it printed, and its view.
    let moved = events
        .iter()
        .filter(|e| matches!(&e.payload, Some(Payload::ActionApplied(a)) if a.seat == 0))
        .nth(2)
        .expect("a move of the talker");
    let told = bots.explain_decision(explain(moved.sequence, &talker.owner_token)).await.expect("explain").into_inner();
    assert!(told.same && told.fault_reason.is_empty(), "{told:?}");
    assert_eq!(told.action, told.recorded_action);
    assert_eq!((told.bot_id.as_str(), told.seat), ("talker", 0));
    let view: serde_json::Value = serde_json::from_str(&told.view_json).expect("the view is JSON");
    let legal = view["legal"].as_array().expect("view.legal").len();
    assert_eq!(told.choice, Some(legal as u32 - 1), "it chose the last legal action");
    let hand = view["hand"].as_array().expect("view.hand").len();
    assert_eq!(told.output, format!("my hand has {hand} tiles\n"));
    assert!(told.operations > 0 && told.operations < limits.operations, "{}", told.operations);
    assert_eq!((told.max_operations, told.deadline_millis), (20_000, 20_000));

    // The looper's fault, named by the fault or by the move played in its place: stopped by the
    // operations limit again.
    let fault =
        events.iter().find(|e| matches!(&e.payload, Some(Payload::BotFaulted(f)) if f.seat == 1)).expect("a fault");
    for sequence in [fault.sequence, fault.sequence + 1] {
        let told = bots.explain_decision(explain(sequence, &looper.owner_token)).await.expect("explain").into_inner();
        assert_eq!((told.fault_reason.as_str(), told.recorded_fault.as_str()), ("operations", "operations"));
        assert!(told.same && told.choice.is_none() && told.action.is_empty(), "{told:?}");
        assert!(told.operations >= limits.operations, "{}", told.operations);
        assert!(!told.recorded_action.is_empty(), "the move played in the fault's place");
    }

    // Only the owner: the other bot's owner and a stranger are refused.
    for token in [talker.owner_token.as_str(), "0".repeat(64).as_str()] {
        let refused = bots.explain_decision(explain(fault.sequence, token)).await.expect_err("not the owner");
        assert_eq!(refused.code(), Code::PermissionDenied, "{refused:?}");
    }
    // Not a decision, or no such event: the field is named.
    for sequence in [0, 1, events.len() as u64 + 1] {
        let refused = bots.explain_decision(explain(sequence, &talker.owner_token)).await.expect_err("no decision");
        assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
        assert!(refused.message().contains("sequence"), "{}", refused.message());
    }
    // A game still being played shows no one its bot's view.
    let seats = vec![bot_seat("talker", &talker.version), pb::SeatSpec::default()];
    let waiting =
        games.create_game(pb::CreateGameRequest { options: Some(straight_options(2, 60)), seats, seed: None });
    let waiting = waiting.await.expect("create").into_inner().game_id;
    let request = support::owned(pb::ExplainDecisionRequest { game_id: waiting, sequence: 1 }, &talker.owner_token);
    let refused = bots.explain_decision(request).await.expect_err("not finished");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    server.stop().await;
}
