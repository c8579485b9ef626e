//! `GameService.Play`: one seat played over one bidirectional stream.
//!
//! A session sends the seat what it may see (its redacted events, in order, each once) and, when
//! the seat is to act and the session has caught up with the game, a `Turn` with the legal
//! actions and the clocks. The client answers with a move: an index into that turn's actions, a
//! notation, or an action in full. Moves go to the game's actor exactly like `Act` (the same
//! command), so a move made here and one made through `Act` are checked alike; a refused move is
//! answered on the stream and the stream stays open. Reads come from the game's snapshot, never
//! from the actor.
//!
//! One session per seat: a new one takes over and the old one ends with FAILED_PRECONDITION (not
//! a status clients retry on their own, so two clients cannot steal the seat back and forth).
//! Open sessions end with UNAVAILABLE when the server shuts down.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use clack_log::convert::action_to_proto;
use clack_log::{Viewer, redact};
use clack_proto::v1 as pb;
use clack_rules::game;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Status, Streaming};

use crate::error::Error;
use crate::games::actor::{Caller, Move};
use crate::games::feed::Feed;
use crate::games::hub::Hub;
use crate::games::shard::game_id;
use crate::who::auth;

/// Each seat's (game id, seat) open session: its id, and what ends it.
type Open = HashMap<(String, u8), (u64, oneshot::Sender<()>)>;

/// The open session of each seat, so that a new one can end the old.
#[derive(Debug, Default)]
pub struct Sessions {
    open: Mutex<Open>,
    next_id: std::sync::atomic::AtomicU64,
}

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Registers a session for a seat, ending the seat's earlier one; returns the session's id
    /// and what tells it it has been taken over.
    fn open(&self, game_id: &str, seat: u8) -> (u64, oneshot::Receiver<()>) {
        let id = self.next_id.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (kick, kicked) = oneshot::channel();
        if let Some((_, earlier)) = self.lock().insert((game_id.to_owned(), seat), (id, kick)) {
            let _ = earlier.send(());
        }
        (id, kicked)
    }

    /// Forgets a session that has ended, unless another has taken its place.
    fn close(&self, game_id: &str, seat: u8, id: u64) {
        let mut open = self.lock();
        let key = (game_id.to_owned(), seat);
        if open.get(&key).is_some_and(|(current, _)| *current == id) {
            open.remove(&key);
        }
    }
}

type Out = mpsc::Sender<Result<pb::PlayResponse, Status>>;

/// Starts a session on its own task and returns what it sends.
pub fn start(
    hub: Arc<Hub>,
    sessions: Arc<Sessions>,
    closing: watch::Receiver<bool>,
    request: Request<Streaming<pb::PlayRequest>>,
) -> impl Stream<Item = Result<pb::PlayResponse, Status>> + Send + 'static {
    let token = auth::bearer(request.metadata());
    let metadata = request.metadata().clone();
    let inbound = request.into_inner();
    let (out, receiver) = mpsc::channel(64);
    tokio::spawn(async move {
        let opened = Opened { token, metadata, inbound };
        if let Err(status) = run(hub, sessions, closing, opened, out.clone()).await {
            let _ = out.send(Err(status)).await;
        }
    });
    ReceiverStream::new(receiver)
}

/// The turn the seat was last sent.
struct Turn {
    sequence: u64,
    actions: Vec<game::Action>,
}

/// One seat's session, once its hello is read.
struct Session {
    hub: Arc<Hub>,
    game_id: String,
    caller: Caller,
    seat: u8,
    out: Out,
    /// The next sequence the client needs.
    next: u64,
    turn: Option<Turn>,
}

/// What the client opened the stream with.
struct Opened {
    token: Option<String>,
    metadata: tonic::metadata::MetadataMap,
    inbound: Streaming<pb::PlayRequest>,
}

/// Reads the hello, then plays the seat until the game ends, the client goes, another session
/// takes over or the server stops. An error ends the stream with its status.
async fn run(
    hub: Arc<Hub>,
    sessions: Arc<Sessions>,
    mut closing: watch::Receiver<bool>,
    opened: Opened,
    out: Out,
) -> Result<(), Status> {
    let Opened { token, metadata, mut inbound } = opened;
    let hello = match inbound.message().await? {
        Some(pb::PlayRequest { message: Some(pb::play_request::Message::Hello(hello)) }) => hello,
        _ => return Err(Error::from(clack_log::convert::FieldError::new("hello", "send PlayHello first")).into()),
    };
    let id = game_id(&hello.game_id).map_err(Error::from)?.to_owned();
    crate::games::shard::check_route(hub.shard(), &metadata, &id)?;
    let caller = Caller { seat: hello.seat.map(seat_number).transpose()?, token };
    if caller.token.is_none() {
        return Err(
            Error::Unauthenticated("Play needs a seat token: `authorization: Bearer <seat token>`".into()).into()
        );
    }
    let from = hello.after_sequence.saturating_add(1);
    let (viewer, backlog, subscription) = hub.subscribe(&id, caller.clone(), from).await?;
    let Viewer::Seat(seat) = viewer else {
        return Err(Error::Internal("a seat token gave no seat".into()).into());
    };
    // A client that claims to have seen events the game does not have would wait for them
    // forever, and never be offered its turn while its clock runs: refuse it at once. Only a
    // client with nothing to catch up on can be past the end, so only then is the game asked.
    let unsent = subscription.as_ref().map_or(&backlog, |s| &s.backlog);
    let last = if unsent.is_empty() { hub.last_sequence(&id).await? } else { u64::MAX };
    if hello.after_sequence > last {
        let message = format!(
            "after_sequence {} is past the game's last event, {last}: send the last sequence you have seen",
            hello.after_sequence
        );
        return Err(Error::OutOfRange(message).into());
    }
    let mut session =
        Session { hub: hub.clone(), game_id: id.clone(), caller, seat: seat.0, out, next: from, turn: None };
    let Some(subscription) = subscription else {
        // A finished game: what the seat has not seen, then the end.
        session.send_events(&backlog).await;
        return Ok(());
    };
    let (session_id, mut kicked) = sessions.open(&id, seat.0);
    let mut feed = Feed { hub, game_id: id.clone(), live: subscription.live };
    let result = async {
        if !session.send_events(&subscription.backlog).await || !session.offer_turn().await {
            return Ok(());
        }
        loop {
            tokio::select! {
                _ = &mut kicked => {
                    let message = format!("another Play stream has taken over seat {}", seat.0);
                    return Err(Status::failed_precondition(message));
                }
                () = async { let _ = closing.wait_for(|closing| *closing).await; } => {
                    let message = "the server is shutting down; reconnect with after_sequence to resume";
                    return Err(Status::unavailable(message));
                }
                message = inbound.message() => match message? {
                    Some(request) => session.answer(request).await,
                    None => return Ok(()),
                },
                batch = feed.next(session.next) => match batch? {
                    Some(events) => {
                        if !session.send_events(&events).await || !session.offer_turn().await {
                            return Ok(());
                        }
                    }
                    None => return Ok(()),
                },
            }
        }
    }
    .await;
    sessions.close(&id, seat.0, session_id);
    result
}

