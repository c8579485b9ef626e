//! The Streets and Avenues table: where dominoes lie, which placements fit, and which free space
//! is enclosed in blocks.
//!
//! Geometry (rules file, "The grid"): the table is a grid of *half-squares*. Horizontally, avenue
//! column `a` is one square at `x = 3a` and gap `g` is the two squares `x = 3g + 1, 3g + 2`.
//! Vertically, `y` counts half-rows, so avenue square `r` is `y = 2r, 2r + 1`. An avenue domino
//! at `(a, r)` covers `x = 3a, y = 2r ..= 2r + 3`; a street at `(g, s)` covers
//! `x = 3g + 1 ..= 3g + 2, y = s ..= s + 1`. Every test of touching, matching and enclosure is a
//! lookup in that grid.
//!
//! Blocks are kept up to date incrementally. Each free cell carries the label of its region
//! (0 for the outside). A new domino lies in exactly one old region; only that region can change,
//! and every piece it breaks into touches the new domino. So scoring searches outward from the
//! domino's free neighbours, depth first and toward the nearest edge of the layout: a search that
//! runs dry has found a block, and a search that leaves the layout's rectangle (or meets a search
//! that did) is in the outside and stops there. The cost is the size of the new blocks plus a
//! walk to the edge, never a flood of the whole board.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::tile::{Tile, TileSet};

/// Where a domino lies: an avenue domino by column and row of its north square, a street by gap
/// and the half-row of its top edge. Spots sort avenues first, then by their two numbers in
/// order (the order of the legal actions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Spot {
    Avenue { column: i32, row: i32 },
    Street { gap: i32, half_row: i32 },
}

/// How far from the origin a spot's coordinates may lie before arithmetic on them could
/// overflow. A table holds at most 91 dominoes, so a spot this far out can never touch one.
const REACH: i32 = 1 << 16;

impl Ord for Spot {
    /// The order a derived `Ord` would give (kind, then the first number, then the second),
    /// compared as one number: the frontier's binary searches compare spots often enough that
    /// the derived comparison, branch by branch, was a tenth of replaying a game.
    fn cmp(&self, other: &Spot) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Spot {
    fn partial_cmp(&self, other: &Spot) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Spot {
    /// The spot packed into one number that sorts as spots do: the kind, then each number with
    /// its sign bit flipped (which maps `i32` onto `u32` in order).
    fn key(self) -> u128 {
        let (kind, a, b) = match self {
            Spot::Avenue { column, row } => (0u128, column, row),
            Spot::Street { gap, half_row } => (1, gap, half_row),
        };
        let order = |n: i32| u128::from(n.cast_unsigned() ^ 0x8000_0000);
        kind << 64 | order(a) << 32 | order(b)
    }

    /// Whether the spot is near enough to the origin for its cells to be computed; one that is
    /// not can never be played (it touches nothing).
    fn within_reach(self) -> bool {
        let (a, b) = match self {
            Spot::Avenue { column, row } => (column, row),
            Spot::Street { gap, half_row } => (gap, half_row),
        };
        a.unsigned_abs() <= REACH as u32 && b.unsigned_abs() <= REACH as u32
    }

    /// The spot's place in frontier order (the order of [`Spot::cmp`]) as one integer: the kind,
    /// then each number offset by 2^19, in 20 bits each. Only for spots within reach, whose
    /// numbers lie within 2^16 of zero, which every spot of the frontier does; a comparison of
    /// two of these is one instruction, where comparing spots branches on their kinds.
    fn frontier_key(self) -> u64 {
        debug_assert!(self.within_reach());
        let (kind, a, b) = match self {
            Spot::Avenue { column, row } => (0u64, column, row),
            Spot::Street { gap, half_row } => (1, gap, half_row),
        };
        let field = |n: i32| u64::from((n + (1 << 19)).cast_unsigned() & 0xF_FFFF);
        kind << 40 | field(a) << 20 | field(b)
    }

    /// The four half-square cells the domino covers; the first two show its first number
    /// (north or west half), the last two its second.
    fn cells(self) -> [(i32, i32); 4] {
        match self {
            Spot::Avenue { column, row } => {
                let (x, y) = (3 * column, 2 * row);
                [(x, y), (x, y + 1), (x, y + 2), (x, y + 3)]
            }
            Spot::Street { gap, half_row: s } => {
                let x = 3 * gap + 1;
                [(x, s), (x, s + 1), (x + 1, s), (x + 1, s + 1)]
            }
        }
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spot::Avenue { column, row } => write!(f, "a{column}:{row}"),
            Spot::Street { gap, half_row } => write!(f, "s{gap}:{half_row}"),
        }
    }
}

/// A domino on the table, `first` on its north (avenue) or west (street) half.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Piece {
    pub tile: Tile,
    pub spot: Spot,
    pub first: u8,
}

impl Piece {
    pub fn second(self) -> u8 {
        self.tile.other(self.first).unwrap_or(self.first)
    }
}

/// The numbers a spot demands of a domino's first and second halves, from everything it touches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Need {
    pub(crate) first: Option<u8>,
    pub(crate) second: Option<u8>,
}

/// Whether a spot can take a domino.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A domino whose halves meet `Need` may go here now.
    Open(Need),
    /// Not now, but a later domino may change that (a street touching only one avenue domino).
    Later(Refusal),
    /// Never again: the squares are taken, a street would touch a street, the avenue is full, or
    /// two neighbours demand different numbers of one half.
    Never(Refusal),
}

/// Why a domino may not go on a spot; each is one rule of the rules file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the first domino must start the first avenue at a0:0")]
    FirstTile,
    #[error("those squares are taken")]
    Occupied,
    #[error("an avenue domino must touch another domino")]
    Isolated,
    #[error("this avenue holds seven dominoes and cannot grow further north or south")]
    AvenueFull,
    #[error("a street must touch at least two avenue dominoes")]
    OneAvenue,
    #[error("no street may touch another street")]
    TouchesStreet,
    #[error("the dominoes around this spot demand two different numbers of one half")]
    Conflict,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Cell {
    /// 0 when free, else the piece's index + 1.
    piece: u8,
    /// The number shown on this half-square.
    pip: u8,
    /// For a free cell: 0 outside, otherwise the id of the block it lies in. Values with the
    /// top bit set are scratch marks of a search in progress.
    region: u16,
}

const SEARCH_MARK: u16 = 0x8000;

/// A dense grid that grows in steps as the layout spreads.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Grid {
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
    cells: Vec<Cell>,
}

const GROWTH: i32 = 16;

