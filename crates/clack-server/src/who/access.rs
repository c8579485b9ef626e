//! Who is asking: accounts, their API keys, and the owner tokens of anonymous creators.
//!
//! An account has a name and any number of keys. A key is `clack_<id>_<secret>`: the id is public
//! (it names the key in listings and revocations), the whole key is secret. The server keeps only
//! each key's SHA-256 hash, compares hashes in constant time, and holds every key in memory, so
//! identifying a request costs one hash and one map lookup and a revocation takes effect at once.
//! Keys and accounts live in the store's small records (`account/<name>`, `key/<id>`), or, on a
//! cluster's shard (`--database`), in the shared database ([`crate::who::shared`]), which
//! each shard follows. There a shard that cannot reach the database keeps accepting the keys it
//! knows for a grace time (`--database-key-grace-secs`) after it last heard from it, and then
//! refuses keys with UNAVAILABLE: a key revoked meanwhile must not live on unnoticed.
//!
//! The first admin key comes from the operator at start (a file or an environment variable) and
//! belongs to the account `admin`; it is kept under the id `bootstrap` and replaced at every start.
//!
//! This module says *who* a request comes from. What that caller may do is decided in
//! [`crate::who::policy`], and how much of it in [`crate::who::quota`].

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use clack_log::convert::FieldError;
use clack_proto::v1 as pb;
use clack_store::Durable;
use prost::Message;
use tonic::metadata::MetadataMap;

use crate::cluster::Database;
use crate::error::{Error, Result};
use crate::who::auth::{self, TokenHash};
use crate::who::shared as accounts;

/// The metadata key that carries an account's API key.
pub const KEY_HEADER: &str = "x-clack-key";
/// The metadata key that carries an anonymous owner's token (for its bots and games).
pub const OWNER_TOKEN_HEADER: &str = "x-clack-owner-token";
/// The account that the bootstrap key belongs to.
pub const ADMIN_ACCOUNT: &str = "admin";
const BOOTSTRAP_ID: &str = "bootstrap";

/// Who sent a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    /// A request with a valid API key.
    Account { name: String, admin: bool },
    /// A request without a key (served only by an open server), from this address if known.
    Anonymous { addr: Option<IpAddr> },
}

impl Principal {
    /// The account's name, if the caller has one.
    pub fn account(&self) -> Option<&str> {
        match self {
            Principal::Account { name, .. } => Some(name),
            Principal::Anonymous { .. } => None,
        }
    }

    pub fn is_admin(&self) -> bool {
        matches!(self, Principal::Account { admin: true, .. })
    }

    /// What quotas are counted against: the account, or the client's address.
    pub fn quota_key(&self) -> String {
        match self {
            Principal::Account { name, .. } => format!("account:{name}"),
            Principal::Anonymous { addr: Some(addr) } => format!("address:{addr}"),
            Principal::Anonymous { addr: None } => "address:unknown".to_owned(),
        }
    }
}

impl std::fmt::Display for Principal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Principal::Account { name, .. } => write!(f, "account {name}"),
            Principal::Anonymous { .. } => f.write_str("an anonymous client"),
        }
    }
}

/// Who owns a bot or a game: an account, or whoever holds an owner token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    Account(String),
    Token(TokenHash),
    /// Made before owners were recorded: nobody may change it (an admin may still retire or
    /// cancel it).
    Nobody,
}

impl Owner {
    /// How the owner is shown to others: never the token.
    pub fn display(&self) -> &str {
        match self {
            Owner::Account(name) => name,
            Owner::Token(_) => "anonymous",
            Owner::Nobody => "nobody",
        }
    }

    /// The stored form: an account name, or `token:` and the hash in hex.
    pub fn store_form(&self) -> Vec<u8> {
        match self {
            Owner::Account(name) => format!("account:{name}").into_bytes(),
            Owner::Token(hash) => [b"token:".as_slice(), &auth::store_form(hash)].concat(),
            Owner::Nobody => b"nobody".to_vec(),
        }
    }

    pub fn parse(stored: &[u8]) -> Option<Owner> {
        if stored == b"nobody" {
            return Some(Owner::Nobody);
        }
        if let Some(name) = stored.strip_prefix(b"account:") {
            return String::from_utf8(name.to_vec()).ok().map(Owner::Account);
        }
        stored.strip_prefix(b"token:").and_then(auth::parse_stored).map(Owner::Token)
    }

