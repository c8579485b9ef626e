//! `clack store`: tools for a data directory. `fill` plays games between random players (the
//! self-play driver) and writes them through the store's own API, as the server would; `stats`
//! says what a directory holds and checks its layout; `migrate` brings a directory from the
//! per-event layout of an earlier Clack; `compact` rewrites it to give back the space sled keeps;
//! `bench` times listing pages and the replay of sealed games on it.
//!
//! This module drives the store and reports; it does not know the store's keys or formats.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_server::{Hub, Limits};
use clack_store::{Append, Durability, Durable, EventStore, SledStore};
use prost::Message;

use crate::selfplay::{self, TableArgs};

#[derive(Debug, clap::Subcommand)]
pub(crate) enum Command {
    /// Fill a data directory with finished self-played games, written through the store.
    Fill(FillArgs),
    /// What a data directory holds: games, records, bytes; and any breach of its layout.
    Stats(DataArgs),
    /// Bring a data directory from the per-event layout of an earlier Clack to this one.
    Migrate(DataArgs),
    /// Rewrite a data directory (the server stopped) so that sled gives back the space it keeps.
    Compact(DataArgs),
    /// Time ListGames pages (first and middle) and the replay of sealed games.
    Bench(BenchArgs),
}

#[derive(Debug, clap::Args)]
pub(crate) struct DataArgs {
    /// The data directory (as given to `clack serve --data`).
    #[arg(long)]
    data: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(crate) struct FillArgs {
    #[arg(long)]
    data: PathBuf,
    #[command(flatten)]
    table: TableArgs,
    /// How many games to write.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// How many different games to play; when fewer than `--games`, the logs are written again
    /// under new game ids and creation times (for filling a store with a million games quickly).
    #[arg(long)]
    distinct: Option<u64>,
    /// Game `i` is dealt from seed `seed + i`; the seed is also part of every game id, so fills
    /// with different seeds can share a directory.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Moves per append (the first append creates the game and seats the players, as the server
    /// does); 0 writes each game in one append.
    #[arg(long, default_value_t = 0)]
    moves: usize,
    /// Games under way at once: each group of appends takes one step of each, then one flush.
    #[arg(long, default_value_t = 256)]
    concurrent: usize,
    /// Leave every game one append short of its end, so that all stay live (to measure the
    /// records of games under way).
    #[arg(long)]
    live: bool,
    /// Every this many finished games, print the data directory's size on disk (as `du`
    /// counts it) and this process's resident memory: a soak of the store as the server drives
    /// it (0: only the summary at the end).
    #[arg(long, default_value_t = 1000)]
    every: u64,
    /// sled's page cache, in MiB (as `clack serve --cache-mb`).
    #[arg(long, default_value_t = clack_store::DEFAULT_CACHE_MB)]
    cache_mb: u64,
}

#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    #[arg(long)]
    data: PathBuf,
    /// How many times each page is fetched (the median and the slowest are reported).
    #[arg(long, default_value_t = 200)]
    repeat: usize,
    /// How many sealed games are read and replayed.
    #[arg(long, default_value_t = 2000)]
    replay_games: usize,
}

pub(crate) fn run(command: &Command) -> anyhow::Result<()> {
    match command {
        Command::Fill(args) => fill(args),
        Command::Stats(args) => stats(&args.data),
        Command::Migrate(args) => migrate(&args.data),
        Command::Compact(args) => compact(&args.data),
        Command::Bench(args) => crate::runtime()?.block_on(bench(args)),
    }
}

/// A played game, cut into the appends a server would make, with the summary after each.
struct Template {
    events: Vec<pb::Event>,
    /// Where each append ends in `events`, and the game's summary there.
    cuts: Vec<(usize, pb::GameSummary)>,
    players: u8,
}

