//! Playout benchmarks: a random 4-player Straight Dominoes round on the engine's lean state,
//! measured as the rules' `straight/random_round_4p` is (deal included, legal actions listed at
//! every step, a random player choosing with SplitMix64), and the greedy round the engine's
//! playouts really play, on the lean state and, for comparison, on the rules' state as the engine
//! played it before. Run with `cargo bench -p clack-engine --bench playout`.

use std::hint::black_box;

use clack_engine::lean::{self, Phase, Straight};
use clack_engine::rng::Rng;
use clack_rules::straight::{self, Chance, ChanceKind, ToMove};
use clack_rules::{Dealer, TileSet};
use criterion::{Criterion, criterion_group, criterion_main};

/// A 4-player game after the draw for the lead (the rules bench's), waiting for the first deal.
fn before_deal() -> straight::State {
    let mut state = straight::State::new(straight::Options::default()).expect("valid");
    let mut dealer = Dealer::from_seed(1);
    let draw = state.sample_chance(&mut dealer).expect("lead draw");
    state.apply_chance(draw).expect("fits");
    state
}

/// Deals and plays one round with random players on the lean state; returns the seat actions.
fn random_round(start: &Straight, rng: &mut Rng, buffer: &mut lean::Buffer) -> usize {
    let mut state = start.clone();
    state.deal(rng);
    let mut actions = 0;
    loop {
        match state.phase() {
            Phase::Turn(_) => {
                let len = state.legal_actions_into(buffer);
                state.apply(buffer[rng.below(len)]);
                actions += 1;
            }
            Phase::Drawing(_) => {
                state.draw(rng);
            }
            Phase::Deal | Phase::Over => return actions,
        }
    }
}

/// Deals and plays one round by the engine's greedy policy on the lean state.
fn greedy_round(start: &Straight, rng: &mut Rng, buffer: &mut lean::Buffer) -> u32 {
    let mut state = start.clone();
    state.deal(rng);
    state.play_round(lean::Policy::Greedy, rng, buffer);
    state.scores().iter().sum()
}

/// The same greedy round on the rules' state, dealt and drawn as the engine dealt them.
fn rules_greedy_round(start: &straight::State, rng: &mut Rng) -> u32 {
    let mut state = start.clone();
    let mut tiles: Vec<_> = TileSet::full(6).iter().collect();
    rng.shuffle(&mut tiles);
    let mut hands = [TileSet::EMPTY; straight::MAX_PLAYERS];
    for (hand, chunk) in hands.iter_mut().zip(tiles.chunks(straight::HAND_SIZE)) {
        *hand = chunk.iter().copied().collect();
    }
    let _ = state.apply_chance(Chance::Deal { hands });
    loop {
        match state.to_move() {
            ToMove::Seat { seat } => {
                let action = lean::rules_greedy(&state, seat, rng);
                let _ = state.apply(seat, action);
            }
            ToMove::Chance { kind: ChanceKind::Draw { .. } } => {
                let Some(tile) = rng.pick(state.boneyard()) else { break };
                let _ = state.apply_chance(Chance::Draw { tile });
            }
            ToMove::Chance { .. } | ToMove::Over => break,
        }
    }
    state.scores().iter().sum()
}

fn playouts(c: &mut Criterion) {
    let rules_start = before_deal();
    let start = Straight::from_state(&rules_start);
    let mut buffer = lean::buffer();
    let mut rng = Rng::new(7);
    let steps: usize = (0..1000).map(|_| random_round(&start, &mut rng, &mut buffer)).sum();
    eprintln!("mean seat actions per 4-player round: {:.1}", steps as f64 / 1000.0);
    c.bench_function("lean/straight_random_round_4p", |b| {
        b.iter(|| black_box(random_round(&start, &mut rng, &mut buffer)))
    });
    c.bench_function("lean/straight_greedy_round_4p", |b| {
        b.iter(|| black_box(greedy_round(&start, &mut rng, &mut buffer)))
    });
    c.bench_function("rules/straight_greedy_round_4p", |b| {
        b.iter(|| black_box(rules_greedy_round(&rules_start, &mut rng)))
    });
}

criterion_group!(benches, playouts);
criterion_main!(benches);
