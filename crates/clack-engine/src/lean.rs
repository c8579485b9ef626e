//! A lean Straight Dominoes state for the engine's playouts.
//!
//! A playout needs the hands, the boneyard, the four open ends and the count, the scores and
//! whose turn it is, and nothing else: not the tiles of each arm, not the round's result with
//! its hands, not error values for moves it never makes. The rules' [`straight::State`] keeps all
//! of that (it is the game's reference, and the server's), so copying it and asking it for
//! previews cost most of a playout. This state keeps hands and the boneyard as 28-bit masks and
//! the layout as its root and the last tile of each arm, and it plays exactly the rules: for the
//! same position and the same actions it lists the same legal actions in the same order, scores
//! the same points and ends rounds and the match the same way. `tests/lean.rs` checks that
//! against the rules crate on thousands of random games under every option.
//!
//! Its moves are [`Move`]s, a tile and where it goes packed in 16 bits: listing them writes one
//! number a move, and taking one decodes it with shifts. [`Move::action`] gives the rules'
//! [`Action`]. It takes only moves it listed itself (a playout never makes any other), so it
//! checks nothing; its debug builds assert legality.

use clack_rules::straight::{self, Action, Arm, BlockedScoring, ChanceKind, SpinnerRule, ToMove};
use clack_rules::{Seat, Tile, TileSet};

use crate::rng::Rng;

/// Tiles dealt to each player.
const HAND_SIZE: usize = straight::HAND_SIZE;
/// Tiles of the double-six set.
const SET_TILES: usize = 28;
/// The whole double-six set as a mask over canonical indices.
const SET: u32 = (1 << SET_TILES) - 1;
/// The most legal actions of one position: six ends with at most seven tiles each, and a draw.
pub const MAX_ACTIONS: usize = 6 * 7 + 1;

/// Where [`Straight::legal_actions_into`] writes the legal moves: filled in place, so that a
/// playout step copies no list. It has room for [`MAX_ACTIONS`] and more, a power of two, so
/// that a slot's index masked into range needs no bounds check.
pub type Buffer = [Move; BUFFER];

const BUFFER: usize = 64;

/// The greedy policy played on the rules' own state, with a `preview` of every legal action: the
/// action that scores most now, then the heaviest tile, ties at random (the k-th equal one
/// replaces the choice with probability 1/k); draw and pass only when nothing can be laid. This
/// is how the engine played out before the lean state, kept as the reference the lean policy is
/// checked against (`tests/lean.rs`) and measured beside (`benches/playout.rs`).
pub fn rules_greedy(state: &straight::State, seat: Seat, rng: &mut Rng) -> Action {
    let legal = state.legal_actions();
    if legal.len() == 1 {
        return legal[0];
    }
    let key = |action: Action| match action {
        Action::Lead { tile } | Action::Play { tile, .. } => {
            Some((state.preview(seat, action).map_or(0, |p| p.scored), tile.pips()))
        }
        Action::Draw | Action::Pass => None,
    };
    crate::rollout::greedy(&legal, rng, key).unwrap_or(legal[0])
}

/// A buffer to list legal moves into.
pub fn buffer() -> Buffer {
    [Move::PASS; BUFFER]
}

/// A move: bits 0–4 the tile's canonical index, 5–6 the arm, 7–9 the number matched, 10–11 the
/// kind (play, lead, draw, pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u16);

const LEAD: u16 = 1 << 10;
const KIND: u16 = 3 << 10;

impl Move {
    pub const DRAW: Move = Move(2 << 10);
    pub const PASS: Move = Move(3 << 10);

    /// The move of a rules action.
    pub fn of(action: Action) -> Move {
        match action {
            Action::Lead { tile } => Move(LEAD | u16::from(tile.index())),
            Action::Play { tile, arm, matched } => Move(end_code(arm, matched) | u16::from(tile.index())),
            Action::Draw => Move::DRAW,
            Action::Pass => Move::PASS,
        }
    }

