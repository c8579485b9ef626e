//! `clack db bench`: how fast `ListGames` answers from the shared game index, at the size a
//! cluster reaches. It fills the index with synthetic games of a shard named `bench` (a mix of
//! kinds and statuses like a busy server's: nearly all finished, a few active or waiting), then
//! times pages through the same function `ListGames` calls, over a pooled connection as a
//! shard's, and prints the median and 99th percentile per case.
//!
//! It writes into the database it is given, so it refuses one that holds another shard's games.

use std::time::{Duration, Instant};

use anyhow::Context;
use clack_proto::v1 as pb;
use clack_server::cluster::Database;
use clack_server::games::index;
use clack_store::{Cursor, ListQuery};

/// The synthetic shard's name.
const SHARD: &str = "bench";
/// Games written per statement while filling.
const FILL_BATCH: usize = 5_000;
/// Fifty bots share the seats of one synthetic game in three; this one holds one seat in 150.
const COMMON_BOT: &str = "bot-7";
/// A bot seated in one synthetic game in 10,000.
const RARE_BOT: &str = "bot-rare";

#[allow(clippy::print_stdout)] // the command's report
pub(crate) async fn run(url: &str, games: usize, rounds: usize, server: Option<&str>) -> anyhow::Result<()> {
    let database = Database::new(url.trim()).map_err(|e| anyhow::anyhow!("{e}"))?;
    database.migrate().await.map_err(|e| anyhow::anyhow!("{e}")).context(database.shown().to_owned())?;
    let had = fill(&database, games).await?;
    println!("{}: {games} games in the index ({had} were there); {rounds} queries per case", database.shown());
    let middle = middle_cursor(&database, games).await?;
    let straight = pb::GameKind::Straight as i32;
    let streets = pb::GameKind::Streets as i32;
    let cases = [
        ("first page, no filter (20)", ListQuery { kind: 0, status: 0, after: None, limit: 20 }),
        ("first page, 100 games", ListQuery { kind: 0, status: 0, after: None, limit: 100 }),
        ("first page, Straight only", ListQuery { kind: straight, status: 0, after: None, limit: 20 }),
        (
            "first page, finished",
            ListQuery { kind: 0, status: pb::GameStatus::Finished as i32, after: None, limit: 20 },
        ),
        (
            "first page, active (rare)",
            ListQuery { kind: 0, status: pb::GameStatus::Active as i32, after: None, limit: 20 },
        ),
        (
            "first page, Streets waiting (rarest)",
            ListQuery { kind: streets, status: pb::GameStatus::Waiting as i32, after: None, limit: 20 },
        ),
        ("a page half-way down (cursor)", ListQuery { kind: 0, status: 0, after: Some(middle), limit: 20 }),
    ];
    let first = ListQuery { kind: 0, status: 0, after: None, limit: 20 };
    let bot_cases = [
        ("a bot's first page (in 1 game of 50)", first.clone(), COMMON_BOT),
        ("a rare bot's first page (1 in 10,000)", first.clone(), RARE_BOT),
        ("a bot's first page, Streets only", ListQuery { kind: streets, ..first.clone() }, COMMON_BOT),
        (
            "a bot's live games (1 in 100 of its own)",
            ListQuery { status: pb::GameStatus::Active as i32, ..first },
            COMMON_BOT,
        ),
    ];
    println!("{:<40} {:>10} {:>10} {:>6}", "case", "median ms", "p99 ms", "games");
    let cases = cases.into_iter().map(|(name, query)| (name, query, None));
    let bot_cases = bot_cases.into_iter().map(|(name, query, bot)| (name, query, Some(bot)));
    for (name, query, bot) in cases.chain(bot_cases) {
        let (median, p99, got) = time(&database, &query, bot, rounds).await?;
        println!("{name:<40} {:>10.3} {:>10.3} {got:>6}", ms(median), ms(p99));
    }
    if let Some(server) = server {
        let (median, p99, got) = time_grpc(server, rounds).await?;
        println!("{:<40} {:>10.3} {:>10.3} {got:>6}", "ListGames over gRPC, first page", ms(median), ms(p99));
    }
    Ok(())
}

/// Times `rounds` first pages of `ListGames` on a running shard, over one connection.
async fn time_grpc(server: &str, rounds: usize) -> anyhow::Result<(Duration, Duration, usize)> {
    use clack_proto::v1::game_service_client::GameServiceClient;
    let mut client =
        GameServiceClient::connect(server.to_owned()).await.with_context(|| format!("connecting to {server}"))?;
    let got = client.list_games(pb::ListGamesRequest::default()).await?.into_inner().games.len();
    let mut took = Vec::with_capacity(rounds);
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        client.list_games(pb::ListGamesRequest::default()).await?;
        took.push(start.elapsed());
    }
    Ok(percentiles(took, got))
}