    /// Whether the caller (with the owner token it presented, if any) is this owner.
    pub fn is(&self, who: &Principal, token: Option<&str>) -> bool {
        match self {
            Owner::Account(name) => who.account() == Some(name.as_str()),
            Owner::Token(hash) => token.is_some_and(|t| auth::same(hash, &auth::hash(t))),
            Owner::Nobody => false,
        }
    }
}

/// Who owns a game or a bot, as stored (`owner/<what>/<id>`): the owner, and whose quotas the
/// thing counts against.
#[derive(Clone, PartialEq, Message)]
pub struct OwnerRecord {
    /// [`Owner::store_form`].
    #[prost(bytes = "vec", tag = "1")]
    pub owner: Vec<u8>,
    /// [`Principal::quota_key`] of the creator.
    #[prost(string, tag = "2")]
    pub quota_key: String,
}

impl OwnerRecord {
    pub fn new(owner: &Owner, creator: &Principal) -> OwnerRecord {
        OwnerRecord { owner: owner.store_form(), quota_key: creator.quota_key() }
    }

    /// The owner, or an error if the record is damaged.
    pub fn owner(&self) -> Result<Owner> {
        Owner::parse(&self.owner).ok_or_else(|| Error::Internal("an owner record does not parse".to_owned()))
    }
}

/// The owner of something a caller creates now: its account; for an anonymous caller, the owner
/// token it sent, so that one token owns all it makes; else a fresh owner token (returned once
/// to the creator, kept only as a hash).
pub fn new_owner(identity: &Identity) -> Result<(Owner, Option<String>)> {
    if let Some(name) = identity.who.account() {
        return Ok((Owner::Account(name.to_owned()), None));
    }
    match identity.owner_token.as_deref() {
        Some(token) if auth::is_token(token) => Ok((Owner::Token(auth::hash(token)), None)),
        Some(_) => Err(Error::Unauthenticated(format!(
            "{OWNER_TOKEN_HEADER} is not an owner token: send one this server gave you (64 hex digits), or none for a new one"
        ))),
        None => {
            let token = auth::new_token();
            Ok((Owner::Token(auth::hash(&token)), Some(token)))
        }
    }
}

/// The store key of a game's owner record.
pub fn owner_key(game_id: &str) -> String {
    format!("owner/game/{game_id}")
}

/// A request's identity: who sent it and the owner token it carried.
#[derive(Clone, Debug)]
pub struct Identity {
    pub who: Principal,
    pub owner_token: Option<String>,
}

impl Identity {
    /// An anonymous caller from within the process (tools and tests that drive the hub).
    pub fn anonymous() -> Identity {
        Identity { who: Principal::Anonymous { addr: None }, owner_token: None }
    }
}

/// Whether anonymous clients are served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Anyone who reaches the port may create games, join and upload bots (a local server).
    #[default]
    Open,
    /// Every call needs a valid key, except health, reflection and reading finished games.
    Closed,
}

/// An account as stored (`account/<name>`).
#[derive(Clone, PartialEq, Message)]
pub(crate) struct AccountRecord {
    #[prost(string, tag = "1")]
    pub(crate) name: String,
    #[prost(bool, tag = "2")]
    pub(crate) admin: bool,
    #[prost(int64, tag = "3")]
    pub(crate) created_unix_millis: i64,
}

/// A key as stored (`key/<id>`): the hash of the whole key, never the key.
#[derive(Clone, PartialEq, Message)]
pub(crate) struct KeyRecord {
    #[prost(string, tag = "1")]
    pub(crate) id: String,
    #[prost(string, tag = "2")]
    pub(crate) account: String,
    #[prost(bytes = "vec", tag = "3")]
    pub(crate) hash: Vec<u8>,
    #[prost(int64, tag = "4")]
    pub(crate) created_unix_millis: i64,
    #[prost(int64, tag = "5")]
    pub(crate) revoked_unix_millis: i64,
}

impl KeyRecord {
    fn info(&self) -> pb::KeyInfo {
        pb::KeyInfo {
            key_id: self.id.clone(),
            account: self.account.clone(),
            created_unix_millis: self.created_unix_millis,
            revoked_unix_millis: self.revoked_unix_millis,
        }
    }
}

#[derive(Default)]
struct Registry {
    accounts: HashMap<String, AccountRecord>,
    keys: HashMap<String, KeyRecord>,
    /// When this shard last read the shared database's changes; `None` on a single server.
    synced: Option<Instant>,
}