impl Grid {
    fn new() -> Grid {
        let mut grid = Grid { x0: 0, y0: 0, width: 0, height: 0, cells: Vec::new() };
        grid.cover(-GROWTH, -GROWTH, GROWTH, GROWTH);
        grid
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        // One unsigned comparison per axis catches both sides.
        let (dx, dy) = (x.wrapping_sub(self.x0) as u32, y.wrapping_sub(self.y0) as u32);
        (dx < self.width as u32 && dy < self.height as u32).then(|| dy as usize * self.width as usize + dx as usize)
    }

    fn get(&self, x: i32, y: i32) -> Cell {
        self.index(x, y).map_or_else(Cell::default, |i| self.cells[i])
    }

    /// Sets a cell, which must lie in the grid (callers cover the bounds first).
    fn set(&mut self, x: i32, y: i32, cell: Cell) {
        if let Some(i) = self.index(x, y) {
            self.cells[i] = cell;
        }
    }

    fn set_region(&mut self, x: i32, y: i32, region: u16) {
        if let Some(i) = self.index(x, y) {
            self.cells[i].region = region;
        }
    }

    /// The `W` by `H` cells whose north-west corner is `(x, y)`, row by row, if they all lie in
    /// the grid. A verdict reads a dozen cells around a spot; one bounds check for the lot and a
    /// copy of each row costs less than a checked lookup of each.
    fn window<const W: usize, const H: usize>(&self, x: i32, y: i32) -> Option<[[Cell; W]; H]> {
        let (dx, dy) = (x.wrapping_sub(self.x0) as u32 as usize, y.wrapping_sub(self.y0) as u32 as usize);
        let width = self.width as usize;
        if dx + W > width || dy + H > self.height as usize {
            return None;
        }
        let mut rows = [[Cell::default(); W]; H];
        for (i, row) in rows.iter_mut().enumerate() {
            let start = (dy + i) * width + dx;
            row.copy_from_slice(&self.cells[start..start + W]);
        }
        Some(rows)
    }

    /// Grows the grid so that it holds every cell of the rectangle, with room to spare.
    fn cover(&mut self, x_min: i32, y_min: i32, x_max: i32, y_max: i32) {
        let inside = |x, y| self.index(x, y).is_some();
        if inside(x_min, y_min) && inside(x_max, y_max) {
            return;
        }
        let nx0 = if self.cells.is_empty() { x_min } else { self.x0.min(x_min - GROWTH) };
        let ny0 = if self.cells.is_empty() { y_min } else { self.y0.min(y_min - GROWTH) };
        let nx1 = (self.x0 + self.width).max(x_max + GROWTH + 1);
        let ny1 = (self.y0 + self.height).max(y_max + GROWTH + 1);
        let mut grown = Grid { x0: nx0, y0: ny0, width: nx1 - nx0, height: ny1 - ny0, cells: Vec::new() };
        grown.cells = vec![Cell::default(); (grown.width * grown.height) as usize];
        let width = self.width as usize;
        for (row, y) in (self.y0..self.y0 + self.height).enumerate() {
            if let Some(to) = grown.index(self.x0, y) {
                let from = row * width;
                grown.cells[to..to + width].copy_from_slice(&self.cells[from..from + width]);
            }
        }
        *self = grown;
    }
}

/// Facts about one avenue column, for the seven-domino limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Column {
    dominoes: u32,
    north_row: i32,
    south_row: i32,
}

/// A spot of the frontier: one that can take a domino now, with what it demands, and two
/// things worked out once when it opens rather than at every look: its place in frontier order
/// as one integer ([`Spot::frontier_key`]), and the tiles that meet its need as a mask, so that
/// listing the placements of a hand costs an `and` a spot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Open {
    key: u64,
    pub(crate) spot: Spot,
    pub(crate) need: Need,
    /// The low and high halves of the mask of tiles that meet `need` (any tile when it names
    /// neither half), split so that the frontier's entries need no 16-byte alignment.
    fits: [u64; 2],
}

/// Every double up to double-twelve, as a mask.
const DOUBLES: u128 = {
    let mut bits = 0u128;
    let mut n = 0u8;
    while n <= crate::tile::MAX_PIPS {
        if let Some(tile) = Tile::new(n, n) {
            bits |= 1u128 << tile.index();
        }
        n += 1;
    }
    bits
};

impl Open {
    fn new(spot: Spot, need: Need) -> Open {
        // The tiles showing the first number (any, if none is named) and the second, and only
        // the double when both name the same number: two different numbers meet in one tile,
        // `a-b`. Selects rather than a `match` on the two halves, whose branches mispredicted
        // (which halves a spot names is a coin toss).
        let suit = |half: Option<u8>| half.map_or(u128::MAX, |n| TileSet::suit(n).bits());
        let double = if need.first.is_some() && need.first == need.second { DOUBLES } else { u128::MAX };
        let fits = suit(need.first) & suit(need.second) & double;
        debug_assert_eq!(
            fits,
            match (need.first, need.second) {
                (Some(a), Some(b)) => Tile::new(a, b).map_or(0, |tile| 1u128 << tile.index()),
                (Some(n), None) | (None, Some(n)) => TileSet::suit(n).bits(),
                (None, None) => u128::MAX,
            }
        );
        Open { key: spot.frontier_key(), spot, need, fits: [fits as u64, (fits >> 64) as u64] }
    }

    /// The tiles that meet the spot's need.
    pub(crate) fn fits(&self) -> u128 {
        u128::from(self.fits[0]) | u128::from(self.fits[1]) << 64
    }

    /// Whether a tile of `hand` (the low and high words of its mask) meets the spot's need.
    pub(crate) fn takes(&self, hand: [u64; 2]) -> bool {
        (hand[0] & self.fits[0]) | (hand[1] & self.fits[1]) != 0
    }

    /// [`Open::takes`] for a hand within the first 64 tiles (double-nine, or any hand of them).
    pub(crate) fn takes_low(&self, hand: u64) -> bool {
        hand & self.fits[0] != 0
    }
}

/// The table.
#[derive(Debug, PartialEq, Eq)]
pub struct Board {
    grid: Grid,
    pieces: Vec<Piece>,
    columns: BTreeMap<i32, Column>,
    /// The columns of `columns` that hold their seven dominoes, with their rows: what every
    /// avenue verdict asks about, kept apart because it is almost always empty and a look in an
    /// empty list costs one branch, where a look in the map cost a search of it.
    full_columns: Vec<(i32, Column)>,
    /// Spots that can take a domino now, in legal-action order, with what they demand. A spot's
    /// verdict changes only when a piece lands near it, so only those are recomputed. A spot that
    /// cannot take a domino yet is dropped too: it can only open when a new piece touches it, and
    /// every new piece offers the spots it touches again.
    frontier: Vec<Open>,
    /// The frontier's previous buffer, kept empty between placements so that rebuilding the
    /// frontier allocates nothing.
    spare: Vec<Open>,
    /// The cells a block search reached and the cells it has yet to visit: scratch lists, empty
    /// between placements, kept so that a search allocates nothing once they have grown.
    visited: Vec<(i32, i32)>,
    stack: Vec<(i32, i32)>,
    /// The smallest rectangle of cells around every domino: (x_min, y_min, x_max, y_max).
    bounds: (i32, i32, i32, i32),
    blocks: u32,
    next_block: u16,
}

