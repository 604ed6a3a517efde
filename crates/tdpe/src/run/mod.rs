//! Parameter estimation of one binary black hole, end to end:
//!
//! config → [`Problem`] (data: an injection into seeded noise, or strain files; PSDs; priors;
//! exact likelihood) → fiducial point (the injection, or a maximum-likelihood search on real
//! data) → relative binning around it → the standardised posterior → MCMC ([`sampler`]) →
//! [`RunResult`] ([`mod@collect`]), which [`crate::output`] writes.

pub mod checkpoint;
pub mod collect;
pub mod derived;
pub mod parallel;
pub mod pilot;
pub mod sampler;
pub mod spectra;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tdpe_likelihood::BbhRelativeBinning;
use tdpe_mcmc::{Checkpoints, SamplerCheckpoint, Samples, Space};
use tdpe_posterior::Fiducial;
use tdpe_signal::BbhParameters;

use crate::config::Config;
use crate::problem::Problem;
use crate::run_result::{ParamDiagnostics, RunResult};
use collect::{collect, CollectInfo};
use sampler::{convergence_target, run_sampler, sampler_config, SamplerOutput};

/// How a run is driven.
pub struct RunControl<'a> {
    /// Where the products go (recorded in the result; the caller writes them).
    pub outdir: PathBuf,
    /// Whether to draw the progress bar.
    pub progress: bool,
    /// Set to stop the chains early; the draws so far are kept.
    pub stop: &'a AtomicBool,
    /// When the run started (for the total time).
    pub started: Instant,
}

/// The error of a run stopped by a signal after it wrote a checkpoint: the command exits with
/// [`checkpoint::EXIT_CODE`], and the same command goes on from the checkpoint.
#[derive(Debug, thiserror::Error)]
#[error("checkpointed: {0}")]
pub struct Checkpointed(pub String);

/// The error of a run stopped by a signal (SIGINT, SIGTERM or SIGHUP): the command exits with
/// status 130, as a shell reports an interrupted command, and the message says what was kept.
#[derive(Debug, thiserror::Error)]
#[error("interrupted: {0}")]
pub struct Interrupted(pub String);

