//! Sampling coordinates for precessing spins: each spin as a vector seen from the line of sight,
//! and the inclination of L̂_N (docs/precession.md §12.9).
//!
//! bilby's (a_i, tilt_i, φ_12, φ_JL, θ_JN) describe the spins in polar coordinates about L̂_N and
//! J. What the data measure — the aligned components, the in-plane spin and its direction
//! relative to the line of sight — are nearly linear in the spins' Cartesian components, but
//! curved ridges and funnels in the polar angles (φ_12 is free where an in-plane spin is small
//! and tightly bound where it is large). Here the sampler moves instead over
//!
//! - v₁, v₂ ∈ ℝ³: the spins χ_i = A_i F(|v_i|) v_i/|v_i| in the frame with L̂_N along z and the
//!   line of sight N in the y–z plane (that of `lal_spins` at phase 0), where F is the CDF of the χ
//!   distribution with three degrees of freedom and A_i the largest magnitude;
//! - ι ∈ (0, π), the inclination of L̂_N to N (in θ_JN's slot);
//!
//! with the phase, the masses and everything else as they are. A prior uniform in a_i ∈ [0, A_i]
//! and isotropic in direction makes v_i a standard normal vector, and an isotropic orientation
//! (θ_JN Sine, φ_JL uniform) makes ι Sine-distributed, so in these coordinates bilby's precessing
//! prior is smooth and unbounded but for ι. The map is a bijection away from the measure-zero
//! sets where an angle is undefined, with
//!
//!   ln|det ∂θ/∂s| = Σ_i [ln(A_i √(2/π)) − |v_i|²/2 − ln sin tilt_i] + ln sin ι − ln sin θ_JN,
//!
//! which cancels the Sine priors' sin tilt_i and sin θ_JN (§12.9 derives it). θ_JN and φ_JL
//! depend on the masses through J, so the map reads chirp_mass and mass_ratio too.

use tdpe_phenomt::{Dual, Real};
use tdpe_signal::{
    bilby_spins, component_masses, lal_spins, BbhParameters, Parameter, ParameterVector,
};

/// s's slots that hold the components of v₁ and v₂.
pub const VECTOR_SLOTS: [[Parameter; 3]; 2] = [
    [Parameter::A1, Parameter::Tilt1, Parameter::Phi12],
    [Parameter::A2, Parameter::Tilt2, Parameter::PhiJl],
];

/// s's slots the map reads, in the order of its derivatives: v₁, v₂, ι, then the masses.
const INPUTS: [Parameter; 9] = [
    Parameter::A1,
    Parameter::Tilt1,
    Parameter::Phi12,
    Parameter::A2,
    Parameter::Tilt2,
    Parameter::PhiJl,
    Parameter::ThetaJn,
    Parameter::ChirpMass,
    Parameter::MassRatio,
];

/// θ's slots the map writes (the first seven inputs' slots, which it takes over).
const OUTPUTS: [Parameter; 7] = [
    Parameter::A1,
    Parameter::A2,
    Parameter::Tilt1,
    Parameter::Tilt2,
    Parameter::Phi12,
    Parameter::PhiJl,
    Parameter::ThetaJn,
];

/// √(2/π).
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

/// F(r) = erf(r/√2) − √(2/π) r e^(−r²/2), the CDF of the χ₃ distribution, and F′(r).
fn radial_cdf(r: f64) -> (f64, f64) {
    let gauss = SQRT_2_OVER_PI * (-0.5 * r * r).exp();
    let value = libm::erf(r / std::f64::consts::SQRT_2) - r * gauss;
    (value, r * r * gauss)
}

