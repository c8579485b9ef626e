//! Remote bots over real sockets: a program registers a bot, holds its `ConnectBot` stream, is
//! offered its seats with their tokens, and plays them over `Play`; a second connection, a seat
//! for a bot that is not connected, a move that never comes and an answer that is garbage each
//! have their defined outcome; a match seats the remote bot like a script.

mod support;

use std::sync::Arc;
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_proto::v1::connect_bot_response::Message as Connection;
use clack_proto::v1::play_move::Choice;
use clack_proto::v1::play_response::Message;
use clack_server::{BotLibrary, Hub, Limits, ServeConfig};
use clack_store::{Durability, Durable, SledStore};
use support::{Server, authed, board, board_after, owned, straight_options};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// How long a remote seat may think in these tests.
const MOVE_LIMIT: Duration = Duration::from_millis(300);

async fn server(dir: &std::path::Path) -> Server {
    server_with(dir, Limits::default(), ServeConfig::default()).await
}

async fn server_with(dir: &std::path::Path, limits: Limits, config: ServeConfig) -> Server {
    let store = Durable::new(Arc::new(SledStore::open(dir).expect("store")), Durability::Batched).expect("writer");
    let bots = BotLibrary::open(store.clone(), clack_bots::Limits::default()).await.expect("bots");
    bots.remotes().set_move_limit(MOVE_LIMIT);
    let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
    let hub = Hub::open(store, Some(host), limits).await.expect("hub");
    Server::start_with(hub, Some(bots), config).await
}

fn seat(bot_id: &str, version: &str) -> pb::SeatSpec {
    let bot = pb::BotSeat { bot_id: bot_id.into(), version: version.into() };
    pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Bot(bot)) }
}

async fn next_offer(connection: &mut Streaming<pb::ConnectBotResponse>) -> pb::SeatOffer {
    // Generous: a ladder's offer may wait for a deal of others to end on a loaded machine.
    let next = tokio::time::timeout(Duration::from_secs(60), connection.next()).await.expect("an offer in time");
    match next.expect("the stream is open").expect("healthy").message {
        Some(Connection::Offer(offer)) => offer,
        other => panic!("expected an offer, got {other:?}"),
    }
}

/// What a program saw playing one seat.
#[derive(Debug, Default)]
struct Played {
    turns: usize,
    rejected: usize,
}

/// Plays an offered seat to the game's end over `Play`: the first legal action every turn,
/// except that turn `silent` (counted from 0) is never answered and turn `garbage` is first
/// answered with a notation that is no action.
async fn play_seat(url: String, offer: pb::SeatOffer, silent: Option<usize>, garbage: Option<usize>) -> Played {
    play_seat_until(url, offer, (silent, garbage), None).await
}

/// [`play_seat`], except that at turn `gone` (if given) the program stops playing: the `Play`
/// stream is dropped with that turn unanswered.
async fn play_seat_until(
    url: String,
    offer: pb::SeatOffer,
    (silent, garbage): (Option<usize>, Option<usize>),
    gone: Option<usize>,
) -> Played {
    let mut client = clack_proto::v1::game_service_client::GameServiceClient::connect(url).await.expect("connect");
    let (moves, outbound) = mpsc::channel(16);
    let hello = pb::PlayHello { game_id: offer.game_id.clone(), seat: None, after_sequence: 0 };
    moves.send(pb::PlayRequest { message: Some(pb::play_request::Message::Hello(hello)) }).await.expect("queued");
    let request = authed(ReceiverStream::new(outbound), &offer.seat_token);
    let mut replies = client.play(request).await.expect("play").into_inner();
    let mut played = Played::default();
    let send = |sequence, choice| pb::PlayRequest {
        message: Some(pb::play_request::Message::Move(pb::PlayMove { turn_sequence: sequence, choice: Some(choice) })),
    };
    while let Some(reply) = replies.next().await {
        match reply.expect("healthy").message.expect("a message") {
            Message::Turn(turn) => {
                let index = played.turns;
                if gone == Some(index) {
                    break;
                }
                played.turns += 1;
                if silent == Some(index) {
                    continue;
                }
                if garbage == Some(index) {
                    moves.send(send(turn.sequence, Choice::Notation("9-9 nowhere".into()))).await.expect("sent");
                }
                moves.send(send(turn.sequence, Choice::Index(0))).await.expect("sent");
            }
            Message::Rejected(_) => played.rejected += 1,
            Message::Event(_) => {}
        }
    }
    played
}

