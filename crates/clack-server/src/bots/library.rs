//! The bot library: uploaded scripts in the store, compiled on demand, run as players.
//!
//! A bot's id is its name; each upload of new source adds a version (the hash of the source).
//! Sources live under `botsrc/{id}/{version}`, a bot's summary (versions, ratings, statistics)
//! under `bot/{id}`, and who owns it under `owner/bot/{id}`; on a cluster's shard
//! (`--database`), in the shared database instead ([`crate::bots::shared`]), which the library
//! follows so that every shard can seat every bot. Whether a caller may upload, read or
//! retire a bot is asked of [`crate::who::policy`]; how many bots and versions it may keep, of
//! [`crate::who::quota`].
//!
//! Decisions run on tokio's blocking threads, at most one per core at a time (a fair
//! semaphore), so scripts never stall the async runtime and never crowd out request handling.
//! Matches ([`crate::matches`]) take the pool one game at a time, so the bots of ordinary games
//! get their turns between a match's games.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};

use clack_bots::arena::{Deals, Entrant, Player, play_match};
use clack_bots::{Bot, Limits, Played, random_bot, sandbox, version_of};
use clack_log::GameLog;
use clack_log::convert::{FieldError, kind_to_proto};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use clack_rules::game::{Game, Kind};
use clack_store::Durable;
use prost::Message;
use rhai::Engine;
use tokio::sync::Semaphore;

use crate::bots::remote::{self, Remotes};
use crate::bots::shared::{self as shared_bots, BotRow};
use crate::bots::{BotHost, Decision, Fault};
use crate::cluster::Database;
use crate::error::{Error, Result};
use crate::metrics::{BotFigures, Decider, PlayedIn};
use crate::who::access::{Identity, Mode, Owner, OwnerRecord, new_owner};
use crate::who::policy::{self, Action};
use crate::who::quota::{Counted, Meter};

/// Who is asking the library, and the server's rules for them.
#[derive(Clone, Copy, Debug)]
pub struct Asker<'a> {
    pub identity: &'a Identity,
    pub mode: Mode,
    pub meter: &'a Meter,
}

impl Asker<'_> {
    fn check(&self, action: Action<'_>) -> Result<()> {
        policy::check(self.mode, self.identity, action)
    }
}

pub struct BotLibrary {
    store: Durable,
    /// The cluster's database, where bots are kept instead of the store on a cluster's shard.
    shared: Option<Arc<Database>>,
    engine: Arc<Engine>,
    limits: Limits,
    pool: Arc<Semaphore>,
    /// Threads of the pool, and decisions waiting for one.
    threads: usize,
    waiting: AtomicUsize,
    figures: OnceLock<Arc<BotFigures>>,
    bots: RwLock<HashMap<String, pb::BotSummary>>,
    compiled: RwLock<HashMap<(String, String), Arc<Bot>>>,
    owners: RwLock<HashMap<String, OwnerRecord>>,
    /// What each bot printed in its latest decision, capped by the sandbox.
    output: Mutex<HashMap<String, String>>,
    /// The remote bots' programs connected now.
    remotes: Arc<Remotes>,
}

impl std::fmt::Debug for BotLibrary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BotLibrary").field("limits", &self.limits).finish_non_exhaustive()
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn kind_of(value: i32) -> Result<Kind> {
    clack_log::convert::kind_filter(value, "kind")?
        .ok_or_else(|| FieldError::new("kind", "say straight or streets").into())
}

/// A name no bot may take: the web app's bot guide is at `/bots/guide`, where that bot's page
/// would be.
const RESERVED_NAME: &str = "guide";

/// A bot's name, checked: 1 to 64 letters, digits, '-' or '_', and not the reserved one.
fn bot_name(name: &str) -> Result<&str> {
    let name = name.trim();
    let valid = !name.is_empty()
        && name.len() <= 64
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !valid {
        return Err(FieldError::new("name", "1 to 64 letters, digits, '-' or '_'").into());
    }
    if name.eq_ignore_ascii_case(RESERVED_NAME) {
        return Err(FieldError::new("name", "'guide' is reserved: the web app's bot guide is at /bots/guide").into());
    }
    Ok(name)
}

/// A remote bot version's label, checked: "v1" when empty.
fn remote_label(label: &str) -> Result<String> {
    let label = if label.is_empty() { "v1" } else { label };
    let valid = label.len() <= 64 && label.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if valid {
        Ok(label.to_owned())
    } else {
        Err(FieldError::new("version", "1 to 64 letters, digits, '.', '-' or '_'").into())
    }
}

/// A version to add to a bot: a script's (with its source) or a remote bot's (none).
struct NewVersion<'a> {
    name: &'a str,
    kind: Kind,
    version: String,
    size: u32,
    source: Option<String>,
}

/// Counts one caller waiting for the pool, until it stops waiting (or gives up).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn new(count: &'a AtomicUsize) -> Waiting<'a> {
        count.fetch_add(1, Ordering::Relaxed);
        Waiting(count)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Rating of a version nobody has played yet.
pub(crate) const START_RATING: f64 = 1500.0;

impl BotLibrary {
    /// Loads every bot summary from the store.
    pub async fn open(store: Durable, limits: Limits) -> Result<Arc<BotLibrary>> {
        let (bots, owners) = BotLibrary::load(&store).await?;
        Ok(BotLibrary::new(store, None, limits, bots, owners))
    }

