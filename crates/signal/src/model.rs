//! The signal model of a detector network: parameters → waveform → strain in each detector.

use std::cell::RefCell;
use std::rc::Rc;

use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};
use tdpe_phenomt::{
    Dual, IMRPhenomT, IMRPhenomTHM, Mode, Real, Settings, SmoothSteps, WaveformError,
};

use crate::error::SignalError;
use crate::params::{component_masses, BbhParameters, SpinModel};
use crate::precessing::{PrecessingGradientSource, PrecessingSource};
use crate::projection::{antenna, project, project_mode, AntennaGradient, ProjectionGradient};

/// The dual-number waveform a thread set up last: its settings, the bits of its four
/// parameters, and the waveform ([`SignalModel::waveform_with_derivatives`]), shared rather
/// than copied (it is a few kB).
type DualSetup = (Settings, [u64; 4], Rc<IMRPhenomT<Dual<4>>>);

thread_local! {
    static LAST_DUAL_SETUP: RefCell<Option<DualSetup>> = const { RefCell::new(None) };
}

/// IMRPhenomT's (2,2) mode, a set of IMRPhenomTHM's modes, or IMRPhenomTPHM (a precessing
/// binary), seen by a network of detectors.
#[derive(Clone, Debug)]
pub struct SignalModel {
    detectors: Vec<Detector>,
    epoch: GpsTime,
    gmst_at_epoch: f64,
    waveform: Settings,
    /// The modes (m > 0, each with its −m partner), in LAL's order; (2,2) alone by default;
    /// for a precessing binary, its co-precessing modes.
    modes: Vec<Mode>,
    /// Which spins the binary has.
    spin_model: SpinModel,
    /// The spin ODE's step counts for a precessing binary, if fixed for the analysis (otherwise
    /// those of [`SmoothSteps::for_binary`] at each point).
    precession_steps: Option<SmoothSteps>,
}

impl SignalModel {
    /// A model for `detectors` whose times are seconds relative to `epoch` (also the time
    /// origin of `geocent_time`). The 22 phase is zero where its frequency is `f_ref` (Hz);
    /// `delta_t` is the data's sampling interval (LAL's merger switch depends on it).
    ///
    /// The reference time is the exact root (see [`Settings::smooth`]), so the
    /// signal is a smooth function of the parameters.
    pub fn new(
        detectors: Vec<Detector>,
        epoch: GpsTime,
        f_ref: f64,
        delta_t: f64,
    ) -> Result<Self, SignalError> {
        Ok(Self {
            detectors,
            epoch,
            gmst_at_epoch: greenwich_mean_sidereal_time(epoch)?,
            waveform: Settings {
                f_min: f_ref,
                f_ref,
                delta_t,
                smooth: true,
            },
            modes: vec![Mode::L2M2],
            spin_model: SpinModel::Aligned,
            precession_steps: None,
        })
    }

    /// The same model for a precessing binary: IMRPhenomTPHM's smooth variant with its five
    /// co-precessing modes, whose strain is [`Self::precessing_strain`].
    pub fn precessing(mut self) -> Self {
        self.modes = Mode::ALL.to_vec();
        self.spin_model = SpinModel::Precessing;
        self
    }

    /// The same model with the spin ODE's step counts fixed: then the precessing strain is a
    /// smooth function of the parameters (counts that follow the parameters jump,
    /// [`SmoothSteps::for_binary`]).
    pub fn with_precession_steps(mut self, steps: SmoothSteps) -> Self {
        self.precession_steps = Some(steps);
        self
    }

    /// Which spins the binary has: the parameters the strain depends on.
    pub fn spin_model(&self) -> SpinModel {
        self.spin_model
    }

