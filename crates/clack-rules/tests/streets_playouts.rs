//! Random playouts of Streets and Avenues checking the invariants of the rules: tiles are
//! conserved, the legal actions are exactly the accepted ones, every block is really enclosed
//! (checked against a flood of the whole table), points equal the new blocks, a seat with an empty
//! hand never moves, every game ends, and replaying the moves rebuilds the same state.

use clack_rules::streets::{Action, Chance, DominoSet, Options, Spot, State, ToMove};
use clack_rules::{Dealer, Seat, Tile};

#[derive(Clone, Debug, PartialEq)]
enum Move {
    Chance(Chance),
    Act(Seat, Action),
}

fn playout(
    options: Options,
    seed: u64,
    mut check: impl FnMut(&State, Option<(&State, Action, u32)>),
) -> (State, Vec<Move>) {
    let mut state = State::new(options).expect("valid options");
    let mut dealer = Dealer::from_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..100_000 {
        check(&state, None);
        match state.to_move() {
            ToMove::Over => return (state, moves),
            ToMove::Chance { .. } => {
                let chance = state.sample_chance(&mut dealer).expect("chance");
                state.apply_chance(chance.clone()).expect("sampled chance fits");
                moves.push(Move::Chance(chance));
            }
            ToMove::Seat { seat } => {
                assert!(!state.hand(seat).is_empty(), "a seat with an empty hand is skipped");
                let legal = state.legal_actions();
                let action = legal[dealer.index(legal.len())];
                let before = state.clone();
                let effects = state.apply(seat, action).expect("legal action applies");
                check(&state, Some((&before, action, effects.scored)));
                moves.push(Move::Act(seat, action));
            }
        }
    }
    panic!("game {seed} did not end");
}

fn conserved(state: &State) {
    let set = state.options().set.tiles();
    let mut count = state.boneyard().len() + state.board().pieces().len() + state.discards().len();
    for seat in 0..state.options().players {
        count += state.hand(Seat(seat)).len();
    }
    if state.to_move() != (ToMove::Chance { kind: clack_rules::streets::ChanceKind::Deal }) {
        assert_eq!(count, set.len(), "hands + table + boneyard + discards");
    }
}

/// Blocks and points checked against the slow definition: flood the whole table before and
/// after, and count the blocks that are new (not the same cells, only shrunk) the rules' way.
fn blocks_agree(after: &State, step: Option<(&State, Action, u32)>) {
    let flooded = after.board().blocks_by_flood();
    assert_eq!(flooded.len() as u32, after.board().blocks(), "incremental block count");
    for block in &flooded {
        for &(x, y) in block {
            assert_ne!(after.board().region_of(x, y), Some(0), "a block cell is labelled outside");
        }
    }
    let Some((before, action, scored)) = step else { return };
    if !matches!(action, Action::Place { .. }) {
        assert_eq!(scored, 0);
        return;
    }
    let old = before.board().blocks_by_flood();
    let mut expected = 0;
    for block in &flooded {
        let cell = block[0];
        match old.iter().position(|b| b.contains(&cell)) {
            None => expected += 1,
            Some(i) => {
                let pieces = flooded.iter().filter(|b| old[i].contains(&b[0])).count();
                if pieces >= 2 {
                    expected += 1;
                }
            }
        }
    }
    assert_eq!(scored, expected, "points for {action}\n{}", after.board());
}

fn tables() -> Vec<Options> {
    vec![
        Options { players: 2, ..Options::default() },
        Options { players: 3, ..Options::default() },
        Options { players: 4, ..Options::default() },
        Options { players: 4, set: DominoSet::DoubleTwelve, ..Options::default() },
        Options { players: 2, may_pass_when_able: true, ..Options::default() },
    ]
}

