//! LAL's default Euler angles of IMRPhenomTPHM (PrecVersion 300): α and cos β of L̂(t) in
//! PhenomX's J frame, continued through the ringdown at the QNM rate Ω_RD, and γ from the
//! minimal-rotation condition by Boole's rule on splines; with the evolved final spin that sets
//! Ω_RD (docs/precession.md §2.4, §4.4–4.7; LAL: `IMRPhenomTPHM_NumericalEulerAngles`,
//! `IMRPhenomXGetAndSetPrecessionVariables`).

use std::f64::consts::PI;

use super::analytical::{OrbitalAngularMomentum, PhenomXMasses};
use super::ode::{Binary, SpinOrbit};
use crate::error::WaveformError;
use crate::fits::{final_spin_2017, qnm_fring_21, qnm_fring_22};
use crate::gsl::CubicSpline;
use crate::model::Settings;
use crate::scalar::Real;

/// PhenomX's tolerance below which both arguments of an atan2 count as zero (`MAX_TOL_ATAN`).
const ATAN_TOLERANCE: f64 = 1e-15;

/// LAL's J frame (PhenomX convention 1, version 102's L): J0 = S1 + S2 + L_ref ẑ in the L0 frame,
/// and the rotation R_z(−κ) R_y(−θ_J) R_z(−φ_J) that takes L0 components to J components, κ
/// putting the line of sight in the x–z plane (docs/precession.md §2.4; arXiv:2004.06503
/// eqs. C13–C14).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JFrame {
    /// The polar angle of J0 from L̂(t_ref) = ẑ.
    pub theta_j: f64,
    /// The azimuth of J0 in the L0 frame (0 when J0 has no in-plane part).
    pub phi_j: f64,
    /// The last rotation about J.
    pub kappa: f64,
    /// α at the reference sample: atan2(S1y + S2y, S1x + S2x) − π (L0 components).
    pub alpha_offset: f64,
}

/// `IMRPhenomX_rotate_z`/`_y` (and IMRPhenomT's versions with the cosine and sine given).
fn rotate_z((c, s): (f64, f64), v: [f64; 3]) -> [f64; 3] {
    [v[0] * c - v[1] * s, v[0] * s + v[1] * c, v[2]]
}
fn rotate_y((c, s): (f64, f64), v: [f64; 3]) -> [f64; 3] {
    [v[0] * c + v[2] * s, v[1], -(v[0] * s) + v[2] * c]
}
/// (cos a, sin a) as two libm calls.
fn cos_sin(a: f64) -> (f64, f64) {
    (a.cos(), a.sin())
}

impl JFrame {
    /// The J frame of a binary with masses `m1_si` ≥ `m2_si` (kg) and L0-frame spins, at
    /// `settings.f_ref` (0: f_min), seen at (`inclination`, `phi_ref`), as
    /// `IMRPhenomXSetWaveformVariables` and `IMRPhenomXGetAndSetPrecessionVariables` compute it.
    pub(crate) fn new(
        m1_si: f64,
        m2_si: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        settings: &Settings,
        inclination: f64,
        phi_ref: f64,
    ) -> Self {
        // IMRPhenomXSetWaveformVariables and IMRPhenomXGetAndSetPrecessionVariables, with
        // version 102's L.
        let px = PhenomXMasses::new(m1_si, m2_si, settings);
        let (m1, m2, m, eta, v_ref) = (px.m1, px.m2, px.m, px.eta, px.v_ref);
        let (m1_2, m2_2) = (m1 * m1, m2 * m2);
        let ansatz = OrbitalAngularMomentum::phenomx(102, eta, px.delta, chi1[2], chi2[2])
            .ansatz(v_ref, eta / v_ref);
        let l_ref = m * m * ansatz;
        let j = [
            m1_2 * chi1[0] + m2_2 * chi2[0],
            m1_2 * chi1[1] + m2_2 * chi2[1],
            m1_2 * chi1[2] + m2_2 * chi2[2] + l_ref,
        ];
        let j_norm = (j[0] * j[0] + j[1] * j[1] + j[2] * j[2]).sqrt();
        let theta_j = if j_norm < 1e-10 {
            0.0
        } else {
            (j[2] / j_norm).acos()
        };
        let phi_j = if j[0].abs() < ATAN_TOLERANCE && j[1].abs() < ATAN_TOLERANCE {
            0.0
        } else {
            j[1].atan2(j[0])
        };
        let n = [
            inclination.sin() * (PI / 2.0 - phi_ref).cos(),
            inclination.sin() * (PI / 2.0 - phi_ref).sin(),
            inclination.cos(),
        ];
        let n = rotate_y(cos_sin(-theta_j), rotate_z(cos_sin(-phi_j), n));
        let kappa = if n[1].abs() < ATAN_TOLERANCE && n[0].abs() < ATAN_TOLERANCE {
            0.0
        } else {
            n[1].atan2(n[0])
        };
        let s1 = [chi1[0] * m1_2, chi1[1] * m1_2];
        let s2 = [chi2[0] * m2_2, chi2[1] * m2_2];
        Self {
            theta_j,
            phi_j,
            kappa,
            alpha_offset: (s1[1] + s2[1]).atan2(s1[0] + s2[0]) - PI,
        }
    }

