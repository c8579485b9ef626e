//! A match's games over real gRPC: `RunMatch` stores every game it plays as an ordinary finished
//! game, lists them in its reply, and each one then reads, replays, verifies and exports like any
//! other game, belongs to whoever ran the match, and is still there after a restart. Matches
//! started with `StartMatch` play in the background and resume after a kill; the ladder rates
//! every active version against the engine's anchor.

mod support;

use std::collections::HashMap;
use std::path::Path;

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_store::Durability;
use support::{Server, owned, straight_options};
use tonic::Code;

fn source(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).expect("script")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_stores_its_games_and_each_replays_and_verifies() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    for (name, path) in [("greedy", "bots/straight-greedy.rhai"), ("random", "bots/straight-random.rhai")] {
        let upload =
            pb::UploadBotRequest { name: name.into(), kind: pb::GameKind::Straight as i32, source: source(path) };
        bots.upload_bot(upload).await.expect("upload");
    }
    let entrants = vec![
        pb::MatchEntrant { bot_id: "greedy".into(), version: None },
        pb::MatchEntrant { bot_id: "random".into(), version: None },
    ];
    let request = pb::RunMatchRequest { options: Some(straight_options(2, 100)), entrants, games: 4, seed: Some(7) };
    let report = bots.run_match(request).await.expect("match").into_inner();
    assert_eq!(report.games, 4);
    assert_eq!(report.match_games.len(), 4, "every game of the match is listed");
    assert!(!report.owner_token.is_empty(), "an anonymous runner gets the owner token of the games");

    let mut replay = server.replay().await;
    let mut games = server.games().await;
    let mut wins: HashMap<String, u32> = HashMap::new();
    for (i, game) in report.match_games.iter().enumerate() {
        assert_eq!(game.status, pb::GameStatus::Finished as i32, "game {i} is over");
        // Seats rotate by one from game to game: entrant (seat + i) mod 2 sits at seat `seat`.
        let seated: Vec<&str> =
            game.seats.iter().map(|s| s.bot.as_ref().expect("a bot seat").bot_id.as_str()).collect();
        let expected = if i % 2 == 0 { ["greedy", "random"] } else { ["random", "greedy"] };
        assert_eq!(seated, expected, "game {i}'s seats");
        for &winner in &game.winners {
            *wins.entry(seated[winner as usize].to_owned()).or_default() += 1;
        }

        let id = game.game_id.clone();
        assert!(id.starts_with("main_"), "a match game has an id of this shard: {id}");
        let verified = replay.verify(pb::VerifyRequest { game_id: id.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "game {i} verifies: {}", verified.detail);
        assert_eq!(verified.events, game.sequence, "the whole log was checked");
        let log = replay.get_log(pb::GetLogRequest { game_id: id.clone() }).await.expect("log").into_inner().events;
        assert_eq!(log.len() as u64, game.sequence);
        let Some(Payload::GameCreated(created)) = &log[0].payload else { panic!("a game starts with GameCreated") };
        // Duplicate deals: the two games of one rotation of the seats share a seed.
        assert_eq!(created.seed, Some(7 + i as u64 / 2), "game {i} is dealt from the match's seed plus its deal");
        assert!(matches!(log.last().and_then(|e| e.payload.as_ref()), Some(Payload::GameEnded(_))));
        let at = pb::GetStateAtRequest { game_id: id.clone(), sequence: game.sequence / 2 };
        let middle = replay.get_state_at(at).await.expect("state at").into_inner().view.expect("view");
        assert_eq!(middle.sequence, game.sequence / 2);
        let mut export = replay.export(pb::ExportRequest { game_id: id.clone() }).await.expect("export").into_inner();
        let mut lines = 0;
        while export.message().await.expect("line").is_some() {
            lines += 1;
        }
        assert_eq!(lines, game.sequence, "the export has every event");
    }
    // The standings count the games the way the stored games say they went.
    for result in &report.results {
        assert_eq!(result.wins, wins.get(&result.bot_id).copied().unwrap_or(0), "{}'s wins", result.bot_id);
    }

    // Listed with the other finished games, newest first.
    let listed = games
        .list_games(pb::ListGamesRequest { status: pb::GameStatus::Finished as i32, ..Default::default() })
        .await
        .expect("list")
        .into_inner()
        .games;
    let ids: Vec<&str> = listed.iter().map(|g| g.game_id.as_str()).collect();
    let mut played: Vec<&str> = report.match_games.iter().map(|g| g.game_id.as_str()).collect();
    played.reverse();
    assert_eq!(ids, played, "the lobby lists the match's games");

    // They belong to whoever ran the match: a stranger is refused, the owner is told the game is over.
    let first = report.match_games[0].game_id.clone();
    let stranger = games
        .cancel_game(owned(pb::CancelGameRequest { game_id: first.clone() }, "not-the-token"))
        .await
        .expect_err("a stranger");
    assert_eq!(stranger.code(), Code::PermissionDenied, "{}", stranger.message());
    let owner = games
        .cancel_game(owned(pb::CancelGameRequest { game_id: first.clone() }, &report.owner_token))
        .await
        .expect_err("a finished game");
    assert_eq!(owner.code(), Code::FailedPrecondition, "{}", owner.message());
    server.stop().await;

    // After a restart the games are still there, finished, and verify; none came back to life.
    let server = Server::restart(dir.path()).await;
    let mut replay = server.replay().await;
    for game in &report.match_games {
        let verified =
            replay.verify(pb::VerifyRequest { game_id: game.game_id.clone() }).await.expect("verify").into_inner();
        assert!(verified.ok, "{}", verified.detail);
    }
    let mut games = server.games().await;
    let active = pb::ListGamesRequest { status: pb::GameStatus::Active as i32, ..Default::default() };
    assert!(games.list_games(active).await.expect("list").into_inner().games.is_empty(), "no game is live");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_match_stores_no_game() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let upload = pb::UploadBotRequest {
        name: "greedy".into(),
        kind: pb::GameKind::Straight as i32,
        source: source("bots/straight-greedy.rhai"),
    };
    bots.upload_bot(upload).await.expect("upload");
    let entrant = pb::MatchEntrant { bot_id: "greedy".into(), version: None };
    let unknown = pb::MatchEntrant { bot_id: "nobody".into(), version: None };
    let request = pb::RunMatchRequest {
        options: Some(straight_options(2, 100)),
        entrants: vec![entrant, unknown],
        games: 3,
        seed: None,
    };
    let refused = bots.run_match(request).await.expect_err("an unknown entrant");
    assert_eq!(refused.code(), Code::NotFound, "{}", refused.message());
    assert!(refused.message().contains("entrants[1]"), "{}", refused.message());
    let mut games = server.games().await;
    let listed = games.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    assert!(listed.games.is_empty(), "no game was stored");
    server.stop().await;
}

