//! Straight Dominoes: every worked example of `docs/rules/straight-dominoes.md`, each rule and
//! option, and each illegal action with its own error.

mod support;

use clack_rules::straight::{
    Action, Arm, BlockedScoring, Chance, IllegalAction, IllegalChance, Options, RoundEnd, SpinnerRule, State, ToMove,
    round_to_5,
};
use clack_rules::{Seat, Tile};
use support::{deal, play, play_sequence, tiles};

fn tile(text: &str) -> Tile {
    text.parse().expect("tile")
}

/// One row of the rules file's table of worked counts: the count after the last play and what
/// that play scored.
fn worked_count(moves: &[&str], count: u32, scored: u32) {
    let (state, effects) = play_sequence(Options::default(), moves);
    assert_eq!(state.layout().count(), count, "count after {moves:?}");
    assert_eq!(effects.last().expect("a play").scored, scored, "score of the last play of {moves:?}");
}

#[test]
fn worked_count_lead_5_5() {
    worked_count(&["5-5"], 10, 10);
}

#[test]
fn worked_count_lead_6_4() {
    worked_count(&["6-4"], 10, 10);
}

#[test]
fn worked_count_lead_3_2() {
    worked_count(&["3-2"], 5, 5);
}

#[test]
fn worked_count_lead_6_6() {
    worked_count(&["6-6"], 12, 0);
}

#[test]
fn worked_count_6_6_then_6_3_east() {
    worked_count(&["6-6", "6-3 east"], 15, 15);
}

#[test]
fn worked_count_4_4_then_4_6_east() {
    worked_count(&["4-4", "4-6 east"], 14, 0);
}

#[test]
fn worked_count_5_5_then_5_0_east() {
    worked_count(&["5-5", "5-0 east"], 10, 10);
}

#[test]
fn worked_count_then_0_0_on_the_east_end() {
    worked_count(&["5-5", "5-0 east", "0-0 east"], 10, 10);
}

#[test]
fn worked_count_2_4_then_4_4_east() {
    worked_count(&["2-4", "4-4 east"], 10, 10);
}

#[test]
fn worked_count_3_5_with_a_crosswise_double_north() {
    worked_count(&["3-5", "3-1 west", "5-2 east", "5-5 north@5"], 13, 0);
}

#[test]
fn scores_accumulate_per_side() {
    let (state, _) = play_sequence(Options { players: 2, ..Options::default() }, &["6-6", "6-3 east"]);
    assert_eq!(state.scores(), &[0, 15]);
}

#[test]
fn rounding_to_five_follows_the_rules_file() {
    assert_eq!(round_to_5(22), 20);
    assert_eq!(round_to_5(23), 25);
    assert_eq!(round_to_5(21), 20);
    assert_eq!(round_to_5(24), 25);
    assert_eq!(round_to_5(25), 25);
    assert_eq!(round_to_5(-7), 0);
}

fn lead_draw(draw: [&str; 3]) -> ToMove {
    let mut state = State::new(Options { players: 3, ..Options::default() }).expect("valid");
    let tiles = [Some(tile(draw[0])), Some(tile(draw[1])), Some(tile(draw[2])), None];
    state.apply_chance(Chance::LeadDraw { tiles }).expect("valid draw");
    state.apply_chance(Chance::Deal { hands: deal_for_three() }).expect("valid deal");
    state.to_move()
}

fn deal_for_three() -> [clack_rules::TileSet; 4] {
    let all: Vec<Tile> = clack_rules::TileSet::full(6).iter().collect();
    let hand = |i: usize| all[i * 7..i * 7 + 7].iter().copied().collect();
    [hand(0), hand(1), hand(2), clack_rules::TileSet::EMPTY]
}

#[test]
fn the_highest_double_drawn_leads() {
    assert_eq!(lead_draw(["6-5", "2-2", "3-3"]), ToMove::Seat { seat: Seat(2) });
}

