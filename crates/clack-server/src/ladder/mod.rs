//! The ladder: continuous rated play between every active bot version, per configuration
//! (`BotService.GetLeaderboard`, `GetRatingHistory`).
//!
//! With `--ladder`, one task plays the ladder's deals one game at a time,
//! taking turns between the configurations. For each deal it asks `clack_ladder` who should play
//! (the players whose game would narrow every rating on the anchored scale most, from the last
//! fit's covariance), plays the deal from every seat (a small duplicate match, through
//! [`crate::matches::table`], so each game is stored like any match game), and fits the ratings
//! again. In team configurations a side is what is rated: one version takes both partner seats
//! of its side, as bridge programs meet, so the board compares sides (docs/ladder.md says why).
//! Its games run on a thread of its own under the idle scheduling policy (see
//! `library::Background`), which takes no turn of the bots' pool: under load the operating
//! system gives the cores to the games first, and the ladder slows down instead of them, never
//! holding a turn a game's bot waits for. Between games it rests, so that it uses at most
//! `share` of the pool's threads even on an idle server. The engine (`engine:default` unless the operator names
//! another level) sits on every ladder at a fixed 1500: it is the same program month after month,
//! so a rating means the same over time.
//!
//! Every version of the configuration's game that may take seats is entered when the ladder
//! next looks. A deal's seats are checked as it starts, so a version retired during it plays it
//! out; a deal cut short counts the games it played. A version no longer scheduled (retired, or
//! a remote version whose program is not connected) stays on the board at its rating after the
//! last deal it played. A lone server's store keeps, per configuration, the players
//! (`ladder/{name}/players`, index to version) and every deal with the ratings after it
//! (`ladder/{name}/deal/{n}`); the boards are rebuilt from them at start, whether the ladder
//! runs or not.
//!
//! On a cluster's shard the boards are kept in the shared database instead ([`shared`]): every
//! shard follows them every second, and each board is played by the one process holding its
//! lease, whose every write is fenced by it. A deal is written after each game, and a game is
//! stored only once the deal holding it is, so a board counts exactly the ladder games the
//! cluster lists, whichever shard died or stalled in the middle of a deal. This module decides
//! what a board holds and when to write; [`shared`] knows the tables and the leases' timing.

pub mod shared;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use clack_bots::arena::Match;
use clack_ladder::{Candidate, DealGame, Rating, Results};
use clack_log::convert::FieldError;
use clack_proto::v1 as pb;
use clack_rules::game::{Kind, Options};
use clack_rules::{Seat, straight, streets};
use prost::Message;
use tokio::sync::watch;

use crate::bots::library::{Background, BotLibrary};
use crate::cluster::lease::{Leases, Renewed};
use crate::error::{Error, Result};
use crate::games::hub::Hub;
use crate::matches::table::{Outcome, Table};
use crate::paging::Page;
use crate::who::access::{Owner, OwnerRecord, Principal};

/// How the operator runs the ladder.
#[derive(Clone, Debug, PartialEq)]
pub struct LadderSettings {
    /// The share of the bots' pool the ladder may keep busy, above 0 and at most 1.
    pub share: f64,
    /// The engine level on every ladder at a fixed rating.
    pub anchor: String,
    pub configurations: Vec<Configuration>,
}

impl Default for LadderSettings {
    fn default() -> LadderSettings {
        LadderSettings { share: 0.25, anchor: "engine:default".into(), configurations: Configuration::ALL.to_vec() }
    }
}

/// The anchor's fixed rating.
const ANCHOR_RATING: f64 = 1500.0;

/// A table the ladder rates on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Configuration {
    /// Straight Dominoes, 2 players, to 250.
    Straight2,
    /// Straight Dominoes, 4 players in two teams, to 250.
    Straight4Teams,
    /// Streets and Avenues, 3 players, double-nine.
    Streets3,
}

impl Configuration {
    pub const ALL: [Configuration; 3] =
        [Configuration::Straight2, Configuration::Straight4Teams, Configuration::Streets3];

