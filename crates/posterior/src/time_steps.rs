//! The likelihood summed over a window of whole-sample time steps (docs/sampling.md §5.6).
//!
//! A weak signal's likelihood along geocent_time is a comb of narrow teeth, one per cycle of
//! the waveform; a gradient kernel must resolve each tooth and rarely crosses between them. With
//! an auxiliary whole number j ∈ {0, …, n − 1} and t_c = s + j·dt, sample the joint density
//! κ_j(s) p(s + j dt) of (s, j), where the weights satisfy Σ_j κ_j(t − j dt) = 1 for every t_c
//! = t the prior allows: summed over j, it has the marginal p(t) in t_c (each t is reached from
//! the pairs (t − j dt, j), the Jacobian is one). So sampling
//!
//!   p̃(s) = Σ_j κ_j(s) p(s + j dt)
//!
//! and then drawing j from its conditional ∝ κ_j(s) p(s + j dt) is exact. Over a window of
//! about a cycle of the signal the sum fills the gaps between the teeth, and p̃ is as smooth in
//! s as the comb's envelope.
//!
//! Inside the prior every κ_j = 1/n. Near the edges of a bounded time prior (a, b) a step
//! j ≥ 1 would carry p across an edge, where p jumps, and the jump would reach p̃: a
//! discontinuity in the density, which the step-size adaptation of a gradient kernel answers
//! with ever smaller steps. So κ_j(s) = λ_j(s + j dt), with λ_j(t) = ρ_j(t)/Σ_i ρ_i(t) and
//! raw weights ρ_j(t) = R((t − a)/w − j·dt/w) R((b − t)/w − (j − 1)·dt/w) (the second factor 1
//! for j = 0), R a C² ramp from 0 to 1 over [0, 1], w = n·dt: a step j ≥ 1 fades out before its
//! start s = t − j dt leaves (a, ·) and before t reaches b, so s keeps the prior's support and
//! p̃ is continuous with a continuous gradient. The weights λ_j(t) sum to one for every t in
//! (a, b), which is all that exactness asks.
//!
//! For tempering the density splits into the prior of s, π_s(s) = Σ_j κ_j(s) π(s + j dt), and
//! the likelihood L̃(s) = Σ_j w_j L(s + j dt) with the prior's weights
//! w_j = κ_j(s) π(s + j dt) / π_s(s).

use tdpe_likelihood::log_sum_exp::log_sum_exp;

use crate::prior::Distribution;

/// The window of whole-sample time steps the likelihood is summed over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeSteps {
    /// The number of steps n (≥ 2).
    pub steps: usize,
    /// The time lattice's spacing dt (s).
    pub dt: f64,
    /// The time prior's support (a, b); an infinite bound has no ramp.
    pub support: (f64, f64),
}

/// ln κ_j(s) + ln π(s + j dt) of every step, with its s-derivative.
struct StepTerms {
    log_terms: Vec<f64>,
    slopes: Vec<f64>,
}

/// R(x) = 6x⁵ − 15x⁴ + 10x³ on [0, 1] (0 below, 1 above), and its derivative.
fn ramp(x: f64) -> (f64, f64) {
    if x <= 0.0 {
        (0.0, 0.0)
    } else if x >= 1.0 {
        (1.0, 0.0)
    } else {
        let x2 = x * x;
        (
            x2 * x * (10.0 + x * (6.0 * x - 15.0)),
            30.0 * x2 * (x - 1.0) * (x - 1.0),
        )
    }
}