    /// Loads every bot from the cluster's database and follows its changes for as long as the
    /// library lives.
    pub async fn open_shared(store: Durable, database: Arc<Database>, limits: Limits) -> Result<Arc<BotLibrary>> {
        let (changes, from) = shared_bots::changes(&database, "0").await?;
        let library = BotLibrary::new(store, Some(database.clone()), limits, HashMap::new(), HashMap::new());
        library.apply_shared(changes);
        tokio::spawn(crate::cluster::follow::follow(database, Arc::downgrade(&library), from));
        Ok(library)
    }

    /// Takes in bots and versions as the shared database says they stand: the follower's
    /// reads, and the rows this shard's own writes answer. This is the only way a shard's copy
    /// changes, and it is a merge: a version or bot it does not hold is added, and one it holds
    /// only moves forward, so rows read before newer ones were taken in (a write's answer and the
    /// follower's read cross) change nothing. A version's games never go back (every match adds
    /// to them, with its rating), and nothing retired comes back.
    pub(crate) fn apply_shared(&self, changes: shared_bots::Changes) {
        let mut bots = write(&self.bots);
        for row in changes.bots {
            let owner = OwnerRecord { owner: row.owner, quota_key: row.quota_key };
            write(&self.owners).insert(row.id.clone(), owner);
            let summary = bots.entry(row.id.clone()).or_default();
            summary.bot_id.clone_from(&row.id);
            summary.name = row.id;
            summary.kind = row.kind;
            summary.remote = row.remote;
            summary.owner = row.owner_shown;
            summary.retired |= row.retired;
        }
        let mut touched = std::collections::HashSet::new();
        for row in changes.versions {
            let Some(summary) = bots.get_mut(&row.bot_id) else { continue };
            merge_version(&mut summary.versions, row.version);
            touched.insert(row.bot_id);
        }
        // Upload order, the same on every shard: the newest version is the last.
        for id in &touched {
            if let Some(summary) = bots.get_mut(id) {
                summary
                    .versions
                    .sort_by(|a, b| (a.uploaded_unix_millis, &a.version).cmp(&(b.uploaded_unix_millis, &b.version)));
            }
        }
    }

    async fn load(store: &Durable) -> Result<(HashMap<String, pb::BotSummary>, HashMap<String, OwnerRecord>)> {
        let mut bots = HashMap::new();
        for (_, bytes) in store.scan("bot/").await? {
            let summary = pb::BotSummary::decode(bytes.as_slice()).map_err(|e| Error::Internal(e.to_string()))?;
            bots.insert(summary.bot_id.clone(), summary);
        }
        let mut owners = HashMap::new();
        for (key, bytes) in store.scan("owner/bot/").await? {
            let record = OwnerRecord::decode(bytes.as_slice()).map_err(|e| Error::Internal(format!("{key}: {e}")))?;
            owners.insert(key.trim_start_matches("owner/bot/").to_owned(), record);
        }
        Ok((bots, owners))
    }

    fn new(
        store: Durable,
        shared: Option<Arc<Database>>,
        limits: Limits,
        bots: HashMap<String, pb::BotSummary>,
        owners: HashMap<String, OwnerRecord>,
    ) -> Arc<BotLibrary> {
        // One core is always left to request handling, so that bots that burn their whole
        // deadline cannot slow other games down.
        let threads = std::thread::available_parallelism().map_or(2, usize::from).saturating_sub(1).max(1);
        Arc::new(BotLibrary {
            store,
            shared,
            engine: Arc::new(sandbox::engine(&limits)),
            limits,
            pool: Arc::new(Semaphore::new(threads)),
            threads,
            waiting: AtomicUsize::new(0),
            figures: OnceLock::new(),
            bots: RwLock::new(bots),
            compiled: RwLock::new(HashMap::new()),
            owners: RwLock::new(owners),
            output: Mutex::new(HashMap::new()),
            remotes: Remotes::new(remote::DEFAULT_MOVE_LIMIT),
        })
    }

    fn compile(&self, source: &str) -> Result<Bot> {
        Bot::compile(&self.engine, &self.limits, source).map_err(|e| match e {
            clack_bots::CompileError::TooLarge { .. } => Error::ResourceExhausted(format!("source: {e}")),
            other => FieldError::new("source", other.to_string()).into(),
        })
    }

    /// Keeps a summary in this server's store and memory. Only a server without a database
    /// does: a cluster's shard never writes a summary back, since its copy may be behind what
    /// the follower took in meanwhile; it takes in the rows its writes answer
    /// ([`BotLibrary::apply_shared`]).
    async fn save(&self, summary: &pb::BotSummary) -> Result<()> {
        self.store.put(&format!("bot/{}", summary.bot_id), summary.encode_to_vec()).await?;
        write(&self.bots).insert(summary.bot_id.clone(), summary.clone());
        Ok(())
    }

    fn summary(&self, bot_id: &str) -> Result<pb::BotSummary> {
        read(&self.bots).get(bot_id).cloned().ok_or_else(|| Error::NotFound(format!("no bot {bot_id}")))
    }

    /// The owner of a bot. A bot from before owners were kept belongs to nobody: only an admin
    /// may retire it, and nobody may change it.
    fn owner(&self, bot_id: &str) -> Result<Owner> {
        match read(&self.owners).get(bot_id) {
            Some(record) => record.owner(),
            None => Ok(Owner::Nobody),
        }
    }

    fn owned_by(&self, quota_key: &str) -> usize {
        read(&self.owners).values().filter(|r| r.quota_key == quota_key).count()
    }

