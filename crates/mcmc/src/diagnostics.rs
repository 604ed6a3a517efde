//! Convergence diagnostics computed exactly as ArviZ (0.23) does: rank-normalised split R̂,
//! bulk and tail effective sample sizes, and the Monte-Carlo standard error of the mean
//! (Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021, "Rank-normalization, folding, and
//! localization: an improved R̂", Bayesian Analysis 16:667, arXiv:1903.08008).
//!
//! Every function takes the draws of one scalar quantity as a slice of chains, each a slice of
//! draws in order. All chains must have the same length (ArviZ's (chain, draw) array); functions
//! return NaN for too few draws (< 4) or chains, or for a NaN draw, as ArviZ does.

use std::sync::Arc;

use realfft::num_complex::Complex;
use realfft::RealFftPlanner;

/// Blom's fractional offset for the rank back-transform (Vehtari et al. 2021, eq. 14).
const BLOM_OFFSET: f64 = 3.0 / 8.0;

/// Fewest draws per chain for which ArviZ computes a diagnostic.
const MIN_DRAWS: usize = 4;

/// Rank-normalised split R̂: the larger of the split R̂ of the rank-normalised draws (bulk) and
/// of the rank-normalised folded draws |x − median| (tail) (Vehtari et al. 2021, §4.1;
/// `arviz.rhat(method="rank")`). Needs at least 2 chains.
pub fn rhat<C: AsRef<[f64]>>(chains: &[C]) -> f64 {
    let Some(split) = split_chains(chains, 2) else {
        return f64::NAN;
    };
    let bulk = rhat_basic(&z_scale(&split));
    let median = median(split.iter().flatten().copied().collect());
    let folded: Vec<Vec<f64>> = split
        .iter()
        .map(|c| c.iter().map(|x| (x - median).abs()).collect())
        .collect();
    bulk.max(rhat_basic(&z_scale(&folded)))
}

/// Bulk effective sample size: ESS of the rank-normalised split chains (Vehtari et al. 2021,
/// §4.2; `arviz.ess(method="bulk")`).
pub fn ess_bulk<C: AsRef<[f64]>>(chains: &[C]) -> f64 {
    match split_chains(chains, 1) {
        Some(split) => ess(&z_scale(&split)),
        None => f64::NAN,
    }
}

/// Tail effective sample size: the smaller ESS of the indicators x ≤ q₀.₀₅ and x ≤ q₀.₉₅
/// (Vehtari et al. 2021, §4.3; `arviz.ess(method="tail")`).
pub fn ess_tail<C: AsRef<[f64]>>(chains: &[C]) -> f64 {
    ess_quantile(chains, 0.05).min(ess_quantile(chains, 0.95))
}

/// Effective sample size of the mean: ESS of the split chains without rank normalisation
/// (`arviz.ess(method="mean")`).
pub fn ess_mean<C: AsRef<[f64]>>(chains: &[C]) -> f64 {
    match split_chains(chains, 1) {
        Some(split) => ess(&split),
        None => f64::NAN,
    }
}

/// Monte-Carlo standard error of the mean, sd / √ESS_mean (`arviz.mcse(method="mean")`).
pub fn mcse_mean<C: AsRef<[f64]>>(chains: &[C]) -> f64 {
    let all: Vec<f64> = chains
        .iter()
        .flat_map(|c| c.as_ref().iter().copied())
        .collect();
    sample_sd(&all) / ess_mean(chains).sqrt()
}

/// ESS of the indicator x ≤ q_prob, with q the type-7 (linear) quantile of all draws.
fn ess_quantile<C: AsRef<[f64]>>(chains: &[C], prob: f64) -> f64 {
    if split_chains(chains, 1).is_none() {
        return f64::NAN;
    }
    let mut sorted: Vec<f64> = chains
        .iter()
        .flat_map(|c| c.as_ref().iter().copied())
        .collect();
    sorted.sort_by(f64::total_cmp);
    let q = quantile_type7(&sorted, prob);
    let indicators: Vec<Vec<f64>> = chains
        .iter()
        .map(|c| {
            c.as_ref()
                .iter()
                .map(|&x| f64::from(u8::from(x <= q)))
                .collect()
        })
        .collect();
    match split_chains(&indicators, 1) {
        Some(split) => ess(&split),
        None => f64::NAN,
    }
}

