//! Shards sharing one PostgreSQL database (`--database`), against real processes: Debian's
//! PostgreSQL in a throwaway cluster on a free port, and real `clack serve` shards. A key made on
//! one shard works on the others; a revocation on one is refused on every shard within a second;
//! when the database stops, games play on, shared calls answer UNAVAILABLE naming the database,
//! keys already known keep working for the grace time and no longer, and all comes back when the
//! database does; a shard that stops is shown as down. PostgreSQL must be installed (`apt-get install postgresql`): without it the
//! test fails, it does not skip.

#![allow(clippy::unwrap_used)] // a test that cannot set up fails, and says where

mod support;

use std::future::Future;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::admin_service_client::AdminServiceClient;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_proto::v1::game_service_client::GameServiceClient;
use support::{keyed, new_game, play_one, play_to_end, straight_options};
use tonic::transport::Channel;
use tonic::{Code, Request};

const ADMIN_KEY: &str = "the-cluster-admin-key-for-the-test-0001";

/// A throwaway PostgreSQL cluster, stopped (immediately) when the test ends.
struct Postgres {
    bin: PathBuf,
    dir: tempfile::TempDir,
    port: u16,
    /// Whether its processes are stopped by [`Postgres::pause`] now.
    paused: std::sync::atomic::AtomicBool,
}

impl Postgres {
    /// initdb and start a cluster whose superuser is `clack`, trusted on loopback only.
    fn start() -> Postgres {
        let bin = postgres_bin();
        let dir = tempfile::Builder::new().prefix("clack-pg-").tempdir().unwrap();
        if is_root() {
            // initdb and postgres refuse to run as root: they run as the `postgres` user, which
            // must own the directory.
            let owned = Command::new("chown").args(["-R", "postgres:"]).arg(dir.path()).status().unwrap();
            assert!(owned.success(), "chown the cluster's directory to postgres");
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let postgres = Postgres { bin, dir, port, paused: false.into() };
        let data = postgres.data();
        let init = postgres
            .tool("initdb")
            .args(["-U", "clack", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "-D"])
            .arg(&data)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(init.success(), "initdb");
        postgres.run();
        postgres
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn url(&self) -> String {
        format!("postgres://clack@127.0.0.1:{}/postgres", self.port)
    }

    /// A PostgreSQL tool, run as `postgres` when the test runs as root.
    fn tool(&self, name: &str) -> Command {
        let path = self.bin.join(name);
        if is_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(path);
            command
        } else {
            Command::new(path)
        }
    }

    /// Starts the server and waits until it accepts connections.
    fn run(&self) {
        let options =
            format!("-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off", self.port, self.dir.path().display());
        let started = self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.path().join("log"))
            .args(["-w", "-o", &options, "start"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        let log = std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default();
        assert!(started.success(), "pg_ctl start: {log}");
    }

    /// Runs one SQL statement with psql; answers its rows, `|`-separated, one a line.
    fn sql(&self, statement: &str) -> String {
        let psql = self.bin.join("psql");
        let out = Command::new(psql)
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "clack", "-d", "postgres", "-tAc", statement])
            .output()
            .unwrap();
        assert!(out.status.success(), "psql: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Stops the server at once, as a crash or a network cut would look to the shards.
    fn stop(&self) {
        let stopped = self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-w", "-m", "immediate", "stop"])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(stopped.success(), "pg_ctl stop");
    }

    /// A psql session that runs `statement` in a transaction it keeps open (holding whatever
    /// the statement locks) until it is dropped; answers once the statement has run.
    fn hold(&self, statement: &str) -> Held<'_> {
        use std::io::Write;
        let mut psql = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string(), "-U", "clack", "-d", "postgres", "-q"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = psql.stdin.take().unwrap();
        writeln!(stdin, "BEGIN; {statement}; SELECT pg_sleep(600);").unwrap();
        let start = Instant::now();
        while self.sql(&format!("SELECT count(*) FROM pg_stat_activity WHERE {HOLDING}")) != "1" {
            assert!(start.elapsed() < Duration::from_secs(10), "psql never ran {statement}");
            std::thread::sleep(Duration::from_millis(20));
        }
        Held { psql, postgres: self }
    }

    /// Pauses the server as a hung host or a frozen virtual machine would look to the shards:
    /// connections are accepted by the kernel, and nothing answers. The postmaster is stopped
    /// first (so that it starts no new backend), then every process it started.
    fn pause(&self) {
        let pid = self.postmaster_pid();
        signal("-STOP", &pid);
        let _ = Command::new("pkill").args(["-STOP", "-P", &pid]).status();
        self.paused.store(true, std::sync::atomic::Ordering::SeqCst);
    }

    /// Lets a paused server run on.
    fn resume(&self) {
        let pid = self.postmaster_pid();
        let _ = Command::new("pkill").args(["-CONT", "-P", &pid]).status();
        signal("-CONT", &pid);
        self.paused.store(false, std::sync::atomic::Ordering::SeqCst);
    }

    /// The postmaster's process id: the first line of its pid file.
    fn postmaster_pid(&self) -> String {
        let file = std::fs::read_to_string(self.data().join("postmaster.pid")).unwrap();
        file.lines().next().unwrap().trim().to_owned()
    }
}

/// The session of a [`Postgres::hold`], as `pg_stat_activity` shows it.
const HOLDING: &str = "query LIKE '%pg_sleep(600)%' AND pid <> pg_backend_pid()";

/// A psql session holding a transaction open ([`Postgres::hold`]).
struct Held<'a> {
    psql: Child,
    postgres: &'a Postgres,
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        // Its backend sleeps on after psql is gone, holding the transaction: end it first.
        self.postgres.sql(&format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE {HOLDING}"));
        let _ = self.psql.kill();
        let _ = self.psql.wait();
    }
}

fn signal(signal: &str, pid: &str) {
    let sent = Command::new("kill").args([signal, pid]).status().unwrap();
    assert!(sent.success(), "kill {signal} {pid}");
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // A stopped server would not stop: a failing test never leaves one behind.
        if self.paused.load(std::sync::atomic::Ordering::SeqCst) {
            self.resume();
        }
        let _ = self
            .tool("pg_ctl")
            .arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

/// The newest installed PostgreSQL's programs (Debian keeps them under /usr/lib/postgresql/N).
fn postgres_bin() -> PathBuf {
    let root = Path::new("/usr/lib/postgresql");
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, bin)| bin.join("initdb").exists())
        .collect();
    versions.sort();
    let Some((_, bin)) = versions.pop() else {
        panic!("PostgreSQL is not installed; the cluster test needs it: apt-get install postgresql");
    };
    bin
}

/// A `clack serve` shard over its own data directory, killed when the test ends.
struct Shard {
    process: Child,
    url: String,
    data: tempfile::TempDir,
    addr: String,
    args: Vec<String>,
    database: String,
}

impl Drop for Shard {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

impl Shard {
    fn start(name: &str, database: &str, mode: &str, grace_secs: &str) -> Shard {
        Shard::start_with(name, database, &["--mode", mode, "--database-key-grace-secs", grace_secs])
    }

    /// A shard on a port the system picks, a new one at each restart.
    fn start_with(name: &str, database: &str, more: &[&str]) -> Shard {
        let addr = "127.0.0.1:0";
        let data = tempfile::tempdir().unwrap();
        let args: Vec<String> = ["--shard", name].iter().chain(more).map(|arg| (*arg).to_owned()).collect();
        let (process, url) = Shard::spawn(addr, data.path(), &args, database);
        Shard { process, url, data, addr: addr.to_owned(), args, database: database.to_owned() }
    }

    /// A shard where a proxy will expect it: on a port the system picks as it binds (a port
    /// picked beforehand may be taken by another test's server in between), which its restarts
    /// keep.
    fn start_pinned(name: &str, database: &str, more: &[&str]) -> Shard {
        let mut shard = Shard::start_with(name, database, more);
        shard.addr = shard.url.trim_start_matches("http://").to_owned();
        shard
    }

    fn spawn(addr: &str, data: &Path, args: &[String], database: &str) -> (Child, String) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let envs = [("CLACK_DATABASE", database), ("CLACK_ADMIN_KEY", ADMIN_KEY)];
        support::spawn_server_at(addr, data, &args, &envs)
    }

    /// Kills the process and starts it again over the same data (on a new port unless it was
    /// given one).
    fn restart(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
        (self.process, self.url) = Shard::spawn(&self.addr, self.data.path(), &self.args, &self.database);
    }

    async fn admin(&self) -> AdminServiceClient<Channel> {
        AdminServiceClient::connect(self.url.clone()).await.unwrap()
    }

