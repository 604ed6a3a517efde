//! Targets with known moments and the Monte-Carlo checks shared by the integration tests.
#![allow(dead_code)] // each test binary uses a subset

use rand::{Rng, SeedableRng};
use rand_distr::StandardNormal;
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_mcmc::diagnostics::ess_mean;
use tdpe_mcmc::{
    sample, Adaptation, Kernel, LogDensity, MetricAdaptation, SamplerConfig, Samples, Space,
};

/// A target together with its true marginal means and variances.
pub trait KnownMoments: LogDensity + Sync {
    fn means(&self) -> Vec<f64>;
    fn variances(&self) -> Vec<f64>;
}

/// Independent N(0, σᵢ²) coordinates.
pub struct DiagGaussian {
    pub sd: Vec<f64>,
}

impl DiagGaussian {
    pub fn standard(dim: usize) -> Self {
        Self { sd: vec![1.0; dim] }
    }

    /// Scales log-spaced from `lo` to `hi`.
    pub fn log_spaced(dim: usize, lo: f64, hi: f64) -> Self {
        let sd = (0..dim)
            .map(|i| lo * (hi / lo).powf(i as f64 / (dim - 1) as f64))
            .collect();
        Self { sd }
    }
}

impl Space for DiagGaussian {
    fn dim(&self) -> usize {
        self.sd.len()
    }
}

impl LogDensity for DiagGaussian {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let mut logp = 0.0;
        for ((g, xi), s) in grad.iter_mut().zip(x).zip(&self.sd) {
            let z = xi / s;
            logp -= 0.5 * z * z;
            *g = -z / s;
        }
        logp
    }
}

impl KnownMoments for DiagGaussian {
    fn means(&self) -> Vec<f64> {
        vec![0.0; self.sd.len()]
    }
    fn variances(&self) -> Vec<f64> {
        self.sd.iter().map(|s| s * s).collect()
    }
}

/// N(0, Σ) with Σ = Q Λ Qᵀ: a random rotation Q (fixed seed) of eigenvalues log-spaced over
/// `condition` (so the condition number of Σ is `condition`).
pub struct CorrelatedGaussian {
    pub dim: usize,
    pub covariance: Vec<f64>,
    precision: Vec<f64>,
}

impl CorrelatedGaussian {
    pub fn new(dim: usize, condition: f64, seed: u64) -> Self {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        // Gram–Schmidt on Gaussian columns gives a Haar-random orthogonal matrix.
        let mut q: Vec<Vec<f64>> = Vec::with_capacity(dim);
        while q.len() < dim {
            let mut v: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
            for u in &q {
                let d: f64 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
                v.iter_mut().zip(u).for_each(|(vi, ui)| *vi -= d * ui);
            }
            let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            q.push(v.into_iter().map(|x| x / norm).collect());
        }
        let lambda: Vec<f64> = (0..dim)
            .map(|i| condition.powf(i as f64 / (dim - 1) as f64 - 0.5))
            .collect();
        let mut covariance = vec![0.0; dim * dim];
        let mut precision = vec![0.0; dim * dim];
        for i in 0..dim {
            for j in 0..dim {
                for (k, l) in lambda.iter().enumerate() {
                    covariance[i * dim + j] += q[k][i] * l * q[k][j];
                    precision[i * dim + j] += q[k][i] / l * q[k][j];
                }
            }
        }
        Self {
            dim,
            covariance,
            precision,
        }
    }
}

impl Space for CorrelatedGaussian {
    fn dim(&self) -> usize {
        self.dim
    }
}

impl LogDensity for CorrelatedGaussian {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let mut logp = 0.0;
        for (row, (g, xi)) in self
            .precision
            .chunks_exact(self.dim)
            .zip(grad.iter_mut().zip(x))
        {
            *g = -row.iter().zip(x).map(|(a, b)| a * b).sum::<f64>();
            logp += 0.5 * xi * *g;
        }
        logp
    }
}

impl KnownMoments for CorrelatedGaussian {
    fn means(&self) -> Vec<f64> {
        vec![0.0; self.dim]
    }
    fn variances(&self) -> Vec<f64> {
        (0..self.dim)
            .map(|i| self.covariance[i * self.dim + i])
            .collect()
    }
}

/// The banana (twisted Gaussian): x₁ ~ N(0, 1), x₂ | x₁ ~ N(b (x₁² − 1), σ²), so E = (0, 0)
/// and Var = (1, σ² + 2b²).
pub struct Banana {
    pub b: f64,
    pub sigma: f64,
}

impl Space for Banana {
    fn dim(&self) -> usize {
        2
    }
}

impl LogDensity for Banana {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let r = (x[1] - self.b * (x[0] * x[0] - 1.0)) / self.sigma;
        grad[0] = -x[0] + r / self.sigma * 2.0 * self.b * x[0];
        grad[1] = -r / self.sigma;
        -0.5 * x[0] * x[0] - 0.5 * r * r
    }
}

