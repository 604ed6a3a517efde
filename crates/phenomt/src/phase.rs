//! Frequency and phase of the (2,2) mode: inspiral (TaylorT3 plus six pseudo-PN terms), merger
//! (asinh ansatz) and ringdown (Damour–Nagar), with the collocation solves that fix them.
//!
//! Equations: Estellés et al., arXiv:2012.11923 (IMRPhenomTHM) eqs. 9–11 (inspiral), 24–30
//! (merger and ringdown); TaylorT3 coefficients from arXiv:2004.08302 App. A1; ringdown form from
//! Damour & Nagar, arXiv:1406.0401 eq. 5. The set-up reproduces LAL's
//! `IMRPhenomTSetPhase22Coefficients` operation by operation (docs/imrphenomt.md §2.3–2.6, §6).
//! Times are in units of the total mass M, frequencies are angular 22-mode frequencies in rad/M.

use std::f64::consts::PI;

use crate::constants::GAMMA_E;
use crate::fits::{self, FitInputs, FitPowers};
use crate::gsl;
use crate::scalar::{Arith, Lanes, Real, ReverseArith};
use crate::vmath;

/// Mass and spin variables of the set-up (LAL's `IMRPhenomTWaveformStruct`, geometric part).
#[derive(Clone, Copy, Debug)]
pub struct BinaryVariables<T> {
    /// Symmetric mass ratio η.
    pub eta: T,
    /// δ = (m1 − m2)/M with m1 ≥ m2.
    pub delta: T,
    /// Aligned spin of the heavier body.
    pub chi1: T,
    /// Aligned spin of the lighter body.
    pub chi2: T,
    /// Final mass in units of M.
    pub final_mass: T,
    /// Final dimensionless spin.
    pub final_spin: T,
    /// The arguments of the parameter-space fits, (η, Ŝ, Δχ, δ), with their powers.
    pub fits: FitPowers<T>,
}

impl<T: Real> BinaryVariables<T> {
    /// From component masses (any unit, m1 ≥ m2) and aligned spins, as
    /// `IMRPhenomTSetWaveformVariables` computes them.
    pub fn new(m1: T, m2: T, chi1: T, chi2: T) -> Self {
        let delta = ((m1 - m2) / (m1 + m2)).abs();
        let mut eta = ((-(delta * delta - 1.0)) * 0.25).abs();
        if eta.re() > 0.25 {
            eta = T::from(0.25);
        }
        let (m1, m2) = (m1 / (m1 + m2), m2 / (m1 + m2));
        Self {
            eta,
            delta,
            chi1,
            chi2,
            final_mass: fits::final_mass_2017(eta, chi1, chi2),
            final_spin: fits::final_spin_2017(eta, chi1, chi2),
            fits: FitPowers::new(FitInputs {
                eta,
                s: (m1 * m1 * chi1 + m2 * m2 * chi2) / (m1 * m1 + m2 * m2),
                dchi: chi1 - chi2,
                delta,
            }),
        }
    }
}

/// Coefficients of the 22 frequency and phase (LAL's `IMRPhenomTPhase22Struct`). With `f64`
/// the same layout also holds the coefficients' adjoints (reverse-mode derivatives).
#[derive(Clone, Copy, Debug, Default)]
pub struct Phase22<T> {
    pub eta: T,
    /// TaylorT3 coefficients at 1, 1.5, 2, 2.5, 3 and 3.5PN.
    pn: [T; 6],
    /// Pseudo-PN coefficients of θ⁸ … θ¹³.
    insp_c: [T; 6],
    /// Fitted TaylorT3 t0 (used only by the start-time root finder, as in LAL).
    pub tt0: T,
    /// Start of the late inspiral, θ = 0.33.
    pub t_early: T,
    /// Inspiral–merger boundary, θ = 0.81.
    pub t_cut: T,
    /// Sampling interval in units of M: LAL switches to the merger one sample before `t_cut`.
    pub dt_m: T,
    pub omega_ring: T,
    pub alpha1: T,
    pub omega_peak: T,
    /// Rescaled frequency slope at the peak, ω̄'(0).
    domega_peak: T,
    merger_c: [T; 3],
    rd_c1: T,
    rd_c2: T,
    rd_c3: T,
    ph_off_merger: T,
    ph_off_rd: T,
    /// Evaluation only: the pseudo-PN phase coefficients c_k/(k + 3), k = 0…5.
    phase_pseudo: [T; 6],
    /// Evaluation only: the inspiral phase's factor 10/η.
    phase_scale: T,
    /// Evaluation only: the merger's F = 1 − ω_peak/ω_RING, k = ω̄'(0)/α₁ and 1/α₁.
    merger_f: T,
    merger_k: T,
    inv_alpha1: T,
}

#[inline]
fn k<T: Real>(v: f64) -> T {
    T::from(v)
}

