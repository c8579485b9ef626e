//! The cluster's game index: every shard's games in one table, so that `ListGames` on any shard
//! is one indexed query, newest first, paged by a keyset cursor.
//!
//! A shard tells its [`Index`] about a game when the game is created, while its seats fill, when
//! it starts and when it ends, and when a review of it is kept ([`Index::note`]: a send on a
//! channel, never a wait). One task writes what it is told in batches, gathered for 100 ms so
//! that a game's creation, seats and start make one row write. The shard's store is the
//! truth and the index a projection of it: when a write fails (the database is away), the task
//! drops what it held and, once the database answers again, *reconciles*: it reads the shard's
//! own listing page by page and writes every game whose row is missing or behind. It does the
//! same at start, for whatever a crash or an outage left unwritten. Every write is an upsert that
//! never takes a row back to an older sequence, so writing twice changes nothing.
//!
//! Nothing here runs per move: an active game's row keeps the sequence it had when it started,
//! and only its end moves it on. This module knows the table and the SQL; what a summary holds
//! is the hub's.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clack_proto::v1 as pb;
use clack_store::{Cursor, Durable, ListQuery, Page};
use prost::Message;
use tokio::sync::mpsc;

use crate::cluster::Database;
use crate::error::{Error, Result};
// Where the hub keeps the levels of kept reviews (`reviewed/{game}`), read to reconcile.
use crate::games::hub::REVIEWED;

/// The most games one upsert writes.
const BATCH: usize = 256;
/// The games of the shard's listing one reconciliation step compares.
const RECONCILE_PAGE: usize = 500;
/// How long the writer gathers notes after the first of a batch: a game's creation, its seats
/// taken and its start usually fall within it and make one row write instead of four.
const GATHER: Duration = Duration::from_millis(100);
/// How long the writer waits before trying the database again.
const RETRY: Duration = Duration::from_secs(1);

/// The shard's writer into the game index, and the reader of the whole cluster's listing.
pub struct Index {
    database: Arc<Database>,
    shard: String,
    notes: mpsc::UnboundedSender<pb::GameSummary>,
    /// Whose quota each live game of this shard counts against, written with its row.
    quota_keys: Arc<Mutex<HashMap<String, String>>>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Index").field("database", &self.database).finish_non_exhaustive()
    }
}

impl Index {
    /// Starts the writer for `shard`, which reconciles the shard's rows from `store` first.
    pub fn start(database: Arc<Database>, shard: String, store: Durable) -> Arc<Index> {
        let (notes, received) = mpsc::unbounded_channel();
        let quota_keys = Arc::new(Mutex::new(HashMap::new()));
        let writer = Writer { database: database.clone(), shard: shard.clone(), store, quota_keys: quota_keys.clone() };
        tokio::spawn(write_loop(writer, received));
        Arc::new(Index { database, shard, notes, quota_keys })
    }

    /// Notes whose quota a live game of this shard counts against, for its row.
    pub fn track(&self, game_id: &str, quota_key: &str) {
        keys(&self.quota_keys).insert(game_id.to_owned(), quota_key.to_owned());
    }

    /// The unfinished games `quota_key` has on the other shards of the cluster (this shard
    /// counts its own live games itself, exactly).
    pub async fn live_elsewhere(&self, quota_key: &str) -> Result<usize> {
        self.database
            .call("counting live games", async |client| {
                let row = client
                    .query_one(
                        "SELECT count(*) FROM games WHERE quota_key = $1 AND shard <> $2 AND status IN (1, 2)",
                        &[&quota_key, &self.shard],
                    )
                    .await?;
                Ok(row.get::<_, i64>(0) as usize)
            })
            .await
    }

    /// The database the index is in.
    pub fn database(&self) -> &Arc<Database> {
        &self.database
    }

    /// Writes one game's row now and waits for it (a game the ladder counts).
    pub async fn write_now(&self, summary: pb::GameSummary) -> Result<()> {
        upsert(&self.database, &self.shard, &[summary], &HashMap::new()).await
    }

