//! The amplitude of a higher mode (docs/imrphenomt.md §12.3): the complex PN amplitude with
//! three pseudo-PN terms before −150 M, whose argument adds to the mode's phase; then, real and
//! possibly negative, the sech ansatz up to the mode's own peak t_shift and the Damour–Nagar
//! ringdown after it.
//!
//! Equations: arXiv:2012.11923 eqs. 14–16 (inspiral), 29–31 (merger), 25–26 (ringdown);
//! arXiv:1406.0401 eqs. 4–8. The set-up follows LAL's `IMRPhenomTSetHMAmplitudeCoefficients`
//! operation by operation, finite differences included (its step 1e-6 M at −150 M).

use super::mode::{HigherMode, ModeFits, PnAmplitude};
use crate::gsl;
use crate::phase::{BinaryVariables, Phase22};
use crate::ringdown::RingdownAmplitude;
use crate::scalar::Real;

/// End of the inspiral amplitude (`tCUT_Amp`), in M.
pub(crate) const T_CUT: f64 = -150.0;
/// Merger collocation time (`tcpMerger`), in M.
pub(crate) const T_MERGER_CP: f64 = -25.0;
/// Step of LAL's finite differences of the inspiral amplitude at −150 M.
const AMP_STEP: f64 = 0.000001;

/// A complex number as (re, im).
pub(crate) type Complex<T> = (T, T);

/// The coefficients of a higher mode's amplitude (LAL's `IMRPhenomTHMAmpStruct`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModeAmplitude<T> {
    /// 2η√(16π/5).
    fac0: T,
    pn: PnAmplitude<T>,
    /// Pseudo-PN coefficients of x⁴, x^(9/2), x⁵.
    insp_c: [T; 3],
    merger_c: [T; 4],
    /// The peak of |h_lm| relative to the peak of |h22|.
    pub t_shift: T,
    /// The merger's damping rate (of the aligned-spin final state).
    alpha1: T,
    ringdown: RingdownAmplitude<T>,
    /// −d arg H/dt at −150 M: the inspiral amplitude's share of the mode's frequency there.
    pub omega_cut: T,
    /// arg H at −150 M, plus π where Re H < 0 (the merger continues sign(Re H)·|H|).
    pub phi_cut: T,
}

/// x = (ω22(t)/2)^(2/3) at time t (in M), with θ = (−ηt/5)^(−1/8) as LAL computes it.
pub(crate) fn pn_x<T: Real>(phase: &Phase22<T>, eta: T, t: f64) -> T {
    let theta = (-eta * t / 5.0).powf(-1.0 / 8.0);
    (phase.omega(T::from(t), theta) * 0.5).powf(2.0 / 3.0)
}

impl<T: Real> ModeAmplitude<T> {
    pub fn new(
        mode: HigherMode,
        v: &BinaryVariables<T>,
        phase: &Phase22<T>,
        f: &ModeFits<T>,
        exact_slopes: bool,
    ) -> Self {
        let k = T::from;
        let alpha1 = f.qnm.alpha1;
        let amp_peak = f.peak_amp;
        let ringdown = RingdownAmplitude::new(
            amp_peak,
            f.rd_amp_c3,
            f.ringdown_qnm.alpha1,
            f.ringdown_qnm.alpha2,
        );

        let mut a = Self {
            fac0: v.eta * 2.0 * (16.0 * std::f64::consts::PI / 5.0).sqrt(),
            pn: PnAmplitude::new(mode, v),
            insp_c: [k(0.0); 3],
            merger_c: [k(0.0); 4],
            t_shift: f.t_shift,
            alpha1,
            ringdown,
            omega_cut: k(0.0),
            phi_cut: k(0.0),
        };

        // Inspiral pseudo-PN terms (eq. 15): collocation values of |h_lm| imposed on the real
        // part of the PN amplitude, as in LAL.
        let x_cut = pn_x(phase, v.eta, T_CUT);
        let mut m = [[k(0.0); 3]; 3];
        let mut b = [k(0.0); 3];
        for (i, xx) in [
            pn_x(phase, v.eta, -2000.0),
            pn_x(phase, v.eta, -250.0),
            x_cut,
        ]
        .into_iter()
        .enumerate()
        {
            let x4 = xx * xx * xx * xx;
            m[i] = [x4, x4 * xx.sqrt(), x4 * xx];
            b[i] = T::from(1.0) / a.fac0 / xx * (f.inspiral_amp_cp[i] - a.inspiral(xx).0);
        }
        a.insp_c = gsl::lu_solve(m, b);

        // Merger (eq. 31), in τ = t − t_shift: value and slope at −150 M, collocation at −25 M,
        // peak value at τ = 0.
        let x1 = pn_x(phase, v.eta, T_CUT - AMP_STEP);
        let (h2, h1) = (a.inspiral(x_cut), a.inspiral(x1));
        let sign = h2.0.re().signum();
        let modulus = |h: Complex<T>| h.0.hypot(h.1);
        // d|H|/dt and d arg H/dt at −150 M: LAL's finite differences, or exactly through
        // dx/dt = (2/3)(x/ω22)·dω22/dt (see [`crate::Settings::smooth`]).
        let (modulus_rate, argument_rate) = if exact_slopes {
            let theta = (-v.eta * T_CUT / 5.0).powf(-1.0 / 8.0);
            let omega = phase.omega(k(T_CUT), theta);
            let dx_dt = x_cut * (2.0 / 3.0) / omega * phase.omega_slope(k(T_CUT));
            let (s, ds) = (a.series(x_cut), a.series_slope(x_cut));
            let s2 = s.0 * s.0 + s.1 * s.1;
            let d_modulus = (s2.sqrt() + x_cut * (s.0 * ds.0 + s.1 * ds.1) / s2.sqrt()) * a.fac0;
            let d_argument = (s.0 * ds.1 - s.1 * ds.0) / s2;
            (d_modulus * dx_dt, d_argument * dx_dt)
        } else {
            (
                (modulus(h2) - modulus(h1)) / AMP_STEP,
                (a.orientation(x_cut) - a.orientation(x1)) / AMP_STEP,
            )
        };
        let slope_cut = modulus_rate * sign;
        let tau_cut = -f.t_shift + T_CUT;
        let tau_cp = -f.t_shift + T_MERGER_CP;
        let row = |tau: T| {
            let s2 = gsl::sech(alpha1 * 2.0 * tau);
            [
                k(1.0),
                gsl::sech(alpha1 * tau),
                s2.powf(1.0 / 7.0),
                tau * tau,
            ]
        };
        let phi = alpha1 * tau_cut;
        let phi2 = alpha1 * 2.0 * tau_cut;
        let sech1 = gsl::sech(phi);
        let sech2 = gsl::sech(phi2);
        let m = [
            row(tau_cut),
            row(tau_cp),
            [k(1.0), k(1.0), k(1.0), k(0.0)],
            [
                k(0.0),
                -alpha1 * sech1 * gsl::tanh(phi),
                alpha1 * (-2.0 / 7.0) * gsl::sinh(phi2) * sech2.powf(8.0 / 7.0),
                tau_cut * 2.0,
            ],
        ];
        let b = [modulus(h2) * sign, f.merger_amp_cp, amp_peak, slope_cut];
        a.merger_c = gsl::lu_solve(m, b);

        // The argument of H, for the phase's continuity at −150 M (arXiv:2012.11923 §II D):
        // its rate, and its value with π where the merger flips the sign.
        a.omega_cut = -argument_rate;
        a.phi_cut = h2.1.atan2(h2.0);
        if sign < 0.0 {
            a.phi_cut += T::from(std::f64::consts::PI);
        }
        a
    }