#[test]
fn without_a_double_the_higher_total_then_the_higher_half_leads() {
    assert_eq!(lead_draw(["4-5", "3-6", "1-2"]), ToMove::Seat { seat: Seat(1) });
    assert_eq!(lead_draw(["1-2", "4-4", "5-6"]), ToMove::Seat { seat: Seat(1) });
    assert_eq!(lead_draw(["0-1", "2-4", "5-6"]), ToMove::Seat { seat: Seat(2) });
}

#[test]
fn a_lead_draw_or_deal_that_does_not_fit_is_rejected() {
    let mut state = State::new(Options { players: 2, ..Options::default() }).expect("valid");
    let twice = [Some(tile("1-1")), Some(tile("1-1")), None, None];
    assert_eq!(state.apply_chance(Chance::LeadDraw { tiles: twice }), Err(IllegalChance::LeadDrawRepeats));
    let short = [Some(tile("1-1")), None, None, None];
    assert_eq!(state.apply_chance(Chance::LeadDraw { tiles: short }), Err(IllegalChance::LeadDrawSeats(2)));
    let before = state.clone();
    let deal = Chance::Deal { hands: deal_for_three() };
    assert!(matches!(state.apply_chance(deal), Err(IllegalChance::Unexpected(_))));
    assert_eq!(state, before);
}

#[test]
fn the_boneyard_holds_what_is_left_after_the_deal() {
    let state = deal(Options { players: 4, ..Options::default() }, 0, &four_hands());
    assert_eq!(state.boneyard().len(), 0);
    let state = deal(Options { players: 2, ..Options::default() }, 0, &four_hands()[..2]);
    assert_eq!(state.boneyard().len(), 14);
    assert_eq!(state.drawable(), 14);
    let options = Options { players: 2, boneyard_reserve: 2, ..Options::default() };
    assert_eq!(deal(options, 0, &four_hands()[..2]).drawable(), 12);
}

fn four_hands() -> [&'static str; 4] {
    [
        "0-0 0-1 0-2 0-3 0-4 0-5 0-6",
        "1-1 1-2 1-3 1-4 1-5 1-6 2-2",
        "2-3 2-4 2-5 2-6 3-3 3-4 3-5",
        "3-6 4-4 4-5 4-6 5-5 5-6 6-6",
    ]
}

#[test]
fn options_that_describe_no_game_are_rejected() {
    assert!(State::new(Options { players: 5, ..Options::default() }).is_err());
    assert!(State::new(Options { players: 1, ..Options::default() }).is_err());
    assert!(State::new(Options { players: 3, teams: true, ..Options::default() }).is_err());
    assert!(State::new(Options { players: 2, boneyard_reserve: 15, ..Options::default() }).is_err());
    assert!(State::new(Options { players: 4, boneyard_reserve: 1, ..Options::default() }).is_err());
    assert!(State::new(Options { target: 0, ..Options::default() }).is_err());
}

#[test]
fn north_and_south_open_only_after_west_and_east() {
    let mut state = deal(Options::default(), 0, &four_hands_for_spinner());
    play(&mut state, &["3-5", "3-1 west"]);
    let north = Action::Play { tile: tile("5-5"), arm: Arm::North, matched: 5 };
    assert_eq!(state.apply(Seat(2), north), Err(IllegalAction::ArmClosed(Arm::North)));
    assert!(state.legal_actions().iter().all(|a| !matches!(a, Action::Play { arm: Arm::North | Arm::South, .. })));
    play(&mut state, &["5-2 east"]);
    assert!(state.layout().is_open(Arm::North, false));
    assert!(state.is_legal(Seat(3), Action::Play { tile: tile("5-6"), arm: Arm::North, matched: 5 }));
    assert!(state.is_legal(Seat(3), Action::Play { tile: tile("3-6"), arm: Arm::South, matched: 3 }));
}

fn four_hands_for_spinner() -> [&'static str; 4] {
    [
        "3-5 0-0 0-2 0-3 0-4 0-5 0-6",
        "1-3 1-1 1-2 1-4 1-5 1-6 2-2",
        "2-5 5-5 2-3 2-4 2-6 3-3 3-4",
        "5-6 3-6 4-4 4-5 4-6 6-6 0-1",
    ]
}

