//! `clack bench`: a load tool. It starts the server in-process on loopback over a fresh sled
//! directory, drives many concurrent games through real gRPC calls, and reports throughput and
//! latency percentiles of `Act`. In the same run, in turns with the games, it measures a bare
//! tonic unary call (the gRPC health check, which touches no store) with the same concurrency,
//! so the ratio of the two is the figure that matters. Every loop is bounded by `--seconds`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_server::bots::library::Asker;
use clack_server::who::access::Identity;
use clack_server::{Hub, Limits, ServeConfig};
use clack_store::{Durability, Durable, SledStore};
use tonic::Request;
use tonic::metadata::{Ascii, MetadataValue};
use tonic::transport::Channel;

use crate::serve::DurabilityArg;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Games played at once, each by its own client task.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// How long games are played in all, and how long bare calls run in all.
    #[arg(long, default_value_t = 10)]
    seconds: u64,
    /// Bare calls and games take turns this many times each (A-B-A-B...), so that a shared
    /// machine whose speed drifts over minutes gives both the same mix of fast and slow spells.
    #[arg(long, default_value_t = 5)]
    rounds: u32,
    #[arg(long, value_enum, default_value = "batched")]
    durability: DurabilityArg,
    /// Keep events in memory instead of sled, to see the server's own cost apart from the disk.
    #[arg(long)]
    memory: bool,
    /// Also run this many games between two bots that loop until their deadline on every move
    /// (`tests/hostile/endless-loop.rhai`), to see whether other games keep their pace.
    #[arg(long, default_value_t = 0)]
    hostile: usize,
    /// gRPC connections the clients share.
    #[arg(long, default_value_t = 8)]
    connections: usize,
    /// Paced play: each game makes one move every this many milliseconds (a player's thinking
    /// time), starting at evenly spread offsets, instead of moving again as soon as it can. This
    /// measures latency at a known load; without it the clients measure capacity.
    #[arg(long)]
    pace_ms: Option<u64>,
    /// Play every game through `GameService.Play`, one stream per seat, instead of
    /// `ListLegalActions` + `Act` calls.
    #[arg(long)]
    play: bool,
    /// Keep Prometheus metrics as `clack serve` does (requests, store, games, bots), to measure
    /// what they cost: compare runs with and without, taking turns.
    #[arg(long)]
    metrics: bool,
    /// Run the ladder beside the games, at its default share, with the bundled bots uploaded,
    /// to see what it costs ordinary games: compare runs with and without, taking turns.
    #[arg(long)]
    ladder: bool,
    /// Run as a cluster's shard over this PostgreSQL database (accounts, keys and the game
    /// index shared there), to see what it costs a move: compare runs with and without.
    #[arg(long)]
    database: Option<String>,
}

/// The bundled bots, for a ladder to play: (name, game, source).
const BUNDLED: [(&str, clack_proto::v1::GameKind, &str); 6] = [
    ("straight-random", clack_proto::v1::GameKind::Straight, include_str!("../../../bots/straight-random.rhai")),
    ("straight-greedy", clack_proto::v1::GameKind::Straight, include_str!("../../../bots/straight-greedy.rhai")),
    ("straight-defender", clack_proto::v1::GameKind::Straight, include_str!("../../../bots/straight-defender.rhai")),
    ("streets-random", clack_proto::v1::GameKind::Streets, include_str!("../../../bots/streets-random.rhai")),
    ("streets-greedy", clack_proto::v1::GameKind::Streets, include_str!("../../../bots/streets-greedy.rhai")),
    ("streets-builder", clack_proto::v1::GameKind::Streets, include_str!("../../../bots/streets-builder.rhai")),
];

/// Uploads the bundled bots through the server's own API, so that its ladder has players.
async fn upload_bundled(addr: std::net::SocketAddr) -> anyhow::Result<()> {
    let mut bots = clack_proto::v1::bot_service_client::BotServiceClient::connect(format!("http://{addr}")).await?;
    for (name, kind, source) in BUNDLED {
        let upload = clack_proto::v1::UploadBotRequest { name: name.into(), kind: kind as i32, source: source.into() };
        bots.upload_bot(upload).await?;
    }
    Ok(())
}

/// Latencies of one phase, or of several added together.
#[derive(Default)]
struct Sample {
    calls: usize,
    seconds: f64,
    latencies: Vec<Duration>,
    /// CPU time the whole process (clients and server) used in the phase, where known.
    cpu: Option<f64>,
}

