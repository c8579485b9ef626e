//! Every decision's work is bounded, in positions counted, not time.
//!
//! Exhaustive search starts when nothing is hidden and few tiles are left. In Streets and
//! Avenues each tile has many placements, and a plain search of a two-player double-nine
//! position with four tiles in each hand once took minutes for one decision, holding a thread
//! of the server's pool the whole time. The search now visits at most its level's
//! `exact_nodes` positions and otherwise keeps the sampled values.

mod support;

use clack_engine::player::{self, Level};
use clack_engine::{Budget, InfoSet, Step, evaluate, record};
use clack_rules::Dealer;
use clack_rules::game::{Game, Options, Turn};
use clack_rules::streets::{self, DominoSet};

/// Positions of random games where exhaustive search would start at `level`: the boneyard
/// empty, nothing hidden, between `min_tiles` and the level's `exact_tiles` tiles in hands, and
/// a real choice.
fn endgames(options: Options, level: Level, min_tiles: usize, count: usize) -> Vec<Vec<Step>> {
    let tiles = usize::from(level.budget().exact_tiles);
    let mut found = Vec::new();
    for seed in 0..400 {
        let steps = support::play_until(options, seed, |game, _| {
            let in_hands: usize = game.hands().iter().map(|h| h.len()).sum();
            game.boneyard().is_empty() && (min_tiles..=tiles).contains(&in_hands) && game.legal_actions().len() > 1
        });
        let game = record::replay(options, &steps).expect("replays");
        if !game.is_over() && InfoSet::new(options, &steps, support::mover(options, &steps)).expect("info").is_certain()
        {
            found.push(steps);
        }
        if found.len() == count {
            break;
        }
    }
    found
}

fn streets_two(set: DominoSet) -> Options {
    Options::Streets(streets::Options { players: 2, set, ..streets::Options::default() })
}

/// Two engines playing two-player double-nine Streets to the end, as the server would seat
/// them: every decision's search stays within the limit, and in some the limit is reached.
#[test]
fn engines_playing_two_player_streets_search_within_the_limit() {
    let options = streets_two(DominoSet::DoubleNine);
    let limit = Level::Default.budget().exact_nodes;
    let mut gave_up = 0;
    for seed in [303, 304] {
        let mut game = Game::new(options).expect("valid");
        let mut steps = Vec::new();
        let mut sequence = 1;
        while !game.is_over() {
            let step = match game.turn() {
                Turn::Seat { seat } => {
                    let decided = player::decide(options, &steps, Level::Default, seed).expect("decides");
                    let searched = decided.evaluation.as_ref().map_or(0, |e| e.searched);
                    assert!(searched <= limit, "seed {seed}: {searched} positions after {} steps", steps.len());
                    gave_up += usize::from(decided.evaluation.is_some_and(|e| e.searched == limit && !e.exact));
                    Step::Act(seat, decided.action)
                }
                _ => {
                    sequence += 1;
                    Step::Chance(game.sample_chance(&mut Dealer::for_event(seed, sequence)).expect("chance"))
                }
            };
            game.apply_step(&step).expect("fits");
            steps.push(step);
        }
    }
    assert!(gave_up > 0, "eight tiles of Streets are more than the limit in these games");
}

/// A search that reaches its limit gives up, and the evaluation keeps its sampled values; the
/// same position with room enough is exact.
#[test]
fn a_search_past_its_limit_leaves_the_sampled_values() {
    let options = streets_two(DominoSet::DoubleNine);
    let positions = endgames(options, Level::Default, 7, 6);
    assert!(positions.len() >= 4, "only {} positions", positions.len());
    for steps in &positions {
        let seat = support::mover(options, steps);
        let info = || InfoSet::new(options, steps, seat).expect("info set");
        let tight = Budget { exact_nodes: 50, ..Level::Default.budget() };
        let cut = evaluate(&mut info(), &tight, 3).expect("evaluates");
        assert!(!cut.exact);
        assert_eq!(cut.searched, 50);
        assert!(cut.actions.iter().all(|a| a.worlds > 0), "every action keeps its sampled value");
        let roomy = Budget { exact_nodes: u64::MAX, ..Level::Default.budget() };
        let whole = evaluate(&mut info(), &roomy, 3).expect("evaluates");
        assert!(whole.exact && whole.searched > 50);
        assert!(whole.actions.iter().all(|a| a.margin.stderr == 0.0));
    }
}

#[test]
fn every_level_stays_within_its_limit_in_every_configuration() {
    let configurations = [
        support::straight(2, false),
        support::straight(3, false),
        support::straight(4, true),
        streets_two(DominoSet::DoubleNine),
        support::streets(3),
    ];
    for options in configurations {
        for level in Level::ALL {
            let budget = level.budget();
            for steps in endgames(options, level, 2, 3) {
                let seat = support::mover(options, &steps);
                let evaluation = evaluate(&mut InfoSet::new(options, &steps, seat).expect("info set"), &budget, 5)
                    .expect("evaluates");
                assert!(evaluation.searched <= budget.exact_nodes, "{options:?} {level}: {}", evaluation.searched);
                if !evaluation.exact {
                    assert_eq!(evaluation.searched, budget.exact_nodes, "{options:?} {level}: gave up early");
                }
            }
        }
    }
}
