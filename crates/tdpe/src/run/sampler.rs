//! The MCMC kernel of the configuration, its warm-up and the multi-chain (optionally tempered)
//! runner, on any target.

use std::sync::atomic::AtomicBool;

use tdpe_mcmc::{
    sample_tempered_until, sample_with_checkpoints, Adaptation, Checkpoints, ConvergenceTarget,
    Hmc, Init, Kernel, LogDensity, Mala, MetricAdaptation, Nuts, PriorLikelihood, SamplerConfig,
    Samples, TemperingConfig, WindowSchedule,
};

use tdpe_signal::SpinModel;

use crate::config::{KernelName, MetricName, SamplerSection};
use crate::run_result::{TemperingReport, MAX_RHAT};

/// The default target acceptance of NUTS and HMC for these posteriors, above Stan's 0.8: a
/// step adapted in the bulk can be too long for the unequal-mass tail (q ≲ 0.6), where a chain
/// then sticks with divergent trajectories (docs/sampler_studies.md, "Coordinates and target
/// acceptance", and for HMC "HMC and MALA on the default run").
const TARGET_ACCEPT: f64 = 0.95;

/// HMC's integration time in the standardised coordinates (jittered by 20 %): between a quarter
/// and a half period of a unit Gaussian, so that successive draws are anticorrelated; on the
/// default run 2.5 gives 1.4–2.3 times the effective samples per gradient of the generic 1.5
/// (docs/sampler_studies.md, "HMC and MALA on the default run").
const HMC_INTEGRATION_TIME: f64 = 2.5;

/// Terminal window of the warm-up: Stan's windows otherwise, but 150 iterations (not 50), so
/// that the step size settles to the final metric; after 50, dual averaging leaves steps longer
/// than the target acceptance wants (docs/sampler_studies.md, "Warm-up windows").
const WARMUP_TERMINAL_BUFFER: usize = 150;

/// What the sampler returns: the draws, the target acceptance used, and the tempering report.
pub struct SamplerOutput {
    /// The draws of every chain.
    pub samples: Samples,
    /// The kernel's target acceptance statistic.
    pub target_accept: f64,
    /// The tempering report, with parallel tempering.
    pub tempering: Option<TemperingReport>,
}

/// The runner's settings of `section`, for a target of dimension `dim` standardised so that
/// the chains start around x = 0.
pub fn sampler_config(
    section: &SamplerSection,
    spin_model: SpinModel,
    dim: usize,
    progress: bool,
) -> SamplerConfig {
    SamplerConfig {
        num_chains: section.num_chains,
        num_warmup: section.num_warmup,
        num_draws: section.num_draws,
        seed: section.seed,
        threads: section.threads,
        progress,
        init: Init {
            center: Some(vec![0.0; dim]),
            radius: section.init_radius,
            max_attempts: 100,
        },
        adaptation: Adaptation {
            metric: match section.metric {
                MetricName::Dense => MetricAdaptation::Dense,
                MetricName::Diagonal => MetricAdaptation::Diagonal,
            },
            windows: WindowSchedule {
                term_buffer: WARMUP_TERMINAL_BUFFER,
                ..WindowSchedule::default()
            },
            step_size_restart: section.resolved_step_size_restart(spin_model),
            ..Adaptation::default()
        },
        ..SamplerConfig::default()
    }
}

/// When the chains go on past `num_draws`: until every reported parameter has R̂ <
/// [`MAX_RHAT`] and a bulk ESS of `target_ess`, up to `max_draws` (4 × num_draws by default);
/// `None` with `target_ess` = 0 or with tempering, whose runs keep their planned length
/// (docs/sampling.md §10).
pub fn convergence_target(section: &SamplerSection) -> Option<ConvergenceTarget> {
    (section.target_ess > 0.0 && section.num_temperatures <= 1).then(|| ConvergenceTarget {
        max_rhat: MAX_RHAT,
        min_ess_bulk: section.target_ess,
        max_draws: section
            .max_draws
            .unwrap_or(section.num_draws.saturating_mul(4)),
    })
}

/// Runs `section`'s kernel on `model` with `config`, tempered if it asks for more than one
/// temperature, until done or `stop`. Without tempering, `next_length` decides after the planned
/// draws whether the chains go on, and `checkpoints` saves the chains and resumes them
/// ([`sample_with_checkpoints`]); tempered runs keep their planned length and write no
/// checkpoints.
pub fn run_sampler<M, F>(
    model: &M,
    section: &SamplerSection,
    config: &SamplerConfig,
    stop: &AtomicBool,
    next_length: F,
    checkpoints: Option<&Checkpoints>,
) -> anyhow::Result<SamplerOutput>
where
    M: LogDensity + PriorLikelihood + Sync,
    F: FnMut(&Samples) -> Option<usize>,
{
    let tempering = TemperingConfig {
        num_temperatures: section.num_temperatures,
        beta_min: section.beta_min,
        ..TemperingConfig::default()
    };
    let target_accept = section.target_accept;
    match section.kernel {
        // A section not chosen for its posterior (`for_loud_posterior`, `for_wide_posterior`)
        // runs the general-purpose kernel.
        KernelName::Nuts | KernelName::Auto => {
            let default = Nuts::default();
            let k = Nuts {
                target_accept: target_accept.unwrap_or(TARGET_ACCEPT),
                max_depth: section.max_tree_depth.unwrap_or(default.max_depth),
            };
            run_kernel(model, k, config, &tempering, stop, next_length, checkpoints)
        }
        KernelName::Hmc => {
            let k = Hmc {
                target_accept: target_accept.unwrap_or(TARGET_ACCEPT),
                integration_time: HMC_INTEGRATION_TIME,
                ..Hmc::default()
            };
            run_kernel(model, k, config, &tempering, stop, next_length, checkpoints)
        }
        KernelName::Mala => {
            let mut k = Mala::default();
            k.target_accept = target_accept.unwrap_or(k.target_accept);
            run_kernel(model, k, config, &tempering, stop, next_length, checkpoints)
        }
    }
}

/// [`run_sampler`] with the kernel chosen.
fn run_kernel<M, K, F>(
    model: &M,
    kernel: K,
    config: &SamplerConfig,
    tempering: &TemperingConfig,
    stop: &AtomicBool,
    next_length: F,
    checkpoints: Option<&Checkpoints>,
) -> anyhow::Result<SamplerOutput>
where
    M: LogDensity + PriorLikelihood + Sync,
    K: Kernel,
    F: FnMut(&Samples) -> Option<usize>,
{
    let target_accept = kernel.target_accept();
    if tempering.num_temperatures <= 1 {
        return Ok(SamplerOutput {
            samples: sample_with_checkpoints(
                model,
                &kernel,
                config,
                stop,
                next_length,
                checkpoints,
            )?,
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