/// Resident memory of this process, from `/proc/self/statm` (Linux only; pages of 4 KiB).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// How fast every stored game was read back and rebuilt.
struct Replayed {
    games: usize,
    events: usize,
    seconds: f64,
}

impl Replayed {
    #[allow(clippy::print_stdout)]
    fn print(&self) {
        println!(
            "replay from the store: {} games, {} events in {:.2} s: {:.0} events/s (read, decode, fold, verify)",
            self.games,
            self.events,
            self.seconds,
            self.events as f64 / self.seconds.max(1e-9)
        );
    }
}

/// Reads every game in the store and rebuilds it from its events, as `VerifyGame` does.
fn replay_all(store: &dyn clack_store::EventStore) -> anyhow::Result<Replayed> {
    let started = Instant::now();
    let (mut games, mut events) = (0, 0);
    for summary in store.summaries()? {
        let log = store.read(&summary.game_id, 1)?;
        clack_log::GameLog::replay(&log)?;
        games += 1;
        events += log.len();
    }
    Ok(Replayed { games, events, seconds: started.elapsed().as_secs_f64() })
}

/// CPU seconds this process has used, from `/proc/self/stat` (Linux only): user and system
/// time, fields 14 and 15, in clock ticks of 1/100 s.
pub(crate) fn process_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces; the fields after it are plain.
    let rest = stat.rsplit_once(')')?.1;
    let mut fields = rest.split_whitespace().skip(11);
    let user: f64 = fields.next()?.parse().ok()?;
    let system: f64 = fields.next()?.parse().ok()?;
    Some((user + system) / 100.0)
}

impl Sample {
    /// Adds another phase of the same kind to this one.
    fn absorb(&mut self, other: Sample) {
        let first = self.seconds == 0.0;
        self.cpu = if first { other.cpu } else { self.cpu.zip(other.cpu).map(|(a, b)| a + b) };
        self.calls += other.calls;
        self.seconds += other.seconds;
        self.latencies.extend(other.latencies);
    }

