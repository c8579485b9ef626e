//! Remote bots: programs in any language that hold one stream to the server (`ConnectBot`) and
//! play the seats they are offered over `GameService.Play`, like a person at a keyboard.
//!
//! This module owns the connections: which remote bot versions are connected now, and the
//! sender of each one's offers. It knows nothing of games or the library: the hub asks it to
//! offer a seat, the library asks whether a version is connected (only a connected version may
//! be seated or scheduled), and the game's task asks how long a remote seat may think.
//!
//! A version has at most one connection. A second `ConnectBot` for it while the first is open
//! is refused, so two copies of a program never race for the same seats; the entry goes when
//! its stream ends (the client went away or the server is closing), because the stream owns a
//! [`Connected`] guard that removes it on drop.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use clack_proto::v1 as pb;
use tokio::sync::{mpsc, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;

use crate::error::{Error, Result};

/// Offers queued for a program that reads them slowly; one more is refused, and the seat it
/// would have been told of faults at its move limit like a seat whose program stopped.
const OFFER_QUEUE: usize = 256;

/// The default of `--remote-move-ms`: how long a remote seat may take over one move. Long
/// enough for a program on another continent, short enough that a stopped one costs a game
/// seconds per turn, not minutes.
pub const DEFAULT_MOVE_LIMIT: Duration = Duration::from_secs(5);

/// One message of a connection's stream.
pub type Offered = std::result::Result<pb::ConnectBotResponse, tonic::Status>;

type Sender = mpsc::Sender<Offered>;

/// The connected remote bot versions.
#[derive(Debug)]
pub struct Remotes {
    connections: Mutex<HashMap<(String, String), (u64, Sender)>>,
    next: AtomicU64,
    /// Milliseconds; set at start (`--remote-move-ms`).
    move_limit: AtomicU64,
}

impl Remotes {
    pub fn new(move_limit: Duration) -> Arc<Remotes> {
        let move_limit = AtomicU64::new(millis(move_limit));
        Arc::new(Remotes { connections: Mutex::new(HashMap::new()), next: AtomicU64::new(1), move_limit })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), (u64, Sender)>> {
        self.connections.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How long a remote seat's move may take before it is recorded as a fault.
    pub fn move_limit(&self) -> Duration {
        Duration::from_millis(self.move_limit.load(Ordering::Relaxed))
    }

    /// Sets the move limit, for seats that come to move from now on.
    pub fn set_move_limit(&self, limit: Duration) {
        self.move_limit.store(millis(limit), Ordering::Relaxed);
    }

    /// Opens the connection of `bot_id` at `version`: the stream of its offers, which starts
    /// with [`pb::BotConnected`]. ALREADY_EXISTS while another is open.
    pub fn connect(self: &Arc<Self>, bot_id: &str, version: &str) -> Result<Connected> {
        let key = (bot_id.to_owned(), version.to_owned());
        let (sender, receiver) = mpsc::channel(OFFER_QUEUE);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        {
            let mut connections = self.lock();
            if connections.get(&key).is_some_and(|(_, open)| !open.is_closed()) {
                return Err(Error::AlreadyExists(format!(
                    "bot {bot_id} at version {version} is already connected; one connection per version"
                )));
            }
            let hello = pb::BotConnected {
                bot_id: bot_id.to_owned(),
                version: version.to_owned(),
                move_limit_millis: self.move_limit.load(Ordering::Relaxed),
            };
            let first = pb::ConnectBotResponse { message: Some(pb::connect_bot_response::Message::Connected(hello)) };
            // A new channel has room: the hello cannot be refused.
            let _ = sender.try_send(Ok(first));
            connections.insert(key.clone(), (id, sender));
        }
        tracing::info!(bot = bot_id, version, "remote bot connected");
        Ok(Connected { remotes: self.clone(), key, id, offers: receiver })
    }

    /// Whether `bot_id` at `version` has an open connection.
    pub fn is_connected(&self, bot_id: &str, version: &str) -> bool {
        self.lock().get(&(bot_id.to_owned(), version.to_owned())).is_some_and(|(_, sender)| !sender.is_closed())
    }

    /// FAILED_PRECONDITION, naming it, unless `bot_id` at `version` has an open connection.
    pub fn check_connected(&self, bot_id: &str, version: &str) -> Result<()> {
        if self.is_connected(bot_id, version) {
            return Ok(());
        }
        Err(Error::FailedPrecondition(format!(
            "remote bot {bot_id} at version {version} is not connected: its program must hold ConnectBot open"
        )))
    }

    /// The connected versions of `bot_id`.
    pub fn connected_versions(&self, bot_id: &str) -> Vec<String> {
        let connections = self.lock();
        let mut versions: Vec<String> = connections
            .iter()
            .filter(|((bot, _), (_, sender))| bot == bot_id && !sender.is_closed())
            .map(|((_, version), _)| version.clone())
            .collect();
        versions.sort();
        versions
    }

    /// Tells the connection of `bot_id` at `version` of a seat. FAILED_PRECONDITION when it is
    /// not connected or its queue is full.
    pub fn offer(&self, bot_id: &str, version: &str, offer: pb::SeatOffer) -> Result<()> {
        let sender = self.lock().get(&(bot_id.to_owned(), version.to_owned())).map(|(_, sender)| sender.clone());
        let message = pb::ConnectBotResponse { message: Some(pb::connect_bot_response::Message::Offer(offer)) };
        match sender.map(|sender| sender.try_send(Ok(message))) {
            Some(Ok(())) => Ok(()),
            _ => Err(Error::FailedPrecondition(format!("remote bot {bot_id} at version {version} is not connected"))),
        }
    }

    fn disconnect(&self, key: &(String, String), id: u64) {
        let mut connections = self.lock();
        if connections.get(key).is_some_and(|(open, _)| *open == id) {
            connections.remove(key);
            tracing::info!(bot = %key.0, version = %key.1, "remote bot disconnected");
        }
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// One connection's stream of offers. Dropping it (the client went away) disconnects the
/// version.
#[derive(Debug)]
pub struct Connected {
    remotes: Arc<Remotes>,
    key: (String, String),
    id: u64,
    offers: mpsc::Receiver<Offered>,
}

impl Connected {
    /// The offers until the server starts to close (or the client goes): a stream tonic serves
    /// and drops when either happens, which disconnects the version.
    pub fn until(mut self, mut closing: watch::Receiver<bool>) -> ReceiverStream<Offered> {
        let (sender, receiver) = mpsc::channel(1);
        tokio::spawn(async move {
            while !*closing.borrow_and_update() {
                tokio::select! {
                    changed = closing.changed() => if changed.is_err() { break },
                    () = sender.closed() => break,
                    next = self.offers.recv() => {
                        let Some(offer) = next else { break };
                        if sender.send(offer).await.is_err() {
                            break;
                        }
                    }
                }
            }
        });
        ReceiverStream::new(receiver)
    }
}

impl Stream for Connected {
    type Item = Offered;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.offers.poll_recv(cx)
    }
}

impl Drop for Connected {
    fn drop(&mut self) {
        self.remotes.disconnect(&self.key, self.id);
    }
}

#[cfg(test)]
mod tests {
    use tokio_stream::StreamExt;

    use super::*;

    fn offer(game: &str) -> pb::SeatOffer {
        pb::SeatOffer { game_id: game.to_owned(), seat: 1, seat_token: "t".into(), kind: 1, match_id: String::new() }
    }

    #[tokio::test]
    async fn one_connection_per_version_and_it_ends_with_its_stream() {
        let remotes = Remotes::new(DEFAULT_MOVE_LIMIT);
        let mut first = remotes.connect("b", "v1").expect("connects");
        assert!(remotes.is_connected("b", "v1"));
        let refused = remotes.connect("b", "v1").expect_err("a second connection");
        assert!(matches!(refused, Error::AlreadyExists(_)), "{refused:?}");
        let other = remotes.connect("b", "v2").expect("another version connects");
        assert_eq!(remotes.connected_versions("b"), ["v1", "v2"]);
        remotes.offer("b", "v1", offer("g1")).expect("offered");
        let hello = first.next().await.expect("hello").expect("ok");
        assert!(matches!(hello.message, Some(pb::connect_bot_response::Message::Connected(_))));
        let seat = first.next().await.expect("offer").expect("ok");
        assert!(matches!(seat.message, Some(pb::connect_bot_response::Message::Offer(o)) if o.game_id == "g1"));
        drop(first);
        assert!(!remotes.is_connected("b", "v1"));
        assert!(remotes.offer("b", "v1", offer("g2")).is_err(), "no connection, no offer");
        let again = remotes.connect("b", "v1").expect("reconnects once the first is gone");
        drop(other);
        assert_eq!(remotes.connected_versions("b"), ["v1"]);
        drop(again);
        assert!(remotes.connected_versions("b").is_empty());
    }
}
