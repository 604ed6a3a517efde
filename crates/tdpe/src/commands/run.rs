//! `tdpe run`: parameter estimation of one binary black hole, end to end.
//!
//! config → data (injection: signal + seeded noise; or strain files) → exact likelihood →
//! fiducial point (the injection, or a maximum-likelihood search on real data) → relative
//! binning → posterior on an unconstrained vector → MCMC → `output::write_all`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{bail, Context};
use rand::seq::index::sample as sample_indices;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_detector::{greenwich_mean_sidereal_time, Detector, GpsTime};
use tdpe_likelihood::{
    BbhExactLikelihood, BbhRelativeBinning, ExactLikelihood, RelativeBinningOptions, SampleGrid,
};
use tdpe_mcmc::diagnostics::{ess_bulk, ess_tail, rhat};
use tdpe_mcmc::{
    sample_tempered_until, sample_until, Adaptation, Hmc, Init, Kernel, LogDensity, Mala,
    MetricAdaptation, Nuts, PriorLikelihood, SamplerConfig, Samples, TemperingConfig,
    WindowSchedule,
};
use tdpe_noise::{LowFrequencyCutoff, Psd, PsdColumn, BUILTIN_PSDS};
use tdpe_signal::{
    chirp_mass_and_ratio, component_masses, BbhParameters, SignalModel, PARAMETER_NAMES,
};

use crate::config::{
    Config, IntrinsicCoordinates, KernelName, MetricName, PhaseCoordinate, PsdColumnName,
    ReferenceFrame, StrainFormat,
};
use crate::data::{
    detector_seed, read_frequency_series, read_time_series, simulate_noise, Whitener,
};
use crate::distance_marginal::LUMINOSITY_DISTANCE;
use crate::fiducial::{maximize, Dimension, SearchOptions};
use crate::inclination_mirror::{InclinationMirror, PSI};
use crate::output;
use crate::peak_phase::PHASE;
use crate::posterior::{Affine, Posterior};
use crate::prior::{Entry, PriorFile, PriorSet, DEFAULT_PRIOR, GEOCENT_TIME};
use crate::run_result::{
    Column, DetectorInfo, NamedValue, ParamDiagnostics, PosteriorTable, PriorEntry, RunResult,
    SamplerSettings, TemperingReport, WaveformReconstruction,
};
use crate::sky_frame::DetectorFrameSky;
use crate::sky_ring::SkyRingReflection;
use crate::standardize::laplace_at_mode;
use crate::transform::wrap;

/// Posterior waveforms drawn for the reconstruction plot.
const RECONSTRUCTION_DRAWS: usize = 50;
/// Prior draws that give the prior widths bounding the Laplace map.
const PRIOR_WIDTH_DRAWS: usize = 4000;
/// Prior draws that seed the maximum-likelihood search.
const SEARCH_PRIOR_DRAWS: usize = 2000;

/// Runs parameter estimation and writes result.json, samples.csv, summary.md and plots.
///
/// Without CONFIG, analyses the embedded default: a GW150914-like injection (36 + 29 M☉,
/// χ 0.3/−0.2, 1200 Mpc) in simulated design-sensitivity noise of H1 and L1, 4 s at 2048 Hz
/// (print it with `tdpe config`). Flags override the config's values.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  tdpe run                           # the default injection, into tdpe-out/\n  \
                        tdpe run examples/gw150914.toml --outdir gw150914\n  \
                        tdpe run --sampler mala --n-chains 8 --seed 3\n  \
                        tdpe config > my.toml              # a starting point"
)]
pub struct Args {
    /// Run configuration (TOML); see `tdpe config` for every key and its default.
    #[arg(value_name = "CONFIG.toml")]
    pub config: Option<PathBuf>,

    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR", default_value = "tdpe-out")]
    pub outdir: PathBuf,

    /// MCMC kernel [config: sampler.kernel].
    #[arg(long, value_enum)]
    pub sampler: Option<KernelName>,

    /// Metric learned in the warm-up [config: sampler.metric].
    #[arg(long, value_enum)]
    pub metric: Option<MetricName>,

    /// Sky and time coordinates of the sampler [config: sampler.reference_frame].
    #[arg(long, value_enum)]
    pub reference_frame: Option<ReferenceFrame>,

    /// Mass-ratio and spin coordinates of the sampler [config: sampler.intrinsic_coordinates].
    #[arg(long, value_enum)]
    pub intrinsic_coordinates: Option<IntrinsicCoordinates>,

    /// Phase coordinate of the sampler [config: sampler.phase_coordinate].
    #[arg(long, value_enum)]
    pub phase_coordinate: Option<PhaseCoordinate>,

    /// Sample phase ± psi instead of phase and psi [config: sampler.circular_phases].
    #[arg(long, value_name = "BOOL")]
    pub circular_phases: Option<bool>,

    /// Try the face-on/face-off mirror of theta_jn and psi after every transition
    /// [config: sampler.inclination_mirror].
    #[arg(long, value_name = "BOOL")]
    pub inclination_mirror: Option<bool>,

    /// Try the reflection between the two ends of the two-detector sky ring after every
    /// transition [config: sampler.sky_ring_reflection].
    #[arg(long, value_name = "BOOL")]
    pub sky_ring_reflection: Option<bool>,

    /// Marginalise the likelihood over luminosity_distance, drawing each sample's distance
    /// afterwards [config: sampler.distance_marginalization].
    #[arg(long, value_name = "BOOL")]
    pub distance_marginalization: Option<bool>,

