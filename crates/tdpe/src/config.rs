//! The run configuration (TOML). Every key has a default except the data source: a config
//! needs either an `[injection]` or a `[strain]` table. Unknown keys are errors. The embedded
//! default ([`DEFAULT_CONFIG`], `examples/default.toml`) is the GW150914-like injection that
//! `tdpe run` analyses without arguments; `tdpe config` prints it.
//!
//! Relative paths (prior file, PSD files, strain files) are relative to the directory of the
//! config file (the current directory for the embedded default).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use tdpe_noise::AnalysisBand;

mod injection;
mod sampler;
mod strain_data;
pub use injection::{Injection, DEFAULT_NOISE_SEED};
pub use sampler::{
    KernelName, MetricName, SamplerSection, SHORT_TREES_BELOW_SNR, WIDE_INDEPENDENCE_PROPOSALS,
    WIDE_TREE_DEPTH,
};
pub use strain_data::{PsdEstimation, StrainFiles, StrainFormat};

use crate::waveform_model::Approximant;
use tdpe_phenomt::Mode;

/// The default configuration (TOML text of `defaults/default.toml`, which
/// `examples/default.toml` links to).
pub const DEFAULT_CONFIG: &str = include_str!("../defaults/default.toml");

/// A complete run configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// Run label (bilby's `label`).
    pub label: String,
    /// Detector names (H1, L1, V1, K1).
    pub detectors: Vec<String>,
    /// GPS time of the trigger in s; the reference epoch of every time in the run.
    pub trigger_time: f64,
    /// Segment length in s (duration × sampling_frequency samples).
    pub duration: f64,
    /// Length of the segment after the trigger in s (the segment is
    /// [trigger + post − duration, trigger + post)).
    pub post_trigger_duration: f64,
    /// Sampling frequency of the analysis in Hz.
    pub sampling_frequency: f64,
    /// Lower edge of the analysed band in Hz (put into the noise covariance with a 4 Hz
    /// Planck ramp centred on it; see `tdpe_noise::AnalysisBand`): one number, or a table per
    /// detector as bilby_pipe's dict (`{ H1 = 20, L1 = 30 }`).
    pub minimum_frequency: PerDetector,
    /// Upper edge of the analysed band in Hz (a 4 Hz ramp centred on it, cut at the Nyquist
    /// frequency), a number or a table per detector; absent: the Nyquist
    /// frequency.
    pub maximum_frequency: Option<PerDetector>,
    /// Frequency (Hz) at which `phase` is the (2,2) mode's reference phase.
    pub reference_frequency: f64,
    /// The analysis's waveform model, by LALSuite's name (bilby_pipe's `waveform-approximant`):
    /// IMRPhenomT (the (2,2) mode), IMRPhenomTHM (with its higher modes) or IMRPhenomTPHM (a
    /// precessing binary: its priors must then be precessing, docs/precession.md §12.7).
    pub waveform_approximant: Approximant,
    /// The analysis's modes, as bilby's `mode_array` (`[[2,2],[2,-2],…]`, each mode with its
    /// −m partner) [default: every mode of the approximant].
    pub mode_array: Option<Vec<[i32; 2]>>,
    /// Prior file in bilby syntax, or `default` for the GW150914-like priors
    /// (`examples/gw150914_like.prior`).
    pub prior_file: String,
    /// PSD per detector: a built-in curve name (aLIGOZeroDetHighPower,
    /// aLIGODesignSensitivityT1800044, AdVDesignSensitivityP1200087,
    /// KAGRADesignSensitivityT1600593) or a two-column file (frequency in Hz, value). With an
    /// injection, missing detectors use their design curve; text strain files need every one;
    /// GWOSC files without one have it estimated from their off-source data
    /// (`[psd_estimation]`).
    pub psd: BTreeMap<String, String>,
    /// What the second column of PSD files holds: `psd` (1/Hz) or `asd` (1/√Hz).
    pub psd_column: PsdColumnName,
    /// A simulated signal (exclusive with `strain`).
    pub injection: Option<Injection>,
    /// Strain files (exclusive with `injection`).
    pub strain: Option<StrainFiles>,
    /// How PSDs are estimated from GWOSC files' off-source data (bilby_pipe's options).
    pub psd_estimation: Option<PsdEstimation>,
    /// Memory (GB) a run may use; its estimate is checked before any work. 0: 80 % of the
    /// machine's physical memory.
    pub max_memory_gb: f64,
    /// Sampler settings.
    pub sampler: SamplerSection,
    /// Relative-binning settings.
    pub likelihood: LikelihoodSection,
    /// Maximum-likelihood search for the fiducial point (real data).
    pub fiducial: FiducialSection,
    /// Directory relative paths are resolved against (not read from the file).
    #[serde(skip)]
    pub base_dir: PathBuf,
}

