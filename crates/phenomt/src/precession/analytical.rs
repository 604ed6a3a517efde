//! IMRPhenomTPHM's analytical Euler angles (LAL's non-default `PrecVersion` values): the
//! closed-form PN angles of IMRPhenomXP evaluated at each sample's x = (ω22/2)^(2/3), with LAL's
//! three ringdown treatments (EulerRDVersion 0, 1, 2) and two ways of getting γ
//! (EulerGammaVersion 0, 1); and the parsing of `PrecVersion` itself (docs/precession.md §3.1,
//! §3.2; LAL: `XLALSimIMRPhenomTPHM_CoprecModes`, `PNAnalyticalInspiralEulerAngles`,
//! `IMRPhenomXGetAndSetPrecessionVariables`).
//!
//! Implemented: the NNLO family (PhenomX versions 101–104; arXiv:2004.06503 App. G) and the MSA
//! family (220–224; arXiv:1703.03967, in `msa.rs`), at LAL's default ExpansionOrder 5.

use std::f64::consts::PI;

use super::angles::{continue_ringdown, minimal_rotation_gamma, ringdown_rate};
use super::msa::Msa;
use super::ode::Binary;
use crate::constants::{MSUN_SI, MTSUN_SI};
use crate::error::WaveformError;
use crate::fits::final_spin_2017;
use crate::model::Settings;

/// What `IMRPhenomTPHM::lal` accepts, for the error message.
pub(crate) const SUPPORTED: &str = "300 (numerical angles), and the analytical angles NNLO \
     101-104 and MSA 220-224, as XXX or 5-digit XXXRG with R (EulerRDVersion) in 0-2, \
     G (EulerGammaVersion) in 0-1 (XXX = 300 is MSA 223, as in LAL)";

/// LAL's `PrecVersion`, parsed as `XLALSimIMRPhenomTPHM_CoprecModes` parses it
/// (docs/precession.md §3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrecVersion {
    /// 300: the numerical angles of the spin-precession ODE.
    Numerical,
    /// A closed-form PN angle model with its ringdown and γ options.
    Analytical(AnalyticalOptions),
}

/// The options of the analytical angles: `XXXRG`, or `XXX` ≡ `XXX10`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalyticalOptions {
    /// IMRPhenomXP's precession version XXX: 101–104 NNLO, 220–224 MSA (`30000`–`30021`
    /// parse as 223, which is what PhenomX makes of XXX = 300).
    pub phenomx_version: u32,
    /// EulerRDVersion R: 0 PN angles throughout; 1 PN angles to the peak, then the ringdown
    /// continuation; 2 PN angles to t_MECO, linear α and β to the peak, then as 1.
    pub ringdown_version: u32,
    /// EulerGammaVersion G: 0 γ from the PN expression; 1 from the minimal-rotation condition.
    pub gamma_version: u32,
}

impl PrecVersion {
    /// Parses `value` as LAL does: `300`; any other three-digit `XXX` as `XXX10`; five digits
    /// as `XXXRG`, where XXX = 300 (which LAL's documentation calls invalid but runs) is MSA 223,
    /// bit-identically in LAL. Everything tdpe does not implement (SpinTaylor, ExpansionOrder
    /// other than 5, digits LAL refuses, other lengths) is
    /// `WaveformError::UnsupportedPrecVersion`.
    pub fn parse(value: u32) -> Result<Self, WaveformError> {
        let unsupported = WaveformError::UnsupportedPrecVersion {
            version: value,
            supported: SUPPORTED,
        };
        let options = match value {
            300 => return Ok(Self::Numerical),
            100..=999 => AnalyticalOptions {
                phenomx_version: value,
                ringdown_version: 1,
                gamma_version: 0,
            },
            10_000..=99_999 => AnalyticalOptions {
                phenomx_version: value / 100,
                ringdown_version: value / 10 % 10,
                gamma_version: value % 10,
            },
            _ => return Err(unsupported),
        };
        // LAL: R > 2 or G > 1 is XLAL_EDOM; XXX = 300 becomes MSA 223 inside PhenomX.
        let mut options = options;
        if options.phenomx_version == 300 {
            options.phenomx_version = 223;
        }
        let known = (101..=104).contains(&options.phenomx_version)
            || (220..=224).contains(&options.phenomx_version);
        if !known || options.ringdown_version > 2 || options.gamma_version > 1 {
            return Err(unsupported);
        }
        Ok(Self::Analytical(options))
    }
}

