//! The hidden-tile sampler: every sampled history replays legally and agrees with everything
//! the seat saw, and on positions small enough to enumerate, sampled frequencies match the exact
//! distribution over chance histories (a chi-square test).

mod support;

use std::collections::HashMap;

use clack_engine::InfoSet;
use clack_engine::lean;
use clack_engine::record::{self, Step};
use clack_engine::rng::Rng;
use clack_rules::game::{Chance, Game, Options};
use clack_rules::{Seat, TileSet, straight};

/// Every sampled history replays through the rules and ends in the position the seat sees:
/// the same table, scores and hand sizes, and its own hand.
fn check_histories(options: Options, seed: u64, every: usize) {
    let mut checked = 0;
    let mut decisions = 0;
    let steps = support::play_until(options, seed, |game, steps| {
        decisions += 1;
        if decisions % every != 0 {
            return false;
        }
        let viewer = Seat((decisions / every) as u8 % game.players());
        let mut info = InfoSet::new(options, steps, viewer).expect("an information set");
        for k in 0..4u64 {
            let mut rng = Rng::new(seed * 100 + k);
            let history = info.sample_history(steps, &mut rng).expect("a history");
            let replayed = record::replay(options, &history).expect("a sampled history replays legally");
            assert_eq!(replayed.render(), game.render(), "the table differs");
            assert_eq!(replayed.scores(), game.scores());
            assert_eq!(replayed.hand(viewer), game.hand(viewer), "the viewer's own hand changed");
            let sizes = |g: &Game| g.hands().iter().map(|h| h.len()).collect::<Vec<_>>();
            assert_eq!(sizes(&replayed), sizes(game));
            assert_eq!(replayed.boneyard().len(), game.boneyard().len());
            let world = info.sample(&mut rng).expect("a world");
            assert_eq!(world.hand(viewer), game.hand(viewer));
            assert_eq!(sizes(&world), sizes(game));
            checked += 1;
        }
        false
    });
    assert!(record::replay(options, &steps).expect("the game replays").is_over());
    assert!(checked > 20, "only {checked} samples were checked");
}

#[test]
fn straight_two_player_histories_replay() {
    for seed in 0..6 {
        check_histories(support::straight(2, false), seed, 3);
    }
}

#[test]
fn straight_three_and_four_player_histories_replay() {
    for seed in 0..3 {
        check_histories(support::straight(3, false), seed, 4);
        check_histories(support::straight(4, true), seed, 4);
    }
}

#[test]
fn straight_with_drawing_allowed_histories_replay() {
    let options =
        Options::Straight(straight::Options { players: 2, may_draw_when_able: true, ..straight::Options::default() });
    for seed in 0..3 {
        check_histories(options, seed, 3);
    }
}

#[test]
fn streets_histories_replay() {
    for seed in 0..3 {
        check_histories(support::streets(2), seed, 5);
        check_histories(support::streets(3), seed, 7);
    }
}

/// The exact distribution of the other seat's hand, by enumerating every deal and every draw
/// that fits the record (2 players): how many chance histories lead to each hand.
fn enumerate(options: Options, steps: &[Step], viewer: Seat) -> HashMap<TileSet, u64> {
    let deal = record::last_deal(steps).expect("dealt");
    let before = record::replay(options, &steps[..deal]).expect("replays");
    let Step::Chance(Chance::Straight(straight::Chance::Deal { hands })) = &steps[deal] else { panic!("a deal") };
    let mine = hands[viewer.index()];
    let unseen: Vec<_> = TileSet::full(6).difference(mine).iter().collect();
    let other = Seat(1 - viewer.0);
    let mut counts = HashMap::new();
    let mut chosen = Vec::with_capacity(7);
    combinations(&unseen, 7, 0, &mut chosen, &mut |theirs| {
        let mut dealt = [TileSet::EMPTY; 4];
        dealt[viewer.index()] = mine;
        dealt[other.index()] = theirs.iter().copied().collect();
        let mut game = before.clone();
        if game.apply_chance(Chance::Straight(straight::Chance::Deal { hands: dealt })).is_ok() {
            follow(&game, &steps[deal + 1..], viewer, other, &mut counts);
        }
    });
    counts
}

