//! Streets and Avenues, exactly as `docs/rules/streets-and-avenues.md` states it.
//!
//! The same shape as [`crate::straight`]: one validating constructor, [`State::legal_actions`],
//! [`State::is_legal`], [`State::apply`] and [`State::apply_chance`] that leave the state as it
//! was when they refuse, and [`State::observation`] for what one seat may see. The geometry of the
//! table (touching, matching, blocks) lives in [`board`]; this module owns turns, hands, the
//! boneyard and the score.

mod board;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use board::{AVENUE_LIMIT, Board, Piece, Refusal, Spot};
use board::{Need, Verdict};

use crate::chance::Dealer;
use crate::tile::{Seat, Tile, TileSet};

/// Tiles dealt to each player.
pub const HAND_SIZE: usize = 7;

/// Which set is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DominoSet {
    DoubleNine,
    DoubleTwelve,
}

impl DominoSet {
    /// The highest number on a tile of the set.
    pub fn max(self) -> u8 {
        match self {
            DominoSet::DoubleNine => 9,
            DominoSet::DoubleTwelve => 12,
        }
    }

    pub fn tiles(self) -> TileSet {
        TileSet::full(self.max())
    }
}

/// Every rule option of the rules file, with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub set: DominoSet,
    /// From 2 while seven tiles each leave some in the boneyard.
    pub players: u8,
    /// A player who can place may pass (or discard) instead.
    pub may_pass_when_able: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { set: DominoSet::DoubleNine, players: 2, may_pass_when_able: false }
    }
}

/// Options that describe no playable game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error("players must be at least 2 and fewer than {limit} for this set, not {players}")]
    Players { players: u8, limit: usize },
}

impl Options {
    pub fn validate(&self) -> Result<(), OptionsError> {
        let tiles = self.set.tiles().len();
        let players = usize::from(self.players);
        if players < 2 || HAND_SIZE * players >= tiles {
            return Err(OptionsError::Players { players: self.players, limit: tiles.div_ceil(HAND_SIZE) });
        }
        Ok(())
    }
}

/// A seat's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Lay `tile` on `spot` with `first` on its north (avenue) or west (street) half.
    Place {
        tile: Tile,
        spot: Spot,
        first: u8,
    },
    /// Instead of passing, put a tile face up out of the game and draw one.
    Discard {
        tile: Tile,
    },
    Pass,
}

impl fmt::Display for Action {
    /// The text form that [`Action::from_str`](std::str::FromStr) reads back: `3-5 a0:2` lays 3
    /// north and 5 south at avenue column 0, row 2; `6-0 s0:7` lays 6 west and 0 east in gap 0
    /// at half-row 7; `discard 4-4`; `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place { tile, spot, first } => {
                write!(f, "{first}-{} {spot}", tile.other(*first).unwrap_or(*first))
            }
            Action::Discard { tile } => write!(f, "discard {tile}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// A text that names no action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not an action: write `3-5 a0:2` (3 north, 5 south at avenue 0, row 2), `6-0 s0:7` (6 west, 0 east in gap 0 at half-row 7), `discard 4-4` or `pass`"
)]
pub struct ParseActionError(pub String);

impl std::str::FromStr for Action {
    type Err = ParseActionError;

    fn from_str(text: &str) -> Result<Action, ParseActionError> {
        let bad = || ParseActionError(text.to_owned());
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["pass"] => Ok(Action::Pass),
            ["discard", tile] => Ok(Action::Discard { tile: tile.parse().map_err(|_| bad())? }),
            [tile, spot] => {
                let (first, second) = tile.split_once('-').ok_or_else(bad)?;
                let first: u8 = first.parse().map_err(|_| bad())?;
                let second: u8 = second.parse().map_err(|_| bad())?;
                let tile = Tile::new(first, second).ok_or_else(bad)?;
                Ok(Action::Place { tile, spot: parse_spot(spot).ok_or_else(bad)?, first })
            }
            _ => Err(bad()),
        }
    }
}

fn parse_spot(text: &str) -> Option<Spot> {
    let (kind, rest) = text.split_at_checked(1)?;
    let (a, b) = rest.split_once(':')?;
    let (a, b) = (a.parse().ok()?, b.parse().ok()?);
    match kind {
        "a" => Some(Spot::Avenue { column: a, row: b }),
        "s" => Some(Spot::Street { gap: a, half_row: b }),
        _ => None,
    }
}