    pub fn name(self) -> &'static str {
        match self {
            Configuration::Straight2 => "straight-2",
            Configuration::Straight4Teams => "straight-4-teams",
            Configuration::Streets3 => "streets-3",
        }
    }

    pub fn parse(name: &str) -> Option<Configuration> {
        Configuration::ALL.into_iter().find(|c| c.name() == name)
    }

    fn options(self) -> Options {
        match self {
            Configuration::Straight2 => Options::Straight(straight::Options { players: 2, ..Default::default() }),
            Configuration::Straight4Teams => {
                Options::Straight(straight::Options { players: 4, teams: true, ..Default::default() })
            }
            Configuration::Streets3 => Options::Streets(streets::Options { players: 3, ..Default::default() }),
        }
    }

    fn kind(self) -> Kind {
        self.options().kind()
    }

    /// How many sides a game has: the players of a deal, one per side.
    fn side_count(self) -> usize {
        self.sides().into_iter().max().map_or(0, |s| s + 1)
    }

    /// The side each seat plays for.
    fn sides(self) -> Vec<usize> {
        let options = self.options();
        (0..usize::from(options.players()))
            .map(|seat| match options {
                Options::Straight(o) => o.side(Seat(seat as u8)),
                Options::Streets(_) => seat,
            })
            .collect()
    }
}

/// The players of a ladder, as stored.
#[derive(Clone, PartialEq, Message)]
struct PlayersRecord {
    #[prost(message, repeated, tag = "1")]
    players: Vec<pb::MatchEntrant>,
}

/// One deal of a ladder, as stored: its games and the ratings of its players after it.
#[derive(Clone, PartialEq, Message)]
struct DealRecord {
    #[prost(message, repeated, tag = "1")]
    games: Vec<GameRecord>,
    #[prost(int64, tag = "2")]
    unix_millis: i64,
    #[prost(message, repeated, tag = "3")]
    after: Vec<PointRecord>,
}

#[derive(Clone, PartialEq, Message)]
struct GameRecord {
    #[prost(string, tag = "1")]
    game_id: String,
    /// The ladder's player at each seat.
    #[prost(uint32, repeated, tag = "2")]
    players: Vec<u32>,
    /// The seats that won.
    #[prost(uint32, repeated, tag = "3")]
    winners: Vec<u32>,
}

#[derive(Clone, PartialEq, Message)]
struct PointRecord {
    #[prost(uint32, tag = "1")]
    player: u32,
    #[prost(double, tag = "2")]
    rating: f64,
    #[prost(double, tag = "3")]
    ci95: f64,
    #[prost(uint64, tag = "4")]
    games: u64,
}

/// One configuration's ladder in memory.
#[derive(Debug, Default)]
struct Board {
    players: Vec<pb::MatchEntrant>,
    results: Results,
    ratings: Vec<Rating>,
    /// The ratings' covariance, from the last fit (a player entered since has the prior's).
    covariance: Vec<Vec<f64>>,
    deals: u64,
    /// Deals stored, counted or not: the number of the next deal's key and seed. A team deal
    /// stored before sides were rated (partners of different versions) is kept in the store but
    /// not counted ([`one_player_per_side`]).
    stored: u64,
    /// Each player's rating after each deal it played.
    history: Vec<Vec<pb::RatingPoint>>,
    /// On a cluster's shard: to be read again whole from the shared database.
    stale: bool,
}

impl Board {
    fn find(&self, bot_id: &str, version: &str) -> Option<usize> {
        self.players.iter().position(|p| p.bot_id == bot_id && p.version.as_deref() == Some(version))
    }

    fn add_player(&mut self, bot_id: &str, version: &str) -> usize {
        self.players.push(pb::MatchEntrant { bot_id: bot_id.into(), version: Some(version.into()) });
        self.history.push(Vec::new());
        self.ratings.push(Rating { rating: clack_ladder::START, ci95: clack_ladder::NEW_CI95 });
        for row in &mut self.covariance {
            row.push(0.0);
        }
        let mut row = vec![0.0; self.covariance.len() + 1];
        row[self.covariance.len()] = clack_ladder::PRIOR_SD * clack_ladder::PRIOR_SD;
        self.covariance.push(row);
        self.results.add_player()
    }

    /// Enters the players of a stored list that this board does not have yet; answers false,
    /// changing nothing, when the board has players the list does not (its memory is ahead of
    /// what was stored, or another list).
    fn take_players(&mut self, record: Option<&[u8]>) -> Result<bool> {
        let stored = match record {
            Some(bytes) => {
                PlayersRecord::decode(bytes)
                    .map_err(|e| Error::Internal(format!("the ladder's players do not decode: {e}")))?
                    .players
            }
            None => Vec::new(),
        };
        if stored.len() < self.players.len() || stored[..self.players.len()] != self.players[..] {
            return Ok(false);
        }
        for player in &stored[self.players.len()..] {
            self.add_player(&player.bot_id, player.version.as_deref().unwrap_or_default());
        }
        Ok(true)
    }

