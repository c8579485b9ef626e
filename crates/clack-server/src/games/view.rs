//! Views and summaries: what one viewer may see of a game, as API messages.
//!
//! Hidden information is cut here by asking the rules for the viewer's `observation`, which
//! holds only that seat's hand; other hands appear only for [`Viewer::Everyone`] (the replay of
//! a finished game). Clocks come from the log as of its last event, so a view is a pure
//! function of the log: the client counts down to the deadline itself.

use clack_log::convert::{hands_to_proto, kind_to_proto, spot_to_proto, tile_to_proto, tiles_to_proto};
use clack_log::{GameLog, Occupant, Status, Viewer, round_payload};
use clack_proto::v1 as pb;
use clack_rules::game::Game;
use clack_rules::straight::{Arm, Link};

pub fn status_to_proto(status: Status) -> pb::GameStatus {
    match status {
        Status::Waiting => pb::GameStatus::Waiting,
        Status::Active => pb::GameStatus::Active,
        Status::Finished => pb::GameStatus::Finished,
    }
}

pub fn seats(log: &GameLog) -> Vec<pb::SeatSummary> {
    log.seats()
        .iter()
        .enumerate()
        .map(|(i, occupant)| match occupant {
            Occupant::Open { name } => pb::SeatSummary {
                seat: i as u32,
                taken: name.is_some(),
                name: name.clone().unwrap_or_default(),
                bot: None,
            },
            Occupant::Bot { bot_id, version } => pb::SeatSummary {
                seat: i as u32,
                taken: true,
                name: format!("bot {bot_id}"),
                bot: Some(pb::BotSeat { bot_id: bot_id.clone(), version: version.clone() }),
            },
        })
        .collect()
}

/// The summary kept beside each log in the store.
pub fn summary(log: &GameLog) -> pb::GameSummary {
    pb::GameSummary {
        game_id: log.id().to_owned(),
        kind: kind_to_proto(log.game().kind()) as i32,
        status: status_to_proto(log.status()) as i32,
        seats: seats(log),
        sequence: log.sequence(),
        created_unix_millis: log.created_millis(),
        winners: log.ended().map(|e| e.winners.clone()).unwrap_or_default(),
        // Filled by listings from the hub's marks; never stored with the summary.
        reviewed: Vec::new(),
    }
}

/// The seat to act, as the wire has it; unset while the game waits for players, while the
/// dealer deals and after the end.
pub fn to_move(log: &GameLog) -> Option<u32> {
    log.seat_to_act().map(|seat| u32::from(seat.0))
}

/// What `viewer` may see of the game now.
pub fn view(log: &GameLog, viewer: Viewer) -> pb::View {
    let game = log.game();
    let seat = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator | Viewer::Everyone => None,
    };
    let everyone = viewer == Viewer::Everyone;
    let all_hands = game.hands();
    let board = match game {
        Game::Straight(g) => {
            let observation = g.observation(seat);
            let layout = &observation.layout;
            let links = |arm: Arm| {
                layout
                    .arm(arm)
                    .iter()
                    .map(|l: &Link| pb::Link { inner: u32::from(l.inner), outer: u32::from(l.outer) })
                    .collect()
            };
            pb::view::Board::Straight(pb::StraightBoard {
                first_tile: layout.root().map(tile_to_proto),
                spinner: layout.spinner().is_some(),
                west: links(Arm::West),
                east: links(Arm::East),
                north: links(Arm::North),
                south: links(Arm::South),
                count: layout.count(),
                round: observation.round,
                leader: u32::from(observation.leader.0),
                drawable: u32::from(observation.drawable),
                last_round: observation.last_round.as_ref().map(|r| round_payload(r, game)),
            })
        }
        Game::Streets(g) => pb::view::Board::Streets(pb::StreetsBoard {
            pieces: g
                .board()
                .pieces()
                .iter()
                .map(|p| pb::Piece {
                    tile: Some(tile_to_proto(p.tile)),
                    spot: Some(spot_to_proto(p.spot)),
                    first: u32::from(p.first),
                })
                .collect(),
            blocks: g.board().blocks(),
            discards: g.discards().iter().copied().map(tile_to_proto).collect(),
        }),
    };
    pb::View {
        game_id: log.id().to_owned(),
        kind: kind_to_proto(game.kind()) as i32,
        status: status_to_proto(log.status()) as i32,
        sequence: log.sequence(),
        viewer_seat: seat.map(|s| u32::from(s.0)),
        hand: seat.map(|s| tiles_to_proto(game.hand(s))).unwrap_or_default(),
        hand_sizes: all_hands.iter().map(|h| h.len() as u32).collect(),
        boneyard: game.boneyard().len() as u32,
        scores: game.scores(),
        to_move: to_move(log),
        winners: log.ended().map(|e| e.winners.clone()).unwrap_or_default(),
        board_text: game.render(),
        seats: seats(log),
        hands: if everyone { hands_to_proto(all_hands.iter().copied()) } else { Vec::new() },
        clocks: clocks(log),
        deadline_unix_millis: log.deadline().map(|(_, at)| at),
        board: Some(board),
    }
}

/// Each clocked seat's time left as of the last event. Clocks are public: every viewer sees
/// them, and the seat to act's count-down is the view's deadline.
pub fn clocks(log: &GameLog) -> Vec<pb::SeatClock> {
    log.clocks()
        .into_iter()
        .map(|(seat, remaining_millis)| pb::SeatClock { seat: u32::from(seat.0), remaining_millis })
        .collect()
}
