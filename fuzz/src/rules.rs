//! The rules engines under arbitrary sequences of actions and chance outcomes.
//!
//! The input chooses the options (valid or not) and then steps: a legal action or a dealer's
//! outcome (which must be accepted), an arbitrary action from an arbitrary seat, a dealer's
//! outcome with one thing changed, or an arbitrary chance outcome. After every step the
//! promises are checked: a rejected input changes nothing, an accepted action was legal and
//! listed, the tiles are conserved, a seat to move always has a legal action and the dealer
//! always has an outcome to give.

use arbitrary::{Result, Unstructured};
use clack_rules::game::{Action, Chance, Game, Options, Turn};
use clack_rules::straight::{self, Arm, BlockedScoring, SpinnerRule};
use clack_rules::streets::{self, DominoSet, Spot};
use clack_rules::{Dealer, Seat, Tile, TileSet};

/// Steps per input: enough for several whole games, few enough to keep runs fast.
const MAX_STEPS: usize = 4_096;

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(options) = options(&mut u) else { return };
    let Ok(mut game) = Game::new(options) else {
        assert!(invalid(&options), "{options:?} are valid but refused");
        return;
    };
    assert!(!invalid(&options), "{options:?} are invalid but accepted");
    check(&game);
    for _ in 0..MAX_STEPS {
        if u.is_empty() || step(&mut game, &mut u).is_err() {
            break;
        }
        check(&game);
    }
}

/// Whether options break a rule of the rules files, written out again here so the engine's
/// own validation is checked against it.
fn invalid(options: &Options) -> bool {
    match options {
        Options::Straight(o) => {
            !(2..=4).contains(&o.players)
                || (o.teams && o.players != 4)
                || usize::from(o.boneyard_reserve) > 28 - 7 * usize::from(o.players)
                || o.target == 0
        }
        Options::Streets(o) => o.players < 2 || 7 * usize::from(o.players) >= o.set.tiles().len(),
    }
}

fn options(u: &mut Unstructured) -> Result<Options> {
    Ok(if u.arbitrary()? {
        Options::Straight(straight::Options {
            players: u.int_in_range(0..=5)?,
            teams: u.arbitrary()?,
            boneyard_reserve: u.int_in_range(0..=30)?,
            spinner: *u.choose(&[SpinnerRule::FirstTile, SpinnerRule::FirstDouble, SpinnerRule::None])?,
            spinner_sides_open_immediately: u.arbitrary()?,
            may_draw_when_able: u.arbitrary()?,
            blocked_scoring: *u.choose(&[BlockedScoring::Net, BlockedScoring::Opponents])?,
            target: if u.arbitrary()? { u.int_in_range(0..=300)? } else { u.arbitrary()? },
            finish_round_at_target: u.arbitrary()?,
        })
    } else {
        Options::Streets(streets::Options {
            set: *u.choose(&[DominoSet::DoubleNine, DominoSet::DoubleTwelve])?,
            players: u.int_in_range(0..=14)?,
            may_pass_when_able: u.arbitrary()?,
        })
    })
}

fn step(game: &mut Game, u: &mut Unstructured) -> Result<()> {
    match u.int_in_range(0u8..=9)? {
        0..=5 => advance(game, u.arbitrary()?),
        6 | 7 => {
            let seat = Seat(u.int_in_range(0..=5)?);
            let action = action(game, u)?;
            try_action(game, seat, action);
        }
        8 => {
            if let Some(chance) = game.sample_chance(&mut Dealer::from_seed(u.arbitrary()?)) {
                try_chance(game, mutate(chance, u)?);
            }
        }
        _ => try_chance(game, chance(game, u)?),
    }
    Ok(())
}

/// Moves the game on the way a server does: a legal action chosen by `n`, or the dealer's
/// outcome from seed `n`. Both must be accepted.
fn advance(game: &mut Game, n: u64) {
    match game.turn() {
        Turn::Seat { seat } => {
            let legal = game.legal_actions();
            let action = legal[(n % legal.len() as u64) as usize];
            if let Err(e) = game.apply(seat, action) {
                panic!("listed action {action} refused: {e}");
            }
        }
        Turn::Chance => {
            let chance = game.sample_chance(&mut Dealer::from_seed(n)).expect("the dealer has an outcome");
            if let Err(e) = game.apply_chance(chance.clone()) {
                panic!("the dealer's {chance:?} refused: {e}");
            }
        }
        Turn::Over => {}
    }
}