/// Engine players enter matches like bots (`engine:<level>`, no upload), are listed in the
/// results and in the games' seats, never fault, and keep no statistics in the library; a level
/// that does not exist is refused, naming the entrant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_players_enter_matches() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut bots = server.bots().await;
    let upload = pb::UploadBotRequest {
        name: "greedy".into(),
        kind: pb::GameKind::Straight as i32,
        source: source("bots/straight-greedy.rhai"),
    };
    bots.upload_bot(upload).await.expect("upload");
    let entrants = vec![
        pb::MatchEntrant { bot_id: "engine:fast".into(), version: None },
        pb::MatchEntrant { bot_id: "greedy".into(), version: None },
    ];
    let request = pb::RunMatchRequest {
        options: Some(straight_options(2, 60)),
        entrants: entrants.clone(),
        games: 2,
        seed: Some(3),
    };
    let report = bots.run_match(request).await.expect("match").into_inner();
    let engine = report.results.iter().find(|r| r.bot_id == "engine:fast").expect("the engine's result");
    assert_eq!(engine.faults, 0);
    assert_eq!(engine.version, "1");
    for game in &report.match_games {
        let seated: Vec<&str> =
            game.seats.iter().map(|s| s.bot.as_ref().expect("a bot seat").bot_id.as_str()).collect();
        assert!(seated.contains(&"engine:fast"), "{seated:?}");
    }
    let listed = bots.list_bots(pb::ListBotsRequest::default()).await.expect("list").into_inner();
    assert_eq!(listed.bots.len(), 1, "the engine is not an uploaded bot");

    let mut wrong = entrants;
    wrong[0].bot_id = "engine:grandmaster".into();
    let request = pb::RunMatchRequest { options: Some(straight_options(2, 60)), entrants: wrong, games: 2, seed: None };
    let refused = bots.run_match(request).await.expect_err("no such level");
    assert_eq!(refused.code(), Code::NotFound);
    assert!(refused.message().contains("entrants[0]"), "{}", refused.message());
    server.stop().await;
}

