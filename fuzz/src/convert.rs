//! Request messages as a client could send them, through the conversions the server applies.
//!
//! The first byte chooses the message and, for requests about a game, the position it is
//! played against; the rest is the message's protobuf encoding. Whatever the bytes, a
//! conversion ends in a value or a `FieldError`, and what it accepts must behave: options
//! survive the round trip through their stored form and make a game whose log replays; an
//! action read from a request survives the round trip through its stored form and is
//! performed exactly when the rules call it legal.

use std::sync::OnceLock;

use clack_log::GameLog;
use clack_log::convert::{self, ActionError};
use clack_proto::v1 as pb;
use clack_rules::Seat;
use prost::Message;

/// The messages this target reads, by the number of the first byte modulo their count.
pub const MESSAGES: [&str; 6] = ["CreateGame", "Act", "JoinGame", "ListGames", "RunMatch", "Export line"];

pub fn run(data: &[u8]) {
    let Some((&choice, bytes)) = data.split_first() else { return };
    match usize::from(choice) % MESSAGES.len() {
        0 => {
            if let Ok(request) = pb::CreateGameRequest::decode(bytes) {
                create_game(&request);
            }
        }
        1 => {
            if let Some((&at, bytes)) = bytes.split_first()
                && let Ok(request) = pb::ActRequest::decode(bytes)
            {
                act(position(at), &request);
            }
        }
        2 => {
            if let Some((&at, bytes)) = bytes.split_first()
                && let Ok(request) = pb::JoinGameRequest::decode(bytes)
            {
                join(position(at), &request);
            }
        }
        3 => {
            if let Ok(request) = pb::ListGamesRequest::decode(bytes) {
                let _ = convert::kind_filter(request.kind, "kind").map_err(|e| e.to_string());
            }
        }
        4 => {
            if let Ok(request) = pb::RunMatchRequest::decode(bytes) {
                options(request.options.as_ref());
            }
        }
        _ => export_line(bytes),
    }
}

/// Game positions to act against: every preset with its seats open, and with every seat taken
/// at several depths from several seeds.
pub fn positions() -> &'static [GameLog] {
    static POSITIONS: OnceLock<Vec<GameLog>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut all = Vec::new();
        for options in crate::preset_options() {
            all.push(GameLog::create("fuzz", options, Vec::new(), 1, 0).expect("preset options").0);
            for seed in 0..6 {
                for moves in [0, 1, 3, 8, 20, 45] {
                    all.push(crate::played(options, seed, moves).0);
                }
            }
        }
        all
    })
}

fn position(at: u8) -> &'static GameLog {
    let all = positions();
    &all[usize::from(at) % all.len()]
}

fn options(options: Option<&pb::GameOptions>) -> Option<clack_rules::game::Options> {
    let resolved = convert::options_from_proto(options).map_err(|e| e.to_string()).ok()?;
    let stored = convert::options_to_proto(resolved);
    assert_eq!(convert::options_from_proto(Some(&stored)), Ok(resolved), "stored options read back differently");
    Some(resolved)
}

fn create_game(request: &pb::CreateGameRequest) {
    let Some(resolved) = options(request.options.as_ref()) else { return };
    let seed = request.seed.unwrap_or_default();
    let Ok((log, events)) = GameLog::create("fuzz", resolved, request.seats.clone(), seed, 0) else { return };
    let replayed = GameLog::replay(&events).unwrap_or_else(|e| panic!("a new game's log does not replay: {e}"));
    assert_eq!(replayed.game(), log.game());
    assert_eq!(replayed.seats(), log.seats());
}

fn act(position: &GameLog, request: &pb::ActRequest) {
    // The service refuses seats that do not fit a byte before the game sees them.
    let Ok(seat) = u8::try_from(request.seat.unwrap_or(0)) else { return };
    let seat = Seat(seat);
    let game = position.game();
    match convert::action_from_proto(request.action.as_ref(), game, seat) {
        Ok(action) => {
            let stored = convert::action_to_proto(action);
            assert_eq!(
                convert::stored_action(Some(&stored), game),
                Ok(action),
                "the stored form reads back differently"
            );
            let legal = game.is_legal(seat, action) && position.ended().is_none();
            let mut next = position.clone();
            match next.perform(seat, action, 0) {
                Ok(events) => {
                    assert!(legal, "{action} performed but not legal");
                    let mut check = position.clone();
                    for event in &events {
                        check.apply(event).unwrap_or_else(|e| panic!("a performed event does not fold: {e}"));
                    }
                    assert_eq!(check.game(), next.game());
                }
                Err(e) => {
                    assert!(!legal, "{action} legal but refused: {e}");
                    assert_eq!(next.sequence(), position.sequence(), "a refused action recorded events");
                }
            }
        }
        Err(ActionError::Field(e)) => assert!(!e.field.is_empty(), "a field error names its field: {e}"),
        Err(ActionError::Illegal(e)) => {
            let _ = e.to_string();
        }
    }
}

fn join(position: &GameLog, request: &pb::JoinGameRequest) {
    let mut next = position.clone();
    if let Ok((seat, event)) = next.join(request.seat, &request.name, 0) {
        assert!(seat.0 < position.game().players());
        let mut check = position.clone();
        check.apply(&event).unwrap_or_else(|e| panic!("a join does not fold: {e}"));
    }
}

fn export_line(bytes: &[u8]) {
    let Ok(line) = std::str::from_utf8(bytes) else { return };
    if let Ok(event) = clack_log::json::from_line(line) {
        let again = clack_log::json::to_line(&event);
        assert_eq!(clack_log::json::from_line(&again).ok(), Some(event), "an export line does not read back");
    }
}
