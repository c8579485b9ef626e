//! `clack crashloop`: the durability promise, tested by force. It runs `clack serve` on a data
//! directory, plays many games against it from many clients (and lets bots play others), kills
//! the server with SIGKILL at a random moment, restarts it, and checks that nothing the server
//! acknowledged was lost: every acknowledged action is in its game's log at the sequence it was
//! acknowledged, every event a watcher was sent is stored exactly as sent, and every log
//! verifies. After the last kill every game is played (or left to its bots) to the end.
//!
//! What counts as acknowledged: a created game (its `CreateGame` reply), a joined seat, an
//! `Act` reply, and every event a `Watch` stream delivered, because the server publishes an
//! event to watchers only after the store has it on disk. Requests in flight at the moment of
//! the kill may land or not; they are not counted.
//!
//! Games are created and their seats taken while no kill is pending, so that no seat token is
//! lost with a reply; the kill falls while moves are being made. Just before each kill the tool
//! reads what the server's threads are doing from `/proc` (Linux), so the report can say how
//! many kills fell during a flush (a thread inside `fsync`/`fdatasync`) and how many while bot
//! games were being played (a decision running or queued on the bot pool).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clack_log::{Viewer, redact};
use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_proto::v1::game_service_client::GameServiceClient;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use clack_rules::Dealer;
use tokio::io::AsyncBufReadExt;
use tokio::process::{Child, Command};
use tonic::transport::Channel;
use tonic::{Request, Status};

use crate::serve::DurabilityArg;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// How many times the server is killed.
    #[arg(long, default_value_t = 100)]
    kills: u32,
    /// The data directory; a fresh temporary one (removed at the end) if unset. A directory
    /// given here is kept, so that it can be inspected, backed up or restored afterwards.
    #[arg(long)]
    data: Option<PathBuf>,
    /// Games played at once by clients, each by its own task.
    #[arg(long, default_value_t = 16)]
    clients: usize,
    /// Games played at once between bots (a deliberately slow bot, so that decisions run most
    /// of the time).
    #[arg(long, default_value_t = 4)]
    bot_games: usize,
    /// The shortest time the server runs under load before it is killed, in milliseconds.
    #[arg(long, default_value_t = 50)]
    min_ms: u64,
    /// The longest time the server runs under load before it is killed, in milliseconds.
    #[arg(long, default_value_t = 1500)]
    max_ms: u64,
    /// Seeds the kill times, the games and the moves, so that a run can be repeated.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_enum, default_value = "batched")]
    durability: DurabilityArg,
    /// The `clack` binary to run as the server (default: this one).
    #[arg(long)]
    server: Option<PathBuf>,
}

/// The bot of the bot games: it counts for a while (a few thousand Rhai operations) before it
/// picks, so that a decision is under way most of the time a bot game is in play.
const SLOW_BOT: &str = r#"
// crashloop-slow: spends some operations, then plays a legal action chosen from the nonce.
fn choose(view) {
    let n = 0;
    for i in 0..800 { n += i % 7; }
    (view.nonce + n) % view.legal.len()
}
"#;

/// How long any one call may take before the tool gives up on the server.
const CALL_TIMEOUT: Duration = Duration::from_secs(20);

/// What the clients were told about one game.
#[derive(Debug, Default, Clone)]
struct Ledger {
    /// Seat tokens, for games played by clients; empty for bot games.
    tokens: Vec<String>,
    /// The highest sequence the server acknowledged.
    acked: u64,
    /// Every acknowledged action: (its event's sequence, seat, action). An `Act` made with
    /// expected sequence `n` that succeeds is stored as event `n + 1`.
    actions: Vec<(u64, u32, pb::Action)>,
    /// Events a watcher was sent (spectator view), by sequence.
    watched: BTreeMap<u64, pb::Event>,
    finished: bool,
    /// Checked once after it finished; a finished game never changes again.
    settled: bool,
}

type Ledgers = Arc<Mutex<BTreeMap<String, Ledger>>>;

