//! Forks, given/when/then: a finished game forked at every event and played out replays and
//! verifies from its own log alone; a fork of a fork records its chain; the embedded parent
//! events are redacted for each seat; a fork whose embedded events were altered is refused.

use clack_log::{GameLog, Viewer, redact};
use clack_proto::v1 as pb;
use clack_proto::v1::event::Payload;
use clack_rules::game::{Options, Turn};
use clack_rules::{Dealer, Seat, straight, streets};

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

fn finished(id: &str, options: Options, seed: u64) -> Vec<pb::Event> {
    let (mut log, events) = GameLog::create(id, options, Vec::new(), seed, 1_000).expect("valid game");
    play_out(&mut log, events, seed)
}

fn straight2() -> Options {
    Options::Straight(straight::Options { players: 2, target: 50, ..straight::Options::default() })
}

fn streets3() -> Options {
    Options::Streets(streets::Options { players: 3, ..streets::Options::default() })
}

fn created(events: &[pb::Event]) -> &pb::GameCreated {
    match events[0].payload.as_ref() {
        Some(Payload::GameCreated(created)) => created,
        other => panic!("the first event is {other:?}"),
    }
}

#[test]
fn given_a_finished_game_when_forked_at_every_event_and_played_out_then_every_fork_verifies() {
    for (options, seed) in [(straight2(), 11), (streets3(), 12)] {
        let parent = finished("parent", options, seed);
        let mut forked = 0;
        for n in 1..=parent.len() as u64 {
            // Where the parent had no move left (its end, or owed it), a fork is refused.
            let mut at = GameLog::begin(&parent[0]).expect("creation");
            for event in &parent[1..n as usize] {
                at.apply(event).expect("the parent replays");
            }
            let over = at.game().is_over() || at.ended().is_some();
            let fork = GameLog::fork("child", &parent, n, Vec::new(), seed + n, 5_000);
            let Ok((mut log, events)) = fork else {
                assert!(over, "the fork at {n} was refused: {fork:?}");
                continue;
            };
            assert!(!over, "the fork at {n} was made although the parent was over");
            assert_eq!(log.game().scores(), at.game().scores(), "the fork at {n} keeps the score");
            let events = play_out(&mut log, events, n);
            let replayed = GameLog::replay(&events).unwrap_or_else(|e| panic!("the fork at {n} does not replay: {e}"));
            assert_eq!(replayed.game(), log.game());
            assert!(replayed.ended().is_some());
            assert_eq!(replayed.fork_chain(), vec![("parent".to_owned(), n)]);
            assert!(events.iter().all(|e| e.game_id == "child"));
            forked += 1;
        }
        assert!(forked + 3 >= parent.len(), "only {forked} of {} events could be forked", parent.len());
        assert!(GameLog::fork("child", &parent, parent.len() as u64, Vec::new(), 1, 0).is_err());
        assert!(GameLog::fork("child", &parent, 0, Vec::new(), 1, 0).is_err());
    }
}

#[test]
fn given_a_fork_then_its_position_is_the_parents_and_chance_comes_from_its_own_seed() {
    let parent = finished("parent", straight2(), 21);
    // Event 3 is the first deal: the fork starts with the parent's hands.
    let (a, _) = GameLog::fork("a", &parent, 3, Vec::new(), 1, 0).expect("fork");
    let mut at = GameLog::begin(&parent[0]).expect("creation");
    for event in &parent[1..3] {
        at.apply(event).expect("replays");
    }
    assert_eq!(a.game(), at.game());
    // Event 1 is the creation only: the lead draw and the deal come from the fork's seed.
    let (b, b_events) = GameLog::fork("b", &parent, 1, Vec::new(), 7, 0).expect("fork");
    let (c, _) = GameLog::fork("c", &parent, 1, Vec::new(), 7, 0).expect("fork");
    let (d, _) = GameLog::fork("d", &parent, 1, Vec::new(), 8, 0).expect("fork");
    assert_eq!(b.game(), c.game(), "the same seed deals the same");
    assert_ne!(b.game(), d.game(), "another seed deals otherwise");
    assert_eq!(b_events.len(), 3, "GameCreated, the lead draw, the deal");
}

