//! Leases: the one process of the cluster that does a piece of shared work (plays a ladder
//! board, plays a match), chosen through the database and replaced when it stops.
//!
//! A lease lasts [`LEASE`] by the database's clock and its holder renews it every [`RENEW`];
//! any process that finds a lease expired may take it over, raising its `epoch`. What a lease
//! guards is written only by a *fenced* statement ([`FENCE`]): one statement that first locks
//! the lease's row and writes only if the writer still holds it, at the epoch it took it with,
//! unexpired. A holder that was paused or cut off past its lease, and wakes up in the middle
//! of its work, therefore writes nothing, even before it learns that it lost the lease; the new
//! holder, which takes the row lock to take the lease, reads what it guards only after every
//! write the old holder made before. And since every fenced write is one statement, a holder
//! paused in the middle of a call holds no lock that the next holder would wait on.
//!
//! A holder also stops starting new work [`MARGIN`] before its lease would end by its own clock,
//! unless renewed, so that one that cannot renew stops before another can start.

use std::sync::Arc;
use std::time::Duration;

use super::Database;
use crate::error::Result;

/// How long a lease lasts after its holder last renewed it, by the database's clock. Work whose
/// holder dies is taken over within this and one [`RENEW`].
pub const LEASE: Duration = Duration::from_secs(3);
/// How often a holder renews its leases, and a process that may take one tries to.
pub const RENEW: Duration = Duration::from_secs(1);
/// How long before its lease would end, counted on its own clock from when it asked to renew,
/// a holder stops starting new work.
pub const MARGIN: Duration = Duration::from_millis(500);

/// The head of every fenced statement: `held` has a row only while `$1` (the lease's name) is
/// held by `$2` (the holder) at epoch `$3`, unexpired, and that row is locked to the
/// statement's end. The statement goes on with `INSERT … SELECT … FROM held` or
/// `UPDATE … FROM held`, its own parameters from `$4`.
pub const FENCE: &str = "WITH held AS (SELECT 1 FROM leases WHERE name = $1 AND holder = $2 AND epoch = $3 \
                         AND expires_at > now() FOR UPDATE) ";

/// A lease this process holds, as it knows it.
#[derive(Clone, Copy, Debug)]
pub struct Held {
    pub epoch: i64,
    /// When to stop starting new work unless renewed, on this process's clock: [`LEASE`] less
    /// [`MARGIN`] after it asked to take or renew the lease.
    pub until: std::time::Instant,
}

impl Held {
    /// A lease taken or renewed at `epoch` by a call that started at `asked`.
    pub fn new(epoch: i64, asked: std::time::Instant) -> Held {
        Held { epoch, until: asked + LEASE - MARGIN }
    }

    /// Whether new work may start under it now.
    pub fn current(&self) -> bool {
        std::time::Instant::now() < self.until
    }
}

/// A lease as `clack db shards` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseRow {
    pub name: String,
    pub holder: String,
    pub epoch: i64,
    /// Milliseconds until it expires by the database's clock (negative: expired).
    pub expires_in_millis: i64,
}

/// This process as a holder of leases.
#[derive(Debug)]
pub struct Holder {
    database: Arc<Database>,
    /// The shard's name and a random id.
    id: String,
}

impl Holder {
    pub fn new(database: Arc<Database>, shard: &str) -> Holder {
        Holder { database, id: format!("{shard}/{:016x}", rand::random::<u64>()) }
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn database(&self) -> &Arc<Database> {
        &self.database
    }

    /// Takes lease `name` if nobody holds it or it has expired; answers the new epoch, or
    /// `None` while another process holds it.
    pub async fn take(&self, name: &str) -> Result<Option<i64>> {
        let lease = LEASE.as_secs_f64();
        self.database
            .call("taking a lease", async |client| {
                let row = client
                    .query_opt(
                        "INSERT INTO leases (name, holder, epoch, expires_at) \
                         VALUES ($1, $2, 1, now() + make_interval(secs => $3)) \
                         ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, \
                             epoch = leases.epoch + 1, expires_at = EXCLUDED.expires_at \
                         WHERE leases.expires_at <= now() \
                         RETURNING epoch",
                        &[&name, &self.id, &lease],
                    )
                    .await?;
                Ok(row.map(|row| row.get(0)))
            })
            .await
    }

    /// Renews lease `name`, held at `epoch`; answers whether this process still held it.
    pub async fn renew(&self, name: &str, epoch: i64) -> Result<bool> {
        let lease = LEASE.as_secs_f64();
        self.database
            .call("renewing a lease", async |client| {
                let renewed = client
                    .execute(
                        "UPDATE leases SET expires_at = now() + make_interval(secs => $4) \
                         WHERE name = $1 AND holder = $2 AND epoch = $3 AND expires_at > now()",
                        &[&name, &self.id, &epoch, &lease],
                    )
                    .await?;
                Ok(renewed == 1)
            })
            .await
    }
}

/// Every lease whose name starts with `prefix`, for the operator.
pub async fn list(database: &Database, prefix: &str) -> Result<Vec<LeaseRow>> {
    let pattern = format!("{}%", prefix.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_"));
    let rows = database
        .call("listing leases", async |client| {
            Ok(client
                .query(
                    "SELECT name, holder, epoch, (extract(epoch FROM expires_at - now()) * 1000)::bigint \
                     FROM leases WHERE name LIKE $1 ORDER BY name",
                    &[&pattern],
                )
                .await?)
        })
        .await?;
    Ok(rows
        .iter()
        .map(|row| LeaseRow { name: row.get(0), holder: row.get(1), epoch: row.get(2), expires_in_millis: row.get(3) })
        .collect())
}
