//! The set-up of the 22 frequency and phase: the TaylorT3 coefficients, the six inspiral
//! pseudo-PN coefficients from their collocation points, the merger coefficients from the
//! boundary values and slopes, the ringdown coefficients and the phase offsets, operation by
//! operation as LAL's `IMRPhenomTSetPhase22Coefficients` (docs/imrphenomt.md §5.2–5.5, §8.2,
//! §10.1).
//!
//! Equations: arXiv:2012.11923 eqs. 10–11 (inspiral collocation), 24–30 (merger and ringdown);
//! arXiv:2004.08302 App. A1 (TaylorT3); arXiv:1406.0401 eq. 9 (ringdown c1).

use std::f64::consts::PI;

use super::{fits, k, BinaryVariables, MergerFrequency, Phase22};
use crate::constants::GAMMA_E;
use crate::gsl;
use crate::ringdown;
use crate::scalar::Real;

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
        let rd_c1 = ringdown::frequency_c1(omega_ring, omega_peak, rd_c2, rd_c3);

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

        let mut merger = MergerFrequency {
            omega_ring,
            alpha1,
            omega_peak,
            domega_peak: p.domega_peak,
            c: [k(0.0); 3],
        };
        merger.solve(
            p.t_cut,
            t_merger,
            omega_cut_bar,
            omega_merger_cp,
            domega_cut,
        );
        p.merger_c = merger.c;
        let fixed = -(omega_peak / omega_ring - 1.0);
        p.merger_f = fixed;
        p.merger_k = p.domega_peak / alpha1;

        // Phase continuity (C0) at t_cut and at the peak.
        let theta_cut = (-eta * p.t_cut / 5.0).powf(-1.0 / 8.0);
        p.ph_off_merger = p.inspiral_phase(theta_cut) - p.merger_phase(p.t_cut);
        p.ph_off_rd = p.merger_phase(k(0.0));
        p
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
