//! Straight Dominoes (All Fives with a spinner), exactly as `docs/rules/straight-dominoes.md`
//! states it.
//!
//! A [`State`] is built once through [`State::new`] from validated [`Options`] and then changes
//! only through [`State::apply`] (a seat's [`Action`]) and [`State::apply_chance`] (a [`Chance`]
//! outcome: the draw for the first leader, a deal, a tile drawn from the boneyard). Both check
//! the whole move before touching anything, so a rejected move leaves the state exactly as it was
//! and says why with its own error variant.
//!
//! This module knows nothing of events, storage or the network; it does not keep a history.
//! Whoever needs the public history (a log, a bot view) keeps the moves it applied.

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::chance::Dealer;
use crate::tile::{Seat, Tile, TileSet};

/// Tiles dealt to each player.
pub const HAND_SIZE: usize = 7;
/// The largest table.
pub const MAX_PLAYERS: usize = 4;
/// The double-six set.
pub(crate) const SET: TileSet = TileSet::full(6);
/// The longest possible arm: every tile but the spinner.
const MAX_ARM: usize = 27;
/// Upper bound of legal actions in one position: at most six (arm, number) ends, each matched by
/// at most the seven tiles of that number's suit, plus a draw.
const MAX_ACTIONS: usize = 6 * 7 + 1;

/// The list returned by [`State::legal_actions`]; it lives on the stack.
pub type Actions = ArrayVec<Action, MAX_ACTIONS>;

/// What the spinner is (rules: "The layout").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpinnerRule {
    /// The first tile of each round, double or not, is the spinner (the seeds).
    FirstTile,
    /// The first double played is the spinner; before it the layout is a plain line.
    FirstDouble,
    /// No spinner: a plain line (Muggins).
    None,
}

/// How a round's winner is paid (rules: "End of a round").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BlockedScoring {
    /// Opponents' pips minus the winner's own (seed 003).
    Net,
    /// Opponents' pips only (seed 001).
    Opponents,
}

/// Every rule option of the rules file, with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// 2, 3 or 4.
    pub players: u8,
    /// Seats 0 and 2 against 1 and 3; four players only.
    pub teams: bool,
    /// Tiles that stay in the boneyard and can never be drawn.
    pub boneyard_reserve: u8,
    pub spinner: SpinnerRule,
    /// North and south open as soon as the spinner is down, not after west and east hold a tile.
    pub spinner_sides_open_immediately: bool,
    /// A player holding a playable tile may still draw.
    pub may_draw_when_able: bool,
    pub blocked_scoring: BlockedScoring,
    /// The score that ends the game.
    pub target: u32,
    /// Play the round out after a side reaches the target instead of stopping at once.
    pub finish_round_at_target: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            players: 4,
            teams: false,
            boneyard_reserve: 0,
            spinner: SpinnerRule::FirstTile,
            spinner_sides_open_immediately: false,
            may_draw_when_able: false,
            blocked_scoring: BlockedScoring::Net,
            target: 250,
            finish_round_at_target: false,
        }
    }
}

/// Options that describe no playable game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("players must be 2, 3 or 4, not {0}")]
    Players(u8),
    #[error("teams need exactly 4 players, not {0}")]
    TeamsNeedFour(u8),
    #[error("boneyard_reserve is {reserve} but only {boneyard} tiles are left after the deal")]
    Reserve { reserve: u8, boneyard: u8 },
    #[error("target must be at least 1")]
    Target,
}

impl Options {
    pub fn validate(&self) -> Result<(), OptionsError> {
        if !(2..=MAX_PLAYERS as u8).contains(&self.players) {
            return Err(OptionsError::Players(self.players));
        }
        if self.teams && self.players != 4 {
            return Err(OptionsError::TeamsNeedFour(self.players));
        }
        let boneyard = (SET.len() - HAND_SIZE * self.players as usize) as u8;
        if self.boneyard_reserve > boneyard {
            return Err(OptionsError::Reserve { reserve: self.boneyard_reserve, boneyard });
        }
        if self.target == 0 {
            return Err(OptionsError::Target);
        }
        Ok(())
    }

    /// Number of sides that keep a score: two with teams, else one per player.
    pub fn sides(&self) -> usize {
        if self.teams { 2 } else { self.players as usize }
    }

    /// The side a seat scores for.
    pub fn side(&self, seat: Seat) -> usize {
        if self.teams { seat.index() % 2 } else { seat.index() }
    }
}

/// The four arms of the layout, in the order legal actions list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    West,
    East,
    North,
    South,
}

impl Arm {
    pub const ALL: [Arm; 4] = [Arm::West, Arm::East, Arm::North, Arm::South];

    const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Arm::West => "west",
            Arm::East => "east",
            Arm::North => "north",
            Arm::South => "south",
        }
    }
}

impl fmt::Display for Arm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Arm {
    type Err = WireError;

    fn from_str(s: &str) -> Result<Arm, WireError> {
        Arm::ALL
            .into_iter()
            .find(|arm| arm.name().eq_ignore_ascii_case(s) || arm.name()[..1].eq_ignore_ascii_case(s))
            .ok_or_else(|| WireError::Syntax(s.to_owned()))
    }
}

/// A tile as it lies on an arm: `inner` faces the spinner (it matched the arm's end), `outer` is
/// the arm's new open end. A double lies crosswise and shows its number twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub inner: u8,
    pub outer: u8,
}

impl Link {
    pub fn tile(self) -> Tile {
        Tile::new(self.inner, self.outer).unwrap_or_else(|| unreachable!("halves are at most 6"))
    }

    /// What this tile adds to the count while it ends its arm.
    fn open_value(self) -> u32 {
        let outer = u32::from(self.outer);
        outer << u32::from(self.inner == self.outer)
    }

    fn reversed(self) -> Link {
        Link { inner: self.outer, outer: self.inner }
    }
}

