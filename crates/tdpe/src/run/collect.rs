//! From the sampler's draws to the hand-off for the writers ([`RunResult`]): the draws as
//! bilby's parameters with the derived columns, the convergence diagnostics, the per-detector
//! SNRs and the waveform reconstruction.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use rand::seq::index::sample as sample_indices;
use rand::Rng;
use tdpe_detector::GpsTime;
use tdpe_likelihood::BbhRelativeBinning;
use tdpe_mcmc::diagnostics::{ess_bulk, ess_tail, rhat};
use tdpe_mcmc::Samples;
use tdpe_posterior::cosmology::Cosmology;
use tdpe_posterior::prior::Entry;
use tdpe_posterior::streams::Stream;
use tdpe_posterior::transform::wrap;
use tdpe_posterior::Posterior;
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, SpinModel};

use crate::config::KernelName;
use crate::data::{tukey_window, Whitener, WHITENING_ROLL_OFF};
use crate::output::quantile::{quantile_sorted, sorted};
use crate::problem::Problem;
use crate::run::derived;
use crate::run::parallel::map_in_order;
use crate::run::sampler::convergence_target;
use crate::run::spectra::{detector_spectrum, AmplitudeSpectrum};
use crate::run_result::{
    Column, DetectorInfo, DetectorSpectrum, NamedValue, ParamDiagnostics, PilotReport,
    PosteriorTable, PriorEntry, RelativeBinningReport, RunResult, SamplerSettings, TemperingReport,
    WaveformReconstruction,
};
use crate::waveform_model::{bilby_mode_array, mode_names};

/// Posterior waveforms drawn for the reconstruction plot.
const RECONSTRUCTION_DRAWS: usize = 50;
/// The waveform plot's whitened series are band-passed below the frequency under which the
/// whitened injection (or the posterior waveforms) hold this fraction of their power.
const PASS_BAND_POWER: f64 = 0.999;
/// The part of the segment the reconstruction keeps, in s before and after the posterior's median
/// merger time: a margin around the waveform plot's window (`output::waveform_plot`).
const RECONSTRUCTION_WINDOW: (f64, f64) = (1.0, 0.5);
/// Posterior draws at which relative binning is checked against the exact likelihood.
const CHECK_DRAWS: usize = 100;

/// What [`collect`] needs besides the problem, the posterior and the draws.
pub struct CollectInfo {
    /// Where the products go.
    pub outdir: PathBuf,
    /// The fiducial point of relative binning.
    pub fiducial_theta: ParameterVector,
    /// The exact ln L there.
    pub fiducial_log_likelihood: f64,
    /// Relative-binning nodes per detector.
    pub node_counts: Vec<usize>,
    /// The kernel that ran.
    pub kernel: KernelName,
    /// The kernel's target acceptance.
    pub target_accept: f64,
    /// The tempering report, with parallel tempering.
    pub tempering: Option<TemperingReport>,
    /// The pilot run that placed the relative-binning nodes, if there was one.
    pub pilot: Option<PilotReport>,
    /// Wall time from the start to the sampling (data, likelihood set-up, fiducial search,
    /// relative binning, sampling coordinates), s.
    pub setup_time_s: f64,
    /// Wall time of the sampling, s.
    pub sampling_time_s: f64,
    /// When the command started.
    pub started: Instant,
}

/// The draws as parameter vectors, chain after chain, each chain cut to the shortest one's
/// length (an interrupted run's chains may differ by a transition).
struct Draws {
    /// Draws per chain.
    len: usize,
    /// What the results report: one of the equivalent (phase, psi), drawn uniformly.
    reported: Vec<ParameterVector>,
    /// What the sampler returned, whose movement is the chains' own.
    sampled: Vec<ParameterVector>,
    /// The chain of each draw.
    chain: Vec<usize>,
    /// Whether each draw's transition diverged.
    divergent: Vec<bool>,
}

