//! Set-up: from the component masses, aligned spins and [`Settings`] to the coefficients of the
//! phase and amplitude, the reference time t(f_ref) and the reference phase, with LAL's checks
//! of the parameters (docs/imrphenomt.md §2.1–2.4, §3).

use std::sync::OnceLock;

use super::{IMRPhenomT, Settings};
use crate::amplitude::Amplitude22;
use crate::constants::{MPC_SI, MRSUN_SI, MSUN_SI, MTSUN_SI};
use crate::error::WaveformError;
use crate::phase::{BinaryVariables, Phase22};
use crate::roots::RootFinder;
use crate::scalar::Real;

/// Largest component mass in M☉: beyond ~1e277 M☉ the mass in kg (LAL's unit) overflows.
const MAX_MASS: f64 = 1e270;
/// Largest mass ratio the model accepts.
const MAX_MASS_RATIO: f64 = 200.0;

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
        Ok(Self::with_variables(m1, m2, chi1, chi2, settings)?.0)
    }

    /// [`Self::new`], with the binary's variables that the set-up of the higher modes reads.
    pub(crate) fn with_variables(
        m1: T,
        m2: T,
        chi1: T,
        chi2: T,
        settings: &Settings,
    ) -> Result<(Self, BinaryVariables<T>), WaveformError> {
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
        let model = Self {
            phase,
            amplitude,
            total_mass_s,
            amp_fac: total_mass_s / (MPC_SI * (MTSUN_SI / MRSUN_SI)),
            t_min,
            f_min,
            phase_ref,
            delta_t,
        };
        Ok((model, vars))
    }

    /// The start time t(f_min) in M, as LAL's root finder returns it.
    pub(crate) fn t_min(&self) -> f64 {
        *self.t_min.get_or_init(|| {
            let roots = RootFinder::new(&self.phase, self.total_mass_s.re());
            // `new` checked the bracket, which is all that makes Brent fail.
            roots
                .brent(self.f_min, "minimum_frequency")
                .expect("f_min is reached")
        })
    }
}
