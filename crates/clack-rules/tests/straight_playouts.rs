//! Random playouts of Straight Dominoes checking the invariants of the rules on thousands of
//! seeded games: tiles are conserved, the legal actions are exactly the accepted ones, every
//! score is a multiple of five, every game ends, a seed gives one game, and replaying the moves
//! rebuilds the same state.

use clack_rules::straight::{Action, Arm, Chance, Options, State, ToMove};
use clack_rules::{Dealer, Seat, Tile, TileSet};

#[derive(Clone, Debug, PartialEq)]
enum Move {
    Chance(Chance),
    Act(Seat, Action),
}

/// Plays one seeded game with uniformly random players, calling `check` before every move.
fn playout(options: Options, seed: u64, mut check: impl FnMut(&State)) -> (State, Vec<Move>) {
    let mut state = State::new(options).expect("valid options");
    let mut dealer = Dealer::from_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..200_000 {
        check(&state);
        match state.to_move() {
            ToMove::Over => return (state, moves),
            ToMove::Chance { .. } => {
                let chance = state.sample_chance(&mut dealer).expect("a chance outcome");
                state.apply_chance(chance).expect("sampled chance fits");
                moves.push(Move::Chance(chance));
            }
            ToMove::Seat { seat } => {
                let legal = state.legal_actions();
                let action = legal[dealer.index(legal.len())];
                let effects = state.apply(seat, action).expect("legal action applies");
                assert_eq!(effects.scored % 5, 0);
                if let Some(round) = &effects.round {
                    assert_eq!(round.points % 5, 0);
                }
                moves.push(Move::Act(seat, action));
            }
        }
    }
    panic!("game with seed {seed} did not end");
}

fn tables() -> Vec<Options> {
    let base = Options::default();
    vec![
        Options { players: 2, ..base },
        Options { players: 3, ..base },
        Options { players: 4, ..base },
        Options { players: 4, teams: true, ..base },
    ]
}

fn conserved(state: &State) {
    let mut all = state.boneyard();
    let mut count = all.len() + state.layout().len();
    for seat in 0..state.options().players {
        let hand = state.hand(Seat(seat));
        assert!(all.is_disjoint(hand));
        all = all.union(hand);
        count += hand.len();
    }
    if state.round() > 0 {
        assert!(all.is_disjoint(state.layout().tiles()));
        assert_eq!(count, 28, "hands + layout + boneyard");
    }
    assert!(state.scores().iter().all(|s| s % 5 == 0));
}

#[test]
fn thousands_of_random_games_conserve_tiles_and_end() {
    for options in tables() {
        for seed in 0..500 {
            let (state, _) = playout(options, seed, conserved);
            let outcome = state.outcome().expect("ended");
            let best = outcome.scores.iter().max().copied().unwrap_or(0);
            assert!(best >= options.target);
            assert_eq!(outcome.scores[outcome.winning_side], best);
        }
    }
}

/// Every action a client could name, legal or not.
fn candidates() -> Vec<Action> {
    let mut all = vec![Action::Draw, Action::Pass];
    for tile in TileSet::full(6) {
        all.push(Action::Lead { tile });
        for arm in Arm::ALL {
            for matched in 0..=6 {
                all.push(Action::Play { tile, arm, matched });
            }
        }
    }
    all
}

fn legal_is_exactly_accepted(state: &State, candidates: &[Action]) {
    let legal = state.legal_actions();
    for seat in (0..state.options().players).map(Seat) {
        let to_move = state.to_move() == ToMove::Seat { seat };
        for &action in candidates {
            let listed = to_move && legal.contains(&action);
            assert_eq!(state.is_legal(seat, action), listed, "{seat} {action} in {:?}", state.layout());
            let mut copy = state.clone();
            let applied = copy.apply(seat, action);
            assert_eq!(applied.is_ok(), listed);
            if applied.is_err() {
                assert_eq!(&copy, state, "a rejected action changed the state");
            }
        }
    }
    let distinct: std::collections::HashSet<_> = legal.iter().collect();
    assert_eq!(distinct.len(), legal.len(), "legal actions repeat");
}

