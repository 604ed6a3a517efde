//! Hamiltonian dynamics shared by every kernel: phase-space states, the leapfrog integrator, the
//! energy and the Metropolis correction (Betancourt 2017, arXiv:1701.02434, §§4–5).

use rand::Rng;

use crate::checkpoint::{Persist, Reader, Writer};
use crate::mass_matrix::{dot, Metric};
use crate::target::{LikelihoodTerm, LogDensity};
use crate::McmcError;

/// An energy error above this marks a divergent trajectory (Stan's `max_deltaH`).
pub const MAX_ENERGY_ERROR: f64 = 1000.0;

/// A position with its log density and gradient.
///
/// A point outside the support (non-finite density, gradient or likelihood term) carries
/// `log_density = -inf`.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Position x on the unconstrained space.
    pub x: Vec<f64>,
    /// ∇ ln p(x).
    pub grad: Vec<f64>,
    /// ln p(x), or `-inf` outside the support.
    pub log_density: f64,
    /// ln L(x) and ∇ ln L(x) when the target is tempered
    /// ([`LogDensity::log_density_gradient_and_likelihood`]); `None` otherwise.
    pub likelihood: Option<LikelihoodTerm>,
}

impl Persist for Point {
    fn write(&self, w: &mut Writer) {
        w.put(&self.x);
        w.put(&self.grad);
        w.put(&self.log_density);
        w.put(&self.likelihood);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(Self {
            x: r.get()?,
            grad: r.get()?,
            log_density: r.get()?,
            likelihood: r.get()?,
        })
    }
}

impl Persist for LikelihoodTerm {
    fn write(&self, w: &mut Writer) {
        w.put(&self.log_likelihood);
        w.put(&self.gradient);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(Self {
            log_likelihood: r.get()?,
            gradient: r.get()?,
        })
    }
}

/// A phase-space state: a point, its momentum p and velocity v = M⁻¹ p.
#[derive(Debug, Clone)]
pub(crate) struct State {
    pub(crate) point: Point,
    pub(crate) p: Vec<f64>,
    pub(crate) v: Vec<f64>,
}

/// The Hamiltonian H(x, p) = −ln p(x) + ½ pᵀ M⁻¹ p of a target under a metric, counting the
/// evaluations it makes of the density with its gradient and without.
#[derive(Debug)]
pub struct Hamiltonian<'a, T: ?Sized> {
    target: &'a T,
    metric: Metric,
    grad_evals: u64,
    density_evals: u64,
}

impl<'a, T: LogDensity + ?Sized> Hamiltonian<'a, T> {
    /// The Hamiltonian of `target` under `metric` (whose dimension must match; checked by the
    /// runner).
    pub fn new(target: &'a T, metric: Metric) -> Self {
        Self {
            target,
            metric,
            grad_evals: 0,
            density_evals: 0,
        }
    }

    /// The Hamiltonian of a restored chain: `metric`, with the evaluation counts it had made.
    pub(crate) fn restored(
        target: &'a T,
        metric: Metric,
        grad_evals: u64,
        density_evals: u64,
    ) -> Self {
        Self {
            target,
            metric,
            grad_evals,
            density_evals,
        }
    }

