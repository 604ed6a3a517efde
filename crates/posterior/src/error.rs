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
    /// The priors' spins are not the waveform model's.
    #[error(
        "the priors are for {} spins ({}) but the waveform model's are {}: IMRPhenomTPHM takes \
         precessing spins (a_1, a_2, tilt_1, tilt_2, phi_12, phi_jl), IMRPhenomT and \
         IMRPhenomTHM aligned ones (chi_1, chi_2)",
        spins(*priors),
        priors.spin_parameters().map(|p| p.name()).collect::<Vec<_>>().join(", "),
        spins(*model)
    )]
    SpinModelMismatch {
        priors: tdpe_signal::SpinModel,
        model: tdpe_signal::SpinModel,
    },
    /// Inconsistent input.
    #[error("{0}")]
    Invalid(String),
}

/// "aligned" or "precessing".
fn spins(model: tdpe_signal::SpinModel) -> &'static str {
    match model {
        tdpe_signal::SpinModel::Aligned => "aligned",
        tdpe_signal::SpinModel::Precessing => "precessing",
    }
}