impl Template {
    fn play(table: &TableArgs, seed: u64, moves: usize) -> anyhow::Result<Template> {
        let options = table.options()?;
        let mut events = selfplay::play(options, "fill", seed)?;
        think(&mut events, seed);
        // A move's events are appended together, as the server does: cuts fall before an action.
        let starts = events.iter().enumerate().filter(|(_, e)| matches!(e.payload, Some(Payload::ActionApplied(_))));
        let mut ends: Vec<usize> =
            if moves == 0 { Vec::new() } else { starts.map(|(i, _)| i).step_by(moves).collect() };
        ends.push(events.len());
        let first = events.first().ok_or_else(|| anyhow::anyhow!("a self-played game has no events"))?;
        let mut log = GameLog::begin(first)?;
        let mut cuts = Vec::new();
        let mut applied = 1;
        for end in ends {
            for event in &events[applied..end] {
                log.apply(event)?;
            }
            applied = end;
            cuts.push((end, clack_server::games::view::summary(&log)));
        }
        Ok(Template { events, cuts, players: options.players() })
    }
}

/// Spaces a self-played game's events (all made within a millisecond or so) as if each move took
/// a player 0.4 to 4 s, so that what is stored is what a real game stores; times become offsets
/// from the start, made absolute when the game is written.
fn think(events: &mut [pb::Event], seed: u64) {
    let mut offset = 0;
    for (i, event) in events.iter_mut().enumerate() {
        if matches!(event.payload, Some(Payload::ActionApplied(_))) {
            let mixed = (seed ^ i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
            offset += 400 + (mixed % 3600) as i64;
        }
        event.unix_millis = offset;
    }
}

/// One game being written: its id, creation time, template and how many appends are done.
struct Writing<'a> {
    id: String,
    created: i64,
    template: &'a Template,
    done: usize,
    /// How many of the template's appends to write.
    appends: usize,
}

impl Writing<'_> {
    /// The next append of this game, under its own id and creation time.
    fn next(&self) -> Append {
        let start = if self.done == 0 { 0 } else { self.template.cuts[self.done - 1].0 };
        let (end, summary) = &self.template.cuts[self.done];
        let events = self.template.events[start..*end]
            .iter()
            .map(|e| pb::Event { game_id: self.id.clone(), unix_millis: self.created + e.unix_millis, ..e.clone() })
            .collect();
        let summary =
            pb::GameSummary { game_id: self.id.clone(), created_unix_millis: self.created, ..summary.clone() };
        Append { game_id: self.id.clone(), expected: start as u64, events, summary }
    }
}

/// A game id shaped like the server's (a UUID v7: creation time first), unique per seed and game.
fn game_id(created: i64, seed: u64, game: u64) -> String {
    let ms = created as u64;
    format!("{:08x}-{:04x}-7{:03x}-8{:03x}-{:012x}", ms >> 16, ms & 0xffff, seed & 0xfff, (game >> 48) & 0xfff, game)
}