#[test]
fn random_games_conserve_tiles_keep_true_blocks_and_end() {
    let mut blocks_scored = 0;
    for options in tables() {
        for seed in 0..60 {
            let (state, _) = playout(options, seed, |state, step| {
                conserved(state);
                blocks_agree(state, step);
                blocks_scored += step.map_or(0, |(_, _, scored)| scored);
            });
            let outcome = state.outcome().expect("over");
            let best = outcome.scores.iter().max().copied().unwrap_or(0);
            assert!(outcome.winners.iter().all(|s| outcome.scores[s.index()] == best));
        }
    }
    assert!(blocks_scored > 100, "random games should close blocks: {blocks_scored}");
}

#[test]
fn many_random_games_end_with_scores_that_add_up() {
    for seed in 0..400 {
        let options = Options { players: 3, ..Options::default() };
        let mut points = [0i32; 3];
        let (state, moves) = playout(options, seed, |_, _| {});
        let mut replay = State::new(options).expect("valid");
        for mv in &moves {
            match mv {
                Move::Chance(chance) => replay.apply_chance(chance.clone()).expect("replays"),
                Move::Act(seat, action) => {
                    let effects = replay.apply(*seat, *action).expect("replays");
                    points[seat.index()] += effects.scored as i32;
                }
            }
        }
        assert_eq!(replay, state, "replaying the moves rebuilds the state");
        let outcome = state.outcome().expect("over");
        for (seat, points) in points.iter().enumerate() {
            assert_eq!(outcome.scores[seat], points + outcome.penalties[seat]);
            assert_eq!(outcome.penalties[seat], -(outcome.hands[seat].len() as i32));
        }
    }
}

/// Every placement a client could name near the table, every discard, and pass.
fn candidates(state: &State) -> Vec<Action> {
    let pieces = state.board().pieces();
    let spots = |_: ()| -> Vec<Spot> {
        let mut spots = Vec::new();
        let (mut c0, mut c1, mut r0, mut r1) = (0, 0, 0, 0);
        for piece in pieces {
            let (c, r) = match piece.spot {
                Spot::Avenue { column, row } => (column, row),
                Spot::Street { gap, half_row } => (gap, half_row.div_euclid(2)),
            };
            (c0, c1, r0, r1) = (c0.min(c), c1.max(c), r0.min(r), r1.max(r));
        }
        for column in c0 - 2..=c1 + 2 {
            for row in r0 - 3..=r1 + 3 {
                spots.push(Spot::Avenue { column, row });
            }
        }
        for gap in c0 - 2..=c1 + 1 {
            for half_row in 2 * r0 - 6..=2 * r1 + 6 {
                spots.push(Spot::Street { gap, half_row });
            }
        }
        spots
    };
    let mut all = vec![Action::Pass];
    let set: Vec<Tile> = state.options().set.tiles().iter().collect();
    let seat = match state.to_move() {
        ToMove::Seat { seat } => seat,
        _ => Seat(0),
    };
    let hand = state.hand(seat);
    for tile in set.iter().copied() {
        all.push(Action::Discard { tile });
    }
    for spot in spots(()) {
        for tile in hand {
            for first in [tile.lo(), tile.hi()] {
                all.push(Action::Place { tile, spot, first });
            }
        }
        if let Some(tile) = set.iter().copied().find(|t| !hand.contains(*t)) {
            all.push(Action::Place { tile, spot, first: tile.lo() });
        }
    }
    all
}