/// The tiles on the table in one round.
///
/// The first tile of the round is the *root*, laid with its low half west. When it is a spinner
/// it has four arms; otherwise only west and east. Under [`SpinnerRule::FirstDouble`] the first
/// double played becomes the spinner and the layout is re-rooted on it: the line it was laid on
/// becomes one of its arms.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Layout {
    root: Option<Tile>,
    spinner: bool,
    arms: [ArrayVec<Link, MAX_ARM>; 4],
    /// The last link of each arm, kept beside the arms because the count and the open ends
    /// read only these after every play.
    tips: [Option<Link>; 4],
}

impl Layout {
    pub fn root(&self) -> Option<Tile> {
        self.root
    }

    /// The spinner, once there is one.
    pub fn spinner(&self) -> Option<Tile> {
        self.root.filter(|_| self.spinner)
    }

    /// The tiles of one arm, from the spinner outward.
    pub fn arm(&self, arm: Arm) -> &[Link] {
        &self.arms[arm.index()]
    }

    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Tiles on the table.
    pub fn len(&self) -> usize {
        usize::from(self.root.is_some()) + self.arms.iter().map(ArrayVec::len).sum::<usize>()
    }

    /// The set of tiles on the table.
    pub fn tiles(&self) -> TileSet {
        let arms = self.arms.iter().flatten().map(|link| link.tile());
        self.root.into_iter().chain(arms).collect()
    }

    /// The open-end count (rules: "Open ends and their count").
    pub fn count(&self) -> u32 {
        let Some(root) = self.root else { return 0 };
        let [west, east, north, south] = self.tips;
        let value = |link: Option<Link>| link.map_or(0, Link::open_value);
        // The root counts for the halves of it that still end west or east.
        let times = if root.is_double() { 2 } else { 1 };
        let root_value = match (west, east) {
            (None, None) => root.pips(),
            (None, Some(_)) => u32::from(root.lo()) * times,
            (Some(_), None) => u32::from(root.hi()) * times,
            (Some(_), Some(_)) => 0,
        };
        value(west) + value(east) + value(north) + value(south) + root_value
    }

    /// Whether tiles may be laid on `arm` now.
    pub fn is_open(&self, arm: Arm, sides_open_immediately: bool) -> bool {
        match arm {
            _ if self.root.is_none() => false,
            Arm::West | Arm::East => true,
            Arm::North | Arm::South => {
                self.spinner
                    && (sides_open_immediately
                        || (self.tips[Arm::West.index()].is_some() && self.tips[Arm::East.index()].is_some()))
            }
        }
    }

    /// Every end a tile may be laid against now, and the count they make. Computed after every
    /// play, so it reads the tips once and lists the ends in legal-action order as it goes.
    fn ends(&self, sides_open_immediately: bool) -> Ends {
        let mut ends = Ends::NONE;
        let Some(root) = self.root else { return ends };
        let (lo, hi) = (root.lo(), root.hi());
        let [west, east, north, south] = self.tips;
        ends.add(Arm::West, west.map_or(lo, |link| link.outer));
        ends.add(Arm::East, east.map_or(hi, |link| link.outer));
        if self.spinner && (sides_open_immediately || (west.is_some() && east.is_some())) {
            for (arm, tip) in [(Arm::North, north), (Arm::South, south)] {
                match tip {
                    Some(link) => ends.add(arm, link.outer),
                    // An empty side arm of a spinner takes either of its halves (one number for
                    // a double).
                    None => {
                        ends.add(arm, lo);
                        if hi != lo {
                            ends.add(arm, hi);
                        }
                    }
                }
            }
        }
        ends.count = self.count();
        ends
    }

    fn lead(&mut self, tile: Tile, rule: SpinnerRule) {
        self.root = Some(tile);
        self.spinner = match rule {
            SpinnerRule::FirstTile => true,
            SpinnerRule::FirstDouble => tile.is_double(),
            SpinnerRule::None => false,
        };
    }

    fn extend(&mut self, tile: Tile, arm: Arm, matched: u8, rule: SpinnerRule) {
        let link = Link { inner: matched, outer: tile.other(matched).unwrap_or(matched) };
        self.arms[arm.index()].push(link);
        self.tips[arm.index()] = Some(link);
        if rule == SpinnerRule::FirstDouble && !self.spinner && tile.is_double() {
            self.reroot(arm);
        }
    }

    /// Makes the double that just ended `arm` (west or east of a plain line) the spinner. The
    /// whole line becomes the spinner's opposite arm, read outward from the new spinner.
    fn reroot(&mut self, arm: Arm) {
        let (Some(root), Some(double)) = (self.root, self.arms[arm.index()].pop()) else {
            return;
        };
        let (toward, away) = match arm {
            Arm::East => (Arm::East, Arm::West),
            _ => (Arm::West, Arm::East),
        };
        let (near, far) = if toward == Arm::East { (root.hi(), root.lo()) } else { (root.lo(), root.hi()) };
        let mut line: ArrayVec<Link, MAX_ARM> = self.arms[toward.index()].iter().rev().map(|l| l.reversed()).collect();
        line.push(Link { inner: near, outer: far });
        line.extend(self.arms[away.index()].iter().copied());
        self.arms = Default::default();
        self.arms[away.index()] = line;
        self.tips = self.arms.each_ref().map(|arm| arm.last().copied());
        self.root = Some(double.tile());
        self.spinner = true;
    }
}

impl fmt::Display for Layout {
    /// One line per arm, outward from the root; `[3|5]` is a tile whose 3 faces the root.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(root) = self.root else {
            return writeln!(f, "(empty table)");
        };
        let role = if self.spinner { "spinner" } else { "first tile" };
        writeln!(f, "{role} {root}")?;
        for arm in Arm::ALL {
            let links = self.arm(arm);
            if links.is_empty() {
                continue;
            }
            write!(f, "  {:<5}", arm.name())?;
            for link in links {
                write!(f, " [{}|{}]", link.inner, link.outer)?;
            }
            writeln!(f)?;
        }
        writeln!(f, "count {}", self.count())
    }
}

/// A seat's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// The first tile of a round.
    Lead {
        tile: Tile,
    },
    /// A tile laid on an arm, its `matched` half against the arm's end.
    Play {
        tile: Tile,
        arm: Arm,
        matched: u8,
    },
    /// Ask the boneyard for a tile (the tile itself arrives as [`Chance::Draw`]).
    Draw,
    Pass,
}