    /// The same model with IMRPhenomTHM's `modes` (each with its −m partner; at least one, none
    /// twice), kept in LAL's order.
    pub fn with_modes(mut self, modes: &[Mode]) -> Result<Self, SignalError> {
        if self.spin_model == SpinModel::Precessing {
            return Err(SignalError::Unsupported(
                "a mode array for a precessing binary (its five co-precessing modes are used)",
            ));
        }
        let mut sorted = modes.to_vec();
        sorted.sort();
        if sorted.is_empty() {
            return Err(WaveformError::NoModes.into());
        }
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            let (l, m) = pair[0].lm();
            return Err(WaveformError::RepeatedMode { l, m }.into());
        }
        self.modes = sorted;
        Ok(self)
    }

    /// The modes, in the order of [`Self::mode_projections`].
    pub fn modes(&self) -> &[Mode] {
        &self.modes
    }

    /// Whether the model is the (2,2) mode alone (IMRPhenomT).
    pub fn is_22_only(&self) -> bool {
        self.modes == [Mode::L2M2]
    }

    /// The detectors, in the order of every per-detector output.
    pub fn detectors(&self) -> &[Detector] {
        &self.detectors
    }

    /// The reference epoch.
    pub fn epoch(&self) -> GpsTime {
        self.epoch
    }

    /// The waveform settings.
    pub fn waveform_settings(&self) -> &Settings {
        &self.waveform
    }

    /// IMRPhenomT set up for a chirp mass (M☉), mass ratio m2/m1 and aligned spins, in any
    /// scalar (dual numbers seeded in these four give the waveform's derivatives).
    pub fn waveform<T: Real>(
        &self,
        chirp_mass: T,
        mass_ratio: T,
        chi_1: T,
        chi_2: T,
    ) -> Result<IMRPhenomT<T>, SignalError> {
        let (m1, m2) = checked_component_masses(chirp_mass, mass_ratio)?;
        IMRPhenomT::new(m1, m2, chi_1, chi_2, &self.waveform).map_err(reference_frequency_error)
    }

    /// IMRPhenomTHM with the model's modes, for the same parameters as [`Self::waveform`].
    pub fn mode_waveform<T: Real>(
        &self,
        chirp_mass: T,
        mass_ratio: T,
        chi_1: T,
        chi_2: T,
    ) -> Result<IMRPhenomTHM<T>, SignalError> {
        let (m1, m2) = checked_component_masses(chirp_mass, mass_ratio)?;
        IMRPhenomTHM::new(m1, m2, chi_1, chi_2, &self.waveform, &self.modes)
            .map_err(reference_frequency_error)
    }

    /// [`Self::waveform`] in dual numbers seeded in (chirp_mass, mass_ratio, chi_1, chi_2):
    /// the waveform with its derivatives in them. Each thread keeps its last set-up, so that
    /// the several users of one sampler step (a coordinate map, the likelihood's gradient; the
    /// prior and likelihood halves of a tempered density) pay for it once.
    pub fn waveform_with_derivatives(
        &self,
        chirp_mass: f64,
        mass_ratio: f64,
        chi_1: f64,
        chi_2: f64,
    ) -> Result<Rc<IMRPhenomT<Dual<4>>>, SignalError> {
        let key = [chirp_mass, mass_ratio, chi_1, chi_2].map(f64::to_bits);
        let cached = LAST_DUAL_SETUP.with_borrow(|last| match last {
            Some((settings, k, waveform)) if *settings == self.waveform && *k == key => {
                Some(Rc::clone(waveform))
            }
            _ => None,
        });
        if let Some(waveform) = cached {
            return Ok(waveform);
        }
        let waveform = Rc::new(self.waveform(
            Dual::variable(chirp_mass, 0),
            Dual::variable(mass_ratio, 1),
            Dual::variable(chi_1, 2),
            Dual::variable(chi_2, 3),
        )?);
        LAST_DUAL_SETUP.set(Some((self.waveform, key, Rc::clone(&waveform))));
        Ok(waveform)
    }

    /// Extrinsic factor and time delay of detector `k` with their gradient, for the (2,2) mode.
    pub fn projection(&self, k: usize, p: &BbhParameters) -> ProjectionGradient {
        project(&self.detectors[k], self.gmst_at_epoch, p)
    }

    /// Detector `k`'s factor Q_k,lm of each of the model's modes, with the time delay and their
    /// gradients: h_k(t) = Σ_lm Re[Q_k,lm · W_lm(t − t_c − τ_k)].
    pub fn mode_projections(&self, k: usize, p: &BbhParameters) -> Vec<ProjectionGradient> {
        self.modes
            .iter()
            .map(|mode| project_mode(&self.detectors[k], self.gmst_at_epoch, p, mode.lm()))
            .collect()
    }

    /// The strain of every detector at the times `start + i·dt` (s, relative to the epoch),
    /// i = 0..n ([`Self::precessing_strain`] for a precessing binary).
    pub fn strain(
        &self,
        p: &BbhParameters,
        start: f64,
        dt: f64,
        n: usize,
    ) -> Result<Vec<Vec<f64>>, SignalError> {
        if self.spin_model == SpinModel::Precessing {
            return self.precessing_strain(p, start, dt, n);
        }
        check_extrinsic(p)?;
        if !self.is_22_only() {
            return self.mode_strain(p, start, dt, n);
        }
        let waveform = self.waveform(p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2)?;
        Ok((0..self.detectors.len())
            .map(|k| {
                let proj = self.projection(k, p).value;
                (0..n)
                    .map(|i| {
                        let t = start + i as f64 * dt - p.geocent_time - proj.delay;
                        let m = waveform.mode22(t);
                        let (sin, cos) = m.phase.sin_cos();
                        // Re[Q · A e^(−iΦ)]
                        m.amplitude * (proj.factor.re * cos + proj.factor.im * sin)
                    })
                    .collect()
            })
            .collect())
    }

    /// The strain of every detector at the times `start + i·dt` (s, relative to the epoch),
    /// i = 0..n, for a precessing binary with bilby's spins (IMRPhenomTPHM's smooth variant;
    /// `p`'s chi_1 and chi_2 play no part), as a sum over its co-precessing modes
    /// (docs/precession.md §12). The spin ODE takes the model's fixed step counts
    /// ([`Self::with_precession_steps`]), or else those of [`SmoothSteps::for_binary`] for this
    /// binary.
    pub fn precessing_strain(
        &self,
        p: &BbhParameters,
        start: f64,
        dt: f64,
        n: usize,
    ) -> Result<Vec<Vec<f64>>, SignalError> {
        let source = self.precessing_source(p, start - p.geocent_time - MAX_EARTH_DELAY_S)?;
        Ok((0..self.detectors.len())
            .map(|k| {
                let a = self.antenna(k, p);
                (0..n)
                    .map(|i| {
                        let t = start + i as f64 * dt - p.geocent_time - a.delay;
                        source.strain(a.antenna, t)
                    })
                    .collect()
            })
            .collect())
    }

    /// Detector `k`'s antenna patterns K = F₊ + iF× and delay τ_k at `p`, with their
    /// gradients: a precessing source's signal there is a function of K and t − t_c − τ_k.
    pub fn antenna(&self, k: usize, p: &BbhParameters) -> AntennaGradient {
        antenna(&self.detectors[k], self.gmst_at_epoch, p)
    }

    /// The precessing source of `p` (bilby's spins; chi_1 and chi_2 play no part) whose frame
    /// is integrated from `t_start` (s, relative to the peak: the earliest time it will be
    /// asked for) in the model's fixed step counts ([`Self::with_precession_steps`]) or else
    /// those of [`SmoothSteps::for_binary`] for this binary.
    pub fn precessing_source(
        &self,
        p: &BbhParameters,
        t_start: f64,
    ) -> Result<PrecessingSource<f64>, SignalError> {
        let (mass_1, mass_2, steps) = self.precessing_setup(p, t_start)?;
        PrecessingSource::new(
            mass_1,
            mass_2,
            &p.precessing_spins(),
            p.theta_jn,
            p.phase,
            p.luminosity_distance,
            &self.waveform,
            t_start,
            steps,
        )
        .map_err(reference_frequency_in_source)
    }

    /// [`Self::precessing_source`] with what the gradient of its signal needs.
    pub fn precessing_gradient_source(
        &self,
        p: &BbhParameters,
        t_start: f64,
    ) -> Result<PrecessingGradientSource, SignalError> {
        let (_, _, steps) = self.precessing_setup(p, t_start)?;
        PrecessingGradientSource::new(p, &self.waveform, t_start, steps)
            .map_err(reference_frequency_in_source)
    }

    /// The spin ODE's step counts of a precessing binary at `p` whose frame starts at `t_start`
    /// (s, relative to the peak): the model's fixed ones, or else those of
    /// [`SmoothSteps::for_binary`].
    pub fn precession_steps(
        &self,
        p: &BbhParameters,
        t_start: f64,
    ) -> Result<SmoothSteps, SignalError> {
        Ok(self.precessing_setup(p, t_start)?.2)
    }

    /// The checked component masses of a precessing binary and the spin ODE's step counts.
    fn precessing_setup(
        &self,
        p: &BbhParameters,
        t_start: f64,
    ) -> Result<(f64, f64, SmoothSteps), SignalError> {
        check_extrinsic(p)?;
        let (mass_1, mass_2) = checked_component_masses(p.chirp_mass, p.mass_ratio)?;
        let steps = match self.precession_steps {
            Some(steps) => steps,
            None => {
                let (chi_1, chi_2) = p.precessing_spins().standard_orientation();
                SmoothSteps::for_binary(mass_1, mass_2, chi_1[2], chi_2[2], &self.waveform, t_start)
                    .map_err(reference_frequency_error)?
            }
        };
        Ok((mass_1, mass_2, steps))
    }

    /// [`Self::strain`] summed over the model's modes.
    fn mode_strain(
        &self,
        p: &BbhParameters,
        start: f64,
        dt: f64,
        n: usize,
    ) -> Result<Vec<Vec<f64>>, SignalError> {
        let waveform = self.mode_waveform(p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2)?;
        Ok((0..self.detectors.len())
            .map(|k| {
                let projections = self.mode_projections(k, p);
                // Every mode has the same delay: the detector's.
                let delay = projections[0].value.delay;
                (0..n)
                    .map(|i| {
                        let t = start + i as f64 * dt - p.geocent_time - delay;
                        let modes = waveform.modes_at(t);
                        projections
                            .iter()
                            .zip(modes)
                            .map(|(q, (re, im))| {
                                // Re[Q · (re + i im)]
                                q.value.factor.re * re - q.value.factor.im * im
                            })
                            .sum()
                    })
                    .collect()
            })
            .collect())
    }
}

