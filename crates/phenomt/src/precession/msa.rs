//! The MSA Euler angles of Chatziioannou et al., arXiv:1703.03967, as IMRPhenomXP implements
//! them (PhenomX precession versions 220–224) and IMRPhenomTPHM evaluates them per sample:
//! (φ_z, ζ, cos θ_L) at v = √x (docs/precession.md §3.2; LAL, `LALSimIMRPhenomX_precession.c`:
//! `IMRPhenomX_Initialize_MSA_System`, `IMRPhenomX_Return_phi_zeta_costhetaL_MSA`,
//! `IMRPhenomX_Return_Roots_MSA`, `IMRPhenomX_Return_Spin_Evolution_Coefficients_MSA`,
//! `IMRPhenomX_psiofv`, `IMRPhenomX_Return_MSA_Corrections_MSA`, `IMRPhenomX_costhetaLJ`), and
//! the MSA final spin (`IMRPhenomX_SetPrecessingRemnantParams`, FinalSpinMod 3).
//!
//! The versions differ in details LAL copies from `LALSimInspiralFDPrecAngles`: 222 and 223 use
//! that code's 3PN L, dω/dt coefficients, Δ, ψ2 and φ_z,MSA terms; 224 its ζ_MSA; 220 its
//! c-constants. The expressions and their operation order are LAL's, including its quirks: the
//! default ExpansionOrder 5 *drops* the fifth-order terms of φ_z and ζ; the
//! fabs of the C_φ and D_φ terms of 222/223 differ in extent; NaN φ_z, ζ or MSA corrections
//! become 0.

use std::f64::consts::{PI, TAU};

use super::analytical::{OrbitalAngularMomentum, PhenomXMasses};
use crate::gsl::{ellint_f, elljac};

/// `LAL_G_SI` and `LAL_C_SI`, for PhenomX's πGM/c³.
const G_SI: f64 = 6.67430e-11;
const C_SI: f64 = 299792458e0;

/// PhenomX's test of the MSA system: |Ω_z5| above this is `MSA_ERROR`.
const OMEGA_Z5_LIMIT: f64 = 1000.0;

/// Why the MSA system could not be set up (LAL's `MSA_ERROR`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MsaFailure {
    /// The offending coefficient Ω_z5 (|Ω_z5| > 1000).
    pub omega_z5: f64,
}

/// The roots S₃², S₋², S₊² of dS²/dt (LAL's `vRoots`: x, y, z).
#[derive(Clone, Copy, Debug)]
struct Roots {
    s32: f64,
    smi2: f64,
    spl2: f64,
}

/// The initialised MSA system of one binary (the fields of LAL's `IMRPhenomXPrecessionStruct`
/// the angles read).
#[derive(Clone, Debug)]
pub(crate) struct Msa {
    version: u32,
    eta: f64,
    eta2: f64,
    eta3: f64,
    eta4: f64,
    inveta: f64,
    inveta2: f64,
    inveta3: f64,
    inveta4: f64,
    sqrt_inveta: f64,
    /// q = m2/m1 ≤ 1 and δ = (1 − q)/(1 + q).
    q: f64,
    delta: f64,
    s1_norm_2: f64,
    s2_norm_2: f64,
    s0_norm_2: f64,
    dot_s1_ln: f64,
    dot_s2_ln: f64,
    seff: f64,
    /// The 3PN L of versions 222 and 223 (`constants_L`).
    constants_l: [f64; 5],
    /// PhenomX's L of the other versions (102's coefficients).
    l_ansatz: OrbitalAngularMomentum,
    c1: f64,
    c1_over_eta: f64,
    sav2: f64,
    sav: f64,
    inv_sav: f64,
    inv_sav2: f64,
    s1l_pav: f64,
    s2l_pav: f64,
    g0: f64,
    psi0: f64,
    psi1: f64,
    psi2: f64,
    omega_z: [f64; 6],
    omega_zeta: [f64; 6],
    phiz_0: f64,
    zeta_0: f64,
}