impl fmt::Display for Action {
    /// The text form that [`WireAction`] parses back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Lead { tile } => write!(f, "{tile}"),
            Action::Play { tile, arm, matched } => write!(f, "{tile} {arm}@{matched}"),
            Action::Draw => f.write_str("draw"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// A chance outcome. Seats past the table's size are left empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Chance {
    /// The tile each seat drew to choose the first leader.
    LeadDraw { tiles: [Option<Tile>; MAX_PLAYERS] },
    /// Each seat's seven tiles; the rest is the boneyard.
    Deal { hands: [TileSet; MAX_PLAYERS] },
    /// The tile a drawing seat took from the boneyard.
    Draw { tile: Tile },
}

/// Which chance outcome the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChanceKind {
    LeadDraw,
    Deal,
    Draw { seat: Seat },
}

/// Who moves next.
pub type ToMove = crate::game::ToMove<ChanceKind>;

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum RoundEnd {
    /// A seat played its last tile.
    Domino { seat: Seat },
    /// Every seat passed in turn.
    Blocked,
    /// A side reached the target during play; the round stops unscored.
    TargetReached,
}

/// The reckoning of a finished round, hands revealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundResult {
    pub round: u32,
    pub end: RoundEnd,
    /// `None` when a blocked round is tied, or when the round stopped at the target.
    pub winner: Option<Seat>,
    /// Points the winner's side scored for the round.
    pub points: u32,
    /// Every seat's hand when the round ended.
    pub hands: Vec<TileSet>,
}

/// What one move did, for logs and for players watching.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Points the moving seat's side scored for the open-end count.
    pub scored: u32,
    /// Set when the move ended a round.
    pub round: Option<RoundResult>,
    /// Set when the move ended the game.
    pub outcome: Option<Outcome>,
}

/// What a move would do, told before it is made ([`State::preview`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// Points the move would score for the open-end count: the `scored` of its [`Effects`].
    pub scored: u32,
    /// The open-end count after the move.
    pub count: u32,
    /// Every (arm, number) a tile could be laid against after the move, as
    /// [`State::open_ends`] would say.
    pub ends: ArrayVec<(Arm, u8), 6>,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The side with the highest score (a seat's number without teams; 0 or 1 with teams).
    pub winning_side: usize,
    /// Final score of each side.
    pub scores: Vec<u32>,
}

/// An action a seat may not take now. Each rule of the rules file has its own variant, and each
/// message is written for the player who tried.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalAction {
    #[error("the game is over")]
    GameOver,
    #[error("it is not your turn: {to_move} is to play")]
    NotYourTurn { to_move: Seat },
    #[error("wait: the dealer has not finished dealing or drawing")]
    AwaitingChance,
    #[error("you do not hold {0}")]
    NotInHand(Tile),
    #[error("the round has been led already: lay {0} on an arm")]
    AlreadyLed(Tile),
    #[error("nobody has led yet: lead a tile first")]
    NotLed,
    #[error("the {0} arm is not open yet: west and east must each hold a tile first")]
    ArmClosed(Arm),
    #[error("the {arm} arm has no open {end} to lay against")]
    NoSuchEnd { arm: Arm, end: u8 },
    #[error("{tile} does not match the {end} at the end of the {arm} arm")]
    DoesNotMatch { tile: Tile, arm: Arm, end: u8 },
    #[error("you hold a playable tile, so you must play rather than draw")]
    MustPlayNotDraw,
    #[error("the boneyard is empty")]
    BoneyardEmpty,
    #[error("you may not pass while you hold a playable tile")]
    PassWhilePlayable,
    #[error("you may not pass while the boneyard has tiles: draw")]
    PassWhileDrawable,
}

/// A chance outcome that does not fit the state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalChance {
    #[error("the game is not waiting for {0}")]
    Unexpected(&'static str),
    #[error("the draw for the lead needs one tile for each of the {0} seats")]
    LeadDrawSeats(u8),
    #[error("the draw for the lead repeats a tile")]
    LeadDrawRepeats,
    #[error("seat {seat} was dealt {count} tiles, not {HAND_SIZE}")]
    HandSize { seat: u8, count: usize },
    #[error("the deal gives a tile to two seats, or to a seat that is not at the table")]
    DealOverlaps,
    #[error("{0} is not in the boneyard")]
    NotInBoneyard(Tile),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    LeadDraw,
    Deal,
    Turn(Seat),
    Drawing(Seat),
    Over,
}

/// A game of Straight Dominoes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    options: Options,
    phase: Phase,
    hands: [TileSet; MAX_PLAYERS],
    boneyard: TileSet,
    layout: Layout,
    scores: [u32; MAX_PLAYERS],
    /// The seat that leads (or led) the current round.
    leader: Seat,
    /// Rounds dealt so far.
    round: u32,
    /// Passes in a row; a full cycle blocks the round.
    passes: u8,
    /// Derived from the layout after every play, because every legal-action query and every
    /// check reads it.
    ends: Ends,
    last_round: Option<RoundResult>,
    outcome: Option<Outcome>,
}

/// The ends tiles may be laid against, as bit masks so that a check is one `and` and
/// legal-action generation walks only the numbers that are really open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ends {
    /// Bit `n` of `accepts[arm]` is set when a tile showing `n` may be laid on `arm`; zero for
    /// a closed arm.
    accepts: [u8; 4],
    /// The open-end count.
    count: u32,
    /// The (arm, number) pairs of `accepts` in legal-action order, then padding: six slots are
    /// enough (one end west, one east, two on each side arm of a fresh spinner).
    pairs: [(Arm, u8); 6],
    /// How many of `pairs` are real.
    open: u8,
}

/// `SUIT_BITS[n]`: the tiles of the double-six set showing `n`, as a mask over canonical
/// indices (all below 28). The eighth entry, empty, makes the table's length a power of two so
/// that an index masked into range costs one `and`.
const SUIT_BITS: [u64; 8] = {
    let mut suits = [0u64; 8];
    let mut n = 0u8;
    while n <= 6 {
        suits[n as usize] = TileSet::suit(n).intersection(SET).bits() as u64;
        n += 1;
    }
    suits
};

