//! Prometheus metrics: the registry of one server, what feeds it, and the HTTP port that shows it.
//!
//! Owns the metric families (prometheus-client, one explicit [`Registry`] per server, so that
//! several servers in one process keep their own figures), the tower layer that counts gRPC
//! requests by method and status ([`GrpcMetricsLayer`]), the store observer that turns durable
//! appends into game, move and fault counts ([`StoreFigures`]), the gauges read at scrape time
//! (live games, bytes on disk, the bots' pool, quota denials), and [`serve_http`], which answers
//! `GET /metrics` in the Prometheus text format on its own address.
//!
//! gRPC-Web folds the status into the body, so a second instance of the layer sits inside
//! tonic-web's translation, on the gRPC routes with the request deadline (`crate::web`): the
//! outer one counts native gRPC (and refusals of gRPC-Web by the outer layers) and marks
//! gRPC-Web requests, the inner one counts only the marked ones, so each call is counted once.
//! The status is read from the response headers, or the trailers after the body; a dropped
//! response counts as CANCELLED.
//!
//! Recording never blocks a request: every figure is an atomic add (a histogram takes a short
//! uncontended lock), label handles are resolved once and kept, and nothing here does IO on a
//! request's path. It must not know the rules or the store's bytes: games and moves are counted
//! from the events the store acknowledged, by their kind.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock, Weak};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use clack_proto::v1 as pb;
use clack_store::{Append, Durable, StoreObserver};
use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::{ConstCounter, Counter};
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::{ConstGauge, Gauge};
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};
use prost::Message;
use tonic::Status;
use tonic::codegen::http;

type Buckets = fn() -> Histogram;

/// Latencies from 100 µs to about 13 s, doubling.
fn latency_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.000_1, 2.0, 18))
}