impl Default for Config {
    /// The defaults of every key; no data source.
    fn default() -> Self {
        Self {
            label: "tdpe".into(),
            detectors: vec!["H1".into(), "L1".into()],
            trigger_time: 1126259462.4,
            duration: 4.0,
            post_trigger_duration: 2.0,
            sampling_frequency: 2048.0,
            minimum_frequency: PerDetector::All(20.0),
            maximum_frequency: None,
            reference_frequency: 20.0,
            waveform_approximant: Approximant::IMRPhenomT,
            mode_array: None,
            prior_file: "default".into(),
            psd: BTreeMap::new(),
            psd_column: PsdColumnName::Psd,
            injection: None,
            strain: None,
            psd_estimation: None,
            max_memory_gb: 0.0,
            sampler: SamplerSection::default(),
            likelihood: LikelihoodSection::default(),
            fiducial: FiducialSection::default(),
            base_dir: PathBuf::new(),
        }
    }
}

/// A frequency given once for the network or per detector, as bilby_pipe's
/// `minimum-frequency` / `maximum-frequency` take a number or a dict. A table may also hold
/// bilby_pipe's `waveform` key: the time-domain model needs no starting frequency (the data's
/// segment bounds it), so that value is only recorded, as the waveform arguments'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PerDetector {
    /// The same value for every detector.
    All(f64),
    /// A value per detector name.
    Each(BTreeMap<String, f64>),
}

/// bilby_pipe's key, in a per-detector frequency table, of the waveform generator's value.
const WAVEFORM_KEY: &str = "waveform";

impl PerDetector {
    /// The value of `detector`; `None` when a table does not name it.
    pub fn get(&self, detector: &str) -> Option<f64> {
        match self {
            Self::All(v) => Some(*v),
            Self::Each(table) => table.get(detector).copied(),
        }
    }

    /// The values of the network's detectors in order, each checked to be given; a table's
    /// names other than the network's (and `waveform`) are errors too.
    fn of_network(&self, key: &str, detectors: &[String]) -> anyhow::Result<Vec<f64>> {
        if let Self::Each(table) = self {
            if let Some(other) = table
                .keys()
                .find(|k| *k != WAVEFORM_KEY && !detectors.contains(k))
            {
                bail!(
                    "{key}.{other}: {other} is not among the detectors {}",
                    detectors.join(", ")
                );
            }
            if let Some(v) = table
                .get(WAVEFORM_KEY)
                .filter(|v| !(v.is_finite() && **v > 0.0))
            {
                bail!("{key}.{WAVEFORM_KEY} = {v} Hz must be finite and > 0");
            }
        }
        detectors
            .iter()
            .map(|d| {
                self.get(d)
                    .with_context(|| format!("{key} has no value for {d}"))
            })
            .collect()
    }

    /// How a message names `key`'s value for `detector`: `key`, or `key.H1` for a table.
    fn key_of(&self, key: &str, detector: &str) -> String {
        match self {
            Self::All(_) => key.to_string(),
            Self::Each(_) => format!("{key}.{detector}"),
        }
    }

