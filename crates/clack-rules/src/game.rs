//! One enum over both games, so that a log, a server or a bot host can hold any game without
//! knowing which it is. Each method forwards to the game's own module; a move of one game
//! offered to the other is refused with [`GameError::WrongGame`].

use serde::{Deserialize, Serialize};

use crate::chance::Dealer;
use crate::tile::{Seat, Tile, TileSet};
use crate::{straight, streets};

/// Which game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Straight,
    Streets,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Straight => "straight",
            Kind::Streets => "streets",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Options {
    Straight(straight::Options),
    Streets(streets::Options),
}

impl Options {
    pub fn kind(&self) -> Kind {
        match self {
            Options::Straight(_) => Kind::Straight,
            Options::Streets(_) => Kind::Streets,
        }
    }

    /// Seats at the table.
    pub fn players(&self) -> u8 {
        match self {
            Options::Straight(o) => o.players,
            Options::Streets(o) => o.players,
        }
    }

    /// The default options of a game.
    pub fn default_for(kind: Kind) -> Options {
        match kind {
            Kind::Straight => Options::Straight(straight::Options::default()),
            Kind::Streets => Options::Streets(streets::Options::default()),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Straight(straight::Action),
    Streets(streets::Action),
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Straight(a) => a.fmt(f),
            Action::Streets(a) => a.fmt(f),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chance {
    Straight(straight::Chance),
    Streets(streets::Chance),
}

/// One step of a game: a chance outcome, or a seat's action. A game is its options and its
/// steps; whoever needs to rebuild it (an engine, an analysis) replays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Chance(Chance),
    Act(Seat, Action),
}

impl Step {
    /// Whether this step deals new hands (a new round of Straight Dominoes, or the deal of
    /// Streets and Avenues): what went before it is no longer hidden.
    pub fn is_deal(&self) -> bool {
        matches!(
            self,
            Step::Chance(Chance::Straight(straight::Chance::Deal { .. }))
                | Step::Chance(Chance::Streets(streets::Chance::Deal { .. }))
        )
    }
}

/// Who moves next in one game: the dealer (with the chance outcome it owes, of type `K`), a
/// seat, or nobody.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToMove<K> {
    Chance { kind: K },
    Seat { seat: Seat },
    Over,
}

/// Who moves next, alike for both games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Turn {
    /// The dealer: a chance outcome is awaited.
    Chance,
    Seat {
        seat: Seat,
    },
    Over,
}

/// What a move did, alike for both games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effects {
    Straight(straight::Effects),
    Streets(streets::Effects),
}

impl Effects {
    /// Points the move scored for the mover's side.
    pub fn scored(&self) -> u32 {
        match self {
            Effects::Straight(e) => e.scored,
            Effects::Streets(e) => e.scored,
        }
    }

    pub fn ends_game(&self) -> bool {
        match self {
            Effects::Straight(e) => e.outcome.is_some(),
            Effects::Streets(e) => e.outcome.is_some(),
        }
    }
}

