//! Tiles, tile sets and seats: the vocabulary both games share.
//!
//! A tile is stored as one byte, its *canonical index* `hi * (hi + 1) / 2 + lo`. That numbering
//! does not depend on the size of the set, and every set from double-zero up to double-*n* is a
//! prefix of it, so a whole set, a hand or a boneyard fits in one `u128` bit mask. Hands are
//! tested against "every tile showing 5" with one `and`, which is what keeps legal-action
//! generation in the tens of nanoseconds.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The highest number any supported set shows (double-twelve).
pub const MAX_PIPS: u8 = 12;

/// Number of tiles in the double-twelve set, the largest supported.
const MAX_TILES: usize = 91;

/// One domino, `lo-hi` with `lo <= hi`. Which way round it lies on a table is the business of
/// each game's layout, not of the tile.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

/// `HALVES[i]` is `(lo, hi)` of the tile with canonical index `i`.
const HALVES: [(u8, u8); MAX_TILES] = {
    let mut table = [(0u8, 0u8); MAX_TILES];
    let mut hi = 0u8;
    while hi <= MAX_PIPS {
        let mut lo = 0u8;
        while lo <= hi {
            table[(hi as usize * (hi as usize + 1)) / 2 + lo as usize] = (lo, hi);
            lo += 1;
        }
        hi += 1;
    }
    table
};

impl Tile {
    /// The tile showing `a` and `b`, in either order, or `None` past double-twelve.
    pub const fn new(a: u8, b: u8) -> Option<Tile> {
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        if hi > MAX_PIPS {
            return None;
        }
        Some(Tile(((hi as usize * (hi as usize + 1)) / 2 + lo as usize) as u8))
    }

    /// The tile with this canonical index.
    pub const fn from_index(index: u8) -> Option<Tile> {
        if (index as usize) < MAX_TILES { Some(Tile(index)) } else { None }
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn lo(self) -> u8 {
        HALVES[self.0 as usize].0
    }

    pub const fn hi(self) -> u8 {
        HALVES[self.0 as usize].1
    }

    pub const fn pips(self) -> u32 {
        self.lo() as u32 + self.hi() as u32
    }

    pub const fn is_double(self) -> bool {
        self.lo() == self.hi()
    }

    pub const fn shows(self, n: u8) -> bool {
        // `|` rather than `||`: both halves are one table read, and the second test's branch
        // mispredicted.
        (self.lo() == n) | (self.hi() == n)
    }

    /// The tile whose canonical index is the bit position `bit` of a set's mask, taken modulo
    /// 128 and not checked against the largest set. Legal-action generation writes a tile for
    /// every slot it might fill, filled or not, so that it does not branch on how many tiles fit;
    /// a slot it leaves empty may hold such an unchecked tile, which nobody reads.
    pub(crate) const fn from_bit(bit: u32) -> Tile {
        Tile((bit & 127) as u8)
    }

    /// [`Tile::pips`] read from a table of 128 entries (zero past double-twelve) with the index
    /// masked into range: one load, no bounds check, for the hot paths.
    pub(crate) fn pips_fast(self) -> u8 {
        PIPS[usize::from(self.0 & 127)]
    }

    /// The half opposite a half showing `n`, or `None` if the tile does not show `n`.
    pub const fn other(self, n: u8) -> Option<u8> {
        if self.lo() == n {
            Some(self.hi())
        } else if self.hi() == n {
            Some(self.lo())
        } else {
            None
        }
    }
}

/// `PIPS[i]`: the pips of the tile with canonical index `i`, zero past double-twelve. A static,
/// not a const: a const table indexed at run time may be copied onto the stack at each use.
static PIPS: [u8; 128] = {
    let mut pips = [0u8; 128];
    let mut i = 0;
    while i < MAX_TILES {
        pips[i] = HALVES[i].0 + HALVES[i].1;
        i += 1;
    }
    pips
};

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.lo(), self.hi())
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a tile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a tile: write it as two numbers from 0 to 12 joined by `-`, like `5-3`")]
pub struct ParseTileError(pub String);

impl FromStr for Tile {
    type Err = ParseTileError;

    fn from_str(s: &str) -> Result<Tile, ParseTileError> {
        let bad = || ParseTileError(s.to_owned());
        let (a, b) = s.trim().split_once('-').ok_or_else(bad)?;
        let a: u8 = a.trim().parse().map_err(|_| bad())?;
        let b: u8 = b.trim().parse().map_err(|_| bad())?;
        Tile::new(a, b).ok_or_else(bad)
    }
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Tile, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// `SUITS[n]`: every tile showing `n`, computed once at compile time.
const SUITS: [TileSet; MAX_PIPS as usize + 1] = {
    let mut suits = [TileSet::EMPTY; MAX_PIPS as usize + 1];
    let mut n = 0u8;
    while n <= MAX_PIPS {
        suits[n as usize] = TileSet::build_suit(n);
        n += 1;
    }
    suits
};

/// A set of tiles as a bit mask over canonical indices.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TileSet(u128);

impl TileSet {
    pub const EMPTY: TileSet = TileSet(0);

    /// Every tile from `0-0` to `max-max`.
    pub const fn full(max: u8) -> TileSet {
        let count = (max as u32 + 1) * (max as u32 + 2) / 2;
        TileSet(if count >= 128 { u128::MAX } else { (1u128 << count) - 1 })
    }

