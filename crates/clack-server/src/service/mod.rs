//! The gRPC services: learn who asks and whether they may ([`Gate`]), read and check the request,
//! call the hub, shape the reply. Nothing here knows the rules or decides who may do what (that is
//! [`crate::who::policy`]); every error goes through `Status::from(Error)`.

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

use crate::bots::library::Asker;
use crate::error::Error;
use crate::games::actor::{Caller, Move};
use crate::games::feed::Feed;
use crate::games::hub::Hub;
use crate::games::shard::{self, ShardName, Shards};
use crate::who::access::{Access, Identity};
use crate::who::auth;
use crate::who::policy::{self, Action};
use crate::who::quota::Meter;

type Reply<T> = Result<Response<T>, Status>;
type EventStream<T> = Pin<Box<dyn Stream<Item = Result<T, Status>> + Send>>;

/// Where every request comes in: who sent it (its key), whether it may do what it asks, and
/// whether it is within its request rate.
#[derive(Debug, Clone)]
pub struct Gate {
    pub access: Arc<Access>,
    pub meter: Arc<Meter>,
    /// The shard this server is, to refuse calls about other shards' games.
    pub shard: ShardName,
}

impl Gate {
    pub fn new(hub: &Hub) -> Gate {
        Gate { access: hub.access().clone(), meter: hub.meter().clone(), shard: hub.shard() }
    }

    /// The id of the game a request is about, once it is well formed, agrees with the
    /// `x-clack-game` header and names a game of this shard.
    pub fn game<'a, T>(&self, request: &Request<T>, id: &'a str) -> Result<&'a str, Error> {
        let id = shard::game_id(id)?;
        shard::check_route(self.shard, request.metadata(), id)?;
        Ok(id)
    }

    /// Lets a request in to do `action`, or says why not.
    ///
    /// On a cluster's shard, a key this shard has not heard of yet (made through another shard a
    /// moment ago) is looked up in the shared database before the caller is told it is not
    /// valid. The returned future holds no reference to the request, so that it stays `Send`
    /// for streaming calls.
    pub fn admit<'a, T>(
        &'a self,
        request: &Request<T>,
        action: Action<'a>,
    ) -> impl std::future::Future<Output = Result<Identity, Error>> + Send + 'a {
        let addr = request.remote_addr().map(|a| a.ip());
        let caller = match self.access.unknown_key(request.metadata()) {
            None => Asking::Known(self.access.identify(request.metadata(), addr)),
            Some(key_id) => Asking::Unknown(key_id, request.metadata().clone()),
        };
        async move {
            let identity = match caller {
                Asking::Known(identity) => identity?,
                Asking::Unknown(key_id, metadata) => {
                    self.access.learn_key(&key_id).await?;
                    self.access.identify(&metadata, addr)?
                }
            };
            policy::check(self.access.mode(), &identity, action)?;
            self.meter.request(&identity.who)?;
            Ok(identity)
        }
    }

    fn asker<'a>(&'a self, identity: &'a Identity) -> Asker<'a> {
        Asker { identity, mode: self.access.mode(), meter: &self.meter }
    }
}

/// Who a request comes from, as far as this shard can tell without waiting.
enum Asking {
    /// Identified from memory (or refused).
    Known(Result<Identity, Error>),
    /// A key id this shard has not heard of, with the request's metadata to try again with.
    Unknown(String, tonic::metadata::MetadataMap),
}

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

