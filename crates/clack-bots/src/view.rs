//! The bot's view: what a seat may see, as a Rhai map, and `legal`, the legal actions with what
//! each would score at once. The fields are documented in `bots/README.md`; change both together.
//!
//! A view is built for every decision, so it is built cheaply. What each legal action would do
//! comes from the rules' `preview`, once per action, instead of applying the action to a copy of
//! the game. The entries of `legal`, `history` and the Streets and Avenues `board.pieces` are
//! [`Record`]s, one Rust value each that a script reads like a read-only map, whose fields are
//! made only when read ([`record`] says why). The other maps are cloned from templates whose keys
//! were made once and filled in key order, so no key is made or compared per map. Constant words
//! (`"place"`, `"west"`...) are shared Rhai strings, which a copy only counts. It reads the game's
//! state directly but only what the seat's observation holds: its own hand, and public facts.

mod record;

use std::fmt::Write as _;
use std::sync::LazyLock;

use clack_rules::game::{Action, Game};
use clack_rules::straight::{self, Arm};
use clack_rules::streets::{self, Spot};
use clack_rules::{Seat, Tile, TileSet};
use rhai::{Array, Dynamic, INT, ImmutableString, Map};

pub use record::Record;
pub(crate) use record::register;

/// One public action of the game so far: who, what (in the rules' notation), and its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub seat: Seat,
    pub action: Action,
    pub points: u32,
}

/// The keys of a kind of map, made once. A map of that kind is a copy of the template (which
/// copies keys without comparing them) with its values written in key order.
struct Shape<const N: usize> {
    template: Map,
    /// `slots[i]` is where the value of the i-th key given to [`Shape::new`] goes in key order.
    slots: [usize; N],
}