    /// Temperatures per chain; > 1 runs parallel tempering [config: sampler.num_temperatures].
    #[arg(long, value_name = "K")]
    pub temperatures: Option<usize>,

    /// Number of chains [config: sampler.num_chains].
    #[arg(long, value_name = "N")]
    pub n_chains: Option<usize>,

    /// Warm-up iterations per chain [config: sampler.num_warmup].
    #[arg(long, value_name = "N")]
    pub n_warmup: Option<usize>,

    /// Kept draws per chain [config: sampler.num_draws].
    #[arg(long, value_name = "N")]
    pub n_draws: Option<usize>,

    /// Master seed of the chains, the relative-binning design and the search
    /// [config: sampler.seed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Worker threads, 0 = all cores; never changes the results [config: sampler.threads].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Target acceptance statistic of the step-size adaptation; default 0.95 for NUTS, the
    /// kernel's own for HMC and MALA [config: sampler.target_accept].
    #[arg(long, value_name = "P")]
    pub target_accept: Option<f64>,

    /// Relative-binning accuracy target ≈ (wanted |Δ ln L|)² [config:
    /// likelihood.relative_binning_target].
    #[arg(long, value_name = "T")]
    pub rb_target: Option<f64>,

    /// Prior file in bilby syntax, or `default` [config: prior_file].
    #[arg(long, value_name = "FILE")]
    pub prior_file: Option<String>,

    /// Noise seed of the injection [config: injection.noise_seed].
    #[arg(long, value_name = "S")]
    pub noise_seed: Option<u64>,

    /// Inject into zero noise [config: injection.zero_noise].
    #[arg(long)]
    pub zero_noise: bool,

    /// Run label [config: label].
    #[arg(long)]
    pub label: Option<String>,

