//! The inclination mirror's image as a chart of its own (docs/sampling.md §4.5): for precessing
//! spins the posterior's second mode, near the mirror image T(θ) of the first, is far from the
//! Laplace map's centre in x and much narrower there, so the sampler reads it through a second
//! chart, θ = T(θ(x)), in which it lies near the first mode's x.
//!
//! The chart is a label on the chain's state, carried by one more coordinate u with density
//! p(u) = u² e^(−u²/2)/√(2π): u > 0 reads x in the first chart, u < 0 in the image chart. p(u)
//! vanishes at u = 0, so a gradient kernel stays on its side, and the mirror move becomes
//! u → −u with x unchanged, accepted by the ratio of the two charts' densities at x. Each chart
//! maps x one to one onto θ, so the label's marginal leaves the posterior on θ as it is.
//!
//! T is the mirror itself ([`InclinationMirror::image`]: θ_jn → π − θ_jn, ψ → β − ψ with β
//! the polarisation axis of the sky position, φ_jl → φ_jl + π). It keeps bilby's priors (Sine
//! θ_jn, ψ and φ_jl uniform over their periods) and has |det| = 1, so the prior term is that
//! of θ(x) itself; the likelihood's θ-gradient at T(θ) is pulled back through ∂T/∂θ
//! ([`InclinationMirror::pull_back`]). Both charts share the Laplace map: the chains spread far
//! beyond it, where only charts that T relates exactly keep the two modes' points together.

use rand::{Rng, RngCore};
use rand_distr::StandardNormal;
use std::f64::consts::TAU;

use super::{BbhLikelihood, Posterior};
use crate::jumps::Jump;

/// The label's value at the mode of p(u) in the first chart (−it in the image chart).
pub const LABEL_MODE: f64 = std::f64::consts::SQRT_2;

/// ln p(u) and its derivative.
pub(super) fn label_log_density(u: f64) -> (f64, f64) {
    ((u * u).ln() - 0.5 * u * u - 0.5 * TAU.ln(), 2.0 / u - u)
}

/// A draw of u from p(u): |u| is the length of a standard normal 3-vector, its sign even.
pub(super) fn draw_label(rng: &mut dyn RngCore) -> f64 {
    let length = (0..3)
        .map(|_| rng.sample::<f64, _>(StandardNormal).powi(2))
        .sum::<f64>()
        .sqrt();
    if rng.random::<bool>() {
        length
    } else {
        -length
    }
}

impl<L: BbhLikelihood> Posterior<L> {
    /// Whether x is read in two charts, its last coordinate the label.
    pub fn has_image_chart(&self) -> bool {
        self.image_chart.is_some()
    }

    /// Replaces the inclination mirror's jump, where there is one, by the image chart.
    pub(crate) fn use_image_chart(&mut self) {
        let Some(position) = self
            .jumps
            .iter()
            .position(|jump| matches!(jump, Jump::Inclination(_)))
        else {
            return;
        };
        if let Jump::Inclination(mirror) = self.jumps.remove(position) {
            self.image_chart = Some(mirror);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn the_label_density_is_normalised_and_drawn() {
        // ∫ p(u) du by the trapezoid rule over ±12 (the tails beyond are below 1e-28).
        let h = 1e-3;
        let integral: f64 = (-12_000..=12_000)
            .map(|k| label_log_density(k as f64 * h).0.exp() * h)
            .filter(|v| v.is_finite())
            .sum();
        assert!((integral - 1.0).abs() < 1e-10, "{integral}");
        let (at, slope) = label_log_density(0.7);
        let numeric = (label_log_density(0.7 + 1e-6).0 - label_log_density(0.7 - 1e-6).0) / 2e-6;
        assert!((slope - numeric).abs() < 1e-8 && at.is_finite());
        // E u² = 3 and half the draws negative.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let draws: Vec<f64> = (0..40_000).map(|_| draw_label(&mut rng)).collect();
        let second = draws.iter().map(|u| u * u).sum::<f64>() / draws.len() as f64;
        let negative = draws.iter().filter(|u| **u < 0.0).count() as f64 / draws.len() as f64;
        assert!((second - 3.0).abs() < 0.06, "{second}");
        assert!((negative - 0.5).abs() < 0.01, "{negative}");
    }
}