impl<T: Real> Phase22<T> {
    /// Solves for all coefficients. `dt_m` is the sampling interval in units of M. With
    /// `exact_slopes` the frequency slopes at t_cut and at the peak are the derivatives
    /// themselves instead of LAL's finite differences (see [`crate::Settings::smooth`]).
    pub fn new(v: &BinaryVariables<T>, dt_m: T, exact_slopes: bool) -> Self {
        let f = &v.fits;
        let (eta, delta, c1, c2) = (v.eta, v.delta, v.chi1, v.chi2);
        let two_pi = 2.0 * PI;
        let omega_ring = fits::qnm_fring_22(v.final_spin) / v.final_mass * two_pi;
        let alpha1 = fits::qnm_fdamp_22(v.final_spin) / v.final_mass * two_pi;
        let omega_peak = fits::peak_frequency_22(f);
        let rd_c3 = fits::rd_freq_d3_22(f);
        let rd_c2 = fits::rd_freq_d2_22(f);
        // c1 = (1 + c3 + c4)(ω_RING − ω_peak)/c2/(c3 + 2c4) with c4 = 0 (arXiv:1406.0401 eq. 9).
        let rd_c1 = (rd_c3 + 1.0) * (omega_ring - omega_peak) / rd_c2 / rd_c3;

        let mut p = Self {
            eta,
            pn: taylor_t3_coefficients(eta, delta, c1, c2),
            insp_c: [k(0.0); 6],
            tt0: fits::inspiral_taylor_t3_t0(f),
            t_early: k::<T>(-5.0) / (eta * 0.33f64.powf(8.0)),
            t_cut: k::<T>(-5.0) / (eta * 0.81f64.powf(8.0)),
            dt_m,
            omega_ring,
            alpha1,
            omega_peak,
            domega_peak: k(0.0),
            merger_c: [k(0.0); 3],
            rd_c1,
            rd_c2,
            rd_c3,
            ph_off_merger: k(0.0),
            ph_off_rd: k(0.0),
            phase_pseudo: [k(0.0); 6],
            phase_scale: k::<T>(10.0) / eta,
            merger_f: k(0.0),
            merger_k: k(0.0),
            inv_alpha1: k::<T>(1.0) / alpha1,
        };

        // Inspiral: six collocation points in θ (arXiv:2012.11923 eq. 10); the first anchors the
        // early inspiral to TaylorT3 with the fitted t0.
        let theta_ini = (eta * (p.tt0 - p.t_early) / 5.0).powf(-1.0 / 8.0);
        let omega_cp = [
            p.taylor_t3(theta_ini),
            fits::inspiral_freq_cp1_22(f),
            fits::inspiral_freq_cp2_22(f),
            fits::inspiral_freq_cp3_22(f),
            fits::inspiral_freq_cp4_22(f),
            fits::inspiral_freq_cp5_22(f),
        ];
        let thetas = [0.33, 0.45, 0.55, 0.65, 0.75, 0.82];
        let mut a = [[k::<T>(0.0); 6]; 6];
        let mut b = [k::<T>(0.0); 6];
        for (i, &th) in thetas.iter().enumerate() {
            // θ⁸ = pow(θ, 8), then θ^(8+j) by successive multiplication, as in the C.
            let mut row = [th.powf(8.0); 6];
            for j in 1..6 {
                row[j] = th * row[j - 1];
            }
            a[i] = row.map(k);
            let t3 = p.taylor_t3(k(th));
            b[i] = (omega_cp[i] - t3) * (4.0 / th / th / th);
        }
        p.insp_c = gsl::lu_solve(a, b);
        p.phase_pseudo = std::array::from_fn(|j| p.insp_c[j] / (j as f64 + 3.0));

        // Merger: value and slope at t_cut, collocation point at θ = 0.95, slope at the peak.
        let omega_cut = p.inspiral_omega(k(0.81));
        let t_merger = k::<T>(-5.0) / (eta * 0.95f64.powf(8.0));
        let omega_merger_cp = -(fits::merger_freq_cp1_22(f) / omega_ring - 1.0);
        let omega_cut_bar = -(omega_cut / omega_ring - 1.0);
        let theta2 = (-eta * p.t_cut / 5.0).powf(-1.0 / 8.0);
        let (domega_cut, domega_peak) = if exact_slopes {
            // dθ/dt = −θ/(8t); differentiating `ringdown_omega_of`, dω_RD/dt(0) = c1c2²c3/(c3 + 1)².
            let dtheta_dt = -theta2 / (p.t_cut * 8.0);
            let slope_rd =
                p.rd_c1 * p.rd_c2 * p.rd_c2 * p.rd_c3 / ((p.rd_c3 + 1.0) * (p.rd_c3 + 1.0));
            (
                -(p.inspiral_omega_slope(theta2) * dtheta_dt) / omega_ring,
                -slope_rd / omega_ring,
            )
        } else {
            let theta1 = (-eta * (p.t_cut - 0.0000001) / 5.0).powf(-1.0 / 8.0);
            let h = 0.0000001;
            (
                -(p.inspiral_omega(theta2) - p.inspiral_omega(theta1)) / h / omega_ring,
                -(p.ringdown_omega(k(h)) - p.ringdown_omega(k(0.0))) / h / omega_ring,
            )
        };
        p.domega_peak = domega_peak;

        let fixed = -(omega_peak / omega_ring - 1.0);
        let row_at = |u: T| [u * u, u * (u * u), u * (u * (u * u))];
        let as_cut = gsl::arcsinh(alpha1 * p.t_cut);
        let as_merger = gsl::arcsinh(alpha1 * t_merger);
        let den_cut = (p.t_cut * p.t_cut * alpha1 * alpha1 + 1.0).sqrt();
        let [u1, u2, u3] = row_at(as_cut);
        let a = [
            [u1, u2, u3],
            row_at(as_merger),
            [
                alpha1 * 2.0 * as_cut / den_cut,
                alpha1 * 3.0 * u1 / den_cut,
                alpha1 * 4.0 * u2 / den_cut,
            ],
        ];
        let b = [
            omega_cut_bar - fixed - p.domega_peak / alpha1 * as_cut,
            omega_merger_cp - fixed - p.domega_peak / alpha1 * as_merger,
            domega_cut - p.domega_peak / den_cut,
        ];
        p.merger_c = gsl::lu_solve(a, b);
        p.merger_f = fixed;
        p.merger_k = p.domega_peak / alpha1;

        // Phase continuity (C0) at t_cut and at the peak.
        let theta_cut = (-eta * p.t_cut / 5.0).powf(-1.0 / 8.0);
        p.ph_off_merger = p.inspiral_phase(theta_cut) - p.merger_phase(p.t_cut);
        p.ph_off_rd = p.merger_phase(k(0.0));
        p
    }

    /// TaylorT3 22 frequency at θ (`IMRPhenomTTaylorT3`).
    fn taylor_t3(&self, theta: T) -> T {
        let [o1, o15, o2, o25, o3, o35] = self.pn;
        let th2 = theta * theta;
        let th3 = th2 * theta;
        let th4 = th2 * th2;
        let th5 = th3 * th2;
        let th6 = th3 * th3;
        let th7 = th4 * th3;
        let fac = th3 / 8.0;
        let logterm = theta.ln() * 107.0 / 280.0;
        let out = o1 * th2
            + 1.0
            + o15 * th3
            + o2 * th4
            + o25 * th5
            + o3 * th6
            + logterm * th6
            + o35 * th7;
        fac * 2.0 * out
    }