fn ledgers(all: &Ledgers) -> std::sync::MutexGuard<'_, BTreeMap<String, Ledger>> {
    all.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What the server was doing when it was killed, read from `/proc` just before the kill.
#[derive(Debug, Default, Clone, Copy)]
struct Moment {
    /// Some thread was inside fsync, fdatasync, msync or sync_file_range.
    flushing: bool,
    /// Unfinished bot games: a decision was running or queued.
    bot_games: usize,
}

#[derive(Debug, Default)]
struct Figures {
    kills: u32,
    during_flush: u32,
    with_bots: u32,
    acked_actions: usize,
    watched_events: usize,
    games: usize,
    checks: usize,
    restarts: Vec<Duration>,
}

struct Server {
    child: Child,
    url: String,
}

pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    if args.min_ms > args.max_ms || args.clients + args.bot_games == 0 {
        bail!("need --min-ms <= --max-ms and at least one client or bot game");
    }
    let temp = tempfile::tempdir()?;
    let data = args.data.clone().unwrap_or_else(|| temp.path().join("data"));
    let exe = match &args.server {
        Some(path) => path.clone(),
        None => std::env::current_exe()?,
    };
    let server_log = data.with_extension("server.log");
    let mut rng = Dealer::from_seed(args.seed);
    let all: Ledgers = Arc::default();
    let mut figures = Figures::default();
    let mut bot: Option<(String, String)> = None;
    let mut next_seed = args.seed.wrapping_mul(1_000_003);

    for kill in 1..=args.kills {
        let server = start(&exe, &data, args.durability, &server_log, &mut figures).await?;
        let channel = Channel::from_shared(server.url.clone())?.connect().await?;
        figures.checks += check(&channel, &all, false).await.with_context(|| format!("after kill {}", kill - 1))?;
        let bot = match &bot {
            Some(bot) => bot.clone(),
            None => bot.insert(upload_bot(&channel).await?).clone(),
        };
        top_up(&channel, &all, args, &bot, &mut next_seed).await?;
        let load = start_load(&channel, &all, rng.index(usize::MAX));
        let wait = args.min_ms + rng.index((args.max_ms - args.min_ms + 1) as usize) as u64;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let moment = kill_now(server, &all).await?;
        figures.kills += 1;
        figures.during_flush += u32::from(moment.flushing);
        figures.with_bots += u32::from(moment.bot_games > 0);
        for task in load {
            let _ = tokio::time::timeout(CALL_TIMEOUT, task).await;
        }
        progress(kill, args.kills, &moment, wait);
    }

    let server = start(&exe, &data, args.durability, &server_log, &mut figures).await?;
    let channel = Channel::from_shared(server.url.clone())?.connect().await?;
    figures.checks += check(&channel, &all, false).await.context("after the last kill")?;
    finish_all(&channel, &all).await?;
    figures.checks += check(&channel, &all, true).await.context("after every game was finished")?;
    stop(server).await;
    {
        let all = ledgers(&all);
        figures.games = all.len();
        figures.acked_actions = all.values().map(|l| l.actions.len()).sum();
        figures.watched_events = all.values().map(|l| l.watched.len()).sum();
    }
    report(&figures, args);
    Ok(())
}

#[allow(clippy::print_stdout)]
fn progress(kill: u32, kills: u32, moment: &Moment, wait: u64) {
    println!("kill {kill}/{kills} after {wait} ms: flushing={} bot_games={}", moment.flushing, moment.bot_games);
}

