//! Builds Straight Dominoes positions from readable text, through the public API only.
#![allow(dead_code, unreachable_pub)]

use clack_rules::straight::{Chance, Effects, MAX_PLAYERS, Options, State, ToMove, WireAction};
use clack_rules::{Seat, Tile, TileSet};

pub fn tiles(text: &str) -> TileSet {
    text.split_whitespace().map(|t| t.parse::<Tile>().expect("tile")).collect()
}

/// A game dealt with the given hands, `leader` to lead (the draw for the lead gives it 6-6).
pub fn deal(options: Options, leader: u8, hands: &[&str]) -> State {
    let mut state = State::new(options).expect("valid options");
    let others = ["0-1", "0-2", "0-3"].map(|t| t.parse::<Tile>().ok());
    let mut draw = [None; MAX_PLAYERS];
    let mut other = others.iter();
    for (seat, slot) in draw.iter_mut().enumerate().take(usize::from(options.players)) {
        *slot = if seat == usize::from(leader) { "6-6".parse().ok() } else { *other.next().expect("3") };
    }
    state.apply_chance(Chance::LeadDraw { tiles: draw }).expect("lead draw");
    assert_eq!(state.to_move(), ToMove::Chance { kind: clack_rules::straight::ChanceKind::Deal });
    let mut sets = [TileSet::EMPTY; MAX_PLAYERS];
    for (set, hand) in sets.iter_mut().zip(hands) {
        *set = tiles(hand);
    }
    state.apply_chance(Chance::Deal { hands: sets }).expect("deal");
    state
}

/// Plays moves in text form by whoever is to move. `draw 4-4` draws and receives 4-4.
pub fn play(state: &mut State, moves: &[&str]) -> Vec<Effects> {
    moves.iter().map(|text| play_one(state, text)).collect()
}

pub fn play_one(state: &mut State, text: &str) -> Effects {
    let seat = to_move(state);
    if let Some(tile) = text.strip_prefix("draw ") {
        let effects = state.apply(seat, clack_rules::straight::Action::Draw).expect(text);
        let tile: Tile = tile.parse().expect("tile");
        state.apply_chance(Chance::Draw { tile }).expect(text);
        return effects;
    }
    let wire: WireAction = text.parse().expect(text);
    let action = wire.to_action(state, seat).unwrap_or_else(|e| panic!("{text}: {e}"));
    state.apply(seat, action).unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn to_move(state: &State) -> Seat {
    match state.to_move() {
        ToMove::Seat { seat } => seat,
        other => panic!("no seat to move: {other:?}"),
    }
}

/// Deals hands so that the given plays (by seats in turn from seat 0) can all be made, filling
/// each hand up to seven with the lowest unused tiles, then plays them.
pub fn play_sequence(options: Options, moves: &[&str]) -> (State, Vec<Effects>) {
    let players = usize::from(options.players);
    let mut hands = vec![TileSet::EMPTY; players];
    for (i, text) in moves.iter().enumerate() {
        let tile: Tile = text.split_whitespace().next().expect("tile").parse().expect("tile");
        hands[i % players].insert(tile);
    }
    let used = hands.iter().fold(TileSet::EMPTY, |all, hand| all.union(*hand));
    let mut unused = TileSet::full(6).iter().filter(|t| !used.contains(*t));
    for hand in &mut hands {
        while hand.len() < 7 {
            hand.insert(unused.next().expect("enough tiles"));
        }
    }
    let text: Vec<String> =
        hands.iter().map(|h| h.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(" ")).collect();
    let text: Vec<&str> = text.iter().map(String::as_str).collect();
    let mut state = deal(options, 0, &text);
    let effects = play(&mut state, moves);
    (state, effects)
}

pub mod streets;
