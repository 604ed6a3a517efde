//! bilby's precessing-spin parameters as LAL's component spins: the inclination of L̂_N and the
//! six spin components in the L0 frame at the reference frequency (docs/precession.md §7).
//!
//! bilby's `bilby_to_lalsimulation_spins` keeps aligned spins as they are and otherwise calls
//! LAL's `XLALSimInspiralTransformPrecessingNewInitialConditions`: spins placed relative to L̂_N,
//! J built with the 1PN orbital angular momentum, L̂_N put on its cone about J at azimuth φ_JL, the
//! line of sight N at θ_JN from J, and the spins finally expressed in the frame with L̂_N along z
//! and N in the y–z plane, turned by the orbital phase. The rotations below are LAL's, in its
//! order, so that the components agree with bilby's to rounding.

use tdpe_phenomt::constants::{MSUN_SI, MTSUN_SI};
use tdpe_phenomt::Real;

use crate::error::SignalError;

/// bilby's spin parameters of a precessing binary, at the reference frequency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrecessingSpins<T> {
    /// Dimensionless spin magnitudes, in [0, 1].
    pub a_1: T,
    pub a_2: T,
    /// Angles between each spin and L̂_N, in [0, π].
    pub tilt_1: T,
    pub tilt_2: T,
    /// Azimuth of spin 2 relative to spin 1 about L̂_N.
    pub phi_12: T,
    /// Azimuth of L̂_N on its cone about J.
    pub phi_jl: T,
}

impl<T: Real> PrecessingSpins<T> {
    /// The dimensionless spins in bilby's standard orientation: L̂_N along z, spin 1 in the x–z
    /// plane and spin 2 at azimuth φ_12 (φ_jl plays no part). Every view of the binary has
    /// them turned about z by [`LalSpins::turn`] (docs/precession.md §7.3).
    pub fn standard_orientation(&self) -> ([T; 3], [T; 3]) {
        let (sin_1, cos_1) = self.tilt_1.sin_cos();
        let (sin_2, cos_2) = self.tilt_2.sin_cos();
        let (sin_12, cos_12) = self.phi_12.sin_cos();
        (
            [self.a_1 * sin_1, T::from(0.0), self.a_1 * cos_1],
            [
                self.a_2 * sin_2 * cos_12,
                self.a_2 * sin_2 * sin_12,
                self.a_2 * cos_2,
            ],
        )
    }
}

/// What LAL's waveform functions take: the inclination ι of L̂_N to the line of sight, and the
/// dimensionless spins in the L0 frame (z along L̂_N at f_ref).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LalSpins<T> {
    pub inclination: T,
    pub chi_1: [T; 3],
    pub chi_2: [T; 3],
    /// The azimuth ψ′ by which these spins are the standard orientation's (spin 1 in the x–z
    /// plane, spin 2 at azimuth φ_12) turned about L̂_N: the azimuth of spin 1's in-plane
    /// direction, defined even without one (docs/precession.md §7.3). The phase itself for
    /// aligned spins, whose turns change nothing.
    pub turn: T,
}

/// Rotation of (x, y) by `angle` about z (LAL's `ROTATEZ`).
fn rotate_z<T: Real>(angle: T, v: &mut [T; 3]) {
    let (sin, cos) = angle.sin_cos();
    let x = v[0] * cos - v[1] * sin;
    let y = v[0] * sin + v[1] * cos;
    v[0] = x;
    v[1] = y;
}

/// Rotation of (x, z) by `angle` about y (LAL's `ROTATEY`).
fn rotate_y<T: Real>(angle: T, v: &mut [T; 3]) {
    let (sin, cos) = angle.sin_cos();
    let x = v[0] * cos + v[2] * sin;
    let z = -(v[0] * sin) + v[2] * cos;
    v[0] = x;
    v[2] = z;
}

/// |L| in units of M☉² at the reference frequency, to 1PN as LAL builds J:
/// M²(η/v0)(1 + v0²(3/2 + η/6)) at v0 = (π M f_ref)^(1/3).
fn orbital_angular_momentum<T: Real>(m1: T, m2: T, reference_frequency: f64) -> T {
    let total = m1 + m2;
    let eta = m1 * m2 / total / total;
    let v0 = (total * MTSUN_SI * std::f64::consts::PI * reference_frequency).powf(1.0 / 3.0);
    total * total * eta / v0 * (v0 * v0 * (eta / 6.0 + 1.5) + 1.0)
}

