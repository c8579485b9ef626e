//! The shard test: three `clack serve` shards (a, b, c) behind nginx running the shipped
//! `deploy/nginx/clack.conf`, all on loopback. Through the proxy, the Python client plays games
//! of both kinds to the end, spread over every shard; nginx's log shows every call about a game
//! reached that game's shard; Watch streams work; `ListGames` shows every shard's games; killing a
//! shard makes only its games UNAVAILABLE while the others play on, and after its restart its
//! games continue and verify. nginx must be installed (`apt-get install nginx`): without it the
//! test fails, it does not skip.

mod support;

use support::nginx;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::{Code, Request};

const SHARDS: [&str; 3] = ["a", "b", "c"];
/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

struct Shard {
    name: &'static str,
    addr: String,
    data: PathBuf,
    peers: String,
    process: Option<Killed>,
}

impl Shard {
    fn start(&mut self) {
        let args = ["--shard", self.name, "--peers", &self.peers];
        let (child, _) = support::spawn_server_at(&self.addr, &self.data, &args, &[]);
        self.process = Some(Killed(child));
    }

    fn kill(&mut self) {
        drop(self.process.take());
    }
}

/// A message about `game`, with the routing header (and a seat's token, if given).
fn about<T>(message: T, game: &str, token: Option<&str>) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("x-clack-game", game.parse().expect("ascii"));
    if let Some(token) = token {
        request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().expect("ascii"));
    }
    request
}

fn shard_of(game: &str) -> &str {
    game.split_once('_').expect("a sharded id").0
}

