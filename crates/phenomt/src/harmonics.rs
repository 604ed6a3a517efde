//! Spin-weighted spherical harmonics of spin weight −2 for l = 2, in LAL's conventions
//! (`XLALSpinWeightedSphericalHarmonic`, lal/lib/utilities/SphericalHarmonics.c):
//! ₋₂Y₂ₘ(ι, φ) = f₂ₘ(ι) e^(imφ).

use std::f64::consts::PI;

use crate::scalar::Real;

/// The real factors (f₂₂(ι), f₂₋₂(ι)) = √(5/64π) ((1 + cos ι)², (1 − cos ι)²).
pub fn y22_factors<T: Real>(inclination: T) -> (T, T) {
    let c = inclination.cos();
    let norm = (5.0 / (64.0 * PI)).sqrt();
    ((c + 1.0) * (c + 1.0) * norm, (c - 1.0) * (c - 1.0) * norm)
}

/// h₊ and h× from the (2,2) mode h22 = A e^(−iΦ) and h2−2 = conj(h22):
/// h₊ − i h× = h22 ₋₂Y22(ι, π/2 − φ_ref) + h2−2 ₋₂Y2−2(ι, π/2 − φ_ref).
pub fn polarizations_from_22<T: Real>(
    amplitude: T,
    phase: T,
    inclination: T,
    phi_ref: T,
) -> (T, T) {
    Projection::new(inclination, phi_ref).apply(amplitude, phase)
}

/// [`polarizations_from_22`] for one inclination and reference phase, with the harmonics
/// computed once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Projection<T> {
    /// f₂₂(ι) + f₂₋₂(ι).
    plus: T,
    /// f₂₂(ι) − f₂₋₂(ι).
    cross: T,
    /// 2·(π/2 − φ_ref).
    two_azimuth: T,
}

impl<T: Real> Projection<T> {
    pub(crate) fn new(inclination: T, phi_ref: T) -> Self {
        let azimuth = -(phi_ref - PI / 2.0);
        let (y_plus, y_minus) = y22_factors(inclination);
        Self {
            plus: y_plus + y_minus,
            cross: y_plus - y_minus,
            two_azimuth: azimuth * 2.0,
        }
    }

    /// (h₊, h×) for the (2,2) mode A e^(−iΦ).
    #[inline]
    pub(crate) fn apply(&self, amplitude: T, phase: T) -> (T, T) {
        // h22·Y22 = A f₂₂ e^(iψ) and h2−2·Y2−2 = A f₂₋₂ e^(−iψ), with ψ = 2·azimuth − Φ.
        let (sin_psi, cos_psi) = (self.two_azimuth - phase).sin_cos();
        (
            amplitude * self.plus * cos_psi,
            -(amplitude * self.cross * sin_psi),
        )
    }
}