    /// Stores a script as a new version of a bot (a new bot on its first upload).
    pub async fn upload(&self, request: pb::UploadBotRequest, asker: Asker<'_>) -> Result<pb::UploadBotResponse> {
        let name = bot_name(&request.name)?;
        let kind = kind_of(request.kind)?;
        self.compile(&request.source)?;
        let version = version_of(&request.source);
        let size = request.source.len() as u32;
        self.add_version(NewVersion { name, kind, version, size, source: Some(request.source) }, asker).await
    }

    /// Registers a version of a remote bot (a new bot on its first registration).
    pub async fn register_remote(
        &self,
        request: pb::RegisterRemoteBotRequest,
        asker: Asker<'_>,
    ) -> Result<pb::RegisterRemoteBotResponse> {
        let name = bot_name(&request.name)?;
        let kind = kind_of(request.kind)?;
        let version = remote_label(&request.version)?;
        let added = self.add_version(NewVersion { name, kind, version, size: 0, source: None }, asker).await?;
        Ok(pb::RegisterRemoteBotResponse {
            bot_id: added.bot_id,
            version: added.version,
            owner_token: added.owner_token,
            owner: added.owner,
        })
    }

    /// Adds a version to a bot, making the bot (and its owner) on its first version. A script's
    /// version carries its source; a remote bot's carries none.
    async fn add_version(&self, new: NewVersion<'_>, asker: Asker<'_>) -> Result<pb::UploadBotResponse> {
        let NewVersion { name, kind, version, size, source } = new;
        let remote = source.is_none();
        // On a cluster's shard the bot may have been made through another shard a moment ago:
        // its owner decides, not whoever uploads here first.
        self.learn(name, None).await?;
        let existing = read(&self.bots).get(name).cloned();
        let who = &asker.identity.who;
        let mut owner_token = None;
        let mut new_owner_record = None;
        let mut summary = match existing {
            Some(summary) => {
                asker.check(Action::UploadVersion { bot: name, owner: &self.owner(name)? })?;
                summary
            }
            None => {
                let (owner, token) = new_owner(asker.identity)?;
                owner_token = token;
                new_owner_record = Some(OwnerRecord::new(&owner, who));
                pb::BotSummary {
                    bot_id: name.to_owned(),
                    name: name.to_owned(),
                    kind: kind_to_proto(kind) as i32,
                    owner: owner.display().to_owned(),
                    remote,
                    ..Default::default()
                }
            }
        };
        if summary.kind != kind_to_proto(kind) as i32 {
            return Err(Error::FailedPrecondition(format!("bot {name} plays the other game; choose another name")));
        }
        if summary.remote != remote {
            let what =
                if summary.remote { "a remote bot: register its versions" } else { "a script: upload its versions" };
            return Err(Error::FailedPrecondition(format!("bot {name} is {what}, or choose another name")));
        }
        if summary.retired {
            return Err(Error::FailedPrecondition(format!("bot {name} is retired")));
        }
        if !summary.versions.iter().any(|v| v.version == version) {
            let added = pb::BotVersion {
                version: version.clone(),
                uploaded_unix_millis: crate::now(),
                size,
                rating: START_RATING,
                ..Default::default()
            };
            // The quotas are counted where the bots are kept: this server's memory, or the
            // shared tables in the transaction that adds the version.
            let within = |counted, have| {
                let what = if counted == Counted::Bots { "bots".to_owned() } else { format!("versions of bot {name}") };
                asker.meter.within(counted, have, &what, who)
            };
            let is_new = match &self.shared {
                None => {
                    self.add_here(&mut summary, new_owner_record, added, source, within).await?;
                    true
                }
                Some(database) => {
                    let new = new_owner_record.as_ref().map(|record| BotRow {
                        id: name.to_owned(),
                        kind: summary.kind,
                        remote,
                        owner: record.owner.clone(),
                        quota_key: record.quota_key.clone(),
                        owner_shown: summary.owner.clone(),
                        retired: false,
                    });
                    let source = source.as_deref();
                    let (now, is_new) =
                        shared_bots::add_version(database, new.as_ref(), name, &added, source, within).await?;
                    self.apply_shared(now);
                    is_new
                }
            };
            if is_new {
                tracing::info!(bot = name, %version, owner = %summary.owner, remote, "bot version added");
            }
        }
        Ok(pb::UploadBotResponse {
            bot_id: name.to_owned(),
            version,
            owner_token: owner_token.unwrap_or_default(),
            owner: summary.owner,
        })
    }

    /// Adds a version to a bot in this server's store (and its owner, for a new bot), once the
    /// owner's bots and the bot's versions, counted in memory, pass `within`.
    async fn add_here(
        &self,
        summary: &mut pb::BotSummary,
        new_owner: Option<OwnerRecord>,
        added: pb::BotVersion,
        source: Option<String>,
        within: impl Fn(Counted, usize) -> Result<()>,
    ) -> Result<()> {
        let name = summary.bot_id.clone();
        if let Some(record) = &new_owner {
            within(Counted::Bots, self.owned_by(&record.quota_key))?;
        }
        within(Counted::Versions, summary.versions.len())?;
        if let Some(record) = &new_owner {
            self.store.put(&format!("owner/bot/{name}"), record.encode_to_vec()).await?;
        }
        if let Some(source) = source {
            self.store.put(&format!("botsrc/{name}/{}", added.version), source.into_bytes()).await?;
        }
        if let Some(record) = new_owner {
            write(&self.owners).insert(name, record);
        }
        summary.versions.push(added);
        self.save(summary).await
    }