impl TimeSteps {
    /// The times s + j·dt of the steps.
    pub fn times(&self, s: f64) -> impl Iterator<Item = f64> + '_ {
        (0..self.steps).map(move |j| s + j as f64 * self.dt)
    }

    /// The ramps' width w = n·dt.
    fn ramp_width(&self) -> f64 {
        self.steps as f64 * self.dt
    }

    /// ρ_j(t) and dρ_j/dt (module docs).
    fn raw_weight(&self, j: usize, t: f64) -> (f64, f64) {
        let (a, b) = self.support;
        let w = self.ramp_width();
        let offset = j as f64 * self.dt;
        let (lower, d_lower) = if a.is_finite() {
            ramp((t - a - offset) / w)
        } else {
            (1.0, 0.0)
        };
        let (upper, d_upper) = if j > 0 && b.is_finite() {
            ramp((b - t - offset + self.dt) / w)
        } else {
            (1.0, 0.0)
        };
        (lower * upper, (d_lower * upper - lower * d_upper) / w)
    }

    /// Whether every ramp is 1 at t, so that the steps share t equally.
    fn ramps_flat_at(&self, t: f64) -> bool {
        let (a, b) = self.support;
        let reach = (2 * self.steps) as f64 * self.dt;
        t - a > reach && b - t > reach
    }

    /// Whether every step of the window starting at s has the share 1/n.
    fn interior(&self, s: f64) -> bool {
        self.ramps_flat_at(s) && self.ramps_flat_at(s + (self.steps - 1) as f64 * self.dt)
    }

    /// ln λ_j(t) and its t-derivative (−∞ and 0 where λ_j(t) = 0).
    pub(crate) fn log_share(&self, j: usize, t: f64) -> (f64, f64) {
        if self.ramps_flat_at(t) {
            return (-(self.steps as f64).ln(), 0.0);
        }
        let (mut total, mut d_total) = (0.0, 0.0);
        for i in 0..self.steps {
            let (r, d) = self.raw_weight(i, t);
            total += r;
            d_total += d;
        }
        let (r, d) = self.raw_weight(j, t);
        if r > 0.0 && total > 0.0 {
            ((r / total).ln(), d / r - d_total / total)
        } else {
            (f64::NEG_INFINITY, 0.0)
        }
    }

    /// ln κ_j(s) + ln π(s + j dt) of each step and its s-derivative.
    fn step_terms(&self, prior: &Distribution, s: f64) -> StepTerms {
        if let (true, Distribution::Uniform { minimum, maximum }) = (self.interior(s), prior) {
            // Equal shares of a flat prior (the common case, without a logarithm per step).
            let value = -(self.steps as f64).ln() - (maximum - minimum).ln();
            return StepTerms {
                log_terms: vec![value; self.steps],
                slopes: vec![0.0; self.steps],
            };
        }
        let mut log_terms = Vec::with_capacity(self.steps);
        let mut slopes = Vec::with_capacity(self.steps);
        for (j, t) in self.times(s).enumerate() {
            let (share, d_share) = self.log_share(j, t);
            let log_density = prior.ln_pdf(t);
            if share.is_finite() && log_density.is_finite() {
                log_terms.push(share + log_density);
                slopes.push(d_share + prior.d_ln_pdf(t));
            } else {
                log_terms.push(f64::NEG_INFINITY);
                slopes.push(0.0);
            }
        }
        StepTerms { log_terms, slopes }
    }

    /// ln π_s(s) = ln Σ_j κ_j(s) π(s + j dt) and its s-derivative, for the time prior `prior`.
    pub fn log_prior(&self, prior: &Distribution, s: f64) -> (f64, f64) {
        let terms = self.step_terms(prior, s);
        let value = log_sum_exp(&terms.log_terms);
        if !value.is_finite() {
            return (value, 0.0);
        }
        let slope = terms
            .log_terms
            .iter()
            .zip(&terms.slopes)
            .map(|(l, d)| (l - value).exp() * d)
            .sum();
        (value, slope)
    }

    /// The prior's weights ln w_j = ln κ_j(s) + ln π(s + j dt) − ln π_s(s) of each step (−∞
    /// where a step has none), and d(ln κ_j + ln π(s + j dt))/ds.
    pub fn log_weights(&self, prior: &Distribution, s: f64) -> (Vec<f64>, Vec<f64>) {
        let StepTerms { log_terms, slopes } = self.step_terms(prior, s);
        let norm = log_sum_exp(&log_terms);
        if !norm.is_finite() {
            return (vec![f64::NEG_INFINITY; log_terms.len()], slopes);
        }
        (log_terms.iter().map(|l| l - norm).collect(), slopes)
    }

    /// The windows starting at s_m = s + m·dt, m = 0 … len − n, over the terms ln p(s + i·dt) =
    /// `values[i]` (the prior's and the likelihood's): [ln π_s(s_m), ln p̃(s_m)] with
    /// p̃(s_m) = Σ_j κ_j(s_m) e^(values[m + j]), for the time prior `prior` (empty if there are
    /// fewer than n values).
    pub fn windows(&self, prior: &Distribution, s: f64, values: &[f64]) -> Vec<[f64; 2]> {
        let n = self.steps;
        if values.len() < n {
            return Vec::new();
        }
        let time = |i: usize| s + i as f64 * self.dt;
        let peak = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // Prefix sums relative to the largest term for the windows of equal shares; a window
        // near the prior's edges, or too small for them to resolve (far below the largest,
        // where its weight in a draw is nil), is summed on its own, with the shares of its
        // steps from the sums of the raw weights at every time of the lattice.
        let mut prefix = Vec::with_capacity(values.len() + 1);
        prefix.push(0.0);
        for v in values {
            prefix.push(prefix.last().unwrap_or(&0.0) + (v - peak).exp());
        }
        let totals: Vec<f64> = (0..values.len())
            .map(|i| (0..n).map(|j| self.raw_weight(j, time(i)).0).sum())
            .collect();
        let log_n = (n as f64).ln();
        (0..=values.len() - n)
            .map(|m| {
                let sum = prefix[m + n] - prefix[m];
                if self.interior(time(m)) && peak.is_finite() && sum > 1e-9 * prefix[values.len()] {
                    let log_prior = self.log_prior(prior, time(m)).0;
                    return [log_prior, peak + sum.ln() - log_n];
                }
                let shares: Vec<f64> = (0..n)
                    .map(|j| {
                        let i = m + j;
                        let raw = self.raw_weight(j, time(i)).0;
                        if raw > 0.0 && totals[i] > 0.0 {
                            (raw / totals[i]).ln()
                        } else {
                            f64::NEG_INFINITY
                        }
                    })
                    .collect();
                let with = |terms: &dyn Fn(usize) -> f64| {
                    let logs: Vec<f64> = (0..n).map(|j| shares[j] + terms(m + j)).collect();
                    log_sum_exp(&logs)
                };
                [with(&|i| prior.ln_pdf(time(i))), with(&|i| values[i])]
            })
            .collect()
    }
}

