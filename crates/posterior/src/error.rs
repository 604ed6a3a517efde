//! Errors of setting up a posterior.

use tdpe_detector::DetectorError;
use tdpe_likelihood::LikelihoodError;
use tdpe_signal::SignalError;

use crate::prior::PriorError;

/// Why a posterior could not be set up; messages name the parameter or value and what is
/// allowed.
#[derive(Debug, thiserror::Error)]
pub enum PosteriorError {
    #[error(transparent)]
    Prior(#[from] PriorError),
    #[error(transparent)]
    Likelihood(#[from] LikelihoodError),
    #[error(transparent)]
    Signal(#[from] SignalError),
    #[error(transparent)]
    Detector(#[from] DetectorError),
    /// The posterior is zero where the sampler must start (the values of the analysis's
    /// parameters, in the order of its spin model's).
    #[error(
        "the posterior is zero at the fiducial point {theta:?} (a constraint, or a parameter on \
         its prior's bound)"
    )]
    ZeroAtFiducial { theta: Vec<f64> },
    /// The maximum-likelihood search found no point where the likelihood is defined.
    #[error("the maximum-likelihood search found no point where the likelihood is defined")]
    SearchFailed,
    /// The priors are for precessing spins, whose relative-binning likelihood is not built yet.
    #[error(
        "precessing spins ({}) need IMRPhenomTPHM's relative-binning likelihood, which is not \
         built yet; use chi_1/chi_2 priors (aligned spins)",
        tdpe_signal::SpinModel::Precessing.spin_parameters().map(|p| p.name()).collect::<Vec<_>>().join(", ")
    )]
    NoPrecessingLikelihood,
    /// Inconsistent input.
    #[error("{0}")]
    Invalid(String),
}