/// Runs the Python client once through the proxy; returns the id of the game it played.
async fn python_game(proxy: &str, kind: &'static str) -> String {
    let script = nginx::repo_root().join("tests/python/play.py");
    let addr = proxy.to_owned();
    let output = tokio::task::spawn_blocking(move || {
        Command::new("python3").arg(script).args(["--addr", &addr, "--game", kind]).output()
    })
    .await
    .expect("task")
    .expect("python3 runs (install: pip install -r tests/python/requirements.txt)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "python client failed:\n{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let game = stdout.split_whitespace().skip_while(|w| *w != "game").nth(1).expect("the game's id in the output");
    game.to_owned()
}

/// A two-player game created through the proxy, both seats joined: (id, tokens).
async fn new_game(client: &mut GameServiceClient<Channel>) -> (String, Vec<String>) {
    let request = pb::CreateGameRequest { options: Some(support::straight_options(2, 150)), ..Default::default() };
    let game = client.create_game(request).await.expect("create through the proxy").into_inner().game_id;
    let mut tokens = Vec::new();
    for seat in 0..2 {
        let join = pb::JoinGameRequest { game_id: game.clone(), seat: Some(seat), name: format!("rust {seat}") };
        tokens.push(client.join_game(about(join, &game, None)).await.expect("join").into_inner().seat_token);
    }
    (game, tokens)
}

/// Plays one move through the proxy; `None` once the game is over.
async fn play_one(
    client: &mut GameServiceClient<Channel>,
    game: &str,
    tokens: &[String],
) -> Result<Option<u64>, tonic::Status> {
    let view = pb::GetViewRequest { game_id: game.into(), seat: None };
    let view = client.get_view(about(view, game, None)).await?.into_inner().view;
    let Some(seat) = view.and_then(|v| v.to_move) else { return Ok(None) };
    let token = Some(tokens[seat as usize].as_str());
    let legal = pb::ListLegalActionsRequest { game_id: game.into(), seat: Some(seat) };
    let legal = client.list_legal_actions(about(legal, game, token)).await?.into_inner();
    let action = legal.actions.last().cloned().expect("a seat to move has a legal action");
    let act = support::act_request(game, seat, &legal, action);
    Ok(Some(client.act(about(act, game, token)).await?.into_inner().sequence))
}

async fn play_to_end(client: &mut GameServiceClient<Channel>, game: &str, tokens: &[String]) {
    let mut moves = 0;
    while play_one(client, game, tokens).await.expect("a move through the proxy").is_some() {
        moves += 1;
        assert!(moves < 100_000, "the game never ended");
    }
}

/// How a watch ended: the sequences it saw, and the error that ended it, if one did.
type Watched = (Vec<u64>, Option<tonic::Status>);

/// Watches a game as a spectator through the proxy, from its first event, in the background.
async fn watch(client: &GameServiceClient<Channel>, game: &str) -> tokio::task::JoinHandle<Watched> {
    let request = pb::WatchRequest { game_id: game.into(), seat: None, from_sequence: 1 };
    let mut stream =
        client.clone().watch(about(request, game, None)).await.expect("watch through the proxy").into_inner();
    tokio::spawn(async move {
        let mut seen = Vec::new();
        while let Some(item) = stream.next().await {
            match item {
                Ok(response) => seen.push(response.event.expect("an event").sequence),
                Err(status) => return (seen, Some(status)),
            }
        }
        (seen, None)
    })
}

async fn verify(replay: &mut ReplayServiceClient<Channel>, game: &str) -> u64 {
    let request = pb::VerifyRequest { game_id: game.into() };
    let verified = replay.verify(about(request, game, None)).await.expect("verify through the proxy").into_inner();
    assert!(verified.ok, "{game}: {}", verified.detail);
    verified.events
}

/// Every game `ListGames` shows through the proxy, page by page.
async fn list_all(client: &mut GameServiceClient<Channel>) -> Result<Vec<String>, tonic::Status> {
    let mut games = Vec::new();
    let mut page_token = String::new();
    loop {
        let request = pb::ListGamesRequest { page_size: 4, page_token, ..Default::default() };
        let page = client.list_games(request).await?.into_inner();
        games.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            return Ok(games);
        }
        page_token = page.next_page_token;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_shards_behind_nginx() {
    let dir = tempfile::tempdir().expect("dir");
    let addrs: Vec<String> = SHARDS.iter().map(|_| nginx::free_addr()).collect();
    let peers: Vec<String> = SHARDS.iter().zip(&addrs).map(|(name, addr)| format!("{name}=http://{addr}")).collect();
    let peers = peers.join(",");
    let mut shards: Vec<Shard> = SHARDS
        .iter()
        .zip(&addrs)
        .map(|(name, addr)| Shard {
            name,
            addr: addr.clone(),
            data: dir.path().join(name),
            peers: peers.clone(),
            process: None,
        })
        .collect();
    for shard in &mut shards {
        shard.start();
    }
    let proxy_dir = dir.path().join("nginx");
    std::fs::create_dir(&proxy_dir).expect("nginx dir");
    let listen = nginx::free_addr();
    let addrs: Vec<String> = shards.iter().map(|shard| shard.addr.clone()).collect();
    nginx::write_config(&proxy_dir, &addrs, &listen);
    let _nginx = nginx::start(&proxy_dir, &listen);
    let url = format!("http://{listen}");
    let mut client = GameServiceClient::connect(url.clone()).await.expect("connect to the proxy");
    let mut replay = ReplayServiceClient::connect(url).await.expect("connect to the proxy");

    // The Python client plays games of both kinds through the proxy; new games go round the shards.
    let mut created = Vec::new();
    for kind in ["straight", "streets", "straight", "streets", "straight", "streets"] {
        created.push(python_game(&listen, kind).await);
    }
    let spread: BTreeSet<&str> = created.iter().map(|game| shard_of(game)).collect();
    assert_eq!(spread, BTreeSet::from(SHARDS), "the Python client's games {created:?}");

    // A shard refuses a call about another shard's game, naming the owner, and a header that
    // disagrees with the body.
    let game_of_b = created.iter().find(|g| shard_of(g) == "b").expect("a game on b").clone();
    let mut direct_a = GameServiceClient::connect(format!("http://{}", shards[0].addr)).await.expect("connect to a");
    let view = pb::GetViewRequest { game_id: game_of_b.clone(), seat: None };
    let refused = direct_a.get_view(about(view.clone(), &game_of_b, None)).await.expect_err("b's game on a");
    assert_eq!(refused.code(), Code::NotFound);
    assert!(refused.message().contains("shard b"), "{}", refused.message());
    let refused = direct_a.get_view(about(view, &created[0], None)).await.expect_err("header and body disagree");
    assert_eq!(refused.code(), Code::InvalidArgument, "{}", refused.message());

    // One live game per shard, a few moves in, watched through the proxy.
    let mut live: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    for _ in 0..9 {
        let (game, tokens) = new_game(&mut client).await;
        created.push(game.clone());
        live.entry(shard_of(&game).to_owned()).or_insert((game, tokens));
    }
    assert_eq!(live.len(), 3, "new games land on every shard: {created:?}");
    let mut watches = BTreeMap::new();
    for (shard, (game, tokens)) in &live {
        for _ in 0..3 {
            play_one(&mut client, game, tokens).await.expect("a move").expect("the game is on");
        }
        watches.insert(shard.clone(), watch(&client, game).await);
    }

    // Shard b dies: only its game is unavailable, its watch ends with an error, and the others
    // play on to the end, their watches seeing every event.
    shards[1].kill();
    let (game_b, tokens_b) = live["b"].clone();
    let down = play_one(&mut client, &game_b, &tokens_b).await.expect_err("b is down");
    assert_eq!(down.code(), Code::Unavailable, "{down:?}");
    let (_, ended) = watches.remove("b").expect("b's watch").await.expect("watch task");
    let ended = ended.expect("b's watch ends with an error, not as if the game were over");
    // nginx cannot relay a clean status when the backend dies mid-stream (see deploy/nginx/README.md).
    assert!(matches!(ended.code(), Code::Unavailable | Code::Internal | Code::Unknown), "{ended:?}");
    for shard in ["a", "c"] {
        let (game, tokens) = &live[shard];
        play_to_end(&mut client, game, tokens).await;
        let events = verify(&mut replay, game).await;
        let (seen, error) = watches.remove(shard).expect("watch").await.expect("watch task");
        assert!(error.is_none(), "{shard}'s watch: {error:?}");
        assert_eq!(seen, (1..=events).collect::<Vec<_>>(), "{shard}'s watch saw every event once, in order");
    }
    for _ in 0..3 {
        let request = pb::CreateGameRequest { options: Some(support::streets_options(2)), ..Default::default() };
        let game = client.create_game(request).await.expect("create while b is down").into_inner().game_id;
        assert_ne!(shard_of(&game), "b");
        created.push(game);
    }
    let listing = list_all(&mut client).await.expect_err("a listing cannot show b's games while b is down");
    assert_eq!(listing.code(), Code::Unavailable, "{listing:?}");
    assert!(listing.message().contains("shard b"), "{}", listing.message());

    // b comes back on the same address and data: its game continues and verifies.
    shards[1].start();
    play_to_end(&mut client, &game_b, &tokens_b).await;
    let events = verify(&mut replay, &game_b).await;
    let (seen, error) = watch(&client, &game_b).await.await.expect("watch task");
    assert!(error.is_none(), "b's watch after the restart: {error:?}");
    assert_eq!(seen, (1..=events).collect::<Vec<_>>());
    // Every finished game, on every shard, still verifies through the proxy.
    for game in created[..6].iter().chain(live.values().map(|(game, _)| game)) {
        verify(&mut replay, game).await;
    }

    // ListGames through the proxy: every shard's games, each once, newest first.
    let listed = list_all(&mut client).await.expect("list through the proxy");
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "no game listed twice");
    assert_eq!(unique, created.iter().collect::<BTreeSet<_>>(), "every game of every shard");
    let keys: Vec<&str> = listed.iter().map(|g| g.split_once('_').expect("sharded").1).collect();
    assert!(keys.windows(2).all(|w| w[0] > w[1]), "newest first across shards: {listed:?}");

    // nginx's log: every call about a game went to that game's shard.
    let log = std::fs::read_to_string(proxy_dir.join("access.log")).expect("access log");
    let mut routed = 0;
    for line in log.lines() {
        let field = |name: &str| line.split(' ').find_map(|w| w.strip_prefix(name)).unwrap_or("-").to_owned();
        let game = field("game=");
        if game == "-" {
            continue;
        }
        let shard = SHARDS.iter().position(|s| *s == shard_of(&game)).expect("a known shard");
        assert_eq!(field("upstream="), shards[shard].addr, "{line}");
        routed += 1;
    }
    assert!(routed > 100, "the log shows the calls about games ({routed})");
}

async fn create(client: &mut GameServiceClient<Channel>) -> String {
    let request = pb::CreateGameRequest { options: Some(support::streets_options(2)), ..Default::default() };
    client.create_game(request).await.expect("create").into_inner().game_id
}

/// Pages through every shard's games with `client`, starting from `page_token`.
async fn pages_from(client: &mut GameServiceClient<Channel>, mut page_token: String) -> Vec<String> {
    let mut games = Vec::new();
    loop {
        let request = pb::ListGamesRequest { page_size: 3, page_token, ..Default::default() };
        let page = client.list_games(request).await.expect("list").into_inner();
        games.extend(page.games.into_iter().map(|g| g.game_id));
        if page.next_page_token.is_empty() {
            return games;
        }
        page_token = page.next_page_token;
    }
}

/// Two shards, `x` and `y`, each listing both (`--peers`), with a client of each.
async fn two_shards(dir: &Path) -> (Vec<Killed>, Vec<GameServiceClient<Channel>>) {
    let addrs = [nginx::free_addr(), nginx::free_addr()];
    let peers = format!("x=http://{},y=http://{}", addrs[0], addrs[1]);
    let mut processes = Vec::new();
    let mut clients = Vec::new();
    for (name, addr) in ["x", "y"].iter().zip(&addrs) {
        let args = ["--shard", name, "--peers", &peers];
        let (child, url) = support::spawn_server_at(addr, &dir.join(name), &args, &[]);
        processes.push(Killed(child));
        clients.push(GameServiceClient::connect(url).await.expect("connect"));
    }
    (processes, clients)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn listing_every_shard_goes_newest_first_and_games_made_meanwhile_do_not_reorder_it() {
    let dir = tempfile::tempdir().expect("dir");
    let (_processes, mut clients) = two_shards(dir.path()).await;
    let mut made = Vec::new();
    // Four older games on x, then three newer ones on y.
    for i in 0..7 {
        made.push(create(&mut clients[usize::from(i >= 4)]).await);
    }
    made.reverse();

    // The first page (from x) holds the newest games, all y's.
    let request = pb::ListGamesRequest { page_size: 3, ..Default::default() };
    let first = clients[0].list_games(request).await.expect("list").into_inner();
    let mut listed: Vec<String> = first.games.into_iter().map(|g| g.game_id).collect();
    assert_eq!(listed, made[..3]);
    // Games made now (on both shards) are newer than the first page: the next pages (asked of
    // y, with x's token) do not show them, and show every older game once, in order, though x
    // gave nothing to the first page.
    for i in 0..4 {
        create(&mut clients[i % 2]).await;
    }
    listed.extend(pages_from(&mut clients[1], first.next_page_token).await);
    assert_eq!(listed, made);
    // A fresh listing shows all eleven; each shard alone (x-clack-scope: shard) only its own.
    assert_eq!(pages_from(&mut clients[0], String::new()).await.len(), 11);
    let mut own = Request::new(pb::ListGamesRequest { page_size: 100, ..Default::default() });
    own.metadata_mut().insert("x-clack-scope", "shard".parse().expect("ascii"));
    let own = clients[1].list_games(own).await.expect("list").into_inner().games;
    assert!(own.len() == 5 && own.iter().all(|g| shard_of(&g.game_id) == "y"), "{own:?}");
    // A page token that is not one is refused.
    let request = pb::ListGamesRequest { page_token: "not-a-token".into(), ..Default::default() };
    let refused = clients[0].list_games(request).await.expect_err("a bad token");
    assert_eq!(refused.code(), Code::InvalidArgument);
}

/// A shard whose first page is now full of games made since the last page gives fewer than a
/// page of older games from it; those it did not give may still be newer than another shard's.
/// Every later page must continue strictly after the last game shown, on every shard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shard_pushed_down_by_new_games_still_pages_in_order() {
    let dir = tempfile::tempdir().expect("dir");
    let (_processes, mut clients) = two_shards(dir.path()).await;
    // Three old games on y, then five newer ones on x.
    let mut made = Vec::new();
    for i in 0..8 {
        made.push(create(&mut clients[usize::from(i < 3)]).await);
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    made.reverse();
    let request = pb::ListGamesRequest { page_size: 3, ..Default::default() };
    let first = clients[0].list_games(request).await.expect("list").into_inner();
    let mut listed: Vec<String> = first.games.into_iter().map(|g| g.game_id).collect();
    assert_eq!(listed, made[..3], "the first page: x's three newest");
    // Two new games on x fill most of x's first page with games the listing must skip.
    for _ in 0..2 {
        create(&mut clients[0]).await;
    }
    listed.extend(pages_from(&mut clients[1], first.next_page_token).await);
    assert_eq!(listed, made, "x's two older games come before every game of y");
}