/// The most dominoes in one column before it stops growing at its ends.
pub const AVENUE_LIMIT: u32 = 7;

/// Room the lists of a new board start with: a double-nine game's pieces, and what its
/// frontier, the frontier's spare buffer and a block search usually reach. Lists that started
/// empty grew a dozen times a game, each growth a copy.
const PIECES: usize = 56;
const FRONTIER: usize = 64;
const SEARCH: usize = 64;

impl Default for Board {
    fn default() -> Board {
        let mut frontier = Vec::with_capacity(FRONTIER);
        frontier.push(Open::new(Spot::Avenue { column: 0, row: 0 }, Need::default()));
        Board {
            grid: Grid::new(),
            pieces: Vec::with_capacity(PIECES),
            columns: BTreeMap::new(),
            full_columns: Vec::new(),
            frontier,
            spare: Vec::with_capacity(FRONTIER),
            visited: Vec::with_capacity(SEARCH),
            stack: Vec::with_capacity(SEARCH),
            bounds: (0, 0, 0, 0),
            blocks: 0,
            next_block: 1,
        }
    }
}

impl Clone for Board {
    /// A copy with the same room in its lists as the original (a derived clone gives each list
    /// just its length, and an empty scratch list none), so that a copy played on (an engine's
    /// playout) does not grow them all again.
    fn clone(&self) -> Board {
        fn with_room<T: Copy>(list: &Vec<T>) -> Vec<T> {
            let mut copy = Vec::with_capacity(list.capacity());
            copy.extend_from_slice(list);
            copy
        }
        Board {
            grid: self.grid.clone(),
            pieces: with_room(&self.pieces),
            columns: self.columns.clone(),
            full_columns: self.full_columns.clone(),
            frontier: with_room(&self.frontier),
            spare: with_room(&self.spare),
            visited: with_room(&self.visited),
            stack: with_room(&self.stack),
            bounds: self.bounds,
            blocks: self.blocks,
            next_block: self.next_block,
        }
    }
}

impl Board {
    /// Every domino on the table, in the order they were placed.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Blocks on the table now.
    pub fn blocks(&self) -> u32 {
        self.blocks
    }

    /// Whether `spot` lies inside a block (a domino laid there divides or shrinks it), rather
    /// than in the open.
    pub fn inside_block(&self, spot: Spot) -> bool {
        if !spot.within_reach() {
            return false;
        }
        let (x, y) = spot.cells()[0];
        self.grid.get(x, y).region != 0
    }