impl Ends {
    const NONE: Ends = Ends { accepts: [0; 4], count: 0, pairs: [(Arm::West, 0); 6], open: 0 };

    /// Opens `end` on `arm`. Ends are added in legal-action order (by arm, then number), at most
    /// six of them.
    fn add(&mut self, arm: Arm, end: u8) {
        self.accepts[arm.index()] |= 1 << end;
        self.pairs[usize::from(self.open)] = (arm, end);
        self.open += 1;
    }

    /// Moves the end of an arm that already holds a tile to `end`, which is all a play there
    /// changes: such an arm has one end, and its place among the pairs is fixed (west first,
    /// east second, north third, south last).
    #[inline(always)]
    fn move_end(&mut self, arm: Arm, end: u8) {
        // A select rather than a `match`, which compiled to a jump table that mispredicted.
        let slot = if arm == Arm::South { usize::from(self.open) - 1 } else { arm.index() };
        self.pairs[slot] = (arm, end);
        self.accepts[arm.index()] = 1 << end;
    }

    /// Every tile of the double-six set that fits some end, as the low bits of a tile mask.
    fn suits(&self) -> u64 {
        let all = self.accepts.iter().fold(0u8, |all, arm| all | arm);
        (0..7).filter(|n| all & (1 << n) != 0).fold(0, |suits, n| suits | SUIT_BITS[n])
    }

    fn accepts(&self, arm: Arm, end: u8) -> bool {
        end < 8 && self.accepts[arm.index()] & (1 << end) != 0
    }

    /// The (arm, number) pairs in legal-action order: by arm, then number.
    fn pairs(&self) -> impl Iterator<Item = (Arm, u8)> + '_ {
        self.pairs[..usize::from(self.open)].iter().copied()
    }
}

/// A Straight Dominoes tile set as the low bits of its mask: every set of this game lies within
/// the 28 tiles of double-six (deals are checked), so the rest of the mask is zero.
fn bits(set: TileSet) -> u64 {
    set.bits() as u64
}

