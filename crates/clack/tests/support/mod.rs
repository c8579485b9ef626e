//! A real server on a real socket, and a tonic client that plays through the public contract.
#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

pub mod ladder;
pub mod nginx;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use clack_server::{BotLibrary, Hub, Limits, ServeConfig};
use clack_store::{Durability, Durable, SledStore};
use tokio::sync::oneshot;
use tonic::transport::Channel;
use tonic::{Request, Status};

pub struct Server {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Server {
    /// A server on a directory another server just let go of: sled gives up the directory's lock
    /// a moment after the last handle is dropped, so the store is opened when it can be.
    pub async fn restart(dir: &Path) -> Server {
        let mut opened = SledStore::open(dir);
        for _ in 0..250 {
            if opened.is_ok() {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            opened = SledStore::open(dir);
        }
        let store = Durable::new(Arc::new(opened.expect("the store opens")), Durability::Batched).expect("writer");
        let hub = Hub::open(store, None, Limits::default()).await.expect("hub");
        Server::start_with(hub, None, ServeConfig::default()).await
    }

    /// Starts the server in-process on 127.0.0.1:0 over a sled store in `dir`.
    pub async fn start(dir: &Path, durability: Durability) -> Server {
        let store = Durable::new(Arc::new(SledStore::open(dir).expect("store opens")), durability).expect("writer");
        let bots = BotLibrary::open(store.clone(), clack_bots::Limits::default()).await.expect("bots");
        let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
        let hub = Hub::open(store, Some(host), Limits::default()).await.expect("hub opens");
        Server::start_with(hub, Some(bots), ServeConfig::default()).await
    }

    /// Starts the server with these limits (mode, quotas) and, if given, a bootstrap admin key.
    pub async fn start_limited(dir: &Path, limits: Limits, admin_key: Option<&str>) -> Server {
        let store =
            Durable::new(Arc::new(SledStore::open(dir).expect("store opens")), Durability::Batched).expect("writer");
        let bots = BotLibrary::open(store.clone(), clack_bots::Limits::default()).await.expect("bots");
        let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
        let hub = Hub::open(store, Some(host), limits).await.expect("hub opens");
        if let Some(key) = admin_key {
            hub.access().bootstrap_admin(key).await.expect("admin key");
        }
        Server::start_with(hub, Some(bots), ServeConfig::default()).await
    }

    pub async fn admin(&self) -> clack_proto::v1::admin_service_client::AdminServiceClient<Channel> {
        clack_proto::v1::admin_service_client::AdminServiceClient::connect(format!("http://{}", self.addr))
            .await
            .expect("connect")
    }

    pub async fn start_with(hub: Arc<Hub>, bots: Option<Arc<BotLibrary>>, config: ServeConfig) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            clack_server::serve(hub, bots, listener, config, async {
                let _ = stopped.await;
            })
            .await
            .expect("server runs");
        });
        Server { addr, stop: Some(stop), task: Some(task) }
    }

    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.expect("server task");
        }
    }

    pub async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::connect(format!("http://{}", self.addr)).await.expect("connect")
    }

    pub async fn bots(&self) -> clack_proto::v1::bot_service_client::BotServiceClient<Channel> {
        clack_proto::v1::bot_service_client::BotServiceClient::connect(format!("http://{}", self.addr))
            .await
            .expect("connect")
    }

    pub async fn replay(&self) -> ReplayServiceClient<Channel> {
        ReplayServiceClient::connect(format!("http://{}", self.addr)).await.expect("connect")
    }
}

/// Starts the real `clack serve` binary on a free port over `data`, with more arguments and
/// environment variables; returns the process and its address as a URL.
pub fn spawn_server(data: &Path, args: &[&str], envs: &[(&str, &str)]) -> (std::process::Child, String) {
    let (child, url, _) = spawn("127.0.0.1:0", data, args, envs);
    (child, url)
}

/// [`spawn_server`] on a given address (to restart a server where a proxy expects it).
pub fn spawn_server_at(addr: &str, data: &Path, args: &[&str], envs: &[(&str, &str)]) -> (std::process::Child, String) {
    let (child, url, _) = spawn(addr, data, args, envs);
    (child, url)
}

/// Like [`spawn_server`]; also returns the address of its `/metrics` port (a free port, unless
/// `args` or `envs` name one).
pub fn spawn_server_with_metrics(
    data: &Path,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (std::process::Child, String, SocketAddr) {
    use std::io::BufRead;
    let (child, url, mut stdout) = spawn("127.0.0.1:0", data, args, envs);
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a second line");
    let metrics = line.trim().strip_prefix("metrics on ").expect("metrics on ADDR").parse().expect("an address");
    (child, url, metrics)
}

/// The server's process on `addr`, its URL (from its first line) and the rest of what it
/// prints. Metrics go to a free port, so that servers started at once do not fight over the
/// default one.
fn spawn(
    addr: &str,
    data: &Path,
    args: &[&str],
    envs: &[(&str, &str)],
) -> (std::process::Child, String, std::io::BufReader<std::process::ChildStdout>) {
    use std::io::{BufRead, BufReader};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_clack"))
        .args(["serve", "--addr", addr, "--durability", "batched", "--data"])
        .arg(data)
        .args(args)
        .env("CLACK_METRICS_ADDR", "127.0.0.1:0")
        .envs(envs.iter().copied())
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::piped())
        // CLACK_TEST_SERVER_LOG=1 shows the servers' logs beside the test's output.
        .stderr(if std::env::var_os("CLACK_TEST_SERVER_LOG").is_some() {
            std::process::Stdio::inherit()
        } else {
            std::process::Stdio::null()
        })
        .spawn()
        .expect("clack serve starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a first line");
    let addr = line.trim().strip_prefix("listening on ").expect("listening on ADDR").to_owned();
    (child, format!("http://{addr}"), stdout)
}

