//! `clack analyze`, `clack export` and `clack fork`: the binary's side of analysis. The numbers
//! and tables are made by `clack-analysis`; this module only reads the logs (JSON lines files,
//! or a server's finished games) and writes the files asked for.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clack_analysis::{Analysis, Rejections, Tables, analyze_input, for_each_game_in, report, verify};
use clack_proto::v1 as pb;
use clack_proto::v1::replay_service_client::ReplayServiceClient;
use indicatif::{ProgressBar, ProgressStyle};
use tonic::Request;

/// Where the logs come from.
#[derive(Debug, clap::Args)]
pub(crate) struct Source {
    /// JSON lines exports (`clack selfplay --export`, `ReplayService.Export`), games one after
    /// another.
    files: Vec<PathBuf>,
    /// Read every finished game from this server instead, e.g. http://127.0.0.1:50051 (an API key
    /// for a closed server comes from CLACK_KEY).
    #[arg(long, conflicts_with = "files")]
    server: Option<String>,
}

#[derive(Debug, clap::Args)]
pub(crate) struct AnalyzeArgs {
    #[command(flatten)]
    source: Source,
    /// Write the report as one self-contained HTML file with SVG charts.
    #[arg(long)]
    html: Option<PathBuf>,
    /// Write every number of the summary as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    /// Flat tables (games, seats, moves, rounds) as Parquet files in the directory `--out`.
    Parquet,
    /// The games' logs as they are, JSON lines in the file `--out`.
    Jsonl,
}

#[derive(Debug, clap::Args)]
pub(crate) struct ExportArgs {
    #[command(flatten)]
    source: Source,
    #[arg(long, value_enum, default_value = "parquet")]
    format: Format,
    /// A directory (parquet) or a file (jsonl). Each table is written as .NAME.parquet.partial
    /// and renamed to NAME.parquet only once complete.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(crate) struct ForkArgs {
    /// The finished game to fork.
    game: String,
    /// The event after which the fork starts.
    sequence: u64,
    /// The server, e.g. http://127.0.0.1:50051 (an API key for a closed server comes from
    /// CLACK_KEY).
    #[arg(long)]
    server: String,
    /// One per seat, in seat order: `open`, or `bot:BOT_ID:VERSION`. None: every seat open.
    #[arg(long = "seat")]
    seats: Vec<String>,
    /// The seed of every chance outcome after the fork (default: the server picks one).
    #[arg(long)]
    seed: Option<u64>,
    /// Re-deal what this seat could not see at the fork point (the other hands and the
    /// boneyard), sampled from its knowledge and the seed.
    #[arg(long)]
    redeal_for: Option<u32>,
}

#[allow(clippy::print_stdout)] // the command's report
pub(crate) async fn analyze(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let analysis = match &args.source.server {
        Some(server) => {
            let mut analysis = Analysis::default();
            server_games(server, |game, review| {
                analysis.add_reviewed_game(&game, review.as_ref());
                Ok(())
            })
            .await?;
            analysis
        }
        None => analyze_files(&args.source.files, args.threads)?,
    };
    let summary = analysis.summary();
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&summary)?;
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(path) = &args.html {
        let html = report::html(&summary, "Clack analysis")?;
        std::fs::write(path, html).with_context(|| format!("cannot write {}", path.display()))?;
    }
    let counted = format!("{} games in {:.2} s", summary.games, started.elapsed().as_secs_f64());
    print_counts(&counted, summary.rejected, &summary.first_rejections);
    for group in &summary.groups {
        println!(
            "{} {}: {} games, {:.2} rounds and {:.1} actions per game",
            group.kind, group.options, group.games, group.rounds.mean, group.length.mean
        );
        for seat in &group.seats {
            let share = seat.win_share;
            println!(
                "  seat {}: win share {:.3} ± {:.3} (advantage {:+.3})",
                seat.seat, share.mean, share.ci95, seat.advantage
            );
        }
    }
    print_reviews(&summary.reviews);
    Ok(())
}

