//! Kept reviews in a cluster's database, so that a review kept on a game's shard can be read
//! through any shard, even while the game's own shard is down (migration 8).
//!
//! The game's shard stays where a review is made and first kept (its store); the database holds
//! a copy, written when the review is kept and, if the database was away then, the next time
//! the kept review is read on its shard. This module knows the table; what a review holds is
//! the review room's.

use crate::cluster::Database;
use crate::error::Result;

/// Writes a kept review; one already there stays as it is (a review never changes).
pub async fn keep(database: &Database, game_id: &str, level: &str, review: &[u8]) -> Result<()> {
    database
        .call("keeping a review", async |client| {
            client
                .execute(
                    "INSERT INTO kept_reviews (game_id, level, review, kept_unix_millis) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (game_id, level) DO NOTHING",
                    &[&game_id, &level, &review, &crate::now()],
                )
                .await?;
            Ok(())
        })
        .await
}

/// A kept review of `game_id` at `level`, if any shard kept one.
pub async fn read(database: &Database, game_id: &str, level: &str) -> Result<Option<Vec<u8>>> {
    database
        .call("reading a kept review", async |client| {
            let row = client
                .query_opt("SELECT review FROM kept_reviews WHERE game_id = $1 AND level = $2", &[&game_id, &level])
                .await?;
            Ok(row.map(|row| row.get(0)))
        })
        .await
}
