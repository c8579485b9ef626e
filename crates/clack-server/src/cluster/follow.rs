//! How a shard keeps an in-memory copy of shared tables current: the one follower that accounts
//! and keys ([`super::accounts`]) and bots ([`super::bots`]) use.
//!
//! A `LISTEN` connection wakes the follower at once on each change (the tables' triggers
//! `NOTIFY`), and it reads every [`POLL`] regardless, so a change made on any shard reaches every
//! shard within a second even when a notification is lost with its connection. A read takes
//! every row written at or after the oldest transaction still running at the previous read (see
//! [`SNAPSHOT_XMIN`]), so a transaction that commits late is never skipped. A read, and the
//! listener's connecting, are bounded like every call ([`Database::call`]), so a hung database
//! stalls neither: each read fails at the bound and the next one tries again.

use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::Notify;
use tokio_postgres::{AsyncMessage, NoTls};

use super::{CALL_BOUND, Database, Failure};
use crate::error::Result;

/// How often a shard reads changes even without a notification.
pub(crate) const POLL: Duration = Duration::from_millis(500);
/// How long the listener waits before connecting again after its connection is lost.
const RECONNECT: Duration = Duration::from_secs(1);
/// The oldest transaction still running, as text (`xid8`): every row written by an older one is
/// visible to the snapshot that asks, so the next read may start there.
const SNAPSHOT_XMIN: &str = "SELECT pg_snapshot_xmin(pg_current_snapshot())::text";

/// The condition on a followed table's rows written at or after the transaction given as `$1`.
pub(crate) const CHANGED_SINCE: &str = "changed_xid >= $1::text::xid8";

/// What `rows` reads in one read-only snapshot, and where the next read starts: the oldest
/// transaction still running ([`SNAPSHOT_XMIN`]).
pub(crate) async fn in_snapshot<T>(
    database: &Database,
    doing: &str,
    rows: impl AsyncFnOnce(&deadpool_postgres::Transaction<'_>) -> Result<T, Failure>,
) -> Result<(T, String)> {
    database
        .call(doing, async |client| {
            let transaction = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await?;
            let next: String = transaction.query_one(SNAPSHOT_XMIN, &[]).await?.get(0);
            let read = rows(&transaction).await?;
            transaction.commit().await?;
            Ok((read, next))
        })
        .await
}

/// Something kept current from shared tables.
pub(crate) trait Followed: Send + Sync + 'static {
    /// What one read brings.
    type Changes: Send;
    /// `LISTEN` on the channel its tables' trigger notifies.
    const LISTEN: &'static str;
    /// What is followed, for the log.
    const WHAT: &'static str;
    /// The rows written at or after transaction `from` (`"0"` for all), read in one snapshot,
    /// and where the next read starts.
    fn read(database: &Database, from: &str) -> impl Future<Output = Result<(Self::Changes, String)>> + Send;
    /// Takes a read's changes in.
    fn apply(&self, changes: Self::Changes);
}

/// Keeps `followed` current until it is dropped. A failed read is logged once when the database
/// goes away and once when it is back.
pub(crate) async fn follow<F: Followed>(database: Arc<Database>, followed: Weak<F>, mut from: String) {
    let wake = Arc::new(Notify::new());
    let listener = tokio::spawn(listen(database.clone(), F::LISTEN, wake.clone()));
    let mut away = false;
    loop {
        let _ = tokio::time::timeout(POLL, wake.notified()).await;
        let Some(followed) = followed.upgrade() else { break };
        match F::read(&database, &from).await {
            Ok((changes, next)) => {
                if away {
                    tracing::info!(database = %database.shown(), what = F::WHAT, "the shared database is back; followed again");
                    away = false;
                }
                from = next;
                followed.apply(changes);
            }
            Err(error) if !away => {
                tracing::warn!(%error, what = F::WHAT, "cannot follow the shared database");
                away = true;
            }
            Err(_) => {}
        }
    }
    listener.abort();
}

/// Holds a connection that runs `listen` and wakes `wake` on each notification, connecting again
/// whenever the connection is lost (and waking then too, since notifications sent meanwhile are
/// lost). Connecting is bounded, so a hung database is tried again after [`RECONNECT`] rather
/// than waited for; once listening, a quiet connection is what a hung one looks like too, and
/// the poll reads regardless.
async fn listen(database: Arc<Database>, listen: &'static str, wake: Arc<Notify>) {
    loop {
        let connecting = async { database.config().connect(NoTls).await.map_err(|e| database.failed("listening", &e)) };
        if let Ok((client, mut connection)) = database.within("listening", CALL_BOUND, connecting).await {
            let messages = async {
                while let Some(message) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                    match message {
                        Ok(AsyncMessage::Notification(_)) => wake.notify_one(),
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
            };
            tokio::pin!(messages);
            let listening = database.within("listening", CALL_BOUND, async {
                client.batch_execute(listen).await.map_err(|e| database.failed("listening", &e))
            });
            tokio::select! {
                result = listening => if result.is_ok() {
                    wake.notify_one();
                    messages.await;
                },
                () = &mut messages => {}
            }
        }
        tokio::time::sleep(RECONNECT).await;
    }
}
