//! A server seating bots keeps a bounded number of threads: `clack soak` plays a hundred
//! all-bot games at a time against the real `clack serve` binary and samples its threads. Each
//! game's store reads run on tokio's blocking pool, which once started a thread for every read
//! that found none idle (194 threads measured, each keeping its own allocator heaps, and the
//! server's memory grew with them: docs/benchmarks.md, "Memory of a server that seats bots").

mod support;

use std::process::Command;

/// The most threads the server may show: its blocking pool's bound (16), tokio's workers (one
/// per core), sled's IO threads and flusher, the store's writer and the main thread, with room.
const MOST_THREADS: u32 = 40;

#[test]
fn a_hundred_bot_games_at_once_keep_the_servers_threads_bounded() {
    let data = tempfile::tempdir().expect("dir");
    let (mut server, url) = support::spawn_server(data.path(), &[], &[]);
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let out = Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["soak", "--server", &url, "--pid", &server.id().to_string(), "--live", "100", "--games", "400"])
        .current_dir(root)
        .output()
        .expect("clack soak runs");
    let _ = server.kill();
    let _ = server.wait();
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{printed}{}", String::from_utf8_lossy(&out.stderr));
    let threads: Vec<u32> =
        printed.lines().filter_map(|line| line.strip_suffix(" threads")?.rsplit(' ').next()?.parse().ok()).collect();
    assert!(threads.len() >= 2, "samples: {printed}");
    let most = threads.iter().copied().max().unwrap_or_default();
    assert!(most <= MOST_THREADS, "the server ran {most} threads: {printed}");
}
