//! Matches in a cluster's database: each match's record, written only under its lease
//! `match/{id}` ([`crate::cluster::lease`]), so that any shard reads it and one resumes a match
//! whose shard is gone (migration 9).
//!
//! This module knows the SQL; what a record holds, and when to take a lease, is the matches
//! room's.

use crate::cluster::Database;
use crate::cluster::lease::{FENCE, Holder};
use crate::error::Result;

/// The name of a match's lease.
pub fn lease(match_id: &str) -> String {
    format!("match/{match_id}")
}

/// Writes a match's record if this process holds its lease at `epoch`, unexpired; answers
/// whether it did (false: another shard plays the match now, and nothing was written).
pub async fn save(holder: &Holder, epoch: i64, match_id: &str, status: i32, record: &[u8]) -> Result<bool> {
    let (name, id) = (lease(match_id), holder.id().to_owned());
    holder
        .database()
        .call("writing a match", async |client| {
            let sql = format!(
                "{FENCE} INSERT INTO matches (match_id, status, record, updated_unix_millis) \
                 SELECT $4::text, $5::integer, $6::bytea, $7::bigint FROM held \
                 ON CONFLICT (match_id) DO UPDATE SET status = EXCLUDED.status, record = EXCLUDED.record, \
                     updated_unix_millis = EXCLUDED.updated_unix_millis"
            );
            let written =
                client.execute(&sql, &[&name, &id, &epoch, &match_id, &status, &record, &crate::now()]).await?;
            Ok(written == 1)
        })
        .await
}

/// A match's record, if any shard started it.
pub async fn read(database: &Database, match_id: &str) -> Result<Option<Vec<u8>>> {
    database
        .call("reading a match", async |client| {
            let row = client.query_opt("SELECT record FROM matches WHERE match_id = $1", &[&match_id]).await?;
            Ok(row.map(|row| row.get(0)))
        })
        .await
}

/// The running matches whose lease has expired (or was never taken): their shard is gone.
pub async fn orphans(database: &Database) -> Result<Vec<String>> {
    database
        .call("looking for matches to resume", async |client| {
            let rows = client
                .query(
                    "SELECT m.match_id FROM matches m LEFT JOIN leases l ON l.name = 'match/' || m.match_id \
                     WHERE m.status = 1 AND (l.expires_at IS NULL OR l.expires_at <= now()) ORDER BY m.match_id",
                    &[],
                )
                .await?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        })
        .await
}
