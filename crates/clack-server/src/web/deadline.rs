//! The request deadline as a tower layer that answers DEADLINE_EXCEEDED.
//!
//! tonic's own `Server::timeout` answers CANCELLED, and a bare tower `TimeoutLayer` reaches the
//! client as INTERNAL; neither says what happened. This layer races the request against the
//! deadline and, if the deadline wins, answers with a proper gRPC status.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tonic::Status;
use tonic::codegen::http;

#[derive(Clone, Copy, Debug)]
pub struct DeadlineLayer {
    pub timeout: Duration,
}

impl<S> tower::Layer<S> for DeadlineLayer {
    type Service = Deadline<S>;

    fn layer(&self, inner: S) -> Deadline<S> {
        Deadline { inner, timeout: self.timeout }
    }
}

#[derive(Clone, Debug)]
pub struct Deadline<S> {
    inner: S,
    timeout: Duration,
}

impl<S, Body, ResBody> tower::Service<http::Request<Body>> for Deadline<S>
where
    S: tower::Service<http::Request<Body>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
    ResBody: Default + Send + 'static,
{
    type Response = http::Response<ResBody>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        // The method's path (never its body) says which call ran out of time.
        let path = request.uri().path().to_owned();
        let response = self.inner.call(request);
        let timeout = self.timeout;
        Box::pin(async move {
            match tokio::time::timeout(timeout, response).await {
                Ok(result) => result,
                Err(_) => {
                    tracing::warn!(?timeout, %path, "request deadline exceeded");
                    Ok(Status::deadline_exceeded(format!("no answer within {} ms", timeout.as_millis())).into_http())
                }
            }
        })
    }
}
