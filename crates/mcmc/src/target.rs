//! The boundary between sampler and model: a log density with its gradient on an unconstrained
//! vector.
//!
//! The sampler never sees parameter names, bounds or units; the application maps its parameters to
//! ℝⁿ (adding the log-Jacobian of the transform to the density) and implements [`Space`] and
//! [`LogDensity`] (or [`PriorLikelihood`], for tempering).

use std::sync::atomic::{AtomicU64, Ordering};

/// The unconstrained space ℝⁿ of a target and its symmetries: which points are the same
/// ([`Space::canonicalize`]) and which maps between modes the sampler may try
/// ([`Space::mirror`]). Shared by [`LogDensity`] and [`PriorLikelihood`], so that a model that
/// is both states them once.
pub trait Space {
    /// Dimension n of the unconstrained vector.
    fn dim(&self) -> usize;

    /// Moves `x` to an equivalent point: one where the density, its gradient (and the likelihood
    /// term) are the same, such as the copy of a periodic coordinate nearest a reference. The
    /// sampler calls it after every transition, so that a coordinate the density repeats along
    /// (an angle sampled on the real line) stays bounded: otherwise the chain drifts from copy to
    /// copy and the warm-up's metric learns the drift instead of the posterior's width. For a
    /// [`PriorLikelihood`] model the prior and the likelihood must both be unchanged. The
    /// default leaves `x` alone.
    fn canonicalize(&self, _x: &mut [f64]) {}

    /// Number of mirror moves ([`Space::mirror`]) the sampler tries after every transition, in
    /// order. The default has none.
    fn mirror_count(&self) -> usize {
        0
    }

    /// Mirror move `which` (< [`Space::mirror_count`]), which the sampler tries after every
    /// transition and accepts by Metropolis–Hastings: for a target with two modes that are
    /// (nearly) images of each other under a known map, which a gradient kernel crosses only
    /// through the low density between them. Writes the image x' = m(x) into `image` and returns
    /// ln|det ∂x'/∂x|, or `None` where there is no move. m must be an involution (m(m(x)) = x,
    /// up to [`Space::canonicalize`]); the move x → x' is then accepted with probability
    /// min(1, p(x') |det ∂x'/∂x| / p(x)), which leaves p invariant however well the images match
    /// (an involutive proposal: Neklyudov et al. 2020, ICML, Eq. 5). For a [`PriorLikelihood`]
    /// model the same move serves every inverse temperature.
    fn mirror(&self, _which: usize, _x: &[f64], _image: &mut [f64]) -> Option<f64> {
        None
    }

    /// Number of orbit moves ([`Space::orbit`]) the sampler tries after every transition and
    /// its mirror moves, in order. The default has none.
    fn orbit_count(&self) -> usize {
        0
    }

    /// Orbit move `which` (< [`Space::orbit_count`]): for a target whose density along a
    /// discrete set of images of x (the orbit of x under a group of maps, such as the shifts of
    /// a time by whole samples) is cheap to approximate, which a gradient kernel crosses only
    /// through low density. Writes one weight per member x_j of the orbit into `weights`,
    /// [a_j, b_j] with a_j + b_j ≈ ln p(x_j) + ln|det ∂x_j/∂x| up to a constant (b_j the
    /// likelihood's part, which [`Tempered`] scales by β), and returns the index of x itself;
    /// `None` where there is no move. The orbit of every member is the same set, and
    /// [`Space::orbit_inverse`] says where x is in the orbit of the member `offset` places after
    /// it ([`Space::orbit_image`]). The sampler draws x_j with probability ∝ exp(a_j + b_j) and accepts it by
    /// Metropolis–Hastings against the exact density, with the weights of x_j's orbit for the
    /// reverse draw, so the weights need only be close for the move to be accepted often; the
    /// move leaves p invariant however close they are.
    fn orbit(&self, _which: usize, _x: &[f64], _weights: &mut Vec<[f64; 2]>) -> Option<usize> {
        None
    }

    /// The member of orbit `which` that is `offset` places after x in the order of
    /// [`Space::orbit`]: writes it into `image` and returns ln|det ∂x'/∂x|, or `None` where it
    /// is not defined.
    fn orbit_image(
        &self,
        _which: usize,
        _x: &[f64],
        _offset: isize,
        _image: &mut [f64],
    ) -> Option<f64> {
        None
    }

