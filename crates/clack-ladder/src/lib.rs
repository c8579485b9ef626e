//! Clack's ladder, without the server: what a deal's games say about who is stronger
//! ([`Results`]), ratings with 95% intervals from all of it ([`fit`]), and who should play next
//! ([`next_table`]: the games that would narrow the ratings, all of them on the anchored scale,
//! most).
//!
//! Ratings are a Bradley–Terry model on the Elo scale: a player rated `d` points above another
//! scores `1 / (1 + 10^(-d / 400))` against it on average. A game of more than two sides counts
//! as a comparison of every pair of sides (the winner beats each loser; two winners, or two
//! losers, draw), so one model serves Straight Dominoes in twos or in teams and Streets and
//! Avenues in threes. The unit of evidence is the *deal*: the games of one deal, played once
//! from every seat, are averaged into one score per pair, since they are not independent of
//! each other while deals are. The fit is the maximum of the likelihood times a gentle normal
//! prior (1500 ± 350 for each player that is not an anchor, so an unbeaten newcomer has a
//! finite rating); its intervals come from the curvature at the maximum, so they narrow about
//! as one over the square root of the deals played. *Anchors* keep fixed ratings (the server's
//! engine players), which ties the scale down: a rating means the same over months.
//!
//! The crate is pure arithmetic: no IO, no clock, no randomness; the same results give the same
//! ratings and the same pairings.

mod fit;
mod pairing;
mod results;

pub use fit::{Fit, Rating, fit, fit_with_covariance};
pub use pairing::{Candidate, gain, next_table};
pub use results::{DealGame, Results};

/// The rating every player starts from, and the centre of the prior.
pub const START: f64 = 1500.0;

/// The prior's standard deviation, in rating points.
pub const PRIOR_SD: f64 = 350.0;

/// The interval of a player who has not played: the prior's.
pub const NEW_CI95: f64 = 1.96 * PRIOR_SD;