    /// Every spot that can take a domino now, with what it must show, in a fixed order.
    pub(crate) fn open_spots(&self) -> impl Iterator<Item = (Spot, Need)> + '_ {
        self.frontier.iter().map(|open| (open.spot, open.need))
    }

    /// Every spot that can take a domino now, in the order of [`Board::open_spots`], with the
    /// tiles that fit it.
    pub(crate) fn open(&self) -> &[Open] {
        &self.frontier
    }

    /// [`Board::verdict`], read from the frontier when the spot is there (the frontier holds
    /// every open spot with its current verdict): checking a placement asks this, and a binary
    /// search costs less than working the verdict out again.
    pub(crate) fn verdict_now(&self, spot: Spot) -> Verdict {
        if !spot.within_reach() {
            return self.verdict(spot);
        }
        let key = spot.frontier_key();
        match self.frontier.binary_search_by_key(&key, |open| open.key) {
            Ok(at) => {
                let verdict = Verdict::Open(self.frontier[at].need);
                debug_assert_eq!(verdict, self.verdict(spot), "the frontier is up to date at {spot}");
                verdict
            }
            Err(_) => self.verdict(spot),
        }
    }

    fn is_free(&self, x: i32, y: i32) -> bool {
        self.grid.get(x, y).piece == 0
    }

    /// Whether a domino may go on `spot`, and what it must show.
    pub(crate) fn verdict(&self, spot: Spot) -> Verdict {
        if self.pieces.is_empty() {
            return if spot == (Spot::Avenue { column: 0, row: 0 }) {
                Verdict::Open(Need::default())
            } else {
                Verdict::Later(Refusal::FirstTile)
            };
        }
        if !spot.within_reach() {
            let far = match spot {
                Spot::Avenue { .. } => Refusal::Isolated,
                Spot::Street { .. } => Refusal::OneAvenue,
            };
            return Verdict::Never(far);
        }
        let fast = match spot {
            Spot::Avenue { column, row } => self.avenue_window_verdict(column, row),
            Spot::Street { gap, half_row } => self.street_window_verdict(gap, half_row),
        };
        if let Some(verdict) = fast {
            return verdict;
        }
        // Near the edge of the grid, where a window does not fit: cell by cell.
        if spot.cells().iter().any(|&(x, y)| !self.is_free(x, y)) {
            return Verdict::Never(Refusal::Occupied);
        }
        match spot {
            Spot::Avenue { column, row } => self.avenue_verdict(column, row),
            Spot::Street { gap, half_row } => self.street_verdict(gap, half_row),
        }
    }

    /// [`Board::verdict`] of a spot next to the layout (a piece is down) known to be an avenue
    /// spot (`AVENUES`) or a street spot, without a branch on its kind.
    fn verdict_of<const AVENUES: bool>(&self, spot: Spot) -> Verdict {
        debug_assert_eq!(AVENUES, matches!(spot, Spot::Avenue { .. }));
        debug_assert!(!self.pieces.is_empty());
        if !spot.within_reach() {
            return self.verdict(spot);
        }
        let (a, b) = match spot {
            Spot::Avenue { column, row } => (column, row),
            Spot::Street { gap, half_row } => (gap, half_row),
        };
        let fast = if AVENUES { self.avenue_window_verdict(a, b) } else { self.street_window_verdict(a, b) };
        let verdict = fast.unwrap_or_else(|| self.verdict(spot));
        debug_assert_eq!(verdict, self.verdict(spot));
        verdict
    }

    /// [`Board::verdict`] of an avenue spot in the grid, read from the window of cells around it
    /// (columns `x - 1 ..= x + 1`, half-rows `y - 1 ..= y + 4`); `None` if that window does
    /// not fit in the grid. The same tests in the same order as the cell-by-cell path.
    fn avenue_window_verdict(&self, column: i32, row: i32) -> Option<Verdict> {
        let (x, y) = (3 * column, 2 * row);
        let w: [[Cell; 3]; 6] = self.grid.window(x - 1, y - 1)?;
        if (1..=4).fold(0, |taken, i| taken | w[i][1].piece) != 0 {
            return Some(Verdict::Never(Refusal::Occupied));
        }
        if self.column_full_at(column, row) {
            return Some(Verdict::Never(Refusal::AvenueFull));
        }
        let mut needs = Needs::new();
        needs.first(w[0][1]);
        needs.second(w[5][1]);
        for side in [0, 2] {
            needs.first(w[1][side]);
            needs.first(w[2][side]);
            needs.second(w[3][side]);
            needs.second(w[4][side]);
        }
        Some(match needs.conflict {
            true => Verdict::Never(Refusal::Conflict),
            false if !needs.touched_at_least(1) => Verdict::Later(Refusal::Isolated),
            false => Verdict::Open(needs.need()),
        })
    }

    /// [`Board::verdict`] of a street spot in the grid, read from the window of cells around it
    /// (columns `x - 1 ..= x + 2`, half-rows `s - 1 ..= s + 2`); `None` if that window does not
    /// fit in the grid. The same tests in the same order as the cell-by-cell path.
    fn street_window_verdict(&self, gap: i32, s: i32) -> Option<Verdict> {
        let x = 3 * gap + 1;
        let w: [[Cell; 4]; 4] = self.grid.window(x - 1, s - 1)?;
        if (w[1][1].piece | w[1][2].piece | w[2][1].piece | w[2][2].piece) != 0 {
            return Some(Verdict::Never(Refusal::Occupied));
        }
        if (w[0][1].piece | w[3][1].piece) != 0 {
            return Some(Verdict::Never(Refusal::TouchesStreet));
        }
        let mut needs = Needs::new();
        for row in [1, 2] {
            needs.first(w[row][0]);
            needs.second(w[row][3]);
        }
        Some(match needs.conflict {
            true => Verdict::Never(Refusal::Conflict),
            false if !needs.touched_at_least(2) => Verdict::Later(Refusal::OneAvenue),
            false => Verdict::Open(needs.need()),
        })
    }

    /// Whether `column` holds its seven dominoes and `row` lies beyond them.
    fn column_full_at(&self, column: i32, row: i32) -> bool {
        let full =
            self.full_columns.iter().any(|&(at, c)| at == column && (row < c.north_row || row + 1 > c.south_row));
        debug_assert_eq!(
            full,
            self.columns
                .get(&column)
                .is_some_and(|c| c.dominoes >= AVENUE_LIMIT && (row < c.north_row || row + 1 > c.south_row))
        );
        full
    }

    fn avenue_verdict(&self, column: i32, row: i32) -> Verdict {
        if self.column_full_at(column, row) {
            return Verdict::Never(Refusal::AvenueFull);
        }
        let x = 3 * column;
        let y = 2 * row;
        let mut needs = Needs::new();
        // End to end in the column.
        needs.first(self.grid.get(x, y - 1));
        needs.second(self.grid.get(x, y + 4));
        // Street ends in the gaps on either side, facing the north or the south square.
        for side in [x - 1, x + 1] {
            needs.first(self.grid.get(side, y));
            needs.first(self.grid.get(side, y + 1));
            needs.second(self.grid.get(side, y + 2));
            needs.second(self.grid.get(side, y + 3));
        }
        match needs.conflict {
            true => Verdict::Never(Refusal::Conflict),
            false if !needs.touched_at_least(1) => Verdict::Later(Refusal::Isolated),
            false => Verdict::Open(needs.need()),
        }
    }

    fn street_verdict(&self, gap: i32, s: i32) -> Verdict {
        let x = 3 * gap + 1;
        // A street at t touches or overlaps this one when |t − s| ≤ 2; each such street covers
        // one of the half-rows s − 1 ..= s + 2 of the gap.
        if (s - 1..=s + 2).any(|y| !self.is_free(x, y)) {
            return Verdict::Never(Refusal::TouchesStreet);
        }
        let mut needs = Needs::new();
        for y in [s, s + 1] {
            needs.first(self.grid.get(x - 1, y));
            needs.second(self.grid.get(x + 2, y));
        }
        match needs.conflict {
            true => Verdict::Never(Refusal::Conflict),
            false if !needs.touched_at_least(2) => Verdict::Later(Refusal::OneAvenue),
            false => Verdict::Open(needs.need()),
        }
    }

    /// Lays a piece whose placement was checked, and returns the blocks it scored.
    pub(crate) fn place(&mut self, piece: Piece) -> u32 {
        let cells = piece.spot.cells();
        let old_region = self.grid.get(cells[0].0, cells[0].1).region;
        self.pieces.push(piece);
        self.grow_bounds(&cells);
        let id = self.pieces.len() as u8;
        for (i, &(x, y)) in cells.iter().enumerate() {
            let pip = if i < 2 { piece.first } else { piece.second() };
            self.grid.set(x, y, Cell { piece: id, pip, region: 0 });
        }
        let column_full = self.note_column(piece.spot);
        self.update_frontier(piece.spot, column_full);
        self.rescore_region(&cells, old_region)
    }

    fn grow_bounds(&mut self, cells: &[(i32, i32); 4]) {
        let first = self.pieces.len() == 1;
        for &(x, y) in cells {
            let (x0, y0, x1, y1) = self.bounds;
            self.bounds =
                if first && (x, y) == cells[0] { (x, y, x, y) } else { (x0.min(x), y0.min(y), x1.max(x), y1.max(y)) };
        }
        let (x0, y0, x1, y1) = self.bounds;
        self.grid.cover(x0 - 1, y0 - 1, x1 + 1, y1 + 1);
    }

    /// Counts an avenue domino into its column; returns the column if it just became full.
    fn note_column(&mut self, spot: Spot) -> Option<i32> {
        let Spot::Avenue { column, row } = spot else { return None };
        let c = self.columns.entry(column).or_insert(Column { dominoes: 0, north_row: row, south_row: row + 1 });
        c.dominoes += 1;
        c.north_row = c.north_row.min(row);
        c.south_row = c.south_row.max(row + 1);
        let c = *c;
        if c.dominoes >= AVENUE_LIMIT {
            match self.full_columns.iter_mut().find(|(at, _)| *at == column) {
                Some((_, full)) => *full = c,
                None => self.full_columns.push((column, c)),
            }
        }
        (c.dominoes == AVENUE_LIMIT).then_some(column)
    }

    /// Adds the spots a new piece opens, recomputes the verdicts of the spots whose neighbourhood
    /// it entered, and keeps only those open now.
    fn update_frontier(&mut self, spot: Spot, column_full: Option<i32>) {
        let mut near = arrayvec::ArrayVec::<Spot, 12>::new();
        match spot {
            Spot::Avenue { column, row } => {
                near.push(Spot::Avenue { column, row: row - 2 });
                near.push(Spot::Avenue { column, row: row + 2 });
                for gap in [column - 1, column] {
                    near.extend((2 * row - 1..=2 * row + 3).map(|half_row| Spot::Street { gap, half_row }));
                }
            }
            Spot::Street { gap, half_row: s } => {
                for column in [gap, gap + 1] {
                    // Avenue dominoes whose half-rows 2r ..= 2r + 3 meet s ..= s + 1.
                    let rows = (s - 3).div_euclid(2) + i32::from((s - 3).rem_euclid(2) != 0)..=(s + 1).div_euclid(2);
                    near.extend(rows.map(|row| Spot::Avenue { column, row }));
                }
            }
        }
        // Every piece lies within a few hundred cells of the first, so the spots around it are
        // all within reach and have frontier keys.
        debug_assert!(near.iter().all(|s| s.within_reach()));
        debug_assert!(near.is_sorted());
        // The spots whose verdict the piece may change are those whose `depends_on` rectangle
        // overlaps the piece, and those of a column the piece filled. In frontier order they
        // form three runs, one for each column or gap the piece reaches, each a range of rows.
        // Solved from the overlap test: an avenue piece at (c, r) reaches avenue rows r - 2 ..=
        // r + 2 of column c (all of it when full) and street half-rows 2r - 2 ..= 2r + 4 of
        // gaps c - 1 and c; a street piece at (g, s) reaches, in columns g and g + 1, the avenue
        // rows whose half-rows 2r - 1 ..= 2r + 4 meet s ..= s + 1, and half-rows s - 2 ..= s + 2
        // of gap g. Every spot of `near` lies in one of the runs. So only the runs are rebuilt,
        // each found by a binary search on the keys, rather than the whole frontier being
        // walked and copied at every placement.
        let runs: [(Spot, Spot); 3] = match spot {
            Spot::Avenue { column, row } => {
                let (top, bottom) = if column_full == Some(column) { (-REACH, REACH) } else { (row - 2, row + 2) };
                let street =
                    |gap| (Spot::Street { gap, half_row: 2 * row - 2 }, Spot::Street { gap, half_row: 2 * row + 4 });
                [
                    (Spot::Avenue { column, row: top }, Spot::Avenue { column, row: bottom }),
                    street(column - 1),
                    street(column),
                ]
            }
            Spot::Street { gap, half_row: s } => {
                // Rows r with 2r - 1 <= s + 1 and s <= 2r + 4.
                let (top, bottom) = ((s - 3).div_euclid(2), (s + 2).div_euclid(2));
                let avenue = |column| (Spot::Avenue { column, row: top }, Spot::Avenue { column, row: bottom });
                [
                    avenue(gap),
                    avenue(gap + 1),
                    (Spot::Street { gap, half_row: s - 2 }, Spot::Street { gap, half_row: s + 2 }),
                ]
            }
        };
        #[cfg(debug_assertions)]
        {
            let placed = footprint(&spot.cells());
            let in_runs = |s: Spot| runs.iter().any(|&(lo, hi)| lo <= s && s <= hi);
            let affected = |s: Spot| {
                overlaps(placed, s.depends_on())
                    || matches!(s, Spot::Avenue { column, .. } if Some(column) == column_full)
            };
            for open in &self.frontier {
                debug_assert_eq!(in_runs(open.spot), affected(open.spot), "the runs hold the affected spots");
            }
            debug_assert!(near.iter().all(|&s| in_runs(s) && affected(s)), "every new spot lies in a run");
        }
        let mut near = near.as_slice();
        // The runs come in frontier order, so each search starts where the last run ended. A
        // run holds a handful of spots, so its end is found by stepping on from its start: one
        // mispredicted exit costs less than a second search's chain of dependent loads.
        let mut from = 0;
        for (lo, hi) in runs {
            let (lo, hi) = (lo.frontier_key(), hi.frontier_key());
            let start = from + self.frontier[from..].partition_point(|open| open.key < lo);
            let mut end = start;
            while end < self.frontier.len() && self.frontier[end].key <= hi {
                end += 1;
            }
            let (fresh, rest) = near.split_at(near.partition_point(|s| s.frontier_key() <= hi));
            near = rest;
            // A run holds one kind of spot, avenues (`lo` is an avenue's key) or streets: the
            // rebuild is compiled for each, so that judging a spot does not branch on its kind
            // (which mispredicted where one run ended and the next began).
            let avenues = lo >> 40 == 0;
            from += if avenues {
                start - from + self.rebuild_run::<true>(start..end, fresh)
            } else {
                start - from + self.rebuild_run::<false>(start..end, fresh)
            };
        }
    }

    /// Replaces the frontier's spots in `range` with those of them, and of `fresh` (sorted, all
    /// within the range's bounds), that are open now, in order and with their verdicts
    /// recomputed: the merge the whole frontier once went through, over one run of it.
    /// Returns how many spots the run holds now.
    fn rebuild_run<const AVENUES: bool>(&mut self, range: std::ops::Range<usize>, fresh: &[Spot]) -> usize {
        let mut run = std::mem::take(&mut self.spare);
        run.clear();
        let mut fresh = fresh.iter().map(|&s| (s.frontier_key(), s)).peekable();
        let mut offer = |board: &Board, spot: Spot| {
            if let Verdict::Open(need) = board.verdict_of::<AVENUES>(spot) {
                run.push(Open::new(spot, need));
            }
        };
        for open in &self.frontier[range.clone()] {
            while let Some(&(key, new)) = fresh.peek()
                && key <= open.key
            {
                fresh.next();
                if key != open.key {
                    offer(self, new);
                }
            }
            offer(self, open.spot);
        }
        for (_, new) in fresh {
            offer(self, new);
        }
        if run.len() == range.len() {
            self.frontier[range].copy_from_slice(&run);
        } else {
            self.frontier.splice(range, run.iter().copied());
        }
        let len = run.len();
        run.clear();
        self.spare = run;
        len
    }

    /// Relabels the region the new piece was placed in and returns the points it scored.
    fn rescore_region(&mut self, cells: &[(i32, i32); 4], old_region: u16) -> u32 {
        let placed = footprint(cells);
        if !self.may_enclose(placed) {
            // Nothing split (see `may_enclose`): a block the piece lay in is one block still,
            // with its label, unless the piece filled it; the outside stays the outside.
            if old_region != 0 && self.ring_is_taken(placed) {
                self.blocks -= 1;
            }
            return 0;
        }
        let seeds: arrayvec::ArrayVec<(i32, i32), 16> = cells
            .iter()
            .flat_map(|&(x, y)| [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)])
            .filter(|&(x, y)| self.is_free(x, y))
            .collect();
        let mut visited = std::mem::take(&mut self.visited);
        let found = self.search(&seeds, old_region, &mut visited);
        let new_blocks = found.len() as u32;
        for component in found {
            let id = self.next_block;
            // Ids are recycled after 32,767 blocks, far more than any game makes.
            self.next_block = if id >= SEARCH_MARK - 1 { 1 } else { id + 1 };
            for &(x, y) in &visited[component] {
                self.grid.set_region(x, y, id);
            }
        }
        visited.clear();
        self.visited = visited;
        self.blocks = if old_region == 0 { self.blocks + new_blocks } else { self.blocks - 1 + new_blocks };
        scored(old_region, new_blocks)
    }

    /// The blocks `piece` would score, found without changing the board: the read-only twin of
    /// [`Board::place`], for previews of every legal placement. It runs the same searches from the
    /// same seeds, with the piece's cells counted as taken and the layout's rectangle grown to
    /// cover them, but keeps its marks in a scratch grid over that rectangle instead of in the
    /// board's cells. Whether a component is enclosed does not depend on the order of the
    /// searches, so the count is the one `place` finds.
    pub(crate) fn closes(&self, piece: Piece) -> u32 {
        let cells = piece.spot.cells();
        let placed = footprint(&cells);
        if !self.may_enclose(placed) {
            return 0;
        }
        let old_region = self.grid.get(cells[0].0, cells[0].1).region;
        let bounds = if self.pieces.is_empty() {
            placed
        } else {
            let (x0, y0, x1, y1) = self.bounds;
            (x0.min(placed.0), y0.min(placed.1), x1.max(placed.2), y1.max(placed.3))
        };
        let taken = |(x, y): (i32, i32)| cells.contains(&(x, y)) || !self.is_free(x, y);
        let mut marks = Marks::over(bounds);
        let mut stack = Vec::new();
        let mut new_blocks = 0;
        for seed in cells.iter().flat_map(|&(x, y)| [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]) {
            if taken(seed) || outside(bounds, seed.0, seed.1) || marks.get(seed) != 0 {
                continue;
            }
            let mark = marks.next_mark();
            marks.set(seed, mark);
            stack.clear();
            stack.push(seed);
            if runs_dry_read_only(bounds, &taken, &mut marks, mark, &mut stack) {
                new_blocks += 1;
            }
        }
        scored(old_region, new_blocks)
    }

    /// Whether a domino on the rectangle `placed` could enclose anything: only if the taken cells
    /// of the ring around it (the cells touching it, corners included) form two or more separate
    /// runs. With one run or none, the free cells of the ring are one chain of neighbours, so any
    /// path through the domino's cells can go round it instead: no region splits, nothing in the
    /// open is cut off, and the search of [`Board::closes`] would find nothing that scores. Most
    /// placements touch the layout in one place, so this spares most previews their search.
    fn may_enclose(&self, placed: (i32, i32, i32, i32)) -> bool {
        let (taken, len) = self.ring(placed);
        // A run starts at each taken cell whose predecessor round the ring is free.
        let all = u64::MAX >> (64 - len);
        let before = ((taken << 1) | (taken >> (len - 1))) & all;
        // Two runs or more: two bits or more set, without counting them all.
        let starts = taken & !before;
        starts & starts.wrapping_sub(1) != 0
    }

    /// Whether every cell of the ring around the rectangle `placed` is taken.
    fn ring_is_taken(&self, placed: (i32, i32, i32, i32)) -> bool {
        let (taken, len) = self.ring(placed);
        taken == u64::MAX >> (64 - len)
    }

    /// Which cells of the ring around the rectangle `placed` (corners included) are taken, as bits
    /// clockwise from its north-west corner, and how many cells the ring has. The rectangle is a
    /// domino's, so the ring has 12 or 14 cells. One mask, read with shifts, replaced a chain of
    /// iterators that cost more than the rest of a placement's bookkeeping.
    fn ring(&self, placed: (i32, i32, i32, i32)) -> (u64, u32) {
        // A domino's ring is read from the window of cells around it when that lies in the
        // grid: one bounds check, and loops of a fixed length for each shape (an avenue
        // domino's 14 cells, a street's 12), where loops over the rectangle's ranges
        // mispredicted their ends as the two shapes alternated.
        let (x0, y0, x1, y1) = placed;
        let read = match (x1 - x0, y1 - y0) {
            (0, 3) => self.grid.window::<3, 6>(x0 - 1, y0 - 1).map(|w| ring_of(&w)),
            (1, 1) => self.grid.window::<4, 4>(x0 - 1, y0 - 1).map(|w| ring_of(&w)),
            _ => None,
        };
        let ring = read.unwrap_or_else(|| self.ring_cells(placed));
        debug_assert_eq!(ring, self.ring_cells(placed));
        ring
    }

    /// [`Board::ring`], cell by cell.
    fn ring_cells(&self, (x0, y0, x1, y1): (i32, i32, i32, i32)) -> (u64, u32) {
        let mut taken = 0u64;
        let mut len = 0u32;
        let mut visit = |x: i32, y: i32| {
            taken |= u64::from(!self.is_free(x, y)) << len;
            len += 1;
        };
        for x in x0 - 1..=x1 + 1 {
            visit(x, y0 - 1);
        }
        for y in y0..=y1 {
            visit(x1 + 1, y);
        }
        for x in (x0 - 1..=x1 + 1).rev() {
            visit(x, y1 + 1);
        }
        for y in (y0..=y1).rev() {
            visit(x0 - 1, y);
        }
        debug_assert!((1..=64).contains(&len), "a domino's ring");
        (taken, len)
    }

    fn outside_bounds(&self, x: i32, y: i32) -> bool {
        outside(self.bounds, x, y)
    }

    /// Finds which of the components around `seeds` are enclosed, and returns their cells. Each
    /// seed not yet reached starts a depth-first search that turns first toward the nearest edge
    /// of the layout and stops as soon as it leaves the layout's rectangle or meets an earlier
    /// search (which left it, so that one reached the outside). A search that runs dry has found
    /// a block. So a search in the open walks to the edge in a near straight line, and the cost is
    /// about the size of the new blocks, never a flood of the board. Every cell searched keeps
    /// (or gets back) the label `region`; the caller labels the blocks.
    ///
    /// The cells searched are appended to `visited`; each block is returned as the range of
    /// `visited` that holds its cells (a later search only appends, so the range stays put).
    fn search(
        &mut self,
        seeds: &[(i32, i32)],
        region: u16,
        visited: &mut Vec<(i32, i32)>,
    ) -> arrayvec::ArrayVec<std::ops::Range<usize>, 16> {
        let mut stack = std::mem::take(&mut self.stack);
        let mut blocks = arrayvec::ArrayVec::new();
        for (id, &seed) in seeds.iter().enumerate() {
            if self.outside_bounds(seed.0, seed.1) || self.grid.get(seed.0, seed.1).region & SEARCH_MARK != 0 {
                continue;
            }
            let mark = SEARCH_MARK | id as u16;
            let start = visited.len();
            stack.clear();
            self.mark(seed, mark, visited, &mut stack);
            if self.runs_dry(mark, visited, &mut stack) {
                blocks.push(start..visited.len());
            }
        }
        for &(x, y) in visited.iter() {
            self.grid.set_region(x, y, region);
        }
        stack.clear();
        self.stack = stack;
        blocks
    }

    /// Runs one search; true if it ran dry (an enclosed component), false if it got out.
    fn runs_dry(&mut self, mark: u16, visited: &mut Vec<(i32, i32)>, stack: &mut Vec<(i32, i32)>) -> bool {
        while let Some((x, y)) = stack.pop() {
            for (nx, ny) in toward_edge(self.bounds, x, y) {
                if self.outside_bounds(nx, ny) {
                    return false;
                }
                let cell = self.grid.get(nx, ny);
                if (cell.piece != 0) | (cell.region == mark) {
                    continue;
                }
                if cell.region & SEARCH_MARK != 0 {
                    return false; // an earlier search's cell: that search got out
                }
                self.mark((nx, ny), mark, visited, stack);
            }
        }
        true
    }

    /// Marks a free cell as seen by the search with `mark`, and queues it.
    fn mark(&mut self, (x, y): (i32, i32), mark: u16, visited: &mut Vec<(i32, i32)>, stack: &mut Vec<(i32, i32)>) {
        self.grid.set_region(x, y, mark);
        visited.push((x, y));
        stack.push((x, y));
    }
}