    /// The version asked for, or the newest, if it may still play.
    pub(crate) fn resolve_playable(&self, bot_id: &str, version: Option<&str>) -> Result<(pb::BotSummary, String)> {
        let (summary, version) = self.resolve(bot_id, version)?;
        if retired(&summary, &version) {
            return Err(Error::FailedPrecondition(format!("bot {bot_id} at version {version} is retired")));
        }
        Ok((summary, version))
    }

    /// The version asked for, or the newest.
    pub(crate) fn resolve(&self, bot_id: &str, version: Option<&str>) -> Result<(pb::BotSummary, String)> {
        let summary = self.summary(bot_id)?;
        let version = match version {
            Some(v) if summary.versions.iter().any(|x| x.version == v) => v.to_owned(),
            Some(v) => return Err(Error::NotFound(format!("bot {bot_id} has no version {v}"))),
            None => summary
                .versions
                .last()
                .map(|v| v.version.clone())
                .ok_or_else(|| Error::NotFound(format!("bot {bot_id} has no version")))?,
        };
        Ok((summary, version))
    }

    async fn source(&self, bot_id: &str, version: &str) -> Result<String> {
        let missing = || Error::NotFound(format!("bot {bot_id} has no version {version}"));
        if let Some(database) = &self.shared {
            return shared_bots::source(database, bot_id, version).await?.ok_or_else(missing);
        }
        let bytes = self.store.get(&format!("botsrc/{bot_id}/{version}")).await?.ok_or_else(missing)?;
        String::from_utf8(bytes).map_err(|e| Error::Internal(e.to_string()))
    }

    pub(crate) async fn bot(&self, bot_id: &str, version: &str) -> Result<Arc<Bot>> {
        if self.is_remote(bot_id) {
            return Err(Error::FailedPrecondition(format!(
                "bot {bot_id} is a remote bot: its program decides, and the server keeps no script of it"
            )));
        }
        let key = (bot_id.to_owned(), version.to_owned());
        if let Some(bot) = read(&self.compiled).get(&key) {
            return Ok(bot.clone());
        }
        let bot = Arc::new(self.compile(&self.source(bot_id, version).await?)?);
        write(&self.compiled).insert(key, bot.clone());
        Ok(bot)
    }

    /// The engine and limits every decision runs under.
    pub(crate) fn runner(&self) -> (Arc<Engine>, Limits) {
        (self.engine.clone(), self.limits)
    }

    /// Runs a decision of `bot_id` at `version` again, for its owner, on the pool and under the
    /// limits of every decision. Returns the decision and the limits it ran under.
    pub(crate) async fn rerun(
        &self,
        (bot_id, version): (&str, &str),
        (game, seat, history): (Game, Seat, Vec<Played>),
        asker: Asker<'_>,
    ) -> Result<(clack_bots::Decision, Limits)> {
        asker.check(Action::ExplainDecision { bot: bot_id, owner: &self.owner(bot_id)? })?;
        let bot = self.bot(bot_id, version).await?;
        let (engine, limits) = (self.engine.clone(), self.limits);
        let decision = self.blocking(move || bot.decide(&engine, &limits, &game, seat, &history)).await?;
        Ok((decision, limits))
    }

    /// Smoke games against the random bot; the report shows what the bot printed, so only its
    /// owner may ask.
    pub async fn validate(&self, request: pb::ValidateBotRequest, asker: Asker<'_>) -> Result<pb::ValidateBotResponse> {
        self.learn(&request.bot_id, request.version.as_deref()).await?;
        let (summary, version) = self.resolve(&request.bot_id, request.version.as_deref())?;
        asker.check(Action::ReadSource { bot: &summary.bot_id, owner: &self.owner(&summary.bot_id)? })?;
        let kind = kind_of(summary.kind)?;
        let games = match request.games {
            0 => 4,
            n if n <= 20 => n,
            _ => return Err(FieldError::new("games", "at most 20").into()),
        };
        let bot = self.bot(&summary.bot_id, &version).await?;
        let random = self.compile(random_bot(kind))?;
        let options = clack_rules::game::Options::default_for(kind);
        let players = usize::from(options.players());
        let mut entrants = vec![Entrant {
            label: summary.bot_id.clone(),
            player: Player::Script((*bot).clone()),
            rating: START_RATING,
        }];
        entrants.extend((1..players).map(|i| Entrant {
            label: format!("random-{i}"),
            player: Player::Script(random.clone()),
            rating: START_RATING,
        }));
        let (engine, limits) = (self.engine.clone(), self.limits);
        let standings = self
            .blocking(move || play_match((&engine, &limits), options, &entrants, (games, 1, Deals::Duplicate), |_| {}))
            .await?;
        let mine = &standings[0];
        // One more decision, to show the author what the bot prints.
        let (game, seat) = first_position(kind);
        let decision = bot.decide(&self.engine, &self.limits, &game, seat, &[]);
        let reasons =
            decision.choice.as_ref().err().map(|f| vec![format!("{}: {}", f.reason, f.detail)]).unwrap_or_default();
        Ok(pb::ValidateBotResponse {
            ok: mine.faults == 0 && reasons.is_empty(),
            games: mine.games,
            wins: mine.wins,
            faults: mine.faults as u32,
            fault_reasons: reasons,
            output: decision.output,
        })
    }

