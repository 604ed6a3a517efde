//! The time t(f) at which the 22 frequency reaches f: the start time t(f_min) and the reference
//! time t(f_ref), as LAL finds them (GSL Brent on [−1e9, 500] M with relative bracket
//! tolerance 1e-4, its last iterate: docs/imrphenomt.md §3.2, §10.5) or exactly (§3.4), and the
//! root's derivatives with respect to the binary's parameters (§3.5).
//!
//! The searches solve g(t) = 2π·M·f − ω22(t) = 0 on the coefficients' values (bit-identical to
//! an f64 set-up), with `Phase22::omega_for_root`, LAL's view of ω22.

use crate::error::WaveformError;
use crate::gsl;
use crate::phase::Phase22;
use crate::scalar::{Dual, Real};

/// The model's waveform ends at t = +500 M (`tEnd`).
pub(crate) const T_END: f64 = 500.0;
/// Brent bracket start in M: t(f_min) must lie after it.
const T_BRACKET_START: f64 = -1e9;
/// Newton steps in ln(−t) from the leading-order guess (typically four or five).
const MAX_LOG_STEPS: usize = 16;
/// Where the steps in ln(−t) hand over to Newton in t.
const LOG_STEP_TOLERANCE: f64 = 1e-7;
/// Newton steps in t that polish a root (quadratic convergence from 1e-7 needs two or three).
const MAX_NEWTON_STEPS: usize = 8;

/// Root searches on one binary's 22 frequency.
pub(crate) struct RootFinder {
    values: Phase22<f64>,
    /// The same coefficients with a derivative direction for time: ω and dω/dt in one pass.
    slopes: Phase22<Dual<1>>,
    total_mass_s: f64,
}

impl RootFinder {
    pub(crate) fn new<T: Real>(phase: &Phase22<T>, total_mass_s: f64) -> Self {
        Self {
            values: phase.values_as(),
            slopes: phase.values_as(),
            total_mass_s,
        }
    }

    /// 2π·M·f in rad/M.
    fn target(&self, f_hz: f64) -> f64 {
        self.total_mass_s * f_hz * std::f64::consts::TAU
    }

    fn g(&self, t: f64, target: f64) -> f64 {
        target - self.values.omega_for_root(t)
    }

    /// (ω(t), dω/dt); ω bit-identical to `values.omega_for_root(t)`.
    fn omega_and_slope(&self, t: f64) -> (f64, f64) {
        let w = self.slopes.omega_for_root(Dual::variable(t, 0));
        (w.re, w.eps[0])
    }

    fn not_reached(&self, f_hz: f64, name: &'static str) -> WaveformError {
        let m = self.total_mass_s * std::f64::consts::TAU;
        WaveformError::FrequencyNotReached {
            name,
            value: f_hz,
            lowest_hz: self.values.omega_for_root(T_BRACKET_START) / m,
            peak_hz: self.values.omega_peak / m,
            ringdown_hz: self.values.omega_ring / m,
        }
    }

    /// The error LAL's search would give, without the search: [−1e9, 500] M must bracket the
    /// root.
    pub(crate) fn check_reached(&self, f_hz: f64, name: &'static str) -> Result<(), WaveformError> {
        let target = self.target(f_hz);
        if gsl::brackets(self.g(T_BRACKET_START, target), self.g(T_END, target)) {
            Ok(())
        } else {
            Err(self.not_reached(f_hz, name))
        }
    }

    /// LAL's t(f): GSL Brent's last iterate.
    pub(crate) fn brent(&self, f_hz: f64, name: &'static str) -> Result<f64, WaveformError> {
        let target = self.target(f_hz);
        gsl::brent_root(|t| self.g(t, target), T_BRACKET_START, T_END, 1e-4, 1000)
            .map_err(|_| self.not_reached(f_hz, name))
    }

