//! The ladder's tables in a cluster's database: each configuration's players and deals, written
//! only under the board's lease, `ladder/{configuration}` ([`crate::cluster::lease`]; migration 7
//! says what each column means).
//!
//! This module knows the SQL; what a deal or a player list holds is the ladder's (they are
//! stored as its protobuf records), and when to take or renew a lease is the ladder's too.

use std::sync::Arc;

use crate::cluster::lease::{FENCE, Holder, LeaseRow};
use crate::error::Result;

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

/// The name of a board's lease.
pub fn lease(configuration: &str) -> String {
    format!("ladder/{configuration}")
}

/// The ladder's tables, as one process reads and writes them.
#[derive(Debug)]
pub struct Tables {
    holder: Arc<Holder>,
}

impl Tables {
    pub fn new(holder: Arc<Holder>) -> Tables {
        Tables { holder }
    }

    pub fn holder(&self) -> &Holder {
        &self.holder
    }

    /// Writes `write` if this process holds `configuration`'s lease at `epoch`, unexpired;
    /// answers whether it did (false: the lease is lost, and nothing was written).
    pub async fn write(&self, configuration: &str, epoch: i64, write: Write<'_>) -> Result<bool> {
        let (name, holder) = (lease(configuration), self.holder.id().to_owned());
        self.holder
            .database()
            .call("writing a ladder board", async |client| {
                let written = match write {
                    Write::Players(record) => {
                        let sql = format!(
                            "{FENCE} INSERT INTO ladder_players (configuration, record) \
                             SELECT $4::text, $5::bytea FROM held \
                             ON CONFLICT (configuration) DO UPDATE SET record = EXCLUDED.record"
                        );
                        client.execute(&sql, &[&name, &holder, &epoch, &configuration, &record]).await?
                    }
                    Write::Deal { n, closed, record } => {
                        // A deal already closed is never written again: only the next holder
                        // closes a deal its holder left open, once it has the lease.
                        let sql = format!(
                            "{FENCE} INSERT INTO ladder_deals (configuration, n, closed, record, epoch) \
                             SELECT $4::text, $5::bigint, $6::boolean, $7::bytea, $3::bigint FROM held \
                             ON CONFLICT (configuration, n) DO UPDATE SET closed = EXCLUDED.closed, \
                                 record = EXCLUDED.record, epoch = EXCLUDED.epoch \
                             WHERE NOT ladder_deals.closed"
                        );
                        let n = n as i64;
                        client.execute(&sql, &[&name, &holder, &epoch, &configuration, &n, &closed, &record]).await?
                    }
                };
                Ok(written == 1)
            })
            .await
    }

    /// Every board's lease.
    pub async fn leases(&self) -> Result<Vec<LeaseRow>> {
        crate::cluster::lease::list(self.holder.database(), "ladder/").await
    }

    /// A board's players and its deals numbered `from` on.
    pub async fn read(&self, configuration: &str, from: u64) -> Result<Stored> {
        self.holder
            .database()
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