impl KnownMoments for Banana {
    fn means(&self) -> Vec<f64> {
        vec![0.0, 0.0]
    }
    fn variances(&self) -> Vec<f64> {
        vec![1.0, self.sigma * self.sigma + 2.0 * self.b * self.b]
    }
}

/// ½ N((−m, 0), I) + ½ N((m, 0), I): E = 0, Var = (1 + m², 1).
pub struct Mixture {
    pub m: f64,
}

impl Space for Mixture {
    fn dim(&self) -> usize {
        2
    }
}

impl LogDensity for Mixture {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let la = -0.5 * ((x[0] + self.m).powi(2) + x[1] * x[1]);
        let lb = -0.5 * ((x[0] - self.m).powi(2) + x[1] * x[1]);
        let top = la.max(lb);
        let (wa, wb) = ((la - top).exp(), (lb - top).exp());
        let (wa, wb) = (wa / (wa + wb), wb / (wa + wb));
        grad[0] = -wa * (x[0] + self.m) - wb * (x[0] - self.m);
        grad[1] = -x[1];
        top + ((la - top).exp() + (lb - top).exp()).ln()
    }
}

impl KnownMoments for Mixture {
    fn means(&self) -> Vec<f64> {
        vec![0.0, 0.0]
    }
    fn variances(&self) -> Vec<f64> {
        vec![1.0 + self.m * self.m, 1.0]
    }
}

/// Test-sized run: 4 chains, no progress bar, two threads.
pub fn config(metric: MetricAdaptation, warmup: usize, draws: usize, seed: u64) -> SamplerConfig {
    SamplerConfig {
        num_chains: 4,
        num_warmup: warmup,
        num_draws: draws,
        seed,
        threads: 2,
        progress: false,
        adaptation: Adaptation {
            metric,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Largest |error| / MCSE over coordinates of the means and variances, the largest R̂, the
/// smallest bulk ESS, and the run's divergences and mean leapfrog steps per draw.
#[derive(Debug)]
pub struct Check {
    pub mean_z: f64,
    pub var_z: f64,
    pub rhat: f64,
    pub min_ess_bulk: f64,
    pub divergences: usize,
    pub steps_per_draw: f64,
}

pub fn check<T: KnownMoments>(target: &T, samples: &Samples) -> Check {
    let summary = samples.summary();
    let (means, variances) = (target.means(), target.variances());
    let mut out = Check {
        mean_z: 0.0,
        var_z: 0.0,
        rhat: 0.0,
        min_ess_bulk: f64::INFINITY,
        divergences: 0,
        steps_per_draw: 0.0,
    };
    for (j, s) in summary.iter().enumerate() {
        out.mean_z = out.mean_z.max((s.mean - means[j]).abs() / s.mcse_mean);
        // MCSE of the variance: sd / √ESS of the squared deviations.
        let sq: Vec<Vec<f64>> = samples
            .param_chains(j)
            .iter()
            .map(|c| c.iter().map(|x| (x - s.mean).powi(2)).collect())
            .collect();
        let flat: Vec<f64> = sq.iter().flatten().copied().collect();
        let n = flat.len() as f64;
        let var = flat.iter().sum::<f64>() / (n - 1.0);
        let sd_sq = (flat.iter().map(|v| (v - var).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let mcse_var = sd_sq / ess_mean(&sq).sqrt();
        out.var_z = out.var_z.max((var - variances[j]).abs() / mcse_var);
        out.rhat = out.rhat.max(s.rhat);
        out.min_ess_bulk = out.min_ess_bulk.min(s.ess_bulk);
    }
    let chains = samples.chain_summaries();
    out.divergences = chains.iter().map(|c| c.divergences).sum();
    out.steps_per_draw = chains.iter().map(|c| c.mean_steps).sum::<f64>() / chains.len() as f64;
    out
}

/// Runs `kernel` on `target`, prints the check, and asserts means and variances within 4 MCSE
/// and R̂ < 1.01.
pub fn assert_recovers<T: KnownMoments, K: Kernel>(
    name: &str,
    target: &T,
    kernel: &K,
    config: &SamplerConfig,
) -> Check {
    let samples = sample(target, kernel, config).expect("sampling runs");
    let c = check(target, &samples);
    println!(
        "{name:<28} {:<5} mean|z| {:.2} var|z| {:.2} R̂ {:.4} min ESS_bulk {:>6.0} div {:>3} steps/draw {:.1}",
        kernel.name(),
        c.mean_z,
        c.var_z,
        c.rhat,
        c.min_ess_bulk,
        c.divergences,
        c.steps_per_draw
    );
    assert!(
        c.mean_z < 4.0,
        "{name}/{}: mean off by {:.2} MCSE",
        kernel.name(),
        c.mean_z
    );
    assert!(
        c.var_z < 4.0,
        "{name}/{}: variance off by {:.2} MCSE",
        kernel.name(),
        c.var_z
    );
    assert!(c.rhat < 1.01, "{name}/{}: R̂ = {}", kernel.name(), c.rhat);
    c
}
