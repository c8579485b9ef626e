//! The cluster's shards in the shared database: each registers itself at start and beats every
//! [`BEAT`]; one whose last beat is older than [`DOWN_AFTER`] is shown as down.
//!
//! This is what the operator sees (`clack db shards`). Routing does not read it: a proxy sends
//! each call to the shard its game id names, and a shard that is down answers nothing, so its
//! games are `UNAVAILABLE` through the proxy whatever this table says.

use std::sync::Arc;
use std::time::Duration;

use super::Database;
use crate::error::Result;

/// How often a shard beats.
pub const BEAT: Duration = Duration::from_secs(1);
/// A shard not heard from for this long is down: three missed beats.
pub const DOWN_AFTER: Duration = Duration::from_secs(3);

/// A shard as the database knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardRow {
    pub name: String,
    pub address: String,
    pub version: String,
    /// Milliseconds since the Unix epoch.
    pub started_unix_millis: i64,
    pub last_beat_unix_millis: i64,
    /// Whether its last beat is within [`DOWN_AFTER`] of the database's clock.
    pub up: bool,
}

/// Registers this shard (its start time now) or fails, naming the database.
pub async fn register(database: &Database, name: &str, address: &str) -> Result<()> {
    database
        .call("registering the shard", async |client| {
            client
                .execute(
                    "INSERT INTO shards (name, address, version, started_at, last_beat) \
                     VALUES ($1, $2, $3, now(), now()) \
                     ON CONFLICT (name) DO UPDATE SET address = EXCLUDED.address, version = EXCLUDED.version, \
                     started_at = now(), last_beat = now()",
                    &[&name, &address, &env!("CARGO_PKG_VERSION")],
                )
                .await?;
            Ok(())
        })
        .await
}

/// Beats for this shard every [`BEAT`], for as long as the task runs. A missed beat is logged
/// once when the database goes away and once when it is back; the shard plays on meanwhile.
pub async fn beat(database: Arc<Database>, name: String) {
    let mut every = tokio::time::interval(BEAT);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut away = false;
    loop {
        every.tick().await;
        let beat = database.call("beating", async |client| {
            Ok(client.execute("UPDATE shards SET last_beat = now() WHERE name = $1", &[&name]).await?)
        });
        match beat.await {
            Ok(_) if away => {
                tracing::info!(shard = %name, "the shared database is back; beating again");
                away = false;
            }
            Ok(_) => {}
            Err(error) if !away => {
                tracing::warn!(shard = %name, %error, "cannot beat; this shard shows as down until the database is back");
                away = true;
            }
            Err(_) => {}
        }
    }
}

/// Every registered shard, by name, with whether it is up.
pub async fn list(database: &Database) -> Result<Vec<ShardRow>> {
    let down_after = DOWN_AFTER.as_secs_f64();
    let rows = database
        .call("listing the shards", async |client| {
            Ok(client
                .query(
                    "SELECT name, address, version, (extract(epoch FROM started_at) * 1000)::bigint, \
                            (extract(epoch FROM last_beat) * 1000)::bigint, \
                            last_beat > now() - make_interval(secs => $1) \
                     FROM shards ORDER BY name",
                    &[&down_after],
                )
                .await?)
        })
        .await?;
    Ok(rows
        .iter()
        .map(|row| ShardRow {
            name: row.get(0),
            address: row.get(1),
            version: row.get(2),
            started_unix_millis: row.get(3),
            last_beat_unix_millis: row.get(4),
            up: row.get(5),
        })
        .collect())
}
