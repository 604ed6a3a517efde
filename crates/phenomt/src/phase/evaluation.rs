//! The 22 frequency and phase for evaluation: the region found once, the frequency and the phase
//! sharing their transcendental functions, whose results are kept as the trace of the reverse
//! mode; the inspiral's polynomials in Estrin's scheme; each region also on [`Lanes`] with the
//! lane-wise functions of [`vmath`] (docs/imrphenomt.md §7.3, §7.4).

use super::Phase22;
use crate::scalar::{Arith, Lanes, Real, ReverseArith};
use crate::vmath;

impl<T: Real> Phase22<T> {
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
        let u = u.times_sign_of(x);
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
