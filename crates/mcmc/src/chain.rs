//! One chain: jittered initialisation, warm-up, then sampling, with a stop flag checked between
//! transitions.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::adapt::Warmup;
use crate::hamiltonian::{Hamiltonian, Point};
use crate::kernel::Kernel;
use crate::progress::ChainProgress;
use crate::runner::SamplerConfig;
use crate::samples::ChainDraws;
use crate::stepsize::find_initial_step_size;
use crate::target::LogDensity;
use crate::McmcError;

/// Step size the initial heuristic starts from (Stan's default).
const INITIAL_STEP_SIZE: f64 = 1.0;

/// Runs chain `chain` with its own random stream `rng`; returns the draws made before `stop` was
/// raised.
pub(crate) fn run_chain<T: LogDensity + ?Sized, K: Kernel>(
    target: &T,
    kernel: &K,
    config: &SamplerConfig,
    chain: usize,
    mut rng: Xoshiro256PlusPlus,
    stop: &AtomicBool,
    mut progress: ChainProgress<'_>,
) -> Result<ChainDraws, McmcError> {
    let dim = target.dim();
    let metric = config
        .initial_metric
        .clone()
        .unwrap_or_else(|| crate::Metric::unit(dim));
    let mut hamiltonian = Hamiltonian::new(target, metric);
    let mut point = initial_point(&mut hamiltonian, config, chain, &mut rng)?;
    let runaway = |step_size| McmcError::StepSizeSearch { chain, step_size };
    let mut step_size =
        find_initial_step_size(&mut hamiltonian, &point, INITIAL_STEP_SIZE, &mut rng)
            .map_err(runaway)?;
    let mut warmup = Warmup::new(
        &config.adaptation,
        kernel.target_accept(),
        config.num_warmup,
        dim,
        step_size,
    );
    let mut warmup_stats = Vec::with_capacity(config.num_warmup);
    while warmup_stats.len() < config.num_warmup && !stop.load(Ordering::Relaxed) {
        let stats = kernel.transition(&mut hamiltonian, &mut point, step_size, &mut rng);
        progress.record("warmup", &stats);
        warmup_stats.push(stats);
        step_size = warmup
            .learn(&mut hamiltonian, &point, stats.accept_stat, &mut rng)
            .map_err(runaway)?;
    }
    if config.num_warmup > 0 {
        step_size = warmup.final_step_size();
    }
    let warmup_grad_evals = hamiltonian.grad_evals();

    progress.phase();
    let mut draws = Vec::with_capacity(config.num_draws * dim);
    let mut stats = Vec::with_capacity(config.num_draws);
    let warmup_done = warmup_stats.len() == config.num_warmup;
    while warmup_done && stats.len() < config.num_draws && !stop.load(Ordering::Relaxed) {
        let s = kernel.transition(&mut hamiltonian, &mut point, step_size, &mut rng);
        progress.record("sampling", &s);
        draws.extend_from_slice(&point.x);
        stats.push(s);
    }
    progress.finish();
    Ok(ChainDraws {
        chain,
        dim,
        draws,
        stats,
        warmup_stats,
        step_size,
        metric: hamiltonian.metric().clone(),
        warmup_grad_evals,
        grad_evals: hamiltonian.grad_evals() - warmup_grad_evals,
    })
}

/// Stan's initialisation: the centre plus U(−r, r) jitter per coordinate, retried until the
/// density and gradient are finite.
fn initial_point<T: LogDensity + ?Sized, R: Rng + ?Sized>(
    hamiltonian: &mut Hamiltonian<'_, T>,
    config: &SamplerConfig,
    chain: usize,
    rng: &mut R,
) -> Result<Point, McmcError> {
    let init = &config.init;
    let dim = hamiltonian.metric().dim();
    for _ in 0..init.max_attempts {
        let x = (0..dim)
            .map(|i| {
                let centre = init.center.as_ref().map_or(0.0, |c| c[i]);
                centre + init.radius * (2.0 * rng.random::<f64>() - 1.0)
            })
            .collect();
        let point = hamiltonian.point(x);
        if point.log_density.is_finite() {
            return Ok(point);
        }
    }
    Err(McmcError::NonFiniteInitialPoint {
        chain,
        attempts: init.max_attempts,
        radius: init.radius,
    })
}
