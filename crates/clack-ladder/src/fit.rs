//! The Bradley–Terry fit: Newton's method on the log-likelihood of every pair's deal scores,
//! with a normal prior on each free player and anchors held fixed. It keeps the ratings'
//! covariance (the inverse of the curvature at the maximum, anchors fixed), which the
//! scheduler needs to tell what a game would teach about every rating, not only a pair's.

use crate::{PRIOR_SD, Results, START};

/// The slope of the Elo curve: `ln(10) / 400`.
pub(crate) const SLOPE: f64 = std::f64::consts::LN_10 / 400.0;

/// A player's rating and the half-width of its 95% interval (0 for an anchor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub ci95: f64,
}

/// A fit's ratings and their covariance, in rating points squared, indexed by player; an
/// anchor's row and column are 0, since its rating is fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    pub ratings: Vec<Rating>,
    pub covariance: Vec<Vec<f64>>,
}

/// The ratings of every player of `results`; `anchors[i]` fixes player `i`'s rating (players
/// past the end of `anchors` are free).
pub fn fit(results: &Results, anchors: &[Option<f64>]) -> Vec<Rating> {
    fit_with_covariance(results, anchors).ratings
}

/// [`fit`], with the ratings' covariance.
pub fn fit_with_covariance(results: &Results, anchors: &[Option<f64>]) -> Fit {
    let n = results.players();
    let anchor = |i: usize| anchors.get(i).copied().flatten();
    let mut ratings: Vec<f64> = (0..n).map(|i| anchor(i).unwrap_or(START)).collect();
    let free: Vec<usize> = (0..n).filter(|&i| anchor(i).is_none()).collect();
    let mut curvature = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..100 {
        let (gradient, hessian) = derivatives(results, &ratings, &free);
        curvature = hessian.clone();
        let Some(step) = solve(hessian, gradient) else { break };
        let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        // Large steps are shortened: far from the maximum the curvature misleads.
        let scale = if largest > 200.0 { 200.0 / largest } else { 1.0 };
        for (k, &i) in free.iter().enumerate() {
            ratings[i] += step[k] * scale;
        }
        if largest < 1e-6 {
            let (_, hessian) = derivatives(results, &ratings, &free);
            curvature = hessian;
            break;
        }
    }
    let inverse = inverse(curvature);
    let mut covariance = vec![vec![0.0; n]; n];
    for (k, &i) in free.iter().enumerate() {
        for (l, &j) in free.iter().enumerate() {
            covariance[i][j] = inverse.get(k).map_or(f64::NAN, |row| row[l]);
        }
    }
    let ratings = ratings
        .iter()
        .enumerate()
        .map(|(i, &rating)| {
            let variance = if covariance[i][i].is_finite() { covariance[i][i] } else { PRIOR_SD * PRIOR_SD };
            Rating { rating, ci95: 1.96 * variance.max(0.0).sqrt() }
        })
        .collect();
    Fit { ratings, covariance }
}

/// The gradient of the log-posterior over the free players, and the negative of its Hessian
/// (positive definite, thanks to the prior).
fn derivatives(results: &Results, ratings: &[f64], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let m = free.len();
    let mut index = vec![None; ratings.len()];
    for (k, &i) in free.iter().enumerate() {
        index[i] = Some(k);
    }
    let mut gradient: Vec<f64> = free.iter().map(|&i| -(ratings[i] - START) / (PRIOR_SD * PRIOR_SD)).collect();
    let mut hessian = vec![vec![0.0; m]; m];
    for (k, row) in hessian.iter_mut().enumerate() {
        row[k] = 1.0 / (PRIOR_SD * PRIOR_SD);
    }
    for (k, &i) in free.iter().enumerate() {
        for j in 0..ratings.len() {
            let (score, deals) = results.between(i, j);
            if deals == 0.0 {
                continue;
            }
            let expected = 1.0 / (1.0 + (-(ratings[i] - ratings[j]) * SLOPE).exp());
            gradient[k] += SLOPE * (score - deals * expected);
            let weight = SLOPE * SLOPE * deals * expected * (1.0 - expected);
            hessian[k][k] += weight;
            if let Some(l) = index[j] {
                hessian[k][l] -= weight;
            }
        }
    }
    (gradient, hessian)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if `a` is singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..n {
            let factor = a[row][col] / a[col][col];
            if factor == 0.0 {
                continue;
            }
            let (upper, lower) = a.split_at_mut(row);
            for (target, &source) in lower[0][col..].iter_mut().zip(&upper[col][col..]) {
                *target -= factor * source;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// `a`'s inverse, column by column (rows of NaN if `a` is singular, which the prior prevents).
fn inverse(a: Vec<Vec<f64>>) -> Vec<Vec<f64>> {
    let n = a.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|k| {
            let unit: Vec<f64> = (0..n).map(|i| if i == k { 1.0 } else { 0.0 }).collect();
            solve(a.clone(), unit).unwrap_or_else(|| vec![f64::NAN; n])
        })
        .collect();
    (0..n).map(|i| (0..n).map(|k| columns[k][i]).collect()).collect()
}