/// Implements `clack.v1.ReplayService`.
#[derive(Debug, Clone)]
pub struct ReplayApi {
    pub hub: Arc<Hub>,
    pub gate: Gate,
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
            // A match lives on the shard that started it, as a game does.
            self.gate.game(&request, &request.get_ref().match_id)?;
            return Ok(Response::new(crate::matches::list_games(&self.hub, request.get_ref()).await?));
        }
        if self.hub.lists_cluster(request.get_ref()) || self.shards.local_only(request.metadata()) {
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

#[tonic::async_trait]
impl ReplayService for ReplayApi {
    async fn get_log(&self, request: Request<pb::GetLogRequest>) -> Reply<pb::GetLogResponse> {
        self.gate.admit(&request, Action::ReadFinished).await?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(pb::GetLogResponse { events: self.hub.full_log(id).await? }))
    }

    async fn get_state_at(&self, request: Request<pb::GetStateAtRequest>) -> Reply<pb::GetStateAtResponse> {
        self.gate.admit(&request, Action::ReadFinished).await?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(pb::GetStateAtResponse {
            view: Some(self.hub.state_at(id, request.get_ref().sequence).await?),
        }))
    }

    async fn verify(&self, request: Request<pb::VerifyRequest>) -> Reply<pb::VerifyResponse> {
        self.gate.admit(&request, Action::ReadFinished).await?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        Ok(Response::new(self.hub.verify(id).await?))
    }

    async fn fork_game(&self, request: Request<pb::ForkGameRequest>) -> Reply<pb::ForkGameResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        let request = request.into_inner();
        let id = shard::game_id(&request.game_id).map_err(Error::from)?.to_owned();
        let game = self.hub.fork(&id, request, &identity).await?;
        Ok(Response::new(pb::ForkGameResponse { game: Some(game) }))
    }

    type ExportStream = EventStream<pb::ExportResponse>;

    async fn export(&self, request: Request<pb::ExportRequest>) -> Reply<Self::ExportStream> {
        self.gate.admit(&request, Action::ReadFinished).await?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?;
        let lines = self.hub.export(id).await?;
        let stream = tokio_stream::iter(lines.into_iter().map(|json_line| Ok(pb::ExportResponse { json_line })));
        Ok(Response::new(Box::pin(stream)))
    }

    type ReviewGameStream = EventStream<pb::ReviewGameResponse>;

    async fn review_game(&self, request: Request<pb::ReviewGameRequest>) -> Reply<Self::ReviewGameStream> {
        self.gate.admit(&request, Action::ReadFinished).await?;
        let id = self.gate.game(&request, &request.get_ref().game_id)?.to_owned();
        let level = crate::review::level(&request.get_ref().level)?;
        let kept_only = request.get_ref().kept_only;
        let replies = crate::review::start(self.hub.clone(), id, level, kept_only).await?;
        Ok(Response::new(Box::pin(tokio_stream::wrappers::ReceiverStream::new(replies))))
    }
}

/// Implements `clack.v1.BotService`.
#[derive(Debug, Clone)]
pub struct BotApi {
    pub library: Arc<crate::bots::library::BotLibrary>,
    pub gate: Gate,
    /// Where a match's games are stored.
    pub hub: Arc<Hub>,
    /// The matches being played in the background.
    pub matches: Arc<crate::matches::Matches>,
    /// The ladders' boards (and, with `--ladder`, the task that plays them).
    pub ladder: Arc<crate::ladder::Ladder>,
    /// Set when the server starts to shut down: remote bots' connections end then.
    pub closing: watch::Receiver<bool>,
}

#[tonic::async_trait]
impl clack_proto::v1::bot_service_server::BotService for BotApi {
    async fn upload_bot(&self, request: Request<pb::UploadBotRequest>) -> Reply<pb::UploadBotResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.library.upload(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    async fn validate_bot(&self, request: Request<pb::ValidateBotRequest>) -> Reply<pb::ValidateBotResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.library.validate(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    async fn list_bots(&self, request: Request<pb::ListBotsRequest>) -> Reply<pb::ListBotsResponse> {
        self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.library.list(request.get_ref())?))
    }

