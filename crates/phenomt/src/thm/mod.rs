//! IMRPhenomTHM: the (2,2) mode of IMRPhenomT with the (2,1), (3,3), (4,4) and (5,5) modes of
//! Estellés et al., arXiv:2012.11923, as LALSuite builds them (`XLALSimIMRPhenomTHM_Modes`,
//! `LALSimIMRPhenomTHM_OneMode`); docs/imrphenomt.md §12.
//!
//! A higher mode's inspiral (t < −150 M) is its complex PN amplitude at x = (ω22/2)^(2/3) with
//! m/2 times the (2,2) phase; after −150 M its amplitude and frequency have the (2,2)'s merger
//! and ringdown forms with the mode's own fits. Every mode is a closed-form function of the time
//! relative to the peak of |h22|, generic over [`Real`].
//!
//! - `mode.rs`: the modes, their fits and PN amplitudes;
//! - `amplitude.rs`: a higher mode's amplitude;
//! - `phase.rs`: a higher mode's phase after −150 M.

mod amplitude;
mod mode;
mod phase;
#[cfg(test)]
mod tests;

pub use mode::Mode;

use self::amplitude::{Complex, ModeAmplitude, T_CUT};
use self::mode::{HigherMode, ModeFits};
use self::phase::ModePhase;
use crate::error::WaveformError;
use crate::fits;
use crate::harmonics::spin_weighted_y;
use crate::model::{IMRPhenomT, Mode22, Polarizations, Settings};
use crate::phase::{BinaryVariables, Phase22};
use crate::ringdown::{RingdownAmplitude, RingdownPhase};
use crate::scalar::Real;

/// A higher mode, set up for one binary.
#[derive(Clone, Debug)]
struct HigherModeModel<T> {
    mode: HigherMode,
    /// `None` where the mode vanishes identically (odd m, equal masses and spins).
    coefficients: Option<(ModeAmplitude<T>, ModePhase<T>)>,
}

/// The (2,2) mode's ringdown with a final spin other than the aligned-spin one.
#[derive(Clone, Debug)]
struct Ringdown22<T> {
    amplitude: RingdownAmplitude<T>,
    phase: RingdownPhase<T>,
}

impl<T: Real> Ringdown22<T> {
    /// The QNMs of `vars.ringdown_final_spin` in LAL's `_prec` ringdown coefficients of the 22
    /// amplitude and phase (docs/precession.md §2.2).
    fn new(vars: &BinaryVariables<T>, phase22: &Phase22<T>) -> Self {
        let (af, mf) = (vars.ringdown_final_spin, vars.final_mass);
        let two_pi = 2.0 * std::f64::consts::PI;
        let alpha1 = fits::qnm_fdamp_22(af) / mf * two_pi;
        let alpha2 = fits::qnm_fdamp_n2_22(af) / mf * two_pi;
        let amplitude = RingdownAmplitude::new(
            fits::peak_amp_22(&vars.fits),
            fits::rd_amp_c3_22(&vars.fits),
            alpha1,
            alpha2,
        );
        let omega_ring = fits::qnm_fring_22(af) / mf * two_pi;
        Self {
            amplitude,
            phase: phase22.ringdown_phase_with(omega_ring),
        }
    }
}

/// IMRPhenomTHM, set up for one binary and a set of modes: evaluates each mode h_lm (m > 0) and
/// the polarisations at any time.
#[derive(Clone, Debug)]
pub struct IMRPhenomTHM<T> {
    /// The (2,2) model, which every mode reads (its frequency, phase and reference phase).
    model22: IMRPhenomT<T>,
    /// Whether (2,2) is among the modes.
    with_22: bool,
    higher: Vec<HigherModeModel<T>>,
    /// The (2,2) ringdown when it has its own final spin; otherwise `model22`'s.
    ringdown22: Option<Ringdown22<T>>,
}

