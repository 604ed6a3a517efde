//! Reverse mode of the 22 frequency and phase at fixed coefficients: the adjoints of the
//! coefficients and the derivative in time, at one time or on lanes (docs/imrphenomt.md §9.3).

use super::{Phase22, LOG_TERM};
use crate::scalar::ReverseArith;

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