#[test]
fn north_may_be_laid_against_either_half_of_a_non_double_spinner() {
    let options = Options { spinner_sides_open_immediately: true, players: 2, ..Options::default() };
    let mut state = deal(options, 0, &["3-5 6-6 0-0 0-1 0-2 0-4 0-6", "3-3 5-5 1-1 1-2 1-4 1-6 2-2"]);
    play(&mut state, &["3-5"]);
    let legal = state.legal_actions();
    for (arm, matched, t) in
        [(Arm::North, 3, "3-3"), (Arm::North, 5, "5-5"), (Arm::South, 3, "3-3"), (Arm::West, 3, "3-3")]
    {
        assert!(legal.contains(&Action::Play { tile: tile(t), arm, matched }), "{t} {arm}@{matched}");
    }
    assert!(!legal.contains(&Action::Play { tile: tile("3-3"), arm: Arm::East, matched: 3 }));
    play(&mut state, &["5-5 south@5"]);
    assert_eq!(state.layout().arm(Arm::South).len(), 1);
    // 3 (west half, west empty) + 5 (east half, east empty)... both empty: whole spinner 8, plus 10.
    assert_eq!(state.layout().count(), 8 + 10);
}

#[test]
fn with_spinner_none_the_layout_is_a_line() {
    let options = Options { spinner: SpinnerRule::None, ..Options::default() };
    let (state, _) = play_sequence(options, &["3-5", "3-1 west", "5-2 east"]);
    assert_eq!(state.layout().spinner(), None);
    assert!(!state.layout().is_open(Arm::North, false));
    assert!(!state.layout().is_open(Arm::North, true));
}

#[test]
fn with_spinner_first_double_the_first_double_becomes_the_spinner() {
    let options = Options { spinner: SpinnerRule::FirstDouble, ..Options::default() };
    let (state, effects) = play_sequence(options, &["2-4", "1-2 west", "4-4 east"]);
    let layout = state.layout();
    assert_eq!(layout.spinner(), Some(tile("4-4")));
    // The old line hangs west of the new spinner, read outward: 4|2, 2|1.
    let west: Vec<(u8, u8)> = layout.arm(Arm::West).iter().map(|l| (l.inner, l.outer)).collect();
    assert_eq!(west, vec![(4, 2), (2, 1)]);
    assert!(layout.arm(Arm::East).is_empty());
    // 1 at the west end + the double spinner's empty east side, 8.
    assert_eq!(layout.count(), 9);
    assert_eq!(effects[2].scored, 0);
    assert!(!layout.is_open(Arm::North, false));
}

#[test]
fn a_player_who_cannot_play_draws_until_a_tile_plays() {
    let options = Options { players: 2, ..Options::default() };
    let mut state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-3 3-4 4-4 3-5 4-5 5-5 0-3"]);
    play(&mut state, &["6-6"]);
    assert_eq!(state.legal_actions().as_slice(), &[Action::Draw]);
    assert_eq!(state.apply(Seat(1), Action::Pass), Err(IllegalAction::PassWhileDrawable));
    play(&mut state, &["draw 0-4"]);
    assert_eq!(state.to_move(), ToMove::Seat { seat: Seat(1) }, "a draw keeps the turn");
    assert_eq!(state.legal_actions().as_slice(), &[Action::Draw]);
    play(&mut state, &["draw 2-6"]);
    assert_eq!(
        state.legal_actions().as_slice(),
        &[
            Action::Play { tile: tile("2-6"), arm: Arm::West, matched: 6 },
            Action::Play { tile: tile("2-6"), arm: Arm::East, matched: 6 }
        ]
    );
    assert_eq!(state.apply(Seat(1), Action::Draw), Err(IllegalAction::MustPlayNotDraw));
    assert_eq!(state.apply(Seat(1), Action::Pass), Err(IllegalAction::PassWhilePlayable));
}