    /// Fits the ratings and their covariance to every result.
    fn fit(&mut self, anchor: &str) {
        let fit = clack_ladder::fit_with_covariance(&self.results, &self.anchors(anchor));
        self.ratings = fit.ratings;
        self.covariance = fit.covariance;
    }

    /// Each player's rating as the board shows it. A player the ladder schedules is shown at
    /// the fit of every result so far. One it does not (retired, or a remote version whose
    /// program is not connected) is shown at its rating and interval after the last deal it
    /// played: its results no longer change, but the fit would go on moving its rating as the
    /// ratings of those it played are refined, and the board keeps its last rating instead.
    fn shown(&self, scheduled: impl Fn(&pb::MatchEntrant) -> bool) -> Vec<Rating> {
        (0..self.players.len())
            .map(|p| match self.history[p].last() {
                Some(last) if !scheduled(&self.players[p]) => Rating { rating: last.rating, ci95: last.ci95 },
                _ => self.ratings[p],
            })
            .collect()
    }

    fn anchors(&self, anchor: &str) -> Vec<Option<f64>> {
        self.players.iter().map(|p| (p.bot_id == anchor).then_some(ANCHOR_RATING)).collect()
    }

    /// Folds a deal in, and its ratings-after into the histories; `fit` says whether to fit the
    /// ratings again (a board being loaded fits once at the end).
    fn add_deal(&mut self, deal: &DealRecord, sides: &[usize], anchor: &str, fit: bool) {
        let games: Vec<DealGame> = deal
            .games
            .iter()
            .map(|g| DealGame {
                players: g.players.iter().map(|&p| p as usize).collect(),
                sides: sides.to_vec(),
                winners: g.winners.iter().map(|&w| w as usize).collect(),
            })
            .collect();
        self.results.add_deal(&games);
        self.deals += 1;
        self.stored += 1;
        if fit {
            self.fit(anchor);
        }
        self.remember(deal);
    }

    /// The players of `playing` the next deal seats, one per seat: the scheduler picks one per
    /// side, and a side's player takes every seat of it (with teams, both partner seats).
    fn next_table(&self, playing: &[usize], anchor: &str, configuration: Configuration) -> Option<Vec<usize>> {
        let candidates: Vec<Candidate> = playing
            .iter()
            .map(|&p| Candidate { rating: self.ratings[p].rating, anchor: self.players[p].bot_id == anchor })
            .collect();
        let covariance: Vec<Vec<f64>> =
            playing.iter().map(|&p| playing.iter().map(|&q| self.covariance[p][q]).collect()).collect();
        let sides = clack_ladder::next_table(&candidates, &covariance, configuration.side_count())?;
        Some(configuration.sides().into_iter().map(|side| playing[sides[side]]).collect())
    }

    /// Adds a deal's ratings-after to its players' histories.
    fn remember(&mut self, deal: &DealRecord) {
        for point in &deal.after {
            if let Some(history) = self.history.get_mut(point.player as usize) {
                history.push(pb::RatingPoint {
                    unix_millis: deal.unix_millis,
                    rating: point.rating,
                    ci95: point.ci95,
                    games: point.games,
                });
            }
        }
    }
}

/// Every configuration's ladder.
pub struct Ladder {
    hub: Arc<Hub>,
    library: Arc<BotLibrary>,
    settings: LadderSettings,
    running: bool,
    boards: Mutex<HashMap<Configuration, Board>>,
    /// The thread the ladder's games run on, at the lowest priority.
    background: Option<Background>,
    /// On a cluster's shard, the ladder's tables in the shared database: boards are kept and
    /// followed there, and each is played only under its lease ([`shared`]).
    tables: Option<Arc<shared::Tables>>,
    /// The leases this process holds, on a cluster's shard.
    leases: Leases<Configuration>,
    /// The configurations whose lease somebody holds now, as last read (on a cluster's shard).
    played: Mutex<HashSet<Configuration>>,
    /// Taken for a whole deal by the player, and for a read by the follower, so that a board is
    /// never read into while its own deal is being played.
    turns: HashMap<Configuration, tokio::sync::Mutex<()>>,
}

impl std::fmt::Debug for Ladder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ladder").field("settings", &self.settings).field("running", &self.running).finish()
    }
}

fn players_key(c: Configuration) -> String {
    format!("ladder/{}/players", c.name())
}

fn deal_prefix(c: Configuration) -> String {
    format!("ladder/{}/deal/", c.name())
}

/// How often a shard reads the boards it does not play from the shared database.
const FOLLOW: Duration = Duration::from_secs(1);

