//! The sampler's coordinates: a Laplace approximation of the posterior at its mode, used as the
//! affine map y = c + A x so that x is roughly N(0, I) before the warm-up starts
//! (docs/sampling.md §6).
//!
//! The fiducial point (the injection, or the maximum-likelihood point) is not the posterior mode:
//! with noise it can even be a saddle of ln p, and in the flat directions of the likelihood (the
//! polarisation–phase combination of a nearly face-on binary) the Hessian is nearly singular. So
//! the mode is found first by Newton steps from the fiducial, each with the curvature
//! M = −H + diag(1/w²), where w are the prior widths of the y coordinates (the posterior is never
//! wider than the prior), damped Levenberg–Marquardt style (Nocedal & Wright, "Numerical
//! Optimization", §10.3) until the step increases ln p. At the mode, A = R⁻ᵀ with M = R Rᵀ.

use faer::linalg::solvers::{Llt, Solve};
use faer::linalg::triangular_solve::solve_upper_triangular_in_place;
use faer::{Mat, Par, Side};
use tdpe_mcmc::LogDensity;
use tdpe_signal::{ParameterVector, SpinModel};

use crate::affine::Affine;
use crate::streams::Stream;
use crate::{BbhLikelihood, Posterior, PosteriorError};

/// Step of the central differences of the gradient that give the Hessian, in y units.
const HESSIAN_STEP: f64 = 1e-4;
/// Newton iterations at most.
const MAX_NEWTON_STEPS: usize = 40;
/// Stop when half the squared Newton decrement, the predicted gain in ln p, is below this.
const GAIN_TOLERANCE: f64 = 1e-3;
/// Damping increases tried per Newton step.
const MAX_DAMPING_TRIES: usize = 20;
/// Prior draws that give the prior widths bounding the Laplace map.
const PRIOR_WIDTH_DRAWS: usize = 4000;

impl<L: BbhLikelihood> Posterior<L> {
    /// Standardises the posterior by the Laplace approximation at its mode, found by Newton
    /// steps from `fiducial` ([`laplace_at_mode`], bounded by the prior widths, drawn from the
    /// [`Stream::PriorWidths`] stream of `seed`); returns the number of Newton steps.
    pub fn standardize_at_mode(
        &mut self,
        fiducial: &ParameterVector,
        seed: u64,
    ) -> Result<usize, PosteriorError> {
        // A fiducial on a prior's bound (an injection at q = 1, say) is infinitely far in x.
        let start = self.priors().interior(fiducial);
        let center = self.to_y(&start);
        let dim = center.len();
        self.standardize(Affine::diagonal(center.clone(), &vec![1.0; dim]));
        let x0 = self.to_x(&start);
        let mut g0 = vec![0.0; x0.len()];
        if !self.log_density_and_gradient(&x0, &mut g0).is_finite() {
            let parameters = self.priors().spin_model.parameters();
            return Err(PosteriorError::ZeroAtFiducial {
                theta: parameters.iter().map(|&p| fiducial[p]).collect(),
            });
        }
        let prior_widths = self.prior_widths(PRIOR_WIDTH_DRAWS, &mut Stream::PriorWidths.rng(seed));
        let (affine, newton_steps) = laplace_at_mode(self, &center, &prior_widths);
        self.standardize(affine.clone());
        // A precessing posterior falls off far faster than its Hessian says along some axes
        // (docs/precession.md §12.8).
        if self.priors().spin_model == SpinModel::Precessing {
            let narrowed = narrowed_to_walls(self, affine);
            self.standardize(narrowed);
            self.use_image_chart();
        }
        Ok(newton_steps)
    }
}