/// The index i drawn with probability `weights[i]` (weights summing to one) for a uniform
/// `u` in [0, 1): the first whose cumulative weight exceeds u, or the last positive one where
/// rounding leaves the sum short of u; `None` without a positive weight.
pub(crate) fn draw_index(weights: impl IntoIterator<Item = f64>, u: f64) -> Option<usize> {
    let mut cumulative = 0.0;
    let mut last_positive = None;
    for (i, w) in weights.into_iter().enumerate() {
        if w > 0.0 {
            last_positive = Some(i);
        }
        cumulative += w;
        if cumulative > u && w > 0.0 {
            return Some(i);
        }
    }
    last_positive
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_index_follows_the_cumulative_weights() {
        let weights = [0.25, 0.0, 0.5, 0.25, 0.0];
        assert_eq!(draw_index(weights, 0.0), Some(0));
        assert_eq!(draw_index(weights, 0.3), Some(2));
        assert_eq!(draw_index(weights, 0.75), Some(3));
        // Rounding that leaves the sum short of u gives the last positive weight.
        assert_eq!(draw_index([0.5, 0.4999999, 0.0], 0.99999999), Some(1));
        assert_eq!(draw_index([0.0, 0.0], 0.5), None);
    }

    const STEPS: TimeSteps = TimeSteps {
        steps: 5,
        dt: 0.01,
        support: (0.0, 1.0),
    };

    /// Every t in the support is covered once: Σ_j κ_j(t − j dt) = 1, with κ_j zero where its
    /// start leaves the support; and the shares are continuous at the edges.
    #[test]
    fn the_shares_of_every_time_sum_to_one() {
        for k in 0..=2000 {
            let t = 1e-9 + k as f64 * (1.0 - 2e-9) / 2000.0;
            let total: f64 = (0..STEPS.steps)
                .map(|j| STEPS.log_share(j, t).0.exp())
                .sum();
            assert!((total - 1.0).abs() < 1e-12, "{t}: {total}");
            for j in 1..STEPS.steps {
                if t - j as f64 * STEPS.dt <= 0.0 {
                    assert_eq!(STEPS.log_share(j, t).0, f64::NEG_INFINITY, "{j} at {t}");
                }
            }
        }
        // Near the upper edge the later steps fade out, continuously.
        for j in 1..STEPS.steps {
            let near = STEPS.log_share(j, 1.0 - 1e-7).0.exp();
            assert!(near < 1e-12, "{j}: {near}");
        }
    }

    #[test]
    fn the_prior_of_s_and_its_slope() {
        let uniform = Distribution::Uniform {
            minimum: 0.0,
            maximum: 1.0,
        };
        let gaussian = Distribution::Gaussian {
            mu: 0.1,
            sigma: 0.05,
        };
        let unbounded = TimeSteps {
            support: (f64::NEG_INFINITY, f64::INFINITY),
            ..STEPS
        };
        for (steps, prior, s) in [
            (unbounded, &gaussian, 0.07),
            (STEPS, &uniform, 0.5),
            (STEPS, &uniform, 0.013),
            (STEPS, &uniform, 0.981),
        ] {
            let (value, slope) = steps.log_prior(prior, s);
            let direct = |s: f64| {
                let terms = steps.step_terms(prior, s);
                log_sum_exp(&terms.log_terms)
            };
            assert!((value - direct(s)).abs() < 1e-12);
            let h = 1e-7;
            let numeric = (direct(s + h) - direct(s - h)) / (2.0 * h);
            assert!((slope - numeric).abs() < 1e-5, "{s}: {slope} vs {numeric}");
        }
        // Inside a uniform prior: π_s = π, flat.
        let (inside, slope) = STEPS.log_prior(&uniform, 0.5);
        assert!(inside.abs() < 1e-12 && slope == 0.0);
        // Near its edge the shares move, and so does π_s.
        let (_, edge_slope) = STEPS.log_prior(&uniform, 0.013);
        assert!(edge_slope.abs() > 1.0, "{edge_slope}");
    }

    #[test]
    fn windows_sum_the_steps_with_their_shares() {
        let uniform = Distribution::Uniform {
            minimum: 0.0,
            maximum: 1.0,
        };
        let values = [1.0, -3.0, 700.0, 2.0, -800.0, 0.5, -1000.0, -1000.5, 3.0];
        for s in [0.4, 0.005, 0.93] {
            let windows = STEPS.windows(&uniform, s, &values);
            assert_eq!(windows.len(), values.len() - 4);
            for (m, [prior, w]) in windows.iter().enumerate() {
                let start = s + m as f64 * STEPS.dt;
                let terms: Vec<f64> = (0..5)
                    .map(|j| STEPS.log_share(j, start + j as f64 * STEPS.dt).0 + values[m + j])
                    .collect();
                let direct = log_sum_exp(&terms);
                assert!((w - direct).abs() < 1e-12, "{s}, {m}: {w} vs {direct}");
                let expected = STEPS.log_prior(&uniform, start).0;
                assert!(
                    (prior - expected).abs() < 1e-12,
                    "{s}, {m}: {prior} vs {expected}"
                );
            }
        }
        assert!(STEPS.windows(&uniform, 0.4, &values[..4]).is_empty());
    }
}
