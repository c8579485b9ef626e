//! Streets and Avenues: each caption of the seed, as listed at the end of
//! `docs/rules/streets-and-avenues.md`, built as a position and tested by name; plus the turn
//! rules (drawing, passing, discarding, the end and its penalty).

mod support;

use clack_rules::Seat;
use clack_rules::streets::{Action, Chance, DominoSet, IllegalAction, Options, Refusal, Spot, State, ToMove};
use support::streets::{Script, Step};

fn refused(refusal: Refusal, spot: Spot) -> Result<(), IllegalAction> {
    Err(IllegalAction::Refused { spot, refusal })
}

fn twelve() -> Options {
    Options { set: DominoSet::DoubleTwelve, ..Options::default() }
}

#[test]
fn caption_1_a_street_must_border_two_avenue_dominoes() {
    // "6-0 is not played correctly; 6-0 only borders one avenue tile. The avenue ending with 3-6
    // needs to be extended one more tile before a street can be formed."
    let mut script = Script::new(
        Options::default(),
        &[Step::Place("1-3 a0:0"), Step::Place("3-6 a0:2"), Step::Hold("6-0"), Step::Hold("6-2")],
    );
    assert_eq!(script.try_place("6-0 s0:6"), refused(Refusal::OneAvenue, Spot::Street { gap: 0, half_row: 6 }));
    script.place("6-2 a0:4");
    assert_eq!(script.try_place("6-0 s0:6"), refused(Refusal::OneAvenue, Spot::Street { gap: 0, half_row: 6 }));
    assert_eq!(script.try_place("6-0 s0:7"), Ok(()), "straddling the 6|6 joint touches two dominoes");
}

#[test]
fn caption_2_a_new_avenue_needs_only_border_one_street() {
    // "1-2 is placed correctly; new avenues need only border one street."
    let script = Script::new(
        Options::default(),
        &[Step::Place("4-5 a0:0"), Step::Place("5-6 a0:2"), Step::Place("5-1 s0:3"), Step::Hold("1-2")],
    );
    assert_eq!(script.try_place("1-2 a1:2"), Ok(()), "its 1 faces the street's 1");
    assert_eq!(script.try_place("2-1 a1:0"), Ok(()), "from the north, its 1 faces the street");
    let spot = Spot::Avenue { column: 1, row: 2 };
    assert_eq!(script.try_place("2-1 a1:2"), Err(IllegalAction::Mismatch { tile: "1-2".parse().expect("t"), spot }));
    let far = Spot::Avenue { column: 1, row: 6 };
    assert_eq!(script.try_place("1-2 a1:6"), refused(Refusal::Isolated, far));
}

#[test]
fn caption_3_a_street_joining_two_avenues_in_one_row() {
    // "A tile can be placed connecting 5 and 1 … that tile would border two avenue tiles."
    // Row 3 shows 5 in avenue 0 (the south half of 3-5) and 1 in avenue 1 (the south of 8-1).
    let script = Script::new(
        Options::default(),
        &[
            Step::Place("2-3 a0:0"),
            Step::Place("3-5 a0:2"),
            Step::Place("3-8 s0:3"),
            Step::Place("8-1 a1:2"),
            Step::Hold("5-1"),
        ],
    );
    assert_eq!(script.try_place("5-1 s0:6"), Ok(()));
    assert_eq!(
        script.try_place("1-5 s0:6"),
        Err(IllegalAction::Mismatch { tile: "1-5".parse().expect("t"), spot: Spot::Street { gap: 0, half_row: 6 } })
    );
}

#[test]
fn caption_4_a_street_touching_one_avenue_domino_is_illegal_even_when_it_matches() {
    // "The blue domino cannot be played; it is only connected to one avenue domino."
    let script =
        Script::new(Options::default(), &[Step::Place("2-3 a0:0"), Step::Place("3-4 a0:2"), Step::Hold("0-2")]);
    // Its east 2 matches the 2 it faces; it still touches a single domino.
    let spot = Spot::Street { gap: -1, half_row: 0 };
    assert_eq!(script.try_place("0-2 s-1:0"), refused(Refusal::OneAvenue, spot));
}

