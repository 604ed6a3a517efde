//! The output of a run: draws and sampler statistics per chain, and their summaries.

use serde::Serialize;

use crate::diagnostics::{ess_bulk, ess_mean, ess_tail, mcse_mean, rhat, sample_sd};
use crate::kernel::DrawStats;
use crate::mass_matrix::Metric;

/// Draws and statistics of one chain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainDraws {
    /// Chain index (also selects its random-number stream).
    pub chain: usize,
    /// Dimension n of each draw.
    pub dim: usize,
    /// Post-warm-up draws, row-major: draw i is `draws[i * dim..(i + 1) * dim]`.
    pub draws: Vec<f64>,
    /// Statistics of each post-warm-up transition.
    pub stats: Vec<DrawStats>,
    /// Warm-up draws (the state after each warm-up transition), row-major as `draws`: not
    /// draws of the posterior, kept for trace plots.
    pub warmup_draws: Vec<f64>,
    /// Statistics of each warm-up transition.
    pub warmup_stats: Vec<DrawStats>,
    /// Step size used for sampling.
    pub step_size: f64,
    /// Metric used for sampling.
    pub metric: Metric,
    /// Gradient evaluations during warm-up (including initialisation and step-size searches).
    pub warmup_grad_evals: u64,
    /// Gradient evaluations during sampling.
    pub grad_evals: u64,
    /// Evaluations of the density alone (independence proposals), warm-up included.
    pub density_evals: u64,
}

impl ChainDraws {
    /// Number of post-warm-up draws.
    pub fn num_draws(&self) -> usize {
        self.stats.len()
    }

    /// Draw `i`.
    pub fn draw(&self, i: usize) -> &[f64] {
        &self.draws[i * self.dim..(i + 1) * self.dim]
    }

    /// The state after warm-up transition `i`.
    pub fn warmup_draw(&self, i: usize) -> &[f64] {
        &self.warmup_draws[i * self.dim..(i + 1) * self.dim]
    }

    /// The first `len` draws of coordinate `param`.
    fn param(&self, param: usize, len: usize) -> Vec<f64> {
        self.draws
            .chunks_exact(self.dim)
            .take(len)
            .map(|d| d[param])
            .collect()
    }
}

/// Everything a run produced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Samples {
    /// Name of the kernel (`"nuts"`, `"hmc"`, `"mala"`).
    pub kernel: &'static str,
    /// Dimension n of the target.
    pub dim: usize,
    /// One entry per chain, in chain order.
    pub chains: Vec<ChainDraws>,
    /// Whether the run was stopped early; chains then hold the draws made so far.
    pub interrupted: bool,
}

/// Posterior summary and convergence diagnostics of one coordinate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ParamSummary {
    /// Mean over all chains.
    pub mean: f64,
    /// Standard deviation over all chains (n − 1 denominator).
    pub sd: f64,
    /// Monte-Carlo standard error of the mean.
    pub mcse_mean: f64,
    /// Effective sample size of the mean (split chains, not rank-normalised).
    pub ess_mean: f64,
    /// Bulk effective sample size.
    pub ess_bulk: f64,
    /// Tail effective sample size.
    pub ess_tail: f64,
    /// Rank-normalised split R̂.
    pub rhat: f64,
}

/// Sampler behaviour of one chain.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ChainSummary {
    /// Chain index.
    pub chain: usize,
    /// Post-warm-up draws.
    pub num_draws: usize,
    /// Mean acceptance statistic after warm-up.
    pub mean_accept_stat: f64,
    /// Divergent transitions after warm-up.
    pub divergences: usize,
    /// Draws after warm-up at which one of the target's mirror moves
    /// ([`Space::mirror`](crate::Space::mirror)) was accepted (any of them: the count does not
    /// tell the moves apart).
    pub mirrored: usize,
    /// Draws after warm-up at which one of the target's orbit moves
    /// ([`Space::orbit`](crate::Space::orbit)) was accepted.
    pub orbit_moves: usize,
    /// Draws after warm-up at which one of the target's independence proposals
    /// ([`Space::independence_draw`](crate::Space::independence_draw)) was accepted.
    pub independent_moves: usize,
    /// Mean NUTS tree depth (0 for HMC and MALA).
    pub mean_tree_depth: f64,
    /// Largest NUTS tree depth reached (compare with the kernel's `max_depth`).
    pub max_tree_depth: u32,
    /// Mean leapfrog steps (gradient evaluations) per draw.
    pub mean_steps: f64,
    /// Gradient evaluations during warm-up.
    pub warmup_grad_evals: u64,
    /// Gradient evaluations during sampling.
    pub grad_evals: u64,
    /// Evaluations of the density alone (independence proposals), warm-up included.
    pub density_evals: u64,
    /// Step size used for sampling.
    pub step_size: f64,
    /// Energy Bayesian fraction of missing information (Betancourt 2017, §6.1); values below
    /// ~0.3 flag heavy tails the momentum resampling cannot explore.
    pub e_bfmi: f64,
}

