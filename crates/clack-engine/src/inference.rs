//! Which hidden worlds the other seats' plays make likely: the engine's inference.
//!
//! The sampler ([`crate::infoset`]) draws worlds uniformly among those that fit what the seat
//! saw. It reads the hard facts (a seat that passed held nothing that fitted) and nothing else:
//! a seat that could have scored 15 and scored nothing probably could not, and yet the uniform
//! sampler gives a world where it could as much weight as any other. Players read such plays;
//! this module lets the engine read them too.
//!
//! Each world is weighed by the likelihood of every choice another seat made in its history
//! under a simple model of play: a seat chooses among its legal moves with probability
//! proportional to `exp(SHARPNESS × points the move scores for the count)`. The evaluation then
//! draws its worlds from a pool of weighted worlds rather than from the sampler (sampling,
//! importance, resampling): the pool is drawn uniformly, and a world is picked from it with
//! probability proportional to its weight. The model is deliberately plain (points are what
//! every Straight player, bundled bot or engine, reaches for); it is not the seat's real policy,
//! and a world it misjudges keeps a weight above zero.
//!
//! Straight Dominoes only: a Streets placement's worth is not one number of points, and its
//! evaluation keeps the uniform sampler. The evaluation uses the pool where it grows its
//! information-set tree (Straight Dominoes with two sides), where it was measured to pay
//! (`evaluate::weighed`). This module knows nothing of levels or reviews; it is counted, not timed,
//! so the same information set, pool size and seed give the same pool.

use clack_rules::game::Game;

use crate::EngineError;
use crate::infoset::InfoSet;
use crate::lean::{self, Buffer, Move};
use crate::rng::Rng;

/// How sharply the model of play prefers points: a move scoring 5 more is `e^(5 × 0.4)` ≈ 7.4
/// times as likely. Pilots of 1,000 team games against `engine:legacy-strong` on one seed
/// (docs/engine.md) took 0.592 of the deals at 0.15 and 0.606 at 0.4, against 0.502 without
/// inference.
pub(crate) const SHARPNESS: f64 = 0.4;

/// Worlds drawn uniformly and weighed, to be picked from by weight.
#[derive(Debug)]
pub(crate) struct Pool {
    worlds: Vec<Game>,
    /// The same worlds as the tree plays on them, converted once when the pool is drawn rather
    /// than at each of the tree's thousands of picks (the picks' clones and conversions were a
    /// tenth of a review's time).
    lean: Vec<lean::Straight>,
    /// The running sums of the worlds' weights.
    cumulative: Vec<f64>,
}

impl Pool {
    /// Draws `size` worlds of `info` (world `j` from `Rng::derive(seed, j)`) and weighs each by
    /// the likelihood of the others' choices in it. `None` for Streets and Avenues.
    pub(crate) fn draw(info: &mut InfoSet, size: u32, seed: u64) -> Result<Option<Pool>, EngineError> {
        if size == 0 {
            return Ok(None);
        }
        let mut buffer = lean::buffer();
        let mut worlds = Vec::with_capacity(size as usize);
        let mut lean = Vec::with_capacity(size as usize);
        let mut likelihoods = Vec::with_capacity(size as usize);
        for j in 0..u64::from(size) {
            let mut likelihood = 0.0;
            let choice =
                |state: &lean::Straight, chosen: Move| likelihood += log_likelihood(state, chosen, &mut buffer);
            let Some(world) = info.sample_replayed(&mut Rng::derive(seed, j), choice)? else { return Ok(None) };
            let Game::Straight(state) = &world else { return Ok(None) };
            lean.push(lean::Straight::from_state(state));
            worlds.push(world);
            likelihoods.push(likelihood);
        }
        // Weights relative to the likeliest world, so that none underflows to zero.
        let top = likelihoods.iter().copied().fold(f64::MIN, f64::max);
        let cumulative = likelihoods
            .iter()
            .scan(0.0, |total, &l| {
                *total += (l - top).exp();
                Some(*total)
            })
            .collect();
        Ok(Some(Pool { worlds, lean, cumulative }))
    }

    /// A world of the pool, each with probability proportional to its weight.
    pub(crate) fn pick(&self, rng: &mut Rng) -> Game {
        self.worlds[self.index(rng)].clone()
    }

    /// The world [`Pool::pick`] would pick with `rng`, as the tree plays on it.
    pub(crate) fn pick_lean(&self, rng: &mut Rng) -> lean::Straight {
        self.lean[self.index(rng)].clone()
    }

    /// The index of the world [`Pool::pick`] picks.
    fn index(&self, rng: &mut Rng) -> usize {
        let total = self.cumulative.last().copied().unwrap_or_default();
        let x = rng.unit() * total;
        self.cumulative.partition_point(|&c| c <= x).min(self.worlds.len() - 1)
    }
}

