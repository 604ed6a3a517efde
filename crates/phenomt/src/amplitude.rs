//! Amplitude of the (2,2) mode: complex PN inspiral amplitude with three pseudo-PN terms
//! (t < −150 M), the sech merger ansatz (−150 M ≤ t ≤ 0) and the Damour–Nagar ringdown (t > 0).
//!
//! Equations: Estellés et al., arXiv:2012.11923 eqs. 12–16 (inspiral, PN coefficients of its
//! App. A from Blanchet et al. 2008, Buonanno et al. 2013, Arun et al. 2008), eqs. 29–31
//! (merger), eq. 25 and Damour & Nagar arXiv:1406.0401 eqs. 4–8 (ringdown). The set-up
//! reproduces LAL's `IMRPhenomTSetHMAmplitudeCoefficients` for (2,2) operation by operation.
//! Amplitudes are in units of M/distance (multiplied by `ampfac` outside). docs/imrphenomt.md §6
//! describes the model, §8.2 why its slope at −150 M stays a finite difference.

use std::f64::consts::PI;

use crate::constants::GAMMA_E;
use crate::fits;
use crate::gsl;
use crate::phase::{BinaryVariables, Phase22};
use crate::ringdown::RingdownAmplitude;
use crate::scalar::{Arith, Lanes, Real, ReverseArith};
use crate::vmath;

/// End of the inspiral amplitude region (`tCUT_Amp`), in M.
pub(crate) const T_CUT_AMP: f64 = -150.0;
/// Merger collocation time (`tcpMerger`), in M.
const T_MERGER_CP: f64 = -25.0;