/// Uploads greedy and random Straight bots; returns the entrants of a match between them.
async fn greedy_and_random(
    bots: &mut clack_proto::v1::bot_service_client::BotServiceClient<tonic::transport::Channel>,
) -> (Vec<pb::MatchEntrant>, String) {
    let mut token = String::new();
    for (name, path) in [("greedy", "bots/straight-greedy.rhai"), ("random", "bots/straight-random.rhai")] {
        let upload =
            pb::UploadBotRequest { name: name.into(), kind: pb::GameKind::Straight as i32, source: source(path) };
        let request = if token.is_empty() { tonic::Request::new(upload) } else { owned(upload, &token) };
        let uploaded = bots.upload_bot(request).await.expect("upload").into_inner();
        if token.is_empty() {
            token = uploaded.owner_token;
        }
    }
    let entrant = |bot_id: &str| pb::MatchEntrant { bot_id: bot_id.into(), version: None };
    (vec![entrant("greedy"), entrant("random")], token)
}

/// Follows a match to its end; returns every progress message.
async fn watch_to_end(
    bots: &mut clack_proto::v1::bot_service_client::BotServiceClient<tonic::transport::Channel>,
    match_id: &str,
) -> Vec<pb::WatchMatchResponse> {
    let request = pb::WatchMatchRequest { match_id: match_id.into() };
    let mut stream = bots.watch_match(request).await.expect("watch").into_inner();
    let mut seen = Vec::new();
    while let Some(progress) = stream.message().await.expect("progress") {
        seen.push(progress);
    }
    seen
}

/// A started match answers at once with its id; its games play in the background, a watcher
/// sees each one end with the standings so far, and `ListGames` pages through its games in the
/// order played. A version retired during the match plays it out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_started_match_plays_in_the_background_and_is_watched_to_its_end() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut bots, mut games) = (server.bots().await, server.games().await);
    let (entrants, token) = greedy_and_random(&mut bots).await;
    let request = pb::StartMatchRequest { options: Some(straight_options(2, 100)), entrants, games: 6, seed: Some(11) };
    let started = bots.start_match(owned(request, &token)).await.expect("start").into_inner();
    assert!(started.owner_token.is_empty(), "the owner's token was sent: no new one");
    let retire = pb::RetireBotRequest { bot_id: "greedy".into(), version: None };
    bots.retire_bot(owned(retire, &token)).await.expect("retire");

    let seen = watch_to_end(&mut bots, &started.match_id).await;
    let last = seen.last().expect("progress");
    assert_eq!(last.status, pb::MatchStatus::Finished as i32, "{last:?}");
    assert_eq!((last.games, last.done), (6, 6));
    let done: Vec<u32> = seen.iter().map(|p| p.done).collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "progress only grows: {done:?}");
    assert_eq!(last.standings.len(), 2);
    let wins: u32 = last.standings.iter().map(|s| s.wins).sum();
    assert!((6..=12).contains(&wins), "every game has a winner: {wins}");
    assert!(last.standings.iter().all(|s| (0.0..=1.0).contains(&s.win_share) && s.win_ci95 >= 0.0));
    // Watched again once over: the same standings at once.
    let again = watch_to_end(&mut bots, &started.match_id).await;
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].standings, last.standings);

    // Its games, in the order played, two pages; each rotation of two games shares a deal.
    let page = |token: &str| pb::ListGamesRequest {
        page_size: 4,
        page_token: token.into(),
        match_id: started.match_id.clone(),
        ..pb::ListGamesRequest::default()
    };
    let first = games.list_games(page("")).await.expect("list").into_inner();
    let second = games.list_games(page(&first.next_page_token)).await.expect("list").into_inner();
    assert_eq!((first.games.len(), second.games.len()), (4, 2));
    assert!(second.next_page_token.is_empty());
    let listed: Vec<&pb::GameSummary> = first.games.iter().chain(&second.games).collect();
    assert_eq!(last.last_game.as_ref().map(|g| &g.game_id), listed.last().map(|g| &g.game_id));
    assert!(listed.iter().all(|g| g.status == pb::GameStatus::Finished as i32));
    let mut replay = server.replay().await;
    let mut seeds = Vec::new();
    for game in &listed {
        let log = replay.get_log(pb::GetLogRequest { game_id: game.game_id.clone() }).await.expect("log");
        let Some(Payload::GameCreated(created)) = log.into_inner().events[0].payload.clone() else { panic!("created") };
        seeds.push(created.seed.expect("a seed"));
    }
    assert_eq!(seeds, vec![11, 11, 12, 12, 13, 13], "duplicate deals");

    // Bad requests: a filter beside the match, an unknown match.
    let mut mixed = page("");
    mixed.status = pb::GameStatus::Finished as i32;
    assert_eq!(games.list_games(mixed).await.expect_err("mixed").code(), Code::InvalidArgument);
    let unknown = pb::WatchMatchRequest { match_id: "main_nomatch".into() };
    assert_eq!(bots.watch_match(unknown).await.expect_err("unknown").code(), Code::NotFound);
    let none =
        pb::StartMatchRequest { options: Some(straight_options(2, 100)), entrants: Vec::new(), games: 2, seed: None };
    let refused = bots.start_match(none).await.expect_err("no entrants");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("entrants"), "{}", refused.message());
    server.stop().await;
}

