//! `/metrics` of the real binary: after games are played over gRPC, a plain HTTP scrape shows
//! requests by method and status, moves and games by kind, the store's figures, open Watch
//! streams and bot faults, with their labels and non-zero values.

mod support;

use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_proto::v1::game_service_client::GameServiceClient;
use support::{http_get as get, new_game, play_to_end, spawn_server_with_metrics, straight_options};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::Code;

/// The value of the series `name` whose labels include every `labels` pair.
fn value(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines().filter(|line| !line.starts_with('#')).find_map(|line| {
        let (series, number) = line.rsplit_once(' ')?;
        let (series_name, series_labels) = series.split_once('{').unwrap_or((series, ""));
        let all = labels.iter().all(|(k, v)| series_labels.contains(&format!("{k}=\"{v}\"")));
        (series_name == name && all).then(|| number.parse().expect("a number"))
    })
}

fn at_least(text: &str, name: &str, labels: &[(&str, &str)], least: f64) -> f64 {
    let found = value(text, name, labels).unwrap_or_else(|| panic!("no series {name} {labels:?} in:\n{text}"));
    assert!(found >= least, "{name} {labels:?} is {found}, expected at least {least}");
    found
}

const GAMES: (&str, &str) = ("service", "clack.v1.GameService");

/// Every `clack_…` series the sample Grafana dashboard queries is one the server exposes.
fn dashboard_names_exist(body: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/grafana/clack-dashboard.json");
    let dashboard = std::fs::read_to_string(path).expect("the dashboard");
    let exposed: std::collections::BTreeSet<&str> =
        body.lines().filter(|line| !line.starts_with('#')).filter_map(|line| line.split(['{', ' ']).next()).collect();
    let mut queried = 0;
    for (at, _) in dashboard.match_indices("clack_") {
        let name: String =
            dashboard[at..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_' || c.is_ascii_digit()).collect();
        assert!(exposed.contains(name.as_str()), "the dashboard queries {name}, which the server does not expose");
        queried += 1;
    }
    assert!(queried > 10, "the dashboard queries clack series");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scrape_after_play_shows_requests_moves_store_and_streams() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url, metrics) = spawn_server_with_metrics(dir.path(), &[], &[]);
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");

    let (game, tokens) = new_game(&mut client, straight_options(2, 100), 5).await;
    let moves = play_to_end(&mut client, &game, &tokens).await;
    assert!(moves > 0);
    let missing = client.get_view(pb::GetViewRequest { game_id: "no-such-game".into(), seat: None }).await;
    assert_eq!(missing.expect_err("unknown game").code(), Code::NotFound);
    // A live game with a watcher on it, for the open-streams gauge.
    let (live, _) = new_game(&mut client, straight_options(2, 100), 6).await;
    let watch = pb::WatchRequest { game_id: live.clone(), seat: None, from_sequence: 1 };
    let mut stream = client.watch(watch).await.expect("watch").into_inner();
    stream.message().await.expect("an event").expect("the first event");
    // A bot that always throws: its faults are counted by reason, its decisions timed.
    let mut bots = BotServiceClient::connect(url.clone()).await.expect("connect");
    let upload = pb::UploadBotRequest {
        name: "thrower".into(),
        kind: pb::GameKind::Straight as i32,
        source: "fn choose(view) { throw \"no\"; }".into(),
    };
    let bot = bots.upload_bot(upload).await.expect("upload").into_inner();
    let seat = |bot: &pb::UploadBotResponse| pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat {
            bot_id: bot.bot_id.clone(),
            version: bot.version.clone(),
        })),
    };
    let create = pb::CreateGameRequest {
        options: Some(straight_options(2, 50)),
        seats: vec![seat(&bot), seat(&bot)],
        seed: Some(7),
    };
    let bot_game = client.create_game(create).await.expect("create a bot game").into_inner().game_id;

    let (status, body) = get(metrics, "/metrics").await;
    assert!(status.contains(" 200 "), "{status}");
    let act = [GAMES, ("method", "Act")];
    at_least(&body, "clack_grpc_requests_total", &[GAMES, ("method", "Act"), ("code", "OK")], moves as f64);
    at_least(&body, "clack_grpc_request_duration_seconds_count", &act, moves as f64);
    at_least(&body, "clack_grpc_request_duration_seconds_bucket", &[GAMES, ("method", "Act"), ("le", "+Inf")], 1.0);
    let not_found = [GAMES, ("method", "GetView"), ("code", "NOT_FOUND")];
    assert_eq!(value(&body, "clack_grpc_requests_total", &not_found), Some(1.0), "{body}");
    assert_eq!(value(&body, "clack_grpc_streams_open", &[GAMES, ("method", "Watch")]), Some(1.0), "{body}");
    let straight = [("kind", "straight")];
    at_least(&body, "clack_moves_total", &straight, moves as f64);
    at_least(&body, "clack_games_started_total", &straight, 3.0);
    at_least(&body, "clack_games_finished_total", &[("kind", "straight"), ("outcome", "ended")], 1.0);
    at_least(&body, "clack_store_append_duration_seconds_count", &[], moves as f64);
    at_least(&body, "clack_store_flush_duration_seconds_count", &[], 1.0);
    at_least(&body, "clack_store_flush_group_size_count", &[], 1.0);
    at_least(&body, "clack_store_disk_bytes", &[], 1.0);
    at_least(&body, "clack_process_resident_memory_bytes", &[], 1e6);
    at_least(&body, "clack_live_games", &[], 1.0);
    // Every quota has its series from the start, the ceiling per match call among them.
    for quota in ["requests", "match_games", "match_games_per_call", "live_games", "bots", "versions_per_bot"] {
        at_least(&body, "clack_quota_denials_total", &[("quota", quota)], 0.0);
    }
    at_least(&body, "clack_bot_pool_queue", &[], 0.0);

    // The bot game plays itself; every decision faults.
    let deadline = Instant::now() + Duration::from_secs(60);
    let body = loop {
        let (_, body) = get(metrics, "/metrics").await;
        let done = value(&body, "clack_bot_faults_total", &[("reason", "error")]).unwrap_or(0.0) >= 2.0;
        if done || Instant::now() > deadline {
            break body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    at_least(&body, "clack_bot_faults_total", &[("reason", "error")], 2.0);
    let live = [("played", "game"), ("seat", "script")];
    at_least(&body, "clack_bot_decision_duration_seconds_count", &live, 2.0);
    assert!(!bot_game.is_empty());

    // The watcher goes away: its stream closes and counts as cancelled.
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(10);
    let body = loop {
        let (_, body) = get(metrics, "/metrics").await;
        // A scrape reads one family after another, so it can see the gauge fall before the
        // counter of the same finished request appears: wait for both.
        let open = value(&body, "clack_grpc_streams_open", &[GAMES, ("method", "Watch")]);
        let cancelled = value(&body, "clack_grpc_requests_total", &[GAMES, ("method", "Watch"), ("code", "CANCELLED")]);
        if (open == Some(0.0) && cancelled.is_some()) || Instant::now() > deadline {
            break body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(value(&body, "clack_grpc_streams_open", &[GAMES, ("method", "Watch")]), Some(0.0), "{body}");
    let cancelled = [GAMES, ("method", "Watch"), ("code", "CANCELLED")];
    assert_eq!(value(&body, "clack_grpc_requests_total", &cancelled), Some(1.0), "{body}");

    dashboard_names_exist(&body);

    let (status, _) = get(metrics, "/other").await;
    assert!(status.contains(" 404 "), "{status}");
    child.kill().expect("kill");
    child.wait().expect("wait");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_method_counts_as_one_bounded_series() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url, metrics) = spawn_server_with_metrics(dir.path(), &[], &[]);
    let channel = tonic::transport::Endpoint::from_shared(url).expect("url").connect().await.expect("connect");
    let mut grpc = tonic::client::Grpc::new(channel);
    for path in ["/clack.v1.GameService/Nope", "/scanner.Probe/Anything"] {
        grpc.ready().await.expect("ready");
        let codec = tonic_prost::ProstCodec::<pb::ListGamesRequest, pb::ListGamesResponse>::default();
        let path = tonic::codegen::http::uri::PathAndQuery::from_static(path);
        let answer = grpc.unary(tonic::Request::new(pb::ListGamesRequest::default()), path, codec).await;
        assert_eq!(answer.expect_err("no such method").code(), Code::Unimplemented);
    }
    let (_, body) = get(metrics, "/metrics").await;
    let unknown = [("service", "unknown"), ("method", "unknown"), ("code", "UNIMPLEMENTED")];
    assert_eq!(value(&body, "clack_grpc_requests_total", &unknown), Some(2.0), "{body}");
    assert!(!body.contains("Nope") && !body.contains("scanner"), "a path never becomes a label: {body}");
    child.kill().expect("kill");
    child.wait().expect("wait");
}

/// One gRPC-Web unary call over HTTP/1.1, as a browser makes it; returns the whole response.
async fn grpc_web(url: &str, path: &str, message: &[u8]) -> String {
    let addr = url.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect to the gRPC port");
    let mut frame = vec![0u8];
    frame.extend_from_slice(&u32::try_from(message.len()).expect("small").to_be_bytes());
    frame.extend_from_slice(message);
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        frame.len()
    );
    stream.write_all(head.as_bytes()).await.expect("send");
    stream.write_all(&frame).await.expect("send");
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.expect("read");
    String::from_utf8_lossy(&response).into_owned()
}

/// Whether a gRPC-Web response carries status `code`: in its headers (an error answered at once)
/// or in the trailer frame at the end of its body.
fn has_status(response: &str, code: u8) -> bool {
    let response = response.to_ascii_lowercase();
    response.contains(&format!("grpc-status: {code}\r\n")) || response.contains(&format!("grpc-status:{code}\r\n"))
}

/// The web app's calls are gRPC-Web: they are counted like any other, by method and status
/// (their status travels in the body's trailer frame, not in HTTP trailers), and only once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_web_calls_are_counted_by_method_and_status() {
    use prost::Message;
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url, metrics) = spawn_server_with_metrics(dir.path(), &[], &[]);
    let listed =
        grpc_web(&url, "/clack.v1.GameService/ListGames", &pb::ListGamesRequest::default().encode_to_vec()).await;
    assert!(has_status(&listed, 0), "{listed}");
    let missing = pb::GetViewRequest { game_id: "no-such-game".into(), seat: None };
    let answer = grpc_web(&url, "/clack.v1.GameService/GetView", &missing.encode_to_vec()).await;
    assert!(has_status(&answer, 5), "{answer}");
    let (_, body) = get(metrics, "/metrics").await;
    let ok = [GAMES, ("method", "ListGames"), ("code", "OK")];
    assert_eq!(value(&body, "clack_grpc_requests_total", &ok), Some(1.0), "{body}");
    let not_found = [GAMES, ("method", "GetView"), ("code", "NOT_FOUND")];
    assert_eq!(value(&body, "clack_grpc_requests_total", &not_found), Some(1.0), "{body}");
    at_least(&body, "clack_grpc_request_duration_seconds_count", &[GAMES, ("method", "ListGames")], 1.0);
    child.kill().expect("kill");
    child.wait().expect("wait");
}

