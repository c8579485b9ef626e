//! Redaction: the log as one viewer may see it.
//!
//! A seat sees its own tiles and counts of everyone else's; a spectator sees counts only; the
//! full log (every hand, the seed) is for analysis once the game is over. Everything that a
//! player sees of other seats during play — events, views, errors — passes through here or
//! through the rules' own `observation`.

use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::Seat;

/// Who is looking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    /// A player, who sees their own tiles.
    Seat(Seat),
    /// Anyone without a seat.
    Spectator,
    /// An analyst of a finished game: everything.
    Everyone,
}

impl Viewer {
    fn sees(self, seat: u32) -> bool {
        match self {
            Viewer::Seat(s) => u32::from(s.0) == seat,
            Viewer::Spectator => false,
            Viewer::Everyone => true,
        }
    }
}

/// The event as `viewer` may see it.
pub fn redact(event: &pb::Event, viewer: Viewer) -> pb::Event {
    if viewer == Viewer::Everyone {
        return event.clone();
    }
    let mut event = event.clone();
    match event.payload.as_mut() {
        Some(Payload::GameCreated(created)) => {
            created.seed = None;
            // A fork's starting position: the parent's events, each cut down for the same seat
            // (a fork keeps its parent's seat numbers).
            if let Some(fork) = created.fork.as_mut() {
                for embedded in fork.events.iter_mut() {
                    *embedded = redact(embedded, viewer);
                }
                // A re-deal is this game's own hidden tiles: cut down like its deals and draws.
                if let Some(redeal) = fork.redeal.as_mut() {
                    for hand in redeal.hands.iter_mut().filter(|h| !viewer.sees(h.seat)) {
                        hand.tiles.clear();
                    }
                    for drawn in redeal.draws.iter_mut().filter(|d| !viewer.sees(d.seat)) {
                        drawn.tile = None;
                    }
                }
            }
        }
        Some(Payload::Dealt(dealt)) => {
            for hand in dealt.hands.iter_mut().filter(|h| !viewer.sees(h.seat)) {
                hand.tiles.clear();
            }
        }
        Some(Payload::TileDrawn(drawn)) if !viewer.sees(drawn.seat) => drawn.tile = None,
        // A bot's error text may quote its own view, hand included.
        Some(Payload::BotFaulted(fault)) => fault.detail.clear(),
        _ => {}
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A re-dealt fork's new hands and draws are the fork's own hidden tiles: a seat sees only
    /// its own, a spectator none, an analyst all.
    #[test]
    fn a_re_deal_is_cut_down_like_deals_and_draws() {
        let tile = |low, high| pb::Tile { low, high };
        let redeal = pb::Redeal {
            seat: 1,
            hands: vec![
                pb::Hand { seat: 0, tiles: vec![tile(0, 1)], count: 1 },
                pb::Hand { seat: 1, tiles: vec![tile(2, 2)], count: 1 },
            ],
            draws: vec![
                pb::TileDrawn { seat: 0, tile: Some(tile(3, 4)) },
                pb::TileDrawn { seat: 1, tile: Some(tile(5, 6)) },
            ],
        };
        let fork = pb::Fork { redeal: Some(redeal), ..pb::Fork::default() };
        let created = pb::GameCreated { fork: Some(fork), seed: Some(9), ..pb::GameCreated::default() };
        let event = pb::Event { payload: Some(Payload::GameCreated(created)), ..pb::Event::default() };
        let seen = |viewer| {
            let Some(Payload::GameCreated(created)) = redact(&event, viewer).payload else { panic!("created") };
            let redeal = created.fork.and_then(|f| f.redeal).expect("kept");
            let hands: Vec<usize> = redeal.hands.iter().map(|h| h.tiles.len()).collect();
            let draws: Vec<bool> = redeal.draws.iter().map(|d| d.tile.is_some()).collect();
            (hands, draws)
        };
        assert_eq!(seen(Viewer::Seat(Seat(0))), (vec![1, 0], vec![true, false]));
        assert_eq!(seen(Viewer::Seat(Seat(1))), (vec![0, 1], vec![false, true]));
        assert_eq!(seen(Viewer::Spectator), (vec![0, 0], vec![false, false]));
        assert_eq!(seen(Viewer::Everyone), (vec![1, 1], vec![true, true]));
    }
}
