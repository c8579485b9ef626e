//! Rules benchmarks: full random rounds and games with legal-action generation at every step,
//! and legal-action generation alone. Run with `cargo bench -p clack-rules`.
//!
//! The `_fast_deal` variants deal and draw with SplitMix64 instead of the game's ChaCha8
//! [`Dealer`], as a Monte Carlo engine dealing its own playouts would; the other benches are kept
//! as they were so that figures from before and after a change compare.

use std::hint::black_box;

use arrayvec::ArrayVec;
use clack_rules::straight::Chance;
use clack_rules::straight::{self, ChanceKind, ToMove};
use clack_rules::streets;
use clack_rules::{Dealer, Seat, Tile, TileSet};
use criterion::{Criterion, criterion_group, criterion_main};

/// How a random player picks among its legal actions.
trait Pick {
    fn pick(&mut self, n: usize) -> usize;
}

/// Picks with the game's own dealer (ChaCha8), as the server's random bot does.
impl Pick for Dealer {
    fn pick(&mut self, n: usize) -> usize {
        self.index(n)
    }
}

/// Picks with SplitMix64 and a multiply-shift reduction: what a playout engine (a Monte Carlo
/// bot, say) would use, so that the figure measures the rules rather than the generator. The
/// deal and the draws still come from the dealer.
struct SplitMix(u64);

impl Pick for SplitMix {
    fn pick(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        ((u128::from(z) * n as u128) >> 64) as usize
    }
}

/// The tiles of `set` in a random order, shuffled (Fisher–Yates) with SplitMix64: the deal of a
/// playout engine that does not need the dealer's reproducible stream.
fn fast_shuffle(set: TileSet, rng: &mut SplitMix) -> ArrayVec<Tile, 91> {
    let mut tiles: ArrayVec<Tile, 91> = set.iter().collect();
    for i in (1..tiles.len()).rev() {
        tiles.swap(i, rng.pick(i + 1));
    }
    tiles
}

/// One tile of `set`, each equally likely, drawn with SplitMix64.
fn fast_pick(set: TileSet, rng: &mut SplitMix) -> Tile {
    set.nth(rng.pick(set.len())).expect("a tile to draw")
}

/// Where a random round's chance outcomes come from.
trait StraightChance {
    fn chance(&mut self, state: &straight::State) -> Chance;
}

impl StraightChance for Dealer {
    fn chance(&mut self, state: &straight::State) -> Chance {
        state.sample_chance(self).expect("chance")
    }
}

impl StraightChance for SplitMix {
    fn chance(&mut self, state: &straight::State) -> Chance {
        match state.to_move() {
            ToMove::Chance { kind: ChanceKind::Deal } => {
                let tiles = fast_shuffle(TileSet::full(6), self);
                let mut hands = [TileSet::EMPTY; straight::MAX_PLAYERS];
                let players = usize::from(state.options().players);
                for (hand, chunk) in hands.iter_mut().zip(tiles.chunks(straight::HAND_SIZE)).take(players) {
                    *hand = chunk.iter().copied().collect();
                }
                Chance::Deal { hands }
            }
            ToMove::Chance { kind: ChanceKind::Draw { .. } } => {
                Chance::Draw { tile: fast_pick(state.boneyard(), self) }
            }
            _ => state.sample_chance(&mut Dealer::from_seed(0)).expect("chance"),
        }
    }
}

/// Deals and plays one round of Straight Dominoes to its end with random players; returns the
/// number of seat actions.
fn straight_round(start: &straight::State, dealer: &mut impl StraightChance, players: &mut impl Pick) -> usize {
    let mut state = start.clone();
    let mut actions = 0;
    loop {
        match state.to_move() {
            ToMove::Seat { seat } => {
                let legal = state.legal_actions();
                let action = legal[players.pick(legal.len())];
                let _ = state.apply(seat, action);
                actions += 1;
            }
            ToMove::Chance { kind: ChanceKind::Deal } if actions > 0 => return actions,
            ToMove::Chance { .. } => {
                let chance = dealer.chance(&state);
                let _ = state.apply_chance(chance);
            }
            ToMove::Over => return actions,
        }
    }
}

/// A 4-player game after the draw for the lead, waiting for the first deal.
fn straight_before_deal() -> straight::State {
    let mut state = straight::State::new(straight::Options::default()).expect("valid");
    let mut dealer = Dealer::from_seed(1);
    let draw = state.sample_chance(&mut dealer).expect("lead draw");
    state.apply_chance(draw).expect("fits");
    state
}