    /// Where the metrics' figures for decisions go (once).
    pub fn observe(&self, figures: Arc<BotFigures>) {
        let _ = self.figures.set(figures);
    }

    /// The metrics' figures for decisions, if a server's metrics are installed: matches and the
    /// ladder record theirs there too.
    pub(crate) fn figures(&self) -> Option<Arc<BotFigures>> {
        self.figures.get().cloned()
    }

    /// Counts one decision made outside the pool (a remote bot's, timed by its game's task).
    fn decided(&self, played: PlayedIn, who: Decider, took: std::time::Duration) {
        if let Some(figures) = self.figures.get() {
            figures.decided(played, who, took);
        }
    }

    /// The pool's threads: how many decisions may run at once.
    pub fn pool_threads(&self) -> usize {
        self.threads
    }

    /// Decisions and match games running on the pool now, and waiting for it.
    pub fn pool_load(&self) -> (usize, usize) {
        (self.threads - self.pool.available_permits(), self.waiting.load(Ordering::Relaxed))
    }

    /// Runs `f` on `background`'s thread. A thread under the idle policy takes no turn of the
    /// pool: it runs only on cores nothing else wants, so it cannot keep a decision waiting for
    /// CPU, while a turn it held would keep one waiting for the turn. On a machine whose cores
    /// are busy (a browser rendering beside the server did it) an idle-policy thread barely
    /// runs, and a ladder game holding the only turn of a two-core server's pool froze every bot
    /// game for minutes. Where the priority could not be lowered, the thread competes like any
    /// decision and takes a turn like one.
    pub(crate) async fn in_background<T: Send + 'static>(
        &self,
        background: &Background,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T> {
        let _turn = if background.idle { None } else { Some(self.turn().await?) };
        background.run(f).await
    }