#[allow(clippy::print_stdout)]
fn report(figures: &Figures, args: &Args) {
    let mut restarts = figures.restarts.clone();
    restarts.sort();
    let ms = |d: Option<&Duration>| d.map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    println!(
        "crashloop: {} kills (seed {}, {} clients, {} bot games)",
        figures.kills, args.seed, args.clients, args.bot_games
    );
    println!("kills during a flush: {}; with bot games in play: {}", figures.during_flush, figures.with_bots);
    println!(
        "games: {}; acknowledged actions: {}; watched events: {}; log checks: {}",
        figures.games, figures.acked_actions, figures.watched_events, figures.checks
    );
    println!(
        "restart to listening: median {:.0} ms, max {:.0} ms",
        ms(restarts.get(restarts.len() / 2)),
        ms(restarts.last())
    );
    println!("lost: 0 acknowledged actions, 0 watched events; every log verifies; every game finished");
}

/// Starts `clack serve` on `data` and waits for its address.
async fn start(
    exe: &Path,
    data: &Path,
    durability: DurabilityArg,
    log: &Path,
    figures: &mut Figures,
) -> anyhow::Result<Server> {
    let started = Instant::now();
    let stderr = std::fs::OpenOptions::new().create(true).append(true).open(log)?;
    let durability = match durability {
        DurabilityArg::Sync => "sync",
        DurabilityArg::Batched => "batched",
    };
    let mut child = Command::new(exe)
        .args(["serve", "--addr", "127.0.0.1:0", "--durability", durability, "--data"])
        .arg(data)
        .args(["--quota-live-games", "0", "--quota-requests-per-second", "0", "--grace-secs", "0"])
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    let stdout = child.stdout.take().context("the server's stdout")?;
    let mut line = String::new();
    let mut reader = tokio::io::BufReader::new(stdout);
    let read = reader.read_line(&mut line);
    tokio::time::timeout(Duration::from_secs(60), read).await.context("the server did not start in 60 s")??;
    let Some(addr) = line.trim().strip_prefix("listening on ") else {
        bail!("the server did not start (see {}): {line:?}", log.display());
    };
    figures.restarts.push(started.elapsed());
    Ok(Server { url: format!("http://{addr}"), child })
}

async fn stop(mut server: Server) {
    let _ = server.child.start_kill();
    let _ = server.child.wait().await;
}

/// Reads what the server is doing, then sends SIGKILL and reaps it.
async fn kill_now(mut server: Server, all: &Ledgers) -> anyhow::Result<Moment> {
    let mut moment = server.child.id().map(threads_at).unwrap_or_default();
    moment.bot_games = ledgers(all).values().filter(|l| l.tokens.is_empty() && !l.finished).count();
    server.child.start_kill().context("SIGKILL")?;
    server.child.wait().await?;
    Ok(moment)
}

/// What the threads of process `pid` are in: the first number of `/proc/PID/task/TID/syscall`
/// is the system call a blocked thread is in (x86-64 numbers; "running" when it is on a CPU).
fn threads_at(pid: u32) -> Moment {
    const FLUSHES: [&str; 4] = ["74", "75", "26", "277"]; // fsync, fdatasync, msync, sync_file_range
    let mut moment = Moment::default();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return moment };
    for task in tasks.flatten() {
        let Ok(syscall) = std::fs::read_to_string(task.path().join("syscall")) else { continue };
        let number = syscall.split_whitespace().next().unwrap_or("");
        moment.flushing |= FLUSHES.contains(&number);
    }
    moment
}

async fn upload_bot(channel: &Channel) -> anyhow::Result<(String, String)> {
    let mut bots = BotServiceClient::new(channel.clone());
    let request = pb::UploadBotRequest {
        name: "crashloop-slow".into(),
        kind: pb::GameKind::Straight as i32,
        source: SLOW_BOT.into(),
    };
    let reply = bots.upload_bot(request).await.context("upload the bot")?.into_inner();
    Ok((reply.bot_id, reply.version))
}

/// Options of the games clients play, chosen by `n`: both games, two to four seats.
fn options(n: usize) -> pb::GameOptions {
    use pb::game_options::Rules;
    let rules = match n % 4 {
        0 => Rules::Straight(pb::StraightOptions { players: Some(2), target: Some(100), ..Default::default() }),
        1 => Rules::Streets(pb::StreetsOptions { players: Some(2), ..Default::default() }),
        2 => Rules::Straight(pb::StraightOptions { players: Some(4), target: Some(150), ..Default::default() }),
        _ => Rules::Streets(pb::StreetsOptions { players: Some(3), ..Default::default() }),
    };
    pb::GameOptions { rules: Some(rules), time_control: None, bot_pace_millis: 0 }
}