/// Runs the analysis of `config` and returns its result.
pub fn run_analysis(config: Config, control: &RunControl) -> anyhow::Result<RunResult> {
    let checkpoints = checkpoint::applies(&config.sampler).then(|| {
        (
            checkpoint::path(&control.outdir),
            checkpoint::fingerprint(&config),
        )
    });
    // Read first: a checkpoint of another configuration is an error before any work.
    let resume = match &checkpoints {
        Some((path, fingerprint)) => checkpoint::load(path, fingerprint)?,
        None => None,
    };
    if config.sampler.num_temperatures > 1 && config.sampler.checkpoint_interval > 0.0 {
        eprintln!(
            "warning: sampler.checkpoint_interval does not apply with parallel tempering: no \
             checkpoints are written"
        );
    }
    if let Some(resume) = &resume {
        eprintln!(
            "resuming the {} chains of the checkpoint in {}",
            resume.num_chains(),
            control.outdir.display()
        );
    }
    let problem = Problem::set_up(config)?;
    write_estimated_psds(&problem, &control.outdir)?;
    let config = &problem.config;
    let (fiducial, rb, pilot) =
        relative_binning_at_fiducial(&problem, control.progress, control.stop)?;
    // A wide posterior's settings are those the pilot ran with.
    let (pilot, pilot_draws, section) = match pilot {
        Some(run) => (Some(run.report), run.draws, run.sampler),
        None => (None, Vec::new(), config.sampler.for_loud_posterior()),
    };
    let node_counts = rb.node_counts();
    let fiducial_log_likelihood = problem
        .exact()
        .log_likelihood_ratio(&BbhParameters::from_array(fiducial.theta))?;

    let options = section.coordinate_options();
    let (mut posterior, newton_steps) =
        problem
            .analysis
            .posterior(rb, &fiducial.theta, &options, section.seed)?;
    if posterior.independence_count() > 0
        && !pilot_draws.is_empty()
        && !posterior.use_draws_proposal(&pilot_draws, pilot::PRIOR_SHARE)
    {
        eprintln!(
            "warning: the pilot's draws do not spread enough for a kernel density estimate; \
             the independence proposals are prior draws alone"
        );
    }
    for refused in posterior.not_applied() {
        eprintln!(
            "warning: sampler.{} does not apply: {}; the sampler uses bilby's parameters there",
            refused.option, refused.reason
        );
    }
    eprintln!(
        "sampler coordinates: Laplace map at the posterior mode, {newton_steps} Newton steps from the fiducial point{}",
        if posterior.has_image_chart() {
            "; a second chart at the mode near its inclination mirror image"
        } else {
            ""
        }
    );
    if config.sampler.num_temperatures > 1 && config.sampler.target_ess > 0.0 {
        eprintln!(
            "warning: sampler.target_ess does not apply with parallel tempering; the run makes num_draws = {} draws per chain",
            config.sampler.num_draws
        );
    }
    let target = convergence_target(&section);
    let spin_model = posterior.priors().spin_model;
    let sampler = sampler_config(&section, spin_model, posterior.dim(), control.progress);
    let sampling_started = Instant::now();
    let setup_time_s = sampling_started
        .duration_since(control.started)
        .as_secs_f64();
    let next_length = |so_far: &Samples| {
        let target = target?;
        let draws = so_far.chains.iter().map(|c| c.num_draws()).min()?;
        // A failure here (drawing a marginalised parameter) recurs in `collect`, which reports it.
        let diagnostics = collect::diagnostics_so_far(&problem, &posterior, so_far).ok()?;
        let pairs: Vec<(f64, f64)> = diagnostics
            .iter()
            .map(|(_, d)| (d.rhat, d.ess_bulk))
            .collect();
        let next = target.next_length(draws, &pairs)?;
        let (worst_rhat, rhat_name) = worst(&diagnostics, |d| d.rhat, f64::max);
        let (least_ess, ess_name) = worst(&diagnostics, |d| d.ess_bulk, f64::min);
        eprintln!(
            "after {draws} draws per chain: largest R̂ {worst_rhat:.3} ({rhat_name}), smallest bulk ESS {least_ess:.0} ({ess_name}); going on to {next}"
        );
        Some(next)
    };
    // A checkpoint that cannot be written costs a resume, not the run: the run goes on.
    let save = |saved: &SamplerCheckpoint| {
        if let Some((path, fingerprint)) = &checkpoints {
            if let Err(e) = checkpoint::save(path, fingerprint, saved) {
                eprintln!("warning: {e:#}; the run goes on without this checkpoint");
            }
        }
        Ok(())
    };
    let checkpointing = checkpoints.as_ref().map(|_| Checkpoints {
        resume,
        interval: Duration::try_from_secs_f64(config.sampler.checkpoint_interval)
            .unwrap_or(Duration::MAX),
        save: &save,
    });
    let SamplerOutput {
        samples,
        target_accept,
        tempering,
    } = run_sampler(
        &posterior,
        &section,
        &sampler,
        control.stop,
        next_length,
        checkpointing.as_ref(),
    )?;
    let sampling_time_s = sampling_started.elapsed().as_secs_f64();
    collect(
        &problem,
        &posterior,
        &samples,
        CollectInfo {
            outdir: control.outdir.clone(),
            fiducial_theta: fiducial.theta,
            fiducial_log_likelihood,
            node_counts,
            kernel: section.kernel,
            target_accept,
            tempering,
            pilot,
            setup_time_s,
            sampling_time_s,
            started: control.started,
        },
    )
}

/// Writes each PSD estimated from off-source data to `outdir/<detector>_psd.txt` before any
/// sampling, so that an interrupted run keeps it too.
fn write_estimated_psds(problem: &Problem, outdir: &std::path::Path) -> anyhow::Result<()> {
    for ((name, psd), _) in problem
        .config
        .detectors
        .iter()
        .zip(&problem.psds)
        .zip(&problem.estimated_psd)
        .filter(|(_, &estimated)| estimated)
    {
        std::fs::create_dir_all(outdir)?;
        let header = format!(
            "{name}: median-Welch PSD of the off-source data of {} (see summary.md)",
            problem.config.label
        );
        crate::gwosc_data::write_psd(psd, &header, &outdir.join(format!("{name}_psd.txt")))?;
    }
    Ok(())
}

/// The diagnostic `value` that `pick` (max or min) selects over `diagnostics`, with its name.
fn worst(
    diagnostics: &[(String, ParamDiagnostics)],
    value: impl Fn(&ParamDiagnostics) -> f64,
    pick: fn(f64, f64) -> f64,
) -> (f64, &str) {
    diagnostics
        .iter()
        .map(|(name, d)| (value(d), name.as_str()))
        .reduce(|a, b| if pick(a.0, b.0) == b.0 { b } else { a })
        .unwrap_or((f64::NAN, "none"))
}

/// The fiducial point (the injection, or the maximum-likelihood search on real data) and the
/// relative-binning likelihood the run samples with ([`pilot`]).
pub fn relative_binning_at_fiducial(
    problem: &Problem,
    progress: bool,
    stop: &AtomicBool,
) -> anyhow::Result<(Fiducial, BbhRelativeBinning, Option<pilot::PilotRun>)> {
    let fiducial = pilot::fiducial(problem)?;
    let (rb, report) = pilot::relative_binning(problem, &fiducial.theta, progress, stop)?;
    Ok((fiducial, rb, report))
}