    /// t(f) to rounding, for f bracketed ([`Self::check_reached`]). Starts from leading-order
    /// TaylorT3, ω = θ³/4 with θ = (−ηt/5)^(−1/8) (arXiv:2004.08302 App. A1), and takes Newton
    /// steps on ln ω in ln(−t), where ω is nearly linear (ω ∝ (−t)^(−3/8)); then Newton steps
    /// on g in t. Where that fails (a root in the ringdown, or at a jump of `omega_for_root`)
    /// Brent's iterate is the start.
    pub(crate) fn exact(&self, f_hz: f64) -> f64 {
        let target = self.target(f_hz);
        let theta8 = (4.0 * target).cbrt().powi(8);
        let mut t = -5.0 / (self.values.eta * theta8);
        let mut converged = false;
        for _ in 0..MAX_LOG_STEPS {
            let (w, dw) = self.omega_and_slope(t);
            // u = ln(−t): Δu = −ln(ω/target) / (d ln ω/du), d ln ω/du = t·ω'/ω.
            let du = -(w / target).ln() * w / (t * dw);
            if !du.is_finite() {
                break;
            }
            t *= du.exp();
            if du.abs() <= LOG_STEP_TOLERANCE {
                converged = true;
                break;
            }
        }
        if !converged {
            t = gsl::brent_root(|t| self.g(t, target), T_BRACKET_START, T_END, 1e-4, 1000)
                .unwrap_or(t);
        }
        for _ in 0..MAX_NEWTON_STEPS {
            let (w, dw) = self.omega_and_slope(t);
            let step = (target - w) / dw;
            t += step;
            if step.abs() <= 4.0 * f64::EPSILON * t.abs() {
                break;
            }
        }
        t
    }

    /// The root `t` of g for frequency `f_hz` with its derivatives: by the implicit function
    /// theorem dt/dp = −(∂g/∂p)/(∂g/∂t), ∂g/∂t = −dω/dt.
    pub(crate) fn lift<T: Real>(
        &self,
        phase: &Phase22<T>,
        total_mass_s: T,
        f_hz: f64,
        t: f64,
    ) -> T {
        if !T::DERIVATIVES {
            return T::from(t);
        }
        let g = total_mass_s * f_hz * std::f64::consts::TAU - phase.omega_for_root(T::from(t));
        g.lift(t, 1.0 / self.omega_and_slope(t).1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constants::MTSUN_SI;
    use crate::phase::BinaryVariables;

    /// The exact root agrees with Brent's iterate polished by Newton (the previous definition),
    /// across masses, spins and frequencies, including roots in the merger.
    #[test]
    fn exact_root_is_the_polished_brent_root() {
        for &(m1, m2) in &[
            (36.0, 29.0),
            (1.6, 1.3),
            (10.0, 1.0),
            (150.0, 140.0),
            (300.0, 20.0),
        ] {
            for &(c1, c2) in &[(0.0, 0.0), (0.99, -0.99), (-0.9, 0.5), (0.8, 0.8)] {
                let vars = BinaryVariables::new(m1, m2, c1, c2);
                let total_mass_s = (m1 + m2) * MTSUN_SI;
                let phase = Phase22::new(&vars, 1.0 / 4096.0 / total_mass_s, false);
                let roots = RootFinder::new(&phase, total_mass_s);
                for &f in &[5.0, 10.0, 20.0, 60.0, 150.0] {
                    if roots.check_reached(f, "f").is_err() {
                        continue;
                    }
                    let mut t = roots.brent(f, "f").unwrap();
                    let target = roots.target(f);
                    for _ in 0..MAX_NEWTON_STEPS {
                        let (w, dw) = roots.omega_and_slope(t);
                        t += (target - w) / dw;
                    }
                    let exact = roots.exact(f);
                    let err = (exact - t).abs() / t.abs();
                    // ω's rounding noise (cancelling pseudo-PN terms) blurs the root by ~1e-13.
                    assert!(err < 1e-12, "{m1} {m2} {c1} {c2} {f} Hz: {exact} vs {t}");
                }
            }
        }
    }
}