fn norm(v: [f64; 3]) -> f64 {
    ((v[0] * v[0]) + (v[1] * v[1]) + (v[2] * v[2])).sqrt()
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    (a[0] * b[0]) + (a[1] * b[1]) + (a[2] * b[2])
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// C's `fmax`/`fmin`, which ignore a NaN argument (as `f64::max`/`min` do).
fn fmax(a: f64, b: f64) -> f64 {
    a.max(b)
}
fn fmin(a: f64, b: f64) -> f64 {
    a.min(b)
}

impl Msa {
    /// `IMRPhenomX_Initialize_MSA_System` at ExpansionOrder 5 for PhenomX version `version`
    /// (220–224). `px` holds PhenomX's mass variables (m_i/M from the masses in kg), `wf_m1`,
    /// `wf_m2` the waveform struct's m_i/M from the masses in M☉, `m_total_si` the sum of the
    /// masses in kg and `f_ref` the reference frequency in Hz (f_min if 0). Fails where LAL sets
    /// `MSA_ERROR`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        version: u32,
        px: &PhenomXMasses,
        wf_m1: f64,
        wf_m2: f64,
        m_total_si: f64,
        f_ref: f64,
        chi1: [f64; 3],
        chi2: [f64; 3],
    ) -> Result<Self, MsaFailure> {
        let fd_prec_angles = version == 222 || version == 223;
        // IMRPhenomXGetAndSetPrecessionVariables.
        let eta = px.eta;
        let eta2 = eta * eta;
        let eta3 = eta * eta2;
        let eta4 = eta * eta3;
        let (m1_2, m2_2) = (px.m1 * px.m1, px.m2 * px.m2);
        let s1_norm = norm(chi1).abs() * m1_2;
        let s2_norm = norm(chi2).abs() * m2_2;
        let (s1_norm_2, s2_norm_2) = (s1_norm * s1_norm, s2_norm * s2_norm);
        let pi_gm = PI * m_total_si * (G_SI / C_SI) / (C_SI * C_SI);

        // IMRPhenomX_Initialize_MSA_System.
        let (m1, m2) = (wf_m1, wf_m2);
        let q = m2 / m1;
        let mu = (m1 * m2) / (m1 + m2);
        let delta = (1.0 - q) / (1.0 + q);
        let delta2 = delta * delta;
        let delta3 = delta * delta2;
        let delta4 = delta * delta3;
        let s1v = chi1.map(|c| c * eta / q);
        let s2v = chi2.map(|c| c * eta * q);
        let s1_0_norm = norm(s1v);
        let s2_0_norm = norm(s2v);
        let v_0 = (pi_gm * f_ref).cbrt();
        let v_0_2 = v_0 * v_0;
        let l_hat = [0.0, 0.0, 1.0];
        let l_0 = l_hat.map(|c| (eta / v_0) * c);
        let dot_s1l = dot(s1v, l_hat);
        let dot_s2l = dot(s2v, l_hat);
        let dot_s1s2 = dot(s1v, s2v);
        let dot_s1_ln = dot_s1l / s1_0_norm;
        let dot_s2_ln = dot_s2l / s2_0_norm;
        // The PN spin couplings of LALSimInspiralFDPrecAngles.
        let pn_beta = |a: f64, b: f64| dot_s1l * (a + b * q) + dot_s2l * (a + b / q);
        let pn_sigma = |a: f64, b: f64| (1.0 / eta) * (a * dot_s1s2 - b * dot_s1l * dot_s2l);
        let pn_tau = |a: f64, b: f64| {
            (q * ((s1_norm_2 * a) - b * dot_s1l * dot_s1l)
                + (a * s2_norm_2 - b * dot_s2l * dot_s2l) / q)
                / eta
        };
        let l_nonspin = [
            3. / 2.,
            1. / 6.,
            27. / 8.,
            -19. / 8.,
            1. / 24.,
            135. / 16.,
            -6889. / 144. + 41. / 24. * PI * PI,
            31. / 24.,
            7. / 1296.,
        ];
        let l_spinorbit = [
            -14. / 6.,
            -3. / 2.,
            -11. / 2.,
            133. / 72.,
            -33. / 8.,
            7. / 4.,
        ];
        let constants_l = [
            l_nonspin[0] + eta * l_nonspin[1],
            pn_beta(l_spinorbit[0], l_spinorbit[1]),
            l_nonspin[2] + eta * l_nonspin[3] + eta * eta * l_nonspin[4],
            pn_beta(
                l_spinorbit[2] + l_spinorbit[3] * eta,
                l_spinorbit[4] + l_spinorbit[5] * eta,
            ),
            l_nonspin[5]
                + l_nonspin[6] * eta
                + l_nonspin[7] * eta * eta
                + l_nonspin[8] * eta * eta * eta,
        ];
        let seff = (1.0 + q) * dot_s1l + (1.0 + (1.0 / q)) * dot_s2l;
        let seff2 = seff * seff;
        let s0 = [s1v[0] + s2v[0], s1v[1] + s2v[1], s1v[2] + s2v[2]];
        let j_0 = [l_0[0] + s0[0], l_0[1] + s0[1], l_0[2] + s0[2]];
        let s0_norm = norm(s0);
        let s0_norm_2 = s0_norm * s0_norm;
        let l0_norm = norm(l_0);
        let j0_norm = norm(j_0);

        let mut msa = Self {
            version,
            eta,
            eta2,
            eta3,
            eta4,
            inveta: 1.0 / eta,
            inveta2: 1.0 / eta2,
            inveta3: 1.0 / eta3,
            inveta4: 1.0 / eta4,
            sqrt_inveta: 1.0 / eta.sqrt(),
            q,
            delta,
            s1_norm_2,
            s2_norm_2,
            s0_norm_2,
            dot_s1_ln,
            dot_s2_ln,
            seff,
            constants_l,
            l_ansatz: OrbitalAngularMomentum::phenomx(102, eta, px.delta, chi1[2], chi2[2]),
            c1: 0.0,
            c1_over_eta: 0.0,
            sav2: 0.0,
            sav: 0.0,
            inv_sav: 0.0,
            inv_sav2: 0.0,
            s1l_pav: 0.0,
            s2l_pav: 0.0,
            g0: 0.0,
            psi0: 0.0,
            psi1: 0.0,
            psi2: 0.0,
            omega_z: [0.0; 6],
            omega_zeta: [0.0; 6],
            phiz_0: 0.0,
            zeta_0: 0.0,
        };

        let roots = msa.roots(l0_norm, j0_norm);
        let Roots { s32, smi2, spl2 } = roots;
        let spl2_m_smi2 = spl2 - smi2;
        let sav2 = 0.5 * (spl2 + smi2);
        let sav = sav2.sqrt();
        msa.sav2 = sav2;
        msa.sav = sav;
        msa.inv_sav2 = 1.0 / sav2;
        msa.inv_sav = 1.0 / sav;

        // Eq. 41 and the precession-averaged couplings, A9–A14.
        let c_1 = 0.5 * (j0_norm * j0_norm - l0_norm * l0_norm - sav2) / l0_norm * eta;
        let c1_2 = c_1 * c_1;
        msa.c1 = c_1;
        msa.c1_over_eta = c_1 / eta;
        let omqsq = (1.0 - q) * (1.0 - q) + 1e-16;
        let omq2 = (1.0 - q * q) + 1e-16;
        let s1l_pav = (c_1 * (1.0 + q) - q * eta * seff) / (eta * omq2);
        let s2l_pav = -q * (c_1 * (1.0 + q) - eta * seff) / (eta * omq2);
        msa.s1l_pav = s1l_pav;
        msa.s2l_pav = s2l_pav;
        let s1s2_pav = 0.5 * sav2 - 0.5 * (s1_norm_2 + s2_norm_2);
        let s1lsq_pav =
            (s1l_pav * s1l_pav) + ((spl2_m_smi2) * (spl2_m_smi2) * v_0_2) / (32.0 * eta2 * omqsq);
        let s2lsq_pav = (s2l_pav * s2l_pav)
            + (q * q * (spl2_m_smi2) * (spl2_m_smi2) * v_0_2) / (32.0 * eta2 * omqsq);
        let beta3 = ((113. / 12.) + (25. / 4.) * (m2 / m1)) * s1l_pav
            + ((113. / 12.) + (25. / 4.) * (m1 / m2)) * s2l_pav;
        // β5–β7 and a5–a7 (a7 with LAL's unbracketed β7) enter only g5 and higher, which
        // ExpansionOrder 5 drops.
        let sigma4 = (1.0 / mu) * ((247. / 48.) * s1s2_pav - (721. / 48.) * s1l_pav * s2l_pav)
            + (1.0 / (m1 * m1)) * ((233. / 96.) * s1_norm_2 - (719. / 96.) * s1lsq_pav)
            + (1.0 / (m2 * m2)) * ((233. / 96.) * s2_norm_2 - (719. / 96.) * s2lsq_pav);
        let mut a0 = 96.0 * eta / 5.0;
        let mut a2 = -(743. / 336.) - (11.0 / 4.) * eta;
        let mut a3 = 4.0 * PI - beta3;
        let mut a4 = (34103. / 18144.) + (13661. / 2016.) * eta + (59. / 18.) * eta2 - sigma4;
        a2 *= a0;
        a3 *= a0;
        a4 *= a0;
        if fd_prec_angles {
            // dω/dt from the initial spin couplings, as LALSimInspiralFDPrecAngles.
            let ns = [
                96. / 5.,
                -1486. / 35.,
                -264. / 5.,
                384. * PI / 5.,
                34103. / 945.,
                13661. / 105.,
                944. / 15.,
            ];
            let so = [-904. / 5., -120.];
            let ss = [-494. / 5., -1442. / 5., -233. / 5., -719. / 5.];
            a0 = eta * ns[0];
            a2 = eta * (ns[1] + eta * (ns[2]));
            a3 = eta * (ns[3] + pn_beta(so[0], so[1]));
            a4 = eta
                * (ns[4]
                    + eta * (ns[5] + eta * (ns[6]))
                    + pn_sigma(ss[0], ss[1])
                    + pn_tau(ss[2], ss[3]));
        }
        let a0_2 = a0 * a0;
        let a0_3 = a0_2 * a0;
        let a2_2 = a2 * a2;
        let g0 = 1. / a0;
        let g2 = -(a2 / a0_2);
        let g3 = -(a3 / a0_2);
        let g4 = -(a4 * a0 - a2_2) / a0_3;
        msa.g0 = g0;

        // ψ1, Δ and ψ2 (Appendix C).
        let psi1 = 3.0 * (2.0 * eta2 * seff - c_1) / (eta * delta2);
        let c_1_over_nu = msa.c1_over_eta;
        let c_1_over_nu_2 = c_1_over_nu * c_1_over_nu;
        let one_p_q_sq = (1. + q) * (1. + q);
        let seff_2 = seff * seff;
        let q_2 = q * q;
        let one_m_q_sq = (1. - q) * (1. - q);
        let one_m_q2_2 = (1. - q_2) * (1. - q_2);
        let one_m_q_4 = one_m_q_sq * one_m_q_sq;
        let big_delta = if fd_prec_angles {
            let del1 = 4. * c_1_over_nu_2 * one_p_q_sq;
            let del2 = 8. * c_1_over_nu * q * (1. + q) * seff;
            let del3 = 4. * (one_m_q2_2 * s1_norm_2 - q_2 * seff_2);
            let del4 = 4. * c_1_over_nu_2 * q_2 * one_p_q_sq;
            let del5 = 8. * c_1_over_nu * q_2 * (1. + q) * seff;
            let del6 = 4. * (one_m_q2_2 * s2_norm_2 - q_2 * seff_2);
            ((del1 - del2 - del3) * (del4 - del5 - del6)).abs().sqrt()
        } else {
            let term1 = c1_2 * eta / (q * delta4);
            let term2 = -2.0 * c_1 * eta3 * (1.0 + q) * seff / (q * delta4);
            let term3 = -eta2 * (delta2 * s1_norm_2 - eta2 * seff2) / delta4;
            let term4 = c1_2 * eta * q / delta4;
            let term5 = -2.0 * c_1 * eta3 * (1.0 + q) * seff / delta4;
            let term6 = -eta2 * (delta2 * s2_norm_2 - eta2 * seff2) / delta4;
            ((term1 + term2 + term3) * (term4 + term5 + term6))
                .abs()
                .sqrt()
        };
        let psi2 = if fd_prec_angles {
            let u1 = 3. * g2 / g0;
            let u2 = 0.75 * one_p_q_sq / one_m_q_4;
            let u3 = -20. * c_1_over_nu_2 * q_2 * one_p_q_sq;
            let u4 = 2.
                * one_m_q2_2
                * (q * (2. + q) * s1_norm_2 + (1. + 2. * q) * s2_norm_2 - 2. * q * sav2);
            let u5 = 2. * q_2 * (7. + 6. * q + 7. * q_2) * 2. * c_1_over_nu * seff;
            let u6 = 2. * q_2 * (3. + 4. * q + 3. * q_2) * seff_2;
            let u7 = q * big_delta;
            u1 + u2 * (u3 + u4 + u5 - u6 + u7)
        } else {
            let term1 = 3.0 * g2 / g0;
            let term2 = 3.0 * q * q / (2.0 * eta3);
            let term3 = 2.0 * big_delta;
            let term4 = -2.0 * eta2 * sav2 / delta2;
            let term5 = -10. * eta * c1_2 / delta4;
            let term6 = 2.0 * eta2 * (7.0 + 6.0 * q + 7.0 * q * q) * c_1 * seff / (omqsq * delta2);
            let term7 = -eta3 * (3.0 + 4.0 * q + 3.0 * q * q) * seff2 / (omqsq * delta2);
            let term8 = eta * (q * (2.0 + q) * s1_norm_2 + (1.0 + 2.0 * q) * s2_norm_2) / (omqsq);
            term1 + term2 * (term3 + term4 + term5 + term6 + term7 + term8)
        };
        msa.psi1 = psi1;
        msa.psi2 = psi2;

        // Ω_z and Ω_ζ (Appendices D, E).
        let rm = spl2 - smi2;
        let rm_2 = rm * rm;
        let cp = spl2 * eta2 - c1_2;
        let cm = smi2 * eta2 - c1_2;
        let cpcm = (cp * cm).abs();
        let sqrt_cpcm = cpcm.sqrt();
        let a1d_d = 0.5 + 0.75 / eta;
        let a2d_d = -0.75 * seff / eta;
        let d2rm_sq = (cp - sqrt_cpcm) / eta2;
        let d4rm_sq = -0.5 * rm * sqrt_cpcm / eta2 - cp / eta4 * (sqrt_cpcm - cp);
        let s0m = s1_norm_2 - s2_norm_2;
        let aw = -3. * (1. + q) / q
            * (2. * (1. + q) * eta2 * seff * c_1 - (1. + q) * c1_2 + (1. - q) * eta2 * s0m);
        let cw = 3. / 32. / eta * rm_2;
        let dw = 4.0 * cp - 4.0 * d2rm_sq * eta2;
        let hw = -2.0 * (2.0 * d2rm_sq - rm) * c_1;
        let fw = rm * d2rm_sq - d4rm_sq - 0.25 * rm_2;
        let ad_d = aw / dw;
        let hd_d = hw / dw;
        let cd_d = cw / dw;
        let fd_d = fw / dw;
        let gw = 3. / 16. / eta2 / eta * rm_2 * (c_1 - eta2 * seff);
        let gd_d = gw / dw;
        let hd_d_2 = hd_d * hd_d;
        let ad_dfd_d = ad_d * fd_d;
        let ad_dfd_dhd_d = ad_dfd_d * hd_d;
        let ad_dhd_d_2 = ad_d * hd_d_2;
        let omegaz0 = a1d_d + ad_d;
        let omegaz1 = a2d_d - ad_d * seff - ad_d * hd_d;
        let omegaz2 = ad_d * hd_d * seff + cd_d - ad_d * fd_d + ad_d * hd_d_2;
        let omegaz3 = (ad_dfd_d - cd_d - ad_dhd_d_2) * (seff + hd_d) + ad_dfd_dhd_d;
        let omegaz4 = (cd_d + ad_dhd_d_2 - 2.0 * ad_dfd_d) * (hd_d * seff + hd_d_2 - fd_d)
            - ad_d * fd_d * fd_d;
        let omegaz5 = (cd_d - ad_dfd_d + ad_dhd_d_2) * fd_d * (seff + 2.0 * hd_d)
            - (cd_d + ad_dhd_d_2 - 2.0 * ad_dfd_d) * hd_d_2 * (seff + hd_d)
            - ad_dfd_d * fd_d * hd_d;
        if omegaz5.abs() > OMEGA_Z5_LIMIT {
            return Err(MsaFailure { omega_z5: omegaz5 });
        }
        let omega_z = [
            3.0 * g0 * omegaz0,
            3.0 * g0 * omegaz1,
            3.0 * (g0 * omegaz2 + g2 * omegaz0),
            3.0 * (g0 * omegaz3 + g2 * omegaz1 + g3 * omegaz0),
            3.0 * (g0 * omegaz4 + g2 * omegaz2 + g3 * omegaz1 + g4 * omegaz0),
            // ExpansionOrder 5 zeroes the fifth order (LAL's switch falls through to it).
            0.0,
        ];
        let c1oveta2 = c_1 / eta2;
        let omegazeta0 = omegaz0;
        let omegazeta1 = omegaz1 + omegaz0 * c1oveta2;
        let omegazeta2 = omegaz2 + omegaz1 * c1oveta2;
        let omegazeta3 = omegaz3 + omegaz2 * c1oveta2 + gd_d;
        let omegazeta4 = omegaz4 + omegaz3 * c1oveta2 - gd_d * seff - gd_d * hd_d;
        let omega_zeta = [
            -g0 * omegazeta0,
            -1.5 * g0 * omegazeta1,
            -3.0 * (g0 * omegazeta2 + g2 * omegazeta0),
            3.0 * (g0 * omegazeta3 + g2 * omegazeta1 + g3 * omegazeta0),
            3.0 * (g0 * omegazeta4 + g2 * omegazeta2 + g3 * omegazeta1 + g4 * omegazeta0),
            0.0,
        ];
        msa.omega_z = omega_z;
        msa.omega_zeta = omega_zeta;

        // ψ0 from the initial S through F(φ, k).
        // LAL: `if (fabs(Smi2 - Spl2) < 1e-5) psi0 = 0; else …`: a NaN difference takes the else.
        let spread = (smi2 - spl2).abs();
        if spread >= 1.0e-5 || spread.is_nan() {
            let mm = ((smi2 - spl2) / (s32 - spl2)).sqrt();
            let tmp_b = (s0_norm * s0_norm - spl2) / (smi2 - spl2);
            let volume_element = dot(cross(l_0, s1v), s2v);
            let vol_sign = if volume_element > 0.0 {
                1.0
            } else if volume_element < 0.0 {
                -1.0
            } else {
                0.0
            };
            let psi_of_v0 = msa.psi_of_v(v_0, v_0_2, 0.0);
            // Written as LAL's test: a NaN tmp_b takes the last branch.
            #[allow(clippy::manual_range_contains)]
            let outside = tmp_b < 0. || tmp_b > 1.;
            if outside {
                if tmp_b > 1.0 && (tmp_b - 1.) < 0.00001 {
                    msa.psi0 = ellint_f((vol_sign * 1f64.sqrt()).asin(), mm) - psi_of_v0;
                }
                if tmp_b < 0.0 && tmp_b > -0.00001 {
                    msa.psi0 = ellint_f((vol_sign * 0f64.sqrt()).asin(), mm) - psi_of_v0;
                }
            } else {
                msa.psi0 = ellint_f((vol_sign * tmp_b.sqrt()).asin(), mm) - psi_of_v0;
            }
        }

        // φ_z,0 and ζ_0 so that both vanish at v_0.
        let corrections = if (spl2 - smi2).abs() > 1.0e-5 {
            msa.corrections(v_0, l0_norm, j0_norm, roots)
        } else {
            (0.0, 0.0)
        };
        let phiz_0 = msa.phiz(v_0, j0_norm);
        let zeta_0 = msa.zeta(v_0);
        msa.phiz_0 = -phiz_0 - corrections.0;
        msa.zeta_0 = -zeta_0 - corrections.1;
        Ok(msa)
    }

    /// ψ(v) with the given ψ0 (`IMRPhenomX_psiofv`, Eq. 51).
    fn psi_of_v(&self, v: f64, v2: f64, psi0: f64) -> f64 {
        psi0 - 0.75 * self.g0 * self.delta * (1.0 + self.psi1 * v + self.psi2 * v2) / (v2 * v)
    }

    /// ‖J‖ at ‖L‖ (`IMRPhenomX_JNorm_MSA`, Eq. 41).
    fn j_norm(&self, l_norm: f64) -> f64 {
        (l_norm * l_norm + (2.0 * l_norm * self.c1_over_eta) + self.sav2).sqrt()
    }

    /// The roots of Eq. 21 at ‖L‖, ‖J‖ (`IMRPhenomX_Return_Roots_MSA`).
    fn roots(&self, l_norm: f64, j_norm: f64) -> Roots {
        // IMRPhenomX_Return_Spin_Evolution_Coefficients_MSA (Eqs. B2–B4).
        let j_norm2 = j_norm * j_norm;
        let l_norm2 = l_norm * l_norm;
        let (s1n2, s2n2) = (self.s1_norm_2, self.s2_norm_2);
        let (q, eta, seff) = (self.q, self.eta, self.seff);
        let j2m_l2 = j_norm2 - l_norm2;
        let j2m_l2_sq = j2m_l2 * j2m_l2;
        let delta = self.delta;
        let delta_sq = delta * delta;
        let b = (l_norm2 + s1n2) * q + 2.0 * l_norm * seff - 2.0 * j_norm2 - s1n2 - s2n2
            + (l_norm2 + s2n2) / q;
        let c = j2m_l2_sq
            - 2.0 * l_norm * seff * j2m_l2
            - 2.0 * ((1.0 - q) / q) * l_norm2 * (s1n2 - q * s2n2)
            + 4.0 * eta * l_norm2 * seff * seff
            - 2.0 * delta * (s1n2 - s2n2) * seff * l_norm
            + 2.0 * ((1.0 - q) / q) * (q * s1n2 - s2n2) * j_norm2;
        let d = ((1.0 - q) / q) * (s2n2 - q * s1n2) * j2m_l2_sq
            + delta_sq * (s1n2 - s2n2) * (s1n2 - s2n2) * l_norm2 / eta
            + 2.0 * delta * l_norm * seff * (s1n2 - s2n2) * j2m_l2;

        let b2 = b * b;
        let b3 = b2 * b;
        let bc = b * c;
        let p = c - b2 / 3.;
        let qc = (2.0 / 27.0) * b3 - bc / 3.0 + d;
        let sqrtarg = (-p / 3.0).sqrt();
        // A NaN stays NaN, as in LAL's two comparisons.
        let acosarg = (1.5 * qc / p / sqrtarg).clamp(-1.0, 1.0);
        let theta = acosarg.acos() / 3.0;
        let cos_theta = theta.cos();
        let (ln1, ln2) = (self.dot_s1_ln, self.dot_s2_ln);
        if theta.is_nan()
            || sqrtarg.is_nan()
            || ln1 == 1.
            || ln2 == 1.
            || ln1 == -1.
            || ln2 == -1.
            || s1n2 == 0.
            || s2n2 == 0.
        {
            // A perturbation keeps φ_z finite.
            let smi2 = self.s0_norm_2;
            return Roots {
                s32: 0.0,
                smi2,
                spl2: smi2 + 1e-9,
            };
        }
        let tmp1 = 2.0 * sqrtarg * (theta - 2.0 * TAU / 3.0).cos() - b / 3.0;
        let tmp2 = 2.0 * sqrtarg * (theta - TAU / 3.0).cos() - b / 3.0;
        let tmp3 = 2.0 * sqrtarg * cos_theta - b / 3.0;
        let tmp4 = fmax(fmax(tmp1, tmp2), tmp3);
        let tmp5 = fmin(fmin(tmp1, tmp2), tmp3);
        let tmp6 = if (tmp4 - tmp3) > 0.0 && (tmp5 - tmp3) < 0.0 {
            tmp3
        } else if (tmp4 - tmp1) > 0.0 && (tmp5 - tmp1) < 0.0 {
            tmp1
        } else {
            tmp2
        };
        Roots {
            s32: tmp5,
            smi2: tmp6.abs(),
            spl2: tmp4.abs(),
        }
    }

    /// The MSA corrections (φ_z,MSA, ζ_MSA) at v, ‖L‖, ‖J‖ and the roots there
    /// (`IMRPhenomX_Return_MSA_Corrections_MSA`, Eqs. 67, F19).
    fn corrections(&self, v: f64, l_norm: f64, j_norm: f64, roots: Roots) -> (f64, f64) {
        let Roots { s32, smi2, spl2 } = roots;
        let spl = spl2.sqrt();
        let spl2_m_smi2 = spl2 - smi2;
        let (eta, seff) = (self.eta, self.seff);
        let v2 = v * v;
        let j_norm2 = j_norm * j_norm;
        // IMRPhenomX_Return_Constants_c_MSA (B6–B8).
        let (c0, c2, c4) = if self.version != 220 {
            let v3 = v * v2;
            let v4 = v2 * v2;
            let v6 = v3 * v3;
            (
                j_norm
                    * (0.75
                        * (1.0 - seff * v)
                        * v2
                        * (self.eta3 + 4.0 * self.eta3 * seff * v
                            - 2.0
                                * eta
                                * (j_norm2 - spl2
                                    + 2.0 * (self.s1_norm_2 - self.s2_norm_2) * self.delta)
                                * v2
                            - 4.0 * eta * seff * (j_norm2 - spl2) * v3
                            + (j_norm2 - spl2) * (j_norm2 - spl2) * v4 * self.inveta)),
                j_norm
                    * (-1.5
                        * eta
                        * (spl2 - smi2)
                        * (1.0 + 2.0 * seff * v - (j_norm2 - spl2) * v2 * self.inveta2)
                        * (1.0 - seff * v)
                        * v4),
                j_norm
                    * (0.75 * self.inveta * (spl2 - smi2) * (spl2 - smi2) * (1.0 - seff * v) * v6),
            )
        } else {
            let v_2 = v * v;
            let v_3 = v * v_2;
            let v_4 = v_2 * v_2;
            let v_6 = v_2 * v_4;
            let delta = self.delta;
            let eta_2 = eta * eta;
            (
                -0.75
                    * ((j_norm2 - spl2) * (j_norm2 - spl2) * v_4 / eta
                        - 4. * eta * seff * (j_norm2 - spl2) * v_3
                        - 2. * (j_norm2 - spl2 + 2. * (self.s1_norm_2 - self.s2_norm_2) * delta)
                            * eta
                            * v_2
                        + (4. * seff * v + 1.) * eta * eta_2)
                    * j_norm
                    * v_2
                    * (seff * v - 1.),
                1.5 * (smi2 - spl2)
                    * j_norm
                    * ((j_norm2 - spl2) / eta * v_2 - 2. * eta * seff * v - eta)
                    * (seff * v - 1.)
                    * v_4,
                -0.75 * j_norm * (seff * v - 1.) * (spl2 - smi2) * (spl2 - smi2) * v_6 / eta,
            )
        };
        // IMRPhenomX_Return_Constants_d_MSA (B9–B11).
        let l_norm2 = l_norm * l_norm;
        let d0 = -(j_norm2 - (l_norm + spl) * (l_norm + spl))
            * (j_norm2 - (l_norm - spl) * (l_norm - spl));
        let d2 = -2.0 * (spl2 - smi2) * (j_norm2 + l_norm2 - spl2);
        let d4 = -(spl2 - smi2) * (spl2 - smi2);

        let two_d0 = 2.0 * d0;
        let sd = (d2 * d2 - 4.0 * d0 * d4).abs().sqrt();
        let a_theta_l = 0.5 * ((j_norm / l_norm) + (l_norm / j_norm) - (spl2 / (j_norm * l_norm)));
        let b_theta_l = 0.5 * spl2_m_smi2 / (j_norm * l_norm);
        let nc_num = 2.0 * (d0 + d2 + d4);
        let nc_denom = two_d0 + d2 + sd;
        let nc = nc_num / nc_denom;
        let nd = nc_denom / two_d0;
        let sqrt_nc = nc.abs().sqrt();
        let sqrt_nd = nd.abs().sqrt();
        let psi = (-0.75 * self.g0 * self.delta * (1.0 + self.psi1 * v + self.psi2 * v2))
            / (v2 * v)
            + self.psi0;
        let a_coeff = -1.5 * (v2 * v2 * v2) * (1.0 - v * seff) * self.sqrt_inveta;
        let psi_dot = 0.5 * a_coeff * (spl2 - s32).sqrt();
        let tan_psi = psi.tan();
        let atan_psi = tan_psi.atan();
        let c1 = -0.5 * (c0 / d0 - 2.0 * (c0 + c2 + c4) / nc_num);
        let c2num = c0 * (-2.0 * d0 * d4 + d2 * d2 + d2 * d4) - c2 * d0 * (d2 + 2.0 * d4)
            + c4 * d0 * (two_d0 + d2);
        let c2den = 2.0 * d0 * sd * (d0 + d2 + d4);
        let c2_ = c2num / c2den;
        let cphi = c1 + c2_;
        let dphi = c1 - c2_;
        let fd_prec_angles = self.version == 222 || self.version == 223;
        let cphi_term = if nc == 1.0 {
            0.0
        } else if fd_prec_angles {
            ((c4 * d0 * ((2. * d0 + d2) + sd)
                - c2 * d0 * ((d2 + 2. * d4) - sd)
                - c0 * ((2. * d0 * d4) - (d2 + d4) * (d2 - sd)))
                / (c2den))
                .abs()
                * (sqrt_nc / (nc - 1.) * (atan_psi - (sqrt_nc * tan_psi).atan()))
                / psi_dot
        } else {
            ((cphi / psi_dot) * sqrt_nc / (nc - 1.0))
                * (((1.0 - sqrt_nc) * tan_psi) / (1.0 + (sqrt_nc * tan_psi * tan_psi))).atan()
        };
        let dphi_term = if nd == 1.0 {
            0.0
        } else if fd_prec_angles {
            // LAL quirk: the fabs ends before the division here.
            (-c4 * d0 * ((2. * d0 + d2) - sd) + c2 * d0 * ((d2 + 2. * d4) + sd)
                - c0 * (-(2. * d0 * d4) + (d2 + d4) * (d2 + sd)))
                .abs()
                / (c2den)
                * (sqrt_nd / (nd - 1.) * (atan_psi - (sqrt_nd * tan_psi).atan()))
                / psi_dot
        } else {
            ((dphi / psi_dot) * sqrt_nd / (nd - 1.0))
                * (((1.0 - sqrt_nd) * tan_psi) / (1.0 + (sqrt_nd * tan_psi * tan_psi))).atan()
        };
        let mut phiz = cphi_term + dphi_term;
        let mut zeta = if fd_prec_angles || self.version == 224 {
            a_theta_l * phiz + 2. * b_theta_l * d0 * (cphi_term / (sd - d2) - dphi_term / (sd + d2))
        } else {
            ((a_theta_l * (cphi + dphi))
                + (2.0 * d0 * b_theta_l) * ((cphi / (sd - d2)) - (dphi / (sd + d2))))
                / psi_dot
        };
        if phiz.is_nan() {
            phiz = 0.0;
        }
        if zeta.is_nan() {
            zeta = 0.0;
        }
        (phiz, zeta)
    }

    /// φ_z at v and ‖J‖ without the MSA correction (`IMRPhenomX_Return_phiz_MSA`, Eq. 66).
    fn phiz(&self, v: f64, j_norm: f64) -> f64 {
        let invv = 1.0 / v;
        let invv2 = invv * invv;
        let (eta, eta2, eta4) = (self.eta, self.eta2, self.eta4);
        let l_newt = eta / v;
        let c1 = self.c1;
        let c12 = c1 * c1;
        let (sav2, sav, inv_sav, inv_sav2) = (self.sav2, self.sav, self.inv_sav, self.inv_sav2);
        let log1 = (c1 + j_norm * eta + eta * l_newt).abs().ln();
        let log2 = (c1 + j_norm * sav * v + sav2 * v).abs().ln();
        let phiz_0 = (j_norm * self.inveta4)
            * (0.5 * c12 - c1 * eta2 * invv / 6.0 - sav2 * eta2 / 3.0 - eta4 * invv2 / 3.0)
            - (c1 * 0.5 * self.inveta) * (c12 * self.inveta4 - sav2 * self.inveta2) * log1;
        let phiz_1 = -0.5 * j_norm * self.inveta2 * (c1 + eta * l_newt)
            + 0.5 * self.inveta3 * (c12 - eta2 * sav2) * log1;
        let phiz_2 = -j_norm + sav * log2 - c1 * log1 * self.inveta;
        let phiz_3 = j_norm * v - eta * log1 + c1 * log2 * inv_sav;
        let phiz_4 = (0.5 * j_norm * inv_sav2 * v) * (c1 + v * sav2)
            - (0.5 * inv_sav2 * inv_sav) * (c12 - eta2 * sav2) * log2;
        let phiz_5 = -j_norm
            * v
            * ((0.5 * c12 * inv_sav2 * inv_sav2)
                - (c1 * v * inv_sav2 / 6.0)
                - v * v / 3.0
                - eta2 * inv_sav2 / 3.0)
            + (0.5 * c1 * inv_sav2 * inv_sav2 * inv_sav) * (c12 - eta2 * sav2) * log2;
        let w = &self.omega_z;
        let out = phiz_0 * w[0]
            + phiz_1 * w[1]
            + phiz_2 * w[2]
            + phiz_3 * w[3]
            + phiz_4 * w[4]
            + phiz_5 * w[5]
            + self.phiz_0;
        if out.is_nan() {
            0.0
        } else {
            out
        }
    }

    /// ζ at v without the MSA correction (`IMRPhenomX_Return_zeta_MSA`, Eq. F5).
    fn zeta(&self, v: f64) -> f64 {
        let invv = 1.0 / v;
        let invv2 = invv * invv;
        let invv3 = invv * invv2;
        let v2 = v * v;
        let logv = v.ln();
        let w = &self.omega_zeta;
        let out = self.eta
            * (w[0] * invv3 + w[1] * invv2 + w[2] * invv + w[3] * logv + w[4] * v + w[5] * v2)
            + self.zeta_0;
        if out.is_nan() {
            0.0
        } else {
            out
        }
    }

    /// (φ_z, ζ, cos θ_L) at v (`IMRPhenomX_Return_phi_zeta_costhetaL_MSA`).
    pub(crate) fn angles(&self, v: f64) -> (f64, f64, f64) {
        let l_norm = self.eta / v;
        let j_norm = self.j_norm(l_norm);
        let l_norm_3pn = if self.version == 222 || self.version == 223 {
            // IMRPhenomX_L_norm_3PN_of_v.
            let v2 = v * v;
            let c = &self.constants_l;
            l_norm * (1. + v2 * (c[0] + v * c[1] + v2 * (c[2] + v * c[3] + v2 * (c[4]))))
        } else {
            self.l_ansatz.ansatz(v, l_norm)
        };
        let j_norm_3pn = self.j_norm(l_norm_3pn);
        let roots = self.roots(l_norm, j_norm);
        let Roots { s32, smi2, spl2 } = roots;
        // IMRPhenomX_Return_SNorm_MSA (Eqs. 23, 25).
        let sn = if (smi2 - spl2).abs() < 1.0e-5 {
            0.0
        } else {
            let m = (smi2 - spl2) / (s32 - spl2);
            let psi = self.psi_of_v(v, v * v, self.psi0);
            elljac(psi, m).0
        };
        let s_norm = (spl2 + (smi2 - spl2) * sn * sn).sqrt();
        let (phiz_msa, zeta_msa) = if (smi2 - spl2).abs() > 1.0e-5 {
            self.corrections(v, l_norm, j_norm, roots)
        } else {
            (0.0, 0.0)
        };
        let phiz = self.phiz(v, j_norm);
        let zeta = self.zeta(v);
        // IMRPhenomX_costhetaLJ.
        let cos_theta_l = (0.5
            * (j_norm_3pn * j_norm_3pn + l_norm_3pn * l_norm_3pn - s_norm * s_norm)
            / (l_norm_3pn * j_norm_3pn))
            .clamp(-1.0, 1.0);
        (phiz + phiz_msa, zeta + zeta_msa, cos_theta_l)
    }

    /// The MSA final spin (FinalSpinMod 3 with LAL's default TransPrecessionMethod 1):
    /// sign(a_∥)·√(⟨S²⟩ + L_f² + 2 L_f (⟨S1·L⟩ + ⟨S2·L⟩))/M², with L_f = M² a_∥ − m1²χ1z −
    /// m2²χ2z, clamped to |a| ≤ 1.
    pub(crate) fn final_spin(
        &self,
        px: &PhenomXMasses,
        a_parallel: f64,
        chi1z: f64,
        chi2z: f64,
    ) -> f64 {
        let m = px.m;
        let l_final = m * m * a_parallel - (px.m1 * px.m1) * chi1z - (px.m2 * px.m2) * chi2z;
        let sign = 1f64.copysign(a_parallel);
        let a = sign
            * (self.sav2 + l_final * l_final + 2.0 * l_final * (self.s1l_pav + self.s2l_pav))
                .sqrt()
            / (m * m);
        if a.abs() > 1.0 {
            1f64.copysign(a)
        } else {
            a
        }
    }
}