/// Coefficients of the 22 amplitude (LAL's `IMRPhenomTHMAmpStruct` for l = m = 2). With `f64`
/// the same layout also holds the coefficients' adjoints.
#[derive(Clone, Copy, Debug, Default)]
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
        let f = &v.fits;
        let (eta, delta, chi1, chi2) = (v.eta, v.delta, v.chi1, v.chi2);
        let two_pi = 2.0 * PI;
        // The (2,2,n=1) damping frequency, as the phase's set-up computed it.
        let alpha1 = phase.alpha1;
        let alpha2 = fits::qnm_fdamp_n2_22(v.final_spin) / v.final_mass * two_pi;

        let amp_peak = fits::peak_amp_22(f);
        let ringdown = RingdownAmplitude::new(amp_peak, fits::rd_amp_c3_22(f), alpha1, alpha2);

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
            rd_c: ringdown.c,
        };

        // Inspiral pseudo-PN terms: three collocation points (eq. 15), fitted to |h| but imposed
        // on the real part of the PN amplitude, as in LAL.
        let x_at = |t: f64| {
            let theta = (-eta * t / 5.0).powf(-1.0 / 8.0);
            (phase.omega(k(t), theta) * 0.5).powf(2.0 / 3.0)
        };
        let cps = [
            fits::inspiral_amp_cp1_22(f),
            fits::inspiral_amp_cp2_22(f),
            fits::inspiral_amp_cp3_22(f),
        ];
        // x at −150 M serves the collocation, the merger boundary value and its difference.
        let x_cut = x_at(T_CUT_AMP);
        let mut m = [[k(0.0); 3]; 3];
        let mut b = [k(0.0); 3];
        for (i, xx) in [x_at(-2000.0), x_at(-250.0), x_cut].into_iter().enumerate() {
            let x4 = xx * xx * xx * xx;
            m[i] = [x4, x4 * xx.sqrt(), x4 * xx];
            let pn_real = a.inspiral(xx).0;
            b[i] = T::from(1.0) / a.fac0 / xx * (cps[i] - pn_real);
        }
        a.insp_c = gsl::lu_solve(m, b);

        // Merger (eq. 31): value and slope at −150 M, collocation at −25 M, peak value at 0.
        let signed_abs = |h: Complex<T>| h.0.hypot(h.1) * h.0.re().signum();
        let sechs = |t: f64| (gsl::sech(alpha1 * t), gsl::sech(alpha1 * 2.0 * t));
        let sech_row = |(s1, s2): (T, T), t: f64| [k(1.0), s1, s2.powf(1.0 / 7.0), k(t * t)];
        let theta1 = (-eta * (T_CUT_AMP - 0.000001) / 5.0).powf(-1.0 / 8.0);
        let x1 = (phase.omega(k(T_CUT_AMP - 0.000001), theta1) * 0.5).powf(2.0 / 3.0);
        let (h2, h1) = (a.inspiral(x_cut), a.inspiral(x1));
        let damp_cut = (h2.0.hypot(h2.1) - h1.0.hypot(h1.1)) * h2.0.re().signum() / 0.000001;
        let phi = alpha1 * T_CUT_AMP;
        let phi2 = alpha1 * 2.0 * T_CUT_AMP;
        let (sech1, sech2) = sechs(T_CUT_AMP);
        let m = [
            sech_row((sech1, sech2), T_CUT_AMP),
            sech_row(sechs(T_MERGER_CP), T_MERGER_CP),
            [k(1.0), k(1.0), k(1.0), k(0.0)],
            [
                k(0.0),
                -alpha1 * sech1 * gsl::tanh(phi),
                alpha1 * (-2.0 / 7.0) * gsl::sinh(phi2) * sech2.powf(8.0 / 7.0),
                k(2.0 * T_CUT_AMP),
            ],
        ];
        let b = [
            signed_abs(h2),
            fits::merger_amp_cp1_22(f),
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
    /// rounding.
    pub(crate) fn inspiral_modulus(&self, v: T, ln_16x: T) -> T {
        let (scale, squared) = self.inspiral_modulus_parts(v, ln_16x);
        scale * squared.sqrt()
    }

    /// |A22| at time t (in M), given the 22 frequency `omega` = ω22(t) in rad/M
    /// (`IMRPhenomTHMAmp`, modulus).
    pub fn modulus(&self, t: T, omega: T) -> T {
        self.modulus_traced(t, omega).0
    }

    /// [`Self::modulus`] with the results of its transcendental functions, which its reverse
    /// mode ([`Amplitude22::modulus_adjoint`]) reuses: (√x, ln(16x)) in the inspiral,
    /// (e^(−|α₁t|), sech(2α₁t)^(1/7)) in the merger, (tanh(c2t + c3), e^(−α₁t)) in the
    /// ringdown.
    pub fn modulus_traced(&self, t: T, omega: T) -> (T, [T; 2]) {
        if t.re() < T_CUT_AMP {
            // x = (ω/2)^(2/3), √x and ln(16x) from one logarithm (cheaper than pow or cbrt,
            // and as accurate).
            let ln_half_omega = (omega * 0.5).ln();
            let v = (ln_half_omega * (1.0 / 3.0)).exp();
            let ln_16x = ln_half_omega * (2.0 / 3.0) + 16f64.ln();
            (self.inspiral_modulus(v, ln_16x), [v, ln_16x])
        } else if t.re() > 0.0 {
            let [c1, c2, c3, c4] = self.rd_c;
            // tanh y = sign(y)(1 − e)/(1 + e), e = e^(−2|y|) ≤ 1: one exp, absolute error
            // ~1e-16 (enough next to c4), and no overflow to turn derivatives into NaN.
            let y = c2 * t + c3;
            let e = (y.abs() * -2.0).exp();
            let tanh = (-e + 1.0) / (e + 1.0);
            let tanh = if y.re() < 0.0 { -tanh } else { tanh };
            let decay = (-self.alpha1 * t).exp();
            ((decay * (c1 * tanh + c4)).abs(), [tanh, decay])
        } else {
            let [m1, m2, m3, m4] = self.merger_c;
            // sech(α₁t) and sech(2α₁t) from one e = exp(−|α₁t|), as
            // sech y = 2e^(−|y|)/(1 + e^(−2|y|)); sech(2α₁t)^(1/7) from its logarithm
            // ln 2 − 2|α₁t| − ln(1 + e⁴) (cheaper than pow).
            let y = (self.alpha1 * t).abs();
            let e = (-y).exp();
            let e2 = e * e;
            let s1 = e * 2.0 / (e2 + 1.0);
            let p7 = ((-(y * 2.0) - (e2 * e2).ln_1p() + std::f64::consts::LN_2) / 7.0).exp();
            ((m2 * s1 + m1 + m3 * p7 + m4 * t * t).abs(), [e, p7])
        }
    }

    /// The same coefficients converted to another scalar through their values.
    pub fn values_as<U: Real>(&self) -> Amplitude22<U> {
        self.map(|x| U::from(x.re()))
    }

    /// Every coefficient, in a fixed order (pairs values with adjoints).
    pub fn fields(&self) -> [T; 22] {
        let [r0, r1, r2, r3, r4, r5] = self.pn_re;
        let [i0, i1, i2] = self.pn_im;
        let [c0, c1, c2] = self.insp_c;
        let [m0, m1, m2, m3] = self.merger_c;
        let [d0, d1, d2, d3] = self.rd_c;
        [
            self.fac0,
            r0,
            r1,
            r2,
            r3,
            r4,
            r5,
            i0,
            i1,
            i2,
            c0,
            c1,
            c2,
            m0,
            m1,
            m2,
            m3,
            self.alpha1,
            d0,
            d1,
            d2,
            d3,
        ]
    }
}