/// Flushes from 50 µs to about 1.6 s, doubling.
fn flush_buckets() -> Histogram {
    Histogram::new(exponential_buckets(0.000_05, 2.0, 16))
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RpcLabels {
    service: String,
    method: String,
    code: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MethodLabels {
    service: String,
    method: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabels {
    kind: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FinishedLabels {
    kind: &'static str,
    outcome: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabels {
    reason: &'static str,
}

/// Every gRPC status code, by its number, as a label value.
const CODES: [&str; 17] = [
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
];

/// One RPC method the server knows, with its label handles, each resolved on first use (so
/// methods nobody calls show no series).
#[derive(Debug)]
struct Method {
    labels: MethodLabels,
    /// Server-streaming: its latency is the stream's life, so it is counted as open streams
    /// instead of in the latency histogram.
    streaming: bool,
    by_code: [OnceLock<Counter>; 17],
    seconds: OnceLock<Histogram>,
    open: OnceLock<Gauge>,
}

/// The RPC families and the methods they are labelled with. Paths that are not a known method
/// all count as one `unknown` method, so that a scanner cannot make unbounded series.
#[derive(Debug)]
struct Rpc {
    methods: Vec<Method>,
    by_path: HashMap<String, usize>,
    requests: Family<RpcLabels, Counter>,
    seconds: Family<MethodLabels, Histogram, Buckets>,
    open: Family<MethodLabels, Gauge>,
}

impl Rpc {
    fn new(registry: &mut Registry) -> Rpc {
        let requests = Family::default();
        let seconds = Family::new_with_constructor(latency_buckets as Buckets);
        let open = Family::default();
        registry.register("clack_grpc_requests", "gRPC requests handled, by method and status code", requests.clone());
        registry.register_with_unit(
            "clack_grpc_request_duration",
            "Time to answer a unary gRPC request, by method",
            Unit::Seconds,
            seconds.clone(),
        );
        registry.register(
            "clack_grpc_streams_open",
            "Server streams open now (Watch, Export), by method",
            open.clone(),
        );
        let mut rpc = Rpc { methods: Vec::new(), by_path: HashMap::new(), requests, seconds, open };
        for set in [
            clack_proto::FILE_DESCRIPTOR_SET,
            tonic_health::pb::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET,
            tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
        ] {
            rpc.add_services(set);
        }
        rpc.add("unknown".into(), "unknown".into(), false);
        rpc
    }

    /// Adds every method of every service in an encoded descriptor set.
    fn add_services(&mut self, encoded: &[u8]) {
        let Ok(set) = prost_types::FileDescriptorSet::decode(encoded) else {
            tracing::warn!("a descriptor set does not decode; its methods count as unknown");
            return;
        };
        for file in set.file {
            for service in &file.service {
                let full = format!("{}.{}", file.package(), service.name());
                for method in &service.method {
                    self.add(full.clone(), method.name().to_owned(), method.server_streaming());
                }
            }
        }
    }

    fn add(&mut self, service: String, method: String, streaming: bool) {
        self.by_path.insert(format!("/{service}/{method}"), self.methods.len());
        self.methods.push(Method {
            labels: MethodLabels { service, method },
            streaming,
            by_code: Default::default(),
            seconds: OnceLock::new(),
            open: OnceLock::new(),
        });
    }

    /// The index of the method a request path names (the `unknown` method if none).
    fn find(&self, path: &str) -> usize {
        self.by_path.get(path).copied().unwrap_or(self.methods.len() - 1)
    }

    fn started(&self, index: usize) {
        let method = &self.methods[index];
        if method.streaming {
            method.open.get_or_init(|| self.open.get_or_create_owned(&method.labels)).inc();
        }
    }

    /// Undoes `started` for a request that another layer counts.
    fn dropped(&self, index: usize) {
        let method = &self.methods[index];
        if method.streaming {
            method.open.get_or_init(|| self.open.get_or_create_owned(&method.labels)).dec();
        }
    }

    fn finished(&self, index: usize, code: tonic::Code, elapsed: Duration) {
        let method = &self.methods[index];
        let slot = (code as usize).min(CODES.len() - 1);
        let labels = || RpcLabels {
            service: method.labels.service.clone(),
            method: method.labels.method.clone(),
            code: CODES[slot],
        };
        method.by_code[slot].get_or_init(|| self.requests.get_or_create_owned(&labels())).inc();
        if method.streaming {
            method.open.get_or_init(|| self.open.get_or_create_owned(&method.labels)).dec();
        } else {
            let histogram = method.seconds.get_or_init(|| self.seconds.get_or_create_owned(&method.labels));
            histogram.observe(elapsed.as_secs_f64());
        }
    }
}

/// Game kinds as label values, indexed by `pb::GameKind`.
const KINDS: [&str; 3] = ["unknown", "straight", "streets"];

fn kind_slot(kind: i32) -> usize {
    match pb::GameKind::try_from(kind) {
        Ok(pb::GameKind::Straight) => 1,
        Ok(pb::GameKind::Streets) => 2,
        _ => 0,
    }
}

/// The stable words a bot fault carries; any other counts as `other`.
const FAULTS: [&str; 8] =
    ["operations", "deadline", "limit", "error", "bad_answer", "no_choose", "unknown_bot", "other"];

/// What the store's writer reports, and what the acknowledged events say about games.
#[derive(Debug)]
pub struct StoreFigures {
    append_seconds: Histogram,
    flush_seconds: Histogram,
    group_size: Histogram,
    started: [Counter; 3],
    moves: [Counter; 3],
    /// By kind, then ended (0) or abandoned (1).
    finished: [[Counter; 2]; 3],
    faults: [Counter; FAULTS.len()],
}

impl StoreFigures {
    fn new(registry: &mut Registry) -> StoreFigures {
        let append_seconds = latency_buckets();
        let flush_seconds = flush_buckets();
        let group_size = Histogram::new(exponential_buckets(1.0, 2.0, 10));
        registry.register_with_unit(
            "clack_store_append_duration",
            "Time from asking for an append to its acknowledgement (queue, write and flush)",
            Unit::Seconds,
            append_seconds.clone(),
        );
        registry.register_with_unit(
            "clack_store_flush_duration",
            "Time one flush of the store takes",
            Unit::Seconds,
            flush_seconds.clone(),
        );
        registry.register("clack_store_flush_group_size", "Writes that shared one flush", group_size.clone());
        let by_kind = |registry: &mut Registry, name: &str, help: &str| {
            let family = Family::<KindLabels, Counter>::default();
            registry.register(name, help, family.clone());
            KINDS.map(|kind| family.get_or_create_owned(&KindLabels { kind }))
        };
        let started = by_kind(registry, "clack_games_started", "Games created, by kind");
        let moves = by_kind(registry, "clack_moves", "Moves played (by people and bots), by game kind");
        let finished_family = Family::<FinishedLabels, Counter>::default();
        registry.register(
            "clack_games_finished",
            "Games over, by kind and outcome (ended, or abandoned before it started)",
            finished_family.clone(),
        );
        let finished = KINDS.map(|kind| {
            ["ended", "abandoned"].map(|outcome| finished_family.get_or_create_owned(&FinishedLabels { kind, outcome }))
        });
        let faults_family = Family::<ReasonLabels, Counter>::default();
        registry.register(
            "clack_bot_faults",
            "Bot decisions that gave no usable action, by reason",
            faults_family.clone(),
        );
        let faults = FAULTS.map(|reason| faults_family.get_or_create_owned(&ReasonLabels { reason }));
        StoreFigures { append_seconds, flush_seconds, group_size, started, moves, finished, faults }
    }

    fn fault(&self, reason: &str) -> &Counter {
        let slot = FAULTS.iter().position(|known| *known == reason).unwrap_or(FAULTS.len() - 1);
        &self.faults[slot]
    }
}

impl StoreObserver for StoreFigures {
    fn appended(&self, append: &Append, waited: Duration) {
        use pb::event::Payload;
        self.append_seconds.observe(waited.as_secs_f64());
        let kind = kind_slot(append.summary.kind);
        // An abandoned game ends with `GameAbandoned` and then `GameEnded`, in one append: the
        // game is counted once, at its end, under the outcome the append says.
        let abandoned = append.events.iter().any(|e| matches!(e.payload, Some(Payload::GameAbandoned(_))));
        for event in &append.events {
            match &event.payload {
                Some(Payload::GameCreated(_)) => self.started[kind].inc(),
                Some(Payload::ActionApplied(_)) => self.moves[kind].inc(),
                Some(Payload::GameEnded(_)) => self.finished[kind][usize::from(abandoned)].inc(),
                Some(Payload::BotFaulted(fault)) => self.fault(&fault.reason).inc(),
                _ => 0,
            };
        }
    }

    fn flushed(&self, writes: usize, took: Duration) {
        self.flush_seconds.observe(took.as_secs_f64());
        self.group_size.observe(writes as f64);
    }
}

/// Where a decision was asked for: a live game's task, a match game or a ladder game played
/// on the bots' pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayedIn {
    Game,
    Match,
    Ladder,
}

impl PlayedIn {
    /// Where a game started for `purpose` is played: the ladder names its games
    /// `ladder:<configuration>`, a match by its id, and an ordinary game has none.
    pub fn of_purpose(purpose: &str) -> PlayedIn {
        match purpose {
            "" => PlayedIn::Game,
            ladder if ladder.starts_with("ladder:") => PlayedIn::Ladder,
            _ => PlayedIn::Match,
        }
    }

    fn label(self) -> &'static str {
        match self {
            PlayedIn::Game => "game",
            PlayedIn::Match => "match",
            PlayedIn::Ladder => "ladder",
        }
    }
}

/// Who decided: a Rhai script in the sandbox, the engine, or a remote bot's program (its time
/// is from the turn's start to its move's arrival, the network included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decider {
    Script,
    Engine,
    Remote,
}

impl Decider {
    fn label(self) -> &'static str {
        match self {
            Decider::Script => "script",
            Decider::Engine => "engine",
            Decider::Remote => "remote",
        }
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DecisionLabels {
    played: &'static str,
    seat: &'static str,
}

/// The bots' figures recorded as decisions are made, wherever they are asked for.
#[derive(Debug)]
pub struct BotFigures {
    decision_seconds: Family<DecisionLabels, Histogram, Buckets>,
}

impl BotFigures {
    fn new(registry: &mut Registry) -> BotFigures {
        let decision_seconds = Family::new_with_constructor(latency_buckets as Buckets);
        registry.register_with_unit(
            "clack_bot_decision_duration",
            "Time one bot or engine decision took, by where it was played and who decided (its count is \
             the number of decisions)",
            Unit::Seconds,
            decision_seconds.clone(),
        );
        // Every series from the start, so that a dashboard sees zeros rather than nothing.
        for played in [PlayedIn::Game, PlayedIn::Match, PlayedIn::Ladder] {
            for seat in [Decider::Script, Decider::Engine, Decider::Remote] {
                let _ = decision_seconds.get_or_create(&DecisionLabels { played: played.label(), seat: seat.label() });
            }
        }
        BotFigures { decision_seconds }
    }

    /// One decision made by `who`, asked for in `played`, took `took`.
    pub fn decided(&self, played: PlayedIn, who: Decider, took: Duration) {
        let labels = DecisionLabels { played: played.label(), seat: who.label() };
        self.decision_seconds.get_or_create(&labels).observe(took.as_secs_f64());
    }
}

/// What the live games show when Prometheus scrapes. The games' room implements it, so that
/// this room need not know the hub.
pub trait LiveFigures: Send + Sync {
    /// The store whose appends are counted and whose size is shown.
    fn store(&self) -> &Durable;
    /// Games with a live task.
    fn live_games(&self) -> usize;
    /// Requests refused by each quota since the server started.
    fn quota_denials(&self) -> Vec<(&'static str, u64)>;
}

/// What the bots' pool shows, and where the bots' figures are recorded. The bots' room
/// implements it, so that this room need not know the library.
pub trait PoolFigures: Send + Sync {
    /// From now on, bot decisions and faults are counted into `figures`.
    fn observe(&self, figures: Arc<BotFigures>);
    /// Decisions running now, and decisions waiting for a thread.
    fn pool_load(&self) -> (usize, usize);
}

/// Gauges and counters that are cheap to read when Prometheus scrapes, so nothing records them
/// as they change. It holds the rooms it reads weakly, so that it keeps neither alive.
struct AtScrape {
    live: Weak<dyn LiveFigures>,
    store: Durable,
    bots: Option<Weak<dyn PoolFigures>>,
}

impl std::fmt::Debug for AtScrape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtScrape").field("store", &self.store).finish_non_exhaustive()
    }
}

/// This process's resident memory in bytes (Linux's `/proc/self/status`, `VmRSS`), read when
/// Prometheus scrapes (and by `clack store fill`'s soak lines).
pub fn resident_bytes() -> Option<i64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: i64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn gauge(encoder: &mut DescriptorEncoder, name: &str, help: &str, unit: Option<&Unit>, value: i64) -> std::fmt::Result {
    ConstGauge::new(value).encode(encoder.encode_descriptor(name, help, unit, MetricType::Gauge)?)
}

impl Collector for AtScrape {
    fn encode(&self, mut encoder: DescriptorEncoder) -> std::fmt::Result {
        if let Some(live) = self.live.upgrade() {
            gauge(
                &mut encoder,
                "clack_live_games",
                "Games with a live task (not finished)",
                None,
                live.live_games() as i64,
            )?;
            let mut denials = encoder.encode_descriptor(
                "clack_quota_denials",
                "Requests refused by a quota",
                None,
                MetricType::Counter,
            )?;
            for (quota, count) in live.quota_denials() {
                let labels = [("quota", quota)];
                ConstCounter::new(count).encode(denials.encode_family(&labels)?)?;
            }
        }
        if let Some(bytes) = self.store.disk_bytes() {
            let bytes = i64::try_from(bytes).unwrap_or(i64::MAX);
            gauge(&mut encoder, "clack_store_disk", "Bytes the store takes on disk", Some(&Unit::Bytes), bytes)?;
        }
        if let Some(bytes) = resident_bytes() {
            let help = "Memory the server process holds (resident set), from /proc";
            gauge(&mut encoder, "clack_process_resident_memory", help, Some(&Unit::Bytes), bytes)?;
        }
        if let Some(library) = self.bots.as_ref().and_then(Weak::upgrade) {
            let (busy, waiting) = library.pool_load();
            gauge(&mut encoder, "clack_bot_pool_busy", "Bot decisions running now", None, busy as i64)?;
            gauge(
                &mut encoder,
                "clack_bot_pool_queue",
                "Bot decisions waiting for a thread of the pool",
                None,
                waiting as i64,
            )?;
        }
        Ok(())
    }
}

/// One server's metrics. Built once, before the server starts; shared by the layer, the store's
/// writer, the bot library and the `/metrics` handler.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    rpc: Rpc,
}

impl Metrics {
    /// Builds the registry for a server over its live games (and bots), and installs the
    /// observers that feed it into the games' store and the bots' library.
    pub fn install<L, B>(live: &Arc<L>, bots: Option<&Arc<B>>) -> Arc<Metrics>
    where
        L: LiveFigures + 'static,
        B: PoolFigures + 'static,
    {
        let mut registry = Registry::default();
        let rpc = Rpc::new(&mut registry);
        let store = Arc::new(StoreFigures::new(&mut registry));
        if !live.store().observe(store) {
            tracing::warn!("the store already has an observer; its figures go there");
        }
        let figures = Arc::new(BotFigures::new(&mut registry));
        if let Some(library) = bots {
            library.observe(figures);
        }
        let live_weak: Weak<dyn LiveFigures> = Arc::downgrade(live) as Weak<L>;
        let bots_weak = bots.map(|bots| Arc::downgrade(bots) as Weak<dyn PoolFigures>);
        let at_scrape = AtScrape { live: live_weak, store: live.store().clone(), bots: bots_weak };
        registry.register_collector(Box::new(at_scrape));
        Arc::new(Metrics { registry, rpc })
    }

    /// The registry in the Prometheus text format (version 0.0.4).
    pub fn render(&self) -> String {
        let mut text = String::new();
        if let Err(error) = prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry) {
            tracing::error!(%error, "the metrics do not encode");
        }
        text
    }
}