impl Ladder {
    /// The boards as stored; with `settings`, the task that plays the ladder starts too. On a
    /// cluster's shard the boards are the shared database's, followed every [`FOLLOW`], and
    /// the ladder plays a board only while it holds its lease.
    pub async fn open(
        hub: Arc<Hub>,
        library: Arc<BotLibrary>,
        settings: Option<LadderSettings>,
        closing: watch::Receiver<bool>,
    ) -> Result<Arc<Ladder>> {
        let running = settings.is_some();
        let settings = settings.unwrap_or_default();
        if !crate::bots::engines::is_engine(&settings.anchor) {
            return Err(Error::Internal(format!("the ladder's anchor {} is not an engine level", settings.anchor)));
        }
        let tables = hub.database().map(|database| {
            let holder = crate::cluster::lease::Holder::new(database, hub.shard().as_str());
            Arc::new(shared::Tables::new(Arc::new(holder)))
        });
        let mut boards = HashMap::new();
        for configuration in Configuration::ALL {
            let board = match tables {
                // Read by the follower as soon as it starts: a database away at start does not
                // stop the server.
                Some(_) => Board { stale: true, ..Board::default() },
                None => load(&hub, configuration, &settings.anchor).await?,
            };
            boards.insert(configuration, board);
        }
        let background = if running { Some(Background::start("clack-ladder")?) } else { None };
        let turns = Configuration::ALL.into_iter().map(|c| (c, tokio::sync::Mutex::new(()))).collect();
        let ladder = Arc::new(Ladder {
            hub,
            library,
            settings,
            running,
            boards: Mutex::new(boards),
            background,
            tables: tables.clone(),
            leases: Leases::default(),
            played: Mutex::default(),
            turns,
        });
        if let Some(tables) = tables {
            tokio::spawn(ladder.clone().follow(closing.clone()));
            if running {
                tokio::spawn(ladder.clone().hold_leases(tables, closing.clone()));
            }
        }
        if running {
            tokio::spawn(ladder.clone().run(closing));
        }
        Ok(ladder)
    }

    /// Plays deals, taking turns between the configurations, until the server closes.
    async fn run(self: Arc<Self>, closing: watch::Receiver<bool>) {
        tracing::info!(share = self.settings.share, anchor = %self.settings.anchor, "ladder running");
        let mut turn = 0usize;
        while !*closing.borrow() {
            let configuration = self.settings.configurations[turn % self.settings.configurations.len().max(1)];
            turn += 1;
            let started = Instant::now();
            let played = match self.play_deal(configuration, &closing).await {
                Ok(played) => played,
                Err(error) => {
                    tracing::warn!(ladder = configuration.name(), %error, "a ladder deal failed");
                    self.stale(configuration);
                    false
                }
            };
            // With nothing to play, look again in a second.
            let rest = if played {
                rest_after(started.elapsed(), self.settings.share, self.library.pool_threads())
            } else if turn.is_multiple_of(self.settings.configurations.len().max(1)) {
                Duration::from_secs(1)
            } else {
                Duration::ZERO
            };
            tokio::time::sleep(rest).await;
        }
    }

    /// The epoch of the lease under which this process may play `configuration` now: always on
    /// a lone server (0), on a cluster's shard while it holds the lease and has renewed it
    /// within [`crate::cluster::lease::LEASE`] less [`crate::cluster::lease::MARGIN`].
    fn holding(&self, configuration: Configuration) -> Option<i64> {
        if self.tables.is_none() {
            return Some(0);
        }
        self.leases.current(&configuration)
    }

    /// Marks a board to be read again whole from the shared database: its memory may hold what
    /// the database refused (a write after the lease was lost) or never got.
    fn stale(&self, configuration: Configuration) {
        if self.tables.is_some()
            && let Some(board) = self.boards.lock().unwrap_or_else(PoisonError::into_inner).get_mut(&configuration)
        {
            board.stale = true;
        }
    }

