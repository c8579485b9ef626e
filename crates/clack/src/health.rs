//! `clack health`: asks a server's `grpc.health.v1` service whether it serves, for container
//! health checks (the image has no other client). It knows only the health protocol.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Context;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The server's gRPC address, as `clack serve` takes it (an unspecified address such as
    /// 0.0.0.0 means this machine) [default: 127.0.0.1:50051].
    #[arg(long, env = "CLACK_ADDR")]
    addr: Option<SocketAddr>,
    /// The service to ask about; empty for the server as a whole.
    #[arg(long, default_value = "")]
    service: String,
    /// Seconds to wait for the answer.
    #[arg(long, default_value_t = 3.0)]
    timeout_secs: f64,
}

/// Where to connect: a server listening on every interface is reached on loopback.
fn target(addr: Option<SocketAddr>) -> SocketAddr {
    let mut addr = addr.unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 50051)));
    if addr.ip().is_unspecified() {
        addr.set_ip(if addr.is_ipv4() { [127, 0, 0, 1].into() } else { std::net::Ipv6Addr::LOCALHOST.into() });
    }
    addr
}

/// Succeeds if the server answers SERVING in time.
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let addr = target(args.addr);
    let timeout = Duration::try_from_secs_f64(args.timeout_secs).context("--timeout-secs must be 0 or more")?;
    let ask = async {
        let channel = tonic::transport::Endpoint::from_shared(format!("http://{addr}"))?.connect().await?;
        let mut client = HealthClient::new(channel);
        let request = HealthCheckRequest { service: args.service.clone() };
        anyhow::Ok(client.check(request).await?.into_inner().status())
    };
    let status = tokio::time::timeout(timeout, ask).await.with_context(|| format!("no answer from {addr}"))??;
    anyhow::ensure!(status == ServingStatus::Serving, "{addr} answers {status:?}");
    Ok(())
}
