//! tdpe's NUTS against nuts-rs (the sampler of nutpie) on the same posterior: the default run's
//! log density in tdpe's sampling coordinates x (docs/sampling.md §2), set up exactly as
//! `tdpe run` sets it up. Each sampler runs the same number of chains from the same kind of
//! start (x ~ N(0, init_radius²), around the posterior mode) and draws the same number of
//! post-warm-up draws; each keeps its own warm-up length and adaptation. Reported per sampler:
//! gradient evaluations (warm-up included), the smallest bulk ESS and largest R̂ over bilby's
//! sampled parameters, and gradients per effective sample (docs/sampler_studies.md, "A peer
//! sampler: nuts-rs").
//!
//!     cargo run --release --manifest-path benchmarks/nuts_rs_peer/Cargo.toml -- [CONFIG] \
//!         [--draws N] [--seed S]
//!
//! nuts-rs runs with its defaults (`DiagGradNutsSettings`: a diagonal mass matrix adapted from
//! draws and gradients, 400 tuning steps) and with its low-rank mass matrix
//! (`LowRankNutsSettings`, 800 tuning steps), the adaptation nutpie recommends for correlated
//! posteriors; and with its diagonal adaptation at tdpe's target acceptance and warm-up length.
//! tdpe runs with the config's sampler settings, its jumps included, and without going on past
//! the planned draws.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use anyhow::Context;
use nuts_rs::rand::SeedableRng;
use nuts_rs::{
    Chain, CpuLogpFunc, CpuMath, CpuMathError, DiagGradNutsSettings, HasDims, LogpError,
    LowRankNutsSettings, Settings,
};
use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe::run::{relative_binning_at_fiducial, sampler};
use tdpe_mcmc::diagnostics::{ess_bulk, rhat};
use tdpe_mcmc::{LogDensity, Space};
use tdpe_posterior::{BbhLikelihood, Posterior};
use tdpe_signal::PARAMETER_NAMES;

/// One sampler's chains as bilby's parameters (chain → draw → parameter vector), with its cost.
struct Outcome {
    name: &'static str,
    chains: Vec<Vec<[f64; tdpe_signal::NUM_PARAMETERS]>>,
    gradients: u64,
    divergences: u64,
    seconds: f64,
}

/// A density that nuts-rs could not use at a point: outside the support (a recoverable
/// divergence for the sampler).
#[derive(Debug, thiserror::Error)]
#[error("the log density is not finite at this point")]
struct NotFinite;

impl LogpError for NotFinite {
    fn is_recoverable(&self) -> bool {
        true
    }
}

/// tdpe's posterior as nuts-rs's log density, counting gradient evaluations.
struct Density<'a, D> {
    posterior: &'a D,
    gradients: &'a Cell<u64>,
}

impl<D: LogDensity> HasDims for Density<'_, D> {
    fn dim_sizes(&self) -> HashMap<String, u64> {
        [("x".to_string(), self.posterior.dim() as u64)].into()
    }
}

impl<D: LogDensity> CpuLogpFunc for Density<'_, D> {
    type LogpError = NotFinite;
    type FlowParameters = ();
    type ExpandedVector = Vec<f64>;

    fn dim(&self) -> usize {
        self.posterior.dim()
    }

    fn logp(&mut self, x: &[f64], gradient: &mut [f64]) -> Result<f64, NotFinite> {
        self.gradients.set(self.gradients.get() + 1);
        let value = self.posterior.log_density_and_gradient(x, gradient);
        if value.is_finite() && gradient.iter().all(|g| g.is_finite()) {
            Ok(value)
        } else {
            Err(NotFinite)
        }
    }

    fn expand_vector<R: nuts_rs::rand::Rng + ?Sized>(
        &mut self,
        _rng: &mut R,
        x: &[f64],
    ) -> Result<Vec<f64>, CpuMathError> {
        Ok(x.to_vec())
    }
}

