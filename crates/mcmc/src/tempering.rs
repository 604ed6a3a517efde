//! Parallel tempering (replica exchange) on a [`PriorLikelihood`] model.
//!
//! Each chain runs a ladder of K rungs at inverse temperatures β₀ = 1 > β₁ > … > β_{K−1} = β_min,
//! rung k sampling p_k(x) ∝ π(x) L(x)^{β_k} ([`Tempered`]: the likelihood is tempered, the prior
//! is not) with its own kernel step size and metric, learned by the same warm-up as a plain
//! chain. Every `swap_interval` iterations neighbouring rungs propose to exchange their points,
//! accepted with probability min(1, exp((β_k − β_{k+1})(ln L_{k+1} − ln L_k))); the ln L of
//! every rung's point is kept on the point, so the decision and the move of an accepted point to
//! its new temperature cost no evaluations. Only the β = 1 draws are kept.
//!
//! Swaps follow the deterministic even–odd scheme (DEO): even pairs (0,1), (2,3), … in even
//! rounds, odd pairs in odd rounds, which makes a replica travel the ladder ballistically
//! instead of diffusively (Okabe et al. 2001; Syed, Bouchard-Côté, Deligiannidis & Doucet 2022,
//! "Non-reversible parallel tempering", JRSS B 84:321, arXiv:1905.02939, §3).
//!
//! The ladder starts geometric and, during the first half of warm-up, is re-spaced after rounds
//! of doubling length so that every neighbour pair has the same swap rejection rate: the
//! rejection rates r_k of a round add up to the cumulative communication barrier Λ(β), and the
//! new rungs sit at equal steps of Λ (Syed et al. 2022, §5: the schedule update of their
//! adaptive non-reversible PT, with Λ interpolated linearly in ln β here because ladders span
//! decades). The second half of warm-up adapts each rung's step size and metric to the final
//! ladder, which is frozen for sampling, so the post-warm-up chain is a valid MCMC. With the
//! ladder equalised, each pair rejects ≈ Λ/(K − 1) of its swaps: if the acceptance this leaves
//! is low (below ~0.2), add rungs; K ≈ 2Λ or more is what Syed et al. recommend.
//!
//! From the ln L of all rungs, thermodynamic integration estimates the evidence
//! ln Z = ∫₀¹ E_β[ln L] dβ (see [`LogEvidence`]).

use std::sync::atomic::{AtomicBool, Ordering};

use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};

use crate::adapt::StepSizeRestart;
use crate::chain::chain_rng;
use crate::chain::ChainState;
use crate::config::SamplerConfig;
use crate::diagnostics::mcse_mean;
use crate::hamiltonian::{metropolis_accept, Point};
use crate::kernel::{DrawStats, Kernel};
use crate::progress::{ChainProgress, Progress};
use crate::runner::{collect_samples, for_each_chain, validate};
use crate::samples::{ChainDraws, Samples};
use crate::target::{LogDensity, PriorLikelihood, Tempered};
use crate::McmcError;

/// Settings of the temperature ladder and the swaps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TemperingConfig {
    /// Number K of rungs per chain, β = 1 included; a run costs K times a plain one.
    pub num_temperatures: usize,
    /// Inverse temperature β_min of the hottest rung, in (0, 1) (unused when K = 1).
    pub beta_min: f64,
    /// Iterations (one transition of every rung) between swap rounds.
    pub swap_interval: usize,
    /// Re-space the ladder during the first half of warm-up to equalise swap acceptance; if
    /// false, the geometric ladder β_k = β_min^{k/(K−1)} is kept.
    pub adapt_ladder: bool,
}

impl Default for TemperingConfig {
    /// 8 rungs down to β_min = 0.01, a swap round after every transition, adapted ladder.
    fn default() -> Self {
        Self {
            num_temperatures: 8,
            beta_min: 1e-2,
            swap_interval: 1,
            adapt_ladder: true,
        }
    }
}

