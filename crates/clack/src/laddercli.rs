//! `clack bot upload` and `clack ladder`: a running server's bots and ladder from the command
//! line, through the public `BotService` (an API key for a closed server comes from CLACK_KEY;
//! an owner token for an open one from CLACK_OWNER_TOKEN).

use std::path::PathBuf;

use anyhow::Context;
use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use tonic::Request;

#[derive(Debug, clap::Args)]
pub(crate) struct UploadArgs {
    /// The script.
    file: PathBuf,
    /// The server, e.g. http://127.0.0.1:50051.
    #[arg(long)]
    addr: String,
    /// The bot's name (its id); default: the file's stem.
    #[arg(long)]
    name: Option<String>,
    /// Which game it plays.
    #[arg(long, value_enum)]
    game: crate::selfplay::GameArg,
}

#[derive(Debug, clap::Args)]
pub(crate) struct LadderArgs {
    /// The server, e.g. http://127.0.0.1:50051.
    #[arg(long)]
    addr: String,
    /// straight-2, straight-4-teams or streets-3.
    #[arg(long, default_value = "straight-2")]
    configuration: String,
}

/// A request with the caller's key or owner token from the environment, if any.
fn request<T>(message: T) -> anyhow::Result<Request<T>> {
    let mut request = Request::new(message);
    for (variable, header) in [("CLACK_KEY", "x-clack-key"), ("CLACK_OWNER_TOKEN", "x-clack-owner-token")] {
        if let Ok(value) = std::env::var(variable) {
            request
                .metadata_mut()
                .insert(header, value.trim().parse().with_context(|| format!("{variable} is not text"))?);
        }
    }
    Ok(request)
}

#[allow(clippy::print_stdout)] // the command's report
pub(crate) async fn upload(args: &UploadArgs) -> anyhow::Result<()> {
    let source = std::fs::read_to_string(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let name = match &args.name {
        Some(name) => name.clone(),
        None => args.file.file_stem().map(|s| s.to_string_lossy().into_owned()).context("name the bot: --name")?,
    };
    let kind = match args.game {
        crate::selfplay::GameArg::Straight => pb::GameKind::Straight,
        crate::selfplay::GameArg::Streets => pb::GameKind::Streets,
    };
    let mut bots =
        BotServiceClient::connect(args.addr.clone()).await.with_context(|| format!("cannot reach {}", args.addr))?;
    let upload = pb::UploadBotRequest { name, kind: kind as i32, source };
    let uploaded = bots.upload_bot(request(upload)?).await?.into_inner();
    println!("{} version {}", uploaded.bot_id, uploaded.version);
    if !uploaded.owner_token.is_empty() {
        println!("owner token (shown once; send it as CLACK_OWNER_TOKEN): {}", uploaded.owner_token);
    }
    Ok(())
}

#[allow(clippy::print_stdout)] // the command's report
pub(crate) async fn ladder(args: &LadderArgs) -> anyhow::Result<()> {
    let mut bots =
        BotServiceClient::connect(args.addr.clone()).await.with_context(|| format!("cannot reach {}", args.addr))?;
    let mut page_token = String::new();
    let mut first = true;
    loop {
        let page = pb::GetLeaderboardRequest { configuration: args.configuration.clone(), page_size: 100, page_token };
        let board = bots.get_leaderboard(request(page)?).await?.into_inner();
        if first {
            let running = if board.running { "running" } else { "not running" };
            println!("ladder {} ({running}), {} deals", args.configuration, board.deals);
            println!(
                "{:>4} {:<40} {:>8} {:>8} {:>7} {:>9}",
                "rank", "bot@version", "rating", "±95%", "games", "win share"
            );
            first = false;
        }
        for e in &board.entries {
            let mark = if e.anchor {
                " (anchor)"
            } else if e.retired {
                " (retired)"
            } else {
                ""
            };
            println!(
                "{:>4} {:<40} {:>8.1} {:>8.1} {:>7} {:>9.3}{mark}",
                e.rank,
                format!("{}@{}", e.bot_id, e.version),
                e.rating,
                e.ci95,
                e.games,
                e.win_share
            );
        }
        if board.next_page_token.is_empty() {
            return Ok(());
        }
        page_token = board.next_page_token;
    }
}