/// The spins and inclination that bilby passes to LAL for `spins` seen at `theta_jn`, with
/// detector-frame masses `mass_1`, `mass_2` (M☉), the reference frequency (Hz) and the orbital
/// `phase` (bilby's `bilby_to_lalsimulation_spins`).
pub fn lal_spins<T: Real>(
    spins: &PrecessingSpins<T>,
    theta_jn: T,
    mass_1: T,
    mass_2: T,
    reference_frequency: f64,
    phase: T,
) -> Result<LalSpins<T>, SignalError> {
    for (name, a) in [("a_1", spins.a_1), ("a_2", spins.a_2)] {
        let value = a.re();
        if !(0.0..=1.0).contains(&value) {
            return Err(SignalError::OutOfRange {
                name,
                value,
                allowed: "[0, 1]",
            });
        }
    }
    for (name, angle) in [
        ("tilt_1", spins.tilt_1),
        ("tilt_2", spins.tilt_2),
        ("phi_12", spins.phi_12),
        ("phi_jl", spins.phi_jl),
        ("theta_jn", theta_jn),
        ("phase", phase),
    ] {
        let value = angle.re();
        if !value.is_finite() {
            return Err(SignalError::OutOfRange {
                name,
                value,
                allowed: "finite angles",
            });
        }
    }
    if !(reference_frequency > 0.0 && reference_frequency.is_finite()) {
        return Err(SignalError::OutOfRange {
            name: "reference_frequency",
            value: reference_frequency,
            allowed: "(0, ∞) Hz",
        });
    }
    let zero = T::from(0.0);
    let pi = std::f64::consts::PI;
    // bilby's exact test: no in-plane spin at all.
    let aligned = |a: T, tilt: T| a.re() == 0.0 || tilt.re() == 0.0 || tilt.re() == pi;
    if aligned(spins.a_1, spins.tilt_1) && aligned(spins.a_2, spins.tilt_2) {
        return Ok(LalSpins {
            inclination: theta_jn,
            chi_1: [zero, zero, spins.a_1 * spins.tilt_1.cos()],
            chi_2: [zero, zero, spins.a_2 * spins.tilt_2.cos()],
            turn: phase,
        });
    }

    // Unit spins relative to L̂_N = ẑ, spin 1 at the azimuth of the phase.
    let (sin_t1, cos_t1) = spins.tilt_1.sin_cos();
    let (sin_t2, cos_t2) = spins.tilt_2.sin_cos();
    let (sin_p1, cos_p1) = phase.sin_cos();
    let (sin_p2, cos_p2) = (spins.phi_12 + phase).sin_cos();
    let mut s1 = [sin_t1 * cos_p1, sin_t1 * sin_p1, cos_t1];
    let mut s2 = [sin_t2 * cos_p2, sin_t2 * sin_p2, cos_t2];
    // The in-plane direction of spin 1, which the same turns carry to azimuth ψ′.
    let mut in_plane = [cos_p1, sin_p1, zero];
    let mut l_hat = [zero, zero, T::from(1.0)];

    // J = L + S1 + S2 in units of M☉², with the 1PN |L| at v0 = (π M f_ref)^(1/3); LAL takes the
    // masses in kg, so they make the round trip through kilograms as bilby passes them.
    let m1 = mass_1 * MSUN_SI / MSUN_SI;
    let m2 = mass_2 * MSUN_SI / MSUN_SI;
    let l_mag = orbital_angular_momentum(m1, m2, reference_frequency);
    let s1_scale = m1 * m1 * spins.a_1;
    let s2_scale = m2 * m2 * spins.a_2;
    let j = [
        s1_scale * s1[0] + s2_scale * s2[0],
        s1_scale * s1[1] + s2_scale * s2[1],
        l_mag + s1_scale * s1[2] + s2_scale * s2[2],
    ];
    let j_norm = (j[0] * j[0] + j[1] * j[1] + j[2] * j[2]).sqrt();
    let theta0 = (j[2] / j_norm).acos();
    let phi0 = (j[1] / j_norm).atan2(j[0] / j_norm);

    // J along z, then L̂_N to azimuth φ_JL on its cone (it starts at azimuth π).
    for v in [&mut s1, &mut s2, &mut in_plane] {
        rotate_z(-phi0, v);
    }
    for v in [&mut l_hat, &mut s1, &mut s2, &mut in_plane] {
        rotate_y(-theta0, v);
    }
    for v in [&mut l_hat, &mut s1, &mut s2, &mut in_plane] {
        rotate_z(spins.phi_jl - pi, v);
    }

    // N at θ_JN from J in the y–z plane.
    let (sin_jn, cos_jn) = theta_jn.sin_cos();
    let mut n = [zero, sin_jn, cos_jn];
    let inclination = (n[0] * l_hat[0] + n[1] * l_hat[1] + n[2] * l_hat[2]).acos();

    // L̂_N back to z, then N into the y–z plane with a positive y, turned by the phase.
    let theta_lj = l_hat[2].acos();
    let phi_l = l_hat[1].atan2(l_hat[0]);
    for v in [&mut s1, &mut s2, &mut n, &mut in_plane] {
        rotate_z(-phi_l, v);
    }
    for v in [&mut s1, &mut s2, &mut n, &mut in_plane] {
        rotate_y(-theta_lj, v);
    }
    let phi_n = n[1].atan2(n[0]);
    let turn = T::from(pi / 2.0) - phi_n - phase;
    for v in [&mut s1, &mut s2, &mut in_plane] {
        rotate_z(turn, v);
    }
    Ok(LalSpins {
        inclination,
        chi_1: s1.map(|c| c * spins.a_1),
        chi_2: s2.map(|c| c * spins.a_2),
        turn: in_plane[1].atan2(in_plane[0]),
    })
}

