//! `clack.v1.ReplayService`: finished games read, verified, forked, exported and reviewed.

use std::sync::Arc;

use clack_proto::v1 as pb;
use clack_proto::v1::replay_service_server::ReplayService;
use tonic::{Request, Response};

use crate::error::Error;
use crate::games::hub::Hub;
use crate::games::shard;
use crate::who::policy::Action;

use super::{EventStream, Gate, Reply};

/// Implements `clack.v1.ReplayService`.
#[derive(Debug, Clone)]
pub struct ReplayApi {
    pub hub: Arc<Hub>,
    pub gate: Gate,
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
        let level = crate::review::level(&request.get_ref().level)?;
        let id = match self.gate.game(&request, &request.get_ref().game_id) {
            Ok(id) => id.to_owned(),
            // Another shard's game: its kept review is read from the cluster's database.
            Err(elsewhere @ Error::OtherShard { .. }) => {
                let game = shard::game_id(&request.get_ref().game_id).map_err(Error::from)?;
                let replies = crate::review::kept_elsewhere(&self.hub, game, level, elsewhere).await?;
                return Ok(Response::new(Box::pin(tokio_stream::wrappers::ReceiverStream::new(replies))));
            }
            Err(error) => return Err(error.into()),
        };
        let kept_only = request.get_ref().kept_only;
        let replies = crate::review::start(self.hub.clone(), id, level, kept_only).await?;
        Ok(Response::new(Box::pin(tokio_stream::wrappers::ReceiverStream::new(replies))))
    }
}
