//! The records of the view: a legal action with what it would do (`view.legal`), an action of the
//! history (`view.history`) and a domino on the Streets and Avenues table (`view.board.pieces`).
//!
//! A record is one Rust value that a script reads like a read-only map: `entry.points`,
//! `entry["points"]`, `keys()`, `values()`, `len()`, `in`, `==` and printing all give what the
//! map of the same fields gave. It exists because a view of maps cost a Rhai map, its keys, and a
//! value for every field of every record, built for each decision whether the script read them
//! or not, and walked three times more by Rhai (the check that no argument is locked, making the
//! argument read-only, the drop). A record is one value to walk and two allocations to make; a
//! field's value is made only when the script reads it.
//!
//! A record cannot be changed and holds nothing a script gave it: it has no setters and no
//! room for script values. That is a limit the sandbox relies on, because Rhai does not look
//! inside a custom type when it measures a value against the array, map and string size limits;
//! a record a script could fill would be a way around them.

use rhai::{Array, Dynamic, Engine, ImmutableString, Map, NativeCallContext};

use clack_rules::straight;
use clack_rules::streets::{self, Piece};

use super::{Played, int, spot, text, tile, word};

/// One record of the view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// An entry of a Straight Dominoes `view.legal`.
    Straight(straight::Action, straight::Preview),
    /// An entry of a Streets and Avenues `view.legal`, with the blocks it would close.
    Streets(streets::Action, u32),
    /// An entry of `view.history`.
    Played(Played),
    /// An entry of a Streets and Avenues `view.board.pieces`.
    Piece(Piece),
}

/// A field a record may have. The names are the keys of the map the record stands for, as
/// `bots/README.md` documents them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Action,
    Arm,
    CountAfter,
    EndsAfter,
    First,
    Kind,
    Matched,
    Points,
    Seat,
    Spot,
    Text,
    Tile,
}

/// Every field with its name.
const FIELDS: [(Field, &str); 12] = [
    (Field::Action, "action"),
    (Field::Arm, "arm"),
    (Field::CountAfter, "count_after"),
    (Field::EndsAfter, "ends_after"),
    (Field::First, "first"),
    (Field::Kind, "kind"),
    (Field::Matched, "matched"),
    (Field::Points, "points"),
    (Field::Seat, "seat"),
    (Field::Spot, "spot"),
    (Field::Text, "text"),
    (Field::Tile, "tile"),
];

impl Field {
    fn named(name: &str) -> Option<Field> {
        FIELDS.iter().find(|(_, n)| *n == name).map(|&(field, _)| field)
    }

    fn name(self) -> &'static str {
        FIELDS.iter().find(|(f, _)| *f == self).map_or("", |&(_, name)| name)
    }
}

impl Record {
    pub(super) fn into_dynamic(self) -> Dynamic {
        Dynamic::from(self)
    }

    /// The record's fields, in the order of their names (the order of a map's keys).
    fn fields(&self) -> &'static [Field] {
        use Field::*;
        match self {
            Record::Straight(..) => &[Arm, CountAfter, EndsAfter, Kind, Matched, Points, Text, Tile],
            Record::Streets(..) => &[First, Kind, Points, Spot, Text, Tile],
            Record::Played(_) => &[Action, Points, Seat],
            Record::Piece(_) => &[First, Spot, Tile],
        }
    }

    /// The value of `field`, made now; `None` if the record has no such field.
    fn get(&self, field: Field) -> Option<Dynamic> {
        match self {
            Record::Straight(action, preview) => straight_field(*action, preview, field),
            Record::Streets(action, points) => streets_field(*action, *points, field),
            Record::Played(p) => match field {
                Field::Seat => Some(int(p.seat.0)),
                Field::Action => Some(text(p.action)),
                Field::Points => Some(int(p.points)),
                _ => None,
            },
            Record::Piece(p) => match field {
                Field::Tile => Some(tile(p.tile)),
                Field::First => Some(int(p.first)),
                Field::Spot => Some(spot(p.spot)),
                _ => None,
            },
        }
    }

    /// What reading `field` gives a script: a field the record lacks reads as `()`, as a key a
    /// map lacks does.
    fn read(&self, field: Field) -> Dynamic {
        self.get(field).unwrap_or(Dynamic::UNIT)
    }

    /// The map the record stands for.
    pub fn to_map(&self) -> Map {
        self.fields().iter().map(|&f| (f.name().into(), self.read(f))).collect()
    }
}

