//! The bot's view: what a seat may see, as a Rhai map, and `legal`, the legal actions with what
//! each would score at once. The fields are documented in `bots/README.md`; change both together.

use clack_rules::game::{Action, Game};
use clack_rules::straight::{self, Arm};
use clack_rules::streets::{self, Spot};
use clack_rules::{Seat, Tile, TileSet};
use rhai::{Array, Dynamic, INT, Map};

/// One public action of the game so far: who, what (in the rules' notation), and its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub seat: Seat,
    pub action: Action,
    pub points: u32,
}

fn int(n: impl Into<i64>) -> Dynamic {
    Dynamic::from_int(n.into() as INT)
}

fn tile(t: Tile) -> Dynamic {
    Dynamic::from_array(vec![int(t.lo()), int(t.hi())])
}

fn tiles(set: TileSet) -> Dynamic {
    Dynamic::from_array(set.iter().map(tile).collect())
}

fn map(entries: impl IntoIterator<Item = (&'static str, Dynamic)>) -> Dynamic {
    let map: Map = entries.into_iter().map(|(k, v)| (k.into(), v)).collect();
    Dynamic::from_map(map)
}

fn array<T>(items: impl IntoIterator<Item = T>, f: impl Fn(T) -> Dynamic) -> Dynamic {
    Dynamic::from_array(items.into_iter().map(f).collect::<Array>())
}

/// The view of `seat` in `game`, with the legal actions in the game's order (so an index into
/// `view.legal` is an index into `game.legal_actions()`).
pub fn view(game: &Game, seat: Seat, history: &[Played]) -> Dynamic {
    let legal = game.legal_actions();
    let after = |action: Action| {
        let mut probe = game.clone();
        let points = probe.apply(seat, action).map_or(0, |e| e.scored());
        (points, probe)
    };
    let scored = |action: Action| after(action).0;
    // The points of each legal action again, as a plain array: the cheapest thing to scan.
    let points = array(legal.iter().map(|&a| scored(a)), int);
    // A number that differs from turn to turn, for bots that want to vary: no clock, no
    // generator, so a replayed game decides the same.
    let nonce = (history.len() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(seat.0);
    let history = array(history, |p| {
        map([("seat", int(p.seat.0)), ("action", Dynamic::from(p.action.to_string())), ("points", int(p.points))])
    });
    let common = [
        ("seat", int(seat.0)),
        ("nonce", int((nonce >> 33) as i64)),
        ("points", points),
        ("scores", array(game.scores(), int)),
        ("history", history),
    ];
    match game {
        Game::Straight(g) => {
            let o = g.observation(Some(seat));
            let layout = &o.layout;
            let arm = |a: Arm| array(layout.arm(a), |l| Dynamic::from_array(vec![int(l.inner), int(l.outer)]));
            let board = map([
                ("spinner", layout.root().map_or(Dynamic::UNIT, tile)),
                ("is_spinner", Dynamic::from_bool(layout.spinner().is_some())),
                ("west", arm(Arm::West)),
                ("east", arm(Arm::East)),
                ("north", arm(Arm::North)),
                ("south", arm(Arm::South)),
                ("count", int(layout.count())),
            ]);
            let legal = array(legal, |a| match (a, after(a)) {
                (Action::Straight(s), (points, Game::Straight(next))) => straight_entry(s, points, &next),
                _ => Dynamic::UNIT,
            });
            map(common.into_iter().chain([
                ("game", Dynamic::from("straight".to_owned())),
                ("hand", tiles(o.hand.unwrap_or_default())),
                ("hand_sizes", array(o.hand_sizes, int)),
                ("boneyard", int(o.drawable)),
                ("round", int(o.round)),
                ("target", int(g.options().target)),
                ("board", board),
                ("legal", legal),
            ]))
        }
        Game::Streets(g) => {
            let o = g.observation(Some(seat));
            let pieces = array(o.board.pieces(), |p| {
                map([("tile", tile(p.tile)), ("first", int(p.first)), ("spot", spot(p.spot))])
            });
            let board = map([("pieces", pieces), ("blocks", int(o.board.blocks()))]);
            let legal = array(legal, |a| match a {
                Action::Streets(s) => streets_entry(s, scored(a)),
                Action::Straight(_) => Dynamic::UNIT,
            });
            map(common.into_iter().chain([
                ("game", Dynamic::from("streets".to_owned())),
                ("hand", tiles(o.hand.unwrap_or_default())),
                ("hand_sizes", array(o.hand_sizes, int)),
                ("boneyard", int(o.boneyard)),
                ("discards", array(o.discards, tile)),
                ("board", board),
                ("legal", legal),
            ]))
        }
    }
}

fn straight_entry(action: straight::Action, points: u32, next: &straight::State) -> Dynamic {
    let (kind, t, arm, matched) = match action {
        straight::Action::Lead { tile } => ("lead", Some(tile), None, None),
        straight::Action::Play { tile, arm, matched } => ("play", Some(tile), Some(arm), Some(matched)),
        straight::Action::Draw => ("draw", None, None, None),
        straight::Action::Pass => ("pass", None, None, None),
    };
    map([
        ("kind", Dynamic::from(kind.to_owned())),
        ("tile", t.map_or(Dynamic::UNIT, tile)),
        ("arm", arm.map_or(Dynamic::UNIT, |a| Dynamic::from(a.name().to_owned()))),
        ("matched", matched.map_or(Dynamic::UNIT, int)),
        ("points", int(points)),
        ("count_after", int(next.layout().count())),
        ("ends_after", array(next.open_ends().iter().map(|&(_, n)| n), int)),
        ("text", Dynamic::from(action.to_string())),
    ])
}

fn spot(s: Spot) -> Dynamic {
    match s {
        Spot::Avenue { column, row } => {
            map([("kind", Dynamic::from("avenue".to_owned())), ("column", int(column)), ("row", int(row))])
        }
        Spot::Street { gap, half_row } => {
            map([("kind", Dynamic::from("street".to_owned())), ("gap", int(gap)), ("half_row", int(half_row))])
        }
    }
}

fn streets_entry(action: streets::Action, points: u32) -> Dynamic {
    let (kind, t, s, first) = match action {
        streets::Action::Place { tile, spot, first } => ("place", Some(tile), Some(spot), Some(first)),
        streets::Action::Discard { tile } => ("discard", Some(tile), None, None),
        streets::Action::Pass => ("pass", None, None, None),
    };
    map([
        ("kind", Dynamic::from(kind.to_owned())),
        ("tile", t.map_or(Dynamic::UNIT, tile)),
        ("spot", s.map_or(Dynamic::UNIT, spot)),
        ("first", first.map_or(Dynamic::UNIT, int)),
        ("points", int(points)),
        ("text", Dynamic::from(action.to_string())),
    ])
}
