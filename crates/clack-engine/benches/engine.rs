//! Engine benchmarks: one decision of `engine:default` in positions of both games, and the
//! review of a whole 2-player Straight Dominoes game at the default level. Run with
//! `cargo bench -p clack-engine`.

use std::hint::black_box;

use clack_engine::player::{self, Level};
use clack_engine::record::Step;
use clack_rules::game::{Game, Options, Turn};
use clack_rules::{Dealer, straight, streets};
use criterion::{Criterion, criterion_group, criterion_main};

/// A game played at random from `seed`, its steps kept; `stop` is asked before each seat's
/// action.
fn play(options: Options, seed: u64, mut stop: impl FnMut(&Game) -> bool) -> Vec<Step> {
    let mut game = Game::new(options).expect("valid");
    let mut dealer = Dealer::from_seed(seed);
    let mut steps = Vec::new();
    loop {
        match game.turn() {
            Turn::Over => return steps,
            Turn::Chance => {
                let chance = game.sample_chance(&mut dealer).expect("chance");
                game.apply_chance(chance.clone()).expect("fits");
                steps.push(Step::Chance(chance));
            }
            Turn::Seat { seat } => {
                if stop(&game) {
                    return steps;
                }
                let legal = game.legal_actions();
                let action = legal[dealer.index(legal.len())];
                game.apply(seat, action).expect("legal");
                steps.push(Step::Act(seat, action));
            }
        }
    }
}

/// Positions with a real choice, `plies` seat actions into a game.
fn positions(options: Options, plies: usize) -> Vec<Vec<Step>> {
    (0..5)
        .map(|seed| {
            let mut seen = 0;
            play(options, seed, |game| {
                seen += 1;
                seen > plies + seed as usize && game.legal_actions().len() > 1
            })
        })
        .collect()
}

fn decisions(c: &mut Criterion) {
    let straight = Options::Straight(straight::Options { players: 2, ..straight::Options::default() });
    let streets = Options::Streets(streets::Options { players: 3, ..streets::Options::default() });
    let mut group = c.benchmark_group("engine/default_decision");
    group.sample_size(20);
    for (name, options, plies) in [("straight_2p", straight, 4), ("streets_3p_d9", streets, 20)] {
        for (i, steps) in positions(options, plies).into_iter().enumerate() {
            group.bench_function(format!("{name}/{i}"), |b| {
                b.iter(|| black_box(player::decide(options, &steps, Level::Default, 7).expect("decides")))
            });
        }
    }
    group.finish();
}

fn review(c: &mut Criterion) {
    let options = Options::Straight(straight::Options { players: 2, ..straight::Options::default() });
    let steps = play(options, 3, |_| false);
    let decisions = {
        let mut game = Game::new(options).expect("valid");
        let mut count = 0;
        for step in &steps {
            if let Step::Act(..) = step {
                count += usize::from(game.legal_actions().len() > 1);
            }
            let _ = clack_engine::record::apply(&mut game, step, 0);
        }
        count
    };
    eprintln!("the reviewed game: {} steps, {decisions} decisions with a choice", steps.len());
    let mut group = c.benchmark_group("engine/review_default");
    group.sample_size(10);
    group.bench_function("straight_2p_game", |b| {
        b.iter(|| black_box(clack_engine::review(options, &steps, Level::Default, 1, |_, _| {}).expect("reviews")))
    });
    group.finish();
}

criterion_group!(benches, decisions, review);
criterion_main!(benches);