fn straight_field(action: straight::Action, preview: &straight::Preview, field: Field) -> Option<Dynamic> {
    let w = &super::SHAPES.words;
    let (kind, t, arm, matched) = match action {
        straight::Action::Lead { tile } => (&w.lead, Some(tile), None, None),
        straight::Action::Play { tile, arm, matched } => (&w.play, Some(tile), Some(arm), Some(matched)),
        straight::Action::Draw => (&w.draw, None, None, None),
        straight::Action::Pass => (&w.pass, None, None, None),
    };
    let value = match field {
        Field::Kind => word(kind),
        Field::Tile => t.map_or(Dynamic::UNIT, tile),
        Field::Arm => arm.map_or(Dynamic::UNIT, |a| word(&w.arms[super::arm_index(a)])),
        Field::Matched => matched.map_or(Dynamic::UNIT, int),
        Field::Points => int(preview.scored),
        Field::CountAfter => int(preview.count),
        Field::EndsAfter => Dynamic::from_array(preview.ends.iter().map(|&(_, n)| int(n)).collect::<Array>()),
        Field::Text => text(action),
        Field::Action | Field::First | Field::Seat | Field::Spot => return None,
    };
    Some(value)
}

fn streets_field(action: streets::Action, points: u32, field: Field) -> Option<Dynamic> {
    let w = &super::SHAPES.words;
    let (kind, t, s, first) = match action {
        streets::Action::Place { tile, spot, first } => (&w.place, Some(tile), Some(spot), Some(first)),
        streets::Action::Discard { tile } => (&w.discard, Some(tile), None, None),
        streets::Action::Pass => (&w.pass, None, None, None),
    };
    let value = match field {
        Field::Kind => word(kind),
        Field::Tile => t.map_or(Dynamic::UNIT, tile),
        Field::Spot => s.map_or(Dynamic::UNIT, spot),
        Field::First => first.map_or(Dynamic::UNIT, int),
        Field::Points => int(points),
        Field::Text => text(action),
        Field::Action | Field::Arm | Field::CountAfter | Field::EndsAfter | Field::Matched | Field::Seat => {
            return None;
        }
    };
    Some(value)
}

/// Teaches `engine` to read records: a getter for every field name, the string indexer (which
/// Rhai also falls back to for a property without a getter), and the read-only functions of a
/// map. There is deliberately no setter.
pub(crate) fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Record>("record");
    for (field, name) in FIELDS {
        engine.register_get(name, move |r: &mut Record| r.read(field));
    }
    engine.register_indexer_get(|r: &mut Record, name: ImmutableString| {
        Field::named(&name).map_or(Dynamic::UNIT, |f| r.read(f))
    });
    engine.register_fn("keys", |r: &mut Record| -> Array {
        r.fields().iter().map(|f| Dynamic::from(ImmutableString::from(f.name()))).collect()
    });
    engine.register_fn("values", |r: &mut Record| -> Array { r.fields().iter().map(|&f| r.read(f)).collect() });
    engine.register_fn("len", |r: &mut Record| r.fields().len() as rhai::INT);
    engine.register_fn("is_empty", |_: &mut Record| false);
    engine.register_fn("contains", |r: &mut Record, name: ImmutableString| {
        Field::named(&name).is_some_and(|f| r.fields().contains(&f))
    });
    engine.register_fn("==", |a: &mut Record, b: Record| *a == b);
    engine.register_fn("!=", |a: &mut Record, b: Record| *a != b);
    engine.register_fn("to_string", printed);
    engine.register_fn("to_debug", printed);
}

/// A record prints as its map does: Rhai's own printing of that map.
fn printed(ctx: NativeCallContext, r: &mut Record) -> ImmutableString {
    let map = Dynamic::from_map(r.to_map());
    ctx.call_native_fn::<ImmutableString>("to_debug", (map.clone(),)).unwrap_or_else(|_| format!("{map:?}").into())
}
