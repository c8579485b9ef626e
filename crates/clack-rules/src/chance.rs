//! The dealer: where chance comes from when a game is played from a seed.
//!
//! The rules never roll dice themselves. Every shuffle and every draw is a *chance action* that
//! carries its outcome, so a log replays without a random generator and a test can deal any
//! position it likes. The dealer is the one place that turns a seed into those outcomes. It uses
//! ChaCha8 because its output is fixed by its specification: the same seed deals the same game on
//! every machine and in every later version of this crate.

use arrayvec::ArrayVec;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::tile::{Tile, TileSet};

/// A seeded source of chance outcomes.
#[derive(Debug, Clone)]
pub struct Dealer {
    rng: ChaCha8Rng,
}

impl Dealer {
    pub fn from_seed(seed: u64) -> Dealer {
        Dealer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// The dealer for the chance event with this sequence number of a game with this seed. Each
    /// event gets its own stream, so a game rebuilt from its log (or resumed after a restart)
    /// deals on exactly as it would have, without keeping a generator's state anywhere.
    pub fn for_event(seed: u64, sequence: u64) -> Dealer {
        // SplitMix64's increment spreads neighbouring sequence numbers far apart.
        Dealer::from_seed(seed ^ sequence.wrapping_mul(0x9E37_79B9_7F4A_7C15))
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