/// bilby's spins and θ_JN of a binary whose dimensionless spins `chi_1`, `chi_2` are given in
/// the frame of [`lal_spins`] at phase 0 (L̂_N along z, the line of sight N in the y–z plane
/// with a positive y) and whose L̂_N is at `inclination` from N: the inverse of `lal_spins` at
/// phase 0, as LAL's `XLALSimInspiralTransformPrecessingWvf2PE` (docs/precession.md §12.9).
/// For another phase φ, `lal_spins` gives these spins turned by −φ about z. Spins without an
/// in-plane part have φ_12 = 0; without any spin, φ_JL = 0.
pub fn bilby_spins<T: Real>(
    chi_1: [T; 3],
    chi_2: [T; 3],
    inclination: T,
    mass_1: T,
    mass_2: T,
    reference_frequency: f64,
) -> (PrecessingSpins<T>, T) {
    let tau = std::f64::consts::TAU;
    let norm = |v: &[T; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    let dot = |u: &[T; 3], v: &[T; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let wrap = |angle: T| {
        if angle.re() < 0.0 {
            angle + tau
        } else {
            angle
        }
    };
    let (a_1, a_2) = (norm(&chi_1), norm(&chi_2));
    let tilt = |chi: &[T; 3], a: T| {
        if a.re() > 0.0 {
            (chi[2] / a).acos()
        } else {
            T::from(0.0)
        }
    };
    let phi_12 = wrap(chi_2[1].atan2(chi_2[0]) - chi_1[1].atan2(chi_1[0]));

    let l_mag = orbital_angular_momentum(mass_1, mass_2, reference_frequency);
    let (s1, s2) = (mass_1 * mass_1, mass_2 * mass_2);
    let j = [
        chi_1[0] * s1 + chi_2[0] * s2,
        chi_1[1] * s1 + chi_2[1] * s2,
        l_mag + chi_1[2] * s1 + chi_2[2] * s2,
    ];
    let j_norm = norm(&j);
    let j_hat = j.map(|c| c / j_norm);
    let (sin_i, cos_i) = inclination.sin_cos();
    let n = [T::from(0.0), sin_i, cos_i];
    let cos_jn = dot(&j_hat, &n);
    let theta_jn = cos_jn.acos();
    // The frame of φ_JL: J along z, N in the y–z plane with a positive y; L̂_N's azimuth there.
    let n_across = [0, 1, 2].map(|i| n[i] - j_hat[i] * cos_jn);
    let n_across_norm = norm(&n_across);
    let e_y = n_across.map(|c| c / n_across_norm);
    let e_x = [
        e_y[1] * j_hat[2] - e_y[2] * j_hat[1],
        e_y[2] * j_hat[0] - e_y[0] * j_hat[2],
        e_y[0] * j_hat[1] - e_y[1] * j_hat[0],
    ];
    let phi_jl = wrap(e_y[2].atan2(e_x[2]));
    (
        PrecessingSpins {
            a_1,
            a_2,
            tilt_1: tilt(&chi_1, a_1),
            tilt_2: tilt(&chi_2, a_2),
            phi_12,
            phi_jl,
        },
        theta_jn,
    )
}
