//! An independence proposal from earlier draws of the posterior (docs/sampling.md §4.4): a
//! kernel density estimate on the unconstrained coordinates y, one Gaussian kernel per draw.
//!
//! The kernels share one covariance, h²Σ, with Σ the draws' covariance over the coordinates on
//! the real line and h Scott's factor N^(−1/(d+4)). A periodic coordinate gets a kernel of its
//! own, a normal of width h·s (s its circular spread) wrapped onto its period, so that the
//! density of a draw wrapped into one period is the sum over its images; wider than a third of
//! the period it is uniform instead. The density is exact for what [`DrawsProposal::draw`]
//! draws, which is all an independence Metropolis–Hastings move asks of it.

use faer::linalg::solvers::Llt;
use faer::{Mat, Side};
use rand::{Rng, RngCore};
use rand_distr::StandardNormal;
use std::f64::consts::{PI, TAU};

/// How a periodic coordinate's kernel spreads over its period.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Periodic {
    /// A normal of this width wrapped onto the period.
    Wrapped { period: f64, width: f64 },
    /// Uniform over the period.
    Uniform { period: f64 },
}

/// Images of a wrapped normal summed on each side of the offset reduced to within half a period:
/// the width is at most a third of the period, so the first image left out (±3 periods) lies at
/// least 2.5 periods, 7.5 widths, away.
const IMAGES: i32 = 2;

/// The most kernels: the density costs one exponential per kernel and coordinate, and more
/// draws than these are thinned evenly (their spread is still taken from all of them).
const MAX_KERNELS: usize = 128;

/// A kernel density estimate over the sampler's y from earlier draws.
#[derive(Debug, Clone)]
pub struct DrawsProposal {
    /// Indices of the coordinates on the real line, and of the periodic ones with their kernels.
    linear: Vec<usize>,
    periodic: Vec<(usize, Periodic)>,
    /// The draws' y.
    centres: Vec<Vec<f64>>,
    /// L with LLᵀ = h²Σ over the linear coordinates (row-major, lower triangle).
    factor: Vec<f64>,
    /// L⁻¹ y of each draw's linear coordinates.
    whitened: Vec<Vec<f64>>,
    /// ln of the Gaussian kernel's normalisation: −(m/2) ln 2π − ln det L.
    log_norm: f64,
}

impl DrawsProposal {
    /// The proposal of the draws `ys` (y vectors), where `periods[i]` is the period of a
    /// periodic coordinate i; `None` with fewer draws than twice the dimension or a singular
    /// spread.
    pub fn new(ys: Vec<Vec<f64>>, periods: &[Option<f64>]) -> Option<Self> {
        let n = ys.len();
        let d = periods.len();
        if n < 2 * d.max(1)
            || ys
                .iter()
                .any(|y| y.len() != d || y.iter().any(|v| !v.is_finite()))
        {
            return None;
        }
        let stride = n.div_ceil(MAX_KERNELS);
        let kernels = n.div_ceil(stride);
        let scott = (kernels as f64).powf(-1.0 / (d as f64 + 4.0));
        let linear: Vec<usize> = (0..d).filter(|&i| periods[i].is_none()).collect();
        let periodic = (0..d)
            .filter_map(|i| periods[i].map(|p| (i, p)))
            .map(|(i, period)| {
                // Circular spread: the mean resultant length R of the angles, s = √(−2 ln R).
                let (sin, cos) = ys.iter().fold((0.0, 0.0), |(s, c), y| {
                    let angle = TAU * y[i] / period;
                    (s + angle.sin(), c + angle.cos())
                });
                let resultant = (sin * sin + cos * cos).sqrt() / n as f64;
                let spread = (-2.0 * resultant.max(1e-300).ln()).sqrt() * period / TAU;
                let width = scott * spread;
                // All draws at one angle (no spread) get the uniform kernel too.
                let kernel = if width > 0.0 && width <= period / 3.0 {
                    Periodic::Wrapped { period, width }
                } else {
                    Periodic::Uniform { period }
                };
                (i, kernel)
            })
            .collect();
        let m = linear.len();
        let mean: Vec<f64> = linear
            .iter()
            .map(|&i| ys.iter().map(|y| y[i]).sum::<f64>() / n as f64)
            .collect();
        let covariance = Mat::from_fn(m, m, |a, b| {
            let (i, j) = (linear[a], linear[b]);
            let c = ys
                .iter()
                .map(|y| (y[i] - mean[a]) * (y[j] - mean[b]))
                .sum::<f64>()
                / (n - 1) as f64;
            scott * scott * c
        });
        let llt = Llt::new(covariance.as_ref(), Side::Lower).ok()?;
        let l = llt.L();
        let factor: Vec<f64> = (0..m * m).map(|k| l[(k / m, k % m)]).collect();
        let log_det: f64 = (0..m).map(|k| factor[k * m + k].ln()).sum();
        let mut proposal = Self {
            linear,
            periodic,
            centres: Vec::new(),
            factor,
            whitened: Vec::new(),
            log_norm: -0.5 * m as f64 * TAU.ln() - log_det,
        };
        proposal.centres = ys.into_iter().step_by(stride).collect();
        proposal.whitened = proposal
            .centres
            .iter()
            .map(|y| proposal.whiten(y))
            .collect();
        Some(proposal)
    }

    /// L⁻¹ of `y`'s linear coordinates (forward substitution).
    fn whiten(&self, y: &[f64]) -> Vec<f64> {
        let m = self.linear.len();
        let mut w = vec![0.0; m];
        for a in 0..m {
            let dot: f64 = (0..a).map(|b| self.factor[a * m + b] * w[b]).sum();
            w[a] = (y[self.linear[a]] - dot) / self.factor[a * m + a];
        }
        w
    }

