//! A match's table: its entrants checked against the library and pinned to versions, and one
//! game of the match played to its end through its own [`GameLog`] (so its events are made
//! exactly as a hub game's are) and stored as an ordinary finished game.

use std::sync::Arc;

use clack_bots::arena::{Entrant, GameResult, NextGame, Player, Standing};
use clack_bots::{Bot, Limits, Played};
use clack_log::GameLog;
use clack_log::convert::{FieldError, kind_to_proto};
use clack_proto::v1 as pb;
use clack_rules::game::Options;
use rhai::Engine;

use crate::bots::BotHost;
use crate::bots::library::{Background, BotLibrary, START_RATING};
use crate::error::{Error, Result};
use crate::games::hub::Hub;
use crate::metrics::{BotFigures, Decider, PlayedIn};
use crate::who::access::OwnerRecord;

/// The entrants of a match, one per seat before rotation.
pub(crate) struct Table {
    pub(crate) options: Options,
    /// As the arena keeps them: a label, who plays, and the rating at the match's start.
    pub(crate) entrants: Vec<Entrant>,
    seated: Vec<Seated>,
}

impl Table {
    /// Checks each entrant: an engine level, or a version of a bot of this game. A new match
    /// (`ratings` is `None`) takes only versions that may take seats, at their current ratings; a
    /// match resumed after a restart takes the versions it started with, retired since or not,
    /// at the ratings they had when it started.
    pub(crate) async fn check(
        library: &BotLibrary,
        options: Options,
        entrants: &[pb::MatchEntrant],
        ratings: Option<&[f64]>,
    ) -> Result<Table> {
        // Every seat of a match is a bot, and bot seats are never clocked: a time control asks
        // for nothing here, and the games are created without one.
        if entrants.len() != usize::from(options.players()) {
            return Err(FieldError::new("entrants", format!("one per seat: {}", options.players())).into());
        }
        let mut table = Table { options, entrants: Vec::new(), seated: Vec::new() };
        for (i, entrant) in entrants.iter().enumerate() {
            let field = format!("entrants[{i}]");
            let kept = ratings.and_then(|r| r.get(i).copied());
            table.seat(library, entrant, (kept, ratings.is_some()), &field).await.map_err(|e| e.about(&field))?;
        }
        Ok(table)
    }

    async fn seat(
        &mut self,
        library: &BotLibrary,
        entrant: &pb::MatchEntrant,
        (kept, resuming): (Option<f64>, bool),
        field: &str,
    ) -> Result<()> {
        let version = entrant.version.as_deref();
        if crate::bots::engines::is_engine(&entrant.bot_id) {
            let level = crate::bots::engines::check(&entrant.bot_id, version.unwrap_or_default())?;
            let rating = kept.unwrap_or(START_RATING);
            self.entrants.push(Entrant { label: level.seat_name(), player: Player::Engine(level), rating });
            let version = clack_engine::VERSION.to_owned();
            self.seated.push(Seated { player: Sitter::Engine(level), bot_id: level.seat_name(), version });
            return Ok(());
        }
        library.learn(&entrant.bot_id, version).await?;
        let (summary, version) = if resuming {
            library.resolve(&entrant.bot_id, version)?
        } else {
            library.resolve_playable(&entrant.bot_id, version)?
        };
        if summary.kind != kind_to_proto(self.options.kind()) as i32 {
            return Err(FieldError::new(field, "plays the other game").into());
        }
        let current = summary.versions.iter().find(|v| v.version == version).map_or(START_RATING, |v| v.rating);
        let label = format!("{}@{version}", summary.bot_id);
        let rating = kept.unwrap_or(current);
        if summary.remote {
            // Checked again as each game is made: the program may come and go during a match.
            if !resuming {
                library.playable(&summary.bot_id, &version)?;
            }
            self.entrants.push(Entrant { label, player: Player::Elsewhere, rating });
            self.seated.push(Seated { player: Sitter::Remote, bot_id: summary.bot_id.clone(), version });
            return Ok(());
        }
        let bot = library.bot(&summary.bot_id, &version).await?;
        self.entrants.push(Entrant { label, player: Player::Script((*bot).clone()), rating });
        self.seated.push(Seated { player: Sitter::Script(bot), bot_id: summary.bot_id.clone(), version });
        Ok(())
    }

    /// The entrants with their versions pinned, as a match record keeps them.
    pub(crate) fn pinned(&self) -> Vec<pb::MatchEntrant> {
        let pin = |s: &Seated| pb::MatchEntrant { bot_id: s.bot_id.clone(), version: Some(s.version.clone()) };
        self.seated.iter().map(pin).collect()
    }

