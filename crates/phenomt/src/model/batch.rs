//! h22 at many times: staged evaluation (eight times at a time, stage by stage) and the
//! vectorised evaluation of every region on lanes, with AVX2 where the CPU has it
//! (docs/imrphenomt.md §7.4).

use super::lanes::{gather, regions, scatter, BLOCK, STAGE};
use super::{IMRPhenomT, Mode22, Mode22Trace};
use crate::amplitude::{Amplitude22, T_CUT_AMP};
use crate::phase::Phase22;
use crate::scalar::Lanes;
use crate::vmath;

impl IMRPhenomT<f64> {
    /// [`Self::mode22_traced`] at each of `times` (s), into `out`, with the same results. The
    /// times are taken eight at a time and stage by stage (all phases, then all amplitudes;
    /// in the inspiral all logarithms, then all exponentials, …), so that the CPU overlaps the
    /// independent work of different times instead of waiting on one time's chain of it; the
    /// inspiral's polynomials run on lanes, which vectorise.
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
    pub(super) fn staged(
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
        self.staged_body(times, modes, out);
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

    /// The body of [`Self::staged`], its portable path (and, inlined into
    /// `staged_avx2`, its AVX2 one): blocks of [`BLOCK`] times; in each, the phase and then
    /// the amplitude, region by region (the times of one region gathered eight at a time
    /// onto lanes), then sin and cos of the phases.
    #[inline(always)]
    pub(super) fn staged_body(
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