/// LAL's default `PrecVersion`: the numerical angles (docs/precession.md §3.1).
pub const DEFAULT_PREC_VERSION: u32 = 300;

/// Every `PrecVersion` value `IMRPhenomTPHM::lal` accepts.
pub const SUPPORTED_PREC_VERSIONS: [u32; 70] = [
    300, 101, 102, 103, 104, 10100, 10101, 10110, 10111, 10120, 10121, 10200, 10201, 10210, 10211,
    10220, 10221, 10300, 10301, 10310, 10311, 10320, 10321, 10400, 10401, 10410, 10411, 10420,
    10421, 220, 221, 222, 223, 224, 22000, 22001, 22010, 22011, 22020, 22021, 22100, 22101, 22110,
    22111, 22120, 22121, 22200, 22201, 22210, 22211, 22220, 22221, 22300, 22301, 22310, 22311,
    22320, 22321, 22400, 22401, 22410, 22411, 22420, 22421, 30000, 30001, 30010, 30011, 30020,
    30021,
];

/// The mass variables of `IMRPhenomXSetWaveformVariables` and
/// `IMRPhenomXGetAndSetPrecessionVariables` for masses m1 ≥ m2 in kg.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PhenomXMasses {
    /// mi/M from the masses in kg.
    pub m1: f64,
    pub m2: f64,
    /// m1 + m2 (1 up to rounding).
    pub m: f64,
    pub eta: f64,
    /// δ = (m1 − m2)/M ≥ 0.
    pub delta: f64,
    /// q = m1/m2 ≥ 1.
    pub q: f64,
    /// v_ref = (π M f_ref)^(1/3).
    pub v_ref: f64,
}

impl PhenomXMasses {
    pub(crate) fn new(m1_si: f64, m2_si: f64, settings: &Settings) -> Self {
        let (m1_in, m2_in) = (m1_si / MSUN_SI, m2_si / MSUN_SI);
        let delta = ((m1_in - m2_in) / (m1_in + m2_in)).abs();
        let eta = f64::min((0.25 * (1.0 - delta * delta)).abs(), 0.25);
        let q = if eta == 0.25 {
            1.0
        } else if m1_in > m2_in {
            m1_in / m2_in
        } else {
            m2_in / m1_in
        };
        let mtot_si = m1_in * MSUN_SI + m2_in * MSUN_SI;
        let m_sec = (m1_in + m2_in) * MTSUN_SI;
        let f_ref = settings.reference_frequency();
        let (m1, m2) = (m1_si / mtot_si, m2_si / mtot_si);
        Self {
            m1,
            m2,
            m: m1 + m2,
            eta,
            delta,
            q,
            v_ref: (PI * m_sec * f_ref).cbrt(),
        }
    }
}

/// PhenomX's PN orbital angular momentum L = (η/v)(L0 + L1 v + … + L8 v⁸ + L8L v⁸ ln v²)
/// (`XLALSimIMRPhenomXLPNAnsatz`) with the coefficients of one precession version.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OrbitalAngularMomentum {
    /// L0, L1, …, L8, L8L.
    l: [f64; 10],
}

