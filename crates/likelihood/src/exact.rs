//! The exact time-domain Gaussian likelihood (docs/likelihood.md §1.1).

use crate::error::LikelihoodError;
use crate::grid::SampleGrid;
use crate::relative_binning::InnerProducts;
use std::sync::Arc;
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::{AnalysisBand, GsWorkspace, Psd, ToeplitzInverse};

/// One detector's input: name, strain data on the grid, and its inverse covariance.
#[derive(Debug, Clone)]
pub struct DetectorInput {
    /// Detector name (e.g. "H1").
    pub name: String,
    /// Strain samples d_i at the grid times (dimensionless).
    pub data: Vec<f64>,
    /// C⁻¹ of this detector's noise on the grid (shareable between detectors and threads).
    pub noise: Arc<ToeplitzInverse>,
}

#[derive(Debug, Clone)]
struct Detector {
    name: String,
    data: Vec<f64>,
    noise: Arc<ToeplitzInverse>,
    /// C⁻¹d, computed once.
    kd: Vec<f64>,
    /// ⟨d|d⟩.
    dd: f64,
}

/// Per-detector inner products and SNRs for one template.
#[derive(Debug, Clone, PartialEq)]
pub struct DetectorTerms {
    /// Detector name.
    pub name: String,
    /// ⟨d|h⟩.
    pub d_h: f64,
    /// ⟨h|h⟩.
    pub h_h: f64,
    /// Optimal SNR √⟨h|h⟩.
    pub optimal_snr: f64,
    /// Matched-filter SNR ⟨d|h⟩/√⟨h|h⟩ (0 for a zero template).
    pub matched_filter_snr: f64,
    /// ⟨d|h⟩ − ½⟨h|h⟩.
    pub log_likelihood_ratio: f64,
}

/// Scratch memory for likelihood evaluations (one per thread).
#[derive(Debug, Clone)]
pub struct LikelihoodWorkspace {
    kh: Vec<f64>,
    gs: Vec<GsWorkspace>,
}

/// The exact TD likelihood of a network of detectors sharing one [`SampleGrid`].
#[derive(Debug, Clone)]
pub struct ExactLikelihood {
    grid: SampleGrid,
    detectors: Vec<Detector>,
    noise_log_likelihood: f64,
}

