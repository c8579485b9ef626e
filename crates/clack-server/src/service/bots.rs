//! `clack.v1.BotService`: bots uploaded and listed, matches, the ladder, remote bots and
//! explained decisions.

use std::sync::Arc;

use clack_proto::v1 as pb;
use tokio::sync::watch;
use tonic::{Request, Response};

use crate::games::hub::Hub;
use crate::who::policy::Action;

use super::{EventStream, Gate, Reply};

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
        let id = self.gate.match_id(&request, &request.get_ref().match_id, self.hub.database().is_some())?;
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