    /// Inspiral 22 frequency at θ = (−ηt/5)^(−1/8) (`IMRPhenomTInspiralOmegaAnsatz22`).
    pub fn inspiral_omega(&self, theta: T) -> T {
        let th8 = theta.powf(8.0);
        let th9 = th8 * theta;
        let th10 = th9 * theta;
        let th11 = th10 * theta;
        let th12 = th11 * theta;
        let th13 = th12 * theta;
        let fac = theta * theta * theta / 8.0;
        let c = self.insp_c;
        let out = c[0] * th8 + c[1] * th9 + c[2] * th10 + c[3] * th11 + c[4] * th12 + c[5] * th13;
        self.taylor_t3(theta) + fac * 2.0 * out
    }

    /// Rescaled merger frequency ω̄ = 1 − ω/ω_RING (`IMRPhenomTMergerOmegaAnsatz22`).
    fn merger_omega_bar(&self, t: T) -> T {
        self.merger_omega_bar_of(gsl::arcsinh(self.alpha1 * t))
    }

    /// [`Self::merger_omega_bar`] given x = asinh(α₁t).
    fn merger_omega_bar_of(&self, x: T) -> T {
        let x2 = x * x;
        let x3 = x2 * x;
        let x4 = x2 * x2;
        let [c1, c2, c3] = self.merger_c;
        -(self.omega_peak / self.omega_ring - 1.0)
            + self.domega_peak / self.alpha1 * x
            + c1 * x2
            + c2 * x3
            + c3 * x4
    }

    /// Ringdown frequency (`IMRPhenomTRDOmegaAnsatz22`, with c4 = 0).
    fn ringdown_omega(&self, t: T) -> T {
        self.ringdown_omega_of((-self.rd_c2 * t).exp())
    }

    /// [`Self::ringdown_omega`] given exp(−c₂t).
    fn ringdown_omega_of(&self, exp_c: T) -> T {
        let num = self.rd_c1 * -(self.rd_c2 * self.rd_c3 * exp_c);
        let den = self.rd_c3 * exp_c + 1.0;
        num / den + self.omega_ring
    }

    /// dω/dθ of [`Self::inspiral_omega`]: with ω = θ³/4 · (P(θ) + Σ_j c_j θ^(8+j)),
    /// P = 1 + o1θ² + o15θ³ + o2θ⁴ + o25θ⁵ + (o3 + 107/280 ln θ)θ⁶ + o35θ⁷.
    fn inspiral_omega_slope(&self, theta: T) -> T {
        let [o1, o15, o2, o25, o3, o35] = self.pn;
        let c = self.insp_c;
        let th2 = theta * theta;
        let th3 = th2 * theta;
        let log_term = theta.ln() * LOG_TERM;
        let mut poly = o1 * th2
            + 1.0
            + o15 * th3
            + o2 * th2 * th2
            + o25 * th3 * th2
            + (o3 + log_term) * th3 * th3
            + o35 * th3 * th2 * th2;
        let mut d_poly = o1 * theta * 2.0
            + o15 * th2 * 3.0
            + o2 * th3 * 4.0
            + o25 * th2 * th2 * 5.0
            + (o3 + log_term) * th3 * th2 * 6.0
            + th3 * th2 * LOG_TERM
            + o35 * th3 * th3 * 7.0;
        let mut power = th2 * th2 * th2 * th2; // θ⁸
        for (j, &cj) in c.iter().enumerate() {
            poly += cj * power;
            d_poly += cj * power * ((8 + j) as f64) / theta;
            power *= theta;
        }
        (th2 * 3.0 * poly + th3 * d_poly) * 0.25
    }

    /// 22 angular frequency at time t (in M), given θ = (−ηt/5)^(−1/8) for the inspiral
    /// (`IMRPhenomTomega22`).
    pub fn omega(&self, t: T, theta: T) -> T {
        if t.re() < (self.t_cut - self.dt_m).re() {
            self.inspiral_omega(theta)
        } else if t.re() > 0.0 {
            self.ringdown_omega(t)
        } else {
            -(self.merger_omega_bar(t) - 1.0) * self.omega_ring
        }
    }

    /// Inspiral phase: the antiderivative of [`Self::inspiral_omega`] in θ
    /// (dt = 40/(ηθ⁹) dθ), up to the constant absorbed by the continuity offsets.
    fn inspiral_phase(&self, theta: T) -> T {
        let [a2, a3, a4, a5, a6, a7] = self.pn;
        let c = self.insp_c;
        let ln_theta = theta.ln();
        let th2 = theta * theta;
        let inv = T::from(1.0) / theta;
        let inv2 = inv * inv;
        let inv3 = inv2 * inv;
        let inv5 = inv3 * inv2;
        let mut pseudo_pn = k::<T>(0.0);
        let mut th_k2 = th2 * theta; // θ^(k+2), k = 1..6
        for (kk, &ck) in c.iter().enumerate() {
            pseudo_pn += ck * th_k2 / (kk as f64 + 3.0);
            th_k2 *= theta;
        }
        (-inv5 / 5.0 - a2 * inv3 / 3.0 - a3 * inv2 / 2.0 - a4 * inv
            + a5 * ln_theta
            + a6 * theta
            + (theta * ln_theta - theta) * (107.0 / 280.0)
            + a7 * th2 / 2.0
            + pseudo_pn)
            * (T::from(10.0) / self.eta)
    }

    /// Merger phase: the antiderivative of the merger frequency (`IMRPhenomTMergerPhaseAnsatz22`),
    /// written with u = asinh(α₁t) and R = √(1 + α₁²t²).
    fn merger_phase(&self, t: T) -> T {
        let a = self.alpha1;
        self.merger_phase_of(t, gsl::arcsinh(a * t), (a * a * t * t + 1.0).sqrt())
    }

