//! ESS per gradient evaluation of our NUTS on a correlated 100-d Gaussian, printed as JSON for
//! tools/bench_nuts_vs_peer.py (which runs a Python NUTS on the same target).
//!
//! Target: N(0, Σ) with Σᵢⱼ = ρ^|i−j| (AR(1), ρ = 0.9, condition number ≈ 360); its precision
//! is tridiagonal, so a gradient costs O(n).
//!
//! ```text
//! cargo run --release -p tdpe-mcmc --example nuts_ess -- [--metric dense|diag] [--chains 4]
//!     [--warmup 1000] [--draws 1000] [--seed 1] [--dim 100] [--rho 0.9]
//! ```

use std::time::Instant;

use tdpe_mcmc::{sample, Adaptation, LogDensity, MetricAdaptation, Nuts, SamplerConfig, Space};

struct Ar1Gaussian {
    dim: usize,
    rho: f64,
}

impl Space for Ar1Gaussian {
    fn dim(&self) -> usize {
        self.dim
    }
}

impl LogDensity for Ar1Gaussian {
    /// Precision of the AR(1) covariance: tridiagonal with 1/(1−ρ²) × (1, 1+ρ², …, 1+ρ², 1) on
    /// the diagonal and −ρ/(1−ρ²) off it.
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let (n, rho) = (self.dim, self.rho);
        let scale = 1.0 / (1.0 - rho * rho);
        let mut logp = 0.0;
        for i in 0..n {
            let diag = if i == 0 || i == n - 1 {
                1.0
            } else {
                1.0 + rho * rho
            };
            let mut px = diag * x[i];
            if i > 0 {
                px -= rho * x[i - 1];
            }
            if i + 1 < n {
                px -= rho * x[i + 1];
            }
            grad[i] = -scale * px;
            logp += 0.5 * x[i] * grad[i];
        }
        logp
    }
}

fn parse<T: std::str::FromStr>(flag: &str, value: &str) -> T {
    value
        .parse()
        .unwrap_or_else(|_| panic!("bad value {value} for {flag}"))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut metric = "dense".to_string();
    let (mut chains, mut warmup, mut draws, mut seed, mut dim, mut rho) =
        (4usize, 1000usize, 1000usize, 1u64, 100usize, 0.9f64);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--metric" => metric = value.clone(),
            "--chains" => chains = parse(&flag, &value),
            "--warmup" => warmup = parse(&flag, &value),
            "--draws" => draws = parse(&flag, &value),
            "--seed" => seed = parse(&flag, &value),
            "--dim" => dim = parse(&flag, &value),
            "--rho" => rho = parse(&flag, &value),
            _ => panic!("unknown flag {flag}"),
        }
    }
    let adaptation_metric = match metric.as_str() {
        "dense" => MetricAdaptation::Dense,
        "diag" => MetricAdaptation::Diagonal,
        other => panic!("--metric must be dense or diag, not {other}"),
    };
    let config = SamplerConfig {
        num_chains: chains,
        num_warmup: warmup,
        num_draws: draws,
        seed,
        progress: false,
        adaptation: Adaptation {
            metric: adaptation_metric,
            ..Default::default()
        },
        ..Default::default()
    };
    let start = Instant::now();
    let samples = sample(&Ar1Gaussian { dim, rho }, &Nuts::default(), &config).expect("run");
    let seconds = start.elapsed().as_secs_f64();
    let summary = samples.summary();
    let ess: Vec<f64> = summary.iter().map(|s| s.ess_bulk).collect();
    let ess_min = ess.iter().copied().fold(f64::INFINITY, f64::min);
    let ess_mean = ess.iter().sum::<f64>() / ess.len() as f64;
    let chain_stats = samples.chain_summaries();
    let grad_sampling: u64 = chain_stats.iter().map(|c| c.grad_evals).sum();
    let grad_total: u64 =
        grad_sampling + chain_stats.iter().map(|c| c.warmup_grad_evals).sum::<u64>();
    let divergences: usize = chain_stats.iter().map(|c| c.divergences).sum();
    let rhat_max = summary.iter().map(|s| s.rhat).fold(0.0, f64::max);
    println!(
        "{{\"sampler\": \"tdpe-nuts\", \"metric\": \"{metric}\", \"dim\": {dim}, \"rho\": {rho}, \
         \"chains\": {chains}, \"draws\": {draws}, \"ess_bulk_min\": {ess_min}, \
         \"ess_bulk_mean\": {ess_mean}, \"grad_evals_sampling\": {grad_sampling}, \
         \"grad_evals_total\": {grad_total}, \"ess_min_per_grad\": {}, \
         \"ess_mean_per_grad\": {}, \"divergences\": {divergences}, \"rhat_max\": {rhat_max}, \
         \"seconds\": {seconds}}}",
        ess_min / grad_sampling as f64,
        ess_mean / grad_sampling as f64
    );
}
