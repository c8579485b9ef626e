//! A fork that re-deals what one seat could not see.
//!
//! The re-deal is recorded as a chance history: the current deal and every draw since, with the
//! parent's actions unchanged. Rebuilding the fork replays the parent's steps with those chance
//! outcomes in place of the real ones, so the record verifies on its own: every action must still
//! be legal (which is exactly "the new tiles fit everything that was seen"), and the seat whose
//! view was kept must have been dealt, and have drawn, exactly what it really was and did. Making
//! a re-deal (sampling a history) is the engine's work; this module only records and checks one.

use clack_proto::v1 as pb;
use clack_rules::game::{Chance, Game, Options, Step};
use clack_rules::{Seat, straight, streets};

use crate::convert::{self, FieldError};

/// The record of the current deal of `history` and every draw since, for a re-deal from `seat`'s
/// view.
pub fn record(options: Options, history: &[Step], seat: Seat) -> Result<pb::Redeal, FieldError> {
    let bad = |e: String| FieldError::new("redeal_for", e);
    let deal = history.iter().rposition(Step::is_deal).ok_or_else(|| bad("nothing has been dealt yet".into()))?;
    let mut game = Game::new(options).map_err(|e| bad(e.to_string()))?;
    let mut redeal = pb::Redeal { seat: u32::from(seat.0), hands: Vec::new(), draws: Vec::new() };
    for (i, step) in history.iter().enumerate() {
        let drawer = game.drawing_seat();
        game.apply_step(step).map_err(|e| bad(e.to_string()))?;
        let Step::Chance(chance) = step else { continue };
        match convert::chance_payload(chance, drawer, &game) {
            pb::event::Payload::Dealt(dealt) if i == deal => redeal.hands = dealt.hands,
            pb::event::Payload::TileDrawn(drawn) if i > deal => redeal.draws.push(drawn),
            _ => {}
        }
    }
    Ok(redeal)
}

/// The game and steps of `steps` (the parent's, up to the fork) with the current deal and its
/// draws replaced by `redeal`'s, or why the re-deal does not fit.
pub(crate) fn rebuild(options: Options, steps: &[Step], redeal: &pb::Redeal) -> Result<(Game, Vec<Step>), String> {
    let deal = steps.iter().rposition(Step::is_deal).ok_or("the fork point has no deal to re-deal")?;
    let mut game = Game::new(options).map_err(|e| e.to_string())?;
    let seat = u8::try_from(redeal.seat).ok().filter(|&s| s < game.players()).ok_or("redeal.seat: no such seat")?;
    let seat = Seat(seat);
    let mut rebuilt = Vec::with_capacity(steps.len());
    let mut draws = redeal.draws.iter();
    for (i, step) in steps.iter().enumerate() {
        let step = match step {
            Step::Chance(real) if i == deal => Step::Chance(new_deal(real, &redeal.hands, seat)?),
            Step::Chance(real) if i > deal => {
                let drawer = game.drawing_seat().ok_or("a chance after the deal that is not a draw")?;
                let drawn = draws.next().ok_or("redeal.draws: fewer draws than the game made")?;
                if drawn.seat != u32::from(drawer.0) {
                    return Err(format!("redeal.draws: a draw by seat {}, not {}", drawn.seat, drawer.0));
                }
                let tile =
                    convert::tile_from_proto(drawn.tile.as_ref(), "redeal.draws.tile").map_err(|e| e.to_string())?;
                let new = game.draw_chance(tile);
                if drawer == seat && &new != real {
                    return Err(format!("redeal.draws: seat {} drew another tile than it really did", seat.0));
                }
                Step::Chance(new)
            }
            other => other.clone(),
        };
        game.apply_step(&step).map_err(|e| format!("the re-dealt tiles do not fit step {}: {e}", i + 1))?;
        rebuilt.push(step);
    }
    if draws.next().is_some() {
        return Err("redeal.draws: more draws than the game made".into());
    }
    Ok((game, rebuilt))
}

/// The deal with `hands`, keeping `seat`'s real hand (and, in Streets, the real first seat).
fn new_deal(real: &Chance, hands: &[pb::Hand], seat: Seat) -> Result<Chance, String> {
    let sets: Vec<clack_rules::TileSet> = hands
        .iter()
        .map(|hand| convert::tiles_from_proto(&hand.tiles, "redeal.hands").map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let kept = |real_hand: clack_rules::TileSet| match sets.get(seat.index()) {
        Some(&mine) if mine == real_hand => Ok(()),
        _ => Err(format!("redeal.hands: seat {} must keep the hand it was dealt", seat.0)),
    };
    match real {
        Chance::Straight(straight::Chance::Deal { hands: real_hands }) => {
            kept(real_hands[seat.index()])?;
            let mut fixed = [clack_rules::TileSet::EMPTY; straight::MAX_PLAYERS];
            for (slot, set) in fixed.iter_mut().zip(&sets) {
                *slot = *set;
            }
            Ok(Chance::Straight(straight::Chance::Deal { hands: fixed }))
        }
        Chance::Streets(streets::Chance::Deal { hands: real_hands, first }) => {
            kept(real_hands.get(seat.index()).copied().unwrap_or_default())?;
            Ok(Chance::Streets(streets::Chance::Deal { hands: sets, first: *first }))
        }
        _ => Err("the step re-dealt is not a deal".into()),
    }
}