/// Where a match stands at its end.
async fn watch_to_end(bots: &mut BotServiceClient<Channel>, match_id: String) -> pb::WatchMatchResponse {
    let mut watch = bots.watch_match(pb::WatchMatchRequest { match_id }).await.expect("watch").into_inner();
    let mut last = None;
    while let Some(progress) = watch.next().await {
        last = Some(progress.expect("healthy"));
    }
    last.expect("progress")
}

async fn faults(url: &str, game_id: &str) -> Vec<pb::BotFaulted> {
    let mut replay =
        clack_proto::v1::replay_service_client::ReplayServiceClient::connect(url.to_owned()).await.expect("connect");
    let log = replay.get_log(pb::GetLogRequest { game_id: game_id.into() }).await.expect("log").into_inner();
    log.events
        .into_iter()
        .filter_map(|e| match e.payload {
            Some(pb::event::Payload::BotFaulted(fault)) => Some(fault),
            _ => None,
        })
        .collect()
}

async fn register(bots: &mut BotServiceClient<Channel>) -> (String, String) {
    let request = pb::RegisterRemoteBotRequest {
        name: "far".into(),
        kind: pb::GameKind::Straight as i32,
        version: String::new(),
    };
    let registered = bots.register_remote_bot(request).await.expect("registered").into_inner();
    assert_eq!(registered.version, "v1", "an empty label is v1");
    assert!(!registered.owner_token.is_empty(), "an anonymous owner gets a token");
    (registered.bot_id, registered.owner_token)
}