    /// The value the waveform arguments record: the table's `waveform` entry, else the
    /// lowest (for a minimum) or highest (a maximum) of the network's values.
    fn waveform_value(&self, network: &[f64], lowest: bool) -> f64 {
        match self {
            Self::Each(table) if table.contains_key(WAVEFORM_KEY) => table[WAVEFORM_KEY],
            _ if lowest => network.iter().copied().fold(f64::INFINITY, f64::min),
            _ => network.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// What PSD files hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PsdColumnName {
    /// One-sided PSD S(f) in 1/Hz.
    Psd,
    /// Amplitude spectral density √S(f) in 1/√Hz.
    Asd,
}

/// Relative-binning settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LikelihoodSection {
    /// Node-refinement target T ≈ (wanted |Δ ln L|)²: smaller is more accurate, more nodes.
    pub relative_binning_target: f64,
    /// Design waveforms used to place the nodes.
    pub design_points: usize,
    /// Cap on the nodes per detector and mode.
    pub max_nodes: usize,
}

impl Default for LikelihoodSection {
    fn default() -> Self {
        let o = tdpe_likelihood::RelativeBinningOptions::default();
        Self {
            relative_binning_target: o.target,
            design_points: o.design_points,
            max_nodes: o.max_nodes,
        }
    }
}

/// The maximum-likelihood search that gives real data a fiducial point: differential evolution
/// over the prior box, then a Nelder–Mead polish.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FiducialSection {
    /// Population of differential evolution.
    pub population: usize,
    /// Generations of differential evolution.
    pub generations: usize,
    /// Likelihood evaluations of the Nelder–Mead polish.
    pub polish_evaluations: usize,
}

impl Default for FiducialSection {
    fn default() -> Self {
        Self {
            population: 60,
            generations: 150,
            polish_evaluations: 3000,
        }
    }
}

impl Config {
    /// Parses TOML text; `base_dir` resolves relative paths, `source` names the text in errors.
    pub fn parse(text: &str, source: &str, base_dir: &Path) -> anyhow::Result<Self> {
        if let Some((line, literal)) = underflowing_literal(text) {
            bail!(
                "invalid configuration {source}: line {line}: {literal} is too small for a \
                 double (it would read as 0)"
            );
        }
        let mut config: Config = toml::from_str(text)
            .map_err(|e| anyhow::anyhow!("{}", e.to_string().replace('\n', " ")))
            .with_context(|| format!("invalid configuration {source}"))?;
        config.base_dir = base_dir.to_path_buf();
        Ok(config)
    }