/// Creates games (and takes their seats) until `clients` client games and `bot_games` bot
/// games are unfinished. No kill is pending while this runs.
async fn top_up(
    channel: &Channel,
    all: &Ledgers,
    args: &Args,
    bot: &(String, String),
    seed: &mut u64,
) -> anyhow::Result<()> {
    let mut games = GameServiceClient::new(channel.clone());
    let (human, bots) = {
        let all = ledgers(all);
        let live = all.values().filter(|l| !l.finished);
        live.fold((0, 0), |(h, b), l| if l.tokens.is_empty() { (h, b + 1) } else { (h + 1, b) })
    };
    for i in human..args.clients {
        *seed += 1;
        let created = games
            .create_game(pb::CreateGameRequest { options: Some(options(i)), seats: Vec::new(), seed: Some(*seed) })
            .await
            .context("create a game")?
            .into_inner();
        let players = match options(i).rules {
            Some(pb::game_options::Rules::Straight(o)) => o.players.unwrap_or(2),
            Some(pb::game_options::Rules::Streets(o)) => o.players.unwrap_or(2),
            None => 2,
        };
        let mut ledger = Ledger { acked: created.sequence, ..Ledger::default() };
        for seat in 0..players {
            let request =
                pb::JoinGameRequest { game_id: created.game_id.clone(), seat: Some(seat), name: format!("c{i}") };
            let joined = games.join_game(request).await.context("join a seat")?.into_inner();
            ledger.tokens.push(joined.seat_token);
            ledger.acked += 1;
        }
        ledgers(all).insert(created.game_id, ledger);
    }
    for _ in bots..args.bot_games {
        *seed += 1;
        let seat = pb::SeatSpec {
            occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: bot.0.clone(), version: bot.1.clone() })),
        };
        let rules = pb::StraightOptions { players: Some(4), target: Some(150), ..Default::default() };
        let request = pb::CreateGameRequest {
            options: Some(pb::GameOptions {
                rules: Some(pb::game_options::Rules::Straight(rules)),
                time_control: None,
                bot_pace_millis: 0,
            }),
            seats: vec![seat; 4],
            seed: Some(*seed),
        };
        let created = games.create_game(request).await.context("create a bot game")?.into_inner();
        ledgers(all).insert(created.game_id, Ledger { acked: created.sequence, ..Ledger::default() });
    }
    Ok(())
}

/// One task per unfinished game: clients play theirs, watchers follow the bot games. Each ends
/// when its game ends or the server goes away.
fn start_load(channel: &Channel, all: &Ledgers, seed: usize) -> Vec<tokio::task::JoinHandle<Result<(), Status>>> {
    let games: Vec<(String, bool)> =
        ledgers(all).iter().filter(|(_, l)| !l.finished).map(|(id, l)| (id.clone(), l.tokens.is_empty())).collect();
    games
        .into_iter()
        .enumerate()
        .map(|(i, (id, bot))| {
            let channel = channel.clone();
            let all = all.clone();
            let rng = Dealer::from_seed((seed + i) as u64);
            if bot {
                tokio::spawn(async move { watch(channel, all, id).await })
            } else {
                tokio::spawn(async move { play(channel, all, id, rng).await })
            }
        })
        .collect()
}

fn authed<T>(message: T, token: &str) -> Request<T> {
    let mut request = Request::new(message);
    if let Ok(value) = format!("Bearer {token}").parse() {
        request.metadata_mut().insert("authorization", value);
    }
    request
}

