//! The exact time-domain likelihood of a BBH's parameters: the template on every sample.

use tdpe_signal::{BbhParameters, SignalModel};

use crate::error::LikelihoodError;
use crate::exact::{DetectorTerms, ExactLikelihood};

/// ln L(θ) = Σ_k ⟨d_k|h_k(θ)⟩ − ½⟨h_k(θ)|h_k(θ)⟩ with the template evaluated at every sample:
/// the reference for relative binning (O(N log N) per detector and call).
pub struct BbhExactLikelihood {
    model: SignalModel,
    likelihood: ExactLikelihood,
}

impl BbhExactLikelihood {
    /// The detectors of `model` and of `likelihood` must be the same, in the same order.
    pub fn new(model: SignalModel, likelihood: ExactLikelihood) -> Result<Self, LikelihoodError> {
        let names: Vec<&str> = model.detectors().iter().map(|d| d.name.as_str()).collect();
        if names != likelihood.detector_names() {
            return Err(LikelihoodError::InvalidInput(format!(
                "the signal model's detectors {names:?} differ from the data's {:?}",
                likelihood.detector_names()
            )));
        }
        Ok(Self { model, likelihood })
    }

    /// The signal model.
    pub fn model(&self) -> &SignalModel {
        &self.model
    }

    /// The waveform-agnostic likelihood (data, noise, grid).
    pub fn likelihood(&self) -> &ExactLikelihood {
        &self.likelihood
    }

    /// The templates h_k(θ) on the data's grid.
    pub fn templates(&self, p: &BbhParameters) -> Result<Vec<Vec<f64>>, LikelihoodError> {
        let g = self.likelihood.grid();
        Ok(self.model.strain(p, g.start, g.dt, g.len)?)
    }

    /// Log-likelihood ratio against the noise-only hypothesis.
    pub fn log_likelihood_ratio(&self, p: &BbhParameters) -> Result<f64, LikelihoodError> {
        let h = self.templates(p)?;
        let refs: Vec<&[f64]> = h.iter().map(Vec::as_slice).collect();
        self.likelihood.log_likelihood_ratio(&refs)
    }

    /// ⟨d|h⟩, ⟨h|h⟩ and the SNRs of each detector at `p`, in the model's detector order.
    pub fn detector_terms(&self, p: &BbhParameters) -> Result<Vec<DetectorTerms>, LikelihoodError> {
        let h = self.templates(p)?;
        let refs: Vec<&[f64]> = h.iter().map(Vec::as_slice).collect();
        self.likelihood.detector_terms(&refs)
    }
}