impl Draws {
    /// The draws of `samples` in `posterior`'s parameters, each with its distance drawn when it
    /// is marginalised.
    fn new(
        posterior: &Posterior<BbhRelativeBinning>,
        samples: &Samples,
        seed: u64,
    ) -> anyhow::Result<Self> {
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
        // marginals are those of the full space.
        let mut orbit_rng = Stream::EquivalentParameters.rng(seed);
        let mut distance_rng = Stream::DistanceDraws.rng(seed);
        let mut draws = Self {
            len,
            reported: Vec::new(),
            sampled: Vec::new(),
            chain: Vec::new(),
            divergent: Vec::new(),
        };
        for c in samples.chains.iter().filter(|c| c.num_draws() > 0) {
            for i in 0..len {
                let mut theta = posterior.parameters(c.draw(i));
                posterior
                    .draw_marginalized(&mut theta, &mut distance_rng)
                    .context("drawing a posterior sample's luminosity_distance")?;
                draws
                    .reported
                    .push(posterior.equivalent_parameters(&theta, orbit_rng.random_range(0..4)));
                draws.sampled.push(theta);
                draws.chain.push(c.chain);
                draws.divergent.push(c.stats[i].divergent);
            }
        }
        Ok(draws)
    }
}

/// The parameter columns of the analysis's spin model and the assessed derived ones
/// ([`derived::assessed_names`]) of `draws`.
fn columns(draws: &Draws, epoch: &GpsTime, spin_model: SpinModel) -> (Vec<Column>, Vec<Column>) {
    let parameter_columns = spin_model
        .parameters()
        .iter()
        .map(|&p| Column {
            name: p.name().to_string(),
            values: draws
                .reported
                .iter()
                .map(|t| reported_value(p, t[p], epoch))
                .collect(),
        })
        .collect();
    let rows: Vec<Vec<f64>> = draws
        .reported
        .iter()
        .map(|t| derived::assessed(t, spin_model))
        .collect();
    let names = derived::assessed_names(spin_model);
    (parameter_columns, named_columns(names, &rows))
}

/// The columns `names` of a table given row by row.
fn named_columns<Row: AsRef<[f64]>>(names: &[&str], rows: &[Row]) -> Vec<Column> {
    names
        .iter()
        .enumerate()
        .map(|(j, name)| Column {
            name: name.to_string(),
            values: rows.iter().map(|row| row.as_ref()[j]).collect(),
        })
        .collect()
}

/// The [`derived::SOURCE_FRAME`] columns of `reported`.
fn source_frame_columns(
    reported: &[ParameterVector],
    cosmology: &Cosmology,
) -> anyhow::Result<Vec<Column>> {
    let rows: Vec<[f64; 7]> = reported
        .iter()
        .map(|t| derived::source_frame(t, cosmology))
        .collect::<anyhow::Result<_>>()?;
    Ok(named_columns(&derived::SOURCE_FRAME, &rows))
}

/// Per detector, the optimal SNR √⟨h|h⟩ and the matched-filter SNR ⟨d|h⟩/√⟨h|h⟩ of every draw
/// in `reported`, as the columns `<detector>_optimal_snr` and `<detector>_matched_filter_snr`
/// of bilby's `compute_snrs`, from the relative binning the run sampled with. bilby's
/// matched-filter SNR is complex (its phase free); this is its real part, the one in ln L.
fn snr_columns(
    detectors: &[String],
    rb: &BbhRelativeBinning,
    reported: &[ParameterVector],
) -> anyhow::Result<Vec<Column>> {
    let mut optimal = vec![Vec::with_capacity(reported.len()); detectors.len()];
    let mut matched_filter = optimal.clone();
    for t in reported {
        let products = rb.detector_inner_products(&BbhParameters::from_array(*t))?;
        for (k, p) in products.iter().enumerate() {
            optimal[k].push(p.optimal_snr());
            matched_filter[k].push(p.matched_filter_snr());
        }
    }
    Ok(detectors
        .iter()
        .zip(optimal.into_iter().zip(matched_filter))
        .flat_map(|(name, (optimal, matched_filter))| {
            [
                Column {
                    name: format!("{name}_optimal_snr"),
                    values: optimal,
                },
                Column {
                    name: format!("{name}_matched_filter_snr"),
                    values: matched_filter,
                },
            ]
        })
        .collect())
}