#[tokio::test]
async fn a_remote_bot_is_offered_its_seats_and_plays_them_over_play() {
    let dir = tempfile::tempdir().expect("dir");
    let server = server(dir.path()).await;
    let url = format!("http://{}", server.addr);
    let mut bots = server.bots().await;
    let mut games = server.games().await;
    let (bot_id, token) = register(&mut bots).await;

    // Not connected: not seated.
    let create = |seats| pb::CreateGameRequest { options: Some(straight_options(2, 60)), seats, seed: Some(7) };
    let refused = games.create_game(create(vec![seat(&bot_id, "v1"), seat("engine:fast", "")])).await.expect_err("no");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    assert!(refused.message().contains("not connected"), "{}", refused.message());

    // Only the owner connects, once.
    let connect = pb::ConnectBotRequest { bot_id: bot_id.clone(), version: None };
    let stranger = bots.connect_bot(connect.clone()).await.expect_err("not the owner");
    assert_eq!(stranger.code(), Code::PermissionDenied, "{stranger:?}");
    let mut connection = bots.connect_bot(owned(connect.clone(), &token)).await.expect("connects").into_inner();
    match connection.next().await.expect("hello").expect("healthy").message {
        Some(Connection::Connected(hello)) => {
            assert_eq!((hello.version.as_str(), hello.move_limit_millis), ("v1", MOVE_LIMIT.as_millis() as u64));
        }
        other => panic!("expected the hello, got {other:?}"),
    }
    let twice = bots.connect_bot(owned(connect.clone(), &token)).await.expect_err("a second connection");
    assert_eq!(twice.code(), Code::AlreadyExists, "{twice:?}");
    let listed = bots.get_bot(pb::GetBotRequest { bot_id: bot_id.clone(), version: None }).await.expect("get");
    let summary = listed.into_inner().bot.expect("summary");
    assert!(summary.remote);
    assert_eq!(summary.connected, ["v1"]);

    // A game: the seat is offered with its token, and played over Play; one turn is left
    // unanswered (a fault at the move limit, the first legal action played for it) and one is
    // first answered with garbage (refused on the stream, the turn stands).
    let created = games.create_game(create(vec![seat(&bot_id, "v1"), seat("engine:fast", "")])).await.expect("created");
    let game_id = created.into_inner().game_id;
    let offer = next_offer(&mut connection).await;
    assert_eq!((offer.game_id.as_str(), offer.seat, offer.match_id.as_str()), (game_id.as_str(), 0, ""));
    let played = play_seat(url.clone(), offer, Some(2), Some(4)).await;
    assert!(played.turns >= 5, "{played:?}");
    assert_eq!(played.rejected, 1, "the garbage answer is refused once: {played:?}");
    let faults = faults(&url, &game_id).await;
    assert_eq!(faults.len(), 1, "only the silent turn faulted: {faults:?}");
    assert_eq!((faults[0].reason.as_str(), faults[0].seat, faults[0].bot_id.as_str()), ("deadline", 0, "far"));
    let mut replay = server.replay().await;
    let verified = replay.verify(pb::VerifyRequest { game_id: game_id.clone() }).await.expect("verify").into_inner();
    assert!(verified.ok, "{}", verified.detail);

    // A match seats it like a script: each game is offered, with the match's id.
    let entrants = vec![
        pb::MatchEntrant { bot_id: bot_id.clone(), version: Some("v1".into()) },
        pb::MatchEntrant { bot_id: "engine:fast".into(), version: None },
    ];
    let start = pb::StartMatchRequest { options: Some(straight_options(2, 60)), entrants, games: 2, seed: Some(3) };
    let match_id = bots.start_match(start).await.expect("started").into_inner().match_id;
    for _ in 0..2 {
        let offer = next_offer(&mut connection).await;
        assert_eq!(offer.match_id, match_id);
        play_seat(url.clone(), offer, None, None).await;
    }
    let last = watch_to_end(&mut bots, match_id).await;
    assert_eq!(last.status, pb::MatchStatus::Finished as i32, "{last:?}");
    assert_eq!(last.done, 2);
    assert_eq!(last.standings[0].faults, 0, "{last:?}");

    // Gone: the version is no longer connected, and its new seats are refused.
    drop(connection);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let refused = games.create_game(create(vec![seat(&bot_id, "v1"), seat("engine:fast", "")])).await.expect_err("no");
    assert_eq!(refused.code(), Code::FailedPrecondition, "{refused:?}");
    server.stop().await;
}

/// In a team game one remote version may hold both partner seats, as the team ladder seats it:
/// each seat is offered on the one connection, with its own token, and a program that plays its
/// offers side by side plays both to the game's end without a fault.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_bot_in_both_partner_seats_is_offered_both_and_plays_them() {
    let dir = tempfile::tempdir().expect("dir");
    let server = server(dir.path()).await;
    let url = format!("http://{}", server.addr);
    let mut bots = server.bots().await;
    let mut games = server.games().await;
    let (bot_id, token) = register(&mut bots).await;
    let connect = pb::ConnectBotRequest { bot_id: bot_id.clone(), version: None };
    let mut connection = bots.connect_bot(owned(connect, &token)).await.expect("connects").into_inner();
    connection.next().await.expect("hello").expect("healthy");

    let mut options = straight_options(4, 60);
    if let Some(pb::game_options::Rules::Straight(straight)) = options.rules.as_mut() {
        straight.teams = Some(true);
    }
    let seats = vec![seat(&bot_id, "v1"), seat("engine:fast", ""), seat(&bot_id, "v1"), seat("engine:fast", "")];
    let request = pb::CreateGameRequest { options: Some(options), seats, seed: Some(11) };
    let game_id = games.create_game(request).await.expect("created").into_inner().game_id;
    let (first, second) = (next_offer(&mut connection).await, next_offer(&mut connection).await);
    let mut offered = [first.seat, second.seat];
    offered.sort_unstable();
    assert_eq!(offered, [0, 2], "both partner seats are offered");
    assert_eq!((first.game_id.as_str(), second.game_id.as_str()), (game_id.as_str(), game_id.as_str()));
    assert_ne!(first.seat_token, second.seat_token, "each seat has its own token");
    let both = tokio::join!(play_seat(url.clone(), first, None, None), play_seat(url.clone(), second, None, None));
    assert!(both.0.turns > 0 && both.1.turns > 0, "both seats played: {both:?}");
    assert_eq!(faults(&url, &game_id).await, [], "no turn of either seat faulted");
    let mut replay = server.replay().await;
    let verified = replay.verify(pb::VerifyRequest { game_id }).await.expect("verify").into_inner();
    assert!(verified.ok, "the game ended and replays: {}", verified.detail);
    server.stop().await;
}

