//! The ladder's tables in a cluster's database: each configuration's players and deals, and the
//! lease that names the one process playing it (migration 7 says what each column means).
//!
//! A lease lasts [`LEASE`] by the database's clock and its holder renews it every [`RENEW`];
//! any process started with `--ladder` that finds a lease expired takes it over, raising its
//! `epoch`. Every write of a board is *fenced*: one statement that first locks the lease's row
//! and writes only if the writer still holds it, at the epoch it took it with, unexpired.
//! A holder that was paused or cut off past its lease, and wakes up in the middle of a game,
//! therefore writes nothing, even if it does not yet know that it lost the lease; the board's
//! new holder, which takes the row lock to take the lease, reads the board only after every
//! write the old holder made before is in.
//!
//! This module knows the SQL and the leases' timing; what a deal or a player list holds is the
//! ladder's (they are stored as its protobuf records).

use std::sync::Arc;
use std::time::Duration;

use crate::cluster::Database;
use crate::error::Result;

/// How long a lease lasts after its holder last renewed it, by the database's clock. A board
/// whose holder dies is taken over within this and one [`RENEW`].
pub const LEASE: Duration = Duration::from_secs(3);
/// How often a holder renews its leases, and a process without one tries to take one.
pub const RENEW: Duration = Duration::from_secs(1);
/// How long before its lease would end, counted on its own clock from when it asked to renew,
/// a holder stops starting games: a holder that cannot renew stops before another can start.
pub const MARGIN: Duration = Duration::from_millis(500);

/// One configuration's lease, as `clack db shards` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseRow {
    pub configuration: String,
    pub holder: String,
    pub epoch: i64,
    /// Milliseconds until it expires by the database's clock (negative: expired).
    pub expires_in_millis: i64,
}

/// A board as stored: its players' record and its deals from some number on.
#[derive(Debug, Default)]
pub struct Stored {
    pub players: Option<Vec<u8>>,
    /// (number, closed, record), by number.
    pub deals: Vec<(u64, bool, Vec<u8>)>,
}