#[test]
fn legal_actions_are_exactly_the_accepted_actions() {
    for options in [
        Options { players: 2, ..Options::default() },
        Options { players: 3, may_pass_when_able: true, ..Options::default() },
    ] {
        for seed in 0..4 {
            playout(options, seed, |state, step| {
                if step.is_some() {
                    return;
                }
                let legal = state.legal_actions();
                let mut sorted = legal.clone();
                sorted.sort();
                sorted.dedup();
                assert_eq!(sorted.len(), legal.len(), "legal actions repeat");
                let to_move = match state.to_move() {
                    ToMove::Seat { seat } => Some(seat),
                    _ => None,
                };
                for action in candidates(state) {
                    for seat in (0..options.players).map(Seat) {
                        let listed = to_move == Some(seat) && legal.contains(&action);
                        assert_eq!(state.is_legal(seat, action), listed, "{seat} {action}\n{}", state.board());
                    }
                }
                for &action in &legal {
                    let seat = to_move.expect("a seat moves");
                    assert!(state.clone().apply(seat, action).is_ok());
                }
            });
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let options = Options { players: 3, ..Options::default() };
    let (a, first) = playout(options, 9, |_, _| {});
    let (b, second) = playout(options, 9, |_, _| {});
    assert_eq!(first, second);
    assert_eq!(a, b);
}

#[test]
fn an_observation_never_shows_another_seats_hand() {
    let options = Options { players: 3, ..Options::default() };
    playout(options, 3, |state, _| {
        for seat in (0..3).map(Seat) {
            let view = state.observation(Some(seat));
            assert_eq!(view.hand, Some(state.hand(seat)));
            assert_eq!(state.observation(None).hand, None);
            assert_eq!(usize::from(view.boneyard), state.boneyard().len());
        }
    });
}

/// `preview` is `apply` without the change: on every legal action of many random positions it
/// tells the points that applying the action to a copy scores, and it refuses what `apply` refuses
/// with the same reason.
#[test]
fn a_preview_scores_what_applying_scores() {
    let (mut previews, mut scoring, mut inside_a_block) = (0, 0, 0);
    for options in tables() {
        for seed in 0..40 {
            playout(options, seed, |state, step| {
                let (ToMove::Seat { seat }, None) = (state.to_move(), step) else { return };
                for action in state.legal_actions() {
                    let expected = state.clone().apply(seat, action).expect("legal").scored;
                    let preview = state.preview(seat, action).expect("legal");
                    assert_eq!(preview.scored, expected, "{action}\n{}", state.board());
                    previews += 1;
                    scoring += usize::from(expected > 0);
                    if let Action::Place { spot: Spot::Avenue { column, row }, .. } = action {
                        inside_a_block += usize::from(state.board().region_of(3 * column, 2 * row) != Some(0));
                    }
                }
                if seed < 2 {
                    for action in candidates(state) {
                        let other = Seat((seat.0 + 1) % options.players);
                        for who in [seat, other] {
                            let refused = state.clone().apply(who, action).err();
                            assert_eq!(state.preview(who, action).err(), refused, "{who} {action}");
                        }
                    }
                }
            });
        }
    }
    assert!(scoring > 200 && inside_a_block > 10, "{previews} previews, {scoring} scoring, {inside_a_block} inside");
}

/// Found by the `rules` fuzz target: a spot far off the table made the placement check multiply
/// its coordinates past `i32` (a panic in a debug build). Such a spot touches nothing, so it is
/// refused like any isolated spot, on an empty table and on a table in play.
#[test]
fn a_spot_far_off_the_table_is_refused_not_overflowed() {
    let (mid_game, _) = playout(Options::default(), 3, |_, _| {});
    let mut state = State::new(Options::default()).expect("valid options");
    let mut dealer = Dealer::from_seed(3);
    while let ToMove::Chance { .. } = state.to_move() {
        let chance = state.sample_chance(&mut dealer).expect("chance");
        state.apply_chance(chance).expect("fits");
    }
    for table in [&state, &mid_game] {
        let Some(tile) = Tile::new(0, 0) else { panic!("a tile") };
        for spot in [
            Spot::Avenue { column: i32::MAX, row: i32::MIN },
            Spot::Street { gap: i32::MIN, half_row: i32::MAX },
            Spot::Avenue { column: 1 << 20, row: 0 },
        ] {
            let action = Action::Place { tile, spot, first: 0 };
            for seat in 0..2 {
                assert!(!table.is_legal(Seat(seat), action), "{spot:?}");
                let mut after = table.clone();
                assert!(after.apply(Seat(seat), action).is_err());
                assert_eq!(&after, table, "a refused action changes nothing");
            }
            assert!(!table.board().inside_block(spot));
        }
    }
}