/// A chance outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Chance {
    /// Seven tiles for each seat, and the seat chosen to play first.
    Deal { hands: Vec<TileSet>, first: Seat },
    /// The tile a seat drew from the boneyard.
    Draw { tile: Tile },
}

/// Which chance outcome the game waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ChanceKind {
    Deal,
    Draw { seat: Seat },
}

/// Who moves next.
pub type ToMove = crate::game::ToMove<ChanceKind>;

/// What one move did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Blocks the placement scored.
    pub scored: u32,
    /// Set when the move ended the game.
    pub outcome: Option<Outcome>,
}

/// What a move would do, told before it is made ([`State::preview`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// Blocks the placement would score: the `scored` of its [`Effects`].
    pub scored: u32,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Every seat with the highest score (equal highest scores share the win).
    pub winners: Vec<Seat>,
    /// The point each seat lost per tile left in hand.
    pub penalties: Vec<i32>,
    /// Final scores, penalties included.
    pub scores: Vec<i32>,
    /// Each seat's hand at the end, revealed.
    pub hands: Vec<TileSet>,
}

/// An action a seat may not take now, each with its own reason.
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
    #[error("{tile} does not show {first}")]
    NoSuchHalf { tile: Tile, first: u8 },
    #[error("{spot}: {refusal}")]
    Refused { spot: Spot, refusal: Refusal },
    #[error("{tile} does not match the dominoes it would touch at {spot}")]
    Mismatch { tile: Tile, spot: Spot },
    #[error("you can place a domino, so you may not pass or discard")]
    MustPlace,
    #[error("the boneyard is empty, so there is nothing to draw after a discard")]
    BoneyardEmpty,
}

/// A chance outcome that does not fit the state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalChance {
    #[error("the game is not waiting for {0}")]
    Unexpected(&'static str),
    #[error("the deal must give {HAND_SIZE} tiles to each of {players} seats, without repeats, from the set")]
    BadDeal { players: u8 },
    #[error("seat {0} cannot play first: it is not at the table")]
    NoSuchSeat(u8),
    #[error("{0} is not in the boneyard")]
    NotInBoneyard(Tile),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Deal,
    Turn(Seat),
    Drawing(Seat),
    Over,
}

/// A game of Streets and Avenues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    options: Options,
    phase: Phase,
    hands: Vec<TileSet>,
    boneyard: TileSet,
    discards: Vec<Tile>,
    board: Board,
    scores: Vec<i32>,
    /// Seats holding tiles that have passed in a row; when all of them have, the game ends.
    passes: usize,
    outcome: Option<Outcome>,
}