/// Where accounts and keys are kept.
enum Records {
    /// This server's store: one server, or shards that share nothing.
    Local(Durable),
    /// The cluster's database; keys known here are accepted for `grace` after the last read.
    Shared { database: Arc<Database>, grace: Duration },
}

/// Accounts and keys, loaded from where they are kept and held in memory.
pub struct Access {
    records: Records,
    mode: Mode,
    registry: RwLock<Registry>,
}

impl std::fmt::Debug for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Access").field("mode", &self.mode).finish_non_exhaustive()
    }
}

fn corrupt(key: &str, error: impl std::fmt::Display) -> Error {
    Error::Internal(format!("the record {key} does not decode: {error}"))
}

/// Checks an account name: 1 to 64 letters, digits, '-' or '_'.
pub fn account_name(name: &str, field: &str) -> Result<String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok { Ok(name.to_owned()) } else { Err(FieldError::new(field, "1 to 64 letters, digits, '-' or '_'").into()) }
}

impl Access {
    /// Loads every account and key from the store.
    pub async fn open(store: Durable, mode: Mode) -> Result<Arc<Access>> {
        let registry = Access::load(&store).await?;
        Ok(Arc::new(Access { records: Records::Local(store), mode, registry: RwLock::new(registry) }))
    }

    /// Loads every account and key from the cluster's database and follows its changes for as
    /// long as the answer lives; keys are accepted for `grace` after the last successful read.
    pub async fn open_shared(database: Arc<Database>, mode: Mode, grace: Duration) -> Result<Arc<Access>> {
        let (changes, from) = accounts::changes(&database, "0").await?;
        let records = Records::Shared { database: database.clone(), grace };
        let access = Arc::new(Access { records, mode, registry: RwLock::new(Registry::default()) });
        access.apply(changes);
        tokio::spawn(crate::cluster::follow::follow(database, Arc::downgrade(&access), from));
        Ok(access)
    }

    /// Takes in what the shared database says changed, and notes when it was heard from.
    pub(crate) fn apply(&self, changes: accounts::Changes) {
        self.take_in(changes);
        self.write().synced = Some(Instant::now());
    }

    fn take_in(&self, changes: accounts::Changes) {
        let mut registry = self.write();
        for account in changes.accounts {
            registry.accounts.insert(account.name.clone(), account);
        }
        for key in changes.keys.into_iter().filter(|key| key.hash.len() == 32) {
            registry.keys.insert(key.id.clone(), key);
        }
    }