    /// Tells the index a game's summary as it stands now. Never waits; if the writer is gone
    /// (shutting down), the next start's reconciliation writes it.
    pub fn note(&self, summary: pb::GameSummary) {
        let _ = self.notes.send(summary);
    }

    /// One page of the whole cluster's games, or of those `bot_id` has a seat in: [`list`].
    pub async fn list(&self, query: &ListQuery, bot_id: Option<&str>) -> Result<Page> {
        list(&self.database, query, bot_id).await
    }
}

/// One page of the whole cluster's games: newest created first (ties: larger id first),
/// filtered by kind and status (and, given `bot_id`, to the games it has a seat in), after the
/// cursor. One indexed query.
pub async fn list(database: &Database, query: &ListQuery, bot_id: Option<&str>) -> Result<Page> {
    let (sql, params) = list_sql(query, bot_id);
    let rows = database
        .call("listing games", async |client| {
            let statement = client.prepare_cached(&sql).await?;
            let args: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params.iter().map(Param::as_sql).collect();
            Ok(client.query(&statement, &args).await?)
        })
        .await?;
    let mut games = rows
        .iter()
        .map(|row| {
            pb::GameSummary::decode(row.get::<_, &[u8]>(0))
                .map_err(|e| Error::Internal(format!("an index row does not decode: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    let more = games.len() > query.limit;
    games.truncate(query.limit);
    let next = if more { games.last().map(Cursor::of) } else { None };
    Ok(Page { games, next })
}

fn keys(map: &Mutex<HashMap<String, String>>) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
    map.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Writes these summaries of `shard`'s games, each unless its row is already at a later
/// sequence (a late or repeated write changes nothing). `quota_keys` names whose quota each
/// game counts against where known; an unknown one keeps the row's.
pub async fn upsert(
    database: &Database,
    shard: &str,
    games: &[pb::GameSummary],
    quota_keys: &HashMap<String, String>,
) -> Result<()> {
    let ids: Vec<&str> = games.iter().map(|g| g.game_id.as_str()).collect();
    let kinds: Vec<i32> = games.iter().map(|g| g.kind).collect();
    let statuses: Vec<i32> = games.iter().map(|g| g.status).collect();
    let created: Vec<i64> = games.iter().map(|g| g.created_unix_millis).collect();
    let sequences: Vec<i64> = games.iter().map(|g| g.sequence as i64).collect();
    let reviewed: Vec<String> = games.iter().map(|g| g.reviewed.join(",")).collect();
    let summaries: Vec<Vec<u8>> = games.iter().map(Message::encode_to_vec).collect();
    let quotas: Vec<&str> = games.iter().map(|g| quota_keys.get(&g.game_id).map_or("", String::as_str)).collect();
    let (bot_ids, bot_games) = seated_bots(games);
    database
        .call("writing the game index", async |client| {
            // One statement, so that a game's row and its bots' rows are written together or not
            // at all (a reconciliation that finds the row current never looks at its bots), and
            // the bots' rows only where the game's was (a write that is behind changes neither).
            client
                .execute(
                    "WITH written AS ( \
                       INSERT INTO games (id, shard, kind, status, created_unix_millis, sequence, reviewed, \
                                          summary, quota_key) \
                       SELECT id, $2, kind, status, created, sequence, reviewed, summary, quota_key \
                       FROM unnest($1::text[], $3::int[], $4::int[], $5::bigint[], $6::bigint[], $7::text[], \
                                   $8::bytea[], $9::text[]) \
                            AS g (id, kind, status, created, sequence, reviewed, summary, quota_key) \
                       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, sequence = EXCLUDED.sequence, \
                           reviewed = EXCLUDED.reviewed, summary = EXCLUDED.summary, indexed_at = now(), \
                           quota_key = CASE WHEN EXCLUDED.quota_key = '' THEN games.quota_key \
                                            ELSE EXCLUDED.quota_key END \
                       WHERE games.sequence <= EXCLUDED.sequence \
                       RETURNING id, kind, status, created_unix_millis \
                     ) \
                     INSERT INTO game_bots (bot_id, game_id, kind, status, created_unix_millis) \
                     SELECT b.bot_id, w.id, w.kind, w.status, w.created_unix_millis \
                     FROM unnest($10::text[], $11::text[]) AS b (bot_id, game_id) \
                     JOIN written w ON w.id = b.game_id \
                     ON CONFLICT (bot_id, game_id) DO UPDATE SET status = EXCLUDED.status",
                    &[
                        &ids, &shard, &kinds, &statuses, &created, &sequences, &reviewed, &summaries, &quotas,
                        &bot_ids, &bot_games,
                    ],
                )
                .await?;
            Ok(())
        })
        .await
}

/// The indexed summaries of the games `ids`, in that order; a game not indexed is left out.
pub async fn summaries(database: &Database, ids: &[String]) -> Result<Vec<pb::GameSummary>> {
    let rows = database
        .call("reading games from the index", async |client| {
            Ok(client.query("SELECT id, summary FROM games WHERE id = ANY($1)", &[&ids]).await?)
        })
        .await?;
    let mut found: HashMap<String, pb::GameSummary> = HashMap::new();
    for row in rows {
        let bytes: Vec<u8> = row.get(1);
        let summary = pb::GameSummary::decode(bytes.as_slice())
            .map_err(|e| Error::Internal(format!("an indexed summary does not decode: {e}")))?;
        found.insert(row.get(0), summary);
    }
    Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
}

/// The `game_bots` rows of these games, as two columns (bot, game): each bot seated in a game,
/// once per game however many seats it holds.
fn seated_bots(games: &[pb::GameSummary]) -> (Vec<&str>, Vec<&str>) {
    let mut rows = (Vec::new(), Vec::new());
    for game in games {
        let mut bots: Vec<&str> = game.seats.iter().filter_map(|s| s.bot.as_ref()).map(|b| b.bot_id.as_str()).collect();
        bots.sort_unstable();
        bots.dedup();
        for bot in bots {
            rows.0.push(bot);
            rows.1.push(game.game_id.as_str());
        }
    }
    rows
}

/// A query parameter of the listing.
enum Param {
    Long(i64),
    Text(String),
}

impl Param {
    fn as_sql(&self) -> &(dyn tokio_postgres::types::ToSql + Sync) {
        match self {
            Param::Long(v) => v,
            Param::Text(v) => v,
        }
    }
}

/// The listing's SQL for this query's filters. Kind and status (checked numbers) are written
/// into the text, so that each combination is its own cached statement planned with its
/// values: a generic plan for `kind = $1 AND status = $2` cannot tell a rare status from a
/// common one, and once chose the kind's index and filtered 300,000 rows for an empty page.
/// The cursor stays a parameter: every value of it is served by the same index range scan.
///
/// A bot's games are filtered and ordered in `game_bots` (an index per filter, each led by the
/// bot) and joined to their rows for the summaries, so a page of a bot's games costs the same
/// however many games the cluster, or the bot, has.
fn list_sql(query: &ListQuery, bot_id: Option<&str>) -> (String, Vec<Param>) {
    let mut conditions = Vec::new();
    let mut params = Vec::new();
    // The table filtered and ordered (its alias), and its id's column.
    let (from, t, id) = match bot_id {
        Some(bot) => {
            params.push(Param::Text(bot.to_owned()));
            conditions.push("b.bot_id = $1".to_owned());
            ("game_bots b JOIN games g ON g.id = b.game_id", "b", "game_id")
        }
        None => ("games g", "g", "id"),
    };
    if query.kind != 0 {
        conditions.push(format!("{t}.kind = {}", query.kind));
    }
    if query.status != 0 {
        conditions.push(format!("{t}.status = {}", query.status));
    }
    let (order, id) = (format!("{t}.created_unix_millis"), format!("{t}.{id}"));
    if let Some(after) = &query.after {
        params.push(Param::Long(after.created_unix_millis));
        params.push(Param::Text(after.game_id.clone()));
        let (created, game) = (params.len() - 1, params.len());
        conditions.push(format!("({order}, {id}) < (${created}, ${game})"));
    }
    let filter = if conditions.is_empty() { String::new() } else { format!(" WHERE {}", conditions.join(" AND ")) };
    let limit = query.limit + 1;
    let sql = format!("SELECT g.summary FROM {from}{filter} ORDER BY {order} DESC, {id} DESC LIMIT {limit}");
    (sql, params)
}

/// What the writer task needs.
struct Writer {
    database: Arc<Database>,
    shard: String,
    store: Durable,
    quota_keys: Arc<Mutex<HashMap<String, String>>>,
}

/// Writes notes in batches; after a failure, and at start, reconciles before writing again.
async fn write_loop(writer: Writer, mut notes: mpsc::UnboundedReceiver<pb::GameSummary>) {
    let mut behind = true;
    let mut away = false;
    loop {
        if behind {
            // Notes that arrive meanwhile are written after; reconciling covers them anyway.
            match writer.reconcile().await {
                Ok(written) => {
                    if away {
                        tracing::info!(shard = %writer.shard, "the shared database is back; game index written again");
                    }
                    tracing::info!(shard = %writer.shard, written, "game index reconciled with this shard's store");
                    behind = false;
                    away = false;
                }
                Err(error) => {
                    if !away {
                        tracing::warn!(shard = %writer.shard, %error, "cannot write the game index; will reconcile when the database is back");
                        away = true;
                    }
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
            }
        }
        let Some(first) = notes.recv().await else { return };
        let mut batch = HashMap::from([(first.game_id.clone(), first)]);
        let until = tokio::time::Instant::now() + GATHER;
        while batch.len() < BATCH {
            match tokio::time::timeout_at(until, notes.recv()).await {
                Ok(Some(summary)) => {
                    batch.insert(summary.game_id.clone(), summary);
                }
                Ok(None) | Err(_) => break,
            }
        }
        let batch: Vec<pb::GameSummary> = batch.into_values().collect();
        if let Err(error) = writer.upsert(&batch).await {
            tracing::warn!(shard = %writer.shard, %error, games = batch.len(), "a game index write failed; will reconcile");
            behind = true;
            away = true;
        }
    }
}

impl Writer {
    /// Writes these games with the quota keys known for them; a finished game's is forgotten
    /// once written (it no longer counts).
    async fn upsert(&self, games: &[pb::GameSummary]) -> Result<()> {
        let known: HashMap<String, String> = {
            let map = keys(&self.quota_keys);
            games.iter().filter_map(|g| map.get(&g.game_id).map(|k| (g.game_id.clone(), k.clone()))).collect()
        };
        upsert(&self.database, &self.shard, games, &known).await?;
        let mut map = keys(&self.quota_keys);
        for game in games.iter().filter(|g| g.status == pb::GameStatus::Finished as i32) {
            map.remove(&game.game_id);
        }
        Ok(())
    }

    /// Compares the shard's whole listing with its rows, a page at a time, and writes every game
    /// whose row is missing or differs (status, sequence or reviews); answers how many.
    async fn reconcile(&self) -> Result<usize> {
        let reviewed: HashMap<String, String> = self
            .store
            .scan(REVIEWED)
            .await?
            .into_iter()
            .map(|(key, levels)| (key[REVIEWED.len()..].to_owned(), String::from_utf8_lossy(&levels).into_owned()))
            .collect();
        let mut query = ListQuery { kind: 0, status: 0, after: None, limit: RECONCILE_PAGE };
        let mut written = 0;
        loop {
            let page = self.store.list(query.clone()).await?;
            let mut games = page.games;
            for game in &mut games {
                if let Some(levels) = reviewed.get(&game.game_id) {
                    game.reviewed = levels.split(',').map(str::to_owned).collect();
                }
            }
            let indexed = self.indexed(&games).await?;
            let behind: Vec<pb::GameSummary> =
                games.into_iter().filter(|g| indexed.get(&g.game_id) != Some(&row_of(g))).collect();
            if !behind.is_empty() {
                self.upsert(&behind).await?;
                written += behind.len();
            }
            match page.next {
                Some(next) => query.after = Some(next),
                None => return Ok(written),
            }
        }
    }

    /// The rows these games have in the index: (status, sequence, reviewed) by id.
    async fn indexed(&self, games: &[pb::GameSummary]) -> Result<HashMap<String, (i32, i64, String)>> {
        let ids: Vec<&str> = games.iter().map(|g| g.game_id.as_str()).collect();
        self.database
            .call("reading the game index", async |client| {
                let rows = client
                    .query("SELECT id, status, sequence, reviewed FROM games WHERE id = ANY($1)", &[&ids])
                    .await?;
                Ok(rows.iter().map(|row| (row.get(0), (row.get(1), row.get(2), row.get(3)))).collect())
            })
            .await
    }
}

/// What a game's row holds that can change: (status, sequence, reviewed).
fn row_of(game: &pb::GameSummary) -> (i32, i64, String) {
    (game.status, game.sequence as i64, game.reviewed.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_statuses_are_the_ones_the_partial_index_names() {
        let sql = include_str!("../cluster/migrations/0003_game_index.sql");
        assert!(sql.contains("WHERE status IN (1, 2)"));
        assert_eq!((pb::GameStatus::Waiting as i32, pb::GameStatus::Active as i32), (1, 2));
    }

    #[test]
    fn each_filter_gets_its_own_statement_and_the_cursor_is_a_parameter() {
        let query = |kind, status, after: Option<Cursor>| ListQuery { kind, status, after, limit: 20 };
        let (sql, params) = list_sql(&query(0, 0, None), None);
        assert_eq!(sql, "SELECT g.summary FROM games g ORDER BY g.created_unix_millis DESC, g.id DESC LIMIT 21");
        assert!(params.is_empty());
        let cursor = Cursor { created_unix_millis: 5, game_id: "a_1".into() };
        let (sql, params) = list_sql(&query(1, 2, Some(cursor.clone())), None);
        assert!(
            sql.contains("WHERE g.kind = 1 AND g.status = 2 AND (g.created_unix_millis, g.id) < ($1, $2)"),
            "{sql}"
        );
        assert_eq!(params.len(), 2);
        let (sql, _) = list_sql(&query(0, 2, None), None);
        assert!(sql.contains("WHERE g.status = 2 ORDER BY"), "{sql}");
    }

    #[test]
    fn a_bots_games_are_read_in_the_order_of_its_own_table() {
        let cursor = Cursor { created_unix_millis: 5, game_id: "a_1".into() };
        let query = ListQuery { kind: 1, status: 0, after: Some(cursor), limit: 20 };
        let (sql, params) = list_sql(&query, Some("greedy"));
        assert_eq!(
            sql,
            "SELECT g.summary FROM game_bots b JOIN games g ON g.id = b.game_id WHERE b.bot_id = $1 AND b.kind = 1 \
             AND (b.created_unix_millis, b.game_id) < ($2, $3) ORDER BY b.created_unix_millis DESC, b.game_id DESC \
             LIMIT 21"
        );
        assert_eq!(params.len(), 3);
    }

    #[test]
    fn a_bot_in_two_seats_of_a_game_is_one_row() {
        let bot = |id: &str| Some(pb::BotSeat { bot_id: id.into(), version: "v1".into() });
        let seat = |b| pb::SeatSummary { bot: b, ..Default::default() };
        let game = pb::GameSummary {
            game_id: "a_1".into(),
            created_unix_millis: 9,
            seats: vec![seat(bot("x")), seat(None), seat(bot("x")), seat(bot("y"))],
            ..Default::default()
        };
        let (bots, games) = seated_bots(std::slice::from_ref(&game));
        assert_eq!((bots, games), (vec!["x", "y"], vec!["a_1", "a_1"]));
    }
}