    /// Plays game `next` of the match on the bots' pool (one game per turn, so that ordinary
    /// games' bots are not kept waiting for a whole match), on `background`'s thread if one is
    /// given, and leaves it unstored: its match or ladder records it first where a lease must
    /// allow it ([`store`] stores it, owned by `owner`). A game with a remote bot is played as a
    /// live game instead, stored as it is played, its seat offered to the bot's program
    /// (`purpose` says why: the match's id, or the ladder's name).
    pub(crate) async fn play_game(
        &self,
        (library, hub): (&BotLibrary, &Arc<Hub>),
        next: &NextGame,
        (owner, purpose): (&OwnerRecord, &str),
        background: Option<&Background>,
    ) -> Result<Outcome> {
        let seats: Vec<Seated> = next.seats.iter().map(|&entrant| self.seated[entrant].clone()).collect();
        let specs = seats.iter().map(Seated::spec).collect();
        let (log, events) = GameLog::create(&hub.new_game_id(), self.options, specs, next.seed, crate::now())?;
        if seats.iter().any(|s| matches!(s.player, Sitter::Remote)) {
            let (log, events) = hub.play_live(log, events, owner, purpose).await?;
            return Ok(Outcome::Stored(crate::games::view::summary(&log), result_of(&log, &events)));
        }
        let (engine, limits) = library.runner();
        let figures = library.figures().map(|figures| (figures, PlayedIn::of_purpose(purpose)));
        let game = move || play_out((&engine, &limits, figures.as_ref()), log, events, &seats);
        let (log, events, result) = match background {
            Some(background) => library.in_background(background, game).await??,
            None => library.blocking(game).await??,
        };
        tracing::debug!(game = log.id(), index = next.index, "match game played");
        Ok(Outcome::Played(log, events, result))
    }

    /// The results to report for `standings` (the arena's, in the order of the entrants).
    pub(crate) fn results(&self, standings: &[Standing]) -> Vec<pb::EntrantResult> {
        let result = |(entrant, standing): (&Seated, &Standing)| pb::EntrantResult {
            bot_id: entrant.bot_id.clone(),
            version: entrant.version.clone(),
            wins: standing.wins,
            mean_score: standing.mean_score,
            score_ci95: standing.score_ci95,
            faults: standing.faults,
            mean_decision_micros: standing.mean_decision.as_secs_f64() * 1e6,
            rating: standing.rating,
            win_share: standing.win_share,
            win_ci95: standing.win_ci95,
        };
        self.seated.iter().zip(standings).map(result).collect()
    }

    /// Adds a finished match's standings to its bots' statistics and ratings. An engine keeps
    /// none in the library: it is not an uploaded bot.
    pub(crate) async fn count(&self, library: &BotLibrary, match_id: &str, standings: &[Standing]) -> Result<()> {
        let seats: Vec<crate::bots::library::MatchSeat<'_>> = (0u32..)
            .zip(self.seated.iter().zip(standings).zip(&self.entrants))
            .filter(|(_, ((entrant, _), _))| matches!(entrant.player, Sitter::Script(_)))
            .map(|(seat, ((entrant, standing), started))| {
                (seat, entrant.bot_id.as_str(), entrant.version.as_str(), standing, started.rating)
            })
            .collect();
        library.record_match(match_id, &seats).await
    }
}

/// Who plays a seat of a match game.
#[derive(Clone)]
enum Sitter {
    Script(Arc<Bot>),
    Engine(clack_engine::Level),
    /// A remote bot's program, over `Play`.
    Remote,
}

/// The result of a match game played live, from its log and events: its decisions and faults
/// counted per seat. The time of its decisions is not known (a remote program's is its own),
/// and is counted as none.
fn result_of(log: &GameLog, events: &[pb::Event]) -> GameResult {
    let mut result = GameResult::new(log.seats().len());
    for &(seat, _, _) in log.history() {
        if let Some(decisions) = result.decisions.get_mut(seat.index()) {
            *decisions += 1;
        }
    }
    for event in events {
        if let Some(pb::event::Payload::BotFaulted(fault)) = &event.payload
            && let Some(faults) = result.faults.get_mut(fault.seat as usize)
        {
            *faults += 1;
        }
    }
    result.finish(log.game());
    result
}

/// A bot version, or an engine level, at a match's table.
#[derive(Clone)]
struct Seated {
    player: Sitter,
    bot_id: String,
    version: String,
}

