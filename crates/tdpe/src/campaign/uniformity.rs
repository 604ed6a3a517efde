//! Tests of uniformity for a PP test (docs/campaigns.md §3): the one-sample Kolmogorov–Smirnov
//! test against U(0, 1) with its exact p-value, Fisher's combination of p-values, and the
//! binomial quantiles of the PP plot's bands — what bilby's `make_pp_plot` takes from scipy
//! (`kstest(levels, "uniform")`, `combine_pvalues`, `binom.ppf`).

/// Above this size of the matrix of Marsaglia, Tsang & Wang's method (n·d > 200; never for
/// n ≤ 200) the p-value is taken from their right-tail formula where they give it to about
/// seven digits, n·d² > [`TAIL_FORMULA_FROM`] with n > 99.
const MAX_EXACT_ORDER: usize = 401;
/// See [`MAX_EXACT_ORDER`].
const TAIL_FORMULA_FROM: f64 = 3.76;

/// The two-sided Kolmogorov–Smirnov statistic D_n = sup |F_n(x) − x| of `values` against
/// U(0, 1).
pub fn ks_statistic(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len() as f64;
    sorted
        .iter()
        .enumerate()
        .map(|(i, &x)| ((i as f64 + 1.0) / n - x).max(x - i as f64 / n))
        .fold(0.0, f64::max)
}

/// The p-value of the two-sided Kolmogorov–Smirnov test of `values` against U(0, 1): the
/// probability that n uniform draws give a statistic at least as large, exact (Marsaglia, Tsang
/// & Wang, J. Stat. Softw. 8 (18), 2003). NaN without values.
pub fn ks_pvalue(values: &[f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let d = ks_statistic(values);
    (1.0 - kolmogorov_cdf(values.len(), d)).clamp(0.0, 1.0)
}

/// P(D_n < d) for n uniform draws: the (k, k) element of H^n times n!/nⁿ, H the (2k − 1)-square
/// matrix of Marsaglia, Tsang & Wang's eq. (3) with k = ⌊nd⌋ + 1 (their §2), computed with
/// powers of ten kept apart so that nothing overflows.
fn kolmogorov_cdf(n: usize, d: f64) -> f64 {
    if d <= 0.0 {
        return 0.0;
    }
    if d >= 1.0 {
        return 1.0;
    }
    let nd = n as f64 * d;
    let k = nd.floor() as usize + 1;
    let m = 2 * k - 1;
    if m > MAX_EXACT_ORDER && nd * d > TAIL_FORMULA_FROM {
        let s = nd * d;
        let nf = n as f64;
        return 1.0 - 2.0 * (-(2.000071 + 0.331 / nf.sqrt() + 1.409 / nf) * s).exp();
    }
    let h = k as f64 - nd;
    let mut matrix = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..m {
            if i + 1 >= j {
                matrix[i * m + j] = 1.0;
            }
        }
    }
    for i in 0..m {
        matrix[i * m] -= h.powi(i as i32 + 1);
        matrix[(m - 1) * m + i] -= h.powi((m - i) as i32);
    }
    if 2.0 * h - 1.0 > 0.0 {
        matrix[(m - 1) * m] += (2.0 * h - 1.0).powi(m as i32);
    }
    for i in 0..m {
        for j in 0..m.min(i + 1) {
            for g in 1..=(i + 1 - j) {
                matrix[i * m + j] /= g as f64;
            }
        }
    }
    let (power, mut exponent) = matrix_power(&matrix, m, n);
    let mut s = power[(k - 1) * m + (k - 1)];
    for i in 1..=n {
        s *= i as f64 / n as f64;
        if s < 1e-140 {
            s *= 1e140;
            exponent -= 140;
        }
    }
    s * 10f64.powi(exponent)
}

/// A^n for the m-square `a`, as (B, e) with A^n = B·10^e.
fn matrix_power(a: &[f64], m: usize, n: usize) -> (Vec<f64>, i32) {
    if n == 1 {
        return (a.to_vec(), 0);
    }
    let (half, e_half) = matrix_power(a, m, n / 2);
    let mut b = multiply(&half, &half, m);
    let mut e = 2 * e_half;
    if n % 2 == 1 {
        b = multiply(a, &b, m);
    }
    if b[(m / 2) * m + m / 2] > 1e140 {
        b.iter_mut().for_each(|x| *x *= 1e-140);
        e += 140;
    }
    (b, e)
}

fn multiply(x: &[f64], y: &[f64], m: usize) -> Vec<f64> {
    let mut out = vec![0.0; m * m];
    for i in 0..m {
        for l in 0..m {
            let xil = x[i * m + l];
            if xil != 0.0 {
                for j in 0..m {
                    out[i * m + j] += xil * y[l * m + j];
                }
            }
        }
    }
    out
}