fn straight_benches(c: &mut Criterion) {
    let start = straight_before_deal();
    let mut dealer = Dealer::from_seed(7);
    let mut players = SplitMix(7);
    let steps: usize = (0..1000).map(|_| straight_round(&start, &mut dealer, &mut players)).sum();
    eprintln!("mean seat actions per 4-player round: {:.1}", steps as f64 / 1000.0);
    c.bench_function("straight/random_round_4p", |b| {
        b.iter(|| black_box(straight_round(&start, &mut dealer, &mut players)))
    });
    c.bench_function("straight/deal_only", |b| {
        b.iter(|| {
            let mut state = start.clone();
            let chance = state.sample_chance(&mut dealer).expect("deal");
            black_box(state.apply_chance(chance).is_ok())
        })
    });
    let mut fast_dealer = SplitMix(9);
    c.bench_function("straight/random_round_4p_fast_deal", |b| {
        b.iter(|| black_box(straight_round(&start, &mut fast_dealer, &mut players)))
    });
    let mut chacha_players = Dealer::from_seed(8);
    c.bench_function("straight/random_round_4p_chacha_players", |b| {
        b.iter(|| black_box(straight_round(&start, &mut dealer, &mut chacha_players)))
    });

    // A mid-round position: three plays in.
    let mut state = start.clone();
    let chance = state.sample_chance(&mut dealer).expect("deal");
    state.apply_chance(chance).expect("fits");
    for _ in 0..3 {
        if let ToMove::Seat { seat } = state.to_move() {
            let action = state.legal_actions()[0];
            state.apply(seat, action).expect("legal");
        }
    }
    c.bench_function("straight/legal_actions", |b| b.iter(|| black_box(black_box(&state).legal_actions())));
}

/// Where a random game of Streets and Avenues takes its chance outcomes and its players' picks
/// from: the dealer for everything, or SplitMix64 for everything.
trait StreetsChance: Pick {
    fn chance(&mut self, state: &streets::State) -> streets::Chance;
}

impl StreetsChance for Dealer {
    fn chance(&mut self, state: &streets::State) -> streets::Chance {
        state.sample_chance(self).expect("chance")
    }
}

impl StreetsChance for SplitMix {
    fn chance(&mut self, state: &streets::State) -> streets::Chance {
        match state.to_move() {
            streets::ToMove::Chance { kind: streets::ChanceKind::Deal } => {
                let options = state.options();
                let tiles = fast_shuffle(options.set.tiles(), self);
                let players = usize::from(options.players);
                let hands =
                    tiles.chunks(streets::HAND_SIZE).take(players).map(|c| c.iter().copied().collect()).collect();
                streets::Chance::Deal { hands, first: Seat(self.pick(players) as u8) }
            }
            _ => streets::Chance::Draw { tile: fast_pick(state.boneyard(), self) },
        }
    }
}

/// Deals and plays a whole game of Streets and Avenues with random players; returns the number
/// of seat actions.
fn streets_game(options: streets::Options, dealer: &mut impl StreetsChance) -> usize {
    let mut state = streets::State::new(options).expect("valid");
    let mut actions = 0;
    loop {
        match state.to_move() {
            streets::ToMove::Seat { seat } => {
                let legal = state.legal_actions();
                let action = legal[dealer.pick(legal.len())];
                let _ = state.apply(seat, action);
                actions += 1;
            }
            streets::ToMove::Chance { .. } => {
                let chance = dealer.chance(&state);
                let _ = state.apply_chance(chance);
            }
            streets::ToMove::Over => return actions,
        }
    }
}

fn streets_benches(c: &mut Criterion) {
    let options = streets::Options { players: 3, ..streets::Options::default() };
    let mut dealer = Dealer::from_seed(11);
    let steps: usize = (0..200).map(|_| streets_game(options, &mut dealer)).sum();
    eprintln!("mean seat actions per 3-player double-nine game: {:.1}", steps as f64 / 200.0);
    c.bench_function("streets/random_game_3p_double_nine", |b| {
        b.iter(|| black_box(streets_game(options, &mut dealer)))
    });
    let mut fast_dealer = SplitMix(12);
    c.bench_function("streets/random_game_3p_double_nine_fast_deal", |b| {
        b.iter(|| black_box(streets_game(options, &mut fast_dealer)))
    });

    // A position halfway through a game.
    let mut state = streets::State::new(options).expect("valid");
    let mut placed = 0;
    while placed < 25 || !matches!(state.to_move(), streets::ToMove::Seat { .. }) {
        match state.to_move() {
            streets::ToMove::Seat { seat } => {
                let legal = state.legal_actions();
                let action = legal[dealer.index(legal.len())];
                placed += usize::from(matches!(action, streets::Action::Place { .. }));
                let _ = state.apply(seat, action);
            }
            streets::ToMove::Chance { .. } => {
                let chance = state.sample_chance(&mut dealer).expect("chance");
                let _ = state.apply_chance(chance);
            }
            streets::ToMove::Over => break,
        }
    }
    c.bench_function("streets/legal_actions_midgame", |b| b.iter(|| black_box(black_box(&state).legal_actions())));
}

criterion_group!(benches, straight_benches, streets_benches);
criterion_main!(benches);