/// The engine's reviews per player: how its decisions were labelled, its loss and its luck.
#[allow(clippy::print_stdout)] // the command's report
fn print_reviews(reviews: &[clack_analysis::reviewed::PlayerReview]) {
    for player in reviews {
        let labels = clack_analysis::reviewed::LABELS
            .iter()
            .map(|l| format!("{} {l}", player.labels.0.get(*l).copied().unwrap_or(0)))
            .collect::<Vec<_>>()
            .join(", ");
        println!(
            "{} reviewed by engine:{}, {}: {} games, {} decisions ({labels}; {:.1}% best or good), \
             loss {:.2} ± {:.2} points per decision, luck {:+.1} ± {:.1} points per game",
            player.kind,
            player.level,
            player.player,
            player.games,
            player.decisions,
            100.0 * player.accuracy(),
            player.loss.mean,
            player.loss.ci95,
            player.luck.mean,
            player.luck.ci95
        );
    }
}

fn analyze_files(files: &[PathBuf], threads: Option<usize>) -> anyhow::Result<Analysis> {
    if files.is_empty() {
        bail!("give export files or --server");
    }
    let threads = threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let total: u64 = files.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).sum();
    let bar = progress(total);
    let mut analysis = Analysis::default();
    for path in files {
        // Streamed in chunks: the file is never in memory whole.
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let base = bar.position();
        let part = analyze_input(file, threads, &|done| bar.set_position(base + done))
            .with_context(|| format!("in {}", path.display()))?;
        analysis.merge(part);
    }
    bar.finish_and_clear();
    Ok(analysis)
}

/// The first line of a report, with the number of games left out, then the first of them by
/// name: `clack analyze` and `clack export` word them alike.
#[allow(clippy::print_stdout)] // the command's report
fn print_counts(counted: &str, rejected: u64, named: &[String]) {
    println!("{counted}; {rejected} logs did not replay");
    for rejection in named {
        println!("  rejected: {rejection}");
    }
}

/// A byte-count progress bar on standard error (hidden when that is not a terminal).
fn progress(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {elapsed} (eta {eta})") {
        bar.set_style(style);
    }
    bar
}

pub(crate) async fn export(args: &ExportArgs) -> anyhow::Result<()> {
    let mut sink = Sink::create(args)?;
    let mut games = 0u64;
    match &args.source.server {
        Some(server) => {
            server_games(server, |game, review| {
                games += 1;
                sink.add(&game, review.as_ref())
            })
            .await?
        }
        None => {
            if args.source.files.is_empty() {
                bail!("give export files or --server");
            }
            for path in &args.source.files {
                let file = std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
                let mut failed = None;
                for_each_game_in(file, |game| {
                    if failed.is_none() {
                        games += 1;
                        failed = sink.add(game, None).err();
                    }
                })
                .with_context(|| format!("in {}", path.display()))?;
                if let Some(error) = failed {
                    return Err(error);
                }
            }
        }
    }
    let rejections = sink.rejections().clone();
    sink.finish()?;
    let written = games - rejections.count();
    print_counts(&format!("{written} games written to {}", args.out.display()), rejections.count(), rejections.first());
    Ok(())
}

/// Where `clack export` writes. Both formats take only the games that pass the analysis's rule
/// (`verify`): a finished game whose log replays.
enum Sink {
    Tables(Box<Tables>),
    Lines { out: std::io::BufWriter<std::fs::File>, rejections: Rejections },
}

impl Sink {
    fn create(args: &ExportArgs) -> anyhow::Result<Sink> {
        Ok(match args.format {
            Format::Parquet => Sink::Tables(Box::new(Tables::create(&args.out)?)),
            Format::Jsonl => {
                let file = std::fs::File::create(&args.out)
                    .with_context(|| format!("cannot create {}", args.out.display()))?;
                Sink::Lines { out: std::io::BufWriter::new(file), rejections: Rejections::default() }
            }
        })
    }

    /// Writes a game (and its review's decisions, for the tables), or notes it as left out;
    /// only a failed write is an error.
    fn add(&mut self, game: &[pb::Event], review: Option<&pb::GameReview>) -> anyhow::Result<()> {
        use std::io::Write;
        match self {
            Sink::Tables(tables) => tables.add_reviewed_game(game, review)?,
            Sink::Lines { out, rejections } => match verify::replay(game, |_, _| {}) {
                Ok(_) => {
                    for event in game {
                        writeln!(out, "{}", clack_log::json::to_line(event))?;
                    }
                }
                Err(reason) => rejections.add(game, &reason),
            },
        }
        Ok(())
    }

    fn rejections(&self) -> &Rejections {
        match self {
            Sink::Tables(tables) => tables.rejections(),
            Sink::Lines { rejections, .. } => rejections,
        }
    }

