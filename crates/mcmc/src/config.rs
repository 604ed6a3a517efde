//! Settings of a multi-chain run: how many chains and draws, the seed, the threads, the initial
//! points and the warm-up.

use serde::{Deserialize, Serialize};

use crate::adapt::Adaptation;
use crate::mass_matrix::Metric;

/// Initial points: `center` (zeros if `None`) plus U(−radius, radius) jitter per coordinate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Init {
    /// Centre of the jitter on the unconstrained space.
    pub center: Option<Vec<f64>>,
    /// Half-width of the uniform jitter (Stan: 2).
    pub radius: f64,
    /// Jittered points tried before giving up (Stan: 100).
    pub max_attempts: usize,
}

impl Default for Init {
    fn default() -> Self {
        Self {
            center: None,
            radius: 2.0,
            max_attempts: 100,
        }
    }
}

/// Settings of a multi-chain run.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerConfig {
    /// Number of chains.
    pub num_chains: usize,
    /// Warm-up (adaptation) iterations per chain, discarded.
    pub num_warmup: usize,
    /// Post-warm-up draws per chain.
    pub num_draws: usize,
    /// Master seed; chain c uses the stream `seed` advanced by c jumps of 2¹²⁸.
    pub seed: u64,
    /// Worker threads; 0 uses all available cores. Never changes the draws.
    pub threads: usize,
    /// Show a progress bar on standard error (drawn only on a terminal).
    pub progress: bool,
    /// Initial points.
    pub init: Init,
    /// Warm-up settings.
    pub adaptation: Adaptation,
    /// Metric to start from (identity if `None`).
    pub initial_metric: Option<Metric>,
}

impl Default for SamplerConfig {
    /// 4 chains × (1000 warm-up + 1000 draws), seed 0, all cores, progress shown.
    fn default() -> Self {
        Self {
            num_chains: 4,
            num_warmup: 1000,
            num_draws: 1000,
            seed: 0,
            threads: 0,
            progress: true,
            init: Init::default(),
            adaptation: Adaptation::default(),
            initial_metric: None,
        }
    }
}