    /// Renews the leases this process holds, and takes those nobody holds, every
    /// [`crate::cluster::lease::RENEW`]. A lease not renewed is let go once its time on this
    /// clock is up, and the board is read again whole before it is played again.
    async fn hold_leases(self: Arc<Self>, tables: Arc<shared::Tables>, closing: watch::Receiver<bool>) {
        let mut every = tokio::time::interval(crate::cluster::lease::RENEW);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !*closing.borrow() {
            every.tick().await;
            for &configuration in &self.settings.configurations {
                let (ladder, name) = (configuration.name(), shared::lease(configuration.name()));
                if self.leases.epoch(&configuration).is_none() {
                    if let Ok(Some(epoch)) = self.leases.take(tables.holder(), configuration, &name).await {
                        tracing::info!(ladder, epoch, "took the ladder's lease; playing this board");
                    }
                    continue;
                }
                match self.leases.renew(tables.holder(), &configuration, &name).await {
                    Renewed::Kept | Renewed::Unanswered { lapsed: false } => continue,
                    Renewed::Lost => tracing::warn!(ladder, "lost the ladder's lease; another shard plays this board"),
                    Renewed::Unanswered { lapsed: true } => {
                        tracing::warn!(ladder, "cannot renew the ladder's lease; no longer playing this board");
                    }
                }
                self.stale(configuration);
            }
        }
    }

    /// Reads every board from the shared database every [`FOLLOW`] (a board's own player
    /// skips it while it plays a deal), and who plays them.
    async fn follow(self: Arc<Self>, closing: watch::Receiver<bool>) {
        let Some(tables) = self.tables.clone() else { return };
        let mut every = tokio::time::interval(FOLLOW);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut away = false;
        while !*closing.borrow() {
            every.tick().await;
            let mut failed = None;
            for configuration in Configuration::ALL {
                let Ok(_turn) = self.turns[&configuration].try_lock() else { continue };
                if let Err(error) = self.sync(configuration).await {
                    failed = Some(error);
                }
            }
            match tables.leases().await {
                Ok(rows) => {
                    let played = rows
                        .iter()
                        .filter(|row| row.expires_in_millis > 0)
                        .filter_map(|row| Configuration::parse(row.name.strip_prefix("ladder/")?))
                        .collect();
                    *self.played.lock().unwrap_or_else(PoisonError::into_inner) = played;
                }
                Err(error) => failed = Some(error),
            }
            match failed {
                Some(error) if !away => {
                    tracing::warn!(%error, "cannot read the ladder's boards; showing them as last read");
                    away = true;
                }
                None if away => {
                    tracing::info!("reading the ladder's boards again");
                    away = false;
                }
                _ => {}
            }
        }
    }

    /// Reads a board's players and new deals from the shared database into memory (all of it,
    /// when the board is stale); answers the deal at its end that is still open, if any: one
    /// being played, or one left by a holder that died. Call with the board's turn taken.
    async fn sync(&self, configuration: Configuration) -> Result<Option<DealRecord>> {
        let Some(tables) = &self.tables else { return Ok(None) };
        let from = {
            let boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
            let board = &boards[&configuration];
            if board.stale { 0 } else { board.stored }
        };
        let stored = tables.read(configuration.name(), from).await?;
        let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        let board = boards.get_mut(&configuration).ok_or_else(|| Error::Internal("no board".into()))?;
        let rebuilt = from == 0 && board.stale;
        if rebuilt {
            *board = Board::default();
        }
        if !board.take_players(stored.players.as_deref())? {
            board.stale = true;
            return Ok(None);
        }
        let before = board.stored;
        let open = fold(board, configuration, stored.deals, &self.settings.anchor)?;
        if rebuilt || board.stored != before {
            board.fit(&self.settings.anchor);
        }
        Ok(open)
    }

    /// Plays the next deal of a configuration, if this process holds its board and it has
    /// enough players; says whether it played it whole. The seats are checked once, as it
    /// starts, as a match's are: a version retired during the deal plays it out. A deal cut
    /// short (a remote bot's program gone, no room for a live game, the server closing, the
    /// lease lost) counts the games it stored, so that every ladder game stored counts on the
    /// board, and a program cannot take back a lost game by going away. On a cluster's shard a
    /// deal left open by a holder that died is closed first, counting the games it stored.
    async fn play_deal(&self, configuration: Configuration, closing: &watch::Receiver<bool>) -> Result<bool> {
        let Some(epoch) = self.holding(configuration) else { return Ok(false) };
        let _turn = self.turns[&configuration].lock().await;
        if let Some(open) = self.sync(configuration).await? {
            tracing::info!(ladder = configuration.name(), games = open.games.len(), "closing a deal left open");
            self.record(configuration, epoch, open).await?;
        }
        let Some(table) = self.next_table(configuration, epoch).await? else { return Ok(false) };
        let entrants: Vec<pb::MatchEntrant> = {
            let boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
            let board = &boards[&configuration];
            table.iter().map(|&p| board.players[p].clone()).collect()
        };
        let seated = Table::check(&self.library, configuration.options(), &entrants, None).await?;
        let mut deal = DealRecord { games: Vec::new(), unix_millis: crate::now(), after: Vec::new() };
        let played = self.play_games(configuration, (&seated, &table, epoch), &mut deal, closing).await;
        if !deal.games.is_empty() {
            self.record(configuration, epoch, deal).await?;
        }
        played
    }