/// An upper bound on any site's delay from the geocentre (the Earth's radius over c is
/// 21.3 ms): how much earlier than the geocentre's a detector's segment may start.
pub const MAX_EARTH_DELAY_S: f64 = 0.03;

/// The component masses of a chirp mass (M☉) and mass ratio m2/m1, each checked.
fn checked_component_masses<T: Real>(chirp_mass: T, mass_ratio: T) -> Result<(T, T), SignalError> {
    let (mc, q) = (chirp_mass.re(), mass_ratio.re());
    if !(mc > 0.0 && mc.is_finite()) {
        return Err(SignalError::OutOfRange {
            name: "chirp_mass",
            value: mc,
            allowed: "(0, ∞) M☉",
        });
    }
    if !(q > 0.0 && q <= 1.0) {
        return Err(SignalError::OutOfRange {
            name: "mass_ratio",
            value: q,
            allowed: "(0, 1] (m2/m1)",
        });
    }
    Ok(component_masses(chirp_mass, mass_ratio))
}

/// The model starts at f_ref (the data's segment bounds the waveform, not a starting
/// frequency): a frequency it cannot reach is the user's reference_frequency.
fn reference_frequency_error(error: WaveformError) -> SignalError {
    match error {
        WaveformError::FrequencyNotReached {
            name: "minimum_frequency",
            value,
            lowest_hz,
            peak_hz,
            ringdown_hz,
        } => WaveformError::FrequencyNotReached {
            name: "reference_frequency",
            value,
            lowest_hz,
            peak_hz,
            ringdown_hz,
        }
        .into(),
        other => other.into(),
    }
}