fn try_action(game: &mut Game, seat: Seat, action: Action) {
    let before = game.clone();
    let turn = game.turn();
    let was_legal = game.is_legal(seat, action);
    let listed = game.legal_actions().contains(&action);
    match game.apply(seat, action) {
        Ok(_) => {
            assert!(was_legal, "{action} by {seat} accepted but is_legal said no");
            assert_eq!(turn, Turn::Seat { seat }, "{action} accepted from {seat} out of turn");
            assert!(listed, "{action} by {seat} accepted but not among the legal actions");
        }
        Err(e) => {
            assert!(!was_legal, "{action} by {seat} refused ({e}) but is_legal said yes");
            assert!(*game == before, "refused {action} ({e}) changed the state");
            let _ = e.to_string();
        }
    }
}

fn try_chance(game: &mut Game, chance: Chance) {
    let before = game.clone();
    let turn = game.turn();
    match game.apply_chance(chance.clone()) {
        Ok(()) => assert_eq!(turn, Turn::Chance, "{chance:?} accepted while no chance was awaited"),
        Err(e) => {
            assert!(*game == before, "refused {chance:?} ({e}) changed the state");
            let _ = e.to_string();
        }
    }
}

fn tile(u: &mut Unstructured) -> Result<Tile> {
    Ok(Tile::from_index(u.int_in_range(0..=90)?).expect("index below 91"))
}

fn tile_set(u: &mut Unstructured) -> Result<TileSet> {
    let bits: u128 = u.arbitrary()?;
    Ok((0..91u8).filter(|i| bits & (1 << i) != 0).filter_map(Tile::from_index).collect())
}

/// A coordinate: mostly near the first domino, sometimes anywhere an `i32` reaches.
fn coordinate(u: &mut Unstructured) -> Result<i32> {
    if u.ratio(7, 8)? { u.int_in_range(-12..=12) } else { u.arbitrary() }
}

/// An arbitrary action, usually of the game's own kind.
fn action(game: &Game, u: &mut Unstructured) -> Result<Action> {
    let straight = match game {
        Game::Straight(_) => u.ratio(15, 16)?,
        Game::Streets(_) => u.ratio(1, 16)?,
    };
    Ok(if straight {
        Action::Straight(match u.int_in_range(0u8..=5)? {
            0 => straight::Action::Lead { tile: tile(u)? },
            1 => straight::Action::Draw,
            2 => straight::Action::Pass,
            _ => straight::Action::Play {
                tile: tile(u)?,
                arm: *u.choose(&Arm::ALL)?,
                matched: if u.ratio(7, 8)? { u.int_in_range(0..=6)? } else { u.arbitrary()? },
            },
        })
    } else {
        Action::Streets(match u.int_in_range(0u8..=5)? {
            0 => streets::Action::Discard { tile: tile(u)? },
            1 => streets::Action::Pass,
            _ => {
                let spot = if u.arbitrary()? {
                    Spot::Avenue { column: coordinate(u)?, row: coordinate(u)? }
                } else {
                    Spot::Street { gap: coordinate(u)?, half_row: coordinate(u)? }
                };
                let first = if u.ratio(7, 8)? { u.int_in_range(0..=12)? } else { u.arbitrary()? };
                streets::Action::Place { tile: tile(u)?, spot, first }
            }
        })
    })
}

/// An arbitrary chance outcome, usually of the game's own kind.
fn chance(game: &Game, u: &mut Unstructured) -> Result<Chance> {
    let straight = match game {
        Game::Straight(_) => u.ratio(15, 16)?,
        Game::Streets(_) => u.ratio(1, 16)?,
    };
    Ok(if straight {
        Chance::Straight(match u.int_in_range(0u8..=2)? {
            0 => {
                let mut tiles = [None; straight::MAX_PLAYERS];
                for slot in &mut tiles {
                    *slot = if u.ratio(7, 8)? { Some(tile(u)?) } else { None };
                }
                straight::Chance::LeadDraw { tiles }
            }
            1 => {
                let mut hands = [TileSet::EMPTY; straight::MAX_PLAYERS];
                for hand in &mut hands {
                    *hand = tile_set(u)?;
                }
                straight::Chance::Deal { hands }
            }
            _ => straight::Chance::Draw { tile: tile(u)? },
        })
    } else {
        Chance::Streets(match u.int_in_range(0u8..=1)? {
            0 => {
                let count = u.int_in_range(0..=7)?;
                let hands = (0..count).map(|_| tile_set(u)).collect::<Result<Vec<_>>>()?;
                streets::Chance::Deal { hands, first: Seat(u.int_in_range(0..=8)?) }
            }
            _ => streets::Chance::Draw { tile: tile(u)? },
        })
    })
}