/// The ring of a window: which of its border cells are taken, as bits clockwise from its
/// north-west corner, and how many border cells it has (the order of [`Board::ring`]).
fn ring_of<const W: usize, const H: usize>(w: &[[Cell; W]; H]) -> (u64, u32) {
    let mut taken = 0u64;
    let mut len = 0u32;
    let mut visit = |cell: Cell| {
        taken |= u64::from(cell.piece != 0) << len;
        len += 1;
    };
    for &cell in &w[0] {
        visit(cell);
    }
    for row in &w[1..H - 1] {
        visit(row[W - 1]);
    }
    for &cell in w[H - 1].iter().rev() {
        visit(cell);
    }
    for row in w[1..H - 1].iter().rev() {
        visit(row[0]);
    }
    (taken, len)
}

/// The points a placement scores when it leaves `new_blocks` enclosed components around it: in
/// the outside (region 0) every new block scores; inside a block, splitting it into two or more
/// scores them all, and shrinking it scores nothing.
fn scored(old_region: u16, new_blocks: u32) -> u32 {
    if old_region == 0 || new_blocks >= 2 { new_blocks } else { 0 }
}

fn outside((x0, y0, x1, y1): (i32, i32, i32, i32), x: i32, y: i32) -> bool {
    x < x0 || y < y0 || x > x1 || y > y1
}