    fn percentile(&self, p: f64) -> Duration {
        let mut sorted = self.latencies.clone();
        sorted.sort_unstable();
        sorted.get(((sorted.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default()
    }

    fn rate(&self) -> f64 {
        self.calls as f64 / self.seconds.max(1e-9)
    }

    /// CPU microseconds per call, clients and server together.
    fn cpu_per_call(&self) -> Option<f64> {
        self.cpu.map(|cpu| cpu * 1e6 / self.calls.max(1) as f64)
    }

    #[allow(clippy::print_stdout)]
    fn print(&self, name: &str) {
        println!(
            "{name:<28} {:>9.0} calls/s   p50 {:>7.2} ms   p99 {:>7.2} ms   ({} calls, {} µs CPU each)",
            self.rate(),
            self.percentile(0.50).as_secs_f64() * 1e3,
            self.percentile(0.99).as_secs_f64() * 1e3,
            self.calls,
            self.cpu_per_call().map_or("?".to_owned(), |us| format!("{us:.0}")),
        );
    }
}

#[allow(clippy::print_stdout)]
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let durability = match args.durability {
        DurabilityArg::Sync => Durability::Sync,
        DurabilityArg::Batched => Durability::Batched,
    };
    let backend: Arc<dyn clack_store::EventStore> =
        if args.memory { Arc::new(clack_store::MemoryStore::new()) } else { Arc::new(SledStore::open(dir.path())?) };
    let store = Durable::new(backend.clone(), durability)?;
    let shared = match &args.database {
        Some(url) => {
            let database = clack_server::cluster::Database::new(url).map_err(|e| anyhow::anyhow!("{e}"))?;
            database.migrate().await.map_err(|e| anyhow::anyhow!("{e}"))?;
            let key_grace = clack_server::cluster::DEFAULT_KEY_GRACE;
            Some(clack_server::cluster::Shared { database, key_grace })
        }
        None => None,
    };
    let limits = clack_bots::Limits::default();
    let bots = match &shared {
        Some(shared) => clack_server::BotLibrary::open_shared(store.clone(), shared.database.clone(), limits).await?,
        None => clack_server::BotLibrary::open(store.clone(), limits).await?,
    };
    let host: Arc<dyn clack_server::bots::BotHost> = bots.clone();
    let limits = Limits {
        live_games: args.games * 4 + args.hostile,
        quotas: clack_server::Quotas::unlimited(),
        ..Limits::default()
    };
    let hub = Hub::open_shard(store, Some(host), limits, shared).await?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let metrics = args.metrics.then(|| clack_server::metrics::Metrics::install(&hub, Some(&bots)));
    let ladder = args.ladder.then(clack_server::ladder::LadderSettings::default);
    let config = ServeConfig { concurrency_limit: args.games * 4, metrics, ladder, ..ServeConfig::default() };
    let server = tokio::spawn(clack_server::serve(hub.clone(), Some(bots.clone()), listener, config, async {
        let _ = stopped.await;
    }));
    if args.ladder {
        upload_bundled(addr).await?;
    }
    let mut channels = Vec::new();
    for _ in 0..args.connections.max(1) {
        channels.push(tonic::transport::Endpoint::from_shared(format!("http://{addr}"))?.connect().await?);
    }
    let backend_name = if args.memory { "memory (no disk)" } else { "sled" };
    println!(
        "clack bench: {} concurrent games, {backend_name} store, {durability:?} durability, {} s of each kind in {} turns, {} connections, metrics {}, ladder {}, database {}",
        args.games,
        args.seconds,
        args.rounds.max(1),
        channels.len(),
        if args.metrics { "on" } else { "off" },
        if args.ladder { "on (default share, the bundled bots)" } else { "off" },
        if args.database.is_some() { "on (a cluster's shard)" } else { "off" }
    );
    let duration = Duration::from_secs(args.seconds);
    if args.hostile > 0 {
        start_hostile(&bots, &hub, args.hostile).await?;
        println!("{} games of looping bots running (each decision runs to its 100 ms deadline)", args.hostile);
    }
    let mut seated = seat_games(&channels, args.games).await?;
    if args.play {
        for (client, game) in &mut seated {
            game.streams = Some([open_stream(client, game, 0).await?, open_stream(client, game, 1).await?]);
        }
    }
    let pace = args.pace_ms.map(Duration::from_millis);
    if let Some(pace) = pace {
        let offered = args.games as f64 / pace.as_secs_f64();
        println!("paced: each game moves every {} ms, {offered:.0} moves/s offered", pace.as_millis());
    }
    let rounds = args.rounds.max(1);
    let slice = duration / rounds;
    let (mut bare, mut acts) = (Sample::default(), Sample::default());
    let mut ratios = Vec::new();
    for _ in 0..rounds {
        let round_bare = bare_calls(&channels, args.games, slice).await;
        let (round_acts, games) =
            if args.play { play_streams(seated, slice, pace).await? } else { play_games(seated, slice, pace).await? };
        seated = games;
        let calls_per_move = if args.play { 1.0 } else { 2.0 };
        ratios.push(calls_per_move * round_acts.rate() / round_bare.rate().max(1e-9));
        bare.absorb(round_bare);
        acts.absorb(round_acts);
    }
    bare.print("bare unary (health check)");
    if args.play {
        acts.print("Play (one move, durable)");
        if pace.is_none() {
            let (low, high) = ratios.iter().fold((f64::MAX, 0.0f64), |(l, h), &r| (l.min(r), h.max(r)));
            println!(
                "ratio of moves (Play) to bare calls: {:.2} (rounds from {low:.2} to {high:.2})",
                acts.rate() / bare.rate()
            );
        }
    } else if pace.is_none() {
        acts.print("Act (one move, durable)");
        println!("{:<28} {:>9.0} calls/s   (ListLegalActions + Act per move)", "all game calls", 2.0 * acts.rate());
        println!("ratio of moves (Act) to bare calls: {:.2}", acts.rate() / bare.rate());
        let (low, high) = ratios.iter().fold((f64::MAX, 0.0f64), |(l, h), &r| (l.min(r), h.max(r)));
        println!(
            "ratio of game calls to bare calls: {:.2} (rounds from {low:.2} to {high:.2})",
            2.0 * acts.rate() / bare.rate()
        );
    } else {
        acts.print("Act (one move, durable)");
    }
    let replayed = tokio::task::spawn_blocking(move || replay_all(backend.as_ref())).await??;
    replayed.print();
    let _ = stop.send(());
    server.await?.map_err(|e| anyhow::anyhow!(e))?;
    Ok(())
}

/// Starts `games` games whose two seats are a bot that loops until its deadline.
async fn start_hostile(bots: &clack_server::BotLibrary, hub: &Arc<Hub>, games: usize) -> anyhow::Result<()> {
    let source = include_str!("../../../tests/hostile/endless-loop.rhai");
    let request =
        pb::UploadBotRequest { name: "looper".into(), kind: pb::GameKind::Straight as i32, source: source.into() };
    let me = Identity::anonymous();
    let asker = Asker { identity: &me, mode: hub.access().mode(), meter: hub.meter() };
    let uploaded = bots.upload(request, asker).await?;
    let seat = || pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat {
            bot_id: uploaded.bot_id.clone(),
            version: uploaded.version.clone(),
        })),
    };
    for seed in 0..games {
        let options = pb::GameOptions {
            time_control: None,
            rules: Some(pb::game_options::Rules::Straight(pb::StraightOptions {
                players: Some(2),
                ..Default::default()
            })),
            bot_pace_millis: 0,
        };
        hub.create(
            pb::CreateGameRequest { options: Some(options), seats: vec![seat(), seat()], seed: Some(seed as u64) },
            &me,
        )
        .await?;
    }
    Ok(())
}