#[test]
fn legal_actions_are_exactly_the_accepted_actions() {
    let candidates = candidates();
    let variants = [
        Options { players: 2, may_draw_when_able: true, ..Options::default() },
        Options { players: 3, spinner: clack_rules::straight::SpinnerRule::FirstDouble, ..Options::default() },
        Options { players: 4, spinner: clack_rules::straight::SpinnerRule::None, ..Options::default() },
        Options { players: 2, spinner_sides_open_immediately: true, boneyard_reserve: 4, ..Options::default() },
    ];
    for options in tables().into_iter().chain(variants) {
        let options = Options { target: 60, ..options };
        for seed in 0..6 {
            playout(options, seed, |state| legal_is_exactly_accepted(state, &candidates));
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for options in tables() {
        let (first, moves) = playout(options, 42, |_| {});
        let (second, again) = playout(options, 42, |_| {});
        assert_eq!(moves, again);
        assert_eq!(first, second);
        let (_, other) = playout(options, 43, |_| {});
        assert_ne!(moves, other, "different seeds should deal differently");
    }
}

#[test]
fn replaying_the_moves_rebuilds_the_same_state() {
    for options in tables() {
        for seed in 0..50 {
            let (end, moves) = playout(options, seed, |_| {});
            let mut state = State::new(options).expect("valid");
            for mv in &moves {
                match *mv {
                    Move::Chance(chance) => state.apply_chance(chance).expect("replays"),
                    Move::Act(seat, action) => state.apply(seat, action).map(|_| ()).expect("replays"),
                }
            }
            assert_eq!(state, end);
        }
    }
}

#[test]
fn an_observation_never_shows_another_seats_hand() {
    let options = Options { players: 3, ..Options::default() };
    playout(options, 7, |state| {
        for seat in (0..3).map(Seat) {
            let view = state.observation(Some(seat));
            assert_eq!(view.hand, Some(state.hand(seat)));
            for other in (0..3).map(Seat).filter(|&o| o != seat) {
                let theirs = state.hand(other);
                let mine: Option<TileSet> = view.hand;
                assert!(mine.is_none_or(|m| m.is_disjoint(theirs)));
            }
            assert_eq!(
                view.hand_sizes.iter().map(|&n| usize::from(n)).sum::<usize>(),
                (0..3).map(|s| state.hand(Seat(s)).len()).sum::<usize>()
            );
        }
    });
    let _ = Tile::new(0, 0);
}

/// `preview` is `apply` without the change: on every legal action of many random positions, under
/// every spinner rule, it tells the points, the count and the open ends that applying the action
/// to a copy leaves, and it refuses what `apply` refuses with the same reason.
#[test]
fn a_preview_tells_what_applying_does() {
    let candidates = candidates();
    let variants = [
        Options { players: 3, spinner: clack_rules::straight::SpinnerRule::FirstDouble, ..Options::default() },
        Options { players: 4, spinner: clack_rules::straight::SpinnerRule::None, ..Options::default() },
        Options { players: 2, spinner_sides_open_immediately: true, boneyard_reserve: 4, ..Options::default() },
    ];
    let mut scoring = 0;
    for options in tables().into_iter().chain(variants) {
        for seed in 0..8 {
            playout(options, seed, |state| {
                let ToMove::Seat { seat } = state.to_move() else { return };
                for action in state.legal_actions() {
                    let mut next = state.clone();
                    let scored = next.apply(seat, action).expect("legal").scored;
                    let preview = state.preview(seat, action).expect("legal");
                    assert_eq!(preview.scored, scored, "{action} on {:?}", state.layout());
                    assert_eq!(preview.count, next.layout().count(), "{action} on {:?}", state.layout());
                    assert_eq!(preview.ends, next.open_ends(), "{action} on {:?}", state.layout());
                    scoring += usize::from(scored > 0);
                }
                if seed == 0 {
                    for &action in &candidates {
                        let refused = state.clone().apply(Seat(0), action).err();
                        assert_eq!(state.preview(Seat(0), action).err(), refused, "{action}");
                    }
                }
            });
        }
    }
    assert!(scoring > 100, "random games should score: {scoring}");
}
