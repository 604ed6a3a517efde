//! The IMRPhenomT (2,2) model: set-up from the binary's parameters, then the mode and the
//! polarisations at any time relative to the peak of |h22| (docs/imrphenomt.md §7).
//!
//! Reproduces LAL's `XLALSimIMRPhenomT` (LALSimIMRPhenomTHM.c): units, the start and reference
//! times found by GSL's Brent solver, the reference phase, the sample grid and the epoch.
//!
//! This file holds the model's types and its evaluation at one time; the rest, by what it does:
//!
//! - `setup.rs`: [`IMRPhenomT::new`], from the masses, spins and [`Settings`] to the
//!   coefficients, the reference time and the reference phase (§2, §3);
//! - `batch.rs`: h22 at many times, eight at a time on lanes (§7.4);
//! - `adjoint.rs`: evaluation with a trace, and its reverse mode (§9.3, §9.4);
//! - `grid.rs`: LAL's sample grid and epoch (§2.3, §7.5);
//! - `lanes.rs`: the times of each region gathered onto lanes and scattered back, for
//!   `batch.rs` and `adjoint.rs`.

mod adjoint;
mod batch;
mod grid;
mod lanes;
mod setup;
#[cfg(test)]
mod tests;

use std::sync::OnceLock;

use crate::amplitude::Amplitude22;
use crate::harmonics::Projection;
use crate::phase::Phase22;
use crate::scalar::Real;

/// Settings that do not change the binary: frequencies in Hz, sampling interval in s.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Starting (2,2) frequency: the first sample of the LAL grid.
    pub f_min: f64,
    /// Reference (2,2) frequency at which the 22 phase is zero; 0 means `f_min`.
    pub f_ref: f64,
    /// Sampling interval. LAL's inspiral–merger switch sits one sample before the boundary, so
    /// the model depends (very weakly) on it.
    pub delta_t: f64,
    /// `false`: LAL's waveform bit for bit, which is not a smooth function of the parameters.
    /// (1) The reference time t(f_ref) is GSL Brent's last iterate; Brent stops on a 1e-4
    /// relative bracket, so as the masses change its iterate jumps and the reference phase with
    /// it (typically by 1e-9 rad, in ~2% of the parameter space by 1e-3 rad or more). (2) The
    /// frequency slopes at the inspiral–merger boundary and at the peak are finite differences
    /// with a step of 1e-7 M, which amplify the rounding of ω by ~1e9: the merger and ringdown
    /// phase jitters by ~1e-5 rad between parameters 1e-7 apart, and its derivatives with it.
    /// `true` (for gradient samplers): the exact root (Newton-polished) and the exact slopes,
    /// so the waveform is smooth in the parameters; it differs from LAL's by the finite
    /// differences' truncation error (~1e-7 relative in the merger frequency).
    pub smooth: bool,
}

impl Settings {
    /// LAL-compatible settings.
    pub fn lal(f_min: f64, f_ref: f64, delta_t: f64) -> Self {
        Self {
            f_min,
            f_ref,
            delta_t,
            smooth: false,
        }
    }

    /// The reference frequency: `f_ref`, or `f_min` where it is 0 (LAL's convention).
    pub fn reference_frequency(&self) -> f64 {
        if self.f_ref == 0.0 {
            self.f_min
        } else {
            self.f_ref
        }
    }
}

/// The (2,2) mode at one time, for a source at 1 Mpc: h22 = amplitude · e^(−i·phase).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Mode22<T> {
    pub amplitude: T,
    pub phase: T,
}

/// IMRPhenomT, set up for one binary: evaluates h22 at any time.
#[derive(Clone, Debug)]
pub struct IMRPhenomT<T> {
    phase: Phase22<T>,
    amplitude: Amplitude22<T>,
    /// Total mass in seconds, M·G/c³.
    total_mass_s: T,
    /// Amplitude scale from units of M/distance to strain at 1 Mpc (LAL's `ampfac`).
    amp_fac: T,
    /// Start time t(f_min) in M, as LAL's root finder returns it: found on first use when the
    /// reference time is exact, since evaluation at given times does not need it.
    t_min: OnceLock<f64>,
    f_min: f64,
    /// The 22 phase at the reference time t(f_ref).
    phase_ref: T,
    delta_t: f64,
}

/// What the reverse mode of [`IMRPhenomT::mode22_traced`] at one time reuses from it: the
/// time, the frequency, the modulus and the results of the transcendental functions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mode22Trace {
    /// Time in M.
    t: f64,
    omega: f64,
    /// |A22| before the factor `amp_fac`.
    modulus: f64,
    phase: [f64; 2],
    amplitude: [f64; 2],
}