/// The four neighbours of a cell, the one toward the nearest edge of `bounds` last (so a stack
/// pops it first).
fn toward_edge((x0, y0, x1, y1): (i32, i32, i32, i32), x: i32, y: i32) -> [(i32, i32); 4] {
    let steps = [((x - 1, y), x - x0), ((x + 1, y), x1 - x), ((x, y - 1), y - y0), ((x, y + 1), y1 - y)];
    let nearest = (0..4).min_by_key(|&i| steps[i].1).unwrap_or(0);
    let mut order = [steps[0].0, steps[1].0, steps[2].0, steps[3].0];
    order.swap(nearest, 3);
    order
}

/// One search of [`Board::closes`]: true if it ran dry (an enclosed component), false if it left
/// `bounds` or met an earlier search (which got out). The same walk as `Board::runs_dry`.
fn runs_dry_read_only(
    bounds: (i32, i32, i32, i32),
    taken: &impl Fn((i32, i32)) -> bool,
    marks: &mut Marks,
    mark: u8,
    stack: &mut Vec<(i32, i32)>,
) -> bool {
    while let Some((x, y)) = stack.pop() {
        for next in toward_edge(bounds, x, y) {
            if outside(bounds, next.0, next.1) {
                return false;
            }
            if taken(next) {
                continue;
            }
            match marks.get(next) {
                0 => {
                    marks.set(next, mark);
                    stack.push(next);
                }
                seen if seen == mark => {}
                _ => return false,
            }
        }
    }
    true
}

