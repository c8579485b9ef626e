//! Clack's gRPC server, in rooms by concern.
//!
//! From the bottom up: [`cluster`] (the database a cluster of shards shares), [`metrics`]
//! (figures and the port that shows them), [`who`] (who asks, and what they may do), [`bots`]
//! (the bot library, engine seats, remote bots), [`games`] (live games, views, the Play stream,
//! shards), [`matches`] and [`ladder`] (games played by bots in series), [`review`] (the engine's
//! reviews and a bot's decision explained), [`service`] (the tonic services, kept thin) and
//! [`web`] (gRPC-Web, the app's files and the request deadline). A room uses only the rooms
//! below it; every room may use the error mapping ([`error`]) and paging (`paging`). This file
//! builds the tower stack and runs the server until shutdown ([`serve`]). The server does not
//! know the rules beyond the `clack-rules` API, nor how the store keeps bytes.

pub mod bots;
pub mod cluster;
pub mod error;
pub mod games;
pub mod ladder;
pub mod matches;
pub mod metrics;
mod paging;
pub mod review;
pub mod service;
pub mod web;
pub mod who;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use clack_proto::v1::admin_service_server::AdminServiceServer;
use clack_proto::v1::bot_service_server::BotServiceServer;
use clack_proto::v1::game_service_server::GameServiceServer;
use clack_proto::v1::replay_service_server::ReplayServiceServer;
use tokio::net::TcpListener;
use tonic::transport::server::TcpIncoming;

pub use bots::library::BotLibrary;
pub use games::hub::{Hub, Limits};
pub use games::shard::ShardName;
pub use who::access::Mode;
pub use who::quota::Quotas;

/// How the server protects itself, and whether it keeps metrics.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// A request not answered in this time ends with DEADLINE_EXCEEDED.
    pub request_timeout: Duration,
    /// Requests in flight at once, over the whole server; past it, RESOURCE_EXHAUSTED at once.
    pub concurrency_limit: usize,
    /// How long open streams and calls get to finish once shutdown starts; then the server
    /// stops regardless.
    pub grace: Duration,
    /// The other shards (`name=url`), whose games `ListGames` shows too; empty for one shard.
    pub peers: Vec<games::shard::Peer>,
    /// Where requests are counted ([`metrics::Metrics::install`]); `None` counts nothing.
    pub metrics: Option<Arc<metrics::Metrics>>,
    /// Whether the web app is served on the same port (gRPC-Web is served either way).
    pub web_app: bool,
    /// The ladder's settings when it runs; `None` keeps the boards readable but plays nothing.
    pub ladder: Option<ladder::LadderSettings>,
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            request_timeout: Duration::from_secs(10),
            concurrency_limit: 4096,
            grace: Duration::from_secs(5),
            peers: Vec::new(),
            metrics: None,
            web_app: true,
            ladder: None,
        }
    }
}

/// Connections from `listener` with Nagle's algorithm off. A reply that leaves in more than one
/// write (headers, then the message) would otherwise wait for the client's delayed ACK: a
/// 40 ms stall on Linux for every such call.
fn incoming(listener: TcpListener) -> TcpIncoming {
    TcpIncoming::from(listener).with_nodelay(Some(true))
}

/// Runs the server; once it has been told to stop (`closing` turns true), gives open calls and
/// streams `grace` to finish, then stops anyway, so that no client can hold a shutdown up.
async fn run_with_grace<E>(
    server: impl Future<Output = Result<(), E>>,
    mut closing: tokio::sync::watch::Receiver<bool>,
    grace: Duration,
) -> Result<(), E> {
    let deadline = async move {
        if closing.wait_for(|closing| *closing).await.is_err() {
            std::future::pending::<()>().await;
        }
        tokio::time::sleep(grace).await;
    };
    tokio::select! {
        result = server => result,
        () = deadline => {
            tracing::warn!(?grace, "calls still open after the grace period; stopping anyway");
            Ok(())
        }
    }
}

/// Forgets idle callers' rate-limiter state now and then.
async fn forget_idle_callers(meter: Arc<who::quota::Meter>) {
    let mut every = tokio::time::interval(who::quota::FORGET_EVERY);
    loop {
        every.tick().await;
        meter.forget_idle();
    }
}

/// Milliseconds since the Unix epoch, for event envelopes.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// Serves every service on `listener` until `shutdown` resolves, then flushes the store. The bot
/// service is served when a bot library is given.
pub async fn serve(
    hub: Arc<Hub>,
    bots: Option<Arc<BotLibrary>>,
    listener: TcpListener,
    config: ServeConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<GameServiceServer<service::GameApi>>().await;
    health.set_serving::<ReplayServiceServer<service::ReplayApi>>().await;
    let reflection_v1 = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(clack_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()?;
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(clack_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()?;
    // Load shedding outside the limit: at the limit a request is refused at once
    // (RESOURCE_EXHAUSTED) instead of queueing. Both are built once, so the limit is global.
    // The deadline is innermost (on the gRPC routes, see `web::routes`), so time spent waiting
    // for the limit does not count against it. Metrics are outermost, so that refusals and
    // deadlines count too.
    let layers = tower::ServiceBuilder::new()
        .option_layer(config.metrics.clone().map(metrics::GrpcMetricsLayer::outside))
        .load_shed()
        .concurrency_limit(config.concurrency_limit)
        .into_inner();
    let gate = service::Gate::new(&hub);
    let (closing, closed) = tokio::sync::watch::channel(false);
    let grace_watch = closed.clone();
    let forget = tokio::spawn(forget_idle_callers(gate.meter.clone()));
    let sessions = Arc::new(games::play::Sessions::default());
    let shards = Arc::new(games::shard::Shards::new(hub.shard(), &config.peers)?);
    let games = service::GameApi { hub: hub.clone(), gate: gate.clone(), closing: closed, sessions, shards };
    let mut grpc = web::no_routes()
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(GameServiceServer::new(games))
        .add_service(ReplayServiceServer::new(service::ReplayApi { hub: hub.clone(), gate: gate.clone() }))
        .add_service(AdminServiceServer::new(service::AdminApi { gate: gate.clone(), hub: hub.clone() }));
    if let Some(library) = bots {
        let matches = matches::Matches::open(hub.clone(), library.clone(), grace_watch.clone()).await?;
        let ladder =
            ladder::Ladder::open(hub.clone(), library.clone(), config.ladder.clone(), grace_watch.clone()).await?;
        let closing = grace_watch.clone();
        let bots = service::BotApi { library, gate, hub: hub.clone(), matches, ladder, closing };
        grpc = grpc.add_service(BotServiceServer::new(bots));
    }
    let inner = web::Inner {
        deadline: web::deadline::DeadlineLayer { timeout: config.request_timeout },
        metrics: config.metrics.clone(),
    };
    // HTTP/1.1 too: browsers speak gRPC-Web and fetch the app's files over it.
    let server = tonic::transport::Server::builder()
        .accept_http1(true)
        .layer(layers)
        .add_routes(web::routes(grpc, config.web_app, &inner))
        .serve_with_incoming_shutdown(incoming(listener), async move {
            shutdown.await;
            // Open streams end now (UNAVAILABLE), so that the connections they hold can close.
            let _ = closing.send(true);
        });
    let result = run_with_grace(server, grace_watch, config.grace).await;
    forget.abort();
    if let Err(error) = hub.flush().await {
        tracing::error!(%error, "final flush failed");
    }
    tracing::info!("server stopped; store flushed");
    Ok(result?)
}