/// Fisher's combination of independent p-values: the probability that χ² with 2k degrees of
/// freedom exceeds −2 Σ ln pᵢ, in closed form for even degrees of freedom,
/// e^(−x/2) Σ_{i<k} (x/2)^i / i!. NaN without p-values or with one outside [0, 1].
pub fn fisher_combined_pvalue(pvalues: &[f64]) -> f64 {
    if pvalues.is_empty() || pvalues.iter().any(|p| !(0.0..=1.0).contains(p)) {
        return f64::NAN;
    }
    let half_x: f64 = -pvalues.iter().map(|p| p.ln()).sum::<f64>();
    if half_x.is_infinite() {
        return 0.0;
    }
    let mut term = 1.0;
    let mut sum = 1.0;
    for i in 1..pvalues.len() {
        term *= half_x / i as f64;
        sum += term;
    }
    ((-half_x).exp() * sum).min(1.0)
}

/// The binomial quantile: the smallest k with P(K ≤ k) ≥ q for K ~ Binomial(n, p) (scipy's
/// `binom.ppf`).
pub fn binomial_quantile(q: f64, n: usize, p: f64) -> usize {
    if p <= 0.0 {
        return 0;
    }
    if p >= 1.0 {
        return n;
    }
    // The pmf from k = 0 up, in logs (n of a few thousand at most).
    let (ln_p, ln_q) = (p.ln(), (-p).ln_1p());
    let mut ln_pmf = n as f64 * ln_q;
    let mut cdf = 0.0;
    for k in 0..=n {
        cdf += ln_pmf.exp();
        // A relative tolerance as scipy's, so that q = 1 − (1 − q) does not miss by rounding.
        if cdf >= q * (1.0 - 1e-12) {
            return k;
        }
        ln_pmf += ((n - k) as f64 / (k as f64 + 1.0)).ln() + ln_p - ln_q;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against scipy 1.17 (`tools/uniformity_reference.py`): sets x_i = ((i + ½)/n)^a, from
    /// uniform (a near 1) to far from it (p ~ 10⁻⁶). scipy's distribution is exact up to
    /// n = 140 and an asymptotic series above (Simard & L'Ecuyer's choice), good to ~10⁻⁶ of p.
    #[test]
    fn ks_statistics_and_pvalues_match_scipy() {
        let cases: [(usize, f64, f64, f64); 9] = [
            (1, 1.7, 0.692213896663771, 0.615572206672458),
            (5, 0.6, 0.2855933748302038, 0.720002629987857),
            (10, 1.3, 0.145858952197008, 0.9633456698032987),
            (37, 0.8, 0.09540240888784968, 0.8576221244076236),
            (100, 1.1, 0.04004935165305351, 0.9952324566676288),
            (100, 1.25, 0.0869135242605919, 0.41326011722502354),
            (100, 0.5, 0.2549752469181039, 3.21634162567392e-06),
            (250, 1.05, 0.0199470365038959, 0.9999342089408807),
            (500, 0.9, 0.039742034077486, 0.39823736335618054),
        ];
        for (n, a, statistic, pvalue) in cases {
            let values: Vec<f64> = (0..n)
                .map(|i| ((i as f64 + 0.5) / n as f64).powf(a))
                .collect();
            assert!((ks_statistic(&values) - statistic).abs() < 1e-14, "{n} {a}");
            let p = ks_pvalue(&values);
            let tolerance = if n <= 140 { 1e-9 } else { 1e-5 };
            assert!(
                (p - pvalue).abs() <= tolerance * pvalue,
                "{n} {a}: {p} against scipy's {pvalue}"
            );
        }
        assert!(ks_pvalue(&[]).is_nan());
    }

    /// Fisher's method against scipy's `combine_pvalues`; a zero p-value combines to zero.
    #[test]
    fn fisher_combination_matches_scipy() {
        let cases: [(&[f64], f64); 4] = [
            (&[0.5], 0.5000000000000001),
            (&[0.01, 0.2, 0.7], 0.04082702883527948),
            (
                &[0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3],
                0.2389385815204143,
            ),
            (&[1e-05, 0.9, 0.04, 0.6, 0.33], 0.00028167556144518684),
        ];
        for (pvalues, expected) in cases {
            let p = fisher_combined_pvalue(pvalues);
            assert!(
                (p - expected).abs() <= 1e-12 * expected,
                "{pvalues:?}: {p} against {expected}"
            );
        }
        assert_eq!(fisher_combined_pvalue(&[0.0, 0.5]), 0.0);
        assert!(fisher_combined_pvalue(&[1.5]).is_nan());
        assert!(fisher_combined_pvalue(&[]).is_nan());
    }

    /// Binomial quantiles against scipy's `binom.ppf`, the tails and the ends included.
    #[test]
    fn binomial_quantiles_match_scipy() {
        let cases: [(f64, usize, f64, usize); 7] = [
            (0.16, 100, 0.3, 25),
            (0.84, 100, 0.3, 35),
            (0.025, 100, 0.01, 0),
            (0.0015, 100, 0.5, 35),
            (0.9985, 100, 0.999, 100),
            (0.5, 7, 0.5, 3),
            (0.975, 250, 0.77, 205),
        ];
        for (q, n, p, expected) in cases {
            assert_eq!(binomial_quantile(q, n, p), expected, "{q} {n} {p}");
        }
        assert_eq!(binomial_quantile(0.5, 10, 0.0), 0);
        assert_eq!(binomial_quantile(0.5, 10, 1.0), 10);
    }
}
