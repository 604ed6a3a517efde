//! The phase of a higher mode after −150 M (docs/imrphenomt.md §12.4): the (2,2)'s merger and
//! ringdown forms with the mode's own quasi-normal modes and fits, continuous at −150 M with
//! m/2 times the (2,2) phase plus the argument of the complex inspiral amplitude. Before −150 M
//! the mode's phase is m/2 times the (2,2) phase.
//!
//! Equations: arXiv:2012.11923 eqs. 24–30; arXiv:1406.0401 eqs. 5, 9. The set-up follows LAL's
//! `IMRPhenomTSetHMPhaseCoefficients` operation by operation, finite differences included.

use super::amplitude::{ModeAmplitude, T_CUT, T_MERGER_CP};
use super::mode::{HigherMode, ModeFits};
use crate::phase::{MergerFrequency, Phase22};
use crate::ringdown::RingdownPhase;
use crate::scalar::Real;

/// Step of LAL's finite difference of ω22 at −150 M.
const OMEGA_STEP: f64 = 0.0000001;

/// The coefficients of a higher mode's merger and ringdown frequency and phase (LAL's
/// `IMRPhenomTHMPhaseStruct`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ModePhase<T> {
    merger: MergerFrequency<T>,
    ph_off_merger: T,
    /// The phase after the peak of |h22|, with the QNMs of the ringdown's final spin.
    ringdown: RingdownPhase<T>,
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

        let omega_ring = f.qnm.omega_ring;
        let omega_peak = f.peak_frequency;
        let (rd_c2, rd_c3) = (f.rd_freq_c2, f.rd_freq_c3);
        // The aligned-spin ringdown, whose slope at the peak shapes the merger.
        let aligned = RingdownPhase::new(omega_ring, omega_peak, rd_c2, rd_c3, k(0.0));
        let ringdown_slope = if exact_slopes {
            // dω/dt(0) = c1c2²c3/(1 + c3)² (the derivative of `RingdownPhase::omega`).
            aligned.c1 * rd_c2 * rd_c2 * rd_c3 / ((rd_c3 + 1.0) * (rd_c3 + 1.0))
        } else {
            let h = f.peak_slope_step;
            (aligned.omega(k(h)) - aligned.omega(k(0.0))) / h
        };
        let mut merger = MergerFrequency {
            omega_ring,
            alpha1: f.qnm.alpha1,
            omega_peak,
            domega_peak: -ringdown_slope / omega_ring,
            c: [k(0.0); 3],
        };

        // Rescaled frequency ω̄ = 1 − ω/ω_RING at −150 M (m/2 ω22 plus the amplitude's share)
        // and at the −25 M collocation point, and its slope at −150 M.
        let omega_cut_bar = -((omega22(T_CUT) * half_m + amplitude.omega_cut) / omega_ring - 1.0);
        let omega_merger_cp = -(f.merger_freq_cp / omega_ring - 1.0);
        let domega_cut = domega22_cut * -half_m / omega_ring;
        merger.solve(
            k(T_CUT),
            k(T_MERGER_CP),
            omega_cut_bar,
            omega_merger_cp,
            domega_cut,
        );

        // Phase continuity at −150 M with m/2 times the (2,2) phase, and at the peak.
        let phase22_cut = phase22.omega_and_phase(k(T_CUT)).1;
        let ph_off_merger = phase22_cut * half_m - merger.phase(k(T_CUT));
        let ringdown = RingdownPhase::new(
            f.ringdown_qnm.omega_ring,
            omega_peak,
            rd_c2,
            rd_c3,
            merger.phase(k(0.0)) + ph_off_merger,
        );
        Self {
            merger,
            ph_off_merger,
            ringdown,
        }
    }

    /// The mode's phase at time t ≥ −150 M (in M), before the argument of the inspiral
    /// amplitude at −150 M is taken off (`IMRPhenomTHMPhase`).
    pub fn merger_ringdown(&self, t: T) -> T {
        if t.re() > 0.0 {
            self.ringdown.phase(t)
        } else {
            self.merger.phase(t) + self.ph_off_merger
        }
    }
}
