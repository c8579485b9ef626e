//! Event handling, given/when/then: games played through `GameLog` replay into the same state,
//! derived events are checked on replay, redaction hides what it must, and the JSON lines export
//! reads back into the same events.

use clack_log::{GameLog, ReplayError, Status, Viewer, json, redact};
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::game::{Kind, Options, Turn};
use clack_rules::{Dealer, Seat, straight, streets};

fn given_game(options: Options, seed: u64) -> (GameLog, Vec<pb::Event>) {
    GameLog::create("g1", options, Vec::new(), seed, 1_000).expect("valid game")
}

/// Plays random legal actions to the end; returns every event.
fn play_out(log: &mut GameLog, mut events: Vec<pb::Event>, seed: u64) -> Vec<pb::Event> {
    let mut dealer = Dealer::from_seed(seed);
    while let Turn::Seat { seat } = log.game().turn() {
        let legal = log.game().legal_actions();
        let action = legal[dealer.index(legal.len())];
        events.extend(log.perform(seat, action, 2_000).expect("legal"));
    }
    events
}

fn straight2() -> Options {
    Options::Straight(straight::Options { players: 2, target: 100, ..straight::Options::default() })
}

fn streets3() -> Options {
    Options::Streets(streets::Options { players: 3, ..streets::Options::default() })
}

