//! Evaluation and review: exact where nothing is hidden, and consistent with the players.

mod support;

use clack_engine::evaluate::compare;
use clack_engine::player::{self, Level};
use clack_engine::record::{self, Step};
use clack_engine::review::Label;
use clack_engine::{Budget, InfoSet, evaluate};
use clack_rules::game::{Game, Options, Turn};
use clack_rules::{Dealer, Seat, straight};

/// Points the side of `seat` gains less the other side's, from `before` to `after`.
fn swing(before: &Game, after: &Game, seat: Seat) -> i64 {
    let side = match before {
        Game::Straight(g) => g.options().side(seat),
        Game::Streets(_) => seat.index(),
    };
    let (b, a) = (before.scores(), after.scores());
    (a[side] - b[side]) - (a[1 - side] - b[1 - side])
}

/// The mover's best margin to the end of the round, by negamax over point swings: written
/// apart from the engine's search, to check it.
fn negamax(game: &Game) -> i64 {
    let Turn::Seat { seat } = game.turn() else { return 0 };
    game.legal_actions()
        .into_iter()
        .map(|action| {
            let mut next = game.clone();
            next.apply(seat, action).expect("legal");
            let gained = swing(game, &next, seat);
            match next.turn() {
                Turn::Seat { seat: other } if other != seat => gained - negamax(&next),
                Turn::Seat { .. } => gained + negamax(&next),
                _ => gained,
            }
        })
        .max()
        .unwrap_or(0)
}

/// Two-player positions with an empty boneyard (drawing allowed whenever, so random players
/// empty it), few tiles left and a real choice: nothing is hidden from the mover.
fn open_positions() -> Vec<(Options, Vec<Step>)> {
    let options =
        Options::Straight(straight::Options { players: 2, may_draw_when_able: true, ..straight::Options::default() });
    let mut found = Vec::new();
    for seed in 0..200 {
        let steps = support::play_until(options, seed, |game, _| {
            let tiles: usize = game.hands().iter().map(|h| h.len()).sum();
            game.boneyard().is_empty() && (4..=9).contains(&tiles) && game.legal_actions().len() > 1
        });
        if !record::replay(options, &steps).expect("replays").is_over() {
            found.push((options, steps));
        }
        if found.len() == 12 {
            break;
        }
    }
    found
}

#[test]
fn with_nothing_hidden_the_evaluation_is_exhaustive_search() {
    let positions = open_positions();
    assert!(positions.len() >= 8, "only {} positions", positions.len());
    for (options, steps) in positions {
        let game = record::replay(options, &steps).expect("replays");
        let seat = support::mover(options, &steps);
        let mut info = InfoSet::new(options, &steps, seat).expect("info set");
        assert!(info.is_certain());
        let evaluation = evaluate(
            &mut info,
            &Budget {
                worlds: 3,
                screen: 3,
                finalists: 20,
                exact_tiles: 9,
                exact_nodes: u64::MAX,
                search_nodes: 0,
                tree_iterations: 0,
                inference_pool: 0,
                settle: true,
            },
            1,
        )
        .expect("evaluates");
        assert!(evaluation.exact);
        for value in &evaluation.actions {
            let mut next = game.clone();
            next.apply(seat, value.action).expect("legal");
            let gained = swing(&game, &next, seat);
            let expected = match next.turn() {
                Turn::Seat { seat: other } if other != seat => gained - negamax(&next),
                Turn::Seat { .. } => gained + negamax(&next),
                _ => gained,
            };
            assert_eq!(value.margin.mean, expected as f64, "{} after {} steps", value.action, steps.len());
            assert_eq!(value.margin.stderr, 0.0);
        }
        let best = evaluation.best().margin.mean;
        assert!(evaluation.actions.iter().all(|v| v.margin.mean <= best || evaluation.endgame));
    }
}