/// Adjoints (reverse-mode derivatives) of an [`IMRPhenomT`]'s coefficients: accumulated by
/// [`IMRPhenomT::mode22_adjoint`] or [`IMRPhenomT::mode22_adjoint_many`] at many times, then
/// turned into a gradient by [`IMRPhenomT::gradient`].
#[derive(Clone, Debug, Default)]
pub struct Mode22Adjoint {
    phase: Phase22<f64>,
    amplitude: Amplitude22<f64>,
    total_mass_s: f64,
    amp_fac: f64,
    phase_ref: f64,
}

/// Polarisations on LAL's sample grid.
#[derive(Clone, Debug, PartialEq)]
pub struct Polarizations {
    /// Time of the first sample relative to the peak of |h22|, in integer nanoseconds (LAL's
    /// epoch: t_min·M rounded to the nearest ns).
    pub epoch_ns: i64,
    /// Sampling interval in s.
    pub delta_t: f64,
    pub hp: Vec<f64>,
    pub hc: Vec<f64>,
}

impl Polarizations {
    /// Time of sample `k` in seconds, as LAL defines it: epoch + k·Δt.
    pub fn time(&self, k: usize) -> f64 {
        self.epoch_ns as f64 * 1e-9 + k as f64 * self.delta_t
    }
}

impl IMRPhenomT<f64> {
    /// The (2,2) frequency at the peak of |h22| in Hz, for component masses `m1`, `m2` (M☉,
    /// detector frame) and aligned spins: the model's fit (`peak_frequency_22`,
    /// docs/imrphenomt.md §5), without setting up the waveform.
    pub fn peak_frequency(m1: f64, m2: f64, chi1: f64, chi2: f64) -> f64 {
        let (m1, m2, chi1, chi2) = if m1 >= m2 {
            (m1, m2, chi1, chi2)
        } else {
            (m2, m1, chi2, chi1)
        };
        let vars = crate::phase::BinaryVariables::new(m1, m2, chi1, chi2);
        let omega = crate::fits::peak_frequency_22(&vars.fits);
        omega / (std::f64::consts::TAU * (m1 + m2) * crate::constants::MTSUN_SI)
    }
}

impl<T: Real> IMRPhenomT<T> {
    /// The same model with only its coefficients' values (bit-identical to the f64 set-up):
    /// for f64 evaluation of a model set up with duals.
    pub fn values(&self) -> IMRPhenomT<f64> {
        IMRPhenomT {
            phase: self.phase.values_as(),
            amplitude: self.amplitude.values_as(),
            total_mass_s: self.total_mass_s.re(),
            amp_fac: self.amp_fac.re(),
            t_min: self.t_min.clone(),
            f_min: self.f_min,
            phase_ref: self.phase_ref.re(),
            delta_t: self.delta_t,
        }
    }

    /// Total mass in seconds.
    pub fn total_mass_seconds(&self) -> T {
        self.total_mass_s
    }

    /// The start time t(f_min) in seconds relative to the peak (not rounded to the ns).
    pub fn start_time(&self) -> f64 {
        self.t_min() * self.total_mass_s.re()
    }

    /// The (2,2) mode at time `t` in M relative to the peak, for a source at 1 Mpc.
    fn mode22_geometric(&self, t: T) -> Mode22<T> {
        self.parts_geometric(t).2
    }

    /// At time `t` in M: ω22, the (2,2) phase before the reference phase is taken off (which
    /// the higher modes scale), and the (2,2) mode for a source at 1 Mpc.
    pub(crate) fn parts_geometric(&self, t: T) -> (T, T, Mode22<T>) {
        let (omega, phase) = self.phase.omega_and_phase(t);
        let mode = Mode22 {
            amplitude: self.amp_fac * self.amplitude.modulus(t, omega),
            phase: phase - self.phase_ref,
        };
        (omega, phase, mode)
    }

    /// The (2,2) frequency and phase.
    pub(crate) fn phase22(&self) -> &Phase22<T> {
        &self.phase
    }

    /// The amplitude scale from units of M/distance to strain at 1 Mpc.
    pub(crate) fn amp_fac(&self) -> T {
        self.amp_fac
    }

    /// The (2,2) phase at the reference time.
    pub(crate) fn phase_ref(&self) -> T {
        self.phase_ref
    }

    /// The (2,2) mode at time `t` in seconds relative to the peak of |h22|, for a source at
    /// 1 Mpc (scale the amplitude by 1 Mpc / distance). Valid at any t ≤ +500 M; before the
    /// start time t(f_min) the inspiral simply continues.
    pub fn mode22(&self, t: T) -> Mode22<T> {
        self.mode22_geometric(t / self.total_mass_s)
    }

    /// h₊ and h× at time `t` (s, relative to the peak) for a source at `distance_mpc`, seen at
    /// `inclination` with reference phase `phi_ref` (rad).
    pub fn polarizations(&self, t: T, distance_mpc: T, inclination: T, phi_ref: T) -> (T, T) {
        let m = self.mode22(t);
        Projection::new(inclination, phi_ref).apply(m.amplitude / distance_mpc, m.phase)
    }
}