/// The diagnostics the results would report for `samples`, the draws so far (for deciding
/// whether the chains go on).
pub fn diagnostics_so_far(
    problem: &Problem,
    posterior: &Posterior<BbhRelativeBinning>,
    samples: &Samples,
) -> anyhow::Result<Vec<(String, ParamDiagnostics)>> {
    let draws = Draws::new(posterior, samples, problem.config.sampler.seed)?;
    let spin_model = problem.priors().spin_model;
    let (parameter_columns, derived_columns) = columns(&draws, &problem.epoch, spin_model);
    Ok(diagnostics(
        problem,
        posterior,
        &draws,
        &parameter_columns,
        &derived_columns,
    ))
}

/// Builds the hand-off for the writers.
pub fn collect(
    problem: &Problem,
    posterior: &Posterior<BbhRelativeBinning>,
    samples: &Samples,
    info: CollectInfo,
) -> anyhow::Result<RunResult> {
    let config = &problem.config;
    let epoch = &problem.epoch;
    let draws = Draws::new(posterior, samples, config.sampler.seed)?;
    let spin_model = problem.priors().spin_model;
    let (parameter_columns, derived_columns) = columns(&draws, epoch, spin_model);
    let rb = posterior.likelihood();
    let log_likelihood = Column {
        name: "log_likelihood".into(),
        values: draws
            .reported
            .iter()
            .map(|t| {
                rb.log_likelihood_ratio(&BbhParameters::from_array(*t))
                    .unwrap_or(f64::NEG_INFINITY)
            })
            .collect(),
    };
    let log_prior = Column {
        name: "log_prior".into(),
        values: draws
            .reported
            .iter()
            .map(|t| posterior.log_prior(t))
            .collect(),
    };
    let diagnostics = diagnostics(
        problem,
        posterior,
        &draws,
        &parameter_columns,
        &derived_columns,
    );
    let relative_binning = relative_binning_report(
        problem,
        rb,
        &draws.reported,
        &log_likelihood.values,
        info.pilot.clone(),
    )?;
    let cosmology = derived::cosmology(problem.priors());
    let mut columns = parameter_columns;
    columns.extend(derived_columns);
    columns.extend(source_frame_columns(&draws.reported, &cosmology)?);
    columns.extend(snr_columns(&config.detectors, rb, &draws.reported)?);
    columns.extend([log_likelihood, log_prior]);

    let chains = samples.chain_summaries();
    let gradient_evaluations = chains
        .iter()
        .map(|c| c.warmup_grad_evals + c.grad_evals)
        .sum();
    let density_evaluations = chains.iter().map(|c| c.density_evals).sum();
    let grid = &problem.grid;
    let detectors = detector_info(problem, &info.fiducial_theta, &info.node_counts)?;
    let (minimum_frequency, maximum_frequency) = config.waveform_band(&problem.bands);
    let (reconstruction, spectra) = reconstruction(problem, &draws.reported, config.sampler.seed)?;
    Ok(RunResult {
        label: config.label.clone(),
        outdir: info.outdir,
        sampler: format!("tdpe-{}", info.kernel.as_str()),
        parameter_names: spin_model.names().iter().map(|s| s.to_string()).collect(),
        search_parameter_keys: posterior
            .sampled_names()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        posterior: PosteriorTable {
            columns,
            chain: draws.chain.clone(),
            divergent: draws.divergent.clone(),
        },
        warmup: warmup_table(posterior, samples, epoch, config.sampler.seed),
        injection_parameters: problem
            .injection
            .map(|p| named_values(&p.to_array(), epoch, &cosmology, spin_model))
            .transpose()?,
        fiducial_parameters: named_values(&info.fiducial_theta, epoch, &cosmology, spin_model)?,
        fiducial_log_likelihood: info.fiducial_log_likelihood,
        priors: problem
            .priors()
            .entries
            .iter()
            .map(|e| PriorEntry {
                name: e.name().to_string(),
                repr: e.repr(),
                fixed: matches!(e, Entry::Parameter(p) if p.is_fixed()),
            })
            .collect(),
        sampler_kwargs: SamplerSettings {
            kernel: info.kernel.as_str().into(),
            num_chains: config.sampler.num_chains,
            num_warmup: config.sampler.num_warmup,
            num_draws: config.sampler.num_draws,
            target_ess: config.sampler.target_ess,
            max_draws: convergence_target(&config.sampler).map(|t| t.max_draws),
            seed: config.sampler.seed,
            threads: config.sampler.threads,
            target_accept: info.target_accept,
            relative_binning_target: config.likelihood.relative_binning_target,
            num_temperatures: config.sampler.num_temperatures,
            beta_min: config.sampler.beta_min,
            distance_marginalization: posterior.marginalizes_distance(),
            phase_marginalization: posterior.marginalizes_phase(),
        },
        not_applied: posterior.not_applied().to_vec(),
        sky_choices: posterior.sky_choices(),
        tempering: info.tempering,
        relative_binning,
        log_noise_evidence: problem
            .exact()
            .likelihood()
            .unnormalised_noise_log_likelihood(),
        log_noise_evidence_normalised: problem.exact().likelihood().noise_log_likelihood(),
        detectors,
        data_sources: problem.data_sources.clone(),
        trigger_time: config.trigger_time,
        start_time: absolute_time(epoch, grid.start),
        duration: config.duration,
        sampling_frequency: config.sampling_frequency,
        minimum_frequency,
        maximum_frequency,
        reference_frequency: config.reference_frequency,
        approximant: config.waveform_approximant.name().into(),
        modes: mode_names(&config.modes()?),
        mode_array: bilby_mode_array(&config.modes()?),
        injection_model: match &config.injection {
            Some(injection) => injection.model_other_than_analysis(config)?,
            None => None,
        },
        setup_time_s: info.setup_time_s,
        sampling_time_s: info.sampling_time_s,
        total_time_s: info.started.elapsed().as_secs_f64(),
        gradient_evaluations,
        density_evaluations,
        diagnostics,
        chains,
        interrupted: samples.interrupted,
        reconstruction,
        spectra,
        config_toml: config.to_toml(),
        version: env!("CARGO_PKG_VERSION").into(),
    })
}