    /// A draw: a draw's y moved by a kernel's noise, into `y` (periodic coordinates not
    /// wrapped: the density takes any copy).
    pub fn draw(&self, rng: &mut dyn RngCore, y: &mut [f64]) {
        let centre = &self.centres[rng.random_range(0..self.centres.len())];
        y.copy_from_slice(centre);
        let m = self.linear.len();
        let z: Vec<f64> = (0..m).map(|_| rng.sample(StandardNormal)).collect();
        for a in 0..m {
            let noise: f64 = (0..=a).map(|b| self.factor[a * m + b] * z[b]).sum();
            y[self.linear[a]] += noise;
        }
        for &(i, kernel) in &self.periodic {
            y[i] = match kernel {
                Periodic::Wrapped { width, .. } => {
                    centre[i] + width * rng.sample::<f64, _>(StandardNormal)
                }
                Periodic::Uniform { period } => centre[i] + period * rng.random::<f64>(),
            };
        }
    }

    /// ln of the proposal's density at `y` (any copy of its periodic coordinates).
    pub fn log_density(&self, y: &[f64]) -> f64 {
        let w = self.whiten(y);
        let terms: Vec<f64> = self
            .centres
            .iter()
            .zip(&self.whitened)
            .map(|(centre, wc)| {
                let distance: f64 = w.iter().zip(wc).map(|(a, b)| (a - b) * (a - b)).sum();
                let mut log = self.log_norm - 0.5 * distance;
                for &(i, kernel) in &self.periodic {
                    log += periodic_log_density(kernel, y[i] - centre[i]);
                }
                log
            })
            .collect();
        tdpe_likelihood::log_sum_exp::log_sum_exp(&terms) - (self.centres.len() as f64).ln()
    }
}

/// ln of a periodic kernel's density at the offset `delta` from its centre.
fn periodic_log_density(kernel: Periodic, delta: f64) -> f64 {
    match kernel {
        Periodic::Uniform { period } => -period.ln(),
        Periodic::Wrapped { period, width } => {
            let reduced = delta - period * (delta / period).round();
            let sum: f64 = (-IMAGES..=IMAGES)
                .map(|k| {
                    let u = (reduced + f64::from(k) * period) / width;
                    (-0.5 * u * u).exp()
                })
                .sum();
            sum.ln() - width.ln() - 0.5 * (2.0 * PI).ln()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Draws of a correlated pair and a periodic angle near its wrap.
    fn draws() -> Vec<Vec<f64>> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        (0..200)
            .map(|_| {
                let a: f64 = rng.sample(StandardNormal);
                let b: f64 = rng.sample(StandardNormal);
                let angle: f64 = 0.1 + 0.2 * rng.sample::<f64, _>(StandardNormal);
                vec![1.0 + a, 0.5 * a + 0.3 * b, angle.rem_euclid(1.0)]
            })
            .collect()
    }

    /// The density integrates to one over the linear coordinates and one period, and the
    /// histogram of its draws follows it.
    #[test]
    fn the_density_is_that_of_the_draws() {
        let proposal = DrawsProposal::new(draws(), &[None, None, Some(1.0)]).unwrap();
        // ∫ over a box holding the kernels, by the midpoint rule.
        let (n, lo, hi) = (60, [-4.0, -3.0, 0.0], [6.0, 4.0, 1.0]);
        let cell: f64 = (0..3).map(|k| (hi[k] - lo[k]) / n as f64).product();
        let mut total = 0.0;
        let mut y = [0.0; 3];
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    for (c, idx) in [i, j, k].into_iter().enumerate() {
                        y[c] = lo[c] + (idx as f64 + 0.5) * (hi[c] - lo[c]) / n as f64;
                    }
                    total += proposal.log_density(&y).exp() * cell;
                }
            }
        }
        assert!((total - 1.0).abs() < 2e-3, "{total}");
        // The wrapped coordinate: any copy gives the same density.
        let here = [1.0, 0.4, 0.95];
        let copy = [1.0, 0.4, -0.05];
        assert!((proposal.log_density(&here) - proposal.log_density(&copy)).abs() < 1e-12);
        // Draws fall in a box as often as the density says.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let inside = |y: &[f64]| {
            (0.5..1.5).contains(&y[0]) && (0.0..0.6).contains(&y[1]) && {
                let a = y[2].rem_euclid(1.0);
                !(0.2..0.9).contains(&a)
            }
        };
        let trials = 40000;
        let mut hits = 0;
        let mut y = [0.0; 3];
        for _ in 0..trials {
            proposal.draw(&mut rng, &mut y);
            hits += usize::from(inside(&y));
        }
        let mut expected = 0.0;
        let m = 40;
        for i in 0..m {
            for j in 0..m {
                for k in 0..m {
                    let p = [
                        0.5 + (i as f64 + 0.5) / m as f64,
                        0.6 * (j as f64 + 0.5) / m as f64,
                        (k as f64 + 0.5) / m as f64,
                    ];
                    if inside(&p) {
                        expected += proposal.log_density(&p).exp() * 0.6 / (m * m * m) as f64;
                    }
                }
            }
        }
        let observed = hits as f64 / trials as f64;
        assert!(
            (observed - expected).abs() < 0.01,
            "{observed} vs {expected}"
        );
        assert!(expected > 0.05, "a box the draws miss tests nothing");
    }
}
