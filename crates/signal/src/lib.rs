//! A binary black hole's signal in each detector of a network.
//!
//! Parameters use bilby's names and units ([`BbhParameters`]); the waveform is IMRPhenomT's
//! (2,2) mode W(s) at 1 Mpc ([`tdpe_phenomt`]), s being the time relative to the peak of |h22|
//! at the geocentre; detector k sees (docs/likelihood.md §2.1)
//!
//! h_k(t) = F₊ h₊(t − t_c − τ_k) + F× h×(t − t_c − τ_k) = Re[Q_k · W(t − t_c − τ_k)],
//!
//! with the closed-form extrinsic factor Q_k(D, θ_jn, ψ, φ, t_c, α, δ) and time delay τ_k of
//! [`Projection`]. With IMRPhenomTHM's higher modes ([`SignalModel::with_modes`]) the strain is
//! Σ_lm Re[Q_k,lm · W_lm(t − t_c − τ_k)], one factor per mode (docs/likelihood.md §2.3).
//! A precessing binary (IMRPhenomTPHM, [`PrecessingSource`]) is a sum over its co-precessing
//! modes with coefficients that follow the precessing frame (docs/precession.md §12). Times
//! are seconds relative to the model's reference epoch (a GPS time kept
//! as integer seconds and nanoseconds): never absolute f64 GPS seconds.

mod error;
mod model;
mod params;
mod precessing;
mod projection;
mod spins;

pub use error::SignalError;
pub use model::{SignalModel, MAX_EARTH_DELAY_S};
pub use params::{
    chirp_mass_and_ratio, component_masses, BbhParameters, Parameter, ParameterVector, SpinModel,
    NUM_PARAMETERS, PARAMETER_NAMES,
};
pub use precessing::{
    Complex, ComponentAdjoint, ComponentGradient, PrecessingGradientSource, PrecessingSource,
    COPRECESSING_MODES, SOURCE_PARAMETERS,
};
pub use projection::{arrival_derivative, AntennaGradient, Projection, ProjectionGradient};
pub use spins::{bilby_spins, lal_spins, LalSpins, PrecessingSpins};