#[tokio::test]
async fn a_remote_bot_that_goes_away_mid_game_faults_each_turn_and_the_game_ends() {
    let dir = tempfile::tempdir().expect("dir");
    let server = server(dir.path()).await;
    let url = format!("http://{}", server.addr);
    let mut bots = server.bots().await;
    let (bot_id, token) = register(&mut bots).await;
    let connect = pb::ConnectBotRequest { bot_id: bot_id.clone(), version: Some("v1".into()) };
    let mut connection = bots.connect_bot(owned(connect, &token)).await.expect("connects").into_inner();
    let hello = connection.next().await.expect("hello").expect("healthy");
    assert!(matches!(hello.message, Some(Connection::Connected(_))));
    let mut games = server.games().await;
    let seats = vec![seat("engine:fast", ""), seat(&bot_id, "v1")];
    let create = pb::CreateGameRequest { options: Some(straight_options(2, 30)), seats, seed: Some(11) };
    let game_id = games.create_game(create).await.expect("created").into_inner().game_id;
    let offer = next_offer(&mut connection).await;
    assert_eq!(offer.seat, 1);
    drop(connection);
    // Nobody plays seat 1: its turns fault (at once, the program being gone), and the game
    // ends.
    let request = pb::WatchRequest { game_id: game_id.clone(), ..Default::default() };
    let mut watch = games.watch(request).await.expect("watch").into_inner();
    let ended = tokio::time::timeout(Duration::from_secs(120), async {
        while let Some(event) = watch.next().await {
            if matches!(event.expect("healthy").event.and_then(|e| e.payload), Some(pb::event::Payload::GameEnded(_))) {
                return true;
            }
        }
        false
    })
    .await
    .expect("the game ends in time");
    assert!(ended);
    let faults = faults(&url, &game_id).await;
    assert!(faults.iter().all(|f| f.seat == 1), "{faults:?}");
    assert!(faults.iter().all(|f| f.reason == "disconnected" || f.reason == "deadline"), "{faults:?}");
    assert!(faults.iter().filter(|f| f.reason == "disconnected").count() >= faults.len() - 1, "{faults:?}");
    server.stop().await;
}

/// A match's live game is background work: on a server at its live-games limit it waits for a
/// slot (here, until a game nobody joined is abandoned) instead of taking one past the limit.
#[tokio::test]
async fn a_match_game_with_a_remote_bot_waits_for_room_under_the_live_games_limit() {
    let dir = tempfile::tempdir().expect("dir");
    let limits = Limits { live_games: 1, join_timeout: Duration::from_millis(1500), ..Limits::default() };
    let server = server_with(dir.path(), limits, ServeConfig::default()).await;
    let url = format!("http://{}", server.addr);
    let mut bots = server.bots().await;
    let mut games = server.games().await;
    let (bot_id, token) = register(&mut bots).await;
    let connect = pb::ConnectBotRequest { bot_id: bot_id.clone(), version: None };
    let mut connection = bots.connect_bot(owned(connect, &token)).await.expect("connects").into_inner();
    connection.next().await.expect("hello").expect("healthy");

    // One game that nobody joins fills the server.
    let open = pb::CreateGameRequest { options: Some(straight_options(2, 60)), seats: vec![], seed: Some(1) };
    games.create_game(open.clone()).await.expect("the one live game");
    let full = games.create_game(open).await.expect_err("the server is full");
    assert_eq!(full.code(), Code::ResourceExhausted, "{full:?}");

    let entrants = vec![
        pb::MatchEntrant { bot_id: bot_id.clone(), version: Some("v1".into()) },
        pb::MatchEntrant { bot_id: "engine:fast".into(), version: None },
    ];
    let start = pb::StartMatchRequest { options: Some(straight_options(2, 60)), entrants, games: 1, seed: Some(3) };
    let started = tokio::time::Instant::now();
    let match_id = bots.start_match(start).await.expect("started").into_inner().match_id;
    let offer = next_offer(&mut connection).await;
    assert!(
        started.elapsed() >= Duration::from_millis(1000),
        "offered after {:?}, before the open game was abandoned",
        started.elapsed()
    );
    assert_eq!(offer.match_id, match_id);
    play_seat(url, offer, None, None).await;
    assert_eq!(watch_to_end(&mut bots, match_id).await.status, pb::MatchStatus::Finished as i32);
    server.stop().await;
}