/// A review adds worlds to a decision its first ones do not settle (`compare`). Each must be
/// measured as the evaluation measures its own (in two-player Straight, a search of the world's
/// round), or the loss mixes two quantities: the added worlds were once greedy playouts, and the
/// judge, whose unsettled labels rest mostly on added worlds, judged by the old evaluation. Where
/// the search reaches the round's end, world `w` gives the same differences either way.
#[test]
fn worlds_a_review_adds_are_measured_as_the_evaluation_measures_its_own() {
    let options = support::straight(2, false);
    let budget = Budget {
        worlds: 6,
        screen: 6,
        finalists: 20,
        exact_tiles: 0,
        exact_nodes: 0,
        search_nodes: u64::MAX,
        tree_iterations: 0,
        inference_pool: 0,
        settle: true,
    };
    let mut checked = 0;
    for seed in 0..12 {
        let steps = support::play_until(options, seed, |game, _| {
            let tiles: usize = game.hands().iter().map(|h| h.len()).sum();
            tiles <= 6 && game.legal_actions().len() > 1
        });
        let seat = support::mover(options, &steps);
        let mut info = InfoSet::new(options, &steps, seat).expect("info set");
        let evaluation = evaluate(&mut info, &budget, seed).expect("evaluates");
        assert!(!evaluation.endgame && !evaluation.exact);
        for other in (0..evaluation.actions.len()).filter(|&i| i != evaluation.best) {
            let pair = (evaluation.best().action, evaluation.actions[other].action);
            let added = compare(&mut info, pair, 0..6, (&budget, seed)).expect("compares");
            assert_eq!(added, evaluation.differences(other), "{} after {} steps", pair.1, steps.len());
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} pairs");
}

/// Plays a 2-player game to 60: seat 0 the engine at `level`, seat 1 at random.
fn engine_against_random(level: Level, seed: u64) -> (Options, Vec<Step>) {
    let options = Options::Straight(straight::Options { players: 2, target: 60, ..straight::Options::default() });
    side_against_random(options, level, seed)
}

/// Plays a Straight Dominoes game with `options`: the side of seat 0 the engine at `level`,
/// every other side at random.
fn side_against_random(options: Options, level: Level, seed: u64) -> (Options, Vec<Step>) {
    let Options::Straight(rules) = options else { unreachable!("Straight Dominoes") };
    let mut game = Game::new(options).expect("valid");
    let mut dealer = Dealer::from_seed(seed);
    let mut steps = Vec::new();
    loop {
        match game.turn() {
            Turn::Over => return (options, steps),
            Turn::Chance => {
                let chance = game.sample_chance(&mut dealer).expect("chance");
                game.apply_chance(chance.clone()).expect("fits");
                steps.push(Step::Chance(chance));
            }
            Turn::Seat { seat } => {
                let action = if rules.side(seat) == 0 {
                    player::decide(options, &steps, level, seed).expect("decides").action
                } else {
                    let legal = game.legal_actions();
                    legal[dealer.index(legal.len())]
                };
                game.apply(seat, action).expect("legal");
                steps.push(Step::Act(seat, action));
            }
        }
    }
}

#[test]
fn a_seat_that_played_the_engine_move_every_time_loses_nothing_in_review() {
    let seed = 21;
    let (options, steps) = engine_against_random(Level::Fast, seed);
    let mut calls = 0;
    let review = clack_engine::review(options, &steps, Level::Fast, seed, |done, total| {
        calls += 1;
        assert!(done <= total);
    })
    .expect("reviews");
    assert_eq!(calls, steps.len());
    let engine = &review.seats[0];
    assert!(engine.decisions > 5);
    assert_eq!(engine.loss.mean, 0.0, "{engine:?}");
    assert_eq!(engine.labels[Label::Best as usize], engine.decisions);
    let random = &review.seats[1];
    assert!(random.loss.mean > 0.0, "random play loses points: {random:?}");
    assert!(random.labels[Label::Best as usize] < random.decisions);
    // Every deal and every draw is weighed for the seats it touched.
    assert!(review.chances.iter().any(|c| c.kind == clack_engine::review::ChanceKind::Deal));
    assert!(review.decisions.iter().all(|d| d.loss.mean >= 0.0 || d.label != Label::Best));
}

/// In four-player teams the engine's choice and its values come from information-set search,
/// and a review measures losses on the same tree: partners who both played the engine's move
/// lose nothing, and the random side loses points.
#[test]
fn partners_who_played_the_engine_move_lose_nothing_in_review() {
    let seed = 4;
    let options = Options::Straight(straight::Options { players: 4, teams: true, target: 150, ..Default::default() });
    let (options, steps) = side_against_random(options, Level::Fast, seed);
    let review = clack_engine::review(options, &steps, Level::Fast, seed, |_, _| {}).expect("reviews");
    assert!(review.decisions.iter().filter(|d| d.tree).count() > 10, "the tree measured too few decisions");
    for seat in &review.seats {
        if seat.seat.0 % 2 == 0 {
            assert!(seat.decisions > 3);
            assert_eq!(seat.loss.mean, 0.0, "{seat:?}");
            assert_eq!(seat.labels[Label::Best as usize], seat.decisions);
        } else {
            assert!(seat.loss.mean > 0.0, "random play loses points: {seat:?}");
        }
    }
}

#[test]
fn the_same_record_seed_and_level_give_the_same_decision() {
    let (options, steps) = engine_against_random(Level::Fast, 5);
    let mut checked = 0;
    for end in 10..steps.len() {
        let prefix = &steps[..end];
        let game = record::replay(options, prefix).expect("replays");
        if !matches!(game.turn(), Turn::Seat { .. }) || game.legal_actions().len() < 2 || checked == 6 {
            continue;
        }
        let a = player::decide(options, prefix, Level::Default, 9).expect("decides");
        let b = player::decide(options, prefix, Level::Default, 9).expect("decides");
        assert_eq!(a, b);
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// Where nothing is hidden from the mover, the seer (an instrument that sees every hand) and the
/// engine evaluate alike, world for world: the seer differs from the engine only in the worlds it
/// is given.
#[test]
fn the_seer_is_the_engine_where_nothing_is_hidden() {
    for (options, steps) in open_positions() {
        let game = record::replay(options, &steps).expect("replays");
        let Turn::Seat { seat } = game.turn() else { unreachable!("a decision") };
        let engine = player::evaluate_decision(options, &steps, seat, Level::Fast, 7).expect("evaluates");
        let seer = clack_engine::seer::evaluate(&game, steps.len(), Level::Fast, 7).expect("evaluates");
        assert_eq!(seer, engine);
    }
}

/// The seer values a decision by the hands really held: the same record with the other hand
/// and the boneyard dealt differently gives it other values, where the engine, which sees only
/// the record, cannot tell the two apart.
#[test]
fn the_seer_sees_the_other_hand() {
    let options = support::straight(2, false);
    for seed in 0..6 {
        let steps = support::play_until(options, seed, |game, _| game.legal_actions().len() > 2);
        let game = record::replay(options, &steps).expect("replays");
        let Turn::Seat { seat } = game.turn() else { unreachable!("a decision") };
        let (other, boneyard) = (game.hand(Seat(1 - seat.0)), game.boneyard());
        // The other hand gets the boneyard's first tiles, the boneyard the rest of the hidden.
        let hidden: Vec<_> = boneyard.iter().chain(other.iter()).collect();
        let mut hands = vec![game.hand(Seat(0)), game.hand(Seat(1))];
        hands[usize::from(1 - seat.0)] = hidden[..other.len()].iter().copied().collect();
        let rest = hidden[other.len()..].iter().copied().collect();
        let swapped = game.redeal(&hands, rest).expect("a redeal of the hidden tiles");
        assert_ne!(swapped.hand(Seat(1 - seat.0)), other);
        let seen = |g: &Game| clack_engine::seer::evaluate(g, steps.len(), Level::Fast, 3).expect("evaluates");
        let margins = |g: &Game| seen(g).actions.iter().map(|a| a.margin.mean).collect::<Vec<_>>();
        assert_ne!(margins(&game), margins(&swapped), "seed {seed}");
    }
}
