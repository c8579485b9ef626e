//! One task per live game. The task owns the game's [`GameLog`], so the moves of one game are
//! applied one at a time in the order they arrive, while games run in parallel. A move is
//! committed only after its events are durable in the store; until then the log is untouched,
//! so a failed append leaves the game as it was. Committed events are broadcast to watchers.

use std::sync::Arc;

use clack_log::convert::{action_from_proto, action_to_proto};
use clack_log::{GameLog, JoinError, Status, Viewer};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use clack_store::Durable;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::auth;
use crate::bots::{BotHost, drive_bots};
use crate::error::{Error, Result};
use crate::view;

/// Who is asking, as the request said: a seat (with the token it presented) or a spectator.
#[derive(Clone, Debug)]
pub struct Caller {
    pub seat: Option<u8>,
    pub token: Option<String>,
}

pub type Reply<T> = oneshot::Sender<Result<T>>;

/// What a live game can be asked.
#[derive(Debug)]
pub enum Command {
    Join { seat: Option<u32>, name: String, reply: Reply<pb::JoinGameResponse> },
    View { caller: Caller, reply: Reply<pb::View> },
    Legal { caller: Caller, reply: Reply<pb::ListLegalActionsResponse> },
    Act { caller: Caller, expected: u64, action: Option<pb::Action>, reply: Reply<pb::ActResponse> },
    Resign { caller: Caller, reply: Reply<pb::ResignResponse> },
    Subscribe { caller: Caller, from: u64, reply: Reply<Subscription> },
}

/// The start of a watch: the events so far (from the requested sequence), and a receiver for
/// every event committed after them.
#[derive(Debug)]
pub struct Subscription {
    pub viewer: Viewer,
    pub backlog: Vec<pb::Event>,
    pub live: broadcast::Receiver<Arc<pb::Event>>,
}

pub struct Actor {
    log: GameLog,
    store: Durable,
    tokens: Vec<Option<String>>,
    events: broadcast::Sender<Arc<pb::Event>>,
    bots: Option<Arc<dyn BotHost>>,
}

impl std::fmt::Debug for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Actor")
            .field("game", &self.log.id())
            .field("sequence", &self.log.sequence())
            .finish_non_exhaustive()
    }
}

/// Events kept for watchers that fall behind before they must re-read the store. A move makes
/// one to a handful of events; the buffer is allocated whole for every live game, so it is
/// kept small (1,024 slots cost 25 KiB a game).
const WATCH_BUFFER: usize = 64;

impl Actor {
    pub fn new(log: GameLog, store: Durable, tokens: Vec<Option<String>>, bots: Option<Arc<dyn BotHost>>) -> Actor {
        let (events, _) = broadcast::channel(WATCH_BUFFER);
        Actor { log, store, tokens, events, bots }
    }