#[test]
fn caption_5_a_street_that_completes_an_irregular_block_scores_one() {
    // "The black domino is correctly placed. It is connected to 2 avenue dominoes… It also
    // completes an irregularly shaped block." The block is gap 0 and gap 1, joined through a
    // hole in avenue 1 (rows 2 and 3).
    let mut script = Script::new(
        twelve(),
        &[
            Step::Place("1-2 a0:0"),
            Step::Place("0-1 a0:-2"),
            Step::Place("2-3 a0:2"),
            Step::Place("3-4 a0:4"),
            Step::Place("4-5 a0:6"),
            Step::Place("1-6 s0:-1"),
            Step::Place("7-6 a1:-2"),
            Step::Place("6-8 a1:0"),
            Step::Place("4-9 s0:11"),
            Step::Place("10-9 a1:4"),
            Step::Place("6-11 s1:-1"),
            Step::Place("11-12 a2:0"),
            Step::Place("12-0 a2:2"),
            Step::Place("0-2 a2:4"),
            Step::Hold("2-9"),
        ],
    );
    assert!(script.effects.iter().all(|e| e.scored == 0), "nothing was closed yet");
    assert_eq!(script.state.board().blocks(), 0);
    let effects = script.place("9-2 s1:11");
    assert_eq!(effects.scored, 1);
    assert_eq!(script.state.scores()[0], 1);
    let blocks = script.state.board().blocks_by_flood();
    assert_eq!(blocks.len(), 1);
    // Gap 0 (x 1..=2) and gap 1 (x 4..=5) for half-rows 1..=10, and the hole (x 3, half-rows 4..=7).
    assert_eq!(blocks[0].len(), 2 * 2 * 10 + 4);
    assert!(blocks[0].contains(&(3, 5)), "the hole in the avenue belongs to the block");
    // The text rendering marks every cell of the block.
    let text = script.state.board().to_string();
    assert_eq!(text.matches("░░░").count(), 2 * 2 * 10 + 4, "{text}");
    assert!(text.ends_with("blocks: 1\n"));
}

#[test]
fn caption_6_a_full_avenue_grows_only_inside() {
    // "The center avenue contains seven dominoes. It cannot be extended further north or south,
    // however, a domino may be played in the middle."
    let script = Script::new(
        twelve(),
        &[
            Step::Place("0-1 a0:0"),
            Step::Place("1-2 a0:2"),
            Step::Place("2-3 a0:4"),
            Step::Place("3-4 a0:6"),
            Step::Place("2-5 s0:7"),
            Step::Place("6-5 a1:2"),
            Step::Place("5-7 a1:4"),
            Step::Place("7-8 a1:6"),
            Step::Place("8-9 a1:8"),
            Step::Place("9-10 a1:10"),
            Step::Place("11-9 s0:19"),
            Step::Place("11-12 a0:10"),
            Step::Place("12-0 a0:12"),
            Step::Place("0-6 a0:14"),
            Step::Hold("4-11"),
            Step::Hold("6-6"),
            Step::Hold("0-0"),
        ],
    );
    assert_eq!(script.try_place("6-6 a0:16"), refused(Refusal::AvenueFull, Spot::Avenue { column: 0, row: 16 }));
    assert_eq!(script.try_place("0-0 a0:-2"), refused(Refusal::AvenueFull, Spot::Avenue { column: 0, row: -2 }));
    assert_eq!(script.try_place("4-11 a0:8"), Ok(()), "the hole between rows 7 and 10 may be filled");
}

#[test]
fn caption_7_dividing_a_block_in_two_scores_two() {
    // "If a domino is placed inside a block and divides a block in two … two points are scored."
    let mut script = Script::new(
        Options::default(),
        &[
            Step::Place("0-1 a0:0"),
            Step::Place("1-2 a0:2"),
            Step::Place("2-3 a0:4"),
            Step::Place("3-4 a0:6"),
            Step::Place("1-5 s0:3"),
            Step::Place("6-5 a1:0"),
            Step::Place("5-7 a1:2"),
            Step::Place("7-8 a1:4"),
            Step::Place("8-9 a1:6"),
            Step::Hold("3-8"),
            Step::Hold("2-7"),
        ],
    );
    assert_eq!(script.place("3-8 s0:11").scored, 1, "closing the block between the streets");
    assert_eq!(script.state.board().blocks(), 1);
    assert_eq!(script.place("2-7 s0:7").scored, 2, "a street touching neither divides the block");
    assert_eq!(script.state.board().blocks(), 2);
    assert_eq!(script.state.scores()[0], 3);
}

#[test]
fn caption_8_no_street_ever_touches_another_street() {
    // "No street ever touches another street."
    let script = Script::new(
        Options::default(),
        &[
            Step::Place("0-1 a0:0"),
            Step::Place("1-2 a0:2"),
            Step::Place("2-3 a0:4"),
            Step::Place("3-4 a0:6"),
            Step::Place("1-5 s0:3"),
            Step::Place("6-5 a1:0"),
            Step::Place("5-7 a1:2"),
            Step::Place("7-8 a1:4"),
            Step::Hold("1-1"),
            Step::Hold("2-2"),
            Step::Hold("2-7"),
        ],
    );
    let at = |half_row| Spot::Street { gap: 0, half_row };
    assert_eq!(script.try_place("1-1 s0:1"), refused(Refusal::TouchesStreet, at(1)), "edge to edge, s − 2");
    assert_eq!(script.try_place("1-1 s0:2"), refused(Refusal::Occupied, at(2)), "overlapping, s − 1");
    assert_eq!(script.try_place("2-2 s0:5"), refused(Refusal::TouchesStreet, at(5)), "edge to edge, s + 2");
    assert_eq!(script.try_place("2-7 s0:7"), Ok(()), "four half-rows away it touches no street");
}