impl OrbitalAngularMomentum {
    /// The coefficients of PhenomX version `version` (101: 2PN non-spinning; 102: 3PN; 103:
    /// 4PN; 104: 4PN with leading-order spin terms) at η, δ and the aligned spins.
    ///
    /// LAL quirk: the π² of L6 and L8 is `powers_of_lalpi.two`, a global that only PhenomX's
    /// own generators initialise; on IMRPhenomTPHM's path it is zero (docs/precession.md §2.4).
    pub(crate) fn phenomx(version: u32, eta: f64, delta: f64, chi1l: f64, chi2l: f64) -> Self {
        let pi_squared_as_lal_has_it = 0.0;
        let l2 = 3.0 / 2. + eta / 6.0;
        let l3 =
            (5.0 * (chi1l * (-2.0 - 2.0 * delta + eta) + chi2l * (-2.0 + 2.0 * delta + eta))) / 6.;
        let mut l4 = (81.0 + (-57.0 + eta) * eta) / 24.;
        let l5 = (-7.0
            * (chi1l * (72.0 + delta * (72.0 - 31.0 * eta) + eta * (-121.0 + 2.0 * eta))
                + chi2l * (72.0 + eta * (-121.0 + 2.0 * eta) + delta * (-72.0 + 31.0 * eta))))
            / 144.;
        let l6 = (10935.0
            + eta * (-62001.0 + eta * (1674.0 + 7.0 * eta) + 2214.0 * pi_squared_as_lal_has_it))
            / 1296.;
        let mut l7 = (chi2l
            * (-324.0
                + eta * (1119.0 - 2.0 * eta * (172.0 + eta))
                + delta * (324.0 + eta * (-633.0 + 14.0 * eta)))
            - chi1l
                * (324.0
                    + eta * (-1119.0 + 2.0 * eta * (172.0 + eta))
                    + delta * (324.0 + eta * (-633.0 + 14.0 * eta))))
            / 32.;
        let log16 = 2.772588722239781;
        let euler_gamma = 0.5772156649015329; // LAL_GAMMA
        let l8 = 2835.0 / 128.
            - (eta
                * (-10677852.0
                    + 100.0 * eta * (-640863.0 + eta * (774.0 + 11.0 * eta))
                    + 26542080.0 * euler_gamma
                    + 675.0 * (3873.0 + 3608.0 * eta) * pi_squared_as_lal_has_it))
                / 622080.
            - (64.0 * eta * log16) / 3.;
        let l8l = -(64.0 / 3.0) * eta;
        let l = match version {
            101 => [1.0, 0.0, l2, 0.0, l4, 0.0, 0.0, 0.0, 0.0, 0.0],
            103 => [1.0, 0.0, l2, l3, l4, l5, l6, l7, l8, l8l],
            104 => {
                let (chi1l2, chi2l2) = (chi1l * chi1l, chi2l * chi2l);
                let spin2 = chi1l2 * (1.0 + delta - 2.0 * eta) + 4.0 * chi1l * chi2l * eta
                    - chi2l2 * (-1.0 + delta + 2.0 * eta);
                l4 += spin2 / 2.;
                l7 += (3.0 * (chi1l + chi2l) * eta * spin2) / 4.;
                [1.0, 0.0, l2, l3, l4, l5, l6, l7, l8, l8l]
            }
            // 102 (and the MSA versions 220, 221, 224).
            _ => [1.0, 0.0, l2, l3, l4, l5, l6, 0.0, 0.0, 0.0],
        };
        Self { l }
    }

    /// L at velocity `v` with the Newtonian normalisation `norm` (η/v in PhenomX's calls).
    pub(crate) fn ansatz(&self, v: f64, norm: f64) -> f64 {
        let [l0, l1, l2, l3, l4, l5, l6, l7, l8, l8l] = self.l;
        let x = v * v;
        let x2 = x * x;
        let x3 = x * x2;
        let x4 = x * x3;
        let sqx = x.sqrt();
        norm * (l0
            + l1 * sqx
            + l2 * x
            + l3 * (x * sqx)
            + l4 * x2
            + l5 * (x2 * sqx)
            + l6 * x3
            + l7 * (x3 * sqx)
            + l8 * x4
            + l8l * x4 * x.ln())
    }
}