/// The median and 99th percentile of `took`, with the page size seen.
fn percentiles(mut took: Vec<Duration>, got: usize) -> (Duration, Duration, usize) {
    took.sort();
    let at = |q: f64| took[((took.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99), got)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Times `rounds` pages of `query` (after one warm-up); answers the median, the 99th percentile
/// and how many games a page held.
async fn time(
    database: &Database,
    query: &ListQuery,
    bot: Option<&str>,
    rounds: usize,
) -> anyhow::Result<(Duration, Duration, usize)> {
    let got = index::list(database, query, bot).await.map_err(|e| anyhow::anyhow!("{e}"))?.games.len();
    let mut took = Vec::with_capacity(rounds);
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        index::list(database, query, bot).await.map_err(|e| anyhow::anyhow!("{e}"))?;
        took.push(start.elapsed());
    }
    Ok(percentiles(took, got))
}

/// Adds synthetic games until the index holds `games`; answers how many it held before.
async fn fill(database: &Database, games: usize) -> anyhow::Result<usize> {
    let (total, others) = counts(database).await?;
    anyhow::ensure!(
        others == 0,
        "{}: the index holds {others} games of real shards; bench only a database of its own",
        database.shown()
    );
    // Games indexed before their bots were (their sequence set below any real one by the
    // migration) are written again, so that every game's bots are in the index.
    let mut at = if stale(database).await? > 0 { 0 } else { total };
    while at < games {
        let batch: Vec<pb::GameSummary> = (at..games.min(at + FILL_BATCH)).map(synthetic).collect();
        index::upsert(database, SHARD, &batch, &std::collections::HashMap::new())
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        at += batch.len();
    }
    database
        .call("ANALYZE", async |client| Ok(client.batch_execute("ANALYZE games; ANALYZE game_bots").await?))
        .await?;
    Ok(total)
}

/// Rows whose sequence is below any real game's: indexed before the index kept their bots.
async fn stale(database: &Database) -> anyhow::Result<i64> {
    let row = database
        .call("counting stale rows", async |client| {
            Ok(client.query_one("SELECT count(*) FROM games WHERE sequence < 0", &[]).await?)
        })
        .await?;
    Ok(row.get(0))
}

/// (games in the index, games of shards other than the bench's).
async fn counts(database: &Database) -> anyhow::Result<(usize, usize)> {
    let row = database
        .call("counting the index", async |client| {
            Ok(client.query_one("SELECT count(*), count(*) FILTER (WHERE shard <> $1) FROM games", &[&SHARD]).await?)
        })
        .await?;
    Ok((row.get::<_, i64>(0) as usize, row.get::<_, i64>(1) as usize))
}

/// The cursor of the game half-way down the newest-first listing.
async fn middle_cursor(database: &Database, games: usize) -> anyhow::Result<Cursor> {
    let row = database
        .call("finding the middle", async |client| {
            let middle = (games / 2) as i64;
            Ok(client
                .query_one(
                    "SELECT created_unix_millis, id FROM games ORDER BY created_unix_millis DESC, id DESC \
                     OFFSET $1 LIMIT 1",
                    &[&middle],
                )
                .await?)
        })
        .await?;
    Ok(Cursor { created_unix_millis: row.get(0), game_id: row.get(1) })
}

/// Game number `n`: a year of games, a minute apart on average; 70% Straight; nearly all
/// finished, one in 100 active and one in 100 waiting (of both kinds); two to four seats with
/// names, a third of them bots (fifty bots in turn), and [`RARE_BOT`] in one game in 10,000.
fn synthetic(n: usize) -> pb::GameSummary {
    let created = 1_750_000_000_000 + n as i64 * 31_536;
    let kind = if n % 10 < 7 { pb::GameKind::Straight } else { pb::GameKind::Streets };
    let status = match n % 200 {
        0 | 7 => pb::GameStatus::Active,
        1 | 8 => pb::GameStatus::Waiting,
        _ => pb::GameStatus::Finished,
    };
    let players = 2 + (n % 3) as u32;
    let seats = (0..players)
        .map(|seat| pb::SeatSummary {
            seat,
            taken: true,
            name: format!("player {}", (n + seat as usize) % 997),
            bot: synthetic_bot(n, seat as usize),
        })
        .collect();
    pb::GameSummary {
        game_id: format!("{SHARD}_{n:012}"),
        kind: kind as i32,
        status: status as i32,
        seats,
        sequence: 80 + (n % 60) as u64,
        created_unix_millis: created,
        winners: if status == pb::GameStatus::Finished { vec![(n % players as usize) as u32] } else { Vec::new() },
        ..Default::default()
    }
}

/// The bot at `seat` of game `n`, if any.
fn synthetic_bot(n: usize, seat: usize) -> Option<pb::BotSeat> {
    let bot_id = if seat == 0 && n % 10_000 == 5 {
        RARE_BOT.to_owned()
    } else if (n + seat).is_multiple_of(3) {
        // A hash of the game's number, so that which bot sits here says nothing of the game's
        // kind or status (both follow the number's residues).
        let mixed = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        format!("bot-{}", (mixed + seat as u64) % 50)
    } else {
        return None;
    };
    Some(pb::BotSeat { bot_id, version: "v1".to_owned() })
}
