//! The browser face of `clack serve`: the app's files and gRPC-Web on the gRPC port, and the
//! browser tests (web/tests/browser.mjs: Chromium driven by playwright-core) against the real
//! binary, over a store that holds 1,000 games so that the lobby is measured paged.
//!
//! Also runs the component tests of the board drawings (vitest, web/tests/*.test.ts).
//! Needs Node, `npm ci` in web/ and Debian's Chromium (`apt-get install chromium`); `.ci/run`
//! installs them. Screenshots go to target/web-screenshots/.
#![allow(clippy::unwrap_used)]

mod support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// A plain HTTP/1.1 request; returns the status line, the headers and the body as text.
fn http(url: &str, request: &str) -> String {
    let addr = url.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.write_all(request.replace("HOST", addr).as_bytes()).unwrap();
    let mut out = Vec::new();
    stream.read_to_end(&mut out).unwrap();
    String::from_utf8_lossy(&out).into_owned()
}

fn get(url: &str, path: &str) -> String {
    http(url, &format!("GET {path} HTTP/1.1\r\nHost: HOST\r\nConnection: close\r\n\r\n"))
}

/// Stops the server when the test ends, whether it passed or not.
struct Stop(std::process::Child);

impl Drop for Stop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_page_and_its_routes_are_served_beside_grpc() {
    let dir = tempfile::tempdir().unwrap();
    let (child, url) = support::spawn_server(dir.path(), &[], &[]);
    let _stop = Stop(child);
    let page = get(&url, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("content-type: text/html"), "{page}");
    assert!(page.contains("<div id=\"app\">") || page.contains("id=\"app\""), "{page}");
    // The app's own routes load the page too.
    assert!(get(&url, "/replay/some-game?at=3").starts_with("HTTP/1.1 200"));
    // A gRPC-Web call to an unknown method is UNIMPLEMENTED (12), not the page.
    let unknown = http(
        &url,
        "POST /clack.v1.GameService/NoSuchMethod HTTP/1.1\r\nHost: HOST\r\nContent-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\n\0\0\0\0\0",
    );
    assert!(unknown.contains("grpc-status: 12"), "{unknown}");
}

#[test]
fn no_web_serves_grpc_only() {
    let dir = tempfile::tempdir().unwrap();
    let (child, url) = support::spawn_server(dir.path(), &["--no-web"], &[]);
    let _stop = Stop(child);
    assert!(get(&url, "/").starts_with("HTTP/1.1 404"));
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let mut client = GameServiceClient::connect(url.clone()).await.unwrap();
        let listed = client.list_games(pb::ListGamesRequest::default()).await.unwrap();
        assert!(listed.into_inner().games.is_empty());
    });
}

/// Why the browser tests cannot run here, if they cannot.
fn browser_missing(root: &Path) -> Option<String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is not installed (Node 20 or newer)".into());
    }
    if !root.join("web/node_modules/playwright-core").is_dir() {
        return Some("web/node_modules is missing: run `npm ci` in web/".into());
    }
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    if !Path::new(&chromium).exists() {
        return Some(format!("no Chromium at {chromium}: `apt-get install -y chromium` (or set CHROMIUM)"));
    }
    None
}

#[test]
fn the_board_drawings_pass_their_component_tests() {
    let root = root();
    if let Some(missing) = browser_missing(&root) {
        panic!("the component tests need Node and web/node_modules: {missing}");
    }
    let web = root.join("web");
    // The TypeScript client is generated from proto/, never kept in git.
    let generated = Command::new(web.join("node_modules/.bin/buf")).arg("generate").current_dir(&web).status();
    assert!(generated.expect("buf runs").success(), "buf generate failed in web/");
    let status = Command::new(web.join("node_modules/.bin/vitest")).arg("run").current_dir(&web).status();
    assert!(status.expect("vitest runs").success(), "the component tests (vitest, web/tests/*.test.ts) failed");
}

#[test]
fn the_browser_tests_pass_against_the_real_server() {
    let root = root();
    if let Some(missing) = browser_missing(&root) {
        panic!("the browser tests need Node, web/node_modules and Chromium: {missing}");
    }
    let dir = tempfile::tempdir().unwrap();
    // The straight-2 ladder runs (anchored to the quick engine level) for the ladder and bot pages.
    let args = [
        "--quota-live-games",
        "0",
        "--quota-requests-per-second",
        "0",
        "--ladder",
        "--ladder-configurations",
        "straight-2",
        "--ladder-anchor",
        "engine:fast",
    ];
    let (child, url) = support::spawn_server(dir.path(), &args, &[]);
    let _stop = Stop(child);
    // 1,000 games in the store, so the lobby is loaded as it would be on a busy server.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let mut client = GameServiceClient::connect(url.clone()).await.unwrap();
        for i in 0..1000u32 {
            let options = if i % 2 == 0 { support::straight_options(2, 250) } else { support::streets_options(2) };
            let request = pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: Some(u64::from(i)) };
            client.create_game(request).await.unwrap();
        }
    });
    let shots = root.join("target/web-screenshots");
    let status = Command::new("node")
        .arg(root.join("web/tests/browser.mjs"))
        .env("CLACK_URL", &url)
        .env("CLACK_SHOTS", &shots)
        .status()
        .expect("node runs");
    assert!(status.success(), "the browser tests failed (their output is above; screenshots in {})", shots.display());
}
