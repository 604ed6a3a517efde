//! Amplitude of the (2,2) mode: complex PN inspiral amplitude with three pseudo-PN terms
//! (t < −150 M), the sech merger ansatz (−150 M ≤ t ≤ 0) and the Damour–Nagar ringdown (t > 0).
//!
//! Equations: Estellés et al., arXiv:2012.11923 eqs. 12–16 (inspiral, PN coefficients of its
//! App. A from Blanchet et al. 2008, Buonanno et al. 2013, Arun et al. 2008), eqs. 29–31
//! (merger), eq. 25 and Damour & Nagar arXiv:1406.0401 eqs. 4–8 (ringdown). The set-up
//! reproduces LAL's `IMRPhenomTSetHMAmplitudeCoefficients` for (2,2) operation by operation.
//! Amplitudes are in units of M/distance (multiplied by `ampfac` outside).

use std::f64::consts::PI;

use crate::constants::GAMMA_E;
use crate::fits;
use crate::gsl;
use crate::phase::{BinaryVariables, Phase22};
use crate::scalar::Real;

/// End of the inspiral amplitude region (`tCUT_Amp`), in M.
const T_CUT_AMP: f64 = -150.0;
/// Merger collocation time (`tcpMerger`), in M.
const T_MERGER_CP: f64 = -25.0;

/// Coefficients of the 22 amplitude (LAL's `IMRPhenomTHMAmpStruct` for l = m = 2).
#[derive(Clone, Copy, Debug)]
pub struct Amplitude22<T> {
    /// 2η√(16π/5).
    fac0: T,
    /// Real PN coefficients of x^(1, 3/2, 2, 5/2, 3, 7/2) (the Newtonian one is 1).
    pn_re: [T; 6],
    /// Imaginary PN coefficients of x^(5/2, 3, 7/2).
    pn_im: [T; 3],
    /// Coefficient of ln(16x)·x³.
    pn_log: f64,
    /// Pseudo-PN coefficients of x⁴, x^(9/2), x⁵.
    insp_c: [T; 3],
    merger_c: [T; 4],
    alpha1: T,
    rd_c: [T; 4],
}

/// A complex number as a (re, im) pair of scalars.
type Complex<T> = (T, T);