    /// [`Self::merger_phase`] given u = asinh(α₁t) and R = √(1 + α₁²t²).
    fn merger_phase_of(&self, t: T, u: T, r: T) -> T {
        let a = self.alpha1;
        let (u2, u3) = (u * u, u * u * u);
        let [c1, c2, c3] = self.merger_c;
        let integral = -(self.omega_peak / self.omega_ring - 1.0) * t
            + self.domega_peak / a * (t * u - r / a)
            + c1 * (t * u2 - u * r * 2.0 / a + t * 2.0)
            + c2 * (t * u3 - u2 * r * 3.0 / a + t * u * 6.0 - r * 6.0 / a)
            + c3 * (t * u3 * u - u3 * r * 4.0 / a + t * u2 * 12.0 - u * r * 24.0 / a + t * 24.0);
        self.omega_ring * t - self.omega_ring * integral + self.ph_off_merger
    }

    /// Ringdown phase (arXiv:1406.0401 eq. 5; `IMRPhenomTRDPhaseAnsatz22`), given
    /// ln((c₃e^(−c₂t) + 1)/(c₃ + 1)).
    fn ringdown_phase_of(&self, t: T, log: T) -> T {
        self.rd_c1 * log + self.omega_ring * t + self.ph_off_rd
    }

    /// 22 angular frequency ω(t) (rad/M) and phase φ(t) (h22 ∝ e^(−iφ)) at time t in M
    /// (`IMRPhenomTomega22`, `IMRPhenomTPhase22`). For evaluation: the region is found once
    /// and the two share their transcendental functions.
    pub fn omega_and_phase(&self, t: T) -> (T, T) {
        let (omega, phase, _) = self.omega_and_phase_traced(t);
        (omega, phase)
    }

    /// [`Self::omega_and_phase`] with the results of its transcendental functions, which its
    /// reverse mode ([`Phase22::omega_and_phase_adjoint`]) reuses: (ln θ, θ) in the inspiral,
    /// (u, R) in the merger, (e^(−c₂t), ln((c₃e^(−c₂t) + 1)/(c₃ + 1))) in the ringdown.
    pub fn omega_and_phase_traced(&self, t: T) -> (T, T, [T; 2]) {
        if t.re() < (self.t_cut - self.dt_m).re() {
            // θ = (−ηt/5)^(−1/8) and ln θ from one logarithm (cheaper than pow, as accurate).
            let ln_theta = (self.eta * t * -0.2).ln() * -0.125;
            let theta = ln_theta.exp();
            let (omega, phase) = self.inspiral_omega_and_phase(theta, ln_theta);
            (omega, phase, [ln_theta, theta])
        } else if t.re() > 0.0 {
            let exp_c = (-self.rd_c2 * t).exp();
            let log = ((self.rd_c3 * exp_c + 1.0) / (self.rd_c3 + 1.0)).ln();
            let (omega, phase) = (
                self.ringdown_omega_of(exp_c),
                self.ringdown_phase_of(t, log),
            );
            (omega, phase, [exp_c, log])
        } else {
            // asinh(x) = sign(x)·ln(1 + |x| + x²/(1 + R)), R = √(1 + x²), x = α₁t: one ln_1p
            // and the R the phase needs, instead of GSL's complex arcsin (only the set-up needs
            // its bits).
            let a = self.alpha1;
            let x = a * t;
            let r = (a * a * t * t + 1.0).sqrt();
            let u = (x.abs() + x * x / (r + 1.0)).ln_1p();
            let u = if x.re() < 0.0 { -u } else { u };
            // ω̄ = F + ku + m1u² + m2u³ + m3u⁴, and the integral of `merger_phase_of` regrouped
            // with one division: I = t·A(u) − (R/α₁)·B(u), A = ω̄ + 2m1 + 6m2u + m3(12u² + 24),
            // B = A' = k + 2m1u + m2(3u² + 6) + m3(4u³ + 24u).
            let [m1, m2, m3] = self.merger_c;
            let (u2, u3) = (u * u, u * u * u);
            let bar = self.merger_f + self.merger_k * u + m1 * u2 + m2 * u3 + m3 * u2 * u2;
            let big_a = bar + m1 * 2.0 + m2 * 6.0 * u + m3 * (u2 * 12.0 + 24.0);
            let big_b =
                self.merger_k + m1 * 2.0 * u + m2 * (u2 * 3.0 + 6.0) + m3 * (u3 * 4.0 + u * 24.0);
            let integral = t * big_a - r * self.inv_alpha1 * big_b;
            let omega = -(bar - 1.0) * self.omega_ring;
            let phase = self.omega_ring * t - self.omega_ring * integral + self.ph_off_merger;
            (omega, phase, [u, r])
        }
    }

    /// 22 frequency as LAL's root finder sees it (`GetTimeOfFreq`): before `t_early`, θ is
    /// computed with the fitted t0 even though the waveform itself uses t0 = 0.
    pub fn omega_for_root(&self, t: T) -> T {
        let theta = if t.re() < self.t_early.re() {
            (self.eta * (self.tt0 - t) / 5.0).powf(-1.0 / 8.0)
        } else {
            (self.eta * -t / 5.0).powf(-1.0 / 8.0)
        };
        self.omega(t, theta)
    }

    /// The same coefficients converted to another scalar through their values (drops
    /// derivatives with respect to the binary's parameters).
    pub fn values_as<U: Real>(&self) -> Phase22<U> {
        self.map(|x| U::from(x.re()))
    }