    /// Where x is in the orbit of its member `offset` places after it, counted from that
    /// member: `-offset` (the default) for members ordered like the integers; an orbit of a
    /// product of groups (whole steps in one coordinate and turns of another) orders its members
    /// otherwise.
    fn orbit_inverse(&self, _which: usize, offset: isize) -> isize {
        -offset
    }

    /// Number of independence proposals ([`Space::independence_draw`]) the sampler tries after
    /// every transition and its mirror and orbit moves. The default has none.
    fn independence_count(&self) -> usize {
        0
    }

    /// A draw x' from a proposal density q that does not depend on the chain's point, into
    /// `image`, and ln q(x') up to a constant; `None` where there is no draw. The sampler
    /// accepts x' with probability min(1, p(x') q(x) / (p(x) q(x'))) (an independence
    /// Metropolis–Hastings move; Tierney 1994, Ann. Stat. 22:1701, §2.3.3), which leaves p
    /// invariant whatever q is and, where q reaches places the kernel rarely does (the modes
    /// of a weak signal's posterior, say), lets a chain jump between them. For a
    /// [`PriorLikelihood`] model whose q is the prior the ratio is that of the likelihoods, at
    /// every inverse temperature.
    fn independence_draw(&self, _rng: &mut dyn rand::RngCore, _image: &mut [f64]) -> Option<f64> {
        None
    }

    /// ln q(x) of the independence proposal at `x`, with the constant of
    /// [`Space::independence_draw`].
    fn independence_log_density(&self, _x: &[f64]) -> f64 {
        f64::NAN
    }
}

/// A differentiable (unnormalised) log density on ℝⁿ, the target of every kernel.
///
/// Implementations must be deterministic functions of `x`. The multi-chain runner shares one
/// target by reference across threads, so it requires `Sync` there; per-evaluation scratch space
/// belongs on the stack or in a thread-local, not behind `&self`.
///
/// A non-finite return value (`-inf`, `+inf`, NaN), or a non-finite entry in `grad`, marks `x` as
/// outside the support: the kernels reject such a proposal (and count it as a divergence for HMC
/// and NUTS) instead of failing.
pub trait LogDensity: Space {
    /// Returns ln p(x) up to an additive constant and writes ∇ ln p(x) into `grad`.
    ///
    /// `x` and `grad` both have length [`Space::dim`].
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64;

    /// Like [`LogDensity::log_density_and_gradient`], and also returns the likelihood term of a
    /// tempered density ln π + β ln L ([`Tempered`] does), which the sampler keeps on the
    /// [`Point`](crate::Point) so that parallel tempering can move a point to another
    /// temperature without evaluating it again. The default has no such term.
    fn log_density_gradient_and_likelihood(
        &self,
        x: &[f64],
        grad: &mut [f64],
    ) -> (f64, Option<LikelihoodTerm>) {
        (self.log_density_and_gradient(x, grad), None)
    }

    /// ln p(x) without its gradient, for a proposal that only a Metropolis–Hastings test sees
    /// (most of them rejected): a target whose gradient costs more than its density says so
    /// here. The default evaluates the gradient too and drops it.
    fn log_density(&self, x: &[f64]) -> f64 {
        let mut grad = vec![0.0; x.len()];
        self.log_density_and_gradient(x, &mut grad)
    }
}

/// ln L(x) and ∇ ln L(x): the part of a tempered log density ln π + β ln L that the inverse
/// temperature β scales.
#[derive(Debug, Clone, PartialEq)]
pub struct LikelihoodTerm {
    /// ln L(x).
    pub log_likelihood: f64,
    /// ∇ ln L(x).
    pub gradient: Vec<f64>,
}

/// A posterior split into log prior and log likelihood, both on the same unconstrained vector.
///
/// This is the extension point for tempering: a model that implements this trait can be sampled
/// at any inverse temperature β, p_β(x) ∝ π(x) L(x)^β, through [`Tempered`] (at β = 1 it is the
/// posterior), and by parallel tempering ([`sample_tempered`](crate::sample_tempered)).
pub trait PriorLikelihood: Space {
    /// Returns ln π(x) (including the log-Jacobian of the transform to ℝⁿ) and writes its gradient.
    fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64;