/// A write of a board, made only while the writer holds its lease.
#[derive(Debug)]
pub enum Write<'a> {
    Players(&'a [u8]),
    Deal { n: u64, closed: bool, record: &'a [u8] },
}

/// The ladder's tables, as one process (`holder`) reads and writes them.
#[derive(Debug)]
pub struct Tables {
    database: Arc<Database>,
    /// This process: its shard's name and a random id.
    holder: String,
}

impl Tables {
    pub fn new(database: Arc<Database>, shard: &str) -> Tables {
        Tables { database, holder: format!("{shard}/{:016x}", rand::random::<u64>()) }
    }

    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// Takes `configuration`'s lease if nobody holds it or its lease has expired; answers the
    /// new epoch, or `None` while another process holds it.
    pub async fn take(&self, configuration: &str) -> Result<Option<i64>> {
        let lease = LEASE.as_secs_f64();
        self.database
            .call("taking a ladder lease", async |client| {
                let row = client
                    .query_opt(
                        "INSERT INTO ladder_leases (configuration, holder, epoch, expires_at) \
                         VALUES ($1, $2, 1, now() + make_interval(secs => $3)) \
                         ON CONFLICT (configuration) DO UPDATE SET holder = EXCLUDED.holder, \
                             epoch = ladder_leases.epoch + 1, expires_at = EXCLUDED.expires_at \
                         WHERE ladder_leases.expires_at <= now() \
                         RETURNING epoch",
                        &[&configuration, &self.holder, &lease],
                    )
                    .await?;
                Ok(row.map(|row| row.get(0)))
            })
            .await
    }

    /// Renews a lease this process holds at `epoch`; answers whether it still held it.
    pub async fn renew(&self, configuration: &str, epoch: i64) -> Result<bool> {
        let lease = LEASE.as_secs_f64();
        self.database
            .call("renewing a ladder lease", async |client| {
                let renewed = client
                    .execute(
                        "UPDATE ladder_leases SET expires_at = now() + make_interval(secs => $4) \
                         WHERE configuration = $1 AND holder = $2 AND epoch = $3 AND expires_at > now()",
                        &[&configuration, &self.holder, &epoch, &lease],
                    )
                    .await?;
                Ok(renewed == 1)
            })
            .await
    }

    /// Writes `write` if this process holds `configuration`'s lease at `epoch`, unexpired;
    /// answers whether it did (false: the lease is lost, and nothing was written). One
    /// statement, which locks the lease's row for its own length only: a holder paused in the
    /// middle of a call holds no lock the next holder would wait on.
    pub async fn write(&self, configuration: &str, epoch: i64, write: Write<'_>) -> Result<bool> {
        const HELD: &str = "WITH held AS (SELECT 1 FROM ladder_leases WHERE configuration = $1 AND holder = $2 \
                            AND epoch = $3 AND expires_at > now() FOR UPDATE) ";
        self.database
            .call("writing a ladder board", async |client| {
                let written = match write {
                    Write::Players(record) => {
                        let sql = format!(
                            "{HELD} INSERT INTO ladder_players (configuration, record) SELECT $1::text, $4::bytea FROM held \
                             ON CONFLICT (configuration) DO UPDATE SET record = EXCLUDED.record"
                        );
                        client.execute(&sql, &[&configuration, &self.holder, &epoch, &record]).await?
                    }
                    Write::Deal { n, closed, record } => {
                        // A deal already closed is never written again: only the next holder
                        // closes a deal its holder left open, once it has the lease.
                        let sql = format!(
                            "{HELD} INSERT INTO ladder_deals (configuration, n, closed, record, epoch) \
                             SELECT $1::text, $4::bigint, $5::boolean, $6::bytea, $3::bigint FROM held \
                             ON CONFLICT (configuration, n) DO UPDATE SET closed = EXCLUDED.closed, \
                                 record = EXCLUDED.record, epoch = EXCLUDED.epoch \
                             WHERE NOT ladder_deals.closed"
                        );
                        let n = n as i64;
                        client.execute(&sql, &[&configuration, &self.holder, &epoch, &n, &closed, &record]).await?
                    }
                };
                Ok(written == 1)
            })
            .await
    }

    /// Every configuration's lease.
    pub async fn leases(&self) -> Result<Vec<LeaseRow>> {
        leases(&self.database).await
    }

    /// A board's players and its deals numbered `from` on.
    pub async fn read(&self, configuration: &str, from: u64) -> Result<Stored> {
        self.database
            .call("reading a ladder board", async |client| {
                let transaction = client.build_transaction().read_only(true).start().await?;
                let players = transaction
                    .query_opt("SELECT record FROM ladder_players WHERE configuration = $1", &[&configuration])
                    .await?
                    .map(|row| row.get(0));
                let deals = transaction
                    .query(
                        "SELECT n, closed, record FROM ladder_deals WHERE configuration = $1 AND n >= $2 ORDER BY n",
                        &[&configuration, &(from as i64)],
                    )
                    .await?
                    .iter()
                    .map(|row| (row.get::<_, i64>(0) as u64, row.get(1), row.get(2)))
                    .collect();
                transaction.commit().await?;
                Ok(Stored { players, deals })
            })
            .await
    }
}

/// Every configuration's lease, for the operator.
pub async fn leases(database: &Database) -> Result<Vec<LeaseRow>> {
    let rows = database
        .call("listing the ladder's leases", async |client| {
            Ok(client
                .query(
                    "SELECT configuration, holder, epoch, \
                            (extract(epoch FROM expires_at - now()) * 1000)::bigint \
                     FROM ladder_leases ORDER BY configuration",
                    &[],
                )
                .await?)
        })
        .await?;
    Ok(rows
        .iter()
        .map(|row| LeaseRow {
            configuration: row.get(0),
            holder: row.get(1),
            epoch: row.get(2),
            expires_in_millis: row.get(3),
        })
        .collect())
}