/// A `clack serve` process killed in the middle of a match resumes it when it starts again:
/// the match ends with every game played once and counted once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_resumes_where_it_stopped_after_the_server_is_killed() {
    use clack_proto::v1::bot_service_client::BotServiceClient;
    use clack_proto::v1::game_service_client::GameServiceClient;
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url) = support::spawn_server(dir.path(), &[], &[]);
    let mut bots = BotServiceClient::connect(url.clone()).await.expect("connect");
    let (entrants, token) = greedy_and_random(&mut bots).await;
    let request = pb::StartMatchRequest { options: Some(straight_options(2, 250)), entrants, games: 40, seed: Some(5) };
    let started = bots.start_match(owned(request, &token)).await.expect("start").into_inner();
    let request = pb::WatchMatchRequest { match_id: started.match_id.clone() };
    let mut stream = bots.watch_match(request).await.expect("watch").into_inner();
    let mut before = 0;
    while let Some(progress) = stream.message().await.expect("progress") {
        before = progress.done;
        if before >= 3 {
            break;
        }
    }
    assert!((3..40).contains(&before), "killed in the middle of the match: {before}");
    child.kill().expect("SIGKILL");
    child.wait().expect("gone");

    let (mut child, url) = support::spawn_server(dir.path(), &[], &[]);
    let mut bots = BotServiceClient::connect(url.clone()).await.expect("connect");
    let seen = watch_to_end(&mut bots, &started.match_id).await;
    let last = seen.last().expect("progress");
    assert_eq!((last.status, last.done), (pb::MatchStatus::Finished as i32, 40), "{last:?}");
    assert!(seen[0].done >= before, "it resumed after the games it had recorded");
    assert!(last.standings.iter().all(|s| s.wins <= 40));
    let mut games = GameServiceClient::connect(url).await.expect("connect");
    let list = pb::ListGamesRequest { page_size: 100, match_id: started.match_id.clone(), ..Default::default() };
    let listed = games.list_games(list).await.expect("list").into_inner().games;
    let ids: std::collections::HashSet<&str> = listed.iter().map(|g| g.game_id.as_str()).collect();
    assert_eq!((listed.len(), ids.len()), (40, 40), "every game once");
    let stats = bots.get_bot(pb::GetBotRequest { bot_id: "greedy".into(), version: None }).await.expect("get");
    let version = &stats.into_inner().bot.expect("summary").versions[0];
    assert_eq!(version.games, 40, "the match is counted once in the bot's statistics");
    child.kill().expect("stop");
}

