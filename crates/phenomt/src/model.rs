//! The IMRPhenomT (2,2) model: set-up from the binary's parameters, then the mode and the
//! polarisations at any time relative to the peak of |h22|.
//!
//! Reproduces LAL's `XLALSimIMRPhenomT` (LALSimIMRPhenomTHM.c): units, the start and reference
//! times found by GSL's Brent solver, the reference phase, the sample grid and the epoch.

use crate::amplitude::Amplitude22;
use crate::constants::{MPC_SI, MRSUN_SI, MSUN_SI, MTSUN_SI};
use crate::error::WaveformError;
use crate::gsl;
use crate::harmonics::Projection;
use crate::phase::{BinaryVariables, Phase22};
use crate::scalar::{Dual, Real};

/// The model's waveform ends at t = +500 M (`tEnd`).
const T_END: f64 = 500.0;
/// Brent bracket start in M: t(f_min) must lie after it.
const T_BRACKET_START: f64 = -1e9;
/// Newton steps that polish a Brent root (quadratic convergence from ~1e-7 M needs two or three).
const MAX_NEWTON_STEPS: usize = 8;
/// Largest component mass in M☉: beyond ~1e277 M☉ the mass in kg (LAL's unit) overflows.
const MAX_MASS: f64 = 1e270;
/// Largest mass ratio the model accepts.
const MAX_MASS_RATIO: f64 = 200.0;

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
    /// `false`: the reference time t(f_ref) is GSL Brent's last iterate, as in LAL (bit-for-bit
    /// LAL waveforms). Brent stops on a 1e-4 relative bracket, so as the masses change its
    /// iterate jumps and the reference phase with it (typically by 1e-9 rad, in ~2% of the
    /// parameter space by 1e-3 rad or more). `true`: Newton steps polish it to the exact root,
    /// which makes the waveform a smooth function of the parameters (for gradient samplers).
    pub exact_reference_time: bool,
}

impl Settings {
    /// LAL-compatible settings.
    pub fn lal(f_min: f64, f_ref: f64, delta_t: f64) -> Self {
        Self {
            f_min,
            f_ref,
            delta_t,
            exact_reference_time: false,
        }
    }
}

/// The (2,2) mode at one time, for a source at 1 Mpc: h22 = amplitude · e^(−i·phase).
#[derive(Clone, Copy, Debug, PartialEq)]
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
    /// Start time t(f_min) in M, as LAL's root finder returns it.
    t_min: f64,
    /// The 22 phase at the reference time t(f_ref).
    phase_ref: T,
    delta_t: f64,
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

fn check_range(
    name: &'static str,
    value: f64,
    ok: bool,
    allowed: &'static str,
) -> Result<(), WaveformError> {
    if ok && value.is_finite() {
        Ok(())
    } else {
        Err(WaveformError::OutOfRange {
            name,
            value,
            allowed,
        })
    }
}

impl<T: Real> IMRPhenomT<T> {
    /// Sets up the model for component masses `m1`, `m2` (detector frame, in M☉) and aligned
    /// dimensionless spins `chi1`, `chi2`. The bodies are swapped if m1 < m2, as in LAL.
    pub fn new(m1: T, m2: T, chi1: T, chi2: T, settings: &Settings) -> Result<Self, WaveformError> {
        let mass_ok = |m: f64| m > 0.0 && m <= MAX_MASS;
        check_range("mass_1", m1.re(), mass_ok(m1.re()), "(0, 1e270] M☉")?;
        check_range("mass_2", m2.re(), mass_ok(m2.re()), "(0, 1e270] M☉")?;
        check_range("chi_1", chi1.re(), chi1.re().abs() <= 1.0, "[-1, 1]")?;
        check_range("chi_2", chi2.re(), chi2.re().abs() <= 1.0, "[-1, 1]")?;
        let Settings {
            f_min,
            f_ref,
            delta_t,
            exact_reference_time,
        } = *settings;
        check_range("minimum_frequency", f_min, f_min > 0.0, "(0, ∞) Hz")?;
        check_range("reference_frequency", f_ref, f_ref >= 0.0, "[0, ∞) Hz")?;
        check_range("delta_t", delta_t, delta_t > 0.0, "(0, ∞) s")?;
        let f_ref = if f_ref == 0.0 { f_min } else { f_ref };

        // LAL receives kg and divides by M☉: replicate the round trip, whose last bits matter.
        let (m1, m2) = ((m1 * MSUN_SI) / MSUN_SI, (m2 * MSUN_SI) / MSUN_SI);
        let (m1, m2, chi1, chi2) = if m1.re() >= m2.re() {
            (m1, m2, chi1, chi2)
        } else {
            (m2, m1, chi2, chi1)
        };
        let q = m1.re() / m2.re();
        check_range(
            "mass_ratio (m1/m2)",
            q,
            q <= MAX_MASS_RATIO || (q - MAX_MASS_RATIO).abs() <= 1e-12,
            "[1, 200]",
        )?;
        if q > 20.0 && (chi1.re() >= 0.9 || m2.re() < 0.5) {
            return Err(WaveformError::OutOfRange {
                name: "chi_1 (at mass ratio > 20)",
                value: chi1.re(),
                allowed: "[-1, 0.9) with the lighter mass ≥ 0.5 M☉ (model is pathological beyond)",
            });
        }

        let vars = BinaryVariables::new(m1, m2, chi1, chi2);
        let final_spin = vars.final_spin.re();
        check_range("final spin", final_spin, final_spin.abs() <= 1.0, "[-1, 1]")?;
        let total_mass_s = (m1 + m2) * MTSUN_SI;
        let dt_m = T::from(delta_t) / total_mass_s;
        let phase = Phase22::new(&vars, dt_m);
        let amplitude = Amplitude22::new(&vars, &phase);

        let root = |f, name, exact| Self::time_of_frequency(&phase, total_mass_s, f, name, exact);
        let t_min = root(f_min, "minimum_frequency", false)?;
        let t_ref = if f_ref == f_min && !exact_reference_time {
            t_min
        } else {
            root(f_ref, "reference_frequency", exact_reference_time)?
        };
        let phase_ref = phase.omega_and_phase(t_ref).1;
        Ok(Self {
            phase,
            amplitude,
            total_mass_s,
            amp_fac: total_mass_s / (MPC_SI * (MTSUN_SI / MRSUN_SI)),
            t_min: t_min.re(),
            phase_ref,
            delta_t,
        })
    }

