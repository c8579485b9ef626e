//! The hub: every game the server knows, live or finished.
//!
//! A live game is an [`Actor`] task reached through a channel, plus the snapshot the task
//! publishes after each commit; the hub routes moves to the task and answers reads from the
//! snapshot. A finished game has no task: its log is read from the store when someone asks. On start the hub
//! replays every unfinished game from the store and starts its task again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use clack_log::{GameLog, Status, Viewer, json};
use clack_proto::v1 as pb;
use clack_store::{Durable, ListQuery, StoreError};
use tokio::sync::{mpsc, oneshot, watch};

use clack_log::convert::FieldError;
use clack_rules::game::Kind;
use prost::Message;

use crate::bots::BotHost;
use crate::error::{Error, Result};
use crate::games::actor::{Actor, Caller, Command, Move, Snapshot, Subscription};
use crate::games::index::Index;
use crate::games::shard::ShardName;
use crate::games::view;
use crate::metrics::PlayedIn;
use crate::who::access::{Access, Identity, Mode, Owner, OwnerRecord, Principal, new_owner, owner_key};
use crate::who::auth;
use crate::who::policy::{self, Action};
use crate::who::quota::{self, Meter, Quotas};

/// A seat offer for a remote bot's program, with where to send it.
type RemoteOffer = (Arc<crate::bots::remote::Remotes>, String, String, pb::SeatOffer);

/// How long a match's or the ladder's live game waits for the server to have room for it.
const ROOM_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

/// Limits that protect the server, and whom it serves.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Live (unfinished) games at once.
    pub live_games: usize,
    /// A game whose open seats are not all taken this long after its creation is abandoned,
    /// freeing its live slot; zero means never.
    pub join_timeout: std::time::Duration,
    /// Whether anonymous clients are served.
    pub mode: Mode,
    /// What each caller may use.
    pub quotas: Quotas,
    /// The shard this server is: every game it creates carries the name in its id.
    pub shard: ShardName,
}

impl Default for Limits {
    /// A local server's: 10,000 live games, ten minutes to fill the seats, open, default quotas.
    fn default() -> Limits {
        Limits {
            live_games: 10_000,
            join_timeout: std::time::Duration::from_secs(600),
            mode: Mode::Open,
            quotas: Quotas::default(),
            shard: ShardName::default(),
        }
    }
}

/// How the hub reaches a live game: its task, for moves, and its latest snapshot, for reads.
struct Live {
    commands: mpsc::Sender<Command>,
    snapshot: watch::Receiver<Arc<Snapshot>>,
    /// Whose live-games quota the game counts against, if anyone's.
    quota_key: Option<String>,
}

/// The most games one `ListGames` call filtered by bot reads.
const BOT_SCAN: usize = 2000;

/// The prefix of the store's markers of reviewed games.
pub(crate) const REVIEWED: &str = "reviewed/";

pub struct Hub {
    store: Durable,
    /// The levels at which each reviewed game has a kept review, loaded at start from the
    /// store's small `reviewed/{game}` markers (the reviews themselves are read only when
    /// asked for).
    reviewed: RwLock<HashMap<String, Vec<String>>>,
    live: Mutex<HashMap<String, Live>>,
    bots: Option<Arc<dyn BotHost>>,
    limits: Limits,
    access: Arc<Access>,
    meter: Arc<Meter>,
    /// The cluster's game index, on a shard with a shared database.
    index: Option<Arc<Index>>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").field("store", &self.store).field("limits", &self.limits).finish_non_exhaustive()
    }
}

/// Requests queued for one game before senders wait.
const QUEUE: usize = 64;

impl Hub {
    /// Opens the hub over a store and restarts every unfinished game in it.
    pub async fn open(store: Durable, bots: Option<Arc<dyn BotHost>>, limits: Limits) -> Result<Arc<Hub>> {
        Hub::open_shard(store, bots, limits, None).await
    }

