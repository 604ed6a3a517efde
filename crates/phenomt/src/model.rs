//! The IMRPhenomT (2,2) model: set-up from the binary's parameters, then the mode and the
//! polarisations at any time relative to the peak of |h22|.
//!
//! Reproduces LAL's `XLALSimIMRPhenomT` (LALSimIMRPhenomTHM.c): units, the start and reference
//! times found by GSL's Brent solver, the reference phase, the sample grid and the epoch.

use std::sync::OnceLock;

use crate::amplitude::{Amplitude22, T_CUT_AMP};
use crate::constants::{MPC_SI, MRSUN_SI, MSUN_SI, MTSUN_SI};
use crate::error::WaveformError;
use crate::harmonics::Projection;
use crate::phase::{BinaryVariables, Phase22};
use crate::roots::{RootFinder, T_END};
use crate::scalar::{Dual, Lanes, Real};
use crate::vmath;

/// Times evaluated together by [`IMRPhenomT::mode22_traced_many`] and
/// [`IMRPhenomT::h22_many`].
const STAGE: usize = 8;
/// Times per block of [`IMRPhenomT::h22_many`]: their intermediate results stay on the stack.
const BLOCK: usize = 64;
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
            smooth,
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
        let phase = Phase22::new(&vars, dt_m, smooth);
        let amplitude = Amplitude22::new(&vars, &phase);

        // The root searches run on the coefficients' values (bit-identical to an f64 set-up).
        let roots = RootFinder::new(&phase, total_mass_s.re());
        let t_min = OnceLock::new();
        let t_ref = if smooth {
            // t_min is LAL's Brent iterate, found on first use; here only whether it exists.
            roots.check_reached(f_min, "minimum_frequency")?;
            if f_ref != f_min {
                roots.check_reached(f_ref, "reference_frequency")?;
            }
            roots.exact(f_ref)
        } else {
            let t = roots.brent(f_min, "minimum_frequency")?;
            t_min.get_or_init(|| t);
            if f_ref == f_min {
                t
            } else {
                roots.brent(f_ref, "reference_frequency")?
            }
        };
        let t_ref = roots.lift(&phase, total_mass_s, f_ref, t_ref);
        let phase_ref = phase.omega_and_phase(t_ref).1;
        Ok(Self {
            phase,
            amplitude,
            total_mass_s,
            amp_fac: total_mass_s / (MPC_SI * (MTSUN_SI / MRSUN_SI)),
            t_min,
            f_min,
            phase_ref,
            delta_t,
        })
    }

    /// The start time t(f_min) in M, as LAL's root finder returns it.
    fn t_min(&self) -> f64 {
        *self.t_min.get_or_init(|| {
            let roots = RootFinder::new(&self.phase, self.total_mass_s.re());
            // `new` checked the bracket, which is all that makes Brent fail.
            roots
                .brent(self.f_min, "minimum_frequency")
                .expect("f_min is reached")
        })
    }

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
    /// [`Self::mode22`] at time `t` (s), with what its reverse mode
    /// ([`Self::mode22_adjoint`]) needs.
    pub fn mode22_traced(&self, t: f64) -> (Mode22<f64>, Mode22Trace) {
        let t = t / self.total_mass_s;
        let (omega, phase, phase_trace) = self.phase.omega_and_phase_traced(t);
        let (modulus, amplitude_trace) = self.amplitude.modulus_traced(t, omega);
        let mode = Mode22 {
            amplitude: self.amp_fac * modulus,
            phase: phase - self.phase_ref,
        };
        let trace = Mode22Trace {
            t,
            omega,
            modulus,
            phase: phase_trace,
            amplitude: amplitude_trace,
        };
        (mode, trace)
    }

    /// [`Self::mode22_traced`] at each of `times` (s), into `out`, with the same results. The
    /// times are taken eight at a time and stage by stage (all phases, then all amplitudes;
    /// in the inspiral all logarithms, then all exponentials, …), so that the CPU overlaps the
    /// independent work of different times instead of waiting on one time's chain of it; the
    /// inspiral's polynomials run on [`Lanes`], which vectorise.
    pub fn mode22_traced_many(&self, times: &[f64], out: &mut [(Mode22<f64>, Mode22Trace)]) {
        assert_eq!(times.len(), out.len(), "one output per time");
        let (phase, amplitude) = (&self.phase, &self.amplitude);
        let inspiral_end = (phase.t_cut - phase.dt_m).min(T_CUT_AMP);
        // The coefficients on every lane, made at the first run of inspiral times.
        let mut lanes: Option<(Phase22<Lanes<STAGE>>, Amplitude22<Lanes<STAGE>>)> = None;
        for (times, out) in times.chunks(STAGE).zip(out.chunks_mut(STAGE)) {
            let n = times.len();
            let t: [f64; STAGE] =
                std::array::from_fn(|i| times.get(i).map_or(-1.0, |&t| t / self.total_mass_s));
            let mut traces: [Mode22Trace; STAGE] = std::array::from_fn(|i| Mode22Trace {
                t: t[i],
                ..Default::default()
            });
            let mut phases = [0.0; STAGE];
            if t.iter().all(|&t| t < inspiral_end) {
                let lanes = lanes.get_or_insert_with(|| {
                    (self.phase.map(Lanes::from), self.amplitude.map(Lanes::from))
                });
                inspiral_on_lanes(lanes, t, &mut traces, &mut phases);
            } else {
                for i in 0..n {
                    let (omega, p, trace) = phase.omega_and_phase_traced(t[i]);
                    (traces[i].omega, phases[i], traces[i].phase) = (omega, p, trace);
                }
                for trace in &mut traces[..n] {
                    (trace.modulus, trace.amplitude) =
                        amplitude.modulus_traced(trace.t, trace.omega);
                }
            }
            for (i, o) in out.iter_mut().enumerate() {
                let mode = Mode22 {
                    amplitude: self.amp_fac * traces[i].modulus,
                    phase: phases[i] - self.phase_ref,
                };
                *o = (mode, traces[i]);
            }
        }
    }

    /// h22 = A·e^(−iΦ) of [`Self::mode22`] at each of `times` (s), as (Re, Im) into `out`:
    /// for likelihoods that need the mode's values at a few hundred given times (relative
    /// binning's nodes). Every region (inspiral, merger, ringdown of phase and amplitude)
    /// runs eight times at a time on lanes with the lane-wise elementary functions of
    /// `vmath` (fdlibm's algorithms; ln, exp within 1 ulp, ln(1 + x) within 2 ulp of libm,
    /// sin and cos within 5e-16), vectorised with AVX2 where the CPU has it (the same bits
    /// as the portable path). The result equals [`Self::mode22`]'s to ~1e-15 relative in the
    /// amplitude and ~1e-13 rad in the phase (tests: `h22_many_matches_mode22`).
    pub fn h22_many(&self, times: &[f64], out: &mut [[f64; 2]]) {
        assert_eq!(times.len(), out.len(), "one output per time");
        self.staged(times, &mut [], out);
    }

    /// [`Self::h22_many`] with, into `modes`, the mode and what its reverse mode
    /// ([`Self::mode22_adjoint_many`]) needs, as [`Self::mode22_traced_many`] (whose values these
    /// equal to the tolerance of [`Self::h22_many`]).
    pub fn h22_traced_many(
        &self,
        times: &[f64],
        modes: &mut [(Mode22<f64>, Mode22Trace)],
        out: &mut [[f64; 2]],
    ) {
        assert_eq!(times.len(), out.len(), "one output per time");
        assert_eq!(times.len(), modes.len(), "one mode per time");
        self.staged(times, modes, out);
    }

    /// [`Self::h22_many`] (`modes` empty) or [`Self::h22_traced_many`]: with AVX2 where the
    /// CPU has it.
    fn staged(
        &self,
        times: &[f64],
        modes: &mut [(Mode22<f64>, Mode22Trace)],
        out: &mut [[f64; 2]],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.staged_avx2(times, modes, out) };
        }
        self.staged_portable(times, modes, out);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn staged_avx2(
        &self,
        times: &[f64],
        modes: &mut [(Mode22<f64>, Mode22Trace)],
        out: &mut [[f64; 2]],
    ) {
        self.staged_body(times, modes, out);
    }

    fn staged_portable(
        &self,
        times: &[f64],
        modes: &mut [(Mode22<f64>, Mode22Trace)],
        out: &mut [[f64; 2]],
    ) {
        self.staged_body(times, modes, out);
    }

    /// The body of [`Self::staged`]: blocks of [`BLOCK`] times; in each, the phase and then
    /// the amplitude, region by region (the times of one region gathered eight at a time
    /// onto lanes), then sin and cos of the phases.
    #[inline(always)]
    fn staged_body(
        &self,
        times: &[f64],
        modes: &mut [(Mode22<f64>, Mode22Trace)],
        out: &mut [[f64; 2]],
    ) {
        let (phase, amplitude) = (&self.phase, &self.amplitude);
        let phase_inspiral_end = phase.t_cut - phase.dt_m;
        let lanes: (Phase22<Lanes<STAGE>>, Amplitude22<Lanes<STAGE>>) =
            (phase.map(Lanes::from), amplitude.map(Lanes::from));
        let traced = !modes.is_empty();
        for (block, (times, out)) in times.chunks(BLOCK).zip(out.chunks_mut(BLOCK)).enumerate() {
            let n = times.len();
            let mut t = [0.0; BLOCK];
            for (t, &time) in t.iter_mut().zip(times) {
                *t = time / self.total_mass_s;
            }
            // Phase: ω, φ and the phase trace.
            let mut omega = [0.0; BLOCK];
            let mut phi = [0.0; BLOCK];
            let mut phase_trace = [[0.0; BLOCK]; 2];
            let (idx, count) = regions(&t[..n], phase_inspiral_end);
            for r in 0..3 {
                for idx in idx[r][..count[r]].chunks(STAGE) {
                    let tl = gather(&t, idx);
                    let (w, p, tr) = match r {
                        0 => Phase22::inspiral_on_lanes(&lanes.0, tl),
                        1 => phase.merger_on_lanes(tl),
                        _ => phase.ringdown_on_lanes(tl),
                    };
                    scatter(idx, w, &mut omega);
                    scatter(idx, p, &mut phi);
                    scatter(idx, tr[0], &mut phase_trace[0]);
                    scatter(idx, tr[1], &mut phase_trace[1]);
                }
            }
            // Amplitude: the modulus and its trace.
            let mut modulus = [0.0; BLOCK];
            let mut amplitude_trace = [[0.0; BLOCK]; 2];
            let (idx, count) = regions(&t[..n], T_CUT_AMP);
            for r in 0..3 {
                for idx in idx[r][..count[r]].chunks(STAGE) {
                    let (m, tr) = match r {
                        0 => Amplitude22::inspiral_on_lanes(&lanes.1, gather(&omega, idx)),
                        1 => amplitude.merger_on_lanes(gather(&t, idx)),
                        _ => amplitude.ringdown_on_lanes(gather(&t, idx)),
                    };
                    scatter(idx, m, &mut modulus);
                    scatter(idx, tr[0], &mut amplitude_trace[0]);
                    scatter(idx, tr[1], &mut amplitude_trace[1]);
                }
            }
            // h22 = A·e^(−iΦ).
            for k in (0..n).step_by(STAGE) {
                let a = Lanes::<STAGE>(std::array::from_fn(|i| {
                    self.amp_fac * modulus[(k + i).min(BLOCK - 1)]
                }));
                let p = Lanes::<STAGE>(std::array::from_fn(|i| {
                    phi[(k + i).min(BLOCK - 1)] - self.phase_ref
                }));
                let (sin, cos) = vmath::sin_cos(p);
                for (i, o) in out[k..n.min(k + STAGE)].iter_mut().enumerate() {
                    *o = [a.0[i] * cos.0[i], -(a.0[i] * sin.0[i])];
                }
                if traced {
                    let modes = &mut modes[block * BLOCK + k..block * BLOCK + n.min(k + STAGE)];
                    for (i, m) in modes.iter_mut().enumerate() {
                        let j = k + i;
                        *m = (
                            Mode22 {
                                amplitude: a.0[i],
                                phase: p.0[i],
                            },
                            Mode22Trace {
                                t: t[j],
                                omega: omega[j],
                                modulus: modulus[j],
                                phase: [phase_trace[0][j], phase_trace[1][j]],
                                amplitude: [amplitude_trace[0][j], amplitude_trace[1][j]],
                            },
                        );
                    }
                }
            }
        }
    }

    /// Reverse mode of [`Self::mode22`] (h22 = A e^(−iΦ)) at the time of `trace` (from
    /// [`Self::mode22_traced`]): adds to `adjoint` the derivatives of ā·A + φ̄·Φ with respect to
    /// the model's coefficients at fixed time, and returns its derivative in time (1/s). Summed
    /// over many times and contracted once by [`IMRPhenomT::gradient`], this is the gradient of
    /// a function of the mode at those times for a fraction of an f64 evaluation per time,
    /// where dual numbers would carry every direction through every time.
    pub fn mode22_adjoint(
        &self,
        trace: &Mode22Trace,
        amplitude_bar: f64,
        phase_bar: f64,
        adjoint: &mut Mode22Adjoint,
    ) -> f64 {
        let (m, t, omega) = (self.total_mass_s, trace.t, trace.omega);
        adjoint.amp_fac += amplitude_bar * trace.modulus;
        adjoint.phase_ref -= phase_bar;
        let (t_bar_amplitude, omega_bar) = self.amplitude.modulus_adjoint(
            t,
            omega,
            trace.amplitude,
            amplitude_bar * self.amp_fac,
            &mut adjoint.amplitude,
        );
        let t_bar = t_bar_amplitude
            + self.phase.omega_and_phase_adjoint(
                t,
                trace.phase,
                omega_bar,
                phase_bar,
                &mut adjoint.phase,
            );
        // t = t_s/M: ∂/∂M = −(t/M)·∂/∂t.
        adjoint.total_mass_s -= t_bar * t / m;
        t_bar / m
    }

    /// [`Self::mode22_adjoint`] at the times of all `modes` (from [`Self::h22_traced_many`] or
    /// [`Self::mode22_traced_many`]), with weights `amplitude_bar` and `phase_bar`: adds the
    /// same to `adjoint` and returns the sum of the time derivatives, equal to the one-time
    /// calls up to the order of the sums. Per block of times, the amplitude's and then the
    /// phase's regions (whose boundaries differ) are gathered eight times at a time onto
    /// [`Lanes`], with AVX2 where the CPU has it (the same bits as the portable path).
    pub fn mode22_adjoint_many(
        &self,
        modes: &[(Mode22<f64>, Mode22Trace)],
        amplitude_bar: &[f64],
        phase_bar: &[f64],
        adjoint: &mut Mode22Adjoint,
    ) -> f64 {
        assert_eq!(
            modes.len(),
            amplitude_bar.len(),
            "one amplitude weight per time"
        );
        assert_eq!(modes.len(), phase_bar.len(), "one phase weight per time");
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2.
            return unsafe { self.adjoint_many_avx2(modes, amplitude_bar, phase_bar, adjoint) };
        }
        self.adjoint_many_portable(modes, amplitude_bar, phase_bar, adjoint)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn adjoint_many_avx2(
        &self,
        modes: &[(Mode22<f64>, Mode22Trace)],
        amplitude_bar: &[f64],
        phase_bar: &[f64],
        adjoint: &mut Mode22Adjoint,
    ) -> f64 {
        self.adjoint_many_body(modes, amplitude_bar, phase_bar, adjoint)
    }

    fn adjoint_many_portable(
        &self,
        modes: &[(Mode22<f64>, Mode22Trace)],
        amplitude_bar: &[f64],
        phase_bar: &[f64],
        adjoint: &mut Mode22Adjoint,
    ) -> f64 {
        self.adjoint_many_body(modes, amplitude_bar, phase_bar, adjoint)
    }

    /// The body of [`Self::mode22_adjoint_many`]: blocks of [`BLOCK`] times; in each, the
    /// amplitude (whose inspiral gives ω's weight to the phase) and then the phase, region by
    /// region, accumulating on lanes; the lanes are summed at the end.
    #[inline(always)]
    fn adjoint_many_body(
        &self,
        modes: &[(Mode22<f64>, Mode22Trace)],
        amplitude_bar: &[f64],
        phase_bar: &[f64],
        adjoint: &mut Mode22Adjoint,
    ) -> f64 {
        let (phase, amplitude) = (&self.phase, &self.amplitude);
        let phase_inspiral_end = phase.t_cut - phase.dt_m;
        // Accumulators, each continuing the sum so far in its first lane.
        let mut phase_adjoint = adjoint.phase.map(Lanes::<STAGE>::first);
        let mut amplitude_adjoint = adjoint.amplitude.map(Lanes::<STAGE>::first);
        let mut amp_fac_bar = Lanes::<STAGE>::from(0.0);
        let mut phase_bar_sum = Lanes::<STAGE>::from(0.0);
        // Σ t̄ and Σ t̄·t (t in M) over the times.
        let mut t_bar_sum = Lanes::<STAGE>::from(0.0);
        let mut t_t_bar_sum = Lanes::<STAGE>::from(0.0);
        let blocks = modes
            .chunks(BLOCK)
            .zip(amplitude_bar.chunks(BLOCK))
            .zip(phase_bar.chunks(BLOCK));
        for ((modes, amplitude_bar), phase_bar) in blocks {
            let n = modes.len();
            let mut t = [0.0; BLOCK];
            let mut omega = [0.0; BLOCK];
            let mut modulus = [0.0; BLOCK];
            let mut phase_trace = [[0.0; BLOCK]; 2];
            let mut amplitude_trace = [[0.0; BLOCK]; 2];
            for (i, (_, trace)) in modes.iter().enumerate() {
                (t[i], omega[i], modulus[i]) = (trace.t, trace.omega, trace.modulus);
                [phase_trace[0][i], phase_trace[1][i]] = trace.phase;
                [amplitude_trace[0][i], amplitude_trace[1][i]] = trace.amplitude;
            }
            // Amplitude: t̄ in the merger and ringdown, ω̄ (for the phase) in the inspiral.
            let mut omega_bar = [0.0; BLOCK];
            let (idx, count) = regions(&t[..n], T_CUT_AMP);
            for r in 0..3 {
                for idx in idx[r][..count[r]].chunks(STAGE) {
                    let a_bar = gather_weights(amplitude_bar, idx);
                    amp_fac_bar += a_bar * gather(&modulus, idx);
                    let modulus_bar = a_bar * self.amp_fac;
                    let trace = [
                        gather(&amplitude_trace[0], idx),
                        gather(&amplitude_trace[1], idx),
                    ];
                    let t = gather(&t, idx);
                    let adj = &mut amplitude_adjoint;
                    let t_bar = match r {
                        0 => {
                            let w = gather(&omega, idx);
                            let w_bar = amplitude.inspiral_adjoint(w, trace, modulus_bar, adj);
                            scatter(idx, w_bar, &mut omega_bar);
                            continue;
                        }
                        1 => amplitude.merger_adjoint(t, trace, modulus_bar, adj),
                        _ => amplitude.ringdown_adjoint(t, trace, modulus_bar, adj),
                    };
                    t_bar_sum += t_bar;
                    t_t_bar_sum += t_bar * t;
                }
            }
            // Phase.
            let (idx, count) = regions(&t[..n], phase_inspiral_end);
            for r in 0..3 {
                for idx in idx[r][..count[r]].chunks(STAGE) {
                    let (w_bar, p_bar) = (
                        gather_weights(&omega_bar, idx),
                        gather_weights(phase_bar, idx),
                    );
                    phase_bar_sum += p_bar;
                    let trace = [gather(&phase_trace[0], idx), gather(&phase_trace[1], idx)];
                    let t = gather(&t, idx);
                    let adj = &mut phase_adjoint;
                    let t_bar = match r {
                        0 => phase.inspiral_adjoint(t, trace, w_bar, p_bar, adj),
                        1 => phase.merger_adjoint(t, trace, w_bar, p_bar, adj),
                        _ => phase.ringdown_adjoint(t, trace, w_bar, p_bar, adj),
                    };
                    t_bar_sum += t_bar;
                    t_t_bar_sum += t_bar * t;
                }
            }
        }
        adjoint.phase = phase_adjoint.map(Lanes::sum);
        adjoint.amplitude = amplitude_adjoint.map(Lanes::sum);
        adjoint.amp_fac += amp_fac_bar.sum();
        adjoint.phase_ref -= phase_bar_sum.sum();
        // t = t_s/M: ∂/∂M = −(t/M)·∂/∂t.
        let m = self.total_mass_s;
        adjoint.total_mass_s -= t_t_bar_sum.sum() / m;
        t_bar_sum.sum() / m
    }

    /// Number of samples of LAL's grid: ⌊(500 − t_min)/Δt_M⌋.
    pub fn grid_length(&self) -> usize {
        ((T_END - self.t_min()) / self.dt_m()).floor() as usize
    }

    fn dt_m(&self) -> f64 {
        self.delta_t / self.total_mass_s
    }

    /// LAL's epoch: t_min·M rounded to the nearest nanosecond (`XLALGPSAdd`).
    pub fn epoch_ns(&self) -> i64 {
        let t = self.t_min() * self.total_mass_s;
        let seconds = t.floor();
        let nanos = ((t - seconds) * 1e9).round_ties_even();
        seconds as i64 * 1_000_000_000 + nanos as i64
    }

    /// The (2,2) mode on LAL's grid t_k = t_min + k·Δt_M (in M), for a source at 1 Mpc.
    pub fn mode22_on_grid(&self) -> Vec<Mode22<f64>> {
        let (t_min, dt_m) = (self.t_min(), self.dt_m());
        (0..self.grid_length())
            .map(|k| self.mode22_geometric(t_min + k as f64 * dt_m))
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
        let (t_min, dt_m) = (self.t_min(), self.dt_m());
        let (hp, hc) = (0..self.grid_length())
            .map(|k| {
                let m = self.mode22_geometric(t_min + k as f64 * dt_m);
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

impl<const N: usize> IMRPhenomT<Dual<N>> {
    /// The gradient, in the model's N seeded directions, of the function whose coefficient
    /// adjoints `adjoint` holds (from [`IMRPhenomT::mode22_adjoint`] on [`Self::values`]):
    /// Σ_coefficients adjoint · derivative.
    pub fn gradient(&self, adjoint: &Mode22Adjoint) -> [f64; N] {
        let mut g = [0.0; N];
        let mut add = |value: Dual<N>, bar: f64| {
            for (gk, e) in g.iter_mut().zip(value.eps) {
                *gk += bar * e;
            }
        };
        for (value, bar) in self.phase.fields().into_iter().zip(adjoint.phase.fields()) {
            add(value, bar);
        }
        let amplitude = self.amplitude.fields().into_iter();
        for (value, bar) in amplitude.zip(adjoint.amplitude.fields()) {
            add(value, bar);
        }
        add(self.total_mass_s, adjoint.total_mass_s);
        add(self.amp_fac, adjoint.amp_fac);
        add(self.phase_ref, adjoint.phase_ref);
        g
    }
}

/// The inspiral's `omega_and_phase_traced` and `modulus_traced` at eight times (in M) on
/// [`Lanes`], split at each transcendental function: into `traces` (their ω, modulus and
/// transcendental results) and `phases`.
fn inspiral_on_lanes(
    (phase, amplitude): &(Phase22<Lanes<STAGE>>, Amplitude22<Lanes<STAGE>>),
    t: [f64; STAGE],
    traces: &mut [Mode22Trace; STAGE],
    phases: &mut [f64; STAGE],
) {
    let eta = phase.eta.0[0];
    let ln_theta = Lanes(t).map(|t| (eta * t * -0.2).ln() * -0.125);
    let theta = ln_theta.map(f64::exp);
    let (omega, p) = phase.inspiral_omega_and_phase(theta, ln_theta);
    let ln_half_omega = (omega * 0.5).map(f64::ln);
    let v = (ln_half_omega * (1.0 / 3.0)).map(f64::exp);
    let ln_16x = ln_half_omega * (2.0 / 3.0) + 16f64.ln();
    let (scale, squared) = amplitude.inspiral_modulus_parts(v, ln_16x);
    let modulus = scale * squared.map(f64::sqrt);
    *phases = p.0;
    for (i, trace) in traces.iter_mut().enumerate() {
        trace.omega = omega.0[i];
        trace.modulus = modulus.0[i];
        trace.phase = [ln_theta.0[i], theta.0[i]];
        trace.amplitude = [v.0[i], ln_16x.0[i]];
    }
}

/// The indices of `t` in each region, and their numbers: 0 before `end` (the inspiral), 2
/// after the peak (the ringdown), 1 between. (No closures on the vectorised path: they would
/// not inherit its target features.)
#[inline(always)]
fn regions(t: &[f64], end: f64) -> ([[usize; BLOCK]; 3], [usize; 3]) {
    let mut idx = [[0usize; BLOCK]; 3];
    // Counts in registers rather than an array indexed by region: no chain of stores and
    // loads through memory.
    let (mut inspiral, mut merger, mut ringdown) = (0, 0, 0);
    for (i, &t) in t.iter().enumerate() {
        if t < end {
            idx[0][inspiral] = i;
            inspiral += 1;
        } else if t > 0.0 {
            idx[2][ringdown] = i;
            ringdown += 1;
        } else {
            idx[1][merger] = i;
            merger += 1;
        }
    }
    (idx, [inspiral, merger, ringdown])
}

/// The first of `idx` if they are [`STAGE`] consecutive indices (as [`regions`] gives them
/// for ascending times), which move to and from lanes with one load or store.
#[inline(always)]
fn run_start(idx: &[usize]) -> Option<usize> {
    // `regions` lists indices in increasing order, so equal spans mean consecutive ones.
    (idx.len() == STAGE && idx[STAGE - 1] - idx[0] == STAGE - 1).then_some(idx[0])
}

/// `x` at `idx` (1 to [`STAGE`] indices) on lanes, the last repeated into the spare lanes
/// (so that they stay in the same region).
#[inline(always)]
fn gather(x: &[f64; BLOCK], idx: &[usize]) -> Lanes<STAGE> {
    if let Some(i) = run_start(idx) {
        return Lanes(std::array::from_fn(|k| x[i + k]));
    }
    let last = idx.len() - 1;
    Lanes(std::array::from_fn(|i| x[idx[i.min(last)]]))
}

/// `x` at `idx` (1 to [`STAGE`] indices) on lanes, zero in the spare lanes: weights, so that
/// the spare lanes (which repeat a time) add nothing.
#[inline(always)]
fn gather_weights(x: &[f64], idx: &[usize]) -> Lanes<STAGE> {
    if let Some(i) = run_start(idx) {
        return Lanes(std::array::from_fn(|k| x[i + k]));
    }
    Lanes(std::array::from_fn(|i| idx.get(i).map_or(0.0, |&j| x[j])))
}

/// The lanes of `v` to `x` at `idx`.
#[inline(always)]
fn scatter(idx: &[usize], v: Lanes<STAGE>, x: &mut [f64; BLOCK]) {
    if let Some(i) = run_start(idx) {
        x[i..i + STAGE].copy_from_slice(&v.0);
        return;
    }
    for (i, &j) in idx.iter().enumerate() {
        x[j] = v.0[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (m1, m2, χ1, χ2): mass ratios 1.2–12 (so the merger phase starts before and after
    /// −150 M), total masses 12–190 M☉, spins ±0.9.
    const POINTS: [[f64; 4]; 6] = [
        [36.0, 29.0, 0.3, -0.2],
        [12.0, 10.0, -0.5, 0.6],
        [40.0, 10.0, 0.8, 0.1],
        [150.0, 40.0, -0.9, -0.3],
        [8.0, 4.0, 0.0, 0.9],
        [120.0, 10.0, 0.5, 0.2],
    ];

    /// Times from the start through the inspiral, merger and ringdown, in an order that
    /// mixes the regions within blocks, and more than one block.
    fn times(model: &IMRPhenomT<f64>) -> Vec<f64> {
        let (t0, m) = (model.start_time(), model.total_mass_seconds());
        let mut times: Vec<f64> = (0..300)
            .map(|k| {
                let u = k as f64 / 299.0;
                // Dense near the peak: −400 M … 60 M over the last two thirds.
                if k < 100 {
                    t0 * (1.0 - 3.0 * u) - 400.0 * m * 3.0 * u
                } else {
                    -400.0 * m + 460.0 * m * (u - 1.0 / 3.0) * 1.5
                }
            })
            .collect();
        times.swap(3, 250);
        times.swap(70, 290);
        times
    }

    #[test]
    fn h22_many_matches_mode22() {
        let settings = Settings::lal(20.0, 20.0, 1.0 / 4096.0);
        let (mut worst_amp, mut worst_phase): (f64, f64) = (0.0, 0.0);
        for p in POINTS {
            let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
            let times = times(&model);
            let mut out = vec![[0.0; 2]; times.len()];
            let mut modes = vec![Default::default(); times.len()];
            let mut out_traced = out.clone();
            model.h22_many(&times, &mut out);
            model.h22_traced_many(&times, &mut modes, &mut out_traced);
            let mut reference = vec![Default::default(); times.len()];
            model.mode22_traced_many(&times, &mut reference);
            for (i, &t) in times.iter().enumerate() {
                let exact = model.mode22(t);
                let (mode, trace) = modes[i];
                let (_, ref_trace) = reference[i];
                assert_eq!(out[i], out_traced[i]);
                let amp = (mode.amplitude - exact.amplitude).abs() / exact.amplitude;
                let phase = (mode.phase - exact.phase).abs();
                worst_amp = worst_amp.max(amp);
                // Relative to the phase before the reference value is subtracted.
                worst_phase = worst_phase.max(phase / (exact.phase.abs() + model.phase_ref.abs()));
                // The traces feed the adjoint: the same quantities to rounding.
                assert_eq!(trace.t, ref_trace.t);
                for (a, b) in [
                    (trace.omega, ref_trace.omega),
                    (trace.modulus, ref_trace.modulus),
                    (trace.phase[0], ref_trace.phase[0]),
                    (trace.phase[1], ref_trace.phase[1]),
                    (trace.amplitude[0], ref_trace.amplitude[0]),
                    (trace.amplitude[1], ref_trace.amplitude[1]),
                ] {
                    assert!((a - b).abs() <= 1e-13 * b.abs().max(1e-3), "{a} vs {b}");
                }
                // h22 = A e^(−iΦ).
                let (s, c) = exact.phase.sin_cos();
                let h = [exact.amplitude * c, -exact.amplitude * s];
                for k in 0..2 {
                    assert!(
                        (out[i][k] - h[k]).abs()
                            <= 1e-12 * exact.amplitude * exact.phase.abs().max(1.0),
                        "p = {p:?}, t = {t}: {:?} vs {h:?}",
                        out[i]
                    );
                }
            }
        }
        // The phase before its reference value is subtracted reaches 1e3–1e5 rad, and the
        // inspiral amplitude's series cancels near −150 M, which amplifies ulps of x.
        println!(
            "h22_many vs mode22: amplitude {worst_amp:.1e}, phase {worst_phase:.1e} (relative)"
        );
        assert!(worst_amp < 1e-13, "{worst_amp:e}");
        assert!(worst_phase < 1e-14, "{worst_phase:e}");
    }

    /// The AVX2 path (where the CPU has it) gives the same bits as the portable one.
    #[test]
    fn h22_many_same_bits_on_every_path() {
        let settings = Settings::lal(20.0, 20.0, 1.0 / 2048.0);
        for p in POINTS {
            let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
            let times = times(&model);
            let n = times.len();
            let (mut a, mut b) = (vec![[0.0; 2]; n], vec![[0.0; 2]; n]);
            let mut ma: Vec<(Mode22<f64>, Mode22Trace)> = vec![Default::default(); n];
            let mut mb = ma.clone();
            model.staged(&times, &mut ma, &mut a);
            model.staged_portable(&times, &mut mb, &mut b);
            for i in 0..n {
                assert_eq!(a[i][0].to_bits(), b[i][0].to_bits());
                assert_eq!(a[i][1].to_bits(), b[i][1].to_bits());
                let (x, y) = (&ma[i], &mb[i]);
                assert_eq!(x.0, y.0);
                assert_eq!(format!("{:?}", x.1), format!("{:?}", y.1));
            }
        }
    }

    type Weighted = (Vec<(Mode22<f64>, Mode22Trace)>, Vec<f64>, Vec<f64>);

    /// Traced modes at [`times`] and at the region boundaries of phase and amplitude, with
    /// weights of order one per unit of ln A and of Φ (amplitude, phase).
    fn weighted_modes(model: &IMRPhenomT<f64>) -> Weighted {
        let m = model.total_mass_seconds();
        let phase_inspiral_end = model.phase.t_cut - model.phase.dt_m;
        let mut times = times(model);
        times.extend(
            [
                phase_inspiral_end - 1e-9,
                phase_inspiral_end,
                -200.0,
                T_CUT_AMP,
                -140.0,
                -1e-3,
                0.0,
                1e-3,
                300.0,
            ]
            .map(|t| t * m),
        );
        let mut modes = vec![Default::default(); times.len()];
        model.mode22_traced_many(&times, &mut modes);
        let amplitude_bar = (modes.iter().enumerate())
            .map(|(i, (mode, _))| (1.0 + 0.3 * (i % 7) as f64) / mode.amplitude)
            .collect();
        let phase_bar = (0..times.len())
            .map(|i| 0.7 - 0.2 * (i % 5) as f64)
            .collect();
        (modes, amplitude_bar, phase_bar)
    }

    /// Every coefficient adjoint of `a`.
    fn adjoint_fields(a: &Mode22Adjoint) -> Vec<f64> {
        let mut fields = a.phase.fields().to_vec();
        fields.extend(a.amplitude.fields());
        fields.extend([a.total_mass_s, a.amp_fac, a.phase_ref]);
        fields
    }

    /// The batch adjoint adds to the adjoint, and returns, what the one-time adjoints do, to
    /// rounding (relative to the sum of the terms' magnitudes): times in every region of
    /// phase and amplitude, mixed, in pieces of 0, 1, 7, 1, 64 (a block), 9 and the rest
    /// accumulated into one adjoint.
    #[test]
    fn adjoint_many_matches_one_time_at_a_time() {
        let settings = Settings {
            smooth: true,
            ..Settings::lal(20.0, 20.0, 1.0 / 4096.0)
        };
        let mut worst: f64 = 0.0;
        for p in POINTS {
            let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
            let (modes, amplitude_bar, phase_bar) = weighted_modes(&model);
            let (mut one_at_a_time, mut many) = Default::default();
            let mut scale = vec![0.0; adjoint_fields(&many).len()];
            let mut start = 0;
            for len in [0, 1, 7, 1, 64, 9, modes.len() - 82] {
                let piece = start..start + len;
                start += len;
                let (mut dt, mut dt_scale) = (0.0, 0.0);
                for i in piece.clone() {
                    let mut single = Mode22Adjoint::default();
                    let (a_bar, p_bar) = (amplitude_bar[i], phase_bar[i]);
                    let dt_i = model.mode22_adjoint(&modes[i].1, a_bar, p_bar, &mut single);
                    model.mode22_adjoint(&modes[i].1, a_bar, p_bar, &mut one_at_a_time);
                    (dt, dt_scale) = (dt + dt_i, dt_scale + dt_i.abs());
                    for (s, x) in scale.iter_mut().zip(adjoint_fields(&single)) {
                        *s += x.abs();
                    }
                }
                let dt_many = model.mode22_adjoint_many(
                    &modes[piece.clone()],
                    &amplitude_bar[piece.clone()],
                    &phase_bar[piece],
                    &mut many,
                );
                let err = (dt_many - dt).abs() / dt_scale.max(f64::MIN_POSITIVE);
                assert!(
                    err < 1e-13,
                    "p = {p:?}, {len} times: d/dt {dt_many} vs {dt}"
                );
                worst = worst.max(err);
                let fields = adjoint_fields(&one_at_a_time).into_iter();
                for (k, (x, y)) in adjoint_fields(&many).into_iter().zip(fields).enumerate() {
                    let err = (x - y).abs() / scale[k].max(f64::MIN_POSITIVE);
                    assert!(err < 1e-13, "p = {p:?}, {len} times, field {k}: {x} vs {y}");
                    worst = worst.max(err);
                }
            }
        }
        println!("adjoint_many vs mode22_adjoint: {worst:.1e} (relative)");
    }

    /// The AVX2 path (where the CPU has it) gives the same bits as the portable one.
    #[test]
    fn adjoint_many_same_bits_on_every_path() {
        let settings = Settings::lal(20.0, 20.0, 1.0 / 2048.0);
        for p in POINTS {
            let model = IMRPhenomT::new(p[0], p[1], p[2], p[3], &settings).unwrap();
            let (modes, amplitude_bar, phase_bar) = weighted_modes(&model);
            let (mut a, mut b) = Default::default();
            let x = model.mode22_adjoint_many(&modes, &amplitude_bar, &phase_bar, &mut a);
            let y = model.adjoint_many_portable(&modes, &amplitude_bar, &phase_bar, &mut b);
            assert_eq!(x.to_bits(), y.to_bits());
            for (x, y) in adjoint_fields(&a).into_iter().zip(adjoint_fields(&b)) {
                assert_eq!(x.to_bits(), y.to_bits());
            }
        }
    }
}