/// A request carrying an account's API key.
pub fn keyed<T>(message: T, key: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("x-clack-key", key.parse().expect("ascii"));
    request
}

/// A request carrying an anonymous owner's token.
pub fn owned<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("x-clack-owner-token", token.parse().expect("ascii"));
    request
}

/// A request for a seat, with its token.
pub fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().expect("ascii"));
    request
}

pub fn straight_options(players: u32, target: u32) -> pb::GameOptions {
    pb::GameOptions {
        time_control: None,
        rules: Some(pb::game_options::Rules::Straight(pb::StraightOptions {
            players: Some(players),
            target: Some(target),
            ..Default::default()
        })),
        bot_pace_millis: 0,
    }
}

pub fn streets_options(players: u32) -> pb::GameOptions {
    pb::GameOptions {
        time_control: None,
        rules: Some(pb::game_options::Rules::Streets(pb::StreetsOptions {
            players: Some(players),
            ..Default::default()
        })),
        bot_pace_millis: 0,
    }
}

/// A created game with every seat joined: (game id, token per seat).
pub async fn new_game(
    client: &mut GameServiceClient<Channel>,
    options: pb::GameOptions,
    seed: u64,
) -> (String, Vec<String>) {
    let players = match options.rules.as_ref().unwrap() {
        pb::game_options::Rules::Straight(o) => o.players.unwrap(),
        pb::game_options::Rules::Streets(o) => o.players.unwrap(),
    };
    let created = client
        .create_game(pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: Some(seed) })
        .await
        .expect("create")
        .into_inner();
    let mut tokens = Vec::new();
    for seat in 0..players {
        let joined = client
            .join_game(pb::JoinGameRequest {
                game_id: created.game_id.clone(),
                seat: Some(seat),
                name: format!("player {seat}"),
            })
            .await
            .expect("join")
            .into_inner();
        assert_eq!(joined.seat, seat);
        tokens.push(joined.seat_token);
    }
    (created.game_id, tokens)
}

/// The view as a spectator.
pub async fn spectate(client: &mut GameServiceClient<Channel>, game_id: &str) -> pb::View {
    client
        .get_view(pb::GetViewRequest { game_id: game_id.into(), seat: None })
        .await
        .expect("view")
        .into_inner()
        .view
        .expect("a view")
}

/// Plays one move: the seat to move takes its last legal action. Returns the sequence the
/// server acknowledged, or `None` once the game is over.
pub async fn play_one(
    client: &mut GameServiceClient<Channel>,
    game_id: &str,
    tokens: &[String],
) -> Result<Option<u64>, Status> {
    let view = client.get_view(pb::GetViewRequest { game_id: game_id.into(), seat: None }).await?.into_inner().view;
    let Some(seat) = view.and_then(|v| v.to_move) else { return Ok(None) };
    let token = &tokens[seat as usize];
    let legal = client
        .list_legal_actions(authed(pb::ListLegalActionsRequest { game_id: game_id.into(), seat: Some(seat) }, token))
        .await?
        .into_inner();
    let action = legal.actions.last().cloned().expect("a seat to move has a legal action");
    let request = act_request(game_id, seat, &legal, action);
    Ok(Some(client.act(authed(request, token)).await?.into_inner().sequence))
}

/// A request for `seat` to play `action`, one of the `legal` actions it was just given, with
/// the basic reply.
pub fn act_request(
    game_id: &str,
    seat: u32,
    legal: &pb::ListLegalActionsResponse,
    action: pb::Action,
) -> pb::ActRequest {
    pb::ActRequest {
        game_id: game_id.into(),
        seat: Some(seat),
        expected_sequence: legal.sequence,
        action: Some(action),
        ..Default::default()
    }
}

/// Plays until the game is over; returns the number of moves.
pub async fn play_to_end(client: &mut GameServiceClient<Channel>, game_id: &str, tokens: &[String]) -> usize {
    let mut moves = 0;
    while play_one(client, game_id, tokens).await.expect("a legal move is accepted").is_some() {
        moves += 1;
        assert!(moves < 100_000, "the game never ended");
    }
    moves
}

/// One plain HTTP/1.1 GET; returns the status line and the body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (String, String) {
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect to the metrics port");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut response = String::new();
    stream.read_to_string(&mut response).await.expect("read");
    let (head, body) = response.split_once("\r\n\r\n").expect("headers, then a body");
    let status = head.lines().next().unwrap_or_default().to_owned();
    assert!(!head.to_ascii_lowercase().contains("transfer-encoding: chunked"), "expected a plain body: {head}");
    (status, body.to_owned())
}

/// The `straight-2` ladder's whole board (its first 100 entries).
pub async fn board(
    bots: &mut clack_proto::v1::bot_service_client::BotServiceClient<Channel>,
) -> pb::GetLeaderboardResponse {
    let request =
        pb::GetLeaderboardRequest { configuration: "straight-2".into(), page_size: 100, page_token: String::new() };
    bots.get_leaderboard(request).await.expect("leaderboard").into_inner()
}

/// Polls the `straight-2` ladder until it has played `deals` deals; returns its board then.
pub async fn board_after(
    bots: &mut clack_proto::v1::bot_service_client::BotServiceClient<Channel>,
    deals: u64,
) -> pb::GetLeaderboardResponse {
    let started = std::time::Instant::now();
    loop {
        let board = board(bots).await;
        if board.deals >= deals {
            return board;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(240), "the ladder played {} deals", board.deals);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
