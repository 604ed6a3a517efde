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
//! A precessing binary's co-precessing (2,2) mode is the aligned-spin one of its aligned
//! components χ_iz = a_i cos tilt_i, and φ turns it as it turns the aligned mode
//! (docs/precession.md §7.3), so the same shear applies with Δ of (M_c, q, χ_1z, χ_2z); what the
//! precession angles add between f_ref and the peak it does not follow (§12.9).
//!
//! Near face-on or face-off the (2,2) signal depends on φ_peak and ψ only through φ_peak ± ψ, a
//! straight ridge in (ψ, φ_peak) that wraps around the torus. A shear δ = φ_peak + sign(cos θ_jn)ψ
//! (bilby's `delta_phase`) would straighten it for one sign of cos θ_jn but tilt it for the other,
//! and two-detector posteriors often have both; [`crate::coordinates::circular_phases`] samples both sums
//! instead.

use tdpe_signal::{Parameter, ParameterVector};

use std::f64::consts::TAU;

use tdpe_phenomt::Dual;
use tdpe_signal::{SignalError, SignalModel, SpinModel};

use crate::transform::{spans_period, wrap};

/// The map between bilby's `phase` and the phase at the peak; see the module documentation.
#[derive(Debug, Clone)]
pub struct PeakPhase {
    model: SignalModel,
    /// Which spins θ holds (the priors').
    spins: SpinModel,
    /// The phase prior's support [lower, lower + 2π).
    lower: f64,
}

/// ∂θ_phase/∂s for the parameters Δ depends on: the masses and the aligned spins, or the
/// masses and the precessing spins' magnitudes and tilts (the other entries of ∂θ/∂s are those
/// of the identity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhaseJacobian {
    d_intrinsic: [(Parameter, f64); 6],
    count: usize,
}

impl PhaseJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        for &(parameter, d) in &self.d_intrinsic[..self.count] {
            out[parameter] += d * g[Parameter::Phase];
        }
        out
    }

    /// ∂θ_phase/∂s from ∂θ_phase/∂(chirp_mass, mass_ratio, χ_1z, χ_2z) `d` at `s`.
    fn new(d: [f64; 4], spins: SpinModel, s: &ParameterVector) -> Self {
        let [mc, q, chi_1, chi_2] = d;
        match spins {
            SpinModel::Aligned => {
                let [p_mc, p_q, p_1, p_2] = Parameter::ALIGNED_INTRINSIC;
                let pad = (p_1, 0.0);
                Self {
                    d_intrinsic: [(p_mc, mc), (p_q, q), (p_1, chi_1), (p_2, chi_2), pad, pad],
                    count: 4,
                }
            }
            SpinModel::Precessing => {
                // χ_iz = a_i cos tilt_i.
                let along = |d_chi: f64, a: Parameter, tilt: Parameter| {
                    let (sin, cos) = s[tilt].sin_cos();
                    [(a, d_chi * cos), (tilt, -d_chi * s[a] * sin)]
                };
                let [a_1, tilt_1] = along(chi_1, Parameter::A1, Parameter::Tilt1);
                let [a_2, tilt_2] = along(chi_2, Parameter::A2, Parameter::Tilt2);
                Self {
                    d_intrinsic: [
                        (Parameter::ChirpMass, mc),
                        (Parameter::MassRatio, q),
                        a_1,
                        tilt_1,
                        a_2,
                        tilt_2,
                    ],
                    count: 6,
                }
            }
        }
    }
}

impl PeakPhase {
    /// The map for waveforms of `model`, parameters with `spins` and a phase prior on
    /// [lower, upper); `None` unless the support is one full turn (a shift by Δ/2 is a
    /// bijection of the support only then).
    pub fn new(model: SignalModel, spins: SpinModel, support: (f64, f64)) -> Option<Self> {
        spans_period(support, TAU).then_some(Self {
            model,
            spins,
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
        let [chirp_mass, mass_ratio, chi_1, chi_2] = match self.spins {
            SpinModel::Aligned => Parameter::ALIGNED_INTRINSIC.map(|p| theta[p]),
            SpinModel::Precessing => [
                theta[Parameter::ChirpMass],
                theta[Parameter::MassRatio],
                theta[Parameter::A1] * theta[Parameter::Tilt1].cos(),
                theta[Parameter::A2] * theta[Parameter::Tilt2].cos(),
            ],
        };
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
                let d = delta.eps.map(|d| -0.5 * d);
                (theta, PhaseJacobian::new(d, self.spins, s))
            }
            Err(_) => {
                theta[Parameter::Phase] = f64::NAN;
                (theta, PhaseJacobian::new([0.0; 4], self.spins, s))
            }
        }
    }
}