/// `clients` tasks call the health check in a loop for `duration`.
async fn bare_calls(channels: &[Channel], clients: usize, duration: Duration) -> Sample {
    use tonic_health::pb::HealthCheckRequest;
    use tonic_health::pb::health_client::HealthClient;
    let started = Instant::now();
    let cpu_started = process_cpu();
    let tasks: Vec<_> = (0..clients)
        .map(|i| {
            let mut client = HealthClient::new(channels[i % channels.len()].clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                while started.elapsed() < duration {
                    let t = Instant::now();
                    if client.check(HealthCheckRequest { service: String::new() }).await.is_ok() {
                        latencies.push(t.elapsed());
                    }
                }
                latencies
            })
        })
        .collect();
    collect(tasks, started, cpu_started).await
}

async fn collect(
    tasks: Vec<tokio::task::JoinHandle<Vec<Duration>>>,
    started: Instant,
    cpu_started: Option<f64>,
) -> Sample {
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.push(task.await.unwrap_or_default());
    }
    sample(latencies, started, cpu_started)
}

/// The sample of a phase that began at `started`, from each client's latencies.
fn sample(latencies: Vec<Vec<Duration>>, started: Instant, cpu_started: Option<f64>) -> Sample {
    let latencies: Vec<Duration> = latencies.into_iter().flatten().collect();
    let cpu = process_cpu().zip(cpu_started).map(|(now, then)| now - then);
    Sample { calls: latencies.len(), seconds: started.elapsed().as_secs_f64(), latencies, cpu }
}

/// A game's client with the game it plays.
type Seated = (GameServiceClient<Channel>, BenchGame);

/// Creates `games` games and takes both seats of each, one client per game; reports how much
/// resident memory the live games took.
#[allow(clippy::print_stdout)]
async fn seat_games(channels: &[Channel], games: usize) -> anyhow::Result<Vec<Seated>> {
    let resident = resident_bytes();
    let mut seated = Vec::new();
    for i in 0..games {
        let mut client = GameServiceClient::new(channels[i % channels.len()].clone());
        seated.push((client.clone(), new_game(&mut client, i as u64).await?));
    }
    if let Some((before, after)) = resident.zip(resident_bytes()) {
        let grown = after.saturating_sub(before) as f64;
        println!(
            "resident memory: {:.0} MiB, {:.1} MiB more with {games} live games ({:.1} KiB a game, clients included)",
            after as f64 / f64::from(1 << 20),
            grown / f64::from(1 << 20),
            grown / 1024.0 / games.max(1) as f64
        );
    }
    Ok(seated)
}

