//! One task per live game. The task owns the game's [`GameLog`], so the moves of one game are
//! applied one at a time in the order they arrive, while games run in parallel. A move is
//! committed only after its events are durable in the store; until then the log is untouched,
//! so a failed append leaves the game as it was. Committed events are broadcast to watchers.
//!
//! Every commit also publishes a [`Snapshot`]: the game as of that commit, with the seats' token
//! hashes. Calls that only read (a view, the legal actions) are answered from the latest
//! snapshot by the request's own task, so they never queue behind a move waiting for its flush,
//! and they can never see a move that is not durable.

use std::sync::Arc;

use clack_log::convert::{action_from_notation, action_from_proto, action_to_proto};
use clack_log::{GameLog, JoinError, Status, Viewer};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use clack_store::Durable;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use crate::bots::{BotHost, drive_bots};
use crate::error::{Error, Result};
use crate::games::index::Index;
use crate::games::view;
use crate::metrics::PlayedIn;
use crate::who::auth;

/// Who is asking, as the request said: a seat (with the token it presented) or a spectator.
#[derive(Clone, Debug)]
pub struct Caller {
    pub seat: Option<u8>,
    pub token: Option<String>,
}

pub type Reply<T> = oneshot::Sender<Result<T>>;

/// What a live game's task can be asked: whatever changes the game, and subscriptions, which
/// must line up with its broadcast. Reads go to its [`Snapshot`] instead.
#[derive(Debug)]
pub enum Command {
    Join {
        seat: Option<u32>,
        name: String,
        reply: Reply<pb::JoinGameResponse>,
    },
    /// A move; the reply carries the seat's new view only when `full_view` asks for it.
    Act {
        caller: Caller,
        expected: u64,
        action: Move,
        full_view: bool,
        reply: Reply<pb::ActResponse>,
    },
    Resign {
        caller: Caller,
        reply: Reply<pb::ResignResponse>,
    },
    /// Calls off a game that has not started; the reply is the game's last sequence number.
    Abandon {
        reason: String,
        reply: Reply<u64>,
    },
    Subscribe {
        caller: Caller,
        from: u64,
        reply: Reply<Subscription>,
    },
}

/// A move as the client gave it: the action in full, or its text notation. Either becomes a
/// rules action only against the game as it is when the move is made.
#[derive(Clone, Debug)]
pub enum Move {
    Proto(Option<pb::Action>),
    Notation(String),
}

/// The start of a watch: the events so far (from the requested sequence), and a receiver for
/// every event committed after them.
#[derive(Debug)]
pub struct Subscription {
    pub viewer: Viewer,
    pub backlog: Vec<pb::Event>,
    pub live: broadcast::Receiver<Arc<pb::Event>>,
}

/// A game as of its last commit, with its seats' token hashes: what the calls that only read
/// it need. A live game's task publishes one after every commit; a finished game gets one from
/// the store.
#[derive(Debug)]
pub struct Snapshot {
    pub log: GameLog,
    /// Each seat's token hash, once the seat is claimed.
    pub tokens: Arc<[Option<auth::TokenHash>]>,
}

impl Snapshot {
    /// The caller's seat: the one it names, if its token is that seat's, or the one its token
    /// opens.
    pub(crate) fn seat_of(&self, caller: &Caller) -> Result<Seat> {
        let seat = match caller.seat {
            Some(seat) => seat,
            None => auth::seat_of_token(&self.tokens, caller.token.as_deref())?,
        };
        auth::authorize(&self.tokens, seat, caller.token.as_deref())?;
        Ok(Seat(seat))
    }

    /// A caller that names no seat and shows no token is a spectator.
    pub(crate) fn viewer(&self, caller: &Caller) -> Result<Viewer> {
        match (caller.seat, &caller.token) {
            (None, None) => Ok(Viewer::Spectator),
            _ => self.seat_of(caller).map(Viewer::Seat),
        }
    }

