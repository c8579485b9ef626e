//! Games played to build records for the engine's tests: chance from the rules' dealer, seats
//! choosing at random, every step kept.

#![allow(dead_code)]

use clack_engine::Step;
use clack_rules::game::{Game, Options, Turn};
use clack_rules::{Dealer, Seat, straight, streets};

/// Plays a game with `options` from `seed`, calling `stop` before each seat's action; returns the
/// steps when `stop` says so or the game ends.
pub(crate) fn play_until(options: Options, seed: u64, mut stop: impl FnMut(&Game, &[Step]) -> bool) -> Vec<Step> {
    let mut game = Game::new(options).expect("valid options");
    let mut dealer = Dealer::from_seed(seed);
    let mut steps = Vec::new();
    loop {
        match game.turn() {
            Turn::Over => return steps,
            Turn::Chance => {
                let chance = game.sample_chance(&mut dealer).expect("a chance is awaited");
                game.apply_chance(chance.clone()).expect("sampled chance fits");
                steps.push(Step::Chance(chance));
            }
            Turn::Seat { seat } => {
                if stop(&game, &steps) {
                    return steps;
                }
                let legal = game.legal_actions();
                let action = legal[dealer.index(legal.len())];
                game.apply(seat, action).expect("legal action");
                steps.push(Step::Act(seat, action));
            }
        }
    }
}

pub(crate) fn straight(players: u8, teams: bool) -> Options {
    Options::Straight(straight::Options { players, teams, ..straight::Options::default() })
}

pub(crate) fn streets(players: u8) -> Options {
    Options::Streets(streets::Options { players, ..streets::Options::default() })
}

/// The seat to move after `steps`.
pub(crate) fn mover(options: Options, steps: &[Step]) -> Seat {
    match clack_engine::record::replay(options, steps).expect("replays").turn() {
        Turn::Seat { seat } => seat,
        other => panic!("no seat to move: {other:?}"),
    }
}