/// The log of the probability that the seat to move in `state` chose `chosen` under the model
/// of play: 0 when it had no other choice.
fn log_likelihood(state: &lean::Straight, chosen: Move, buffer: &mut Buffer) -> f64 {
    let len = state.legal_actions_into(buffer);
    if len < 2 {
        return 0.0;
    }
    let score = |m: Move| SHARPNESS * f64::from(state.scored(m));
    let top = buffer[..len].iter().map(|&m| score(m)).fold(f64::MIN, f64::max);
    let sum: f64 = buffer[..len].iter().map(|&m| (score(m) - top).exp()).sum();
    score(chosen) - top - sum.ln()
}

#[cfg(test)]
mod tests {
    use clack_rules::game::{Options, Turn};
    use clack_rules::{Dealer, straight};

    use super::*;

    /// The model's probabilities of a seat's choices add up to one, and a move scoring more is
    /// likelier by `exp(SHARPNESS × the difference)`.
    #[test]
    fn the_model_of_play_is_a_distribution_that_prefers_points() {
        let options = Options::Straight(straight::Options { players: 2, ..straight::Options::default() });
        let mut game = Game::new(options).expect("a game");
        let mut dealer = Dealer::from_seed(11);
        let (mut buffer, mut checked) = (lean::buffer(), 0);
        while game.turn() != Turn::Over && checked < 20 {
            match game.turn() {
                Turn::Chance => {
                    let chance = game.sample_chance(&mut dealer).expect("a chance");
                    game.apply_chance(chance).expect("applies");
                }
                Turn::Seat { seat } => {
                    let Game::Straight(state) = &game else { unreachable!() };
                    let lean = lean::Straight::from_state(state);
                    let moves: Vec<Move> = {
                        let len = lean.legal_actions_into(&mut buffer);
                        buffer[..len].to_vec()
                    };
                    let total: f64 = moves.iter().map(|&m| log_likelihood(&lean, m, &mut buffer).exp()).sum();
                    assert!((total - 1.0).abs() < 1e-9, "{total}");
                    for &a in &moves {
                        for &b in &moves {
                            let (la, lb) =
                                (log_likelihood(&lean, a, &mut buffer), log_likelihood(&lean, b, &mut buffer));
                            let points = f64::from(lean.scored(a)) - f64::from(lean.scored(b));
                            assert!((la - lb - SHARPNESS * points).abs() < 1e-9);
                        }
                    }
                    checked += usize::from(moves.len() > 1);
                    let legal = game.legal_actions();
                    game.apply(seat, legal[dealer.index(legal.len())]).expect("legal");
                }
                Turn::Over => break,
            }
        }
        assert!(checked >= 10, "only {checked} choices");
    }

    /// Three games of two players just dealt, each from its own seed, with their lean forms.
    fn dealt() -> (Vec<Game>, Vec<lean::Straight>) {
        let options = Options::Straight(straight::Options { players: 2, ..straight::Options::default() });
        (0..3)
            .map(|seed| {
                let (mut game, mut dealer) = (Game::new(options).expect("a game"), Dealer::from_seed(seed));
                while game.turn() == Turn::Chance {
                    let chance = game.sample_chance(&mut dealer).expect("a chance event");
                    game.apply_chance(chance).expect("applies");
                }
                let Game::Straight(state) = &game else { unreachable!("a Straight game") };
                let lean = lean::Straight::from_state(state);
                (game, lean)
            })
            .unzip()
    }

    /// A pool picks its worlds in proportion to their weights.
    #[test]
    fn a_pool_picks_by_weight() {
        let (worlds, lean) = dealt();
        let pool = Pool { worlds, lean, cumulative: vec![1.0, 1.0, 4.0] };
        let mut counts = [0usize; 3];
        let mut rng = Rng::new(5);
        for _ in 0..40_000 {
            counts[pool.index(&mut rng)] += 1;
        }
        assert_eq!(counts[1], 0, "a world of weight zero is never picked");
        let share = counts[2] as f64 / 40_000.0;
        assert!((share - 0.75).abs() < 0.01, "{share}");
    }

    /// The tree's pick is the playouts' pick, in its lean form: the same generator gives the
    /// same world either way.
    #[test]
    fn the_lean_pick_is_the_same_world() {
        let (worlds, lean) = dealt();
        assert_ne!(worlds[0], worlds[1], "the seeds deal differently");
        let pool = Pool { worlds, lean, cumulative: vec![1.0, 2.0, 3.0] };
        for seed in 0..50 {
            let Game::Straight(state) = pool.pick(&mut Rng::new(seed)) else { unreachable!("a Straight game") };
            assert_eq!(pool.pick_lean(&mut Rng::new(seed)), lean::Straight::from_state(&state), "seed {seed}");
        }
    }
}
