//! The crash loop in CI: `clack crashloop` kills the real server ten times under load from
//! client games and bot games, restarts it each time, and fails unless every acknowledged
//! action and watched event is still there, every log verifies and every game finishes. The
//! documented long run (100 kills) is the same command with `--kills 100`
//! (docs/durability.md).

use std::process::Command;

#[test]
fn ten_kills_under_load_lose_nothing_acknowledged() {
    let dir = tempfile::tempdir().expect("dir");
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["crashloop", "--kills", "10", "--clients", "8", "--bot-games", "2", "--max-ms", "800", "--data"])
        .arg(dir.path().join("data"))
        .output()
        .expect("clack crashloop runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "crashloop failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("crashloop: 10 kills"), "{stdout}");
    let acknowledged = stdout
        .lines()
        .find_map(|l| l.split("acknowledged actions: ").nth(1))
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.trim().parse::<usize>().ok())
        .expect("the report counts acknowledged actions");
    assert!(acknowledged > 100, "the clients made moves between the kills: {stdout}");
}