impl<T: Real> Amplitude22<T> {
    /// Solves for all coefficients, given the 22 frequency (for x = (ω/2)^(2/3)).
    pub fn new(v: &BinaryVariables<T>, phase: &Phase22<T>) -> Self {
        let f = v.fit_inputs();
        let (eta, delta, chi1, chi2) = (v.eta, v.delta, v.chi1, v.chi2);
        let two_pi = 2.0 * PI;
        let alpha1 = fits::qnm_fdamp_22(v.final_spin) / v.final_mass * two_pi;
        let alpha2 = fits::qnm_fdamp_n2_22(v.final_spin) / v.final_mass * two_pi;

        // Ringdown (arXiv:1406.0401 eqs. 6–8): c3 is a fit, c2 from the overtone, clamped so that
        // the amplitude has no second peak; c1 and c4 fix the peak value and a zero slope.
        let amp_peak = fits::peak_amp_22(&f);
        let c3 = fits::rd_amp_c3_22(&f);
        let cosh_c3 = gsl::cosh(c3);
        let tanh_c3 = gsl::tanh(c3);
        let mut c2 = (alpha2 - alpha1) * 0.5;
        if c2.abs().re() > (alpha1 * 0.5 / tanh_c3).abs().re() {
            c2 = -(alpha1 * 0.5 / tanh_c3);
        }
        let c1 = amp_peak * alpha1 * cosh_c3 * cosh_c3 / c2;
        let c4 = amp_peak - c1 * tanh_c3;

        // PN amplitude coefficients (arXiv:2012.11923 eq. A1), term for term as LAL writes them.
        let k = T::from;
        let half_sum = -(delta - 1.0) / 2.0 + (delta + 1.0) / 2.0; // (1 − δ)/2 + (1 + δ)/2
        let pn_re = [
            eta * 55.0 / 42.0 + (-2.5476190476190474),
            chi1 * -2.0 / 3.0 - chi2 * 2.0 / 3.0 - chi1 * 2.0 * delta / (half_sum * 3.0)
                + chi2 * 2.0 * delta / (half_sum * 3.0)
                + chi1 * 2.0 * eta / 3.0
                + chi2 * 2.0 * eta / 3.0
                + 2.0 * PI,
            chi1.powf(2.0) / 2.0
                + (-1.437169312169312)
                + chi2.powf(2.0) / 2.0
                + chi1.powf(2.0) * delta / 2.0
                - chi2.powf(2.0) * delta / 2.0
                - eta * 1069.0 / 216.0
                - chi1.powf(2.0) * eta
                + chi1 * 2.0 * chi2 * eta
                - chi2.powf(2.0) * eta
                + eta.powf(2.0) * 2047.0 / 1512.0,
            k(-(107.0 * PI) / 21.0) + eta * 34.0 * PI / 21.0,
            k(41.78634662956092) - eta * 278185.0 / 33264.0 - eta.powf(2.0) * 20261.0 / 2772.0
                + eta.powf(3.0) * 114635.0 / 99792.0
                - 856.0 * GAMMA_E / 105.0
                + 2.0 * PI.powf(2.0) / 3.0
                + eta * 41.0 * PI.powf(2.0) / 96.0,
            k(-2173.0 * PI / 756.0) - eta * 2495.0 * PI / 378.0 + eta.powf(2.0) * 40.0 * PI / 27.0,
        ];
        let pn_im = [
            eta * -24.0,
            k((428.0 / 105.0) * PI),
            eta * 14333.0 / 162.0 - eta.powf(2.0) * 4066.0 / 945.0,
        ];
        let mut a = Self {
            fac0: eta * 2.0 * (16.0 * PI / 5.0).sqrt(),
            pn_re,
            pn_im,
            pn_log: -428.0 / 105.0,
            insp_c: [k(0.0); 3],
            merger_c: [k(0.0); 4],
            alpha1,
            rd_c: [c1, c2, c3, c4],
        };

        // Inspiral pseudo-PN terms: three collocation points (eq. 15), fitted to |h| but imposed
        // on the real part of the PN amplitude, as in LAL.
        let x_at = |t: f64| {
            let theta = (-eta * t / 5.0).powf(-1.0 / 8.0);
            (phase.omega(k(t), theta) * 0.5).powf(2.0 / 3.0)
        };
        let cps = [
            fits::inspiral_amp_cp1_22(&f),
            fits::inspiral_amp_cp2_22(&f),
            fits::inspiral_amp_cp3_22(&f),
        ];
        let mut m = [[k(0.0); 3]; 3];
        let mut b = [k(0.0); 3];
        for (i, &t) in [-2000.0, -250.0, T_CUT_AMP].iter().enumerate() {
            let xx = x_at(t);
            let x4 = xx * xx * xx * xx;
            m[i] = [x4, x4 * xx.sqrt(), x4 * xx];
            let pn_real = a.inspiral(xx).0;
            b[i] = T::from(1.0) / a.fac0 / xx * (cps[i] - pn_real);
        }
        a.insp_c = gsl::lu_solve(m, b);

        // Merger (eq. 31): value and slope at −150 M, collocation at −25 M, peak value at 0.
        let signed_abs = |h: Complex<T>| h.0.hypot(h.1) * h.0.re().signum();
        let sech_row = |t: f64| {
            let s1 = gsl::sech(alpha1 * t);
            let s2 = gsl::sech(alpha1 * 2.0 * t);
            [k(1.0), s1, s2.powf(1.0 / 7.0), k(t * t)]
        };
        let theta2 = (-eta * T_CUT_AMP / 5.0).powf(-1.0 / 8.0);
        let theta1 = (-eta * (T_CUT_AMP - 0.000001) / 5.0).powf(-1.0 / 8.0);
        let x2 = (phase.omega(k(T_CUT_AMP), theta2) * 0.5).powf(2.0 / 3.0);
        let x1 = (phase.omega(k(T_CUT_AMP - 0.000001), theta1) * 0.5).powf(2.0 / 3.0);
        let (h2, h1) = (a.inspiral(x2), a.inspiral(x1));
        let damp_cut = (h2.0.hypot(h2.1) - h1.0.hypot(h1.1)) * h2.0.re().signum() / 0.000001;
        let phi = alpha1 * T_CUT_AMP;
        let phi2 = alpha1 * 2.0 * T_CUT_AMP;
        let sech1 = gsl::sech(phi);
        let sech2 = gsl::sech(phi2);
        let m = [
            sech_row(T_CUT_AMP),
            sech_row(T_MERGER_CP),
            [k(1.0), k(1.0), k(1.0), k(0.0)],
            [
                k(0.0),
                -alpha1 * sech1 * gsl::tanh(phi),
                alpha1 * (-2.0 / 7.0) * gsl::sinh(phi2) * sech2.powf(8.0 / 7.0),
                k(2.0 * T_CUT_AMP),
            ],
        ];
        let b = [
            signed_abs(a.inspiral(x_at(T_CUT_AMP))),
            fits::merger_amp_cp1_22(&f),
            amp_peak,
            damp_cut,
        ];
        a.merger_c = gsl::lu_solve(m, b);
        a
    }

