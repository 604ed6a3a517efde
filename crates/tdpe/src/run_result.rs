//! The hand-off between the run ([`crate::run`]) and the writers of `output`: everything a
//! result file, a summary or a plot needs, in bilby's parameter names and units, with no
//! sampler internals left to interpret.
//!
//! Conventions:
//! - Parameter names are bilby's (the spin model's, [`tdpe_signal::SpinModel::names`], plus
//!   the derived columns of `run::derived` and the per-detector SNRs); masses in M☉ (detector frame unless named
//!   `_source`), distances in Mpc, angles in rad.
//! - `geocent_time` is the **absolute** GPS time in s (f64; ~0.24 µs resolution near 1.1e9 s,
//!   fine for output, never used for computation).
//! - `log_likelihood` is the log-likelihood **ratio** ln L(θ) − ln L(noise) (bilby's default
//!   `use_ratio`); the noise log-likelihood is in [`RunResult::log_noise_evidence`].
//! - `log_prior` is ln π(θ) of the physical parameters (the sum over the prior file's
//!   entries, without the Jacobian of the sampler's unconstrained coordinates).

use std::path::PathBuf;

use serde::Serialize;
use tdpe_mcmc::ChainSummary;
use tdpe_posterior::{NotApplied, SkyChoices};

/// R̂ above this means the chains disagree (Vehtari et al. 2021, Bayesian Analysis 16, 667,
/// §4); the chains go on for `target_ess` until every parameter is below it.
pub const MAX_RHAT: f64 = 1.01;

/// |ln L_RB − ln L_exact| at posterior draws above which a run warns that relative binning
/// may bias its posterior: posterior weights wrong by more than 1 %.
pub const RELATIVE_BINNING_TOLERANCE: f64 = 0.01;

/// One named column of the posterior table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Column {
    /// bilby name (e.g. `chirp_mass`, `log_likelihood`).
    pub name: String,
    /// One value per posterior draw (same length in every column).
    pub values: Vec<f64>,
}

/// The posterior draws of every chain, concatenated chain after chain (draw order kept).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PosteriorTable {
    /// Columns in this order: the parameters of the analysis's spin model
    /// ([`tdpe_signal::SpinModel::parameters`], fixed ones included, constant), then the
    /// assessed derived columns (`run::derived::assessed_names`: `mass_1`, `mass_2`, `chi_eff`,
    /// with precessing spins `chi_p`),
    /// the source-frame columns (`run::derived::SOURCE_FRAME`), `<detector>_optimal_snr` and
    /// `<detector>_matched_filter_snr` per detector, then `log_likelihood`, `log_prior`.
    pub columns: Vec<Column>,
    /// Chain index of each draw (0-based); draws of one chain are contiguous and in order, so
    /// trace plots can split the columns by this.
    pub chain: Vec<usize>,
    /// Whether the transition that made each draw diverged (energy error above the sampler's
    /// bound), for the trace plot.
    pub divergent: Vec<bool>,
}

impl PosteriorTable {
    /// The column called `name`, if any.
    pub fn column(&self, name: &str) -> Option<&[f64]> {
        self.columns
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.values.as_slice())
    }

    /// Number of draws (rows).
    pub fn len(&self) -> usize {
        self.chain.len()
    }

    /// True when there are no draws.
    pub fn is_empty(&self) -> bool {
        self.chain.is_empty()
    }
}

/// A parameter and a value (injections, fiducial point).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamedValue {
    /// bilby name.
    pub name: String,
    /// Value in bilby's units (`geocent_time`: absolute GPS s).
    pub value: f64,
}

/// One prior, as written in the prior file and as bilby would print it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PriorEntry {
    /// Parameter name (`chirp_mass`, …, or `mass_1`/`mass_2` for constraints).
    pub name: String,
    /// bilby's repr, e.g. `Uniform(minimum=0.0, maximum=6.283185307179586, name='phase',
    /// latex_label=None, unit=None, boundary='periodic')`, readable by
    /// `bilby.core.prior.PriorDict`.
    pub repr: String,
    /// Fixed by a DeltaFunction (not sampled).
    pub fixed: bool,
}