impl<T: Real> IMRPhenomTHM<T> {
    /// Sets up the modes `modes` (each at most once; LAL's order is [`Mode::ALL`]) for component
    /// masses `m1`, `m2` (M☉, detector frame) and aligned spins; the checks and conventions are
    /// those of [`IMRPhenomT::new`].
    pub fn new(
        m1: T,
        m2: T,
        chi1: T,
        chi2: T,
        settings: &Settings,
        modes: &[Mode],
    ) -> Result<Self, WaveformError> {
        Self::set_up(m1, m2, chi1, chi2, settings, modes, None)
    }

    /// IMRPhenomTPHM's co-precessing modes: [`Self::new`] with the final spin `ringdown_spin`
    /// (the precessing one, in [−1, 1]) in place of the aligned-spin one in every mode's
    /// ringdown amplitude and phase, after each mode's peak; the merger keeps the aligned-spin
    /// final state (LAL's `afinal_prec` with MergerVersion 1; docs/precession.md §2.2).
    pub fn with_ringdown_spin(
        m1: T,
        m2: T,
        chi1: T,
        chi2: T,
        settings: &Settings,
        modes: &[Mode],
        ringdown_spin: T,
    ) -> Result<Self, WaveformError> {
        Self::set_up(m1, m2, chi1, chi2, settings, modes, Some(ringdown_spin))
    }

    fn set_up(
        m1: T,
        m2: T,
        chi1: T,
        chi2: T,
        settings: &Settings,
        modes: &[Mode],
        ringdown_spin: Option<T>,
    ) -> Result<Self, WaveformError> {
        if let Some(spin) = ringdown_spin {
            let value = spin.re();
            if value.is_nan() || value.abs() > 1.0 {
                return Err(WaveformError::OutOfRange {
                    name: "ringdown final spin",
                    value,
                    allowed: "[-1, 1]",
                });
            }
        }
        if modes.is_empty() {
            return Err(WaveformError::NoModes);
        }
        for (i, mode) in modes.iter().enumerate() {
            if modes[..i].contains(mode) {
                let (l, m) = mode.lm();
                return Err(WaveformError::RepeatedMode { l, m });
            }
        }
        let (model22, mut vars) = IMRPhenomT::with_variables(m1, m2, chi1, chi2, settings)?;
        let phase22 = model22.phase22();
        let ringdown22 = ringdown_spin.map(|spin| {
            vars.ringdown_final_spin = spin;
            Ringdown22::new(&vars, phase22)
        });
        let higher = modes
            .iter()
            .filter_map(|mode| mode.higher())
            .map(|mode| {
                let coefficients = (!mode.vanishes(&vars)).then(|| {
                    let fits = ModeFits::new(mode, &vars);
                    let exact = settings.smooth;
                    let amplitude = ModeAmplitude::new(mode, &vars, phase22, &fits, exact);
                    let phase = ModePhase::new(mode, vars.eta, phase22, &amplitude, &fits, exact);
                    (amplitude, phase)
                });
                HigherModeModel { mode, coefficients }
            })
            .collect();
        Ok(Self {
            with_22: modes.contains(&Mode::L2M2),
            model22,
            higher,
            ringdown22,
        })
    }

    /// The modes, in the order of evaluation: (2,2) first if set up, then the higher modes.
    pub fn modes(&self) -> Vec<Mode> {
        let first = self.with_22.then_some(Mode::L2M2);
        first
            .into_iter()
            .chain(self.higher.iter().map(|h| h.mode.mode()))
            .collect()
    }

    /// The (2,2) model underneath.
    pub fn model22(&self) -> &IMRPhenomT<T> {
        &self.model22
    }

    /// Every mode h_lm (m > 0) at time `t_m` in M relative to the peak of |h22|, for a source
    /// at 1 Mpc, as (re, im) in the order of [`Self::modes`].
    fn modes_geometric(&self, t_m: T) -> Vec<Complex<T>> {
        self.selected_modes_geometric(t_m, |_| true)
    }

