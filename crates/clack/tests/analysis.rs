//! `clack analyze` and `clack export --format parquet` through the real binary: the Parquet
//! tables read with pyarrow and pandas (tests/python/parquet_check.py) agree with the JSON lines
//! export they came from; the analysis writes its JSON summary and a self-contained HTML report;
//! `--server` reads the finished games of a running server. Both export formats leave out and
//! name the games that do not replay or never ended, as the analysis does, and a Parquet export
//! that fails leaves no table behind.

mod support;

use std::path::Path;
use std::process::Command;

use clack_proto::v1 as pb;
use clack_store::Durability;
use support::Server;

fn clack(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_clack")).args(args).output().expect("clack runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "clack {args:?} failed: {stdout} {}", String::from_utf8_lossy(&output.stderr));
    stdout
}

/// Runs clack expecting it to fail; returns what it said on standard error.
fn clack_fails(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_clack")).args(args).output().expect("clack runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "clack {args:?} succeeded: {}", String::from_utf8_lossy(&output.stdout));
    stderr
}

/// Two exports: Straight Dominoes with teams (so a seat's score is its side's) and Streets and
/// Avenues with three players.
fn exports(dir: &Path) -> (String, String) {
    let straight = dir.join("straight.jsonl").display().to_string();
    let streets = dir.join("streets.jsonl").display().to_string();
    clack(&[
        "selfplay",
        "--game",
        "straight",
        "--players",
        "4",
        "--teams",
        "--target",
        "60",
        "--games",
        "12",
        "--export",
        &straight,
    ]);
    clack(&["selfplay", "--game", "streets", "--players", "3", "--games", "9", "--seed", "100", "--export", &streets]);
    (straight, streets)
}

#[test]
fn parquet_tables_read_by_pyarrow_and_pandas_agree_with_the_json_lines_export() {
    let dir = tempfile::tempdir().expect("dir");
    let (straight, streets) = exports(dir.path());
    let tables = dir.path().join("tables").display().to_string();
    let said = clack(&["export", "--format", "parquet", "--out", &tables, &straight, &streets]);
    assert!(said.starts_with("21 games written"), "{said}");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/python/parquet_check.py");
    let output =
        Command::new("python3").arg(script).args([&tables, &straight, &streets]).output().expect("python3 runs");
    let report = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "the pyarrow check failed (pip install -r tests/python/requirements.txt):\n{report}"
    );
    assert!(report.contains("'games': 21"), "{report}");
}

