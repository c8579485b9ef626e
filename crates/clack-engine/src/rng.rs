//! The engine's random numbers: SplitMix64, seeded explicitly.
//!
//! The engine needs millions of cheap draws (worlds, playout moves), and a result that is the same
//! on every machine for the same seed. SplitMix64 is a few arithmetic operations per draw, passes
//! BigCrush, and is fully specified, so it serves both. Games themselves are dealt by the rules'
//! ChaCha8 `Dealer`; nothing here decides a real game's chance.

use clack_rules::{Tile, TileSet};

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator for one part of a computation (a world, a decision), independent of its
    /// neighbours: the seed is mixed with the part's number.
    pub fn derive(seed: u64, part: u64) -> Rng {
        let mut mixer = Rng(seed ^ part.wrapping_mul(0xD1B5_4A32_D192_ED03));
        Rng(mixer.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0), by multiply-and-shift: the bias is below 2⁻⁵⁸ for
    /// the small `n` used here.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One tile of `set`, each equally likely.
    pub fn pick(&mut self, set: TileSet) -> Option<Tile> {
        set.nth(self.below(set.len()))
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}