/// Which search reached each cell of a rectangle (0 for none), kept beside the board by
/// [`Board::closes`] so that a preview leaves the board untouched.
struct Marks {
    x0: i32,
    y0: i32,
    width: usize,
    cells: Vec<u8>,
    last: u8,
}

impl Marks {
    fn over((x0, y0, x1, y1): (i32, i32, i32, i32)) -> Marks {
        let width = (x1 - x0 + 1) as usize;
        let height = (y1 - y0 + 1) as usize;
        Marks { x0, y0, width, cells: vec![0; width * height], last: 0 }
    }

    /// A fresh mark for the next search; a placement has at most 16 seeds.
    fn next_mark(&mut self) -> u8 {
        self.last += 1;
        self.last
    }

    /// The index of a cell inside the rectangle (callers test `outside` first).
    fn index(&self, (x, y): (i32, i32)) -> usize {
        (y - self.y0) as usize * self.width + (x - self.x0) as usize
    }

    fn get(&self, cell: (i32, i32)) -> u8 {
        self.cells[self.index(cell)]
    }

    fn set(&mut self, cell: (i32, i32), mark: u8) {
        let i = self.index(cell);
        self.cells[i] = mark;
    }
}

/// The rectangle of cells `(x0, y0, x1, y1)` around some cells.
fn footprint(cells: &[(i32, i32)]) -> (i32, i32, i32, i32) {
    cells.iter().fold((i32::MAX, i32::MAX, i32::MIN, i32::MIN), |(x0, y0, x1, y1), &(x, y)| {
        (x0.min(x), y0.min(y), x1.max(x), y1.max(y))
    })
}

// Only the debug check of the frontier's runs asks this now.
#[cfg(debug_assertions)]
fn overlaps(a: (i32, i32, i32, i32), b: (i32, i32, i32, i32)) -> bool {
    a.0 <= b.2 && b.0 <= a.2 && a.1 <= b.3 && b.1 <= a.3
}