/// The chains' warm-up states in the sampled parameters, chain after chain, each reporting one
/// of its equivalent (phase, psi) as the draws do ([`Draws::new`]).
fn warmup_table(
    posterior: &Posterior<BbhRelativeBinning>,
    samples: &Samples,
    epoch: &GpsTime,
    seed: u64,
) -> PosteriorTable {
    let mut orbit_rng = Stream::WarmupEquivalentParameters.rng(seed);
    let parameters: Vec<Parameter> = posterior
        .sampled_names()
        .into_iter()
        .filter_map(Parameter::from_name)
        .collect();
    let mut table = PosteriorTable {
        columns: parameters
            .iter()
            .map(|p| Column {
                name: p.name().to_string(),
                values: Vec::new(),
            })
            .collect(),
        chain: Vec::new(),
        divergent: Vec::new(),
    };
    for c in &samples.chains {
        let states = c
            .warmup_stats
            .len()
            .min(c.warmup_draws.len() / c.dim.max(1));
        for i in 0..states {
            let theta = posterior.equivalent_parameters(
                &posterior.parameters(c.warmup_draw(i)),
                orbit_rng.random_range(0..4),
            );
            for (column, &p) in table.columns.iter_mut().zip(&parameters) {
                column.values.push(reported_value(p, theta[p], epoch));
            }
            table.chain.push(c.chain);
            table.divergent.push(c.warmup_stats[i].divergent);
        }
    }
    table
}