/// Hyndman–Fan type-7 quantile of sorted data, computed as SciPy's `mquantiles(alphap=1,
/// betap=1)` does.
fn quantile_type7(sorted: &[f64], prob: f64) -> f64 {
    let n = sorted.len();
    let aleph = n as f64 * prob + (1.0 - prob);
    let k = aleph.clamp(1.0, (n - 1) as f64).floor();
    let gamma = (aleph - k).clamp(0.0, 1.0);
    let k = k as usize;
    (1.0 - gamma) * sorted[k - 1] + gamma * sorted[k]
}

/// Splits each chain into its first and last halves (dropping the middle draw of an odd
/// length); `None` when the input is invalid for ArviZ (NaN, unequal lengths, fewer than
/// `min_chains` chains or 4 draws).
fn split_chains<C: AsRef<[f64]>>(chains: &[C], min_chains: usize) -> Option<Vec<Vec<f64>>> {
    let n = chains.first()?.as_ref().len();
    let valid = chains.len() >= min_chains
        && n >= MIN_DRAWS
        && chains
            .iter()
            .all(|c| c.as_ref().len() == n && !c.as_ref().iter().any(|x| x.is_nan()));
    if !valid {
        return None;
    }
    let half = n / 2;
    let mut split = Vec::with_capacity(2 * chains.len());
    split.extend(chains.iter().map(|c| c.as_ref()[..half].to_vec()));
    split.extend(chains.iter().map(|c| c.as_ref()[n - half..].to_vec()));
    Some(split)
}

/// Replaces every value by Φ⁻¹((r − 3/8)/(S + 1/4)), r its average rank among all S values
/// (Vehtari et al. 2021, eq. 14).
fn z_scale(chains: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let values: Vec<f64> = chains.iter().flatten().copied().collect();
    let size = values.len() as f64;
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut z = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        // Ranks start + 1 ..= end share their average.
        let rank = 0.5 * (start + 1 + end) as f64;
        let zi = normal_quantile((rank - BLOM_OFFSET) / (size - 2.0 * BLOM_OFFSET + 1.0));
        for &i in &order[start..end] {
            z[i] = zi;
        }
        start = end;
    }
    let mut rest = z.as_slice();
    chains
        .iter()
        .map(|c| {
            let (head, tail) = rest.split_at(c.len());
            rest = tail;
            head.to_vec()
        })
        .collect()
}

/// Classic potential scale reduction √((B/W + n − 1)/n) with B = n·Var(chain means) and W the
/// mean within-chain variance (Gelman et al., BDA3 §11.4).
fn rhat_basic(chains: &[Vec<f64>]) -> f64 {
    let n = chains[0].len() as f64;
    let means: Vec<f64> = chains.iter().map(|c| mean(c)).collect();
    let within = mean(&chains.iter().map(|c| sample_var(c)).collect::<Vec<_>>());
    let between = n * sample_var(&means);
    ((between / within + n - 1.0) / n).sqrt()
}