impl<T: Copy> Amplitude22<T> {
    /// The coefficients mapped by `c`.
    pub(crate) fn map<U>(&self, c: impl Fn(T) -> U) -> Amplitude22<U> {
        Amplitude22 {
            fac0: c(self.fac0),
            pn_re: self.pn_re.map(&c),
            pn_im: self.pn_im.map(&c),
            pn_log: self.pn_log,
            insp_c: self.insp_c.map(&c),
            merger_c: self.merger_c.map(&c),
            alpha1: c(self.alpha1),
            rd_c: self.rd_c.map(&c),
        }
    }
}

impl<T: Arith> Amplitude22<T> {
    /// [`Amplitude22::inspiral_modulus`] = `scale`·√`squared` as (scale, squared): the series
    /// in v in Estrin's scheme (short dependency chains).
    #[inline(always)]
    pub(crate) fn inspiral_modulus_parts(&self, v: T, ln_16x: T) -> (T, T) {
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
        (self.fac0 * v2, re * re + im * im)
    }
}

impl Amplitude22<f64> {
    /// [`Self::modulus_traced`]'s inspiral on lanes (every lane before −150 M), given the
    /// frequency; `lanes` holds this model's coefficients on every lane.
    #[inline(always)]
    pub(crate) fn inspiral_on_lanes<const L: usize>(
        lanes: &Amplitude22<Lanes<L>>,
        omega: Lanes<L>,
    ) -> (Lanes<L>, [Lanes<L>; 2]) {
        let ln_half_omega = vmath::ln(omega * 0.5);
        let v = vmath::exp(ln_half_omega * (1.0 / 3.0));
        let ln_16x = ln_half_omega * (2.0 / 3.0) + 16f64.ln();
        let (scale, squared) = lanes.inspiral_modulus_parts(v, ln_16x);
        (scale * squared.map(f64::sqrt), [v, ln_16x])
    }

    /// [`Self::modulus_traced`]'s merger on lanes (every lane in [−150 M, 0]).
    #[inline(always)]
    pub(crate) fn merger_on_lanes<const L: usize>(&self, t: Lanes<L>) -> (Lanes<L>, [Lanes<L>; 2]) {
        let [m1, m2, m3, m4] = self.merger_c;
        let y = (t * self.alpha1).map(f64::abs);
        let e = vmath::exp(-y);
        let e2 = e * e;
        let s1 = e * 2.0 / (e2 + 1.0);
        let p7 = vmath::exp((-(y * 2.0) - vmath::ln_1p(e2 * e2) + std::f64::consts::LN_2) / 7.0);
        let modulus = (s1 * m2 + m1 + p7 * m3 + t * m4 * t).map(f64::abs);
        (modulus, [e, p7])
    }

    /// [`Self::modulus_traced`]'s ringdown on lanes (every lane after the peak).
    #[inline(always)]
    pub(crate) fn ringdown_on_lanes<const L: usize>(
        &self,
        t: Lanes<L>,
    ) -> (Lanes<L>, [Lanes<L>; 2]) {
        let [c1, c2, c3, c4] = self.rd_c;
        let y = t * c2 + c3;
        let e = vmath::exp(y.map(f64::abs) * -2.0);
        let tanh = (-e + 1.0) / (e + 1.0);
        let tanh = tanh.times_sign_of(y);
        let decay = vmath::exp(t * -self.alpha1);
        let modulus = (decay * (tanh * c1 + c4)).map(f64::abs);
        (modulus, [tanh, decay])
    }
}

impl Amplitude22<f64> {
    /// Reverse mode of [`Self::modulus`] at time t (in M) and frequency ω, given the `trace`
    /// of [`Self::modulus_traced`] there: adds to `adj` (the coefficients' adjoints) the
    /// derivatives of ā·|A22|(t, ω) at fixed t and ω, and returns its derivatives in t and in ω.
    pub fn modulus_adjoint(
        &self,
        t: f64,
        omega: f64,
        trace: [f64; 2],
        amp_bar: f64,
        adj: &mut Self,
    ) -> (f64, f64) {
        if t < T_CUT_AMP {
            (0.0, self.inspiral_adjoint(omega, trace, amp_bar, adj))
        } else if t > 0.0 {
            (self.ringdown_adjoint(t, trace, amp_bar, adj), 0.0)
        } else {
            (self.merger_adjoint(t, trace, amp_bar, adj), 0.0)
        }
    }