/// The single-spin NNLO angles of IMRPhenomPv2/XP (arXiv:2004.06503 App. G): α(ω) and ε(ω) as
/// Σ c_k ω^(k/3 − 1) + c_4L ln ω, and cos β from L(v), S_L and S_⊥ = χ_p m1².
#[derive(Clone, Copy, Debug)]
struct Nnlo {
    /// Coefficients of 1/ω, ω^(−2/3), ω^(−1/3), ln ω and ω^(1/3).
    alpha: [f64; 5],
    epsilon: [f64; 5],
    l: OrbitalAngularMomentum,
    eta: f64,
    /// S_L = m1²χ1z + m2²χ2z and S_⊥ = χ_p m1².
    s_l: f64,
    s_perp: f64,
}

/// Σ c_k ω^(k/3 − 1) + c_3 ln ω with LAL's powers ω^(2/3), ω^(1/3).
fn nnlo_series(c: &[f64; 5], omega: f64, omega_cbrt2: f64, omega_cbrt: f64, log_omega: f64) -> f64 {
    c[0] / omega + c[1] / omega_cbrt2 + c[2] / omega_cbrt + c[3] * log_omega + c[4] * omega_cbrt
}

impl Nnlo {
    fn new(version: u32, x: &PhenomXMasses, chi1: [f64; 3], chi2: [f64; 3], chi_p: f64) -> Self {
        let (eta, delta, m1, q) = (x.eta, x.delta, x.m1, x.q);
        let (chi1l, chi2l) = (chi1[2], chi2[2]);
        // IMRPhenomXchiEff: from η, with mi = (1 ± √(1 − 4η))/2.
        let d = (1.0 - 4.0 * eta).sqrt();
        let chi_eff = 0.5 * (1.0 + d) * chi1l + 0.5 * (1.0 - d) * chi2l;
        let chil = (1.0 + q) * (chi_eff / q);
        let chil2 = chil * chil;
        let chip2 = chi_p * chi_p;
        let (eta2, delta2) = (eta * eta, delta * delta);
        let (eta3, delta3) = (eta * eta2, delta * delta2);
        let eta4 = eta * eta3;
        let eta5 = eta * eta4;
        let eta6 = eta * eta5;
        let m1_2 = m1 * m1;
        let m1_3 = m1 * m1_2;
        let m1_4 = m1 * m1_3;
        let m1_5 = m1 * m1_4;
        let m1_6 = m1 * m1_5;
        let m1_7 = m1 * m1_6;
        let m1_8 = m1 * m1_7;
        let c1 = -35.0 / 192. + (5.0 * delta) / (64. * m1);
        let c2 = ((15.0 * chil * delta * m1) / 128. - (35.0 * chil * m1_2) / 128.) / eta;
        let c3 = -5515.0 / 3072.
            + eta
                * (-515.0 / 384. - (15.0 * delta2) / (256. * m1_2) + (175.0 * delta) / (256. * m1))
            + (4555.0 * delta) / (7168. * m1);
        let c3_alpha =
            c3 + ((15.0 * chip2 * delta * m1_3) / 128. - (35.0 * chip2 * m1_4) / 128.) / eta2;
        let c4_head = (5.0 * chil * delta2) / 16. - (5.0 * chil * delta * m1) / 3.
            + (2545.0 * chil * m1_2) / 1152.
            + ((-2035.0 * chil * delta * m1) / 21504. + (2995.0 * chil * m1_2) / 9216.) / eta;
        let c4_alpha = c4_head
            + ((5.0 * chil * chip2 * delta * m1_5) / 128. - (35.0 * chil * chip2 * m1_6) / 384.)
                / eta3
            - (35.0 * PI) / 48.
            + (5.0 * delta * PI) / (16. * m1);
        let c4_epsilon = c4_head - (35.0 * PI) / 48. + (5.0 * delta * PI) / (16. * m1);
        let c5_alpha = (5.0
            * (-190512.0 * delta3 * eta6
                + 2268.0
                    * delta2
                    * eta3
                    * m1
                    * (eta2 * (323.0 + 784.0 * eta) + 336.0 * (25.0 * chil2 + chip2) * m1_4)
                + 7.0
                    * m1_3
                    * (8024297.0 * eta4
                        + 857412.0 * eta5
                        + 3080448.0 * eta6
                        + 143640.0 * chip2 * eta2 * m1_4
                        - 127008.0 * chip2 * (-4.0 * chil2 + chip2) * m1_8
                        + 6048.0
                            * eta3
                            * ((2632.0 * chil2 + 115.0 * chip2) * m1_4
                                - 672.0 * chil * m1_2 * PI))
                + 3.0
                    * delta
                    * m1_2
                    * (-5579177.0 * eta4 + 80136.0 * eta5 - 3845520.0 * eta6
                        + 146664.0 * chip2 * eta2 * m1_4
                        + 127008.0 * chip2 * (-4.0 * chil2 + chip2) * m1_8
                        - 42336.0
                            * eta3
                            * ((726.0 * chil2 + 29.0 * chip2) * m1_4 - 96.0 * chil * m1_2 * PI))))
            / (6.5028096e7 * eta4 * m1_3);
        let c5_epsilon = (5.0
            * (-190512.0 * delta3 * eta3
                + 2268.0 * delta2 * m1 * (eta2 * (323.0 + 784.0 * eta) + 8400.0 * chil2 * m1_4)
                - 3.0
                    * delta
                    * m1_2
                    * (eta * (5579177.0 + 504.0 * eta * (-159.0 + 7630.0 * eta))
                        + 254016.0 * chil * m1_2 * (121.0 * chil * m1_2 - 16.0 * PI))
                + 7.0
                    * m1_3
                    * (eta * (8024297.0 + 36.0 * eta * (23817.0 + 85568.0 * eta))
                        + 338688.0 * chil * m1_2 * (47.0 * chil * m1_2 - 12.0 * PI))))
            / (6.5028096e7 * eta * m1_3);
        let m2_2 = x.m2 * x.m2;
        Self {
            alpha: [c1, c2, c3_alpha, c4_alpha, c5_alpha],
            epsilon: [c1, c2, c3, c4_epsilon, c5_epsilon],
            l: OrbitalAngularMomentum::phenomx(version, eta, delta, chi1l, chi2l),
            eta,
            s_l: chi1l * m1_2 + chi2l * m2_2,
            s_perp: chi_p * m1_2,
        }
    }

