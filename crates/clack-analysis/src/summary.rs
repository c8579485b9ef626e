//! The summary of many games: each game's log is replayed (so only finished games whose logs
//! verify are counted, by the rule of [`crate::verify`]) and folded into totals per game kind
//! and configuration and per bot version.
//!
//! Definitions, which the tests check against hand-computed numbers:
//! - a game's *length* is the number of `ActionApplied` events in its own log (a fork's
//!   embedded parent events are not counted); its *rounds* are its `RoundEnded` events
//!   (Straight Dominoes) or 1 (Streets and Avenues, one round);
//! - a seat's *win share* in a decided game (ended, not abandoned) is 1 divided by the number of
//!   winning sides if the seat is among the winners, else 0; its *advantage* is the win share
//!   minus 1 / sides, the share every seat would have if position did not matter;
//! - a seat's *score* is its side's final score;
//! - *scoring plays* (Straight Dominoes) count the actions that scored, by the points scored;
//! - *blocks* (Streets and Avenues) count placements per game: *closing* scores in the open,
//!   *dividing* scores inside a block, *shrinking* is laid inside a block and scores nothing;
//! - a bot's *decision time* is the time from the event before its action to the action.

use std::collections::BTreeMap;

use clack_log::GameLog;
use clack_log::convert::stored_action;
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::game::{self, Game};
use clack_rules::{Seat, streets};
use serde::Serialize;

use crate::reviewed::{PlayerReview, Reviews};
use crate::stats::{Counts, Estimate, Moments};
use crate::verify::{self, Rejections};

/// Totals over every game folded in so far; merge two to combine their inputs.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    groups: BTreeMap<String, Group>,
    bots: BTreeMap<String, Bot>,
    reviews: Reviews,
    rejections: Rejections,
}

#[derive(Clone, Debug, Default)]
struct Group {
    kind: String,
    options: String,
    sides: usize,
    games: u64,
    finished_by: Counts<String>,
    rounds: Moments,
    length: Moments,
    length_histogram: Counts<i64>,
    score_histogram: Counts<i64>,
    win_share: Vec<Moments>,
    score: Vec<Moments>,
    round_ends: Counts<String>,
    scoring_plays: Counts<u32>,
    closing: Moments,
    dividing: Moments,
    shrinking: Moments,
}

#[derive(Clone, Debug, Default)]
struct Bot {
    games: u64,
    win_share: Moments,
    score: Moments,
    faults: Counts<String>,
    decision_ms: Moments,
}

/// What one game's log says, gathered in one replay.
#[derive(Debug, Default)]
struct Facts {
    moves: u64,
    rounds: u64,
    round_ends: Vec<String>,
    scoring_plays: Vec<u32>,
    closing: u64,
    dividing: u64,
    shrinking: u64,
    faults: Vec<(String, String)>,
    /// (seat, milliseconds) for every bot action.
    decisions: Vec<(usize, i64)>,
}

impl Analysis {
    /// Folds one game's whole log in. A log that does not replay, or whose game never ended, is
    /// counted as rejected, with its reason, and adds nothing else.
    pub fn add_game(&mut self, events: &[pb::Event]) {
        self.add_reviewed_game(events, None);
    }

    /// Folds in a game's log, as [`Analysis::add_game`], and the engine's review of it if there
    /// is one; a review of a game left out is left out with it.
    pub fn add_reviewed_game(&mut self, events: &[pb::Event], review: Option<&pb::GameReview>) {
        match self.try_add(events) {
            Ok(log) => {
                if let Some(review) = review {
                    self.reviews.add(&log, review);
                }
            }
            Err(reason) => self.rejections.add(events, &reason),
        }
    }