    async fn get_bot(&self, request: Request<pb::GetBotRequest>) -> Reply<pb::GetBotResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.library.get(request.get_ref(), self.gate.asker(&identity)).await?))
    }

    async fn retire_bot(&self, request: Request<pb::RetireBotRequest>) -> Reply<pb::RetireBotResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        self.library.retire(request.get_ref(), self.gate.asker(&identity)).await?;
        Ok(Response::new(pb::RetireBotResponse {}))
    }

    async fn run_match(&self, request: Request<pb::RunMatchRequest>) -> Reply<pb::RunMatchResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.matches.run_to_end(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    async fn start_match(&self, request: Request<pb::StartMatchRequest>) -> Reply<pb::StartMatchResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.matches.start(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    async fn get_leaderboard(&self, request: Request<pb::GetLeaderboardRequest>) -> Reply<pb::GetLeaderboardResponse> {
        self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.ladder.leaderboard(request.get_ref())?))
    }

    async fn get_rating_history(
        &self,
        request: Request<pb::GetRatingHistoryRequest>,
    ) -> Reply<pb::GetRatingHistoryResponse> {
        self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.ladder.history(request.get_ref())?))
    }

    type WatchMatchStream = EventStream<pb::WatchMatchResponse>;

    async fn watch_match(&self, request: Request<pb::WatchMatchRequest>) -> Reply<Self::WatchMatchStream> {
        self.gate.admit(&request, Action::Use).await?;
        let id = self.gate.game(&request, &request.get_ref().match_id)?;
        let replies = self.matches.watch(id).await?;
        Ok(Response::new(Box::pin(tokio_stream::wrappers::ReceiverStream::new(replies))))
    }

    async fn register_remote_bot(
        &self,
        request: Request<pb::RegisterRemoteBotRequest>,
    ) -> Reply<pb::RegisterRemoteBotResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        Ok(Response::new(self.library.register_remote(request.into_inner(), self.gate.asker(&identity)).await?))
    }

    type ConnectBotStream = EventStream<pb::ConnectBotResponse>;

    async fn connect_bot(&self, request: Request<pb::ConnectBotRequest>) -> Reply<Self::ConnectBotStream> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        let connected = self.library.connect(request.get_ref(), self.gate.asker(&identity))?;
        Ok(Response::new(Box::pin(connected.until(self.closing.clone()))))
    }

    async fn explain_decision(
        &self,
        request: Request<pb::ExplainDecisionRequest>,
    ) -> Reply<pb::ExplainDecisionResponse> {
        let identity = self.gate.admit(&request, Action::Use).await?;
        self.gate.game(&request, &request.get_ref().game_id)?;
        let asker = self.gate.asker(&identity);
        Ok(Response::new(crate::review::explain::explain(&self.hub, &self.library, request.get_ref(), asker).await?))
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
        self.gate.admit(&request, Action::Administer).await?;
        Ok(Response::new(self.gate.access.create_account(request.get_ref()).await?))
    }

    async fn list_accounts(&self, request: Request<pb::ListAccountsRequest>) -> Reply<pb::ListAccountsResponse> {
        self.gate.admit(&request, Action::Administer).await?;
        Ok(Response::new(self.gate.access.list_accounts().await?))
    }

    async fn create_key(&self, request: Request<pb::CreateKeyRequest>) -> Reply<pb::CreateKeyResponse> {
        self.gate.admit(&request, Action::Administer).await?;
        Ok(Response::new(self.gate.access.create_key(&request.get_ref().account).await?))
    }

    async fn revoke_key(&self, request: Request<pb::RevokeKeyRequest>) -> Reply<pb::RevokeKeyResponse> {
        self.gate.admit(&request, Action::Administer).await?;
        Ok(Response::new(self.gate.access.revoke_key(&request.get_ref().key_id).await?))
    }

    type BackupStream = EventStream<pb::BackupResponse>;

    async fn backup(&self, request: Request<pb::BackupRequest>) -> Reply<Self::BackupStream> {
        self.gate.admit(&request, Action::Administer).await?;
        let file = self.hub.backup().await?;
        tracing::info!(bytes = file.len(), "backup taken");
        let pieces: Vec<_> =
            file.chunks(BACKUP_PIECE).map(|piece| Ok(pb::BackupResponse { data: piece.to_vec() })).collect();
        Ok(Response::new(Box::pin(tokio_stream::iter(pieces))))
    }
}