/// Polls a ladder until it has played `deals` deals.
async fn board_after(
    bots: &mut clack_proto::v1::bot_service_client::BotServiceClient<tonic::transport::Channel>,
    deals: u64,
) -> pb::GetLeaderboardResponse {
    let started = std::time::Instant::now();
    loop {
        let request =
            pb::GetLeaderboardRequest { configuration: "straight-2".into(), page_size: 100, page_token: String::new() };
        let board = bots.get_leaderboard(request).await.expect("leaderboard").into_inner();
        if board.deals >= deals {
            return board;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(240), "the ladder played {} deals", board.deals);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// With the ladder on, every active version of the game is entered and rated against the
/// engine's anchor, which keeps its fixed 1500; the board pages best first, each version has a
/// rating history, a retired version stops playing and stays on the board, and a bot of the
/// other game never appears.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ladder_rates_every_active_version_against_the_anchor() {
    use clack_server::ladder::{Configuration, LadderSettings};
    let dir = tempfile::tempdir().expect("dir");
    let store = clack_store::Durable::new(
        std::sync::Arc::new(clack_store::SledStore::open(dir.path()).expect("store")),
        Durability::Batched,
    )
    .expect("writer");
    let library = clack_server::BotLibrary::open(store.clone(), clack_bots::Limits::default()).await.expect("bots");
    let host: std::sync::Arc<dyn clack_server::bots::BotHost> = library.clone();
    let hub = clack_server::Hub::open(store, Some(host), clack_server::Limits::default()).await.expect("hub");
    let ladder =
        LadderSettings { share: 1.0, anchor: "engine:fast".into(), configurations: vec![Configuration::Straight2] };
    let config = clack_server::ServeConfig { ladder: Some(ladder), ..clack_server::ServeConfig::default() };
    let server = Server::start_with(hub, Some(library), config).await;
    let mut bots = server.bots().await;
    let (_, token) = greedy_and_random(&mut bots).await;
    let streets = pb::UploadBotRequest {
        name: "builder".into(),
        kind: pb::GameKind::Streets as i32,
        source: source("bots/streets-builder.rhai"),
    };
    bots.upload_bot(owned(streets, &token)).await.expect("upload");

    let board = board_after(&mut bots, 6).await;
    assert!(board.running);
    let names: Vec<&str> = board.entries.iter().map(|e| e.bot_id.as_str()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.contains(&"greedy") && names.contains(&"random") && names.contains(&"engine:fast"), "{names:?}");
    let anchor = board.entries.iter().find(|e| e.anchor).expect("the anchor");
    assert_eq!((anchor.bot_id.as_str(), anchor.rating, anchor.ci95), ("engine:fast", 1500.0, 0.0));
    assert!(board.entries.windows(2).all(|w| w[0].rating >= w[1].rating && w[0].rank + 1 == w[1].rank));
    assert!(board.entries.iter().all(|e| e.games > 0 && e.rating.is_finite() && (0.0..=1.0).contains(&e.win_share)));
    assert!(board.entries.iter().filter(|e| !e.anchor).all(|e| e.ci95 > 0.0));

    // Pages, and each version's history.
    let first =
        pb::GetLeaderboardRequest { configuration: "straight-2".into(), page_size: 2, page_token: String::new() };
    let page = bots.get_leaderboard(first).await.expect("page").into_inner();
    assert_eq!(page.entries.len(), 2);
    let next = pb::GetLeaderboardRequest {
        configuration: "straight-2".into(),
        page_size: 2,
        page_token: page.next_page_token,
    };
    let rest = bots.get_leaderboard(next).await.expect("page").into_inner();
    assert_eq!((rest.entries.len(), rest.entries[0].rank), (1, 3));
    let greedy = board.entries.iter().find(|e| e.bot_id == "greedy").expect("greedy");
    let request = pb::GetRatingHistoryRequest {
        configuration: "straight-2".into(),
        bot_id: "greedy".into(),
        version: greedy.version.clone(),
    };
    let history = bots.get_rating_history(request).await.expect("history").into_inner().points;
    assert!(!history.is_empty());
    assert!(history.windows(2).all(|w| w[0].games < w[1].games && w[0].unix_millis <= w[1].unix_millis));

    // A retired version plays no more deals and keeps its place on the board.
    bots.retire_bot(owned(pb::RetireBotRequest { bot_id: "random".into(), version: None }, &token))
        .await
        .expect("retire");
    let retired_at = board_after(&mut bots, 0).await.deals;
    let random_games =
        |b: &pb::GetLeaderboardResponse| b.entries.iter().find(|e| e.bot_id == "random").map(|e| (e.games, e.retired));
    let before = random_games(&board_after(&mut bots, retired_at).await).expect("random");
    let later = board_after(&mut bots, retired_at + 3).await;
    // One deal may have been under way when it was retired.
    let after = random_games(&later).expect("random stays on the board");
    assert!(after.1, "marked retired");
    assert!(after.0 <= before.0 + 2, "{before:?} then {after:?}");

    // Bad requests name their field.
    let wrong = pb::GetLeaderboardRequest { configuration: "chess".into(), ..Default::default() };
    let refused = bots.get_leaderboard(wrong).await.expect_err("no such ladder");
    assert_eq!(refused.code(), Code::InvalidArgument);
    assert!(refused.message().contains("configuration"), "{}", refused.message());
    let unknown = pb::GetRatingHistoryRequest {
        configuration: "straight-2".into(),
        bot_id: "nobody".into(),
        version: "x".into(),
    };
    assert_eq!(bots.get_rating_history(unknown).await.expect_err("unknown").code(), Code::NotFound);
    server.stop().await;
}

/// A page token is a place in the listing: any number past the end, however large, gives an
/// empty last page with no token to follow (a client that follows tokens stops), and nothing
/// is added to it that could wrap; a token that is not a number is refused, naming the field.
/// Both listings paged by place: a match's games, and a ladder's board.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_token_past_the_end_gives_an_empty_last_page() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut bots, mut games) = (server.bots().await, server.games().await);
    let (entrants, token) = greedy_and_random(&mut bots).await;
    let request = pb::StartMatchRequest { options: Some(straight_options(2, 60)), entrants, games: 2, seed: Some(1) };
    let match_id = bots.start_match(owned(request, &token)).await.expect("match").into_inner().match_id;
    let watched = watch_to_end(&mut bots, &match_id).await;
    assert_eq!(watched.last().map(|p| p.done), Some(2), "{watched:?}");
    let huge = [u64::MAX, u64::MAX - 1, u64::MAX - 3, u64::MAX / 2 + 1, 2, 3];

    let page = |page_token: String, page_size: u32| pb::ListGamesRequest {
        page_size,
        page_token,
        match_id: match_id.clone(),
        ..pb::ListGamesRequest::default()
    };
    let first = games.list_games(page(String::new(), 1)).await.expect("first page").into_inner();
    assert_eq!((first.games.len(), first.next_page_token.as_str()), (1, "1"));
    let last = games.list_games(page(first.next_page_token, 1)).await.expect("last page").into_inner();
    assert_eq!((last.games.len(), last.next_page_token.as_str()), (1, ""), "no token on the last page");
    for place in huge {
        for size in [0, 1, 5, 100] {
            let past = games.list_games(page(place.to_string(), size)).await;
            let past = past.unwrap_or_else(|e| panic!("token {place}, size {size}: {e:?}")).into_inner();
            assert!(past.games.is_empty(), "token {place}, size {size}: {past:?}");
            assert_eq!(past.next_page_token, "", "token {place}, size {size}: nothing to follow");
        }
    }
    for bad in ["x", "-1", "18446744073709551616", "1.5"] {
        let refused = games.list_games(page(bad.into(), 1)).await.expect_err("not a place");
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad}: {refused:?}");
        assert!(refused.message().contains("page_token"), "{}", refused.message());
    }

    // The board of a ladder that is not running is empty: every number is past its end.
    let board = |page_token: String, page_size: u32| pb::GetLeaderboardRequest {
        configuration: "straight-2".into(),
        page_size,
        page_token,
    };
    for place in huge.into_iter().chain([0]) {
        for size in [0, 1, 100] {
            let past = bots.get_leaderboard(board(place.to_string(), size)).await;
            let past = past.unwrap_or_else(|e| panic!("token {place}, size {size}: {e:?}")).into_inner();
            assert!(past.entries.is_empty(), "token {place}: {past:?}");
            assert_eq!(past.next_page_token, "", "token {place}, size {size}: nothing to follow");
        }
    }
    for bad in ["x", "-1", "18446744073709551616"] {
        let refused = bots.get_leaderboard(board(bad.into(), 1)).await.expect_err("not a place");
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad}: {refused:?}");
        assert!(refused.message().contains("page_token"), "{}", refused.message());
    }
    server.stop().await;
}