    /// The PN series with the pseudo-PN terms, (Re, Im) of H/(fac0·x)
    /// (`IMRPhenomTInspiralAmpAnsatzHM` before its factor).
    fn series(&self, x: T) -> Complex<T> {
        let xhalf = x.sqrt();
        let x2 = x * x;
        let x3 = x2 * x;
        let powers = [
            T::from(1.0),
            xhalf,
            x,
            x * xhalf,
            x2,
            x2 * xhalf,
            x3,
            x3 * xhalf,
        ];
        let PnAmplitude { re, im, log } = self.pn;
        let mut real = re[0];
        for j in 1..8 {
            real += re[j] * powers[j];
        }
        real += log * (x * 16.0).ln() * x3;
        let mut imag = im[1] * powers[1];
        for j in 2..8 {
            imag += im[j] * powers[j];
        }
        let x4 = x2 * x2;
        let [c1, c2, c3] = self.insp_c;
        (real + c1 * x4 + c2 * (x4 * xhalf) + c3 * (x3 * x2), imag)
    }

    /// d/dx of [`Self::series`].
    fn series_slope(&self, x: T) -> Complex<T> {
        let xhalf = x.sqrt();
        let PnAmplitude { re, im, log } = self.pn;
        // d/dx x^(j/2) = (j/2)·x^(j/2)/x.
        let (mut real, mut imag) = (T::from(0.0), T::from(0.0));
        let mut power = T::from(1.0);
        for j in 1..8 {
            power *= xhalf;
            real += re[j] * power * (j as f64 / 2.0) / x;
            imag += im[j] * power * (j as f64 / 2.0) / x;
        }
        let x2 = x * x;
        real += log * (x2 + x2 * 3.0 * (x * 16.0).ln());
        let [c1, c2, c3] = self.insp_c;
        real += c1 * x2 * x * 4.0 + c2 * x2 * x * xhalf * 4.5 + c3 * x2 * x2 * 5.0;
        (real, imag)
    }

    /// The complex inspiral amplitude H(x) in units of M/distance
    /// (`IMRPhenomTInspiralAmpAnsatzHM`).
    pub fn inspiral(&self, x: T) -> Complex<T> {
        let fac = self.fac0 * x;
        let (re, im) = self.series(x);
        (fac * re, fac * im)
    }

    /// arg H(x) (`ComplexAmpOrientation`).
    fn orientation(&self, x: T) -> T {
        let (re, im) = self.series(x);
        im.atan2(re)
    }

    /// The amplitude at time t (in M) after −150 M, real and possibly negative: the merger
    /// ansatz up to t_shift, the ringdown after it (`IMRPhenomTHMAmp`).
    pub fn merger_ringdown(&self, t: T) -> T {
        let tau = t - self.t_shift;
        if tau.re() > 0.0 {
            self.ringdown.value(tau)
        } else {
            let [m1, m2, m3, m4] = self.merger_c;
            let s2 = (self.alpha1 * 2.0 * tau).cosh().powf(-1.0 / 7.0);
            m1 + m2 / (self.alpha1 * tau).cosh() + m3 * s2 + m4 * tau * tau
        }
    }
}