    /// Serves commands until the game is over (or every sender is gone). Bots to move first
    /// play before anything else.
    pub async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        while self.log.status() != Status::Finished {
            // A bot to move plays, one move at a time, between the requests that are waiting.
            if self.bot_to_move() {
                match commands.try_recv() {
                    Ok(command) => self.handle(command).await,
                    Err(_) => self.play_bot().await,
                }
                continue;
            }
            let Some(command) = commands.recv().await else { return };
            self.handle(command).await;
        }
        // Answer what was already asked, with the game as it ended.
        commands.close();
        while let Some(command) = commands.recv().await {
            self.handle(command).await;
        }
    }

    #[tracing::instrument(name = "game", skip_all, fields(game = %self.log.id()))]
    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { seat, name, reply } => {
                let _ = reply.send(self.join(seat, &name).await);
            }
            Command::View { caller, reply } => {
                let _ = reply.send(self.viewer(&caller).map(|viewer| view::view(&self.log, viewer)));
            }
            Command::Legal { caller, reply } => {
                let _ = reply.send(self.legal(&caller));
            }
            Command::Act { caller, expected, action, reply } => {
                let _ = reply.send(self.act(&caller, expected, action.as_ref()).await);
            }
            Command::Resign { caller, reply } => {
                let _ = reply.send(self.resign(&caller).await);
            }
            Command::Subscribe { caller, from, reply } => {
                let _ = reply.send(self.subscribe(&caller, from).await);
            }
        }
    }

    fn seat_of(&self, caller: &Caller) -> Result<Seat> {
        let seat = caller
            .seat
            .ok_or_else(|| Error::InvalidArgument(clack_log::convert::FieldError::new("seat", "name the seat")))?;
        auth::authorize(&self.tokens, seat, caller.token.as_deref())?;
        Ok(Seat(seat))
    }

    fn viewer(&self, caller: &Caller) -> Result<Viewer> {
        match caller.seat {
            None => Ok(Viewer::Spectator),
            Some(_) => self.seat_of(caller).map(Viewer::Seat),
        }
    }

    async fn join(&mut self, seat: Option<u32>, name: &str) -> Result<pb::JoinGameResponse> {
        let mut next = self.log.clone();
        let (seat, event) = next.join(seat, name, crate::now()).map_err(|e| match e {
            JoinError::NoSuchSeat(_) => Error::NotFound(e.to_string()),
            _ => Error::FailedPrecondition(e.to_string()),
        })?;
        let token = auth::new_token();
        let hash = auth::hash(&token);
        self.store.put(&auth::token_key(self.log.id(), seat.0), hash.clone().into_bytes()).await?;
        self.commit(next, vec![event]).await?;
        self.tokens[seat.index()] = Some(hash);
        tracing::info!(seat = seat.0, "seat joined");
        Ok(pb::JoinGameResponse { seat: u32::from(seat.0), seat_token: token, sequence: self.log.sequence() })
    }

    fn legal(&self, caller: &Caller) -> Result<pb::ListLegalActionsResponse> {
        let seat = self.seat_of(caller)?;
        let actions = if self.log.to_move() == Some(seat) { self.log.game().legal_actions() } else { Vec::new() };
        Ok(pb::ListLegalActionsResponse {
            notation: actions.iter().map(ToString::to_string).collect(),
            actions: actions.into_iter().map(action_to_proto).collect(),
            sequence: self.log.sequence(),
        })
    }

    async fn act(&mut self, caller: &Caller, expected: u64, action: Option<&pb::Action>) -> Result<pb::ActResponse> {
        let seat = self.seat_of(caller)?;
        tracing::Span::current().record("seat", seat.0);
        if self.log.status() == Status::Waiting {
            return Err(Error::FailedPrecondition("the game is waiting for players to take the open seats".into()));
        }
        if expected != self.log.sequence() {
            return Err(Error::Aborted(format!(
                "the game has moved on: it is at sequence {}, not {expected}; look again and retry",
                self.log.sequence()
            )));
        }
        let action = action_from_proto(action, self.log.game(), seat)?;
        let mut next = self.log.clone();
        let events = next.perform(seat, action, crate::now())?;
        let points = events
            .iter()
            .find_map(|e| match &e.payload {
                Some(pb::event::Payload::ActionApplied(a)) => Some(a.points),
                _ => None,
            })
            .unwrap_or(0);
        self.commit(next, events).await?;
        tracing::debug!(seat = seat.0, %action, points, "action applied");
        Ok(pb::ActResponse {
            sequence: self.log.sequence(),
            points,
            view: Some(view::view(&self.log, Viewer::Seat(seat))),
        })
    }

    async fn resign(&mut self, caller: &Caller) -> Result<pb::ResignResponse> {
        let seat = self.seat_of(caller)?;
        let mut next = self.log.clone();
        let events = next.resign(seat, crate::now())?;
        self.commit(next, events).await?;
        tracing::info!(seat = seat.0, "seat resigned");
        Ok(pb::ResignResponse { sequence: self.log.sequence() })
    }

    async fn subscribe(&mut self, caller: &Caller, from: u64) -> Result<Subscription> {
        let viewer = self.viewer(caller)?;
        let backlog = self.store.read(self.log.id(), from.max(1)).await?;
        Ok(Subscription { viewer, backlog, live: self.events.subscribe() })
    }

    /// Makes `next` (with its new `events`) the game, once the events are durable.
    async fn commit(&mut self, next: GameLog, events: Vec<pb::Event>) -> Result<()> {
        let summary = view::summary(&next);
        self.store.append(self.log.id(), self.log.sequence(), events.clone(), summary).await?;
        self.log = next;
        for event in events {
            // No watcher is not an error.
            let _ = self.events.send(Arc::new(event));
        }
        Ok(())
    }

    fn bot_to_move(&self) -> bool {
        let bot_seat = |seat: Seat| matches!(self.log.seats().get(seat.index()), Some(clack_log::Occupant::Bot { .. }));
        self.bots.is_some() && self.log.to_move().is_some_and(bot_seat)
    }

    /// Plays one move for the bot seat to move.
    async fn play_bot(&mut self) {
        let Some(bots) = self.bots.clone() else { return };
        let Some((next, events)) = drive_bots(bots.as_ref(), &self.log).await else { return };
        if let Err(error) = self.commit(next, events).await {
            tracing::error!(%error, "could not record a bot's move; retrying shortly");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
}