#[test]
fn the_first_tile_starts_the_first_avenue_either_way_up() {
    let script = Script::new(Options::default(), &[Step::Hold("2-5")]);
    assert_eq!(script.try_place("2-5 a0:0"), Ok(()));
    assert_eq!(script.try_place("5-2 a0:0"), Ok(()));
    assert_eq!(script.try_place("2-5 a1:0"), refused(Refusal::FirstTile, Spot::Avenue { column: 1, row: 0 }));
    assert_eq!(script.try_place("2-5 s0:0"), refused(Refusal::FirstTile, Spot::Street { gap: 0, half_row: 0 }));
}

#[test]
fn the_second_tile_extends_the_first_avenue() {
    let script = Script::new(Options::default(), &[Step::Place("2-5 a0:0"), Step::Hold("5-7")]);
    assert_eq!(script.try_place("5-7 a0:2"), Ok(()));
    assert_eq!(
        script.try_place("7-5 a0:-2"),
        Err(IllegalAction::Mismatch { tile: "5-7".parse().expect("t"), spot: Spot::Avenue { column: 0, row: -2 } })
    );
    assert_eq!(script.try_place("5-7 a0:1"), refused(Refusal::Occupied, Spot::Avenue { column: 0, row: 1 }));
    assert_eq!(script.try_place("5-7 a1:0"), refused(Refusal::Isolated, Spot::Avenue { column: 1, row: 0 }));
}

fn dealt(options: Options, hands: &[&str]) -> State {
    let mut state = State::new(options).expect("valid");
    let hands = hands
        .iter()
        .map(|h| h.split_whitespace().map(|t| t.parse::<clack_rules::Tile>().expect("t")).collect())
        .collect();
    state.apply_chance(Chance::Deal { hands, first: Seat(0) }).expect("deal");
    state
}

#[test]
fn a_placement_is_followed_by_a_draw_and_passing_is_only_for_the_stuck() {
    let mut state = dealt(Options::default(), &["0-0 0-1 0-2 0-3 0-4 0-5 0-6", "9-9 8-9 8-8 7-9 7-8 7-7 6-9"]);
    let place: Action = "0-0 a0:0".parse().expect("action");
    assert_eq!(state.apply(Seat(0), Action::Pass), Err(IllegalAction::MustPlace));
    state.apply(Seat(0), place).expect("legal");
    assert_eq!(state.to_move(), ToMove::Chance { kind: clack_rules::streets::ChanceKind::Draw { seat: Seat(0) } });
    state.apply_chance(Chance::Draw { tile: "5-5".parse().expect("t") }).expect("in the boneyard");
    assert_eq!(state.hand(Seat(0)).len(), 7);
    // Seat 1 holds no 0: it may pass, or discard one tile and draw.
    let legal = state.legal_actions();
    assert_eq!(legal.len(), 8);
    assert_eq!(legal.last(), Some(&Action::Pass));
    let discard = Action::Discard { tile: "9-9".parse().expect("t") };
    state.apply(Seat(1), discard).expect("may discard");
    state.apply_chance(Chance::Draw { tile: "1-1".parse().expect("t") }).expect("draw");
    assert_eq!(state.discards(), &["9-9".parse().expect("t")]);
    assert_eq!(state.to_move(), ToMove::Seat { seat: Seat(0) });
}

#[test]
fn the_game_ends_when_nobody_can_change_their_hand_and_each_tile_costs_a_point() {
    let mut state = dealt(Options::default(), &["0-0 1-1 1-2 1-3 1-4 1-5 1-6", "2-2 2-3 2-4 2-5 2-6 2-7 2-8"]);
    state.apply(Seat(0), "0-0 a0:0".parse().expect("a")).expect("legal");
    state.apply_chance(Chance::Draw { tile: "9-9".parse().expect("t") }).expect("draw");
    // Nobody holds a 0. Seat 1 discards (which changes its hand), then both pass in turn.
    state.apply(Seat(1), Action::Discard { tile: "2-2".parse().expect("t") }).expect("may discard");
    state.apply_chance(Chance::Draw { tile: "3-3".parse().expect("t") }).expect("draw");
    state.apply(Seat(0), Action::Pass).expect("stuck");
    assert!(!state.is_over(), "seat 1 has not passed since the last discard");
    let effects = state.apply(Seat(1), Action::Pass).expect("stuck");
    let outcome = effects.outcome.expect("over");
    assert_eq!(outcome.penalties, vec![-7, -7]);
    assert_eq!(outcome.scores, vec![-7, -7]);
    assert_eq!(outcome.winners, vec![Seat(0), Seat(1)], "equal highest scores share the win");
    assert!(state.is_over());
    assert_eq!(state.apply(Seat(0), Action::Pass), Err(IllegalAction::GameOver));
}

#[test]
fn more_players_are_allowed_while_seven_each_leave_a_boneyard() {
    let nine = |players| Options { players, ..Options::default() };
    let twelve = |players| Options { players, set: DominoSet::DoubleTwelve, ..Options::default() };
    assert!(State::new(nine(7)).is_ok(), "49 < 55");
    assert!(State::new(nine(8)).is_err(), "56 > 55");
    assert!(State::new(twelve(12)).is_ok(), "84 < 91");
    assert!(State::new(twelve(13)).is_err(), "91 = 91");
    assert!(State::new(nine(1)).is_err());
}
