//! The reverse mode: the mode at one time with the trace of its transcendental functions, the
//! adjoints of the coefficients at one time or at many (on lanes, with AVX2 where the CPU has
//! it), and their contraction with a dual set-up into a gradient (docs/imrphenomt.md §9.3, §9.4).

use super::lanes::{gather, gather_weights, regions, scatter, BLOCK, STAGE};
use super::{IMRPhenomT, Mode22, Mode22Adjoint, Mode22Trace};
use crate::amplitude::T_CUT_AMP;
use crate::scalar::{Dual, Lanes};

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
    /// lanes, with AVX2 where the CPU has it (the same bits as the portable path).
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
        self.adjoint_many_body(modes, amplitude_bar, phase_bar, adjoint)
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

    /// The body of [`Self::mode22_adjoint_many`], its portable path (and, inlined into
    /// `adjoint_many_avx2`, its AVX2 one): blocks of [`BLOCK`] times; in each, the amplitude
    /// (whose inspiral gives ω's weight to the phase) and then the phase, region by region,
    /// accumulating on lanes; the lanes are summed at the end.
    #[inline(always)]
    pub(super) fn adjoint_many_body(
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
