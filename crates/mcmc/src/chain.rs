//! One chain: jittered initialisation, warm-up, then sampling, with a stop flag checked between
//! transitions.
//!
//! [`ChainState`] is one Markov chain on one target with its own step size, metric and warm-up;
//! a plain chain ([`ChainRun`]) runs one, a tempered chain runs one per rung of its ladder.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::adapt::{StepSizeRestart, Warmup};
use crate::checkpoint::{read_all, write_all, ChainCheckpoint};
use crate::config::SamplerConfig;
use crate::hamiltonian::{Hamiltonian, Point};
use crate::kernel::{DrawStats, Kernel};
use crate::progress::ChainProgress;
use crate::samples::ChainDraws;
use crate::stepsize::find_initial_step_size;
use crate::target::LogDensity;
use crate::McmcError;

/// The random stream of chain `chain`: Xoshiro256++ seeded from `seed` and jumped `chain` times
/// (each jump skips 2¹²⁸ outputs, so streams never overlap).
pub fn chain_rng(seed: u64, chain: usize) -> Xoshiro256PlusPlus {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..chain {
        rng.jump();
    }
    rng
}

/// The log weights a_j + b_j of an orbit ([`Space::orbit`]) and their log-sum, for drawing a
/// member and for the probability of having drawn one.
struct OrbitWeights {
    log_weights: Vec<f64>,
    log_total: f64,
}

impl OrbitWeights {
    /// `None` if no weight is finite.
    fn new(weights: &[[f64; 2]]) -> Option<Self> {
        let log_weights: Vec<f64> = weights.iter().map(|[a, b]| a + b).collect();
        let max = log_weights
            .iter()
            .copied()
            .filter(|w| w.is_finite())
            .fold(f64::NEG_INFINITY, f64::max);
        if !max.is_finite() {
            return None;
        }
        let sum: f64 = log_weights
            .iter()
            .filter(|w| w.is_finite())
            .map(|w| (w - max).exp())
            .sum();
        Some(Self {
            log_weights,
            log_total: max + sum.ln(),
        })
    }

    /// ln of the probability of member `j`; `None` outside the orbit or at a non-finite weight.
    fn log_probability(&self, j: usize) -> Option<f64> {
        let w = *self.log_weights.get(j)?;
        w.is_finite().then_some(w - self.log_total)
    }