    /// The target.
    pub fn target(&self) -> &'a T {
        self.target
    }

    /// The current metric.
    pub fn metric(&self) -> &Metric {
        &self.metric
    }

    /// Replaces the metric (after a warm-up window).
    pub fn set_metric(&mut self, metric: Metric) {
        self.metric = metric;
    }

    /// Gradient evaluations made so far.
    pub fn grad_evals(&self) -> u64 {
        self.grad_evals
    }

    /// Evaluations of the density alone ([`Self::log_density`]) made so far.
    pub fn density_evals(&self) -> u64 {
        self.density_evals
    }

    /// ln p(x) without its gradient ([`LogDensity::log_density`]); `-inf` where it is not
    /// finite.
    pub fn log_density(&mut self, x: &[f64]) -> f64 {
        self.density_evals += 1;
        let logp = self.target.log_density(x);
        if logp.is_finite() {
            logp
        } else {
            f64::NEG_INFINITY
        }
    }

    /// Evaluates the target at `x`.
    pub fn point(&mut self, x: Vec<f64>) -> Point {
        let mut point = Point {
            grad: vec![0.0; x.len()],
            x,
            log_density: 0.0,
            likelihood: None,
        };
        self.evaluate(&mut point);
        point
    }

    /// Re-evaluates density and gradient at `point.x`, mapping anything non-finite to `-inf`.
    fn evaluate(&mut self, point: &mut Point) {
        self.grad_evals += 1;
        let (logp, likelihood) = self
            .target
            .log_density_gradient_and_likelihood(&point.x, &mut point.grad);
        let finite = logp.is_finite()
            && point.grad.iter().all(|g| g.is_finite())
            && likelihood.as_ref().is_none_or(|term| {
                term.log_likelihood.is_finite() && term.gradient.iter().all(|g| g.is_finite())
            });
        point.log_density = if finite { logp } else { f64::NEG_INFINITY };
        point.likelihood = likelihood;
    }

    /// A state at `point` with a fresh momentum p ~ N(0, M).
    pub(crate) fn start<R: Rng + ?Sized>(&self, point: Point, rng: &mut R) -> State {
        let mut p = vec![0.0; point.x.len()];
        self.metric.sample_momentum(rng, &mut p);
        let mut v = vec![0.0; p.len()];
        self.metric.velocity(&p, &mut v);
        State { point, p, v }
    }

    /// H(x, p); `+inf` outside the support or for a NaN energy.
    pub(crate) fn energy(&self, state: &State) -> f64 {
        let kinetic = 0.5 * dot(&state.p, &state.v);
        let h = kinetic - state.point.log_density;
        if h.is_nan() {
            f64::INFINITY
        } else {
            h
        }
    }

    /// One leapfrog step of size `eps` (negative to integrate backwards in time), in place.
    pub(crate) fn leapfrog(&mut self, state: &mut State, eps: f64) {
        let State { point, p, v } = state;
        for (pi, gi) in p.iter_mut().zip(&point.grad) {
            *pi += 0.5 * eps * gi;
        }
        self.metric.velocity(p, v);
        for (xi, vi) in point.x.iter_mut().zip(v.iter()) {
            *xi += eps * vi;
        }
        self.evaluate(point);
        for (pi, gi) in p.iter_mut().zip(&point.grad) {
            *pi += 0.5 * eps * gi;
        }
        self.metric.velocity(p, v);
    }
}

/// Acceptance probability min(1, exp(H₀ − H₁)) of a move from energy `h0` to `h1`; 0 when `h1`
/// is infinite.
pub(crate) fn acceptance_probability(h0: f64, h1: f64) -> f64 {
    (h0 - h1).exp().min(1.0)
}

/// Draws the Metropolis decision for acceptance probability `prob`.
pub(crate) fn metropolis_accept<R: Rng + ?Sized>(prob: f64, rng: &mut R) -> bool {
    prob >= 1.0 || rng.random::<f64>() < prob
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::target::Space;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    struct Gauss;
    impl Space for Gauss {
        fn dim(&self) -> usize {
            3
        }
    }

    impl LogDensity for Gauss {
        fn log_density_and_gradient(&self, x: &[f64], g: &mut [f64]) -> f64 {
            g.iter_mut().zip(x).for_each(|(g, x)| *g = -x);
            -0.5 * x.iter().map(|x| x * x).sum::<f64>()
        }
    }

    /// Leapfrog is reversible and conserves energy to O(ε²).
    #[test]
    fn leapfrog_reversible_and_nearly_energy_conserving() {
        let mut h = Hamiltonian::new(&Gauss, Metric::unit(3));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let point = h.point(vec![0.3, -1.0, 2.0]);
        let start = h.start(point, &mut rng);
        let mut s = start.clone();
        let h0 = h.energy(&s);
        for _ in 0..20 {
            h.leapfrog(&mut s, 0.1);
        }
        assert!((h.energy(&s) - h0).abs() < 1e-2);
        for _ in 0..20 {
            h.leapfrog(&mut s, -0.1);
        }
        for (a, b) in s.point.x.iter().zip(&start.point.x) {
            assert!((a - b).abs() < 1e-12);
        }
        assert_eq!(h.grad_evals(), 41);
    }
}