/// [`reference_frequency_error`] of a waveform error in a precessing source.
fn reference_frequency_in_source(error: SignalError) -> SignalError {
    match error {
        SignalError::Waveform(error) => reference_frequency_error(error),
        other => other,
    }
}

/// Distance must be positive and every angle finite.
fn check_extrinsic(p: &BbhParameters) -> Result<(), SignalError> {
    if !(p.luminosity_distance > 0.0 && p.luminosity_distance.is_finite()) {
        return Err(SignalError::OutOfRange {
            name: "luminosity_distance",
            value: p.luminosity_distance,
            allowed: "(0, ∞) Mpc",
        });
    }
    for (name, value) in [
        ("theta_jn", p.theta_jn),
        ("psi", p.psi),
        ("phase", p.phase),
        ("geocent_time", p.geocent_time),
        ("ra", p.ra),
        ("dec", p.dec),
    ] {
        if !value.is_finite() {
            return Err(SignalError::OutOfRange {
                name,
                value,
                allowed: "finite values",
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept set-up serves only the same settings and parameters, and is the fresh one.
    #[test]
    fn dual_setup_is_reused_only_for_the_same_waveform() {
        let epoch = GpsTime::from_f64(1126259462.4).unwrap();
        let detectors = vec![Detector::from_name("H1").unwrap()];
        let model = |f_ref: f64| SignalModel::new(detectors.clone(), epoch, f_ref, 1.0 / 2048.0);
        let (a, b) = (model(20.0).unwrap(), model(25.0).unwrap());
        let lambda = (28.0, 0.8, 0.3, -0.2);
        let phase_at = |m: &SignalModel, mc: f64| {
            let w = m
                .waveform_with_derivatives(mc, lambda.1, lambda.2, lambda.3)
                .unwrap();
            let fresh = m
                .waveform(
                    Dual::<4>::variable(mc, 0),
                    Dual::variable(lambda.1, 1),
                    Dual::variable(lambda.2, 2),
                    Dual::variable(lambda.3, 3),
                )
                .unwrap();
            let t = Dual::from(-0.05);
            let (kept, fresh) = (w.mode22(t).phase, fresh.mode22(t).phase);
            assert_eq!((kept.re, kept.eps), (fresh.re, fresh.eps));
            kept.re
        };
        let first = phase_at(&a, lambda.0);
        // Same parameters: served from the kept set-up, identical.
        assert_eq!(phase_at(&a, lambda.0), first);
        // Another f_ref or chirp mass: a different waveform, not the kept one.
        assert_ne!(phase_at(&b, lambda.0), first);
        assert_ne!(phase_at(&a, lambda.0 + 1e-9), first);
        assert_eq!(phase_at(&a, lambda.0), first);
    }

    /// The model starts at f_ref, so a frequency it cannot reach is reference_frequency's.
    #[test]
    fn an_unreachable_reference_frequency_is_named() {
        let epoch = GpsTime::from_f64(1126259462.4).unwrap();
        let model = SignalModel::new(vec![], epoch, 2000.0, 1.0 / 4096.0).unwrap();
        let error = model
            .waveform(28.0, 0.8, 0.3, -0.2)
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("reference_frequency = 2000 Hz cannot be reached"),
            "{error}"
        );
    }
}
