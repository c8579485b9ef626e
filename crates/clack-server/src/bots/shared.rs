//! Bots and their versions in the shared database, so that a bot uploaded through any shard can
//! be seated on every shard.
//!
//! Every shard holds every bot's summary (versions, owner, statistics) in memory, as a single
//! server does ([`crate::bots::library`]), and follows the tables ([`crate::cluster::follow`]). A version's
//! source is not followed: a shard reads it the first time it plays that version, and keeps it,
//! since a version never changes. Statistics are added in one `UPDATE … SET games = games + …`,
//! so two shards recording games of the same version at once lose nothing. Every write answers
//! the rows it wrote as they now stand, which the shard takes in as it takes the follower's
//! ([`crate::bots::library::BotLibrary::apply_shared`]), never a copy of its memory from before.
//!
//! The quotas on bots per owner and versions per bot are counted here, where the bots are kept:
//! in the transaction that adds one, after a lock that makes the owner's new bots, and each
//! bot's new versions, take turns, so that shards adding at once count each other's. This
//! module knows the tables and the SQL; who may upload or retire, and the quotas' numbers, are
//! the library's, [`crate::who::policy`]'s and [`crate::who::quota`]'s.

use crate::bots::library::BotLibrary;
use crate::cluster::follow::{CHANGED_SINCE, Followed};
use crate::cluster::{Database, Failure};
use crate::error::{Error, Result};
use crate::who::quota::Counted;
use clack_proto::v1 as pb;

/// A bot as the database keeps it, versions apart.
#[derive(Clone, Debug)]
pub(crate) struct BotRow {
    pub(crate) id: String,
    pub(crate) kind: i32,
    pub(crate) remote: bool,
    /// [`crate::who::access::Owner::store_form`].
    pub(crate) owner: Vec<u8>,
    pub(crate) quota_key: String,
    pub(crate) owner_shown: String,
    pub(crate) retired: bool,
}

/// One version of a bot, with its statistics.
#[derive(Clone, Debug)]
pub(crate) struct VersionRow {
    pub(crate) bot_id: String,
    pub(crate) version: pb::BotVersion,
}

/// What changed since a shard last read.
#[derive(Debug, Default)]
pub(crate) struct Changes {
    pub(crate) bots: Vec<BotRow>,
    pub(crate) versions: Vec<VersionRow>,
}

impl Followed for BotLibrary {
    type Changes = Changes;
    const LISTEN: &'static str = "LISTEN clack_bots";
    const WHAT: &'static str = "bots";

    async fn read(database: &Database, from: &str) -> Result<(Changes, String)> {
        changes(database, from).await
    }

    fn apply(&self, changes: Changes) {
        self.apply_shared(changes);
    }
}

const BOT_COLUMNS: &str = "id, kind, remote, owner, quota_key, owner_shown, retired";
const VERSION_COLUMNS: &str = "bot_id, version, uploaded_unix_millis, size, rating, games, wins, faults, \
                               mean_decision_micros, retired";

fn bot_row(row: &tokio_postgres::Row) -> BotRow {
    BotRow {
        id: row.get(0),
        kind: row.get(1),
        remote: row.get(2),
        owner: row.get(3),
        quota_key: row.get(4),
        owner_shown: row.get(5),
        retired: row.get(6),
    }
}

fn version_row(row: &tokio_postgres::Row) -> VersionRow {
    VersionRow {
        bot_id: row.get(0),
        version: pb::BotVersion {
            version: row.get(1),
            uploaded_unix_millis: row.get(2),
            size: row.get::<_, i32>(3) as u32,
            rating: row.get(4),
            games: row.get::<_, i64>(5) as u64,
            wins: row.get::<_, i64>(6) as u64,
            faults: row.get::<_, i64>(7) as u64,
            mean_decision_micros: row.get(8),
            retired: row.get(9),
        },
    }
}

/// Every bot and version row written at or after transaction `from` (`"0"` for all), read in
/// one snapshot, and where the next read starts.
pub(crate) async fn changes(database: &Database, from: &str) -> Result<(Changes, String)> {
    crate::cluster::follow::in_snapshot(database, "reading bots", async |transaction| {
        rows(transaction, [CHANGED_SINCE; 2], from).await
    })
    .await
}