#[allow(clippy::print_stdout)] // a command-line report
fn fill(args: &FillArgs) -> anyhow::Result<()> {
    let store = SledStore::open_with(&args.data, clack_store::Settings { cache_mb: args.cache_mb })?;
    let distinct = args.distinct.unwrap_or(args.games).clamp(1, args.games.max(1));
    let started = Instant::now();
    let templates: Vec<Template> = (0..distinct)
        .map(|i| Template::play(&args.table, args.seed.wrapping_add(i), args.moves))
        .collect::<anyhow::Result<_>>()?;
    println!("played {distinct} games in {:.1} s", started.elapsed().as_secs_f64());
    let base = selfplay::now() - args.games as i64;
    let mut next_game = 0u64;
    let start = |next_game: &mut u64| {
        let game = *next_game;
        *next_game += 1;
        let created = base + game as i64;
        let template = &templates[(game % distinct) as usize];
        let appends = template.cuts.len() - usize::from(args.live && template.cuts.len() > 1);
        Writing { id: game_id(created, args.seed, game), created, template, done: 0, appends }
    };
    let mut writing: Vec<Writing> = Vec::new();
    let (mut events, mut old_layout_bytes) = (0u64, 0u64);
    let writing_started = Instant::now();
    let mut next_report = args.every;
    loop {
        while writing.len() < args.concurrent.max(1) && next_game < args.games {
            writing.push(start(&mut next_game));
        }
        if writing.is_empty() {
            break;
        }
        // A new game's owner record and its seats' token records, as the server writes them.
        for game in writing.iter().filter(|game| game.done == 0) {
            store.put(&format!("owner/game/{}", game.id), &[7; 40])?;
            for seat in 0..game.template.players {
                store.put(&format!("token/{}/{seat}", game.id), &[9; 64])?;
            }
        }
        let group: Vec<Append> = writing.iter().map(Writing::next).collect();
        for append in &group {
            events += append.events.len() as u64;
            // What the per-event layout stored: a key of tag, id, zero byte and sequence, and
            // the whole event.
            old_layout_bytes +=
                append.events.iter().map(|e| (append.game_id.len() + 10 + e.encoded_len()) as u64).sum::<u64>();
        }
        for result in store.append_all(&group) {
            result.context("an append failed")?;
        }
        store.flush()?;
        for game in &mut writing {
            game.done += 1;
        }
        writing.retain(|game| game.done < game.appends);
        let written = next_game - writing.len() as u64;
        if args.every > 0 && written >= next_report {
            soak_report(&args.data, written, writing.len(), writing_started.elapsed().as_secs_f64())?;
            next_report += args.every;
        }
    }
    let seconds = writing_started.elapsed().as_secs_f64();
    println!(
        "{} games, {events} events written in {seconds:.1} s ({:.0} games/s, {:.0} events/s)",
        args.games,
        args.games as f64 / seconds,
        events as f64 / seconds
    );
    println!(
        "the per-event layout would have stored {:.1} bytes of key and value per event",
        old_layout_bytes as f64 / events.max(1) as f64
    );
    drop(store);
    stats(&args.data)
}

/// One line of a soak: games finished, games live, seconds, the directory's size on disk, per
/// finished game, and the resident memory of this process.
#[allow(clippy::print_stdout)] // a command-line report
fn soak_report(data: &Path, finished: u64, live: usize, seconds: f64) -> anyhow::Result<()> {
    let bytes = directory_bytes(data)?;
    let rss =
        clack_server::metrics::resident_bytes().map_or_else(|| "?".to_owned(), |b| format!("{:.0}", b as f64 / 1e6));
    println!(
        "soak: {finished} finished, {live} live, {seconds:.1} s, disk {:.1} MB ({:.2} KB per finished game), rss {rss} MB",
        mb(bytes),
        bytes as f64 / finished.max(1) as f64 / 1000.0
    );
    Ok(())
}

/// The bytes every file under `dir` takes on disk, as `du` counts them: the journal's segments
/// are sparse, so their length says little.
fn directory_bytes(dir: &Path) -> anyhow::Result<u64> {
    use std::os::unix::fs::MetadataExt;
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let meta = entry.metadata()?;
        total += if meta.is_dir() { directory_bytes(&entry.path())? } else { meta.blocks() * 512 };
    }
    Ok(total)
}