/// Convergence diagnostics of one parameter across chains (rank-normalised split R̂, bulk and
/// tail ESS; Vehtari et al. 2021, as ArviZ). Periodic parameters are assessed on their unwrapped
/// (real-line) values, so that crossing the wrap point is not mistaken for poor mixing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ParamDiagnostics {
    /// Potential scale reduction R̂ (≈ 1 when the chains agree; > 1.01 is a warning).
    pub rhat: f64,
    /// Bulk effective sample size.
    pub ess_bulk: f64,
    /// Tail effective sample size (5 % and 95 % quantiles).
    pub ess_tail: f64,
}

/// Per-detector information.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DetectorInfo {
    /// Detector name (`H1`, `L1`, `V1`, `K1`).
    pub name: String,
    /// Optimal SNR √⟨h|h⟩ of the fiducial signal (the injection for injections, the
    /// maximum-likelihood point for real data).
    pub optimal_snr: f64,
    /// Matched-filter SNR ⟨d|h⟩/√⟨h|h⟩ of the same signal.
    pub matched_filter_snr: f64,
    /// Lower edge of this detector's analysed band in Hz.
    pub minimum_frequency: f64,
    /// Upper edge of this detector's analysed band in Hz.
    pub maximum_frequency: f64,
    /// PSD source (file path or built-in name).
    pub psd: String,
    /// Relative-binning nodes B + 1 of this detector.
    pub relative_binning_nodes: usize,
}

/// Whitened data and posterior waveforms of one detector for the reconstruction plot.
///
/// Whitening: x̃_w(f) = x̃(f) / √(S_TD(f)·f_s/2) for the real FFT x̃ of the (windowed)
/// segment, then the inverse FFT; S_TD is the PSD with the likelihood's low-frequency cut-off
/// (`tdpe_noise::AnalysisBand`), so frequencies below f_min are suppressed as the
/// likelihood suppresses them, and white Gaussian noise comes out with unit variance per sample.
/// A Tukey window with 0.2 s roll-off at each end is applied first (against leakage of the
/// strong low-frequency noise), so the first and last 0.2 s are attenuated; the merger sits away
/// from the edges.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WaveformReconstruction {
    /// Detector name.
    pub detector: String,
    /// The band (Hz) the whitened series are passed in: the analysed band's lower edge, and
    /// the frequency under which the whitened injection (or, without one, the posterior
    /// waveforms) hold 99.9 % of their power, with a 16 Hz cosine taper above it.
    pub pass_band: (f64, f64),
    /// Sample times in s relative to the trigger time.
    pub times: Vec<f64>,
    /// Whitened data (dimensionless, unit variance for pure noise).
    pub whitened_data: Vec<f64>,
    /// Whitened templates of posterior draws (each the length of `times`), drawn uniformly
    /// from the posterior with a fixed seed.
    pub whitened_waveforms: Vec<Vec<f64>>,
    /// Whitened injected signal, for injections.
    pub whitened_injection: Option<Vec<f64>>,
}

/// Amplitude spectra of one detector for the spectrum plot, all in the same one-sided ASD
/// scaling (Hz^−1/2): for a series x on N samples at f_s, windowed by the Tukey window w of
/// the whitening (0.2 s roll-off), A(f_j) = |Σ_i w_i x_i e^{−2πi ij/N}| · √(2 / (f_s Σ_i w_i²)),
/// the periodogram estimate whose expectation for Gaussian noise is the PSD (scipy's
/// `periodogram(scaling="density")` with the window). Signals are shown as they appear in the
/// data's spectrum (bilby's `plot_interferometer_waveform_posterior` in the frequency domain).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DetectorSpectrum {
    /// Detector name.
    pub detector: String,
    /// Frequencies j/T in Hz, j = 1..=N/2.
    pub frequencies: Vec<f64>,
    /// The data's amplitude spectrum.
    pub data_asd: Vec<f64>,
    /// √PSD (the PSD as given, without the likelihood's low-frequency cut-off).
    pub psd_asd: Vec<f64>,
    /// The amplitude spectra of the posterior draws' templates (those of the waveform plot).
    pub signal_asd: Vec<Vec<f64>>,
    /// The injected signal's amplitude spectrum, for injections.
    pub injection_asd: Option<Vec<f64>>,
}