    /// The member drawn by the uniform `u` ∈ [0, 1) (inverse CDF); non-finite weights are never
    /// drawn.
    fn draw(&self, u: f64) -> usize {
        let mut remaining = u;
        let mut last = 0;
        for (j, &w) in self.log_weights.iter().enumerate() {
            if w.is_finite() {
                let p = (w - self.log_total).exp();
                last = j;
                if remaining < p {
                    return j;
                }
                remaining -= p;
            }
        }
        // Rounding left u beyond the sum of the probabilities: the last drawable member.
        last
    }
}

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
        restart: StepSizeRestart,
        rng: &mut R,
    ) -> Result<DrawStats, McmcError> {
        let stats = self.transition(kernel, rng);
        let chain = self.chain;
        self.step_size = self
            .warmup
            .learn(
                &mut self.hamiltonian,
                &self.point,
                stats.accept_stat,
                restart,
                rng,
            )
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
        for which in 0..self.hamiltonian.target().mirror_count() {
            if self.try_mirror(which, rng) {
                stats.mirrored = true;
                stats.log_density = self.point.log_density;
            }
        }
        for which in 0..self.hamiltonian.target().orbit_count() {
            if self.try_orbit(which, rng) {
                stats.orbit_moved = true;
                stats.log_density = self.point.log_density;
            }
        }
        let proposals = self.hamiltonian.target().independence_count();
        if proposals > 0 {
            let mut source = Xoshiro256PlusPlus::seed_from_u64(rng.random());
            let mut log_q_here = self
                .hamiltonian
                .target()
                .independence_log_density(&self.point.x);
            for _ in 0..proposals {
                if let Some(log_q) = self.try_independence(log_q_here, &mut source, rng) {
                    log_q_here = log_q;
                    stats.independent = true;
                    stats.log_density = self.point.log_density;
                }
            }
        }
        stats
    }

    /// The target's independence proposal, drawn from `source`, accepted by
    /// Metropolis–Hastings with the proposal's density `log_q_here` at the chain's point and
    /// its density at the draw (see [`Space::independence_draw`]); the draw's density if it was
    /// accepted.
    fn try_independence<R: Rng + ?Sized>(
        &mut self,
        log_q_here: f64,
        source: &mut Xoshiro256PlusPlus,
        rng: &mut R,
    ) -> Option<f64> {
        let target = self.hamiltonian.target();
        let mut image = vec![0.0; self.point.x.len()];
        let log_q_image = target.independence_draw(source, &mut image)?;
        // The density alone decides; only an accepted draw needs its gradient.
        let log_density = self.hamiltonian.log_density(&image);
        if !self.accepts(log_density, log_q_here - log_q_image, rng) {
            return None;
        }
        // A gradient that is not finite puts the draw outside the support after all.
        let point = self.hamiltonian.point(image);
        if !point.log_density.is_finite() {
            return None;
        }
        self.move_to(point);
        Some(log_q_image)
    }

    /// The target's orbit move `which`: a member x' of the orbit drawn by its weights,
    /// accepted by Metropolis–Hastings (see [`Space::orbit`]). With the weights w of x's orbit
    /// and w' of x''s (the same set, x where [`Space::orbit_inverse`] says), the proposal's
    /// probabilities are q(x → x') = e^(w_drawn) / Σe^(w) and q(x' → x) = e^(w'_x) / Σe^(w'),
    /// so the acceptance ratio is p(x') |det ∂x'/∂x| q(x' → x) / (p(x) q(x → x')): exact
    /// whatever the weights, the lattice at x' costing one more orbit evaluation.
    fn try_orbit<R: Rng + ?Sized>(&mut self, which: usize, rng: &mut R) -> bool {
        let target = self.hamiltonian.target();
        let mut weights = Vec::new();
        let Some(current) = target.orbit(which, &self.point.x, &mut weights) else {
            return false;
        };
        let Some(forward) = OrbitWeights::new(&weights) else {
            return false;
        };
        let drawn = forward.draw(rng.random::<f64>());
        if drawn == current {
            return false;
        }
        let mut image = vec![0.0; self.point.x.len()];
        let offset = drawn as isize - current as isize;
        let Some(log_det) = target.orbit_image(which, &self.point.x, offset, &mut image) else {
            return false;
        };
        let proposal = self.hamiltonian.point(image);
        let Some(back) = target.orbit(which, &proposal.x, &mut weights) else {
            return false;
        };
        let log_reverse = OrbitWeights::new(&weights).and_then(|reverse| {
            let origin = back.checked_add_signed(target.orbit_inverse(which, offset))?;
            reverse.log_probability(origin)
        });
        let Some(log_reverse) = log_reverse else {
            return false;
        };
        let log_proposal_ratio = log_reverse - forward.log_probability(drawn).unwrap_or(f64::NAN);
        self.accept(proposal, log_det + log_proposal_ratio, rng)
    }

    /// The target's mirror move `which`, accepted by Metropolis–Hastings (see
    /// [`Space::mirror`]).
    fn try_mirror<R: Rng + ?Sized>(&mut self, which: usize, rng: &mut R) -> bool {
        let mut image = vec![0.0; self.point.x.len()];
        let target = self.hamiltonian.target();
        let Some(log_det) = target.mirror(which, &self.point.x, &mut image) else {
            return false;
        };
        let proposal = self.hamiltonian.point(image);
        self.accept(proposal, log_det, rng)
    }

    /// Metropolis–Hastings: moves to `proposal` with probability
    /// min(1, p(proposal) / p(x) · e^`log_correction`) (the Jacobian and the proposal's
    /// asymmetry); a NaN ratio compares false and is rejected.
    fn accept<R: Rng + ?Sized>(
        &mut self,
        proposal: Point,
        log_correction: f64,
        rng: &mut R,
    ) -> bool {
        let accepted = self.accepts(proposal.log_density, log_correction, rng);
        if accepted {
            self.move_to(proposal);
        }
        accepted
    }

    /// The test of [`Self::accept`] for a proposal of ln p = `log_density`: one uniform draw
    /// from `rng`.
    fn accepts<R: Rng + ?Sized>(&self, log_density: f64, log_correction: f64, rng: &mut R) -> bool {
        let log_ratio = log_density - self.point.log_density + log_correction;
        rng.random::<f64>().ln() < log_ratio
    }

    /// Makes `point` the chain's, canonicalised.
    fn move_to(&mut self, point: Point) {
        self.point = point;
        self.hamiltonian.target().canonicalize(&mut self.point.x);
    }

    /// The current leapfrog step size.
    pub(crate) fn step_size(&self) -> f64 {
        self.step_size
    }

    /// Evaluations of the density alone, warm-up included.
    pub(crate) fn density_evals(&self) -> u64 {
        self.hamiltonian.density_evals()
    }

    /// Gradient evaluations during warm-up and since.
    pub(crate) fn grad_evals(&self) -> (u64, u64) {
        let total = self.hamiltonian.grad_evals();
        (self.warmup_grad_evals, total - self.warmup_grad_evals)
    }

    /// The chain's output, with the draws and statistics recorded by the caller.
    pub(crate) fn chain_draws(
        &self,
        draws: Vec<f64>,
        stats: Vec<DrawStats>,
        warmup_draws: Vec<f64>,
        warmup_stats: Vec<DrawStats>,
    ) -> ChainDraws {
        let (warmup_grad_evals, grad_evals) = self.grad_evals();
        ChainDraws {
            density_evals: self.hamiltonian.density_evals(),
            chain: self.chain,
            dim: self.point.x.len(),
            draws,
            stats,
            warmup_draws,
            warmup_stats,
            step_size: self.step_size,
            metric: self.hamiltonian.metric().clone(),
            warmup_grad_evals,
            grad_evals,
        }
    }
}

