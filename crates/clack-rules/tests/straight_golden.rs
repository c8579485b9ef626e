//! Golden positions of Straight Dominoes (`golden/straight.json`): each is dealt and played
//! through the public API, then its seat to move, open-end count, scores and exact list of legal
//! actions are compared with the file. One helper drives every entry.

mod support;

use clack_rules::Seat;
use clack_rules::straight::Options;
use serde::Deserialize;

#[derive(Deserialize)]
struct Golden {
    name: String,
    options: Options,
    hands: Vec<String>,
    moves: Vec<String>,
    to_move: u8,
    count: u32,
    scores: Vec<u32>,
    legal: Vec<String>,
}

#[test]
fn golden_positions_match_the_file() {
    let text = include_str!("golden/straight.json");
    let positions: Vec<Golden> = serde_json::from_str(text).expect("golden file parses");
    assert!(positions.len() >= 9);
    for golden in positions {
        let hands: Vec<&str> = golden.hands.iter().map(String::as_str).collect();
        let moves: Vec<&str> = golden.moves.iter().map(String::as_str).collect();
        let mut state = support::deal(golden.options, 0, &hands);
        support::play(&mut state, &moves);
        let name = &golden.name;
        assert_eq!(support::to_move(&state), Seat(golden.to_move), "{name}: seat to move");
        assert_eq!(state.layout().count(), golden.count, "{name}: count");
        assert_eq!(state.scores(), golden.scores.as_slice(), "{name}: scores");
        let legal: Vec<String> = state.legal_actions().iter().map(ToString::to_string).collect();
        assert_eq!(legal, golden.legal, "{name}: legal actions");
    }
}