/// A game called off before it started (here by its creator; the join timeout takes the same
/// path) is one game with one outcome: `abandoned`, never `ended` as well.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_game_is_counted_once() {
    let dir = tempfile::tempdir().expect("dir");
    let (mut child, url, metrics) = spawn_server_with_metrics(dir.path(), &[], &[]);
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect");
    let create = pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: Vec::new(), seed: Some(3) };
    let created = client.create_game(create).await.expect("create").into_inner();
    let cancel = support::owned(pb::CancelGameRequest { game_id: created.game_id }, &created.owner_token);
    client.cancel_game(cancel).await.expect("the creator cancels");
    let (_, body) = get(metrics, "/metrics").await;
    let finished = |outcome| value(&body, "clack_games_finished_total", &[("kind", "straight"), ("outcome", outcome)]);
    assert_eq!(finished("abandoned"), Some(1.0), "{body}");
    assert_eq!(finished("ended"), Some(0.0), "{body}");
    child.kill().expect("kill");
    child.wait().expect("wait");
}

/// Decisions made in matches and on the ladder are timed with those of live games, labelled by
/// where they were played and who decided.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_in_matches_and_on_the_ladder_are_timed_too() {
    let dir = tempfile::tempdir().expect("dir");
    let args =
        ["--ladder", "--ladder-configurations", "straight-2", "--ladder-anchor", "engine:fast", "--ladder-share", "1"];
    let (mut child, url, metrics) = spawn_server_with_metrics(dir.path(), &args, &[]);
    let mut bots = BotServiceClient::connect(url.clone()).await.expect("connect");
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../bots/straight-greedy.rhai"));
    let upload = pb::UploadBotRequest {
        name: "greedy".into(),
        kind: pb::GameKind::Straight as i32,
        source: source.expect("bot"),
    };
    let greedy = bots.upload_bot(upload).await.expect("upload").into_inner();
    let entrant =
        |bot_id: &str, version: &str| pb::MatchEntrant { bot_id: bot_id.into(), version: Some(version.into()) };
    let entrants = vec![entrant(&greedy.bot_id, &greedy.version), entrant("engine:fast", "")];
    let request = pb::RunMatchRequest { options: Some(straight_options(2, 60)), entrants, games: 2, seed: Some(3) };
    bots.run_match(request).await.expect("a match");

    let count = |body: &str, played: &str, seat: &str| {
        value(body, "clack_bot_decision_duration_seconds_count", &[("played", played), ("seat", seat)])
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    let body = loop {
        let (_, body) = get(metrics, "/metrics").await;
        let ladder = [("script"), ("engine")].iter().all(|seat| count(&body, "ladder", seat).unwrap_or(0.0) > 0.0);
        if ladder || Instant::now() > deadline {
            break body;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    for (played, seat) in [("match", "script"), ("match", "engine"), ("ladder", "script"), ("ladder", "engine")] {
        at_least(&body, "clack_bot_decision_duration_seconds_count", &[("played", played), ("seat", seat)], 1.0);
    }
    // The series of what was not played are there from the start, at zero.
    assert_eq!(count(&body, "game", "remote"), Some(0.0), "{body}");
    child.kill().expect("stop");
    child.wait().expect("reaped");
}