/// A Straight Dominoes game's chance, round by round: the draw for the lead, then each round's
/// deal with the tiles drawn from its boneyard in order (whoever drew them).
#[derive(Debug, PartialEq)]
struct Chance {
    lead: Option<pb::LeadDrawn>,
    rounds: Vec<(pb::Dealt, Vec<pb::Tile>)>,
}

fn chance_of(events: &[pb::Event]) -> Chance {
    let mut chance = Chance { lead: None, rounds: Vec::new() };
    for event in events {
        match &event.payload {
            Some(Payload::LeadDrawn(lead)) => chance.lead = Some(lead.clone()),
            Some(Payload::Dealt(dealt)) => chance.rounds.push((dealt.clone(), Vec::new())),
            Some(Payload::TileDrawn(drawn)) => {
                let round = chance.rounds.last_mut().expect("a draw after a deal");
                round.1.push(drawn.tile.expect("a finished game's log shows every tile"));
            }
            _ => {}
        }
    }
    chance
}

/// Duplicate deals repeat the whole game's chance: in every game of one rotation of the seats,
/// the lead is drawn alike, every round is dealt alike (each seat the same hand) and its
/// boneyard gives the same tiles in the same order, as far as both games reach that round and
/// draw from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_deals_every_round_and_every_draw_alike_across_a_rotation() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let (mut bots, mut games, mut replay) = (server.bots().await, server.games().await, server.replay().await);
    let (entrants, token) = greedy_and_random(&mut bots).await;
    let request = pb::StartMatchRequest { options: Some(straight_options(2, 250)), entrants, games: 8, seed: Some(29) };
    let match_id = bots.start_match(owned(request, &token)).await.expect("match").into_inner().match_id;
    let watched = watch_to_end(&mut bots, &match_id).await;
    assert_eq!(watched.last().map(|p| (p.status, p.done)), Some((pb::MatchStatus::Finished as i32, 8)));
    let list = pb::ListGamesRequest { match_id, ..pb::ListGamesRequest::default() };
    let listed = games.list_games(list).await.expect("list").into_inner().games;
    let mut chances = Vec::new();
    for game in &listed {
        let log = replay.get_log(pb::GetLogRequest { game_id: game.game_id.clone() }).await.expect("log");
        chances.push(chance_of(&log.into_inner().events));
    }
    let (mut rounds, mut draws) = (0, 0);
    for (deal, pair) in chances.chunks(2).enumerate() {
        let [a, b] = pair else { panic!("two games a rotation: {}", pair.len()) };
        assert_eq!(a.lead, b.lead, "deal {deal}: the lead");
        assert!(a.lead.is_some());
        for (round, ((dealt_a, drawn_a), (dealt_b, drawn_b))) in a.rounds.iter().zip(&b.rounds).enumerate() {
            assert_eq!(dealt_a, dealt_b, "deal {deal}, round {}: the deal", round + 1);
            let both = drawn_a.len().min(drawn_b.len());
            assert_eq!(drawn_a[..both], drawn_b[..both], "deal {deal}, round {}: the boneyard's order", round + 1);
            rounds += 1;
            draws += both;
        }
    }
    assert!(rounds >= 12, "several rounds of each deal were compared: {rounds}");
    assert!(draws >= 8, "tiles drawn in both games were compared: {draws}");
    server.stop().await;
}