    /// Complex inspiral amplitude H(x) (`IMRPhenomTInspiralAmpAnsatzHM`), in units of M/distance.
    fn inspiral(&self, x: T) -> Complex<T> {
        let fac = self.fac0 * x;
        let xhalf = x.sqrt();
        let x1half = x * xhalf;
        let x2 = x * x;
        let x2half = x2 * xhalf;
        let x3 = x2 * x;
        let x3half = x3 * xhalf;
        let x4 = x2 * x2;
        let x4half = x4 * xhalf;
        let x5 = x3 * x2;
        let [r1, r15, r2, r25, r3, r35] = self.pn_re;
        let [i25, i3, i35] = self.pn_im;
        let re = r1 * x
            + 1.0
            + r15 * x1half
            + r2 * x2
            + r25 * x2half
            + r3 * x3
            + r35 * x3half
            + (x * 16.0).ln() * self.pn_log * x3;
        let im = i25 * x2half + i3 * x3 + i35 * x3half;
        let [c1, c2, c3] = self.insp_c;
        let re = re + c1 * x4 + c2 * x4half + c3 * x5;
        (fac * re, fac * im)
    }

    /// |H(x)| of [`Self::inspiral`] for evaluation, given v = √x and ln(16x): equal to it to
    /// rounding, with the series in v in Estrin's scheme (short dependency chains).
    fn inspiral_modulus(&self, v: T, ln_16x: T) -> T {
        let [r1, r15, r2, r25, r3, r35] = self.pn_re;
        let [i25, i3, i35] = self.pn_im;
        let [c1, c2, c3] = self.insp_c;
        let v2 = v * v;
        let v4 = v2 * v2;
        // Re H/(fac0·x) = 1 + v²·R(v), R = r1 + r15v + r2v² + r25v³ + (r3 + ln(16x)·pn_log)v⁴
        //                                  + r35v⁵ + c1v⁶ + c2v⁷ + c3v⁸.
        let r_low = (r1 + r15 * v) + (r2 + r25 * v) * v2;
        let r_high = (r3 + ln_16x * self.pn_log + r35 * v) + (c1 + c2 * v) * v2;
        let re = v2 * (r_low + (r_high + c3 * v4) * v4) + 1.0;
        // Im H/(fac0·x) = v⁵·(i25 + i3v + i35v²).
        let im = v4 * v * (i25 + i3 * v + i35 * v2);
        // |H| ≪ 1e150, so no need for hypot's overflow guard.
        self.fac0 * v2 * (re * re + im * im).sqrt()
    }

    /// |A22| at time t (in M), given the 22 frequency `omega` = ω22(t) in rad/M
    /// (`IMRPhenomTHMAmp`, modulus).
    pub fn modulus(&self, t: T, omega: T) -> T {
        if t.re() < T_CUT_AMP {
            // x = (ω/2)^(2/3), √x and ln(16x) from one logarithm (cheaper than pow or cbrt,
            // and as accurate).
            let ln_half_omega = (omega * 0.5).ln();
            let v = (ln_half_omega * (1.0 / 3.0)).exp();
            self.inspiral_modulus(v, ln_half_omega * (2.0 / 3.0) + 16f64.ln())
        } else if t.re() > 0.0 {
            let [c1, c2, c3, c4] = self.rd_c;
            ((-self.alpha1 * t).exp() * (c1 * (c2 * t + c3).tanh() + c4)).abs()
        } else {
            let [m1, m2, m3, m4] = self.merger_c;
            let s1 = gsl::sech(self.alpha1 * t);
            let s2 = gsl::sech(self.alpha1 * 2.0 * t);
            (m2 * s1 + m1 + m3 * s2.powf(1.0 / 7.0) + m4 * t * t).abs()
        }
    }
}
