//! The dealer: where chance comes from when a game is played from a seed.
//!
//! The rules never roll dice themselves. Every shuffle and every draw is a *chance action* that
//! carries its outcome, so a log replays without a random generator and a test can deal any
//! position it likes. The dealer is the one place that turns a seed into those outcomes. It uses
//! ChaCha8 because its output is fixed by its specification: the same seed deals the same game on
//! every machine and in every later version of this crate.
//!
//! [`by_round`] is how a game is dealt from its seed, in `clack arena` and on the server alike:
//! each round's deal and the order of its boneyard come from the seed and the round's number,
//! so games with one seed see the same tiles in the same order whatever their seats do (the
//! duplicate deals of matches and the ladder), and a game rebuilt from its log deals on
//! exactly as it would have, with no generator's state kept anywhere.

use arrayvec::ArrayVec;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::game::{Chance, Game};
use crate::tile::{Tile, TileSet};
use crate::{straight, streets};

/// A seeded source of chance outcomes.
#[derive(Debug, Clone)]
pub struct Dealer {
    rng: ChaCha8Rng,
}

impl Dealer {
    pub fn from_seed(seed: u64) -> Dealer {
        Dealer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The dealer of stream `stream` of a seed: [`by_round`] gives each round its own (the
    /// round's number), tools that deal step by step give each step one. Each stream is its own,
    /// so what it deals depends on nothing dealt before, and no generator's state is kept.
    pub fn for_event(seed: u64, stream: u64) -> Dealer {
        // SplitMix64's increment spreads neighbouring stream numbers far apart.
        Dealer::from_seed(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }

    /// The tiles of `set` in a fresh random order.
    pub fn shuffle(&mut self, set: TileSet) -> ArrayVec<Tile, 91> {
        let mut tiles = ArrayVec::<Tile, 91>::new();
        // The same tiles in the same order as `set.iter()`: a set within the first 64 tiles
        // (double-six and double-nine) is walked on one 64-bit word, where walking the whole
        // 128-bit mask cost twice the instructions a tile.
        if set.bits() >> 64 == 0 {
            let mut bits = set.bits() as u64;
            while bits != 0 {
                tiles.push(Tile::from_bit(bits.trailing_zeros()));
                bits &= bits - 1;
            }
        } else {
            tiles.extend(set.iter());
        }
        tiles.shuffle(&mut self.rng);
        tiles
    }

    /// One tile of `set`, each equally likely; `None` if the set is empty.
    pub fn pick(&mut self, set: TileSet) -> Option<Tile> {
        if set.is_empty() {
            return None;
        }
        set.nth(self.rng.random_range(0..set.len()))
    }

    /// A uniformly chosen index below `n` (for seating and for random players).
    pub fn index(&mut self, n: usize) -> usize {
        self.rng.random_range(0..n.max(1))
    }
}

/// The chance outcome `game` waits for, dealt from `seed` by round (`None` when a seat is to
/// move): the draw for the lead from the seed's stream 0, and round `r`'s deal from stream `r`,
/// a shuffle of every tile whose first tiles are the hands and whose rest is the boneyard in
/// the order it is drawn. A draw takes the first tile of that order still in the boneyard, so
/// it depends on the seed, the round and what is left, never on who draws or when. It is a
/// function of the seed and the game's state alone.
pub fn by_round(seed: u64, game: &Game) -> Option<Chance> {
    if game.drawing_seat().is_none() {
        return game.sample_chance(&mut Dealer::for_event(seed, u64::from(round_of(game))));
    }
    draw_order(seed, game).first().map(|&tile| game.draw_chance(tile))
}

/// The tiles of `game`'s boneyard in the order [`by_round`] draws them from `seed`: the round's
/// shuffle past the hands first, then (in a fork whose round was dealt otherwise) the hands'
/// part of it, each tile where it is still in the boneyard.
pub fn draw_order(seed: u64, game: &Game) -> Vec<Tile> {
    let (set, dealt) = match game {
        Game::Straight(g) => (straight::SET, usize::from(g.options().players) * straight::HAND_SIZE),
        Game::Streets(g) => (g.options().set.tiles(), usize::from(g.options().players) * streets::HAND_SIZE),
    };
    let order = Dealer::for_event(seed, u64::from(round_of(game))).shuffle(set);
    let (hands, boneyard_order) = order.split_at(dealt.min(order.len()));
    let boneyard = game.boneyard();
    boneyard_order.iter().chain(hands).copied().filter(|&tile| boneyard.contains(tile)).collect()
}

/// The round whose stream deals `game`'s next chance: 0 for the draw for the lead, the round
/// about to be dealt for a deal, else the round under way (Streets and Avenues has one).
fn round_of(game: &Game) -> u32 {
    match game {
        Game::Straight(g) => match g.to_move() {
            straight::ToMove::Chance { kind: straight::ChanceKind::LeadDraw } => 0,
            straight::ToMove::Chance { kind: straight::ChanceKind::Deal } => g.round() + 1,
            _ => g.round(),
        },
        Game::Streets(_) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::by_round;
    use crate::game::{Game, Options, Step, Turn};
    use crate::{straight, streets};

    /// Plays a game dealt by round from `seed`, each seat taking its `pick`-th legal action
    /// (modulo their number); returns every chance outcome, each with the round it came in.
    fn chances(options: Options, seed: u64, pick: usize) -> Vec<(u32, Step)> {
        let mut game = Game::new(options).expect("valid options");
        let mut seen = Vec::new();
        for _ in 0..10_000 {
            match game.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    let chance = by_round(seed, &game).expect("a chance outcome");
                    game.apply_chance(chance.clone()).expect("it fits");
                    let round = match &game {
                        Game::Straight(g) => g.round(),
                        Game::Streets(_) => 1,
                    };
                    seen.push((round, Step::Chance(chance)));
                }
                Turn::Seat { seat } => {
                    let legal = game.legal_actions();
                    game.apply(seat, legal[pick % legal.len()]).expect("legal");
                }
            }
        }
        seen
    }

    /// What two games dealt from one seed share, however differently they are played: per
    /// round, its deal and the tiles drawn from its boneyard as far as both drew.
    fn assert_dealt_alike(a: &[(u32, Step)], b: &[(u32, Step)]) -> usize {
        let rounds = a.last().map_or(0, |l| l.0).min(b.last().map_or(0, |l| l.0));
        let mut compared = 0;
        for round in 0..=rounds {
            let of = |steps: &[(u32, Step)]| -> Vec<Step> {
                steps.iter().filter(|(r, _)| *r == round).map(|(_, s)| s.clone()).collect()
            };
            let (x, y) = (of(a), of(b));
            let both = x.len().min(y.len());
            assert_eq!(x[..both], y[..both], "round {round}");
            compared += both;
        }
        compared
    }

    #[test]
    fn games_of_one_seed_are_dealt_and_draw_alike_however_they_are_played() {
        let straight = Options::Straight(straight::Options { players: 2, target: 150, ..Default::default() });
        let streets = Options::Streets(streets::Options { players: 3, ..Default::default() });
        for (options, seed) in [(straight, 5), (straight, 6), (streets, 5)] {
            let first = chances(options, seed, 0);
            let other = chances(options, seed, 1);
            assert_ne!(first.len(), 0);
            assert!(assert_dealt_alike(&first, &other) > 3, "{options:?}, seed {seed}");
            assert_eq!(first, chances(options, seed, 0), "the same play deals the same");
        }
    }

    #[test]
    fn a_round_dealt_from_another_seed_still_draws_to_the_end() {
        // As a fork's round may be: dealt from elsewhere, its draws from this game's seed, whose
        // order for the round has tiles of the boneyard among its hands' part.
        let options = Options::Straight(straight::Options { players: 2, target: 100, ..Default::default() });
        let mut draws = 0;
        for elsewhere in 2..12 {
            let mut game = Game::new(options).expect("valid options");
            for _ in 0..10_000 {
                match game.turn() {
                    Turn::Over => break,
                    Turn::Chance => {
                        let first_deal = matches!(&game, Game::Straight(g) if g.round() == 0);
                        draws += usize::from(game.drawing_seat().is_some());
                        let chance = by_round(if first_deal { elsewhere } else { 1 }, &game).expect("an outcome");
                        game.apply_chance(chance).expect("it fits");
                    }
                    Turn::Seat { seat } => {
                        let legal = game.legal_actions();
                        game.apply(seat, legal[0]).expect("legal");
                    }
                }
            }
            assert!(game.is_over(), "played to the end from seed {elsewhere}");
        }
        assert!(draws > 0);
    }
}
