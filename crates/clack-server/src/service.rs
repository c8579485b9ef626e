//! The gRPC services: learn who asks and whether they may ([`Gate`]), read and check the request,
//! call the hub, shape the reply. Nothing here knows the rules or decides who may do what (that is
//! [`crate::policy`]); every error goes through `Status::from(Error)`.

use std::pin::Pin;
use std::sync::Arc;

use clack_log::convert::FieldError;
use clack_log::{Viewer, redact};
use clack_proto::v1 as pb;
use clack_proto::v1::game_service_server::GameService;
use clack_proto::v1::replay_service_server::ReplayService;
use tokio::sync::{broadcast, mpsc, watch};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use crate::access::{Access, Identity};
use crate::actor::Caller;
use crate::auth;
use crate::error::Error;
use crate::hub::Hub;
use crate::library::Asker;
use crate::policy::{self, Action};
use crate::quota::Meter;

type Reply<T> = Result<Response<T>, Status>;
type EventStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// Where every request comes in: who sent it (its key), whether it may do what it asks, and
/// whether it is within its request rate.
#[derive(Debug, Clone)]
pub struct Gate {
    pub access: Arc<Access>,
    pub meter: Arc<Meter>,
}

impl Gate {
    pub fn new(hub: &Hub) -> Gate {
        Gate { access: hub.access().clone(), meter: hub.meter().clone() }
    }

    /// Lets a request in to do `action`, or says why not.
    pub fn admit<T>(&self, request: &Request<T>, action: Action<'_>) -> Result<Identity, Error> {
        let addr = request.remote_addr().map(|a| a.ip());
        let identity = self.access.identify(request.metadata(), addr)?;
        policy::check(self.access.mode(), &identity, action)?;
        self.meter.request(&identity.who)?;
        Ok(identity)
    }

    fn asker<'a>(&'a self, identity: &'a Identity) -> Asker<'a> {
        Asker { identity, mode: self.access.mode(), meter: &self.meter }
    }
}

/// Implements `clack.v1.GameService`.
#[derive(Debug, Clone)]
pub struct GameApi {
    pub hub: Arc<Hub>,
    pub gate: Gate,
    /// Turns true when the server starts to shut down; open streams then end.
    pub closing: watch::Receiver<bool>,
}

/// Implements `clack.v1.ReplayService`.
#[derive(Debug, Clone)]
pub struct ReplayApi {
    pub hub: Arc<Hub>,
    pub gate: Gate,
}