/// Sampler settings as run (after command-line overrides), for `sampler_kwargs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SamplerSettings {
    /// Kernel name: `nuts`, `hmc` or `mala`.
    pub kernel: String,
    /// Number of chains.
    pub num_chains: usize,
    /// Warm-up iterations per chain (discarded).
    pub num_warmup: usize,
    /// Kept draws per chain as planned (the chains go on past them for `target_ess`).
    pub num_draws: usize,
    /// Smallest bulk ESS, with R̂ < 1.01, the chains went on for (0: none).
    pub target_ess: f64,
    /// The most draws per chain they could go on to; `None` when the run kept `num_draws`.
    pub max_draws: Option<usize>,
    /// Master seed.
    pub seed: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
    /// Target acceptance statistic of the step-size adaptation.
    pub target_accept: f64,
    /// Relative-binning node-refinement target (≈ wanted |Δ ln L|²).
    pub relative_binning_target: f64,
    /// Temperatures per chain (1: no tempering).
    pub num_temperatures: usize,
    /// Smallest inverse temperature of the tempering ladder.
    pub beta_min: f64,
    /// Whether the likelihood was marginalised over luminosity_distance (each draw's distance
    /// then drawn from its conditional posterior).
    pub distance_marginalization: bool,
    /// Whether the likelihood was marginalised over the phase (each draw's phase then drawn
    /// from its conditional posterior).
    pub phase_marginalization: bool,
}

/// How the relative-binning likelihood was set up, and how it compared with the exact one at
/// posterior draws.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelativeBinningReport {
    /// The refinement target T ≈ (wanted |Δ ln L|)².
    pub target: f64,
    /// Per detector, the refinement's error on its design set (above `target` where the
    /// refinement stopped at its cap of nodes).
    pub refinement_errors: Vec<f64>,
    /// The pilot run that drew the design set, when the Fisher design set needed too many
    /// nodes.
    pub pilot: Option<PilotReport>,
    /// Posterior draws at which the exact likelihood was evaluated.
    pub check_points: usize,
    /// Largest |ln L_RB − ln L_exact| over them.
    pub max_abs_error: f64,
    /// Median |ln L_RB − ln L_exact| over them.
    pub median_abs_error: f64,
    /// The standard deviation of ln L_RB − ln L_exact over them: the error on the posterior's
    /// own scale, since a constant error cancels and the posterior means move by at most this
    /// many posterior standard deviations (docs/likelihood.md §4.3).
    pub spread: f64,
}

/// What the pilot run did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PilotReport {
    /// Nodes per detector of the Fisher design set, capped at the budget.
    pub fisher_nodes: Vec<usize>,
    /// Gradient evaluations of the pilot chains.
    pub gradient_evaluations: u64,
    /// Density evaluations without the gradient of the pilot chains.
    pub density_evaluations: u64,
    /// Pilot draws the final nodes were refined on.
    pub design_draws: usize,
    /// Nodes per detector of each cell of the (2,2) peak frequency, and the peak frequencies
    /// (Hz) between the cells.
    pub cell_nodes: Vec<Vec<usize>>,
    pub cell_bounds: Vec<f64>,
    /// The standard deviation of ln L_RB − ln L_exact at the pilot's held-out draws, and
    /// their number.
    pub held_out_spread: f64,
    pub held_out_draws: usize,
    /// The wide posterior's sampler settings: time steps the likelihood is summed over,
    /// independence proposals per transition, NUTS's largest tree depth.
    pub time_steps: usize,
    pub independence_proposals: usize,
    pub max_tree_depth: u32,
}