#[test]
fn given_a_fork_of_a_fork_then_it_records_the_chain_and_replays_alone() {
    let parent = finished("grand", streets3(), 31);
    let (mut one, events) = GameLog::fork("one", &parent, 10, Vec::new(), 2, 0).expect("fork");
    let one_events = play_out(&mut one, events, 3);
    let (mut two, events) = GameLog::fork("two", &one_events, 5, Vec::new(), 4, 0).expect("fork of a fork");
    let two_events = play_out(&mut two, events, 5);
    let replayed = GameLog::replay(&two_events).expect("replays without the parents");
    assert_eq!(replayed.fork_chain(), vec![("one".to_owned(), 5), ("grand".to_owned(), 10)]);
    let embedded = created(&two_events).fork.as_ref().expect("fork");
    assert_eq!(embedded.events.len(), 5);
    assert_eq!(created(&embedded.events).fork.as_ref().map(|f| f.sequence), Some(10));
}

#[test]
fn given_a_fork_when_its_embedded_events_are_altered_then_it_does_not_replay() {
    let parent = finished("parent", straight2(), 41);
    let (_, events) = GameLog::fork("child", &parent, 6, Vec::new(), 2, 0).expect("fork");
    let mut wrong_point = events.clone();
    let Some(Payload::GameCreated(created)) = wrong_point[0].payload.as_mut() else { panic!("creation") };
    created.fork.as_mut().expect("fork").sequence = 5;
    assert!(GameLog::replay(&wrong_point).is_err(), "the fork point must match the embedded events");
    let mut wrong_points = events.clone();
    let Some(Payload::GameCreated(created)) = wrong_points[0].payload.as_mut() else { panic!("creation") };
    let applied = created.fork.as_mut().expect("fork").events.iter_mut().find_map(|e| match e.payload.as_mut() {
        Some(Payload::ActionApplied(applied)) => Some(applied),
        _ => None,
    });
    applied.expect("an action before event 6").points += 1;
    assert!(GameLog::replay(&wrong_points).is_err(), "the embedded events are verified too");
    let mut other_options = events;
    let Some(Payload::GameCreated(created)) = other_options[0].payload.as_mut() else { panic!("creation") };
    let Some(pb::game_options::Rules::Straight(options)) = created.options.as_mut().and_then(|o| o.rules.as_mut())
    else {
        panic!("straight options")
    };
    options.target = Some(99);
    assert!(GameLog::replay(&other_options).is_err(), "a fork keeps its parent's options");
}

#[test]
fn given_a_fork_when_a_seat_watches_then_the_embedded_hands_of_other_seats_are_hidden() {
    let parent = finished("parent", streets3(), 51);
    let (_, events) = GameLog::fork("child", &parent, 4, Vec::new(), 2, 0).expect("fork");
    let seen = redact(&events[0], Viewer::Seat(Seat(1)));
    let fork = created(std::slice::from_ref(&seen)).fork.as_ref().expect("fork");
    assert_eq!(created(&fork.events).seed, None, "the parent's seed is hidden");
    assert_eq!(created(std::slice::from_ref(&seen)).seed, None);
    let dealt = fork.events.iter().find_map(|e| match &e.payload {
        Some(Payload::Dealt(dealt)) => Some(dealt),
        _ => None,
    });
    let dealt = dealt.expect("the parent's deal is embedded");
    for hand in &dealt.hands {
        assert_eq!(hand.tiles.is_empty(), hand.seat != 1, "seat 1 sees its own hand only");
        assert!(hand.count > 0);
    }
    let everyone = redact(&events[0], Viewer::Everyone);
    assert_eq!(everyone, events[0]);
}
