//! `clack.v1.GameService`: create, join, play, watch and list games.

use std::sync::Arc;

use clack_log::convert::FieldError;
use clack_log::{Viewer, redact};
use clack_proto::v1 as pb;
use clack_proto::v1::game_service_server::GameService;
use tokio::sync::{broadcast, mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::error::Error;
use crate::games::actor::{Caller, Move};
use crate::games::feed::Feed;
use crate::games::hub::Hub;
use crate::games::shard::Shards;
use crate::who::auth;
use crate::who::policy::Action;

use super::{EventStream, Gate, Reply};

/// Implements `clack.v1.GameService`.
#[derive(Debug, Clone)]
pub struct GameApi {
    pub hub: Arc<Hub>,
    pub gate: Gate,
    /// Turns true when the server starts to shut down; open streams then end.
    pub closing: watch::Receiver<bool>,
    /// The open `Play` stream of each seat.
    pub sessions: Arc<crate::games::play::Sessions>,
    /// The other shards, whose games `ListGames` shows too.
    pub shards: Arc<Shards>,
}

fn seat(seat: u32) -> Result<u8, Error> {
    u8::try_from(seat).map_err(|_| Error::NotFound(format!("there is no seat {seat}")))
}

fn caller<T>(request: &Request<T>, seat_field: Option<u32>) -> Result<Caller, Error> {
    Ok(Caller { seat: seat_field.map(seat).transpose()?, token: auth::bearer(request.metadata()) })
}

fn act_view(value: i32) -> Result<pb::ActView, FieldError> {
    pb::ActView::try_from(value).map_err(|_| FieldError::new("view", "ACT_VIEW_BASIC or ACT_VIEW_FULL"))
}

fn player_name(name: &str) -> Result<String, FieldError> {
    let name = name.trim();
    if name.chars().count() > 64 || name.chars().any(char::is_control) {
        return Err(FieldError::new("name", "up to 64 printable characters"));
    }
    Ok(name.to_owned())
}

#[tonic::async_trait]
impl GameService for GameApi {
    async fn create_game(&self, request: Request<pb::CreateGameRequest>) -> Reply<pb::CreateGameResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.hub.create(request.into_inner(), &identity).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id))]
    async fn join_game(&self, request: Request<pb::JoinGameRequest>) -> Reply<pb::JoinGameResponse> {
        self.gate.admit(&request, Action::Use).await?;
        self.gate.game(&request, &request.get_ref().game_id)?;
        let request = request.into_inner();
        let name = player_name(&request.name).map_err(Error::from)?;
        let id = request.game_id.as_str();
        Ok(Response::new(self.hub.join(id, request.seat, name).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = ?request.get_ref().seat))]
    async fn get_view(&self, request: Request<pb::GetViewRequest>) -> Reply<pb::GetViewResponse> {
        self.gate.admit(&request, Action::Use).await?;
        let caller = caller(&request, request.get_ref().seat)?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(pb::GetViewResponse { view: Some(self.hub.view(id, caller).await?) }))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = request.get_ref().seat))]
    async fn list_legal_actions(
        &self,
        request: Request<pb::ListLegalActionsRequest>,
    ) -> Reply<pb::ListLegalActionsResponse> {
        self.gate.admit(&request, Action::Use).await?;
        let caller = caller(&request, request.get_ref().seat)?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(self.hub.legal(id, caller).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = request.get_ref().seat))]
    async fn act(&self, request: Request<pb::ActRequest>) -> Reply<pb::ActResponse> {
        self.gate.admit(&request, Action::Use).await?;
        let caller = caller(&request, request.get_ref().seat)?;
        self.gate.game(&request, &request.get_ref().game_id)?;
        let request = request.into_inner();
        let id = request.game_id.as_str();
        let full_view = act_view(request.view).map_err(Error::from)? == pb::ActView::Full;
        let action = match (request.action, request.notation) {
            (action, notation) if notation.is_empty() => Move::Proto(action),
            (None, notation) => Move::Notation(notation),
            (Some(_), _) => {
                return Err(Error::from(FieldError::new("notation", "give action or notation, not both")).into());
            }
        };
        let reply = self.hub.act(id, caller, request.expected_sequence, action, full_view).await?;
        Ok(Response::new(reply))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = request.get_ref().seat))]
    async fn resign(&self, request: Request<pb::ResignRequest>) -> Reply<pb::ResignResponse> {
        self.gate.admit(&request, Action::Use).await?;
        let caller = caller(&request, request.get_ref().seat)?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(self.hub.resign(id, caller).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id))]
    async fn cancel_game(&self, request: Request<pb::CancelGameRequest>) -> Reply<pb::CancelGameResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(self.hub.cancel(id, &identity).await?))
    }

    async fn list_games(&self, request: Request<pb::ListGamesRequest>) -> Reply<pb::ListGamesResponse> {
        self.gate.admit(&request, Action::Use).await?;
        if !request.get_ref().match_id.is_empty() {
            // A lone server's match lives on its shard, as a game does; a cluster's is shared.
            self.gate.match_id(&request, &request.get_ref().match_id, self.hub.database().is_some())?;
            return Ok(Response::new(crate::matches::list_games(&self.hub, request.get_ref()).await?));
        }
        if self.hub.lists_cluster() || self.shards.local_only(request.metadata()) {
            return Ok(Response::new(self.hub.list(request.get_ref()).await?));
        }
        Ok(Response::new(self.shards.list(&self.hub, request.get_ref(), request.metadata()).await?))
    }

    type PlayStream = EventStream<pb::PlayResponse>;

    async fn play(&self, request: Request<tonic::Streaming<pb::PlayRequest>>) -> Reply<Self::PlayStream> {
        self.gate.admit(&request, Action::Use).await?;
        let stream = crate::games::play::start(self.hub.clone(), self.sessions.clone(), self.closing.clone(), request);
        Ok(Response::new(Box::pin(stream)))
    }

    type WatchStream = EventStream<pb::WatchResponse>;

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = ?request.get_ref().seat))]
    async fn watch(&self, request: Request<pb::WatchRequest>) -> Reply<Self::WatchStream> {
        self.gate.admit(&request, Action::Use).await?;
        let caller = caller(&request, request.get_ref().seat)?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?.to_owned();
        let request = request.into_inner();
        let (viewer, backlog, subscription) = self.hub.subscribe(&id, caller, request.from_sequence).await?;
        let (sender, receiver) = mpsc::channel(64);
        let hub = self.hub.clone();
        let from = request.from_sequence.max(1);
        let mut closing = self.closing.clone();
        tokio::spawn(async move {
            let backlog = subscription.as_ref().map_or(backlog, |s| s.backlog.clone());
            let mut forward = Forward { sender, viewer, next: from, hub, game_id: id };
            if !forward.send_all(&backlog).await {
                return;
            }
            let Some(subscription) = subscription else { return };
            let sender = forward.sender.clone();
            // A live stream would keep the server from stopping: it ends, UNAVAILABLE, when the
            // server starts to shut down, and the client resumes elsewhere or later.
            tokio::select! {
                () = forward.follow(subscription.live) => {}
                () = async { let _ = closing.wait_for(|closing| *closing).await; } => {
                    let status = Status::unavailable("the server is shutting down; resume the watch from the next sequence");
                    let _ = sender.send(Err(status)).await;
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(receiver))))
    }
}