    /// (α_PN, −ε_PN) at ω^(2/3) = `omega_cbrt2`.
    fn alpha_minus_epsilon(&self, omega_cbrt2: f64) -> (f64, f64) {
        let omega_cbrt = omega_cbrt2.sqrt();
        let omega = omega_cbrt2 * omega_cbrt;
        let log_omega = omega.ln();
        (
            nnlo_series(&self.alpha, omega, omega_cbrt2, omega_cbrt, log_omega),
            -nnlo_series(&self.epsilon, omega, omega_cbrt2, omega_cbrt, log_omega),
        )
    }

    /// cos β = sign(L + S_L)/√(1 + (S_⊥/(L + S_L))²) at x.
    fn cos_beta(&self, x: f64) -> f64 {
        let v = x.sqrt();
        let l = self.l.ansatz(v, self.eta / v);
        let s = self.s_perp / (l + self.s_l);
        1f64.copysign(l + self.s_l) / (1.0 + s * s).sqrt()
    }
}

/// |χ⊥| as LAL writes it, √(χx² + χy²).
fn in_plane(chi: [f64; 3]) -> f64 {
    (chi[0] * chi[0] + chi[1] * chi[1]).sqrt()
}

/// χ_p (Schmidt et al. 2015) as PhenomX computes it, bodies ordered m1 ≥ m2.
fn chi_p(x: &PhenomXMasses, chi1: [f64; 3], chi2: [f64; 3]) -> f64 {
    let (m1, m2) = (x.m1, x.m2);
    let (m1_2, m2_2) = (m1 * m1, m2 * m2);
    let a1 = 2.0 + (3.0 * m2) / (2.0 * m1);
    let a2 = 2.0 + (3.0 * m1) / (2.0 * m2);
    let asp1 = a1 * (m1_2 * in_plane(chi1));
    let asp2 = a2 * (m2_2 * in_plane(chi2));
    let num = if asp2 > asp1 { asp2 } else { asp1 };
    let den = if m2 > m1 { a2 * m2_2 } else { a1 * m1_2 };
    num / den
}