/// Serves `GET /metrics` on `listener` until `shutdown` resolves; other paths answer 404.
pub async fn serve_http(
    metrics: Arc<Metrics>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), tonic::transport::Error> {
    let render = move || {
        let metrics = metrics.clone();
        async move {
            let headers = [(http::header::CONTENT_TYPE, prometheus_client::encoding::prometheus_text::CONTENT_TYPE)];
            (headers, metrics.render())
        }
    };
    let app = axum::Router::new().route("/metrics", axum::routing::get(render));
    tonic::transport::Server::builder()
        .accept_http1(true)
        .add_routes(tonic::service::Routes::from(app))
        .serve_with_incoming_shutdown(tonic::transport::server::TcpIncoming::from(listener), shutdown)
        .await
}

/// Counts gRPC requests by method and status, and times them. One instance sits outside every
/// layer that answers for the service (load shedding, the concurrency limit), so that their
/// answers count; a second sits inside gRPC-Web's translation ([`GrpcMetricsLayer::inside_web`]),
/// because only there does a gRPC-Web call have real trailers to read its status from (outside,
/// tonic-web has folded them into the body). Each request is counted by exactly one of the two.
#[derive(Clone, Debug)]
pub struct GrpcMetricsLayer {
    metrics: Arc<Metrics>,
    side: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Around the whole server: counts gRPC calls, and gRPC-Web calls only when a layer out
    /// here refuses them before they reach the translation.
    Outside,
    /// Around the gRPC routes, inside tonic-web: counts the gRPC-Web calls the outside marked.
    InsideWeb,
}