    /// Returns ln L(x) and writes its gradient.
    fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64;

    /// ln π(x) without its gradient (see [`LogDensity::log_density`]); the default drops the
    /// gradient of [`Self::log_prior_and_gradient`].
    fn log_prior(&self, x: &[f64]) -> f64 {
        let mut grad = vec![0.0; x.len()];
        self.log_prior_and_gradient(x, &mut grad)
    }

    /// ln L(x) without its gradient (see [`LogDensity::log_density`]); the default drops the
    /// gradient of [`Self::log_likelihood_and_gradient`].
    fn log_likelihood(&self, x: &[f64]) -> f64 {
        let mut grad = vec![0.0; x.len()];
        self.log_likelihood_and_gradient(x, &mut grad)
    }
}

/// The tempered density ln p_β(x) = ln π(x) + β ln L(x) of a [`PriorLikelihood`] model.
///
/// β is held as the bits of an f64 in an atomic, so that the tempering runner's ladder
/// adaptation can move a rung's β while the rung's chain holds the target by reference.
#[derive(Debug)]
pub struct Tempered<'a, M: ?Sized> {
    model: &'a M,
    beta: AtomicU64,
}

impl<'a, M: PriorLikelihood + ?Sized> Tempered<'a, M> {
    /// Wraps `model` at inverse temperature `beta` (1 is the posterior, 0 the prior).
    pub fn new(model: &'a M, beta: f64) -> Self {
        Self {
            model,
            beta: AtomicU64::new(beta.to_bits()),
        }
    }

    /// The inverse temperature β.
    pub fn beta(&self) -> f64 {
        f64::from_bits(self.beta.load(Ordering::Relaxed))
    }

    /// Moves the target to inverse temperature `beta`.
    pub(crate) fn set_beta(&self, beta: f64) {
        self.beta.store(beta.to_bits(), Ordering::Relaxed);
    }
}

impl<M: PriorLikelihood + ?Sized> Space for Tempered<'_, M> {
    fn dim(&self) -> usize {
        self.model.dim()
    }

    fn canonicalize(&self, x: &mut [f64]) {
        self.model.canonicalize(x);
    }

    fn mirror_count(&self) -> usize {
        self.model.mirror_count()
    }

    fn mirror(&self, which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        self.model.mirror(which, x, image)
    }

    fn orbit_count(&self) -> usize {
        self.model.orbit_count()
    }

    fn orbit(&self, which: usize, x: &[f64], weights: &mut Vec<[f64; 2]>) -> Option<usize> {
        let current = self.model.orbit(which, x, weights)?;
        let beta = self.beta();
        weights.iter_mut().for_each(|w| w[1] *= beta);
        Some(current)
    }

    fn orbit_image(
        &self,
        which: usize,
        x: &[f64],
        offset: isize,
        image: &mut [f64],
    ) -> Option<f64> {
        self.model.orbit_image(which, x, offset, image)
    }

    fn orbit_inverse(&self, which: usize, offset: isize) -> isize {
        self.model.orbit_inverse(which, offset)
    }

    fn independence_count(&self) -> usize {
        self.model.independence_count()
    }

    fn independence_draw(&self, rng: &mut dyn rand::RngCore, image: &mut [f64]) -> Option<f64> {
        self.model.independence_draw(rng, image)
    }

    fn independence_log_density(&self, x: &[f64]) -> f64 {
        self.model.independence_log_density(x)
    }
}

