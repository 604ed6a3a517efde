//! The phase of a higher mode after −150 M (docs/imrphenomt.md §12.4): the (2,2)'s merger and
//! ringdown forms with the mode's own quasi-normal modes and fits, continuous at −150 M with
//! m/2 times the (2,2) phase plus the argument of the complex inspiral amplitude. Before −150 M
//! the mode's phase is m/2 times the (2,2) phase.
//!
//! Equations: arXiv:2012.11923 eqs. 24–30; arXiv:1406.0401 eqs. 5, 9. The set-up follows LAL's
//! `IMRPhenomTSetHMPhaseCoefficients` operation by operation, finite differences included.

use super::amplitude::{ModeAmplitude, T_CUT, T_MERGER_CP};
use super::mode::{HigherMode, ModeFits};
use crate::gsl;
use crate::phase::Phase22;
use crate::scalar::Real;

/// Step of LAL's finite difference of ω22 at −150 M.
const OMEGA_STEP: f64 = 0.0000001;

/// The coefficients of a higher mode's merger and ringdown frequency and phase (LAL's
/// `IMRPhenomTHMPhaseStruct`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModePhase<T> {
    omega_ring: T,
    alpha1: T,
    omega_peak: T,
    /// Rescaled frequency slope at the peak of |h22|, ω̄'(0).
    domega_peak: T,
    merger_c: [T; 3],
    rd_c1: T,
    rd_c2: T,
    rd_c3: T,
    ph_off_merger: T,
    ph_off_rd: T,
}

impl<T: Real> ModePhase<T> {
    pub fn new(
        mode: HigherMode,
        eta: T,
        phase22: &Phase22<T>,
        amplitude: &ModeAmplitude<T>,
        f: &ModeFits<T>,
        exact_slopes: bool,
    ) -> Self {
        let k = T::from;
        let half_m = mode.half_m();
        let omega22 = |t: f64| phase22.omega(k(t), (-eta * t / 5.0).powf(-1.0 / 8.0));
        // dω22/dt at −150 M and the mode's dω/dt at the peak: LAL's finite differences, or
        // exactly (see [`crate::Settings::smooth`]).
        let domega22_cut = if exact_slopes {
            phase22.omega_slope(k(T_CUT))
        } else {
            (omega22(T_CUT) - omega22(T_CUT - OMEGA_STEP)) / OMEGA_STEP
        };

        let omega_ring = f.omega_ring;
        let omega_peak = f.peak_frequency;
        let (rd_c2, rd_c3) = (f.rd_freq_c2, f.rd_freq_c3);
        // c1 = (1 + c3 + c4)(ω_RING − ω_peak)/c2/(c3 + 2c4) with c4 = 0 (arXiv:1406.0401 eq. 9).
        let rd_c1 = (rd_c3 + 1.0) * (omega_ring - omega_peak) / rd_c2 / rd_c3;
        let mut p = Self {
            omega_ring,
            alpha1: f.alpha1,
            omega_peak,
            domega_peak: k(0.0),
            merger_c: [k(0.0); 3],
            rd_c1,
            rd_c2,
            rd_c3,
            ph_off_merger: k(0.0),
            ph_off_rd: k(0.0),
        };
        let ringdown_slope = if exact_slopes {
            // dω/dt(0) = c1c2²c3/(1 + c3)² (the derivative of `ringdown_omega`).
            rd_c1 * rd_c2 * rd_c2 * rd_c3 / ((rd_c3 + 1.0) * (rd_c3 + 1.0))
        } else {
            let h = f.peak_slope_step;
            (p.ringdown_omega(k(h)) - p.ringdown_omega(k(0.0))) / h
        };
        p.domega_peak = -ringdown_slope / omega_ring;

        // Rescaled frequency ω̄ = 1 − ω/ω_RING at −150 M (m/2 ω22 plus the amplitude's share)
        // and at the −25 M collocation point, and its slope at −150 M.
        let omega_cut_bar = -((omega22(T_CUT) * half_m + amplitude.omega_cut) / omega_ring - 1.0);
        let omega_merger_cp = -(f.merger_freq_cp / omega_ring - 1.0);
        let domega_cut = domega22_cut * -half_m / omega_ring;

        let alpha1 = p.alpha1;
        let fixed = -(omega_peak / omega_ring - 1.0);
        let powers = |u: T| [u * u, u * (u * u), u * (u * (u * u))];
        let as_cut = gsl::arcsinh(alpha1 * T_CUT);
        let as_cp = gsl::arcsinh(alpha1 * T_MERGER_CP);
        let den_cut = (alpha1 * (T_CUT * T_CUT) * alpha1 + 1.0).sqrt();
        let [u2, u3, _] = powers(as_cut);
        let a = [
            powers(as_cut),
            powers(as_cp),
            [
                alpha1 * 2.0 * as_cut / den_cut,
                alpha1 * 3.0 * u2 / den_cut,
                alpha1 * 4.0 * u3 / den_cut,
            ],
        ];
        let b = [
            omega_cut_bar - fixed - p.domega_peak / alpha1 * as_cut,
            omega_merger_cp - fixed - p.domega_peak / alpha1 * as_cp,
            domega_cut - p.domega_peak / den_cut,
        ];
        p.merger_c = gsl::lu_solve(a, b);

        // Phase continuity at −150 M with m/2 times the (2,2) phase, and at the peak.
        let phase22_cut = phase22.omega_and_phase(k(T_CUT)).1;
        p.ph_off_merger = phase22_cut * half_m - p.merger_phase(k(T_CUT));
        p.ph_off_rd = p.merger_phase(k(0.0));
        p
    }