/// The mode of `target` near x = 0 and the Laplace map there.
///
/// `target` must be standardised with A = I at `center` (so x = y − c) and finite at x = 0;
/// `prior_widths` are the prior's standard deviations of the y coordinates. Returns the affine
/// map centred at the mode found and the number of Newton steps taken.
pub fn laplace_at_mode<T: LogDensity>(
    target: &T,
    center: &[f64],
    prior_widths: &[f64],
) -> (Affine, usize) {
    let n = target.dim();
    let prior_precision: Vec<f64> = prior_widths
        .iter()
        .map(|w| {
            if *w > 0.0 && w.is_finite() {
                1.0 / (w * w)
            } else {
                1.0
            }
        })
        .collect();
    let mut x = vec![0.0; n];
    let mut gradient = vec![0.0; n];
    let mut value = target.log_density_and_gradient(&x, &mut gradient);
    let mut steps = 0;
    let mut factor = None;
    while let Some(curvature) = regularised_curvature(target, &x, &prior_precision) {
        let Some((r, mu)) = damped_cholesky(&curvature, n, 0.0) else {
            break;
        };
        factor = Some(r.clone());
        if steps == MAX_NEWTON_STEPS {
            break;
        }
        // Damped Newton step: M(μ) s = ∇ ln p, with μ raised until ln p increases.
        let mut accepted = false;
        let mut damping = mu;
        for _ in 0..MAX_DAMPING_TRIES {
            let Some((r_damped, used)) = damped_cholesky(&curvature, n, damping) else {
                break;
            };
            let step = solve(&r_damped, &gradient);
            let gain: f64 = step.iter().zip(&gradient).map(|(s, g)| s * g).sum::<f64>() / 2.0;
            if gain < GAIN_TOLERANCE && used == 0.0 {
                return (affine_from_factor(center, &x, &r), steps);
            }
            let trial: Vec<f64> = x.iter().zip(&step).map(|(a, b)| a + b).collect();
            let mut trial_gradient = vec![0.0; n];
            let trial_value = target.log_density_and_gradient(&trial, &mut trial_gradient);
            if trial_value.is_finite() && trial_value > value {
                (x, gradient, value) = (trial, trial_gradient, trial_value);
                accepted = true;
                break;
            }
            damping = (used * 10.0).max(1e-2);
        }
        steps += 1;
        if !accepted {
            break;
        }
    }
    match factor {
        Some(r) => (affine_from_factor(center, &x, &r), steps),
        // No positive-definite curvature anywhere: the prior widths alone.
        None => {
            let c: Vec<f64> = center.iter().zip(&x).map(|(c, x)| c + x).collect();
            let widths: Vec<f64> = prior_precision.iter().map(|p| 1.0 / p.sqrt()).collect();
            (Affine::diagonal(c, &widths), steps)
        }
    }
}

/// Half-width (in x) of the probes of [`narrowed_to_walls`].
const WALL_PROBE: f64 = 0.5;

/// `affine` with each axis of x narrowed where ln p falls, over ±[`WALL_PROBE`] from the mode,
/// by more than twice what the unit Gaussian of the Laplace map predicts: to the width of the
/// Gaussian that falls as much there (a secant curvature, which sees a quartic wall that the
/// Hessian at the mode misses). `target` must be standardised with `affine`.
fn narrowed_to_walls<T: LogDensity>(target: &T, affine: Affine) -> Affine {
    let n = affine.dim();
    let origin = vec![0.0; n];
    let at_mode = target.log_density(&origin);
    let gaussian_fall = 0.5 * WALL_PROBE * WALL_PROBE;
    let scales: Vec<f64> = (0..n)
        .map(|i| {
            let probe = |sign: f64| {
                let mut x = origin.clone();
                x[i] = sign * WALL_PROBE;
                target.log_density(&x)
            };
            let fall = at_mode - 0.5 * (probe(1.0) + probe(-1.0));
            if fall.is_finite() && fall > 2.0 * gaussian_fall {
                WALL_PROBE / (2.0 * fall).sqrt()
            } else {
                1.0
            }
        })
        .collect();
    let mut narrowed = affine;
    for (k, (a, inverse)) in narrowed
        .matrix
        .iter_mut()
        .zip(narrowed.inverse.iter_mut())
        .enumerate()
    {
        // A diag(s), and diag(1/s) A⁻¹.
        *a *= scales[k % n];
        *inverse /= scales[k / n];
    }
    narrowed.log_det += scales.iter().map(|s| s.ln()).sum::<f64>();
    narrowed
}

