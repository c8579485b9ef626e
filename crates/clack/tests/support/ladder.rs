//! A server whose ladder plays one configuration alone, bots uploaded to it, and its boards
//! read: what the ladder's test and its interval measurement (`benches/ladder_intervals.rs`)
//! share.

use std::sync::Arc;

use clack_proto::v1 as pb;
use clack_proto::v1::bot_service_client::BotServiceClient;
use clack_server::ladder::{Configuration, LadderSettings};
use clack_store::Durability;
use tonic::transport::Channel;

use super::{Server, owned};

pub fn source(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)).expect("script")
}

/// A server in `dir` whose ladder plays `configuration` alone, with all of the pool it may.
pub async fn ladder_server(dir: &std::path::Path, configuration: Configuration, anchor: &str) -> Server {
    let store =
        clack_store::Durable::new(Arc::new(clack_store::SledStore::open(dir).expect("store")), Durability::Batched)
            .expect("writer");
    let library = clack_server::BotLibrary::open(store.clone(), clack_bots::Limits::default()).await.expect("bots");
    let host: Arc<dyn clack_server::bots::BotHost> = library.clone();
    let hub = clack_server::Hub::open(store, Some(host), clack_server::Limits::default()).await.expect("hub");
    let ladder = LadderSettings { share: 1.0, anchor: anchor.into(), configurations: vec![configuration] };
    // A 200-game match is one RunMatch call: in a debug build it takes longer than the default
    // ten seconds a request may run.
    let request_timeout = std::time::Duration::from_secs(900);
    let config =
        clack_server::ServeConfig { ladder: Some(ladder), request_timeout, ..clack_server::ServeConfig::default() };
    Server::start_with(hub, Some(library), config).await
}

/// Uploads Straight bots `(name, script)` under one owner; returns the owner's token.
pub async fn upload(bots: &mut BotServiceClient<Channel>, scripts: &[(&str, &str)]) -> String {
    let mut token = String::new();
    for (name, path) in scripts {
        let upload =
            pb::UploadBotRequest { name: (*name).into(), kind: pb::GameKind::Straight as i32, source: source(path) };
        let request = if token.is_empty() { tonic::Request::new(upload) } else { owned(upload, &token) };
        let uploaded = bots.upload_bot(request).await.expect("upload").into_inner();
        if token.is_empty() {
            token = uploaded.owner_token;
        }
    }
    token
}

pub async fn board(bots: &mut BotServiceClient<Channel>, configuration: &str) -> pb::GetLeaderboardResponse {
    let request =
        pb::GetLeaderboardRequest { configuration: configuration.into(), page_size: 100, page_token: String::new() };
    bots.get_leaderboard(request).await.expect("leaderboard").into_inner()
}

/// Polls a board until `done` says it is; no deadline but the harness's, since how fast the
/// ladder plays depends on the machine.
pub async fn board_when(
    bots: &mut BotServiceClient<Channel>,
    configuration: &str,
    done: impl Fn(&pb::GetLeaderboardResponse) -> bool,
) -> pb::GetLeaderboardResponse {
    loop {
        let board = board(bots, configuration).await;
        if done(&board) {
            return board;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}