impl State {
    /// A new game, waiting for the draw for the first leader.
    pub fn new(options: Options) -> Result<State, OptionsError> {
        options.validate()?;
        Ok(State {
            options,
            phase: Phase::LeadDraw,
            hands: [TileSet::EMPTY; MAX_PLAYERS],
            boneyard: TileSet::EMPTY,
            layout: Layout::default(),
            scores: [0; MAX_PLAYERS],
            leader: Seat(0),
            round: 0,
            passes: 0,
            ends: Ends::NONE,
            last_round: None,
            outcome: None,
        })
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    /// Tiles in the boneyard, reserve included.
    pub fn boneyard(&self) -> TileSet {
        self.boneyard
    }

    /// Tiles a seat could still draw (the boneyard above the reserve).
    pub fn drawable(&self) -> usize {
        // Counted on the low 32 bits: without a popcount instruction in the baseline x86-64
        // target, counting a whole `u128` costs four times as much.
        (bits(self.boneyard) as u32).count_ones().saturating_sub(u32::from(self.options.boneyard_reserve)) as usize
    }

    /// Each side's score.
    pub fn scores(&self) -> &[u32] {
        &self.scores[..self.options.sides()]
    }

    /// Rounds dealt so far (1 during the first round).
    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn leader(&self) -> Seat {
        self.leader
    }

    /// Passes in a row since the last play: when every seat has passed, the round is blocked.
    /// A playout that continues this position elsewhere (the engine's) needs it.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    pub fn last_round(&self) -> Option<&RoundResult> {
        self.last_round.as_ref()
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::LeadDraw => ToMove::Chance { kind: ChanceKind::LeadDraw },
            Phase::Deal => ToMove::Chance { kind: ChanceKind::Deal },
            Phase::Drawing(seat) => ToMove::Chance { kind: ChanceKind::Draw { seat } },
            Phase::Turn(seat) => ToMove::Seat { seat },
            Phase::Over => ToMove::Over,
        }
    }

    fn seats(&self) -> impl Iterator<Item = Seat> + use<> {
        (0..self.options.players).map(Seat)
    }

    /// Every legal action of the seat to move, in a fixed order: leads by tile; plays by arm
    /// (west, east, north, south), then matched number, then tile; then draw; then pass. Empty
    /// when a chance outcome is awaited or the game is over.
    // Inlined into the caller, filling and all: a playout asks this at every step, and the
    // call cost about as much as walking the few open ends.
    #[inline(always)]
    pub fn legal_actions(&self) -> Actions {
        // The list starts full and is cut to length at the end. Its filler is a play of 0-0 west
        // against 0, whose bytes are all zero: a fill written a vector at a time, where a pass
        // (one defined byte in three) took a store per slot. Every path fills and returns this
        // one list.
        let filler = Action::Play { tile: Tile::from_bit(0), arm: Arm::West, matched: 0 };
        let mut slots = Actions::from([filler; MAX_ACTIONS]);
        let len = match self.phase {
            Phase::Turn(seat) => self.fill_actions(seat, &mut slots[..]),
            _ => 0,
        };
        slots.truncate(len);
        slots
    }

    /// Writes the legal actions of `seat`, whose turn it is, to the front of `slots` (which has
    /// room for every one) and returns how many there are.
    #[inline(always)]
    fn fill_actions(&self, seat: Seat, slots: &mut [Action]) -> usize {
        let hand = self.hand(seat);
        if self.layout.is_empty() {
            // A hand holds at most the 28 tiles of the set, so every lead has a slot.
            let mut len = 0;
            for (slot, tile) in slots.iter_mut().zip(hand) {
                *slot = Action::Lead { tile };
                len += 1;
            }
            return len;
        }
        // How many tiles fit each end is a coin toss, so a loop that stops when they run out
        // mispredicts about once an end. Instead every end gets two slots written whether or
        // not a tile fills them, and `len` grows only past the filled ones. A third tile of one
        // suit for one end is rare enough to loop for.
        let mut len = 0;
        let hand = bits(hand);
        for &(arm, matched) in &self.ends.pairs[..usize::from(self.ends.open)] {
            let mut fits = hand & SUIT_BITS[usize::from(matched) % SUIT_BITS.len()];
            for _ in 0..2 {
                slots[len] = Action::Play { tile: Tile::from_bit(fits.trailing_zeros()), arm, matched };
                len += usize::from(fits != 0);
                fits &= fits.wrapping_sub(1);
            }
            while fits != 0 {
                slots[len] = Action::Play { tile: Tile::from_bit(fits.trailing_zeros()), arm, matched };
                len += 1;
                fits &= fits - 1;
            }
        }
        if self.may_draw(len > 0) {
            slots[len] = Action::Draw;
            len += 1;
        } else if len == 0 {
            slots[0] = Action::Pass;
            len = 1;
        }
        len
    }

    /// Every (arm, number) a tile may be laid against now, in legal-action order.
    pub fn open_ends(&self) -> ArrayVec<(Arm, u8), 6> {
        self.ends.pairs().collect()
    }

    /// Whether `seat` may take `action` now.
    pub fn is_legal(&self, seat: Seat, action: Action) -> bool {
        self.check(seat, action).is_ok()
    }

    /// Applies a seat's action, or leaves the state unchanged and says why it is illegal.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Effects, IllegalAction> {
        // Nearly every action of a round is a legal play, and `check` proves one legal with the
        // four tests below: the seat's turn, the tile in hand, an end on that arm showing the
        // number, the tile showing it too (an arm accepts a number only once the round is led).
        // Testing them here first spares the common case `check`'s walk through every rule
        // and its error values; anything else goes through `check` as before.
        if let Action::Play { tile, arm, matched } = action
            && self.phase == Phase::Turn(seat)
            && self.hand(seat).contains(tile)
            && self.ends.accepts(arm, matched)
            && tile.shows(matched)
        {
            return Ok(self.play(seat, tile, arm, matched));
        }
        self.check(seat, action)?;
        // Each arm returns its effects built whole, not a local filled in through a reference:
        // copying that local out, just after its fields were stored one by one, stalled.
        match action {
            Action::Lead { tile } => {
                self.layout.lead(tile, self.options.spinner);
                self.ends = self.layout.ends(self.options.spinner_sides_open_immediately);
                Ok(self.after_play(seat, tile))
            }
            Action::Play { tile, arm, matched } => Ok(self.play(seat, tile, arm, matched)),
            Action::Draw => {
                self.phase = Phase::Drawing(seat);
                Ok(Effects::default())
            }
            Action::Pass => Ok(self.pass(seat)),
        }
    }

    /// Lays a tile whose play was checked, and moves the turn on. Inlined into
    /// [`State::apply`]: this is most of what a playout does, and the calls down to the layout
    /// and the bookkeeping after a play cost as much as the work they did.
    #[inline(always)]
    fn play(&mut self, seat: Seat, tile: Tile, arm: Arm, matched: u8) -> Effects {
        // Most plays go on an arm that holds a tile already, and change nothing but that arm's
        // end and the count. The first tile of an arm may open the side arms, and the first
        // double under `first_double` re-roots the layout: those recompute. Otherwise the count
        // changes only by what that arm's end shows.
        let reroots = self.options.spinner == SpinnerRule::FirstDouble && !self.layout.spinner && tile.is_double();
        match self.layout.tips[arm.index()].filter(|_| !reroots) {
            Some(old_tip) => {
                // What `Layout::extend` does when nothing re-roots, written out here.
                let link = Link { inner: matched, outer: tile.other(matched).unwrap_or(matched) };
                self.layout.arms[arm.index()].push(link);
                self.layout.tips[arm.index()] = Some(link);
                self.ends.move_end(arm, link.outer);
                self.ends.count = self.ends.count + link.open_value() - old_tip.open_value();
            }
            None => {
                self.layout.extend(tile, arm, matched, self.options.spinner);
                self.ends = self.layout.ends(self.options.spinner_sides_open_immediately);
            }
        }
        debug_assert_eq!(self.ends, self.layout.ends(self.options.spinner_sides_open_immediately));
        self.after_play(seat, tile)
    }

    /// What [`State::apply`] would score for this action and leave on the table (the count and
    /// the open ends), learned without applying it: the tile is laid on a copy of the layout
    /// only (a bot's view asks this of every legal action). Or why the action is illegal.
    pub fn preview(&self, seat: Seat, action: Action) -> Result<Preview, IllegalAction> {
        self.check(seat, action)?;
        let mut layout = self.layout.clone();
        let ends = match action {
            Action::Lead { tile } => {
                layout.lead(tile, self.options.spinner);
                layout.ends(self.options.spinner_sides_open_immediately)
            }
            Action::Play { tile, arm, matched } => {
                layout.extend(tile, arm, matched, self.options.spinner);
                layout.ends(self.options.spinner_sides_open_immediately)
            }
            // Drawing and passing leave the table as it is, and score nothing.
            Action::Draw | Action::Pass => {
                return Ok(Preview { scored: 0, count: self.ends.count, ends: self.open_ends() });
            }
        };
        Ok(Preview { scored: count_points(ends.count), count: ends.count, ends: ends.pairs().collect() })
    }

    /// Applies a chance outcome, or leaves the state unchanged and says why it does not fit.
    pub fn apply_chance(&mut self, chance: Chance) -> Result<(), IllegalChance> {
        match (self.phase, chance) {
            (Phase::LeadDraw, Chance::LeadDraw { tiles }) => {
                self.leader = self.check_lead_draw(&tiles)?;
                self.phase = Phase::Deal;
            }
            (Phase::Deal, Chance::Deal { hands }) => {
                self.check_deal(&hands)?;
                self.start_round(hands);
            }
            (Phase::Drawing(seat), Chance::Draw { tile }) => {
                if !self.boneyard.contains(tile) {
                    return Err(IllegalChance::NotInBoneyard(tile));
                }
                self.boneyard.remove(tile);
                self.hands[seat.index()].insert(tile);
                self.phase = Phase::Turn(seat);
            }
            (_, Chance::LeadDraw { .. }) => {
                return Err(IllegalChance::Unexpected("a draw for the lead"));
            }
            (_, Chance::Deal { .. }) => return Err(IllegalChance::Unexpected("a deal")),
            (_, Chance::Draw { .. }) => {
                return Err(IllegalChance::Unexpected("a tile from the boneyard"));
            }
        }
        Ok(())
    }

    /// The chance outcome the game waits for, drawn from `dealer`; `None` if a seat is to move.
    pub fn sample_chance(&self, dealer: &mut Dealer) -> Option<Chance> {
        let players = usize::from(self.options.players);
        match self.phase {
            Phase::LeadDraw => {
                let mut tiles = [None; MAX_PLAYERS];
                for (slot, tile) in tiles.iter_mut().zip(dealer.shuffle(SET)).take(players) {
                    *slot = Some(tile);
                }
                Some(Chance::LeadDraw { tiles })
            }
            Phase::Deal => {
                let shuffled = dealer.shuffle(SET);
                let mut hands = [TileSet::EMPTY; MAX_PLAYERS];
                for (hand, chunk) in hands.iter_mut().zip(shuffled.chunks(HAND_SIZE)).take(players) {
                    // The tiles of double-six have indices below 28: each hand is built on one
                    // 64-bit word rather than by inserts into the 128-bit mask.
                    let bits = chunk.iter().fold(0u64, |bits, tile| bits | 1 << (tile.index() & 63));
                    *hand = TileSet::from_bits(u128::from(bits));
                }
                Some(Chance::Deal { hands })
            }
            Phase::Drawing(_) => dealer.pick(self.boneyard).map(|tile| Chance::Draw { tile }),
            Phase::Turn(_) | Phase::Over => None,
        }
    }

    /// What `seat` may see; `None` gives a spectator's view.
    pub fn observation(&self, seat: Option<Seat>) -> Observation {
        Observation {
            seat,
            hand: seat.map(|s| self.hand(s)),
            layout: self.layout.clone(),
            scores: self.scores().to_vec(),
            hand_sizes: self.seats().map(|s| self.hand(s).len() as u8).collect(),
            boneyard: self.boneyard.len() as u8,
            drawable: self.drawable() as u8,
            to_move: self.to_move(),
            round: self.round,
            leader: self.leader,
            last_round: self.last_round.clone(),
            outcome: self.outcome.clone(),
        }
    }

    fn can_play(&self, seat: Seat) -> bool {
        let hand = self.hand(seat);
        if self.layout.is_empty() {
            return !hand.is_empty();
        }
        bits(hand) & self.ends.suits() != 0
    }

    /// Drawing is for a seat that cannot play, or any seat past the lead under
    /// `may_draw_when_able`. The leader always holds a tile it may lead, so it never draws.
    fn may_draw(&self, can_play: bool) -> bool {
        let by_option = self.options.may_draw_when_able && !self.layout.is_empty();
        (!can_play || by_option) && self.drawable() > 0
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Over => return Err(IllegalAction::GameOver),
            Phase::LeadDraw | Phase::Deal | Phase::Drawing(_) => {
                return Err(IllegalAction::AwaitingChance);
            }
            Phase::Turn(to_move) if to_move != seat => {
                return Err(IllegalAction::NotYourTurn { to_move });
            }
            Phase::Turn(_) => {}
        }
        let hand = self.hand(seat);
        match action {
            Action::Lead { tile } | Action::Play { tile, .. } if !hand.contains(tile) => {
                Err(IllegalAction::NotInHand(tile))
            }
            Action::Lead { tile } if !self.layout.is_empty() => Err(IllegalAction::AlreadyLed(tile)),
            Action::Lead { .. } => Ok(()),
            Action::Play { .. } if self.layout.is_empty() => Err(IllegalAction::NotLed),
            Action::Play { tile, arm, matched } => self.check_play(tile, arm, matched),
            Action::Draw if self.drawable() == 0 => Err(IllegalAction::BoneyardEmpty),
            Action::Draw if !self.may_draw(self.can_play(seat)) => Err(IllegalAction::MustPlayNotDraw),
            Action::Draw => Ok(()),
            Action::Pass if self.can_play(seat) => Err(IllegalAction::PassWhilePlayable),
            Action::Pass if self.drawable() > 0 => Err(IllegalAction::PassWhileDrawable),
            Action::Pass => Ok(()),
        }
    }

    fn check_play(&self, tile: Tile, arm: Arm, matched: u8) -> Result<(), IllegalAction> {
        if !self.ends.accepts(arm, matched) {
            // Every open arm accepts some number, so an arm that accepts none is closed.
            return Err(match self.ends.accepts[arm.index()] {
                0 => IllegalAction::ArmClosed(arm),
                _ => IllegalAction::NoSuchEnd { arm, end: matched },
            });
        }
        if !tile.shows(matched) {
            return Err(IllegalAction::DoesNotMatch { tile, arm, end: matched });
        }
        Ok(())
    }

    fn check_lead_draw(&self, tiles: &[Option<Tile>; MAX_PLAYERS]) -> Result<Seat, IllegalChance> {
        let players = usize::from(self.options.players);
        let drawn: ArrayVec<Tile, MAX_PLAYERS> = tiles.iter().take(players).flatten().copied().collect();
        if drawn.len() != players || tiles[players..].iter().any(Option::is_some) {
            return Err(IllegalChance::LeadDrawSeats(self.options.players));
        }
        let distinct: TileSet = drawn.iter().copied().collect();
        if distinct.len() != players || distinct.intersection(SET) != distinct {
            return Err(IllegalChance::LeadDrawRepeats);
        }
        let best = (0..players).max_by_key(|&i| lead_rank(drawn[i])).unwrap_or(0);
        Ok(Seat(best as u8))
    }

    fn check_deal(&self, hands: &[TileSet; MAX_PLAYERS]) -> Result<(), IllegalChance> {
        let players = usize::from(self.options.players);
        let mut dealt = TileSet::EMPTY;
        for (i, hand) in hands.iter().enumerate() {
            let expected = if i < players { HAND_SIZE } else { 0 };
            if hand.len() != expected {
                return Err(IllegalChance::HandSize { seat: i as u8, count: hand.len() });
            }
            if !dealt.is_disjoint(*hand) || hand.intersection(SET) != *hand {
                return Err(IllegalChance::DealOverlaps);
            }
            dealt = dealt.union(*hand);
        }
        Ok(())
    }

    fn start_round(&mut self, hands: [TileSet; MAX_PLAYERS]) {
        let dealt = hands.iter().fold(TileSet::EMPTY, |all, hand| all.union(*hand));
        self.hands = hands;
        self.boneyard = SET.difference(dealt);
        self.layout = Layout::default();
        self.ends = Ends::NONE;
        self.passes = 0;
        self.round += 1;
        self.phase = Phase::Turn(self.leader);
    }

    #[inline(always)]
    fn after_play(&mut self, seat: Seat, tile: Tile) -> Effects {
        self.hands[seat.index()].remove(tile);
        self.passes = 0;
        let scored = count_points(self.ends.count);
        let side = self.options.side(seat);
        self.scores[side] += scored;
        let reached = self.scores[side] >= self.options.target;
        let end = if reached && !self.options.finish_round_at_target {
            RoundEnd::TargetReached
        } else if self.hand(seat).is_empty() {
            RoundEnd::Domino { seat }
        } else {
            self.phase = Phase::Turn(seat.next(self.options.players));
            // Built only here and in the branch below, not once before them: a local built
            // before the branch was dropped on this path by an out-of-line call.
            return Effects { scored, round: None, outcome: None };
        };
        let mut effects = Effects { scored, round: None, outcome: None };
        self.end_round(end, &mut effects);
        effects
    }

    fn pass(&mut self, seat: Seat) -> Effects {
        self.passes += 1;
        let mut effects = Effects::default();
        if self.passes >= self.options.players {
            self.end_round(RoundEnd::Blocked, &mut effects);
        } else {
            self.phase = Phase::Turn(seat.next(self.options.players));
        }
        effects
    }

    fn end_round(&mut self, end: RoundEnd, effects: &mut Effects) {
        let (winner, points) = match end {
            RoundEnd::Domino { seat } => (Some(seat), self.round_points(seat)),
            RoundEnd::Blocked => {
                let winner = self.blocked_winner();
                (winner, winner.map_or(0, |seat| self.round_points(seat)))
            }
            RoundEnd::TargetReached => (None, 0),
        };
        if let Some(seat) = winner {
            self.scores[self.options.side(seat)] += points;
        }
        let result =
            RoundResult { round: self.round, end, winner, points, hands: self.seats().map(|s| self.hand(s)).collect() };
        self.leader = winner.unwrap_or(self.leader.next(self.options.players));
        self.last_round = Some(result.clone());
        effects.round = Some(result);
        self.phase = Phase::Deal;
        if let Some(outcome) = self.decided(end == RoundEnd::TargetReached) {
            self.outcome = Some(outcome.clone());
            effects.outcome = Some(outcome);
            self.phase = Phase::Over;
        }
    }

    /// The outcome, if the game ends now: a side at the target with the unique highest score.
    /// A tie at the top after a round that reached the target plays another round.
    fn decided(&self, stopped_at_target: bool) -> Option<Outcome> {
        let scores = self.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        let leaders = scores.iter().filter(|&&s| s == best).count();
        let reached = best >= self.options.target;
        (reached && (leaders == 1 || stopped_at_target)).then(|| Outcome {
            winning_side: scores.iter().position(|&s| s == best).unwrap_or(0),
            scores: scores.to_vec(),
        })
    }

    /// The winner of a blocked round, or `None` on a tie between sides.
    fn blocked_winner(&self) -> Option<Seat> {
        let pips: ArrayVec<u32, MAX_PLAYERS> = self.seats().map(|s| self.hand(s).pips()).collect();
        let mut side_pips = [0u32; MAX_PLAYERS];
        for seat in self.seats() {
            side_pips[self.options.side(seat)] += pips[seat.index()];
        }
        let side_pips = &side_pips[..self.options.sides()];
        let lowest = side_pips.iter().copied().min()?;
        if side_pips.iter().filter(|&&p| p == lowest).count() > 1 {
            return None;
        }
        let side = side_pips.iter().position(|&p| p == lowest)?;
        // The side's player with fewer pips; `min_by_key` keeps the earlier seat on a tie.
        self.seats().filter(|&s| self.options.side(s) == side).min_by_key(|s| pips[s.index()])
    }

    /// round_to_5(opponents' pips − the winner's own, under `net`), never below zero.
    fn round_points(&self, winner: Seat) -> u32 {
        let side = self.options.side(winner);
        let opponents: u32 = self.seats().filter(|&s| self.options.side(s) != side).map(|s| self.hand(s).pips()).sum();
        let own = match self.options.blocked_scoring {
            BlockedScoring::Net => self.hand(winner).pips(),
            BlockedScoring::Opponents => 0,
        };
        round_to_5(i64::from(opponents) - i64::from(own))
    }
}

