//! Clocks and abandonment, given/when/then: a game nobody finished joining is called off with
//! no winners, and a log that abandons a started game is refused on replay.

use clack_log::{AbandonError, GameLog, ReplayError, Status};
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::game::Options;
use clack_rules::straight;

fn straight2() -> Options {
    Options::Straight(straight::Options { players: 2, target: 100, ..straight::Options::default() })
}

fn given_waiting_game() -> (GameLog, Vec<pb::Event>) {
    GameLog::create("g1", straight2(), Vec::new(), 7, 1_000).expect("valid game")
}

fn given_started_game() -> (GameLog, Vec<pb::Event>) {
    let (mut log, mut events) = given_waiting_game();
    for seat in 0..2 {
        events.push(log.join(Some(seat), "player", 1_500).expect("open seat").1);
    }
    assert_eq!(log.status(), Status::Active);
    (log, events)
}

fn payloads(events: &[pb::Event]) -> Vec<&Payload> {
    events.iter().filter_map(|e| e.payload.as_ref()).collect()
}

#[test]
fn given_a_waiting_game_when_abandoned_then_it_ends_with_no_winners_and_replays() {
    let (mut log, mut events) = given_waiting_game();
    events.push(log.join(Some(0), "early", 1_200).expect("open seat").1);
    let ending = log.abandon("join_timeout", 9_000).expect("a waiting game can be abandoned");
    match payloads(&ending)[..] {
        [Payload::GameAbandoned(a), Payload::GameEnded(e)] => {
            assert_eq!(a.reason, "join_timeout");
            assert_eq!(e.reason, "abandoned");
            assert!(e.winners.is_empty());
        }
        ref other => panic!("expected GameAbandoned then GameEnded, got {other:?}"),
    }
    assert_eq!(log.status(), Status::Finished);
    events.extend(ending);
    let replayed = GameLog::replay(&events).expect("replays");
    assert_eq!(replayed.status(), Status::Finished);
    assert_eq!(replayed.ended(), log.ended());
}

#[test]
fn given_a_started_or_finished_game_when_abandoned_then_it_is_refused() {
    let (mut log, _) = given_started_game();
    assert_eq!(log.abandon("cancelled", 2_000), Err(AbandonError::Started));
    let (mut log, _) = given_waiting_game();
    log.abandon("cancelled", 2_000).expect("abandoned");
    assert_eq!(log.abandon("cancelled", 3_000), Err(AbandonError::Over));
}

#[test]
fn given_a_forged_abandonment_of_a_started_game_when_replayed_then_it_is_refused() {
    let (_, mut events) = given_started_game();
    let (mut waiting, _) = given_waiting_game();
    let forged = waiting.abandon("cancelled", 2_000).expect("abandoned");
    for (i, mut event) in forged.into_iter().enumerate() {
        event.sequence = events.len() as u64 + 1 + i as u64;
        events.push(event);
    }
    let error = GameLog::replay(&events).expect_err("a started game cannot be abandoned");
    assert!(matches!(error, ReplayError::Unexpected { .. }), "{error}");
}