/// A server whose ladder plays `straight-2` as fast as it may, anchored to `engine:fast`, with
/// the greedy script uploaded (so that deals go on while the remote bot is away) and the remote
/// bot registered.
struct OnLadder {
    _dir: tempfile::TempDir,
    server: Server,
    url: String,
    bots: BotServiceClient<Channel>,
    bot_id: String,
    token: String,
}

impl OnLadder {
    async fn start() -> OnLadder {
        use clack_server::ladder::{Configuration, LadderSettings};
        let dir = tempfile::tempdir().expect("dir");
        let ladder =
            LadderSettings { share: 1.0, anchor: "engine:fast".into(), configurations: vec![Configuration::Straight2] };
        let config = ServeConfig { ladder: Some(ladder), ..ServeConfig::default() };
        let server = server_with(dir.path(), Limits::default(), config).await;
        let mut bots = server.bots().await;
        let source = include_str!("../../../bots/straight-greedy.rhai").to_owned();
        let upload = pb::UploadBotRequest { name: "greedy".into(), kind: pb::GameKind::Straight as i32, source };
        bots.upload_bot(upload).await.expect("upload");
        let (bot_id, token) = register(&mut bots).await;
        OnLadder { url: format!("http://{}", server.addr), _dir: dir, server, bots, bot_id, token }
    }

    /// Opens the connection of the remote bot's version v1 and reads its hello.
    async fn connect(&mut self) -> Streaming<pb::ConnectBotResponse> {
        let connect = pb::ConnectBotRequest { bot_id: self.bot_id.clone(), version: Some("v1".into()) };
        let mut connection = self.bots.connect_bot(owned(connect, &self.token)).await.expect("connects").into_inner();
        let hello = connection.next().await.expect("hello").expect("healthy");
        assert!(matches!(hello.message, Some(Connection::Connected(_))), "{hello:?}");
        connection
    }

    /// The remote bot's finished games.
    async fn listed(&self) -> Vec<pb::GameSummary> {
        let mut games =
            clack_proto::v1::game_service_client::GameServiceClient::connect(self.url.clone()).await.expect("connect");
        let request = pb::ListGamesRequest {
            page_size: 100,
            status: pb::GameStatus::Finished as i32,
            bot_id: self.bot_id.clone(),
            ..pb::ListGamesRequest::default()
        };
        games.list_games(request).await.expect("list").into_inner().games
    }

    /// The remote bot's games counted on `board`.
    fn counted(&self, board: &pb::GetLeaderboardResponse) -> u64 {
        board.entries.iter().find(|e| e.bot_id == self.bot_id).map_or(0, |e| e.games)
    }

    /// The remote bot's rating and interval on `board`, where the ladder no longer schedules it
    /// (its program gone, or its version retired), checked: it counts the games it played as
    /// they are listed, it is marked retired exactly when `GetBot` says it is, and it is shown at
    /// its rating and interval after the last deal it played.
    async fn shown(&mut self, board: &pb::GetLeaderboardResponse) -> (f64, f64) {
        let listed = self.listed().await.len() as u64;
        let entry = board.entries.iter().find(|e| e.bot_id == self.bot_id).expect("on the board");
        assert_eq!(entry.games, listed, "the board counts the games listed: {board:?}");
        let asked = pb::GetBotRequest { bot_id: self.bot_id.clone(), version: None };
        let summary = self.bots.get_bot(asked).await.expect("get").into_inner().bot.expect("summary");
        assert_eq!(entry.retired, summary.versions[0].retired, "retired means retired: {entry:?}, {summary:?}");
        let history = pb::GetRatingHistoryRequest {
            configuration: "straight-2".into(),
            bot_id: self.bot_id.clone(),
            version: "v1".into(),
        };
        let points = self.bots.get_rating_history(history).await.expect("history").into_inner().points;
        let last = points.last().expect("a deal played");
        assert_eq!((entry.rating, entry.ci95), (last.rating, last.ci95), "shown at its rating after its last deal");
        (entry.rating, entry.ci95)
    }
}