/// What a play scores for an open-end count: the count itself when it is a positive multiple
/// of five, else nothing.
fn count_points(count: u32) -> u32 {
    if count > 0 && count.is_multiple_of(5) { count } else { 0 }
}

/// Rank in the draw for the first leader: any double beats any other tile, higher doubles beat
/// lower ones; otherwise the higher pip total, then the higher high half (6-3 beats 5-4).
fn lead_rank(tile: Tile) -> (bool, u32, u8) {
    (tile.is_double(), tile.pips(), tile.hi())
}

/// Rounds to the nearest multiple of 5 (remainder 1–2 down, 3–4 up); negative becomes 0.
pub fn round_to_5(points: i64) -> u32 {
    if points <= 0 { 0 } else { ((points + 2) / 5 * 5) as u32 }
}

/// What one seat (or a spectator) may see of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// `None` for a spectator.
    pub seat: Option<Seat>,
    /// The viewer's own hand; `None` for a spectator.
    pub hand: Option<TileSet>,
    pub layout: Layout,
    pub scores: Vec<u32>,
    pub hand_sizes: Vec<u8>,
    /// Tiles in the boneyard, reserve included.
    pub boneyard: u8,
    /// Tiles that can still be drawn.
    pub drawable: u8,
    pub to_move: ToMove,
    pub round: u32,
    pub leader: Seat,
    /// The last finished round, with every hand revealed.
    pub last_round: Option<RoundResult>,
    pub outcome: Option<Outcome>,
}

