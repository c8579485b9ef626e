//! The ladder's arithmetic against hand-worked cases and a seeded simulation of players whose
//! true strengths are known.

use clack_ladder::{Candidate, DealGame, Results, fit, next_table};

fn game(players: &[usize], sides: &[usize], winners: &[usize]) -> DealGame {
    DealGame { players: players.to_vec(), sides: sides.to_vec(), winners: winners.to_vec() }
}

#[test]
fn a_game_of_three_sides_is_a_comparison_of_every_pair() {
    let mut results = Results::new(3);
    results.add_deal(&[game(&[0, 1, 2], &[0, 1, 2], &[1])]);
    assert_eq!(results.between(1, 0), (1.0, 1.0));
    assert_eq!(results.between(1, 2), (1.0, 1.0));
    assert_eq!(results.between(0, 2), (0.5, 1.0), "two losers draw");
    assert_eq!(results.between(0, 1), (0.0, 1.0));
    assert_eq!((results.win_share(1), results.win_share(0)), (1.0, 0.0));
}

#[test]
fn teammates_are_not_compared_and_a_deal_counts_once_however_many_games() {
    let mut results = Results::new(4);
    // Seats 0 and 2 against 1 and 3; the deal is played twice with the teams swapping places,
    // and each side wins once: every cross pair draws over the deal.
    results.add_deal(&[game(&[0, 1, 2, 3], &[0, 1, 0, 1], &[0, 2]), game(&[1, 2, 3, 0], &[0, 1, 0, 1], &[1, 3])]);
    assert_eq!(results.between(0, 2), (0.0, 0.0), "teammates");
    assert_eq!(results.between(0, 1), (1.0, 1.0), "players 0 and 2 won the first game and lost the second");
    assert_eq!(results.games(0), 2);
    assert_eq!(results.win_share(0), 1.0);
    assert_eq!(results.win_share(1), 0.0);
}

#[test]
fn even_results_against_an_anchor_give_the_anchors_rating_and_a_three_to_one_score_its_elo_gap() {
    let mut even = Results::new(2);
    for winner in [0, 1].repeat(50) {
        even.add_deal(&[game(&[0, 1], &[0, 1], &[winner])]);
    }
    let ratings = fit(&even, &[Some(1600.0)]);
    assert_eq!(ratings[0].rating, 1600.0);
    assert_eq!(ratings[0].ci95, 0.0, "an anchor does not move");
    // Half the prior's pull towards 1500 is all that separates it from the anchor.
    assert!((ratings[1].rating - 1600.0).abs() < 5.0, "{:?}", ratings[1]);

    let mut lopsided = Results::new(2);
    for winner in [1, 1, 1, 0].repeat(5000) {
        lopsided.add_deal(&[game(&[0, 1], &[0, 1], &[winner])]);
    }
    let ratings = fit(&lopsided, &[Some(1500.0)]);
    let gap = 400.0 * 3f64.log10();
    assert!((ratings[1].rating - 1500.0 - gap).abs() < 1.0, "{} is not 1500 + {gap}", ratings[1].rating);
}

#[test]
fn an_unbeaten_newcomer_has_a_finite_rating_and_a_wide_interval() {
    let mut results = Results::new(2);
    for _ in 0..3 {
        results.add_deal(&[game(&[0, 1], &[0, 1], &[1])]);
    }
    let ratings = fit(&results, &[Some(1500.0)]);
    assert!(ratings[1].rating.is_finite() && ratings[1].rating > 1500.0);
    assert!(ratings[1].ci95 > 200.0, "{:?}", ratings[1]);
}

#[test]
fn the_scheduler_seats_the_games_that_teach_the_most_and_an_anchor_every_third_deal() {
    let c = |rating: f64, ci95: f64, anchor: bool| Candidate { rating, ci95, anchor };
    // A newcomer's wide-open rating comes first.
    let players = [c(1500.0, 0.0, true), c(1500.0, 686.0, false), c(1500.0, 20.0, false)];
    assert!(next_table(&players, 2, 1).expect("a table").contains(&1));
    // Between equally uncertain players, the open game beats the foregone one: 1400 and 1450
    // play, not 900 against either.
    let players = [c(1500.0, 0.0, true), c(900.0, 200.0, false), c(1400.0, 200.0, false), c(1450.0, 200.0, false)];
    assert_eq!(next_table(&players, 2, 1), Some(vec![2, 3]));
    // An anchor's turn: it plays the one it would teach the most, the nearest.
    assert_eq!(next_table(&players, 2, 0), Some(vec![0, 3]));
    // A third seat goes to whoever the table would teach the most.
    assert_eq!(next_table(&players, 3, 1), Some(vec![2, 3, 0]));
    assert_eq!(next_table(&players[..1], 2, 1), None, "too few players");
    assert_eq!(next_table(&[players[0], players[0]], 2, 1), None, "only anchors");
}

/// A small generator so the simulation is the same everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Plays `deals` scheduled deals of two games each between players of known strength (player 0
/// is the anchor, at its true rating); returns the fitted ratings.
fn simulate(truth: &[f64], deals: u64, seed: u64) -> Vec<clack_ladder::Rating> {
    let mut rng = SplitMix(seed);
    let mut results = Results::new(truth.len());
    let anchors = [Some(truth[0])];
    let mut ratings = fit(&results, &anchors);
    for round in 0..deals {
        let candidates: Vec<Candidate> = ratings
            .iter()
            .enumerate()
            .map(|(i, r)| Candidate { rating: r.rating, ci95: r.ci95, anchor: i == 0 })
            .collect();
        let table = next_table(&candidates, 2, round).expect("a table");
        let (a, b) = (table[0], table[1]);
        let p = 1.0 / (1.0 + 10f64.powf((truth[b] - truth[a]) / 400.0));
        let games: Vec<DealGame> = (0..2)
            .map(|g| {
                let winner = if rng.unit() < p { 0 } else { 1 };
                // The second game of the deal has the seats swapped.
                let players = if g == 0 { [a, b] } else { [b, a] };
                let winning_seat = if (winner == 0) == (g == 0) { 0 } else { 1 };
                game(&players, &[0, 1], &[winning_seat])
            })
            .collect();
        results.add_deal(&games);
        if round % 25 == 24 || round + 1 == deals {
            ratings = fit(&results, &anchors);
        }
    }
    ratings
}

#[test]
fn a_seeded_ladder_orders_players_by_true_strength_and_its_intervals_narrow_as_one_over_root_n() {
    let truth = [1500.0, 1250.0, 1400.0, 1600.0, 1800.0];
    let short = simulate(&truth, 1000, 7);
    let long = simulate(&truth, 4000, 7);
    let order = |ratings: &[clack_ladder::Rating]| {
        let mut order: Vec<usize> = (0..ratings.len()).collect();
        order.sort_by(|&a, &b| ratings[a].rating.total_cmp(&ratings[b].rating));
        order
    };
    assert_eq!(order(&long), vec![1, 2, 0, 3, 4], "{long:?}");
    assert_eq!(order(&short), vec![1, 2, 0, 3, 4], "{short:?}");
    for i in 1..truth.len() {
        let ratio = short[i].ci95 / long[i].ci95;
        assert!((1.6..2.5).contains(&ratio), "player {i}: {} then {} (ratio {ratio})", short[i].ci95, long[i].ci95);
        assert!((long[i].rating - truth[i]).abs() < 2.0 * long[i].ci95, "player {i}: {:?} for {}", long[i], truth[i]);
    }
}
