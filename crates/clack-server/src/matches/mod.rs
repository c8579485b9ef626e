//! Matches that outlive a request: `BotService.StartMatch`, `WatchMatch` and `RunMatch`, and
//! `GameService.ListGames` by match.
//!
//! A match is a record in the store, `match/{id}` ([`MatchRecord`]), and a task that plays its
//! games one at a time on the bots' pool ([`table`]). The record holds the request with every
//! entrant pinned to a version and the rating it started with, whose the games are, and each
//! game played with its result; it is written when the match starts and after every game. A
//! server that starts finds every match that had not ended and resumes it after its last
//! recorded game. The standings are rebuilt from the recorded results, so nothing is counted
//! twice; a game cut off by the stop was never recorded, and is played again from its seed (had
//! it been stored but not yet recorded, it stays in the store as a finished game outside the
//! match). When the last game is recorded the match is marked finished, and then its standings
//! are added to its bots' statistics: a stop between the two loses that match's statistics
//! rather than counting them twice. On a cluster's shard the database counts a match once
//! whatever happens ([`crate::bots::shared`]), so there the statistics are added first and a
//! stop between the two counts them when the match resumes. A server shutting down lets the game in play finish and
//! starts no other; the match resumes at the next start.
//!
//! The games of one rotation of the seats share a seed (duplicate deals, see
//! `clack_bots::arena`). A bot version retired during a match plays the match out: retiring
//! stops new seats and new matches, not games already owed.
//!
//! Who may start a match is who may run one, under the same quota of games per call; anyone may
//! watch a match or list its games, as anyone may list games.
//!
//! On a cluster's shard the record is in the shared database instead ([`shared`]), written only
//! under the match's lease, and before each game is stored; every shard looks every second for
//! running matches whose lease has expired and resumes them as a restarted server would, and
//! any shard answers `WatchMatch` and `ListGames` by match from the record.

pub mod shared;
pub(crate) mod table;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use clack_bots::arena::{GameResult, Match};
use clack_log::convert::{FieldError, options_from_proto};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use prost::Message;
use tokio::sync::{mpsc, watch};
use tonic::Status;

use crate::bots::library::{Asker, BotLibrary};
use crate::cluster::lease::{self, Holder, Leases, Renewed};
use crate::error::{Error, Result};
use crate::games::hub::Hub;
use crate::paging::Page;
use crate::who::access::{OwnerRecord, new_owner};
use table::{Outcome, Table};

/// The store's prefix of match records.
const PREFIX: &str = "match/";

/// A match as stored under `match/{id}`.
#[derive(Clone, PartialEq, Message)]
pub struct MatchRecord {
    #[prost(string, tag = "1")]
    pub match_id: String,
    /// The request, every entrant's version pinned.
    #[prost(message, optional, tag = "2")]
    pub request: Option<pb::StartMatchRequest>,
    /// Each entrant's rating when the match started.
    #[prost(double, repeated, tag = "3")]
    pub ratings: Vec<f64>,
    /// Whose the match's games are.
    #[prost(message, optional, tag = "4")]
    pub owner: Option<OwnerRecord>,
    /// The games played, in order.
    #[prost(message, repeated, tag = "5")]
    pub games: Vec<PlayedGame>,
    /// A `pb::MatchStatus`.
    #[prost(int32, tag = "6")]
    pub status: i32,
    #[prost(string, tag = "7")]
    pub error: String,
}

/// One game of a match and its result, seat by seat.
#[derive(Clone, PartialEq, Message)]
pub struct PlayedGame {
    #[prost(string, tag = "1")]
    pub game_id: String,
    #[prost(uint32, repeated, tag = "2")]
    pub winners: Vec<u32>,
    #[prost(double, repeated, tag = "3")]
    pub scores: Vec<f64>,
    #[prost(uint64, repeated, tag = "4")]
    pub faults: Vec<u64>,
    #[prost(uint64, repeated, tag = "5")]
    pub decisions: Vec<u64>,
    /// Each seat's decision time, in nanoseconds (exact: standings rebuilt from the record
    /// are the standings reported while the match played).
    #[prost(uint64, repeated, tag = "6")]
    pub nanos: Vec<u64>,
}