    /// Do not draw the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// Applies the command-line overrides.
fn apply_overrides(config: &mut Config, args: &Args) -> anyhow::Result<()> {
    let s = &mut config.sampler;
    if let Some(k) = args.sampler {
        s.kernel = k;
    }
    if let Some(m) = args.metric {
        s.metric = m;
    }
    if let Some(f) = args.reference_frame {
        s.reference_frame = f;
    }
    if let Some(c) = args.intrinsic_coordinates {
        s.intrinsic_coordinates = c;
    }
    if let Some(c) = args.phase_coordinate {
        s.phase_coordinate = c;
    }
    if let Some(c) = args.circular_phases {
        s.circular_phases = c;
    }
    if let Some(m) = args.inclination_mirror {
        s.inclination_mirror = m;
    }
    if let Some(m) = args.sky_ring_reflection {
        s.sky_ring_reflection = m;
    }
    if let Some(m) = args.distance_marginalization {
        s.distance_marginalization = m;
    }
    if let Some(k) = args.temperatures {
        s.num_temperatures = k;
    }
    if let Some(n) = args.n_chains {
        s.num_chains = n;
    }
    if let Some(n) = args.n_warmup {
        s.num_warmup = n;
    }
    if let Some(n) = args.n_draws {
        s.num_draws = n;
    }
    if let Some(n) = args.seed {
        s.seed = n;
    }
    if let Some(n) = args.threads {
        s.threads = n;
    }
    if args.target_accept.is_some() {
        s.target_accept = args.target_accept;
    }
    if let Some(t) = args.rb_target {
        config.likelihood.relative_binning_target = t;
    }
    if let Some(p) = &args.prior_file {
        config.prior_file = p.clone();
    }
    if let Some(l) = &args.label {
        config.label = l.clone();
    }
    if args.zero_noise || args.noise_seed.is_some() {
        let injection = config
            .injection
            .as_mut()
            .context("--zero-noise and --noise-seed need an [injection] in the config")?;
        injection.zero_noise |= args.zero_noise;
        if let Some(seed) = args.noise_seed {
            injection.noise_seed = seed;
        }
    }
    Ok(())
}

/// Everything set up before sampling.
pub(crate) struct Problem {
    pub(crate) config: Config,
    pub(crate) epoch: GpsTime,
    grid: SampleGrid,
    cutoff: LowFrequencyCutoff,
    psds: Vec<Psd>,
    pub(crate) exact: BbhExactLikelihood,
    priors: PriorSet,
    injection: Option<BbhParameters>,
}

/// The PSD of `detector` from the config: built-in name, file, or the design default.
fn load_psd(config: &Config, detector: &str) -> anyhow::Result<Psd> {
    let psd = match config.psd.get(detector) {
        None => Psd::default_for_detector(detector)?,
        Some(spec) if BUILTIN_PSDS.iter().any(|b| b.eq_ignore_ascii_case(spec)) => {
            Psd::builtin(spec)?
        }
        Some(spec) => {
            let column = match config.psd_column {
                PsdColumnName::Psd => PsdColumn::Psd,
                PsdColumnName::Asd => PsdColumn::Asd,
            };
            // bilby's PSD files start at 0 Hz (log-log interpolation cannot use it) and hold
            // `inf` above their maximum frequency: keep the rows with f > 0 and a finite value.
            // If the last kept row lies less than 1 % below the Nyquist frequency, its value is
            // repeated at the Nyquist frequency (a 1024 Hz file analysed at 2048 Hz).
            let path = config.resolve(spec);
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read PSD file {}", path.display()))?;
            let mut kept = String::new();
            let mut last: Option<(f64, String)> = None;
            for line in text.lines() {
                let cols: Vec<f64> = line
                    .split_whitespace()
                    .filter_map(|v| v.parse().ok())
                    .collect();
                match cols[..] {
                    [f, v] if f <= 0.0 || !v.is_finite() => continue,
                    [f, _] => {
                        last = Some((f, line.split_whitespace().nth(1).unwrap_or("").to_string()))
                    }
                    _ => {}
                }
                kept.push_str(line);
                kept.push('\n');
            }
            let nyquist = config.sampling_frequency / 2.0;
            if let Some((f, value)) = last {
                if f < nyquist && f > 0.99 * nyquist {
                    kept.push_str(&format!("{nyquist} {value}\n"));
                }
            }
            Psd::parse(&kept, &path.display().to_string(), column)?
        }
    };
    Ok(psd)
}

/// Checks that every corner of the prior box in (chirp_mass, mass_ratio, chi_1, chi_2) gives a
/// waveform (e.g. that f_ref is reached by the heaviest binary).
fn check_prior_corners(model: &SignalModel, priors: &PriorSet) -> anyhow::Result<()> {
    let ends = |k: usize| {
        let (lo, hi) = priors.parameters[k].distribution.support();
        [lo, hi]
    };
    for mc in ends(0) {
        for q in ends(1) {
            for c1 in ends(2) {
                for c2 in ends(3) {
                    if let Err(e) = model.waveform(mc, q, c1, c2) {
                        bail!(
                            "the prior allows chirp_mass = {mc}, mass_ratio = {q}, chi_1 = {c1}, \
                             chi_2 = {c2}, outside the waveform's range: {e}"
                        );
                    }
                }
            }
        }
    }
    Ok(())
}

/// The injected parameters (geocent_time relative to `epoch`).
fn injection_parameters(config: &Config, epoch: &GpsTime) -> anyhow::Result<Option<BbhParameters>> {
    let Some(inj) = &config.injection else {
        return Ok(None);
    };
    let (chirp_mass, mass_ratio) = match (inj.mass_1, inj.mass_2, inj.chirp_mass, inj.mass_ratio) {
        (Some(m1), Some(m2), None, None) => {
            if !(m1 > 0.0 && m2 > 0.0) {
                bail!("injection: mass_1 = {m1} and mass_2 = {m2} must be > 0 M☉");
            }
            chirp_mass_and_ratio(m1, m2)
        }
        (None, None, Some(mc), Some(q)) => (mc, q),
        _ => bail!("injection: give mass_1 and mass_2, or chirp_mass and mass_ratio"),
    };
    let gps = inj.geocent_time.unwrap_or(config.trigger_time);
    let geocent_time = GpsTime::from_f64(gps)?.seconds_since(epoch);
    Ok(Some(BbhParameters {
        chirp_mass,
        mass_ratio,
        chi_1: inj.chi_1,
        chi_2: inj.chi_2,
        luminosity_distance: inj.luminosity_distance,
        theta_jn: inj.theta_jn,
        psi: inj.psi,
        phase: inj.phase,
        geocent_time,
        ra: inj.ra,
        dec: inj.dec,
    }))
}

/// Reads and checks everything up to the exact likelihood.
pub(crate) fn set_up(config: Config) -> anyhow::Result<Problem> {
    config.validate()?;
    let detectors = Detector::network(&config.detectors).context("detectors")?;
    let epoch = GpsTime::from_f64(config.trigger_time).context("trigger_time")?;
    let fs = config.sampling_frequency;
    let grid = SampleGrid::new(
        config.post_trigger_duration - config.duration,
        fs,
        config.duration,
    )?;
    let cutoff = LowFrequencyCutoff {
        f_low: config.minimum_frequency,
        ..LowFrequencyCutoff::default()
    };
    cutoff.validate()?;
    let psds = config
        .detectors
        .iter()
        .map(|d| {
            let psd = load_psd(&config, d).with_context(|| format!("PSD of {d}"))?;
            psd.check_covers(cutoff.f_start(), fs / 2.0)
                .with_context(|| format!("PSD of {d}"))?;
            Ok(psd)
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let model = SignalModel::new(detectors, epoch, config.reference_frequency, 1.0 / fs)?;

    let file = if config.prior_file == "default" {
        PriorFile::parse(
            DEFAULT_PRIOR,
            "default prior (examples/gw150914_like.prior)",
        )?
    } else {
        PriorFile::read(&config.resolve(&config.prior_file))?
    };
    let priors = PriorSet::resolve(file, epoch.as_f64(), config.trigger_time)?;
    check_prior_corners(&model, &priors)?;

    let injection = injection_parameters(&config, &epoch)?;
    let data: Vec<Vec<f64>> = match (&injection, &config.strain) {
        (Some(p), _) => {
            for (k, prior) in priors.parameters.iter().enumerate() {
                let v = p.to_array()[k];
                let (lo, hi) = prior.distribution.support();
                if !(prior.is_fixed() || (v > lo && v < hi)) {
                    bail!(
                        "injection: {} = {v} is outside its prior [{lo}, {hi}] (geocent_time relative to the trigger)",
                        PARAMETER_NAMES[k]
                    );
                }
            }
            let signal = model
                .strain(p, grid.start, grid.dt, grid.len)
                .context("injection")?;
            let inj = config.injection.as_ref().context("injection settings")?;
            signal
                .into_iter()
                .enumerate()
                .map(|(k, mut h)| {
                    if !inj.zero_noise {
                        let seed = detector_seed(inj.noise_seed, k);
                        let noise = simulate_noise(&psds[k], &cutoff, &grid, seed)?;
                        h.iter_mut().zip(&noise).for_each(|(h, n)| *h += n);
                    }
                    Ok(h)
                })
                .collect::<anyhow::Result<_>>()?
        }
        (None, Some(strain)) => {
            let start_gps = config.trigger_time + grid.start;
            config
                .detectors
                .iter()
                .map(|d| {
                    let path = config.resolve(&strain.files[d]);
                    match strain.format {
                        StrainFormat::TimeSeries => read_time_series(&path, &grid, start_gps),
                        StrainFormat::FrequencySeries => read_frequency_series(&path, &grid),
                    }
                })
                .collect::<anyhow::Result<_>>()?
        }
        (None, None) => bail!("no data: give an [injection] or a [strain] table"),
    };
    let inputs = config
        .detectors
        .iter()
        .zip(data)
        .zip(&psds)
        .map(|((d, x), psd)| (d.clone(), x, psd))
        .collect();
    let exact = ExactLikelihood::from_psds(grid, inputs, &cutoff)?;
    let exact = BbhExactLikelihood::new(model, exact)?;
    Ok(Problem {
        config,
        epoch,
        grid,
        cutoff,
        psds,
        exact,
        priors,
        injection,
    })
}

/// The maximum-likelihood point of the exact likelihood over the prior box (real data).
fn search_fiducial(problem: &Problem, threads: usize) -> anyhow::Result<BbhParameters> {
    let priors = &problem.priors;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(problem.config.sampler.seed ^ 0x5EA2C4);
    let mut base = [0.0; 11];
    let mut sampled = Vec::new();
    for (k, prior) in priors.parameters.iter().enumerate() {
        if prior.is_fixed() {
            base[k] = prior.distribution.support().0;
        } else {
            sampled.push(k);
        }
    }
    let draws: Vec<[f64; 11]> = (0..SEARCH_PRIOR_DRAWS)
        .map(|_| {
            let mut t = base;
            for &k in &sampled {
                t[k] = priors.parameters[k].distribution.sample(&mut rng);
            }
            t
        })
        .collect();
    let dims: Vec<Dimension> = sampled
        .iter()
        .map(|&k| {
            let prior = &priors.parameters[k];
            let (lo, hi) = prior.distribution.support();
            // Unbounded priors: the range of the draws.
            let (dlo, dhi) = draws
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), t| {
                    (a.min(t[k]), b.max(t[k]))
                });
            Dimension {
                lower: if lo.is_finite() { lo } else { dlo },
                upper: if hi.is_finite() { hi } else { dhi },
                periodic: prior.is_periodic(),
            }
        })
        .collect();
    let theta_of = |point: &[f64]| {
        let mut t = base;
        for (&k, &v) in sampled.iter().zip(point) {
            t[k] = v;
        }
        t
    };
    let constraints_ok = |t: &[f64; 11]| {
        let (m1, m2) = component_masses(t[0], t[1]);
        priors.constraints.iter().all(|c| match c.name.as_str() {
            "mass_1" => c.allows(m1),
            "mass_2" => c.allows(m2),
            _ => true,
        })
    };
    let objective = |point: &[f64]| {
        let t = theta_of(point);
        if !constraints_ok(&t) {
            return f64::NEG_INFINITY;
        }
        problem
            .exact
            .log_likelihood_ratio(&BbhParameters::from_array(t))
            .unwrap_or(f64::NEG_INFINITY)
    };
    let initial: Vec<Vec<f64>> = draws
        .iter()
        .filter(|t| constraints_ok(t))
        .map(|t| sampled.iter().map(|&k| t[k]).collect())
        .collect();
    let fid = &problem.config.fiducial;
    let result = maximize(
        objective,
        &dims,
        &initial,
        &SearchOptions {
            population: fid.population,
            generations: fid.generations,
            polish_evaluations: fid.polish_evaluations,
            seed: problem.config.sampler.seed,
            threads,
        },
    );
    if !result.value.is_finite() {
        bail!("the maximum-likelihood search found no point where the likelihood is defined");
    }
    eprintln!(
        "fiducial: maximum-likelihood search, ln L = {:.2} after {} evaluations",
        result.value, result.evaluations
    );
    Ok(BbhParameters::from_array(theta_of(&result.point)))
}

/// Values of a periodic parameter on [lower, upper) re-wrapped so that the period starts in the
/// emptiest of 64 bins of their histogram.
fn cut_at_sparsest(values: &[f64], lower: f64, upper: f64) -> Vec<f64> {
    const BINS: usize = 64;
    let period = upper - lower;
    let mut counts = [0usize; BINS];
    for v in values {
        let bin = (((v - lower) / period).rem_euclid(1.0) * BINS as f64) as usize;
        counts[bin.min(BINS - 1)] += 1;
    }
    let emptiest = (0..BINS).min_by_key(|&b| counts[b]).unwrap_or(0);
    let cut = lower + (emptiest as f64 + 0.5) * period / BINS as f64;
    values.iter().map(|&v| wrap(v, cut, period)).collect()
}

/// Named values of the 11 parameters (absolute GPS geocent_time) and the derived masses and χ_eff.
fn named_values(t: &[f64; 11], epoch: &GpsTime) -> Vec<NamedValue> {
    let mut out: Vec<NamedValue> = PARAMETER_NAMES
        .iter()
        .zip(t)
        .enumerate()
        .map(|(k, (n, &v))| NamedValue {
            name: n.to_string(),
            value: if k == GEOCENT_TIME {
                absolute_time(epoch, v)
            } else {
                v
            },
        })
        .collect();
    for (name, value) in derived(t) {
        out.push(NamedValue {
            name: name.into(),
            value,
        });
    }
    out
}

/// GPS time in s of `t` s after `epoch`.
fn absolute_time(epoch: &GpsTime, t: f64) -> f64 {
    epoch.add_seconds(t).as_f64()
}

/// mass_1, mass_2 (M☉) and χ_eff = (m1 χ1 + m2 χ2)/(m1 + m2).
fn derived(t: &[f64; 11]) -> [(&'static str, f64); 3] {
    let (m1, m2) = component_masses(t[0], t[1]);
    [
        ("mass_1", m1),
        ("mass_2", m2),
        ("chi_eff", (m1 * t[2] + m2 * t[3]) / (m1 + m2)),
    ]
}

/// NUTS's default target acceptance for these posteriors: the step adapted in the bulk can be
/// too long for the unequal-mass tail (q ≲ 0.6), where a chain then sticks with divergent
/// trajectories. On the default run (seed 1) Stan's 0.8 gave 82 divergences and R̂ 1.02 in
/// mass_ratio; 0.9 gave 3–11 over 4 × 1000 draws but one chain stuck in that tail over its
/// next 500 (65 divergences, R̂ 1.02); 0.95 gave 2 on seeds 1 and 2, for ~30 % more gradients
/// than 0.9.
const NUTS_TARGET_ACCEPT: f64 = 0.95;

/// Terminal window of the warm-up: Stan's windows otherwise, but 150 iterations (not 50) in
/// which the step size settles to the final metric. After 50, dual averaging left steps ~30 %
/// longer than the target acceptance wants (600 warm-up iterations: sampling acceptance
/// 0.885–0.958 against 0.95, 25 divergences). With 150, 4 × (700 + 1500) took 1.66–1.95 M
/// gradients on seeds 1–4 with smallest bulk ESS 1820, 1265, 1065 and 715, where
/// 4 × (1000 + 1500) with Stan's windows took 2.15 and 2.30 M with 1221 and 685 on seeds 1 and
/// 2 (docs/sampler_studies.md). The chains' final steps still differ by up to 1.8×.
const WARMUP_TERMINAL_BUFFER: usize = 150;

/// What the sampler returns: the draws, the target acceptance used, and the tempering report.
struct SamplerOutput {
    samples: Samples,
    target_accept: f64,
    tempering: Option<TemperingReport>,
}

/// Runs the chosen kernel, tempered if `tempering.num_temperatures > 1`, until done or `stop`.
fn run_sampler<M: LogDensity + PriorLikelihood + Sync>(
    model: &M,
    name: KernelName,
    target_accept: Option<f64>,
    config: &SamplerConfig,
    tempering: &TemperingConfig,
    stop: &AtomicBool,
) -> anyhow::Result<SamplerOutput> {
    fn with<M: LogDensity + PriorLikelihood + Sync, K: Kernel>(
        model: &M,
        kernel: K,
        config: &SamplerConfig,
        tempering: &TemperingConfig,
        stop: &AtomicBool,
    ) -> anyhow::Result<SamplerOutput> {
        let target_accept = kernel.target_accept();
        if tempering.num_temperatures <= 1 {
            return Ok(SamplerOutput {
                samples: sample_until(model, &kernel, config, stop)?,
                target_accept,
                tempering: None,
            });
        }
        let tempered = sample_tempered_until(model, &kernel, config, tempering, stop)?;
        let tempering = TemperingReport {
            ladders: tempered.chains.iter().map(|c| c.ladder.clone()).collect(),
            swap_acceptance: tempered.swap_acceptance(),
            round_trips: tempered.round_trips(),
            ln_bayes_factor: tempered.ln_evidence.map(|e| (e.ln_z, e.stderr)),
        };
        Ok(SamplerOutput {
            samples: tempered.samples,
            target_accept,
            tempering: Some(tempering),
        })
    }
    match name {
        KernelName::Nuts => {
            let k = Nuts {
                target_accept: target_accept.unwrap_or(NUTS_TARGET_ACCEPT),
                ..Nuts::default()
            };
            with(model, k, config, tempering, stop)
        }
        KernelName::Hmc => {
            let mut k = Hmc::default();
            k.target_accept = target_accept.unwrap_or(k.target_accept);
            with(model, k, config, tempering, stop)
        }
        KernelName::Mala => {
            let mut k = Mala::default();
            k.target_accept = target_accept.unwrap_or(k.target_accept);
            with(model, k, config, tempering, stop)
        }
    }
}

/// A flag that the first Ctrl-C sets (the chains then stop and the draws so far are written);
/// a second Ctrl-C exits at once.
fn interrupt_flag() -> &'static AtomicBool {
    static STOP: AtomicBool = AtomicBool::new(false);
    // Setting the handler fails only if one is already set (a second run in one process).
    let _ = ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the current transitions and writing the draws so far (Ctrl-C again to abort)");
    });
    &STOP
}

