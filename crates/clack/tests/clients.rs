//! Clients beyond Rust and tooling: the Python client in `tests/python` plays full games through
//! the public contract (unary calls, and `Play` streams dropped and resumed), on a closed server
//! with an account's key; the Node client `clients/node/examples/stream_bot.mjs`, on the
//! starter's generated code, plays through `Play` too; gRPC health checking and server
//! reflection (v1 and v1alpha) answer, so grpcurl-style tools work with no .proto at hand.

mod support;

use std::process::Command;

use clack_store::Durability;
use support::Server;

use tokio_stream::StreamExt;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_client_plays_full_games_with_a_key() {
    const ADMIN_KEY: &str = "the-admin-key-of-the-python-client-test";
    let dir = tempfile::tempdir().expect("dir");
    let limits = clack_server::Limits { mode: clack_server::Mode::Closed, ..Default::default() };
    let server = Server::start_limited(dir.path(), limits, Some(ADMIN_KEY)).await;
    let request = clack_proto::v1::CreateAccountRequest { name: "python".into(), admin: false, with_key: true };
    let key = server.admin().await.create_account(support::keyed(request, ADMIN_KEY)).await.expect("account");
    let key = key.into_inner().key;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let runs =
        [("play.py", "straight"), ("play.py", "streets"), ("stream_bot.py", "straight"), ("stream_bot.py", "streets")];
    for (script, game) in runs {
        let addr = server.addr.to_string();
        let script = root.join("tests/python").join(script);
        let key = key.clone();
        let output = tokio::task::spawn_blocking(move || {
            Command::new("python3").arg(script).args(["--addr", &addr, "--game", game]).env("CLACK_KEY", key).output()
        })
        .await
        .expect("task")
        .expect("python3 runs (install: pip install -r tests/python/requirements.txt)");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "python client failed:\n{stdout}\n{stderr}");
        assert!(stdout.contains(&format!("{game} game")) && stdout.contains("finished"), "{stdout}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_node_client_plays_full_games_over_play_streams() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../clients/node");
    assert!(
        root.join("node_modules/@connectrpc/connect-node").exists(),
        "the Node starter's packages are missing: run `npm ci --prefix clients/node`"
    );
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    for game in ["straight", "streets"] {
        let addr = server.addr.to_string();
        let script = root.join("examples/stream_bot.mjs");
        let output = tokio::task::spawn_blocking(move || {
            Command::new("node").arg(script).args(["--addr", &addr, "--game", game]).output()
        })
        .await
        .expect("task")
        .expect("node runs (Node.js 20 or newer)");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "node client failed:\n{stdout}\n{stderr}");
        assert!(stdout.contains(&format!("{game} game")) && stdout.contains("verified"), "{stdout}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_reflection_answer() {
    use tonic_health::pb::health_check_response::ServingStatus;
    use tonic_health::pb::{HealthCheckRequest, health_client::HealthClient};
    let dir = tempfile::tempdir().expect("dir");
    let server = Server::start(dir.path(), Durability::Batched).await;
    let channel = tonic::transport::Endpoint::from_shared(format!("http://{}", server.addr))
        .expect("url")
        .connect()
        .await
        .expect("connect");
    let mut health = HealthClient::new(channel.clone());
    let status = health
        .check(HealthCheckRequest { service: "clack.v1.GameService".into() })
        .await
        .expect("health")
        .into_inner()
        .status;
    assert_eq!(status, ServingStatus::Serving as i32);

    use tonic_reflection::pb::v1::ServerReflectionRequest;
    use tonic_reflection::pb::v1::server_reflection_client::ServerReflectionClient;
    use tonic_reflection::pb::v1::server_reflection_request::MessageRequest;
    use tonic_reflection::pb::v1::server_reflection_response::MessageResponse;
    let mut reflection = ServerReflectionClient::new(channel.clone());
    let request = ServerReflectionRequest {
        host: String::new(),
        message_request: Some(MessageRequest::ListServices(String::new())),
    };
    let mut answers =
        reflection.server_reflection_info(tokio_stream::iter(vec![request])).await.expect("v1").into_inner();
    let Some(MessageResponse::ListServicesResponse(list)) =
        answers.next().await.expect("an answer").expect("ok").message_response
    else {
        panic!("a list of services");
    };
    let names: Vec<String> = list.service.into_iter().map(|s| s.name).collect();
    for service in ["clack.v1.GameService", "clack.v1.ReplayService", "grpc.health.v1.Health"] {
        assert!(names.iter().any(|n| n == service), "{service} in {names:?}");
    }

    use tonic_reflection::pb::v1alpha::ServerReflectionRequest as AlphaReflectionRequest;
    use tonic_reflection::pb::v1alpha::server_reflection_client::ServerReflectionClient as AlphaClient;
    use tonic_reflection::pb::v1alpha::server_reflection_request::MessageRequest as AlphaRequest;
    let mut alpha = AlphaClient::new(channel);
    let request = AlphaReflectionRequest {
        host: String::new(),
        message_request: Some(AlphaRequest::ListServices(String::new())),
    };
    let mut answers =
        alpha.server_reflection_info(tokio_stream::iter(vec![request])).await.expect("v1alpha").into_inner();
    assert!(answers.next().await.expect("an answer").is_ok());
    server.stop().await;
}