#[test]
fn may_draw_when_able_allows_drawing_with_a_playable_tile() {
    let options = Options { players: 2, may_draw_when_able: true, ..Options::default() };
    let mut state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-6 3-4 4-4 3-5 4-5 5-5 0-3"]);
    play(&mut state, &["6-6"]);
    assert!(state.legal_actions().contains(&Action::Draw));
    assert!(state.is_legal(Seat(1), Action::Draw));
}

#[test]
fn a_blocked_round_pays_the_lowest_hand_net_of_its_own_pips() {
    let options = Options { players: 2, boneyard_reserve: 14, ..Options::default() };
    let mut state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-3 3-4 4-4 3-5 4-5 5-5 0-3"]);
    let effects = play(&mut state, &["6-6", "pass", "pass"]);
    let round = effects[2].round.clone().expect("blocked");
    assert_eq!(round.end, RoundEnd::Blocked);
    assert_eq!(round.winner, Some(Seat(0)));
    // 51 − 12 = 39, rounded to 40.
    assert_eq!(round.points, 40);
    assert_eq!(state.scores(), &[40, 0]);
    assert_eq!(state.to_move(), ToMove::Chance { kind: clack_rules::straight::ChanceKind::Deal });
    assert_eq!(state.leader(), Seat(0));
}

#[test]
fn opponents_scoring_does_not_subtract_the_winners_hand() {
    let options =
        Options { players: 2, boneyard_reserve: 14, blocked_scoring: BlockedScoring::Opponents, ..Options::default() };
    let mut state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-3 3-4 4-4 3-5 4-5 5-5 0-3"]);
    play(&mut state, &["6-6", "pass", "pass"]);
    assert_eq!(state.scores(), &[50, 0]);
}

#[test]
fn a_tied_blocked_round_scores_nothing_and_passes_the_lead_on() {
    let options = Options { players: 3, boneyard_reserve: 7, ..Options::default() };
    let mut state = deal(
        options,
        0,
        &["5-5 6-6 4-6 3-6 2-6 4-4 1-6", "0-1 0-6 1-4 2-4 3-3 0-2 0-3", "1-1 1-2 1-3 2-2 2-3 3-4 0-4"],
    );
    let effects = play(&mut state, &["5-5", "pass", "pass", "pass"]);
    let round = effects[3].round.clone().expect("blocked");
    assert_eq!((round.winner, round.points), (None, 0));
    assert_eq!(state.scores(), &[10, 0, 0]);
    assert_eq!(state.leader(), Seat(1));
}

#[test]
fn with_teams_a_blocked_round_compares_side_totals() {
    let options = Options { players: 4, teams: true, spinner: SpinnerRule::None, ..Options::default() };
    let mut state = deal(
        options,
        0,
        &[
            "6-6 2-3 4-5 0-0 0-2 1-1 0-3",
            "0-6 1-6 5-6 1-4 1-5 2-4 2-5",
            "2-6 3-6 1-2 0-4 1-3 2-2 0-5",
            "0-1 4-6 3-3 3-4 3-5 4-4 5-5",
        ],
    );
    // Every six goes down and both ends show 6: nobody can play.
    let effects = play(
        &mut state,
        &[
            "6-6", "6-0 west", "6-2 east", "0-1 west", "2-3 east", "1-6 west", "3-6 east", "6-4 east", "4-5 east",
            "5-6 east", "pass", "pass", "pass", "pass",
        ],
    );
    assert_eq!(effects[7].scored, 10, "6 + 4 at the ends");
    let round = effects[13].round.clone().expect("blocked");
    // Side 0 holds 7 + 20 = 27 pips, side 1 holds 24 + 39 = 63: seat 0, the lighter partner, wins
    // and scores 63 − 7 = 56, rounded to 55.
    assert_eq!((round.end, round.winner, round.points), (RoundEnd::Blocked, Some(Seat(0)), 55));
    assert_eq!(state.scores(), &[55, 10]);
}

