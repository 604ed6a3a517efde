//! Model-agnostic gradient-based MCMC for tdpe: HMC, MALA and NUTS with Stan-style warm-up,
//! chains in parallel threads, and ArviZ-compatible convergence diagnostics.
//!
//! The model implements [`Space`] (the dimension and symmetries) and [`LogDensity`] on an
//! unconstrained vector; [`sample`] runs N chains of a
//! [`Kernel`] ([`Nuts`], [`Hmc`], [`Mala`]) and returns [`Samples`]: the draws and per-draw
//! [`DrawStats`] of every chain, with [`Samples::summary`] (mean, sd, MCSE, bulk/tail ESS,
//! R̂ per coordinate) and [`Samples::chain_summaries`] (acceptance, divergences, tree depth,
//! gradient evaluations per chain). A target whose density repeats along some directions (angles
//! sampled on the real line) implements [`Space::canonicalize`], which the chains apply after
//! every transition so that the warm-up's metric sees the posterior and not the drift over copies.
//! A target with two modes that are near images of each other under a known involution offers it
//! as [`Space::mirror`]: the chains try it after every transition, accepted by
//! Metropolis–Hastings, and so visit both modes in proportion to their mass.
//!
//! For multimodal posteriors, [`sample_tempered`] runs parallel tempering on a
//! [`PriorLikelihood`] model (log prior and log likelihood apart): every chain runs a ladder of
//! tempered copies π(x) L(x)^β ([`Tempered`]), each with its own warm-up, whose spacing adapts
//! during warm-up so that neighbours swap equally often ([`TemperingConfig`]). Only the β = 1
//! draws are kept, as [`Samples`] with the same diagnostics; [`TemperedSamples`] adds the ladders,
//! swap acceptances, round trips and a thermodynamic-integration estimate of ln Z
//! ([`LogEvidence`]). See [`tempering`].
//!
//! ```
//! use tdpe_mcmc::{sample, LogDensity, Nuts, SamplerConfig, Space};
//!
//! struct StdNormal;
//! impl Space for StdNormal {
//!     fn dim(&self) -> usize { 2 }
//! }
//! impl LogDensity for StdNormal {
//!     fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
//!         grad.iter_mut().zip(x).for_each(|(g, x)| *g = -x);
//!         -0.5 * x.iter().map(|x| x * x).sum::<f64>()
//!     }
//! }
//!
//! let config = SamplerConfig { num_warmup: 200, num_draws: 200, progress: false, ..Default::default() };
//! let samples = sample(&StdNormal, &Nuts::default(), &config).unwrap();
//! assert_eq!(samples.chains.len(), 4);
//! assert!(samples.summary().iter().all(|p| p.rhat < 1.05));
//! ```

pub mod adapt;
mod chain;
pub mod checkpoint;
pub mod config;
pub mod diagnostics;
mod error;
pub mod hamiltonian;
pub mod hmc;
pub mod kernel;
pub mod mala;
pub mod mass_matrix;
pub mod nuts;
mod progress;
pub mod run_length;
pub mod runner;
pub mod samples;
pub mod stepsize;
pub mod target;
pub mod tempering;

pub use adapt::{Adaptation, StepSizeRestart};
pub use chain::chain_rng;
pub use checkpoint::SamplerCheckpoint;
pub use config::{Init, SamplerConfig};
pub use error::McmcError;
pub use hamiltonian::{Hamiltonian, Point};
pub use hmc::Hmc;
pub use kernel::{DrawStats, Kernel};
pub use mala::Mala;
pub use mass_matrix::adapt::{MetricAdaptation, WindowSchedule};
pub use mass_matrix::Metric;
pub use nuts::Nuts;
pub use run_length::ConvergenceTarget;
pub use runner::{
    sample, sample_until, sample_until_converged, sample_with_checkpoints, Checkpoints,
};
pub use samples::{ChainDraws, ChainSummary, ParamSummary, Samples};
pub use stepsize::DualAveraging;
pub use target::{LikelihoodTerm, LogDensity, PriorLikelihood, Space, Tempered};
pub use tempering::{
    sample_tempered, sample_tempered_until, LogEvidence, TemperedChain, TemperedSamples,
    TemperingConfig,
};