impl Seated {
    fn spec(&self) -> pb::SeatSpec {
        let bot = pb::BotSeat { bot_id: self.bot_id.clone(), version: self.version.clone() };
        pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Bot(bot)) }
    }
}

/// Where a match game's decisions are counted: the metrics' figures, and whether the game is a
/// match's or the ladder's.
type Counted<'a> = Option<&'a (Arc<BotFigures>, PlayedIn)>;

/// A game [`Table::play_game`] played.
#[allow(clippy::large_enum_variant)] // one a game, moved once: boxing would buy nothing
pub(crate) enum Outcome {
    /// A live game (a remote bot's), stored as it was played.
    Stored(pb::GameSummary, GameResult),
    /// A game played on the pool, not stored yet.
    Played(GameLog, Vec<pb::Event>, GameResult),
}

impl Outcome {
    pub(crate) fn game_id(&self) -> &str {
        match self {
            Outcome::Stored(summary, _) => &summary.game_id,
            Outcome::Played(log, _, _) => log.id(),
        }
    }

    pub(crate) fn result(&self) -> &GameResult {
        match self {
            Outcome::Stored(_, result) | Outcome::Played(_, _, result) => result,
        }
    }
}

/// Stores a game played on the pool as an ordinary finished game, owned by `owner`.
pub(crate) async fn store(
    hub: &Hub,
    log: &GameLog,
    events: Vec<pb::Event>,
    owner: &OwnerRecord,
) -> Result<pb::GameSummary> {
    hub.store_played(log, events, owner).await?;
    tracing::debug!(game = log.id(), "match game stored");
    Ok(crate::games::view::summary(log))
}

/// Plays a match game to its end through its log, every seat a bot (`seats`, by seat), and
/// returns the log, all its events and the result. A decision that fails is recorded as a
/// `BotFaulted` event and the first legal action is played, as for a bot seat of a hub game.
/// Every decision is timed into `counted`, as a live game's are.
fn play_out(
    (engine, limits, counted): (&Engine, &Limits, Counted<'_>),
    mut log: GameLog,
    mut events: Vec<pb::Event>,
    seats: &[Seated],
) -> Result<(GameLog, Vec<pb::Event>, GameResult)> {
    let mut result = GameResult::new(seats.len());
    let mut history: Vec<Played> = Vec::new();
    while let Some(seat) = log.to_move() {
        let new = &log.history()[history.len()..];
        history.extend(new.iter().map(|&(seat, action, points)| Played { seat, action, points }));
        let s = seat.index();
        let sitting = seats.get(s).ok_or_else(|| Error::Internal(format!("no bot at seat {s}")))?;
        let legal = log.game().legal_actions();
        let (chosen, elapsed, who) = match &sitting.player {
            Sitter::Script(bot) => {
                let decision = bot.decide(engine, limits, log.game(), seat, &history);
                let chosen = match decision.choice {
                    Ok(index) => {
                        legal.get(index).copied().ok_or(("bad_answer".to_owned(), "no such legal action".to_owned()))
                    }
                    Err(fault) => Err((fault.reason.to_owned(), fault.detail)),
                };
                (chosen, decision.elapsed, Decider::Script)
            }
            Sitter::Engine(level) => {
                let (action, elapsed) =
                    crate::bots::engines::decide(log.game().options(), log.steps(), *level, log.seed());
                (action.map_err(|e| ("error".to_owned(), e.to_string())), elapsed, Decider::Engine)
            }
            Sitter::Remote => {
                return Err(Error::Internal("a remote bot's game is played live, not here".into()));
            }
        };
        result.decisions[s] += 1;
        result.time[s] += elapsed;
        if let Some((figures, played)) = counted {
            figures.decided(*played, who, elapsed);
        }
        let action = match chosen {
            Ok(action) => action,
            Err((reason, detail)) => {
                result.faults[s] += 1;
                let fault = pb::BotFaulted {
                    seat: u32::from(seat.0),
                    bot_id: sitting.bot_id.clone(),
                    version: sitting.version.clone(),
                    reason,
                    detail,
                };
                events.push(log.fault(fault, crate::now()));
                *legal.first().ok_or_else(|| Error::Internal(format!("seat {s} is to act with no legal action")))?
            }
        };
        let made = log
            .perform(seat, action, crate::now())
            .map_err(|e| Error::Internal(format!("a legal action was refused in a match game: {e}")))?;
        events.extend(made);
    }
    if log.status() != clack_log::Status::Finished {
        return Err(Error::Internal(format!("match game {} stopped before its end", log.id())));
    }
    result.finish(log.game());
    Ok((log, events, result))
}