#[test]
fn a_domino_pays_the_opponents_hands_rounded() {
    let options = Options { players: 2, boneyard_reserve: 14, spinner: SpinnerRule::None, ..Options::default() };
    let mut state = deal(options, 0, &["1-1 1-2 2-4 4-4 4-6 6-6 5-6", "0-1 0-0 0-3 3-3 3-5 5-5 2-5"]);
    let effects = play(
        &mut state,
        &[
            "1-1", "0-1 west", "1-2 east", "0-0 west", "2-4 east", "0-3 west", "4-4 east", "3-3 west", "4-6 east",
            "3-5 west", "6-6 east", "5-5 west", "5-6 east",
        ],
    );
    let scored: Vec<u32> = effects.iter().map(|e| e.scored).collect();
    assert_eq!(scored, vec![0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 15]);
    let round = effects[12].round.clone().expect("domino");
    assert_eq!(round.end, RoundEnd::Domino { seat: Seat(0) });
    // Seat 1 holds 2-5: 7 pips, rounded down to 5.
    assert_eq!(round.points, 5);
    assert_eq!(state.scores(), &[20, 0]);
    assert_eq!(round.hands[1], tiles("2-5"));
}

#[test]
fn the_game_ends_the_moment_a_side_reaches_the_target() {
    let options = Options { players: 2, target: 10, ..Options::default() };
    let (state, effects) = play_sequence(options, &["5-5"]);
    assert!(state.is_over());
    let outcome = effects[0].outcome.clone().expect("over");
    assert_eq!((outcome.winning_side, outcome.scores), (0, vec![10, 0]));
    assert_eq!(effects[0].round.as_ref().map(|r| r.end), Some(RoundEnd::TargetReached));
    assert_eq!(state.legal_actions().len(), 0);
}

#[test]
fn finish_round_at_target_plays_the_round_out() {
    let options = Options { players: 2, target: 10, finish_round_at_target: true, ..Options::default() };
    let (state, effects) = play_sequence(options, &["5-5"]);
    assert!(!state.is_over());
    assert!(effects[0].round.is_none());
}

#[test]
fn every_illegal_action_has_its_own_error_and_changes_nothing() {
    let options = Options { players: 2, ..Options::default() };
    let mut state = deal(options, 0, &["3-5 6-6 0-0 0-1 0-2 0-4 0-6", "3-3 5-5 1-1 1-2 1-4 1-6 2-2"]);
    let cases: Vec<(Seat, Action, IllegalAction)> = vec![
        (Seat(1), Action::Lead { tile: tile("3-3") }, IllegalAction::NotYourTurn { to_move: Seat(0) }),
        (Seat(0), Action::Lead { tile: tile("3-3") }, IllegalAction::NotInHand(tile("3-3"))),
        (Seat(0), Action::Play { tile: tile("3-5"), arm: Arm::West, matched: 3 }, IllegalAction::NotLed),
    ];
    assert_rejected(&mut state, &cases);
    play(&mut state, &["3-5"]);
    let cases: Vec<(Seat, Action, IllegalAction)> = vec![
        (Seat(1), Action::Lead { tile: tile("3-3") }, IllegalAction::AlreadyLed(tile("3-3"))),
        (
            Seat(1),
            Action::Play { tile: tile("0-3"), arm: Arm::West, matched: 3 },
            IllegalAction::NotInHand(tile("0-3")),
        ),
        (
            Seat(1),
            Action::Play { tile: tile("5-5"), arm: Arm::North, matched: 5 },
            IllegalAction::ArmClosed(Arm::North),
        ),
        (
            Seat(1),
            Action::Play { tile: tile("1-1"), arm: Arm::West, matched: 1 },
            IllegalAction::NoSuchEnd { arm: Arm::West, end: 1 },
        ),
        (
            Seat(1),
            Action::Play { tile: tile("1-1"), arm: Arm::West, matched: 3 },
            IllegalAction::DoesNotMatch { tile: tile("1-1"), arm: Arm::West, end: 3 },
        ),
        (Seat(1), Action::Draw, IllegalAction::MustPlayNotDraw),
        (Seat(1), Action::Pass, IllegalAction::PassWhilePlayable),
    ];
    assert_rejected(&mut state, &cases);
}