    fn try_add(&mut self, events: &[pb::Event]) -> Result<GameLog, String> {
        let (log, facts) = replay(events)?;
        let created = log.created();
        let options = serde_json::to_string(&created.options).map_err(|e| e.to_string())?;
        let kind = log.game().kind().name().to_owned();
        let sides: Vec<usize> = (0..log.game().players()).map(|s| side(log.game(), Seat(s))).collect();
        let side_count = sides.iter().max().map_or(0, |&s| s + 1);
        let group = self.groups.entry(format!("{kind} {options}")).or_insert_with(|| Group {
            kind,
            options,
            sides: side_count,
            win_share: vec![Moments::default(); sides.len()],
            score: vec![Moments::default(); sides.len()],
            ..Group::default()
        });
        group.add(&log, &facts, &sides);
        self.add_bots(&log, &facts, &sides);
        Ok(log)
    }

    fn add_bots(&mut self, log: &GameLog, facts: &Facts, sides: &[usize]) {
        let result = decided(log, sides);
        for (seat, occupant) in log.created().seats.iter().enumerate() {
            let Some(pb::seat_spec::Occupant::Bot(bot)) = &occupant.occupant else { continue };
            let entry = self.bots.entry(bot_key(&bot.bot_id, &bot.version)).or_default();
            entry.games += 1;
            if let Some((shares, scores)) = &result {
                entry.win_share.add(shares[seat]);
                entry.score.add(scores[seat]);
            }
            for &(_, ms) in facts.decisions.iter().filter(|(s, _)| *s == seat) {
                entry.decision_ms.add(ms as f64);
            }
        }
        for (key, reason) in &facts.faults {
            self.bots.entry(key.clone()).or_default().faults.add(reason.clone());
        }
    }

    /// Adds another analysis's totals to these.
    pub fn merge(&mut self, other: Analysis) {
        for (key, group) in other.groups {
            match self.groups.get_mut(&key) {
                Some(mine) => mine.merge(&group),
                None => {
                    self.groups.insert(key, group);
                }
            }
        }
        for (key, bot) in other.bots {
            let mine = self.bots.entry(key).or_default();
            mine.games += bot.games;
            mine.win_share.merge(&bot.win_share);
            mine.score.merge(&bot.score);
            mine.faults.merge(&bot.faults);
            mine.decision_ms.merge(&bot.decision_ms);
        }
        self.reviews.merge(&other.reviews);
        self.rejections.merge(other.rejections);
    }

    /// The totals as numbers to report.
    pub fn summary(&self) -> Summary {
        Summary {
            games: self.groups.values().map(|g| g.games).sum(),
            rejected: self.rejections.count(),
            first_rejections: self.rejections.first().to_vec(),
            groups: self.groups.values().map(Group::summary).collect(),
            bots: self.bots.iter().map(|(key, bot)| bot.summary(key)).collect(),
            reviews: self.reviews.summary(),
        }
    }
}

/// Replays a log, gathering its facts on the way.
fn replay(events: &[pb::Event]) -> Result<(GameLog, Facts), String> {
    let mut facts = Facts::default();
    let mut before = events.first().map_or(0, |e| e.unix_millis);
    let log = verify::replay(events, |log, event| {
        match &event.payload {
            Some(Payload::ActionApplied(applied)) => facts.action(log, applied, event.unix_millis - before),
            Some(Payload::RoundEnded(round)) => {
                facts.rounds += 1;
                facts.round_ends.push(round_end_name(round.end).to_owned());
            }
            Some(Payload::BotFaulted(fault)) => {
                facts.faults.push((bot_key(&fault.bot_id, &fault.version), fault.reason.clone()));
            }
            _ => {}
        }
        before = event.unix_millis;
    })?;
    if matches!(log.game(), Game::Streets(_)) && log.ended().is_some_and(|e| e.reason == "played_out") {
        facts.rounds = 1;
    }
    Ok((log, facts))
}

