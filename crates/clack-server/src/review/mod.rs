//! Reviews of finished games by the engine (`ReplayService.ReviewGame`).
//!
//! A review replays the game's whole log and evaluates every decision and chance event, which
//! takes a second or more of one core: it runs on a blocking thread, one review at a time, and
//! streams its progress as it goes. Once made it is kept in the store under
//! `review/{game}/{level}` (a game's log never changes after its end, so neither does its
//! review), and asking again sends the kept one at once. Who may ask is who may read a finished
//! game's log. On a cluster's shard a kept review is also written to the shared database
//! ([`shared`]), and a kept review of another shard's game is read from there
//! ([`kept_elsewhere`]): through any shard, even while the game's own is down.
//!
//! The room also holds [`explain`], which runs one bot decision of a finished game again for
//! the bot's owner. Both read finished games from the hub and ask the bots' room for nothing but
//! what a seat decided; no live game waits on them.

pub mod explain;
pub mod shared;

use std::sync::Arc;

use clack_engine::Level;
use clack_engine::review::{ChanceKind, Label, Review};
use clack_log::GameLog;
use clack_log::convert::FieldError;
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use prost::Message;
use tokio::sync::{Semaphore, mpsc};
use tonic::Status;

use crate::error::{Error, Result};
use crate::games::hub::Hub;

/// Reviews made at once: each keeps a core busy for its whole length.
static RUNNING: Semaphore = Semaphore::const_new(1);

/// Progress is sent after this many steps (and after the last).
const PROGRESS_EVERY: usize = 16;

pub type Replies = mpsc::Receiver<std::result::Result<pb::ReviewGameResponse, Status>>;

/// The level a request names; empty is the default.
pub fn level(text: &str) -> Result<Level> {
    if text.is_empty() {
        return Ok(Level::Default);
    }
    let level: Level =
        text.parse().map_err(|e: clack_engine::player::ParseLevelError| FieldError::new("level", e.to_string()))?;
    if !level.is_review() {
        return Err(FieldError::new("level", "review at fast, default, strong or judge").into());
    }
    Ok(level)
}

fn key(game_id: &str, level: Level) -> String {
    format!("review/{game_id}/{}", level.name())
}

/// Starts the review of finished game `game_id` at `level`: the kept review if there is one,
/// else (unless `kept_only`) progress and then the review as it is made.
pub async fn start(hub: Arc<Hub>, game_id: String, level: Level, kept_only: bool) -> Result<Replies> {
    let (sender, replies) = mpsc::channel(8);
    let kept = hub.store().get(&key(&game_id, level)).await?;
    if let Some(bytes) = kept
        && let Ok(review) = pb::GameReview::decode(bytes.as_slice())
    {
        // A review kept while the database was away reaches it now (writing it again is harmless).
        share(&hub, &game_id, level, bytes);
        let _ = sender.send(Ok(reply(pb::review_game_response::Body::Review(review)))).await;
        return Ok(replies);
    }
    if kept_only {
        return Err(Error::NotFound(format!("game {game_id} has no review at level {}", level.name())));
    }
    let events = hub.full_log(&game_id).await?;
    let log = GameLog::replay(&events).map_err(|error| Error::DataLoss { game: game_id.clone(), error })?;
    let sequences = step_sequences(&events, log.steps().len());
    tokio::spawn(async move {
        let Ok(_turn) = RUNNING.acquire().await else { return };
        let progress = sender.clone();
        let (options, steps, seed) = (log.game().options(), log.steps().to_vec(), log.seed());
        let made = tokio::task::spawn_blocking(move || {
            clack_engine::review(options, &steps, level, seed, |done, total| {
                if done % PROGRESS_EVERY == 0 || done == total {
                    let body = pb::review_game_response::Body::Progress(pb::ReviewProgress {
                        done: done as u32,
                        steps: total as u32,
                    });
                    let _ = progress.blocking_send(Ok(reply(body)));
                }
            })
        })
        .await;
        let answer = match made {
            Ok(Ok(review)) => {
                let review = to_proto(&game_id, &review, &sequences);
                let bytes = review.encode_to_vec();
                let kept = match hub.store().put(&key(&game_id, level), bytes.clone()).await {
                    Ok(()) => hub.mark_reviewed(&game_id, level.name()).await,
                    Err(e) => Err(e.into()),
                };
                share(&hub, &game_id, level, bytes);
                if let Err(e) = kept {
                    tracing::warn!(game = %game_id, error = %e, "a review could not be kept");
                }
                tracing::info!(game = %game_id, level = level.name(), "game reviewed");
                Ok(reply(pb::review_game_response::Body::Review(review)))
            }
            Ok(Err(e)) => Err(Status::from(Error::Internal(format!("the review failed: {e}")))),
            Err(e) => Err(Status::from(Error::Internal(format!("the review stopped: {e}")))),
        };
        let _ = sender.send(answer).await;
    });
    Ok(replies)
}