/// Why a move does not fit a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Straight(#[from] straight::IllegalAction),
    #[error(transparent)]
    Streets(#[from] streets::IllegalAction),
    #[error(transparent)]
    StraightChance(#[from] straight::IllegalChance),
    #[error(transparent)]
    StreetsChance(#[from] streets::IllegalChance),
    #[error("that move belongs to the other game")]
    WrongGame,
}

/// A text that names no action of this game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error(transparent)]
    Straight(#[from] straight::WireError),
    #[error(transparent)]
    Streets(#[from] streets::ParseActionError),
}

/// Options that describe no playable game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionsError {
    #[error(transparent)]
    Straight(#[from] straight::OptionsError),
    #[error(transparent)]
    Streets(#[from] streets::OptionsError),
}

/// A redeal that does not keep the hidden tiles' number and sizes ([`Game::redeal`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RedealError {
    #[error("a redeal gives {given} hands for {players} seats")]
    Seats { given: usize, players: usize },
    #[error("seat {seat} would hold {count} tiles, not {expected}")]
    HandSize { seat: u8, count: usize, expected: usize },
    #[error("the boneyard would hold {count} tiles, not {expected}")]
    BoneyardSize { count: usize, expected: usize },
    #[error("a redeal must place exactly the tiles that were in the hands and the boneyard, each once")]
    Tiles,
}

/// Checks that `hands` and `boneyard` place the same tiles as `old_hands` and `old_boneyard`,
/// each once, with every hand and the boneyard the same size as before.
pub(crate) fn check_redeal(
    old_hands: &[TileSet],
    old_boneyard: TileSet,
    hands: &[TileSet],
    boneyard: TileSet,
) -> Result<(), RedealError> {
    if hands.len() != old_hands.len() {
        return Err(RedealError::Seats { given: hands.len(), players: old_hands.len() });
    }
    for (seat, (new, old)) in hands.iter().zip(old_hands).enumerate() {
        if new.len() != old.len() {
            return Err(RedealError::HandSize { seat: seat as u8, count: new.len(), expected: old.len() });
        }
    }
    if boneyard.len() != old_boneyard.len() {
        return Err(RedealError::BoneyardSize { count: boneyard.len(), expected: old_boneyard.len() });
    }
    let union = |hands: &[TileSet], boneyard: TileSet| hands.iter().fold(boneyard, |all, hand| all.union(*hand));
    let placed: usize = hands.iter().map(|h| h.len()).sum::<usize>() + boneyard.len();
    if union(hands, boneyard) != union(old_hands, old_boneyard) || union(hands, boneyard).len() != placed {
        return Err(RedealError::Tiles);
    }
    Ok(())
}

/// A game of either kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Game {
    Straight(straight::State),
    Streets(streets::State),
}

impl Game {
    pub fn new(options: Options) -> Result<Game, OptionsError> {
        Ok(match options {
            Options::Straight(o) => Game::Straight(straight::State::new(o)?),
            Options::Streets(o) => Game::Streets(streets::State::new(o)?),
        })
    }

    pub fn kind(&self) -> Kind {
        match self {
            Game::Straight(_) => Kind::Straight,
            Game::Streets(_) => Kind::Streets,
        }
    }

    pub fn options(&self) -> Options {
        match self {
            Game::Straight(g) => Options::Straight(*g.options()),
            Game::Streets(g) => Options::Streets(*g.options()),
        }
    }

    pub fn players(&self) -> u8 {
        self.options().players()
    }

    pub fn turn(&self) -> Turn {
        match self {
            Game::Straight(g) => match g.to_move() {
                straight::ToMove::Chance { .. } => Turn::Chance,
                straight::ToMove::Seat { seat } => Turn::Seat { seat },
                straight::ToMove::Over => Turn::Over,
            },
            Game::Streets(g) => match g.to_move() {
                streets::ToMove::Chance { .. } => Turn::Chance,
                streets::ToMove::Seat { seat } => Turn::Seat { seat },
                streets::ToMove::Over => Turn::Over,
            },
        }
    }

    /// The seat waiting for a tile from the boneyard, when that is the chance awaited.
    pub fn drawing_seat(&self) -> Option<Seat> {
        match self {
            Game::Straight(g) => match g.to_move() {
                straight::ToMove::Chance { kind: straight::ChanceKind::Draw { seat } } => Some(seat),
                _ => None,
            },
            Game::Streets(g) => match g.to_move() {
                streets::ToMove::Chance { kind: streets::ChanceKind::Draw { seat } } => Some(seat),
                _ => None,
            },
        }
    }

    pub fn is_over(&self) -> bool {
        self.turn() == Turn::Over
    }

    /// The legal actions of the seat to move, in the game's fixed order.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self {
            Game::Straight(g) => g.legal_actions().into_iter().map(Action::Straight).collect(),
            Game::Streets(g) => g.legal_actions().into_iter().map(Action::Streets).collect(),
        }
    }

    pub fn is_legal(&self, seat: Seat, action: Action) -> bool {
        match (self, action) {
            (Game::Straight(g), Action::Straight(a)) => g.is_legal(seat, a),
            (Game::Streets(g), Action::Streets(a)) => g.is_legal(seat, a),
            _ => false,
        }
    }

    /// The action a seat's text notation names in this game (as `legal_actions` print them, or
    /// Straight's short forms: `5-3` where only one end fits). Whether it is legal is still for
    /// [`Game::apply`] to say.
    pub fn parse_action(&self, seat: Seat, text: &str) -> Result<Action, NotationError> {
        match self {
            Game::Straight(g) => {
                let wire: straight::WireAction = text.parse()?;
                Ok(Action::Straight(wire.to_action(g, seat)?))
            }
            Game::Streets(_) => Ok(Action::Streets(text.parse()?)),
        }
    }

    /// Applies a seat's action, or leaves the game unchanged and says why not.
    pub fn apply(&mut self, seat: Seat, action: Action) -> Result<Effects, GameError> {
        match (self, action) {
            (Game::Straight(g), Action::Straight(a)) => Ok(Effects::Straight(g.apply(seat, a)?)),
            (Game::Streets(g), Action::Streets(a)) => Ok(Effects::Streets(g.apply(seat, a)?)),
            _ => Err(GameError::WrongGame),
        }
    }

    /// Applies a chance outcome, or leaves the game unchanged and says why not.
    pub fn apply_chance(&mut self, chance: Chance) -> Result<(), GameError> {
        match (self, chance) {
            (Game::Straight(g), Chance::Straight(c)) => Ok(g.apply_chance(c)?),
            (Game::Streets(g), Chance::Streets(c)) => Ok(g.apply_chance(c)?),
            _ => Err(GameError::WrongGame),
        }
    }

    /// Applies one step of a game (a chance outcome or a seat's action), or leaves the game
    /// unchanged and says why not.
    pub fn apply_step(&mut self, step: &Step) -> Result<(), GameError> {
        match step {
            Step::Chance(chance) => self.apply_chance(chance.clone()),
            Step::Act(seat, action) => self.apply(*seat, *action).map(|_| ()),
        }
    }

    /// The chance outcome that gives `tile` from the boneyard, in this game.
    pub fn draw_chance(&self, tile: Tile) -> Chance {
        match self {
            Game::Straight(_) => Chance::Straight(straight::Chance::Draw { tile }),
            Game::Streets(_) => Chance::Streets(streets::Chance::Draw { tile }),
        }
    }

    /// The chance outcome awaited, drawn from `dealer`.
    pub fn sample_chance(&self, dealer: &mut Dealer) -> Option<Chance> {
        match self {
            Game::Straight(g) => g.sample_chance(dealer).map(Chance::Straight),
            Game::Streets(g) => g.sample_chance(dealer).map(Chance::Streets),
        }
    }

    /// A seat's tiles.
    pub fn hand(&self, seat: Seat) -> crate::TileSet {
        match self {
            Game::Straight(g) => g.hand(seat),
            Game::Streets(g) => g.hand(seat),
        }
    }

    /// Every seat's tiles, in seat order.
    pub fn hands(&self) -> Vec<crate::TileSet> {
        (0..self.players()).map(|s| self.hand(Seat(s))).collect()
    }

    /// Tiles in the boneyard.
    pub fn boneyard(&self) -> crate::TileSet {
        match self {
            Game::Straight(g) => g.boneyard(),
            Game::Streets(g) => g.boneyard(),
        }
    }

    /// Each side's score (one per seat, except Straight Dominoes with teams: one per team).
    pub fn scores(&self) -> Vec<i64> {
        match self {
            Game::Straight(g) => g.scores().iter().map(|&s| i64::from(s)).collect(),
            Game::Streets(g) => g.scores().iter().map(|&s| i64::from(s)).collect(),
        }
    }

    /// The seats that won, once the game is over.
    pub fn winners(&self) -> Vec<Seat> {
        match self {
            Game::Straight(g) => g.outcome().map_or_else(Vec::new, |o| {
                (0..g.options().players).map(Seat).filter(|&s| g.options().side(s) == o.winning_side).collect()
            }),
            Game::Streets(g) => g.outcome().map_or_else(Vec::new, |o| o.winners.clone()),
        }
    }

    /// This position with the hands and the boneyard placed otherwise (see
    /// [`straight::State::redeal`]).
    pub fn redeal(&self, hands: &[TileSet], boneyard: TileSet) -> Result<Game, RedealError> {
        Ok(match self {
            Game::Straight(g) => Game::Straight(g.redeal(hands, boneyard)?),
            Game::Streets(g) => Game::Streets(g.redeal(hands, boneyard)?),
        })
    }

    /// A text picture of the table, for terminals and logs.
    pub fn render(&self) -> String {
        match self {
            Game::Straight(g) => g.layout().to_string(),
            Game::Streets(g) => g.board().to_string(),
        }
    }
}