    /// Every tile showing `n`, up to double-twelve (empty past 12).
    pub const fn suit(n: u8) -> TileSet {
        if n > MAX_PIPS { TileSet::EMPTY } else { SUITS[n as usize] }
    }

    const fn build_suit(n: u8) -> TileSet {
        let mut bits = 0u128;
        let mut other = 0u8;
        while other <= MAX_PIPS {
            if let Some(tile) = Tile::new(n, other) {
                bits |= 1u128 << tile.0;
            }
            other += 1;
        }
        TileSet(bits)
    }

    /// The bit mask itself, bit `i` for the tile with canonical index `i`: the games' hot paths
    /// work on the part of it their set covers.
    pub(crate) const fn bits(self) -> u128 {
        self.0
    }

    /// The set whose mask is `bits`, bit `i` for the tile with canonical index `i`.
    pub(crate) const fn from_bits(bits: u128) -> TileSet {
        TileSet(bits)
    }

    pub const fn contains(self, tile: Tile) -> bool {
        self.0 & (1u128 << tile.0) != 0
    }

    pub fn insert(&mut self, tile: Tile) {
        self.0 |= 1u128 << tile.0;
    }

    pub fn remove(&mut self, tile: Tile) {
        self.0 &= !(1u128 << tile.0);
    }

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn intersection(self, other: TileSet) -> TileSet {
        TileSet(self.0 & other.0)
    }

    pub const fn union(self, other: TileSet) -> TileSet {
        TileSet(self.0 | other.0)
    }

    /// The tiles of `self` that are not in `other`.
    pub const fn difference(self, other: TileSet) -> TileSet {
        TileSet(self.0 & !other.0)
    }

    pub const fn is_disjoint(self, other: TileSet) -> bool {
        self.0 & other.0 == 0
    }

    /// Total pips of every tile in the set.
    pub fn pips(self) -> u32 {
        self.iter().map(Tile::pips).sum()
    }

    /// The `n`-th tile in canonical order, if the set holds that many.
    pub fn nth(self, n: usize) -> Option<Tile> {
        self.iter().nth(n)
    }

    /// The tiles in canonical order (by high half, then low half).
    pub fn iter(self) -> TileSetIter {
        TileSetIter(self.0)
    }
}

impl fmt::Debug for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Tile> for TileSet {
    fn from_iter<I: IntoIterator<Item = Tile>>(iter: I) -> TileSet {
        let mut set = TileSet::EMPTY;
        for tile in iter {
            set.insert(tile);
        }
        set
    }
}

impl IntoIterator for TileSet {
    type Item = Tile;
    type IntoIter = TileSetIter;

    fn into_iter(self) -> TileSetIter {
        self.iter()
    }
}

impl Serialize for TileSet {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for TileSet {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<TileSet, D::Error> {
        Ok(Vec::<Tile>::deserialize(deserializer)?.into_iter().collect())
    }
}

/// Iterator over a [`TileSet`], lowest canonical index first.
#[derive(Debug, Clone)]
pub struct TileSetIter(u128);

impl Iterator for TileSetIter {
    type Item = Tile;

    fn next(&mut self) -> Option<Tile> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Tile(index))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for TileSetIter {}

/// A seat at the table, numbered from 0 in playing order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat that plays after this one at a table of `players`.
    pub const fn next(self, players: u8) -> Seat {
        // A subtraction and a select before `%`: a division costs more than the rest of a
        // turn's bookkeeping, and every turn asks this. Seats past the table still wrap as `%`
        // wraps them.
        let next = self.0 + 1;
        let next = if next >= players { next - players } else { next };
        Seat(if next < players { next } else { next % players })
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

impl fmt::Debug for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seat({})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_index_round_trips_for_every_tile_of_double_twelve() {
        let mut seen = 0;
        for hi in 0..=MAX_PIPS {
            for lo in 0..=hi {
                let tile = Tile::new(hi, lo).expect("in range");
                assert_eq!((tile.lo(), tile.hi()), (lo, hi));
                assert_eq!(Tile::from_index(tile.index()), Some(tile));
                seen += 1;
            }
        }
        assert_eq!(seen, MAX_TILES);
        assert_eq!(Tile::new(13, 0), None);
    }

    #[test]
    fn full_sets_have_the_sizes_of_real_sets() {
        assert_eq!(TileSet::full(6).len(), 28);
        assert_eq!(TileSet::full(9).len(), 55);
        assert_eq!(TileSet::full(12).len(), 91);
        assert_eq!(TileSet::full(6).pips(), 168);
    }

    #[test]
    fn a_suit_holds_every_tile_showing_its_number() {
        let sixes = TileSet::suit(6).intersection(TileSet::full(6));
        assert_eq!(sixes.len(), 7);
        assert!(sixes.iter().all(|t| t.shows(6)));
    }

    #[test]
    fn tiles_parse_and_print_low_half_first() {
        let tile: Tile = "5-3".parse().expect("valid");
        assert_eq!(tile.to_string(), "3-5");
        assert!("5-13".parse::<Tile>().is_err());
        assert!("five".parse::<Tile>().is_err());
        assert_eq!(tile.other(5), Some(3));
        assert_eq!(tile.other(4), None);
    }
}
