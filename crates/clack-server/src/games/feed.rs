//! A live game's events for one receiver, in order, whatever its speed: `WatchGame` and the
//! `Play` stream both follow a game through a [`Feed`].
//!
//! A receiver that keeps up takes events from the game's broadcast; one that falls behind it
//! (the broadcast dropped what it had not read) reads the gap back from the store, so no
//! receiver ever misses an event or holds the game's task up.

use std::sync::Arc;

use clack_proto::v1 as pb;
use tokio::sync::broadcast;

use crate::error::Error;
use crate::games::hub::Hub;

/// A live game's events for one receiver, in order from a sequence on: live ones from the
/// game's broadcast and, for a receiver that fell behind it, the gap read back from the store.
pub(crate) struct Feed {
    pub hub: Arc<Hub>,
    pub game_id: String,
    pub live: broadcast::Receiver<Arc<pb::Event>>,
}

impl Feed {
    /// The events from `next` on that have come since the last call (possibly some before
    /// `next`, for the caller to skip); `None` once the game's task has stopped.
    pub(crate) async fn next(&mut self, next: u64) -> Result<Option<Vec<Arc<pb::Event>>>, Error> {
        match self.live.recv().await {
            Ok(event) if event.sequence <= next => Ok(Some(vec![event])),
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                let events = self.hub.read(&self.game_id, next).await?;
                Ok(Some(events.into_iter().map(Arc::new).collect()))
            }
            Err(broadcast::error::RecvError::Closed) => Ok(None),
        }
    }
}