    /// [`Self::modes_geometric`] with zero in place of each mode whose index is not `wanted`.
    fn selected_modes_geometric(&self, t_m: T, wanted: impl Fn(usize) -> bool) -> Vec<Complex<T>> {
        let zero = (T::from(0.0), T::from(0.0));
        let (omega22, phase22, h22) = self.model22.parts_geometric(t_m);
        let first = self.with_22.then(|| {
            if wanted(0) {
                self.mode22(t_m, &h22)
            } else {
                zero
            }
        });
        let offset = usize::from(self.with_22);
        first
            .into_iter()
            .chain(self.higher.iter().enumerate().map(|(k, h)| {
                if wanted(k + offset) {
                    self.higher_mode(h, t_m, omega22, phase22)
                } else {
                    zero
                }
            }))
            .collect()
    }

    /// The (2,2) mode at `t_m` (M), given the (2,2) model's value there.
    fn mode22(&self, t_m: T, h22: &Mode22<T>) -> Complex<T> {
        match &self.ringdown22 {
            Some(ringdown) if t_m.re() > 0.0 => mode22_complex(&Mode22 {
                amplitude: self.model22.amp_fac() * ringdown.amplitude.value(t_m),
                phase: ringdown.phase.phase(t_m) - self.model22.phase_ref(),
            }),
            _ => mode22_complex(h22),
        }
    }

    /// A higher mode at `t_m` (M), from the (2,2) frequency and phase there.
    fn higher_mode(&self, h: &HigherModeModel<T>, t_m: T, omega22: T, phase22: T) -> Complex<T> {
        let Some((amplitude, phase)) = &h.coefficients else {
            return (T::from(0.0), T::from(0.0));
        };
        let half_m = h.mode.half_m();
        // h_lm = amp_fac·A·e^(−i(Φ − (m/2)φ22(t_ref) − φ_off)), A complex before −150 M.
        let (a, phi) = if t_m.re() < T_CUT {
            let x = (omega22 * 0.5).powf(2.0 / 3.0);
            (amplitude.inspiral(x), phase22 * half_m)
        } else {
            let a = amplitude.merger_ringdown(t_m);
            (
                (a, T::from(0.0)),
                phase.merger_ringdown(t_m) - amplitude.phi_cut,
            )
        };
        let arg = phi - self.model22.phase_ref() * half_m - h.mode.phase_offset();
        let (sin, cos) = arg.sin_cos();
        let amp_fac = self.model22.amp_fac();
        // (a_re + i a_im)(cos − i sin)
        (
            (a.0 * cos + a.1 * sin) * amp_fac,
            (a.1 * cos - a.0 * sin) * amp_fac,
        )
    }

    /// The `index`-th mode of [`Self::modes`] alone at time `t` (s) relative to the peak of
    /// |h22|, for a source at 1 Mpc, as (re, im): one mode at its own times (relative binning
    /// places each mode's nodes apart). Panics if `index` is not below `modes().len()`.
    pub fn mode_at(&self, index: usize, t: T) -> (T, T) {
        let t_m = t / self.model22.total_mass_seconds();
        let (omega22, phase22, h22) = self.model22.parts_geometric(t_m);
        match (self.with_22, index) {
            (true, 0) => self.mode22(t_m, &h22),
            (true, i) => self.higher_mode(&self.higher[i - 1], t_m, omega22, phase22),
            (false, i) => self.higher_mode(&self.higher[i], t_m, omega22, phase22),
        }
    }

    /// Every mode h_lm (m > 0) at time `t` in seconds relative to the peak of |h22|, for a
    /// source at 1 Mpc (scale by 1 Mpc / distance), as (re, im) in the order of
    /// [`Self::modes`]; h_{l,−m} = (−1)^l conj(h_lm).
    pub fn modes_at(&self, t: T) -> Vec<(T, T)> {
        self.modes_geometric(t / self.model22.total_mass_seconds())
    }

    /// [`Self::modes_at`] of only the modes whose `wanted` entry (in the order of
    /// [`Self::modes`]) is true, the others zero: where a caller needs a few of the modes at a
    /// time, the rest cost nothing.
    pub fn selected_modes_at(&self, t: T, wanted: &[bool]) -> Vec<(T, T)> {
        let t_m = t / self.model22.total_mass_seconds();
        self.selected_modes_geometric(t_m, |k| wanted.get(k).copied().unwrap_or(false))
    }