/// What parallel tempering reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TemperingReport {
    /// Inverse temperatures of each chain's adapted ladder (β = 1 first).
    pub ladders: Vec<Vec<f64>>,
    /// Swap acceptance per neighbouring pair, averaged over chains.
    pub swap_acceptance: Vec<f64>,
    /// Round trips (β = 1 → β_min → β = 1) per chain after warm-up.
    pub round_trips: Vec<usize>,
    /// Thermodynamic-integration ln Z of the likelihood ratio (ln Bayes factor signal vs
    /// noise) with its Monte-Carlo standard error, if estimated.
    pub ln_bayes_factor: Option<(f64, f64)>,
}

/// Everything the run hands to `output::write_all`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunResult {
    /// Run label (file-name stem; bilby's `label`).
    pub label: String,
    /// Output directory (created by the writer if missing).
    pub outdir: PathBuf,
    /// Sampler name as bilby would show it: `tdpe-nuts`, `tdpe-hmc` or `tdpe-mala`.
    pub sampler: String,
    /// The analysis's parameter names in order ([`tdpe_signal::SpinModel::names`]).
    pub parameter_names: Vec<String>,
    /// The names actually sampled (the others are fixed by DeltaFunction priors).
    pub search_parameter_keys: Vec<String>,
    /// The posterior draws.
    pub posterior: PosteriorTable,
    /// The chains' states during warm-up, in the sampled parameters only (no derived columns,
    /// no marginalised distance or phase), in the posterior's layout: not posterior draws, for
    /// the trace plot.
    pub warmup: PosteriorTable,
    /// Injected values (the spin model's parameters and the derived columns) for injections.
    pub injection_parameters: Option<Vec<NamedValue>>,
    /// The fiducial point of relative binning (injection, or the maximum-likelihood search's
    /// result), same names as the injection.
    pub fiducial_parameters: Vec<NamedValue>,
    /// ln L of the fiducial point (log-likelihood ratio, exact likelihood).
    pub fiducial_log_likelihood: f64,
    /// The priors, in the prior file's order (constraints included).
    pub priors: Vec<PriorEntry>,
    /// Sampler settings.
    pub sampler_kwargs: SamplerSettings,
    /// The requested sampling coordinates and jumps that did not apply to the priors.
    pub not_applied: Vec<NotApplied>,
    /// The detectors the sky frame and the sky reflection were built on.
    pub sky_choices: SkyChoices,
    /// −½Σ_k⟨d|d⟩, the noise log-likelihood without its normalisation, as bilby's
    /// `log_noise_evidence` is (docs/likelihood.md §1.7).
    pub log_noise_evidence: f64,
    /// The normalised noise log-likelihood ln L(d | noise) = −½Σ_k(⟨d|d⟩ + log det 2πC_k).
    pub log_noise_evidence_normalised: f64,
    /// Per-detector information, in network order.
    pub detectors: Vec<DetectorInfo>,
    /// Where each detector's data came from, when read from GWOSC files: the file, its rate
    /// and decimation, the file sample the segment starts on, the PSD's data (else empty).
    pub data_sources: Vec<String>,
    /// GPS trigger time in s (the time origin of `WaveformReconstruction::times`).
    pub trigger_time: f64,
    /// GPS time of the first data sample in s.
    pub start_time: f64,
    /// Segment duration in s.
    pub duration: f64,
    /// Sampling frequency in Hz.
    pub sampling_frequency: f64,
    /// Lower edge of the waveform's band in Hz (bilby_pipe's `waveform` entry of a
    /// per-detector table, else the lowest detector's; `DetectorInfo` has each detector's).
    pub minimum_frequency: f64,
    /// Upper edge of the waveform's band in Hz (likewise, the highest detector's).
    pub maximum_frequency: f64,
    /// Reference frequency of the phase in Hz.
    pub reference_frequency: f64,
    /// Waveform approximant (`IMRPhenomT`, `IMRPhenomTHM`).
    pub approximant: String,
    /// The analysis's modes, e.g. `(2,±2), (3,±3)`.
    pub modes: String,
    /// The same modes as bilby's `mode_array` (`waveform_arguments` of result.json).
    pub mode_array: Vec<[i32; 2]>,
    /// The injected signal's model where it is not the analysis's: the approximant and its
    /// modes, e.g. `IMRPhenomTHM`, `(2,±2), (3,±3)` (bilby_pipe's
    /// `injection-waveform-approximant`).
    pub injection_model: Option<(String, String)>,
    /// Wall time before the sampling in s (data, likelihood set-up, fiducial search, relative
    /// binning, sampling coordinates).
    pub setup_time_s: f64,
    /// Wall time of the sampling alone in s (bilby's `sampling_time`).
    pub sampling_time_s: f64,
    /// Wall time of the whole run up to the hand-off (the set-up, the sampling, and the
    /// diagnostics, checks and reconstruction of the results) in s.
    pub total_time_s: f64,
    /// Gradient evaluations over all chains, warm-up included.
    pub gradient_evaluations: u64,
    /// Evaluations of the posterior density without its gradient (independence proposals,
    /// docs/sampling.md §4.4) over all chains, warm-up included.
    pub density_evaluations: u64,
    /// Parallel tempering's ladders, swaps and evidence (tempered runs only).
    pub tempering: Option<TemperingReport>,
    /// The relative-binning likelihood's set-up and check.
    pub relative_binning: RelativeBinningReport,
    /// Convergence diagnostics per sampled parameter and per derived parameter
    /// (`mass_1`, `mass_2`, `chi_eff`), keyed by bilby name, in column order.
    pub diagnostics: Vec<(String, ParamDiagnostics)>,
    /// Acceptance, divergences, gradient evaluations, step size… of every chain.
    pub chains: Vec<ChainSummary>,
    /// True if the run was stopped early (Ctrl-C); the posterior holds the draws made.
    pub interrupted: bool,
    /// Data and posterior waveforms for the reconstruction plot, per detector.
    pub reconstruction: Vec<WaveformReconstruction>,
    /// Data, PSD and posterior signals in the frequency domain, per detector.
    pub spectra: Vec<DetectorSpectrum>,
    /// The effective configuration (after overrides), as TOML text.
    pub config_toml: String,
    /// `tdpe` version.
    pub version: String,
}