    /// Reads a config file, or the embedded default when `path` is `None`.
    pub fn load(path: Option<&Path>) -> anyhow::Result<Self> {
        match path {
            None => Self::parse(DEFAULT_CONFIG, "(embedded default)", Path::new(".")),
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read config file {}", path.display()))?;
                let base = path.parent().unwrap_or(Path::new("."));
                Self::parse(&text, &path.display().to_string(), base)
            }
        }
    }

    /// `path` relative to the config file's directory (absolute paths unchanged).
    pub fn resolve(&self, path: &str) -> PathBuf {
        self.base_dir.join(path)
    }

    /// The analysed band of each detector in network order, its edges checked: f_min > 0
    /// below the Nyquist frequency, f_max (absent: Nyquist) above f_min and at most Nyquist.
    pub fn bands(&self) -> anyhow::Result<Vec<AnalysisBand>> {
        let nyquist = self.sampling_frequency / 2.0;
        let lows = self
            .minimum_frequency
            .of_network("minimum_frequency", &self.detectors)?;
        let highs = match &self.maximum_frequency {
            Some(f) => f
                .of_network("maximum_frequency", &self.detectors)?
                .into_iter()
                .map(Some)
                .collect(),
            None => vec![None; self.detectors.len()],
        };
        self.detectors
            .iter()
            .zip(lows.into_iter().zip(highs))
            .map(|(d, (f_low, f_high))| {
                if !(f_low.is_finite() && f_low > 0.0 && f_low < nyquist) {
                    bail!(
                        "{} = {f_low} Hz must be > 0 and below the Nyquist frequency {nyquist} Hz",
                        self.minimum_frequency.key_of("minimum_frequency", d)
                    );
                }
                if let Some(f_high) = f_high {
                    if !(f_high > f_low && f_high <= nyquist) {
                        bail!(
                            "{} = {f_high} Hz must lie above minimum_frequency = {f_low} Hz and \
                             at most at the Nyquist frequency {nyquist} Hz",
                            self.maximum_frequency
                                .as_ref()
                                .map_or("maximum_frequency".into(), |f| f
                                    .key_of("maximum_frequency", d))
                        );
                    }
                }
                let band = AnalysisBand {
                    f_low,
                    f_high,
                    ..AnalysisBand::default()
                };
                band.validate()?;
                Ok(band)
            })
            .collect()
    }

    /// The minimum and maximum frequency the waveform arguments record from the detectors'
    /// `bands` (of [`Self::bands`]): bilby_pipe's `waveform` entry, else the widest band.
    pub fn waveform_band(&self, bands: &[AnalysisBand]) -> (f64, f64) {
        let nyquist = self.sampling_frequency / 2.0;
        let lows: Vec<f64> = bands.iter().map(|b| b.f_low).collect();
        let highs: Vec<f64> = bands.iter().map(|b| b.upper_edge(nyquist)).collect();
        let high = match &self.maximum_frequency {
            Some(f) => f.waveform_value(&highs, false),
            None => nyquist,
        };
        (self.minimum_frequency.waveform_value(&lows, true), high)
    }

    /// The analysis's modes (m > 0): `mode_array` of `waveform_approximant`, or all of its
    /// modes ([`Approximant::analysis_modes`]).
    pub fn modes(&self) -> anyhow::Result<Vec<Mode>> {
        self.waveform_approximant
            .analysis_modes(self.mode_array.as_deref(), "mode_array")
    }

    /// Checks ranges and consistency; messages name the key and the allowed range.
    pub fn validate(&self) -> anyhow::Result<()> {
        let positive = |name: &str, v: f64| -> anyhow::Result<()> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                bail!("{name} = {v} must be finite and > 0")
            }
        };
        positive("duration", self.duration)?;
        positive("sampling_frequency", self.sampling_frequency)?;
        positive("reference_frequency", self.reference_frequency)?;
        positive("trigger_time", self.trigger_time)?;
        if !(self.post_trigger_duration >= 0.0 && self.post_trigger_duration < self.duration) {
            bail!(
                "post_trigger_duration = {} must be in [0, duration = {})",
                self.post_trigger_duration,
                self.duration
            );
        }
        self.bands()?;
        self.modes()?;
        if self.detectors.is_empty() {
            bail!("detectors is empty: name at least one of H1, L1, V1, K1");
        }
        if !(self.max_memory_gb.is_finite() && self.max_memory_gb >= 0.0) {
            bail!(
                "max_memory_gb = {} must be >= 0 (0: automatic)",
                self.max_memory_gb
            );
        }
        crate::memory::check(self)?;
        for name in self.psd.keys() {
            if !self.detectors.contains(name) {
                bail!(
                    "psd.{name}: '{name}' is not in detectors {:?}",
                    self.detectors
                );
            }
        }
        match (&self.injection, &self.strain) {
            (Some(_), Some(_)) => bail!("give either [injection] or [strain], not both"),
            (None, None) => bail!("no data: give an [injection] or a [strain] table"),
            (None, Some(s)) => {
                let gwosc = s.format == StrainFormat::GwoscHdf5;
                if !gwosc && s.data_quality_flags.is_some() {
                    bail!("strain.data_quality_flags apply to format = \"gwosc-hdf5\" only");
                }
                if !gwosc && self.psd_estimation.is_some() {
                    bail!(
                        "[psd_estimation] applies to format = \"gwosc-hdf5\" only: text strain \
                         files carry no off-source data"
                    );
                }
                if let Some(estimation) = &self.psd_estimation {
                    estimation.settings().validate(self.duration)?;
                }
                for det in &self.detectors {
                    if !s.files.contains_key(det) {
                        bail!("strain.files has no file for detector {det}");
                    }
                    // Real data have their own noise: a design curve would be silently wrong.
                    // GWOSC files hold the off-source data to estimate it from.
                    if !gwosc && !self.psd.contains_key(det) {
                        bail!(
                            "strain files are given but no PSD for {det}: set psd.{det} to the \
                             PSD file of that data (or name a built-in curve, e.g. \
                             \"aLIGOZeroDetHighPower\", to use one on purpose)"
                        );
                    }
                }
                for name in s.files.keys() {
                    if !self.detectors.contains(name) {
                        bail!(
                            "strain.files.{name}: '{name}' is not in detectors {:?}",
                            self.detectors
                        );
                    }
                }
            }
            (Some(injection), None) => {
                if self.psd_estimation.is_some() {
                    bail!("[psd_estimation] applies to GWOSC strain files, not to an injection");
                }
                injection.modes(self)?;
            }
        }
        let s = &self.sampler;
        if s.num_chains == 0 || s.num_draws == 0 {
            bail!("sampler.num_chains and sampler.num_draws must be at least 1");
        }
        if !(s.target_ess.is_finite() && s.target_ess >= 0.0) {
            bail!(
                "sampler.target_ess = {} must be finite and >= 0 (0: exactly num_draws)",
                s.target_ess
            );
        }
        let longest = crate::run::checkpoint::MAX_INTERVAL_S;
        if !(0.0..=longest).contains(&s.checkpoint_interval) {
            bail!(
                "sampler.checkpoint_interval = {} must be between 0 (no checkpoints) and {longest} s",
                s.checkpoint_interval
            );
        }
        if let Some(max) = s.max_draws {
            if max < s.num_draws {
                bail!(
                    "sampler.max_draws = {max} must be at least sampler.num_draws = {}",
                    s.num_draws
                );
            }
        }
        if let Some(steps) = s.time_steps {
            let most = crate::run::pilot::MAX_TIME_STEPS;
            if steps > most {
                bail!("sampler.time_steps = {steps} must be at most {most}");
            }
        }
        if let Some(depth) = s.max_tree_depth {
            if !(1..=20).contains(&depth) {
                bail!("sampler.max_tree_depth = {depth} must be in 1..=20");
            }
        }
        if s.num_temperatures == 0 {
            bail!("sampler.num_temperatures = 0 must be at least 1 (1: no tempering)");
        }
        if let Some(a) = s.target_accept {
            if !(a > 0.0 && a < 1.0) {
                bail!("sampler.target_accept = {a} must be in (0, 1)");
            }
        }
        if !(s.init_radius.is_finite() && s.init_radius >= 0.0) {
            bail!(
                "sampler.init_radius = {} must be finite and >= 0",
                s.init_radius
            );
        }
        positive(
            "likelihood.relative_binning_target",
            self.likelihood.relative_binning_target,
        )?;
        for (name, value) in [
            ("design_points", self.likelihood.design_points),
            ("max_nodes", self.likelihood.max_nodes),
        ] {
            if value == 0 {
                bail!("likelihood.{name} = 0 must be at least 1");
            }
        }
        if self.fiducial.population < 5 {
            bail!(
                "fiducial.population = {} must be at least 5",
                self.fiducial.population
            );
        }
        Ok(())
    }

    /// The configuration as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|e| format!("# cannot serialise: {e}"))
    }
}