/// Ladder, swaps and log-likelihoods of one tempered chain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TemperedChain {
    /// Chain index.
    pub chain: usize,
    /// Inverse temperatures β₀ = 1 > … > β_{K−1} = β_min used after warm-up.
    pub ladder: Vec<f64>,
    /// Mean swap acceptance probability of each neighbour pair (k, k + 1) after warm-up (the
    /// Metropolis probability averaged over attempts, which has the expectation of the accepted
    /// fraction and less noise); NaN for a pair never attempted.
    pub swap_acceptance: Vec<f64>,
    /// Round trips after warm-up: journeys of a replica from β = 1 to β_min and back.
    pub round_trips: usize,
    /// Leapfrog step size of each rung after warm-up.
    pub step_sizes: Vec<f64>,
    /// ln L of every rung's point after each post-warm-up iteration (after the transitions,
    /// before the swaps), row-major: iteration i is `log_likelihood[i * K..(i + 1) * K]`.
    pub log_likelihood: Vec<f64>,
    /// Gradient evaluations of all rungs during warm-up (including initialisation).
    pub warmup_grad_evals: u64,
    /// Gradient evaluations of all rungs during sampling.
    pub grad_evals: u64,
    /// Evaluations of the density alone of all rungs, warm-up included.
    pub density_evals: u64,
}

impl TemperedChain {
    /// Global communication barrier Λ ≈ Σ_k (1 − acceptance_k) (Syed et al. 2022, §5.1): with
    /// an equalised ladder every pair accepts ≈ 1 − Λ/(K − 1).
    pub fn communication_barrier(&self) -> f64 {
        self.swap_acceptance.iter().map(|a| 1.0 - a).sum()
    }

    /// Post-warm-up iterations recorded.
    pub fn num_iterations(&self) -> usize {
        self.log_likelihood
            .len()
            .checked_div(self.ladder.len())
            .unwrap_or(0)
    }
}

/// Thermodynamic-integration estimate of the log evidence ln Z = ln ∫ π(x) L(x) dx.
///
/// ln Z = ∫₀¹ E_β[ln L] dβ (Gelman & Meng 1998, Statist. Sci. 13:163; Lartillot & Philippe 2006,
/// Syst. Biol. 55:195), with E_β the mean over the rung at β. Over each ladder interval
/// [β_{k+1}, β_k] of width h the integral is the trapezoid rule corrected with the end-point
/// slopes dE_β[ln L]/dβ = Var_β[ln L] = V_β: h (E_k + E_{k+1})/2 − h² (V_k − V_{k+1})/12 (Friel,
/// Hurn & Wyse 2014, Stat. Comput. 24:709), exact for a cubic; an adapted ladder puts its rungs
/// where E_β[ln L] changes, which keeps this quadrature error small.
///
/// The ladder stops at β_min > 0, so [0, β_min] is integrated along the tangent at β_min:
/// β_min E_{β_min} − β_min² V_{β_min}/2. That is exact while E_β[ln L] is linear in β, as it is
/// once the hottest rung is close to the prior; where E_β[ln L] is still concave below β_min
/// (ln L skewed to low values, the usual case) it over-estimates the truncated piece. Choose
/// β_min small enough for the hottest rung to sample nearly the prior when ln Z matters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LogEvidence {
    /// The estimate of ln Z, averaged over chains.
    pub ln_z: f64,
    /// Its Monte-Carlo standard error: sd / √ESS of the per-iteration integrand over all chains
    /// (so the correlations between rungs and along the chains count). The quadrature and
    /// truncation errors are not included: compare with a run with more rungs or a lower β_min.
    pub stderr: f64,
}

/// Everything a tempered run produced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TemperedSamples {
    /// The β = 1 draws of every chain, with their diagnostics as from [`crate::sample`].
    pub samples: Samples,
    /// Ladder and swap statistics of every chain, in chain order.
    pub chains: Vec<TemperedChain>,
    /// Thermodynamic integration over the ladders; `None` with fewer than 2 rungs or 4
    /// post-warm-up iterations.
    pub ln_evidence: Option<LogEvidence>,
}