impl Facts {
    /// Notes an action before it is folded in (Streets' block kinds need the board before it).
    fn action(&mut self, log: &GameLog, applied: &pb::ActionApplied, millis: i64) {
        self.moves += 1;
        let seat = applied.seat as usize;
        let is_bot =
            log.created().seats.get(seat).is_some_and(|s| matches!(s.occupant, Some(pb::seat_spec::Occupant::Bot(_))));
        if is_bot {
            self.decisions.push((seat, millis.max(0)));
        }
        match log.game() {
            Game::Straight(_) if applied.points > 0 => self.scoring_plays.push(applied.points),
            Game::Straight(_) => {}
            Game::Streets(state) => {
                let Ok(game::Action::Streets(streets::Action::Place { spot, .. })) =
                    stored_action(applied.action.as_ref(), log.game())
                else {
                    return;
                };
                match (state.board().inside_block(spot), applied.points) {
                    (false, 0) => {}
                    (false, _) => self.closing += 1,
                    (true, 0) => self.shrinking += 1,
                    (true, _) => self.dividing += 1,
                }
            }
        }
    }
}

fn side(game: &Game, seat: Seat) -> usize {
    match game {
        Game::Straight(g) => g.options().side(seat),
        Game::Streets(_) => seat.index(),
    }
}

/// Each seat's win share and score in a decided game; `None` for a game that is not over or was
/// abandoned.
fn decided(log: &GameLog, sides: &[usize]) -> Option<(Vec<f64>, Vec<f64>)> {
    let ended = log.ended().filter(|e| e.reason != "abandoned")?;
    let mut winning_sides: Vec<usize> = ended.winners.iter().filter_map(|&w| sides.get(w as usize).copied()).collect();
    winning_sides.sort_unstable();
    winning_sides.dedup();
    let share = 1.0 / winning_sides.len().max(1) as f64;
    let shares = sides.iter().map(|s| if winning_sides.contains(s) { share } else { 0.0 }).collect();
    let scores = sides.iter().map(|&s| ended.scores.get(s).copied().unwrap_or(0) as f64).collect();
    Some((shares, scores))
}

fn bot_key(bot_id: &str, version: &str) -> String {
    format!("{bot_id}@{version}")
}

fn round_end_name(end: i32) -> &'static str {
    match pb::RoundEnd::try_from(end) {
        Ok(pb::RoundEnd::Domino) => "domino",
        Ok(pb::RoundEnd::Blocked) => "blocked",
        Ok(pb::RoundEnd::TargetReached) => "target",
        _ => "unspecified",
    }
}

impl Group {
    fn add(&mut self, log: &GameLog, facts: &Facts, sides: &[usize]) {
        self.games += 1;
        if let Some(ended) = log.ended() {
            self.finished_by.add(ended.reason.clone());
        }
        self.rounds.add(facts.rounds as f64);
        self.length.add(facts.moves as f64);
        self.length_histogram.add(facts.moves as i64);
        for end in &facts.round_ends {
            self.round_ends.add(end.clone());
        }
        for &points in &facts.scoring_plays {
            self.scoring_plays.add(points);
        }
        if matches!(log.game(), Game::Streets(_)) {
            self.closing.add(facts.closing as f64);
            self.dividing.add(facts.dividing as f64);
            self.shrinking.add(facts.shrinking as f64);
        }
        if let Some((shares, scores)) = decided(log, sides) {
            for (seat, (share, score)) in shares.iter().zip(&scores).enumerate() {
                self.win_share[seat].add(*share);
                self.score[seat].add(*score);
            }
            if let Some(ended) = log.ended() {
                for &score in &ended.scores {
                    self.score_histogram.add(score);
                }
            }
        }
    }

    fn merge(&mut self, other: &Group) {
        self.games += other.games;
        self.finished_by.merge(&other.finished_by);
        self.rounds.merge(&other.rounds);
        self.length.merge(&other.length);
        self.length_histogram.merge(&other.length_histogram);
        self.score_histogram.merge(&other.score_histogram);
        for (mine, theirs) in self.win_share.iter_mut().zip(&other.win_share) {
            mine.merge(theirs);
        }
        for (mine, theirs) in self.score.iter_mut().zip(&other.score) {
            mine.merge(theirs);
        }
        self.round_ends.merge(&other.round_ends);
        self.scoring_plays.merge(&other.scoring_plays);
        self.closing.merge(&other.closing);
        self.dividing.merge(&other.dividing);
        self.shrinking.merge(&other.shrinking);
    }