    /// Waits for a free turn of the pool, counted among the decisions waiting meanwhile.
    async fn turn(&self) -> Result<tokio::sync::SemaphorePermit<'_>> {
        let waiting = Waiting::new(&self.waiting);
        let permit = self.pool.acquire().await;
        drop(waiting);
        permit.map_err(|e| Error::Internal(e.to_string()))
    }

    pub(crate) async fn blocking<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
        let _turn = self.turn().await?;
        tokio::task::spawn_blocking(f).await.map_err(|e| Error::Internal(format!("bot task failed: {e}")))
    }

    pub fn list(&self, request: &pb::ListBotsRequest) -> Result<pb::ListBotsResponse> {
        let kind = clack_log::convert::kind_filter(request.kind, "kind")?;
        let mut bots: Vec<pb::BotSummary> = read(&self.bots)
            .values()
            .filter(|b| request.include_retired || !b.retired)
            .filter(|b| kind.is_none_or(|k| b.kind == kind_to_proto(k) as i32))
            .map(|b| self.with_connections(b.clone()))
            .collect();
        bots.sort_by(|a, b| a.bot_id.cmp(&b.bot_id));
        Ok(pb::ListBotsResponse { bots })
    }

    /// Every version that may take a seat in a game of `kind` (neither it nor its bot retired,
    /// and connected if it is a remote bot's), as (bot, version), sorted.
    pub(crate) fn active_versions(&self, kind: Kind) -> Vec<(String, String)> {
        let mut active: Vec<(String, String)> = read(&self.bots)
            .values()
            .filter(|b| !b.retired && b.kind == kind_to_proto(kind) as i32)
            .flat_map(|b| b.versions.iter().filter(|v| !v.retired).map(|v| (b.bot_id.clone(), v.version.clone())))
            .filter(|(bot, version)| !self.is_remote(bot) || self.remotes.is_connected(bot, version))
            .collect();
        active.sort();
        active
    }

    /// Whether `bot_id` at `version` is retired (the version, or the whole bot); a remote bot's
    /// version whose program is not connected is not.
    pub(crate) fn is_retired(&self, bot_id: &str, version: &str) -> bool {
        read(&self.bots).get(bot_id).is_some_and(|summary| retired(summary, version))
    }

    /// A bot's summary for anyone; its source and output only for its owner.
    pub async fn get(&self, request: &pb::GetBotRequest, asker: Asker<'_>) -> Result<pb::GetBotResponse> {
        self.learn(&request.bot_id, request.version.as_deref()).await?;
        let (summary, version) = self.resolve(&request.bot_id, request.version.as_deref())?;
        let summary = self.with_connections(summary);
        let owner = self.owner(&summary.bot_id)?;
        let may_read =
            policy::allows(asker.mode, asker.identity, Action::ReadSource { bot: &summary.bot_id, owner: &owner });
        if !may_read || summary.remote {
            return Ok(pb::GetBotResponse { bot: Some(summary), source: String::new(), output: String::new() });
        }
        let source = self.source(&summary.bot_id, &version).await?;
        let output = self
            .output
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&summary.bot_id)
            .cloned()
            .unwrap_or_default();
        Ok(pb::GetBotResponse { bot: Some(summary), source, output })
    }

    /// A summary with its connected versions filled in (a remote bot's).
    fn with_connections(&self, mut summary: pb::BotSummary) -> pb::BotSummary {
        if summary.remote {
            summary.connected = self.remotes.connected_versions(&summary.bot_id);
        }
        summary
    }

    /// Whether this server holds `bot_id`, and `version` of it when one is named.
    fn knows(&self, bot_id: &str, version: Option<&str>) -> bool {
        read(&self.bots).get(bot_id).is_some_and(|b| version.is_none_or(|v| b.versions.iter().any(|x| x.version == v)))
    }

    /// Whether `bot_id` names a remote bot.
    fn is_remote(&self, bot_id: &str) -> bool {
        read(&self.bots).get(bot_id).is_some_and(|b| b.remote)
    }

    /// The remote bots' connections.
    pub fn remotes(&self) -> &Arc<Remotes> {
        &self.remotes
    }

    /// Opens the connection of a remote bot's version, for its owner.
    pub fn connect(&self, request: &pb::ConnectBotRequest, asker: Asker<'_>) -> Result<remote::Connected> {
        let (summary, version) = self.resolve_playable(&request.bot_id, request.version.as_deref())?;
        asker.check(Action::ConnectBot { bot: &summary.bot_id, owner: &self.owner(&summary.bot_id)? })?;
        if !summary.remote {
            let message = format!("bot {} is a script: the server plays it, no program connects", summary.bot_id);
            return Err(Error::FailedPrecondition(message));
        }
        self.remotes.connect(&summary.bot_id, &version)
    }

    /// Retires a bot, or one of its versions.
    pub async fn retire(&self, request: &pb::RetireBotRequest, asker: Asker<'_>) -> Result<()> {
        self.learn(&request.bot_id, request.version.as_deref()).await?;
        let mut summary = self.summary(&request.bot_id)?;
        asker.check(Action::RetireBot { bot: &summary.bot_id, owner: &self.owner(&summary.bot_id)? })?;
        match &request.version {
            None => summary.retired = true,
            Some(version) => {
                let found = summary.versions.iter_mut().find(|v| &v.version == version);
                let found =
                    found.ok_or_else(|| Error::NotFound(format!("bot {} has no version {version}", request.bot_id)))?;
                found.retired = true;
            }
        }
        match &self.shared {
            Some(database) => {
                self.apply_shared(shared_bots::retire(database, &request.bot_id, request.version.as_deref()).await?);
            }
            None => self.save(&summary).await?,
        }
        tracing::info!(bot = %request.bot_id, version = ?request.version, by = %asker.identity.who, "bot retired");
        Ok(())
    }

    /// Adds a finished match's results to its seats' versions: games, wins, faults, decision
    /// time, and the change of rating the match made (from the rating each seat started with).
    /// Matches of the same version that overlap each add theirs, rather than the last one
    /// overwriting the others. Each seat is (seat, bot, version, standing, starting rating).
    pub(crate) async fn record_match(&self, match_id: &str, seats: &[MatchSeat<'_>]) -> Result<()> {
        let Some(database) = &self.shared else {
            for &(_, bot_id, version, standing, started) in seats {
                self.record_here(bot_id, version, standing, started).await?;
            }
            return Ok(());
        };
        let played: Vec<_> = seats
            .iter()
            .map(|&(seat, bot_id, version, standing, started)| {
                let played = shared_bots::Played {
                    games: u64::from(standing.games),
                    wins: u64::from(standing.wins),
                    faults: standing.faults,
                    mean_decision_micros: standing.mean_decision.as_secs_f64() * 1e6,
                    rating_change: standing.rating - started,
                };
                (seat, bot_id, version, played)
            })
            .collect();
        // One transaction, keyed by the match: counted once however often it is asked.
        self.apply_shared(shared_bots::record_match(database, match_id, &played).await?);
        Ok(())
    }

    /// Whether a match recorded twice is counted once ([`BotLibrary::record_match`] on a
    /// cluster's shard), so that it may be recorded before the match is marked finished.
    pub(crate) fn counts_matches_once(&self) -> bool {
        self.shared.is_some()
    }

    /// Adds one seat's results to its version in this server's store.
    async fn record_here(
        &self,
        bot_id: &str,
        version: &str,
        standing: &clack_bots::arena::Standing,
        started: f64,
    ) -> Result<()> {
        let mut summary = self.summary(bot_id)?;
        if let Some(v) = summary.versions.iter_mut().find(|v| v.version == version) {
            let decisions_before = v.games as f64;
            v.games += u64::from(standing.games);
            v.wins += u64::from(standing.wins);
            v.faults += standing.faults;
            v.rating += standing.rating - started;
            let micros = standing.mean_decision.as_secs_f64() * 1e6;
            v.mean_decision_micros = (v.mean_decision_micros * decisions_before + micros * f64::from(standing.games))
                / v.games.max(1) as f64;
        }
        self.save(&summary).await
    }
}

/// Takes in one version as the shared database says it stands ([`BotLibrary::apply_shared`]):
/// added if new, else replacing the held one unless that has more games (it is newer), and
/// retired if either says so.
fn merge_version(versions: &mut Vec<pb::BotVersion>, row: pb::BotVersion) {
    let Some(held) = versions.iter_mut().find(|v| v.version == row.version) else {
        versions.push(row);
        return;
    };
    let retired = held.retired || row.retired;
    if row.games >= held.games {
        *held = row;
    }
    held.retired = retired;
}

/// One seat of a finished match, as counted: (seat, bot, version, standing, starting rating).
pub(crate) type MatchSeat<'a> = (u32, &'a str, &'a str, &'a clack_bots::arena::Standing, f64);