#[test]
fn drawing_from_an_empty_boneyard_and_acting_after_the_end_are_rejected() {
    let options = Options { players: 2, boneyard_reserve: 14, ..Options::default() };
    let mut state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-3 3-4 4-4 3-5 4-5 5-5 0-3"]);
    play(&mut state, &["6-6"]);
    assert_rejected(&mut state, &[(Seat(1), Action::Draw, IllegalAction::BoneyardEmpty)]);
    let options = Options { players: 2, target: 10, ..Options::default() };
    let (mut state, _) = play_sequence(options, &["5-5"]);
    assert_rejected(&mut state, &[(Seat(1), Action::Pass, IllegalAction::GameOver)]);
}

#[test]
fn a_seat_may_not_act_while_the_dealer_is_drawing() {
    let options = Options { players: 2, ..Options::default() };
    let mut state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-3 3-4 4-4 3-5 4-5 5-5 0-3"]);
    play(&mut state, &["6-6"]);
    state.apply(Seat(1), Action::Draw).expect("may draw");
    assert_rejected(&mut state, &[(Seat(1), Action::Draw, IllegalAction::AwaitingChance)]);
    let before = state.clone();
    assert_eq!(state.apply_chance(Chance::Draw { tile: tile("6-6") }), Err(IllegalChance::NotInBoneyard(tile("6-6"))));
    assert_eq!(state, before);
}

fn assert_rejected(state: &mut State, cases: &[(Seat, Action, IllegalAction)]) {
    for (seat, action, error) in cases {
        let before = state.clone();
        assert_eq!(state.apply(*seat, *action).as_ref().err(), Some(error), "{seat} {action}");
        assert!(!state.is_legal(*seat, *action));
        assert_eq!(*state, before, "a rejected {action} changed the state");
    }
}

#[test]
fn an_observation_shows_only_the_viewers_own_hand() {
    let options = Options { players: 2, ..Options::default() };
    let state = deal(options, 0, &["6-6 0-0 0-1 0-2 1-1 1-2 2-2", "3-3 3-4 4-4 3-5 4-5 5-5 0-3"]);
    let view = state.observation(Some(Seat(1)));
    assert_eq!(view.hand, Some(tiles("3-3 3-4 4-4 3-5 4-5 5-5 0-3")));
    assert_eq!(view.hand_sizes, vec![7, 7]);
    assert_eq!(view.boneyard, 14);
    assert_eq!(state.observation(None).hand, None);
    let text = format!("{view:?}");
    assert!(!text.contains("6-6") && !text.contains("0-0"), "seat 0's tiles leaked: {text}");
}

#[test]
fn the_wire_form_names_an_action_only_against_a_state() {
    use clack_rules::straight::{WireAction, WireError};
    let options = Options { players: 2, spinner_sides_open_immediately: true, ..Options::default() };
    let mut state = deal(options, 0, &["3-5 6-6 0-0 0-1 0-2 0-4 0-6", "3-3 5-5 1-1 1-2 1-4 1-6 2-2"]);
    let wire: WireAction = "3-5".parse().expect("syntax");
    assert_eq!(wire.to_action(&state, Seat(0)), Ok(Action::Lead { tile: tile("3-5") }));
    play(&mut state, &["3-5"]);
    let wire: WireAction = "3-3".parse().expect("syntax");
    assert_eq!(wire.to_action(&state, Seat(1)), Err(WireError::Ambiguous(tile("3-3"))));
    let wire: WireAction = "3-3 w".parse().expect("syntax");
    assert_eq!(wire.to_action(&state, Seat(1)), Ok(Action::Play { tile: tile("3-3"), arm: Arm::West, matched: 3 }));
    assert!("3-3 sideways".parse::<WireAction>().is_err());
    assert!("3-3 north@x".parse::<WireAction>().is_err());
    assert!("draw now".parse::<WireAction>().is_err());
    for action in state.legal_actions() {
        let text = action.to_string();
        let wire: WireAction = text.parse().expect("round trip");
        assert_eq!(wire.to_action(&state, Seat(1)), Ok(action), "{text}");
    }
}