/// The small wire form of an action, as a client or a person writes it: `5-3` (lead, or the only
/// place 5-3 fits), `5-3 east`, `5-3 north@5` (against the spinner's 5 half), `draw`, `pass`.
/// It becomes an [`Action`] only against a state, through [`WireAction::to_action`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireAction {
    pub kind: WireKind,
    pub tile: Option<Tile>,
    pub arm: Option<Arm>,
    pub against: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WireKind {
    Tile,
    Draw,
    Pass,
}

/// A wire action that names no single action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error(
        "`{0}` is not an action: write a tile (`5-3`), a tile and an arm (`5-3 east`, `5-3 north@5`), `draw` or `pass`"
    )]
    Syntax(String),
    #[error("name the tile to play")]
    MissingTile,
    #[error("{0} fits more than one end: name the arm (and for north or south, the half: `north@5`)")]
    Ambiguous(Tile),
    #[error(transparent)]
    Illegal(#[from] IllegalAction),
}

impl std::str::FromStr for WireAction {
    type Err = WireError;

    fn from_str(text: &str) -> Result<WireAction, WireError> {
        let syntax = || WireError::Syntax(text.to_owned());
        let mut words = text.split_whitespace();
        let first = words.next().ok_or_else(syntax)?;
        let bare = |kind| WireAction { kind, tile: None, arm: None, against: None };
        let action = match first.to_ascii_lowercase().as_str() {
            "draw" => bare(WireKind::Draw),
            "pass" => bare(WireKind::Pass),
            _ => {
                let tile: Tile = first.parse().map_err(|_| syntax())?;
                let (arm, against) = match words.next() {
                    None => (None, None),
                    Some(word) => {
                        let (arm, against) = word.split_once('@').map_or((word, None), |(a, n)| (a, Some(n)));
                        let against = against.map(|n| n.parse::<u8>().map_err(|_| syntax())).transpose()?;
                        (Some(arm.parse()?), against)
                    }
                };
                WireAction { kind: WireKind::Tile, tile: Some(tile), arm, against }
            }
        };
        if words.next().is_some() {
            return Err(syntax());
        }
        Ok(action)
    }
}