    /// h₊ and h× at time `t` (s, relative to the peak) for a source at `distance_mpc`, seen at
    /// `inclination` with reference phase `phi_ref` (rad): h₊ − i h× = Σ_{l,±m} h_lm
    /// ₋₂Y_lm(ι, π/2 − φ_ref), as LAL sums the modes.
    pub fn polarizations(&self, t: T, distance_mpc: T, inclination: T, phi_ref: T) -> (T, T) {
        let harmonics = self.harmonics(inclination, phi_ref);
        let modes = self.modes_at(t);
        sum_modes(&modes, &harmonics, T::from(1.0) / distance_mpc)
    }

    /// For each mode, ₋₂Y_lm and ₋₂Y_{l,−m}(−1)^l at (ι, π/2 − φ_ref).
    fn harmonics(&self, inclination: T, phi_ref: T) -> Vec<[Complex<T>; 2]> {
        let azimuth = -(phi_ref - std::f64::consts::PI / 2.0);
        self.modes()
            .into_iter()
            .map(|mode| {
                let (l, m) = mode.lm();
                let m = m as i32;
                let parity = if l % 2 == 0 { 1.0 } else { -1.0 };
                let minus = spin_weighted_y(l, -m, inclination, azimuth);
                [
                    spin_weighted_y(l, m, inclination, azimuth),
                    (minus.0 * parity, minus.1 * parity),
                ]
            })
            .collect()
    }
}

/// h22 = A e^(−iΦ) as (re, im).
fn mode22_complex<T: Real>(h22: &Mode22<T>) -> Complex<T> {
    let (sin, cos) = h22.phase.sin_cos();
    (h22.amplitude * cos, -(h22.amplitude * sin))
}

/// (h₊, h×) from the modes h_lm (m > 0) and their harmonics ([`IMRPhenomTHM::harmonics`]):
/// h₊ − i h× = Σ h_lm Y_lm + conj(h_lm) (−1)^l Y_{l,−m}, times `scale`.
fn sum_modes<T: Real>(modes: &[Complex<T>], harmonics: &[[Complex<T>; 2]], scale: T) -> (T, T) {
    let (mut re, mut im) = (T::from(0.0), T::from(0.0));
    for (&(h_re, h_im), &[(y_re, y_im), (z_re, z_im)]) in modes.iter().zip(harmonics) {
        re += h_re * y_re - h_im * y_im + h_re * z_re + h_im * z_im;
        im += h_re * y_im + h_im * y_re + h_re * z_im - h_im * z_re;
    }
    (re * scale, -(im * scale))
}

impl IMRPhenomTHM<f64> {
    /// Every mode on LAL's grid (that of [`IMRPhenomT::polarizations_on_grid`]), for a source at
    /// 1 Mpc: one vector of (re, im) per mode, in the order of [`Self::modes`].
    pub fn modes_on_grid(&self) -> Vec<Vec<(f64, f64)>> {
        let mut out = vec![Vec::new(); self.modes().len()];
        for t in self.model22.grid_times() {
            for (column, h) in out.iter_mut().zip(self.modes_geometric(t)) {
                column.push(h);
            }
        }
        out
    }

    /// h₊ and h× on LAL's grid, as `SimInspiralChooseTDWaveform(IMRPhenomTHM)` returns them for
    /// these modes.
    pub fn polarizations_on_grid(
        &self,
        distance_mpc: f64,
        inclination: f64,
        phi_ref: f64,
    ) -> Polarizations {
        let harmonics = self.harmonics(inclination, phi_ref);
        let scale = 1.0 / distance_mpc;
        let (hp, hc) = self
            .model22
            .grid_times()
            .map(|t| sum_modes(&self.modes_geometric(t), &harmonics, scale))
            .unzip();
        self.model22.on_grid(hp, hc)
    }
}