    fn finish(self) -> anyhow::Result<()> {
        use std::io::Write;
        match self {
            Sink::Tables(tables) => tables.finish()?,
            Sink::Lines { mut out, .. } => out.flush()?,
        }
        Ok(())
    }
}

/// The review a server keeps of a listed game: at the default level if there is one, else the
/// first level listed.
async fn kept_review(
    replay: &mut ReplayServiceClient<tonic::transport::Channel>,
    summary: &pb::GameSummary,
) -> anyhow::Result<Option<pb::GameReview>> {
    let level = summary.reviewed.iter().find(|l| *l == "default").or(summary.reviewed.first());
    let Some(level) = level else { return Ok(None) };
    let request = pb::ReviewGameRequest { game_id: summary.game_id.clone(), level: level.clone(), kept_only: true };
    let mut replies = replay.review_game(keyed(request)?).await?.into_inner();
    while let Some(reply) = replies.message().await? {
        if let Some(pb::review_game_response::Body::Review(review)) = reply.body {
            return Ok(Some(review));
        }
    }
    Ok(None)
}

/// A request carrying the caller's API key, if CLACK_KEY holds one.
fn keyed<T>(message: T) -> anyhow::Result<Request<T>> {
    let mut request = Request::new(message);
    if let Ok(key) = std::env::var("CLACK_KEY") {
        request
            .metadata_mut()
            .insert(clack_server::who::access::KEY_HEADER, key.trim().parse().context("CLACK_KEY is not text")?);
    }
    Ok(request)
}

/// Calls `each` with every finished game on a server, page by page, oldest first within a page,
/// and the engine review the server keeps of it, if any (the default level's when it has several).
async fn server_games(
    server: &str,
    mut each: impl FnMut(Vec<pb::Event>, Option<pb::GameReview>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let channel = tonic::transport::Endpoint::from_shared(server.to_owned())?
        .connect()
        .await
        .with_context(|| format!("cannot reach {server}"))?;
    let mut games = clack_proto::v1::game_service_client::GameServiceClient::new(channel.clone());
    let mut replay = ReplayServiceClient::new(channel);
    let mut page_token = String::new();
    loop {
        let list = pb::ListGamesRequest {
            page_size: 100,
            page_token: page_token.clone(),
            status: pb::GameStatus::Finished as i32,
            ..pb::ListGamesRequest::default()
        };
        let page = games.list_games(keyed(list)?).await?.into_inner();
        for summary in page.games {
            let request = keyed(pb::GetLogRequest { game_id: summary.game_id.clone() })?;
            let log = replay.get_log(request).await.with_context(|| format!("cannot read game {}", summary.game_id))?;
            let review = kept_review(&mut replay, &summary).await?;
            each(log.into_inner().events, review)?;
        }
        if page.next_page_token.is_empty() {
            return Ok(());
        }
        page_token = page.next_page_token;
    }
}

#[allow(clippy::print_stdout)] // the command's report
pub(crate) async fn fork(args: &ForkArgs) -> anyhow::Result<()> {
    let seats = args.seats.iter().map(|s| seat_spec(s)).collect::<anyhow::Result<Vec<_>>>()?;
    let mut client = ReplayServiceClient::connect(args.server.clone()).await?;
    let request = pb::ForkGameRequest {
        game_id: args.game.clone(),
        sequence: args.sequence,
        seats,
        seed: args.seed,
        redeal_for: args.redeal_for,
    };
    let reply = client.fork_game(keyed(request)?).await?.into_inner();
    let game = reply.game.context("the server sent no game")?;
    println!(
        "game {} (forked from {} after event {}), at sequence {}",
        game.game_id, args.game, args.sequence, game.sequence
    );
    if !game.owner_token.is_empty() {
        println!("owner token (shown once): {}", game.owner_token);
    }
    Ok(())
}

/// `open` or `bot:BOT_ID:VERSION`.
fn seat_spec(text: &str) -> anyhow::Result<pb::SeatSpec> {
    let occupant = match text.split(':').collect::<Vec<_>>().as_slice() {
        ["open"] => pb::seat_spec::Occupant::Open(pb::OpenSeat {}),
        ["bot", bot_id, version] => {
            pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: (*bot_id).to_owned(), version: (*version).to_owned() })
        }
        _ => bail!("a seat is `open` or `bot:BOT_ID:VERSION`, not {text:?}"),
    };
    Ok(pb::SeatSpec { occupant: Some(occupant) })
}
