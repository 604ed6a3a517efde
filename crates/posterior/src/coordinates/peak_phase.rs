//! Sampling coordinate for the orbital phase: the phase at the peak of the signal
//! (docs/sampling.md §3.4).
//!
//! bilby's `phase` φ is the reference phase at f_ref, where LAL sets the (2,2) mode's phase to
//! zero. With h22 = A e^(−iΦ(t)) and ₋₂Y₂₂(ι, π/2 − φ) ∝ e^(2i(π/2 − φ)) (harmonics.rs), the
//! detectors see at the peak (t = 0) the phase π − 2φ − Δ(λ), where Δ(λ) = Φ(0) − Φ(t_ref) is
//! the (2,2) phase accumulated from f_ref to the peak: tens of radians that change with the
//! chirp mass, mass ratio and spins λ across the posterior. The data pin the phase at the peak
//! to a fraction of a radian, so in (λ, φ) the posterior is a thin sheet curved along λ, which
//! a constant metric cannot follow. Sampling φ_peak = φ + Δ(λ)/2 instead (mod 2π) flattens it.
//! For fixed λ the map is a rotation of the circle, so θ(s) is a shear with det ∂θ/∂s = 1 and
//! the prior needs no Jacobian; ∂Δ/∂λ comes from the waveform's set-up in dual numbers.
//!
//! Near face-on or face-off the (2,2) signal depends on φ_peak and ψ only through φ_peak ± ψ, a
//! straight ridge in (ψ, φ_peak) that wraps around the torus. A shear δ = φ_peak + sign(cos θ_jn)ψ
//! (bilby's `delta_phase`) would straighten it for one sign of cos θ_jn but tilt it for the other,
//! and two-detector posteriors often have both; [`crate::coordinates::circular_phases`] samples both sums
//! instead.

use tdpe_signal::{Parameter, ParameterVector};

use std::f64::consts::TAU;

use tdpe_phenomt::Dual;
use tdpe_signal::{SignalError, SignalModel};

use crate::transform::{spans_period, wrap};

/// The map between bilby's `phase` and the phase at the peak; see the module documentation.
#[derive(Debug, Clone)]
pub struct PeakPhase {
    model: SignalModel,
    /// The phase prior's support [lower, lower + 2π).
    lower: f64,
}

/// ∂θ_phase/∂(chirp_mass, mass_ratio, chi_1, chi_2) of the map s → θ (the other entries of
/// ∂θ/∂s are those of the identity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhaseJacobian {
    pub d_intrinsic: [f64; 4],
}

impl PhaseJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        for (parameter, d) in Parameter::ALIGNED_INTRINSIC
            .into_iter()
            .zip(&self.d_intrinsic)
        {
            out[parameter] += d * g[Parameter::Phase];
        }
        out
    }
}

impl PeakPhase {
    /// The map for waveforms of `model` and a phase prior on [lower, upper); `None` unless the
    /// support is one full turn (a shift by Δ/2 is a bijection of the support only then).
    pub fn new(model: SignalModel, support: (f64, f64)) -> Option<Self> {
        spans_period(support, TAU).then_some(Self {
            model,
            lower: support.0,
        })
    }

    fn in_support(&self, phase: f64) -> f64 {
        wrap(phase, self.lower, TAU)
    }

    /// Δ(λ) = Φ(0) − Φ(t_ref) of the (2,2) mode, with its derivatives in λ.
    fn accumulated_phase(&self, theta: &ParameterVector) -> Result<Dual<4>, SignalError> {
        // The likelihood's gradient at this point sets up the same waveform: the model keeps
        // it, so the two share one set-up.
        let [chirp_mass, mass_ratio, chi_1, chi_2] = Parameter::ALIGNED_INTRINSIC.map(|p| theta[p]);
        let waveform = self
            .model
            .waveform_with_derivatives(chirp_mass, mass_ratio, chi_1, chi_2)?;
        Ok(waveform.mode22(Dual::from(0.0)).phase)
    }

    /// s of θ: φ_peak = φ + Δ(λ)/2 in place of φ.
    pub fn sampled(&self, theta: &ParameterVector) -> Result<ParameterVector, SignalError> {
        let mut s = *theta;
        s[Parameter::Phase] =
            self.in_support(theta[Parameter::Phase] + 0.5 * self.accumulated_phase(theta)?.re);
        Ok(s)
    }

    /// θ of s (whose λ are already the physical ones), with the Jacobian. Where the waveform
    /// cannot be set up the phase is NaN, so that the posterior there is −∞.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, PhaseJacobian) {
        let mut theta = *s;
        match self.accumulated_phase(s) {
            Ok(delta) => {
                theta[Parameter::Phase] = self.in_support(s[Parameter::Phase] - 0.5 * delta.re);
                let d_intrinsic = delta.eps.map(|d| -0.5 * d);
                (theta, PhaseJacobian { d_intrinsic })
            }
            Err(_) => {
                theta[Parameter::Phase] = f64::NAN;
                let d_intrinsic = [0.0; 4];
                (theta, PhaseJacobian { d_intrinsic })
            }
        }
    }
}