    /// Every coefficient, in a fixed order (pairs values with adjoints).
    pub fn fields(&self) -> [T; 39] {
        let [p0, p1, p2, p3, p4, p5] = self.pn;
        let [i0, i1, i2, i3, i4, i5] = self.insp_c;
        let [m0, m1, m2] = self.merger_c;
        let [d0, d1, d2, d3, d4, d5] = self.phase_pseudo;
        [
            self.eta,
            p0,
            p1,
            p2,
            p3,
            p4,
            p5,
            i0,
            i1,
            i2,
            i3,
            i4,
            i5,
            self.tt0,
            self.t_early,
            self.t_cut,
            self.dt_m,
            self.omega_ring,
            self.alpha1,
            self.omega_peak,
            self.domega_peak,
            m0,
            m1,
            m2,
            self.rd_c1,
            self.rd_c2,
            self.rd_c3,
            self.ph_off_merger,
            self.ph_off_rd,
            d0,
            d1,
            d2,
            d3,
            d4,
            d5,
            self.phase_scale,
            self.merger_f,
            self.merger_k,
            self.inv_alpha1,
        ]
    }
}

impl<T: Copy> Phase22<T> {
    /// The coefficients mapped by `c`.
    pub(crate) fn map<U>(&self, c: impl Fn(T) -> U) -> Phase22<U> {
        Phase22 {
            eta: c(self.eta),
            pn: self.pn.map(&c),
            insp_c: self.insp_c.map(&c),
            tt0: c(self.tt0),
            t_early: c(self.t_early),
            t_cut: c(self.t_cut),
            dt_m: c(self.dt_m),
            omega_ring: c(self.omega_ring),
            alpha1: c(self.alpha1),
            omega_peak: c(self.omega_peak),
            domega_peak: c(self.domega_peak),
            merger_c: self.merger_c.map(&c),
            rd_c1: c(self.rd_c1),
            rd_c2: c(self.rd_c2),
            rd_c3: c(self.rd_c3),
            ph_off_merger: c(self.ph_off_merger),
            ph_off_rd: c(self.ph_off_rd),
            phase_pseudo: self.phase_pseudo.map(&c),
            phase_scale: c(self.phase_scale),
            merger_f: c(self.merger_f),
            merger_k: c(self.merger_k),
            inv_alpha1: c(self.inv_alpha1),
        }
    }
}

impl<T: Arith> Phase22<T> {
    /// Inspiral frequency and phase at θ = (−ηt/5)^(−1/8), given θ and ln θ, for evaluation:
    /// the same functions as [`Self::inspiral_omega`] and [`Self::inspiral_phase`], equal to
    /// them to rounding, with the polynomials in Estrin's scheme (short dependency chains) and
    /// θ's powers and ln θ shared. The set-up keeps LAL's operation order, which its finite
    /// differences need.
    #[inline(always)]
    pub(crate) fn inspiral_omega_and_phase(&self, theta: T, ln_theta: T) -> (T, T) {
        let [a2, a3, a4, a5, a6, a7] = self.pn;
        let c = self.insp_c;
        let th2 = theta * theta;
        let th4 = th2 * th2;
        let log_term = ln_theta * (107.0 / 280.0);
        // ω = θ³/4 · (1 + θ²·P(θ)), P = a2 + a3θ + a4θ² + a5θ³ + (a6 + 107/280 ln θ)θ⁴ + a7θ⁵
        //                                + Σ c_j θ^(6+j).
        let p_low = (a2 + a3 * theta) + (a4 + a5 * theta) * th2;
        let p_mid = (a6 + log_term + a7 * theta) + (c[0] + c[1] * theta) * th2;
        let p_high = (c[2] + c[3] * theta) + (c[4] + c[5] * theta) * th2;
        let p = p_low + (p_mid + p_high * th4) * th4;
        let omega = th2 * theta * 0.25 * (th2 * p + 1.0);
        // φ = 10/η · (a5 ln θ + θ·Q(θ) − θ⁻¹·N(θ⁻¹)), with
        // Q = a6 + 107/280 (ln θ − 1) + a7θ/2 + Σ c_j θ^(2+j)/(3+j) and
        // N = a4 + a3θ⁻¹/2 + a2θ⁻²/3 + θ⁻⁴/5.
        let d = self.phase_pseudo;
        let q_low =
            (a6 + log_term - 107.0 / 280.0 + a7 * 0.5 * theta) + (d[0] + d[1] * theta) * th2;
        let q_high = (d[2] + d[3] * theta) + (d[4] + d[5] * theta) * th2;
        let q = q_low + q_high * th4;
        let inv = T::from(1.0) / theta;
        let inv2 = inv * inv;
        let n = (a4 + a3 * 0.5 * inv) + (a2 * (1.0 / 3.0) + inv2 * 0.2) * inv2;
        let phase = (a5 * ln_theta + theta * q - inv * n) * self.phase_scale;
        (omega, phase)
    }
}

impl Phase22<f64> {
    /// [`Self::omega_and_phase_traced`]'s inspiral on lanes (every lane before
    /// t_cut − Δt), with the lane-wise elementary functions of [`vmath`]; `lanes` holds this
    /// model's coefficients on every lane.
    #[inline(always)]
    pub(crate) fn inspiral_on_lanes<const L: usize>(
        lanes: &Phase22<Lanes<L>>,
        t: Lanes<L>,
    ) -> (Lanes<L>, Lanes<L>, [Lanes<L>; 2]) {
        let eta = lanes.eta.0[0];
        let ln_theta = vmath::ln(t * eta * -0.2) * -0.125;
        let theta = vmath::exp(ln_theta);
        let (omega, phase) = lanes.inspiral_omega_and_phase(theta, ln_theta);
        (omega, phase, [ln_theta, theta])
    }