    /// What the caller may see of the game.
    pub fn view(&self, caller: &Caller) -> Result<pb::View> {
        self.viewer(caller).map(|viewer| view::view(&self.log, viewer))
    }

    /// The caller's legal actions: none unless it is the caller's turn.
    pub fn legal(&self, caller: &Caller) -> Result<pb::ListLegalActionsResponse> {
        let seat = self.seat_of(caller)?;
        let log = &self.log;
        let actions = if log.seat_to_act() == Some(seat) { log.game().legal_actions() } else { Vec::new() };
        Ok(pb::ListLegalActionsResponse {
            notation: actions.iter().map(ToString::to_string).collect(),
            actions: actions.into_iter().map(action_to_proto).collect(),
            sequence: log.sequence(),
        })
    }
}

pub struct Actor {
    /// The game as of the last commit, shared with readers through `published`.
    current: Arc<Snapshot>,
    published: watch::Sender<Arc<Snapshot>>,
    store: Durable,
    events: broadcast::Sender<Arc<pb::Event>>,
    bots: Option<Arc<dyn BotHost>>,
    /// How long the game may wait for its seats to be taken; `None` for ever.
    join_timeout: Option<std::time::Duration>,
    /// When the last commit was made: a paced game's bot acts no sooner than its pace after it.
    last_commit: tokio::time::Instant,
    /// The cluster's game index, told of the game's changes of status (never of moves).
    index: Option<Arc<Index>>,
    /// Why the game is played (an ordinary game, a match's, the ladder's), for the metrics of
    /// its remote bots' decisions.
    played: PlayedIn,
}

/// Something the game's task must do at a wall-clock time without being asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Due {
    /// The seats were not all taken in time: the game is abandoned.
    JoinTimeout,
    /// The clock of the seat to act ran out.
    Clock,
    /// A remote bot's seat to act took longer than the remote move limit.
    RemoteMove,
}

impl std::fmt::Debug for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Actor")
            .field("game", &self.log().id())
            .field("sequence", &self.log().sequence())
            .finish_non_exhaustive()
    }
}

/// Events kept for watchers that fall behind before they must re-read the store. A move makes
/// one to a handful of events; the buffer is allocated whole for every live game, so it is
/// kept small (1,024 slots cost 25 KiB a game).
const WATCH_BUFFER: usize = 64;

impl Actor {
    /// The actor of a live game, and where readers find its snapshots.
    pub fn new(
        log: GameLog,
        store: Durable,
        tokens: Vec<Option<auth::TokenHash>>,
        bots: Option<Arc<dyn BotHost>>,
        join_timeout: std::time::Duration,
        (index, played): (Option<Arc<Index>>, PlayedIn),
    ) -> (Actor, watch::Receiver<Arc<Snapshot>>) {
        let (events, _) = broadcast::channel(WATCH_BUFFER);
        let current = Arc::new(Snapshot { log, tokens: tokens.into() });
        let (published, snapshots) = watch::channel(current.clone());
        let join_timeout = (!join_timeout.is_zero()).then_some(join_timeout);
        let last_commit = tokio::time::Instant::now();
        (Actor { current, published, store, events, bots, join_timeout, last_commit, index, played }, snapshots)
    }

    fn log(&self) -> &GameLog {
        &self.current.log
    }

