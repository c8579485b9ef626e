//! The browser face of the server: gRPC-Web for the services and the single-page app's files.
//!
//! Owns how HTTP/1.1 requests reach the gRPC services (tonic-web, wrapped around the gRPC routes
//! only) and how the app bundled in `web/dist` is served (embedded at compile time in release
//! builds, read from disk in debug builds). It knows nothing of games: the app speaks only the
//! public proto contract, through the same services every other client uses.

pub mod deadline;

use axum::body::Body;
use axum::response::{IntoResponse, Response};
use http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use tonic::service::Routes;

use std::sync::Arc;

use crate::metrics::{GrpcMetricsLayer, Metrics};
use deadline::DeadlineLayer;

/// The app built by `vite build` (see `web/`).
#[derive(rust_embed::Embed)]
#[folder = "../../web/dist"]
struct Assets;

/// The layers that wrap the gRPC routes themselves, inside gRPC-Web's translation: the
/// request deadline, and the count of gRPC-Web calls (whose status is readable only there).
#[derive(Clone, Debug)]
pub struct Inner {
    pub deadline: DeadlineLayer,
    pub metrics: Option<Arc<Metrics>>,
}

/// An empty set of gRPC routes to add services to. Not `Routes::default()`: that brings a
/// fallback of its own, and [`routes`] adds the one that serves the app.
pub fn no_routes() -> Routes {
    Routes::from(axum::Router::new())
}

/// Every service in `grpc` answers both gRPC and gRPC-Web; with `app`, every other path serves
/// the single-page app.
///
/// tonic-web's layer answers 400 to any HTTP/1.1 request that is not gRPC-Web, so it wraps the
/// gRPC routes alone, and the app's files are merged in after it. The `inner` layers sit between
/// tonic-web and the services, so they see every call as plain gRPC with real trailers.
pub fn routes(grpc: Routes, app: bool, inner: &Inner) -> Routes {
    let mut grpc = grpc.into_axum_router().layer(inner.deadline);
    if let Some(metrics) = &inner.metrics {
        grpc = grpc.layer(GrpcMetricsLayer::inside_web(metrics.clone()));
    }
    let grpc = grpc.layer(tonic_web::GrpcWebLayer::new());
    let fallback = if app { axum::Router::new().fallback(static_file) } else { axum::Router::new().fallback(unknown) };
    Routes::from(grpc.merge(fallback))
}

/// A request for no known route when the app is off: gRPC clients get UNIMPLEMENTED, others 404.
async fn unknown(uri: Uri, headers: HeaderMap) -> Response {
    if is_grpc(&headers) {
        return unimplemented(&uri);
    }
    StatusCode::NOT_FOUND.into_response()
}

/// A file of the app; any path that is not a file gets `index.html`, so that the app's own
/// routes (`/table/<id>`, `/replay/<id>`) load it. A gRPC call to an unknown method must not get
/// the page with 200, so it gets UNIMPLEMENTED.
async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    if is_grpc(&headers) {
        return unimplemented(&uri);
    }
    let path = match uri.path().trim_start_matches('/') {
        "" => "index.html",
        path => path,
    };
    let (file, path) = match Assets::get(path) {
        Some(file) => (file, path),
        None => match Assets::get("index.html") {
            Some(file) => (file, "index.html"),
            None => return (StatusCode::NOT_FOUND, "the web app was not built into this server").into_response(),
        },
    };
    // Vite names assets by content hash, so they never change; the page itself must be fresh.
    let cache = if path.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
    let mut response = Response::new(Body::from(file.data.into_owned()));
    let headers = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(file.metadata.mimetype()) {
        headers.insert(header::CONTENT_TYPE, mime);
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    response
}

fn is_grpc(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/grpc"))
}

fn unimplemented(uri: &Uri) -> Response {
    tonic::Status::unimplemented(format!("no such method: {}", uri.path())).into_http::<Body>().into_response()
}