    /// The rules' action this move is.
    pub fn action(self) -> Action {
        match self.0 & KIND {
            0 => Action::Play { tile: self.tile(), arm: Arm::ALL[self.arm()], matched: self.matched() },
            LEAD => Action::Lead { tile: self.tile() },
            _ if self == Move::DRAW => Action::Draw,
            _ => Action::Pass,
        }
    }

    /// The pips of the tile the move lays (0 for a draw or a pass).
    pub(crate) fn pips(self) -> u32 {
        if self.lays() { u32::from(PIPS[self.index()]) } else { 0 }
    }

    /// Whether the move lays a tile (a lead or a play).
    fn lays(self) -> bool {
        self.0 & KIND <= LEAD
    }

    fn index(self) -> usize {
        usize::from(self.0 & 31)
    }

    fn tile(self) -> Tile {
        tile(u32::from(self.0))
    }

    fn arm(self) -> usize {
        usize::from(self.0 >> 5 & 3)
    }

    fn matched(self) -> u8 {
        (self.0 >> 7 & 7) as u8
    }
}

/// The doubles that would become the spinner if laid on a layout with or without one.
fn rerootable(spinner: bool, rule: SpinnerRule) -> u32 {
    if !spinner && rule == SpinnerRule::FirstDouble { DOUBLES } else { 0 }
}

/// The arm and number of a play, in a [`Move`]'s bits.
fn end_code(arm: Arm, matched: u8) -> u16 {
    (arm as u16) << 5 | u16::from(matched & 7) << 7
}

/// `DOUBLES`: the doubles, as a mask.
const DOUBLES: u32 = {
    let mut mask = 0u32;
    let mut n = 0u8;
    while n <= 6 {
        if let Some(tile) = Tile::new(n, n) {
            mask |= 1 << tile.index();
        }
        n += 1;
    }
    mask
};

/// `SUITS[n]`: the tiles showing `n`, as a mask; the eighth entry is empty so that an index
/// masked into range costs one `and`.
// The tables are statics, not consts: a const array indexed at run time was copied onto the
// stack at every use.
static SUITS: [u32; 8] = {
    let mut suits = [0u32; 8];
    let mut n = 0u8;
    while n <= 6 {
        let mut m = 0u8;
        while m <= 6 {
            if let Some(tile) = Tile::new(n, m) {
                suits[n as usize] |= 1 << tile.index();
            }
            m += 1;
        }
        n += 1;
    }
    suits
};

/// `PIPS[i]`: the pips of the tile with canonical index `i`.
static PIPS: [u8; 32] = {
    let mut pips = [0u8; 32];
    let mut i = 0;
    while i < SET_TILES {
        if let Some(tile) = Tile::from_index(i as u8) {
            pips[i] = tile.pips() as u8;
        }
        i += 1;
    }
    pips
};

/// `HALVES[i]`: the low and high halves of the tile with canonical index `i`.
static HALVES: [(u8, u8); 32] = {
    let mut halves = [(0u8, 0u8); 32];
    let mut i = 0;
    while i < SET_TILES {
        if let Some(tile) = Tile::from_index(i as u8) {
            halves[i] = (tile.lo(), tile.hi());
        }
        i += 1;
    }
    halves
};

/// The tile with canonical index `index` (below 28; a bit position of a mask).
#[inline(always)]
fn tile(index: u32) -> Tile {
    // Masked below 32, the index is always a tile's: no branch, no failure path.
    Tile::from_index((index & 31) as u8).unwrap_or(ZERO)
}

const ZERO: Tile = match Tile::new(0, 0) {
    Some(tile) => tile,
    None => unreachable!(),
};

/// The mask of a tile set of the double-six set.
pub fn mask(set: TileSet) -> u32 {
    set.iter().fold(0, |mask, tile| mask | 1 << tile.index())
}

/// The tile set of a mask.
pub fn set(mask: u32) -> TileSet {
    (0..SET_TILES as u32).filter(|i| mask & (1 << i) != 0).map(tile).collect()
}

/// Pips in the tiles of a mask.
fn pips(mut mask: u32) -> u32 {
    let mut total = 0;
    while mask != 0 {
        total += u32::from(PIPS[mask.trailing_zeros() as usize]);
        mask &= mask - 1;
    }
    total
}

