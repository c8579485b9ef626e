//! One decision of each greedy example bot, beside the same choice made in native Rust: the
//! bot's view alone (`build_view`), the call alone on a view already built (`rhai_choose`), and
//! the whole decision a server makes, view included (`decide`). Run with
//! `cargo bench -p clack-bots`.

use std::hint::black_box;

use clack_bots::{Bot, Limits, sandbox, view};
use clack_rules::game::{Game, Options, Turn};
use clack_rules::{Dealer, Kind, Seat};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

/// The allocator of the `clack` binary, where every decision runs (the server and `clack arena`):
/// a view is a tree of small allocations, so the allocator is part of a decision's cost.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A position some moves into a game, with a seat to move and several legal actions.
fn position(kind: Kind, moves: usize) -> (Game, Seat) {
    let mut game = Game::new(Options::default_for(kind)).expect("valid");
    let mut dealer = Dealer::from_seed(5);
    let mut played = 0;
    loop {
        match game.turn() {
            Turn::Chance => {
                let chance = game.sample_chance(&mut dealer).expect("chance");
                game.apply_chance(chance).expect("fits");
            }
            Turn::Seat { seat } if played >= moves && game.legal_actions().len() > 2 => return (game, seat),
            Turn::Seat { seat } => {
                let legal = game.legal_actions();
                game.apply(seat, legal[dealer.index(legal.len())]).expect("legal");
                played += 1;
            }
            Turn::Over => panic!("ended"),
        }
    }
}

/// The greedy bot in Rust: the index of the legal action that scores the most now.
fn greedy_native(points: &[u32]) -> usize {
    let mut best = 0;
    for (i, &p) in points.iter().enumerate() {
        if p > points[best] {
            best = i;
        }
    }
    best
}

fn benches(c: &mut Criterion) {
    let limits = Limits::default();
    let engine = sandbox::engine(&limits);
    for (kind, file, source) in [
        (Kind::Straight, "straight-greedy", include_str!("../../../bots/straight-greedy.rhai")),
        (Kind::Streets, "streets-greedy", include_str!("../../../bots/streets-greedy.rhai")),
    ] {
        let (game, seat) = position(kind, 8);
        let bot = Bot::compile(&engine, &limits, source).expect("compiles");
        let legal = game.legal_actions();
        let built = view::view(&game, seat, &[]);
        let points: Vec<u32> = legal
            .iter()
            .map(|&a| {
                let mut probe = game.clone();
                probe.apply(seat, a).map_or(0, |e| e.scored())
            })
            .collect();
        let rhai_choice = bot.decide_on(&engine, &limits, built.clone(), legal.len()).choice.expect("chooses");
        assert_eq!(rhai_choice, greedy_native(&points), "the Rhai and Rust bots agree");
        c.bench_function(&format!("{file}/rhai_choose ({} legal)", legal.len()), |b| {
            // The view is cloned outside the timed part: a real decision moves its view in.
            b.iter_batched(
                || built.clone(),
                |view| black_box(bot.decide_on(&engine, &limits, view, legal.len())),
                BatchSize::SmallInput,
            )
        });
        let trivial = Bot::compile(&engine, &limits, "fn choose(view) { 0 }").expect("compiles");
        c.bench_function(&format!("{file}/rhai_call_overhead"), |b| {
            b.iter_batched(
                || built.clone(),
                |view| black_box(trivial.decide_on(&engine, &limits, view, legal.len())),
                BatchSize::SmallInput,
            )
        });
        c.bench_function(&format!("{file}/native_choose ({} legal)", legal.len()), |b| {
            b.iter(|| black_box(greedy_native(black_box(&points))))
        });
        c.bench_function(&format!("{file}/build_view"), |b| {
            b.iter(|| black_box(view::view(black_box(&game), seat, &[])))
        });
        c.bench_function(&format!("{file}/decide"), |b| {
            b.iter(|| black_box(bot.decide(&engine, &limits, black_box(&game), seat, &[])))
        });
    }
}

criterion_group!(decisions, benches);
criterion_main!(decisions);
