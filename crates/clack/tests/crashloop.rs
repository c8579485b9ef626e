//! The crash loop in CI: `clack crashloop` kills the real server ten times under load from
//! client games and bot games, restarts it each time, and fails unless every acknowledged
//! action and watched event is still there, every log verifies and every game finishes. The
//! documented long run (100 kills) is the same command with `--kills 100`
//! (docs/durability.md). Then the data it leaves is backed up from a server running on it and
//! restored elsewhere, where every game verifies.

mod support;

use std::process::Command;

const ADMIN_KEY: &str = "crashloop-test-admin-key-0123456789abcdef";

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
    let games = stdout
        .lines()
        .find_map(|l| l.strip_prefix("games: "))
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.trim().parse::<usize>().ok())
        .expect("the report counts games");

    let (mut child, url) = support::spawn_server(&dir.path().join("data"), &[], &[("CLACK_ADMIN_KEY", ADMIN_KEY)]);
    let clack = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_clack"))
            .args(args)
            .current_dir(dir.path())
            .env("CLACK_KEY", ADMIN_KEY)
            .output()
            .expect("runs")
    };
    let backup = clack(&["backup", "--server", &url, "--out", "crash.clackbak"]);
    assert!(backup.status.success(), "{}", String::from_utf8_lossy(&backup.stderr));
    child.kill().expect("stop");
    child.wait().expect("reaped");
    let restore = clack(&["restore", "--from", "crash.clackbak", "--data", "restored"]);
    let said = String::from_utf8_lossy(&restore.stdout);
    assert!(restore.status.success(), "{said}{}", String::from_utf8_lossy(&restore.stderr));
    assert!(said.contains(&format!("{games} games, {games} verify")), "{said}");
}