    /// A vector's J-frame components from its L0 components.
    pub fn to_j(&self, v: [f64; 3]) -> [f64; 3] {
        let v = rotate_z(cos_sin(-self.phi_j), v);
        let v = rotate_y(cos_sin(-self.theta_j), v);
        rotate_z(cos_sin(-self.kappa), v)
    }
}

/// LAL's default Euler angles of IMRPhenomTPHM on the waveform's grid (those
/// `SimIMRPhenomTPHM_CoprecModes` returns): R(t) = R_z(α) R_y(β) R_z(γ) takes the
/// co-precessing axes to the J frame (docs/precession.md §2.3).
#[derive(Clone, Debug, PartialEq)]
pub struct EulerAngleSeries {
    pub alpha: Vec<f64>,
    pub cos_beta: Vec<f64>,
    pub gamma: Vec<f64>,
    /// The precessing final spin a_f,evolved from the orbit's last sample (§4.4), which sets
    /// Ω_RD and the co-precessing ringdown.
    pub final_spin_evolved: f64,
    /// The ringdown precession rate Ω_RD in rad/M (`GetEulerSlope`).
    pub ringdown_rate: f64,
    /// The J frame the angles are measured in.
    pub frame: JFrame,
    /// The orbit they come from.
    pub orbit: SpinOrbit,
}

/// a_f,evolved from the spins and L̂ at one orbit sample (docs/precession.md §4.4): the aligned
/// fit at the spins' projections on L̂, combined with the total in-plane spin.
pub fn evolved_final_spin(
    eta: f64,
    norms: [f64; 2],
    chi1: [f64; 3],
    chi2: [f64; 3],
    ln: [f64; 3],
) -> f64 {
    let s1 = chi1.map(|c| norms[0] * c);
    let s2 = chi2.map(|c| norms[1] * c);
    let s1l = s1[0] * ln[0] + s1[1] * ln[1] + s1[2] * ln[2];
    let s2l = s2[0] * ln[0] + s2[1] * ln[1] + s2[2] * ln[2];
    let perp: [f64; 3] = std::array::from_fn(|i| (s1[i] - s1l * ln[i]) + (s2[i] - s2l * ln[i]));
    let s_perp = (perp[0].powi(2) + perp[1].powi(2) + perp[2].powi(2)).sqrt();
    let a_parallel = final_spin_2017(eta, 0.0, s1l / norms[0], s2l / norms[1]);
    let a = 1f64.copysign(a_parallel) * (s_perp * s_perp + a_parallel.powi(2)).sqrt();
    a.clamp(-1.0, 1.0)
}

impl EulerAngleSeries {
    /// LAL's angles for masses `m1`, `m2` (M☉), L0-frame spins `chi1`, `chi2` at f_ref, and the
    /// line of sight (`inclination`, `phi_ref`), which orients the J frame (κ) but not the
    /// waveform in the L0 frame. The bodies are swapped if m1 < m2.
    pub fn lal(
        m1: f64,
        m2: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        inclination: f64,
        phi_ref: f64,
        settings: &Settings,
    ) -> Result<Self, WaveformError> {
        for (name, value) in [("inclination", inclination), ("phi_ref", phi_ref)] {
            if !value.is_finite() {
                return Err(WaveformError::OutOfRange {
                    name,
                    value,
                    allowed: "finite",
                });
            }
        }
        let b = Binary::new(m1, m2, chi1, chi2, settings)?;
        let orbit = SpinOrbit::evolve(&b)?;
        let frame = JFrame::new(
            b.m1_si,
            b.m2_si,
            b.chi1,
            b.chi2,
            settings,
            inclination,
            phi_ref,
        );
        Ok(Self::from_orbit(&b, frame, orbit))
    }