/// What a play scores for an open-end count.
fn count_points(count: u32) -> u32 {
    // A count of zero scores zero either way; a multiply, not a branch that mispredicts.
    count * u32::from(count.is_multiple_of(5))
}

/// A tile as it lies on an arm: `inner` against the arm's end, `outer` the new end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    inner: u8,
    outer: u8,
}

impl Link {
    /// What this tile adds to the count while it ends its arm (a double counts twice).
    fn open_value(self) -> u32 {
        u32::from(self.outer) << u32::from(self.inner == self.outer)
    }
}

/// The layout, as much of it as decides what may be played and what it scores: the root, whether
/// it is a spinner, and the last tile of each arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Table {
    /// The root's halves, low first; meaningless before the lead.
    lo: u8,
    hi: u8,
    led: bool,
    spinner: bool,
    tips: [Option<Link>; 4],
    /// The doubles that would become the spinner if laid now (under `first_double`, before
    /// there is one), as a mask; empty otherwise.
    rerootable: u32,
}

/// The ends tiles may be laid against and the count, as [`straight::State`] keeps them (less
/// the per-arm masks its checks read). Equal when the count and the pairs in use are.
#[derive(Clone, Copy, Debug, Eq)]
struct Ends {
    count: u32,
    /// The (arm, number) pairs in legal-action order, as the bits of a [`Move`] ([`end_code`]),
    /// then padding.
    pairs: [u16; 6],
    /// The tiles showing each pair's number, as a mask.
    suits: [u32; 6],
    open: u8,
}

impl PartialEq for Ends {
    fn eq(&self, other: &Ends) -> bool {
        let open = usize::from(self.open);
        self.count == other.count
            && self.open == other.open
            && self.pairs[..open] == other.pairs[..open]
            && self.suits[..open] == other.suits[..open]
    }
}

impl Ends {
    const NONE: Ends = Ends { count: 0, pairs: [0; 6], suits: [0; 6], open: 0 };

    fn add(&mut self, arm: Arm, end: u8) {
        self.pairs[usize::from(self.open)] = end_code(arm, end);
        self.suits[usize::from(self.open)] = SUITS[usize::from(end & 7)];
        self.open += 1;
    }

    /// Moves the end of an arm that holds a tile already (its place among the pairs is fixed).
    fn move_end(&mut self, arm: usize, end: u8) {
        let slot = if arm == Arm::South as usize { usize::from(self.open) - 1 } else { arm };
        self.pairs[slot] = (arm as u16) << 5 | u16::from(end & 7) << 7;
        self.suits[slot] = SUITS[usize::from(end & 7)];
    }
}

impl Table {
    /// The open-end count.
    fn count(&self) -> u32 {
        if !self.led {
            return 0;
        }
        let [west, east, north, south] = self.tips;
        let value = |link: Option<Link>| link.map_or(0, Link::open_value);
        let times = if self.lo == self.hi { 2 } else { 1 };
        let root = match (west, east) {
            (None, None) => u32::from(self.lo) + u32::from(self.hi),
            (None, Some(_)) => u32::from(self.lo) * times,
            (Some(_), None) => u32::from(self.hi) * times,
            (Some(_), Some(_)) => 0,
        };
        value(west) + value(east) + value(north) + value(south) + root
    }

    /// Every open end, in legal-action order, and the count.
    fn ends(&self, sides_open_immediately: bool) -> Ends {
        let mut ends = Ends::NONE;
        self.fill_ends(&mut ends, sides_open_immediately);
        ends
    }

    /// [`Table::ends`], written over `ends` in place (a copy of the whole list cost more than
    /// filling it).
    fn fill_ends(&self, ends: &mut Ends, sides_open_immediately: bool) {
        ends.open = 0;
        ends.count = 0;
        if !self.led {
            return;
        }
        let [west, east, ..] = self.tips;
        ends.add(Arm::West, west.map_or(self.lo, |link| link.outer));
        ends.add(Arm::East, east.map_or(self.hi, |link| link.outer));
        if self.spinner && (sides_open_immediately || (west.is_some() && east.is_some())) {
            self.add_side_ends(ends);
        }
        ends.count = self.count();
    }