    /// Plays a deal's games into `deal`, until one cannot be played, the lease is lost or the
    /// server closes; says whether every game was played. The seats rotate by one a game, once
    /// per side: every player plays the deal from every seat, and with teams (one player in
    /// both seats of a side) each side's seats once, since rotating further would repeat a
    /// seating. Each game is kept in the deal (on a cluster's shard, written as the deal so
    /// far under the lease) before it is stored: a game the lease no longer allows is dropped
    /// unstored.
    async fn play_games(
        &self,
        configuration: Configuration,
        (seated, table, epoch): (&Table, &[usize], i64),
        deal: &mut DealRecord,
        closing: &watch::Receiver<bool>,
    ) -> Result<bool> {
        let n = self.boards.lock().unwrap_or_else(PoisonError::into_inner)[&configuration].stored;
        let seed = 0x1add_e000_0000_0000u64 ^ (n << 2) ^ configuration as u64;
        let mut rotation = Match::new(configuration.options(), seated.entrants.clone(), seed);
        let owner = OwnerRecord::new(&Owner::Nobody, &Principal::Anonymous { addr: None });
        let purpose = format!("ladder:{}", configuration.name());
        for _ in 0..configuration.side_count() {
            if *closing.borrow() || self.holding(configuration) != Some(epoch) {
                return Ok(false);
            }
            let next = rotation.next_game();
            let background = self.background.as_ref();
            let outcome = seated.play_game((&self.library, &self.hub), &next, (&owner, &purpose), background).await?;
            rotation.record(&next, outcome.result());
            deal.games.push(GameRecord {
                game_id: outcome.game_id().to_owned(),
                players: next.seats.iter().map(|&e| table[e] as u32).collect(),
                winners: outcome.result().winners.iter().map(|s| u32::from(s.0)).collect(),
            });
            let record = deal.encode_to_vec();
            if !self.keep(configuration, epoch, shared::Write::Deal { n, closed: false, record: &record }).await? {
                deal.games.pop();
                return Ok(false);
            }
            if let Outcome::Played(log, events, _) = outcome {
                self.hub.index_now(crate::games::view::summary(&log)).await?;
                crate::matches::table::store(&self.hub, &log, events, &owner).await?;
            }
        }
        Ok(true)
    }

    /// Writes a board's players or deal where boards are kept: on a cluster's shard, in the
    /// shared database under the lease at `epoch` (answers false, and marks the board stale,
    /// when the lease is lost); on a lone server, in its store, where a deal is kept when it
    /// ends.
    async fn keep(&self, configuration: Configuration, epoch: i64, write: shared::Write<'_>) -> Result<bool> {
        if let Some(tables) = &self.tables {
            let kept = tables.write(configuration.name(), epoch, write).await?;
            if !kept {
                tracing::warn!(ladder = configuration.name(), epoch, "the ladder's lease is lost; nothing written");
                self.stale(configuration);
            }
            return Ok(kept);
        }
        match write {
            shared::Write::Players(record) => {
                self.hub.store().put(&players_key(configuration), record.to_vec()).await?
            }
            shared::Write::Deal { n, closed: true, record } => {
                self.hub.store().put(&format!("{}{n:010}", deal_prefix(configuration)), record.to_vec()).await?
            }
            shared::Write::Deal { closed: false, .. } => {}
        }
        Ok(true)
    }

    /// Enters every active version not yet on the board, and picks the next deal's players.
    async fn next_table(&self, configuration: Configuration, epoch: i64) -> Result<Option<Vec<usize>>> {
        let active = self.library.active_versions(configuration.kind());
        let anchor = self.settings.anchor.clone();
        let (added, players, table) = {
            let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
            let board = boards.get_mut(&configuration).ok_or_else(|| Error::Internal("no board".into()))?;
            let mut added = false;
            let anchor_version = clack_engine::VERSION;
            let mut playing = Vec::new();
            for (bot_id, version) in
                active.iter().map(|(b, v)| (b.as_str(), v.as_str())).chain([(anchor.as_str(), anchor_version)])
            {
                let index = match board.find(bot_id, version) {
                    Some(index) => index,
                    None => {
                        added = true;
                        board.add_player(bot_id, version)
                    }
                };
                playing.push(index);
            }
            let table = board.next_table(&playing, &anchor, configuration);
            (added, PlayersRecord { players: board.players.clone() }, table)
        };
        if added && !self.keep(configuration, epoch, shared::Write::Players(&players.encode_to_vec())).await? {
            return Ok(None);
        }
        Ok(table)
    }