    fn summary(&self) -> GroupSummary {
        let fair = 1.0 / self.sides.max(1) as f64;
        let seats = self
            .win_share
            .iter()
            .zip(&self.score)
            .enumerate()
            .map(|(seat, (share, score))| {
                let win_share = share.estimate();
                SeatSummary { seat, win_share, advantage: win_share.mean - fair, score: score.estimate() }
            })
            .collect();
        let streets = self.kind == clack_rules::game::Kind::Streets.name();
        GroupSummary {
            kind: self.kind.clone(),
            options: serde_json::from_str(&self.options).unwrap_or(serde_json::Value::Null),
            sides: self.sides,
            games: self.games,
            finished_by: self.finished_by.clone(),
            rounds: self.rounds.estimate(),
            length: self.length.estimate(),
            length_histogram: self.length_histogram.clone(),
            score_histogram: self.score_histogram.clone(),
            seats,
            round_ends: self.round_ends.clone(),
            scoring_plays: self.scoring_plays.clone(),
            blocks: streets.then(|| Blocks {
                closing: self.closing.estimate(),
                dividing: self.dividing.estimate(),
                shrinking: self.shrinking.estimate(),
            }),
        }
    }
}

impl Bot {
    fn summary(&self, key: &str) -> BotSummary {
        BotSummary {
            bot: key.to_owned(),
            games: self.games,
            wins: self.win_share.estimate(),
            score: self.score.estimate(),
            faults: self.faults.clone(),
            decision_ms: self.decision_ms.estimate(),
        }
    }
}

/// Everything `clack analyze` reports; `--json` writes it as it is.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Games counted (their logs replayed and verified).
    pub games: u64,
    /// Games whose logs did not replay or never ended, left out of everything else.
    pub rejected: u64,
    /// The first of them (up to 20), as `game ID: reason`.
    pub first_rejections: Vec<String>,
    pub groups: Vec<GroupSummary>,
    pub bots: Vec<BotSummary>,
    /// What the engine's reviews of the counted games say, per kind, judging level and player
    /// (empty when no reviews came with the logs).
    pub reviews: Vec<PlayerReview>,
}

/// The games of one kind and configuration (every option the same).
#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    pub kind: String,
    /// The options, in the proto3 JSON mapping of `GameOptions`.
    pub options: serde_json::Value,
    pub sides: usize,
    pub games: u64,
    /// Games by how they ended: `played_out`, `resigned`, `abandoned`.
    pub finished_by: Counts<String>,
    /// Rounds per game.
    pub rounds: Estimate,
    /// Actions per game.
    pub length: Estimate,
    pub length_histogram: Counts<i64>,
    /// Every side's final score in every decided game.
    pub score_histogram: Counts<i64>,
    pub seats: Vec<SeatSummary>,
    /// Straight Dominoes: rounds by how they ended (`domino`, `blocked`, `target`).
    pub round_ends: Counts<String>,
    /// Straight Dominoes: scoring actions by the points they scored.
    pub scoring_plays: Counts<u32>,
    /// Streets and Avenues: placements per game by the kind of block they made.
    pub blocks: Option<Blocks>,
}

/// One seat position over the decided games of a group.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SeatSummary {
    pub seat: usize,
    pub win_share: Estimate,
    /// The win share minus the fair share (1 / sides).
    pub advantage: f64,
    pub score: Estimate,
}

/// Streets and Avenues placements per game, by kind.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Blocks {
    pub closing: Estimate,
    pub dividing: Estimate,
    pub shrinking: Estimate,
}

/// One bot version (`bot_id@version`) over every game it sat in.
#[derive(Clone, Debug, Serialize)]
pub struct BotSummary {
    pub bot: String,
    pub games: u64,
    /// Win share per decided game.
    pub wins: Estimate,
    pub score: Estimate,
    /// Faults by reason.
    pub faults: Counts<String>,
    pub decision_ms: Estimate,
}