    /// Adds the ends of the north and south arms, which come last in legal-action order.
    fn add_side_ends(&self, ends: &mut Ends) {
        let (lo, hi) = (self.lo, self.hi);
        for arm in [Arm::North, Arm::South] {
            match self.tips[arm as usize] {
                Some(link) => ends.add(arm, link.outer),
                // An empty side arm of a spinner takes either of its halves.
                None => {
                    ends.add(arm, lo);
                    if hi != lo {
                        ends.add(arm, hi);
                    }
                }
            }
        }
    }

    /// Leads the tile with canonical index `index`.
    fn lead(&mut self, index: usize, rule: SpinnerRule) {
        let (lo, hi) = HALVES[index & 31];
        let spinner = match rule {
            SpinnerRule::FirstTile => true,
            SpinnerRule::FirstDouble => lo == hi,
            SpinnerRule::None => false,
        };
        *self = Table { lo, hi, led: true, spinner, tips: [None; 4], rerootable: rerootable(spinner, rule) };
    }

    /// Whether laying the tile with canonical index `index` now makes it the spinner.
    fn reroots(&self, index: usize) -> bool {
        self.rerootable >> index & 1 != 0
    }

    /// Lays `tile` on `arm` against `matched`; under `first_double` the first double becomes the
    /// spinner, and the line it ended becomes its opposite arm.
    /// Lays the tile `link` shows on `arm`.
    fn extend(&mut self, arm: usize, link: Link) {
        if link.inner == link.outer && self.rerootable != 0 {
            // The rules re-root the whole line on the double: its far end, the end of the arm
            // opposite `arm` (or the root's half there when that arm is empty), becomes the tip
            // of that arm; the double's own arm is empty.
            let east = arm == Arm::East as usize;
            let away = if east { Arm::West } else { Arm::East } as usize;
            let far = if east { (self.hi, self.lo) } else { (self.lo, self.hi) };
            let tip = self.tips[away].unwrap_or(Link { inner: far.0, outer: far.1 });
            let mut tips = [None; 4];
            tips[away] = Some(tip);
            *self = Table { lo: link.inner, hi: link.inner, led: true, spinner: true, tips, rerootable: 0 };
        } else {
            self.tips[arm] = Some(link);
        }
    }
}

/// Whose turn it is, or what chance the state waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// A new round's deal.
    Deal,
    /// A seat to move.
    Turn(Seat),
    /// A tile from the boneyard for this seat.
    Drawing(Seat),
    Over,
}

/// A game of Straight Dominoes for playouts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Straight {
    options: straight::Options,
    phase: Phase,
    hands: [u32; 4],
    boneyard: u32,
    scores: [u32; 4],
    leader: Seat,
    passes: u8,
    table: Table,
    ends: Ends,
    /// The side that won, once the game is over.
    winner: Option<usize>,
    /// A seat's side is its number masked with this: 1 with teams, else 3.
    side_mask: u8,
}

impl Straight {
    /// The position of `state`, to be played on.
    pub fn from_state(state: &straight::State) -> Straight {
        let options = *state.options();
        let layout = state.layout();
        let mut table = Table::default();
        if let Some(root) = layout.root() {
            table.lo = root.lo();
            table.hi = root.hi();
            table.led = true;
            table.spinner = layout.spinner().is_some();
            table.rerootable = rerootable(table.spinner, options.spinner);
            for arm in Arm::ALL {
                table.tips[arm as usize] =
                    layout.arm(arm).last().map(|link| Link { inner: link.inner, outer: link.outer });
            }
        }
        let phase = match state.to_move() {
            ToMove::Seat { seat } => Phase::Turn(seat),
            ToMove::Chance { kind: ChanceKind::Draw { seat } } => Phase::Drawing(seat),
            // A playout never starts before the first deal; the draw for the lead is treated as
            // a deal awaited.
            ToMove::Chance { kind: ChanceKind::Deal | ChanceKind::LeadDraw } => Phase::Deal,
            ToMove::Over => Phase::Over,
        };
        let mut hands = [0; 4];
        for (seat, hand) in hands.iter_mut().enumerate().take(usize::from(options.players)) {
            *hand = mask(state.hand(Seat(seat as u8)));
        }
        let mut scores = [0; 4];
        scores[..state.scores().len()].copy_from_slice(state.scores());
        Straight {
            options,
            phase,
            hands,
            boneyard: mask(state.boneyard()),
            scores,
            leader: state.leader(),
            passes: state.passes(),
            table,
            ends: table.ends(options.spinner_sides_open_immediately),
            winner: state.outcome().map(|outcome| outcome.winning_side),
            side_mask: side_mask(&options),
        }
    }

