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

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

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
struct Held {
    epoch: i64,
    /// When to stop starting new work unless renewed, on this process's clock: [`LEASE`] less
    /// [`MARGIN`] after it asked to take or renew the lease.
    until: Instant,
}

impl Held {
    fn current(&self) -> bool {
        Instant::now() < self.until
    }
}

/// What a renewal came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renewed {
    /// Still held, for another [`LEASE`].
    Kept,
    /// Another process holds it now (or it expired): forgotten here.
    Lost,
    /// The database did not answer; `lapsed` when the lease's time on this clock is up, and it
    /// is forgotten here.
    Unanswered { lapsed: bool },
}

/// The leases one room of this process holds, by its own key (a ladder configuration, a match
/// id), each under the database name the room gives it.
#[derive(Debug)]
pub struct Leases<K> {
    held: Mutex<HashMap<K, Held>>,
}

impl<K> Default for Leases<K> {
    fn default() -> Leases<K> {
        Leases { held: Mutex::new(HashMap::new()) }
    }
}

impl<K: Eq + Hash + Clone> Leases<K> {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<K, Held>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The epoch under which new work on `key` may start now: held, and renewed in time.
    pub fn current<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<i64>
    where
        K: Borrow<Q>,
    {
        self.map().get(key).filter(|held| held.current()).map(|held| held.epoch)
    }

    /// The epoch `key` is held at, renewed in time or not (a write is fenced by the database).
    pub fn epoch<Q: Hash + Eq + ?Sized>(&self, key: &Q) -> Option<i64>
    where
        K: Borrow<Q>,
    {
        self.map().get(key).map(|held| held.epoch)
    }

    /// Every key held, with its epoch.
    pub fn held(&self) -> Vec<(K, i64)> {
        self.map().iter().map(|(key, held)| (key.clone(), held.epoch)).collect()
    }

    pub fn forget<Q: Hash + Eq + ?Sized>(&self, key: &Q)
    where
        K: Borrow<Q>,
    {
        self.map().remove(key);
    }

    /// Takes the lease `name` for `key` if nobody holds it or it has expired; answers its epoch.
    pub async fn take(&self, holder: &Holder, key: K, name: &str) -> Result<Option<i64>> {
        let asked = Instant::now();
        let epoch = holder.take(name).await?;
        if let Some(epoch) = epoch {
            self.map().insert(key, Held { epoch, until: asked + LEASE - MARGIN });
        }
        Ok(epoch)
    }

    /// Renews the lease `name` held for `key`.
    pub async fn renew(&self, holder: &Holder, key: &K, name: &str) -> Renewed {
        let Some(epoch) = self.epoch(key) else { return Renewed::Lost };
        let asked = Instant::now();
        let answer = holder.renew(name, epoch).await;
        let mut map = self.map();
        match answer {
            Ok(true) => {
                map.insert(key.clone(), Held { epoch, until: asked + LEASE - MARGIN });
                Renewed::Kept
            }
            Ok(false) => {
                map.remove(key);
                Renewed::Lost
            }
            Err(_) => {
                let lapsed = map.get(key).is_none_or(|held| !held.current());
                if lapsed {
                    map.remove(key);
                }
                Renewed::Unanswered { lapsed }
            }
        }
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
