//! The store under sustained play stops growing: `clack store fill` drives the real store on a
//! real directory as the server does (one move per append, many games at once, seat tokens and
//! owners written as games start) and reports the directory's size on disk and its own resident
//! memory every 1,000 finished games. Over the second half of the run neither may grow by more
//! than a bound: the directory by what the finished games themselves take, the memory by a few
//! MB. The figures for 20,000 games are in docs/benchmarks.md; this is the same soak, kept small
//! enough for CI.

use std::process::Command;

/// One `soak:` line: finished games, disk bytes, resident MB.
fn parse(line: &str) -> Option<(u64, f64, f64)> {
    let rest = line.strip_prefix("soak: ")?;
    let finished = rest.split_whitespace().next()?.parse().ok()?;
    let disk = rest.split("disk ").nth(1)?.split_whitespace().next()?.parse::<f64>().ok()? * 1e6;
    let rss = rest.split("rss ").nth(1)?.split_whitespace().next()?.parse().ok()?;
    Some((finished, disk, rss))
}

#[test]
fn disk_and_memory_stop_growing_under_sustained_play() {
    let dir = tempfile::tempdir().expect("dir");
    let data = dir.path().join("data");
    let output = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["store", "fill", "--game", "straight", "--games", "8000", "--distinct", "50", "--moves", "1"])
        .args(["--concurrent", "200", "--every", "1000", "--data"])
        .arg(&data)
        .output()
        .expect("clack store fill runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let samples: Vec<(u64, f64, f64)> = stdout.lines().filter_map(parse).collect();
    assert!(samples.len() >= 8, "a line every 1,000 games:\n{stdout}");
    // The second half, from the sample at 4,000 games to the last one taken while games were
    // still live (the final line comes after every game has ended).
    let (first, last) = (samples[3], samples[samples.len() - 2]);
    let games = (last.0 - first.0) as f64;
    let disk_per_game = (last.1 - first.1) / games;
    assert!(disk_per_game <= 10_000.0, "the directory grew {disk_per_game:.0} bytes a game:\n{stdout}");
    let memory = last.2 - first.2;
    assert!(memory <= 24.0, "resident memory grew {memory:.0} MB over the second half:\n{stdout}");
    // What is stored is whole: the layout checks out.
    let stats = Command::new(env!("CARGO_BIN_EXE_clack")).args(["store", "stats", "--data"]).arg(&data).output();
    let stats = stats.expect("clack store stats runs");
    let said = String::from_utf8_lossy(&stats.stdout);
    assert!(stats.status.success() && said.contains("layout: sound"), "{said}");
    assert!(said.contains("8000 games"), "{said}");
}