    /// The time (in M) at which the 22 frequency equals `f_hz`, as LAL finds it (GSL Brent on
    /// [−1e9, 500] M with relative bracket tolerance 1e-4; the last iterate). Its derivatives
    /// follow from the implicit function theorem on g(t) = 2π·M·f − ω22(t). With `exact`, Newton
    /// steps polish Brent's iterate to the root.
    fn time_of_frequency(
        phase: &Phase22<T>,
        total_mass_s: T,
        f_hz: f64,
        name: &'static str,
        exact: bool,
    ) -> Result<T, WaveformError> {
        let target = total_mass_s * f_hz * std::f64::consts::TAU;
        let g = |t: T| target - phase.omega_for_root(t);
        // The search runs on the coefficients' values (bit-identical to an f64 set-up).
        let values = phase.values_as::<f64>();
        let g_value = |t: f64| target.re() - values.omega_for_root(t);
        let mut root =
            gsl::brent_root(g_value, T_BRACKET_START, T_END, 1e-4, 1000).map_err(|_| {
                let m = total_mass_s.re() * std::f64::consts::TAU;
                WaveformError::FrequencyNotReached {
                    name,
                    value: f_hz,
                    lowest_hz: phase.omega_for_root(T::from(T_BRACKET_START)).re() / m,
                    peak_hz: phase.omega_peak.re() / m,
                    ringdown_hz: phase.omega_ring.re() / m,
                }
            })?;
        // ∂g/∂t = −dω/dt, from a one-direction dual in time on the coefficients' values.
        let values_dt = phase.values_as::<Dual<1>>();
        let domega_dt = |t: f64| values_dt.omega_for_root(Dual::variable(t, 0)).eps[0];
        if exact {
            for _ in 0..MAX_NEWTON_STEPS {
                let step = g_value(root) / domega_dt(root);
                root += step;
                if step.abs() <= 4.0 * f64::EPSILON * root.abs() {
                    break;
                }
            }
        }
        // dt/dp = −(∂g/∂p)/(∂g/∂t).
        Ok(g(T::from(root)).lift(root, 1.0 / domega_dt(root)))
    }

    /// Total mass in seconds.
    pub fn total_mass_seconds(&self) -> T {
        self.total_mass_s
    }

    /// The start time t(f_min) in seconds relative to the peak (not rounded to the ns).
    pub fn start_time(&self) -> f64 {
        self.t_min * self.total_mass_s.re()
    }

    /// The (2,2) mode at time `t` in M relative to the peak, for a source at 1 Mpc.
    fn mode22_geometric(&self, t: T) -> Mode22<T> {
        let (omega, phase) = self.phase.omega_and_phase(t);
        Mode22 {
            amplitude: self.amp_fac * self.amplitude.modulus(t, omega),
            phase: phase - self.phase_ref,
        }
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

impl IMRPhenomT<f64> {
    /// Number of samples of LAL's grid: ⌊(500 − t_min)/Δt_M⌋.
    pub fn grid_length(&self) -> usize {
        ((T_END - self.t_min) / self.dt_m()).floor() as usize
    }

    fn dt_m(&self) -> f64 {
        self.delta_t / self.total_mass_s
    }

    /// LAL's epoch: t_min·M rounded to the nearest nanosecond (`XLALGPSAdd`).
    pub fn epoch_ns(&self) -> i64 {
        let t = self.t_min * self.total_mass_s;
        let seconds = t.floor();
        let nanos = ((t - seconds) * 1e9).round_ties_even();
        seconds as i64 * 1_000_000_000 + nanos as i64
    }

    /// The (2,2) mode on LAL's grid t_k = t_min + k·Δt_M (in M), for a source at 1 Mpc.
    pub fn mode22_on_grid(&self) -> Vec<Mode22<f64>> {
        let dt_m = self.dt_m();
        (0..self.grid_length())
            .map(|k| self.mode22_geometric(self.t_min + k as f64 * dt_m))
            .collect()
    }

    /// h₊ and h× on LAL's grid, as `SimInspiralChooseTDWaveform(IMRPhenomT)` returns them.
    pub fn polarizations_on_grid(
        &self,
        distance_mpc: f64,
        inclination: f64,
        phi_ref: f64,
    ) -> Polarizations {
        let projection = Projection::new(inclination, phi_ref);
        let inv_distance = 1.0 / distance_mpc;
        let dt_m = self.dt_m();
        let (hp, hc) = (0..self.grid_length())
            .map(|k| {
                let m = self.mode22_geometric(self.t_min + k as f64 * dt_m);
                projection.apply(m.amplitude * inv_distance, m.phase)
            })
            .unzip();
        Polarizations {
            epoch_ns: self.epoch_ns(),
            delta_t: self.delta_t,
            hp,
            hc,
        }
    }
}