/// M = −H + diag(prior precision), H the symmetrised central-difference Hessian of ln p at `x`
/// (`None` where ln p or its gradient is not finite).
fn regularised_curvature<T: LogDensity>(
    target: &T,
    x: &[f64],
    prior_precision: &[f64],
) -> Option<Vec<f64>> {
    let n = x.len();
    let mut hessian = vec![0.0; n * n];
    let (mut plus, mut minus) = (vec![0.0; n], vec![0.0; n]);
    for i in 0..n {
        let mut probe = x.to_vec();
        probe[i] = x[i] + HESSIAN_STEP;
        let finite_plus = target
            .log_density_and_gradient(&probe, &mut plus)
            .is_finite();
        probe[i] = x[i] - HESSIAN_STEP;
        let finite_minus = target
            .log_density_and_gradient(&probe, &mut minus)
            .is_finite();
        if !(finite_plus && finite_minus) {
            return None;
        }
        for j in 0..n {
            hessian[i * n + j] = (plus[j] - minus[j]) / (2.0 * HESSIAN_STEP);
        }
    }
    let curvature: Vec<f64> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            let m = -0.5 * (hessian[i * n + j] + hessian[j * n + i]);
            if i == j {
                m + prior_precision[i]
            } else {
                m
            }
        })
        .collect();
    curvature.iter().all(|v| v.is_finite()).then_some(curvature)
}

/// The Cholesky factorisation of M + μ diag(|M_ii|) for the smallest μ ≥ `damping` (raised
/// tenfold from 1e-3) at which it is positive definite, with that μ.
fn damped_cholesky(m: &[f64], n: usize, damping: f64) -> Option<(Llt<f64>, f64)> {
    let mut mu = damping;
    for _ in 0..MAX_DAMPING_TRIES {
        let damped = Mat::<f64>::from_fn(n, n, |i, j| {
            let k = i * n + j;
            if i == j {
                m[k] + mu * m[k].abs()
            } else {
                m[k]
            }
        });
        if let Ok(factor) = damped.llt(Side::Lower) {
            return Some((factor, mu));
        }
        mu = (mu * 10.0).max(1e-3);
    }
    None
}

/// A = R⁻ᵀ (so A Aᵀ = M⁻¹, with M = R Rᵀ) centred at y = c + x.
fn affine_from_factor(center: &[f64], x: &[f64], factor: &Llt<f64>) -> Affine {
    let n = x.len();
    let r = factor.L();
    let mut a = Mat::<f64>::identity(n, n);
    solve_upper_triangular_in_place(r.transpose(), a.as_mut(), Par::Seq);
    let row_major =
        |m: faer::MatRef<'_, f64>| -> Vec<f64> { (0..n * n).map(|k| m[(k / n, k % n)]).collect() };
    Affine {
        center: center.iter().zip(x).map(|(c, x)| c + x).collect(),
        matrix: row_major(a.as_ref()),
        inverse: row_major(r.transpose()),
        log_det: -(0..n).map(|i| r[(i, i)].ln()).sum::<f64>(),
    }
}