impl TemperedSamples {
    /// Swap acceptance of each neighbour pair, averaged over chains.
    pub fn swap_acceptance(&self) -> Vec<f64> {
        let pairs = self.chains.first().map_or(0, |c| c.swap_acceptance.len());
        (0..pairs)
            .map(|k| {
                let sum: f64 = self.chains.iter().map(|c| c.swap_acceptance[k]).sum();
                sum / self.chains.len() as f64
            })
            .collect()
    }

    /// Post-warm-up round trips of every chain.
    pub fn round_trips(&self) -> Vec<usize> {
        self.chains.iter().map(|c| c.round_trips).collect()
    }
}

/// Runs `config.num_chains` tempered chains of `kernel` on `model` in parallel (see the
/// [module documentation](self)); the β = 1 draws come back in [`TemperedSamples::samples`].
///
/// `config` applies to every rung: each starts from its own jittered initial point
/// (`config.init`) and `config.initial_metric`, and runs the warm-up of `config.adaptation`.
/// Rung k of chain c draws from the stream of [`chain_rng`]`(seed, c)` long-jumped k times, so
/// the output depends on the seed only, not on the number of threads.
pub fn sample_tempered<M, K>(
    model: &M,
    kernel: &K,
    config: &SamplerConfig,
    tempering: &TemperingConfig,
) -> Result<TemperedSamples, McmcError>
where
    M: PriorLikelihood + Sync + ?Sized,
    K: Kernel,
{
    sample_tempered_until(model, kernel, config, tempering, &AtomicBool::new(false))
}

/// Like [`sample_tempered`], but every chain stops before its next iteration (one transition of
/// every rung) once `stop` is set; the draws made so far are returned with
/// [`Samples::interrupted`] set.
pub fn sample_tempered_until<M, K>(
    model: &M,
    kernel: &K,
    config: &SamplerConfig,
    tempering: &TemperingConfig,
    stop: &AtomicBool,
) -> Result<TemperedSamples, McmcError>
where
    M: PriorLikelihood + Sync + ?Sized,
    K: Kernel,
{
    validate(model.dim(), kernel, config)?;
    validate_tempering(tempering)?;
    let progress = Progress::new(
        config.progress,
        config.num_chains,
        config.num_warmup + config.num_draws,
    );
    let results = for_each_chain(config, |chain| {
        run_tempered_chain(
            model,
            kernel,
            config,
            tempering,
            chain,
            stop,
            progress.chain(chain),
        )
    })
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    let (draws, chains): (Vec<ChainDraws>, Vec<TemperedChain>) = results.into_iter().unzip();
    let ln_evidence = thermodynamic_integration(&chains);
    Ok(TemperedSamples {
        samples: collect_samples(kernel, model.dim(), draws, config),
        chains,
        ln_evidence,
    })
}

fn validate_tempering(tempering: &TemperingConfig) -> Result<(), McmcError> {
    let invalid = |name, value: String, allowed| {
        Err(McmcError::InvalidSetting {
            name,
            value,
            allowed,
        })
    };
    if tempering.num_temperatures == 0 {
        return invalid("num_temperatures", "0".into(), "at least 1");
    }
    let beta_min = tempering.beta_min;
    if tempering.num_temperatures > 1 && !(beta_min > 0.0 && beta_min < 1.0) {
        return invalid("beta_min", beta_min.to_string(), "strictly between 0 and 1");
    }
    if tempering.swap_interval == 0 {
        return invalid("swap_interval", "0".into(), "at least 1");
    }
    Ok(())
}

/// The first ladder-adaptation round lasts this many warm-up iterations, each next one twice as
/// long (Syed et al. 2022 double their rounds likewise), and none ends after half of warm-up.
const FIRST_LADDER_ROUND: usize = 32;

/// Floor on a pair's rejection rate in the ladder update: keeps the cumulative barrier strictly
/// increasing, so pairs that always swap fall back to even spacing in ln β instead of merging.
const MIN_REJECTION: f64 = 1e-3;