/// One chain run in segments ([`ChainRun::advance`]): jittered start, warm-up, then sampling,
/// with its own random stream. What it draws depends only on its own state, so a pool of
/// threads may take turns on it.
pub(crate) struct ChainRun<'a, T: ?Sized> {
    state: ChainState<'a, T>,
    rng: Xoshiro256PlusPlus,
    progress: ChainProgress<'a>,
    warmup_draws: Vec<f64>,
    warmup_stats: Vec<DrawStats>,
    draws: Vec<f64>,
    stats: Vec<DrawStats>,
    /// Draws to make after warm-up: `num_draws`, or more once the run is extended.
    planned_draws: usize,
    stopped: bool,
}

impl<'a, T: LogDensity + ?Sized> ChainRun<'a, T> {
    /// Starts chain `chain` (initial point and step size) with its random stream `rng`.
    pub(crate) fn start<K: Kernel>(
        target: &'a T,
        kernel: &K,
        config: &SamplerConfig,
        chain: usize,
        mut rng: Xoshiro256PlusPlus,
        progress: ChainProgress<'a>,
    ) -> Result<Self, McmcError> {
        let state = ChainState::start(target, kernel, config, chain, &mut rng)?;
        let mut run = Self {
            state,
            rng,
            progress,
            warmup_draws: Vec::with_capacity(config.num_warmup * target.dim()),
            warmup_stats: Vec::with_capacity(config.num_warmup),
            draws: Vec::with_capacity(config.num_draws * target.dim()),
            stats: Vec::with_capacity(config.num_draws),
            planned_draws: config.num_draws,
            stopped: false,
        };
        if config.num_warmup == 0 {
            run.end_warmup(config);
        }
        Ok(run)
    }

    /// The chain's state between two transitions (docs/campaigns.md §5): restored by
    /// [`Self::restore`], it goes on as this chain would.
    pub(crate) fn checkpoint(&self) -> ChainCheckpoint {
        let state = &self.state;
        ChainCheckpoint(write_all(|w| {
            w.put(&state.chain);
            w.put(&self.rng);
            w.put(&state.point);
            w.put(&state.step_size);
            w.put(&state.warmup);
            w.put(state.hamiltonian.metric());
            w.put(&state.hamiltonian.grad_evals());
            w.put(&state.hamiltonian.density_evals());
            w.put(&state.warmup_grad_evals);
            w.put(&self.warmup_draws);
            w.put(&self.warmup_stats);
            w.put(&self.draws);
            w.put(&self.stats);
            w.put(&self.planned_draws);
        }))
    }