impl BotLibrary {
    /// An engine seat's move, decided on the bots' pool. The engine reads the game's whole
    /// record (it hides from itself what its seat may not see) and its seed.
    async fn engine_decides(&self, level: clack_engine::Level, log: &GameLog) -> Decision {
        let (options, steps, seed) = (log.game().options(), log.steps().to_vec(), log.seed());
        let (action, elapsed) = self
            .blocking(move || crate::bots::engines::decide(options, &steps, level, seed))
            .await
            .map_err(|e| Fault { reason: "error".into(), detail: e.to_string() })?;
        self.decided(PlayedIn::Game, Decider::Engine, elapsed);
        action.map_err(|e| Fault { reason: "error".into(), detail: e.to_string() })
    }
}

/// The first position of a game where a seat is to move.
fn first_position(kind: Kind) -> (Game, Seat) {
    let mut game =
        Game::new(clack_rules::game::Options::default_for(kind)).unwrap_or_else(|_| unreachable!("defaults are valid"));
    let mut sequence = 0;
    while game.turn() == clack_rules::game::Turn::Chance {
        sequence += 1;
        let Some(chance) = game.sample_chance(&mut clack_rules::Dealer::for_event(0, sequence)) else { break };
        if game.apply_chance(chance).is_err() {
            break;
        }
    }
    let seat = match game.turn() {
        clack_rules::game::Turn::Seat { seat } => seat,
        _ => Seat(0),
    };
    (game, seat)
}

/// A thread of its own at the lowest scheduling priority, for work that must give way to games
/// (the ladder's): under load the operating system runs it only when the cores have nothing
/// else to do, so it slows down instead of the games.
#[derive(Debug)]
pub struct Background {
    jobs: std::sync::mpsc::Sender<Box<dyn FnOnce() + Send>>,
    /// Whether the thread runs under the idle policy (its priority was lowered).
    idle: bool,
}

impl Background {
    /// Starts the thread. Its priority is lowered as far as it goes: on Linux the idle
    /// scheduling policy (`SCHED_IDLE`, below any `nice` value), elsewhere the lowest priority the system
    /// gives. Where that is refused the work still runs, at the normal priority, and a warning
    /// says so.
    pub fn start(name: &str) -> Result<Background> {
        let (jobs, queue) = std::sync::mpsc::channel::<Box<dyn FnOnce() + Send>>();
        let (lowered, told) = std::sync::mpsc::sync_channel(1);
        let thread = name.to_owned();
        std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let result = lower_this_thread();
                if let Err(error) = &result {
                    tracing::warn!(thread, ?error, "cannot lower the priority of a background thread");
                }
                // Only Linux's idle policy is known to give the cores up at once.
                let _ = lowered.send(result.is_ok() && cfg!(target_os = "linux"));
                for job in queue {
                    job();
                }
            })
            .map_err(|e| Error::Internal(format!("cannot start the {name} thread: {e}")))?;
        let idle = told.recv().unwrap_or(false);
        Ok(Background { jobs, idle })
    }

    /// Runs `f` on the thread and waits for its result.
    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
        let (sender, result) = tokio::sync::oneshot::channel();
        let job = Box::new(move || {
            let _ = sender.send(f());
        });
        self.jobs.send(job).map_err(|_| Error::Internal("the background thread has stopped".into()))?;
        result.await.map_err(|_| Error::Internal("a background job stopped before its end".into()))
    }
}

/// Lowers the calling thread's priority as far as an unprivileged process may. On Linux that is
/// `SCHED_IDLE`, not only `nice` 19: a thread at `nice` 19 still keeps the core it runs on until
/// its slice ends when a request's thread wakes (measured: the ladder doubled `Act`'s p99 that
/// way), while an idle-policy thread gives the core up at once.
fn lower_this_thread() -> std::result::Result<(), thread_priority::Error> {
    use thread_priority::{NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy};
    #[cfg(target_os = "linux")]
    {
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        thread_priority::set_thread_priority_and_policy(thread_priority::thread_native_id(), ThreadPriority::Min, idle)
    }
    #[cfg(not(target_os = "linux"))]
    thread_priority::set_current_thread_priority(ThreadPriority::Min)
}

/// Whether `version` of the bot of `summary` is retired, or the whole bot is.
fn retired(summary: &pb::BotSummary, version: &str) -> bool {
    summary.retired || summary.versions.iter().any(|v| v.version == version && v.retired)
}

/// The public history a bot is shown, from a game's log.
pub(crate) fn history_of(log: &GameLog) -> Vec<Played> {
    log.history().iter().map(|&(seat, action, points)| Played { seat, action, points }).collect()
}