/// The random stream of rung `rung` of chain `chain`: the chain's stream long-jumped `rung`
/// times (2¹⁹² outputs each), so rung 0 draws exactly as a plain chain and no streams overlap.
/// The swaps use the stream after the last rung's.
fn rung_rng(seed: u64, chain: usize, rung: usize) -> Xoshiro256PlusPlus {
    let mut rng = chain_rng(seed, chain);
    for _ in 0..rung {
        rng.long_jump();
    }
    rng
}

/// Runs tempered chain `chain`: its β = 1 draws and its ladder statistics.
fn run_tempered_chain<M, K>(
    model: &M,
    kernel: &K,
    config: &SamplerConfig,
    tempering: &TemperingConfig,
    chain: usize,
    stop: &AtomicBool,
    mut progress: ChainProgress<'_>,
) -> Result<(ChainDraws, TemperedChain), McmcError>
where
    M: PriorLikelihood + ?Sized,
    K: Kernel,
{
    let num_rungs = tempering.num_temperatures;
    let mut ladder = geometric_ladder(num_rungs, tempering.beta_min);
    // Each rung's target, whose β the ladder adaptation moves while the rung's chain holds it.
    let targets: Vec<Tempered<'_, M>> = ladder
        .iter()
        .map(|&beta| Tempered::new(model, beta))
        .collect();
    let mut rngs: Vec<Xoshiro256PlusPlus> = (0..num_rungs)
        .map(|rung| rung_rng(config.seed, chain, rung))
        .collect();
    let mut rungs = targets
        .iter()
        .zip(&mut rngs)
        .map(|(target, rng)| ChainState::start(target, kernel, config, chain, rng))
        .collect::<Result<Vec<_>, _>>()?;
    let mut exchange = Exchange::new(
        rung_rng(config.seed, chain, num_rungs),
        num_rungs,
        tempering.swap_interval,
    );

    let mut warmup_draws = Vec::with_capacity(config.num_warmup * model.dim());
    let mut warmup_stats = Vec::with_capacity(config.num_warmup);
    let mut ladder_round = FIRST_LADDER_ROUND;
    let mut next_ladder_update = ladder_round;
    while warmup_stats.len() < config.num_warmup && !stop.load(Ordering::Relaxed) {
        let restart = Some(config.adaptation.step_size_restart);
        let stats = ladder_transition(&mut rungs, &mut rngs, kernel, restart)?;
        progress.record("warmup", &stats);
        warmup_draws.extend_from_slice(&rungs[0].point.x);
        warmup_stats.push(stats);
        let iteration = warmup_stats.len();
        exchange.after_iteration(&mut rungs, &ladder);
        // Only interior rungs move, so a ladder of two or fewer has nothing to adapt.
        let adapt_now = tempering.adapt_ladder
            && num_rungs > 2
            && iteration == next_ladder_update
            && next_ladder_update <= config.num_warmup / 2;
        if adapt_now {
            // A round without an attempt at some pair carries its tallies over to the next.
            if let Some(rejection) = exchange.round_rejection() {
                let new_ladder = equalised_ladder(&ladder, &rejection);
                for ((rung, target), (&old, &new)) in rungs
                    .iter_mut()
                    .zip(&targets)
                    .zip(ladder.iter().zip(&new_ladder))
                {
                    if new != old {
                        retemper(&mut rung.point, old, new);
                        target.set_beta(new);
                        rung.restart_step_size_adaptation();
                    }
                }
                ladder = new_ladder;
                exchange.start_round();
            }
            ladder_round *= 2;
            next_ladder_update += ladder_round;
        }
    }
    for rung in &mut rungs {
        rung.finish_warmup(config);
    }
    exchange.start_sampling();

    progress.phase();
    let mut draws = Vec::with_capacity(config.num_draws * model.dim());
    let mut stats = Vec::with_capacity(config.num_draws);
    let mut log_likelihood = Vec::with_capacity(config.num_draws * num_rungs);
    let warmup_done = warmup_stats.len() == config.num_warmup;
    while warmup_done && stats.len() < config.num_draws && !stop.load(Ordering::Relaxed) {
        let s = ladder_transition(&mut rungs, &mut rngs, kernel, None)?;
        progress.record("sampling", &s);
        draws.extend_from_slice(&rungs[0].point.x);
        stats.push(s);
        log_likelihood.extend(rungs.iter().map(|rung| cached_log_likelihood(&rung.point)));
        exchange.after_iteration(&mut rungs, &ladder);
    }
    progress.finish();

    let step_sizes = rungs.iter().map(ChainState::step_size).collect();
    let (warmup_grad_evals, grad_evals) = rungs
        .iter()
        .map(ChainState::grad_evals)
        .fold((0, 0), |(w, s), (rw, rs)| (w + rw, s + rs));
    let density_evals = rungs.iter().map(ChainState::density_evals).sum();
    let tempered = TemperedChain {
        chain,
        swap_acceptance: exchange.acceptance(),
        round_trips: exchange.round_trips.count,
        ladder,
        step_sizes,
        log_likelihood,
        warmup_grad_evals,
        grad_evals,
        density_evals,
    };
    let cold = rungs.swap_remove(0);
    Ok((
        cold.chain_draws(draws, stats, warmup_draws, warmup_stats),
        tempered,
    ))
}

