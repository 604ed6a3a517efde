//! Metropolis–Hastings jumps between modes of the posterior that a gradient kernel rarely
//! crosses (docs/sampling.md §4): involutions θ → θ' of the physical parameters, which the
//! posterior turns into jumps of the sampler's x ([`tdpe_mcmc::Space::mirror`]; the
//! determinant bookkeeping is in §4's introduction), and the orbit through time
//! ([`time_orbit`], a [`tdpe_mcmc::Space::orbit`] move).
//!
//! A new jump goes into a module of its own here, with a variant of [`Jump`] and a line in
//! [`crate::Posterior`]'s options that says when the prior allows it.

pub mod inclination_mirror;
pub mod sky_ring;
pub mod time_orbit;

use tdpe_signal::ParameterVector;

use inclination_mirror::InclinationMirror;
use sky_ring::SkyRingReflection;

/// One of the jumps, offered to the sampler after every transition in the order they were
/// chosen.
#[derive(Debug, Clone, PartialEq)]
pub enum Jump {
    /// The face-on/face-off mirror.
    Inclination(InclinationMirror),
    /// The reflection between the ends of a two-detector sky ring.
    SkyRing(Box<SkyRingReflection>),
}

impl Jump {
    /// The image θ' of θ and ln|det ∂θ'/∂θ| over the sampled parameters (with
    /// `distance_sampled` false, luminosity_distance is not one of them); `None` where the
    /// image is not defined.
    pub fn image(
        &self,
        theta: &ParameterVector,
        distance_sampled: bool,
    ) -> Option<(ParameterVector, f64)> {
        match self {
            Self::Inclination(mirror) => Some((mirror.image(theta), 0.0)),
            Self::SkyRing(ring) => ring.image(theta, distance_sampled),
        }
    }
}