#[test]
fn given_a_new_game_then_it_is_created_dealt_and_waiting_for_players() {
    let (log, events) = given_game(straight2(), 5);
    assert!(matches!(events[0].payload, Some(Payload::GameCreated(_))));
    assert!(matches!(events[1].payload, Some(Payload::LeadDrawn(_))));
    assert!(matches!(events[2].payload, Some(Payload::Dealt(_))));
    assert_eq!(events.iter().map(|e| e.sequence).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert_eq!(log.status(), Status::Waiting);
    assert!(log.to_move().is_some());
}

#[test]
fn given_a_game_when_played_out_then_replay_rebuilds_it_event_for_event() {
    for (options, seed) in [(straight2(), 1), (streets3(), 2), (Options::default_for(Kind::Straight), 3)] {
        let (mut log, events) = given_game(options, seed);
        let events = play_out(&mut log, events, seed);
        assert!(log.game().is_over());
        assert!(matches!(events.last().and_then(|e| e.payload.as_ref()), Some(Payload::GameEnded(_))));
        let replayed = GameLog::replay(&events).expect("replays");
        assert_eq!(replayed.game(), log.game());
        assert_eq!(replayed.sequence(), events.len() as u64);
        assert_eq!(replayed.status(), Status::Finished);
    }
}

#[test]
fn given_the_same_seed_then_the_same_deals_follow() {
    let (_, a) = given_game(streets3(), 77);
    let (_, b) = given_game(streets3(), 77);
    assert_eq!(a.iter().map(|e| &e.payload).collect::<Vec<_>>(), b.iter().map(|e| &e.payload).collect::<Vec<_>>());
}

#[test]
fn given_a_tampered_score_when_replayed_then_the_mismatch_is_reported() {
    let (mut log, events) = given_game(straight2(), 9);
    let mut events = play_out(&mut log, events, 9);
    let applied = events
        .iter_mut()
        .find_map(|e| match e.payload.as_mut() {
            Some(Payload::ActionApplied(a)) if a.points > 0 => Some(a),
            _ => None,
        })
        .expect("some action scored");
    applied.points += 5;
    assert!(matches!(GameLog::replay(&events), Err(ReplayError::Mismatch { .. })));
}

#[test]
fn given_a_log_cut_short_or_out_of_order_then_replay_fails() {
    let (mut log, events) = given_game(straight2(), 4);
    let events = play_out(&mut log, events, 4);
    let cut = &events[..events.len() - 1];
    assert!(GameLog::replay(cut).is_err(), "the GameEnded event is missing");
    let mut swapped = events.clone();
    swapped.swap(3, 4);
    assert!(matches!(GameLog::replay(&swapped), Err(ReplayError::Sequence { .. })));
    assert!(matches!(GameLog::replay(&events[1..]), Err(ReplayError::NoCreation)));
}

/// Found by the `replay` fuzz target: a log cut where the dealer owed an outcome (after the
/// creation, or after a draw) replayed into a game nobody could move.
#[test]
fn given_a_log_cut_before_a_deal_or_a_drawn_tile_then_replay_fails() {
    let (mut log, events) = given_game(straight2(), 12);
    let stops_early = |events: &[pb::Event]| {
        matches!(GameLog::replay(events), Err(ReplayError::Unexpected { what: "the log stops early", .. }))
    };
    assert!(stops_early(&events[..1]), "only GameCreated: the deal is owed");
    assert!(stops_early(&events[..2]), "the draw for the lead without the deal");
    let events = play_out(&mut log, events, 12);
    let drawn = events.iter().position(|e| matches!(e.payload, Some(Payload::TileDrawn(_)))).expect("someone drew");
    assert!(stops_early(&events[..drawn]), "a Draw action without its tile");
    assert!(GameLog::replay(&events[..=drawn]).is_ok(), "the same log with the tile replays");
}

#[test]
fn when_an_illegal_action_is_tried_then_nothing_is_recorded() {
    let (mut log, _) = given_game(straight2(), 6);
    let seat = log.to_move().expect("a seat leads");
    let other = Seat(1 - seat.0);
    let before = log.sequence();
    assert!(log.perform(other, clack_rules::game::Action::Straight(straight::Action::Pass), 0).is_err());
    assert_eq!(log.sequence(), before);
}

#[test]
fn when_a_seat_resigns_then_the_game_ends_and_the_other_side_wins() {
    let (mut log, _) = given_game(straight2(), 8);
    let events = log.resign(Seat(0), 5).expect("resigns");
    let Some(Payload::GameEnded(ended)) = &events[1].payload else { panic!("GameEnded follows") };
    assert_eq!(ended.winners, vec![1]);
    assert_eq!(ended.reason, "resigned");
    assert_eq!(log.status(), Status::Finished);
    assert!(log.resign(Seat(1), 6).is_err());
}

#[test]
fn when_seats_are_claimed_then_the_game_becomes_active() {
    let (mut log, _) = given_game(straight2(), 1);
    let (seat, _) = log.join(None, "ada", 0).expect("open seat");
    assert_eq!(seat, Seat(0));
    assert!(log.join(Some(0), "bob", 0).is_err());
    assert!(log.join(Some(7), "bob", 0).is_err());
    log.join(None, "bob", 0).expect("second seat");
    assert_eq!(log.status(), Status::Active);
    assert!(log.join(None, "eve", 0).is_err());
}

#[test]
fn a_seat_sees_its_own_deal_and_only_counts_of_others() {
    let (_, events) = given_game(straight2(), 3);
    let dealt = |viewer| match redact(&events[2], viewer).payload {
        Some(Payload::Dealt(d)) => d,
        _ => panic!("a deal"),
    };
    let mine = dealt(Viewer::Seat(Seat(0)));
    assert_eq!(mine.hands[0].tiles.len(), 7);
    assert!(mine.hands[1].tiles.is_empty());
    assert_eq!(mine.hands[1].count, 7);
    let spectator = dealt(Viewer::Spectator);
    assert!(spectator.hands.iter().all(|h| h.tiles.is_empty() && h.count == 7));
    assert_eq!(dealt(Viewer::Everyone).hands[1].tiles.len(), 7);
    match redact(&events[0], Viewer::Seat(Seat(1))).payload {
        Some(Payload::GameCreated(c)) => assert_eq!(c.seed, None, "the seed would reveal every deal"),
        _ => panic!("creation"),
    }
}

#[test]
fn a_drawn_tile_is_seen_only_by_the_seat_that_drew_it() {
    let (mut log, events) = given_game(straight2(), 12);
    let events = play_out(&mut log, events, 12);
    let drawn = events.iter().find(|e| matches!(e.payload, Some(Payload::TileDrawn(_)))).expect("someone drew");
    let Some(Payload::TileDrawn(d)) = &drawn.payload else { unreachable!() };
    let drawer = Seat(d.seat as u8);
    let other = Seat(1 - drawer.0);
    let tile = |viewer| match redact(drawn, viewer).payload {
        Some(Payload::TileDrawn(d)) => d.tile,
        _ => None,
    };
    assert!(tile(Viewer::Seat(drawer)).is_some());
    assert_eq!(tile(Viewer::Seat(other)), None);
    assert_eq!(tile(Viewer::Spectator), None);
}

#[test]
fn json_lines_read_back_into_the_same_events() {
    let (mut log, events) = given_game(streets3(), 21);
    let events = play_out(&mut log, events, 21);
    for event in &events {
        let line = json::to_line(event);
        assert!(!line.contains('\n'));
        assert_eq!(&json::from_line(&line).expect("parses"), event);
    }
    let first = json::to_line(&events[0]);
    assert!(first.contains("\"gameCreated\""), "{first}");
    assert!(first.contains("GAME_KIND_STREETS"), "{first}");
}