/// Put on a gRPC-Web request by the outside layer, so that the inside one knows to count it
/// (after translation its content type reads as plain gRPC).
#[derive(Clone, Copy, Debug)]
struct WebCall;

impl GrpcMetricsLayer {
    pub fn outside(metrics: Arc<Metrics>) -> GrpcMetricsLayer {
        GrpcMetricsLayer { metrics, side: Side::Outside }
    }

    pub fn inside_web(metrics: Arc<Metrics>) -> GrpcMetricsLayer {
        GrpcMetricsLayer { metrics, side: Side::InsideWeb }
    }
}

impl<S> tower::Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;

    fn layer(&self, inner: S) -> GrpcMetrics<S> {
        GrpcMetrics { inner, metrics: self.metrics.clone(), side: self.side }
    }
}

#[derive(Clone, Debug)]
pub struct GrpcMetrics<S> {
    inner: S,
    metrics: Arc<Metrics>,
    side: Side,
}

/// What a request is, by its content type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Call {
    Grpc,
    GrpcWeb,
    Other,
}

fn call_kind(headers: &http::HeaderMap) -> Call {
    match headers.get(http::header::CONTENT_TYPE).map(http::HeaderValue::as_bytes) {
        Some(v) if v.starts_with(b"application/grpc-web") => Call::GrpcWeb,
        Some(v) if v.starts_with(b"application/grpc") => Call::Grpc,
        _ => Call::Other,
    }
}