fn game_id(id: &str) -> Result<&str, FieldError> {
    let ok =
        !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok { Ok(id) } else { Err(FieldError::new("game_id", "give the id CreateGame returned")) }
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
        let identity = self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.hub.create(request.into_inner(), &identity).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id))]
    async fn join_game(&self, request: Request<pb::JoinGameRequest>) -> Reply<pb::JoinGameResponse> {
        self.gate.admit(&request, Action::Use)?;
        let request = request.into_inner();
        let name = player_name(&request.name).map_err(Error::from)?;
        let id = game_id(&request.game_id).map_err(Error::from)?;
        Ok(Response::new(self.hub.join(id, request.seat, name).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = ?request.get_ref().seat))]
    async fn get_view(&self, request: Request<pb::GetViewRequest>) -> Reply<pb::GetViewResponse> {
        self.gate.admit(&request, Action::Use)?;
        let caller = caller(&request, request.get_ref().seat)?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(pb::GetViewResponse { view: Some(self.hub.view(id, caller).await?) }))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = request.get_ref().seat))]
    async fn list_legal_actions(
        &self,
        request: Request<pb::ListLegalActionsRequest>,
    ) -> Reply<pb::ListLegalActionsResponse> {
        self.gate.admit(&request, Action::Use)?;
        let caller = caller(&request, Some(request.get_ref().seat))?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(self.hub.legal(id, caller).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = request.get_ref().seat))]
    async fn act(&self, request: Request<pb::ActRequest>) -> Reply<pb::ActResponse> {
        self.gate.admit(&request, Action::Use)?;
        let caller = caller(&request, Some(request.get_ref().seat))?;
        let request = request.into_inner();
        let id = game_id(&request.game_id).map_err(Error::from)?;
        let full_view = act_view(request.view).map_err(Error::from)? == pb::ActView::Full;
        let reply = self.hub.act(id, caller, request.expected_sequence, request.action, full_view).await?;
        Ok(Response::new(reply))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = request.get_ref().seat))]
    async fn resign(&self, request: Request<pb::ResignRequest>) -> Reply<pb::ResignResponse> {
        self.gate.admit(&request, Action::Use)?;
        let caller = caller(&request, Some(request.get_ref().seat))?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(self.hub.resign(id, caller).await?))
    }

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id))]
    async fn cancel_game(&self, request: Request<pb::CancelGameRequest>) -> Reply<pb::CancelGameResponse> {
        let identity = self.gate.admit(&request, Action::Use)?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(self.hub.cancel(id, &identity).await?))
    }

    async fn list_games(&self, request: Request<pb::ListGamesRequest>) -> Reply<pb::ListGamesResponse> {
        self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.hub.list(request.get_ref()).await?))
    }

    type WatchStream = EventStream<pb::WatchResponse>;

    #[tracing::instrument(skip_all, fields(game = %request.get_ref().game_id, seat = ?request.get_ref().seat))]
    async fn watch(&self, request: Request<pb::WatchRequest>) -> Reply<Self::WatchStream> {
        self.gate.admit(&request, Action::Use)?;
        let caller = caller(&request, request.get_ref().seat)?;
        let request = request.into_inner();
        let id = game_id(&request.game_id).map_err(Error::from)?.to_owned();
        let (viewer, backlog, subscription) = self.hub.subscribe(&id, caller, request.from_sequence).await?;
        let (sender, receiver) = mpsc::channel(64);
        let hub = self.hub.clone();
        let from = request.from_sequence.max(1);
        let mut closing = self.closing.clone();
        tokio::spawn(async move {
            let backlog = subscription.as_ref().map_or(backlog, |s| s.backlog.clone());
            let mut forward = Forward { sender, viewer, next: from };
            if !forward.send_all(&backlog).await {
                return;
            }
            let Some(subscription) = subscription else { return };
            let sender = forward.sender.clone();
            // A live stream would keep the server from stopping: it ends, UNAVAILABLE, when the
            // server starts to shut down, and the client resumes elsewhere or later.
            tokio::select! {
                () = forward.follow(&hub, &id, subscription.live) => {}
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
}

impl Forward {
    /// Sends the events the client has not had; false once the client has gone.
    async fn send_all(&mut self, events: &[pb::Event]) -> bool {
        for event in events {
            if event.sequence < self.next {
                continue;
            }
            let response = pb::WatchResponse { event: Some(redact(event, self.viewer)) };
            if self.sender.send(Ok(response)).await.is_err() {
                return false;
            }
            self.next = event.sequence + 1;
        }
        true
    }

    /// Follows live events until the game's task stops or the client goes. A watcher that falls
    /// behind the broadcast buffer catches up from the store.
    async fn follow(&mut self, hub: &Hub, game_id: &str, mut live: broadcast::Receiver<Arc<pb::Event>>) {
        loop {
            let batch = match live.recv().await {
                Ok(event) if event.sequence <= self.next => vec![(*event).clone()],
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => match hub.read(game_id, self.next).await {
                    Ok(events) => events,
                    Err(error) => {
                        let _ = self.sender.send(Err(error.into())).await;
                        return;
                    }
                },
                Err(broadcast::error::RecvError::Closed) => return,
            };
            if !self.send_all(&batch).await {
                return;
            }
        }
    }
}

#[tonic::async_trait]
impl ReplayService for ReplayApi {
    async fn get_log(&self, request: Request<pb::GetLogRequest>) -> Reply<pb::GetLogResponse> {
        self.gate.admit(&request, Action::ReadFinished)?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(pb::GetLogResponse { events: self.hub.full_log(id).await? }))
    }

    async fn get_state_at(&self, request: Request<pb::GetStateAtRequest>) -> Reply<pb::GetStateAtResponse> {
        self.gate.admit(&request, Action::ReadFinished)?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(pb::GetStateAtResponse {
            view: Some(self.hub.state_at(id, request.get_ref().sequence).await?),
        }))
    }

    async fn verify(&self, request: Request<pb::VerifyRequest>) -> Reply<pb::VerifyResponse> {
        self.gate.admit(&request, Action::ReadFinished)?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        Ok(Response::new(self.hub.verify(id).await?))
    }

    type ExportStream = EventStream<pb::ExportResponse>;

    async fn export(&self, request: Request<pb::ExportRequest>) -> Reply<Self::ExportStream> {
        self.gate.admit(&request, Action::ReadFinished)?;
        let id = game_id(&request.get_ref().game_id).map_err(Error::from)?;
        let lines = self.hub.export(id).await?;
        let stream = tokio_stream::iter(lines.into_iter().map(|json_line| Ok(pb::ExportResponse { json_line })));
        Ok(Response::new(Box::pin(stream)))
    }
}

/// Implements `clack.v1.BotService`.
#[derive(Debug, Clone)]
pub struct BotApi {
    pub library: Arc<crate::library::BotLibrary>,
    pub gate: Gate,
}

#[tonic::async_trait]
impl clack_proto::v1::bot_service_server::BotService for BotApi {
    async fn upload_bot(&self, request: Request<pb::UploadBotRequest>) -> Reply<pb::UploadBotResponse> {
        let identity = self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.library.upload(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    async fn validate_bot(&self, request: Request<pb::ValidateBotRequest>) -> Reply<pb::ValidateBotResponse> {
        let identity = self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.library.validate(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    async fn list_bots(&self, request: Request<pb::ListBotsRequest>) -> Reply<pb::ListBotsResponse> {
        self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.library.list(request.get_ref())?))
    }

    async fn get_bot(&self, request: Request<pb::GetBotRequest>) -> Reply<pb::GetBotResponse> {
        let identity = self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.library.get(request.get_ref(), self.gate.asker(&identity)).await?))
    }

    async fn retire_bot(&self, request: Request<pb::RetireBotRequest>) -> Reply<pb::RetireBotResponse> {
        let identity = self.gate.admit(&request, Action::Use)?;
        self.library.retire(request.get_ref(), self.gate.asker(&identity)).await?;
        Ok(Response::new(pb::RetireBotResponse {}))
    }

    async fn run_match(&self, request: Request<pb::RunMatchRequest>) -> Reply<pb::RunMatchResponse> {
        let identity = self.gate.admit(&request, Action::Use)?;
        Ok(Response::new(self.library.run_match(request.into_inner(), self.gate.asker(&identity)).await?))
    }
}

/// Implements `clack.v1.AdminService`: every call needs an admin's key.
#[derive(Debug, Clone)]
pub struct AdminApi {
    pub gate: Gate,
    pub hub: Arc<Hub>,
}

/// The size of one piece of a backup stream.
const BACKUP_PIECE: usize = 1 << 20;

#[tonic::async_trait]
impl clack_proto::v1::admin_service_server::AdminService for AdminApi {
    async fn create_account(&self, request: Request<pb::CreateAccountRequest>) -> Reply<pb::CreateAccountResponse> {
        self.gate.admit(&request, Action::Administer)?;
        Ok(Response::new(self.gate.access.create_account(request.get_ref()).await?))
    }

    async fn list_accounts(&self, request: Request<pb::ListAccountsRequest>) -> Reply<pb::ListAccountsResponse> {
        self.gate.admit(&request, Action::Administer)?;
        Ok(Response::new(self.gate.access.list_accounts()?))
    }

    async fn create_key(&self, request: Request<pb::CreateKeyRequest>) -> Reply<pb::CreateKeyResponse> {
        self.gate.admit(&request, Action::Administer)?;
        Ok(Response::new(self.gate.access.create_key(&request.get_ref().account).await?))
    }

    async fn revoke_key(&self, request: Request<pb::RevokeKeyRequest>) -> Reply<pb::RevokeKeyResponse> {
        self.gate.admit(&request, Action::Administer)?;
        Ok(Response::new(self.gate.access.revoke_key(&request.get_ref().key_id).await?))
    }

    type BackupStream = EventStream<pb::BackupResponse>;

    async fn backup(&self, request: Request<pb::BackupRequest>) -> Reply<Self::BackupStream> {
        self.gate.admit(&request, Action::Administer)?;
        let file = self.hub.backup().await?;
        tracing::info!(bytes = file.len(), "backup taken");
        let pieces: Vec<_> =
            file.chunks(BACKUP_PIECE).map(|piece| Ok(pb::BackupResponse { data: piece.to_vec() })).collect();
        Ok(Response::new(Box::pin(tokio_stream::iter(pieces))))
    }
}
