//! Golden positions of Streets and Avenues (`golden/streets.json`): each is dealt and played
//! through the public API, then its seat to move, block count, scores and exact list of legal
//! actions are compared with the file. One helper drives every entry.

use clack_rules::streets::{Action, Chance, Options, State, ToMove};
use clack_rules::{Seat, Tile, TileSet};
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    name: String,
    options: Options,
    hands: Vec<String>,
    draws: Vec<String>,
    moves: Vec<String>,
    to_move: u8,
    blocks: u32,
    scores: Vec<i32>,
    legal: Vec<String>,
}

fn tiles(text: &str) -> TileSet {
    text.split_whitespace().map(|t| t.parse::<Tile>().expect("tile")).collect()
}

/// Deals the hands (seat 0 first), then plays the moves by whoever is to move, answering each
/// draw with the next tile of `draws`.
fn build(golden: &Golden) -> State {
    let mut state = State::new(golden.options).expect("valid options");
    let hands = golden.hands.iter().map(|h| tiles(h)).collect();
    state.apply_chance(Chance::Deal { hands, first: Seat(0) }).expect("deal");
    let mut draws = golden.draws.iter();
    for text in &golden.moves {
        let ToMove::Seat { seat } = state.to_move() else { panic!("{}: nobody to move", golden.name) };
        let action: Action = text.parse().expect("action");
        state.apply(seat, action).unwrap_or_else(|e| panic!("{}: {text}: {e}", golden.name));
        if matches!(state.to_move(), ToMove::Chance { .. }) {
            let tile: Tile = draws.next().expect("a draw is listed").parse().expect("tile");
            state.apply_chance(Chance::Draw { tile }).expect("draw");
        }
    }
    state
}

#[test]
fn golden_positions_match_the_file() {
    let positions: Vec<Golden> = serde_json::from_str(include_str!("golden/streets.json")).expect("parses");
    assert!(positions.len() >= 4);
    for golden in &positions {
        let state = build(golden);
        let name = &golden.name;
        assert_eq!(state.to_move(), ToMove::Seat { seat: Seat(golden.to_move) }, "{name}: seat to move");
        assert_eq!(state.board().blocks(), golden.blocks, "{name}: blocks");
        assert_eq!(state.scores(), golden.scores.as_slice(), "{name}: scores");
        let legal: Vec<String> = state.legal_actions().iter().map(ToString::to_string).collect();
        assert_eq!(legal, golden.legal, "{name}: legal actions\n{}", state.board());
    }
}