impl<const N: usize> Shape<N> {
    fn new(keys: [&'static str; N]) -> Shape<N> {
        let template: Map = keys.iter().map(|&key| (key.into(), Dynamic::UNIT)).collect();
        debug_assert_eq!(template.len(), N, "the keys of a shape are distinct");
        let mut order: [usize; N] = std::array::from_fn(|i| i);
        order.sort_by_key(|&i| keys[i]);
        let mut slots = [0; N];
        for (slot, &key) in order.iter().enumerate() {
            slots[key] = slot;
        }
        Shape { template, slots }
    }

    /// A map with `values` for the keys, in the order the keys were given.
    fn make(&self, values: [Dynamic; N]) -> Dynamic {
        let mut ordered: [Dynamic; N] = std::array::from_fn(|_| Dynamic::UNIT);
        for (value, &slot) in values.into_iter().zip(&self.slots) {
            ordered[slot] = value;
        }
        let mut map = self.template.clone();
        for (place, value) in map.values_mut().zip(ordered) {
            *place = value;
        }
        Dynamic::from_map(map)
    }
}

/// Every map of the view, and every constant word in it.
struct Shapes {
    straight: Shape<13>,
    streets: Shape<12>,
    straight_board: Shape<7>,
    streets_board: Shape<2>,
    avenue: Shape<3>,
    street: Shape<3>,
    words: Words,
}

struct Words {
    straight: ImmutableString,
    streets: ImmutableString,
    lead: ImmutableString,
    play: ImmutableString,
    draw: ImmutableString,
    pass: ImmutableString,
    place: ImmutableString,
    discard: ImmutableString,
    avenue: ImmutableString,
    street: ImmutableString,
    /// Arm names, by [`Arm::ALL`] order.
    arms: [ImmutableString; 4],
}

static SHAPES: LazyLock<Shapes> = LazyLock::new(|| Shapes {
    straight: Shape::new([
        "seat",
        "nonce",
        "points",
        "scores",
        "history",
        "game",
        "hand",
        "hand_sizes",
        "boneyard",
        "round",
        "target",
        "board",
        "legal",
    ]),
    streets: Shape::new([
        "seat",
        "nonce",
        "points",
        "scores",
        "history",
        "game",
        "hand",
        "hand_sizes",
        "boneyard",
        "discards",
        "board",
        "legal",
    ]),
    straight_board: Shape::new(["spinner", "is_spinner", "west", "east", "north", "south", "count"]),
    streets_board: Shape::new(["pieces", "blocks"]),
    avenue: Shape::new(["kind", "column", "row"]),
    street: Shape::new(["kind", "gap", "half_row"]),
    words: Words {
        straight: "straight".into(),
        streets: "streets".into(),
        lead: "lead".into(),
        play: "play".into(),
        draw: "draw".into(),
        pass: "pass".into(),
        place: "place".into(),
        discard: "discard".into(),
        avenue: "avenue".into(),
        street: "street".into(),
        arms: Arm::ALL.map(|arm| arm.name().into()),
    },
});

fn int(n: impl Into<i64>) -> Dynamic {
    Dynamic::from_int(n.into() as INT)
}

fn word(w: &ImmutableString) -> Dynamic {
    Dynamic::from(w.clone())
}

/// A value's text form as a Rhai string, written straight into it.
fn text(value: impl std::fmt::Display) -> Dynamic {
    let mut s = ImmutableString::new();
    // Writing into a string cannot fail.
    let _ = write!(s.make_mut(), "{value}");
    Dynamic::from(s)
}

fn tile(t: Tile) -> Dynamic {
    Dynamic::from_array(vec![int(t.lo()), int(t.hi())])
}

fn tiles(set: TileSet) -> Dynamic {
    array(set.iter(), tile)
}

fn array<T>(items: impl IntoIterator<Item = T>, f: impl Fn(T) -> Dynamic) -> Dynamic {
    Dynamic::from_array(items.into_iter().map(f).collect::<Array>())
}

/// A value of the view as JSON, as a script reads it: maps as objects, arrays, integers, true
/// and false, strings, `()` as null, and each record as the map it stands for. It is for a bot's
/// author looking at what one decision was given.
pub fn to_json(value: &Dynamic) -> serde_json::Value {
    use serde_json::Value;
    let object = |map: &Map| Value::Object(map.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect());
    if let Some(record) = value.read_lock::<Record>() {
        return object(&record.to_map());
    }
    if let Some(map) = value.read_lock::<Map>() {
        return object(&map);
    }
    if let Some(items) = value.read_lock::<Array>() {
        return Value::Array(items.iter().map(to_json).collect());
    }
    if let Ok(n) = value.as_int() {
        return Value::from(n);
    }
    if let Ok(b) = value.as_bool() {
        return Value::Bool(b);
    }
    if value.is_unit() {
        return Value::Null;
    }
    Value::String(value.to_string())
}

/// The view of `seat` in `game`, with the legal actions in the game's order (so an index into
/// `view.legal` is an index into `game.legal_actions()`).
pub fn view(game: &Game, seat: Seat, history: &[Played]) -> Dynamic {
    counted_view(game, seat, history).0
}

/// The view and the number of legal actions in it, which a decision needs to check the answer
/// and would otherwise list again.
pub(crate) fn counted_view(game: &Game, seat: Seat, history: &[Played]) -> (Dynamic, usize) {
    match game {
        Game::Straight(g) => straight_view(g, seat, history),
        Game::Streets(g) => streets_view(g, seat, history),
    }
}

/// `view.nonce`.
fn nonce(seat: Seat, history: &[Played]) -> Dynamic {
    // A number that differs from turn to turn, for bots that want to vary: no clock, no
    // generator, so a replayed game decides the same.
    let nonce = (history.len() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seat.0);
    int((nonce >> 33) as i64)
}

/// `view.history`.
fn history_of(history: &[Played]) -> Dynamic {
    array(history, |p| Record::Played(p.clone()).into_dynamic())
}

fn straight_view(g: &straight::State, seat: Seat, history: &[Played]) -> (Dynamic, usize) {
    let shapes = &*SHAPES;
    let layout = g.layout();
    // What each legal action would do. An action the rules refuse (only when `seat` is not the
    // one to move) scores nothing and leaves the table as it is.
    let unchanged = || straight::Preview { scored: 0, count: layout.count(), ends: g.open_ends() };
    let legal: Vec<(straight::Action, straight::Preview)> =
        g.legal_actions().into_iter().map(|a| (a, g.preview(seat, a).unwrap_or_else(|_| unchanged()))).collect();
    let arm = |a: Arm| array(layout.arm(a), |l| Dynamic::from_array(vec![int(l.inner), int(l.outer)]));
    let board = shapes.straight_board.make([
        layout.root().map_or(Dynamic::UNIT, tile),
        Dynamic::from_bool(layout.spinner().is_some()),
        arm(Arm::West),
        arm(Arm::East),
        arm(Arm::North),
        arm(Arm::South),
        int(layout.count()),
    ]);
    let players = g.options().players;
    let count = legal.len();
    let view = shapes.straight.make([
        int(seat.0),
        nonce(seat, history),
        array(&legal, |(_, p)| int(p.scored)),
        array(g.scores(), |&s| int(s)),
        history_of(history),
        word(&shapes.words.straight),
        tiles(g.hand(seat)),
        array((0..players).map(|s| g.hand(Seat(s)).len() as u8), int),
        int(g.drawable() as u8),
        int(g.round()),
        int(g.options().target),
        board,
        array(legal, |(a, p)| Record::Straight(a, p).into_dynamic()),
    ]);
    (view, count)
}

fn streets_view(g: &streets::State, seat: Seat, history: &[Played]) -> (Dynamic, usize) {
    let shapes = &*SHAPES;
    let legal: Vec<(streets::Action, u32)> =
        g.legal_actions().into_iter().map(|a| (a, g.preview(seat, a).map_or(0, |p| p.scored))).collect();
    let board = g.board();
    let pieces = array(board.pieces(), |&p| Record::Piece(p).into_dynamic());
    let players = g.options().players;
    let count = legal.len();
    let view = shapes.streets.make([
        int(seat.0),
        nonce(seat, history),
        array(&legal, |&(_, points)| int(points)),
        array(g.scores(), |&s| int(s)),
        history_of(history),
        word(&shapes.words.streets),
        tiles(g.hand(seat)),
        array((0..players).map(|s| g.hand(Seat(s)).len() as u8), int),
        int(g.boneyard().len() as u8),
        array(g.discards(), |&t| tile(t)),
        shapes.streets_board.make([pieces, int(board.blocks())]),
        array(legal, |(a, points)| Record::Streets(a, points).into_dynamic()),
    ]);
    (view, count)
}

/// The index of an arm in [`Arm::ALL`], for its name in [`Words::arms`].
fn arm_index(a: Arm) -> usize {
    Arm::ALL.iter().position(|&b| b == a).unwrap_or(0)
}

fn spot(s: Spot) -> Dynamic {
    let shapes = &*SHAPES;
    match s {
        Spot::Avenue { column, row } => shapes.avenue.make([word(&shapes.words.avenue), int(column), int(row)]),
        Spot::Street { gap, half_row } => shapes.street.make([word(&shapes.words.street), int(gap), int(half_row)]),
    }
}