    /// §4.4–4.7 from the orbit.
    fn from_orbit(b: &Binary, frame: JFrame, orbit: SpinOrbit) -> Self {
        let n_pn = orbit.len();
        let last = n_pn - 1;
        let final_spin_evolved = evolved_final_spin(
            b.eta,
            b.spin_norms(),
            orbit.chi1[last],
            orbit.chi2[last],
            orbit.ln_hat[last],
        );
        // §4.5: α and cos β of L̂ in the J frame, α offset to its value at iref and unwrapped.
        let iref = orbit.reference_index;
        let ln_j: Vec<[f64; 3]> = orbit.ln_hat.iter().map(|&l| frame.to_j(l)).collect();
        let offset = frame.alpha_offset - ln_j[iref][1].atan2(ln_j[iref][0]);
        let n = b.length;
        let times: Vec<f64> = (0..n).map(|i| i as f64 * b.dt_m + b.t_min).collect();
        let mut alpha = vec![0.0; n];
        let mut cos_beta = vec![0.0; n];
        let mut previous = 0.0;
        for (k, l) in ln_j.iter().enumerate() {
            let wrapped = l[1].atan2(l[0]) + offset;
            alpha[k] = if k == 0 {
                wrapped
            } else {
                let d = wrapped - previous;
                let d = if d > PI {
                    d - 2.0 * PI
                } else if d < -PI {
                    d + 2.0 * PI
                } else {
                    d
                };
                alpha[k - 1] + d
            };
            previous = wrapped;
            cos_beta[k] = l[2];
        }
        // §4.6: from the last ODE sample on, α grows at Ω_RD in absolute time, β frozen.
        let ringdown_rate = ringdown_rate(final_spin_evolved, final_spin_evolved, b.final_mass);
        continue_ringdown(
            &mut alpha,
            &mut cos_beta,
            n_pn - 2,
            n_pn - 1,
            ringdown_rate,
            |k| times[k],
        );
        // §4.7: γ̇ = −α̇ cos β on natural splines over the whole grid, by Boole's rule.
        let mut gamma = vec![0.0; n];
        gamma[0] = -alpha[0];
        minimal_rotation_gamma(&times, &alpha, &cos_beta, &mut gamma);
        // Re-referenced so that γ(iref) = −α(iref), except the first sample (docs/precession.md §4.7).
        let shift = -gamma[iref] - alpha[iref];
        for g in gamma.iter_mut().skip(1) {
            *g += shift;
        }
        Self {
            alpha,
            cos_beta,
            gamma,
            final_spin_evolved,
            ringdown_rate,
            frame,
            orbit,
        }
    }
}

/// LAL's ringdown precession rate Ω_RD = 2π[f_RD,22(a) − f_RD,21(a)]/M_f in rad/M at the final
/// spin `spin`, negated when `sign_spin` < 0 (`GetEulerSlope` and `EulerRDslope`, which take
/// the sign from different final spins; docs/precession.md §3.2, §4.6).
pub(crate) fn ringdown_rate<T: Real>(spin: T, sign_spin: T, final_mass: T) -> T {
    let rate =
        (qnm_fring_22(spin) / final_mass - qnm_fring_21(spin) / final_mass) * std::f64::consts::TAU;
    if sign_spin.re() < 0.0 {
        -rate
    } else {
        rate
    }
}

/// The ringdown continuation of the angles: for k ≥ `from`, α_k = α_anchor + `rate`·`time`(k)
/// and cos β_k = cos β_anchor (docs/precession.md §3.2, §4.6).
pub(crate) fn continue_ringdown(
    alpha: &mut [f64],
    cos_beta: &mut [f64],
    anchor: usize,
    from: usize,
    rate: f64,
    time: impl Fn(usize) -> f64,
) {
    let (alpha_anchor, cos_beta_anchor) = (alpha[anchor], cos_beta[anchor]);
    for k in from..alpha.len() {
        alpha[k] = alpha_anchor + rate * time(k);
        cos_beta[k] = cos_beta_anchor;
    }
}

/// γ from the minimal-rotation condition γ̇ = −α̇ cos β, as LAL integrates it: natural cubic
/// splines of α and cos β on the knots `times` and Boole's rule over each interval, from
/// `gamma[0]` on; `gamma` gets one value per knot (docs/precession.md §4.7).
pub(crate) fn minimal_rotation_gamma(
    times: &[f64],
    alpha: &[f64],
    cos_beta: &[f64],
    gamma: &mut [f64],
) {
    let n = times.len();
    let alpha_spline = CubicSpline::natural(times.to_vec(), alpha[..n].to_vec())
        .expect("the grid has more than ten samples");
    let cos_beta_spline = CubicSpline::natural(times.to_vec(), cos_beta[..n].to_vec())
        .expect("the grid has more than ten samples");
    let f = |t: f64| -alpha_spline.eval_deriv(t) * cos_beta_spline.eval(t);
    for i in 1..n {
        let (t1, t2) = (times[i - 1], times[i]);
        gamma[i] = gamma[i - 1]
            + (1.0 / 90.0)
                * (t2 - t1)
                * (7.0 * f(t1)
                    + 32.0 * f((t1 + 3.0 * t2) / 4.0)
                    + 12.0 * f((t1 + t2) / 2.0)
                    + 32.0 * f((3.0 * t1 + t2) / 4.0)
                    + 7.0 * f(t2));
    }
}
