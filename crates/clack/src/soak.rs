//! `clack soak`: all-bot games played on a running server for a long time, keeping a number of
//! them live, while the server's resident memory and threads are sampled from `/proc`.
//!
//! It answers one question an operator asks before seating bots on a shared server: does the
//! server's memory stay bounded as bot games come and go? Each game is a two-player Straight
//! Dominoes game between two uploaded bots (the bundled greedy and random scripts); a new game
//! is created as soon as one ends. Every second it prints one line (games finished, live games,
//! resident MB, threads), and at the end the highest sample of the first two thirds of the games
//! against the highest of the last third: growth between them is what a leak would show.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_proto::v1::game_service_client::GameServiceClient;
use tokio::task::JoinSet;
use tonic::transport::Channel;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The server to play on (open mode, or an account's key in CLACK_KEY).
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The server's process id, whose memory and threads are sampled (Linux `/proc`).
    #[arg(long)]
    pid: u32,
    /// Games kept live at once.
    #[arg(long, default_value_t = 100)]
    live: usize,
    /// Games played in all.
    #[arg(long, default_value_t = 9000)]
    games: usize,
    /// The bots' scripts (default: the bundled Straight greedy and random bots).
    #[arg(long, num_args = 2, default_values = ["bots/straight-greedy.rhai", "bots/straight-random.rhai"])]
    bots: Vec<PathBuf>,
    /// Points a game is played to: shorter games make more of them come and go.
    #[arg(long, default_value_t = 100)]
    target: u32,
}

/// One sample of the server process.
#[derive(Clone, Copy, Debug)]
struct Sample {
    finished: usize,
    resident_mb: f64,
    threads: u32,
}

pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let channel = Channel::from_shared(args.server.clone())?.connect().await.context("connect to the server")?;
    let seats = upload(&channel, &args.bots).await?;
    let options = pb::GameOptions {
        rules: Some(pb::game_options::Rules::Straight(pb::StraightOptions {
            players: Some(2),
            target: Some(args.target),
            ..Default::default()
        })),
        ..pb::GameOptions::default()
    };
    let started = Instant::now();
    let mut running = JoinSet::new();
    let (mut created, mut finished) = (0usize, 0usize);
    let mut samples = Vec::new();
    let mut next_sample = Instant::now();
    while finished < args.games {
        while running.len() < args.live && created < args.games {
            let (channel, options, seats) = (channel.clone(), options, seats.clone());
            running.spawn(play(channel, options, seats, created as u64));
            created += 1;
        }
        tokio::select! {
            done = running.join_next() => {
                if let Some(done) = done {
                    done.context("a game's task")??;
                    finished += 1;
                }
            }
            () = tokio::time::sleep_until(next_sample.into()) => {
                let sample = sample(args.pid, finished)?;
                println!(
                    "{:>6.1} s  {:>5} finished  {:>4} live  {:>7.1} MB resident  {:>4} threads",
                    started.elapsed().as_secs_f64(),
                    sample.finished,
                    running.len(),
                    sample.resident_mb,
                    sample.threads
                );
                samples.push(sample);
                next_sample += Duration::from_secs(1);
            }
        }
    }
    samples.push(sample(args.pid, finished)?);
    report(&samples, args.games);
    Ok(())
}

/// Uploads the two bots (or finds them uploaded already) and answers their seats.
async fn upload(channel: &Channel, paths: &[PathBuf]) -> anyhow::Result<Vec<pb::SeatSpec>> {
    let mut bots = BotServiceClient::new(channel.clone());
    let mut seats = Vec::new();
    // Names of this run's own: a bot uploaded by an earlier run belongs to that run's client.
    let run = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    for (i, path) in paths.iter().enumerate() {
        let source = std::fs::read_to_string(path).with_context(|| format!("read {}", path.display()))?;
        let name = format!("soak-{run}-{i}");
        let request = pb::UploadBotRequest { name, kind: pb::GameKind::Straight as i32, source };
        let uploaded = bots.upload_bot(keyed(request)?).await.context("upload a bot")?.into_inner();
        let bot = pb::BotSeat { bot_id: uploaded.bot_id, version: uploaded.version };
        seats.push(pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Bot(bot)) });
    }
    Ok(seats)
}

/// A request with the account's key from CLACK_KEY, if set.
fn keyed<T>(message: T) -> anyhow::Result<tonic::Request<T>> {
    let mut request = tonic::Request::new(message);
    if let Ok(key) = std::env::var("CLACK_KEY") {
        request.metadata_mut().insert("authorization", format!("Bearer {key}").parse()?);
    }
    Ok(request)
}

/// Creates one all-bot game and waits, watching it, until it ends.
async fn play(channel: Channel, options: pb::GameOptions, seats: Vec<pb::SeatSpec>, seed: u64) -> anyhow::Result<()> {
    let mut games = GameServiceClient::new(channel);
    let request = pb::CreateGameRequest { options: Some(options), seats, seed: Some(seed) };
    let game_id = games.create_game(keyed(request)?).await.context("create a game")?.into_inner().game_id;
    let watch = pb::WatchRequest { game_id, seat: None, from_sequence: 1 };
    let mut events = games.watch(keyed(watch)?).await.context("watch a game")?.into_inner();
    while let Some(message) = events.message().await.context("the game's events")? {
        if matches!(message.event.and_then(|e| e.payload), Some(pb::event::Payload::GameEnded(_))) {
            return Ok(());
        }
    }
    anyhow::bail!("a game's events ended before the game did")
}

/// The server's resident memory and threads now, from `/proc/PID/status`.
fn sample(pid: u32, finished: usize) -> anyhow::Result<Sample> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).context("read the server's /proc status")?;
    let field = |name: &str| {
        status.lines().find(|line| line.starts_with(name)).and_then(|line| line.split_whitespace().nth(1)?.parse().ok())
    };
    let resident_kib: u32 = field("VmRSS:").context("VmRSS")?;
    let threads: u32 = field("Threads:").context("Threads")?;
    Ok(Sample { finished, resident_mb: f64::from(resident_kib) / 1024.0, threads })
}

/// The highest samples while the first two thirds of the games finished and while the last
/// third did, and the growth between them.
fn report(samples: &[Sample], games: usize) {
    let cut = games * 2 / 3;
    let peak = |keep: &dyn Fn(&Sample) -> bool| {
        samples
            .iter()
            .filter(|s| keep(s))
            .map(|s| (s.resident_mb, s.threads))
            .fold((0.0, 0), |a, b| (f64::max(a.0, b.0), a.1.max(b.1)))
    };
    let (first, first_threads) = peak(&|s| s.finished < cut);
    let (last, last_threads) = peak(&|s| s.finished >= cut);
    println!(
        "highest resident: {first:.1} MB ({first_threads} threads) over the first two thirds, {last:.1} MB \
         ({last_threads} threads) over the last third; growth {:+.1} MB",
        last - first
    );
}