impl<M: PriorLikelihood + ?Sized> LogDensity for Tempered<'_, M> {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        self.log_density_gradient_and_likelihood(x, grad).0
    }

    fn log_density_gradient_and_likelihood(
        &self,
        x: &[f64],
        grad: &mut [f64],
    ) -> (f64, Option<LikelihoodTerm>) {
        let beta = self.beta();
        let mut gradient = vec![0.0; grad.len()];
        let log_likelihood = self.model.log_likelihood_and_gradient(x, &mut gradient);
        let log_prior = self.model.log_prior_and_gradient(x, grad);
        for (g, gl) in grad.iter_mut().zip(&gradient) {
            *g += beta * gl;
        }
        let term = LikelihoodTerm {
            log_likelihood,
            gradient,
        };
        (log_prior + beta * log_likelihood, Some(term))
    }

    fn log_density(&self, x: &[f64]) -> f64 {
        self.model.log_prior(x) + self.beta() * self.model.log_likelihood(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Prior N(0, 1), likelihood N(x; 2, 1) per coordinate.
    struct Model;

    impl Space for Model {
        fn dim(&self) -> usize {
            2
        }
    }

    impl PriorLikelihood for Model {
        fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
            grad.iter_mut().zip(x).for_each(|(g, xi)| *g = -xi);
            -0.5 * x.iter().map(|xi| xi * xi).sum::<f64>()
        }
        fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
            grad.iter_mut().zip(x).for_each(|(g, xi)| *g = 2.0 - xi);
            -0.5 * x.iter().map(|xi| (xi - 2.0).powi(2)).sum::<f64>()
        }
    }

    impl Model {
        /// The orbit {x + j e₀: j = −1, 0, 1} with weights [ln π, ln L] of each member.
        fn orbit_weights(x: &[f64]) -> Vec<[f64; 2]> {
            (-1..=1)
                .map(|j| {
                    let shifted = [x[0] + f64::from(j), x[1]];
                    let mut g = [0.0; 2];
                    [
                        Model.log_prior_and_gradient(&shifted, &mut g),
                        Model.log_likelihood_and_gradient(&shifted, &mut g),
                    ]
                })
                .collect()
        }
    }

    #[test]
    fn tempered_orbit_weights_scale_the_likelihood_part() {
        struct WithOrbit;
        impl Space for WithOrbit {
            fn dim(&self) -> usize {
                2
            }
            fn orbit_count(&self) -> usize {
                1
            }
            fn orbit(&self, _: usize, x: &[f64], weights: &mut Vec<[f64; 2]>) -> Option<usize> {
                *weights = Model::orbit_weights(x);
                Some(1)
            }
        }
        impl PriorLikelihood for WithOrbit {
            fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
                Model.log_prior_and_gradient(x, grad)
            }
            fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
                Model.log_likelihood_and_gradient(x, grad)
            }
        }
        let x = [0.5, -1.0];
        let plain = Model::orbit_weights(&x);
        let mut weights = Vec::new();
        let tempered = Tempered::new(&WithOrbit, 0.25);
        assert_eq!(tempered.orbit_count(), 1);
        assert_eq!(tempered.orbit(0, &x, &mut weights), Some(1));
        for (w, p) in weights.iter().zip(&plain) {
            assert_eq!(*w, [p[0], 0.25 * p[1]]);
        }
        assert_eq!(Tempered::new(&Model, 0.25).orbit(0, &x, &mut weights), None);
    }

    #[test]
    fn tempered_density_interpolates_prior_and_posterior() {
        let x = [0.5, -1.0];
        let mut g = [0.0; 2];
        let prior = Tempered::new(&Model, 0.0).log_density_and_gradient(&x, &mut g);
        assert_eq!(prior, -0.5 * (0.25 + 1.0));
        assert_eq!(g, [-0.5, 1.0]);
        let post = Tempered::new(&Model, 1.0).log_density_and_gradient(&x, &mut g);
        assert_eq!(post, prior - 0.5 * (2.25 + 9.0));
        assert_eq!(g, [-0.5 + 1.5, 1.0 + 3.0]);
        let half = Tempered::new(&Model, 0.5);
        assert_eq!(half.beta(), 0.5);
        assert_eq!(half.dim(), 2);
        let (value, term) = half.log_density_gradient_and_likelihood(&x, &mut g);
        let term = term.unwrap();
        assert_eq!(term.log_likelihood, -0.5 * (2.25 + 9.0));
        assert_eq!(term.gradient, [1.5, 3.0]);
        assert_eq!(value, prior + 0.5 * term.log_likelihood);
        assert_eq!(g, [-0.5 + 0.75, 1.0 + 1.5]);
    }
}