/// IMRPhenomT's MECO-time fit in units of M (`IMRPhenomT_MECOTime`), where EulerRDVersion 2
/// ends the PN angles.
fn meco_time(eta: f64, s: f64, dchi: f64, delta: f64) -> f64 {
    let (eta2, s2) = (eta * eta, s * s);
    let (s3, s4) = (s2 * s, s2 * s2);
    let (s5, s6) = (s4 * s, s4 * s2);
    let no_spin =
        (-236.05916243036953 - 831.5431113584278 * eta) / (1.0 + 20.613030474069898 * eta);
    let eq_spin = (48.728774732041 + 8.161848266333303 * eta + 146.22536542867712 * eta2) * s
        + (-13.633462771084439 + 97.744032521123 * eta - 333.74293640880865 * eta2) * s2
        + (-76.67450724471107 + 1030.4869060625915 * eta - 3160.810490374918 * eta2) * s3
        + (-20.941621754455277 - 26.348664719217858 * eta + 778.3469028250508 * eta2) * s4
        + (86.59936006891306 - 1115.1092303071634 * eta + 3348.2374777841 * eta2) * s5
        + (13.413110005766034 + 46.573063129481895 * eta - 631.7603046833175 * eta2) * s6;
    let uneq_spin = -1385.6109494038105 * dchi * delta * (1.0 - 2.465600020183968 * eta) * eta2
        + 10.837064426546098 * dchi * dchi * eta2 * eta
        + 355.1229694251773 * dchi * delta * (1.0 - 4.1057183984004695 * eta) * eta2 * s;
    no_spin + eq_spin + uneq_spin
}

/// The analytical Euler angles on LAL's grid (those `SimIMRPhenomTPHM_CoprecModes` returns for
/// an analytical `PrecVersion`), with the precessing final spin of their family.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyticalEulerAngles {
    pub alpha: Vec<f64>,
    pub cos_beta: Vec<f64>,
    pub gamma: Vec<f64>,
    /// The options in force after LAL's fallbacks (EulerRDVersion 0 for nearly aligned spins,
    /// 2 → 1 for waveforms that start after t_MECO − 10Δt_M; MSA 220, 223, 224 → NNLO 102
    /// where the MSA system fails).
    pub options: AnalyticalOptions,
    /// The precessing final spin a_f,prec of the co-precessing ringdown and of Ω_RD: for NNLO
    /// PhenomX's χ_p final spin (FinalSpinMod 4 → 3 → 0), for MSA the MSA final spin
    /// (FinalSpinMod 4 → 3).
    pub ringdown_final_spin: f64,
    /// Ω_RD in rad/M (`EulerRDslope`: a_f,prec's QNMs, the aligned final spin's sign).
    pub ringdown_rate: f64,
    /// The reference sample iref, whose angles the global rotation into L0 uses.
    pub reference_index: usize,
}

impl AnalyticalEulerAngles {
    /// LAL's angles for `options` (from [`PrecVersion::parse`]), masses `m1`, `m2` (M☉; the
    /// bodies are swapped if m1 < m2) and L0-frame spins at f_ref.
    pub fn lal(
        m1: f64,
        m2: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
        options: AnalyticalOptions,
        settings: &Settings,
    ) -> Result<Self, WaveformError> {
        let b = Binary::new(m1, m2, chi1, chi2, settings)?;
        Self::from_binary(&b, options)
    }