/// Effective sample size of equal-length chains via Geyer's initial monotone sequence on the
/// FFT autocovariance, combined across chains (Vehtari et al. 2021, eqs. 10–13; ArviZ `_ess`).
fn ess(chains: &[Vec<f64>]) -> f64 {
    let (max, min) = chains
        .iter()
        .flatten()
        .fold((f64::NEG_INFINITY, f64::INFINITY), |(hi, lo), &x| {
            (hi.max(x), lo.min(x))
        });
    let n_chain = chains.len() as f64;
    let n = chains[0].len();
    let n_draw = n as f64;
    if max - min < 1e-15 {
        return n_chain * n_draw;
    }
    let fft = Autocovariance::new(n);
    let acov: Vec<Vec<f64>> = chains.iter().map(|c| fft.compute(c)).collect();
    let mean_acov = |lag: usize| acov.iter().map(|a| a[lag]).sum::<f64>() / n_chain;
    let chain_means: Vec<f64> = chains.iter().map(|c| mean(c)).collect();
    let mean_var = mean_acov(0) * n_draw / (n_draw - 1.0);
    let mut var_plus = mean_var * (n_draw - 1.0) / n_draw;
    if chains.len() > 1 {
        var_plus += sample_var(&chain_means);
    }
    let rho = |lag: usize| 1.0 - (mean_var - mean_acov(lag)) / var_plus;

    let mut rho_hat = vec![0.0; n];
    let mut rho_even = 1.0;
    rho_hat[0] = rho_even;
    let mut rho_odd = rho(1);
    rho_hat[1] = rho_odd;
    // Geyer's initial positive sequence.
    let mut t = 1;
    while t + 3 < n && rho_even + rho_odd > 0.0 {
        rho_even = rho(t + 1);
        rho_odd = rho(t + 2);
        if rho_even + rho_odd >= 0.0 {
            rho_hat[t + 1] = rho_even;
            rho_hat[t + 2] = rho_odd;
        }
        t += 2;
    }
    // The last pair looked at; one before the first lag when the loop never ran (n < 4).
    let last = t - 1;
    if rho_even > 0.0 {
        rho_hat[last] = rho_even;
    }
    // Geyer's initial monotone sequence.
    let mut t = 1;
    while t + 3 <= last {
        if rho_hat[t + 1] + rho_hat[t + 2] > rho_hat[t - 1] + rho_hat[t] {
            rho_hat[t + 1] = 0.5 * (rho_hat[t - 1] + rho_hat[t]);
            rho_hat[t + 2] = rho_hat[t + 1];
        }
        t += 2;
    }
    let total = n_chain * n_draw;
    let tau = -1.0 + 2.0 * rho_hat[..last].iter().sum::<f64>() + rho_hat[last];
    let tau = tau.max(1.0 / total.log10());
    if rho_hat.iter().any(|r| r.is_nan()) {
        f64::NAN
    } else {
        total / tau
    }
}

/// Biased (1/n) autocovariance at every lag, from a zero-padded real FFT.
struct Autocovariance {
    forward: Arc<dyn realfft::RealToComplex<f64>>,
    inverse: Arc<dyn realfft::ComplexToReal<f64>>,
    n: usize,
}

impl Autocovariance {
    fn new(n: usize) -> Self {
        let mut planner = RealFftPlanner::new();
        Self {
            forward: planner.plan_fft_forward(2 * n),
            inverse: planner.plan_fft_inverse(2 * n),
            n,
        }
    }

