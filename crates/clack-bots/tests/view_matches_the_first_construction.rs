//! The bot's view checked against its first construction, which applied every legal action to a
//! copy of the whole game (twice) to learn what it scores and built every entry as a map. That
//! slow, obvious definition is kept here as the reference: on many random positions of both
//! games, with their history, the view must be the same value, field for field, and every example
//! bot must choose the same action from both.
//!
//! The view's entries are records now (`view::Record`), not maps, so "the same value" is checked
//! the ways a script can see it: the record's map, every documented field read by a script with
//! property syntax and with the string indexer, and what `print` shows.

use clack_bots::view::{self, Played, Record};
use clack_bots::{Bot, Limits, sandbox};
use clack_rules::game::{Action, Game, Options, Turn};
use clack_rules::straight::{self, Arm};
use clack_rules::streets::{self, Spot};
use clack_rules::{Dealer, Kind, Seat, Tile, TileSet};
use rhai::{AST, Array, Dynamic, Engine, INT, Map, Scope};

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

/// The view as it was first built: every legal action applied to a copy of the game, twice.
fn cloning_view(game: &Game, seat: Seat, history: &[Played]) -> Dynamic {
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

/// Every field of a view, deeply: Rhai prints maps in key order, strings quoted, `()` for unit.
fn text(view: &Dynamic) -> String {
    format!("{view:?}")
}

/// The view with every record replaced by the map it stands for.
fn plain(value: Dynamic) -> Dynamic {
    if value.is::<Record>() {
        let record = value.cast::<Record>();
        return plain(Dynamic::from_map(record.to_map()));
    }
    if value.is_array() {
        let array = value.cast::<Array>();
        return Dynamic::from_array(array.into_iter().map(plain).collect());
    }
    if value.is_map() {
        let map = value.cast::<Map>();
        return Dynamic::from_map(map.into_iter().map(|(k, v)| (k, plain(v))).collect());
    }
    value
}

/// Scripts that copy a view into plain maps and arrays, reading each record's documented fields
/// the two ways a script can: property syntax (`e.points`) and the indexer over `keys()`.
const COPIERS: &str = r#"
fn straight_entry(e) {
    #{kind: e.kind, tile: e.tile, arm: e.arm, matched: e.matched, points: e.points,
      count_after: e.count_after, ends_after: e.ends_after, text: e.text}
}
fn streets_entry(e) { #{kind: e.kind, tile: e.tile, spot: e.spot, first: e.first, points: e.points, text: e.text} }
fn played(p) { #{seat: p.seat, action: p.action, points: p.points} }
fn piece(p) { #{tile: p.tile, first: p.first, spot: p.spot} }

fn by_properties(view) {
    let entry = if view.game == "straight" { Fn("straight_entry") } else { Fn("streets_entry") };
    view.legal = view.legal.map(entry);
    view.history = view.history.map(Fn("played"));
    if view.game == "streets" { view.board.pieces = view.board.pieces.map(Fn("piece")); }
    view
}

fn by_index(v) {
    switch type_of(v) {
        "array" => v.map(Fn("by_index")),
        "map" | "record" => {
            let out = #{};
            for k in v.keys() { out[k] = by_index(v[k]); }
            if v.len() != out.len() { throw "len"; }
            for k in v.keys() { if !(k in v) { throw "in"; } }
            out
        }
        _ => v
    }
}
"#;

fn copy(engine: &Engine, ast: &AST, copier: &str, view: Dynamic) -> String {
    let copied = engine.call_fn::<Dynamic>(&mut Scope::new(), ast, copier, (view,)).expect("copies");
    text(&copied)
}

fn tables() -> Vec<Options> {
    vec![
        Options::default_for(Kind::Straight),
        Options::Straight(straight::Options { players: 4, teams: true, ..straight::Options::default() }),
        Options::Straight(straight::Options {
            players: 3,
            spinner: straight::SpinnerRule::FirstDouble,
            ..straight::Options::default()
        }),
        Options::Straight(straight::Options {
            players: 2,
            spinner_sides_open_immediately: true,
            may_draw_when_able: true,
            ..straight::Options::default()
        }),
        Options::default_for(Kind::Streets),
        Options::Streets(streets::Options {
            players: 4,
            set: streets::DominoSet::DoubleTwelve,
            ..streets::Options::default()
        }),
        Options::Streets(streets::Options { players: 3, may_pass_when_able: true, ..streets::Options::default() }),
    ]
}

/// Plays a seeded game with random moves, calling `check` at every seat's turn with its history.
fn playout(options: Options, seed: u64, mut check: impl FnMut(&Game, Seat, &[Played])) -> usize {
    let mut game = Game::new(options).expect("valid");
    let mut dealer = Dealer::from_seed(seed);
    let mut history = Vec::new();
    let mut turns = 0;
    loop {
        match game.turn() {
            Turn::Over => return turns,
            Turn::Chance => {
                let chance = game.sample_chance(&mut dealer).expect("chance");
                game.apply_chance(chance).expect("fits");
            }
            Turn::Seat { seat } => {
                check(&game, seat, &history);
                turns += 1;
                let legal = game.legal_actions();
                let action = legal[dealer.index(legal.len())];
                let points = game.apply(seat, action).expect("legal").scored();
                history.push(Played { seat, action, points });
            }
        }
    }
}

#[test]
fn the_view_is_the_one_built_by_applying_every_action_to_a_copy() {
    let mut turns = 0;
    for options in tables() {
        for seed in 0..6 {
            turns += playout(options, seed, |game, seat, history| {
                assert_eq!(text(&plain(view::view(game, seat, history))), text(&cloning_view(game, seat, history)));
                // A seat that is not to move sees the same either way too (every action refused).
                let other = Seat((seat.0 + 1) % game.players());
                assert_eq!(text(&plain(view::view(game, other, history))), text(&cloning_view(game, other, history)));
            });
        }
    }
    assert!(turns > 1000, "{turns} positions");
}

#[test]
fn a_script_reads_every_documented_field_as_it_read_the_first_view() {
    let limits = Limits { deadline: std::time::Duration::from_secs(60), ..Limits::default() };
    let engine = sandbox::engine(&limits);
    let ast = engine.compile(COPIERS).expect("compiles");
    let mut turns = 0;
    for options in tables() {
        for seed in 0..2 {
            turns += playout(options, seed, |game, seat, history| {
                let reference = text(&cloning_view(game, seat, history));
                assert_eq!(copy(&engine, &ast, "by_properties", view::view(game, seat, history)), reference);
                assert_eq!(copy(&engine, &ast, "by_index", view::view(game, seat, history)), reference);
            });
        }
    }
    assert!(turns > 300, "{turns} positions");
}

#[test]
fn a_view_prints_as_the_first_view_did() {
    // Room for a whole view in the output, so that nothing is cut.
    let limits = Limits { deadline: std::time::Duration::from_secs(60), output: 1 << 20, ..Limits::default() };
    let engine = sandbox::engine(&limits);
    let source = r#"fn choose(view) { print(view); debug(view.legal); print("" + view.legal[0]); 0 }"#;
    let bot = Bot::compile(&engine, &limits, source).expect("compiles");
    for options in tables() {
        playout(options, 1, |game, seat, history| {
            let legal = game.legal_actions().len();
            let new = bot.decide_on(&engine, &limits, view::view(game, seat, history), legal);
            let old = bot.decide_on(&engine, &limits, cloning_view(game, seat, history), legal);
            assert_eq!(new.choice, Ok(0));
            assert_eq!(new.output, old.output);
        });
    }
}

#[test]
fn every_example_bot_chooses_the_same_from_both_views() {
    // The operation limit stays; the wall-clock deadline is far off, so that a slow debug build
    // on a busy machine cannot turn a decision into a fault.
    let limits = Limits { deadline: std::time::Duration::from_secs(60), ..Limits::default() };
    let engine = sandbox::engine(&limits);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bots");
    let mut decisions = 0;
    for options in tables() {
        let prefix = options.kind().name();
        let mut bots = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("bots/") {
            let path = entry.expect("entry").path();
            let name = path.file_name().expect("name").to_string_lossy().into_owned();
            if name.starts_with(prefix) && name.ends_with(".rhai") {
                let source = std::fs::read_to_string(&path).expect("read");
                bots.push((name, Bot::compile(&engine, &limits, &source).expect("compiles")));
            }
        }
        assert_eq!(bots.len(), 3, "three example bots of {prefix}");
        for seed in 0..2 {
            playout(options, seed, |game, seat, history| {
                let legal = game.legal_actions().len();
                for (name, bot) in &bots {
                    let new = bot.decide_on(&engine, &limits, view::view(game, seat, history), legal);
                    let old = bot.decide_on(&engine, &limits, cloning_view(game, seat, history), legal);
                    assert_eq!(new.choice, old.choice, "{name}");
                    assert!(new.choice.is_ok(), "{name}: {:?}", new.choice);
                    decisions += 1;
                }
            });
        }
    }
    assert!(decisions > 600, "{decisions} decisions");
}