/// A program that plays every seat offered on `connection` until told to stop; then it goes
/// away (its connection dropped), between games or once the game it is playing has ended.
fn play_offers(url: String, mut connection: Streaming<pb::ConnectBotResponse>) -> tokio::sync::oneshot::Sender<()> {
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                biased;
                _ = &mut stopped => break,
                next = connection.next() => match next.and_then(|n| n.ok()).and_then(|n| n.message) {
                    Some(Connection::Offer(offer)) => {
                        play_seat(url.clone(), offer, None, None).await;
                    }
                    Some(Connection::Connected(_)) => {}
                    None => break,
                },
            }
        }
    });
    stop
}

/// Whether greedy had a seat in one of `games`.
fn met_greedy(games: &[pb::GameSummary]) -> bool {
    games.iter().any(|g| g.seats.iter().any(|s| s.bot.as_ref().is_some_and(|b| b.bot_id == "greedy")))
}

/// A remote bot's program that goes away in the middle of a ladder deal cuts the deal short:
/// the game it was playing ends (its turns fault) and the deal's next game cannot start. The
/// deal counts what was played: the board counts exactly the games `ListGames` lists for it.
/// Merely disconnected, it is not shown retired, and it keeps the rating it had after its deal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ladder_deal_cut_short_by_a_remote_bot_going_away_counts_the_game_it_played() {
    let mut case = OnLadder::start().await;
    let mut connection = case.connect().await;
    let offer = next_offer(&mut connection).await;
    assert_eq!(offer.match_id, "ladder:straight-2");
    let before = board(&mut case.bots).await.deals;
    // Two turns, then the program is gone in the middle of the deal's first game.
    let played = play_seat_until(case.url.clone(), offer, (None, None), Some(2)).await;
    assert_eq!(played.turns, 2);
    drop(connection);

    // The ladder has gone on past that deal.
    let later = board_after(&mut case.bots, before + 2).await;
    let listed = case.listed().await;
    assert_eq!(listed.len(), 1, "the first game ended, the second never started: {listed:?}");
    assert_eq!(case.counted(&later), 1, "the game it played counts on the board: {later:?}");
    case.shown(&later).await;
    case.server.stop().await;
}

/// A remote bot's version whose program has gone stays on the board as it was: not retired
/// (`GetBot` agrees), with its rating and interval after the last deal it played, however the
/// ratings of those it played move afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnected_remote_version_keeps_its_place_unretired_at_its_last_rating() {
    let mut case = OnLadder::start().await;
    let stop = play_offers(case.url.clone(), case.connect().await);
    // Until it has played greedy (whose rating goes on moving after it is gone, and with it
    // the fit of everyone greedy played) and its deals are on the board.
    let started = std::time::Instant::now();
    loop {
        let listed = case.listed().await;
        let board = board(&mut case.bots).await;
        if met_greedy(&listed) && case.counted(&board) == listed.len() as u64 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(240), "{listed:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.send(()).expect("the program is still playing");

    let gone = board(&mut case.bots).await.deals;
    let later = board_after(&mut case.bots, gone + 3).await;
    let last = case.shown(&later).await;
    let greedy = |b: &pb::GetLeaderboardResponse| b.entries.iter().find(|e| e.bot_id == "greedy").map(|e| e.rating);
    let more = board_after(&mut case.bots, later.deals + 2).await;
    assert_ne!(greedy(&later), greedy(&more), "greedy played on");
    assert_eq!(case.shown(&more).await, last, "and stays there");
    case.server.stop().await;
}