/// The first number literal of TOML `text` outside strings and comments that reads as 0 but
/// is not zero (`1e-1000`: f64 parsing rounds it silently, where it rejects `1e400`), with its
/// line number.
fn underflowing_literal(text: &str) -> Option<(usize, String)> {
    for (index, line) in text.lines().enumerate() {
        // The line's code: quoted strings blanked, the comment dropped.
        let mut code = String::new();
        let mut quote = None;
        for c in line.chars() {
            match (quote, c) {
                (None, '#') => break,
                (None, '"' | '\'') => quote = Some(c),
                (Some(q), _) if c == q => quote = None,
                (None, _) => code.push(c),
                _ => {}
            }
            if quote.is_some() {
                code.push(' ');
            }
        }
        let literals = code.split(|c: char| !(c.is_ascii_alphanumeric() || "+-._".contains(c)));
        for literal in literals {
            let number = literal.replace('_', "");
            let mantissa = number.split(['e', 'E']).next().unwrap_or_default();
            if number.contains(['e', 'E'])
                && number.parse::<f64>() == Ok(0.0)
                && mantissa.chars().any(|d| ('1'..='9').contains(&d))
            {
                return Some((index + 1, literal.to_string()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_config_parses_and_validates() {
        let c = Config::load(None).unwrap();
        c.validate().unwrap();
        let inj = c.injection.as_ref().unwrap();
        assert_eq!((inj.mass_1, inj.mass_2), (Some(36.0), Some(29.0)));
        assert_eq!(c.detectors, ["H1", "L1"]);
        assert_eq!(c.sampling_frequency, 2048.0);
        let again = Config::parse(&c.to_toml(), "round trip", Path::new(".")).unwrap();
        assert_eq!(again, c);
    }

    #[test]
    fn unknown_keys_and_missing_data_are_errors() {
        let e = Config::parse("durations = 4\n", "x.toml", Path::new(".")).unwrap_err();
        assert!(
            format!("{e:#}").contains("unknown field `durations`"),
            "{e:#}"
        );
        let c = Config::parse("label = 'a'\n", "x.toml", Path::new(".")).unwrap();
        assert!(c.validate().unwrap_err().to_string().contains("no data"));
        let e = Config::parse("[sampler]\nkernel = 'gibbs'\n", "x", Path::new(".")).unwrap_err();
        assert!(format!("{e:#}").contains("gibbs"), "{e:#}");
    }

    /// The default with `edit` applied, validated: the error's message.
    fn invalid(edit: impl FnOnce(&mut Config)) -> String {
        let mut c = Config::load(None).unwrap();
        edit(&mut c);
        format!("{:#}", c.validate().unwrap_err())
    }

    #[test]
    fn a_wide_posterior_takes_short_trees_below_the_snr_threshold_only() {
        let unset = SamplerSection::default();
        let weak = unset.for_wide_posterior(24, SHORT_TREES_BELOW_SNR - 0.1);
        assert_eq!(weak.max_tree_depth, Some(WIDE_TREE_DEPTH));
        assert_eq!(weak.time_steps, Some(24));
        assert_eq!(
            weak.independence_proposals,
            Some(WIDE_INDEPENDENCE_PROPOSALS)
        );
        let louder = unset.for_wide_posterior(24, SHORT_TREES_BELOW_SNR);
        assert_eq!(louder.max_tree_depth, Some(10));
        // What the configuration sets, it keeps.
        let set = SamplerSection {
            time_steps: Some(0),
            independence_proposals: Some(5),
            max_tree_depth: Some(8),
            ..SamplerSection::default()
        }
        .for_wide_posterior(24, 3.0);
        assert_eq!(
            (
                set.time_steps,
                set.independence_proposals,
                set.max_tree_depth
            ),
            (Some(0), Some(5), Some(8))
        );
    }

    #[test]
    fn the_auto_kernel_is_hmc_for_one_mode_and_nuts_for_a_weak_or_tempered_run() {
        let auto = SamplerSection::default();
        assert_eq!(auto.kernel, KernelName::Auto);
        assert_eq!(auto.for_loud_posterior().kernel, KernelName::Hmc);
        let weak = SHORT_TREES_BELOW_SNR - 0.1;
        assert_eq!(auto.for_wide_posterior(24, weak).kernel, KernelName::Nuts);
        let louder = SHORT_TREES_BELOW_SNR;
        assert_eq!(auto.for_wide_posterior(24, louder).kernel, KernelName::Hmc);
        let tempered = SamplerSection {
            num_temperatures: 4,
            ..SamplerSection::default()
        };
        assert_eq!(tempered.for_loud_posterior().kernel, KernelName::Nuts);
        assert_eq!(
            tempered.for_wide_posterior(24, louder).kernel,
            KernelName::Nuts
        );
        // A kernel the configuration names runs on every path.
        for kernel in [KernelName::Nuts, KernelName::Hmc, KernelName::Mala] {
            let set = SamplerSection {
                kernel,
                ..SamplerSection::default()
            };
            assert_eq!(set.for_loud_posterior().kernel, kernel);
            assert_eq!(set.for_wide_posterior(24, 3.0).kernel, kernel);
        }
    }

    #[test]
    fn frequency_bands_per_detector_as_bilby_pipe_dicts() {
        let with = |extra: &str| {
            let text = format!("{DEFAULT_CONFIG}\n").replace("minimum_frequency = 20.0", extra);
            Config::parse(&text, "x.toml", Path::new("."))
                .and_then(|c| c.validate().map(|()| c))
                .map_err(|e| format!("{e:#}"))
        };
        let c = with(
            "minimum_frequency = { H1 = 20.0, L1 = 30.0, waveform = 15.0 }\n\
             maximum_frequency = { H1 = 800.0, L1 = 1024.0 }",
        )
        .unwrap();
        let bands = c.bands().unwrap();
        assert_eq!((bands[0].f_low, bands[0].f_high), (20.0, Some(800.0)));
        assert_eq!((bands[1].f_low, bands[1].f_high), (30.0, Some(1024.0)));
        assert_eq!(c.waveform_band(&bands), (15.0, 1024.0));
        let c = with("minimum_frequency = { H1 = 20.0, L1 = 30.0 }").unwrap();
        assert_eq!(c.waveform_band(&c.bands().unwrap()), (20.0, 1024.0));

        let e = with("minimum_frequency = { H1 = 20.0 }").unwrap_err();
        assert!(e.contains("minimum_frequency has no value for L1"), "{e}");
        let e = with("minimum_frequency = { H1 = 20.0, L1 = 20.0, V1 = 20.0 }").unwrap_err();
        assert!(e.contains("minimum_frequency.V1: V1 is not among"), "{e}");
        let e = with("minimum_frequency = { H1 = 20.0, L1 = 2000.0 }").unwrap_err();
        assert!(e.contains("minimum_frequency.L1 = 2000 Hz"), "{e}");
        let e = with("minimum_frequency = 20.0\nmaximum_frequency = { H1 = 800.0, L1 = 10.0 }")
            .unwrap_err();
        assert!(
            e.contains("maximum_frequency.L1 = 10 Hz must lie above"),
            "{e}"
        );
        let e = with("minimum_frequency = { H1 = 20.0, L1 = 20.0, waveform = -1.0 }").unwrap_err();
        assert!(e.contains("minimum_frequency.waveform = -1 Hz"), "{e}");
        let e = with("minimum_frequency = { H1 = 'x', L1 = 20.0 }").unwrap_err();
        assert!(e.contains("minimum_frequency"), "{e}");
    }

    #[test]
    fn settings_that_cannot_run_are_errors_before_any_work() {
        let e = invalid(|c| c.sampler.num_temperatures = 0);
        assert!(e.contains("num_temperatures = 0"), "{e}");
        let e = invalid(|c| c.likelihood.design_points = 0);
        assert!(e.contains("likelihood.design_points = 0"), "{e}");
        let e = invalid(|c| c.sampler.target_ess = -1.0);
        assert!(e.contains("sampler.target_ess = -1"), "{e}");
        let e = invalid(|c| c.sampler.target_ess = f64::INFINITY);
        assert!(e.contains("sampler.target_ess = inf"), "{e}");
        let e = invalid(|c| c.sampler.checkpoint_interval = -1.0);
        assert!(e.contains("sampler.checkpoint_interval = -1"), "{e}");
        let e = invalid(|c| c.sampler.checkpoint_interval = 1e20);
        assert!(e.contains("between 0 (no checkpoints) and"), "{e}");
        let e = invalid(|c| c.sampler.max_draws = Some(1499));
        assert!(e.contains("sampler.max_draws = 1499"), "{e}");
        let e = invalid(|c| c.likelihood.max_nodes = 0);
        assert!(e.contains("likelihood.max_nodes = 0"), "{e}");
        let e = invalid(|c| c.sampler.time_steps = Some(65));
        assert!(
            e.contains("sampler.time_steps = 65 must be at most 64"),
            "{e}"
        );
        let e = invalid(|c| c.sampler.max_tree_depth = Some(0));
        assert!(e.contains("sampler.max_tree_depth = 0"), "{e}");
        for f_max in [15.0, 1500.0, f64::NAN] {
            let e = invalid(|c| c.maximum_frequency = Some(PerDetector::All(f_max)));
            assert!(
                e.contains(&format!("maximum_frequency = {f_max} Hz")),
                "{e}"
            );
        }
        // Real data without their PSD would silently get a design curve.
        let e = invalid(|c| {
            c.injection = None;
            c.strain = Some(StrainFiles {
                format: StrainFormat::TimeSeries,
                files: c
                    .detectors
                    .iter()
                    .map(|d| (d.clone(), format!("{d}.txt")))
                    .collect(),
                data_quality_flags: None,
            });
            c.psd.clear();
        });
        assert!(e.contains("no PSD for H1"), "{e}");
        // A literal that would silently read as 0.
        let e = Config::parse("duration = 1e-1000\n", "x.toml", Path::new(".")).unwrap_err();
        assert!(
            format!("{e:#}").contains("line 1: 1e-1000 is too small"),
            "{e:#}"
        );
        let text = "label = 'a 1e-1000' # 2e-999\nduration = 0e-1000\n";
        assert!(Config::parse(text, "x.toml", Path::new(".")).is_ok());
        // Sizes the machine cannot hold are refused with the estimate, before any allocation.
        for duration in [1e6, 1e16] {
            let e = invalid(|c| c.duration = duration);
            assert!(e.contains("GB, more than the"), "{e}");
        }
        let e = invalid(|c| {
            c.duration = 64.0;
            c.max_memory_gb = 0.1;
        });
        assert!(
            e.contains("needs about 0.3 GB, more than the 0.1 GB allowed"),
            "{e}"
        );
    }
}