/// Plays random legal moves in one game and records each acknowledged one, until the game
/// ends or a call fails (the server was killed, or something is wrong: the caller decides).
async fn play(channel: Channel, all: Ledgers, id: String, mut rng: Dealer) -> Result<(), Status> {
    let mut games = GameServiceClient::new(channel);
    while play_one(&mut games, &all, &id, &mut rng).await?.is_some() {}
    Ok(())
}

/// One move; `Ok(None)` once the game is over.
async fn play_one(
    games: &mut GameServiceClient<Channel>,
    all: &Ledgers,
    id: &str,
    rng: &mut Dealer,
) -> Result<Option<()>, Status> {
    let view = games.get_view(pb::GetViewRequest { game_id: id.into(), seat: None }).await?.into_inner().view;
    let Some(view) = view else { return Err(Status::internal("no view")) };
    let Some(seat) = view.to_move else {
        if view.status == pb::GameStatus::Finished as i32 {
            mark_finished(all, id);
            return Ok(None);
        }
        return Err(Status::internal("an unfinished game with nobody to move"));
    };
    let token = ledgers(all).get(id).and_then(|l| l.tokens.get(seat as usize).cloned()).unwrap_or_default();
    let request = pb::ListLegalActionsRequest { game_id: id.into(), seat: Some(seat) };
    let legal = games.list_legal_actions(authed(request, &token)).await?.into_inner();
    if legal.actions.is_empty() {
        return Err(Status::internal("a seat to move without legal actions"));
    }
    let action = legal.actions[rng.index(legal.actions.len())];
    let request = pb::ActRequest {
        game_id: id.into(),
        seat: Some(seat),
        expected_sequence: legal.sequence,
        action: Some(action),
        ..Default::default()
    };
    let reply = games.act(authed(request, &token)).await?.into_inner();
    let mut all = ledgers(all);
    if let Some(ledger) = all.get_mut(id) {
        ledger.acked = ledger.acked.max(reply.sequence);
        ledger.actions.push((legal.sequence + 1, seat, action));
        ledger.finished = reply.status == pb::GameStatus::Finished as i32;
    }
    Ok(Some(()))
}

fn mark_finished(all: &Ledgers, id: &str) {
    if let Some(ledger) = ledgers(all).get_mut(id) {
        ledger.finished = true;
    }
}

/// Follows a bot game as a spectator and records every event it is sent, until the game ends
/// or the stream breaks.
async fn watch(channel: Channel, all: Ledgers, id: String) -> Result<(), Status> {
    let mut games = GameServiceClient::new(channel);
    let from = ledgers(&all).get(&id).map_or(1, |l| l.watched.keys().next_back().map_or(1, |s| s + 1));
    let request = pb::WatchRequest { game_id: id.clone(), seat: None, from_sequence: from };
    let mut stream = games.watch(request).await?.into_inner();
    while let Some(message) = stream.message().await? {
        let Some(event) = message.event else { continue };
        let ended = matches!(event.payload, Some(pb::event::Payload::GameEnded(_)));
        if let Some(ledger) = ledgers(&all).get_mut(&id) {
            ledger.acked = ledger.acked.max(event.sequence);
            ledger.watched.insert(event.sequence, event);
            ledger.finished |= ended;
        }
    }
    Ok(())
}

/// Checks every game against what was acknowledged: the stored events (read through a
/// spectator's `Watch`, or `GetLog` once every game is over) hold every acknowledged action at
/// the sequence it was acknowledged as and every watched event exactly, and `Verify` passes.
/// Returns the games checked.
async fn check(channel: &Channel, all: &Ledgers, finished: bool) -> anyhow::Result<usize> {
    let snapshot: Vec<(String, Ledger)> =
        ledgers(all).iter().filter(|(_, l)| finished || !l.settled).map(|(id, l)| (id.clone(), l.clone())).collect();
    let mut games = GameServiceClient::new(channel.clone());
    let mut replay = ReplayServiceClient::new(channel.clone());
    for (id, ledger) in &snapshot {
        let events = if finished { full_log(&mut replay, id).await? } else { stored(&mut games, id).await? };
        compare(id, ledger, &events, finished)?;
        let verified = replay.verify(pb::VerifyRequest { game_id: id.clone() }).await?.into_inner();
        if !verified.ok {
            bail!("game {id} does not verify: {}", verified.detail);
        }
        let finished_now = events.last().is_some_and(|e| matches!(e.payload, Some(pb::event::Payload::GameEnded(_))));
        if finished_now && let Some(ledger) = ledgers(all).get_mut(id) {
            ledger.finished = true;
            ledger.settled = true;
        }
    }
    Ok(snapshot.len())
}