/// A dealer's outcome with one thing changed: a tile moved, swapped or repeated, a seat changed.
fn mutate(chance: Chance, u: &mut Unstructured) -> Result<Chance> {
    Ok(match chance {
        Chance::Straight(straight::Chance::LeadDraw { mut tiles }) => {
            let i = u.choose_index(tiles.len())?;
            tiles[i] = if u.arbitrary()? { Some(tile(u)?) } else { tiles[u.choose_index(tiles.len())?] };
            Chance::Straight(straight::Chance::LeadDraw { tiles })
        }
        Chance::Straight(straight::Chance::Deal { mut hands }) => {
            let i = u.choose_index(hands.len())?;
            hands[i] = toggle(hands[i], u)?;
            Chance::Straight(straight::Chance::Deal { hands })
        }
        Chance::Streets(streets::Chance::Deal { mut hands, first }) => {
            let first = if u.arbitrary()? { Seat(u.int_in_range(0..=8)?) } else { first };
            if !hands.is_empty() && u.arbitrary()? {
                let i = u.choose_index(hands.len())?;
                hands[i] = toggle(hands[i], u)?;
            } else if u.arbitrary()? {
                hands.pop();
            } else {
                hands.push(tile_set(u)?);
            }
            Chance::Streets(streets::Chance::Deal { hands, first })
        }
        Chance::Straight(straight::Chance::Draw { .. }) => Chance::Straight(straight::Chance::Draw { tile: tile(u)? }),
        Chance::Streets(streets::Chance::Draw { .. }) => Chance::Streets(streets::Chance::Draw { tile: tile(u)? }),
    })
}

/// `set` with one tile added or taken away.
fn toggle(mut set: TileSet, u: &mut Unstructured) -> Result<TileSet> {
    let tile = tile(u)?;
    if set.contains(tile) {
        set.remove(tile)
    } else {
        set.insert(tile)
    }
    Ok(set)
}

/// The invariants that hold in every state the engine can reach.
fn check(game: &Game) {
    conservation(game);
    let players = game.players();
    assert_eq!(game.hands().len(), usize::from(players));
    match game.turn() {
        Turn::Seat { seat } => {
            assert!(seat.0 < players, "{seat} is to move at a table of {players}");
            let legal = game.legal_actions();
            assert!(!legal.is_empty(), "{seat} is to move but has no legal action");
            for action in legal {
                assert!(game.is_legal(seat, action), "{action} is listed but not legal");
            }
        }
        Turn::Chance => {
            assert!(
                game.sample_chance(&mut Dealer::from_seed(0)).is_some(),
                "the game waits for a chance that never comes"
            );
            assert!(game.legal_actions().is_empty());
        }
        Turn::Over => assert!(game.legal_actions().is_empty()),
    }
    assert_eq!(game.is_over(), !game.winners().is_empty(), "a finished game has winners, an unfinished one none");
}

/// Every tile of the set is in exactly one place (a hand, the boneyard, the table, the discards)
/// once the first deal is done, and nowhere before it.
fn conservation(game: &Game) {
    let (set, table, discards) = match game {
        Game::Straight(g) => {
            let tiles = g.layout().tiles();
            assert_eq!(tiles.len(), g.layout().len(), "a tile lies twice in the layout");
            (TileSet::full(6), tiles, Vec::new())
        }
        Game::Streets(g) => {
            let pieces: Vec<Tile> = g.board().pieces().iter().map(|p| p.tile).collect();
            let tiles: TileSet = pieces.iter().copied().collect();
            assert_eq!(tiles.len(), pieces.len(), "a tile lies twice on the board");
            (g.options().set.tiles(), tiles, g.discards().to_vec())
        }
    };
    let mut places: Vec<TileSet> = game.hands();
    places.push(game.boneyard());
    places.push(table);
    places.extend(discards.iter().map(|&t| std::iter::once(t).collect::<TileSet>()));
    let all = places.iter().fold(TileSet::EMPTY, |all, p| all.union(*p));
    let counted: usize = places.iter().map(|p| p.len()).sum();
    assert_eq!(counted, all.len(), "a tile is in two places: {places:?}");
    assert!(all.is_empty() || all == set, "tiles appeared or vanished: {all:?} of {set:?}");
}