/// One client task per game: move for `duration` (starting a new game when one ends), at once
/// or every `pace`. Only `Act` calls are timed. The games are handed back for the next round.
async fn play_games(
    seated: Vec<Seated>,
    duration: Duration,
    pace: Option<Duration>,
) -> anyhow::Result<(Sample, Vec<Seated>)> {
    let games = seated.len();
    let started = Instant::now();
    let cpu_started = process_cpu();
    let tasks: Vec<_> = seated
        .into_iter()
        .enumerate()
        .map(|(i, (mut client, mut game))| {
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut turn = pace.map(|pace| first_turn(started, pace, i, games));
                while started.elapsed() < duration {
                    if let (Some(at), Some(pace)) = (turn.as_mut(), pace) {
                        // Moves keep to the schedule, whatever the last one cost, so a slow
                        // server meets the same load rather than a politely smaller one.
                        tokio::time::sleep_until(*at).await;
                        *at += pace;
                    }
                    match act_once(&mut client, &mut game).await {
                        Ok(Some(latency)) => latencies.push(latency),
                        Ok(None) => {
                            game.seed += 1 << 32;
                            match new_game(&mut client, game.seed).await {
                                Ok(fresh) => game = fresh,
                                Err(_) => break,
                            }
                        }
                        Err(_) => break,
                    }
                }
                (latencies, (client, game))
            })
        })
        .collect();
    gather(tasks, started, cpu_started).await
}

/// When game `i` of `games` makes its first paced move: offsets spread evenly over one pace.
fn first_turn(started: Instant, pace: Duration, i: usize, games: usize) -> tokio::time::Instant {
    tokio::time::Instant::from_std(started) + pace * i as u32 / games as u32
}

/// Waits for every game's task and puts their latencies into one sample; hands the games back.
async fn gather(
    tasks: Vec<tokio::task::JoinHandle<(Vec<Duration>, Seated)>>,
    started: Instant,
    cpu_started: Option<f64>,
) -> anyhow::Result<(Sample, Vec<Seated>)> {
    let mut latencies = Vec::new();
    let mut seated = Vec::with_capacity(tasks.len());
    for task in tasks {
        let (played, game) = task.await?;
        latencies.push(played);
        seated.push(game);
    }
    Ok((sample(latencies, started, cpu_started), seated))
}

struct BenchGame {
    id: String,
    /// The last event a Play stream delivered, to resume from in the next round.
    seen: u64,
    /// The seed the game was made with; the next game's is derived from it.
    seed: u64,
    /// Each seat's `authorization` header value.
    tokens: Vec<MetadataValue<Ascii>>,
    to_move: Option<u32>,
    /// Both seats' Play streams, kept open from one round to the next as a real client keeps
    /// its stream: reopening 2,000 streams every round would be measured as the cost of moves.
    streams: Option<[Stream; 2]>,
}

async fn new_game(client: &mut GameServiceClient<Channel>, seed: u64) -> anyhow::Result<BenchGame> {
    let options = pb::GameOptions {
        time_control: None,
        rules: Some(pb::game_options::Rules::Straight(pb::StraightOptions { players: Some(2), ..Default::default() })),
        bot_pace_millis: 0,
    };
    let id = client
        .create_game(pb::CreateGameRequest { options: Some(options), seats: Vec::new(), seed: Some(seed) })
        .await?
        .into_inner()
        .game_id;
    let mut tokens = Vec::new();
    for seat in 0..2 {
        let request = pb::JoinGameRequest { game_id: id.clone(), seat: Some(seat), name: "bench".into() };
        let token = client.join_game(request).await?.into_inner().seat_token;
        tokens.push(format!("Bearer {token}").parse()?);
    }
    let view = client.get_view(pb::GetViewRequest { game_id: id.clone(), seat: None }).await?.into_inner().view;
    Ok(BenchGame { id, seen: 0, seed, tokens, to_move: view.and_then(|v| v.to_move), streams: None })
}

/// A request carrying a seat's `authorization` header, made once per seat as a real client
/// would keep it.
fn authed<T>(message: T, authorization: &MetadataValue<Ascii>) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", authorization.clone());
    request
}

/// Asks the seat to move for its legal actions and plays the first; returns the `Act` latency,
/// or `None` when the game is over. The seat to move comes from the previous `Act` reply, as a
/// real client would keep it, so a move costs two calls: `ListLegalActions` and `Act`.
async fn act_once(client: &mut GameServiceClient<Channel>, game: &mut BenchGame) -> anyhow::Result<Option<Duration>> {
    let Some(seat) = game.to_move else { return Ok(None) };
    let token = &game.tokens[seat as usize];
    let legal = client
        .list_legal_actions(authed(pb::ListLegalActionsRequest { game_id: game.id.clone(), seat: Some(seat) }, token))
        .await?
        .into_inner();
    let Some(action) = legal.actions.into_iter().next() else { return Ok(None) };
    // The default (basic) reply: the next seat to move is all this client reads.
    let request = pb::ActRequest {
        game_id: game.id.clone(),
        seat: Some(seat),
        expected_sequence: legal.sequence,
        action: Some(action),
        ..Default::default()
    };
    let t = Instant::now();
    let reply = client.act(authed(request, token)).await?.into_inner();
    let latency = t.elapsed();
    game.to_move = reply.to_move;
    Ok(Some(latency))
}