// Only the debug check of the frontier's runs asks this now; the runs themselves are solved
// from it (see `Board::update_frontier`).
#[cfg(debug_assertions)]
impl Spot {
    /// The cells whose contents decide this spot's verdict: its own, the neighbours it would
    /// touch, and for a street the half-rows where another street would touch it.
    fn depends_on(self) -> (i32, i32, i32, i32) {
        match self {
            Spot::Avenue { column, row } => (3 * column - 1, 2 * row - 1, 3 * column + 1, 2 * row + 4),
            Spot::Street { gap, half_row } => (3 * gap, half_row - 1, 3 * gap + 3, half_row + 2),
        }
    }
}

/// Collects what one spot's neighbours demand. A spot's verdict is asked for about ten times a
/// placement, and whether each neighbouring cell is taken, and what it shows, is a coin toss, so
/// every cell is folded in without a branch: a free cell (piece 0) changes nothing.
struct Needs {
    /// The number each half must show, or [`Needs::ANY`].
    first: u8,
    second: u8,
    /// The grid id of the first piece touched (0 for none yet), and whether another was.
    touched: u8,
    touched_two: bool,
    conflict: bool,
}

impl Needs {
    /// No demand on a half yet: above every number a tile shows.
    const ANY: u8 = u8::MAX;

    fn new() -> Needs {
        Needs { first: Needs::ANY, second: Needs::ANY, touched: 0, touched_two: false, conflict: false }
    }

    fn touch(&mut self, cell: Cell) {
        let taken = cell.piece != 0;
        self.touched_two |= taken & (self.touched != 0) & (cell.piece != self.touched);
        self.touched = if self.touched == 0 { cell.piece } else { self.touched };
    }

    fn demand(slot: &mut u8, conflict: &mut bool, cell: Cell) {
        let taken = cell.piece != 0;
        *conflict |= taken & (*slot != Needs::ANY) & (*slot != cell.pip);
        *slot = if taken & (*slot == Needs::ANY) { cell.pip } else { *slot };
    }

    fn first(&mut self, cell: Cell) {
        self.touch(cell);
        Needs::demand(&mut self.first, &mut self.conflict, cell);
    }

    fn second(&mut self, cell: Cell) {
        self.touch(cell);
        Needs::demand(&mut self.second, &mut self.conflict, cell);
    }

    /// Whether at least `n` (1 or 2) different pieces were touched.
    fn touched_at_least(&self, n: u32) -> bool {
        match n {
            0 => true,
            1 => self.touched != 0,
            _ => self.touched_two,
        }
    }

    fn need(&self) -> Need {
        let half = |n: u8| (n != Needs::ANY).then_some(n);
        Need { first: half(self.first), second: half(self.second) }
    }
}

impl fmt::Display for Board {
    /// The table as text: three characters a half-square, one line a half-row. Avenue halves
    /// show their number and then `│` (middle of a domino) or `═` (end of a domino); streets show
    /// `[w══` `══e]`; free space inside a block is `░░░`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pieces.is_empty() {
            return writeln!(f, "(empty table)");
        }
        let (x0, y0, x1, y1) = self.bounds;
        for y in y0 - 1..=y1 + 1 {
            let mut line = String::new();
            for x in x0 - 1..=x1 + 1 {
                line.push_str(&self.cell_text(x, y));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        writeln!(f, "blocks: {}", self.blocks)
    }
}

impl Board {
    fn cell_text(&self, x: i32, y: i32) -> String {
        let cell = self.grid.get(x, y);
        if cell.piece == 0 {
            return if cell.region != 0 { "░░░".into() } else { "   ".into() };
        }
        let piece = self.pieces[usize::from(cell.piece) - 1];
        let cells = piece.spot.cells();
        let at = cells.iter().position(|&c| c == (x, y)).unwrap_or(0);
        match piece.spot {
            Spot::Avenue { .. } => match at {
                0 | 2 => format!("{:>2} ", cell.pip),
                1 => " │ ".into(),
                _ => " ═ ".into(),
            },
            Spot::Street { .. } => match at {
                0 => format!("[{:<2}", cell.pip),
                2 => format!("{:>2}]", cell.pip),
                1 => "[══".into(),
                _ => "══]".into(),
            },
        }
    }

    /// Every block as a set of free cells, found by flooding the whole table from scratch. This
    /// is the slow, obvious definition, kept to check the incremental one in tests.
    pub fn blocks_by_flood(&self) -> Vec<Vec<(i32, i32)>> {
        if self.pieces.is_empty() {
            return Vec::new();
        }
        let (x0, y0, x1, y1) = self.bounds;
        let mut seen = BTreeSet::new();
        let mut blocks = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                if !self.is_free(x, y) || seen.contains(&(x, y)) {
                    continue;
                }
                let mut stack = vec![(x, y)];
                let mut region = Vec::new();
                let mut open = false;
                seen.insert((x, y));
                while let Some((cx, cy)) = stack.pop() {
                    region.push((cx, cy));
                    for (nx, ny) in [(cx - 1, cy), (cx + 1, cy), (cx, cy - 1), (cx, cy + 1)] {
                        if self.outside_bounds(nx, ny) {
                            open = true;
                        } else if self.is_free(nx, ny) && seen.insert((nx, ny)) {
                            stack.push((nx, ny));
                        }
                    }
                }
                if !open {
                    region.sort_unstable();
                    blocks.push(region);
                }
            }
        }
        blocks
    }

    /// The block label of a free cell (0 outside), for tests.
    pub fn region_of(&self, x: i32, y: i32) -> Option<u16> {
        let cell = self.grid.get(x, y);
        (cell.piece == 0).then_some(cell.region)
    }
}

#[cfg(test)]
mod tests {
    use super::Spot;

    /// The hand-written order is the one `#[derive(Ord)]` gives: by kind, then by the numbers.
    #[test]
    fn spots_sort_by_kind_then_their_numbers() {
        let numbers = [i32::MIN, i32::MIN + 1, -70_000, -3, -1, 0, 1, 2, 65_536, i32::MAX - 1, i32::MAX];
        let mut spots = Vec::new();
        for &a in &numbers {
            for &b in &numbers {
                spots.push(Spot::Avenue { column: a, row: b });
                spots.push(Spot::Street { gap: a, half_row: b });
            }
        }
        let tuple = |s: &Spot| match *s {
            Spot::Avenue { column, row } => (0, column, row),
            Spot::Street { gap, half_row } => (1, gap, half_row),
        };
        for x in &spots {
            for y in &spots {
                assert_eq!(x.cmp(y), tuple(x).cmp(&tuple(y)), "{x} against {y}");
            }
        }
    }
}
