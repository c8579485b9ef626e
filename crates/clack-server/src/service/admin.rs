//! `clack.v1.AdminService`: accounts, keys, backups; every call needs an admin's key.

use std::sync::Arc;

use clack_proto::v1 as pb;
use tonic::{Request, Response};

use crate::games::hub::Hub;
use crate::who::policy::Action;

use super::{EventStream, Gate, Reply};

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