/// s with R Rᵀ s = b.
fn solve(factor: &Llt<f64>, b: &[f64]) -> Vec<f64> {
    let mut s = Mat::<f64>::from_fn(b.len(), 1, |i, _| b[i]);
    factor.solve_in_place(s.as_mut());
    (0..b.len()).map(|i| s[(i, 0)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use tdpe_mcmc::Space;

    /// ln p = −½ (x − μ)ᵀ Q (x − μ) − ¼ x₀⁴ (a quartic term makes x = 0 far from Gaussian).
    struct Quartic {
        mu: [f64; 3],
        q: [[f64; 3]; 3],
    }

    impl Space for Quartic {
        fn dim(&self) -> usize {
            3
        }
    }

    impl LogDensity for Quartic {
        fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
            let d: Vec<f64> = (0..3).map(|i| x[i] - self.mu[i]).collect();
            let mut value = -0.25 * x[0].powi(4);
            for i in 0..3 {
                grad[i] = -(0..3).map(|j| self.q[i][j] * d[j]).sum::<f64>();
                value += 0.5 * d[i] * grad[i];
            }
            grad[0] -= x[0].powi(3);
            value
        }
    }

    #[test]
    fn finds_the_mode_and_its_curvature() {
        let target = Quartic {
            mu: [0.5, -2.0, 3.0],
            q: [[4.0, 1.0, 0.0], [1.0, 2.0, 0.5], [0.0, 0.5, 1e4]],
        };
        let center = [10.0, 20.0, 30.0];
        let widths = [1e6; 3];
        let (affine, steps) = laplace_at_mode(&target, &center, &widths);
        assert!(steps >= 2, "{steps}");
        // Mode: the predicted gain of one more Newton step, ½ gᵀM⁻¹g = ½|Aᵀg|², is below the
        // tolerance.
        let x: Vec<f64> = (0..3).map(|i| affine.center[i] - center[i]).collect();
        let mut g = [0.0; 3];
        target.log_density_and_gradient(&x, &mut g);
        let gain: f64 = (0..3)
            .map(|j| {
                (0..3)
                    .map(|i| affine.matrix[i * 3 + j] * g[i])
                    .sum::<f64>()
                    .powi(2)
            })
            .sum::<f64>()
            / 2.0;
        assert!(gain < GAIN_TOLERANCE, "{gain}: {g:?} at {x:?}");
        // A Aᵀ = (−H)⁻¹: Aᵀ(−H)A = I.
        let mut h = [[0.0; 3]; 3];
        for (i, row) in h.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = target.q[i][j] + if i + j == 0 { 3.0 * x[0].powi(2) } else { 0.0 };
            }
        }
        for i in 0..3 {
            for j in 0..3 {
                let v: f64 = (0..3)
                    .flat_map(|k| (0..3).map(move |l| (k, l)))
                    .map(|(k, l)| affine.matrix[k * 3 + i] * h[k][l] * affine.matrix[l * 3 + j])
                    .sum();
                let expected = if i == j { 1.0 } else { 0.0 };
                assert!((v - expected).abs() < 1e-4, "{i}{j}: {v}");
            }
        }
    }

    /// A direction the density does not constrain gets the prior's width, not infinity.
    #[test]
    fn flat_directions_take_the_prior_width() {
        struct Ridge;
        impl Space for Ridge {
            fn dim(&self) -> usize {
                2
            }
        }

        impl LogDensity for Ridge {
            fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
                let u = x[0] + x[1];
                grad[0] = -100.0 * u;
                grad[1] = -100.0 * u;
                -50.0 * u * u
            }
        }
        let (affine, _) = laplace_at_mode(&Ridge, &[0.0, 0.0], &[2.0, 2.0]);
        // Variance along (1, −1)/√2 is the prior's 4; along (1, 1)/√2 about 1/200.
        let cov = |i: usize, j: usize| {
            (0..2)
                .map(|k| affine.matrix[i * 2 + k] * affine.matrix[j * 2 + k])
                .sum::<f64>()
        };
        let along = 0.5 * (cov(0, 0) + cov(1, 1) - 2.0 * cov(0, 1));
        let across = 0.5 * (cov(0, 0) + cov(1, 1) + 2.0 * cov(0, 1));
        assert!((along - 4.0).abs() < 1e-6, "{along}");
        assert!((across - 1.0 / 200.25).abs() < 1e-5, "{across}");
    }

    /// ln p = −½ x₀² − 50 x₁⁴ standardised by `affine` (x = A⁻¹ y with y the density's
    /// argument and c = 0).
    struct Walled(Affine);

    impl Space for Walled {
        fn dim(&self) -> usize {
            2
        }
    }

    impl LogDensity for Walled {
        fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
            let y = self.0.y(x);
            let dy = [-y[0], -200.0 * y[1].powi(3)];
            for (j, g) in grad.iter_mut().enumerate() {
                *g = (0..2).map(|i| self.0.matrix[i * 2 + j] * dy[i]).sum();
            }
            -0.5 * y[0] * y[0] - 50.0 * y[1].powi(4)
        }
    }

    /// The quartic axis, flat at the mode (Hessian zero), is narrowed to the width of the
    /// Gaussian that falls as much at the probe; the Gaussian axis stays.
    #[test]
    fn quartic_walls_narrow_their_axis() {
        let unit = Affine::diagonal(vec![0.0; 2], &[1.0, 1.0]);
        let narrowed = narrowed_to_walls(&Walled(unit.clone()), unit);
        let fall = 50.0 * WALL_PROBE.powi(4);
        assert_eq!(narrowed.matrix[0], 1.0);
        let expected = WALL_PROBE / (2.0 * fall).sqrt();
        assert!(
            (narrowed.matrix[3] - expected).abs() < 1e-12,
            "{:?}",
            narrowed.matrix
        );
        assert!((narrowed.inverse[3] * narrowed.matrix[3] - 1.0).abs() < 1e-12);
        assert!((narrowed.log_det - expected.ln()).abs() < 1e-12);
    }
}