    /// [`Self::omega_and_phase_traced`]'s merger on lanes (every lane in [t_cut − Δt, 0]).
    #[inline(always)]
    pub(crate) fn merger_on_lanes<const L: usize>(
        &self,
        t: Lanes<L>,
    ) -> (Lanes<L>, Lanes<L>, [Lanes<L>; 2]) {
        let a = self.alpha1;
        let x = t * a;
        let r = (t * (a * a) * t + 1.0).map(f64::sqrt);
        let u = vmath::ln_1p(x.map(f64::abs) + x * x / (r + 1.0));
        let u = Lanes(std::array::from_fn(|i| {
            if x.0[i] < 0.0 {
                -u.0[i]
            } else {
                u.0[i]
            }
        }));
        let [m1, m2, m3] = self.merger_c;
        let (u2, u3) = (u * u, u * u * u);
        let bar = u * self.merger_k + self.merger_f + u2 * m1 + u3 * m2 + u2 * u2 * m3;
        let big_a = bar + m1 * 2.0 + u * (m2 * 6.0) + (u2 * 12.0 + 24.0) * m3;
        let big_b =
            u * (m1 * 2.0) + self.merger_k + (u2 * 3.0 + 6.0) * m2 + (u3 * 4.0 + u * 24.0) * m3;
        let integral = t * big_a - r * self.inv_alpha1 * big_b;
        let omega = -(bar - 1.0) * self.omega_ring;
        let phase = t * self.omega_ring - integral * self.omega_ring + self.ph_off_merger;
        (omega, phase, [u, r])
    }

    /// [`Self::omega_and_phase_traced`]'s ringdown on lanes (every lane after the peak).
    #[inline(always)]
    pub(crate) fn ringdown_on_lanes<const L: usize>(
        &self,
        t: Lanes<L>,
    ) -> (Lanes<L>, Lanes<L>, [Lanes<L>; 2]) {
        let exp_c = vmath::exp(t * -self.rd_c2);
        let log = vmath::ln((exp_c * self.rd_c3 + 1.0) / (self.rd_c3 + 1.0));
        let num = exp_c * -(self.rd_c2 * self.rd_c3) * self.rd_c1;
        let omega = num / (exp_c * self.rd_c3 + 1.0) + self.omega_ring;
        let phase = log * self.rd_c1 + t * self.omega_ring + self.ph_off_rd;
        (omega, phase, [exp_c, log])
    }
}

/// 107/280, the coefficient of ln θ in the 3PN frequency term.
const LOG_TERM: f64 = 107.0 / 280.0;

impl Phase22<f64> {
    /// Reverse mode of [`Self::omega_and_phase`] at time t (in M), given the `trace` of
    /// [`Self::omega_and_phase_traced`] there: adds to `adj` (the coefficients' adjoints) the
    /// derivatives of ω̄·ω(t) + φ̄·φ(t) and returns its derivative in t, all at fixed
    /// coefficients. φ is the antiderivative of ω, so ∂φ/∂t = ω throughout.
    pub fn omega_and_phase_adjoint(
        &self,
        t: f64,
        trace: [f64; 2],
        omega_bar: f64,
        phase_bar: f64,
        adj: &mut Self,
    ) -> f64 {
        if t < self.t_cut - self.dt_m {
            self.inspiral_adjoint(t, trace, omega_bar, phase_bar, adj)
        } else if t > 0.0 {
            self.ringdown_adjoint(t, trace, omega_bar, phase_bar, adj)
        } else {
            self.merger_adjoint(t, trace, omega_bar, phase_bar, adj)
        }
    }

    /// [`Self::omega_and_phase_adjoint`]'s inspiral, at one time (`T = f64`) or on lanes (every
    /// lane before t_cut − Δt): ω = θ³/4·(1 + θ²P(θ)) and φ = S·B(θ) with the polynomials P
    /// and B of [`Self::inspiral_omega_and_phase`]; B' = (1 + θ²P)/θ⁶ = 4ω/θ⁹ since dφ/dt = ω.
    #[inline(always)]
    pub(crate) fn inspiral_adjoint<T: ReverseArith>(
        &self,
        t: T,
        [ln_theta, theta]: [T; 2],
        omega_bar: T,
        phase_bar: T,
        adj: &mut Phase22<T>,
    ) -> T {
        let [a2, a3, a4, a5, a6, a7] = self.pn;
        let (c, d) = (self.insp_c, self.phase_pseudo);
        // θ^0 … θ^11
        let mut pw = [T::from(1.0); 12];
        for k in 1..12 {
            pw[k] = pw[k - 1] * theta;
        }
        let a6l = ln_theta * LOG_TERM + a6;
        let mut p = pw[1] * a3 + a2 + pw[2] * a4 + pw[3] * a5 + a6l * pw[4] + pw[5] * a7;
        let mut dp = pw[1] * (2.0 * a4) + a3 + pw[2] * (3.0 * a5) + (a6l * 4.0 + LOG_TERM) * pw[3];
        dp += pw[4] * (5.0 * a7);
        for j in 0..6 {
            p += pw[6 + j] * c[j];
            dp += pw[5 + j] * ((6 + j) as f64 * c[j]);
        }
        let one_p = pw[2] * p + 1.0;

        // φ = S·B
        let inv = T::from(1.0) / theta;
        let (inv2, inv3) = (inv * inv, inv * inv * inv);
        let mut pseudo = pw[2] * d[0];
        for j in 1..6 {
            pseudo += pw[2 + j] * d[j];
        }
        let q = (ln_theta - 1.0) * LOG_TERM + a6 + theta * (a7 * 0.5) + pseudo;
        let n = inv * (a3 * 0.5) + a4 + inv2 * (a2 * (1.0 / 3.0)) + inv2 * 0.2 * inv2;
        let w = phase_bar * self.phase_scale;
        adj.phase_scale += phase_bar * (ln_theta * a5 + theta * q - inv * n);
        adj.pn[0] -= w * inv3 * (1.0 / 3.0);
        adj.pn[1] -= w * inv2 * 0.5;
        adj.pn[2] -= w * inv;
        adj.pn[3] += w * ln_theta;
        adj.pn[4] += w * theta;
        adj.pn[5] += w * pw[2] * 0.5;
        for j in 0..6 {
            adj.phase_pseudo[j] += w * pw[3 + j];
        }
        let mut theta_bar = w * one_p * inv3 * inv3;

        // ω, through ∂ω/∂P = θ⁵/4 and ∂ω/∂θ = 3θ²/4·(1 + θ²P) + θ³/4·(2θP + θ²P').
        let wp = omega_bar * pw[5] * 0.25;
        for k in 0..6 {
            adj.pn[k] += wp * pw[k];
            adj.insp_c[k] += wp * pw[6 + k];
        }
        theta_bar +=
            omega_bar * (pw[2] * 0.75 * one_p + pw[3] * 0.25 * (theta * 2.0 * p + pw[2] * dp));

        // θ = (−ηt/5)^(−1/8): ∂θ/∂η = −θ/(8η) = −θS/80, ∂θ/∂t = −θ/(8t).
        adj.eta -= theta_bar * theta * self.phase_scale * 0.0125;
        -theta_bar * theta * 0.125 / t
    }