/// One bot and its versions, if it exists (for a shard asked to seat a bot it has not heard of
/// yet, uploaded through another shard a moment ago).
pub(crate) async fn one(database: &Database, bot_id: &str) -> Result<Changes> {
    database.call("reading bots", async |client| rows(&*client, ["id = $1", "bot_id = $1"], bot_id).await).await
}

/// The bot rows and the version rows that match `conditions` (one each, on parameter `$1`).
async fn rows(
    client: &impl deadpool_postgres::GenericClient,
    [bots_where, versions_where]: [&str; 2],
    parameter: &str,
) -> Result<Changes, Failure> {
    let bots = client.query(&format!("SELECT {BOT_COLUMNS} FROM bots WHERE {bots_where}"), &[&parameter]).await?;
    let versions = client
        .query(&format!("SELECT {VERSION_COLUMNS} FROM bot_versions WHERE {versions_where}"), &[&parameter])
        .await?;
    Ok(Changes { bots: bots.iter().map(bot_row).collect(), versions: versions.iter().map(version_row).collect() })
}

/// The first key of the advisory locks that make one owner's new bots take turns (the second is
/// the hash of the owner's quota key): any fixed number, "bots" in ASCII.
const NEW_BOTS_LOCK: i32 = 0x626f_7473;

/// Adds a version (with its source, for a script) to a bot, making the bot first when `new` is
/// given, in one transaction; answers the bot and all its versions as they stand after it (other
/// shards' uploads included), and whether the version is new. The owner's bots (for a new bot)
/// and the bot's versions are counted in the transaction and checked with `within`, which
/// refuses a count at its quota. A bot made meanwhile through another shard under the same name
/// makes this ABORTED, so that the upload is tried again as a new version of that bot (and
/// refused if the caller does not own it).
pub(crate) async fn add_version(
    database: &Database,
    new: Option<&BotRow>,
    bot_id: &str,
    version: &pb::BotVersion,
    source: Option<&str>,
    within: impl Fn(Counted, usize) -> Result<()> + Sync,
) -> Result<(Changes, bool)> {
    database
        .call("adding a bot version", async |client| {
            let transaction = client.transaction().await?;
            if let Some(bot) = new {
                // Held to the end of the transaction: the owner's next new bot, on any shard,
                // is counted after this one is in.
                let lock = "SELECT pg_advisory_xact_lock($1, hashtext($2))";
                transaction.execute(lock, &[&NEW_BOTS_LOCK, &bot.quota_key]).await?;
                let owned = "SELECT count(*) FROM bots WHERE quota_key = $1";
                let owned: i64 = transaction.query_one(owned, &[&bot.quota_key]).await?.get(0);
                within(Counted::Bots, owned as usize)?;
                let made = transaction
                    .execute(
                        "INSERT INTO bots (id, kind, remote, owner, quota_key, owner_shown, created_unix_millis) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING",
                        &[&bot.id, &bot.kind, &bot.remote, &bot.owner, &bot.quota_key, &bot.owner_shown, &crate::now()],
                    )
                    .await?;
                if made == 0 {
                    return Err(Error::Aborted(format!(
                        "bot {bot_id} was made through another shard a moment ago; upload again to add a version to it"
                    ))
                    .into());
                }
            }
            // The bot's row, locked to the end of the transaction: its next new version, on any
            // shard, is counted after this one is in.
            if transaction.query_opt("SELECT 1 FROM bots WHERE id = $1 FOR UPDATE", &[&bot_id]).await?.is_none() {
                return Err(Error::NotFound(format!("no bot {bot_id}")).into());
            }
            let counted = transaction
                .query_one(
                    "SELECT count(*), count(*) FILTER (WHERE version = $2) FROM bot_versions WHERE bot_id = $1",
                    &[&bot_id, &version.version],
                )
                .await?;
            let is_new = counted.get::<_, i64>(1) == 0;
            if is_new {
                within(Counted::Versions, counted.get::<_, i64>(0) as usize)?;
                transaction
                    .execute(
                        "INSERT INTO bot_versions (bot_id, version, source, size, uploaded_unix_millis, rating) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                        &[
                            &bot_id,
                            &version.version,
                            &source,
                            &(version.size as i32),
                            &version.uploaded_unix_millis,
                            &version.rating,
                        ],
                    )
                    .await?;
            }
            let now = rows(&transaction, ["id = $1", "bot_id = $1"], bot_id).await?;
            transaction.commit().await?;
            Ok((now, is_new))
        })
        .await
}