    /// Serves commands until the game is over (or every sender is gone). Bots to move first
    /// play before anything else; a time that comes due (see [`Due`]) is acted on before the
    /// commands waiting, so a move that arrives after its seat's deadline finds the game moved on.
    /// Deadlines are wall-clock times derived from the log, so after a restart one that passed
    /// while the server was down fires at once.
    pub async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        while self.log().status() != Status::Finished {
            let due = self.next_due();
            // A bot to move plays, one move at a time, between the requests that are waiting;
            // in a paced game, not before its pace has passed since the last move.
            if self.bot_to_move() && due.is_none_or(|(at, _)| at > crate::now()) {
                if let Some(paced) = self.pace_until() {
                    tokio::select! {
                        biased;
                        command = commands.recv() => match command {
                            Some(command) => self.handle(command).await,
                            None => return,
                        },
                        () = tokio::time::sleep_until(paced) => self.play_bot().await,
                    }
                    continue;
                }
                match commands.try_recv() {
                    Ok(command) => self.handle(command).await,
                    Err(_) => self.play_bot().await,
                }
                continue;
            }
            tokio::select! {
                biased;
                () = sleep_until_unix(due.map(|(at, _)| at)), if due.is_some() => {
                    if let Some((at, due)) = due {
                        self.on_due(at, due).await;
                    }
                }
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => return,
                },
            }
        }
        // Answer what was already asked, with the game as it ended.
        commands.close();
        while let Some(command) = commands.recv().await {
            self.handle(command).await;
        }
    }

    #[tracing::instrument(name = "game", skip_all, fields(game = %self.log().id()))]
    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { seat, name, reply } => {
                let _ = reply.send(self.join(seat, &name).await);
            }
            Command::Act { caller, expected, action, full_view, reply } => {
                let _ = reply.send(self.act(&caller, expected, &action, full_view).await);
            }
            Command::Resign { caller, reply } => {
                let _ = reply.send(self.resign(&caller).await);
            }
            Command::Abandon { reason, reply } => {
                let _ = reply.send(self.abandon(&reason, crate::now()).await);
            }
            Command::Subscribe { caller, from, reply } => {
                let _ = reply.send(self.subscribe(&caller, from).await);
            }
        }
    }

    async fn join(&mut self, seat: Option<u32>, name: &str) -> Result<pb::JoinGameResponse> {
        let mut next = self.log().clone();
        let (seat, event) = next.join(seat, name, crate::now()).map_err(|e| match e {
            JoinError::NoSuchSeat(_) => Error::NotFound(e.to_string()),
            _ => Error::FailedPrecondition(e.to_string()),
        })?;
        let token = auth::new_token();
        let hash = auth::hash(&token);
        self.store.put(&auth::token_key(self.log().id(), seat.0), auth::store_form(&hash)).await?;
        let mut tokens = self.current.tokens.to_vec();
        if let Some(slot) = tokens.get_mut(seat.index()) {
            *slot = Some(hash);
        }
        self.commit_with(next, vec![event], tokens.into()).await?;
        tracing::info!(seat = seat.0, "seat joined");
        Ok(pb::JoinGameResponse { seat: u32::from(seat.0), seat_token: token, sequence: self.log().sequence() })
    }

    async fn act(&mut self, caller: &Caller, expected: u64, action: &Move, full_view: bool) -> Result<pb::ActResponse> {
        let seat = self.current.seat_of(caller)?;
        tracing::Span::current().record("seat", seat.0);
        if self.log().status() == Status::Waiting {
            return Err(Error::FailedPrecondition("the game is waiting for players to take the open seats".into()));
        }
        if expected != self.log().sequence() {
            return Err(Error::Aborted(format!(
                "the game has moved on: it is at sequence {}, not {expected}; look again and retry",
                self.log().sequence()
            )));
        }
        let action = match action {
            Move::Proto(action) => action_from_proto(action.as_ref(), self.log().game(), seat)?,
            Move::Notation(text) => action_from_notation(text, self.log().game(), seat, "notation")?,
        };
        let remote = self.remote_to_act().is_some_and(|(to_act, _, _)| to_act == seat);
        let now = crate::now();
        let mut next = self.log().clone();
        let events = next.perform(seat, action, now)?;
        if let (true, Some(bots)) = (remote, &self.bots) {
            let took = u64::try_from(now.saturating_sub(self.log().last_millis())).unwrap_or_default();
            bots.remote_decided(self.played, std::time::Duration::from_millis(took));
        }
        let points = events
            .iter()
            .find_map(|e| match &e.payload {
                Some(pb::event::Payload::ActionApplied(a)) => Some(a.points),
                _ => None,
            })
            .unwrap_or(0);
        self.commit(next, events).await?;
        tracing::debug!(seat = seat.0, %action, points, "action applied");
        let log = self.log();
        Ok(pb::ActResponse {
            sequence: log.sequence(),
            points,
            // Building, encoding and decoding a whole view is a large part of a move's cost, so
            // it is done only for a client that will read it.
            view: full_view.then(|| view::view(log, Viewer::Seat(seat))),
            status: view::status_to_proto(log.status()) as i32,
            to_move: view::to_move(log),
        })
    }

    async fn resign(&mut self, caller: &Caller) -> Result<pb::ResignResponse> {
        let seat = self.current.seat_of(caller)?;
        let mut next = self.log().clone();
        let events = next.resign(seat, crate::now())?;
        self.commit(next, events).await?;
        tracing::info!(seat = seat.0, "seat resigned");
        Ok(pb::ResignResponse { sequence: self.log().sequence() })
    }

    async fn abandon(&mut self, reason: &str, now: i64) -> Result<u64> {
        let mut next = self.log().clone();
        let events = next.abandon(reason, now)?;
        self.commit(next, events).await?;
        tracing::info!(reason, "game abandoned");
        Ok(self.log().sequence())
    }

    /// The next time the task must act on its own, as Unix milliseconds, and what to do then.
    fn next_due(&self) -> Option<(i64, Due)> {
        let log = self.log();
        match log.status() {
            Status::Waiting => {
                let timeout = i64::try_from(self.join_timeout?.as_millis()).unwrap_or(i64::MAX);
                Some((log.created_millis().saturating_add(timeout), Due::JoinTimeout))
            }
            Status::Active => {
                let clock = log.deadline().map(|(_, at)| (at, Due::Clock));
                let remote = self.remote_deadline().map(|at| (at, Due::RemoteMove));
                clock.into_iter().chain(remote).min_by_key(|&(at, _)| at)
            }
            Status::Finished => None,
        }
    }

    /// When the remote bot to act runs out of its move limit, if a remote bot is to act: at
    /// once when its program is not connected, so that a game with a program that has gone
    /// (or a ladder waiting on that game) is not kept a move limit per turn.
    fn remote_deadline(&self) -> Option<i64> {
        let (_, connected, remotes) = self.remote_to_act()?;
        if !connected {
            return Some(self.log().last_millis());
        }
        let limit = i64::try_from(remotes.move_limit().as_millis()).unwrap_or(i64::MAX);
        Some(self.log().last_millis().saturating_add(limit))
    }

    /// The seat to act, if a remote bot holds it, whether its program is connected, and the
    /// remote bots' connections.
    fn remote_to_act(&self) -> Option<(Seat, bool, &Arc<crate::bots::remote::Remotes>)> {
        let seat = self.log().seat_to_act()?;
        let clack_log::Occupant::Bot { bot_id, version } = self.log().seats().get(seat.index())? else {
            return None;
        };
        let remotes = self.bots.as_ref()?.remote(bot_id)?;
        Some((seat, remotes.is_connected(bot_id, version), remotes))
    }

    /// A remote bot that did not move in time, or whose program is not connected: a fault,
    /// and its first legal action played.
    async fn remote_timed_out(&mut self) -> Result<()> {
        let Some((seat, connected, remotes)) = self.remote_to_act() else { return Ok(()) };
        let fault = if connected {
            let detail = format!("no move within the remote move limit of {} ms", remotes.move_limit().as_millis());
            crate::bots::Fault { reason: "deadline".into(), detail }
        } else {
            let detail = "the remote bot's program is not connected (ConnectBot)".to_owned();
            crate::bots::Fault { reason: "disconnected".into(), detail }
        };
        let Some((next, events)) = crate::bots::play_decision(self.log(), seat, Err(fault)) else { return Ok(()) };
        self.commit(next, events).await
    }

    async fn time_out(&mut self, now: i64) -> Result<()> {
        let mut next = self.log().clone();
        let events = next.time_out(now)?;
        self.commit(next, events).await?;
        tracing::info!(status = ?self.log().status(), "a seat's clock ran out");
        Ok(())
    }

    /// Acts on a time that came due. The events are stamped no earlier than the time itself: the
    /// timer runs on the monotonic clock and the stamp reads the wall clock, and the log must
    /// show the deadline passed even when the two disagree by a millisecond.
    async fn on_due(&mut self, at: i64, due: Due) {
        let now = crate::now().max(at);
        let outcome = match due {
            Due::JoinTimeout => self.abandon("join_timeout", now).await.map(drop),
            Due::Clock => self.time_out(now).await,
            Due::RemoteMove => self.remote_timed_out().await,
        };
        if let Err(error) = outcome {
            tracing::error!(%error, ?due, "could not record what came due; retrying shortly");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }

    async fn subscribe(&mut self, caller: &Caller, from: u64) -> Result<Subscription> {
        let viewer = self.current.viewer(caller)?;
        let backlog = self.store.read(self.log().id(), from.max(1)).await?;
        Ok(Subscription { viewer, backlog, live: self.events.subscribe() })
    }

    /// Makes `next` (with its new `events`) the game, once the events are durable.
    async fn commit(&mut self, next: GameLog, events: Vec<pb::Event>) -> Result<()> {
        let tokens = self.current.tokens.clone();
        self.commit_with(next, events, tokens).await
    }

    /// Commits `next` with the seats' token hashes as they are after it, publishes the new
    /// snapshot, then tells watchers.
    async fn commit_with(
        &mut self,
        next: GameLog,
        events: Vec<pb::Event>,
        tokens: Arc<[Option<auth::TokenHash>]>,
    ) -> Result<()> {
        let summary = view::summary(&next);
        // The index hears of a seat taken, the start and the end, never of a move: a move
        // leaves an active game active.
        let changed = next.status() != self.log().status() || next.status() == Status::Waiting;
        let noted = self.index.clone().filter(|_| changed).map(|index| (index, summary.clone()));
        self.store.append(self.log().id(), self.log().sequence(), events.clone(), summary).await?;
        if let Some((index, summary)) = noted {
            index.note(summary);
        }
        self.current = Arc::new(Snapshot { log: next, tokens });
        self.last_commit = tokio::time::Instant::now();
        self.published.send_replace(self.current.clone());
        for event in events {
            // No watcher is not an error.
            let _ = self.events.send(Arc::new(event));
        }
        Ok(())
    }

    /// When a paced game's bot may act, if that is still to come.
    fn pace_until(&self) -> Option<tokio::time::Instant> {
        let pace = std::time::Duration::from_millis(u64::from(self.log().bot_pace_millis()));
        let at = self.last_commit + pace;
        (at > tokio::time::Instant::now()).then_some(at)
    }

    fn bot_to_move(&self) -> bool {
        let Some(bots) = &self.bots else { return false };
        // A remote bot's seat is played over `Play`, like a person's: the game waits for it.
        let scripted = |seat: Seat| match self.log().seats().get(seat.index()) {
            Some(clack_log::Occupant::Bot { bot_id, .. }) => bots.remote(bot_id).is_none(),
            _ => false,
        };
        self.log().seat_to_act().is_some_and(scripted)
    }

    /// Plays one move for the bot seat to move.
    async fn play_bot(&mut self) {
        let Some(bots) = self.bots.clone() else { return };
        let Some((next, events)) = drive_bots(bots.as_ref(), self.log()).await else { return };
        if let Err(error) = self.commit(next, events).await {
            tracing::error!(%error, "could not record a bot's move; retrying shortly");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
    }
}

/// Sleeps until a wall-clock time in Unix milliseconds (at once if it has passed; for ever if
/// there is none).
async fn sleep_until_unix(at: Option<i64>) {
    let Some(at) = at else { return std::future::pending().await };
    let wait = u64::try_from(at.saturating_sub(crate::now())).unwrap_or(0);
    tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
}
