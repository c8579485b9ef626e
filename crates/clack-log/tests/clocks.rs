//! Clocks and abandonment, given/when/then: a clock is a function of the log's own times, a
//! timeout applies the game's policy and replays exactly, a forged timeout is refused, and a game
//! nobody finished joining is called off with no winners.

use clack_log::{AbandonError, Allowance, GameLog, ReplayError, Status, TimeControl, TimeoutError, TimeoutPolicy};
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::Seat;
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

/// A clocked two-seat game created at 1,000 and started (both seats joined) at 1,500.
fn given_clocked_game(allowance: Allowance, policy: TimeoutPolicy) -> (GameLog, Vec<pb::Event>) {
    let control = TimeControl { allowance, policy };
    let (mut log, mut events) =
        GameLog::create_timed("g1", straight2(), Some(control), Vec::new(), 7, 1_000).expect("valid game");
    for seat in 0..2 {
        events.push(log.join(Some(seat), "player", 1_500).expect("open seat").1);
    }
    (log, events)
}

fn with_forged<F: FnOnce(&mut pb::Event)>(mut events: Vec<pb::Event>, index: usize, forge: F) -> Vec<pb::Event> {
    forge(&mut events[index]);
    events
}

fn timeout_index(events: &[pb::Event]) -> usize {
    events.iter().position(|e| matches!(e.payload, Some(Payload::SeatTimedOut(_)))).expect("a timeout")
}

#[test]
fn given_a_per_move_clock_then_the_deadline_is_the_turns_start_plus_the_allowance() {
    let (log, _) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::AutoMove);
    let seat = log.to_move().expect("a seat to act");
    assert_eq!(log.deadline(), Some((seat, 2_000)));
    assert_eq!(log.clocks(), vec![(Seat(0), 500), (Seat(1), 500)]);
    let (waiting, _) = GameLog::create_timed(
        "g2",
        straight2(),
        Some(TimeControl { allowance: Allowance::PerMove { millis: 500 }, policy: TimeoutPolicy::AutoMove }),
        Vec::new(),
        7,
        1_000,
    )
    .expect("valid game");
    assert_eq!(waiting.deadline(), None, "no clock runs while seats are open");
}

#[test]
fn given_auto_move_when_the_clock_runs_out_then_the_first_legal_action_is_played_and_replays() {
    let (mut log, mut events) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::AutoMove);
    let seat = log.to_move().expect("a seat to act");
    let first = log.game().legal_actions()[0];
    assert_eq!(log.time_out(1_999), Err(TimeoutError::Early { deadline: 2_000 }));
    let timed_out = log.time_out(2_000).expect("the deadline has passed");
    match payloads(&timed_out)[..2] {
        [Payload::SeatTimedOut(t), Payload::ActionApplied(a)] => {
            assert_eq!(t.seat, u32::from(seat.0));
            assert_eq!(t.policy, pb::TimeoutPolicy::AutoMove as i32);
            assert_eq!(a.seat, u32::from(seat.0));
            assert_eq!(a.action, Some(clack_log::convert::action_to_proto(first)));
        }
        ref other => panic!("expected SeatTimedOut then ActionApplied, got {other:?}"),
    }
    let next = log.to_move().expect("play goes on");
    assert_ne!(next, seat);
    assert_eq!(log.deadline(), Some((next, 2_500)), "the next turn starts at the timeout");
    events.extend(timed_out);
    let replayed = GameLog::replay(&events).expect("replays");
    assert_eq!(replayed.game(), log.game());
    assert_eq!(replayed.deadline(), log.deadline());
}

#[test]
fn given_forfeit_when_the_clock_runs_out_then_the_other_side_wins() {
    let (mut log, mut events) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::Forfeit);
    let seat = log.to_move().expect("a seat to act");
    let timed_out = log.time_out(2_300).expect("the deadline has passed");
    match payloads(&timed_out)[..] {
        [Payload::SeatTimedOut(t), Payload::GameEnded(e)] => {
            assert_eq!(t.policy, pb::TimeoutPolicy::Forfeit as i32);
            assert_eq!(e.reason, "timed_out");
            assert_eq!(e.winners, vec![1 - u32::from(seat.0)]);
        }
        ref other => panic!("expected SeatTimedOut then GameEnded, got {other:?}"),
    }
    assert_eq!(log.status(), Status::Finished);
    assert_eq!(log.deadline(), None);
    events.extend(timed_out);
    assert_eq!(GameLog::replay(&events).expect("replays").ended(), log.ended());
}

#[test]
fn given_a_fischer_clock_then_each_action_spends_the_turns_time_and_gains_the_increment() {
    let fischer = Allowance::Fischer { initial: 1_000, increment: 100 };
    let (mut log, mut events) = given_clocked_game(fischer, TimeoutPolicy::AutoMove);
    let seat = log.to_move().expect("a seat to act");
    let action = log.game().legal_actions()[0];
    events.extend(log.perform(seat, action, 1_800).expect("legal"));
    let other = Seat(1 - seat.0);
    let clocks = log.clocks();
    assert!(clocks.contains(&(seat, 1_000 - 300 + 100)), "{clocks:?}");
    assert!(clocks.contains(&(other, 1_000)), "{clocks:?}");
    assert_eq!(log.deadline(), Some((other, 2_800)));
    assert_eq!(GameLog::replay(&events).expect("replays").clocks(), clocks);
}