#[test]
fn analyze_writes_a_json_summary_and_an_html_report() {
    let dir = tempfile::tempdir().expect("dir");
    let (straight, streets) = exports(dir.path());
    let json = dir.path().join("summary.json");
    let html = dir.path().join("report.html");
    let said = clack(&[
        "analyze",
        &straight,
        &streets,
        "--json",
        &json.display().to_string(),
        "--html",
        &html.display().to_string(),
    ]);
    assert!(said.starts_with("21 games in"), "{said}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("parses");
    assert_eq!(summary["games"], 21);
    let groups = summary["groups"].as_array().expect("groups");
    let games: Vec<(String, u64)> = groups
        .iter()
        .map(|g| (g["kind"].as_str().unwrap_or("").to_owned(), g["games"].as_u64().unwrap_or(0)))
        .collect();
    assert_eq!(games, vec![("straight".to_owned(), 12), ("streets".to_owned(), 9)]);
    // With teams, seats 0 and 2 share their side's wins exactly.
    let seats = groups[0]["seats"].as_array().expect("seats");
    assert_eq!(seats[0]["win_share"], seats[2]["win_share"]);
    let page = std::fs::read_to_string(&html).expect("html");
    assert!(page.contains("<svg") && !page.contains("<script"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analyze_and_export_read_the_finished_games_of_a_server() {
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let mut games = server.games().await;
    for seed in 0..3 {
        let (game, tokens) = support::new_game(&mut games, support::streets_options(2), seed).await;
        while support::play_one(&mut games, &game, &tokens).await.expect("a move").is_some() {}
    }
    // An unfinished game is left out.
    support::new_game(&mut games, support::streets_options(2), 9).await;
    // One game has a review kept on the server: its decisions go into the Parquet export.
    let listed = games.list_games(pb::ListGamesRequest::default()).await.expect("list").into_inner();
    let reviewed = listed.games.iter().find(|g| g.status == pb::GameStatus::Finished as i32).expect("a finished game");
    let mut replay = server.replay().await;
    let request = pb::ReviewGameRequest { game_id: reviewed.game_id.clone(), level: "fast".into(), kept_only: false };
    let mut replies = replay.review_game(request).await.expect("review").into_inner();
    let mut decisions = 0;
    while let Some(reply) = replies.message().await.expect("a reply") {
        if let Some(pb::review_game_response::Body::Review(review)) = reply.body {
            decisions = review.decisions.len();
        }
    }
    assert!(decisions > 0);
    let addr = format!("http://{}", server.addr);
    let said = tokio::task::spawn_blocking(move || {
        let out = tempfile::tempdir().expect("dir");
        let lines = out.path().join("all.jsonl").display().to_string();
        let exported = clack(&["export", "--server", &addr, "--format", "jsonl", "--out", &lines]);
        let tables = out.path().join("tables").display().to_string();
        clack(&["export", "--server", &addr, "--format", "parquet", "--out", &tables]);
        let count = "import sys, pyarrow.parquet as pq; print(pq.read_table(sys.argv[1]).num_rows)";
        let rows = Command::new("python3").args(["-c", count, &format!("{tables}/decisions.parquet")]).output();
        let rows = String::from_utf8_lossy(&rows.expect("python3 runs").stdout).trim().to_owned();
        (clack(&["analyze", "--server", &addr]), exported, clack(&["analyze", &lines]), rows)
    })
    .await
    .expect("joins");
    assert!(said.0.starts_with("3 games in"), "{}", said.0);
    // The kept review goes into the summary: both open seats' decisions, judged at its level.
    let judged = format!("streets reviewed by engine:fast, open seats: 2 games, {decisions} decisions");
    assert!(said.0.contains(&judged), "{}", said.0);
    assert!(said.1.starts_with("3 games written"), "{}", said.1);
    assert!(said.2.starts_with("3 games in"), "{}", said.2);
    assert_eq!(said.3, decisions.to_string(), "one row per decision of the kept review");
    server.stop().await;
}

/// Five two-player Straight Dominoes games, `selfplay-0` to `selfplay-4`.
fn five_games(dir: &Path) -> String {
    let path = dir.join("five.jsonl").display().to_string();
    clack(&["selfplay", "--game", "straight", "--players", "2", "--games", "5", "--seed", "0", "--export", &path]);
    path
}

/// The five games with two spoiled: in `selfplay-1` a scoring play claims 5 points more than
/// it scored (the log does not replay), and `selfplay-3` is cut where a seat is to move (it
/// replays, but never ended).
fn spoiled_export(dir: &Path) -> String {
    let text = std::fs::read_to_string(five_games(dir)).expect("the export");
    let events: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    let of = |e: &serde_json::Value, game: &str| e["gameId"] == game;
    let points = |e: &serde_json::Value| e["actionApplied"]["points"].as_u64().unwrap_or(0);
    let sequence = |e: &serde_json::Value| e["sequence"].as_str().and_then(|s| s.parse::<u64>().ok()).unwrap_or(0);
    let damage = events.iter().position(|e| of(e, "selfplay-1") && points(e) > 0).expect("a scoring play");
    // After an event that an action follows, the game waits for a seat: nothing is owed.
    let acts = |i: usize| events.get(i).is_some_and(|e| of(e, "selfplay-3") && e.get("actionApplied").is_some());
    let cut = (0..events.len()).find(|&i| of(&events[i], "selfplay-3") && sequence(&events[i]) >= 10 && acts(i + 1));
    let cut = cut.expect("a place to cut");
    let mut lines = String::new();
    for (i, event) in events.iter().enumerate() {
        if of(event, "selfplay-3") && i > cut {
            continue;
        }
        let mut event = event.clone();
        if i == damage {
            event["actionApplied"]["points"] = (points(&event) + 5).into();
        }
        lines.push_str(&format!("{event}\n"));
    }
    let path = dir.join("spoiled.jsonl");
    std::fs::write(&path, lines).expect("writes");
    path.display().to_string()
}

/// Checks that an export named the two spoiled games and counted the rest.
fn assert_names_the_spoiled_games(said: &str) {
    assert!(said.starts_with("3 games written"), "{said}");
    assert!(said.contains("; 2 logs did not replay"), "{said}");
    assert!(said.contains("rejected: game selfplay-1: event ") && said.contains("disagrees with the rules"), "{said}");
    assert!(said.contains("rejected: game selfplay-3: the game never ended"), "{said}");
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory")
        .map(|e| e.expect("an entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn parquet_export_leaves_out_and_names_games_that_do_not_replay() {
    let dir = tempfile::tempdir().expect("dir");
    let spoiled = spoiled_export(dir.path());
    let tables = dir.path().join("tables");
    let said = clack(&["export", "--format", "parquet", "--out", &tables.display().to_string(), &spoiled]);
    assert_names_the_spoiled_games(&said);
    assert_eq!(
        names_in(&tables),
        ["decisions.parquet", "games.parquet", "moves.parquet", "rounds.parquet", "seats.parquet"]
    );
    let analyzed = clack(&["analyze", &spoiled]);
    assert!(analyzed.starts_with("3 games in") && analyzed.contains("; 2 logs did not replay"), "{analyzed}");
}

#[test]
fn a_failed_parquet_export_leaves_no_table_behind() {
    let dir = tempfile::tempdir().expect("dir");
    let text = std::fs::read_to_string(five_games(dir.path())).expect("the export");
    let damaged = dir.path().join("damaged.jsonl");
    std::fs::write(&damaged, format!("{text}{{\"gameId\":\n")).expect("writes");
    let tables = dir.path().join("tables");
    let said = clack_fails(&[
        "export",
        "--format",
        "parquet",
        "--out",
        &tables.display().to_string(),
        &damaged.display().to_string(),
    ]);
    assert!(said.contains("line "), "{said}");
    assert!(names_in(&tables).is_empty(), "{:?}", names_in(&tables));
}

#[test]
fn jsonl_export_writes_only_finished_games_that_replay() {
    let dir = tempfile::tempdir().expect("dir");
    let spoiled = spoiled_export(dir.path());
    let lines = dir.path().join("out.jsonl").display().to_string();
    let said = clack(&["export", "--format", "jsonl", "--out", &lines, &spoiled]);
    assert_names_the_spoiled_games(&said);
    let written = std::fs::read_to_string(&lines).expect("the output");
    for game in ["selfplay-1", "selfplay-3"] {
        assert!(!written.contains(&format!("\"{game}\"")), "{game} was written");
    }
    let analyzed = clack(&["analyze", &lines]);
    assert!(analyzed.starts_with("3 games in") && analyzed.contains("; 0 logs did not replay"), "{analyzed}");
}