    /// [`Self::omega_and_phase_adjoint`]'s ringdown, at one time or on lanes (every lane
    /// after the peak): ω = ω_RING − c1c2c3E/(c3E + 1) and
    /// φ = c1 ln((c3E + 1)/(c3 + 1)) + ω_RING t + φ_RD, E = e^(−c2 t).
    #[inline(always)]
    pub(crate) fn ringdown_adjoint<T: ReverseArith>(
        &self,
        t: T,
        [e, log]: [T; 2],
        omega_bar: T,
        phase_bar: T,
        adj: &mut Phase22<T>,
    ) -> T {
        let (c1, c2, c3) = (self.rd_c1, self.rd_c2, self.rd_c3);
        let inv_den = T::from(1.0) / (e * c3 + 1.0);
        let e_den = e * inv_den;
        adj.ph_off_rd += phase_bar;
        adj.omega_ring += phase_bar * t + omega_bar;
        adj.rd_c1 += phase_bar * log - omega_bar * c2 * c3 * e_den;
        adj.rd_c2 -= omega_bar * c1 * c3 * e_den;
        adj.rd_c3 +=
            phase_bar * c1 * (e_den - 1.0 / (c3 + 1.0)) - omega_bar * c1 * c2 * e_den * inv_den;
        let e_bar = (phase_bar - omega_bar * c2 * inv_den) * c1 * c3 * inv_den;
        adj.rd_c2 -= e_bar * t * e;
        phase_bar * self.omega_ring - e_bar * c2 * e
    }

    /// [`Self::omega_and_phase_adjoint`]'s merger, at one time or on lanes (every lane in
    /// [t_cut − Δt, 0]): with u = asinh(α₁t), R = √(1 + α₁²t²), ω = ω_RING(1 − ω̄) where
    /// ω̄ = F + ku + m1u² + m2u³ + m3u⁴, and φ = ω_RING(t − I) + φ_M with
    /// I = t·A(u) − (R/α₁)·B(u) (see [`Self::omega_and_phase_traced`]), B = A'.
    #[inline(always)]
    pub(crate) fn merger_adjoint<T: ReverseArith>(
        &self,
        t: T,
        [u, r]: [T; 2],
        omega_bar: T,
        phase_bar: T,
        adj: &mut Phase22<T>,
    ) -> T {
        let (a, ia, k) = (self.alpha1, self.inv_alpha1, self.merger_k);
        let [m1, m2, m3] = self.merger_c;
        let (u2, u3) = (u * u, u * u * u);
        let u4 = u2 * u2;
        let bar = u * k + self.merger_f + u2 * m1 + u3 * m2 + u4 * m3;
        let d_bar = u * (2.0 * m1) + k + u2 * (3.0 * m2) + u3 * (4.0 * m3);
        let big_a = bar + 2.0 * m1 + u * (6.0 * m2) + (u2 * 12.0 + 24.0) * m3;
        let big_b = u * (2.0 * m1) + k + (u2 * 3.0 + 6.0) * m2 + (u3 * 4.0 + u * 24.0) * m3;
        let d_big_b = u * (6.0 * m2) + 2.0 * m1 + (u2 * 12.0 + 24.0) * m3;
        let rho = r * ia;
        let integral = t * big_a - rho * big_b;

        adj.ph_off_merger += phase_bar;
        adj.omega_ring += phase_bar * (t - integral) + omega_bar * (-bar + 1.0);
        let i_bar = -phase_bar * self.omega_ring;
        let b_bar = -omega_bar * self.omega_ring;
        adj.merger_f += i_bar * t + b_bar;
        adj.merger_k += i_bar * (t * u - rho) + b_bar * u;
        adj.merger_c[0] += i_bar * (t * (u2 + 2.0) - rho * 2.0 * u) + b_bar * u2;
        adj.merger_c[1] += i_bar * (t * (u3 + u * 6.0) - rho * (u2 * 3.0 + 6.0)) + b_bar * u3;
        adj.merger_c[2] +=
            i_bar * (t * (u4 + u2 * 12.0 + 24.0) - rho * (u3 * 4.0 + u * 24.0)) + b_bar * u4;
        adj.inv_alpha1 -= i_bar * r * big_b;
        // u = asinh(α₁t), R = √(1 + α₁²t²): ∂u/∂α₁ = t/R, ∂R/∂α₁ = α₁t²/R, ∂u/∂t = α₁/R,
        // ∂R/∂t = α₁²t/R.
        let u_bar = i_bar * (t * big_b - rho * d_big_b) + b_bar * d_bar;
        let r_bar = -i_bar * ia * big_b;
        let inv_r = T::from(1.0) / r;
        adj.alpha1 += (u_bar * t + r_bar * a * t * t) * inv_r;
        phase_bar * self.omega_ring + i_bar * big_a + (u_bar * a + r_bar * a * a * t) * inv_r
    }
}

