//! The shared database's schema, as numbered migrations compiled into the binary.
//!
//! Each migration is a SQL file under `migrations/`, applied once, in order, and recorded in
//! `clack_schema_migrations`. All of a start's migrations run in one transaction under an
//! advisory lock, so that shards starting together apply each exactly once and a failed
//! migration leaves the schema as it was. A database already migrated by a newer Clack is
//! refused rather than used with a schema this build does not know. Migrations are never
//! edited once released: a change is a new file.

use std::time::Duration;

use tokio_postgres::Client;

/// How long a start's migrations may take, all told, and any statement of them: far beyond an
/// ordinary call's bound, since a migration may build an index over a big table, yet a database
/// that does not answer still stops a shard's start with an error naming it.
pub const BOUND: Duration = Duration::from_secs(60);

/// Every migration this build knows: (version, name, SQL).
pub const MIGRATIONS: &[(i32, &str, &str)] = &[
    (1, "accounts and keys", include_str!("migrations/0001_accounts_and_keys.sql")),
    (2, "shards", include_str!("migrations/0002_shards.sql")),
    (3, "game index", include_str!("migrations/0003_game_index.sql")),
    (4, "bots", include_str!("migrations/0004_bots.sql")),
    (5, "bots by owner", include_str!("migrations/0005_bots_by_owner.sql")),
    (6, "the bots of indexed games", include_str!("migrations/0006_game_bots.sql")),
    (7, "leases and the ladder's boards", include_str!("migrations/0007_ladder.sql")),
    (8, "kept reviews", include_str!("migrations/0008_kept_reviews.sql")),
    (9, "matches", include_str!("migrations/0009_matches.sql")),
];

/// The newest version this build knows.
pub fn latest() -> i32 {
    MIGRATIONS.last().map_or(0, |m| m.0)
}

/// The versions a database has applied (empty for a database Clack never used).
pub async fn applied(client: &Client) -> Result<Vec<i32>, MigrateError> {
    let exists: bool = client.query_one("SELECT to_regclass('clack_schema_migrations') IS NOT NULL", &[]).await?.get(0);
    if !exists {
        return Ok(Vec::new());
    }
    let rows = client.query("SELECT version FROM clack_schema_migrations ORDER BY version", &[]).await?;
    Ok(rows.iter().map(|row| row.get(0)).collect())
}

/// The advisory lock that serialises migrations (any fixed number; "clack" in ASCII).
const LOCK: i64 = 0x0063_6c61_636b;

/// Why migrating failed.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error(transparent)]
    Postgres(#[from] tokio_postgres::Error),
    #[error(
        "the database has schema version {found}, newer than this build's {known}: run the newer Clack, or a database of its own"
    )]
    Newer { found: i32, known: i32 },
}

/// Applies the migrations not yet applied, in order, in one transaction; answers their
/// versions (empty when the schema was current).
pub async fn apply(client: &mut Client) -> Result<Vec<i32>, MigrateError> {
    let transaction = client.transaction().await?;
    // The connection's statement timeout is an ordinary call's; this transaction's is the bound.
    transaction.batch_execute(&format!("SET LOCAL statement_timeout = {}", BOUND.as_millis())).await?;
    transaction.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK]).await?;
    transaction
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS clack_schema_migrations (
                 version integer PRIMARY KEY,
                 name text NOT NULL,
                 applied_at timestamptz NOT NULL DEFAULT now())",
        )
        .await?;
    let row = transaction.query_one("SELECT coalesce(max(version), 0) FROM clack_schema_migrations", &[]).await?;
    let current: i32 = row.get(0);
    let known = latest();
    if current > known {
        return Err(MigrateError::Newer { found: current, known });
    }
    let mut applied = Vec::new();
    for &(version, name, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        transaction.batch_execute(sql).await?;
        transaction
            .execute("INSERT INTO clack_schema_migrations (version, name) VALUES ($1, $2)", &[&version, &name])
            .await?;
        tracing::info!(version, name, "migration applied");
        applied.push(version);
    }
    transaction.commit().await?;
    Ok(applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_numbered_from_one_without_gaps() {
        for (i, (version, name, sql)) in MIGRATIONS.iter().enumerate() {
            assert_eq!(*version as usize, i + 1, "{name}");
            assert!(!sql.trim().is_empty(), "{name}");
        }
    }
}