type Body = tonic::body::Body;

/// Generic over the body it is given (tonic's outside, axum's inside the routes); it answers with
/// tonic's, which both sides take.
impl<S, B, ResBody> tower::Service<http::Request<B>> for GrpcMetrics<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<ResBody>>,
    S::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    S::Future: Send + 'static,
    ResBody: http_body::Body<Data = tonic::codegen::Bytes> + Send + 'static,
    ResBody::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = http::Response<Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        let counted = match (self.side, call_kind(request.headers())) {
            (Side::Outside, Call::Grpc) => Counted::Whole,
            (Side::Outside, Call::GrpcWeb) => {
                request.extensions_mut().insert(WebCall);
                Counted::RefusalsOnly
            }
            (Side::InsideWeb, _) if request.extensions().get::<WebCall>().is_some() => Counted::Whole,
            _ => {
                let response = self.inner.call(request);
                return Box::pin(async move { Ok(response.await?.map(Body::new)) });
            }
        };
        let mut recorder = Recorder::start(self.metrics.clone(), request.uri().path());
        let response = self.inner.call(request);
        Box::pin(async move {
            match response.await {
                Ok(response) if counted == Counted::Whole => Ok(recorder.follow(response.map(Body::new))),
                // The inside layer counts it.
                Ok(response) => {
                    recorder.hand_over();
                    Ok(response.map(Body::new))
                }
                // What tonic would answer for an error of a layer (load shedding, for one).
                Err(error) => {
                    let status = Status::from_error(error.into());
                    recorder.finish(status.code());
                    Ok(status.into_http())
                }
            }
        })
    }
}

