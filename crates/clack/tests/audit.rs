//! `clack audit` through the real binary, on a small match (two short games, reviewed at fast and
//! judged at default): the report names every figure, the JSON holds them, every share is a share
//! (undefined only where it counts nothing), and the tables count the decisions reviewed.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The repository's root, where the audit's default bots are.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).expect("the workspace root")
}

fn share(figures: &Value, name: &str) -> (u64, u64, Option<f64>) {
    let share = &figures[name];
    let count = share["count"].as_u64().unwrap_or_else(|| panic!("{name}.count in {share}"));
    let of = share["of"].as_u64().unwrap_or_else(|| panic!("{name}.of in {share}"));
    (count, of, share["share"].as_f64())
}

fn table_total(figures: &Value, name: &str) -> u64 {
    let rows = figures[name]["counts"].as_array().unwrap_or_else(|| panic!("{name}.counts"));
    assert_eq!(rows.len(), 5, "{name} has a row a label");
    rows.iter()
        .map(|row| {
            let row = row.as_array().expect("a row");
            assert_eq!(row.len(), 5, "{name} has a column a label");
            row.iter().map(|n| n.as_u64().expect("a count")).sum::<u64>()
        })
        .sum()
}

#[test]
fn a_small_audit_reports_every_share_and_table() {
    let dir = tempfile::tempdir().expect("dir");
    let json = dir.path().join("audit.json");
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .current_dir(root())
        .args(["audit", "--games", "2", "--level", "fast", "--judge", "default", "--players", "2", "--target", "60"])
        .args(["--threads", "2", "--json"])
        .arg(&json)
        .output()
        .expect("clack runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "clack audit failed: {stdout} {}", String::from_utf8_lossy(&output.stderr));
    for line in [
        "2 games of straight between straight-greedy@",
        "(a) of fast's mistakes and blunders:",
        "default calls a mistake or blunder too",
        "default calls best or good",
        "(b) of fast's inaccuracies or worse, loss interval reaching zero",
        "(c) of default's mistakes and blunders, also so with another seed",
        "(d) labels: fast (rows) by default (columns)",
        "decisions reviewed in 2 games",
    ] {
        assert!(stdout.contains(line), "the report says {line:?}:\n{stdout}");
    }

    let written: Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("the JSON")).expect("JSON");
    assert_eq!((written["level"].as_str(), written["judge"].as_str()), (Some("fast"), Some("default")));
    let figures = &written["figures"];
    assert_eq!(figures["games"].as_u64(), Some(2));
    let decisions = figures["decisions"].as_u64().expect("decisions");
    assert!(decisions > 0, "two games have decisions");
    // Every decision of the one record is reviewed by all three looks, so the tables count them all.
    assert_eq!(table_total(figures, "level_judge"), decisions);
    assert_eq!(table_total(figures, "judge_again"), decisions);
    assert!(table_total(figures, "endgame") <= decisions);
    for name in [
        "flagged_confirmed",
        "flagged_cleared",
        "endgame_flagged_confirmed",
        "endgame_flagged_cleared",
        "reaching_zero",
        "judge_repeated",
    ] {
        let (count, of, value) = share(figures, name);
        assert!(count <= of && of <= decisions, "{name}: {count} of {of}");
        match value {
            None => assert_eq!(of, 0, "{name} is undefined only when it counts nothing"),
            Some(value) => {
                assert!((0.0..=1.0).contains(&value), "{name} = {value}");
                assert!((value - count as f64 / of as f64).abs() < 1e-12, "{name} = {count}/{of}");
            }
        }
    }
    // The level's mistakes and blunders are the rows of its table's last two labels.
    let (_, flagged, _) = share(figures, "flagged_confirmed");
    let rows = figures["level_judge"]["counts"].as_array().expect("rows");
    let row_total = |i: usize| rows[i].as_array().expect("row").iter().filter_map(Value::as_u64).sum::<u64>();
    assert_eq!(flagged, row_total(3) + row_total(4));
}

#[test]
fn a_bot_a_seat() {
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .current_dir(root())
        .args(["audit", "--games", "1", "--players", "3"])
        .output()
        .expect("clack runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("one bot a seat: 2 bots named for 3 players"), "{stderr}");
}
