//! `clack replay`: a game move by move, with the table after every move. The log comes from a
//! running server (`--addr`, finished games only: the full log opens at the end) or from a JSON
//! lines export (`--file`, as written by `selfplay --export` or `ReplayService.Export`).

use std::path::PathBuf;

use anyhow::{Context, bail};
use clack_log::{GameLog, json};
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The game's id.
    pub(crate) game: String,
    /// A server to fetch the log from, e.g. http://127.0.0.1:50051.
    #[arg(long, conflicts_with = "file")]
    pub(crate) addr: Option<String>,
    /// A JSON lines export to read the log from.
    #[arg(long)]
    pub(crate) file: Option<PathBuf>,
}

/// The events of the game `args` names, from a server or a file.
pub(crate) async fn events(args: &Args) -> anyhow::Result<Vec<pb::Event>> {
    if let Some(addr) = &args.addr {
        let mut client = clack_proto::v1::replay_service_client::ReplayServiceClient::connect(addr.clone()).await?;
        let mut request = tonic::Request::new(pb::GetLogRequest { game_id: args.game.clone() });
        // The game's id as routing metadata, so that a proxy in front of shards finds its shard.
        request.metadata_mut().insert(clack_server::games::shard::GAME_HEADER, args.game.parse()?);
        return Ok(client.get_log(request).await?.into_inner().events);
    }
    let Some(path) = &args.file else { bail!("give --addr or --file") };
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut events = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let event = json::from_line(line).with_context(|| format!("line {} is not an event", number + 1))?;
        if event.game_id == args.game {
            events.push(event);
        }
    }
    Ok(events)
}

pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let events = events(args).await?;
    match print(&args.game, &events) {
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) => {
            Ok(())
        }
        other => other,
    }
}

fn print(game: &str, events: &[pb::Event]) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let first = events.first().with_context(|| format!("no events for game {game}"))?;
    let mut log = GameLog::begin(first)?;
    writeln!(out, "game {game} — {}", log.game().kind().name())?;
    for event in &events[1..] {
        log.apply(event).with_context(|| format!("event {} does not replay", event.sequence))?;
        let line = describe(event, log.game());
        if line.is_empty() {
            continue;
        }
        writeln!(out, "#{:<4} {line}", event.sequence)?;
        if matches!(event.payload, Some(Payload::ActionApplied(_))) {
            for row in log.game().render().lines() {
                writeln!(out, "        {row}")?;
            }
        }
    }
    log.finish_replay()?;
    let winners = log.ended().map(|e| e.winners.clone()).unwrap_or_default();
    writeln!(out, "final scores {:?}, winners {winners:?}", log.game().scores())?;
    Ok(())
}

fn tiles(hand: &pb::Hand) -> String {
    hand.tiles.iter().map(|t| format!("{}-{}", t.low, t.high)).collect::<Vec<_>>().join(" ")
}

fn describe(event: &pb::Event, game: &clack_rules::Game) -> String {
    match &event.payload {
        Some(Payload::SeatJoined(j)) => format!("seat {} joined: {}", j.seat, j.name),
        Some(Payload::LeadDrawn(d)) => format!("draw for the lead; seat {} leads", d.leader),
        Some(Payload::Dealt(d)) => {
            let hands: Vec<String> = d.hands.iter().map(|h| format!("seat {}: {}", h.seat, tiles(h))).collect();
            format!("deal (round {}) — {}", d.round, hands.join(" | "))
        }
        Some(Payload::TileDrawn(d)) => {
            let tile = d.tile.as_ref().map_or_else(|| "a tile".into(), |t| format!("{}-{}", t.low, t.high));
            format!("seat {} draws {tile}", d.seat)
        }
        Some(Payload::ActionApplied(a)) => {
            let action = clack_log::convert::stored_action(a.action.as_ref(), game)
                .map_or_else(|e| e.to_string(), |a| a.to_string());
            format!("seat {}: {action} ({} points)", a.seat, a.points)
        }
        Some(Payload::BotFaulted(f)) => {
            format!("bot {} at seat {} faulted ({}): {}", f.bot_id, f.seat, f.reason, f.detail)
        }
        Some(Payload::RoundEnded(r)) => {
            format!("round {} ends: winner {:?}, {} points; scores {:?}", r.round, r.winner, r.points, r.scores)
        }
        Some(Payload::SeatResigned(r)) => format!("seat {} resigns", r.seat),
        Some(Payload::SeatTimedOut(t)) => {
            let policy = clack_proto::v1::TimeoutPolicy::try_from(t.policy).map_or("?", |p| p.as_str_name());
            format!("seat {} runs out of time ({policy})", t.seat)
        }
        Some(Payload::GameAbandoned(a)) => format!("the game is abandoned ({})", a.reason),
        Some(Payload::GameEnded(e)) => {
            format!("game over ({}): winners {:?}, scores {:?}", e.reason, e.winners, e.scores)
        }
        Some(Payload::GameCreated(_)) | None => String::new(),
    }
}