/// Writes a kept review to the cluster's database, on a shard that has one, without waiting:
/// a failure is logged, and the next read of the review on this shard tries again.
fn share(hub: &Hub, game_id: &str, level: Level, review: Vec<u8>) {
    let Some(database) = hub.database() else { return };
    let game_id = game_id.to_owned();
    tokio::spawn(async move {
        if let Err(error) = shared::keep(&database, &game_id, level.name(), &review).await {
            tracing::warn!(game = %game_id, level = level.name(), %error, "a kept review is not shared yet");
        }
    });
}

/// The kept review of another shard's game `game_id` at `level`, from the cluster's database;
/// `elsewhere` (the error naming the game's shard) when there is no database or no such review:
/// a review not kept yet is made on the game's own shard.
pub async fn kept_elsewhere(hub: &Hub, game_id: &str, level: Level, elsewhere: Error) -> Result<Replies> {
    let Some(database) = hub.database() else { return Err(elsewhere) };
    let Some(bytes) = shared::read(&database, game_id, level.name()).await? else { return Err(elsewhere) };
    let review = pb::GameReview::decode(bytes.as_slice())
        .map_err(|e| Error::Internal(format!("the kept review of {game_id} does not decode: {e}")))?;
    let (sender, replies) = mpsc::channel(1);
    let _ = sender.send(Ok(reply(pb::review_game_response::Body::Review(review)))).await;
    Ok(replies)
}

fn reply(body: pb::review_game_response::Body) -> pb::ReviewGameResponse {
    pb::ReviewGameResponse { body: Some(body) }
}

/// The sequence of the event each step of the game came from; 0 for the steps a fork inherited
/// from its parent (they come first).
fn step_sequences(events: &[pb::Event], steps: usize) -> Vec<u64> {
    let own: Vec<u64> = events
        .iter()
        .filter(|e| {
            matches!(
                e.payload,
                Some(Payload::ActionApplied(_) | Payload::LeadDrawn(_) | Payload::Dealt(_) | Payload::TileDrawn(_))
            )
        })
        .map(|e| e.sequence)
        .collect();
    let inherited = steps.saturating_sub(own.len());
    std::iter::repeat_n(0, inherited).chain(own).collect()
}

fn estimate(e: clack_engine::Estimate) -> Option<pb::Estimate> {
    Some(pb::Estimate { mean: e.mean, stderr: e.stderr })
}

fn label(label: Label) -> pb::MoveLabel {
    match label {
        Label::Best => pb::MoveLabel::Best,
        Label::Good => pb::MoveLabel::Good,
        Label::Inaccuracy => pb::MoveLabel::Inaccuracy,
        Label::Mistake => pb::MoveLabel::Mistake,
        Label::Blunder => pb::MoveLabel::Blunder,
    }
}

fn to_proto(game_id: &str, review: &Review, sequences: &[u64]) -> pb::GameReview {
    let sequence = |step: usize| sequences.get(step).copied().unwrap_or_default();
    pb::GameReview {
        game_id: game_id.to_owned(),
        level: review.level.name().to_owned(),
        engine_version: clack_engine::VERSION.to_owned(),
        decisions: review
            .decisions
            .iter()
            .map(|d| pb::DecisionReview {
                sequence: sequence(d.step),
                seat: u32::from(d.seat.0),
                played: d.played.to_string(),
                best: d.best.to_string(),
                best_value: estimate(d.best_value),
                played_value: estimate(d.played_value),
                loss: estimate(d.loss),
                win_loss: estimate(d.win_loss),
                win: estimate(d.win),
                label: label(d.label) as i32,
                choices: d.choices as u32,
            })
            .collect(),
        chances: review
            .chances
            .iter()
            .map(|c| pb::ChanceReview {
                sequence: sequence(c.step),
                seat: u32::from(c.seat.0),
                kind: match c.kind {
                    ChanceKind::Deal => "deal".into(),
                    ChanceKind::Draw => "draw".into(),
                },
                luck: estimate(c.luck),
            })
            .collect(),
        seats: review
            .seats
            .iter()
            .map(|s| pb::SeatReview {
                seat: u32::from(s.seat.0),
                decisions: s.decisions,
                loss: estimate(s.loss),
                luck: estimate(s.luck),
                labels: s.labels.to_vec(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The levels kept for measuring (`legacy-strong`) are `clack arena`'s alone: a server
    /// reviews at the four review levels and refuses the rest by name, as it seats only three.
    #[test]
    fn a_server_reviews_at_the_review_levels_only() {
        for name in ["fast", "default", "strong", "judge", ""] {
            assert!(level(name).is_ok(), "{name}");
        }
        for name in ["legacy-strong", "omniscient", "best"] {
            assert!(level(name).is_err(), "{name}");
        }
        for seat in
            ["engine:judge", "engine:legacy-strong", "omniscient", "engine:omniscient", "seer:default", "engine:seer"]
        {
            assert_eq!(crate::bots::engines::level(seat), None, "{seat} is no seat");
        }
    }
}