    pub(crate) fn from_binary(
        b: &Binary,
        mut options: AnalyticalOptions,
    ) -> Result<Self, WaveformError> {
        let px = PhenomXMasses::new(b.m1_si, b.m2_si, &b.settings);
        let (chi1, chi2) = (b.chi1, b.chi2);
        let chi_p = chi_p(&px, chi1, chi2);
        // IMRPhenomT's fit variables (IMRPhenomTSetWaveformVariables).
        let m_sum = b.m1 + b.m2;
        let (n1, n2) = (b.m1 / m_sum, b.m2 / m_sum);
        let s_hat = (n1 * n1 * chi1[2] + n2 * n2 * chi2[2]) / (n1 * n1 + n2 * n2);
        let delta_t = ((b.m1 - b.m2) / m_sum).abs();
        let t_meco = meco_time(b.eta, s_hat, chi1[2] - chi2[2], delta_t);
        let (t_min, dt_m, n) = (b.t_min, b.dt_m, b.length);
        let f_ref = b.settings.reference_frequency();
        // PhenomX sets the MSA system up first: where it fails (|Ω_z5| > 1000), 220, 223 and
        // 224 continue with NNLO 102 (angles, L and the χ_p final spin), 221 and 222 stop.
        let msa = if (220..=224).contains(&options.phenomx_version) {
            // IMRPhenomXSetWaveformVariables' m_i/M, from the masses in M☉.
            let (m1_in, m2_in) = (b.m1_si / MSUN_SI, b.m2_si / MSUN_SI);
            let m_in = m1_in + m2_in;
            match Msa::new(
                options.phenomx_version,
                &px,
                m1_in / m_in,
                m2_in / m_in,
                b.m1_si + b.m2_si,
                f_ref,
                chi1,
                chi2,
            ) {
                Ok(msa) => Some(msa),
                Err(failure) if matches!(options.phenomx_version, 221 | 222) => {
                    return Err(WaveformError::MsaFailed {
                        version: options.phenomx_version,
                        omega_z5: failure.omega_z5,
                    });
                }
                Err(_) => {
                    options.phenomx_version = 102;
                    None
                }
            }
        } else {
            None
        };
        // LAL's fallbacks, in its order (γ version 1 needs t_min < −10Δt_M, which `Binary`
        // already requires).
        if options.ringdown_version == 2 && t_min >= t_meco - 10.0 * dt_m {
            options.ringdown_version = 1;
        }
        let aligned_tolerance = 1e-4;
        if in_plane(chi1) < aligned_tolerance && in_plane(chi2) < aligned_tolerance {
            options.ringdown_version = 0;
        }
        let to_peak = ((0.0 - t_min) / dt_m).floor() as usize;
        let pn_length = match options.ringdown_version {
            0 => n,
            1 => to_peak,
            _ => ((t_meco - t_min) / dt_m).floor() as usize,
        };
        let a_parallel = final_spin_2017(px.eta, 0.0, chi1[2], chi2[2]);
        let ringdown_final_spin = match &msa {
            // FinalSpinMod 4 → 3: the MSA final spin.
            Some(msa) => msa.final_spin(&px, a_parallel, chi1[2], chi2[2]),
            // FinalSpinMod 4 → 3, which needs MSA, so 0: χ_p's, clamped to ±1.
            None => {
                // XLALSimIMRPhenomXPrecessingFinalSpin2017: the masses again from η.
                let (mm1, mm2) = (
                    0.5 * (1.0 + (1.0 - 4.0 * px.eta).sqrt()),
                    0.5 * (1.0 - (1.0 - 4.0 * px.eta).sqrt()),
                );
                let q_factor = mm1 / (mm1 + mm2);
                let s_perp = chi_p * q_factor * q_factor;
                let a_prec =
                    1f64.copysign(a_parallel) * (s_perp * s_perp + a_parallel * a_parallel).sqrt();
                if a_prec.abs() > 1.0 {
                    1f64.copysign(a_prec)
                } else {
                    a_prec
                }
            }
        };
        let aligned_final_spin = final_spin_2017(b.eta, 0.0, chi1[2], chi2[2]);
        let rate = ringdown_rate(ringdown_final_spin, aligned_final_spin, b.final_mass);

        // The PN angles on the first `pn_length` samples.
        let x = b.x_on_grid();
        let s1 = [chi1[0] * px.m1 * px.m1, chi1[1] * px.m1 * px.m1];
        let s2 = [chi2[0] * px.m2 * px.m2, chi2[1] * px.m2 * px.m2];
        let alpha_offset = (s1[1] + s2[1]).atan2(s1[0] + s2[0]) - PI;
        let mut alpha = vec![0.0; n];
        let mut cos_beta = vec![0.0; n];
        let mut gamma = vec![0.0; n];
        if let Some(msa) = &msa {
            for k in 0..pn_length {
                let (phiz, zeta, cos_theta_l) = msa.angles(x[k].sqrt());
                alpha[k] = phiz + alpha_offset;
                gamma[k] = -zeta - alpha_offset;
                cos_beta[k] = cos_theta_l;
            }
        } else {
            let nnlo = Nnlo::new(options.phenomx_version, &px, chi1, chi2, chi_p);
            let mf_ref = (m_sum * MTSUN_SI) * f_ref;
            let (alpha_ref, gamma_ref) = nnlo.alpha_minus_epsilon((PI * mf_ref).powf(2.0 / 3.0));
            for k in 0..pn_length {
                let (a, g) = nnlo.alpha_minus_epsilon(x[k]);
                alpha[k] = a - alpha_ref + alpha_offset;
                gamma[k] = g - gamma_ref - alpha_offset;
                cos_beta[k] = nnlo.cos_beta(x[k]);
            }
        }
        if options.gamma_version == 1 && pn_length > 0 {
            let times: Vec<f64> = (0..pn_length).map(|i| i as f64 * dt_m).collect();
            minimal_rotation_gamma(&times, &alpha, &cos_beta, &mut gamma);
        }
        if options.ringdown_version == 2 {
            linear_to_peak(
                &mut alpha,
                &mut cos_beta,
                &mut gamma,
                pn_length,
                to_peak,
                dt_m,
            );
        }
        if options.ringdown_version != 0 {
            // From the peak sample L on: α_L repeats α_{L−1}, γ by minimal rotation.
            let last = to_peak - 1;
            continue_ringdown(&mut alpha, &mut cos_beta, last, to_peak, rate, |k| {
                (k - to_peak) as f64 * dt_m
            });
            let (alpha_last, cos_beta_last, gamma_last) =
                (alpha[last], cos_beta[last], gamma[last]);
            for k in to_peak..n {
                gamma[k] = gamma_last - alpha[k] * cos_beta[k] + alpha_last * cos_beta_last;
            }
        }
        Ok(Self {
            alpha,
            cos_beta,
            gamma,
            options,
            ringdown_final_spin,
            ringdown_rate: rate,
            reference_index: b.reference().1,
        })
    }
}

