//! The ringdown of a mode, amplitude and phase, in the Damour–Nagar form that every mode of
//! IMRPhenomT(HM) uses with its own quasi-normal modes and fits (arXiv:1406.0401 eqs. 4–9;
//! arXiv:2012.11923 eqs. 25–26; docs/imrphenomt.md §5–§6, §12).
//!
//! The coefficients are built here once for every mode. IMRPhenomTPHM builds them a second time
//! with the precessing final spin, which replaces the aligned one in the ringdown only
//! (docs/precession.md §2.2).

use crate::gsl;
use crate::scalar::Real;

/// A mode's ringdown amplitude A(τ) = e^(−α₁τ)(c₁ tanh(c₂τ + c₃) + c₄), τ after the mode's peak
/// (arXiv:1406.0401 eq. 4; LAL's `IMRPhenomTRDAmpAnsatzHM`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RingdownAmplitude<T> {
    /// Damping rate 2π·f_damp of the fundamental quasi-normal mode, in 1/M.
    pub alpha1: T,
    /// c₁ … c₄.
    pub c: [T; 4],
}

impl<T: Real> RingdownAmplitude<T> {
    /// From the peak amplitude, the fitted c₃ and the damping rates of the fundamental mode and
    /// of its first overtone (eqs. 6–8): c₂ from the overtone, clamped so that the amplitude has
    /// no second peak; c₁ and c₄ give the peak value and a zero slope there.
    pub fn new(amp_peak: T, c3: T, alpha1: T, alpha2: T) -> Self {
        let cosh_c3 = gsl::cosh(c3);
        let tanh_c3 = gsl::tanh(c3);
        let mut c2 = (alpha2 - alpha1) * 0.5;
        if c2.abs().re() > (alpha1 * 0.5 / tanh_c3).abs().re() {
            c2 = -(alpha1 * 0.5 / tanh_c3);
        }
        let c1 = amp_peak * alpha1 * cosh_c3 * cosh_c3 / c2;
        let c4 = amp_peak - c1 * tanh_c3;
        Self {
            alpha1,
            c: [c1, c2, c3, c4],
        }
    }

    /// A(τ), real and possibly negative.
    pub fn value(&self, tau: T) -> T {
        let [c1, c2, c3, c4] = self.c;
        (-self.alpha1 * tau).exp() * (c1 * (c2 * tau + c3).tanh() + c4)
    }
}

/// c₁ = (1 + c₃ + c₄)(ω_RING − ω_peak)/c₂/(c₃ + 2c₄) with c₄ = 0, so that the ringdown frequency
/// is ω_peak at the peak (arXiv:1406.0401 eq. 9).
pub(crate) fn frequency_c1<T: Real>(omega_ring: T, omega_peak: T, c2: T, c3: T) -> T {
    (c3 + 1.0) * (omega_ring - omega_peak) / c2 / c3
}

/// A mode's ringdown phase φ(t) = c₁ ln((1 + c₃e^(−c₂t))/(1 + c₃)) + ω_RING·t + φ₀, t after the
/// peak of |h22| (arXiv:1406.0401 eq. 5; `IMRPhenomTRDPhaseAnsatz22`/`HM`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RingdownPhase<T> {
    pub c1: T,
    pub c2: T,
    pub c3: T,
    pub omega_ring: T,
    /// φ₀, the phase at the peak.
    pub offset: T,
}

impl<T: Real> RingdownPhase<T> {
    /// The phase whose frequency starts at `omega_peak` and tends to `omega_ring`, with the
    /// fitted c₂, c₃, and the value `offset` at the peak.
    pub fn new(omega_ring: T, omega_peak: T, c2: T, c3: T, offset: T) -> Self {
        Self {
            c1: frequency_c1(omega_ring, omega_peak, c2, c3),
            c2,
            c3,
            omega_ring,
            offset,
        }
    }

    /// φ(t).
    pub fn phase(&self, t: T) -> T {
        let exp_c = (-self.c2 * t).exp();
        let log = ((self.c3 * exp_c + 1.0) / (self.c3 + 1.0)).ln();
        self.c1 * log + self.omega_ring * t + self.offset
    }

    /// dφ/dt (`IMRPhenomTRDOmegaAnsatzHM` with c₄ = 0).
    pub fn omega(&self, t: T) -> T {
        let exp_c = (-self.c2 * t).exp();
        let num = self.c1 * -(self.c2 * self.c3 * exp_c);
        num / (self.c3 * exp_c + 1.0) + self.omega_ring
    }
}
