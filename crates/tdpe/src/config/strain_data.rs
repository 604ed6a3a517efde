//! The `[strain]` and `[psd_estimation]` tables: where real data come from and how their PSD
//! is estimated (docs/strain_data.md).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Strain files per detector.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrainFiles {
    /// `time-series`: two columns (GPS time in s, strain) at the analysis sampling frequency
    /// covering the segment; `frequency-series`: three columns (frequency in Hz, Re, Im) of
    /// bilby's frequency-domain strain (real FFT / f_s, df = 1/duration), inverse-transformed;
    /// `gwosc-hdf5`: GWOSC strain files, from which the analysis segment is cut as bilby_pipe
    /// cuts it (docs/strain_data.md).
    pub format: StrainFormat,
    /// File per detector.
    pub files: BTreeMap<String, String>,
    /// GWOSC files: the data-quality flags (`quality/simple/DQShortnames`) that must be set
    /// over the analysis segment and the PSD data (default `["DATA", "CBC_CAT1"]`: data
    /// present and free of category-1 vetoes).
    pub data_quality_flags: Option<Vec<String>>,
}

impl StrainFiles {
    /// The data-quality flags required of GWOSC files.
    pub fn required_flags(&self) -> Vec<String> {
        self.data_quality_flags.clone().unwrap_or_else(|| {
            tdpe_strain::data_quality::DEFAULT_REQUIRED_FLAGS
                .map(String::from)
                .to_vec()
        })
    }
}

/// bilby_pipe's PSD options for a PSD estimated from off-source data (its names and defaults):
/// a median Welch average over `min(psd_length × duration, psd_maximum_duration)` s of data
/// starting `psd_start_time` s from the analysis segment's start (default: just before it), in
/// segments of `duration` s overlapping by `psd_fractional_overlap`, each under a Tukey window
/// with `tukey_roll_off` s of roll-off.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PsdEstimation {
    /// PSD data length in segment durations.
    pub psd_length: u32,
    /// Overlap of the Welch segments (fraction of their length).
    pub psd_fractional_overlap: f64,
    /// Cap on the PSD data's length in s.
    pub psd_maximum_duration: f64,
    /// Start of the PSD data relative to the analysis segment's start in s (absent: minus the
    /// PSD data's length).
    pub psd_start_time: Option<f64>,
    /// Roll-off of the Tukey window in s.
    pub tukey_roll_off: f64,
}

impl Default for PsdEstimation {
    fn default() -> Self {
        Self::from(tdpe_strain::PsdSettings::default())
    }
}

impl From<tdpe_strain::PsdSettings> for PsdEstimation {
    fn from(s: tdpe_strain::PsdSettings) -> Self {
        Self {
            psd_length: s.psd_length,
            psd_fractional_overlap: s.psd_fractional_overlap,
            psd_maximum_duration: s.psd_maximum_duration,
            psd_start_time: s.psd_start_time,
            tukey_roll_off: s.tukey_roll_off,
        }
    }
}

impl PsdEstimation {
    /// As the strain crate's settings.
    pub fn settings(&self) -> tdpe_strain::PsdSettings {
        tdpe_strain::PsdSettings {
            psd_length: self.psd_length,
            psd_fractional_overlap: self.psd_fractional_overlap,
            psd_maximum_duration: self.psd_maximum_duration,
            psd_start_time: self.psd_start_time,
            tukey_roll_off: self.tukey_roll_off,
        }
    }
}

/// Layout of strain files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StrainFormat {
    /// `t h` per line.
    TimeSeries,
    /// `f Re Im` per line.
    FrequencySeries,
    /// GWOSC's HDF5 layout (`strain/Strain`, `meta/`, `quality/`).
    GwoscHdf5,
}