impl WireAction {
    /// The action this names for `seat` in `state`. The result still goes through
    /// [`State::apply`], which has the last word on legality.
    pub fn to_action(&self, state: &State, seat: Seat) -> Result<Action, WireError> {
        let tile = match self.kind {
            WireKind::Draw => return Ok(Action::Draw),
            WireKind::Pass => return Ok(Action::Pass),
            WireKind::Tile => self.tile.ok_or(WireError::MissingTile)?,
        };
        if state.layout.is_empty() && self.arm.is_none() {
            return Ok(Action::Lead { tile });
        }
        if !state.hand(seat).contains(tile) {
            return Err(IllegalAction::NotInHand(tile).into());
        }
        if let (Some(arm), Some(matched)) = (self.arm, self.against) {
            return Ok(Action::Play { tile, arm, matched });
        }
        let mut fits = state.ends.pairs().filter(|&(arm, end)| {
            self.arm.is_none_or(|wanted| wanted == arm)
                && self.against.is_none_or(|wanted| wanted == end)
                && tile.shows(end)
        });
        match (fits.next(), fits.next()) {
            (Some((arm, matched)), None) => Ok(Action::Play { tile, arm, matched }),
            (Some(_), Some(_)) => Err(WireError::Ambiguous(tile)),
            // Nowhere to lay it: name the arm the player meant (or west) so that `apply` gives
            // the precise reason.
            (None, _) => {
                let arm = self.arm.unwrap_or(Arm::West);
                let end = state.ends.pairs().find(|&(a, _)| a == arm).map(|(_, end)| end);
                let matched = self.against.or(end).unwrap_or(tile.lo());
                Ok(Action::Play { tile, arm, matched })
            }
        }
    }
}

impl From<Action> for WireAction {
    fn from(action: Action) -> WireAction {
        let (kind, tile, arm, against) = match action {
            Action::Lead { tile } => (WireKind::Tile, Some(tile), None, None),
            Action::Play { tile, arm, matched } => (WireKind::Tile, Some(tile), Some(arm), Some(matched)),
            Action::Draw => (WireKind::Draw, None, None, None),
            Action::Pass => (WireKind::Pass, None, None, None),
        };
        WireAction { kind, tile, arm, against }
    }
}

/// What an engine needs to imagine the hidden tiles: which tiles would fit now, and the same
/// position with the hidden tiles dealt otherwise.
impl State {
    /// Every tile of the set that could be laid against an open end now (none before the lead).
    /// A seat that draws or passes shows that it holds none of these.
    pub fn fitting_tiles(&self) -> TileSet {
        let open = self.ends.accepts.iter().fold(0u8, |all, arm| all | arm);
        (0..7u8).filter(|n| open & (1 << n) != 0).fold(TileSet::EMPTY, |tiles, n| tiles.union(TileSet::suit(n)))
    }

    /// This position with `hands` and `boneyard` in place of the seats' hands and the boneyard:
    /// the same tiles, only placed otherwise, and every hand the same size. Everything public
    /// (the layout, scores, turn, round) is kept. Refused, and nothing made, when the tiles or the
    /// sizes differ.
    pub fn redeal(&self, hands: &[TileSet], boneyard: TileSet) -> Result<State, crate::game::RedealError> {
        let players = usize::from(self.options.players);
        let old: ArrayVec<TileSet, MAX_PLAYERS> = self.hands[..players].iter().copied().collect();
        crate::game::check_redeal(&old, self.boneyard, hands, boneyard)?;
        let mut state = self.clone();
        state.hands[..players].copy_from_slice(hands);
        state.boneyard = boneyard;
        Ok(state)
    }
}