impl PlayedGame {
    fn of(game_id: String, result: &GameResult) -> PlayedGame {
        PlayedGame {
            game_id,
            winners: result.winners.iter().map(|s| u32::from(s.0)).collect(),
            scores: result.scores.clone(),
            faults: result.faults.clone(),
            decisions: result.decisions.clone(),
            nanos: result.time.iter().map(|t| u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)).collect(),
        }
    }

    fn result(&self) -> GameResult {
        GameResult {
            winners: self.winners.iter().filter_map(|&s| u8::try_from(s).ok().map(Seat)).collect(),
            scores: self.scores.clone(),
            faults: self.faults.clone(),
            decisions: self.decisions.clone(),
            time: self.nanos.iter().map(|&n| std::time::Duration::from_nanos(n)).collect(),
            // Counted by the match while it ran; a record keeps the totals alone.
            timings: Vec::new(),
        }
    }
}

/// The matches being played, each with the latest word on its progress.
pub struct Matches {
    hub: Arc<Hub>,
    library: Arc<BotLibrary>,
    running: Mutex<HashMap<String, watch::Receiver<pb::WatchMatchResponse>>>,
    /// Turns true when the server starts to shut down: no new game starts after it.
    closing: watch::Receiver<bool>,
    /// On a cluster's shard, this process as the holder of match leases: a match is recorded in
    /// the shared database, played by the holder of its lease, and resumed by another shard
    /// when its holder is gone.
    holder: Option<Arc<Holder>>,
    /// The leases of the matches this process plays.
    held: Leases<String>,
}

/// How often a shard looks for running matches whose shard is gone (and renews its own).
const ADOPT: Duration = lease::RENEW;
/// How often `WatchMatch` reads a match played by another shard.
const WATCH_ELSEWHERE: Duration = Duration::from_millis(500);

impl std::fmt::Debug for Matches {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Matches").finish_non_exhaustive()
    }
}

impl Matches {
    /// The matches of `hub`'s store; every one that had not ended is resumed.
    ///
    /// On a cluster's shard the matches are the database's instead: a task renews the leases of
    /// the matches this shard plays and takes over every running match whose lease has expired.
    pub async fn open(hub: Arc<Hub>, library: Arc<BotLibrary>, closing: watch::Receiver<bool>) -> Result<Arc<Matches>> {
        let holder = hub.database().map(|database| Arc::new(Holder::new(database, hub.shard().as_str())));
        let matches =
            Arc::new(Matches { hub, library, running: Mutex::default(), closing, holder, held: Leases::default() });
        if matches.holder.is_some() {
            tokio::spawn(matches.clone().adopt());
            return Ok(matches);
        }
        for (key, bytes) in matches.hub.store().scan(PREFIX).await? {
            match MatchRecord::decode(bytes.as_slice()) {
                Ok(record) if record.status == pb::MatchStatus::Running as i32 => matches.resume(record).await,
                Ok(_) => {}
                Err(error) => tracing::error!(key, %error, "a match record does not decode; left as it is"),
            }
        }
        Ok(matches)
    }