fn check_finite(what: &'static str, detector: &str, x: &[f64]) -> Result<(), LikelihoodError> {
    if let Some((index, &value)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(LikelihoodError::NonFinite {
            what,
            detector: detector.to_string(),
            index,
            value,
        });
    }
    Ok(())
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl ExactLikelihood {
    /// Build the likelihood; computes C⁻¹d and ⟨d|d⟩ once per detector.
    pub fn new(grid: SampleGrid, inputs: Vec<DetectorInput>) -> Result<Self, LikelihoodError> {
        let n = grid.len;
        let mut detectors: Vec<Detector> = Vec::with_capacity(inputs.len());
        let mut noise_log_likelihood = 0.0;
        let ln_2pi = (2.0 * std::f64::consts::PI).ln();
        for input in inputs {
            if detectors.iter().any(|d| d.name == input.name) {
                return Err(LikelihoodError::DuplicateDetector(input.name));
            }
            if input.data.len() != n {
                return Err(LikelihoodError::LengthMismatch {
                    what: format!("data for detector '{}'", input.name),
                    got: input.data.len(),
                    expected: n,
                });
            }
            if input.noise.len() != n {
                return Err(LikelihoodError::LengthMismatch {
                    what: format!("noise covariance for detector '{}'", input.name),
                    got: input.noise.len(),
                    expected: n,
                });
            }
            check_finite("data", &input.name, &input.data)?;
            let kd = input.noise.apply(&input.data)?;
            let dd = dot(&input.data, &kd);
            noise_log_likelihood +=
                -0.5 * dd - 0.5 * input.noise.log_det() - 0.5 * n as f64 * ln_2pi;
            detectors.push(Detector {
                name: input.name,
                data: input.data,
                noise: input.noise,
                kd,
                dd,
            });
        }
        Ok(Self {
            grid,
            detectors,
            noise_log_likelihood,
        })
    }

    /// Convenience: build each detector's C⁻¹ from a PSD with its analysed band
    /// (ACF on the default fine grid, then [`ToeplitzInverse::from_acf`]: Levinson–Durbin,
    /// O(N²), up to N = 16384; conjugate gradients, O(N log N) per iteration, above, where
    /// log det C and hence [`Self::noise_log_likelihood`] carry an error of at most
    /// [`ToeplitzInverse::log_det_error_bound`] (1e-6) per detector).
    pub fn from_psds(
        grid: SampleGrid,
        inputs: Vec<(String, Vec<f64>, &Psd, &AnalysisBand)>,
    ) -> Result<Self, LikelihoodError> {
        let mut dets = Vec::with_capacity(inputs.len());
        for (name, data, psd, band) in inputs {
            // A covariance that cannot be factorised is the PSD's fault: say which one.
            let of_detector = |e: tdpe_noise::NoiseError| {
                LikelihoodError::InvalidInput(format!(
                    "noise covariance of {name} from the PSD '{}': {e}",
                    psd.name()
                ))
            };
            let spec = GriddedSpectrum::from_psd(psd, band, grid.sampling_frequency(), grid.len)
                .map_err(of_detector)?;
            let noise = ToeplitzInverse::from_acf(&spec.acf(), grid.len).map_err(of_detector)?;
            dets.push(DetectorInput {
                name,
                data,
                noise: Arc::new(noise),
            });
        }
        Self::new(grid, dets)
    }

    /// The sample grid.
    pub fn grid(&self) -> &SampleGrid {
        &self.grid
    }
    /// Detector names, in the order templates must be given.
    pub fn detector_names(&self) -> Vec<&str> {
        self.detectors.iter().map(|d| d.name.as_str()).collect()
    }
    /// The data of detector `k`.
    pub fn data(&self, k: usize) -> &[f64] {
        &self.detectors[k].data
    }
    /// C⁻¹ of detector `k`.
    pub fn noise(&self, k: usize) -> &Arc<ToeplitzInverse> {
        &self.detectors[k].noise
    }

    /// Scratch buffers for the `*_with` methods.
    pub fn workspace(&self) -> LikelihoodWorkspace {
        LikelihoodWorkspace {
            kh: vec![0.0; self.grid.len],
            gs: self.detectors.iter().map(|d| d.noise.workspace()).collect(),
        }
    }

    fn check_templates(&self, templates: &[&[f64]]) -> Result<(), LikelihoodError> {
        if templates.len() != self.detectors.len() {
            return Err(LikelihoodError::LengthMismatch {
                what: format!("templates (one per detector: {:?})", self.detector_names()),
                got: templates.len(),
                expected: self.detectors.len(),
            });
        }
        for (det, h) in self.detectors.iter().zip(templates) {
            if h.len() != self.grid.len {
                return Err(LikelihoodError::LengthMismatch {
                    what: format!("template for detector '{}'", det.name),
                    got: h.len(),
                    expected: self.grid.len,
                });
            }
            check_finite("template", &det.name, h)?;
        }
        Ok(())
    }

    /// ⟨d|h⟩, ⟨h|h⟩ and SNRs per detector, for templates given in [`Self::detector_names`]
    /// order.
    pub fn detector_terms_with(
        &self,
        templates: &[&[f64]],
        ws: &mut LikelihoodWorkspace,
    ) -> Result<Vec<DetectorTerms>, LikelihoodError> {
        self.check_templates(templates)?;
        if ws.gs.len() != self.detectors.len() || ws.kh.len() != self.grid.len {
            *ws = self.workspace();
        }
        let mut out = Vec::with_capacity(self.detectors.len());
        for ((det, h), gs) in self.detectors.iter().zip(templates).zip(ws.gs.iter_mut()) {
            // ⟨d|h⟩ = hᵀ(C⁻¹d) and ⟨h|h⟩ = hᵀ(C⁻¹h) use the same summation, so d = h gives
            // ⟨d|h⟩ = ⟨h|h⟩ bit for bit.
            let d_h = dot(h, &det.kd);
            det.noise.apply_into(h, &mut ws.kh, gs)?;
            let products = InnerProducts {
                d_h,
                h_h: dot(h, &ws.kh),
            };
            out.push(DetectorTerms {
                name: det.name.clone(),
                d_h,
                h_h: products.h_h,
                optimal_snr: products.optimal_snr(),
                matched_filter_snr: products.matched_filter_snr(),
                log_likelihood_ratio: products.log_likelihood_ratio(),
            });
        }
        Ok(out)
    }

    /// As [`Self::detector_terms_with`], allocating its own workspace.
    pub fn detector_terms(
        &self,
        templates: &[&[f64]],
    ) -> Result<Vec<DetectorTerms>, LikelihoodError> {
        self.detector_terms_with(templates, &mut self.workspace())
    }

    /// ln L − ln L(h = 0) = Σ_k [⟨d_k|h_k⟩ − ½⟨h_k|h_k⟩]: the log-likelihood ratio against the
    /// noise-only hypothesis (the only θ-dependent part when the PSDs are fixed).
    pub fn log_likelihood_ratio_with(
        &self,
        templates: &[&[f64]],
        ws: &mut LikelihoodWorkspace,
    ) -> Result<f64, LikelihoodError> {
        Ok(self
            .detector_terms_with(templates, ws)?
            .iter()
            .map(|t| t.log_likelihood_ratio)
            .sum())
    }

    /// As [`Self::log_likelihood_ratio_with`], allocating its own workspace.
    pub fn log_likelihood_ratio(&self, templates: &[&[f64]]) -> Result<f64, LikelihoodError> {
        self.log_likelihood_ratio_with(templates, &mut self.workspace())
    }

    /// ln L(h = 0) = −½Σ⟨d|d⟩ − ½Σ log det C − (N/2)Σ log 2π.
    pub fn noise_log_likelihood(&self) -> f64 {
        self.noise_log_likelihood
    }

    /// −½Σ⟨d|d⟩: the noise log-likelihood without the normalisation (bilby's
    /// `noise_log_likelihood`, docs/likelihood.md §1.7).
    pub fn unnormalised_noise_log_likelihood(&self) -> f64 {
        -0.5 * self.detectors.iter().map(|d| d.dd).sum::<f64>()
    }

    /// The full Gaussian ln L including the constant terms. Each detector's residual term is
    /// evaluated as (⟨d|h⟩ − ½⟨d|d⟩) − ½⟨h|h⟩ = −½⟨d−h|d−h⟩, which is exactly 0 when d = h.
    pub fn log_likelihood_with(
        &self,
        templates: &[&[f64]],
        ws: &mut LikelihoodWorkspace,
    ) -> Result<f64, LikelihoodError> {
        let terms = self.detector_terms_with(templates, ws)?;
        let ln_2pi = (2.0 * std::f64::consts::PI).ln();
        let n = self.grid.len as f64;
        Ok(self
            .detectors
            .iter()
            .zip(&terms)
            .map(|(det, t)| {
                let residual = (t.d_h - 0.5 * det.dd) - 0.5 * t.h_h;
                residual - 0.5 * det.noise.log_det() - 0.5 * n * ln_2pi
            })
            .sum())
    }

    /// As [`Self::log_likelihood_with`], allocating its own workspace.
    pub fn log_likelihood(&self, templates: &[&[f64]]) -> Result<f64, LikelihoodError> {
        self.log_likelihood_with(templates, &mut self.workspace())
    }

    /// ⟨a|b⟩ = aᵀC_k⁻¹b for detector `k`.
    pub fn inner_product(&self, k: usize, a: &[f64], b: &[f64]) -> Result<f64, LikelihoodError> {
        let det = self
            .detectors
            .get(k)
            .ok_or_else(|| LikelihoodError::LengthMismatch {
                what: "detector index".into(),
                got: k,
                expected: self.detectors.len(),
            })?;
        check_finite("template", &det.name, a)?;
        check_finite("template", &det.name, b)?;
        let mut ws = det.noise.workspace();
        Ok(det.noise.inner_product(a, b, &mut ws)?)
    }
}
