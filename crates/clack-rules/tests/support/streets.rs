//! Builds Streets and Avenues positions through the public API: seat 0 places every scripted
//! domino (seat 1 passes, under `may_pass_when_able`), and the dealer hands seat 0 each tile just
//! before it is needed.

use clack_rules::streets::{Action, Chance, Effects, Options, State, ToMove};
use clack_rules::{Seat, Tile, TileSet};

pub enum Step<'a> {
    /// Place this action (text form) with seat 0.
    Place(&'a str),
    /// Seat 0 must hold this tile here, to try something with it.
    Hold(&'a str),
}

fn tile_of(step: &Step<'_>) -> Tile {
    match step {
        Step::Place(text) => match text.parse::<Action>().expect(text) {
            Action::Place { tile, .. } | Action::Discard { tile } => tile,
            Action::Pass => panic!("scripts place tiles"),
        },
        Step::Hold(text) => text.parse().expect(text),
    }
}

pub struct Script {
    pub state: State,
    /// Tiles for seat 0, in the order it needs them.
    queue: Vec<Tile>,
    filler: Vec<Tile>,
    pub effects: Vec<Effects>,
}

impl Script {
    pub fn new(options: Options, steps: &[Step<'_>]) -> Script {
        let options = Options { players: 2, may_pass_when_able: true, ..options };
        let mut queue: Vec<Tile> = Vec::new();
        for step in steps {
            let tile = tile_of(step);
            if !queue.contains(&tile) {
                queue.push(tile);
            }
        }
        let used: TileSet = queue.iter().copied().collect();
        let mut filler: Vec<Tile> = options.set.tiles().iter().filter(|t| !used.contains(*t)).collect();
        filler.reverse();
        let mut state = State::new(options).expect("valid");
        let mut script = Script { state: State::new(options).expect("valid"), queue, filler, effects: Vec::new() };
        let mine: TileSet = (0..7).map(|_| script.next_tile()).collect();
        let theirs: TileSet = (0..7).map(|_| script.filler.pop().expect("filler")).collect();
        state.apply_chance(Chance::Deal { hands: vec![mine, theirs], first: Seat(0) }).expect("deal");
        script.state = state;
        for step in steps {
            if let Step::Place(text) = step {
                script.place(text);
            }
        }
        script
    }

    fn next_tile(&mut self) -> Tile {
        if self.queue.is_empty() { self.filler.pop().expect("filler") } else { self.queue.remove(0) }
    }

    /// Seat 0 places `text`; then the dealer draws, and seat 1 passes.
    pub fn place(&mut self, text: &str) -> Effects {
        assert_eq!(self.state.to_move(), ToMove::Seat { seat: Seat(0) });
        let action: Action = text.parse().expect(text);
        let effects =
            self.state.apply(Seat(0), action).unwrap_or_else(|e| panic!("{text}: {e}\n{}", self.state.board()));
        if matches!(self.state.to_move(), ToMove::Chance { .. }) {
            let mut tile = self.next_tile();
            while !self.state.boneyard().contains(tile) {
                tile = self.next_tile();
            }
            self.state.apply_chance(Chance::Draw { tile }).expect("draw");
        }
        if self.state.to_move() == (ToMove::Seat { seat: Seat(1) }) {
            self.state.apply(Seat(1), Action::Pass).expect("seat 1 passes");
        }
        self.effects.push(effects.clone());
        effects
    }

    /// Whether seat 0 may play `text` now, and the error if not.
    pub fn try_place(&self, text: &str) -> Result<(), clack_rules::streets::IllegalAction> {
        let action: Action = text.parse().expect(text);
        assert!(self.state.hand(Seat(0)).contains(tile_of(&Step::Place(text))), "script does not hold {text}");
        let mut copy = self.state.clone();
        let result = copy.apply(Seat(0), action).map(|_| ());
        assert_eq!(result.is_ok(), self.state.is_legal(Seat(0), action));
        assert_eq!(result.is_ok(), self.state.legal_actions().contains(&action), "{text}: legal list disagrees");
        result
    }
}