fn combinations<T: Copy>(items: &[T], k: usize, from: usize, chosen: &mut Vec<T>, each: &mut impl FnMut(&[T])) {
    if chosen.len() == k {
        each(chosen);
        return;
    }
    for i in from..items.len() {
        if items.len() - i < k - chosen.len() {
            break;
        }
        chosen.push(items[i]);
        combinations(items, k, i + 1, chosen, each);
        chosen.pop();
    }
}

/// Replays `rest`, branching over every tile the other seat could have drawn; counts the other
/// seat's final hand of every branch that stays legal.
fn follow(game: &Game, rest: &[Step], viewer: Seat, other: Seat, counts: &mut HashMap<TileSet, u64>) {
    let Some((step, rest)) = rest.split_first() else {
        *counts.entry(game.hand(other)).or_default() += 1;
        return;
    };
    match step {
        Step::Act(seat, action) => {
            let mut next = game.clone();
            if next.apply(*seat, *action).is_ok() {
                follow(&next, rest, viewer, other, counts);
            }
        }
        Step::Chance(chance) if game.drawing_seat() == Some(viewer) => {
            let mut next = game.clone();
            if next.apply_chance(chance.clone()).is_ok() {
                follow(&next, rest, viewer, other, counts);
            }
        }
        Step::Chance(_) => {
            for tile in game.boneyard() {
                let mut next = game.clone();
                if next.apply_chance(Chance::Straight(straight::Chance::Draw { tile })).is_ok() {
                    follow(&next, rest, viewer, other, counts);
                }
            }
        }
    }
}

/// The 0.999 quantile of chi-square with `df` degrees of freedom (Wilson–Hilferty).
fn chi_square_999(df: f64) -> f64 {
    let z = 3.090_232;
    df * (1.0 - 2.0 / (9.0 * df) + z * (2.0 / (9.0 * df)).sqrt()).powi(3)
}

/// A 2-player position late in a round where the other seat has drawn or passed, and few
/// enough hidden tiles remain to enumerate every history.
fn small_position(seed: u64) -> Option<(Vec<Step>, Seat)> {
    let options = support::straight(2, false);
    let mut found = None;
    let steps = support::play_until(options, seed, |game, steps| {
        let Game::Straight(g) = game else { return true };
        let Some(deal) = record::last_deal(steps) else { return false };
        let seat = support::mover(options, steps);
        let other = Seat(1 - seat.0);
        // Turns on which the other seat drew or passed: with two or more, the epochs differ.
        let turns = steps[deal..]
            .windows(2)
            .filter(|w| {
                matches!(&w[1], Step::Act(s, a) if *s == other && is_draw_or_pass(a))
                    && !matches!(&w[0], Step::Chance(_))
            })
            .count();
        let drew = turns >= 2;
        let (h, b) = (g.hand(other).len(), g.boneyard().len());
        let states = binomial(h + b, h);
        if drew && b > 0 && h > 1 && (6..=300).contains(&states) {
            found = Some(seat);
            return true;
        }
        false
    });
    found.map(|seat| (steps, seat))
}

fn is_draw_or_pass(action: &clack_rules::game::Action) -> bool {
    matches!(action, clack_rules::game::Action::Straight(straight::Action::Draw | straight::Action::Pass))
}

fn binomial(n: usize, k: usize) -> u64 {
    (0..k).fold(1u64, |acc, i| acc * (n - i) as u64 / (i + 1) as u64)
}