impl RunResult {
    /// The injected value of `name`, if the data are an injection that sets it.
    pub fn injected(&self, name: &str) -> Option<f64> {
        self.injection_parameters
            .as_ref()?
            .iter()
            .find(|v| v.name == name)
            .map(|v| v.value)
    }

    /// Diagnostics of `name`, if it was assessed.
    pub fn diagnostics_of(&self, name: &str) -> Option<&ParamDiagnostics> {
        self.diagnostics
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d)
    }

    /// Whether relative binning's largest error at the checked posterior draws exceeds
    /// [`RELATIVE_BINNING_TOLERANCE`] (or could not be measured).
    pub fn relative_binning_inaccurate(&self) -> bool {
        let error = self.relative_binning.max_abs_error;
        error.is_nan() || error > RELATIVE_BINNING_TOLERANCE
    }

    /// Draws per chain in the posterior (the shortest chain's, as the posterior keeps them).
    pub fn draws_per_chain(&self) -> usize {
        self.chains
            .iter()
            .map(|c| c.num_draws)
            .filter(|&n| n > 0)
            .min()
            .unwrap_or(0)
    }

    /// Names whose R̂ exceeds `threshold` (e.g. 1.01): the chains disagree there.
    pub fn unconverged(&self, threshold: f64) -> Vec<&str> {
        self.diagnostics
            .iter()
            .filter(|(_, d)| d.rhat.is_nan() || d.rhat > threshold)
            .map(|(n, _)| n.as_str())
            .collect()
    }
}