    /// [`Self::modulus_adjoint`]'s inspiral, at one time (`T = f64`) or on lanes (every lane
    /// before −150 M), returning the derivative in ω: |H| = fac0·v²·√(re² + im²),
    /// re = 1 + Σ_k r_k v^(2+k) (r_4 carrying ln(16x)·pn_log, ln(16x) = ln 16 + 2 ln v),
    /// im = v⁵(i25 + i3v + i35v²), v = (ω/2)^(1/3).
    #[inline(always)]
    pub(crate) fn inspiral_adjoint<T: ReverseArith>(
        &self,
        omega: T,
        [v, ln_16x]: [T; 2],
        amp_bar: T,
        adj: &mut Amplitude22<T>,
    ) -> T {
        let mut pw = [T::from(1.0); 11];
        for k in 1..11 {
            pw[k] = pw[k - 1] * v;
        }
        let [r1, r15, r2, r25, r3, r35] = self.pn_re.map(T::from);
        let [c1, c2, c3] = self.insp_c.map(T::from);
        let coef = [r1, r15, r2, r25, ln_16x * self.pn_log + r3, r35, c1, c2, c3];
        let (mut re, mut d_re) = (T::from(1.0), pw[5] * (2.0 * self.pn_log));
        for (k, &ck) in coef.iter().enumerate() {
            re += ck * pw[2 + k];
            d_re += ck * (2 + k) as f64 * pw[1 + k];
        }
        let [i25, i3, i35] = self.pn_im;
        let im = pw[5] * i25 + pw[6] * i3 + pw[7] * i35;
        let d_im = pw[4] * (5.0 * i25) + pw[5] * (6.0 * i3) + pw[6] * (7.0 * i35);
        let h = (re * re + im * im).sqrt();

        adj.fac0 += amp_bar * pw[2] * h;
        let h_bar = amp_bar * self.fac0 * pw[2];
        let h_bar = h_bar / h;
        let (re_bar, im_bar) = (h_bar * re, h_bar * im);
        for k in 0..6 {
            adj.pn_re[k] += re_bar * pw[2 + k];
        }
        for k in 0..3 {
            adj.insp_c[k] += re_bar * pw[8 + k];
            adj.pn_im[k] += im_bar * pw[5 + k];
        }
        let v_bar = amp_bar * self.fac0 * 2.0 * v * h + re_bar * d_re + im_bar * d_im;
        // dv/dω = v/(3ω)
        v_bar * v / (omega * 3.0)
    }

    /// [`Self::modulus_adjoint`]'s ringdown, at one time or on lanes (every lane after the
    /// peak), returning the derivative in t: |e^(−α₁t)(c1 tanh(c2t + c3) + c4)|.
    #[inline(always)]
    pub(crate) fn ringdown_adjoint<T: ReverseArith>(
        &self,
        t: T,
        [tanh, decay]: [T; 2],
        amp_bar: T,
        adj: &mut Amplitude22<T>,
    ) -> T {
        let [c1, c2, _, c4] = self.rd_c;
        let inner = tanh * c1 + c4;
        let i_bar = amp_bar.times_sign_of(decay * inner);
        adj.rd_c[0] += i_bar * decay * tanh;
        adj.rd_c[3] += i_bar * decay;
        let z_bar = i_bar * decay * c1 * (-(tanh * tanh) + 1.0);
        adj.rd_c[1] += z_bar * t;
        adj.rd_c[2] += z_bar;
        let decay_bar = i_bar * inner;
        adj.alpha1 -= decay_bar * t * decay;
        z_bar * c2 - decay_bar * self.alpha1 * decay
    }

    /// [`Self::modulus_adjoint`]'s merger, at one time or on lanes (every lane in
    /// [−150 M, 0]), returning the derivative in t: |m1 + m2 sech(y) + m3 sech(2y)^(1/7) + m4t²|,
    /// y = α₁t, with sech' = −sech·tanh, (sech(2y)^(1/7))' = −(2/7)·sech(2y)^(1/7)·tanh(2y).
    #[inline(always)]
    pub(crate) fn merger_adjoint<T: ReverseArith>(
        &self,
        t: T,
        [e, p7]: [T; 2],
        amp_bar: T,
        adj: &mut Amplitude22<T>,
    ) -> T {
        let [m1, m2, m3, m4] = self.merger_c;
        let y = t * self.alpha1;
        let e2 = e * e;
        let inv = T::from(1.0) / (e2 + 1.0);
        let s1 = e * 2.0 * inv;
        let inner = s1 * m2 + m1 + p7 * m3 + t * m4 * t;
        let i_bar = amp_bar.times_sign_of(inner);
        adj.merger_c[0] += i_bar;
        adj.merger_c[1] += i_bar * s1;
        adj.merger_c[2] += i_bar * p7;
        adj.merger_c[3] += i_bar * t * t;
        // tanh y = (1 − e²)/(1 + e²) and tanh 2y = (1 − e⁴)/(1 + e⁴) with the sign of y.
        let e4 = e2 * e2;
        let tanh1 = ((-e2 + 1.0) * inv).times_sign_of(y);
        let tanh2 = ((-e4 + 1.0) / (e4 + 1.0)).times_sign_of(y);
        let y_bar = -i_bar * (s1 * m2 * tanh1 + p7 * (m3 * (2.0 / 7.0)) * tanh2);
        adj.alpha1 += y_bar * t;
        y_bar * self.alpha1 + i_bar * 2.0 * m4 * t
    }
}