/// A remote bot's version retired during a ladder deal plays the deal out, as a version
/// retired during a match plays the match out: the deal's next game is offered, and both games
/// count on the board. Then it plays no more, is shown retired, and keeps the rating it had
/// after that deal, however the ratings of those it played move afterwards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_version_retired_during_a_ladder_deal_plays_the_deal_out() {
    let mut case = OnLadder::start().await;
    let mut connection = case.connect().await;
    // Retired in the first game of a deal that starts once it has played greedy, whose rating
    // goes on moving (and with it the fit of everyone greedy played).
    let (before, played) = loop {
        let offer = next_offer(&mut connection).await;
        let listed = case.listed().await;
        let board = board(&mut case.bots).await;
        // A deal is on the board before the next one is scheduled: at a deal's first offer,
        // the board counts every game of this version's that is listed.
        let first_of_deal = case.counted(&board) == listed.len() as u64;
        if first_of_deal && met_greedy(&listed) {
            let retire = pb::RetireBotRequest { bot_id: case.bot_id.clone(), version: Some("v1".into()) };
            case.bots.retire_bot(owned(retire, &case.token)).await.expect("retired");
            play_seat(case.url.clone(), offer, None, None).await;
            break (board.deals, listed.len() as u64);
        }
        play_seat(case.url.clone(), offer, None, None).await;
    };
    let stop = play_offers(case.url.clone(), connection);

    let later = board_after(&mut case.bots, before + 2).await;
    let listed = case.listed().await;
    assert_eq!(listed.len() as u64, played + 2, "the deal was played out from both seats: {listed:?}");
    assert_eq!(case.counted(&later), played + 2, "both count on the board: {later:?}");
    let last = case.shown(&later).await;

    let greedy = |b: &pb::GetLeaderboardResponse| b.entries.iter().find(|e| e.bot_id == "greedy").map(|e| e.rating);
    let more = board_after(&mut case.bots, later.deals + 2).await;
    assert_ne!(greedy(&later), greedy(&more), "greedy played on");
    assert_eq!(case.listed().await.len() as u64, played + 2, "a retired version plays no more");
    assert!(more.entries.iter().any(|e| e.bot_id == case.bot_id && e.retired), "shown retired: {more:?}");
    assert_eq!(case.shown(&more).await, last, "and stays at its rating");
    let _ = stop.send(());
    case.server.stop().await;
}

/// A remote bot's version retired during a match plays the match out: its next game is still
/// offered and the match finishes.
#[tokio::test]
async fn a_remote_version_retired_during_a_match_plays_it_out() {
    let dir = tempfile::tempdir().expect("dir");
    let server = server(dir.path()).await;
    let url = format!("http://{}", server.addr);
    let mut bots = server.bots().await;
    let (bot_id, token) = register(&mut bots).await;
    let connect = pb::ConnectBotRequest { bot_id: bot_id.clone(), version: None };
    let mut connection = bots.connect_bot(owned(connect, &token)).await.expect("connects").into_inner();
    connection.next().await.expect("hello").expect("healthy");
    let entrants = vec![
        pb::MatchEntrant { bot_id: bot_id.clone(), version: Some("v1".into()) },
        pb::MatchEntrant { bot_id: "engine:fast".into(), version: None },
    ];
    let start = pb::StartMatchRequest { options: Some(straight_options(2, 60)), entrants, games: 2, seed: Some(5) };
    let match_id = bots.start_match(start).await.expect("started").into_inner().match_id;
    let first = next_offer(&mut connection).await;
    let retire = pb::RetireBotRequest { bot_id: bot_id.clone(), version: Some("v1".into()) };
    bots.retire_bot(owned(retire, &token)).await.expect("retired");
    play_seat(url.clone(), first, None, None).await;
    let _stop = play_offers(url, connection);
    let last = watch_to_end(&mut bots, match_id).await;
    assert_eq!((last.status, last.done), (pb::MatchStatus::Finished as i32, 2), "{last:?}");
    server.stop().await;
}