    /// Checks a request, records the match and starts playing it.
    pub async fn start(
        self: &Arc<Self>,
        request: pb::StartMatchRequest,
        asker: Asker<'_>,
    ) -> Result<pb::StartMatchResponse> {
        let options = options_from_proto(request.options.as_ref())?;
        if request.games == 0 {
            return Err(FieldError::new("games", "at least 1").into());
        }
        let table = Table::check(&self.library, options, &request.entrants, None).await?;
        asker.meter.match_games(&asker.identity.who, request.games)?;
        let (owner, owner_token) = new_owner(asker.identity)?;
        let record = MatchRecord {
            match_id: self.hub.new_game_id(),
            request: Some(pb::StartMatchRequest { entrants: table.pinned(), ..request }),
            ratings: table.entrants.iter().map(|e| e.rating).collect(),
            owner: Some(OwnerRecord::new(&owner, &asker.identity.who)),
            games: Vec::new(),
            status: pb::MatchStatus::Running as i32,
            error: String::new(),
        };
        if let Some(holder) = &self.holder {
            let (id, name) = (record.match_id.clone(), shared::lease(&record.match_id));
            if self.held.take(holder, id, &name).await?.is_none() {
                return Err(Error::Internal(format!("match {} is taken", record.match_id)));
            }
        }
        if !self.save(&record).await? {
            return Err(Error::Internal(format!("match {} could not be recorded", record.match_id)));
        }
        tracing::info!(r#match = %record.match_id, games = record.request.as_ref().map_or(0, |r| r.games), by = %asker.identity.who, "match started");
        let match_id = record.match_id.clone();
        self.spawn(record, table);
        Ok(pb::StartMatchResponse { match_id, owner_token: owner_token.unwrap_or_default() })
    }

    /// Picks a stored match up where it stopped; one that cannot be (a bot gone from the store)
    /// is marked failed with the reason.
    async fn resume(self: &Arc<Self>, mut record: MatchRecord) {
        match self.stored_table(&record).await {
            Ok(table) => {
                tracing::info!(r#match = %record.match_id, done = record.games.len(), "match resumed");
                self.spawn(record, table);
            }
            Err(error) => {
                tracing::error!(r#match = %record.match_id, %error, "a match cannot resume");
                record.status = pb::MatchStatus::Failed as i32;
                record.error = format!("it could not resume after a restart: {error}");
                if let Err(error) = self.save(&record).await {
                    tracing::error!(r#match = %record.match_id, %error, "a match record could not be written");
                }
            }
        }
    }

    /// Starts the task that plays the rest of the match.
    fn spawn(self: &Arc<Self>, record: MatchRecord, table: Table) {
        let played = replayed(&record, &table);
        let (progress, receiver) = watch::channel(report(&record, &table, &played, None));
        self.running.lock().unwrap_or_else(PoisonError::into_inner).insert(record.match_id.clone(), receiver);
        let matches = self.clone();
        tokio::spawn(async move { matches.run(record, table, played, progress).await });
    }

    async fn run(
        self: Arc<Self>,
        mut record: MatchRecord,
        table: Table,
        mut played: Match,
        progress: watch::Sender<pb::WatchMatchResponse>,
    ) {
        if let Err(error) = self.play(&mut record, &table, &mut played, &progress).await {
            tracing::warn!(r#match = %record.match_id, %error, "match failed");
            record.status = pb::MatchStatus::Failed as i32;
            record.error = error.to_string();
            if let Err(error) = self.save(&record).await {
                tracing::error!(r#match = %record.match_id, %error, "a match record could not be written");
            }
            progress.send_modify(|p| {
                p.status = record.status;
                p.error = record.error.clone();
            });
        }
        self.running.lock().unwrap_or_else(PoisonError::into_inner).remove(&record.match_id);
        self.held.forget(&record.match_id);
        // Left to the shard that took it over: whoever watches it here goes on hearing of it.
        let left = record.status == pb::MatchStatus::Running as i32 && !*self.closing.borrow();
        if left && self.holder.is_some() {
            let relayed = self.follow(record, Watchers::Progress(&progress)).await;
            if let Err(error) = relayed {
                progress.send_modify(|p| p.error = error.to_string());
            }
        }
    }

    /// The epoch under which this process may play the next game of `match_id`: always on a
    /// lone server (0); on a cluster's shard while it holds the match's lease, renewed in time.
    fn holding(&self, match_id: &str) -> Option<i64> {
        if self.holder.is_none() {
            return Some(0);
        }
        self.held.current(match_id)
    }

    /// Every [`ADOPT`], renews the leases of the matches this shard plays, and takes over every
    /// running match whose lease has expired (its shard is gone or stalled), resuming it after
    /// its last recorded game: within [`lease::LEASE`] and one [`ADOPT`] of its shard's end.
    async fn adopt(self: Arc<Self>) {
        let Some(holder) = self.holder.clone() else { return };
        let mut every = tokio::time::interval(ADOPT);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !*self.closing.borrow() {
            every.tick().await;
            for (id, _) in self.held.held() {
                if self.held.renew(&holder, &id, &shared::lease(&id)).await == Renewed::Lost {
                    tracing::warn!(r#match = %id, "lost the match's lease; another shard plays it");
                }
            }
            let Ok(orphans) = shared::orphans(holder.database()).await else { continue };
            for id in orphans {
                if let Err(error) = self.take_over(&holder, &id).await {
                    tracing::warn!(r#match = %id, %error, "a match whose shard is gone could not be taken over");
                }
            }
        }
    }

    /// Takes over running match `match_id` if its lease can be taken, and resumes it.
    async fn take_over(self: &Arc<Self>, holder: &Holder, match_id: &str) -> Result<()> {
        if self.running.lock().unwrap_or_else(PoisonError::into_inner).contains_key(match_id) {
            return Ok(());
        }
        let name = shared::lease(match_id);
        let Some(epoch) = self.held.take(holder, match_id.to_owned(), &name).await? else { return Ok(()) };
        let record = record_of(&self.hub, match_id).await?;
        if record.status != pb::MatchStatus::Running as i32 {
            self.held.forget(match_id);
            return Ok(());
        }
        tracing::info!(r#match = %match_id, epoch, done = record.games.len(), "took over a match whose shard is gone");
        self.resume(record).await;
        Ok(())
    }

    /// Plays the games still owed, recording each, then marks the match finished and counts it.
    async fn play(
        &self,
        record: &mut MatchRecord,
        table: &Table,
        played: &mut Match,
        progress: &watch::Sender<pb::WatchMatchResponse>,
    ) -> Result<()> {
        let games = record.request.as_ref().map_or(0, |r| r.games);
        let owner = record.owner.clone().unwrap_or_default();
        while played.played() < games {
            if *self.closing.borrow() {
                tracing::info!(r#match = %record.match_id, done = played.played(), "match paused for shutdown");
                return Ok(());
            }
            if self.holding(&record.match_id).is_none() {
                tracing::info!(r#match = %record.match_id, done = played.played(), "match left to the shard that took it over");
                return Ok(());
            }
            let next = played.next_game();
            let outcome = table.play_game((&self.library, &self.hub), &next, (&owner, &record.match_id), None).await?;
            let Some((summary, result)) = self.keep_game(record, outcome, &owner).await? else { return Ok(()) };
            played.record(&next, &result);
            progress.send_replace(report(record, table, played, Some(summary)));
        }
        // Counted exactly once on a cluster (the database keys the count by match), so counted
        // before the match is marked finished: a stop between the two counts it at the resume.
        // On one server a stop between the two loses the count rather than doubling it.
        let once = self.library.counts_matches_once();
        if once {
            table.count(&self.library, &record.match_id, &played.standings()).await?;
        }
        record.status = pb::MatchStatus::Finished as i32;
        if !self.save(record).await? {
            return Ok(());
        }
        if !once {
            table.count(&self.library, &record.match_id, &played.standings()).await?;
        }
        progress.send_modify(|p| p.status = record.status);
        tracing::info!(r#match = %record.match_id, games, "match played");
        Ok(())
    }

    /// Records a game the match played, and stores it. On a lone server the game is stored
    /// first (a stop between the two leaves it in the store outside the match, and it is played
    /// again); on a cluster's shard it is recorded first, under the match's lease, and stored only
    /// if it was: a shard that lost the match while playing it stores nothing (answers `None`).
    async fn keep_game(
        &self,
        record: &mut MatchRecord,
        outcome: Outcome,
        owner: &OwnerRecord,
    ) -> Result<Option<(pb::GameSummary, GameResult)>> {
        let (log, events, result) = match outcome {
            Outcome::Stored(summary, result) => {
                // A live game (a remote bot's), stored as it was played: indexed now, so that the
                // match lists it as soon as it is recorded.
                self.hub.index_now(summary.clone()).await?;
                record.games.push(PlayedGame::of(summary.game_id.clone(), &result));
                return Ok(self.save(record).await?.then_some((summary, result)));
            }
            Outcome::Played(log, events, result) => (log, events, result),
        };
        record.games.push(PlayedGame::of(log.id().to_owned(), &result));
        if self.holder.is_none() {
            let summary = table::store(&self.hub, &log, events, owner).await?;
            self.save(record).await?;
            return Ok(Some((summary, result)));
        }
        if !self.save(record).await? {
            record.games.pop();
            return Ok(None);
        }
        self.hub.index_now(crate::games::view::summary(&log)).await?;
        Ok(Some((table::store(&self.hub, &log, events, owner).await?, result)))
    }

    /// Writes a match's record: to the store on a lone server; on a cluster's shard to the
    /// database, under the match's lease (false: another shard plays it now, nothing written).
    async fn save(&self, record: &MatchRecord) -> Result<bool> {
        let Some(holder) = &self.holder else {
            self.hub.store().put(&format!("{PREFIX}{}", record.match_id), record.encode_to_vec()).await?;
            return Ok(true);
        };
        let Some(epoch) = self.held.epoch(&record.match_id) else { return Ok(false) };
        let saved = shared::save(holder, epoch, &record.match_id, record.status, &record.encode_to_vec()).await?;
        if !saved {
            tracing::warn!(r#match = %record.match_id, epoch, "the match's lease is lost; nothing written");
            self.held.forget(&record.match_id);
        }
        Ok(saved)
    }

    /// A match's progress now, and then after each game until it ends.
    pub async fn watch(
        self: &Arc<Self>,
        match_id: &str,
    ) -> Result<mpsc::Receiver<std::result::Result<pb::WatchMatchResponse, Status>>> {
        let (sender, replies) = mpsc::channel(4);
        let running = self.running.lock().unwrap_or_else(PoisonError::into_inner).get(match_id).cloned();
        let Some(mut watching) = running else {
            let record = record_of(&self.hub, match_id).await?;
            if record.status == pb::MatchStatus::Running as i32 && self.holder.is_some() {
                tokio::spawn(self.clone().watch_elsewhere(record, sender));
                return Ok(replies);
            }
            let _ = sender.send(Ok(self.ended(&record).await)).await;
            return Ok(replies);
        };
        tokio::spawn(async move {
            loop {
                let now = watching.borrow_and_update().clone();
                let over = now.status != pb::MatchStatus::Running as i32;
                if sender.send(Ok(now)).await.is_err() || over || watching.changed().await.is_err() {
                    break;
                }
            }
        });
        Ok(replies)
    }

    /// A running match another shard plays, read from the database every [`WATCH_ELSEWHERE`]:
    /// its progress now, and again after each game recorded, until it ends.
    async fn watch_elsewhere(
        self: Arc<Self>,
        record: MatchRecord,
        sender: mpsc::Sender<std::result::Result<pb::WatchMatchResponse, Status>>,
    ) {
        if let Err(error) = self.follow(record, Watchers::Stream(&sender)).await {
            let _ = sender.send(Err(error.into())).await;
        }
    }

    /// Tells `watchers` where a match stands, and again whenever the database's record of it
    /// changes (read every [`WATCH_ELSEWHERE`]), until it ends or nobody watches.
    async fn follow(&self, mut record: MatchRecord, watchers: Watchers<'_>) -> Result<()> {
        let mut told = None;
        loop {
            let now = (record.games.len(), record.status);
            if told != Some(now) {
                if !watchers.tell(self.ended(&record).await).await {
                    return Ok(());
                }
                told = Some(now);
            }
            if record.status != pb::MatchStatus::Running as i32 {
                return Ok(());
            }
            tokio::time::sleep(WATCH_ELSEWHERE).await;
            record = record_of(&self.hub, &record.match_id).await?;
        }
    }

    /// The progress of a match no task here plays: its standings from the record.
    async fn ended(&self, record: &MatchRecord) -> pb::WatchMatchResponse {
        let Ok(table) = self.stored_table(record).await else {
            let games = record.request.as_ref().map_or(0, |r| r.games);
            return pb::WatchMatchResponse { games, done: record.games.len() as u32, ..header(record) };
        };
        let played = replayed(record, &table);
        let last = match record.games.last() {
            Some(game) => {
                summaries(&self.hub, std::slice::from_ref(&game.game_id)).await.ok().and_then(|mut s| s.pop())
            }
            None => None,
        };
        report(record, &table, &played, last)
    }

    /// The table of a stored match: the versions it started with, at the ratings they had then.
    async fn stored_table(&self, record: &MatchRecord) -> Result<Table> {
        let request = record.request.clone().unwrap_or_default();
        let options = options_from_proto(request.options.as_ref())?;
        Table::check(&self.library, options, &request.entrants, Some(&record.ratings)).await
    }

    /// Starts a match and waits for its end: `RunMatch`, for the clients that call it.
    pub async fn run_to_end(
        self: &Arc<Self>,
        request: pb::RunMatchRequest,
        asker: Asker<'_>,
    ) -> Result<pb::RunMatchResponse> {
        let start = pb::StartMatchRequest {
            options: request.options,
            entrants: request.entrants,
            games: request.games,
            seed: request.seed,
        };
        let started = self.start(start, asker).await?;
        let mut progress = self.watch(&started.match_id).await?;
        let mut last = None;
        while let Some(reply) = progress.recv().await {
            last = Some(reply.map_err(|s| Error::Internal(s.message().to_owned()))?);
        }
        let last = last.ok_or_else(|| Error::Internal("the match sent no progress".into()))?;
        if last.status != pb::MatchStatus::Finished as i32 {
            return Err(Error::Internal(format!("match {} stopped: {}", started.match_id, last.error)));
        }
        let record = record_of(&self.hub, &started.match_id).await?;
        let ids: Vec<String> = record.games.iter().map(|g| g.game_id.clone()).collect();
        let match_games = summaries(&self.hub, &ids).await?;
        Ok(pb::RunMatchResponse {
            games: last.games,
            results: last.standings,
            match_games,
            owner_token: started.owner_token,
        })
    }
}

/// Who hears of a match another shard plays.
enum Watchers<'a> {
    /// One `WatchMatch` stream.
    Stream(&'a mpsc::Sender<std::result::Result<pb::WatchMatchResponse, Status>>),
    /// Every stream that watched the match here while this shard played it.
    Progress(&'a watch::Sender<pb::WatchMatchResponse>),
}

impl Watchers<'_> {
    /// Tells them where the match stands; answers whether anybody still listens.
    async fn tell(&self, now: pb::WatchMatchResponse) -> bool {
        match self {
            Watchers::Stream(sender) => sender.send(Ok(now)).await.is_ok(),
            Watchers::Progress(progress) => {
                progress.send_replace(now);
                progress.receiver_count() > 0
            }
        }
    }
}

/// The standings of a match's recorded games, rebuilt game by game as they were counted.
fn replayed(record: &MatchRecord, table: &Table) -> Match {
    let seed = record.request.as_ref().and_then(|r| r.seed).unwrap_or(0);
    let mut played = Match::new(table.options, table.entrants.clone(), seed);
    for game in &record.games {
        let next = played.next_game();
        played.record(&next, &game.result());
    }
    played
}

/// The record of match `match_id`: from the shared database on a cluster's shard, whichever
/// shard plays it, else from the store.
async fn record_of(hub: &Hub, match_id: &str) -> Result<MatchRecord> {
    let bytes = match hub.database() {
        Some(database) => shared::read(&database, match_id).await?,
        None => hub.store().get(&format!("{PREFIX}{match_id}")).await?,
    };
    let bytes = bytes.ok_or_else(|| Error::NotFound(format!("no match {match_id}")))?;
    MatchRecord::decode(bytes.as_slice()).map_err(|e| Error::Internal(format!("match {match_id} does not decode: {e}")))
}

fn header(record: &MatchRecord) -> pb::WatchMatchResponse {
    pb::WatchMatchResponse {
        match_id: record.match_id.clone(),
        status: record.status,
        error: record.error.clone(),
        ..pb::WatchMatchResponse::default()
    }
}

/// Where a match stands.
fn report(
    record: &MatchRecord,
    table: &Table,
    played: &Match,
    last_game: Option<pb::GameSummary>,
) -> pb::WatchMatchResponse {
    pb::WatchMatchResponse {
        games: record.request.as_ref().map_or(0, |r| r.games),
        done: played.played(),
        standings: table.results(&played.standings()),
        last_game,
        ..header(record)
    }
}

/// `ListGames` by match: the match's games in the order played, paged by their place in it.
pub async fn list_games(hub: &Hub, request: &pb::ListGamesRequest) -> Result<pb::ListGamesResponse> {
    if request.kind != 0 || request.status != 0 {
        return Err(FieldError::new("match_id", "lists a match's games: leave kind and status unspecified").into());
    }
    let page = Page::asked(&request.page_token, request.page_size)?;
    let record = record_of(hub, &request.match_id).await?;
    let ids: Vec<String> = record.games[page.range(record.games.len())].iter().map(|g| g.game_id.clone()).collect();
    let games = summaries(hub, &ids).await?;
    Ok(pb::ListGamesResponse { games, next_page_token: page.next_token(record.games.len()) })
}

/// The summaries of games `ids`, in that order: from the cluster's index on a cluster's shard
/// (a match's games live on every shard that played part of it), else from the store.
async fn summaries(hub: &Hub, ids: &[String]) -> Result<Vec<pb::GameSummary>> {
    if let Some(database) = hub.database() {
        return crate::games::index::summaries(&database, ids).await;
    }
    let mut games = Vec::new();
    for id in ids {
        games.extend(hub.store().summary(id).await?);
    }
    Ok(games)
}
