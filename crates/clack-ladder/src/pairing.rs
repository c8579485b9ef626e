//! Who plays the next deal: the players whose game would narrow the ratings most, every rating
//! on the anchored scale counted, not only the difference between the two who play.
//!
//! A deal between `a` and `b` adds `w = s² p (1 - p)` of information along `e_a - e_b` (with
//! `p` the chance `a` beats `b` and `s` the slope of the Elo curve). By the Sherman–Morrison
//! formula the covariance `C` of the ratings would become `C - w u uᵀ / (1 + w d)`, with
//! `u = C (e_a - e_b)` and `d = C_aa + C_bb - 2 C_ab`, the variance of the pair's difference. A
//! pair is scored by the expected fall of the sum of every free rating's log-variance,
//! `Σ_k ln C_kk - ln C'_kk`. Log-variances, because an interval should narrow like one over the
//! square root of its deals, whatever its width: a game that halves a narrow variance counts as
//! much as one that halves a wide one. The sum over every rating, because a game between two
//! players teaches about those they played too (their ratings are correlated). The measure it
//! replaced, `p (1 - p) (v_a + v_b)`, looked at the two players alone: two versions of equal
//! strength, whose game is the most open, played each other on and on, learning their
//! difference, while where either stood against the anchor stayed as wide as before. Pairs with
//! an anchor (variance 0) are candidates like any: such a game is what pins a group to the scale.

use crate::fit::SLOPE;

/// A player as the scheduler sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    pub rating: f64,
    pub anchor: bool,
}

/// The expected fall of the sum of the free ratings' log-variances if `a` and `b` played one
/// more deal. `covariance` is indexed like `candidates`; an anchor's variance is taken as 0.
pub fn gain(candidates: &[Candidate], covariance: &[Vec<f64>], a: usize, b: usize) -> f64 {
    let c = |i: usize, j: usize| {
        if candidates[i].anchor || candidates[j].anchor { 0.0 } else { covariance[i][j] }
    };
    let p = 1.0 / (1.0 + 10f64.powf((candidates[b].rating - candidates[a].rating) / 400.0));
    let w = SLOPE * SLOPE * p * (1.0 - p);
    let spread = 1.0 + w * (c(a, a) + c(b, b) - 2.0 * c(a, b));
    (0..candidates.len())
        .filter(|&k| !candidates[k].anchor && c(k, k) > 0.0)
        .map(|k| {
            let after = c(k, k) - w * (c(k, a) - c(k, b)).powi(2) / spread;
            c(k, k).ln() - after.max(f64::MIN_POSITIVE).ln()
        })
        .sum()
}

/// The players of the next deal, one per side, or `None` when there are too few players or no
/// player whose rating is not fixed. The pair that teaches the most takes the first two places;
/// each further place goes to whoever would teach the most against those already seated. Ties
/// go to the lower indices, so the choice is the same for the same state.
pub fn next_table(candidates: &[Candidate], covariance: &[Vec<f64>], sides: usize) -> Option<Vec<usize>> {
    if sides < 2 || candidates.len() < sides || candidates.iter().all(|c| c.anchor) {
        return None;
    }
    let score = |a: usize, b: usize| gain(candidates, covariance, a, b);
    let pairs = (0..candidates.len()).flat_map(|a| (a + 1..candidates.len()).map(move |b| (a, b)));
    let (a, b) = pairs
        .filter(|&(a, b)| !(candidates[a].anchor && candidates[b].anchor))
        .max_by(|&(a, b), &(c, d)| score(a, b).total_cmp(&score(c, d)).then((c, d).cmp(&(a, b))))?;
    let mut table = vec![a, b];
    while table.len() < sides {
        let taught = |i: usize| table.iter().map(|&t| score(i, t)).sum::<f64>();
        let next = (0..candidates.len())
            .filter(|i| !table.contains(i))
            .max_by(|&x, &y| taught(x).total_cmp(&taught(y)).then(y.cmp(&x)))?;
        table.push(next);
    }
    Some(table)
}
