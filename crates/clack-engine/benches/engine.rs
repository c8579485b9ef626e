//! Engine benchmarks: one decision of `engine:default` in positions of both games (team
//! Straight included, where the default level grows an information-set tree), and the
//! review of a whole 2-player Straight Dominoes game at the default level. Run with
//! `cargo bench -p clack-engine`.

use std::hint::black_box;

use clack_engine::player::{self, Level};
use clack_engine::record::Step;
use clack_rules::game::{Game, Options};
use clack_rules::{straight, streets};
use criterion::{Criterion, criterion_group, criterion_main};

// The games the engine's tests play, played the same way here.
#[path = "../tests/support/mod.rs"]
mod support;

/// Positions with a real choice, `plies` seat actions into a game.
fn positions(options: Options, plies: usize) -> Vec<Vec<Step>> {
    (0..5)
        .map(|seed| {
            let mut seen = 0;
            support::play_until(options, seed, |game, _| {
                seen += 1;
                seen > plies + seed as usize && game.legal_actions().len() > 1
            })
        })
        .collect()
}

fn decisions(c: &mut Criterion) {
    let straight = Options::Straight(straight::Options { players: 2, ..straight::Options::default() });
    let teams = Options::Straight(straight::Options { players: 4, teams: true, ..straight::Options::default() });
    let streets = Options::Streets(streets::Options { players: 3, ..streets::Options::default() });
    let mut group = c.benchmark_group("engine/default_decision");
    group.sample_size(20);
    for (name, options, plies) in
        [("straight_2p", straight, 4), ("straight_4p_teams", teams, 14), ("streets_3p_d9", streets, 20)]
    {
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
    let steps = support::play_until(options, 3, |_, _| false);
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