/// The fiducial point (the injection, or the maximum-likelihood search on real data; fixed
/// parameters at their DeltaFunction values) and the relative-binning likelihood around it.
pub(crate) fn relative_binning_at_fiducial(
    problem: &Problem,
    threads: usize,
) -> anyhow::Result<([f64; 11], BbhRelativeBinning)> {
    let config = &problem.config;
    let fiducial = match problem.injection {
        Some(p) => p,
        None => search_fiducial(problem, threads)?,
    };
    let mut fiducial_theta = fiducial.to_array();
    for (k, prior) in problem.priors.parameters.iter().enumerate() {
        if prior.is_fixed() {
            fiducial_theta[k] = prior.distribution.support().0;
        }
    }
    let options = RelativeBinningOptions {
        target: config.likelihood.relative_binning_target,
        design_points: config.likelihood.design_points,
        max_nodes: config.likelihood.max_nodes,
        seed: config.sampler.seed,
        ..RelativeBinningOptions::default()
    };
    let rb = BbhRelativeBinning::new(
        &problem.exact,
        BbhParameters::from_array(fiducial_theta),
        &options,
    )
    .context("relative binning around the fiducial point")?;
    Ok((fiducial_theta, rb))
}

/// Each detector with its sensitivity to the fiducial signal, ⟨h|h⟩ per unit |Q|² of its
/// projection factor: the weights of the inclination mirror.
fn detector_sensitivities(
    problem: &Problem,
    theta: &[f64; 11],
) -> anyhow::Result<Vec<(Detector, f64)>> {
    let p = BbhParameters::from_array(*theta);
    let terms = problem.exact.detector_terms(&p)?;
    let model = problem.exact.model();
    Ok(model
        .detectors()
        .iter()
        .zip(&terms)
        .enumerate()
        .map(|(k, (detector, t))| {
            let response = model.projection(k, &p).value.factor.norm_sqr();
            let sensitivity = if response > 0.0 {
                t.h_h / response
            } else {
                0.0
            };
            (detector.clone(), sensitivity)
        })
        .collect())
}