/// F⁻¹(u) for u ∈ [0, 1), by bisection (F rises from 0 to 1 − 10⁻³⁰ on [0, 12]).
fn radial_quantile(u: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 12.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if radial_cdf(mid).0 < u {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The spin vectors' map, for spin magnitudes up to `max_magnitude` and spins defined at
/// `reference_frequency` (Hz).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpinVectors {
    max_magnitude: [f64; 2],
    reference_frequency: f64,
}

/// ∂θ/∂s of [`SpinVectors`] for θ's seven spin and orientation slots against s's nine inputs,
/// and ln|det ∂θ/∂s| with its s-gradient.
#[derive(Debug, Clone, PartialEq)]
pub struct SpinVectorJacobian {
    d_theta: [[f64; 9]; 7],
    pub log_det: f64,
    d_log_det: [f64; 9],
}

impl SpinVectorJacobian {
    /// (∂θ/∂s)ᵀ g: the gradient in s of a function with θ-gradient `g`.
    pub fn pull_back(&self, g: &ParameterVector) -> ParameterVector {
        let mut out = *g;
        for (j, &slot) in INPUTS.iter().enumerate() {
            let through: f64 = OUTPUTS
                .iter()
                .zip(&self.d_theta)
                .map(|(&output, row)| row[j] * g[output])
                .sum();
            if j < OUTPUTS.len() {
                out[slot] = through;
            } else {
                out[slot] += through;
            }
        }
        out
    }

    /// Adds the s-gradient of ln|det ∂θ/∂s| to `d_s`.
    pub fn add_log_det_gradient(&self, d_s: &mut ParameterVector) {
        for (&slot, d) in INPUTS.iter().zip(&self.d_log_det) {
            d_s[slot] += d;
        }
    }
}

impl SpinVectors {
    /// The map for magnitudes uniform on [0, A_i] (`max_magnitude`, each in (0, 1]).
    pub fn new(max_magnitude: [f64; 2], reference_frequency: f64) -> Option<Self> {
        let valid = max_magnitude.iter().all(|&a| a > 0.0 && a <= 1.0)
            && reference_frequency > 0.0
            && reference_frequency.is_finite();
        valid.then_some(Self {
            max_magnitude,
            reference_frequency,
        })
    }

    /// The spin A F(|v|) v/|v| of the vector `v` with largest magnitude `max`.
    fn spin<T: Real>(v: &[T; 3], max: f64) -> [T; 3] {
        let r = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let (value, slope) = radial_cdf(r.re());
        let magnitude = r.lift(max * value, max * slope);
        v.map(|c| c * magnitude / r)
    }

    /// θ's seven slots and ln|det ∂θ/∂s| at the inputs `x` (v₁, v₂, ι, chirp_mass, mass_ratio).
    fn outputs<T: Real>(&self, x: &[T; 9]) -> ([T; 7], T) {
        let v = [[x[0], x[1], x[2]], [x[3], x[4], x[5]]];
        let iota = x[6];
        let (mass_1, mass_2) = component_masses(x[7], x[8]);
        let chi = [0, 1].map(|i| Self::spin(&v[i], self.max_magnitude[i]));
        let (spins, theta_jn) = bilby_spins(
            chi[0],
            chi[1],
            iota,
            mass_1,
            mass_2,
            self.reference_frequency,
        );
        let mut log_det = iota.sin().ln() - theta_jn.sin().ln();
        for (i, tilt) in [spins.tilt_1, spins.tilt_2].into_iter().enumerate() {
            let r2 = v[i][0] * v[i][0] + v[i][1] * v[i][1] + v[i][2] * v[i][2];
            log_det +=
                -(r2 * 0.5) - tilt.sin().ln() + (self.max_magnitude[i] * SQRT_2_OVER_PI).ln();
        }
        (
            [
                spins.a_1,
                spins.a_2,
                spins.tilt_1,
                spins.tilt_2,
                spins.phi_12,
                spins.phi_jl,
                theta_jn,
            ],
            log_det,
        )
    }

    /// θ of s, with the Jacobian there.
    pub fn theta(&self, s: &ParameterVector) -> (ParameterVector, SpinVectorJacobian) {
        let x: [Dual<9>; 9] = std::array::from_fn(|k| Dual::variable(s[INPUTS[k]], k));
        let (outputs, log_det) = self.outputs(&x);
        let mut theta = *s;
        for (&slot, output) in OUTPUTS.iter().zip(&outputs) {
            theta[slot] = output.re();
        }
        let jacobian = SpinVectorJacobian {
            d_theta: outputs.map(|o| o.eps),
            log_det: log_det.re(),
            d_log_det: log_det.eps,
        };
        (theta, jacobian)
    }

    /// s of θ; NaN in the map's slots where bilby's spins are out of range.
    pub fn sampled(&self, theta: &ParameterVector) -> ParameterVector {
        let mut s = *theta;
        let (mass_1, mass_2) =
            component_masses(theta[Parameter::ChirpMass], theta[Parameter::MassRatio]);
        let Ok(lal) = lal_spins(
            &BbhParameters::from_array(*theta).precessing_spins(),
            theta[Parameter::ThetaJn],
            mass_1,
            mass_2,
            self.reference_frequency,
            0.0,
        ) else {
            for slot in OUTPUTS {
                s[slot] = f64::NAN;
            }
            return s;
        };
        for (i, chi) in [lal.chi_1, lal.chi_2].iter().enumerate() {
            let magnitude = (chi[0] * chi[0] + chi[1] * chi[1] + chi[2] * chi[2]).sqrt();
            // A spin of zero magnitude has no direction: give it a vanishing one along L̂_N.
            let (direction, fraction) = if magnitude > 0.0 {
                (
                    chi.map(|c| c / magnitude),
                    magnitude / self.max_magnitude[i],
                )
            } else {
                ([0.0, 0.0, 1.0], 1e-30)
            };
            let r = radial_quantile(fraction.min(1.0 - f64::EPSILON));
            for (&slot, d) in VECTOR_SLOTS[i].iter().zip(direction) {
                s[slot] = r * d;
            }
        }
        s[Parameter::ThetaJn] = lal.inclination;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theta() -> ParameterVector {
        let mut theta = [0.0; tdpe_signal::NUM_PARAMETERS];
        for (slot, value) in [
            (Parameter::ChirpMass, 28.0),
            (Parameter::MassRatio, 0.8),
            (Parameter::A1, 0.6),
            (Parameter::A2, 0.4),
            (Parameter::Tilt1, 1.0),
            (Parameter::Tilt2, 2.0),
            (Parameter::Phi12, 0.8),
            (Parameter::PhiJl, 0.3),
            (Parameter::ThetaJn, 1.0),
            (Parameter::Phase, 1.3),
        ] {
            theta[slot] = value;
        }
        theta
    }

    fn map() -> SpinVectors {
        SpinVectors::new([0.99, 0.8], 20.0).unwrap()
    }

    #[test]
    fn the_map_inverts_its_inverse() {
        let theta = theta();
        let s = map().sampled(&theta);
        let (back, _) = map().theta(&s);
        for slot in OUTPUTS
            .into_iter()
            .chain([Parameter::Phase, Parameter::ChirpMass])
        {
            assert!(
                (back[slot] - theta[slot]).abs() < 1e-12,
                "{slot:?}: {} against {}",
                back[slot],
                theta[slot]
            );
        }
        // Under the prior the vectors are standard normal: a = 0.6 of 0.99 is F(r) = 0.606.
        let r = VECTOR_SLOTS[0]
            .iter()
            .map(|&k| s[k] * s[k])
            .sum::<f64>()
            .sqrt();
        assert!((radial_cdf(r).0 - 0.6 / 0.99).abs() < 1e-14);
    }

    #[test]
    fn the_log_determinant_is_that_of_the_derivatives() {
        // det of the 7 × 7 block ∂θ/∂(v₁, v₂, ι), by Gaussian elimination, against the closed form.
        let s = map().sampled(&theta());
        let (_, jacobian) = map().theta(&s);
        let mut m: Vec<Vec<f64>> = jacobian
            .d_theta
            .iter()
            .map(|row| row[..7].to_vec())
            .collect();
        let mut log_det = 0.0;
        for col in 0..7 {
            let pivot = (col..7)
                .max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))
                .unwrap();
            m.swap(col, pivot);
            log_det += m[col][col].abs().ln();
            let (upper, lower) = m.split_at_mut(col + 1);
            let pivot_row = &upper[col];
            for row in lower.iter_mut() {
                let factor = row[col] / pivot_row[col];
                for (r, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                    *r -= factor * p;
                }
            }
        }
        assert!(
            (log_det - jacobian.log_det).abs() < 1e-10,
            "{log_det} against {}",
            jacobian.log_det
        );
    }

    #[test]
    fn the_derivatives_are_those_of_the_values() {
        let s = map().sampled(&theta());
        let (_, jacobian) = map().theta(&s);
        for (j, &input) in INPUTS.iter().enumerate() {
            let h = 1e-6 * s[input].abs().max(1.0);
            let at = |step: f64| {
                let mut moved = s;
                moved[input] += step;
                map().theta(&moved)
            };
            let ((up, up_jac), (down, down_jac)) = (at(h), at(-h));
            for (k, &output) in OUTPUTS.iter().enumerate() {
                let numeric = (up[output] - down[output]) / (2.0 * h);
                let exact = jacobian.d_theta[k][j];
                assert!(
                    (exact - numeric).abs() < 1e-6 * (1.0 + numeric.abs()),
                    "∂{output:?}/∂{input:?}: {exact} against {numeric}"
                );
            }
            let numeric = (up_jac.log_det - down_jac.log_det) / (2.0 * h);
            assert!((jacobian.d_log_det[j] - numeric).abs() < 1e-6 * (1.0 + numeric.abs()));
        }
    }
}
