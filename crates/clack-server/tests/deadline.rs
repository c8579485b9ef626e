//! The deadline layer answers DEADLINE_EXCEEDED (tonic's own timeout answers CANCELLED).

use std::convert::Infallible;
use std::time::Duration;

use clack_server::web::deadline::DeadlineLayer;
use tonic::codegen::http;
use tower::{Layer, Service, ServiceExt};

type Request = http::Request<()>;

fn slow_service(
    delay: Duration,
) -> impl Service<Request, Response = http::Response<tonic::body::Body>, Error = Infallible, Future: Send + 'static> + Clone
{
    tower::service_fn(move |_: Request| async move {
        tokio::time::sleep(delay).await;
        Ok::<_, Infallible>(http::Response::new(tonic::body::Body::default()))
    })
}

fn grpc_status(response: &http::Response<tonic::body::Body>) -> Option<String> {
    response.headers().get("grpc-status").map(|v| v.to_str().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn a_request_past_its_deadline_is_answered_deadline_exceeded() {
    let layer = DeadlineLayer { timeout: Duration::from_millis(10) };
    let mut service = layer.layer(slow_service(Duration::from_secs(5)));
    let response = service.ready().await.expect("ready").call(http::Request::new(())).await.expect("an answer");
    assert_eq!(grpc_status(&response).as_deref(), Some("4"), "4 is DEADLINE_EXCEEDED");
}

#[tokio::test]
async fn a_request_within_its_deadline_is_untouched() {
    let layer = DeadlineLayer { timeout: Duration::from_secs(5) };
    let mut service = layer.layer(slow_service(Duration::from_millis(1)));
    let response = service.ready().await.expect("ready").call(http::Request::new(())).await.expect("an answer");
    assert_eq!(grpc_status(&response), None);
}