/// One transition of every rung, learning from it during warm-up; returns the statistics of
/// the β = 1 rung.
fn ladder_transition<T: LogDensity + ?Sized, K: Kernel>(
    rungs: &mut [ChainState<'_, T>],
    rngs: &mut [Xoshiro256PlusPlus],
    kernel: &K,
    warmup: Option<StepSizeRestart>,
) -> Result<DrawStats, McmcError> {
    let mut cold = None;
    for (rung, rng) in rungs.iter_mut().zip(rngs) {
        let stats = match warmup {
            Some(restart) => rung.warmup_transition(kernel, restart, rng)?,
            None => rung.transition(kernel, rng),
        };
        cold.get_or_insert(stats);
    }
    Ok(cold.expect("a ladder has at least one rung (validated)"))
}

/// Why a rung's point always has a likelihood term: [`Tempered`] reports it at every
/// evaluation and the Hamiltonian stores it on the point.
const RUNG_POINTS_CARRY_LIKELIHOOD: &str = "rung targets report their likelihood term";

/// ln L at a rung's point, cached there by the evaluation of its [`Tempered`].
fn cached_log_likelihood(point: &Point) -> f64 {
    point
        .likelihood
        .as_ref()
        .expect(RUNG_POINTS_CARRY_LIKELIHOOD)
        .log_likelihood
}

/// Moves a point of the tempered target from inverse temperature `from` to `to`: ln p and ∇ ln p
/// change by (to − from) times the cached ln L and ∇ ln L, so no evaluation is needed.
fn retemper(point: &mut Point, from: f64, to: f64) {
    let delta = to - from;
    let term = point
        .likelihood
        .as_ref()
        .expect(RUNG_POINTS_CARRY_LIKELIHOOD);
    point.log_density += delta * term.log_likelihood;
    for (g, gl) in point.grad.iter_mut().zip(&term.gradient) {
        *g += delta * gl;
    }
}

/// The swap moves of one ladder: their random stream and schedule, the even–odd alternation,
/// the acceptance tallies per neighbour pair and the round trips.
struct Exchange {
    rng: Xoshiro256PlusPlus,
    swap_interval: usize,
    iterations_since_swap: usize,
    rounds: usize,
    accept_sum: Vec<f64>,
    attempts: Vec<usize>,
    round_trips: RoundTrips,
}

impl Exchange {
    fn new(rng: Xoshiro256PlusPlus, num_rungs: usize, swap_interval: usize) -> Self {
        let pairs = num_rungs.saturating_sub(1);
        Self {
            rng,
            swap_interval,
            iterations_since_swap: 0,
            rounds: 0,
            accept_sum: vec![0.0; pairs],
            attempts: vec![0; pairs],
            round_trips: RoundTrips::new(num_rungs),
        }
    }

    /// Counts one iteration of the ladder; every `swap_interval`-th is followed by a swap round.
    fn after_iteration<T: LogDensity + ?Sized>(
        &mut self,
        rungs: &mut [ChainState<'_, T>],
        ladder: &[f64],
    ) {
        self.iterations_since_swap += 1;
        if self.iterations_since_swap == self.swap_interval {
            self.iterations_since_swap = 0;
            self.swap_round(rungs, ladder);
        }
    }

    /// One DEO swap round: pairs (k, k + 1) with k even in even rounds, odd in odd rounds.
    fn swap_round<T: LogDensity + ?Sized>(
        &mut self,
        rungs: &mut [ChainState<'_, T>],
        ladder: &[f64],
    ) {
        let first = self.rounds % 2;
        self.rounds += 1;
        for lower in (first..self.attempts.len()).step_by(2) {
            let upper = lower + 1;
            let (colder, hotter) = rungs.split_at_mut(upper);
            let (a, b) = (&mut colder[lower].point, &mut hotter[0].point);
            let log_ratio = (ladder[lower] - ladder[upper])
                * (cached_log_likelihood(b) - cached_log_likelihood(a));
            let accept = log_ratio.exp().min(1.0);
            self.accept_sum[lower] += accept;
            self.attempts[lower] += 1;
            if metropolis_accept(accept, &mut self.rng) {
                std::mem::swap(a, b);
                retemper(a, ladder[upper], ladder[lower]);
                retemper(b, ladder[lower], ladder[upper]);
                self.round_trips.replicas.swap(lower, upper);
            }
        }
        self.round_trips.update();
    }

    /// Mean rejection rate of each pair since the round started; `None` if a pair had no
    /// attempt.
    fn round_rejection(&self) -> Option<Vec<f64>> {
        self.attempts
            .iter()
            .zip(&self.accept_sum)
            .map(|(&n, &sum)| (n > 0).then(|| 1.0 - sum / n as f64))
            .collect()
    }

    /// Starts a ladder-adaptation round: the tallies restart.
    fn start_round(&mut self) {
        self.accept_sum.fill(0.0);
        self.attempts.fill(0);
    }

    /// Starts the post-warm-up statistics: tallies and round trips restart.
    fn start_sampling(&mut self) {
        self.start_round();
        self.round_trips.restart();
    }

    /// Mean acceptance of each pair (NaN if never attempted).
    fn acceptance(&self) -> Vec<f64> {
        self.accept_sum
            .iter()
            .zip(&self.attempts)
            .map(|(&sum, &n)| sum / n as f64)
            .collect()
    }
}

/// Where a replica is on its way between the cold end (β = 1) and the hot end (β_min).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Leg {
    /// Not at the cold end since counting started.
    Unanchored,
    /// Left the cold end, hot end not reached yet.
    Outbound,
    /// Reached the hot end, on its way back.
    Returning,
}

/// Round trips of the replicas (a replica is the point that swaps carry along the ladder).
struct RoundTrips {
    /// The replica at each rung.
    replicas: Vec<usize>,
    /// The leg each replica is on.
    legs: Vec<Leg>,
    count: usize,
}

impl RoundTrips {
    fn new(num_rungs: usize) -> Self {
        let mut trips = Self {
            replicas: (0..num_rungs).collect(),
            legs: vec![Leg::Unanchored; num_rungs],
            count: 0,
        };
        trips.restart();
        trips
    }

    /// Counts from now on: only the replica at the cold end is on its way.
    fn restart(&mut self) {
        self.legs.fill(Leg::Unanchored);
        self.legs[self.replicas[0]] = Leg::Outbound;
        self.count = 0;
    }

    /// Advances the legs of the replicas now at either end.
    fn update(&mut self) {
        let (cold, hot) = (self.replicas[0], self.replicas[self.replicas.len() - 1]);
        if cold == hot {
            return;
        }
        if self.legs[hot] == Leg::Outbound {
            self.legs[hot] = Leg::Returning;
        }
        if self.legs[cold] == Leg::Returning {
            self.count += 1;
        }
        self.legs[cold] = Leg::Outbound;
    }
}

/// β_k = β_min^{k/(K−1)}.
fn geometric_ladder(num_rungs: usize, beta_min: f64) -> Vec<f64> {
    if num_rungs == 1 {
        return vec![1.0];
    }
    (0..num_rungs)
        .map(|k| beta_min.powf(k as f64 / (num_rungs - 1) as f64))
        .collect()
}

/// Syed et al. (2022, §5) schedule update: with the rejection rates r_k of the pairs of
/// `ladder`, the cumulative barrier Λ(β_k) = Σ_{j<k} r_j, interpolated linearly in ln β, is
/// inverted at the equal steps Λ_total · k/(K − 1); the end points stay.
fn equalised_ladder(ladder: &[f64], rejection: &[f64]) -> Vec<f64> {
    let num_rungs = ladder.len();
    let mut barrier = vec![0.0; num_rungs];
    for (k, r) in rejection.iter().enumerate() {
        barrier[k + 1] = barrier[k] + r.max(MIN_REJECTION);
    }
    let total = barrier[num_rungs - 1];
    let ln_beta: Vec<f64> = ladder.iter().map(|b| b.ln()).collect();
    let mut new_ladder = Vec::with_capacity(num_rungs);
    new_ladder.push(ladder[0]);
    let mut segment = 0;
    for k in 1..num_rungs - 1 {
        let level = total * k as f64 / (num_rungs - 1) as f64;
        while barrier[segment + 1] < level {
            segment += 1;
        }
        let t = (level - barrier[segment]) / (barrier[segment + 1] - barrier[segment]);
        new_ladder.push((ln_beta[segment] + t * (ln_beta[segment + 1] - ln_beta[segment])).exp());
    }
    new_ladder.push(ladder[num_rungs - 1]);
    new_ladder
}

/// Thermodynamic integration over every chain's ladder (see [`LogEvidence`]); chains are cut to
/// the shortest that has iterations.
fn thermodynamic_integration(chains: &[TemperedChain]) -> Option<LogEvidence> {
    let len = chains
        .iter()
        .map(TemperedChain::num_iterations)
        .filter(|&n| n > 0)
        .min()?;
    let integrands: Vec<Vec<f64>> = chains
        .iter()
        .filter(|c| c.num_iterations() > 0)
        .map(|c| evidence_integrand(c, len))
        .collect::<Option<_>>()?;
    let total: f64 = integrands.iter().flatten().sum();
    let ln_z = total / (len * integrands.len()) as f64;
    let stderr = mcse_mean(&integrands);
    (ln_z.is_finite() && stderr.is_finite()).then_some(LogEvidence { ln_z, stderr })
}

/// The chain's ln Z quadrature (see [`LogEvidence`]) applied to each of its first `len`
/// iterations, with the variances taken as the mean squared deviations from the chain's rung
/// means: the mean of the result is the chain's estimate, and its fluctuations give the
/// Monte-Carlo error with the correlations between rungs included.
fn evidence_integrand(chain: &TemperedChain, len: usize) -> Option<Vec<f64>> {
    let ladder = &chain.ladder;
    let num_rungs = ladder.len();
    if num_rungs < 2 {
        return None;
    }
    let rows: Vec<&[f64]> = chain
        .log_likelihood
        .chunks_exact(num_rungs)
        .take(len)
        .collect();
    let means: Vec<f64> = (0..num_rungs)
        .map(|k| rows.iter().map(|row| row[k]).sum::<f64>() / len as f64)
        .collect();
    let integrand = rows
        .iter()
        .map(|row| {
            let squared_deviation = |k: usize| (row[k] - means[k]).powi(2);
            let hottest = num_rungs - 1;
            let beta_min = ladder[hottest];
            let mut value =
                beta_min * row[hottest] - 0.5 * beta_min * beta_min * squared_deviation(hottest);
            for k in 0..hottest {
                let h = ladder[k] - ladder[k + 1];
                value += 0.5 * h * (row[k] + row[k + 1])
                    - h * h / 12.0 * (squared_deviation(k) - squared_deviation(k + 1));
            }
            value
        })
        .collect();
    Some(integrand)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hamiltonian::Hamiltonian;
    use crate::target::Space;
    use crate::Metric;

    /// Prior N(0, 4 I), likelihood exp(−Σ x⁴/4) with a linear tilt.
    struct Quartic;

    impl Space for Quartic {
        fn dim(&self) -> usize {
            2
        }
    }

    impl PriorLikelihood for Quartic {
        fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
            grad.iter_mut().zip(x).for_each(|(g, xi)| *g = -xi / 4.0);
            -x.iter().map(|xi| xi * xi).sum::<f64>() / 8.0
        }
        fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
            grad.iter_mut()
                .zip(x)
                .for_each(|(g, xi)| *g = 0.5 - xi.powi(3));
            x.iter().map(|xi| 0.5 * xi - xi.powi(4) / 4.0).sum()
        }
    }

    /// Moving a point to another temperature with its cached likelihood term gives what a fresh
    /// evaluation there gives.
    #[test]
    fn retempered_point_matches_fresh_evaluation() {
        let at = |beta| Tempered::new(&Quartic, beta);
        let (hot, cold) = (at(0.3), at(0.8));
        let x = vec![0.7, -1.3];
        let mut point = Hamiltonian::new(&hot, Metric::unit(2)).point(x.clone());
        retemper(&mut point, 0.3, 0.8);
        let fresh = Hamiltonian::new(&cold, Metric::unit(2)).point(x);
        assert!((point.log_density - fresh.log_density).abs() < 1e-12);
        for (a, b) in point.grad.iter().zip(&fresh.grad) {
            assert!((a - b).abs() < 1e-12);
        }
        assert_eq!(point.likelihood, fresh.likelihood);
    }

    #[test]
    fn geometric_ladder_ends_at_one_and_beta_min() {
        assert_eq!(geometric_ladder(1, 0.01), [1.0]);
        let ladder = geometric_ladder(5, 1e-4);
        assert_eq!(ladder[0], 1.0);
        assert_eq!(ladder[4], 1e-4);
        for (k, beta) in ladder.iter().enumerate() {
            assert!((beta.log10() + k as f64).abs() < 1e-12);
        }
    }

    /// Rungs land at equal steps of the cumulative rejection, interpolated in ln β.
    #[test]
    fn equalised_ladder_inverts_the_cumulative_barrier() {
        let ladder = geometric_ladder(5, 1e-4);
        let same = equalised_ladder(&ladder, &[0.3; 4]);
        for (a, b) in same.iter().zip(&ladder) {
            assert!((a / b - 1.0).abs() < 1e-12);
        }
        // Barrier 0, 0.6, 0.8, 1.0, 1.2 at β = 1, 0.1, …, 1e-4; steps of 0.3.
        let moved = equalised_ladder(&ladder, &[0.6, 0.2, 0.2, 0.2]);
        let expected = [0.0, -0.5, -1.0, -2.5, -4.0];
        for (beta, log10) in moved.iter().zip(expected) {
            assert!((beta.log10() - log10).abs() < 1e-12, "{moved:?}");
        }
        // Pairs that never reject are floored, and the ladder stays strictly decreasing.
        let floored = equalised_ladder(&ladder, &[0.9, 0.0, 0.0, 0.0]);
        assert!(floored.windows(2).all(|w| w[0] > w[1]), "{floored:?}");
    }

    /// A replica that goes from the cold end to the hot end and back makes one round trip; one
    /// that only reaches the cold end makes none.
    #[test]
    fn round_trips_count_cold_hot_cold_journeys() {
        let mut trips = RoundTrips::new(3);
        for pair in [0, 1, 1, 0] {
            trips.replicas.swap(pair, pair + 1);
            trips.update();
        }
        // Replica 0: rung 0 → 1 → 2 → 1 → 0.
        assert_eq!(trips.replicas, [0, 1, 2]);
        assert_eq!(trips.count, 1);
        trips.restart();
        assert_eq!(trips.count, 0);
        for pair in [1, 0] {
            trips.replicas.swap(pair, pair + 1);
            trips.update();
        }
        // Replica 2 reached the cold end from the hot end without having started there.
        assert_eq!(trips.replicas, [2, 0, 1]);
        assert_eq!(trips.count, 0);
    }
}