/// One seat's Play stream: what the bench sends on it, and what it receives.
struct Stream {
    moves: tokio::sync::mpsc::Sender<pb::PlayRequest>,
    replies: tonic::Streaming<pb::PlayResponse>,
}

async fn open_stream(client: &mut GameServiceClient<Channel>, game: &BenchGame, seat: usize) -> anyhow::Result<Stream> {
    let (moves, outbound) = tokio::sync::mpsc::channel(4);
    let hello = pb::PlayHello { game_id: game.id.clone(), seat: None, after_sequence: game.seen };
    moves.send(pb::PlayRequest { message: Some(pb::play_request::Message::Hello(hello)) }).await?;
    let request = authed(tokio_stream::wrappers::ReceiverStream::new(outbound), &game.tokens[seat]);
    let replies = client.play(request).await?.into_inner();
    Ok(Stream { moves, replies })
}

/// Like [`play_games`], through `Play`: one task per game holds both seats' streams and answers
/// each turn with its first action. A move's latency runs from sending it to the first event
/// that follows it.
async fn play_streams(
    seated: Vec<Seated>,
    duration: Duration,
    pace: Option<Duration>,
) -> anyhow::Result<(Sample, Vec<Seated>)> {
    let games = seated.len();
    let started = Instant::now();
    let cpu_started = process_cpu();
    let tasks: Vec<_> = seated
        .into_iter()
        .enumerate()
        .map(|(i, (mut client, mut game))| {
            tokio::spawn(async move {
                let first = pace.map(|pace| first_turn(started, pace, i, games));
                let latencies = stream_game(&mut client, &mut game, started, duration, pace.zip(first)).await;
                (latencies.unwrap_or_default(), (client, game))
            })
        })
        .collect();
    gather(tasks, started, cpu_started).await
}

/// Plays one game's seats over their streams until `duration` has passed since `started`,
/// starting a new game whenever one ends.
async fn stream_game(
    client: &mut GameServiceClient<Channel>,
    game: &mut BenchGame,
    started: Instant,
    duration: Duration,
    mut pace: Option<(Duration, tokio::time::Instant)>,
) -> anyhow::Result<Vec<Duration>> {
    use pb::play_response::Message;
    let mut latencies = Vec::new();
    let mut seats = match game.streams.take() {
        Some(seats) => seats,
        None => [open_stream(client, game, 0).await?, open_stream(client, game, 1).await?],
    };
    let mut pending: Option<(u64, Instant)> = None;
    while started.elapsed() < duration {
        let [zero, one] = &mut seats;
        let (seat, reply) = tokio::select! {
            reply = zero.replies.message() => (0, reply?),
            reply = one.replies.message() => (1, reply?),
        };
        match reply.and_then(|r| r.message) {
            None => {
                // The game is over: both streams end; play a new one.
                game.seed += 1 << 32;
                *game = new_game(client, game.seed).await?;
                seats = [open_stream(client, game, 0).await?, open_stream(client, game, 1).await?];
                pending = None;
            }
            Some(Message::Event(event)) => {
                game.seen = game.seen.max(event.sequence);
                if let Some((_, at)) = pending.filter(|(turn, _)| event.sequence > *turn) {
                    latencies.push(at.elapsed());
                    pending = None;
                }
            }
            Some(Message::Turn(turn)) => {
                if let Some((every, at)) = pace.as_mut() {
                    tokio::time::sleep_until(*at).await;
                    *at += *every;
                }
                let choice = pb::play_move::Choice::Index(0);
                let play = pb::PlayMove { turn_sequence: turn.sequence, choice: Some(choice) };
                seats[seat]
                    .moves
                    .send(pb::PlayRequest { message: Some(pb::play_request::Message::Move(play)) })
                    .await?;
                pending = Some((turn.sequence, Instant::now()));
            }
            Some(Message::Rejected(rejected)) => anyhow::bail!("a move was refused: {}", rejected.message),
        }
    }
    // The loop stops only between messages, so whatever the server sends next is still queued
    // on these streams for the next round.
    game.streams = Some(seats);
    Ok(latencies)
}