fn seat_number(seat: u32) -> Result<u8, Error> {
    u8::try_from(seat).map_err(|_| Error::NotFound(format!("there is no seat {seat}")))
}

impl Session {
    async fn send(&self, message: pb::play_response::Message) -> bool {
        self.out.send(Ok(pb::PlayResponse { message: Some(message) })).await.is_ok()
    }

    /// Sends the events the client has not had, as the seat may see them; false once the
    /// client has gone.
    async fn send_events<E: std::borrow::Borrow<pb::Event>>(&mut self, events: &[E]) -> bool {
        for event in events {
            let event = event.borrow();
            if event.sequence < self.next {
                continue;
            }
            let seen = redact(event, Viewer::Seat(clack_rules::Seat(self.seat)));
            if !self.send(pb::play_response::Message::Event(seen)).await {
                return false;
            }
            self.next = event.sequence + 1;
        }
        true
    }

    /// Sends a turn if the seat is to act in the game as the client has seen it, and has not
    /// been sent this turn yet; false once the client has gone.
    async fn offer_turn(&mut self) -> bool {
        let Some(snapshot) = self.hub.snapshot(&self.game_id) else { return true };
        let log = &snapshot.log;
        let caught_up = log.sequence() + 1 == self.next;
        let mine = log.seat_to_act() == Some(clack_rules::Seat(self.seat));
        let sent = self.turn.as_ref().is_some_and(|t| t.sequence == log.sequence());
        if !caught_up || !mine || sent {
            return true;
        }
        let actions = log.game().legal_actions();
        let (clocks, deadline_unix_millis) = self.hub.clocks_at(&self.game_id, log.sequence()).unwrap_or_default();
        let turn = pb::Turn {
            sequence: log.sequence(),
            notation: actions.iter().map(ToString::to_string).collect(),
            actions: actions.iter().copied().map(action_to_proto).collect(),
            clocks,
            deadline_unix_millis,
        };
        self.turn = Some(Turn { sequence: log.sequence(), actions });
        self.send(pb::play_response::Message::Turn(turn)).await
    }

    /// Makes the client's move; a refusal is answered on the stream.
    async fn answer(&mut self, request: pb::PlayRequest) {
        let (sequence, result) = match request.message {
            Some(pb::play_request::Message::Move(play)) => (play.turn_sequence, self.make(play).await),
            Some(pb::play_request::Message::Hello(_)) => {
                (0, Err(clack_log::convert::FieldError::new("hello", "send PlayHello only once").into()))
            }
            None => (0, Err(clack_log::convert::FieldError::new("message", "send hello or move").into())),
        };
        if let Err(error) = result {
            let status = Status::from(error);
            let rejected =
                pb::Rejected { turn_sequence: sequence, code: status.code() as i32, message: status.message().into() };
            let _ = self.send(pb::play_response::Message::Rejected(rejected)).await;
        }
    }

    async fn make(&self, play: pb::PlayMove) -> Result<(), Error> {
        use pb::play_move::Choice;
        let action = match play.choice {
            Some(Choice::Index(index)) => Move::Proto(Some(action_to_proto(self.pick(play.turn_sequence, index)?))),
            Some(Choice::Notation(text)) => Move::Notation(text),
            Some(Choice::Action(action)) => Move::Proto(Some(action)),
            None => {
                return Err(clack_log::convert::FieldError::new(
                    "move.choice",
                    "give an index, a notation or an action",
                )
                .into());
            }
        };
        let caller = Caller { seat: Some(self.seat), token: self.caller.token.clone() };
        self.hub.act(&self.game_id, caller, play.turn_sequence, action, false).await.map(|_| ())
    }

    /// The action at `index` of the turn the client answers.
    fn pick(&self, sequence: u64, index: u32) -> Result<game::Action, Error> {
        let turn = self.turn.as_ref().filter(|t| t.sequence == sequence).ok_or_else(|| {
            Error::Aborted(format!("there is no turn at sequence {sequence}: answer the latest turn you were sent"))
        })?;
        let count = turn.actions.len();
        turn.actions.get(index as usize).copied().ok_or_else(|| {
            clack_log::convert::FieldError::new("move.index", format!("the turn has {count} actions")).into()
        })
    }
}
