//! The frequency and phase of each region as LAL writes them (`IMRPhenomTTaylorT3`,
//! `IMRPhenomTInspiralOmegaAnsatz22`, `IMRPhenomTMergerOmegaAnsatz22`,
//! `IMRPhenomTRDOmegaAnsatz22`, `IMRPhenomTomega22` and the phase ansätze), with LAL's operation
//! order: the set-up's finite differences and the root finder need their bits
//! (docs/imrphenomt.md §5, §3.1, §10.1).

use super::{k, MergerFrequency, Phase22, LOG_TERM};
use crate::fits::powers_to_7;
use crate::gsl;
use crate::scalar::Real;

impl<T: Real> Phase22<T> {
    /// TaylorT3 22 frequency at θ (`IMRPhenomTTaylorT3`).
    pub(super) fn taylor_t3(&self, theta: T) -> T {
        let [o1, o15, o2, o25, o3, o35] = self.pn;
        let [_, th2, th3, th4, th5, th6, th7] = powers_to_7(theta);
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
    pub(super) fn merger_omega_bar(&self, t: T) -> T {
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
    pub(super) fn ringdown_omega(&self, t: T) -> T {
        self.ringdown_omega_of((-self.rd_c2 * t).exp())
    }

    /// [`Self::ringdown_omega`] given exp(−c₂t).
    pub(super) fn ringdown_omega_of(&self, exp_c: T) -> T {
        let num = self.rd_c1 * -(self.rd_c2 * self.rd_c3 * exp_c);
        let den = self.rd_c3 * exp_c + 1.0;
        num / den + self.omega_ring
    }

    /// dω/dθ of [`Self::inspiral_omega`]: with ω = θ³/4 · (P(θ) + Σ_j c_j θ^(8+j)),
    /// P = 1 + o1θ² + o15θ³ + o2θ⁴ + o25θ⁵ + (o3 + 107/280 ln θ)θ⁶ + o35θ⁷.
    pub(super) fn inspiral_omega_slope(&self, theta: T) -> T {
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

    /// dω22/dt at time t (in M), exactly, in the region [`Self::omega`] evaluates there: in
    /// the inspiral dω/dθ·dθ/dt with dθ/dt = −θ/(8t); in the merger
    /// −ω_RING·(dω̄/du)·α₁/√(1 + α₁²t²), u = asinh(α₁t); in the ringdown
    /// c1c2²c3e/(1 + c3e)², e = e^(−c2t). For the smooth set-up of the higher modes.
    pub(crate) fn omega_slope(&self, t: T) -> T {
        if t.re() < (self.t_cut - self.dt_m).re() {
            let theta = (-self.eta * t / 5.0).powf(-1.0 / 8.0);
            self.inspiral_omega_slope(theta) * -(theta / (t * 8.0))
        } else if t.re() > 0.0 {
            let e = (-self.rd_c2 * t).exp();
            let den = self.rd_c3 * e + 1.0;
            self.rd_c1 * self.rd_c2 * self.rd_c2 * self.rd_c3 * e / (den * den)
        } else {
            let a = self.alpha1;
            let u = gsl::arcsinh(a * t);
            let [c1, c2, c3] = self.merger_c;
            let dbar_du =
                self.domega_peak / a + c1 * u * 2.0 + c2 * u * u * 3.0 + c3 * u * u * u * 4.0;
            -(self.omega_ring * dbar_du * a / (a * a * t * t + 1.0).sqrt())
        }
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
    pub(super) fn inspiral_phase(&self, theta: T) -> T {
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

    /// Merger phase: the antiderivative of the merger frequency (`IMRPhenomTMergerPhaseAnsatz22`).
    pub(super) fn merger_phase(&self, t: T) -> T {
        let merger = MergerFrequency {
            omega_ring: self.omega_ring,
            alpha1: self.alpha1,
            omega_peak: self.omega_peak,
            domega_peak: self.domega_peak,
            c: self.merger_c,
        };
        merger.phase(t) + self.ph_off_merger
    }

    /// Ringdown phase (arXiv:1406.0401 eq. 5; `IMRPhenomTRDPhaseAnsatz22`), given
    /// ln((c₃e^(−c₂t) + 1)/(c₃ + 1)).
    pub(super) fn ringdown_phase_of(&self, t: T, log: T) -> T {
        self.rd_c1 * log + self.omega_ring * t + self.ph_off_rd
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
}