#[test]
fn samples_are_uniform_over_chance_histories() {
    let options = support::straight(2, false);
    let mut tested = 0;
    let mut not_uniform_over_hands = 0;
    for seed in 0..3000 {
        let Some((steps, viewer)) = small_position(seed) else { continue };
        let exact = enumerate(options, &steps, viewer);
        if exact.len() < 4 {
            // What the other seat showed leaves (almost) nothing to chance: nothing to test.
            continue;
        }
        let total: u64 = exact.values().sum();
        let (lo, hi) = (exact.values().min().copied().unwrap_or(0), exact.values().max().copied().unwrap_or(0));
        not_uniform_over_hands += usize::from(lo != hi);
        let mut info = InfoSet::new(options, &steps, viewer).expect("an information set");
        let n = 60 * exact.len() as u64;
        let mut seen: HashMap<TileSet, u64> = HashMap::new();
        let mut rng = Rng::new(seed);
        for _ in 0..n {
            let world = info.sample(&mut rng).expect("a world");
            let hand = world.hand(Seat(1 - viewer.0));
            assert!(exact.contains_key(&hand), "seed {seed}: sampled a hand no history leads to: {hand:?}");
            *seen.entry(hand).or_default() += 1;
        }
        let chi: f64 = exact
            .iter()
            .map(|(hand, &count)| {
                let expected = n as f64 * count as f64 / total as f64;
                let observed = seen.get(hand).copied().unwrap_or(0) as f64;
                (observed - expected).powi(2) / expected
            })
            .sum();
        let df = (exact.len() - 1) as f64;
        assert!(chi < chi_square_999(df), "seed {seed}: chi-square {chi:.1} with {df} degrees of freedom");
        tested += 1;
        if tested >= 6 && not_uniform_over_hands >= 2 {
            break;
        }
    }
    assert!(tested >= 6, "too few small positions were found");
    assert!(not_uniform_over_hands > 0, "no tested position tells histories from hands");
}

/// A world drawn with its replay is the end of the history drawn from the same generator, and
/// the replay shows exactly the other seats' choices of that history, each in the position the
/// rules had then: the same legal moves, each scoring what the rules' preview says. (The
/// inference weighs worlds by those choices.)
#[test]
fn a_replayed_world_shows_every_choice_of_the_others_as_the_rules_saw_it() {
    let (mut checked, mut choices) = (0, 0);
    for (options, seed) in
        [(support::straight(4, true), 1), (support::straight(2, false), 2), (support::straight(3, false), 3)]
    {
        let mut decisions = 0;
        support::play_until(options, seed, |game, steps| {
            decisions += 1;
            let clack_rules::game::Turn::Seat { seat: viewer } = game.turn() else { return false };
            if decisions % 5 != 0 {
                return false;
            }
            let mut info = InfoSet::new(options, steps, viewer).expect("an information set");
            for k in 0..3u64 {
                let history = info.sample_history(steps, &mut Rng::new(seed * 100 + k)).expect("a history");
                let mut shown: Vec<(Vec<(straight::Action, u32)>, straight::Action)> = Vec::new();
                let show = |state: &lean::Straight, chosen: lean::Move| {
                    let moves = state.legal_actions().into_iter().map(|a| (a, state.scored(lean::Move::of(a))));
                    shown.push((moves.collect(), chosen.action()));
                };
                let world =
                    info.sample_replayed(&mut Rng::new(seed * 100 + k), show).expect("a world").expect("Straight");
                let deal = record::last_deal(&history).expect("dealt");
                let mut replayed = record::replay(options, &history[..=deal]).expect("the deal replays");
                let mut expected = Vec::new();
                for (i, step) in history[deal + 1..].iter().enumerate() {
                    if let (Step::Act(seat, clack_rules::game::Action::Straight(played)), Game::Straight(state)) =
                        (step, &replayed)
                        && *seat != viewer
                    {
                        let points = |a| state.preview(*seat, a).expect("legal").scored;
                        expected.push((state.legal_actions().into_iter().map(|a| (a, points(a))).collect(), *played));
                    }
                    record::apply(&mut replayed, step, deal + 1 + i).expect("the history replays");
                }
                choices += expected.len();
                assert_eq!(shown, expected);
                for s in 0..game.players() {
                    assert_eq!(world.hand(Seat(s)), replayed.hand(Seat(s)), "seat {s}'s hand");
                }
                assert_eq!(world.boneyard(), replayed.boneyard());
                checked += 1;
            }
            false
        });
    }
    assert!(checked > 30 && choices > 100, "only {checked} worlds and {choices} choices were checked");
}