impl State {
    /// A new game, waiting for the deal.
    pub fn new(options: Options) -> Result<State, OptionsError> {
        options.validate()?;
        let players = usize::from(options.players);
        Ok(State {
            options,
            phase: Phase::Deal,
            hands: vec![TileSet::EMPTY; players],
            boneyard: TileSet::EMPTY,
            discards: Vec::new(),
            board: Board::default(),
            scores: vec![0; players],
            passes: 0,
            outcome: None,
        })
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn hand(&self, seat: Seat) -> TileSet {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    pub fn boneyard(&self) -> TileSet {
        self.boneyard
    }

    /// Tiles discarded face up, in order.
    pub fn discards(&self) -> &[Tile] {
        &self.discards
    }

    pub fn scores(&self) -> &[i32] {
        &self.scores
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    pub fn to_move(&self) -> ToMove {
        match self.phase {
            Phase::Deal => ToMove::Chance { kind: ChanceKind::Deal },
            Phase::Drawing(seat) => ToMove::Chance { kind: ChanceKind::Draw { seat } },
            Phase::Turn(seat) => ToMove::Seat { seat },
            Phase::Over => ToMove::Over,
        }
    }

    /// Every placement `hand` can make, in a fixed order: by spot, then tile, then which number
    /// goes first.
    fn placements(&self, hand: TileSet, mut each: impl FnMut(Action) -> bool) {
        for (spot, need) in self.board.open_spots() {
            if !fitting(hand, need, |tile, first| each(Action::Place { tile, spot, first })) {
                return;
            }
        }
    }

    fn can_place(&self, seat: Seat) -> bool {
        let mut found = false;
        self.placements(self.hand(seat), |_| {
            found = true;
            false
        });
        found
    }

    /// Every legal action of the seat to move: placements (by spot, tile, orientation), then
    /// discards (by tile), then pass. Empty while a chance outcome is awaited or after the end.
    pub fn legal_actions(&self) -> Vec<Action> {
        let Phase::Turn(seat) = self.phase else { return Vec::new() };
        let mut actions = Vec::with_capacity(32);
        let hand = self.hand(seat);
        let hand_bits = hand.bits();
        // Whether a spot takes a tile of the hand is a coin toss (a few spots in ten do), so a
        // loop that skipped the others mispredicted about once a spot. The spots are sifted
        // instead, 64 at a time and without a branch, into a mask of those that take a tile,
        // and only those are visited.
        let words = [hand_bits as u64, (hand_bits >> 64) as u64];
        for chunk in self.board.open().chunks(64) {
            let mut taking = 0u64;
            if words[1] == 0 {
                for (i, open) in chunk.iter().enumerate() {
                    taking |= u64::from(open.takes_low(words[0])) << i;
                }
            } else {
                for (i, open) in chunk.iter().enumerate() {
                    taking |= u64::from(open.takes(words)) << i;
                }
            }
            while taking != 0 {
                let open = &chunk[taking.trailing_zeros() as usize];
                taking &= taking - 1;
                let mut fits = hand_bits & open.fits();
                let (spot, need) = (open.spot, open.need);
                // Only the first spot of a game names neither half, and each tile fits it both
                // ways round; `fitting` lists those. Otherwise a tile's first half is the number
                // named for it, else the tile's other half against the second.
                // `&`, not `&&`: whether the first half is named is a coin toss, both unnamed
                // almost never.
                if need.first.is_none() & need.second.is_none() {
                    fitting(hand, need, |tile, first| {
                        actions.push(Action::Place { tile, spot, first });
                        true
                    });
                    continue;
                }
                // A tile's first half is the number named for it, else its other half against
                // the second: chosen by a mask, since a branch on which is named mispredicted.
                let second = need.second.unwrap_or(0);
                let named = need.first.unwrap_or(0);
                let use_named = u8::from(need.first.is_some()).wrapping_neg();
                while fits != 0 {
                    let tile = Tile::from_bit(fits.trailing_zeros());
                    let other = tile.pips_fast().wrapping_sub(second);
                    let first = (named & use_named) | (other & !use_named);
                    actions.push(Action::Place { tile, spot, first });
                    fits &= fits - 1;
                }
            }
        }
        #[cfg(debug_assertions)]
        {
            let mut listed = Vec::new();
            self.placements(hand, |action| {
                listed.push(action);
                true
            });
            debug_assert_eq!(actions, listed, "the masks list the placements `fitting` lists, in its order");
        }
        if actions.is_empty() || self.options.may_pass_when_able {
            if !self.boneyard.is_empty() {
                actions.extend(self.hand(seat).iter().map(|tile| Action::Discard { tile }));
            }
            actions.push(Action::Pass);
        }
        actions
    }

    pub fn is_legal(&self, seat: Seat, action: Action) -> bool {
        self.check(seat, action).is_ok()
    }

    /// Applies a seat's action, or leaves the state unchanged and says why it is illegal.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Effects, IllegalAction> {
        self.check(seat, action)?;
        let mut effects = Effects::default();
        match action {
            Action::Place { tile, spot, first } => {
                self.hands[seat.index()].remove(tile);
                let scored = self.board.place(Piece { tile, spot, first });
                self.scores[seat.index()] += scored as i32;
                effects.scored = scored;
                self.passes = 0;
                if self.boneyard.is_empty() {
                    self.next_turn(seat, &mut effects);
                } else {
                    self.phase = Phase::Drawing(seat);
                }
            }
            Action::Discard { tile } => {
                self.hands[seat.index()].remove(tile);
                self.discards.push(tile);
                self.passes = 0;
                self.phase = Phase::Drawing(seat);
            }
            Action::Pass => {
                self.passes += 1;
                self.next_turn(seat, &mut effects);
            }
        }
        Ok(effects)
    }

    /// What [`State::apply`] would score for this action, learned without applying it or copying
    /// the board (a bot's view asks it of every legal action), or why the action is illegal.
    pub fn preview(&self, seat: Seat, action: Action) -> Result<Preview, IllegalAction> {
        self.check(seat, action)?;
        let scored = match action {
            Action::Place { tile, spot, first } => self.board.closes(Piece { tile, spot, first }),
            Action::Discard { .. } | Action::Pass => 0,
        };
        Ok(Preview { scored })
    }

    /// Applies a chance outcome, or leaves the state unchanged and says why it does not fit.
    pub fn apply_chance(&mut self, chance: Chance) -> Result<(), IllegalChance> {
        match (self.phase, chance) {
            (Phase::Deal, Chance::Deal { hands, first }) => {
                self.check_deal(&hands, first)?;
                let dealt = hands.iter().fold(TileSet::EMPTY, |all, hand| all.union(*hand));
                self.boneyard = self.options.set.tiles().iter().filter(|t| !dealt.contains(*t)).collect();
                self.hands = hands;
                self.phase = Phase::Turn(first);
            }
            (Phase::Drawing(seat), Chance::Draw { tile }) => {
                if !self.boneyard.contains(tile) {
                    return Err(IllegalChance::NotInBoneyard(tile));
                }
                self.boneyard.remove(tile);
                self.hands[seat.index()].insert(tile);
                let mut effects = Effects::default();
                self.next_turn(seat, &mut effects);
            }
            (_, Chance::Deal { .. }) => return Err(IllegalChance::Unexpected("a deal")),
            (_, Chance::Draw { .. }) => return Err(IllegalChance::Unexpected("a tile from the boneyard")),
        }
        Ok(())
    }

    /// The chance outcome the game waits for, drawn from `dealer`; `None` if a seat is to move.
    pub fn sample_chance(&self, dealer: &mut Dealer) -> Option<Chance> {
        match self.phase {
            Phase::Deal => {
                let shuffled = dealer.shuffle(self.options.set.tiles());
                let hands = shuffled
                    .chunks(HAND_SIZE)
                    .take(usize::from(self.options.players))
                    .map(|chunk| chunk.iter().copied().collect())
                    .collect();
                let first = Seat(dealer.index(usize::from(self.options.players)) as u8);
                Some(Chance::Deal { hands, first })
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
            board: self.board.clone(),
            scores: self.scores.clone(),
            hand_sizes: self.hands.iter().map(|h| h.len() as u8).collect(),
            boneyard: self.boneyard.len() as u8,
            discards: self.discards.clone(),
            to_move: self.to_move(),
            outcome: self.outcome.clone(),
        }
    }

    fn check(&self, seat: Seat, action: Action) -> Result<(), IllegalAction> {
        match self.phase {
            Phase::Over => return Err(IllegalAction::GameOver),
            Phase::Deal | Phase::Drawing(_) => return Err(IllegalAction::AwaitingChance),
            Phase::Turn(to_move) if to_move != seat => return Err(IllegalAction::NotYourTurn { to_move }),
            Phase::Turn(_) => {}
        }
        let hand = self.hand(seat);
        match action {
            Action::Place { tile, .. } | Action::Discard { tile } if !hand.contains(tile) => {
                Err(IllegalAction::NotInHand(tile))
            }
            Action::Place { tile, spot, first } => self.check_place(tile, spot, first),
            Action::Discard { .. } | Action::Pass if !self.options.may_pass_when_able && self.can_place(seat) => {
                Err(IllegalAction::MustPlace)
            }
            Action::Discard { .. } if self.boneyard.is_empty() => Err(IllegalAction::BoneyardEmpty),
            Action::Discard { .. } | Action::Pass => Ok(()),
        }
    }

    fn check_place(&self, tile: Tile, spot: Spot, first: u8) -> Result<(), IllegalAction> {
        let Some(second) = tile.other(first) else { return Err(IllegalAction::NoSuchHalf { tile, first }) };
        let need = match self.board.verdict_now(spot) {
            Verdict::Open(need) => need,
            Verdict::Later(refusal) | Verdict::Never(refusal) => return Err(IllegalAction::Refused { spot, refusal }),
        };
        let fits = need.first.is_none_or(|n| n == first) && need.second.is_none_or(|n| n == second);
        if fits { Ok(()) } else { Err(IllegalAction::Mismatch { tile, spot }) }
    }

    fn check_deal(&self, hands: &[TileSet], first: Seat) -> Result<(), IllegalChance> {
        let players = self.options.players;
        let set = self.options.set.tiles();
        let mut dealt = TileSet::EMPTY;
        for hand in hands {
            if hand.len() != HAND_SIZE || !dealt.is_disjoint(*hand) || hand.intersection(set) != *hand {
                return Err(IllegalChance::BadDeal { players });
            }
            dealt = dealt.union(*hand);
        }
        if hands.len() != usize::from(players) {
            return Err(IllegalChance::BadDeal { players });
        }
        if first.0 >= players {
            return Err(IllegalChance::NoSuchSeat(first.0));
        }
        Ok(())
    }

    /// Passes the turn to the next seat holding tiles, or ends the game.
    fn next_turn(&mut self, seat: Seat, effects: &mut Effects) {
        let players = self.options.players;
        let holders = self.hands.iter().filter(|h| !h.is_empty()).count();
        if holders == 0 || self.passes >= holders {
            self.finish(effects);
            return;
        }
        let mut next = seat.next(players);
        while self.hand(next).is_empty() {
            next = next.next(players);
        }
        self.phase = Phase::Turn(next);
    }

    fn finish(&mut self, effects: &mut Effects) {
        let penalties: Vec<i32> = self.hands.iter().map(|h| -(h.len() as i32)).collect();
        for (score, penalty) in self.scores.iter_mut().zip(&penalties) {
            *score += penalty;
        }
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let winners = (0..self.options.players).map(Seat).filter(|s| self.scores[s.index()] == best).collect();
        let outcome = Outcome { winners, penalties, scores: self.scores.clone(), hands: self.hands.clone() };
        self.outcome = Some(outcome.clone());
        effects.outcome = Some(outcome);
        self.phase = Phase::Over;
    }
}

/// Calls `each(tile, first)` for every way a tile of `hand` meets `need`, in canonical tile order
/// and then by `first`; stops early when `each` returns false. Returns false if it stopped.
fn fitting(hand: TileSet, need: Need, mut each: impl FnMut(Tile, u8) -> bool) -> bool {
    match (need.first, need.second) {
        (Some(a), Some(b)) => match Tile::new(a, b) {
            Some(tile) if hand.contains(tile) => each(tile, a),
            _ => true,
        },
        (Some(a), None) => hand.intersection(TileSet::suit(a)).iter().all(|tile| each(tile, a)),
        (None, Some(b)) => {
            hand.intersection(TileSet::suit(b)).iter().all(|tile| each(tile, tile.other(b).unwrap_or(b)))
        }
        (None, None) => hand.iter().all(|tile| each(tile, tile.lo()) && (tile.is_double() || each(tile, tile.hi()))),
    }
}

/// What one seat (or a spectator) may see of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub seat: Option<Seat>,
    pub hand: Option<TileSet>,
    pub board: Board,
    pub scores: Vec<i32>,
    pub hand_sizes: Vec<u8>,
    pub boneyard: u8,
    pub discards: Vec<Tile>,
    pub to_move: ToMove,
    pub outcome: Option<Outcome>,
}

/// What an engine needs to imagine the hidden tiles: which tiles could be placed now, and the
/// same position with the hidden tiles dealt otherwise.
impl State {
    /// The tiles of `tiles` that have a legal placement now. A seat that passes or discards
    /// (unless passing is allowed when able) shows that it holds none of them.
    pub fn placeable(&self, tiles: TileSet) -> TileSet {
        let mut found = TileSet::EMPTY;
        self.placements(tiles, |action| {
            if let Action::Place { tile, .. } = action {
                found.insert(tile);
            }
            true
        });
        found
    }

    /// This position with `hands` and `boneyard` in place of the seats' hands and the boneyard:
    /// the same tiles, only placed otherwise, and every hand the same size. Everything public
    /// (the board, discards, scores, turn) is kept. Refused, and nothing made, when the tiles or
    /// the sizes differ.
    pub fn redeal(&self, hands: &[TileSet], boneyard: TileSet) -> Result<State, crate::game::RedealError> {
        crate::game::check_redeal(&self.hands, self.boneyard, hands, boneyard)?;
        let mut state = self.clone();
        state.hands = hands.to_vec();
        state.boneyard = boneyard;
        Ok(state)
    }
}
