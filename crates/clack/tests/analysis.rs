//! `clack analyze` and `clack export --format parquet` through the real binary: the Parquet
//! tables read with pyarrow and pandas (tests/python/parquet_check.py) agree with the JSON lines
//! export they came from; the analysis writes its JSON summary and a self-contained HTML report;
//! `--server` reads the finished games of a running server.

mod support;

use std::path::Path;
use std::process::Command;

use clack_store::Durability;
use support::Server;

fn clack(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_clack")).args(args).output().expect("clack runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(output.status.success(), "clack {args:?} failed: {stdout} {}", String::from_utf8_lossy(&output.stderr));
    stdout
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
    let addr = format!("http://{}", server.addr);
    let said = tokio::task::spawn_blocking(move || {
        let out = tempfile::tempdir().expect("dir");
        let lines = out.path().join("all.jsonl").display().to_string();
        let exported = clack(&["export", "--server", &addr, "--format", "jsonl", "--out", &lines]);
        (clack(&["analyze", "--server", &addr]), exported, clack(&["analyze", &lines]))
    })
    .await
    .expect("joins");
    assert!(said.0.starts_with("3 games in"), "{}", said.0);
    assert!(said.1.starts_with("3 games written"), "{}", said.1);
    assert!(said.2.starts_with("3 games in"), "{}", said.2);
    server.stop().await;
}
