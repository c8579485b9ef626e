//! `arena::play_game`, the one game loop of a match: the record it hands back replays to the
//! game it reported, its games follow the match's duplicate deals, and a match played through it
//! by hand stands exactly as one played by `Match::play_next`.

use clack_bots::arena::{Entrant, Match, Player, play_game};
use clack_bots::{Bot, Limits, random_bot, sandbox};
use clack_engine::Level;
use clack_rules::game::{Game, Options, Step, Turn};
use clack_rules::{Kind, Seat, straight};

fn options() -> Options {
    Options::Straight(straight::Options { players: 2, target: 60, ..straight::Options::default() })
}

fn entrants(engine: &rhai::Engine, limits: &Limits) -> Vec<Entrant> {
    let random = Bot::compile(engine, limits, random_bot(Kind::Straight)).expect("the random bot compiles");
    vec![
        Entrant { label: "random".into(), player: Player::Script(random), rating: 1500.0 },
        Entrant { label: "engine:fast".into(), player: Player::Engine(Level::Fast), rating: 1500.0 },
    ]
}

/// The game a record replays to.
fn replayed(steps: &[Step]) -> Game {
    let mut game = Game::new(options()).expect("options");
    for step in steps {
        match step {
            Step::Chance(chance) => game.apply_chance(chance.clone()).expect("the chance applies"),
            Step::Act(seat, action) => {
                game.apply(*seat, *action).expect("the action is legal");
            }
        }
    }
    game
}

#[test]
fn the_record_replays_to_the_game_reported() {
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let mut played = Match::new(options(), entrants(&engine, &limits), 7);
    for _ in 0..2 {
        let next = played.next_game();
        let (result, steps) = play_game((&engine, &limits), options(), played.entrants(), &next);
        let game = replayed(&steps);
        assert!(matches!(game.turn(), Turn::Over), "the record runs to the end of the game");
        assert_eq!(game.winners(), result.winners);
        let scores: Vec<f64> = game.scores().iter().map(|&s| s as f64).collect();
        assert_eq!(scores, result.scores);
        let acts = steps.iter().filter(|s| matches!(s, Step::Act(..))).count() as u64;
        assert_eq!(acts, result.decisions.iter().sum::<u64>(), "every decision is in the record");
        assert_eq!(result.faults, vec![0, 0]);
        played.record(&next, &result);
    }
}

#[test]
fn the_games_of_one_rotation_share_their_first_deal() {
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let mut played = Match::new(options(), entrants(&engine, &limits), 3);
    let mut records = Vec::new();
    for _ in 0..2 {
        let next = played.next_game();
        let (result, steps) = play_game((&engine, &limits), options(), played.entrants(), &next);
        played.record(&next, &result);
        records.push((next, steps));
    }
    let [(first, one), (second, other)] = records.as_slice() else { unreachable!() };
    assert_eq!(first.seed, second.seed, "one deal for the rotation");
    assert_eq!((first.seats.clone(), second.seats.clone()), (vec![0, 1], vec![1, 0]), "seats rotated");
    assert!(matches!(one[0], Step::Chance(_)));
    assert_eq!(one[0], other[0], "the same first deal");
    assert!(one.iter().any(|s| matches!(s, Step::Act(Seat(1), _))));
}

#[test]
fn a_match_played_by_hand_stands_as_one_played_by_play_next() {
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    let mut by_hand = Match::new(options(), entrants(&engine, &limits), 11);
    let mut by_match = Match::new(options(), entrants(&engine, &limits), 11);
    for _ in 0..4 {
        let next = by_hand.next_game();
        let (result, _) = play_game((&engine, &limits), options(), by_hand.entrants(), &next);
        by_hand.record(&next, &result);
        by_match.play_next(&engine, &limits);
    }
    let strip = |m: &Match| {
        let mut standings = m.standings();
        for s in &mut standings {
            // Decision times are measured, so they differ between the two.
            s.mean_decision = std::time::Duration::ZERO;
            s.median_decision = std::time::Duration::ZERO;
            s.slowest_decision = std::time::Duration::ZERO;
        }
        standings
    };
    assert_eq!(strip(&by_hand), strip(&by_match));
}