    /// Folds a played deal into the board as its next deal, fits the ratings and keeps the deal
    /// with them, closed.
    async fn record(&self, configuration: Configuration, epoch: i64, mut deal: DealRecord) -> Result<()> {
        let sides = configuration.sides();
        let n = {
            let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
            let board = boards.get_mut(&configuration).ok_or_else(|| Error::Internal("no board".into()))?;
            let mut seen: Vec<u32> = deal.games.iter().flat_map(|g| g.players.iter().copied()).collect();
            seen.sort_unstable();
            seen.dedup();
            let n = board.stored;
            board.add_deal(&deal, &sides, &self.settings.anchor, true);
            deal.after = seen
                .iter()
                .map(|&p| PointRecord {
                    player: p,
                    rating: board.ratings[p as usize].rating,
                    ci95: board.ratings[p as usize].ci95,
                    games: board.results.games(p as usize),
                })
                .collect();
            // The history gains the points now that they are known.
            board.remember(&deal);
            n
        };
        let record = deal.encode_to_vec();
        self.keep(configuration, epoch, shared::Write::Deal { n, closed: true, record: &record }).await?;
        Ok(())
    }

    /// A page of a configuration's board, best first.
    pub fn leaderboard(&self, request: &pb::GetLeaderboardRequest) -> Result<pb::GetLeaderboardResponse> {
        let configuration = configuration(&request.configuration)?;
        let page = Page::asked(&request.page_token, request.page_size)?;
        let active = self.library.active_versions(configuration.kind());
        let boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        let board = &boards[&configuration];
        let shown = board.shown(|player| {
            let version = player.version.as_deref().unwrap_or_default();
            player.bot_id == self.settings.anchor || active.iter().any(|(b, v)| *b == player.bot_id && v == version)
        });
        let mut order: Vec<usize> = (0..board.players.len()).filter(|&p| board.results.games(p) > 0).collect();
        order.sort_by(|&a, &b| shown[b].rating.total_cmp(&shown[a].rating).then(a.cmp(&b)));
        let places = page.range(order.len());
        let entries = (places.start..)
            .zip(&order[places])
            .map(|(rank, &p)| {
                let player = &board.players[p];
                let version = player.version.clone().unwrap_or_default();
                let anchor = player.bot_id == self.settings.anchor;
                pb::LadderEntry {
                    rank: rank as u32 + 1,
                    retired: !anchor && self.library.is_retired(&player.bot_id, &version),
                    bot_id: player.bot_id.clone(),
                    version,
                    rating: shown[p].rating,
                    ci95: shown[p].ci95,
                    games: board.results.games(p),
                    win_share: board.results.win_share(p),
                    anchor,
                }
            })
            .collect();
        Ok(pb::GetLeaderboardResponse {
            running: match self.tables {
                Some(_) => self.played.lock().unwrap_or_else(PoisonError::into_inner).contains(&configuration),
                None => self.running && self.settings.configurations.contains(&configuration),
            },
            deals: board.deals,
            entries,
            next_page_token: page.next_token(order.len()),
        })
    }

    /// A version's rating after each deal it played on a configuration's ladder.
    pub fn history(&self, request: &pb::GetRatingHistoryRequest) -> Result<pb::GetRatingHistoryResponse> {
        let configuration = configuration(&request.configuration)?;
        let boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        let board = &boards[&configuration];
        let player = board.find(&request.bot_id, &request.version).ok_or_else(|| {
            Error::NotFound(format!(
                "{}@{} has played no deal on {}",
                request.bot_id,
                request.version,
                configuration.name()
            ))
        })?;
        Ok(pb::GetRatingHistoryResponse { points: board.history[player].clone() })
    }
}

fn configuration(name: &str) -> Result<Configuration> {
    Configuration::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Configuration::ALL.iter().map(|c| c.name()).collect();
        FieldError::new("configuration", format!("one of {}", names.join(", "))).into()
    })
}