    async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::connect(self.url.clone()).await.unwrap()
    }

    /// The status of a call made with `key` (ListBots: any account may make it).
    async fn try_key(&self, key: &str) -> Code {
        let mut bots = BotServiceClient::connect(self.url.clone()).await.unwrap();
        match bots.list_bots(keyed(pb::ListBotsRequest::default(), key)).await {
            Ok(_) => Code::Ok,
            Err(status) => status.code(),
        }
    }

    /// Waits (up to `limit`) until a call with `key` answers `code`; returns how long it took.
    async fn until_key(&self, key: &str, code: Code, limit: Duration) -> Duration {
        let start = Instant::now();
        loop {
            let now = self.try_key(key).await;
            if now == code {
                return start.elapsed();
            }
            assert!(start.elapsed() < limit, "shard {} still answers {now:?} to the key after {limit:?}", self.url);
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Runs the `clack` binary; answers what it printed, failing the test if it failed.
fn clack(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_clack")).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "clack {args:?}: {text}{}", String::from_utf8_lossy(&out.stderr));
    text
}

async fn create_account(shard: &Shard, name: &str) -> Result<String, tonic::Status> {
    let request = pb::CreateAccountRequest { name: name.into(), admin: false, with_key: true };
    Ok(shard.admin().await.create_account(keyed(request, ADMIN_KEY)).await?.into_inner().key)
}

#[tokio::test]
async fn a_key_made_on_one_shard_works_on_every_shard_and_a_revocation_reaches_all_within_a_second() {
    let postgres = Postgres::start();
    let shards: Vec<Shard> =
        ["a", "b", "c"].iter().map(|name| Shard::start(name, &postgres.url(), "closed", "60")).collect();

    // The shards migrated the database at start; the command finds it current and says so.
    let migrate = clack(&["db", "migrate", "--database", &postgres.url()]);
    let latest = clack_server::cluster::migrate::latest();
    assert!(migrate.contains(&format!("the schema is current (version {latest})")), "{migrate}");
    let status = clack(&["db", "status", "--database", &postgres.url()]);
    assert_eq!(status.lines().filter(|line| line.contains(" applied ")).count(), latest as usize, "{status}");
    assert!(!status.contains("pending"), "{status}");

    let listed = clack(&["db", "shards", "--database", &postgres.url()]);
    for name in ["a", "b", "c"] {
        assert!(listed.lines().any(|line| line.starts_with(name) && line.contains(" up ")), "{listed}");
    }

    let ada = create_account(&shards[0], "ada").await.unwrap();
    // At once, on every shard: a shard that has not heard of the key asks the database.
    for shard in &shards {
        assert_eq!(shard.try_key(&ada).await, Code::Ok, "the key made on shard a works on {}", shard.url);
    }
    // The name is taken on every shard, whichever was asked.
    let again = create_account(&shards[2], "ada").await.expect_err("the name is taken");
    assert_eq!(again.code(), Code::FailedPrecondition, "{}", again.message());
    // A key made on another shard for the same account works on the first.
    let made = keyed(pb::CreateKeyRequest { account: "ada".into() }, ADMIN_KEY);
    let second = shards[1].admin().await.create_key(made).await.unwrap().into_inner();
    assert_eq!(shards[0].try_key(&second.key).await, Code::Ok);
    let listed = shards[2].admin().await.list_accounts(keyed(pb::ListAccountsRequest::default(), ADMIN_KEY)).await;
    let ada_listed = listed.unwrap().into_inner().accounts.into_iter().find(|a| a.name == "ada").unwrap();
    assert_eq!(ada_listed.keys.len(), 2, "shard c lists both keys, made on a and b");

    // Revoked on b: refused on every shard within a second of the revocation's answer.
    let first_id = ada.split('_').nth(1).unwrap().to_owned();
    let revoke = pb::RevokeKeyRequest { key_id: first_id };
    let revoked = shards[1].admin().await.revoke_key(keyed(revoke.clone(), ADMIN_KEY)).await.unwrap().into_inner();
    let revoked_at = revoked.info.unwrap().revoked_unix_millis;
    assert!(revoked_at > 0);
    let start = Instant::now();
    for shard in &shards {
        shard.until_key(&ada, Code::Unauthenticated, Duration::from_secs(1)).await;
    }
    assert!(start.elapsed() < Duration::from_secs(1), "every shard refuses it within 1 s: {:?}", start.elapsed());
    eprintln!("     revoked on shard b, refused by all three shards after {:?}", start.elapsed());
    // Revoking again elsewhere keeps the first revocation's time; the other key still works.
    let twice = shards[2].admin().await.revoke_key(keyed(revoke, ADMIN_KEY)).await.unwrap().into_inner();
    assert_eq!(twice.info.unwrap().revoked_unix_millis, revoked_at);
    for shard in &shards {
        assert_eq!(shard.try_key(&second.key).await, Code::Ok);
    }

    // A shard that stops beating is shown as down within a few seconds; the others stay up.
    let mut shards = shards;
    drop(shards.pop());
    let start = Instant::now();
    loop {
        let listed = clack(&["db", "shards", "--database", &postgres.url()]);
        let state = |name: &str| listed.lines().find(|line| line.starts_with(name)).map(|line| line.contains(" up "));
        if state("c") == Some(false) {
            assert_eq!((state("a"), state("b")), (Some(true), Some(true)), "{listed}");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(6), "shard c is still shown up: {listed}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    drop(postgres);
}

#[tokio::test]
async fn with_the_database_away_games_play_on_and_keys_last_only_the_grace_time() {
    let postgres = Postgres::start();
    let grace = Duration::from_secs(2);
    let shards: Vec<Shard> = ["a", "b"].iter().map(|name| Shard::start(name, &postgres.url(), "open", "2")).collect();
    let ada = create_account(&shards[0], "ada").await.unwrap();
    shards[1].until_key(&ada, Code::Ok, Duration::from_secs(1)).await;
    let mut games = shards[1].games().await;
    let (game, tokens) = new_game(&mut games, straight_options(2, 100), 7).await;
    for _ in 0..4 {
        play_one(&mut games, &game, &tokens).await.unwrap();
    }

    postgres.stop();
    let stopped = Instant::now();
    // Calls that need the shared state answer UNAVAILABLE, naming the database.
    let refused = create_account(&shards[0], "bob").await.expect_err("no database");
    assert_eq!(refused.code(), Code::Unavailable, "{}", refused.message());
    assert!(refused.message().contains("database"), "{}", refused.message());
    let listing = games.list_games(pb::ListGamesRequest::default()).await.expect_err("the index is away");
    assert_eq!(listing.code(), Code::Unavailable, "{}", listing.message());
    assert!(listing.message().contains("database"), "{}", listing.message());
    // The game goes on to its end, and a new one can be made and played: logs are local.
    play_to_end(&mut games, &game, &tokens).await;
    let (other, other_tokens) = new_game(&mut games, straight_options(2, 50), 8).await;
    play_to_end(&mut games, &other, &other_tokens).await;
    // The known key keeps working for the grace time, and no longer.
    if stopped.elapsed() < grace - Duration::from_millis(1000) {
        assert_eq!(shards[1].try_key(&ada).await, Code::Ok, "within the grace time");
    }
    shards[1].until_key(&ada, Code::Unavailable, grace + Duration::from_secs(2)).await;
    // The grace runs from the shard's last read, about one poll (0.5 s) before the stop; a
    // loaded machine may delay that read a little.
    let earliest = grace - Duration::from_millis(900);
    assert!(stopped.elapsed() >= earliest, "not before the grace time: {:?}", stopped.elapsed());
    let mut bots = BotServiceClient::connect(shards[1].url.clone()).await.unwrap();
    bots.list_bots(Request::new(pb::ListBotsRequest::default())).await.expect("calls without a key go on");

    // Back: keys work again and shared calls succeed, on every shard.
    postgres.run();
    for shard in &shards {
        shard.until_key(&ada, Code::Ok, Duration::from_secs(5)).await;
    }
    let bob = create_account(&shards[1], "bob").await.expect("the database is back");
    shards[0].until_key(&bob, Code::Ok, Duration::from_secs(1)).await;
    // The index caught up with what shard b did meanwhile: the game that ended and the game
    // made and played during the outage are listed finished, once each, from shard a.
    let both = [game.clone(), other.clone()];
    until_listed(&shards[0], &both, pb::GameStatus::Finished, Duration::from_secs(5)).await;
    let listed = list_all(&shards[0], pb::GameStatus::Unspecified, 100).await;
    for id in &both {
        assert_eq!(listed.iter().filter(|g| &g.game_id == id).count(), 1, "{id} once");
    }
}

/// Runs `call`, and answers its result with how long it took.
async fn timed<T>(call: impl Future<Output = T>) -> (T, Duration) {
    let start = Instant::now();
    let result = call.await;
    (result, start.elapsed())
}

/// How long a shared call may take to answer UNAVAILABLE while the database hangs: well under
/// the 10 s request timeout, above the shard's 2 s bound on a call (docs/cluster.md).
const HUNG_ANSWER: Duration = Duration::from_secs(5);

/// Asserts that a call answered UNAVAILABLE naming the database, within [`HUNG_ANSWER`].
fn unavailable<T: std::fmt::Debug>(what: &str, (result, took): (Result<T, tonic::Status>, Duration)) {
    let status = result.expect_err(what);
    assert_eq!(status.code(), Code::Unavailable, "{what} after {took:?}: {}", status.message());
    assert!(status.message().contains("database"), "{what}: {}", status.message());
    assert!(took < HUNG_ANSWER, "{what} answered after {took:?}");
    eprintln!("     {what}: UNAVAILABLE after {took:?}");
}

#[tokio::test]
async fn with_the_database_hung_shared_calls_answer_unavailable_at_once_and_games_are_made() {
    let postgres = Postgres::start();
    let shards: Vec<Shard> = ["a", "b"].iter().map(|name| Shard::start(name, &postgres.url(), "open", "60")).collect();
    let ada = create_account(&shards[0], "ada").await.unwrap();
    let greedy = bots_of(&shards[0]).await.upload_bot(keyed(upload("greedy", GREEDY), &ada)).await;
    let version = greedy.unwrap().into_inner().version;
    seat_bot(&shards[1], "greedy", &version).await.unwrap();
    // A statement stuck behind a lock is cancelled by the database itself (its statement
    // timeout, 1 s): the call answers UNAVAILABLE, and the next call on the pool works.
    let locked = postgres.hold("LOCK TABLE games IN ACCESS EXCLUSIVE MODE");
    let mut games = shards[1].games().await;
    let (stuck, took) = timed(games.list_games(pb::ListGamesRequest::default())).await;
    let status = stuck.expect_err("the index is locked");
    assert!(status.message().contains("statement timeout"), "{}", status.message());
    unavailable("ListGames behind a lock", (Err::<(), _>(status), took));
    drop(locked);
    // Shard b holds idle pooled connections now: a call takes one and sends its statement at
    // once, so what bounds the wait is not the pool's timeouts.
    list_all(&shards[1], pb::GameStatus::Unspecified, 100).await;

    postgres.pause();
    let list = games.list_games(pb::ListGamesRequest::default());
    unavailable("ListGames", timed(list).await);
    let key = keyed(pb::CreateKeyRequest { account: "ada".into() }, ADMIN_KEY);
    unavailable("CreateKey", timed(shards[1].admin().await.create_key(key)).await);
    let another = keyed(upload("greedy", &variant(GREEDY, "while hung")), &ada);
    unavailable("UploadBot", timed(bots_of(&shards[1]).await.upload_bot(another)).await);
    // Games are made (the quota counted on this shard only) and played; a known bot is seated.
    let (made, took) = timed(new_game(&mut games, straight_options(2, 50), 11)).await;
    assert!(took < HUNG_ANSWER, "CreateGame and two joins took {took:?}");
    eprintln!("     CreateGame and two joins while hung: {took:?}");
    play_to_end(&mut games, &made.0, &made.1).await;
    let (seated, took) = timed(seat_bot(&shards[1], "greedy", &version)).await;
    let seated = seated.expect("a game seating a known bot is made");
    assert!(took < HUNG_ANSWER, "CreateGame with a bot took {took:?}");
    assert_eq!(shards[1].try_key(&ada).await, Code::Ok, "a known key works within the grace");

    // Back: the index, the followers and the beats take up again on their own.
    postgres.resume();
    until_listed(&shards[0], std::slice::from_ref(&made.0), pb::GameStatus::Finished, Duration::from_secs(10)).await;
    until_listed(&shards[0], &[seated], pb::GameStatus::Waiting, Duration::from_secs(10)).await;
    let key = keyed(pb::CreateKeyRequest { account: "ada".into() }, ADMIN_KEY);
    let second = shards[1].admin().await.create_key(key).await.expect("the database is back").into_inner().key;
    assert_eq!(shards[0].try_key(&second).await, Code::Ok);
    // A revocation on either shard reaches the other through its follower (both keys are known).
    for (key, by, other) in [(&ada, 0, 1), (&second, 1, 0)] {
        let revoke = pb::RevokeKeyRequest { key_id: key.split('_').nth(1).unwrap().to_owned() };
        shards[by].admin().await.revoke_key(keyed(revoke, ADMIN_KEY)).await.unwrap();
        shards[other].until_key(key, Code::Unauthenticated, Duration::from_secs(2)).await;
    }
    let start = Instant::now();
    loop {
        let listed = clack(&["db", "shards", "--database", &postgres.url()]);
        let up = |name: char| listed.lines().any(|line| line.starts_with(name) && line.contains(" up "));
        if up('a') && up('b') {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "a shard still shows down: {listed}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Every game `ListGames` on `shard` shows with this filter, page by page (`size` a page).
async fn list_all(shard: &Shard, status: pb::GameStatus, size: u32) -> Vec<pb::GameSummary> {
    let mut games = shard.games().await;
    let (mut all, mut token) = (Vec::new(), String::new());
    loop {
        let request =
            pb::ListGamesRequest { page_size: size, page_token: token, status: status as i32, ..Default::default() };
        let page = games.list_games(request).await.unwrap().into_inner();
        all.extend(page.games);
        if page.next_page_token.is_empty() {
            return all;
        }
        token = page.next_page_token;
    }
}

/// Waits (up to `limit`) until `shard` lists every one of `ids` with `status`.
async fn until_listed(shard: &Shard, ids: &[String], status: pb::GameStatus, limit: Duration) {
    let start = Instant::now();
    loop {
        let listed: Vec<String> = list_all(shard, status, 100).await.into_iter().map(|g| g.game_id).collect();
        if ids.iter().all(|id| listed.contains(id)) {
            return;
        }
        assert!(start.elapsed() < limit, "{} lists {listed:?}, not all of {ids:?}", shard.url);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn list_games_on_any_shard_is_one_query_over_the_shared_index_paged_newest_first() {
    let postgres = Postgres::start();
    let shards: Vec<Shard> =
        ["a", "b", "c"].iter().map(|name| Shard::start(name, &postgres.url(), "open", "60")).collect();
    // Two games made on each shard, one of them played to its end.
    let mut made = Vec::new();
    let mut finished = Vec::new();
    for (i, shard) in shards.iter().enumerate() {
        let mut games = shard.games().await;
        for seed in 0..2u64 {
            let (game, tokens) = new_game(&mut games, straight_options(2, 50), 10 * i as u64 + seed).await;
            if seed == 0 {
                play_to_end(&mut games, &game, &tokens).await;
                finished.push(game.clone());
            }
            made.push(game);
        }
    }
    until_listed(&shards[1], &made, pb::GameStatus::Unspecified, Duration::from_secs(2)).await;
    until_listed(&shards[2], &finished, pb::GameStatus::Finished, Duration::from_secs(2)).await;

    // Paged two at a time from shard b, while shard c creates a game before every page: every
    // page holds strictly older games than the one before, nothing twice, nothing made before
    // the first page missing, nothing made after it shown.
    let mut games = shards[1].games().await;
    let mut newer = shards[2].games().await;
    let (mut seen, mut token, mut last): (Vec<pb::GameSummary>, String, Option<(i64, String)>) =
        (Vec::new(), String::new(), None);
    let mut created_meanwhile = Vec::new();
    loop {
        let request = pb::ListGamesRequest { page_size: 2, page_token: token.clone(), ..Default::default() };
        let page = games.list_games(request).await.unwrap().into_inner();
        for game in &page.games {
            let key = (game.created_unix_millis, game.game_id.clone());
            assert!(last.as_ref().is_none_or(|l| key < *l), "{key:?} is not older than {last:?}");
            last = Some(key);
        }
        seen.extend(page.games);
        let (game, _) = new_game(&mut newer, straight_options(2, 50), 99).await;
        created_meanwhile.push(game);
        if page.next_page_token.is_empty() {
            break;
        }
        token = page.next_page_token;
    }
    let ids: Vec<&String> = seen.iter().map(|g| &g.game_id).collect();
    for game in &made {
        assert_eq!(ids.iter().filter(|id| **id == game).count(), 1, "{game} once in {ids:?}");
    }
    for game in &created_meanwhile {
        assert!(!ids.contains(&game), "{game}, made after the first page, is not on a later one");
    }
    let shards_seen: std::collections::BTreeSet<&str> = ids.iter().filter_map(|id| id.split('_').next()).collect();
    assert_eq!(shards_seen.into_iter().collect::<Vec<_>>(), ["a", "b", "c"], "one listing holds every shard's games");
    // The finished filter is served by the index too, from any shard.
    let done: Vec<String> =
        list_all(&shards[0], pb::GameStatus::Finished, 1).await.into_iter().map(|g| g.game_id).collect();
    let mut expected = finished.clone();
    expected.sort();
    let mut got = done.clone();
    got.sort();
    assert_eq!(got, expected, "only the finished games, one a page");

    // A shard killed and started again over its data reconciles: its games stay listed, and a
    // game it finishes afterwards is listed finished from the other shards.
    let mut shards = shards;
    shards[0].restart();
    let mut games = shards[0].games().await;
    let (game, tokens) = new_game(&mut games, straight_options(2, 50), 5).await;
    play_to_end(&mut games, &game, &tokens).await;
    until_listed(&shards[1], &[game], pb::GameStatus::Finished, Duration::from_secs(2)).await;
    until_listed(&shards[0], &made, pb::GameStatus::Unspecified, Duration::from_secs(2)).await;
}

const GREEDY: &str = include_str!("../../../bots/straight-greedy.rhai");
const DEFENDER: &str = include_str!("../../../bots/straight-defender.rhai");

async fn bots_of(shard: &Shard) -> BotServiceClient<Channel> {
    BotServiceClient::connect(shard.url.clone()).await.unwrap()
}

fn upload(name: &str, source: &str) -> pb::UploadBotRequest {
    pb::UploadBotRequest { name: name.into(), kind: pb::GameKind::Straight as i32, source: source.into() }
}

/// A game seating `bot` at `version` against an open seat, made on `shard`.
async fn seat_bot(shard: &Shard, bot: &str, version: &str) -> Result<String, tonic::Status> {
    let seats = vec![
        pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) },
        pb::SeatSpec {
            occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: bot.into(), version: version.into() })),
        },
    ];
    let request = pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats, seed: Some(1) };
    Ok(shard.games().await.create_game(request).await?.into_inner().game_id)
}

#[tokio::test]
async fn a_bot_uploaded_through_one_shard_plays_on_every_shard_and_its_statistics_add_up() {
    let postgres = Postgres::start();
    let shards: Vec<Shard> =
        ["a", "b", "c"].iter().map(|name| Shard::start(name, &postgres.url(), "open", "60")).collect();
    let uploaded = bots_of(&shards[0]).await.upload_bot(upload("greedy", GREEDY)).await.unwrap().into_inner();
    let token = uploaded.owner_token.clone();
    // Seated at once on every shard: a shard that has not heard of it yet asks the database.
    for shard in &shards {
        seat_bot(shard, "greedy", &uploaded.version).await.unwrap_or_else(|e| panic!("{}: {e}", shard.url));
    }
    // Only its owner adds versions, through any shard; a stranger is refused on another shard.
    let stranger = bots_of(&shards[2]).await.upload_bot(upload("greedy", DEFENDER)).await.expect_err("not the owner");
    assert_eq!(stranger.code(), Code::PermissionDenied, "{}", stranger.message());
    let defender = bots_of(&shards[1]).await.upload_bot(upload("defender", DEFENDER)).await.unwrap().into_inner();

    // Matches of the same two versions on two shards at once: the statistics add up.
    let entrants = vec![
        pb::MatchEntrant { bot_id: "greedy".into(), version: Some(uploaded.version.clone()) },
        pb::MatchEntrant { bot_id: "defender".into(), version: Some(defender.version.clone()) },
    ];
    let request = |seed| pb::RunMatchRequest {
        options: Some(straight_options(2, 50)),
        entrants: entrants.clone(),
        games: 6,
        seed: Some(seed),
    };
    let (mut on_b, mut on_c) = (bots_of(&shards[1]).await, bots_of(&shards[2]).await);
    let (b, c) = tokio::join!(on_b.run_match(request(1)), on_c.run_match(request(2)));
    let (b, c) = (b.unwrap().into_inner(), c.unwrap().into_inner());
    let wins =
        |r: &pb::RunMatchResponse| r.results.iter().find(|e| e.bot_id == "greedy").map(|e| u64::from(e.wins)).unwrap();
    let expected_wins = wins(&b) + wins(&c);
    // Both matches began at the version's first rating; each adds the change it made.
    let rating = |r: &pb::RunMatchResponse| r.results.iter().find(|e| e.bot_id == "greedy").map(|e| e.rating).unwrap();
    let expected_rating = rating(&b) + rating(&c) - 1500.0;
    let start = Instant::now();
    loop {
        let asked = pb::GetBotRequest { bot_id: "greedy".into(), version: None };
        let bot = bots_of(&shards[0]).await.get_bot(asked).await.unwrap().into_inner().bot.unwrap();
        let version = bot.versions.iter().find(|v| v.version == uploaded.version).unwrap().clone();
        if version.games == 12 {
            assert_eq!(version.wins, expected_wins, "the wins of both matches, counted once each");
            assert!((version.rating - expected_rating).abs() < 1e-6, "{} against {expected_rating}", version.rating);
            // Each match's results were recorded once, in the transaction that counted them.
            let recorded = postgres.sql("SELECT count(*), sum(games) FROM match_results WHERE bot_id = 'greedy'");
            assert_eq!(recorded, "2|12", "two matches of six games");
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(2), "shard a sees {} games of 12", version.games);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // A bot's games on every shard, listed through any one shard without `--peers`: one query
    // over the shared index, newest first and paged like every other listing. Three games seated
    // by hand and the twelve of the two matches.
    let start = Instant::now();
    loop {
        let (mut listed, mut token) = (Vec::new(), String::new());
        loop {
            let request =
                pb::ListGamesRequest { bot_id: "greedy".into(), page_size: 4, page_token: token, ..Default::default() };
            let page = shards[2].games().await.list_games(request).await.unwrap().into_inner();
            listed.extend(page.games);
            token = page.next_page_token;
            if token.is_empty() {
                break;
            }
        }
        if listed.len() == 15 {
            let on: std::collections::BTreeSet<&str> =
                listed.iter().map(|g| g.game_id.split('_').next().unwrap()).collect();
            assert_eq!(on.into_iter().collect::<Vec<_>>(), ["a", "b", "c"], "games of every shard");
            assert!(listed.windows(2).all(|w| w[0].created_unix_millis >= w[1].created_unix_millis), "newest first");
            let seated =
                |g: &pb::GameSummary| g.seats.iter().any(|s| s.bot.as_ref().is_some_and(|b| b.bot_id == "greedy"));
            assert!(listed.iter().all(seated), "only games greedy has a seat in");
            // Filtered by status, from the bot's own rows: the twelve match games finished, the
            // three seated by hand wait for their open seat.
            for (status, count) in [(pb::GameStatus::Finished, 12), (pb::GameStatus::Waiting, 3)] {
                let request = pb::ListGamesRequest {
                    bot_id: "greedy".into(),
                    status: status as i32,
                    page_size: 100,
                    ..Default::default()
                };
                let page = shards[0].games().await.list_games(request).await.unwrap().into_inner().games;
                assert_eq!(page.len(), count, "{status:?}");
                assert!(page.iter().all(|g| g.status == status as i32), "{status:?}");
            }
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(5), "{} of greedy's 15 games listed", listed.len());
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Retired through shard b (by its owner): refused a seat on shard c within a second.
    let retire = pb::RetireBotRequest { bot_id: "greedy".into(), version: None };
    bots_of(&shards[1]).await.retire_bot(support::owned(retire, &token)).await.unwrap();
    let start = Instant::now();
    loop {
        match seat_bot(&shards[2], "greedy", &uploaded.version).await {
            Err(status) if status.code() == Code::FailedPrecondition => break,
            other => assert!(start.elapsed() < Duration::from_secs(1), "shard c still seats it: {other:?}"),
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    drop(postgres);
}

#[tokio::test]
async fn an_accounts_quota_of_live_games_holds_across_shards() {
    let postgres = Postgres::start();
    let quota = ["--quota-live-games", "2"];
    let shards: Vec<Shard> = ["a", "b"].iter().map(|name| Shard::start_with(name, &postgres.url(), &quota)).collect();
    // An anonymous caller's quota is its address: the same on both shards here.
    let open = |players: u32| pb::CreateGameRequest {
        options: Some(straight_options(players, 50)),
        seats: Vec::new(),
        seed: Some(3),
    };
    let first = shards[0].games().await.create_game(open(2)).await.unwrap().into_inner();
    let token = first.owner_token;
    let owned = |request| support::owned(request, &token);
    shards[1].games().await.create_game(owned(open(2))).await.unwrap();
    // The third unfinished game is refused on either shard, once the index has the others.
    let start = Instant::now();
    loop {
        match shards[0].games().await.create_game(owned(open(2))).await {
            Err(status) if status.code() == Code::ResourceExhausted => {
                assert!(status.message().contains("unfinished games"), "{}", status.message());
                break;
            }
            Ok(made) => {
                // Made before shard b's game reached the index: cancel it and try again.
                let id = made.into_inner().game_id;
                let cancel = pb::CancelGameRequest { game_id: id };
                shards[0].games().await.cancel_game(support::owned(cancel, &token)).await.unwrap();
            }
            Err(other) => panic!("{other}"),
        }
        assert!(start.elapsed() < Duration::from_secs(2), "shard a still makes a third game");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Once one ends, there is room again, on the other shard too.
    let cancel = pb::CancelGameRequest { game_id: first.game_id };
    shards[0].games().await.cancel_game(support::owned(cancel, &token)).await.unwrap();
    let start = Instant::now();
    while shards[1].games().await.create_game(owned(open(2))).await.is_err() {
        assert!(start.elapsed() < Duration::from_secs(2), "shard b still refuses");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The versions `shard` lists for `bot`, sorted.
async fn versions_on(shard: &Shard, bot: &str) -> Vec<String> {
    let asked = pb::GetBotRequest { bot_id: bot.into(), version: None };
    let summary = bots_of(shard).await.get_bot(asked).await.unwrap().into_inner().bot.unwrap();
    let mut versions: Vec<String> = summary.versions.into_iter().map(|v| v.version).collect();
    versions.sort();
    versions
}

/// `source` made a new version of itself (a comment changes its hash, not what it plays).
fn variant(source: &str, tag: &str) -> String {
    format!("{source}\n// {tag}\n")
}

#[tokio::test]
async fn versions_uploaded_at_once_through_three_shards_are_listed_and_seated_on_every_shard() {
    let postgres = Postgres::start();
    let shards: Vec<Shard> =
        ["a", "b", "c"].iter().map(|name| Shard::start(name, &postgres.url(), "open", "60")).collect();
    let ada = create_account(&shards[0], "ada").await.unwrap();
    let up = |shard: usize, tag: String| {
        let request = keyed(upload("greedy", &variant(GREEDY, &tag)), &ada);
        let url = shards[shard].url.clone();
        async move { BotServiceClient::connect(url).await.unwrap().upload_bot(request).await.unwrap().into_inner().version }
    };
    let mut versions = vec![up(0, "first".into()).await];
    // One new version through each shard at once, round after round: an upload must not write
    // back a copy of the bot's versions from before it over what the follower added meanwhile.
    for round in 0..10 {
        let (a, b, c) =
            tokio::join!(up(0, format!("{round} a")), up(1, format!("{round} b")), up(2, format!("{round} c")));
        versions.extend([a, b, c]);
    }
    versions.sort();
    let stored = postgres.sql("SELECT count(*) FROM bot_versions WHERE bot_id = 'greedy'");
    assert_eq!(stored, versions.len().to_string(), "the database holds every version");
    for shard in &shards {
        let start = Instant::now();
        loop {
            let listed = versions_on(shard, "greedy").await;
            if listed == versions {
                break;
            }
            let missing: Vec<&String> = versions.iter().filter(|v| !listed.contains(v)).collect();
            assert!(start.elapsed() < Duration::from_secs(2), "{} lacks {missing:?} for good", shard.url);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // A version uploaded through one shard is seated at once on the others, before their
    // followers may have read it: a shard asks the database about a version it has not heard of.
    for round in 0..3 {
        for (i, shard) in shards.iter().enumerate() {
            let version = up(i, format!("seated {round}")).await;
            for other in shards.iter().filter(|other| other.url != shard.url) {
                let seated = seat_bot(other, "greedy", &version).await;
                seated.unwrap_or_else(|e| panic!("{} cannot seat {version} from {}: {e}", other.url, shard.url));
            }
        }
    }
}

/// Runs every call at once; answers their results in order.
async fn at_once<T: Send + 'static>(calls: impl Iterator<Item = impl Future<Output = T> + Send + 'static>) -> Vec<T> {
    let tasks: Vec<_> = calls.map(tokio::spawn).collect();
    let mut results = Vec::new();
    for task in tasks {
        results.push(task.await.unwrap());
    }
    results
}

#[tokio::test]
async fn bot_and_version_quotas_hold_across_shards_when_uploaded_at_once() {
    let postgres = Postgres::start();
    let quota = ["--mode", "open", "--quota-bots", "3", "--quota-versions-per-bot", "3"];
    let shards: Vec<Shard> =
        ["a", "b", "c"].iter().map(|name| Shard::start_with(name, &postgres.url(), &quota)).collect();
    let ada = create_account(&shards[0], "ada").await.unwrap();
    let up = |shard: &Shard, name: &str, source: String| {
        let request = keyed(upload(name, &source), &ada);
        let url = shard.url.clone();
        async move { BotServiceClient::connect(url).await.unwrap().upload_bot(request).await }
    };
    let refused = |result: &Result<tonic::Response<pb::UploadBotResponse>, tonic::Status>, what: &str| {
        result.as_ref().is_err_and(|status| status.code() == Code::ResourceExhausted && status.message().contains(what))
    };

    // Six bots at once, two through each shard, with room for three: three are made.
    let names = ["one", "two", "three", "four", "five", "six"];
    let made = at_once(names.iter().enumerate().map(|(i, name)| up(&shards[i % 3], name, GREEDY.to_owned()))).await;
    assert_eq!(made.iter().filter(|r| r.is_ok()).count(), 3, "three of six bots are made: {made:?}");
    assert!(made.iter().all(|r| r.is_ok() || refused(r, "bots")), "{made:?}");
    assert_eq!(postgres.sql("SELECT count(*) FROM bots"), "3");
    // One more is refused on every shard.
    for shard in &shards {
        let more = up(shard, "more", GREEDY.to_owned()).await;
        assert!(refused(&more, "bots"), "{}: {more:?}", shard.url);
    }

    // Six new versions at once of a bot that has one, with room for three: two are added.
    let bot = names.into_iter().zip(&made).find(|(_, r)| r.is_ok()).unwrap().0;
    let versions = (0..6).map(|i| up(&shards[i % 3], bot, variant(GREEDY, &format!("version {i}"))));
    let added = at_once(versions).await;
    assert_eq!(added.iter().filter(|r| r.is_ok()).count(), 2, "two of six versions are added: {added:?}");
    assert!(added.iter().all(|r| r.is_ok() || refused(r, "versions")), "{added:?}");
    let stored = postgres.sql(&format!("SELECT count(*) FROM bot_versions WHERE bot_id = '{bot}'"));
    assert_eq!(stored, "3");
    for shard in &shards {
        let more = up(shard, bot, variant(GREEDY, "more")).await;
        assert!(refused(&more, "versions"), "{}: {more:?}", shard.url);
    }
    // A version the bot has already is no new version: uploading it again is not refused.
    for shard in &shards {
        up(shard, bot, GREEDY.to_owned()).await.unwrap_or_else(|e| panic!("{}: {e}", shard.url));
    }
}

/// A request through the proxy about `game` (its routing header), with `key`.
fn about<T>(message: T, game: &str, key: &str) -> Request<T> {
    let mut request = keyed(message, key);
    request.metadata_mut().insert("x-clack-game", game.parse().unwrap());
    request
}

#[tokio::test]
async fn through_the_shipped_proxy_three_shards_are_one_service() {
    let postgres = Postgres::start();
    let (mut shards, _proxy, channel) = three_behind_proxy(&postgres, &["--mode", "closed"]).await;
    let (mut admin, mut bots, mut games) = (
        AdminServiceClient::new(channel.clone()),
        BotServiceClient::new(channel.clone()),
        GameServiceClient::new(channel),
    );

    // An account and a key, made through whichever shard the proxy picked.
    let made = pb::CreateAccountRequest { name: "ada".into(), admin: false, with_key: true };
    let ada = admin.create_account(keyed(made, ADMIN_KEY)).await.unwrap().into_inner().key;
    // A bot uploaded through the proxy, then seated in games until every shard has made one.
    let uploaded = bots.upload_bot(keyed(upload("greedy", GREEDY), &ada)).await.unwrap().into_inner();
    let seats = vec![
        pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) },
        pb::SeatSpec {
            occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat {
                bot_id: "greedy".into(),
                version: uploaded.version,
            })),
        },
    ];
    let mut made_on: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for seed in 0..30u64 {
        let request =
            pb::CreateGameRequest { options: Some(straight_options(2, 50)), seats: seats.clone(), seed: Some(seed) };
        let game = games
            .create_game(keyed(request, &ada))
            .await
            .unwrap_or_else(|e| panic!("game {seed}: {e}"))
            .into_inner()
            .game_id;
        made_on.entry(game.split('_').next().unwrap().to_owned()).or_default().push(game);
        if made_on.len() == 3 {
            break;
        }
    }
    assert_eq!(made_on.keys().collect::<Vec<_>>(), ["a", "b", "c"], "the bot is seated on every shard");
    // Each game answers through the proxy, routed to its shard, with the key made elsewhere.
    for game in made_on.values().flatten() {
        let view = games.get_view(about(pb::GetViewRequest { game_id: game.clone(), seat: None }, game, &ada)).await;
        assert_eq!(view.unwrap().into_inner().view.unwrap().game_id, *game);
    }
    // One listing, from whichever shard, holds them all.
    let all: Vec<String> = made_on.values().flatten().cloned().collect();
    let start = Instant::now();
    loop {
        let page = games.list_games(keyed(pb::ListGamesRequest { page_size: 100, ..Default::default() }, &ada)).await;
        let listed: Vec<String> = page.unwrap().into_inner().games.into_iter().map(|g| g.game_id).collect();
        if all.iter().all(|id| listed.contains(id)) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(2), "listed {listed:?}, not all of {all:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Revoked through the proxy: refused on every shard within a second.
    let key_id = ada.split('_').nth(1).unwrap().to_owned();
    admin.revoke_key(keyed(pb::RevokeKeyRequest { key_id }, ADMIN_KEY)).await.unwrap();
    let revoked = Instant::now();
    for game in made_on.values().map(|games| &games[0]) {
        loop {
            let asked =
                games.get_view(about(pb::GetViewRequest { game_id: game.clone(), seat: None }, game, &ada)).await;
            if asked.as_ref().is_err_and(|status| status.code() == Code::Unauthenticated) {
                break;
            }
            assert!(revoked.elapsed() < Duration::from_secs(1), "{game}'s shard still takes the key: {asked:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    // Shard c stops: its games answer UNAVAILABLE through the proxy, the others' still answer,
    // and it is shown down once it has missed its beats.
    drop(shards.pop());
    let second = admin.create_key(keyed(pb::CreateKeyRequest { account: "ada".into() }, ADMIN_KEY)).await;
    let key = second.unwrap().into_inner().key;
    let view = |game: &String| about(pb::GetViewRequest { game_id: game.clone(), seat: None }, game, &key);
    let gone = games.get_view(view(&made_on["c"][0])).await.expect_err("shard c is down");
    assert_eq!(gone.code(), Code::Unavailable, "{}", gone.message());
    games.get_view(view(&made_on["a"][0])).await.expect("shard a answers");
    let start = Instant::now();
    loop {
        let listed = clack(&["db", "shards", "--database", &postgres.url()]);
        if listed.lines().any(|line| line.starts_with('c') && line.contains(" down ")) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(6), "shard c is still shown up: {listed}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    drop(postgres);
}

/// A password given in the URL's query (or as `user:password@`) reaches the database but is
/// printed nowhere: not by `clack db migrate`, not by `serve --print-config`, not in the shard's
/// log line that says the database is ready.
#[tokio::test]
async fn a_database_password_in_any_form_is_never_printed() {
    use std::io::{BufRead, BufReader};
    let postgres = Postgres::start();
    let secret = "s3cret-in-the-url";
    // Trust authentication ignores the password, so both URLs connect.
    let in_query = format!("{}?password={secret}", postgres.url());
    let in_userinfo = postgres.url().replace("clack@", &format!("clack:{secret}@"));
    for url in [&in_query, &in_userinfo] {
        let migrate = clack(&["db", "migrate", "--database", url]);
        assert!(migrate.contains("version"), "{migrate}");
        assert!(!migrate.contains(secret), "db migrate printed the password: {migrate}");
        let status = clack(&["db", "status", "--database", url]);
        assert!(!status.contains(secret), "db status printed the password: {status}");
        let printed = Command::new(env!("CARGO_BIN_EXE_clack"))
            .args(["serve", "--print-config"])
            .env("CLACK_DATABASE", url)
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&printed.stdout).into_owned();
        assert!(printed.contains("database = \"postgres://clack"), "{printed}");
        assert!(!printed.contains(secret), "--print-config printed the password: {printed}");

        let data = tempfile::tempdir().unwrap();
        let mut shard = Command::new(env!("CARGO_BIN_EXE_clack"))
            .args(["serve", "--addr", "127.0.0.1:0", "--shard", "a", "--data"])
            .arg(data.path())
            .env("CLACK_DATABASE", url)
            .env("CLACK_METRICS_ADDR", "off")
            .env("RUST_LOG", "info")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut log = BufReader::new(shard.stderr.take().unwrap());
        let mut seen = String::new();
        let ready = loop {
            let mut line = String::new();
            if log.read_line(&mut line).unwrap() == 0 {
                break None;
            }
            seen.push_str(&line);
            if line.contains("shared database ready") {
                break Some(line);
            }
        };
        let _ = shard.kill();
        let _ = shard.wait();
        let ready = ready.unwrap_or_else(|| panic!("no 'shared database ready' line in: {seen}"));
        assert!(ready.contains("postgres://clack"), "{ready}");
        assert!(!seen.contains(secret), "the shard's log printed the password: {seen}");
    }
}

/// nginx running the shipped config in front of three shards, stopped when dropped.
struct Proxy {
    _nginx: support::nginx::Nginx,
    _dir: tempfile::TempDir,
}

/// Shards `a`, `b` and `c` over `postgres`, each started with `more`, behind nginx running the
/// shipped config: the shards, the proxy and a channel through it.
async fn three_behind_proxy(postgres: &Postgres, more: &[&str]) -> (Vec<Shard>, Proxy, Channel) {
    let shards: Vec<Shard> =
        ["a", "b", "c"].iter().map(|name| Shard::start_pinned(name, &postgres.url(), more)).collect();
    let addrs: Vec<String> = shards.iter().map(|shard| shard.addr.clone()).collect();
    let dir = tempfile::tempdir().unwrap();
    let listen = support::nginx::free_addr();
    support::nginx::write_config(dir.path(), &addrs, &listen);
    let nginx = support::nginx::start(dir.path(), &listen);
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{listen}")).unwrap().connect().await.unwrap();
    (shards, Proxy { _nginx: nginx, _dir: dir }, channel)
}

/// A ladder board as one shard shows it: its deals, and each entry (bot, version, rating,
/// interval, games), best first.
async fn board_on(url: &str) -> (u64, Vec<(String, String, String, u64)>) {
    let mut bots = within("connecting", BotServiceClient::connect(url.to_owned())).await.unwrap();
    let asked = pb::GetLeaderboardRequest { configuration: "straight-2".into(), page_size: 100, ..Default::default() };
    let board = within("GetLeaderboard", bots.get_leaderboard(keyed(asked, ADMIN_KEY))).await.unwrap().into_inner();
    let entries = board
        .entries
        .into_iter()
        .map(|e| (e.bot_id, e.version, format!("{:.6} ± {:.6}", e.rating, e.ci95), e.games))
        .collect();
    (board.deals, entries)
}

/// The address of the shard named `name`.
fn url_of(shards: &[Shard], name: &str) -> String {
    shards.iter().find(|s| s.args[1] == name).unwrap().url.clone()
}

/// `call`'s answer, or a failure naming it after 10 s: a call that hangs fails the test.
async fn within<T>(what: &str, call: impl Future<Output = T>) -> T {
    tokio::time::timeout(Duration::from_secs(10), call).await.unwrap_or_else(|_| panic!("{what}: no answer in 10 s"))
}

/// Which shard holds the board's lease, and at which epoch, as the database says.
fn lease_of(postgres: &Postgres) -> (String, i64) {
    let row = postgres.sql("SELECT holder, epoch FROM leases WHERE name = 'ladder/straight-2'");
    let (holder, epoch) = row.split_once('|').unwrap_or_else(|| panic!("no lease: {row:?}"));
    (holder.split('/').next().unwrap().to_owned(), epoch.parse().unwrap())
}

/// Waits until the board's lease is held by another shard than `from`, within 10 s; answers
/// the new holder, its epoch and how long it took.
async fn until_lease_moves(postgres: &Postgres, from: &str) -> (String, i64, Duration) {
    let start = Instant::now();
    loop {
        let (holder, epoch) = lease_of(postgres);
        if holder != from {
            return (holder, epoch, start.elapsed());
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{from} still holds the board's lease after 10 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The deals the database holds closed: what the board counts, written by any shard.
fn closed_deals(postgres: &Postgres) -> u64 {
    postgres.sql("SELECT count(*) FROM ladder_deals WHERE configuration = 'straight-2' AND closed").parse().unwrap()
}

/// Waits until the board, read through `url`, has more than `deals` deals; answers how long.
async fn until_deals_pass(url: &str, deals: u64, limit: Duration) -> Duration {
    let start = Instant::now();
    loop {
        if board_on(url).await.0 > deals {
            return start.elapsed();
        }
        assert!(start.elapsed() < limit, "the board stayed at {deals} deals for {limit:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The ladder as one service of three shards behind the shipped proxy, all started with
/// `--ladder`: the shard playing the board is killed, then the one that took over is paused
/// while it holds the lease. The board goes on within 10 s of each fault, through the shards
/// that are up; once every bot is retired and the board stands still, every shard shows the
/// same board, its deals are numbered without a gap, and its games are exactly the finished
/// games the cluster lists (none counted twice, none lost, none stored by the paused shard
/// after it lost its lease).
#[tokio::test]
async fn the_ladder_goes_on_when_its_shard_is_killed_or_paused_and_counts_every_game_once() {
    let postgres = Postgres::start();
    let ladder = [
        "--mode",
        "closed",
        "--ladder",
        "--ladder-configurations",
        "straight-2",
        "--ladder-anchor",
        "engine:fast",
        "--ladder-share",
        "1",
    ];
    let (mut shards, _proxy, proxy) = three_behind_proxy(&postgres, &ladder).await;
    let mut bots = BotServiceClient::new(proxy.clone());
    for (name, source) in [("greedy", GREEDY), ("defender", DEFENDER)] {
        within("UploadBot", bots.upload_bot(keyed(upload(name, source), ADMIN_KEY))).await.unwrap();
    }
    until_deals_pass(&shards[0].url, 2, Duration::from_secs(60)).await;

    // The shard playing the board dies: another takes it over within 10 s.
    let (first, epoch) = lease_of(&postgres);
    let index = shards.iter().position(|s| s.args[1] == first).unwrap();
    let killed = shards.remove(index);
    let watcher = shards[0].url.clone();
    drop(killed);
    let deals = closed_deals(&postgres);
    let (second, second_epoch, took) = until_lease_moves(&postgres, &first).await;
    assert!(second_epoch > epoch, "{second} took over from {first} ({second_epoch} > {epoch})");
    // The games themselves run at the idle priority: on a busy machine the next deal may wait
    // for a core (docs/ladder.md), so it is given longer than the taking over.
    let went_on = until_deals_pass(&watcher, deals, Duration::from_secs(60)).await;

    // The one that took over is paused while it holds the lease: the third takes over.
    let paused = shards.iter().find(|s| s.args[1] == second).unwrap();
    let third = shards.iter().find(|s| s.args[1] != second).unwrap().args[1].clone();
    signal("-STOP", &paused.process.id().to_string());
    let deals = closed_deals(&postgres);
    let (holder, _, took_paused) = until_lease_moves(&postgres, &second).await;
    assert_eq!(holder, third, "the third shard plays the board");
    let went_on_paused = until_deals_pass(&url_of(&shards, &third), deals, Duration::from_secs(60)).await;
    // It wakes up in the middle of whatever it was doing, and writes nothing of it.
    signal("-CONT", &paused.process.id().to_string());
    eprintln!(
        "after the kill: lease taken over in {took:?}, next deal in {went_on:?}; after the pause: {took_paused:?}, {went_on_paused:?}"
    );

    // Everything retired: the board stands still once its last deal is played out.
    for name in ["greedy", "defender"] {
        let retire = pb::RetireBotRequest { bot_id: name.into(), version: None };
        within("RetireBot", bots.retire_bot(keyed(retire, ADMIN_KEY))).await.unwrap();
    }
    let start = Instant::now();
    let mut last = board_on(&url_of(&shards, &third)).await;
    loop {
        tokio::time::sleep(Duration::from_secs(3)).await;
        let now = board_on(&url_of(&shards, &third)).await;
        if now == last {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "the board does not stand still");
        last = now;
    }
    // Every shard up shows that board.
    for shard in &shards {
        let start = Instant::now();
        while board_on(&shard.url).await != last {
            assert!(start.elapsed() < Duration::from_secs(5), "shard {} shows another board", shard.args[1]);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let (deals, entries) = last;
    let closed = postgres.sql("SELECT count(*), coalesce(max(n) + 1, 0) FROM ladder_deals WHERE closed");
    assert_eq!(closed, format!("{deals}|{deals}"), "deals closed, numbered without a gap");
    assert_eq!(postgres.sql("SELECT count(*) FROM ladder_deals WHERE NOT closed"), "0", "no deal left open");
    let board_games: u64 = entries.iter().map(|e| e.3).sum::<u64>() / 2;
    let mut games = GameServiceClient::new(proxy);
    let (mut listed, mut token) = (0u64, String::new());
    loop {
        let asked = pb::ListGamesRequest {
            page_size: 100,
            page_token: token,
            status: pb::GameStatus::Finished as i32,
            ..Default::default()
        };
        let page = within("ListGames", games.list_games(keyed(asked, ADMIN_KEY))).await.unwrap().into_inner();
        listed += page.games.len() as u64;
        token = page.next_page_token;
        if token.is_empty() {
            break;
        }
    }
    assert_eq!(board_games, listed, "the board counts exactly the ladder games listed");
    drop(postgres);
}

/// Fencing, step by step against the real database: a holder whose lease expired and was taken
/// over cannot renew it and writes nothing, not even a deal it was in the middle of; the new
/// holder's writes go in; a deal once closed is never written again.
#[tokio::test]
async fn a_ladder_lease_taken_over_refuses_every_write_of_its_old_holder() {
    use clack_server::cluster::lease::Holder;
    use clack_server::ladder::shared::{Tables, Write, lease};
    let postgres = Postgres::start();
    let database = clack_server::cluster::Database::new(&postgres.url()).unwrap();
    database.migrate().await.unwrap();
    let holder = |shard: &str| std::sync::Arc::new(Holder::new(database.clone(), shard));
    let (a, b) = (holder("a"), holder("b"));
    let (old, new) = (Tables::new(a.clone()), Tables::new(b.clone()));
    let board = "straight-2";
    let name = lease(board);
    let first = a.take(&name).await.unwrap().expect("nobody holds it yet");
    assert_eq!(b.take(&name).await.unwrap(), None, "held and unexpired: not taken");
    let open = Write::Deal { n: 0, closed: false, record: b"one game" };
    assert!(old.write(board, first, open).await.unwrap(), "the holder writes");
    assert!(a.renew(&name, first).await.unwrap(), "and renews");

    // The holder is paused past its lease; another takes the board over.
    postgres.sql("UPDATE leases SET expires_at = now() - interval '1 second'");
    let expired = Write::Deal { n: 0, closed: false, record: b"two games" };
    assert!(!old.write(board, first, expired).await.unwrap(), "an expired lease writes nothing");
    let second = b.take(&name).await.unwrap().expect("an expired lease is taken");
    assert!(second > first, "a new holder, a new epoch");
    assert!(!a.renew(&name, first).await.unwrap(), "the old holder cannot renew");
    let late = Write::Deal { n: 0, closed: false, record: b"two games" };
    assert!(!old.write(board, first, late).await.unwrap(), "the old holder's late game is refused");
    assert!(!old.write(board, first, Write::Players(b"more")).await.unwrap(), "so are its players");
    let closing = Write::Deal { n: 0, closed: true, record: b"one game, closed" };
    assert!(new.write(board, second, closing).await.unwrap(), "the new holder closes the deal left open");
    let again = Write::Deal { n: 0, closed: false, record: b"rewritten" };
    assert!(!new.write(board, second, again).await.unwrap(), "a closed deal is never written again");
    let stored = new.read(board, 0).await.unwrap();
    assert_eq!(stored.deals, vec![(0, true, b"one game, closed".to_vec())]);
    assert_eq!(stored.players, None);
    drop(postgres);
}

/// The review in a `ReviewGame` stream, after its progress.
async fn review_from(url: &str, game: &str, level: &str, kept_only: bool) -> Result<pb::GameReview, tonic::Status> {
    use clack_proto::v1::replay_service_client::ReplayServiceClient;
    let mut replay = ReplayServiceClient::connect(url.to_owned()).await.unwrap();
    let asked = pb::ReviewGameRequest { game_id: game.into(), level: level.into(), kept_only };
    let mut stream = within("ReviewGame", replay.review_game(asked)).await?.into_inner();
    while let Some(reply) = within("a review's next reply", stream.message()).await? {
        if let Some(pb::review_game_response::Body::Review(review)) = reply.body {
            return Ok(review);
        }
    }
    panic!("the review's stream ended without a review");
}

/// A review kept on its game's shard is read through any other shard, from the shared
/// database, also while the game's own shard is down; a review nobody kept is the game's shard's
/// to make, and another shard says so, naming it.
#[tokio::test]
async fn a_kept_review_is_read_through_any_shard_while_its_games_shard_is_down() {
    let postgres = Postgres::start();
    let a = Shard::start("a", &postgres.url(), "open", "60");
    let b = Shard::start("b", &postgres.url(), "open", "60");
    let mut games = a.games().await;
    let (game, tokens) = new_game(&mut games, straight_options(2, 50), 3).await;
    play_to_end(&mut games, &game, &tokens).await;
    let made = review_from(&a.url, &game, "fast", false).await.unwrap();
    assert!(!made.decisions.is_empty(), "a review of the game's decisions");
    let start = Instant::now();
    while review_from(&b.url, &game, "fast", true).await.is_err() {
        assert!(start.elapsed() < Duration::from_secs(2), "the kept review never reached shard b");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    drop(a);
    let read = review_from(&b.url, &game, "fast", true).await.expect("read through shard b, a being down");
    assert_eq!(read, made, "the review as its shard kept it");
    let not_kept = review_from(&b.url, &game, "default", false).await.expect_err("nobody kept it");
    assert_eq!(not_kept.code(), Code::NotFound, "{}", not_kept.message());
    assert!(not_kept.message().contains("shard a"), "names the game's shard: {}", not_kept.message());
    drop(postgres);
}

/// Uploads the bundled greedy and defender bots through `bots`: a match's two entrants.
async fn greedy_and_defender(bots: &mut BotServiceClient<Channel>) -> Vec<pb::MatchEntrant> {
    let mut entrants = Vec::new();
    for (name, source) in [("greedy", GREEDY), ("defender", DEFENDER)] {
        let uploaded = within("UploadBot", bots.upload_bot(keyed(upload(name, source), ADMIN_KEY))).await.unwrap();
        entrants.push(pb::MatchEntrant { bot_id: name.into(), version: Some(uploaded.into_inner().version) });
    }
    entrants
}

/// Where a match stands, read through `url` (its first `WatchMatch` reply).
async fn match_on(url: &str, match_id: &str) -> pb::WatchMatchResponse {
    let mut bots = within("connecting", BotServiceClient::connect(url.to_owned())).await.unwrap();
    let asked = pb::WatchMatchRequest { match_id: match_id.into() };
    let mut stream = within("WatchMatch", bots.watch_match(keyed(asked, ADMIN_KEY))).await.unwrap().into_inner();
    within("a match's progress", stream.message()).await.unwrap().expect("a first reply")
}

/// A match of 200 games started through the shipped proxy, on three shards: the shard playing
/// it is killed once it has played 50 games, and is not restarted. Another shard takes the match
/// over within seconds and finishes it with exactly 200 games, watched and listed through any
/// shard, each game once and every one finished.
#[tokio::test]
async fn a_match_whose_shard_dies_at_game_50_is_finished_by_another_with_exactly_200_games() {
    let postgres = Postgres::start();
    let (mut shards, _proxy, proxy) = three_behind_proxy(&postgres, &["--mode", "closed"]).await;
    let mut bots = BotServiceClient::new(proxy.clone());
    let entrants = greedy_and_defender(&mut bots).await;
    let request = pb::StartMatchRequest { options: Some(straight_options(2, 50)), entrants, games: 200, seed: Some(7) };
    let started = within("StartMatch", bots.start_match(keyed(request, ADMIN_KEY))).await.unwrap().into_inner();
    let id = started.match_id;
    let lease = format!("SELECT split_part(holder, '/', 1) FROM leases WHERE name = 'match/{id}'");
    let playing = postgres.sql(&lease);
    let index = shards.iter().position(|s| s.args[1] == playing).unwrap_or_else(|| panic!("{playing:?} plays it"));
    let killed = shards.remove(index);
    let watcher = shards[0].url.clone();

    // Played through its 50th game, its shard dies.
    let start = Instant::now();
    let at_kill = loop {
        let now = match_on(&watcher, &id).await;
        if now.done >= 50 {
            break now.done;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "the match is at {} games", now.done);
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    drop(killed);
    let killed_at = Instant::now();
    let resumed = loop {
        let now = match_on(&watcher, &id).await;
        if now.done > at_kill + 1 {
            break killed_at.elapsed();
        }
        assert!(killed_at.elapsed() < Duration::from_secs(15), "no game after the kill: {} games", now.done);
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let taken = postgres.sql(&lease);
    assert!(taken != playing && !taken.is_empty(), "{taken} took the match over from {playing}");
    eprintln!("killed at game {at_kill}; the match went on {resumed:?} later, on shard {taken}");

    // It finishes with exactly 200 games, the same through every shard up.
    let start = Instant::now();
    loop {
        let now = match_on(&watcher, &id).await;
        if now.status == pb::MatchStatus::Finished as i32 {
            assert_eq!((now.games, now.done), (200, 200));
            break;
        }
        assert_eq!(now.status, pb::MatchStatus::Running as i32, "{}", now.error);
        assert!(start.elapsed() < Duration::from_secs(240), "the match is at {} games", now.done);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for shard in &shards {
        let there = match_on(&shard.url, &id).await;
        assert_eq!((there.status, there.done), (pb::MatchStatus::Finished as i32, 200), "through {}", shard.args[1]);
    }
    let mut games = GameServiceClient::new(proxy);
    let (mut listed, mut token) = (Vec::new(), String::new());
    loop {
        let asked =
            pb::ListGamesRequest { page_size: 100, page_token: token, match_id: id.clone(), ..Default::default() };
        let page = within("ListGames", games.list_games(keyed(asked, ADMIN_KEY))).await.unwrap().into_inner();
        listed.extend(page.games);
        token = page.next_page_token;
        if token.is_empty() {
            break;
        }
    }
    assert_eq!(listed.len(), 200, "every game of the match listed");
    let ids: std::collections::BTreeSet<&str> = listed.iter().map(|g| g.game_id.as_str()).collect();
    assert_eq!(ids.len(), 200, "each game once");
    assert!(listed.iter().all(|g| g.status == pb::GameStatus::Finished as i32), "every game finished");
    let played_on: std::collections::BTreeSet<&str> = ids.iter().map(|g| g.split('_').next().unwrap()).collect();
    assert!(played_on.contains(playing.as_str()) && played_on.contains(taken.as_str()), "played on {played_on:?}");
    drop(postgres);
}

/// A match whose shard is paused (`SIGSTOP`) while it plays: another shard takes it over and
/// finishes it; the paused shard, running again, records and stores nothing of the game it was
/// in the middle of, and a `WatchMatch` stream opened on it before the pause follows the match
/// to its end, played elsewhere.
#[tokio::test]
async fn a_match_whose_shard_is_paused_is_finished_elsewhere_and_its_watchers_hear_the_end() {
    let postgres = Postgres::start();
    let (shards, _proxy, proxy) = three_behind_proxy(&postgres, &["--mode", "closed"]).await;
    let mut bots = BotServiceClient::new(proxy.clone());
    let entrants = greedy_and_defender(&mut bots).await;
    let request = pb::StartMatchRequest { options: Some(straight_options(2, 50)), entrants, games: 60, seed: Some(9) };
    let id = within("StartMatch", bots.start_match(keyed(request, ADMIN_KEY))).await.unwrap().into_inner().match_id;
    let lease = format!("SELECT split_part(holder, '/', 1) FROM leases WHERE name = 'match/{id}'");
    let playing = postgres.sql(&lease);
    let paused = shards.iter().find(|s| s.args[1] == playing).unwrap();
    let mut on_paused = within("connecting", BotServiceClient::connect(paused.url.clone())).await.unwrap();
    let asked = pb::WatchMatchRequest { match_id: id.clone() };
    let mut watching = within("WatchMatch", on_paused.watch_match(keyed(asked, ADMIN_KEY))).await.unwrap().into_inner();
    while within("progress", watching.message()).await.unwrap().expect("progress").done < 10 {}

    signal("-STOP", &paused.process.id().to_string());
    let start = Instant::now();
    loop {
        let holder = postgres.sql(&lease);
        if holder != playing {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{playing} still holds the match after 10 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    signal("-CONT", &paused.process.id().to_string());

    // The stream opened on the paused shard follows the match to its end.
    let mut last = None;
    while let Some(reply) = within("progress", watching.message()).await.unwrap() {
        last = Some(reply);
    }
    let last = last.expect("replies after the pause");
    assert_eq!((last.status, last.done), (pb::MatchStatus::Finished as i32, 60), "{}", last.error);
    // Sixty games recorded and sixty finished games in the cluster: the game the paused shard
    // was playing left no trace (its stream ends only after its record of it was refused).
    let mut games = GameServiceClient::new(proxy);
    let asked = pb::ListGamesRequest { page_size: 100, match_id: id.clone(), ..Default::default() };
    let listed = within("ListGames", games.list_games(keyed(asked, ADMIN_KEY))).await.unwrap().into_inner().games;
    assert_eq!(listed.len(), 60, "the match's games");
    assert_eq!(postgres.sql("SELECT count(*) FROM games WHERE status = 3"), "60", "finished games in the index");
    drop(postgres);
}