#[test]
fn given_bot_seats_then_only_open_seats_are_clocked() {
    let bot = pb::SeatSpec {
        occupant: Some(pb::seat_spec::Occupant::Bot(pb::BotSeat { bot_id: "b".into(), version: "v".into() })),
    };
    let open = pb::SeatSpec { occupant: Some(pb::seat_spec::Occupant::Open(pb::OpenSeat {})) };
    let control = TimeControl { allowance: Allowance::PerMove { millis: 500 }, policy: TimeoutPolicy::AutoMove };
    let (log, _) =
        GameLog::create_timed("g1", straight2(), Some(control), vec![bot, open], 7, 1_000).expect("valid game");
    assert_eq!(log.clocks(), vec![(Seat(1), 500)]);
}

#[test]
fn given_a_timeout_stamped_before_the_deadline_when_replayed_then_it_is_refused() {
    let (mut log, mut events) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::Forfeit);
    events.extend(log.time_out(2_000).expect("due"));
    let at = timeout_index(&events);
    let forged = with_forged(events, at, |e| e.unix_millis = 1_999);
    let error = GameLog::replay(&forged).expect_err("early timeout");
    assert!(matches!(error, ReplayError::Unexpected { what: "a timeout before the deadline", .. }), "{error}");
}

#[test]
fn given_a_timeout_of_the_wrong_seat_or_policy_when_replayed_then_it_is_refused() {
    let (mut log, mut events) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::Forfeit);
    let seat = log.to_move().expect("a seat to act");
    events.extend(log.time_out(2_000).expect("due"));
    let at = timeout_index(&events);
    let set = |seat: u32, policy: pb::TimeoutPolicy| {
        move |e: &mut pb::Event| {
            e.payload = Some(Payload::SeatTimedOut(pb::SeatTimedOut { seat, policy: policy as i32 }));
        }
    };
    let wrong_seat = with_forged(events.clone(), at, set(1 - u32::from(seat.0), pb::TimeoutPolicy::Forfeit));
    assert!(matches!(GameLog::replay(&wrong_seat), Err(ReplayError::Unexpected { .. })));
    let wrong_policy = with_forged(events, at, set(u32::from(seat.0), pb::TimeoutPolicy::AutoMove));
    assert!(matches!(GameLog::replay(&wrong_policy), Err(ReplayError::Mismatch { .. })));
}

#[test]
fn given_an_auto_move_that_is_not_the_first_legal_action_when_replayed_then_it_is_refused() {
    let (mut log, mut events) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::AutoMove);
    let legal = log.game().legal_actions();
    assert!(legal.len() > 1, "the test needs a choice");
    events.extend(log.time_out(2_000).expect("due"));
    let at = timeout_index(&events) + 1;
    let forged = with_forged(events, at, |e| {
        if let Some(Payload::ActionApplied(a)) = &mut e.payload {
            a.action = Some(clack_log::convert::action_to_proto(legal[1]));
        }
    });
    assert!(matches!(GameLog::replay(&forged), Err(ReplayError::Mismatch { .. })));
}

#[test]
fn given_a_timeout_without_its_auto_move_when_replayed_then_the_log_stops_early() {
    let (mut log, mut events) = given_clocked_game(Allowance::PerMove { millis: 500 }, TimeoutPolicy::AutoMove);
    events.extend(log.time_out(2_000).expect("due"));
    events.truncate(timeout_index(&events) + 1);
    assert!(matches!(GameLog::replay(&events), Err(ReplayError::Unexpected { what: "the log stops early", .. })));
}

#[test]
fn given_a_game_played_out_with_timeouts_between_moves_then_replay_rebuilds_every_clock() {
    let fischer = Allowance::Fischer { initial: 900, increment: 50 };
    let (mut log, mut events) = given_clocked_game(fischer, TimeoutPolicy::AutoMove);
    let mut now = 1_500;
    let mut turn = 0;
    // The clocks and the deadline as play left them after each move, by sequence.
    let mut seen = Vec::new();
    while let Some((seat, deadline)) = log.deadline() {
        turn += 1;
        // Every third turn the seat lets its clock run out; the others play their last legal
        // action after 2 to 61 ms.
        let batch = if turn % 3 == 0 {
            now = deadline;
            log.time_out(now).expect("due")
        } else {
            now += 2 + turn % 60;
            let action = *log.game().legal_actions().last().expect("a legal action");
            log.perform(seat, action, now).expect("legal")
        };
        events.extend(batch);
        seen.push((log.sequence(), log.clocks(), log.deadline()));
        assert!(turn < 10_000, "the game never ended");
    }
    assert_eq!(log.status(), Status::Finished);
    assert!(events.iter().any(|e| matches!(e.payload, Some(Payload::SeatTimedOut(_)))));
    let spent = seen.iter().any(|(_, clocks, _)| clocks.iter().any(|&(_, left)| left != 900));
    assert!(spent, "the banks moved");
    // Folding the stored events one by one rebuilds the same clocks and deadline after each move.
    let mut replayed = GameLog::begin(&events[0]).expect("the creation");
    let mut seen = seen.into_iter().peekable();
    for event in &events[1..] {
        replayed.apply(event).expect("folds");
        if let Some((_, clocks, deadline)) = seen.next_if(|(sequence, ..)| *sequence == event.sequence) {
            assert_eq!(replayed.clocks(), clocks, "after event {}", event.sequence);
            assert_eq!(replayed.deadline(), deadline, "after event {}", event.sequence);
        }
    }
    assert!(seen.next().is_none(), "every move was checked");
    replayed.finish_replay().expect("complete");
    assert_eq!(replayed.game(), log.game());
}