impl Samples {
    /// Draws of coordinate `param`, one vector per chain that has draws, all cut to the shortest
    /// such chain (only differs after an interrupted run).
    pub fn param_chains(&self, param: usize) -> Vec<Vec<f64>> {
        let len = self
            .chains
            .iter()
            .map(ChainDraws::num_draws)
            .filter(|&n| n > 0)
            .min()
            .unwrap_or(0);
        self.chains
            .iter()
            .filter(|c| c.num_draws() > 0)
            .map(|c| c.param(param, len))
            .collect()
    }

    /// Mean, sd and diagnostics of every coordinate (see [`crate::diagnostics`]).
    pub fn summary(&self) -> Vec<ParamSummary> {
        (0..self.dim)
            .map(|j| {
                let chains = self.param_chains(j);
                let all: Vec<f64> = chains.iter().flatten().copied().collect();
                ParamSummary {
                    mean: all.iter().sum::<f64>() / all.len() as f64,
                    sd: sample_sd(&all),
                    mcse_mean: mcse_mean(&chains),
                    ess_mean: ess_mean(&chains),
                    ess_bulk: ess_bulk(&chains),
                    ess_tail: ess_tail(&chains),
                    rhat: rhat(&chains),
                }
            })
            .collect()
    }

    /// Acceptance, divergences, tree depth, step counts and gradient evaluations of every chain.
    pub fn chain_summaries(&self) -> Vec<ChainSummary> {
        self.chains
            .iter()
            .map(|c| {
                let n = c.stats.len() as f64;
                let mean_of = |f: fn(&DrawStats) -> f64| c.stats.iter().map(f).sum::<f64>() / n;
                ChainSummary {
                    chain: c.chain,
                    num_draws: c.stats.len(),
                    mean_accept_stat: mean_of(|s| s.accept_stat),
                    divergences: c.stats.iter().filter(|s| s.divergent).count(),
                    mirrored: c.stats.iter().filter(|s| s.mirrored).count(),
                    orbit_moves: c.stats.iter().filter(|s| s.orbit_moved).count(),
                    independent_moves: c.stats.iter().filter(|s| s.independent).count(),
                    mean_tree_depth: mean_of(|s| f64::from(s.tree_depth)),
                    max_tree_depth: c.stats.iter().map(|s| s.tree_depth).max().unwrap_or(0),
                    mean_steps: mean_of(|s| f64::from(s.n_steps)),
                    warmup_grad_evals: c.warmup_grad_evals,
                    grad_evals: c.grad_evals,
                    density_evals: c.density_evals,
                    step_size: c.step_size,
                    e_bfmi: e_bfmi(&c.stats),
                }
            })
            .collect()
    }
}

/// E-BFMI = mean((E_t − E_{t−1})²) / Var(E) as ArviZ's `bfmi`.
fn e_bfmi(stats: &[DrawStats]) -> f64 {
    let energy: Vec<f64> = stats.iter().map(|s| s.energy).collect();
    let n = energy.len() as f64;
    let mean = energy.iter().sum::<f64>() / n;
    let var = energy.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / n;
    let diff2 = energy
        .windows(2)
        .map(|w| (w[1] - w[0]).powi(2))
        .sum::<f64>()
        / (n - 1.0);
    diff2 / var
}