/// Retires a bot, or one version of it; answers the row retired.
pub(crate) async fn retire(database: &Database, bot_id: &str, version: Option<&str>) -> Result<Changes> {
    database
        .call("retiring a bot", async |client| {
            Ok(match version {
                None => {
                    let sql = format!("UPDATE bots SET retired = true WHERE id = $1 RETURNING {BOT_COLUMNS}");
                    let bots = client.query(&sql, &[&bot_id]).await?;
                    Changes { bots: bots.iter().map(bot_row).collect(), versions: Vec::new() }
                }
                Some(version) => {
                    let sql = format!(
                        "UPDATE bot_versions SET retired = true WHERE bot_id = $1 AND version = $2 \
                         RETURNING {VERSION_COLUMNS}"
                    );
                    let versions = client.query(&sql, &[&bot_id, &version]).await?;
                    Changes { bots: Vec::new(), versions: versions.iter().map(version_row).collect() }
                }
            })
        })
        .await
}

/// What a match adds to one seat's version.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    pub(crate) games: u64,
    pub(crate) wins: u64,
    pub(crate) faults: u64,
    /// The mean decision time over these games, in microseconds.
    pub(crate) mean_decision_micros: f64,
    /// How much the match moved the version's rating.
    pub(crate) rating_change: f64,
}

/// Records a finished match: for each seat, its results row and the addition of its games and
/// change of rating to its version, all in one transaction, so that two shards finishing matches
/// of the same version at once both count. A match recorded before adds nothing. Answers the
/// versions as they now stand (with every shard's games counted).
pub(crate) async fn record_match(
    database: &Database,
    match_id: &str,
    seats: &[(u32, &str, &str, Played)],
) -> Result<Changes> {
    database
        .call("recording a match", async |client| {
            let transaction = client.transaction().await?;
            let mut now = Vec::new();
            for &(seat, bot_id, version, played) in seats {
                let games = played.games as i64;
                let (wins, faults) = (played.wins as i64, played.faults as i64);
                let (micros, change) = (played.mean_decision_micros, played.rating_change);
                let new = transaction
                    .execute(
                        "INSERT INTO match_results (match_id, seat, bot_id, version, games, wins, faults, \
                         mean_decision_micros, rating_change) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                         ON CONFLICT (match_id, seat) DO NOTHING",
                        &[&match_id, &(seat as i32), &bot_id, &version, &games, &wins, &faults, &micros, &change],
                    )
                    .await?;
                if new == 0 {
                    continue;
                }
                let row = transaction
                    .query_opt(
                        &format!(
                            "UPDATE bot_versions SET games = games + $3::bigint, wins = wins + $4::bigint, \
                             faults = faults + $5::bigint, \
                             mean_decision_micros = CASE WHEN games + $3::bigint = 0 THEN 0 \
                                 ELSE (mean_decision_micros * games + $6::float8 * $3::bigint) / (games + $3::bigint) END, \
                             rating = rating + $7::float8 WHERE bot_id = $1 AND version = $2 RETURNING {VERSION_COLUMNS}"
                        ),
                        &[&bot_id, &version, &games, &wins, &faults, &micros, &change],
                    )
                    .await?;
                now.extend(row.as_ref().map(version_row));
            }
            transaction.commit().await?;
            Ok(Changes { bots: Vec::new(), versions: now })
        })
        .await
}

/// A script version's source, if there is one.
pub(crate) async fn source(database: &Database, bot_id: &str, version: &str) -> Result<Option<String>> {
    database
        .call("reading a bot's source", async |client| {
            let row = client
                .query_opt("SELECT source FROM bot_versions WHERE bot_id = $1 AND version = $2", &[&bot_id, &version])
                .await?;
            Ok(row.and_then(|row| row.get(0)))
        })
        .await
}