    /// Chain `chain` of a run on `target` with `config`, as [`Self::checkpoint`] saved it; an
    /// error if the checkpoint is damaged or belongs to another chain, dimension or warm-up.
    pub(crate) fn restore(
        target: &'a T,
        config: &SamplerConfig,
        chain: usize,
        checkpoint: &ChainCheckpoint,
        mut progress: ChainProgress<'a>,
    ) -> Result<Self, McmcError> {
        let mismatch = |what: &str| {
            McmcError::Checkpoint(format!(
                "chain {chain} of the checkpoint does not fit this run: {what}"
            ))
        };
        read_all(&checkpoint.0, move |r| {
            let saved_chain: usize = r.get()?;
            let rng = r.get()?;
            let point: Point = r.get()?;
            let step_size = r.get()?;
            let warmup = r.get()?;
            let metric: crate::Metric = r.get()?;
            let (grad_evals, density_evals) = (r.get()?, r.get()?);
            let warmup_grad_evals = r.get()?;
            let warmup_draws: Vec<f64> = r.get()?;
            let warmup_stats: Vec<DrawStats> = r.get()?;
            let draws: Vec<f64> = r.get()?;
            let stats: Vec<DrawStats> = r.get()?;
            let planned_draws: usize = r.get()?;
            if saved_chain != chain {
                return Err(mismatch(&format!("it is chain {saved_chain}")));
            }
            let dim = target.dim();
            if point.x.len() != dim || point.grad.len() != dim || metric.dim() != dim {
                return Err(mismatch(&format!(
                    "its dimension is {}, the target's {dim}",
                    point.x.len()
                )));
            }
            if warmup_stats.len() > config.num_warmup
                || warmup_draws.len() != warmup_stats.len() * dim
                || draws.len() != stats.len() * dim
                || stats.len() > planned_draws
                || (!stats.is_empty() && warmup_stats.len() < config.num_warmup)
            {
                return Err(mismatch(
                    "its draws do not fit the warm-up and draws of the settings",
                ));
            }
            progress.resume(
                warmup_stats.len() + stats.len(),
                warmup_stats.len() == config.num_warmup,
            );
            progress.extend(planned_draws.saturating_sub(config.num_draws));
            Ok(Self {
                state: ChainState {
                    hamiltonian: Hamiltonian::restored(target, metric, grad_evals, density_evals),
                    point,
                    step_size,
                    warmup,
                    warmup_grad_evals,
                    chain,
                },
                rng,
                progress,
                warmup_draws,
                warmup_stats,
                draws,
                stats,
                planned_draws,
                stopped: false,
            })
        })
    }

    /// Transitions made so far, warm-up included.
    pub(crate) fn transitions(&self) -> usize {
        self.warmup_stats.len() + self.stats.len()
    }

    /// Whether the chain has made all its planned transitions, or stopped.
    pub(crate) fn is_finished(&self, config: &SamplerConfig) -> bool {
        self.stopped
            || (self.warmup_stats.len() == config.num_warmup
                && self.stats.len() == self.planned_draws)
    }

    /// Draws planned after warm-up.
    pub(crate) fn planned_draws(&self) -> usize {
        self.planned_draws
    }

    /// Whether the chain was stopped before its planned transitions.
    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    /// Plans `draws` draws in all (more than planned so far): the chain goes on from where it is,
    /// with the step size and metric of its warm-up.
    pub(crate) fn extend_to(&mut self, draws: usize) {
        let more = draws.saturating_sub(self.planned_draws);
        self.planned_draws += more;
        self.progress.extend(more);
    }

    /// The chain's draws so far, leaving the chain ready to go on.
    pub(crate) fn snapshot(&self) -> ChainDraws {
        self.state.chain_draws(
            self.draws.clone(),
            self.stats.clone(),
            self.warmup_draws.clone(),
            self.warmup_stats.clone(),
        )
    }

    /// Makes up to `transitions` more transitions (warm-up first, then sampling); stops for good
    /// before the next one once `stop` is raised.
    pub(crate) fn advance<K: Kernel>(
        &mut self,
        kernel: &K,
        config: &SamplerConfig,
        transitions: usize,
        stop: &AtomicBool,
    ) -> Result<(), McmcError> {
        for _ in 0..transitions {
            if self.is_finished(config) {
                break;
            }
            if stop.load(Ordering::Relaxed) {
                self.stopped = true;
                break;
            }
            if self.warmup_stats.len() < config.num_warmup {
                let restart = config.adaptation.step_size_restart;
                let stats = self
                    .state
                    .warmup_transition(kernel, restart, &mut self.rng)?;
                self.progress.record("warmup", &stats);
                self.warmup_draws.extend_from_slice(&self.state.point.x);
                self.warmup_stats.push(stats);
                if self.warmup_stats.len() == config.num_warmup {
                    self.end_warmup(config);
                }
            } else {
                let stats = self.state.transition(kernel, &mut self.rng);
                self.progress.record("sampling", &stats);
                self.draws.extend_from_slice(&self.state.point.x);
                self.stats.push(stats);
            }
        }
        Ok(())
    }

    fn end_warmup(&mut self, config: &SamplerConfig) {
        self.state.finish_warmup(config);
        self.progress.phase();
    }

    /// The chain's draws so far (a warm-up cut short by `stop` still books its gradients as
    /// warm-up).
    pub(crate) fn finish(mut self, config: &SamplerConfig) -> ChainDraws {
        if self.warmup_stats.len() < config.num_warmup {
            self.end_warmup(config);
        }
        self.progress.finish();
        self.state
            .chain_draws(self.draws, self.stats, self.warmup_draws, self.warmup_stats)
    }
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