/// Runs `tdpe run`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut config = Config::load(args.config.as_deref())?;
    apply_overrides(&mut config, args)?;
    let problem = set_up(config)?;
    let config = &problem.config;
    let threads = match config.sampler.threads {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    };

    let (fiducial_theta, rb) = relative_binning_at_fiducial(&problem, threads)?;
    let node_counts = rb.node_counts();
    let fiducial_log_likelihood = problem
        .exact
        .log_likelihood_ratio(&BbhParameters::from_array(fiducial_theta))?;

    let mut posterior = Posterior::new(problem.priors.clone(), rb);
    if config.sampler.distance_marginalization {
        posterior.use_distance_marginalization();
    }
    if config.sampler.intrinsic_coordinates == IntrinsicCoordinates::Effective {
        posterior.use_symmetric_mass_ratio();
        posterior.use_effective_spin();
    }
    let detectors = problem.exact.model().detectors();
    let gmst = greenwich_mean_sidereal_time(problem.epoch)?;
    if config.sampler.reference_frame == ReferenceFrame::Detectors {
        if let [first, second, ..] = detectors {
            posterior.use_detector_frame(DetectorFrameSky::new(first, second, gmst)?);
        }
    }
    if config.sampler.inclination_mirror {
        let sensitivities = detector_sensitivities(&problem, &fiducial_theta)?;
        posterior.use_inclination_mirror(InclinationMirror::new(sensitivities, gmst));
    }
    if config.sampler.phase_coordinate == PhaseCoordinate::Peak {
        posterior.use_peak_phase(problem.exact.model().clone());
    }
    if config.sampler.circular_phases {
        posterior.use_circular_phases();
    }
    if config.sampler.sky_ring_reflection {
        if let Some(ring) = SkyRingReflection::new(detectors, gmst) {
            posterior.use_sky_ring_reflection(ring);
        }
    }
    let center = posterior.to_y(&fiducial_theta);
    let dim = center.len();
    posterior.standardize(Affine::diagonal(center.clone(), &vec![1.0; dim]));
    let x0 = posterior.to_x(&fiducial_theta);
    let mut g0 = vec![0.0; x0.len()];
    if !posterior.log_density_and_gradient(&x0, &mut g0).is_finite() {
        bail!(
            "the posterior is zero at the fiducial point {fiducial_theta:?} (a constraint, or a \
             parameter on its prior's bound)"
        );
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.sampler.seed ^ 0x1A9_1ACE);
    let prior_widths = posterior.prior_widths(PRIOR_WIDTH_DRAWS, &mut rng);
    let (affine, newton_steps) = laplace_at_mode(&posterior, &center, &prior_widths);
    eprintln!(
        "sampler coordinates: Laplace map at the posterior mode, {newton_steps} Newton steps from the fiducial point"
    );
    posterior.standardize(affine);
    let sampler_config = SamplerConfig {
        num_chains: config.sampler.num_chains,
        num_warmup: config.sampler.num_warmup,
        num_draws: config.sampler.num_draws,
        seed: config.sampler.seed,
        threads: config.sampler.threads,
        progress: !args.no_progress,
        init: Init {
            center: Some(vec![0.0; dim]),
            radius: config.sampler.init_radius,
            max_attempts: 100,
        },
        adaptation: Adaptation {
            metric: match config.sampler.metric {
                MetricName::Dense => MetricAdaptation::Dense,
                MetricName::Diagonal => MetricAdaptation::Diagonal,
            },
            windows: WindowSchedule {
                term_buffer: WARMUP_TERMINAL_BUFFER,
                ..WindowSchedule::default()
            },
            ..Adaptation::default()
        },
        ..SamplerConfig::default()
    };
    let sampling_started = Instant::now();
    let tempering = TemperingConfig {
        num_temperatures: config.sampler.num_temperatures,
        beta_min: config.sampler.beta_min,
        ..TemperingConfig::default()
    };
    let SamplerOutput {
        samples,
        target_accept,
        tempering,
    } = run_sampler(
        &posterior,
        config.sampler.kernel,
        config.sampler.target_accept,
        &sampler_config,
        &tempering,
        interrupt_flag(),
    )?;
    let sampling_time_s = sampling_started.elapsed().as_secs_f64();

    let result = collect(
        &problem,
        &posterior,
        &samples,
        CollectInfo {
            outdir: args.outdir.clone(),
            fiducial_theta,
            fiducial_log_likelihood,
            node_counts,
            target_accept,
            tempering,
            sampling_time_s,
            started,
        },
    )?;
    if result.posterior.is_empty() {
        bail!("the sampler returned no draws");
    }
    output::write_all(&result)?;
    let unconverged = result.unconverged(1.01);
    println!(
        "tdpe run: {} draws ({} chains, {}) in {:.1} s (sampling {:.1} s, {} gradients); outputs in {}",
        result.posterior.len(),
        samples.chains.len(),
        config.sampler.kernel.as_str(),
        started.elapsed().as_secs_f64(),
        sampling_time_s,
        result.gradient_evaluations,
        args.outdir.display()
    );
    if !unconverged.is_empty() {
        println!(
            "warning: the chains disagree (R-hat > 1.01) on {}: see summary.md",
            unconverged.join(", ")
        );
    }
    Ok(())
}

