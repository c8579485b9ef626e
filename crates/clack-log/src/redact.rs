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
