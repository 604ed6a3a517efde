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

/// ₋₂Y_lm(ι, φ) as (re, im), for l ≥ 2 and |m| ≤ l: [`spin_weighted_factor`]·e^(imφ).
pub(crate) fn spin_weighted_y<T: Real>(l: u32, m: i32, inclination: T, azimuth: T) -> (T, T) {
    let y = spin_weighted_factor(l, m, inclination);
    let (sin_m, cos_m) = (azimuth * f64::from(m)).sin_cos();
    (y * cos_m, y * sin_m)
}

/// The real factor f_lm(ι) of ₋₂Y_lm(ι, φ) = f_lm(ι) e^(imφ), for l ≥ 2 and |m| ≤ l (0 for
/// other (l, m)): the closed form of Goldberg et al. (J. Math. Phys. 8, 2155 (1967), eq. 3.1) in
/// LAL's sign convention (`XLALSpinWeightedSphericalHarmonic`), each term a product of powers
/// of cos(ι/2) and sin(ι/2) so that it stays finite at ι = 0 and π (docs/imrphenomt.md §12.6).
pub fn spin_weighted_factor<T: Real>(l: u32, m: i32, inclination: T) -> T {
    const S: i32 = -2;
    if l < 2 || m.unsigned_abs() > l {
        return T::from(0.0);
    }
    let l = l as i32;
    let factorial = |n: i32| (1..=n).map(f64::from).product::<f64>();
    let binomial = |n: i32, k: i32| {
        if k < 0 || k > n {
            0.0
        } else {
            factorial(n) / (factorial(k) * factorial(n - k))
        }
    };
    let sign = if m % 2 == 0 { 1.0 } else { -1.0 };
    let norm = sign
        * (factorial(l + m) * factorial(l - m) * f64::from(2 * l + 1)
            / (4.0 * PI * factorial(l + S) * factorial(l - S)))
        .sqrt();
    let (sin_half, cos_half) = (inclination * 0.5).sin_cos();
    let mut sum = T::from(0.0);
    for r in 0..=(l - S) {
        let weight = binomial(l - S, r) * binomial(l + S, r + S - m);
        if weight == 0.0 {
            continue;
        }
        let sign = if (l - r - S) % 2 == 0 { 1.0 } else { -1.0 };
        // sin^(2l)(ι/2)·cot^(2r+s−m)(ι/2) = cos^a(ι/2)·sin^(2l−a)(ι/2), a = 2r + s − m ≥ 0.
        let a = 2 * r + S - m;
        sum += integer_power(cos_half, a) * integer_power(sin_half, 2 * l - a) * (sign * weight);
    }
    sum * norm
}

/// x^n for n ≥ 0 by repeated multiplication.
fn integer_power<T: Real>(x: T, n: i32) -> T {
    (0..n).fold(T::from(1.0), |p, _| p * x)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against the closed forms LAL writes out, and normalised over the sphere.
    #[test]
    fn spin_weighted_harmonics_are_lals() {
        let (phi, iota) = (0.7, 1.1_f64);
        let (c, s) = ((iota / 2.0).cos(), (iota / 2.0).sin());
        let expected = [
            (2, 2, y22_factors(iota).0),
            (2, -2, y22_factors(iota).1),
            (
                2,
                1,
                (5.0 / (16.0 * PI)).sqrt() * iota.sin() * (1.0 + iota.cos()),
            ),
            (2, 0, (15.0 / (32.0 * PI)).sqrt() * iota.sin().powi(2)),
            (3, 3, -(21.0 / (2.0 * PI)).sqrt() * c.powi(5) * s),
            (3, -3, (21.0 / (2.0 * PI)).sqrt() * c * s.powi(5)),
            (4, 4, 3.0 * (7.0 / PI).sqrt() * c.powi(6) * s.powi(2)),
        ];
        for (l, m, modulus) in expected {
            let (re, im) = spin_weighted_y(l, m, iota, phi);
            let (sin, cos) = (f64::from(m) * phi).sin_cos();
            assert!((re - modulus * cos).abs() < 1e-14, "({l},{m}): {re}");
            assert!((im - modulus * sin).abs() < 1e-14, "({l},{m}): {im}");
        }
        for (l, m) in [(5, -4), (5, 5), (3, 0)] {
            // ∫|Y|² dΩ = 2π ∫₀^π |Y|² sin ι dι, by the midpoint rule.
            let n = 20_000;
            let norm: f64 = (0..n)
                .map(|k| {
                    let x = (k as f64 + 0.5) * PI / n as f64;
                    let (re, im) = spin_weighted_y(l, m, x, 0.0);
                    (re * re + im * im) * x.sin()
                })
                .sum::<f64>()
                * 2.0
                * PI
                * PI
                / n as f64;
            assert!((norm - 1.0).abs() < 1e-8, "({l},{m}): {norm}");
        }
    }
}