/// What [`collect`] needs besides the problem and the draws.
struct CollectInfo {
    outdir: PathBuf,
    fiducial_theta: [f64; 11],
    fiducial_log_likelihood: f64,
    node_counts: Vec<usize>,
    target_accept: f64,
    tempering: Option<TemperingReport>,
    sampling_time_s: f64,
    started: Instant,
}

/// Builds the hand-off for the writers.
fn collect(
    problem: &Problem,
    posterior: &Posterior<BbhRelativeBinning>,
    samples: &Samples,
    info: CollectInfo,
) -> anyhow::Result<RunResult> {
    let config = &problem.config;
    let epoch = &problem.epoch;
    let rb = posterior.likelihood();
    let len = samples
        .chains
        .iter()
        .map(|c| c.num_draws())
        .filter(|&n| n > 0)
        .min()
        .unwrap_or(0);
    // The sampler does not tell apart the parameter vectors of
    // `Posterior::equivalent_parameters` (with circular phases, the four (phase, psi) of the
    // same (2,±2) signal). The results report a uniformly random one per draw, so that the
    // marginals are those of the full space; the diagnostics use the one the sampler returned,
    // whose movement is the chains' own.
    let mut orbit_rng = Xoshiro256PlusPlus::seed_from_u64(config.sampler.seed ^ 0x0_2B17);
    let mut sampled_thetas = Vec::new();
    let mut thetas = Vec::new();
    let mut chain_index = Vec::new();
    // With distance marginalisation, each draw's distance from its conditional posterior.
    let mut distance_rng = Xoshiro256PlusPlus::seed_from_u64(config.sampler.seed ^ 0xD157);
    for c in samples.chains.iter().filter(|c| c.num_draws() > 0) {
        for i in 0..len {
            let mut theta = posterior.parameters(c.draw(i));
            posterior
                .draw_distance(&mut theta, &mut distance_rng)
                .context("drawing a posterior sample's luminosity_distance")?;
            thetas.push(posterior.equivalent_parameters(&theta, orbit_rng.random_range(0..4)));
            sampled_thetas.push(theta);
            chain_index.push(c.chain);
        }
    }
    let mut names: Vec<&str> = PARAMETER_NAMES.to_vec();
    names.extend(["mass_1", "mass_2", "chi_eff", "log_likelihood", "log_prior"]);
    let mut columns: Vec<Column> = names
        .iter()
        .map(|n| Column {
            name: n.to_string(),
            values: Vec::with_capacity(thetas.len()),
        })
        .collect();
    for t in &thetas {
        for k in 0..11 {
            let v = if k == GEOCENT_TIME {
                absolute_time(epoch, t[k])
            } else {
                t[k]
            };
            columns[k].values.push(v);
        }
        for (j, (_, v)) in derived(t).into_iter().enumerate() {
            columns[11 + j].values.push(v);
        }
        let log_l = rb
            .log_likelihood_ratio(&BbhParameters::from_array(*t))
            .unwrap_or(f64::NEG_INFINITY);
        columns[14].values.push(log_l);
        columns[15].values.push(posterior.log_prior(t));
    }

    // Diagnostics on the parameters' values (sampled and derived), not on the sampler's
    // coordinates: those mix every parameter with the periodic ones, which wander freely over
    // their periods on the real line (through exact copies of the posterior, e.g. ψ + π/2 with
    // φ + π/2 for the (2,2) mode) and would look unconverged in every coordinate. Periodic
    // parameters are cut where their draws are sparsest, so that a mode is not split in two.
    let n_chains = chain_index.len().checked_div(len).unwrap_or(0);
    let mut sampled = posterior.sampled_names();
    if posterior.marginalizes_distance() {
        sampled.push(PARAMETER_NAMES[LUMINOSITY_DISTANCE]);
    }
    let mut diagnostics: Vec<(String, ParamDiagnostics)> = Vec::new();
    for (k, column) in columns[..14].iter().enumerate() {
        if len < 4 || (k < 11 && !sampled.contains(&PARAMETER_NAMES[k])) {
            continue;
        }
        let values = if k == PHASE || k == PSI {
            sampled_thetas.iter().map(|t| t[k]).collect()
        } else {
            column.values.clone()
        };
        let prior = problem.priors.parameters.get(k);
        let values = match prior.filter(|p| p.is_periodic()) {
            Some(p) => {
                let (lower, upper) = p.distribution.support();
                cut_at_sparsest(&values, lower, upper)
            }
            None => values,
        };
        let per_chain: Vec<&[f64]> = (0..n_chains)
            .map(|c| &values[c * len..(c + 1) * len])
            .collect();
        diagnostics.push((
            column.name.clone(),
            ParamDiagnostics {
                rhat: rhat(&per_chain),
                ess_bulk: ess_bulk(&per_chain),
                ess_tail: ess_tail(&per_chain),
            },
        ));
    }

    // Per-detector SNRs at the fiducial point.
    let terms = problem
        .exact
        .detector_terms(&BbhParameters::from_array(info.fiducial_theta))?;
    let detectors = terms
        .iter()
        .zip(&problem.psds)
        .zip(&info.node_counts)
        .map(|((t, psd), &nodes)| DetectorInfo {
            name: t.name.clone(),
            optimal_snr: t.optimal_snr,
            matched_filter_snr: t.matched_filter_snr,
            psd: psd.name().to_string(),
            relative_binning_nodes: nodes,
        })
        .collect();

    // Waveform reconstruction.
    let grid = &problem.grid;
    let times: Vec<f64> = (0..grid.len).map(|i| grid.time(i)).collect();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(config.sampler.seed ^ 0x00C0_FFEE);
    let picks: Vec<usize> = if thetas.is_empty() {
        Vec::new()
    } else {
        sample_indices(
            &mut rng,
            thetas.len(),
            RECONSTRUCTION_DRAWS.min(thetas.len()),
        )
        .into_vec()
    };
    let draw_templates: Vec<Vec<Vec<f64>>> = picks
        .iter()
        .map(|&i| {
            problem
                .exact
                .templates(&BbhParameters::from_array(thetas[i]))
        })
        .collect::<Result<_, _>>()?;
    let injection_templates = match &problem.injection {
        Some(p) => Some(problem.exact.templates(p)?),
        None => None,
    };
    let mut reconstruction = Vec::new();
    for (k, name) in config.detectors.iter().enumerate() {
        let whitener = Whitener::new(&problem.psds[k], &problem.cutoff, grid)?;
        reconstruction.push(WaveformReconstruction {
            detector: name.clone(),
            times: times.clone(),
            whitened_data: whitener.whiten(problem.exact.likelihood().data(k))?,
            whitened_waveforms: draw_templates
                .iter()
                .map(|h| whitener.whiten(&h[k]))
                .collect::<anyhow::Result<_>>()?,
            whitened_injection: match &injection_templates {
                Some(h) => Some(whitener.whiten(&h[k])?),
                None => None,
            },
        });
    }

    let chains = samples.chain_summaries();
    let gradient_evaluations = chains
        .iter()
        .map(|c| c.warmup_grad_evals + c.grad_evals)
        .sum();
    Ok(RunResult {
        label: config.label.clone(),
        outdir: info.outdir,
        sampler: format!("tdpe-{}", config.sampler.kernel.as_str()),
        parameter_names: PARAMETER_NAMES.iter().map(|s| s.to_string()).collect(),
        search_parameter_keys: posterior
            .sampled_names()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        posterior: PosteriorTable {
            columns,
            chain: chain_index,
        },
        injection_parameters: problem
            .injection
            .map(|p| named_values(&p.to_array(), epoch)),
        fiducial_parameters: named_values(&info.fiducial_theta, epoch),
        fiducial_log_likelihood: info.fiducial_log_likelihood,
        priors: problem
            .priors
            .entries
            .iter()
            .map(|e| PriorEntry {
                name: e.name().to_string(),
                repr: e.repr(),
                fixed: matches!(e, Entry::Parameter(p) if p.is_fixed()),
            })
            .collect(),
        sampler_kwargs: SamplerSettings {
            kernel: config.sampler.kernel.as_str().into(),
            num_chains: config.sampler.num_chains,
            num_warmup: config.sampler.num_warmup,
            num_draws: config.sampler.num_draws,
            seed: config.sampler.seed,
            threads: config.sampler.threads,
            target_accept: info.target_accept,
            relative_binning_target: config.likelihood.relative_binning_target,
            num_temperatures: config.sampler.num_temperatures,
            beta_min: config.sampler.beta_min,
            distance_marginalization: posterior.marginalizes_distance(),
        },
        tempering: info.tempering,
        log_noise_evidence: problem.exact.likelihood().noise_log_likelihood(),
        detectors,
        trigger_time: config.trigger_time,
        start_time: absolute_time(epoch, grid.start),
        duration: config.duration,
        sampling_frequency: config.sampling_frequency,
        minimum_frequency: config.minimum_frequency,
        reference_frequency: config.reference_frequency,
        approximant: "IMRPhenomT".into(),
        sampling_time_s: info.sampling_time_s,
        total_time_s: info.started.elapsed().as_secs_f64(),
        gradient_evaluations,
        diagnostics,
        chains,
        interrupted: samples.interrupted,
        reconstruction,
        config_toml: config.to_toml(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mode across the wrap point of [0, 2π) comes out contiguous.
    #[test]
    fn periodic_values_are_cut_where_sparsest() {
        let tau = std::f64::consts::TAU;
        let values: Vec<f64> = (0..200)
            .map(|i| (f64::from(i) / 200.0 - 0.5) * 0.8)
            .map(|v: f64| v.rem_euclid(tau))
            .collect();
        let cut = cut_at_sparsest(&values, 0.0, tau);
        let (lo, hi) = cut
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(*v), b.max(*v))
            });
        assert!(hi - lo < 0.81, "{lo} {hi}");
        // Same point on the circle.
        for (a, b) in values.iter().zip(&cut) {
            assert!(((a - b) / tau - ((a - b) / tau).round()).abs() < 1e-12);
        }
    }
}
