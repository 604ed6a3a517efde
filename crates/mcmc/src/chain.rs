//! One chain: jittered initialisation, warm-up, then sampling, with a stop flag checked between
//! transitions.
//!
//! [`ChainState`] is one Markov chain on one target with its own step size, metric and warm-up;
//! a plain chain ([`run_chain`]) runs one, a tempered chain runs one per rung of its ladder.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::adapt::Warmup;
use crate::hamiltonian::{Hamiltonian, Point};
use crate::kernel::{DrawStats, Kernel};
use crate::progress::ChainProgress;
use crate::runner::SamplerConfig;
use crate::samples::ChainDraws;
use crate::stepsize::find_initial_step_size;
use crate::target::LogDensity;
use crate::McmcError;

/// Step size the initial heuristic starts from (Stan's default).
const INITIAL_STEP_SIZE: f64 = 1.0;

/// A Markov chain on one target: its Hamiltonian (target and metric), current point, step size
/// and warm-up state.
pub(crate) struct ChainState<'a, T: ?Sized> {
    pub(crate) hamiltonian: Hamiltonian<'a, T>,
    pub(crate) point: Point,
    step_size: f64,
    warmup: Warmup,
    warmup_grad_evals: u64,
    chain: usize,
}

impl<'a, T: LogDensity + ?Sized> ChainState<'a, T> {
    /// Stan's start: the initial metric, a jittered initial point and the step-size heuristic.
    pub(crate) fn start<K: Kernel, R: Rng + ?Sized>(
        target: &'a T,
        kernel: &K,
        config: &SamplerConfig,
        chain: usize,
        rng: &mut R,
    ) -> Result<Self, McmcError> {
        let dim = target.dim();
        let metric = config
            .initial_metric
            .clone()
            .unwrap_or_else(|| crate::Metric::unit(dim));
        let mut hamiltonian = Hamiltonian::new(target, metric);
        let point = initial_point(&mut hamiltonian, config, chain, rng)?;
        let step_size = find_initial_step_size(&mut hamiltonian, &point, INITIAL_STEP_SIZE, rng)
            .map_err(|step_size| McmcError::StepSizeSearch { chain, step_size })?;
        let warmup = Warmup::new(
            &config.adaptation,
            kernel.target_accept(),
            config.num_warmup,
            dim,
            step_size,
        );
        Ok(Self {
            hamiltonian,
            point,
            step_size,
            warmup,
            warmup_grad_evals: 0,
            chain,
        })
    }

    /// One warm-up transition, then the step size and metric learn from it.
    pub(crate) fn warmup_transition<K: Kernel, R: Rng + ?Sized>(
        &mut self,
        kernel: &K,
        rng: &mut R,
    ) -> Result<DrawStats, McmcError> {
        let stats = self.transition(kernel, rng);
        let chain = self.chain;
        self.step_size = self
            .warmup
            .learn(&mut self.hamiltonian, &self.point, stats.accept_stat, rng)
            .map_err(|step_size| McmcError::StepSizeSearch { chain, step_size })?;
        Ok(stats)
    }

    /// Restarts the step-size adaptation around the current step size, after the target changed.
    pub(crate) fn restart_step_size_adaptation(&mut self) {
        self.warmup.restart_step_size(self.step_size);
    }

    /// Ends warm-up: the step size becomes the dual-averaging average if any warm-up was
    /// configured, and the gradient count so far is booked as warm-up.
    pub(crate) fn finish_warmup(&mut self, config: &SamplerConfig) {
        if config.num_warmup > 0 {
            self.step_size = self.warmup.final_step_size();
        }
        self.warmup_grad_evals = self.hamiltonian.grad_evals();
    }

    /// One transition with the current step size.
    pub(crate) fn transition<K: Kernel, R: Rng + ?Sized>(
        &mut self,
        kernel: &K,
        rng: &mut R,
    ) -> DrawStats {
        let mut stats =
            kernel.transition(&mut self.hamiltonian, &mut self.point, self.step_size, rng);
        self.hamiltonian.target().canonicalize(&mut self.point.x);
        if self.try_mirror(rng) {
            stats.mirrored = true;
            stats.log_density = self.point.log_density;
        }
        stats
    }

    /// The target's mirror move, accepted by Metropolis–Hastings (see [`LogDensity::mirror`]).
    fn try_mirror<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        let mut image = vec![0.0; self.point.x.len()];
        let target = self.hamiltonian.target();
        let Some(log_det) = target.mirror(&self.point.x, &mut image) else {
            return false;
        };
        let proposal = self.hamiltonian.point(image);
        let log_ratio = proposal.log_density - self.point.log_density + log_det;
        // A NaN ratio compares false: rejected.
        if rng.random::<f64>().ln() < log_ratio {
            self.point = proposal;
            self.hamiltonian.target().canonicalize(&mut self.point.x);
            true
        } else {
            false
        }
    }

    /// The current leapfrog step size.
    pub(crate) fn step_size(&self) -> f64 {
        self.step_size
    }

    /// Gradient evaluations during warm-up and since.
    pub(crate) fn grad_evals(&self) -> (u64, u64) {
        let total = self.hamiltonian.grad_evals();
        (self.warmup_grad_evals, total - self.warmup_grad_evals)
    }

    /// The chain's output, with the draws and statistics recorded by the caller.
    pub(crate) fn into_draws(
        self,
        draws: Vec<f64>,
        stats: Vec<DrawStats>,
        warmup_stats: Vec<DrawStats>,
    ) -> ChainDraws {
        let (warmup_grad_evals, grad_evals) = self.grad_evals();
        ChainDraws {
            chain: self.chain,
            dim: self.point.x.len(),
            draws,
            stats,
            warmup_stats,
            step_size: self.step_size,
            metric: self.hamiltonian.metric().clone(),
            warmup_grad_evals,
            grad_evals,
        }
    }
}

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
    let mut state = ChainState::start(target, kernel, config, chain, &mut rng)?;
    let mut warmup_stats = Vec::with_capacity(config.num_warmup);
    while warmup_stats.len() < config.num_warmup && !stop.load(Ordering::Relaxed) {
        let stats = state.warmup_transition(kernel, &mut rng)?;
        progress.record("warmup", &stats);
        warmup_stats.push(stats);
    }
    state.finish_warmup(config);

    progress.phase();
    let mut draws = Vec::with_capacity(config.num_draws * target.dim());
    let mut stats = Vec::with_capacity(config.num_draws);
    let warmup_done = warmup_stats.len() == config.num_warmup;
    while warmup_done && stats.len() < config.num_draws && !stop.load(Ordering::Relaxed) {
        let s = state.transition(kernel, &mut rng);
        progress.record("sampling", &s);
        draws.extend_from_slice(&state.point.x);
        stats.push(s);
    }
    progress.finish();
    Ok(state.into_draws(draws, stats, warmup_stats))
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
