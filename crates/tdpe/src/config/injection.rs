//! The `[injection]` table: an injected binary, its noise and its waveform model.

use serde::{Deserialize, Serialize};
use tdpe_phenomt::Mode;

use super::Config;
use crate::waveform_model::{mode_names, Approximant};

/// An injected binary (bilby names and units) and its noise.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Injection {
    /// Detector-frame primary mass in M☉ (give mass_1 and mass_2, or chirp_mass and
    /// mass_ratio).
    pub mass_1: Option<f64>,
    /// Detector-frame secondary mass in M☉.
    pub mass_2: Option<f64>,
    /// Detector-frame chirp mass in M☉.
    pub chirp_mass: Option<f64>,
    /// m2/m1 ≤ 1.
    pub mass_ratio: Option<f64>,
    /// Aligned spin of the heavier body.
    #[serde(default)]
    pub chi_1: f64,
    /// Aligned spin of the lighter body.
    #[serde(default)]
    pub chi_2: f64,
    /// Precessing spins (IMRPhenomTPHM's), bilby's: the dimensionless spin magnitudes, their
    /// tilts from the orbital angular momentum, the azimuth between the in-plane spins and
    /// that of L about J, at the reference frequency (rad).
    #[serde(default)]
    pub a_1: f64,
    #[serde(default)]
    pub a_2: f64,
    #[serde(default)]
    pub tilt_1: f64,
    #[serde(default)]
    pub tilt_2: f64,
    #[serde(default)]
    pub phi_12: f64,
    #[serde(default)]
    pub phi_jl: f64,
    /// Luminosity distance in Mpc.
    pub luminosity_distance: f64,
    /// Inclination of the total angular momentum to the line of sight in rad.
    #[serde(default)]
    pub theta_jn: f64,
    /// Polarisation angle in rad.
    #[serde(default)]
    pub psi: f64,
    /// Reference phase in rad.
    #[serde(default)]
    pub phase: f64,
    /// GPS time of the peak at the geocentre in s (default: the trigger time).
    pub geocent_time: Option<f64>,
    /// Right ascension in rad.
    #[serde(default)]
    pub ra: f64,
    /// Declination in rad.
    #[serde(default)]
    pub dec: f64,
    /// No noise: the data are the signal alone.
    #[serde(default)]
    pub zero_noise: bool,
    /// Seed of the simulated Gaussian noise (detector k uses a stream derived from it).
    #[serde(default = "default_noise_seed")]
    pub noise_seed: u64,
    /// The model of the injected signal, by LALSuite's name (bilby_pipe's
    /// `injection-waveform-approximant`) [default: the analysis's `waveform_approximant`].
    pub waveform_approximant: Option<Approximant>,
    /// The injected signal's modes, as bilby's `mode_array` (`[[2,2],[2,-2],…]`, each mode
    /// with its −m partner) [default: the analysis's modes where neither this nor the
    /// approximant is given, else every mode of the approximant].
    pub mode_array: Option<Vec<[i32; 2]>>,
}

impl Injection {
    /// The injected signal's approximant and modes (`(2,±2), (3,±3)`) unless they are those
    /// of the analysis of `config`.
    pub fn model_other_than_analysis(
        &self,
        config: &Config,
    ) -> anyhow::Result<Option<(String, String)>> {
        let modes = self.modes(config)?;
        let approximant = self.approximant(config);
        // THM and TPHM have the same modes: the approximant tells them apart.
        let precessing = approximant.is_precessing();
        if modes == config.modes()? && precessing == config.waveform_approximant.is_precessing() {
            return Ok(None);
        }
        Ok(Some((approximant.name().to_string(), mode_names(&modes))))
    }

    /// The injected signal's approximant: its own, or the analysis's of `config`.
    pub fn approximant(&self, config: &Config) -> Approximant {
        self.waveform_approximant
            .unwrap_or(config.waveform_approximant)
    }

    /// The modes of the injected signal (m > 0), as bilby_pipe defaults them: those of the
    /// analysis of `config` unless the injection names its approximant or modes.
    pub fn modes(&self, config: &Config) -> anyhow::Result<Vec<Mode>> {
        let approximant = self.approximant(config);
        match (&self.mode_array, self.waveform_approximant) {
            (Some(pairs), _) => approximant.analysis_modes(Some(pairs), "[injection] mode_array"),
            (None, Some(_)) => Ok(approximant.modes().to_vec()),
            (None, None) => config.modes(),
        }
    }
}

/// The noise seed of an injection that gives none.
pub const DEFAULT_NOISE_SEED: u64 = 150914;

fn default_noise_seed() -> u64 {
    DEFAULT_NOISE_SEED
}
