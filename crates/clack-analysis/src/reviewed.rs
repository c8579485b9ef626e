//! What the engine's reviews say over many games: for every player (a bot version, an engine
//! level, or whoever sat in open seats) how its decisions were labelled, the points it lost per
//! decision by play and the points it won or lost per game by luck.
//!
//! Reviews come beside the logs (a server keeps the ones it made) and are taken as they are: the
//! summary never makes one, so it needs no engine. Only reviews of games that count (their logs
//! replayed and the game ended) are folded in, and they are kept apart by the engine level that
//! judged them and the game kind, since a point lost means different things in each.

use std::collections::BTreeMap;

use clack_log::GameLog;
use clack_proto::v1 as pb;
use serde::Serialize;

use crate::stats::{Counts, Estimate, Moments};

/// The labels in the order of `SeatReview.labels`.
pub const LABELS: [&str; 5] = ["best", "good", "inaccuracy", "mistake", "blunder"];

/// The name of the people who sat in open seats, taken together.
pub const OPEN_SEATS: &str = "open seats";

/// Totals over every reviewed game, per (kind, judging level, player).
#[derive(Clone, Debug, Default)]
pub(crate) struct Reviews {
    players: BTreeMap<(String, String, String), Judged>,
}

#[derive(Clone, Debug, Default)]
struct Judged {
    games: u64,
    labels: Counts<String>,
    loss: Moments,
    luck: Moments,
}

impl Reviews {
    /// Folds in the review of a game whose log counted.
    pub(crate) fn add(&mut self, log: &GameLog, review: &pb::GameReview) {
        let kind = log.game().kind().name().to_owned();
        for (seat, spec) in log.created().seats.iter().enumerate() {
            let key = (kind.clone(), review.level.clone(), player(spec));
            let judged = self.players.entry(key).or_default();
            judged.add(review, seat as u32);
        }
    }

    pub(crate) fn merge(&mut self, other: &Reviews) {
        for (key, theirs) in &other.players {
            let mine = self.players.entry(key.clone()).or_default();
            mine.games += theirs.games;
            mine.labels.merge(&theirs.labels);
            mine.loss.merge(&theirs.loss);
            mine.luck.merge(&theirs.luck);
        }
    }

    pub(crate) fn summary(&self) -> Vec<PlayerReview> {
        self.players
            .iter()
            .map(|((kind, level, player), judged)| PlayerReview {
                kind: kind.clone(),
                level: level.clone(),
                player: player.clone(),
                games: judged.games,
                decisions: judged.loss.estimate().n,
                labels: judged.labels.clone(),
                loss: judged.loss.estimate(),
                luck: judged.luck.estimate(),
            })
            .collect()
    }
}

impl Judged {
    fn add(&mut self, review: &pb::GameReview, seat: u32) {
        self.games += 1;
        for decision in review.decisions.iter().filter(|d| d.seat == seat) {
            self.loss.add(decision.loss.map_or(0.0, |e| e.mean));
        }
        if let Some(totals) = review.seats.iter().find(|s| s.seat == seat) {
            self.luck.add(totals.luck.map_or(0.0, |e| e.mean));
            for (name, &count) in LABELS.iter().zip(&totals.labels) {
                *self.labels.0.entry((*name).to_owned()).or_default() += u64::from(count);
            }
        }
    }
}

/// Who sat in a seat: `bot_id@version` (the engine's levels are `engine:LEVEL@VERSION`), or
/// [`OPEN_SEATS`].
fn player(spec: &pb::SeatSpec) -> String {
    match &spec.occupant {
        Some(pb::seat_spec::Occupant::Bot(bot)) => format!("{}@{}", bot.bot_id, bot.version),
        _ => OPEN_SEATS.to_owned(),
    }
}

/// One player's reviewed games of one kind, as judged by one engine level.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerReview {
    pub kind: String,
    /// The engine level that judged.
    pub level: String,
    /// `bot_id@version`, or `open seats` for everyone who sat in one.
    pub player: String,
    /// Reviewed games it sat in (a player in two seats of one game counts twice).
    pub games: u64,
    /// Its decisions with more than one legal action.
    pub decisions: u64,
    /// Decisions by label: best, good, inaccuracy, mistake, blunder.
    pub labels: Counts<String>,
    /// Points of margin lost per decision, against the engine's best action.
    pub loss: Estimate,
    /// Points of margin won per game by the deal and the draws (negative: lost).
    pub luck: Estimate,
}

impl PlayerReview {
    /// The share of its decisions labelled best or good.
    pub fn accuracy(&self) -> f64 {
        let sound = self.labels.0.get("best").copied().unwrap_or(0) + self.labels.0.get("good").copied().unwrap_or(0);
        sound as f64 / self.decisions.max(1) as f64
    }
}
