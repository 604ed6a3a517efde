//! The posterior of a binary black hole's parameters, as the sampler sees it.
//!
//! This crate turns bilby's parameters into a log-density on an unconstrained vector x with its
//! exact gradient ([`Posterior`], a [`tdpe_mcmc::LogDensity`]):
//!
//! - [`prior`]: bilby's prior files (the common subset of `bilby.core.prior` and
//!   `bilby.gw.prior`) and their distributions (docs/sampling.md §2.1);
//! - [`transform`]: each parameter's map from the real line onto its prior's support (§2.2,
//!   the symmetric mass ratio §3.1);
//! - [`coordinates`]: maps that replace groups of parameters by coordinates in which the
//!   posterior is simpler (the effective spin, the detector-pair sky frame, the phase at the
//!   peak, the circular phases; §3);
//! - [`jumps`]: Metropolis–Hastings jumps between modes that a gradient kernel rarely crosses
//!   (the face-on/face-off mirror, the sky-ring reflection; §4);
//! - [`distance_marginal`]: the likelihood marginalised over the luminosity distance (§5);
//! - [`time_steps`]: the likelihood summed over a window of whole-sample time steps (§5.6);
//! - [`standardize`]: the affine map that makes x roughly N(0, I) (a Laplace approximation at
//!   the posterior mode; §6);
//! - [`analysis`]: from the data's exact likelihood and the priors to the posterior: the
//!   fiducial point of relative binning (the injection, or a maximum-likelihood [`search`]),
//!   the relative-binning likelihood around it and the standardised posterior (§8);
//! - [`streams`]: the seeded random streams of an analysis (§9).
//!
//! The design is in `docs/sampling.md`: §1 is the overview, §2 the log-density on x that
//! [`Posterior`] implements, §7 the options ([`CoordinateOptions`]). Parameters are indexed by
//! [`tdpe_signal::Parameter`], the one definition of the parameter layout.

mod affine;
pub mod analysis;
pub mod coordinates;
pub mod cosmology;
pub mod distance_marginal;
mod error;
pub mod jumps;
mod phase_marginal;
mod posterior;
pub mod prior;
mod quadrature;
pub mod search;
pub mod standardize;
pub mod streams;
pub mod time_steps;
pub mod transform;

pub use analysis::{Analysis, Fiducial};
pub use error::PosteriorError;
pub use posterior::{
    Affine, BbhLikelihood, CoordinateOptions, IntrinsicCoordinates, Network, NotApplied,
    PhaseCoordinate, Posterior, ReferenceFrame, SkyChoices, LABEL_MODE,
};
