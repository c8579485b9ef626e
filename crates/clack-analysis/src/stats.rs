//! Running statistics that can be merged: a mean with its 95% confidence interval, and counts
//! by value. Each worker thread keeps its own and they are merged at the end, so the result does
//! not depend on how the input was split (up to floating-point rounding).

use std::collections::BTreeMap;

use serde::Serialize;

/// Count, sum and sum of squares of a sample: enough for its mean and the mean's standard error.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moments {
    n: u64,
    sum: f64,
    sum_sq: f64,
}

impl Moments {
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    pub fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.sum_sq += other.sum_sq;
    }

    /// The mean and the half-width of its 95% confidence interval (normal approximation,
    /// 1.96 standard errors, with the sample variance); the half-width is 0 below two values.
    pub fn estimate(&self) -> Estimate {
        if self.n == 0 {
            return Estimate { n: 0, mean: 0.0, ci95: 0.0 };
        }
        let n = self.n as f64;
        let mean = self.sum / n;
        let ci95 = if self.n < 2 {
            0.0
        } else {
            let variance = ((self.sum_sq - n * mean * mean) / (n - 1.0)).max(0.0);
            1.96 * (variance / n).sqrt()
        };
        Estimate { n: self.n, mean, ci95 }
    }
}

/// A mean with the half-width of its 95% confidence interval: the interval is
/// `mean - ci95 ..= mean + ci95`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub n: u64,
    pub mean: f64,
    pub ci95: f64,
}

/// How many times each value (or name) was seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Counts<K: Ord>(pub BTreeMap<K, u64>);

impl<K: Ord> Default for Counts<K> {
    fn default() -> Counts<K> {
        Counts(BTreeMap::new())
    }
}

impl<K: Ord + Clone> Counts<K> {
    pub fn add(&mut self, key: K) {
        *self.0.entry(key).or_insert(0) += 1;
    }

    pub fn merge(&mut self, other: &Counts<K>) {
        for (key, count) in &other.0 {
            *self.0.entry(key.clone()).or_insert(0) += count;
        }
    }

    pub fn total(&self) -> u64 {
        self.0.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_interval_of_a_small_sample() {
        let mut m = Moments::default();
        for x in [2.0, 4.0, 6.0] {
            m.add(x);
        }
        let e = m.estimate();
        // Sample variance 4, standard error sqrt(4/3), half-width 1.96 * 1.1547.
        assert_eq!(e.n, 3);
        assert!((e.mean - 4.0).abs() < 1e-12);
        assert!((e.ci95 - 1.96 * (4.0f64 / 3.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn merged_moments_equal_moments_of_the_whole() {
        let (mut a, mut b, mut whole) = (Moments::default(), Moments::default(), Moments::default());
        for x in [1.0, 5.0] {
            a.add(x);
            whole.add(x);
        }
        for x in [7.0, 3.0, 9.0] {
            b.add(x);
            whole.add(x);
        }
        a.merge(&b);
        assert_eq!(a, whole);
        assert_eq!(Moments::default().estimate().n, 0);
    }

    #[test]
    fn counts_merge_by_key() {
        let mut a = Counts::default();
        a.add("x");
        a.add("y");
        let mut b = Counts::default();
        b.add("y");
        a.merge(&b);
        assert_eq!(a.0.get("y"), Some(&2));
        assert_eq!(a.total(), 3);
    }
}