impl BotHost for BotLibrary {
    fn decide<'a>(
        &'a self,
        bot_id: &'a str,
        version: &'a str,
        log: &'a GameLog,
        seat: Seat,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async move {
            if let Some(level) = crate::bots::engines::level(bot_id) {
                return self.engine_decides(level, log).await;
            }
            let bot = self
                .bot(bot_id, version)
                .await
                .map_err(|e| Fault { reason: "unknown_bot".into(), detail: e.to_string() })?;
            let game = log.game().clone();
            let history = history_of(log);
            let (engine, limits) = (self.engine.clone(), self.limits);
            let decision = self
                .blocking(move || bot.decide(&engine, &limits, &game, seat, &history))
                .await
                .map_err(|e| Fault { reason: "error".into(), detail: e.to_string() })?;
            self.decided(PlayedIn::Game, Decider::Script, decision.elapsed);
            if !decision.output.is_empty() {
                self.output
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(bot_id.to_owned(), decision.output.clone());
            }
            let index = decision.choice.map_err(|f| Fault { reason: f.reason.to_owned(), detail: f.detail })?;
            log.game()
                .legal_actions()
                .get(index)
                .copied()
                .ok_or_else(|| Fault { reason: "bad_answer".into(), detail: "no such legal action".into() })
        })
    }

    fn playable(&self, bot_id: &str, version: &str) -> Result<Option<Kind>> {
        if crate::bots::engines::is_engine(bot_id) {
            return crate::bots::engines::check(bot_id, version).map(|_| None);
        }
        let (summary, _) = self.resolve_playable(bot_id, Some(version))?;
        if summary.remote {
            self.remotes.check_connected(bot_id, version)?;
        }
        kind_of(summary.kind).map(Some)
    }

    fn remote(&self, bot_id: &str) -> Option<&Arc<Remotes>> {
        self.is_remote(bot_id).then_some(&self.remotes)
    }

    fn remote_decided(&self, played: PlayedIn, took: std::time::Duration) {
        self.decided(played, Decider::Remote, took);
    }

    fn learn<'a>(
        &'a self,
        bot_id: &'a str,
        version: Option<&'a str>,
    ) -> Pin<Box<dyn Future<Output = Result<()>> + Send + 'a>> {
        Box::pin(async move {
            let Some(database) = &self.shared else { return Ok(()) };
            if crate::bots::engines::is_engine(bot_id) || self.knows(bot_id, version) {
                return Ok(());
            }
            self.apply_shared(shared_bots::one(database, bot_id).await?);
            Ok(())
        })
    }
}

/// The figures Prometheus reads off the bots' pool, and where the bots' own are counted.
impl crate::metrics::PoolFigures for BotLibrary {
    fn observe(&self, figures: Arc<BotFigures>) {
        BotLibrary::observe(self, figures);
    }

    fn pool_load(&self) -> (usize, usize) {
        BotLibrary::pool_load(self)
    }
}

#[cfg(test)]
mod tests {
    /// The calling thread's scheduling policy, read from `/proc` (Linux): field 41 of the
    /// thread's stat line (the first field after the command's closing parenthesis is field 3).
    fn policy_of_this_thread() -> String {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("a stat line");
        let after = stat.rsplit_once(')').map(|(_, rest)| rest.to_owned()).unwrap_or_default();
        after.split_whitespace().nth(41 - 3).unwrap_or_default().to_owned()
    }

    #[test]
    fn a_version_row_read_before_a_newer_one_changes_nothing_but_retirement() {
        let row = |games: u64, retired| super::pb::BotVersion {
            version: "v1".into(),
            games,
            rating: 1500.0 + games as f64,
            retired,
            ..Default::default()
        };
        let mut versions = vec![row(10, false)];
        super::merge_version(&mut versions, row(4, true));
        assert_eq!(versions, [row(10, true)], "the older row's games are not taken; its retirement is");
        super::merge_version(&mut versions, row(12, false));
        assert_eq!(versions, [row(12, true)], "a newer row is taken, and nothing retired comes back");
        super::merge_version(&mut versions, super::pb::BotVersion { version: "v2".into(), ..Default::default() });
        assert_eq!(versions.len(), 2, "a version not held is added");
    }

    #[test]
    fn a_bot_name_is_checked_and_guide_is_reserved() {
        assert_eq!(super::bot_name(" my-bot_2 ").ok(), Some("my-bot_2"));
        for bad in ["", "a b", "é", &"x".repeat(65), "guide", "Guide"] {
            assert!(super::bot_name(bad).is_err(), "{bad:?} is refused");
        }
    }

    #[tokio::test]
    async fn background_work_runs_at_the_lowest_priority() {
        let background = super::Background::start("test-background").expect("starts");
        // Policy 5 is SCHED_IDLE, 0 the normal SCHED_OTHER.
        assert_eq!(background.run(policy_of_this_thread).await.expect("runs"), "5");
        assert_eq!(policy_of_this_thread(), "0", "the caller's thread is left alone");
    }

    /// Given every turn of the pool held (bots deciding, or waiting on a busy machine), when
    /// the ladder's idle-policy thread has a game to play, then it plays it without a turn: a
    /// turn held by a thread that runs only on idle cores would stall every bot game behind it.
    #[tokio::test]
    async fn idle_background_work_takes_no_turn_of_the_pool() {
        let store = clack_store::Durable::new(
            std::sync::Arc::new(clack_store::MemoryStore::new()),
            clack_store::Durability::Batched,
        )
        .expect("a store");
        let library = super::BotLibrary::open(store, super::Limits::default()).await.expect("a library");
        let background = super::Background::start("test-background").expect("starts");
        assert!(background.idle, "the thread runs under the idle policy");
        let turns: Vec<_> = hold_every_turn(&library).await;
        assert_eq!(library.pool_load().0, library.pool_threads(), "every turn is held");
        let ran = tokio::time::timeout(std::time::Duration::from_secs(10), library.in_background(&background, || 7));
        assert_eq!(ran.await.expect("it does not wait for a turn").expect("it runs"), 7);
        drop(turns);
    }

    /// Holds every turn of `library`'s pool.
    async fn hold_every_turn(library: &super::BotLibrary) -> Vec<tokio::sync::SemaphorePermit<'_>> {
        let mut turns = Vec::new();
        for _ in 0..library.pool_threads() {
            turns.push(library.turn().await.expect("a turn"));
        }
        turns
    }
}