/// Runs nuts-rs with `settings` on `posterior`: `chains` chains from x ~ N(0, radius²).
fn nuts_rs<S: Settings, P: BbhLikelihood>(
    name: &'static str,
    settings: &S,
    posterior: &Posterior<P>,
    chains: usize,
    radius: f64,
    seed: u64,
) -> anyhow::Result<Outcome>
where
    Posterior<P>: LogDensity,
{
    let started = Instant::now();
    let gradients = Cell::new(0);
    let mut divergences = 0;
    let mut out = Vec::new();
    for chain in 0..chains {
        let mut rng = nuts_rs::rand::rngs::StdRng::seed_from_u64(seed + chain as u64);
        let math = CpuMath::new(Density {
            posterior,
            gradients: &gradients,
        });
        let mut sampler = settings.new_chain(chain as u64, math, &mut rng);
        let start = standard_normal_start(posterior.dim(), radius, seed, chain);
        sampler
            .set_position(&start)
            .context("nuts-rs could not start")?;
        let mut draws = Vec::new();
        loop {
            let (x, progress) = sampler.draw().context("nuts-rs failed")?;
            if progress.diverging && !progress.tuning {
                divergences += 1;
            }
            if !progress.tuning {
                draws.push(posterior.parameters(&x));
            }
            if draws.len() == settings.hint_num_draws() {
                break;
            }
        }
        out.push(draws);
    }
    Ok(Outcome {
        name,
        chains: out,
        gradients: gradients.get(),
        divergences,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// A start x ~ N(0, radius²) from a generator of its own (Box–Muller on a simple hash), so that
/// the start does not depend on nuts-rs's random streams.
fn standard_normal_start(dim: usize, radius: f64, seed: u64, chain: usize) -> Vec<f64> {
    let mut state = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(chain as u64 + 1);
    let mut uniform = || {
        // splitmix64
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..dim)
        .map(|_| {
            let (u, v) = (uniform().max(f64::MIN_POSITIVE), uniform());
            radius * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        })
        .collect()
}

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let (mut path, mut draws, mut seed) = (None, 1500, 1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--draws" => draws = args.next().context("--draws N")?.parse()?,
            "--seed" => seed = args.next().context("--seed S")?.parse()?,
            other => path = Some(PathBuf::from(other)),
        }
    }
    let mut config = Config::load(path.as_deref())?;
    config.sampler.seed = seed;
    config.sampler.num_draws = draws;
    let problem = Problem::set_up(config)?;
    let section = problem.config.sampler.clone();
    let stop = AtomicBool::new(false);
    let (fiducial, rb, pilot) = relative_binning_at_fiducial(&problem, false, &stop)?;
    anyhow::ensure!(
        pilot.is_none(),
        "a wide posterior (pilot run): this benchmark takes a loud signal's posterior"
    );
    let options = section.coordinate_options();
    let (posterior, _) = problem
        .analysis
        .posterior(rb, &fiducial.theta, &options, section.seed)?;
    let names = posterior.sampled_names();
    let chains = section.num_chains;

    // tdpe: the run's own sampler, for exactly the planned draws.
    let started = Instant::now();
    let sampler_config = sampler::sampler_config(&section, posterior.dim(), false);
    let output =
        sampler::run_sampler(&posterior, &section, &sampler_config, &stop, |_| None, None)?;
    let samples = &output.samples;
    let tdpe = Outcome {
        name: "tdpe NUTS (the run's settings)",
        chains: samples
            .chains
            .iter()
            .map(|c| {
                (0..c.num_draws())
                    .map(|i| posterior.parameters(c.draw(i)))
                    .collect()
            })
            .collect(),
        gradients: samples
            .chains
            .iter()
            .map(|c| c.warmup_grad_evals + c.grad_evals)
            .sum(),
        divergences: samples
            .chains
            .iter()
            .map(|c| c.stats.iter().filter(|s| s.divergent).count() as u64)
            .sum(),
        seconds: started.elapsed().as_secs_f64(),
    };

    let diagonal = DiagGradNutsSettings {
        num_draws: draws as u64,
        num_chains: chains,
        seed,
        ..DiagGradNutsSettings::default()
    };
    let low_rank = LowRankNutsSettings {
        num_draws: draws as u64,
        num_chains: chains,
        seed,
        ..LowRankNutsSettings::default()
    };
    // nuts-rs's diagonal adaptation with tdpe's target acceptance and warm-up length.
    let mut matched = diagonal;
    matched.num_tune = section.num_warmup as u64;
    matched.adapt_options.step_size_settings.target_accept = output.target_accept;
    let radius = section.init_radius;
    let outcomes = [
        tdpe,
        nuts_rs(
            "nuts-rs, defaults (diagonal)",
            &diagonal,
            &posterior,
            chains,
            radius,
            seed,
        )?,
        nuts_rs(
            "nuts-rs, low-rank mass matrix",
            &low_rank,
            &posterior,
            chains,
            radius,
            seed,
        )?,
        nuts_rs(
            "nuts-rs, diagonal, tdpe's target acceptance and warm-up",
            &matched,
            &posterior,
            chains,
            radius,
            seed,
        )?,
    ];

    println!(
        "{} chains × {draws} draws, seed {seed}; ESS and R̂ over {}",
        chains,
        names.join(", ")
    );
    println!(
        "| sampler | gradients | smallest bulk ESS | largest R̂ | gradients per effective sample | divergences | wall (s) |"
    );
    println!("|---|---:|---|---|---:|---:|---:|");
    for outcome in &outcomes {
        let (mut least, mut least_name, mut worst, mut worst_name) =
            (f64::INFINITY, "", 0.0_f64, "");
        for name in &names {
            let k = PARAMETER_NAMES
                .iter()
                .position(|n| n == name)
                .context("a sampled parameter without a bilby name")?;
            let series: Vec<Vec<f64>> = outcome
                .chains
                .iter()
                .map(|c| c.iter().map(|t| t[k]).collect())
                .collect();
            let (ess, r) = (ess_bulk(&series), rhat(&series));
            if ess < least {
                (least, least_name) = (ess, name);
            }
            if r > worst {
                (worst, worst_name) = (r, name);
            }
        }
        println!(
            "| {} | {} | {least:.0} ({least_name}) | {worst:.3} ({worst_name}) | {:.0} | {} | {:.1} |",
            outcome.name,
            outcome.gradients,
            outcome.gradients as f64 / least,
            outcome.divergences,
            outcome.seconds
        );
    }
    Ok(())
}
