//! Quantiles exactly as `numpy.quantile(x, q)` computes them with its default `method="linear"`
//! (bilby's credible intervals use it): the virtual index (n − 1)·q between the sorted values
//! x[⌊i⌋] and x[⌊i⌋ + 1], interpolated with numpy's two-sided `_lerp`.

/// The median and the 90 % equal-tailed credible interval of a sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CredibleInterval {
    /// 5 % quantile.
    pub lower: f64,
    /// 50 % quantile.
    pub median: f64,
    /// 95 % quantile.
    pub upper: f64,
}

impl CredibleInterval {
    /// The interval of `values` (NaN everywhere if `values` is empty or holds a NaN).
    pub fn of(values: &[f64]) -> Self {
        let sorted = sorted(values);
        Self {
            lower: quantile_sorted(&sorted, 0.05),
            median: quantile_sorted(&sorted, 0.5),
            upper: quantile_sorted(&sorted, 0.95),
        }
    }
}

/// A sorted copy of `values` (NaN sorts last, as in numpy).
pub fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

/// The `q`-quantile (0 ≤ q ≤ 1) of already sorted values; NaN if they are empty or hold a NaN
/// (numpy propagates NaN).
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 || sorted.iter().any(|v| v.is_nan()) || !(0.0..=1.0).contains(&q) {
        return f64::NAN;
    }
    let index = (n - 1) as f64 * q;
    let below = index.floor();
    let gamma = index - below;
    let lo = below as usize;
    let hi = (lo + 1).min(n - 1);
    lerp(sorted[lo], sorted[hi], gamma)
}

/// numpy's `_lerp(a, b, t)`: `a + (b − a)·t`, but `b − (b − a)·(1 − t)` for t ≥ ½, so that the
/// result is exact at both ends.
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let diff = b - a;
    if t >= 0.5 {
        b - diff * (1.0 - t)
    } else {
        a + diff * t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bit-exact against numpy 2.4: `np.quantile(x, q).tolist()` for the `x` and `q` below.
    #[test]
    fn bit_exact_against_numpy() {
        let cases: [(&[f64], &[f64], &[f64]); 2] = [
            (
                &[3.1, -0.5, 7.25, 2.0, 2.0, 10.0, 0.3],
                &[0.0, 0.05, 0.16, 0.5, 0.84, 0.95, 1.0],
                &[
                    -0.5,
                    -0.25999999999999995,
                    0.26799999999999996,
                    2.0,
                    7.36,
                    9.174999999999997,
                    10.0,
                ],
            ),
            (
                &[0.1, 0.7, 0.2, 1e9 + 0.3],
                &[0.05, 0.3, 0.7, 0.95],
                &[0.115, 0.19, 100000000.65999964, 850000000.3599997],
            ),
        ];
        for (x, qs, expected) in cases {
            let sorted = sorted(x);
            for (&q, &e) in qs.iter().zip(expected) {
                assert_eq!(quantile_sorted(&sorted, q), e, "x={x:?}, q={q}");
            }
        }
    }

    #[test]
    fn credible_interval_of_a_ramp() {
        let x: Vec<f64> = (0..=100).rev().map(f64::from).collect();
        let ci = CredibleInterval::of(&x);
        assert_eq!((ci.lower, ci.median, ci.upper), (5.0, 50.0, 95.0));
    }

    #[test]
    fn degenerate_inputs() {
        assert!(quantile_sorted(&[], 0.5).is_nan());
        assert_eq!(quantile_sorted(&[4.0], 0.95), 4.0);
        assert!(CredibleInterval::of(&[1.0, f64::NAN]).median.is_nan());
    }
}