async fn full_log(replay: &mut ReplayServiceClient<Channel>, id: &str) -> anyhow::Result<Vec<pb::Event>> {
    let request = pb::GetLogRequest { game_id: id.into() };
    Ok(replay.get_log(request).await.with_context(|| format!("the log of {id}"))?.into_inner().events)
}

/// A game's stored events as a spectator sees them: `Watch` from the start up to the sequence
/// `GetView` reports.
async fn stored(games: &mut GameServiceClient<Channel>, id: &str) -> anyhow::Result<Vec<pb::Event>> {
    let view = games.get_view(pb::GetViewRequest { game_id: id.into(), seat: None }).await?.into_inner();
    let last = view.view.map_or(0, |v| v.sequence);
    let request = pb::WatchRequest { game_id: id.into(), seat: None, from_sequence: 1 };
    let mut stream = games.watch(request).await?.into_inner();
    let mut events = Vec::new();
    while (events.len() as u64) < last {
        match tokio::time::timeout(CALL_TIMEOUT, stream.message()).await {
            Ok(Ok(Some(message))) => events.extend(message.event),
            Ok(Ok(None)) => break,
            Ok(Err(status)) => return Err(status.into()),
            Err(_) => bail!("watching {id} stalled at {} of {last} events", events.len()),
        }
    }
    Ok(events)
}

fn compare(id: &str, ledger: &Ledger, events: &[pb::Event], full: bool) -> anyhow::Result<()> {
    if (events.len() as u64) < ledger.acked {
        bail!("game {id}: {} events stored, {} acknowledged", events.len(), ledger.acked);
    }
    for (i, event) in events.iter().enumerate() {
        if event.sequence != i as u64 + 1 {
            bail!("game {id}: event {} has sequence {}", i + 1, event.sequence);
        }
    }
    for (sequence, seat, action) in &ledger.actions {
        let stored = events.get(*sequence as usize - 1).and_then(|e| match &e.payload {
            Some(pb::event::Payload::ActionApplied(a)) => Some((a.seat, a.action.as_ref())),
            _ => None,
        });
        if stored != Some((*seat, Some(action))) {
            bail!("game {id}: the action acknowledged as event {sequence} is not the one stored there");
        }
    }
    for (sequence, watched) in &ledger.watched {
        let Some(event) = events.get(*sequence as usize - 1) else { bail!("game {id}: watched event {sequence} lost") };
        let seen = if full { redact(event, Viewer::Spectator) } else { event.clone() };
        if &seen != watched {
            bail!("game {id}: event {sequence} differs from the one a watcher was sent");
        }
    }
    Ok(())
}

/// Plays every client game to the end and waits for the bot games to end.
async fn finish_all(channel: &Channel, all: &Ledgers) -> anyhow::Result<()> {
    let load = start_load(channel, all, 7);
    for task in load {
        let outcome = tokio::time::timeout(Duration::from_secs(600), task).await;
        outcome.context("a game did not finish in 10 minutes")?.context("a game's task")?.context("a game")?;
    }
    let unfinished: Vec<String> = ledgers(all).iter().filter(|(_, l)| !l.finished).map(|(id, _)| id.clone()).collect();
    if !unfinished.is_empty() {
        bail!("{} games did not finish: {}", unfinished.len(), unfinished.join(", "));
    }
    Ok(())
}
