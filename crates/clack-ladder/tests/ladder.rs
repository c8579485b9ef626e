//! The ladder's arithmetic against hand-worked cases and a seeded simulation of players whose
//! true strengths are known.

use clack_ladder::{Candidate, DealGame, Results, fit, fit_with_covariance, next_table};

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
fn a_version_seated_in_both_partner_seats_plays_one_game_and_meets_the_other_side_once_a_deal() {
    let mut results = Results::new(2);
    // Player 0 holds seats 0 and 2, player 1 seats 1 and 3; the sides swap places and split.
    results.add_deal(&[game(&[0, 1, 0, 1], &[0, 1, 0, 1], &[0, 2]), game(&[1, 0, 1, 0], &[0, 1, 0, 1], &[0, 2])]);
    assert_eq!(results.between(0, 1), (0.5, 1.0));
    assert_eq!((results.games(0), results.games(1)), (2, 2));
    assert_eq!((results.win_share(0), results.win_share(1)), (0.5, 0.5));
}

fn candidates(ratings: &[f64]) -> Vec<Candidate> {
    ratings.iter().enumerate().map(|(i, &rating)| Candidate { rating, anchor: i == 0 }).collect()
}

#[test]
fn the_scheduler_seats_the_game_that_narrows_the_anchored_ratings_most() {
    let diagonal = |v: &[f64]| -> Vec<Vec<f64>> {
        (0..v.len()).map(|i| (0..v.len()).map(|j| if i == j { v[i] } else { 0.0 }).collect()).collect()
    };
    // A newcomer's wide-open rating comes first, against the anchor, which pins it.
    let players = candidates(&[1500.0, 1500.0, 1500.0]);
    assert_eq!(next_table(&players, &diagonal(&[0.0, 350.0f64.powi(2), 20.0f64.powi(2)]), 2), Some(vec![0, 1]));
    // Two equal versions whose difference is known (their ratings move together) but whose place
    // on the scale is not: the anchor plays one of them, not they each other, although theirs is
    // the most open game.
    let mut covariance = diagonal(&[0.0, 100.0f64.powi(2), 100.0f64.powi(2), 30.0f64.powi(2)]);
    covariance[1][2] = 0.95 * 100.0f64.powi(2);
    covariance[2][1] = covariance[1][2];
    let players = candidates(&[1500.0, 1450.0, 1450.0, 1700.0]);
    let table = next_table(&players, &covariance, 2).expect("a table");
    assert!(table.contains(&0) && (table.contains(&1) || table.contains(&2)), "{table:?}");
    // Between equally uncertain players, the open game beats the foregone one.
    let players = candidates(&[1500.0, 900.0, 1400.0, 1450.0]);
    let wide = diagonal(&[0.0, 200.0f64.powi(2), 200.0f64.powi(2), 200.0f64.powi(2)]);
    assert_eq!(next_table(&players, &wide, 2), Some(vec![2, 3]));
    assert_eq!(next_table(&players, &wide, 3).map(|t| t.len()), Some(3));
    assert_eq!(next_table(&players[..1], &wide, 2), None, "too few players");
    assert_eq!(next_table(&[players[0], players[0]], &wide, 2), None, "only anchors");
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

/// The measure the scheduler had before: `p (1 - p) (v_a + v_b)`, with an anchor seated every
/// third deal; kept here to show the interval bar tells the two apart.
fn old_table(ratings: &[clack_ladder::Rating], round: u64) -> (usize, usize) {
    let gain = |a: usize, b: usize| {
        let p = 1.0 / (1.0 + 10f64.powf((ratings[b].rating - ratings[a].rating) / 400.0));
        p * (1.0 - p) * ((ratings[a].ci95 / 1.96).powi(2) + (ratings[b].ci95 / 1.96).powi(2))
    };
    let n = ratings.len();
    let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
    pairs
        .filter(|&(a, _)| !round.is_multiple_of(3) || a == 0)
        .max_by(|&(a, b), &(c, d)| gain(a, b).total_cmp(&gain(c, d)).then((c, d).cmp(&(a, b))))
        .expect("a pair")
}

/// A seeded ladder of players of known strength (player 0 is the anchor, at its true rating),
/// each deal two games with the seats swapped.
struct Simulation {
    truth: Vec<f64>,
    rng: SplitMix,
    results: Results,
    fit: clack_ladder::Fit,
    old_measure: bool,
    round: u64,
}

impl Simulation {
    fn new(truth: &[f64], seed: u64, old_measure: bool) -> Simulation {
        let results = Results::new(truth.len());
        let fit = fit_with_covariance(&results, &[Some(truth[0])]);
        Simulation { truth: truth.to_vec(), rng: SplitMix(seed), results, fit, old_measure, round: 0 }
    }

    /// Schedules and plays one deal, and fits the ratings again.
    fn deal(&mut self) {
        let (a, b) = if self.old_measure {
            old_table(&self.fit.ratings, self.round)
        } else {
            let players: Vec<Candidate> = self
                .fit
                .ratings
                .iter()
                .enumerate()
                .map(|(i, r)| Candidate { rating: r.rating, anchor: i == 0 })
                .collect();
            let table = next_table(&players, &self.fit.covariance, 2).expect("a table");
            (table[0], table[1])
        };
        let p = 1.0 / (1.0 + 10f64.powf((self.truth[b] - self.truth[a]) / 400.0));
        let games: Vec<DealGame> = (0..2)
            .map(|g| {
                let a_won = self.rng.unit() < p;
                // The second game of the deal has the seats swapped.
                let players = if g == 0 { [a, b] } else { [b, a] };
                game(&players, &[0, 1], &[if a_won == (g == 0) { 0 } else { 1 }])
            })
            .collect();
        self.results.add_deal(&games);
        self.fit = fit_with_covariance(&self.results, &[Some(self.truth[0])]);
        self.round += 1;
    }
}

/// Plays `deals` scheduled deals; returns the fitted ratings.
fn simulate(truth: &[f64], deals: u64, seed: u64) -> Vec<clack_ladder::Rating> {
    let mut simulation = Simulation::new(truth, seed, false);
    for _ in 0..deals {
        simulation.deal();
    }
    simulation.fit.ratings
}

/// Runs a ladder until every free player has 300 games; for each, its interval at 300 games
/// over the one-over-root-n prediction from its interval at 50 games.
fn interval_ratios(truth: &[f64], seed: u64, old_measure: bool) -> Vec<f64> {
    let mut simulation = Simulation::new(truth, seed, old_measure);
    let mut at50 = vec![None; truth.len()];
    let mut at300 = vec![None; truth.len()];
    while at300[1..].iter().any(Option::is_none) && simulation.round < 20_000 {
        simulation.deal();
        for i in 1..truth.len() {
            let games = simulation.results.games(i);
            if games >= 50 && at50[i].is_none() {
                at50[i] = Some((simulation.fit.ratings[i].ci95, games));
            }
            if games >= 300 && at300[i].is_none() {
                at300[i] = Some((simulation.fit.ratings[i].ci95, games));
            }
        }
    }
    (1..truth.len())
        .map(|i| match (at50[i], at300[i]) {
            (Some((early, n0)), Some((late, n))) => late / (early * (n0 as f64 / n as f64).sqrt()),
            _ => f64::INFINITY,
        })
        .collect()
}

#[test]
fn with_six_versions_two_alike_every_interval_narrows_as_one_over_root_n() {
    // The anchor and six versions; versions 2 and 3 are equally strong.
    let truth = [1500.0, 1150.0, 1420.0, 1420.0, 1560.0, 1680.0, 1300.0];
    for seed in [1, 2, 3] {
        let ratios = interval_ratios(&truth, seed, false);
        assert!(ratios.iter().all(|&r| r <= 1.5), "seed {seed}: {ratios:?}");
    }
    // The measure it replaced fails the same bar on the same ladder.
    let old = interval_ratios(&truth, 1, true);
    assert!(old.iter().any(|&r| r > 1.5), "the old measure: {old:?}");
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
