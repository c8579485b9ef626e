//! `clack backup` and `clack restore`. A backup is taken by the running server (AdminService
//! `Backup`, an admin's key needed) at one moment while it goes on serving, and written here to
//! a file. A restore makes a new data directory from such a file (the server stopped, or another
//! directory), then replays every game in it and says how many verify.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clack_log::GameLog;
use clack_proto::v1 as pb;
use clack_proto::v1::admin_service_client::AdminServiceClient;
use clack_store::{EventStore, SledStore};
use tonic::Request;
use tonic::transport::Channel;

#[derive(Debug, clap::Args)]
pub(crate) struct BackupArgs {
    /// The server, e.g. http://127.0.0.1:50051.
    #[arg(long, default_value = "http://127.0.0.1:50051", env = "CLACK_SERVER")]
    server: String,
    /// A file holding an admin's key (otherwise the CLACK_KEY environment variable).
    #[arg(long, env = "CLACK_KEY_FILE")]
    key_file: Option<PathBuf>,
    /// The backup file to write (it must not exist).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub(crate) struct RestoreArgs {
    /// A file `clack backup` wrote.
    #[arg(long)]
    from: PathBuf,
    /// The data directory to make (it must not exist).
    #[arg(long)]
    data: PathBuf,
}

fn admin_key(args: &BackupArgs) -> anyhow::Result<String> {
    let key = match &args.key_file {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?,
        None => std::env::var("CLACK_KEY").context("give an admin key with --key-file or CLACK_KEY")?,
    };
    Ok(key.trim().to_owned())
}

#[allow(clippy::print_stdout)] // the command's output
pub(crate) async fn backup(args: &BackupArgs) -> anyhow::Result<()> {
    let key = admin_key(args)?;
    let channel = Channel::from_shared(args.server.clone())?.connect().await.context("cannot reach the server")?;
    let mut request = Request::new(pb::BackupRequest {});
    request.metadata_mut().insert(clack_server::who::access::KEY_HEADER, key.parse().context("the key is not text")?);
    let mut stream = AdminServiceClient::new(channel).backup(request).await?.into_inner();
    // Written beside the target and renamed at the end, so that a file named `--out` is whole.
    let partial = args.out.with_extension("partial");
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&partial)
        .with_context(|| format!("cannot create {}", partial.display()))?;
    let mut bytes = 0;
    while let Some(piece) = stream.message().await? {
        file.write_all(&piece.data)?;
        bytes += piece.data.len();
    }
    file.sync_all()?;
    if args.out.exists() {
        anyhow::bail!("{} exists; the backup is in {}", args.out.display(), partial.display());
    }
    std::fs::rename(&partial, &args.out)?;
    println!("backup written to {} ({bytes} bytes)", args.out.display());
    Ok(())
}

#[allow(clippy::print_stdout)] // the command's output
pub(crate) fn restore(args: &RestoreArgs) -> anyhow::Result<()> {
    let file = std::fs::read(&args.from).with_context(|| format!("cannot read {}", args.from.display()))?;
    let records = clack_store::restore(&file, &args.data)?;
    let store = open_when_free(&args.data)?;
    let (mut games, mut bad) = (0, Vec::new());
    for summary in store.summaries()? {
        games += 1;
        let verified = store.read(&summary.game_id, 1).map_err(|e| e.to_string()).and_then(|events| {
            let log = GameLog::replay(&events).map_err(|e| e.to_string())?;
            if log.sequence() == summary.sequence { Ok(()) } else { Err("the summary disagrees".into()) }
        });
        if let Err(error) = verified {
            bad.push(format!("{}: {error}", summary.game_id));
        }
    }
    println!("restored {records} records into {}: {games} games, {} verify", args.data.display(), games - bad.len());
    if !bad.is_empty() {
        anyhow::bail!("{} games do not verify:\n{}", bad.len(), bad.join("\n"));
    }
    Ok(())
}

/// Opens the directory just restored. sled lets go of a directory's lock only when the last of
/// its threads has let go of the database, a moment after the restore returns.
fn open_when_free(path: &std::path::Path) -> anyhow::Result<SledStore> {
    let mut attempts = 0;
    loop {
        match SledStore::open(path) {
            Ok(store) => return Ok(store),
            Err(error) if attempts < 100 && error.to_string().contains("could not acquire lock") => {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(error) => return Err(error.into()),
        }
    }
}