    /// A game with `options`, about to deal its first round with `leader` leading (the draw for
    /// the lead made).
    pub fn new(options: straight::Options, leader: Seat) -> Straight {
        Straight {
            options,
            phase: Phase::Deal,
            hands: [0; 4],
            boneyard: 0,
            scores: [0; 4],
            leader,
            passes: 0,
            table: Table::default(),
            ends: Ends::NONE,
            winner: None,
            side_mask: side_mask(&options),
        }
    }

    pub fn options(&self) -> &straight::Options {
        &self.options
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Each side's score.
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.options.sides()]
    }

    /// The side that won, once the game is over.
    pub fn winning_side(&self) -> Option<usize> {
        self.winner
    }

    pub fn hand(&self, seat: Seat) -> TileSet {
        set(self.hands[seat.index()])
    }

    pub fn boneyard(&self) -> TileSet {
        set(self.boneyard)
    }

    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// The open-end count.
    pub fn count(&self) -> u32 {
        self.ends.count
    }

    fn drawable(&self) -> u32 {
        self.boneyard.count_ones().saturating_sub(u32::from(self.options.boneyard_reserve))
    }

    fn may_draw(&self, can_play: bool) -> bool {
        let by_option = self.options.may_draw_when_able && self.table.led;
        (!can_play || by_option) && self.drawable() > 0
    }

    /// Writes the legal actions of the seat to move to the front of `out`, in the rules' order,
    /// and returns how many there are (none while a chance is awaited or after the end).
    #[inline]
    pub fn legal_actions_into(&self, out: &mut Buffer) -> usize {
        let Phase::Turn(seat) = self.phase else { return 0 };
        let hand = self.hands[seat.index()];
        let mut len = 0;
        if !self.table.led {
            let mut rest = hand;
            while rest != 0 {
                out[len & (BUFFER - 1)] = Move(LEAD | rest.trailing_zeros() as u16);
                len += 1;
                rest &= rest - 1;
            }
            return len;
        }
        // How many tiles fit an end is a coin toss, so a loop that stops when they run out
        // mispredicts about once an end. Every end gets two slots written whether or not a tile
        // fills them (the buffer has room: at most 42 plays, and a slot past the last play is
        // written over or ignored), and `len` grows only past the filled ones; a third tile of
        // one suit for one end is rare enough to loop for.
        let open = usize::from(self.ends.open);
        for (&end, &suit) in self.ends.pairs[..open].iter().zip(&self.ends.suits[..open]) {
            let mut fits = hand & suit;
            for _ in 0..2 {
                // An empty `fits` writes a move with a wrong arm: in a slot `len` does not
                // count, which the next write or nobody reads.
                out[len & (BUFFER - 1)] = Move(end | fits.trailing_zeros() as u16);
                len += usize::from(fits != 0);
                fits &= fits.wrapping_sub(1);
            }
            while fits != 0 {
                out[len & (BUFFER - 1)] = Move(end | fits.trailing_zeros() as u16);
                len += 1;
                fits &= fits - 1;
            }
        }
        debug_assert!(len < MAX_ACTIONS);
        if self.may_draw(len > 0) {
            out[len & (BUFFER - 1)] = Move::DRAW;
            len += 1;
        } else if len == 0 {
            out[0] = Move::PASS;
            len = 1;
        }
        len
    }

    /// The legal actions of the seat to move, as a list (tests and tools; playouts use
    /// [`Straight::legal_actions_into`]).
    pub fn legal_actions(&self) -> Vec<Action> {
        let mut out = buffer();
        let len = self.legal_actions_into(&mut out);
        out[..len].iter().map(|m| m.action()).collect()
    }

    /// The link a play lays: the number matched inside, the tile's other half outside.
    #[inline(always)]
    fn link(m: Move) -> Link {
        let matched = m.matched();
        Link { inner: matched, outer: PIPS[m.index()] - matched }
    }

    /// The points `m`, one of the legal moves, would score for the count, as the rules'
    /// `preview` says.
    #[inline]
    pub fn scored(&self, m: Move) -> u32 {
        let count = match m.0 & KIND {
            0 => {
                let (arm, link) = (m.arm(), Straight::link(m));
                match self.table.tips[arm].filter(|_| !self.table.reroots(m.index())) {
                    Some(old) => self.ends.count + link.open_value() - old.open_value(),
                    None => {
                        let mut table = self.table;
                        table.extend(arm, link);
                        table.count()
                    }
                }
            }
            // Alone on the table, the root counts both halves.
            LEAD => u32::from(PIPS[m.index()]),
            _ => return 0,
        };
        count_points(count)
    }

    /// Applies `m`, which must be one of the legal moves of the seat to move.
    #[inline]
    pub fn apply(&mut self, m: Move) {
        let Phase::Turn(seat) = self.phase else {
            debug_assert!(false, "no seat to move");
            return;
        };
        debug_assert!(self.legal_actions().contains(&m.action()), "{:?} is legal", m.action());
        match m.0 & KIND {
            0 => {
                let (arm, link) = (m.arm(), Straight::link(m));
                let reroots = self.table.reroots(m.index());
                match self.table.tips[arm].filter(|_| !reroots) {
                    Some(old) => {
                        self.table.tips[arm] = Some(link);
                        self.ends.move_end(arm, link.outer);
                        self.ends.count = self.ends.count + link.open_value() - old.open_value();
                    }
                    None => {
                        self.table.extend(arm, link);
                        let sides_open = self.options.spinner_sides_open_immediately;
                        if !reroots && arm < 2 {
                            // The first tile west or east: that arm's end keeps its place (first
                            // or second); the side arms of a spinner open once both hold a tile.
                            self.ends.move_end(arm, link.outer);
                            self.ends.count = self.table.count();
                            let [west, east, ..] = self.table.tips;
                            if self.table.spinner && !sides_open && west.is_some() && east.is_some() {
                                self.table.add_side_ends(&mut self.ends);
                            }
                        } else {
                            self.table.fill_ends(&mut self.ends, sides_open);
                        }
                    }
                }
                debug_assert_eq!(self.ends, self.table.ends(self.options.spinner_sides_open_immediately));
                self.after_play(seat, m.index());
            }
            LEAD => {
                self.table.lead(m.index(), self.options.spinner);
                self.table.fill_ends(&mut self.ends, self.options.spinner_sides_open_immediately);
                self.after_play(seat, m.index());
            }
            _ if m == Move::DRAW => self.phase = Phase::Drawing(seat),
            _ => {
                self.passes += 1;
                if self.passes >= self.options.players {
                    self.end_round(End::Blocked);
                } else {
                    self.phase = Phase::Turn(seat.next(self.options.players));
                }
            }
        }
    }

    /// Applies a rules action, which must be legal (tests and tools).
    pub fn apply_action(&mut self, action: Action) {
        self.apply(Move::of(action));
    }

    #[inline(always)]
    fn after_play(&mut self, seat: Seat, index: usize) {
        self.hands[seat.index()] &= !(1 << index);
        self.passes = 0;
        let side = usize::from(seat.0 & self.side_mask);
        debug_assert_eq!(side, self.options.side(seat));
        self.scores[side] += count_points(self.ends.count);
        if self.scores[side] >= self.options.target && !self.options.finish_round_at_target {
            self.end_round(End::TargetReached);
        } else if self.hands[seat.index()] == 0 {
            self.end_round(End::Domino(seat));
        } else {
            self.phase = Phase::Turn(seat.next(self.options.players));
        }
    }

    fn end_round(&mut self, end: End) {
        let winner = match end {
            End::Domino(seat) => Some(seat),
            End::Blocked => self.blocked_winner(),
            End::TargetReached => None,
        };
        if let Some(seat) = winner
            && end != End::TargetReached
        {
            let points = self.round_points(seat);
            self.scores[self.options.side(seat)] += points;
        }
        self.leader = winner.unwrap_or(self.leader.next(self.options.players));
        self.phase = Phase::Deal;
        // The game ends with a side at the target and the unique highest score; a tie at the
        // top plays another round, unless the round stopped at the target.
        let scores = self.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        let leaders = scores.iter().filter(|&&s| s == best).count();
        if best >= self.options.target && (leaders == 1 || end == End::TargetReached) {
            self.winner = Some(scores.iter().position(|&s| s == best).unwrap_or(0));
            self.phase = Phase::Over;
        }
    }

    /// The winner of a blocked round, or `None` on a tie between sides.
    fn blocked_winner(&self) -> Option<Seat> {
        let players = usize::from(self.options.players);
        let mut seat_pips = [0u32; 4];
        let mut side_pips = [0u32; 4];
        for seat in 0..players {
            seat_pips[seat] = pips(self.hands[seat]);
            side_pips[self.options.side(Seat(seat as u8))] += seat_pips[seat];
        }
        let side_pips = &side_pips[..self.options.sides()];
        let lowest = side_pips.iter().copied().min()?;
        if side_pips.iter().filter(|&&p| p == lowest).count() > 1 {
            return None;
        }
        let side = side_pips.iter().position(|&p| p == lowest)?;
        (0..players as u8).map(Seat).filter(|&s| self.options.side(s) == side).min_by_key(|s| seat_pips[s.index()])
    }

    /// round_to_5(opponents' pips − the winner's own, under `net`), never below zero.
    fn round_points(&self, winner: Seat) -> u32 {
        let side = self.options.side(winner);
        let opponents: u32 = (0..self.options.players)
            .map(Seat)
            .filter(|&s| self.options.side(s) != side)
            .map(|s| pips(self.hands[s.index()]))
            .sum();
        let own = match self.options.blocked_scoring {
            BlockedScoring::Net => pips(self.hands[winner.index()]),
            BlockedScoring::Opponents => 0,
        };
        straight::round_to_5(i64::from(opponents) - i64::from(own))
    }

    /// Deals a round: `hands` for the seats at the table, the rest to the boneyard.
    pub fn deal_hands(&mut self, hands: [u32; 4]) {
        debug_assert_eq!(self.phase, Phase::Deal);
        let dealt = hands.iter().fold(0, |all, hand| all | hand);
        self.hands = hands;
        self.boneyard = SET & !dealt;
        self.table = Table::default();
        self.ends = Ends::NONE;
        self.passes = 0;
        self.phase = Phase::Turn(self.leader);
    }

    /// Deals a round with the engine's generator: the set in canonical order, shuffled
    /// (Fisher–Yates), seven tiles a seat in seat order.
    pub fn deal(&mut self, rng: &mut Rng) {
        let mut tiles: [u8; SET_TILES] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut tiles);
        let mut hands = [0u32; 4];
        for (hand, chunk) in hands.iter_mut().zip(tiles.chunks(HAND_SIZE)).take(usize::from(self.options.players)) {
            *hand = chunk.iter().fold(0, |bits, &i| bits | 1 << i);
        }
        self.deal_hands(hands);
    }

    /// Gives the drawing seat `tile` from the boneyard.
    pub fn draw_tile(&mut self, tile: Tile) {
        let Phase::Drawing(seat) = self.phase else {
            debug_assert!(false, "no seat is drawing");
            return;
        };
        debug_assert!(self.boneyard & (1 << tile.index()) != 0, "{tile} is in the boneyard");
        self.boneyard &= !(1 << tile.index());
        self.hands[seat.index()] |= 1 << tile.index();
        self.phase = Phase::Turn(seat);
    }

    /// Draws for the drawing seat with the engine's generator: each tile of the boneyard equally
    /// likely, as [`Rng::pick`] picks from a tile set. False if the boneyard is empty.
    pub fn draw(&mut self, rng: &mut Rng) -> bool {
        let mut rest = self.boneyard;
        let n = rng.below(rest.count_ones() as usize);
        if rest == 0 {
            return false;
        }
        for _ in 0..n {
            rest &= rest - 1;
        }
        self.draw_tile(tile(rest.trailing_zeros()));
        true
    }

    /// The greedy policy's action: most points now, then the heaviest tile, ties at random;
    /// drawing or passing only when nothing can be laid.
    pub fn policy(&self, rng: &mut Rng, out: &mut Buffer) -> Move {
        let len = self.legal_actions_into(out);
        let legal = &out[..len];
        if len == 1 {
            return legal[0];
        }
        let key = |m: Move| m.lays().then(|| (self.scored(m), u32::from(PIPS[m.index()])));
        crate::rollout::greedy(legal, rng, key).unwrap_or(legal[0])
    }

    /// The guarded policy's action: like the greedy policy's, but a lay is worth its points less
    /// the most the next seat can score in reply when that seat is an opponent, so that a lay
    /// scoring 10 that leaves the opponent 20 is not preferred to one scoring 5 that leaves
    /// nothing. The information-set tree plays its rounds out by it (see [`crate::ismcts`]).
    pub fn guarded_policy(&self, rng: &mut Rng, out: &mut Buffer) -> Move {
        let len = self.legal_actions_into(out);
        if len == 1 {
            return out[0];
        }
        let legal: Buffer = *out;
        let mut replies = buffer();
        let key = |m: Move| m.lays().then(|| (self.scored(m) as i32 - self.reply(m, &mut replies), PIPS[m.index()]));
        crate::rollout::greedy(&legal[..len], rng, key).unwrap_or(legal[0])
    }

    /// The most the seat to move after `m` can score with its next lay, if it is an opponent of
    /// the mover; 0 if it is a partner, must draw or pass, or the round is over.
    fn reply(&self, m: Move, replies: &mut Buffer) -> i32 {
        let Phase::Turn(mover) = self.phase else { return 0 };
        let mut next = self.clone();
        next.apply(m);
        match next.phase {
            Phase::Turn(seat) if self.options.side(seat) != self.options.side(mover) => {
                let len = next.legal_actions_into(replies);
                replies[..len].iter().filter(|r| r.lays()).map(|&r| next.scored(r) as i32).max().unwrap_or(0)
            }
            _ => 0,
        }
    }

    /// Plays the current round to its end (a deal awaited, or the game over) by `policy`,
    /// drawing with the engine's generator.
    pub fn play_round(&mut self, policy: Policy, rng: &mut Rng, out: &mut Buffer) {
        self.play_round_drawing(policy, rng, out, Straight::draw);
    }

    /// Plays the current round to its end by `policy`, `draw` giving a drawing seat its tile
    /// (false if it has none to give, which ends the play).
    pub(crate) fn play_round_drawing(
        &mut self,
        policy: Policy,
        rng: &mut Rng,
        out: &mut Buffer,
        mut draw: impl FnMut(&mut Straight, &mut Rng) -> bool,
    ) {
        loop {
            match self.phase {
                Phase::Turn(_) => {
                    let action = match policy {
                        Policy::Greedy => self.policy(rng, out),
                        Policy::Guarded => self.guarded_policy(rng, out),
                    };
                    self.apply(action);
                }
                Phase::Drawing(_) => {
                    if !draw(self, rng) {
                        return;
                    }
                }
                Phase::Deal | Phase::Over => return,
            }
        }
    }
}

/// How a playout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// [`Straight::policy`]: the flat evaluation's playouts, and `engine:legacy-strong`'s.
    Greedy,
    /// [`Straight::guarded_policy`]: the information-set tree's playouts.
    Guarded,
}

/// The mask that takes a seat's number to its side's: seats 0 and 2 against 1 and 3 with teams.
fn side_mask(options: &straight::Options) -> u8 {
    if options.teams { 1 } else { 3 }
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Domino(Seat),
    Blocked,
    TargetReached,
}