/// R̂ and the bulk and tail ESS of the sampled parameters (with a marginalised distance) and the
/// derived ones.
///
/// Diagnostics are on the parameters' values, not on the sampler's coordinates: those mix every
/// parameter with the periodic ones, which wander freely over their periods on the real line
/// (through exact copies of the posterior, e.g. ψ + π/2 with φ + π/2 for the (2,2) mode) and
/// would look unconverged in every coordinate. The phase and psi are taken as the sampler
/// returned them, and periodic parameters are cut where their draws are sparsest, so that a
/// mode is not split in two.
fn diagnostics(
    problem: &Problem,
    posterior: &Posterior<BbhRelativeBinning>,
    draws: &Draws,
    parameter_columns: &[Column],
    derived_columns: &[Column],
) -> Vec<(String, ParamDiagnostics)> {
    let len = draws.len;
    let n_chains = draws.chain.len().checked_div(len).unwrap_or(0);
    let mut sampled = posterior.sampled_names();
    if posterior.marginalizes_distance() {
        sampled.push(Parameter::LuminosityDistance.name());
    }
    if posterior.marginalizes_phase() {
        sampled.push(Parameter::Phase.name());
    }
    let mut diagnostics = Vec::new();
    if len < 4 {
        return diagnostics;
    }
    for column in parameter_columns.iter().chain(derived_columns) {
        let parameter = Parameter::from_name(&column.name);
        if parameter.is_some_and(|p| !sampled.contains(&p.name())) {
            continue;
        }
        let values = match parameter {
            Some(p @ (Parameter::Phase | Parameter::Psi)) => {
                draws.sampled.iter().map(|t| t[p]).collect()
            }
            _ => column.values.clone(),
        };
        let periodic = parameter
            .map(|p| problem.priors().prior(p))
            .filter(|prior| prior.is_periodic());
        let values = match periodic {
            Some(prior) => {
                let (lower, upper) = prior.distribution.support();
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
    diagnostics
}

/// The relative binning's set-up, and |ln L_RB − ln L_exact| at [`CHECK_DRAWS`] draws spread
/// evenly over `reported` (whose relative-binning ln L is `log_likelihood`).
fn relative_binning_report(
    problem: &Problem,
    rb: &BbhRelativeBinning,
    reported: &[ParameterVector],
    log_likelihood: &[f64],
    pilot: Option<PilotReport>,
) -> anyhow::Result<RelativeBinningReport> {
    let step = (reported.len() / CHECK_DRAWS).max(1);
    let checked: Vec<(&ParameterVector, f64)> = reported
        .iter()
        .zip(log_likelihood.iter().copied())
        .step_by(step)
        .take(CHECK_DRAWS)
        .collect();
    // Each exact ln L is a Toeplitz solve over the whole segment: on every worker thread.
    let threads = problem.config.sampler.resolved_threads();
    let deltas: Vec<f64> = map_in_order(checked, threads, |(theta, rb_value)| {
        let exact = problem
            .exact()
            .log_likelihood_ratio(&BbhParameters::from_array(*theta))?;
        Ok(rb_value - exact)
    })
    .context("a worker checking relative binning stopped")?
    .into_iter()
    .collect::<anyhow::Result<_>>()?;
    let mut errors: Vec<f64> = deltas.iter().map(|d| d.abs()).collect();
    errors.sort_by(f64::total_cmp);
    Ok(RelativeBinningReport {
        target: problem.config.likelihood.relative_binning_target,
        refinement_errors: rb.refinement_errors(),
        pilot,
        check_points: errors.len(),
        max_abs_error: errors.last().copied().unwrap_or(f64::NAN),
        median_abs_error: errors.get(errors.len() / 2).copied().unwrap_or(f64::NAN),
        spread: standard_deviation(&deltas),
    })
}

/// Per-detector SNRs at the fiducial point, the band, the PSD and the relative-binning nodes.
fn detector_info(
    problem: &Problem,
    fiducial: &ParameterVector,
    node_counts: &[usize],
) -> anyhow::Result<Vec<DetectorInfo>> {
    let terms = problem
        .exact()
        .detector_terms(&BbhParameters::from_array(*fiducial))?;
    let nyquist = problem.config.sampling_frequency / 2.0;
    Ok(terms
        .iter()
        .zip(problem.psds.iter().zip(&problem.bands))
        .zip(node_counts)
        .map(|((t, (psd, band)), &nodes)| DetectorInfo {
            name: t.name.clone(),
            optimal_snr: t.optimal_snr,
            matched_filter_snr: t.matched_filter_snr,
            minimum_frequency: band.f_low,
            maximum_frequency: band.upper_edge(nyquist),
            psd: psd.name().to_string(),
            relative_binning_nodes: nodes,
        })
        .collect())
}

/// The whitened data of each detector with the whitened templates of a few posterior draws
/// (from `reported`) and of the injection, around the merger, and the spectra of all of them.
///
/// The draws' templates are made one draw at a time and kept only as their spectra and their
/// whitened series near the merger: a long segment's whole series, for every draw, would cost
/// hundreds of megabytes.
fn reconstruction(
    problem: &Problem,
    reported: &[ParameterVector],
    seed: u64,
) -> anyhow::Result<(Vec<WaveformReconstruction>, Vec<DetectorSpectrum>)> {
    let grid = &problem.grid;
    let exact = problem.exact();
    let mut rng = Stream::ReconstructionDraws.rng(seed);
    let draws: Vec<BbhParameters> = if reported.is_empty() {
        Vec::new()
    } else {
        sample_indices(
            &mut rng,
            reported.len(),
            RECONSTRUCTION_DRAWS.min(reported.len()),
        )
        .into_iter()
        .map(|i| BbhParameters::from_array(reported[i]))
        .collect()
    };
    let injection_templates = match &problem.injection {
        Some(p) => Some(exact.templates(p)?),
        None => None,
    };
    let detectors = problem.config.detectors.len();

    // Each detector's band: where the whitened injection (or, without one, the draws) hold
    // `PASS_BAND_POWER` of their power.
    let whiteners = (0..detectors)
        .map(|k| Whitener::new(&problem.psds[k], &problem.bands[k], grid))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let mut power: Vec<Vec<f64>> = whiteners.iter().map(Whitener::zero_power).collect();
    match &injection_templates {
        Some(h) => {
            for (k, whitener) in whiteners.iter().enumerate() {
                whitener.add_power(&mut power[k], &h[k])?;
            }
        }
        None => {
            // The draws' templates are made again below: keeping them would cost the memory
            // this avoids.
            for p in &draws {
                let h = exact.templates(p)?;
                for (k, whitener) in whiteners.iter().enumerate() {
                    whitener.add_power(&mut power[k], &h[k])?;
                }
            }
        }
    }
    let pass_band_upper: Vec<f64> = whiteners
        .iter()
        .zip(&power)
        .map(|(w, p)| w.power_edge(p, PASS_BAND_POWER))
        .collect();
    let whiteners: Vec<Whitener> = whiteners
        .into_iter()
        .zip(&pass_band_upper)
        .map(|(w, &edge)| w.band_passed(edge))
        .collect();

    let kept = kept_samples(problem, reported);
    let fs = grid.sampling_frequency();
    let mut spectrum = AmplitudeSpectrum::new(tukey_window(grid.len, WHITENING_ROLL_OFF * fs), fs);
    let mut signal_asd = vec![Vec::with_capacity(draws.len()); detectors];
    let mut whitened_waveforms = vec![Vec::with_capacity(draws.len()); detectors];
    for p in &draws {
        let h = exact.templates(p)?;
        for (k, whitener) in whiteners.iter().enumerate() {
            signal_asd[k].push(spectrum.of(&h[k])?);
            whitened_waveforms[k].push(whitener.whiten(&h[k])?[kept.clone()].to_vec());
        }
    }

    let mut reconstruction = Vec::new();
    let mut spectra = Vec::new();
    let detector_series = whiteners.iter().zip(signal_asd).zip(whitened_waveforms);
    for (k, ((whitener, signal_asd), whitened_waveforms)) in detector_series.enumerate() {
        let name = &problem.config.detectors[k];
        let data = exact.likelihood().data(k);
        let injection = injection_templates.as_ref().map(|h| h[k].as_slice());
        spectra.push(detector_spectrum(
            name,
            &mut spectrum,
            fs,
            data,
            &problem.psds[k],
            signal_asd,
            injection,
        )?);
        reconstruction.push(WaveformReconstruction {
            detector: name.clone(),
            pass_band: (problem.bands[k].f_low, pass_band_upper[k]),
            times: kept.clone().map(|i| grid.time(i)).collect(),
            whitened_data: whitener.whiten(data)?[kept.clone()].to_vec(),
            whitened_waveforms,
            whitened_injection: match injection {
                Some(h) => Some(whitener.whiten(h)?[kept.clone()].to_vec()),
                None => None,
            },
        });
    }
    Ok((reconstruction, spectra))
}

/// The samples the reconstruction keeps: those within [`RECONSTRUCTION_WINDOW`] of the
/// posterior's median geocent_time (the waveform plot shows a part of them), or the whole
/// segment if that misses it.
fn kept_samples(problem: &Problem, reported: &[ParameterVector]) -> std::ops::Range<usize> {
    let grid = &problem.grid;
    let times: Vec<f64> = reported
        .iter()
        .map(|theta| theta[Parameter::GeocentTime])
        .filter(|t| t.is_finite())
        .collect();
    let merger = if times.is_empty() {
        0.0
    } else {
        quantile_sorted(&sorted(&times), 0.5)
    };
    let (before, after) = RECONSTRUCTION_WINDOW;
    let first = (0..grid.len).find(|&i| grid.time(i) >= merger - before);
    let end = (0..grid.len).rfind(|&i| grid.time(i) <= merger + after);
    match (first, end) {
        (Some(first), Some(last)) if first <= last => first..last + 1,
        _ => 0..grid.len,
    }
}

/// A parameter's value as the results report it: geocent_time as absolute GPS.
fn reported_value(parameter: Parameter, value: f64, epoch: &GpsTime) -> f64 {
    if parameter == Parameter::GeocentTime {
        absolute_time(epoch, value)
    } else {
        value
    }
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

/// Named values of `spin_model`'s parameters (absolute GPS geocent_time) and the derived
/// columns.
fn named_values(
    t: &ParameterVector,
    epoch: &GpsTime,
    cosmology: &Cosmology,
    spin_model: SpinModel,
) -> anyhow::Result<Vec<NamedValue>> {
    let mut out: Vec<NamedValue> = spin_model
        .parameters()
        .iter()
        .map(|&p| NamedValue {
            name: p.name().to_string(),
            value: reported_value(p, t[p], epoch),
        })
        .collect();
    let assessed = derived::assessed_names(spin_model)
        .iter()
        .zip(derived::assessed(t, spin_model));
    let derived_values = assessed.chain(
        derived::SOURCE_FRAME
            .iter()
            .zip(derived::source_frame(t, cosmology)?),
    );
    for (name, value) in derived_values {
        out.push(NamedValue {
            name: name.to_string(),
            value,
        });
    }
    Ok(out)
}

/// GPS time in s of `t` s after `epoch`.
fn absolute_time(epoch: &GpsTime, t: f64) -> f64 {
    epoch.add_seconds(t).as_f64()
}

/// The standard deviation of `values` (about their mean, over N); NaN without values.
pub fn standard_deviation(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
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