    /// Ringdown frequency (`IMRPhenomTRDOmegaAnsatzHM`, with c4 = 0).
    fn ringdown_omega(&self, t: T) -> T {
        let exp_c = (-self.rd_c2 * t).exp();
        let num = self.rd_c1 * -(self.rd_c2 * self.rd_c3 * exp_c);
        num / (self.rd_c3 * exp_c + 1.0) + self.omega_ring
    }

    /// Merger phase (`IMRPhenomTMergerPhaseAnsatzHM`): the antiderivative of
    /// ω = ω_RING(1 − ω̄), ω̄ = F + k·u + c1u² + c2u³ + c3u⁴, u = asinh(α₁t), written with
    /// R = √(1 + α₁²t²).
    fn merger_phase(&self, t: T) -> T {
        let a = self.alpha1;
        let u = gsl::arcsinh(a * t);
        let r = (a * a * t * t + 1.0).sqrt();
        let (u2, u3) = (u * u, u * u * u);
        let [c1, c2, c3] = self.merger_c;
        let integral = -(self.omega_peak / self.omega_ring - 1.0) * t
            + self.domega_peak / a * (t * u - r / a)
            + c1 * (t * u2 - u * r * 2.0 / a + t * 2.0)
            + c2 * (t * u3 - u2 * r * 3.0 / a + t * u * 6.0 - r * 6.0 / a)
            + c3 * (t * u3 * u - u3 * r * 4.0 / a + t * u2 * 12.0 - u * r * 24.0 / a + t * 24.0);
        self.omega_ring * t - self.omega_ring * integral + self.ph_off_merger
    }

    /// Ringdown phase (arXiv:1406.0401 eq. 5; `IMRPhenomTRDPhaseAnsatzHM`).
    fn ringdown_phase(&self, t: T) -> T {
        let exp_c = (-self.rd_c2 * t).exp();
        let log = ((self.rd_c3 * exp_c + 1.0) / (self.rd_c3 + 1.0)).ln();
        self.rd_c1 * log + self.omega_ring * t + self.ph_off_rd
    }

    /// The mode's phase at time t ≥ −150 M (in M), before the argument of the inspiral
    /// amplitude at −150 M is taken off (`IMRPhenomTHMPhase`).
    pub fn merger_ringdown(&self, t: T) -> T {
        if t.re() > 0.0 {
            self.ringdown_phase(t)
        } else {
            self.merger_phase(t)
        }
    }
}