#[allow(clippy::print_stdout)]
fn stats(data: &Path) -> anyhow::Result<()> {
    let store = SledStore::open(data)?;
    let stats = store.stats()?;
    let bytes = directory_bytes(data)?;
    let per = |total: u64, count: u64| total as f64 / count.max(1) as f64;
    println!(
        "{}: {} games, {:.1} MB on disk ({:.2} KB per game)",
        data.display(),
        stats.games,
        mb(bytes),
        per(bytes, stats.games) / 1000.0
    );
    println!(
        "  live (journal): {} games, {} events, {:.1} bytes per event; the journal takes {:.1} MB",
        stats.live_games,
        stats.live_events,
        per(stats.live_event_bytes, stats.live_events),
        mb(stats.journal_bytes)
    );
    println!(
        "  sealed: {} games ({} settling), {:.0} bytes per game; summaries {:.0} and index {:.0} bytes per game",
        stats.sealed_games,
        stats.settling_games,
        per(stats.sealed_bytes, stats.sealed_games),
        per(stats.summary_bytes, stats.games),
        per(stats.index_bytes, stats.games)
    );
    if stats.problems.is_empty() {
        println!("  layout: sound");
        Ok(())
    } else {
        for problem in stats.problems.iter().take(20) {
            println!("  problem: {problem}");
        }
        anyhow::bail!("{} breaches of the storage layout", stats.problems.len())
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

#[allow(clippy::print_stdout)]
fn migrate(data: &Path) -> anyhow::Result<()> {
    let started = Instant::now();
    let migrated = SledStore::migrate(data)?;
    if migrated.already {
        println!("{} is already in this Clack's layout", data.display());
    } else {
        println!(
            "migrated {} games of the per-event layout ({} sealed, {} events) and moved {} live games into the \
             journal, in {:.1} s",
            migrated.games,
            migrated.sealed,
            migrated.events,
            migrated.journaled,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

#[allow(clippy::print_stdout)]
fn compact(data: &Path) -> anyhow::Result<()> {
    let before = directory_bytes(data)?;
    let started = Instant::now();
    SledStore::compact(data)?;
    let after = directory_bytes(data)?;
    println!(
        "{}: {:.1} MB before, {:.1} MB after, in {:.1} s",
        data.display(),
        mb(before),
        mb(after),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Median and slowest of `times`, in milliseconds.
fn spread(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], times[times.len() - 1])
}

#[allow(clippy::print_stdout)]
async fn bench(args: &BenchArgs) -> anyhow::Result<()> {
    let backend: Arc<dyn EventStore> = Arc::new(SledStore::open(&args.data)?);
    let store = Durable::new(backend.clone(), Durability::Batched)?;
    let opened = Instant::now();
    let hub = Hub::open(store, None, Limits::default()).await?;
    println!("the server opened over the directory in {:.2} s", opened.elapsed().as_secs_f64());
    let first = pb::ListGamesRequest { page_size: 20, ..Default::default() };
    let finished = pb::ListGamesRequest {
        status: pb::GameStatus::Finished as i32,
        kind: pb::GameKind::Straight as i32,
        ..first.clone()
    };
    time_page(&hub, "first page (20 games, no filter)", &first, args.repeat).await?;
    time_page(&hub, "first page (20 finished Straight games)", &finished, args.repeat).await?;
    let (middle, pages, walked) = walk_to_middle(&hub, backend.as_ref()).await?;
    println!(
        "walked {pages} pages of 100 to the middle in {walked:.1} s ({:.2} ms a page)",
        walked * 1000.0 / pages.max(1) as f64
    );
    time_page(&hub, "middle page (20 games, no filter)", &middle, args.repeat).await?;
    let store = backend.clone();
    let limit = args.replay_games;
    tokio::task::spawn_blocking(move || replay_sealed(store.as_ref(), limit)).await??;
    Ok(())
}

#[allow(clippy::print_stdout)]
async fn time_page(hub: &Hub, what: &str, request: &pb::ListGamesRequest, repeat: usize) -> anyhow::Result<()> {
    let mut times = Vec::with_capacity(repeat);
    let mut games = 0;
    for _ in 0..repeat.max(1) {
        let started = Instant::now();
        games = hub.list(request).await?.games.len();
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (median, slowest) = spread(&mut times);
    println!("ListGames {what}: {games} games, median {median:.3} ms, slowest {slowest:.3} ms of {repeat}");
    Ok(())
}

/// Pages through half the games 100 at a time; returns the request for the page there.
async fn walk_to_middle(hub: &Hub, store: &dyn EventStore) -> anyhow::Result<(pb::ListGamesRequest, u64, f64)> {
    let count = store_games(store)?;
    let started = Instant::now();
    let mut request = pb::ListGamesRequest { page_size: 100, ..Default::default() };
    let mut pages = 0;
    while pages * 100 < count / 2 {
        let page = hub.list(&request).await?;
        pages += 1;
        if page.next_page_token.is_empty() {
            break;
        }
        request.page_token = page.next_page_token;
    }
    request.page_size = 20;
    Ok((request, pages, started.elapsed().as_secs_f64()))
}

/// How many games the store holds, from its summaries' keys (read once, for the walk's length).
fn store_games(store: &dyn EventStore) -> anyhow::Result<u64> {
    Ok(store.summaries()?.len() as u64)
}

fn cpu_since(start: Option<f64>) -> Option<f64> {
    crate::bench::process_cpu().zip(start).map(|(now, then)| now - then).filter(|&cpu| cpu > 0.0)
}

/// Reads sealed games from the store and rebuilds each, as `VerifyGame` does.
#[allow(clippy::print_stdout)]
fn replay_sealed(store: &dyn EventStore, limit: usize) -> anyhow::Result<()> {
    let finished = pb::GameStatus::Finished as i32;
    let mut ids = Vec::new();
    let mut after = None;
    while ids.len() < limit {
        let page = store.list(&clack_store::ListQuery { kind: 0, status: finished, after, limit: 100 })?;
        ids.extend(page.games.into_iter().map(|s| s.game_id));
        match page.next {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    ids.truncate(limit);
    // CPU time as well as wall time: on a shared machine the wall clock also counts the time
    // other processes had the core.
    let (started, cpu) = (Instant::now(), crate::bench::process_cpu());
    let mut events = 0;
    for id in &ids {
        events += store.read(id, 1)?.len();
    }
    let read = (started.elapsed().as_secs_f64(), cpu_since(cpu));
    let (started, cpu) = (Instant::now(), crate::bench::process_cpu());
    replay_each(store, &ids)?;
    let replayed = (started.elapsed().as_secs_f64(), cpu_since(cpu));
    // Games replay independently, so a verification or an export of many games can use every
    // core; this is that throughput, beside the one-core figure above.
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let (started, cpu) = (Instant::now(), crate::bench::process_cpu());
    std::thread::scope(|scope| {
        let chunk = ids.len().div_ceil(threads).max(1);
        let workers: Vec<_> = ids.chunks(chunk).map(|part| scope.spawn(move || replay_each(store, part))).collect();
        workers.into_iter().try_for_each(|w| w.join().map_err(|_| anyhow::anyhow!("a replay thread panicked"))?)
    })?;
    let parallel = (started.elapsed().as_secs_f64(), cpu_since(cpu));
    let rate = |(wall, cpu): (f64, Option<f64>)| {
        let per_cpu = cpu.map_or("?".to_owned(), |cpu| format!("{:.0}", events as f64 / cpu));
        format!("{:.0} events/s ({per_cpu} per CPU-second)", events as f64 / wall)
    };
    println!("sealed games read back: {} games, {events} events", ids.len());
    println!("  read and decoded: {}", rate(read));
    println!("  read, decoded and replayed: {}", rate(replayed));
    println!("  read, decoded and replayed on {threads} threads: {}", rate(parallel));
    Ok(())
}

/// Reads and rebuilds each game, as `VerifyGame` does.
fn replay_each(store: &dyn EventStore, ids: &[String]) -> anyhow::Result<()> {
    for id in ids {
        let log = store.read(id, 1)?;
        let game = GameLog::replay(&log)?;
        anyhow::ensure!(game.sequence() == log.len() as u64, "game {id} does not replay whole");
    }
    Ok(())
}
