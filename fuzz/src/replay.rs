//! The log fold under arbitrary event sequences.
//!
//! An even first byte reads the rest as framed protobuf events (see [`crate::frames`]); an odd
//! one takes a real game's log and edits it: events dropped, repeated, swapped, renumbered,
//! bytes changed, payloads borrowed from another game. Whatever the sequence, replay ends in a
//! game or a `ReplayError`, never a panic. A log that replays must be a game the server can
//! carry on: it has ended or has a seat to move, every legal move is performed, and the log
//! played on replays into the same game.

use std::sync::OnceLock;

use arbitrary::{Result, Unstructured};
use clack_log::GameLog;
use clack_proto::v1 as pb;
use prost::Message;

pub fn run(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let events = if mode % 2 == 0 { decoded(rest) } else { edited(&mut Unstructured::new(rest)).unwrap_or_default() };
    check(&events);
}

/// Whole games and games cut at a move boundary, as the store holds them.
pub fn logs() -> &'static [Vec<pb::Event>] {
    static LOGS: OnceLock<Vec<Vec<pb::Event>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let mut all = Vec::new();
        for options in crate::preset_options() {
            for seed in 0..3 {
                all.push(crate::played(options, seed, 100_000).1);
                all.push(crate::played(options, seed, 12).1);
            }
        }
        all
    })
}

fn decoded(data: &[u8]) -> Vec<pb::Event> {
    crate::frames(data).into_iter().filter_map(|frame| pb::Event::decode(frame).ok()).collect()
}

fn edited(u: &mut Unstructured) -> Result<Vec<pb::Event>> {
    let logs = logs();
    let mut events = logs[u.choose_index(logs.len())?].clone();
    let edits = u.int_in_range(1..=4)?;
    for _ in 0..edits {
        if events.is_empty() {
            break;
        }
        let i = u.choose_index(events.len())?;
        match u.int_in_range(0u8..=8)? {
            0 => {
                events.remove(i);
            }
            1 => events.insert(i, events[i].clone()),
            2 => {
                let j = u.choose_index(events.len())?;
                events.swap(i, j);
            }
            3 => events.truncate(i),
            4 => events[i].sequence = u.arbitrary()?,
            5 => {
                if let Some(pb::event::Payload::ActionApplied(a)) = events[i].payload.as_mut() {
                    a.points = u.arbitrary()?;
                }
            }
            6 => {
                let other = &logs[u.choose_index(logs.len())?];
                events[i].payload = other[u.choose_index(other.len())?].payload.clone();
            }
            7 => {
                let mut bytes = events[i].encode_to_vec();
                let at = u.choose_index(bytes.len())?;
                bytes[at] = u.arbitrary()?;
                if let Ok(event) = pb::Event::decode(bytes.as_slice()) {
                    events[i] = event;
                }
            }
            _ => events[i].payload = None,
        }
    }
    // Renumbering makes the edits reach past the sequence check.
    if u.arbitrary()? {
        for (n, event) in events.iter_mut().enumerate() {
            event.sequence = n as u64 + 1;
        }
    }
    Ok(events)
}

fn check(events: &[pb::Event]) {
    let log = match GameLog::replay(events) {
        Ok(log) => log,
        Err(e) => {
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(log.sequence(), events.len() as u64);
    assert!(log.ended().is_some() || log.to_move().is_some(), "a replayed game that nobody can move");
    play_on(log, events.to_vec());
}

/// Takes the open seats, plays legal moves to the end (or resigns after a while) and replays
/// the lot.
fn play_on(mut log: GameLog, mut events: Vec<pb::Event>) {
    for seat in 0..u32::from(log.game().players()) {
        if let Ok((_, event)) = log.join(Some(seat), "p", 0) {
            events.push(event);
        }
    }
    for _ in 0..200 {
        let Some(seat) = log.to_move() else { break };
        let legal = log.game().legal_actions();
        let action = legal[events.len() % legal.len()];
        match log.perform(seat, action, 0) {
            Ok(more) => events.extend(more),
            Err(e) => panic!("{action}, legal in a replayed game, refused: {e}"),
        }
    }
    if let Some(seat) = log.to_move() {
        events.extend(log.resign(seat, 0).unwrap_or_else(|e| panic!("resigning refused: {e}")));
    }
    assert!(log.ended().is_some(), "the game did not end");
    let again = GameLog::replay(&events).unwrap_or_else(|e| panic!("a replayed game played on does not replay: {e}"));
    assert_eq!(again.game(), log.game());
}