/// The rest after a game that took `took`, so that the ladder, one game at a time on one thread,
/// keeps about `share` of the pool's `threads` busy: busy a fraction `share × threads` of its
/// own time (all of it when that is 1 or more). The thread count is the pool's size, not how
/// many decisions wait for it, which would make the ladder rest less the busier the server.
fn rest_after(took: Duration, share: f64, threads: usize) -> Duration {
    let busy = (share * threads.max(1) as f64).clamp(f64::MIN_POSITIVE, 1.0);
    took.mul_f64((1.0 - busy) / busy)
}

/// A configuration's board from a lone server's store.
async fn load(hub: &Hub, configuration: Configuration, anchor: &str) -> Result<Board> {
    let mut board = Board::default();
    let players = hub.store().get(&players_key(configuration)).await?;
    board.take_players(players.as_deref())?;
    let prefix = deal_prefix(configuration);
    let mut deals = Vec::new();
    for (key, bytes) in hub.store().scan(&prefix).await? {
        let n =
            key[prefix.len()..].parse().map_err(|_| Error::Internal(format!("{key} is not a ladder deal's key")))?;
        deals.push((n, true, bytes));
    }
    fold(&mut board, configuration, deals, anchor)?;
    board.fit(anchor);
    Ok(board)
}

/// Folds the stored deals numbered from the board's next on, in order (the caller fits the
/// ratings once after); answers the deal at the end that is still open, if any.
fn fold(
    board: &mut Board,
    configuration: Configuration,
    deals: Vec<(u64, bool, Vec<u8>)>,
    anchor: &str,
) -> Result<Option<DealRecord>> {
    let sides = configuration.sides();
    let (mut set_aside, mut open) = (0u64, None);
    for (n, closed, bytes) in deals {
        if n != board.stored {
            // Read twice (a board's own deal, folded as it ended): nothing to add.
            continue;
        }
        let name = configuration.name();
        let deal = DealRecord::decode(bytes.as_slice())
            .map_err(|e| Error::Internal(format!("deal {n} of the ladder {name} does not decode: {e}")))?;
        if !closed {
            open = Some(deal);
            break;
        }
        if one_player_per_side(&deal, &sides) {
            board.add_deal(&deal, &sides, anchor, false);
        } else {
            board.stored += 1;
            set_aside += 1;
        }
    }
    if set_aside > 0 {
        tracing::warn!(
            ladder = configuration.name(),
            set_aside,
            "team deals stored before sides were rated are kept but not counted on the board"
        );
    }
    Ok(open)
}

/// Whether every game of `deal` seats one player per side, as the ladder has seated since it
/// rates sides: with teams, one version in both partner seats. Team deals stored before then
/// seated partners of different versions, and blamed each for the other; they do not count.
fn one_player_per_side(deal: &DealRecord, sides: &[usize]) -> bool {
    deal.games.iter().all(|game| {
        let at = |seat: usize| game.players.get(seat).copied();
        (0..sides.len()).all(|a| (0..sides.len()).all(|b| sides[a] != sides[b] || at(a) == at(b)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_deal_with_partners_of_different_versions_does_not_count() {
        let game =
            |players: [u32; 4]| GameRecord { game_id: String::new(), players: players.to_vec(), winners: vec![0, 2] };
        let deal = |games: Vec<GameRecord>| DealRecord { games, unix_millis: 0, after: Vec::new() };
        let teams =
            Configuration::ALL.into_iter().find(|c| c.side_count() == 2 && c.sides().len() == 4).expect("teams");
        let sides = teams.sides();
        assert!(one_player_per_side(&deal(vec![game([0, 1, 0, 1]), game([1, 0, 1, 0])]), &sides));
        assert!(!one_player_per_side(&deal(vec![game([0, 1, 0, 1]), game([0, 1, 2, 1])]), &sides));
        let two = Configuration::ALL.into_iter().find(|c| c.sides().len() == 2).expect("two players");
        let single = deal(vec![GameRecord { game_id: String::new(), players: vec![3, 5], winners: vec![1] }]);
        assert!(one_player_per_side(&single, &two.sides()), "one seat a side is always one player");
    }

    #[test]
    fn the_rest_keeps_the_ladder_to_its_share_of_the_pools_threads() {
        let second = Duration::from_secs(1);
        // A quarter of one thread: busy one second in four.
        assert_eq!(rest_after(second, 0.25, 1), Duration::from_secs(3));
        // A quarter of two threads is half of the ladder's one: rest as long as it played.
        assert_eq!(rest_after(second, 0.25, 2), second);
        // A quarter of eight threads is more than its one thread: no rest.
        assert_eq!(rest_after(second, 0.25, 8), Duration::ZERO);
    }
}