/// EulerRDVersion 2 between t_MECO (sample `from`) and the peak (sample `to`): α and β linear
/// with 3-point backward-difference slopes at sample `from` − 1, β clamped to [0, π], and γ
/// from the minimal-rotation condition in closed form.
fn linear_to_peak(
    alpha: &mut [f64],
    cos_beta: &mut [f64],
    gamma: &mut [f64],
    from: usize,
    to: usize,
    dt_m: f64,
) {
    let beta = |k: usize| cos_beta[k].acos();
    let (beta1, beta2, beta3) = (beta(from - 1), beta(from - 2), beta(from - 3));
    let alpha_slope =
        (3.0 * alpha[from - 1] - 4.0 * alpha[from - 2] + alpha[from - 3]) / (2.0 * dt_m);
    let beta_slope = (3.0 * beta1 - 4.0 * beta2 + beta3) / (2.0 * dt_m);
    let (alpha0, beta0, gamma0) = (alpha[from - 1], beta1, gamma[from - 1]);
    // LAL's products associate as (slope·kk)·Δt_M.
    for (kk, k) in (from..to).enumerate() {
        let kk = kk as f64;
        alpha[k] = alpha0 + alpha_slope * kk * dt_m;
        let beta = beta0 + beta_slope * kk * dt_m;
        cos_beta[k] = beta.clamp(0.0, PI).cos();
        gamma[k] = if beta_slope.abs() > 1e-15 {
            gamma0 - (alpha_slope / beta_slope) * beta.sin()
                + (alpha_slope / beta_slope) * beta0.sin()
        } else {
            gamma0 - alpha_slope * (kk * dt_m) * beta0.cos()
        };
    }
}