    /// Opens the hub as [`Hub::open`] does; on a cluster's shard (`shared` given), accounts and
    /// keys come from the shared database instead of the store.
    pub async fn open_shard(
        store: Durable,
        bots: Option<Arc<dyn BotHost>>,
        limits: Limits,
        shared: Option<crate::cluster::Shared>,
    ) -> Result<Arc<Hub>> {
        let (access, index) = match shared {
            Some(shared) => {
                let index = Index::start(shared.database.clone(), limits.shard.as_str().to_owned(), store.clone());
                (Access::open_shared(shared.database, limits.mode, shared.key_grace).await?, Some(index))
            }
            None => (Access::open(store.clone(), limits.mode).await?, None),
        };
        let meter = Arc::new(Meter::new(limits.quotas));
        let reviewed = store
            .scan(REVIEWED)
            .await?
            .into_iter()
            .map(|(key, levels)| {
                let game = key.strip_prefix(REVIEWED).unwrap_or(&key).to_owned();
                let levels = String::from_utf8_lossy(&levels).split(',').map(str::to_owned).collect();
                (game, levels)
            })
            .collect();
        let hub = Arc::new(Hub {
            store,
            reviewed: RwLock::new(reviewed),
            live: Mutex::new(HashMap::new()),
            bots,
            limits,
            access,
            meter,
            index,
        });
        let (mut restored, mut damaged) = (0, 0);
        for game_id in hub.unfinished().await? {
            // A game whose log does not read back stays out of play and answers DATA_LOSS;
            // the others load and play. One damaged game must not keep the server down.
            match hub.load(&game_id).await {
                Ok(log) => {
                    // Why a resumed game was started is not stored: its remote bots' decisions
                    // count as an ordinary game's.
                    hub.start(log, PlayedIn::Game).await?;
                    restored += 1;
                }
                Err(error @ (Error::DataLoss { .. } | Error::Damaged { .. })) => {
                    tracing::error!(game = %game_id, %error, "damaged game left out of play");
                    damaged += 1;
                }
                Err(error) => return Err(error),
            }
        }
        tracing::info!(restored, damaged, "unfinished games restored from the store");
        Ok(hub)
    }

    /// The ids of every game not finished, from the listing index: a start reads the games it
    /// restarts, not every game ever played (a million finished games would otherwise be a
    /// million summaries read before the first request is served).
    async fn unfinished(&self) -> Result<Vec<String>> {
        let mut ids = Vec::new();
        for status in [pb::GameStatus::Waiting, pb::GameStatus::Active] {
            let mut query = ListQuery { kind: 0, status: status as i32, after: None, limit: 1024 };
            loop {
                let page = self.store.list(query.clone()).await?;
                ids.extend(page.games.into_iter().map(|summary| summary.game_id));
                match page.next {
                    Some(next) => query.after = Some(next),
                    None => break,
                }
            }
        }
        Ok(ids)
    }

    /// Accounts and keys.
    pub fn access(&self) -> &Arc<Access> {
        &self.access
    }

    /// The cluster's database, on a shard that has one.
    pub fn database(&self) -> Option<Arc<crate::cluster::Database>> {
        self.index.as_ref().map(|index| index.database().clone())
    }

    /// Writes a finished game's row of the cluster's index now (the ladder's and matches'
    /// games, before they are stored, so that a game they count is listed even if the shard
    /// dies the next moment); nothing without a database.
    pub async fn index_now(&self, summary: pb::GameSummary) -> Result<()> {
        match &self.index {
            Some(index) => index.write_now(summary).await,
            None => Ok(()),
        }
    }

    /// The shard this server is.
    pub fn shard(&self) -> ShardName {
        self.limits.shard
    }

    /// The rate quotas.
    pub fn meter(&self) -> &Arc<Meter> {
        &self.meter
    }

    /// The store, for the metrics to observe.
    pub fn store(&self) -> &Durable {
        &self.store
    }