/// Sends a viewer's events in order, each exactly once.
struct Forward {
    sender: mpsc::Sender<Result<pb::WatchResponse, Status>>,
    viewer: Viewer,
    /// The next sequence number the client needs.
    next: u64,
    /// Where the game's latest clocks are read, to go with its latest event.
    hub: Arc<Hub>,
    game_id: String,
}

impl Forward {
    /// Sends the events the client has not had; false once the client has gone.
    async fn send_all<E: std::borrow::Borrow<pb::Event>>(&mut self, events: &[E]) -> bool {
        let last = events.last().map(|e| e.borrow().sequence);
        for event in events {
            let event = event.borrow();
            if event.sequence < self.next {
                continue;
            }
            // Only the last event given can still be the game's latest, so only it may carry the
            // clocks; the others skip the look-up.
            let latest = (Some(event.sequence) == last).then(|| self.hub.clocks_at(&self.game_id, event.sequence));
            let (clocks, deadline_unix_millis) = latest.flatten().unwrap_or_default();
            let response = pb::WatchResponse { event: Some(redact(event, self.viewer)), clocks, deadline_unix_millis };
            if self.sender.send(Ok(response)).await.is_err() {
                return false;
            }
            self.next = event.sequence + 1;
        }
        true
    }

    /// Follows live events until the game's task stops or the client goes.
    async fn follow(&mut self, live: broadcast::Receiver<Arc<pb::Event>>) {
        let mut feed = Feed { hub: self.hub.clone(), game_id: self.game_id.clone(), live };
        loop {
            let batch = match feed.next(self.next).await {
                Ok(Some(batch)) => batch,
                Ok(None) => return,
                Err(error) => {
                    let _ = self.sender.send(Err(error.into())).await;
                    return;
                }
            };
            if !self.send_all(&batch).await {
                return;
            }
        }
    }
}