/// TaylorT3 frequency coefficients at 1, 1.5, 2, 2.5, 3 and 3.5PN with spin–orbit and spin–spin
/// terms (arXiv:2004.08302 App. A1), term for term as LAL writes them.
fn taylor_t3_coefficients<T: Real>(eta: T, delta: T, c1: T, c2: T) -> [T; 6] {
    let dm = delta - 1.0; // (−1 + δ)
    let dp = delta + 1.0; // (1 + δ)
    let o1 = eta * 11.0 / 32.0 + 0.27641369047619047;
    let o15 = (c1 + c2) * -19.0 * eta / 80.0 + ((c2 * dm - c1 * dp) * -113.0 - 96.0 * PI) / 320.0;
    let o2 = (c2 * 1714608.0 * c2 * dm + 1855099.0 - c1 * 1714608.0 * c1 * dp) / 1.4450688e7
        + (c1 * 61236.0 * c1 + 56975.0 - c1 * 119448.0 * c2 + c2 * 61236.0 * c2) * eta / 258048.0
        + eta * 371.0 * eta / 2048.0;
    let o25 = (c1 + c2) * -17.0 * eta * eta / 128.0
        + ((c2 * dm - c1 * dp) * -146597.0 - 46374.0 * PI) / 129024.0
        + eta
            * ((c1 * (k::<T>(1213.0) - delta * 63.0) + c2 * (delta * 63.0 + 1213.0)) * -2.0
                + 117.0 * PI)
            / 2304.0;
    let o3 = k::<T>(-2.499258364444952)
        - c1 * 16928263.0 * c1 / 1.376256e8
        - c2 * 16928263.0 * c2 / 1.376256e8
        - c1 * 16928263.0 * c1 * delta / 1.376256e8
        + c2 * 16928263.0 * c2 * delta / 1.376256e8
        + (c1 * 18767224.0 * c1 + (-2318475.0) - c1 * 54663952.0 * c2 + c2 * 18767224.0 * c2)
            * eta
            * eta
            / 1.376256e8
        + eta * 235925.0 * eta * eta / 1.769472e6
        + 107.0 * GAMMA_E / 280.0
        - c1 * 6127.0 * PI / 12800.0
        - c2 * 6127.0 * PI / 12800.0
        - c1 * 6127.0 * delta * PI / 12800.0
        + c2 * 6127.0 * delta * PI / 12800.0
        + 53.0 * PI * PI / 200.0
        + eta
            * (c1 * 35200873512.0 * c1 + 632550449425.0 - c1 * 28527282000.0 * c2
                + c1 * 9605339856.0 * c1 * delta
                - c2 * 1512.0 * c2 * (delta * 6352738.0 + (-23281001.0))
                + (c1 + c2) * 34172264448.0 * PI
                - 22912243200.0 * PI * PI)
            / 1.040449536e11
        + 107.0 * 2f64.ln() / 280.0;
    let o35 = (c1 + c2) * -12029.0 * eta * eta * eta / 92160.0
        + eta
            * eta
            * (c1 * 507654.0 * c2 * c2 - c2 * 838782.0 * c2 * c2
                + c2 * (c1 * 507654.0 * c1 + (-840149.0) - delta * 870576.0)
                + c1 * (k::<T>(-840149.0) - c1 * 838782.0 * c1 + delta * 870576.0)
                + 1701228.0 * PI)
            / 1.548288e7
        + eta
            * (c1 * 218532006.0 * c2 * c2 * dm
                - c2 * 1134.0 * c2 * c2 * (delta * 71931.0 + (-206917.0))
                - c2 * (k::<T>(1496368361.0) - delta * 429508815.0 + c1 * 218532006.0 * c1 * dp)
                + c1 * (k::<T>(-1496368361.0) - delta * 429508815.0
                    + c1 * 1134.0 * c1 * (delta * 71931.0 + 206917.0))
                - (c1 * 923076.0 * c1 + 488825.0 - c1 * 1782648.0 * c2 + c2 * 923076.0 * c2)
                    * 144.0
                    * PI)
            / 1.8579456e8
        + (c2 * -6579635551.0 * dm + c2 * 535759434.0 * c2 * c2 * dm
            - c1 * (c1 * 535759434.0 * c1 + (-6579635551.0)) * dp
            + (k::<T>(-565550067.0) - c2 * 465230304.0 * c2 * dm + c1 * 465230304.0 * c1 * dp)
                * PI)
            / 1.30056192e9;
    [o1, o15, o2, o25, o3, o35]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constants::MTSUN_SI;

    /// With exact slopes the frequency is C¹ where the merger takes over from the inspiral
    /// (t_cut) and where the ringdown takes over (the peak): central differences of each
    /// piece's ω agree across the boundary. Five-point differences with a step of 1e-2 M keep
    /// both the truncation error and the inspiral's rounding noise (its collocation terms cancel
    /// to ~1e-15) below 1e-8. LAL's one-sided 1e-7 differences agree only to their rounding
    /// noise, ~1e-5.
    #[test]
    fn exact_slopes_make_the_frequency_c1() {
        let h = 1e-2;
        for &(m1, m2, c1, c2) in &[
            (36.0, 29.0, 0.3, -0.2),
            (27.3, 26.4, -0.83, 0.985),
            (10.0, 1.0, 0.9, 0.0),
            (150.0, 140.0, -0.99, 0.99),
        ] {
            let vars = BinaryVariables::new(m1, m2, c1, c2);
            let dt_m = 1.0 / 2048.0 / ((m1 + m2) * MTSUN_SI);
            for (exact, tolerance) in [(true, 1e-8), (false, 1e-3)] {
                let p = Phase22::new(&vars, dt_m, exact);
                let central = |f: &dyn Fn(f64) -> f64, t: f64| {
                    (8.0 * (f(t + h) - f(t - h)) - (f(t + 2.0 * h) - f(t - 2.0 * h))) / (12.0 * h)
                };
                let inspiral = |t: f64| p.inspiral_omega((-p.eta * t / 5.0).powf(-1.0 / 8.0));
                let merger = |t: f64| -(p.merger_omega_bar(t) - 1.0) * p.omega_ring;
                let ringdown = |t: f64| p.ringdown_omega(t);
                for (left, right, t) in [
                    (
                        central(&inspiral, p.t_cut),
                        central(&merger, p.t_cut),
                        p.t_cut,
                    ),
                    (central(&merger, 0.0), central(&ringdown, 0.0), 0.0),
                ] {
                    let err = (left - right).abs() / right.abs();
                    assert!(
                        err < tolerance,
                        "{m1}+{m2} ({c1}, {c2}) exact {exact} at t = {t}: {left} vs {right}"
                    );
                }
            }
        }
    }
}