    fn live_map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Live>> {
        // The map holds only channel ends; a panic elsewhere cannot leave it half-updated.
        self.live.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A game's stored events from `from` on, straight from the store (replays, a watcher's
    /// gap); a record that does not decode is that game's data loss, named as such.
    pub async fn read(&self, game_id: &str, from: u64) -> Result<Vec<pb::Event>> {
        self.store.read(game_id, from).await.map_err(|error| match error {
            StoreError::Corrupt(detail) => Error::Damaged { game: game_id.to_owned(), detail },
            other => Error::Store(other),
        })
    }

    /// A consistent backup of the whole store, taken while the server serves.
    pub async fn backup(&self) -> Result<Vec<u8>> {
        Ok(self.store.backup().await?)
    }

    /// Reads and replays a game's whole log.
    async fn load(&self, game_id: &str) -> Result<GameLog> {
        let events = self.read(game_id, 1).await?;
        if events.is_empty() {
            return Err(Error::NotFound(format!("no game {game_id}")));
        }
        GameLog::replay(&events).map_err(|error| Error::DataLoss { game: game_id.to_owned(), error })
    }

    async fn token_hashes(&self, log: &GameLog) -> Result<Vec<Option<auth::TokenHash>>> {
        let mut hashes = vec![None; log.seats().len()];
        for (key, value) in self.store.scan(&format!("token/{}/", log.id())).await? {
            let seat = key.rsplit('/').next().and_then(|s| s.parse::<usize>().ok());
            let hash = auth::parse_stored(&value)
                .ok_or_else(|| Error::Internal(format!("the token record {key} is not a SHA-256 hash")))?;
            if let Some(slot) = seat.and_then(|s| hashes.get_mut(s)) {
                *slot = Some(hash);
            }
        }
        Ok(hashes)
    }

    /// Starts the task of a live game, played as `played` says.
    async fn start(self: &Arc<Hub>, log: GameLog, played: PlayedIn) -> Result<()> {
        let id = log.id().to_owned();
        let tokens = self.token_hashes(&log).await?;
        let quota_key = self.owner(&id).await?.map(|record| record.quota_key);
        if let (Some(index), Some(key)) = (&self.index, &quota_key) {
            index.track(&id, key);
        }
        let (commands, receiver) = mpsc::channel(QUEUE);
        let (actor, snapshot) = Actor::new(
            log,
            self.store.clone(),
            tokens,
            self.bots.clone(),
            self.limits.join_timeout,
            (self.index.clone(), played),
        );
        self.live_map().insert(id.clone(), Live { commands, snapshot, quota_key });
        let hub = Arc::downgrade(self);
        tokio::spawn(async move {
            actor.run(receiver).await;
            if let Some(hub) = hub.upgrade() {
                hub.live_map().remove(&id);
            }
        });
        Ok(())
    }

    /// Checks that every bot seat names a bot version that may take a seat in a game of `kind`.
    async fn check_bot_seats(&self, kind: Kind, seats: &[pb::SeatSpec]) -> Result<()> {
        for (i, spec) in seats.iter().enumerate() {
            let Some(pb::seat_spec::Occupant::Bot(bot)) = &spec.occupant else { continue };
            let field = format!("seats[{i}]");
            let Some(host) = &self.bots else {
                return Err(Error::FailedPrecondition(format!("{field}: this server seats no bots")));
            };
            host.learn(&bot.bot_id, Some(&bot.version)).await?;
            let plays = host.playable(&bot.bot_id, &bot.version).map_err(|e| e.about(&field))?;
            if let Some(plays) = plays.filter(|&plays| plays != kind) {
                let message = format!("bot {} plays {}, not {}", bot.bot_id, plays.name(), kind.name());
                return Err(FieldError::new(field, message).into());
            }
        }
        Ok(())
    }

    /// Checks that the program of every remote bot seated in `log`'s game is connected.
    fn check_connected(&self, log: &GameLog) -> Result<()> {
        let Some(host) = &self.bots else { return Ok(()) };
        for (i, occupant) in log.seats().iter().enumerate() {
            let clack_log::Occupant::Bot { bot_id, version } = occupant else { continue };
            if let Some(remotes) = host.remote(bot_id) {
                remotes.check_connected(bot_id, version).map_err(|e| e.about(&format!("seats[{i}]")))?;
            }
        }
        Ok(())
    }

    /// Whether `who` may start another live game here: under the shard's limit, and under its
    /// quota of unfinished games, counted on every shard of a cluster (its games on the others
    /// from the shared index, one query per new game, never per move).
    async fn check_room(&self, who: &Principal) -> Result<()> {
        let key = who.quota_key();
        let mine = {
            let live = self.live_map();
            if live.len() >= self.limits.live_games {
                return Err(Error::ResourceExhausted(format!(
                    "the server is at its limit of {} live games",
                    self.limits.live_games
                )));
            }
            live.values().filter(|game| game.quota_key.as_deref() == Some(key.as_str())).count()
        };
        // With the database away, games are still made: the quota then holds per shard only,
        // until it is back (docs/cluster.md).
        let elsewhere = match &self.index {
            Some(index) if self.limits.quotas.live_games > 0 => index.live_elsewhere(&key).await.unwrap_or(0),
            _ => 0,
        };
        self.meter.within(quota::Counted::LiveGames, mine + elsewhere, "unfinished games", who)
    }

    pub async fn create(
        self: &Arc<Hub>,
        mut request: pb::CreateGameRequest,
        caller: &Identity,
    ) -> Result<pb::CreateGameResponse> {
        crate::bots::engines::pin_versions(&mut request.seats);
        let options = clack_log::convert::options_from_proto(request.options.as_ref())?;
        let table = clack_log::convert::table_from_proto(request.options.as_ref())?;
        self.check_bot_seats(options.kind(), &request.seats).await?;
        self.check_room(&caller.who).await?;
        let seed = request.seed.unwrap_or_else(rand::random);
        let id = self.limits.shard.new_game_id();
        let (log, events) = GameLog::create_at(&id, options, table, request.seats, seed, crate::now())?;
        self.launch(log, events, caller).await
    }

    /// A new game from a finished one as it stood after event `sequence`, checked and counted
    /// like any new game.
    pub async fn fork(
        self: &Arc<Hub>,
        game_id: &str,
        mut request: pb::ForkGameRequest,
        caller: &Identity,
    ) -> Result<pb::CreateGameResponse> {
        crate::bots::engines::pin_versions(&mut request.seats);
        let parent = self.full_log(game_id).await?;
        let kind = GameLog::begin(parent.first().ok_or_else(|| Error::NotFound(format!("no game {game_id}")))?)
            .map_err(|error| Error::DataLoss { game: game_id.to_owned(), error })?
            .game()
            .kind();
        self.check_bot_seats(kind, &request.seats).await?;
        self.check_room(&caller.who).await?;
        let seed = request.seed.unwrap_or_else(rand::random);
        let id = self.limits.shard.new_game_id();
        let redeal = match request.redeal_for {
            Some(seat) => Some(crate::bots::engines::redeal(&parent, request.sequence, seat, seed)?),
            None => None,
        };
        let (log, events) =
            GameLog::fork_redealt(&id, &parent, request.sequence, request.seats, seed, crate::now(), redeal)?;
        tracing::info!(game = %id, parent = game_id, sequence = request.sequence, "game forked");
        self.launch(log, events, caller).await
    }

    /// Records a new game's owner and first events and starts its task.
    async fn launch(
        self: &Arc<Hub>,
        log: GameLog,
        events: Vec<pb::Event>,
        caller: &Identity,
    ) -> Result<pb::CreateGameResponse> {
        let id = log.id().to_owned();
        let (owner, owner_token) = new_owner(caller)?;
        let record = OwnerRecord::new(&owner, &caller.who);
        let sequence = log.sequence();
        tracing::info!(game = %id, kind = log.game().kind().name(), owner = owner.display(), "game created");
        self.store_and_start(log, events, &record, "").await?;
        Ok(pb::CreateGameResponse { game_id: id, sequence, owner_token: owner_token.unwrap_or_default() })
    }

    /// Stores a new game and starts its task, then offers each remote bot's seat to its
    /// program, with a new seat token (`match_id` says why the seat was given).
    pub(crate) async fn store_and_start(
        self: &Arc<Hub>,
        log: GameLog,
        events: Vec<pb::Event>,
        owner: &OwnerRecord,
        match_id: &str,
    ) -> Result<()> {
        self.store_new(&log, events, owner).await?;
        if log.status() == Status::Finished {
            return Ok(());
        }
        let offers = self.remote_seat_tokens(&log, match_id).await?;
        self.start(log, PlayedIn::of_purpose(match_id)).await?;
        for (remotes, bot_id, version, offer) in offers {
            let (game, seat) = (offer.game_id.clone(), offer.seat);
            if let Err(error) = remotes.offer(&bot_id, &version, offer) {
                // The seat faults at its move limit, turn by turn, as a program that stopped.
                tracing::warn!(%game, seat, bot = %bot_id, %error, "a remote bot's seat could not be offered");
            }
        }
        Ok(())
    }

    /// A token for each remote bot's seat of a new game, its hash stored as a joined seat's is;
    /// the offers that carry them.
    async fn remote_seat_tokens(&self, log: &GameLog, match_id: &str) -> Result<Vec<RemoteOffer>> {
        let Some(host) = &self.bots else { return Ok(Vec::new()) };
        let mut offers = Vec::new();
        for (seat, occupant) in log.seats().iter().enumerate() {
            let clack_log::Occupant::Bot { bot_id, version } = occupant else { continue };
            let Some(remotes) = host.remote(bot_id) else { continue };
            let token = auth::new_token();
            let hash = auth::hash(&token);
            let seat = seat as u8;
            self.store.put(&auth::token_key(log.id(), seat), auth::store_form(&hash)).await?;
            let offer = pb::SeatOffer {
                game_id: log.id().to_owned(),
                seat: u32::from(seat),
                seat_token: token,
                kind: clack_log::convert::kind_to_proto(log.game().kind()) as i32,
                match_id: match_id.to_owned(),
            };
            offers.push((remotes.clone(), bot_id.clone(), version.clone(), offer));
        }
        Ok(offers)
    }

    /// Writes a new game's owner record and its events so far (one append: a game that is
    /// already over is sealed with it).
    async fn store_new(&self, log: &GameLog, events: Vec<pb::Event>, owner: &OwnerRecord) -> Result<()> {
        self.store.put(&owner_key(log.id()), owner.encode_to_vec()).await?;
        let summary = view::summary(log);
        self.store.append(log.id(), 0, events, summary.clone()).await?;
        if let Some(index) = &self.index {
            index.note(summary);
        }
        Ok(())
    }

    /// An id for a new game of this shard.
    pub fn new_game_id(&self) -> String {
        self.limits.shard.new_game_id()
    }

    /// Plays a new game whose seats are all bots (a match's or the ladder's game with a remote
    /// bot in it) as a live game owned by `owner`, and waits for its end: the game and its
    /// events. Its seats were checked when the match or the deal started, and a version retired
    /// since plays the games it owes; only a remote bot's program is checked again, since it may
    /// have gone, and a game it cannot play is not started.
    pub(crate) async fn play_live(
        self: &Arc<Hub>,
        log: GameLog,
        events: Vec<pb::Event>,
        owner: &OwnerRecord,
        purpose: &str,
    ) -> Result<(GameLog, Vec<pb::Event>)> {
        self.check_connected(&log)?;
        self.wait_for_room().await?;
        let id = log.id().to_owned();
        self.store_and_start(log, events, owner, purpose).await?;
        let snapshot = self.live_map().get(&id).map(|live| live.snapshot.clone());
        if let Some(mut snapshot) = snapshot {
            // The task's end drops the sender after its last commit; either way the game is over
            // or the server is closing, and the store says which.
            let _ = snapshot.wait_for(|s| s.log.status() == Status::Finished).await;
        }
        let events = self.read(&id, 1).await?;
        let log = GameLog::replay(&events).map_err(|error| Error::DataLoss { game: id.clone(), error })?;
        if log.status() != Status::Finished {
            return Err(Error::FailedPrecondition(format!("game {id} stopped before its end (the server is closing)")));
        }
        Ok((log, events))
    }

    /// Waits until the server is below its live-games limit. A match's or the ladder's live game
    /// is background work: it takes a slot only when one is free, checked as it starts, so
    /// people's games are not refused for it; after [`ROOM_WAIT`] it gives up.
    async fn wait_for_room(&self) -> Result<()> {
        let deadline = tokio::time::Instant::now() + ROOM_WAIT;
        while self.live_map().len() >= self.limits.live_games {
            if tokio::time::Instant::now() >= deadline {
                return Err(Error::ResourceExhausted(format!(
                    "the server stayed at its limit of {} live games for {} s",
                    self.limits.live_games,
                    ROOM_WAIT.as_secs()
                )));
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        Ok(())
    }

    /// Stores a game that was played to its end outside the hub (a match's game: every seat a
    /// bot, every event made by its `GameLog`), owned by `owner`, as one append that seals it.
    /// It then reads, replays and verifies like any other finished game; it has no task.
    pub async fn store_played(&self, log: &GameLog, events: Vec<pb::Event>, owner: &OwnerRecord) -> Result<()> {
        if log.status() != Status::Finished || events.len() as u64 != log.sequence() {
            return Err(Error::Internal(format!("game {} is not a whole finished game", log.id())));
        }
        self.store_new(log, events, owner).await
    }

    /// Cancels a game that has not started, for its creator or an admin.
    pub async fn cancel(&self, game_id: &str, identity: &Identity) -> Result<pb::CancelGameResponse> {
        let owner = match self.owner(game_id).await? {
            Some(record) => record.owner()?,
            None => {
                // Unknown games are NOT_FOUND before anyone is told they may not touch them.
                self.load(game_id).await?;
                Owner::Nobody
            }
        };
        policy::check(self.access.mode(), identity, Action::CancelGame { game: game_id, owner: &owner })?;
        let sequence = self.abandon(game_id, format!("cancelled by {}", identity.who)).await?;
        tracing::info!(game = game_id, by = %identity.who, "game cancelled");
        Ok(pb::CancelGameResponse { sequence })
    }

    /// Who created a game, if that was recorded (games from before ownership have no owner).
    async fn owner(&self, game_id: &str) -> Result<Option<OwnerRecord>> {
        let Some(bytes) = self.store.get(&owner_key(game_id)).await? else { return Ok(None) };
        OwnerRecord::decode(bytes.as_slice())
            .map(Some)
            .map_err(|e| Error::Internal(format!("the owner record of game {game_id} does not decode: {e}")))
    }

    /// Calls off a game that has not started (`reason` is recorded in its `GameAbandoned`
    /// event); answers the game's last sequence number.
    pub async fn abandon(&self, game_id: &str, reason: String) -> Result<u64> {
        if let Some(answer) = self.ask(game_id, |reply| Command::Abandon { reason, reply }).await {
            return answer;
        }
        self.finished(game_id).await?;
        Err(Self::over())
    }

    /// Sends a command to a live game; `None` if the game is not live (finished, or unknown).
    async fn ask<T>(
        &self,
        game_id: &str,
        command: impl FnOnce(oneshot::Sender<Result<T>>) -> Command,
    ) -> Option<Result<T>> {
        let sender = self.live_map().get(game_id).map(|live| live.commands.clone())?;
        let (reply, answer) = oneshot::channel();
        sender.send(command(reply)).await.ok()?;
        answer.await.ok()
    }

    /// A game no task serves (finished, or unknown: then NOT_FOUND), read from the store.
    async fn finished(&self, game_id: &str) -> Result<GameLog> {
        self.load(game_id).await
    }

    fn over() -> Error {
        Error::FailedPrecondition("the game is over".to_owned())
    }

    pub async fn join(&self, game_id: &str, seat: Option<u32>, name: String) -> Result<pb::JoinGameResponse> {
        if let Some(answer) = self.ask(game_id, |reply| Command::Join { seat, name, reply }).await {
            return answer;
        }
        self.finished(game_id).await?;
        Err(Self::over())
    }

    /// A game no task serves, with its seats' token hashes, to be read like a live one.
    async fn finished_snapshot(&self, game_id: &str) -> Result<Snapshot> {
        let log = self.finished(game_id).await?;
        let tokens = self.token_hashes(&log).await?.into();
        Ok(Snapshot { log, tokens })
    }

    /// The latest committed state of a live game; `None` if the game is not live.
    pub(crate) fn snapshot(&self, game_id: &str) -> Option<Arc<Snapshot>> {
        self.live_map().get(game_id).map(|live| live.snapshot.borrow().clone())
    }

    /// A live clocked game's clocks and deadline as of event `sequence`, if that is still its
    /// latest event (a watcher attaches them to the event it sends).
    pub fn clocks_at(&self, game_id: &str, sequence: u64) -> Option<(Vec<pb::SeatClock>, Option<i64>)> {
        let snapshot = self.snapshot(game_id)?;
        let log = &snapshot.log;
        let current = log.sequence() == sequence && log.time_control().is_some();
        current.then(|| (view::clocks(log), log.deadline().map(|(_, at)| at)))
    }

    /// The sequence of a game's last event, live or finished.
    pub async fn last_sequence(&self, game_id: &str) -> Result<u64> {
        if let Some(snapshot) = self.snapshot(game_id) {
            return Ok(snapshot.log.sequence());
        }
        Ok(self.finished_snapshot(game_id).await?.log.sequence())
    }

    pub async fn view(&self, game_id: &str, caller: Caller) -> Result<pb::View> {
        if let Some(snapshot) = self.snapshot(game_id) {
            return snapshot.view(&caller);
        }
        self.finished_snapshot(game_id).await?.view(&caller)
    }

    pub async fn legal(&self, game_id: &str, caller: Caller) -> Result<pb::ListLegalActionsResponse> {
        if let Some(snapshot) = self.snapshot(game_id) {
            return snapshot.legal(&caller);
        }
        self.finished_snapshot(game_id).await?.legal(&caller)
    }

    pub async fn act(
        &self,
        game_id: &str,
        caller: Caller,
        expected: u64,
        action: Move,
        full_view: bool,
    ) -> Result<pb::ActResponse> {
        let act = |reply| Command::Act { caller, expected, action, full_view, reply };
        if let Some(answer) = self.ask(game_id, act).await {
            return answer;
        }
        self.finished(game_id).await?;
        Err(Self::over())
    }

    pub async fn resign(&self, game_id: &str, caller: Caller) -> Result<pb::ResignResponse> {
        if let Some(answer) = self.ask(game_id, |reply| Command::Resign { caller, reply }).await {
            return answer;
        }
        self.finished(game_id).await?;
        Err(Self::over())
    }

    /// The start of a watch: past events from `from`, and live ones if the game is on.
    pub async fn subscribe(
        &self,
        game_id: &str,
        caller: Caller,
        from: u64,
    ) -> Result<(Viewer, Vec<pb::Event>, Option<Subscription>)> {
        let fallback = caller.clone();
        if let Some(answer) = self.ask(game_id, |reply| Command::Subscribe { caller, from, reply }).await {
            let subscription = answer?;
            return Ok((subscription.viewer, Vec::new(), Some(subscription)));
        }
        let viewer = self.finished_snapshot(game_id).await?.viewer(&fallback)?;
        Ok((viewer, self.read(game_id, from.max(1)).await?, None))
    }

    /// One page of games, newest first, read from the store's listing index: a page costs the
    /// same however many games are stored. The page token is the store's cursor, checked against
    /// the filter it was made for.
    pub async fn list(&self, request: &pb::ListGamesRequest) -> Result<pb::ListGamesResponse> {
        let query = list_query(request)?;
        let (kind, status) = (query.kind, query.status);
        let mut page = match (request.bot_id.as_str(), &self.index) {
            ("", Some(index)) => index.list(&query, None).await?,
            (bot_id, Some(index)) => index.list(&query, Some(bot_id)).await?,
            ("", None) => self.store.list(query).await?,
            (bot_id, None) => self.list_of_bot(query, bot_id).await?,
        };
        let next_page_token = page.next.map(|c| c.to_token(kind, status)).unwrap_or_default();
        {
            // This shard's kept reviews are current here; other shards' come with their rows.
            let reviewed = self.reviewed.read().unwrap_or_else(std::sync::PoisonError::into_inner);
            for game in &mut page.games {
                if let Some(levels) = reviewed.get(&game.game_id) {
                    game.reviewed.clone_from(levels);
                }
            }
        }
        Ok(pb::ListGamesResponse { games: page.games, next_page_token })
    }

    /// Whether `ListGames` answers for the whole cluster from the shared index, so that no
    /// fan-out to peers is needed: with a shared database, for every filter (a bot's games
    /// included).
    pub fn lists_cluster(&self) -> bool {
        self.index.is_some()
    }

    /// A page of the games with a seat of `bot_id`: the listing read in order and filtered,
    /// [`BOT_SCAN`] games at most, so that a call costs the same for a bot that rarely plays.
    async fn list_of_bot(&self, query: clack_store::ListQuery, bot_id: &str) -> Result<clack_store::Page> {
        let wanted = query.limit;
        let mut scan = clack_store::ListQuery { limit: 256, ..query };
        let (mut games, mut scanned) = (Vec::new(), 0);
        loop {
            let page = self.store.list(scan.clone()).await?;
            for game in page.games {
                scanned += 1;
                let cursor = clack_store::Cursor::of(&game);
                if game.seats.iter().any(|s| s.bot.as_ref().is_some_and(|b| b.bot_id == bot_id)) {
                    games.push(game);
                }
                if games.len() == wanted || scanned == BOT_SCAN {
                    return Ok(clack_store::Page { games, next: Some(cursor) });
                }
            }
            match page.next {
                Some(next) => scan.after = Some(next),
                None => return Ok(clack_store::Page { games, next: None }),
            }
        }
    }

    /// Notes that `game_id` has a kept review at `level`, for listings, here and in the store.
    pub async fn mark_reviewed(&self, game_id: &str, level: &str) -> Result<()> {
        let levels = {
            let mut reviewed = self.reviewed.write().unwrap_or_else(std::sync::PoisonError::into_inner);
            let levels = reviewed.entry(game_id.to_owned()).or_default();
            if !levels.iter().any(|l| l == level) {
                levels.push(level.to_owned());
            }
            levels.clone()
        };
        self.store.put(&format!("{REVIEWED}{game_id}"), levels.join(",").into_bytes()).await?;
        if let Some(index) = &self.index
            && let Some(mut summary) = self.store.summary(game_id).await?
        {
            summary.reviewed = levels;
            index.note(summary);
        }
        Ok(())
    }

    /// The full log of a finished game.
    pub async fn full_log(&self, game_id: &str) -> Result<Vec<pb::Event>> {
        let events = self.read(game_id, 1).await?;
        if events.is_empty() {
            return Err(Error::NotFound(format!("no game {game_id}")));
        }
        let log = GameLog::replay(&events).map_err(|error| Error::DataLoss { game: game_id.to_owned(), error })?;
        if log.status() != Status::Finished {
            return Err(Error::FailedPrecondition("the full log opens when the game is over".to_owned()));
        }
        Ok(events)
    }

    /// A finished game as it stood after event `sequence`, every hand shown.
    pub async fn state_at(&self, game_id: &str, sequence: u64) -> Result<pb::View> {
        let events = self.full_log(game_id).await?;
        if sequence == 0 || sequence > events.len() as u64 {
            let message = format!("must be from 1 to {}", events.len());
            return Err(clack_log::convert::FieldError::new("sequence", message).into());
        }
        let mut iter = events.iter().take(sequence as usize);
        let first = iter.next().ok_or_else(|| Error::NotFound(format!("no game {game_id}")))?;
        let mut log = GameLog::begin(first).map_err(|error| Error::DataLoss { game: game_id.into(), error })?;
        for event in iter {
            log.apply(event).map_err(|error| Error::DataLoss { game: game_id.into(), error })?;
        }
        Ok(view::view(&log, Viewer::Everyone))
    }

    /// Rebuilds a game from its log and checks every recorded result.
    pub async fn verify(&self, game_id: &str) -> Result<pb::VerifyResponse> {
        // The log and its summary are read apart, and a game in play (a bot game, say) can move
        // in between; reading the summary before and after the log and retrying when they
        // differ compares a log with the summary of the same moment. (Found by `clack
        // crashloop`, which verifies bot games while they play.)
        let mut attempts = 0;
        let (events, summary) = loop {
            let before = self.store.summary(game_id).await?;
            let events = self.read(game_id, 1).await?;
            let after = self.store.summary(game_id).await?;
            attempts += 1;
            if before == after || attempts == 100 {
                break (events, after);
            }
        };
        if events.is_empty() {
            return Err(Error::NotFound(format!("no game {game_id}")));
        }
        let outcome = GameLog::replay(&events).map(|log| (log.sequence(), log.status()));
        let (ok, detail) = match (outcome, summary) {
            (Err(error), _) => (false, error.to_string()),
            (Ok((sequence, _)), Some(s)) if s.sequence != sequence => {
                (false, format!("the summary says sequence {}, the log ends at {sequence}", s.sequence))
            }
            (Ok((_, status)), Some(s)) if s.status != view::status_to_proto(status) as i32 => {
                (false, "the summary's status disagrees with the log".to_owned())
            }
            (Ok(_), _) => (true, String::new()),
        };
        Ok(pb::VerifyResponse { ok, events: events.len() as u64, detail })
    }

    /// The JSON lines export of a finished game.
    pub async fn export(&self, game_id: &str) -> Result<Vec<String>> {
        Ok(self.full_log(game_id).await?.iter().map(json::to_line).collect())
    }

    /// How many games have a live task.
    pub fn live_games(&self) -> usize {
        self.live_map().len()
    }

    /// Waits until everything written is on disk (for shutdown).
    pub async fn flush(&self) -> Result<()> {
        Ok(self.store.flush().await?)
    }
}

/// The listing a `ListGames` request asks for, every field checked.
fn list_query(request: &pb::ListGamesRequest) -> Result<clack_store::ListQuery> {
    let kind = clack_log::convert::kind_filter(request.kind, "kind")?;
    let status = pb::GameStatus::try_from(request.status)
        .map_err(|_| clack_log::convert::FieldError::new("status", format!("unknown status {}", request.status)))?;
    if request.page_size > 100 {
        return Err(clack_log::convert::FieldError::new("page_size", "at most 100").into());
    }
    let kind = kind.map_or(0, |k| clack_log::convert::kind_to_proto(k) as i32);
    let status = status as i32;
    let after = match request.page_token.as_str() {
        "" => None,
        token => Some(
            clack_store::Cursor::from_token(token, kind, status)
                .map_err(|e| clack_log::convert::FieldError::new("page_token", e.to_string()))?,
        ),
    };
    let limit = if request.page_size == 0 { 20 } else { request.page_size as usize };
    Ok(clack_store::ListQuery { kind, status, after, limit })
}

/// The figures Prometheus reads off the live games when it scrapes.
impl crate::metrics::LiveFigures for Hub {
    fn store(&self) -> &Durable {
        &self.store
    }

    fn live_games(&self) -> usize {
        Hub::live_games(self)
    }

    fn quota_denials(&self) -> Vec<(&'static str, u64)> {
        self.meter.denials().collect()
    }
}