    async fn load(store: &Durable) -> Result<Registry> {
        let mut registry = Registry::default();
        for (key, bytes) in store.scan("account/").await? {
            let record = AccountRecord::decode(bytes.as_slice()).map_err(|e| corrupt(&key, e))?;
            registry.accounts.insert(record.name.clone(), record);
        }
        for (key, bytes) in store.scan("key/").await? {
            let record = KeyRecord::decode(bytes.as_slice()).map_err(|e| corrupt(&key, e))?;
            if record.hash.len() != 32 {
                return Err(corrupt(&key, "the hash is not 32 bytes"));
            }
            registry.keys.insert(record.id.clone(), record);
        }
        Ok(registry)
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Registry> {
        self.registry.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Registry> {
        self.registry.write().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Makes `key` the bootstrap key of the account `admin` (created if missing), replacing the
    /// bootstrap key of an earlier start.
    pub async fn bootstrap_admin(&self, key: &str) -> Result<()> {
        if key.len() < 32 {
            return Err(FieldError::new("admin key", "at least 32 characters").into());
        }
        self.add_account(ADMIN_ACCOUNT, true).await?;
        let record = KeyRecord {
            id: BOOTSTRAP_ID.to_owned(),
            account: ADMIN_ACCOUNT.to_owned(),
            hash: auth::hash(key).to_vec(),
            created_unix_millis: crate::now(),
            revoked_unix_millis: 0,
        };
        self.save_key(record).await
    }

    /// Adds the account unless one of that name exists; answers whether it was added.
    async fn add_account(&self, name: &str, admin: bool) -> Result<bool> {
        if self.read().accounts.contains_key(name) {
            return Ok(false);
        }
        let record = AccountRecord { name: name.to_owned(), admin, created_unix_millis: crate::now() };
        let added = match &self.records {
            Records::Local(store) => {
                store.put(&format!("account/{name}"), record.encode_to_vec()).await?;
                true
            }
            // Another shard may have taken the name since this one last read: the database
            // decides, and the follower brings that account here.
            Records::Shared { database, .. } => accounts::insert_account(database, &record).await?,
        };
        if added {
            self.write().accounts.insert(name.to_owned(), record);
        }
        Ok(added)
    }

    /// Whether the account exists, asking the shared database when this shard has not heard of
    /// it yet (it may have been made on another shard a moment ago).
    async fn has_account(&self, name: &str) -> Result<bool> {
        if self.read().accounts.contains_key(name) {
            return Ok(true);
        }
        match &self.records {
            Records::Local(_) => Ok(false),
            Records::Shared { database, .. } => accounts::account_exists(database, name).await,
        }
    }

    async fn save_key(&self, record: KeyRecord) -> Result<()> {
        match &self.records {
            Records::Local(store) => store.put(&format!("key/{}", record.id), record.encode_to_vec()).await?,
            Records::Shared { database, .. } => accounts::put_key(database, &record).await?,
        }
        self.write().keys.insert(record.id.clone(), record);
        Ok(())
    }

    /// Who sent a request with this metadata, from this address. A key that is not valid is
    /// refused even where anonymous clients are served: a client that sends a key means to be
    /// that account, and must hear that the key does not work.
    pub fn identify(&self, metadata: &MetadataMap, addr: Option<IpAddr>) -> Result<Identity> {
        let owner_token = metadata.get(OWNER_TOKEN_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let Some(value) = metadata.get(KEY_HEADER) else {
            return Ok(Identity { who: Principal::Anonymous { addr }, owner_token });
        };
        let key = value.to_str().map_err(|_| Error::Unauthenticated(format!("{KEY_HEADER} is not text")))?.trim();
        let id = key_id(key).unwrap_or(BOOTSTRAP_ID);
        let registry = self.read();
        self.check_fresh(&registry)?;
        let record = registry.keys.get(id).filter(|r| r.revoked_unix_millis == 0);
        let valid =
            record.filter(|r| <TokenHash>::try_from(r.hash.as_slice()).is_ok_and(|h| auth::same(&h, &auth::hash(key))));
        let record = valid
            .ok_or_else(|| Error::Unauthenticated(format!("the {KEY_HEADER} key is not valid (unknown or revoked)")))?;
        let admin = registry.accounts.get(&record.account).is_some_and(|a| a.admin);
        Ok(Identity { who: Principal::Account { name: record.account.clone(), admin }, owner_token })
    }

    pub async fn create_account(&self, request: &pb::CreateAccountRequest) -> Result<pb::CreateAccountResponse> {
        let name = account_name(&request.name, "name")?;
        if !self.add_account(&name, request.admin).await? {
            return Err(Error::FailedPrecondition(format!("account {name} exists already")));
        }
        let key = if request.with_key { self.create_key(&name).await?.key } else { String::new() };
        tracing::info!(account = %name, admin = request.admin, "account created");
        let account = self.account(&name)?;
        Ok(pb::CreateAccountResponse { account: Some(account), key })
    }

    fn account(&self, name: &str) -> Result<pb::Account> {
        let registry = self.read();
        let record = registry.accounts.get(name).ok_or_else(|| Error::NotFound(format!("no account {name}")))?;
        let mut keys: Vec<pb::KeyInfo> =
            registry.keys.values().filter(|k| k.account == name).map(KeyRecord::info).collect();
        keys.sort_by_key(|k| k.created_unix_millis);
        Ok(pb::Account {
            name: record.name.clone(),
            admin: record.admin,
            created_unix_millis: record.created_unix_millis,
            keys,
        })
    }

    /// Every account with its keys. On a cluster's shard, read from the database first, so that
    /// an account or key made through another shard a moment ago is listed too.
    pub async fn list_accounts(&self) -> Result<pb::ListAccountsResponse> {
        if let Records::Shared { database, .. } = &self.records {
            self.take_in(accounts::changes(database, "0").await?.0);
        }
        let mut names: Vec<String> = self.read().accounts.keys().cloned().collect();
        names.sort();
        let accounts = names.iter().map(|name| self.account(name)).collect::<Result<_>>()?;
        Ok(pb::ListAccountsResponse { accounts })
    }

    pub async fn create_key(&self, account: &str) -> Result<pb::CreateKeyResponse> {
        let account = account_name(account, "account")?;
        if !self.has_account(&account).await? {
            return Err(Error::NotFound(format!("no account {account}")));
        }
        let id = hex::encode(rand::random::<[u8; 8]>());
        let key = format!("clack_{id}_{}", auth::new_token());
        let record = KeyRecord {
            id,
            account,
            hash: auth::hash(&key).to_vec(),
            created_unix_millis: crate::now(),
            revoked_unix_millis: 0,
        };
        let info = record.info();
        self.save_key(record).await?;
        tracing::info!(account = %info.account, key_id = %info.key_id, "key created");
        Ok(pb::CreateKeyResponse { info: Some(info), key })
    }

    pub async fn revoke_key(&self, key_id: &str) -> Result<pb::RevokeKeyResponse> {
        let unknown = || Error::NotFound(format!("no key with id {key_id}"));
        let record = match &self.records {
            Records::Local(_) => {
                let mut record = self.read().keys.get(key_id).cloned().ok_or_else(unknown)?;
                if record.revoked_unix_millis == 0 {
                    record.revoked_unix_millis = crate::now();
                    self.save_key(record.clone()).await?;
                }
                record
            }
            // One statement revokes it unless another shard did first, so the time kept is
            // the first revocation's.
            Records::Shared { database, .. } => {
                let record = accounts::revoke_key(database, key_id, crate::now()).await?.ok_or_else(unknown)?;
                self.write().keys.insert(record.id.clone(), record.clone());
                record
            }
        };
        tracing::info!(account = %record.account, key_id, "key revoked");
        Ok(pb::RevokeKeyResponse { info: Some(record.info()) })
    }

    /// The id of the key these metadata carry, if this is a cluster's shard that has not heard
    /// of it: it may have been made through another shard a moment ago ([`Access::learn_key`]).
    pub fn unknown_key(&self, metadata: &MetadataMap) -> Option<String> {
        let Records::Shared { .. } = &self.records else { return None };
        let key = metadata.get(KEY_HEADER)?.to_str().ok()?.trim();
        let id = key_id(key)?;
        (!self.read().keys.contains_key(id)).then(|| id.to_owned())
    }

    /// Reads one key (and its account) from the shared database into memory, if it exists.
    pub async fn learn_key(&self, key_id: &str) -> Result<()> {
        let Records::Shared { database, .. } = &self.records else { return Ok(()) };
        self.take_in(accounts::key(database, key_id).await?);
        Ok(())
    }

    /// On a cluster's shard, refuses keys once the shared database has not been heard from for
    /// the grace time: a key revoked meanwhile on another shard would otherwise still work here.
    fn check_fresh(&self, registry: &Registry) -> Result<()> {
        let Records::Shared { grace, .. } = &self.records else { return Ok(()) };
        let heard = registry.synced.map(|at| at.elapsed());
        match heard {
            Some(since) if since <= *grace => Ok(()),
            _ => Err(Error::Database(format!(
                "keys cannot be checked: not heard from for {:.0} s, past the {} s grace",
                heard.unwrap_or_default().as_secs_f64(),
                grace.as_secs()
            ))),
        }
    }
}

/// The id of a key in the `clack_<id>_<secret>` form.
fn key_id(key: &str) -> Option<&str> {
    let rest = key.strip_prefix("clack_")?;
    let (id, _) = rest.split_once('_')?;
    Some(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_is_stored_without_its_secret_and_read_back() {
        let token_owner = Owner::Token(auth::hash("secret"));
        let stored = token_owner.store_form();
        assert!(!String::from_utf8_lossy(&stored).contains("secret"));
        assert_eq!(Owner::parse(&stored), Some(token_owner.clone()));
        assert_eq!(Owner::parse(b"account:ada"), Some(Owner::Account("ada".into())));
        assert_eq!(Owner::parse(b"token:nothex"), None);
        let anonymous = Principal::Anonymous { addr: None };
        assert!(token_owner.is(&anonymous, Some("secret")));
        assert!(!token_owner.is(&anonymous, Some("guess")));
        assert!(!token_owner.is(&anonymous, None));
        let ada = Principal::Account { name: "ada".into(), admin: false };
        assert!(Owner::Account("ada".into()).is(&ada, None));
        assert!(!Owner::Account("bob".into()).is(&ada, None));
    }

    #[test]
    fn a_key_names_its_id() {
        assert_eq!(key_id("clack_0011aabb_secret"), Some("0011aabb"));
        assert_eq!(key_id("some operator key"), None);
    }
}