    fn compute(&self, x: &[f64]) -> Vec<f64> {
        let m = 2 * self.n;
        let mu = mean(x);
        let mut padded = vec![0.0; m];
        for (p, xi) in padded.iter_mut().zip(x) {
            *p = xi - mu;
        }
        let mut spectrum = vec![Complex::new(0.0, 0.0); m / 2 + 1];
        self.forward
            .process(&mut padded, &mut spectrum)
            .expect("FFT buffers sized by the plan");
        for c in &mut spectrum {
            *c = Complex::new(c.norm_sqr(), 0.0);
        }
        self.inverse
            .process(&mut spectrum, &mut padded)
            .expect("FFT buffers sized by the plan");
        padded.truncate(self.n);
        let scale = 1.0 / (m as f64 * self.n as f64);
        padded.iter_mut().for_each(|c| *c *= scale);
        padded
    }
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

/// Sample variance with the n − 1 denominator.
fn sample_var(x: &[f64]) -> f64 {
    let m = mean(x);
    x.iter().map(|xi| (xi - m).powi(2)).sum::<f64>() / (x.len() as f64 - 1.0)
}

/// Sample standard deviation with the n − 1 denominator.
pub(crate) fn sample_sd(x: &[f64]) -> f64 {
    sample_var(x).sqrt()
}

fn median(mut x: Vec<f64>) -> f64 {
    x.sort_by(f64::total_cmp);
    let n = x.len();
    if n % 2 == 1 {
        x[n / 2]
    } else {
        0.5 * (x[n / 2 - 1] + x[n / 2])
    }
}

/// Coefficients of Wichura's AS 241 (PPND16), highest power first, as printed in the paper:
/// numerator and denominator for |p − ½| ≤ 0.425, then for the tails with r = √(−ln p) ≤ 5 and
/// r > 5.
#[allow(clippy::excessive_precision)]
const AS241: [([f64; 8], [f64; 8]); 3] = [
    (
        [
            2509.0809287301226727,
            33430.575583588128105,
            67265.770927008700853,
            45921.953931549871457,
            13731.693765509461125,
            1971.5909503065514427,
            133.14166789178437745,
            3.387132872796366608,
        ],
        [
            5226.495278852545925,
            28729.085735721942674,
            39307.89580009271061,
            21213.794301586595867,
            5394.1960214247511077,
            687.1870074920579083,
            42.313330701600911252,
            1.0,
        ],
    ),
    (
        [
            7.7454501427834140764e-4,
            0.0227238449892691845833,
            0.24178072517745061177,
            1.27045825245236838258,
            3.64784832476320460504,
            5.7694972214606914055,
            4.6303378461565452959,
            1.42343711074968357734,
        ],
        [
            1.05075007164441684324e-9,
            5.475938084995344946e-4,
            0.0151986665636164571966,
            0.14810397642748007459,
            0.68976733498510000455,
            1.6763848301838038494,
            2.05319162663775882187,
            1.0,
        ],
    ),
    (
        [
            2.01033439929228813265e-7,
            2.71155556874348757815e-5,
            0.0012426609473880784386,
            0.026532189526576123093,
            0.29656057182850489123,
            1.7848265399172913358,
            5.4637849111641143699,
            6.6579046435011037772,
        ],
        [
            2.04426310338993978564e-15,
            1.4215117583164458887e-7,
            1.8463183175100546818e-5,
            7.868691311456132591e-4,
            0.0148753612908506148525,
            0.13692988092273580531,
            0.59983220655588793769,
            1.0,
        ],
    ),
];

/// Standard normal quantile Φ⁻¹(p), Wichura's algorithm AS 241 (PPND16, Applied Statistics
/// 37:477, 1988), relative accuracy ≈ 1e-16.
pub(crate) fn normal_quantile(p: f64) -> f64 {
    let ratio = |(num, den): &([f64; 8], [f64; 8]), r: f64| {
        let horner = |c: &[f64; 8]| c.iter().fold(0.0, |acc, &ci| acc * r + ci);
        horner(num) / horner(den)
    };
    let q = p - 0.5;
    if q.abs() <= 0.425 {
        return q * ratio(&AS241[0], 0.180625 - q * q);
    }
    let tail = if q < 0.0 { p } else { 1.0 - p };
    let r = (-tail.ln()).sqrt();
    let value = if r <= 5.0 {
        ratio(&AS241[1], r - 1.6)
    } else {
        ratio(&AS241[2], r - 5.0)
    };
    if q < 0.0 {
        -value
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantile_matches_scipy() {
        // scipy.stats.norm.ppf at these points.
        let cases = [
            (0.5, 0.0),
            (0.975, 1.959_963_984_540_054),
            (0.1, -1.281_551_565_544_600_4),
            (1e-10, -6.361_340_902_404_056),
            (1e-300, -37.047_096_299_361_2),
        ];
        for (p, z) in cases {
            let got = normal_quantile(p);
            assert!(
                (got - z).abs() <= 1e-14 * z.abs().max(1.0),
                "{p}: {got} vs {z}"
            );
        }
    }

    #[test]
    fn autocovariance_matches_direct_sum() {
        let x: Vec<f64> = (0..37).map(|i| ((i * 7919) % 101) as f64 / 17.0).collect();
        let fft = Autocovariance::new(x.len()).compute(&x);
        let m = mean(&x);
        for lag in [0, 1, 5, 36] {
            let direct: f64 = (0..x.len() - lag)
                .map(|t| (x[t] - m) * (x[t + lag] - m))
                .sum::<f64>()
                / x.len() as f64;
            assert!((fft[lag] - direct).abs() < 1e-12);
        }
    }

    #[test]
    fn invalid_inputs_give_nan() {
        let short = [vec![1.0, 2.0, 3.0]];
        assert!(ess_bulk(&short).is_nan());
        let one_chain = [vec![1.0, 2.0, 3.0, 4.0, 5.0]];
        assert!(rhat(&one_chain).is_nan());
        assert!(!ess_bulk(&one_chain).is_nan());
        let with_nan = [vec![1.0, f64::NAN, 3.0, 4.0], vec![1.0, 2.0, 3.0, 4.0]];
        assert!(rhat(&with_nan).is_nan());
    }
}