/// How much of a request one layer counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Counted {
    /// Its status, however it ends.
    Whole,
    /// Only a refusal by a layer below it; the rest is counted further in.
    RefusalsOnly,
}

/// One request being counted: it counts once, when its status is known, or as CANCELLED if the
/// response is dropped first (the client went away).
struct Recorder {
    metrics: Arc<Metrics>,
    method: usize,
    start: Instant,
    done: bool,
}

impl Recorder {
    fn start(metrics: Arc<Metrics>, path: &str) -> Recorder {
        let method = metrics.rpc.find(path);
        metrics.rpc.started(method);
        Recorder { metrics, method, start: Instant::now(), done: false }
    }

    /// Leaves the request to another layer's count (undoing what `start` counted).
    fn hand_over(mut self) {
        self.done = true;
        self.metrics.rpc.dropped(self.method);
    }

    fn finish(&mut self, code: tonic::Code) {
        if !self.done {
            self.done = true;
            self.metrics.rpc.finished(self.method, code, self.start.elapsed());
        }
    }

    /// Counts from the status in `headers`, if it is there.
    fn finish_from(&mut self, headers: &http::HeaderMap) -> bool {
        let Some(status) = headers.get("grpc-status") else { return false };
        self.finish(tonic::Code::from_bytes(status.as_bytes()));
        true
    }

    /// An error answered at once has its status in the headers; any other reply has it in the
    /// trailers, after the body.
    fn follow(mut self, response: http::Response<Body>) -> http::Response<Body> {
        if self.finish_from(response.headers()) {
            return response;
        }
        response.map(|inner| Body::new(Recorded { inner, recorder: self }))
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.finish(tonic::Code::Cancelled);
    }
}

/// A response body that counts its request when the trailers pass.
struct Recorded {
    inner: Body,
    recorder: Recorder,
}

impl http_body::Body for Recorded {
    type Data = <Body as http_body::Body>::Data;
    type Error = <Body as http_body::Body>::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(trailers) = frame.trailers_ref() {
                    self.recorder.finish_from(trailers);
                }
            }
            Poll::Ready(Some(Err(_))) => self.recorder.finish(tonic::Code::Internal),
            Poll::Ready(None) => self.recorder.finish(tonic::Code::Unknown),
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}
