//! `clack keys`: accounts and API keys on a running server, through its AdminService. The admin
//! key is read from `--key-file` or the `CLACK_KEY` environment variable, never from a flag (a
//! flag shows in the process list). A new key is printed once, on standard output, and nowhere
//! else.

use std::path::PathBuf;

use anyhow::Context;
use clack_proto::v1 as pb;
use clack_proto::v1::admin_service_client::AdminServiceClient;
use tonic::Request;
use tonic::transport::Channel;

#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The server, e.g. http://127.0.0.1:50051.
    #[arg(long, default_value = "http://127.0.0.1:50051", env = "CLACK_SERVER")]
    server: String,
    /// A file holding an admin's key (otherwise the CLACK_KEY environment variable).
    #[arg(long, env = "CLACK_KEY_FILE")]
    key_file: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Create an account, and with --with-key its first key.
    CreateAccount {
        name: String,
        /// The account may manage accounts and keys, retire any bot and cancel any game.
        #[arg(long)]
        admin: bool,
        #[arg(long)]
        with_key: bool,
    },
    /// Make a new key for an account (printed once).
    Create { account: String },
    /// Revoke a key by its id (the part after `clack_` and before the next `_`).
    Revoke { key_id: String },
    /// List accounts and their keys (ids only).
    List,
}

fn admin_key(args: &Args) -> anyhow::Result<String> {
    let key = match &args.key_file {
        Some(path) => std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?,
        None => std::env::var("CLACK_KEY").context("give an admin key with --key-file or CLACK_KEY")?,
    };
    Ok(key.trim().to_owned())
}

/// A request carrying the admin key.
fn keyed<T>(message: T, key: &str) -> anyhow::Result<Request<T>> {
    let mut request = Request::new(message);
    request.metadata_mut().insert(clack_server::who::access::KEY_HEADER, key.parse().context("the key is not text")?);
    Ok(request)
}

#[allow(clippy::print_stdout)] // the command's output
pub(crate) async fn run(args: &Args) -> anyhow::Result<()> {
    let key = admin_key(args)?;
    let channel = Channel::from_shared(args.server.clone())?.connect().await.context("cannot reach the server")?;
    let mut admin = AdminServiceClient::new(channel);
    match &args.command {
        Command::CreateAccount { name, admin: is_admin, with_key } => {
            let request = pb::CreateAccountRequest { name: name.clone(), admin: *is_admin, with_key: *with_key };
            let reply = admin.create_account(keyed(request, &key)?).await?.into_inner();
            println!("account {name} created");
            if *with_key {
                println!("{}", reply.key);
            }
        }
        Command::Create { account } => {
            let request = pb::CreateKeyRequest { account: account.clone() };
            println!("{}", admin.create_key(keyed(request, &key)?).await?.into_inner().key);
        }
        Command::Revoke { key_id } => {
            admin.revoke_key(keyed(pb::RevokeKeyRequest { key_id: key_id.clone() }, &key)?).await?;
            println!("key {key_id} revoked");
        }
        Command::List => {
            let accounts = admin.list_accounts(keyed(pb::ListAccountsRequest {}, &key)?).await?.into_inner().accounts;
            for account in accounts {
                let role = if account.admin { " (admin)" } else { "" };
                println!("{}{role}", account.name);
                for info in account.keys {
                    let state = if info.revoked_unix_millis == 0 { "valid" } else { "revoked" };
                    println!("  {} {state}", info.key_id);
                }
            }
        }
    }
    Ok(())
}
