//! Parallel tempering: mode weights of separated mixtures (and the failure of plain sampling),
//! ladder adaptation, thermodynamic integration, determinism across thread counts.

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use common::config;
use tdpe_mcmc::diagnostics::{mcse_mean, rhat};
use tdpe_mcmc::{
    sample, sample_tempered, sample_tempered_until, Hmc, Kernel, Mala, McmcError, MetricAdaptation,
    Nuts, PriorLikelihood, SamplerConfig, Samples, Space, Tempered, TemperedSamples,
    TemperingConfig,
};

/// Prior N(0, s² I); likelihood w N(x; −m e₀, I) + (1 − w) N(x; m e₀, I). The prior weighs both
/// components equally (their centres are equally far from 0), so the posterior mode weights
/// are w and 1 − w, and the modes are 2m s/√(s² + 1) posterior standard deviations apart.
struct SeparatedMixture {
    dim: usize,
    half_separation: f64,
    weight: f64,
    prior_sd: f64,
}

impl Space for SeparatedMixture {
    fn dim(&self) -> usize {
        self.dim
    }
}

impl PriorLikelihood for SeparatedMixture {
    fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let precision = self.prior_sd.powi(-2);
        grad.iter_mut()
            .zip(x)
            .for_each(|(g, xi)| *g = -precision * xi);
        -0.5 * precision * x.iter().map(|xi| xi * xi).sum::<f64>()
    }

    fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let rest: f64 = x[1..].iter().map(|xi| xi * xi).sum();
        let m = self.half_separation;
        let log_a = self.weight.ln() - 0.5 * ((x[0] + m).powi(2) + rest);
        let log_b = (1.0 - self.weight).ln() - 0.5 * ((x[0] - m).powi(2) + rest);
        let top = log_a.max(log_b);
        let (ea, eb) = ((log_a - top).exp(), (log_b - top).exp());
        let (pa, pb) = (ea / (ea + eb), eb / (ea + eb));
        grad[0] = -pa * (x[0] + m) - pb * (x[0] - m);
        grad[1..]
            .iter_mut()
            .zip(&x[1..])
            .for_each(|(g, xi)| *g = -xi);
        top + (ea + eb).ln()
    }
}

/// Fraction of β = 1 draws in the mode at −m (x₀ < 0), its MCSE (from the ESS of the indicator
/// series, so the error bar accounts for autocorrelation), R̂ of x₀, and mode switches.
struct ModeWeight {
    weight: f64,
    mcse: f64,
    rhat: f64,
    switches: usize,
}

fn mode_weight(samples: &Samples) -> ModeWeight {
    let x0 = samples.param_chains(0);
    let indicator: Vec<Vec<f64>> = x0
        .iter()
        .map(|c| c.iter().map(|&x| f64::from(u8::from(x < 0.0))).collect())
        .collect();
    let n: usize = indicator.iter().map(Vec::len).sum();
    let switches = x0
        .iter()
        .map(|c| {
            c.windows(2)
                .filter(|w| (w[0] < 0.0) != (w[1] < 0.0))
                .count()
        })
        .sum();
    ModeWeight {
        weight: indicator.iter().flatten().sum::<f64>() / n as f64,
        mcse: mcse_mean(&indicator),
        rhat: rhat(&x0),
        switches,
    }
}

/// Prior N(0, s² I), likelihood ∏ N(yᵢ; xᵢ, σ²) (normalised): the evidence is
/// Z = ∏ N(yᵢ; 0, s² + σ²).
struct ConjugateGaussian {
    data: Vec<f64>,
    prior_sd: f64,
    noise_sd: f64,
}

impl ConjugateGaussian {
    fn new() -> Self {
        Self {
            data: vec![1.0, -0.5, 0.3, 2.0],
            prior_sd: 3.0,
            noise_sd: 0.5,
        }
    }

    fn ln_evidence(&self) -> f64 {
        let var = self.prior_sd.powi(2) + self.noise_sd.powi(2);
        self.data
            .iter()
            .map(|y| -0.5 * (2.0 * std::f64::consts::PI * var).ln() - y * y / (2.0 * var))
            .sum()
    }
}

impl Space for ConjugateGaussian {
    fn dim(&self) -> usize {
        self.data.len()
    }
}

impl PriorLikelihood for ConjugateGaussian {
    fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let precision = self.prior_sd.powi(-2);
        grad.iter_mut()
            .zip(x)
            .for_each(|(g, xi)| *g = -precision * xi);
        -0.5 * precision * x.iter().map(|xi| xi * xi).sum::<f64>()
    }

    fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let precision = self.noise_sd.powi(-2);
        let norm = -0.5 * (2.0 * std::f64::consts::PI / precision).ln();
        let mut log_like = 0.0;
        for ((g, xi), y) in grad.iter_mut().zip(x).zip(&self.data) {
            *g = precision * (y - xi);
            log_like += norm - 0.5 * precision * (y - xi).powi(2);
        }
        log_like
    }
}

fn show(values: &[f64]) -> String {
    let parts: Vec<String> = values.iter().map(|a| format!("{a:.3}")).collect();
    parts.join(" ")
}

fn print_run(name: &str, pt: &TemperedSamples) {
    println!(
        "{name}: swap acceptance [{}], round trips {:?}, barrier {:.2}, chain 0 ladder [{}], ln Z {:?}",
        show(&pt.swap_acceptance()),
        pt.round_trips(),
        pt.chains[0].communication_barrier(),
        pt.chains[0]
            .ladder
            .iter()
            .map(|b| format!("{b:.2e}"))
            .collect::<Vec<_>>()
            .join(" "),
        pt.ln_evidence
    );
}

/// Mixture with modes 12 likelihood σ apart (11.9 posterior σ) and weights 0.7 / 0.3.
fn separated_mixture(dim: usize) -> SeparatedMixture {
    SeparatedMixture {
        dim,
        half_separation: 6.0,
        weight: 0.7,
        prior_sd: 10.0,
    }
}

/// PT recovers the weight 0.7 within 4 MCSE (with MCSE small enough for that to mean
/// something) with mixing chains; plain sampling of the same posterior is stuck.
fn assert_pt_recovers_and_plain_fails<K: Kernel>(
    dim: usize,
    kernel: &K,
    tempering: &TemperingConfig,
    max_mcse: f64,
) {
    let model = separated_mixture(dim);
    let cfg = config(MetricAdaptation::Diagonal, 1000, 2000, 5);
    let pt = sample_tempered(&model, kernel, &cfg, tempering).unwrap();
    let w = mode_weight(&pt.samples);
    println!(
        "{dim}-d mixture, PT {} K={}: weight {:.3} ± {:.3} (truth 0.7), R̂(x₀) {:.3}, {} mode switches",
        kernel.name(),
        tempering.num_temperatures,
        w.weight,
        w.mcse,
        w.rhat,
        w.switches
    );
    print_run("  PT", &pt);
    assert!(w.mcse < max_mcse, "MCSE {} too large to test", w.mcse);
    assert!(
        (w.weight - 0.7).abs() < 4.0 * w.mcse,
        "PT weight {} ± {}",
        w.weight,
        w.mcse
    );
    assert!(w.rhat < 1.02 && w.switches > 200);
    assert!(pt.round_trips().iter().all(|&n| n >= 20));

    let plain = sample(&Tempered::new(&model, 1.0), kernel, &cfg).unwrap();
    let p = mode_weight(&plain);
    println!(
        "{dim}-d mixture, plain {}: weight {:.3} ± {:.3}, R̂(x₀) {:.3}, {} mode switches",
        kernel.name(),
        p.weight,
        p.mcse,
        p.rhat,
        p.switches
    );
    // Every chain keeps the mode it started in: R̂ flags the split, or if all chains started
    // in the same mode the weight is 0 or 1.
    assert!(p.switches < 5);
    assert!(p.rhat > 1.1 || (p.weight - 0.7).abs() > 0.25);
}

#[test]
fn mixture_2d_weights_need_tempering() {
    let tempering = TemperingConfig {
        num_temperatures: 6,
        ..Default::default()
    };
    assert_pt_recovers_and_plain_fails(2, &Nuts::default(), &tempering, 0.025);
}

#[test]
fn mixture_10d_weights_need_tempering() {
    let tempering = TemperingConfig {
        num_temperatures: 10,
        ..Default::default()
    };
    assert_pt_recovers_and_plain_fails(10, &Hmc::default(), &tempering, 0.035);
}

/// A geometric ladder of 6 rungs down to 1e-4 on a 4-d conjugate Gaussian wastes its hot rungs
/// on the prior (acceptance ≈ 0.98 there, 0.12 at the cold end); the adapted ladder equalises
/// the acceptances (≈ 1 − Λ/5 ≈ 0.48 with the barrier Λ ≈ 2.6) and makes more round trips.
#[test]
fn ladder_adaptation_equalises_swap_acceptance() {
    let model = ConjugateGaussian::new();
    let cfg = config(MetricAdaptation::Diagonal, 2000, 2000, 3);
    let tempering = TemperingConfig {
        num_temperatures: 6,
        beta_min: 1e-4,
        swap_interval: 1,
        adapt_ladder: false,
    };
    let fixed = sample_tempered(&model, &Nuts::default(), &cfg, &tempering).unwrap();
    print_run("geometric", &fixed);
    let adaptive = TemperingConfig {
        adapt_ladder: true,
        ..tempering
    };
    let adapted = sample_tempered(&model, &Nuts::default(), &cfg, &adaptive).unwrap();
    print_run("adapted", &adapted);
    let range = |acceptance: &[f64]| {
        let max = acceptance.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = acceptance.iter().copied().fold(f64::INFINITY, f64::min);
        (min, max)
    };
    let (min, max) = range(&fixed.swap_acceptance());
    assert!(max - min > 0.5);
    let (min, max) = range(&adapted.swap_acceptance());
    assert!(max - min < 0.12);
    for chain in &adapted.chains {
        let (min, max) = range(&chain.swap_acceptance);
        assert!(min > 0.3 && max < 0.7, "{:?}", chain.swap_acceptance);
        assert_eq!(chain.ladder[0], 1.0);
        assert_eq!(chain.ladder[5], 1e-4);
        assert!(chain.ladder.windows(2).all(|w| w[0] > w[1]));
    }
    // Round trips are what the ladder is for.
    let trips = |pt: &TemperedSamples| pt.round_trips().iter().sum::<usize>() as f64;
    assert!(trips(&adapted) > 1.5 * trips(&fixed));
}

/// Thermodynamic integration on the conjugate Gaussian matches the analytic ln Z within 4 of its
/// standard errors (the quadrature error of this adapted ladder is ~0.01, below the MC error).
#[test]
fn thermodynamic_integration_matches_analytic_evidence() {
    let model = ConjugateGaussian::new();
    let cfg = config(MetricAdaptation::Diagonal, 1000, 2000, 8);
    let tempering = TemperingConfig {
        num_temperatures: 10,
        beta_min: 1e-4,
        ..Default::default()
    };
    let pt = sample_tempered(&model, &Nuts::default(), &cfg, &tempering).unwrap();
    print_run("conjugate", &pt);
    let evidence = pt.ln_evidence.unwrap();
    let exact = model.ln_evidence();
    println!(
        "ln Z = {:.4} ± {:.4}, analytic {exact:.4}",
        evidence.ln_z, evidence.stderr
    );
    assert!(evidence.stderr < 0.1);
    assert!((evidence.ln_z - exact).abs() < 4.0 * evidence.stderr);
}

/// Same seed → bitwise identical output (β = 1 draws, ladders, swaps, ln Z) with 1 and 2
/// threads, for every kernel.
#[test]
fn draws_do_not_depend_on_thread_count() {
    let model = separated_mixture(3);
    let base = SamplerConfig {
        num_chains: 3,
        ..config(MetricAdaptation::Diagonal, 200, 100, 42)
    };
    let one = SamplerConfig {
        threads: 1,
        ..base.clone()
    };
    let two = SamplerConfig { threads: 2, ..base };
    let tempering = TemperingConfig {
        num_temperatures: 4,
        swap_interval: 2,
        ..Default::default()
    };
    fn both<K: Kernel>(
        model: &SeparatedMixture,
        kernel: &K,
        configs: [&SamplerConfig; 2],
        tempering: &TemperingConfig,
    ) {
        let [a, b] = configs.map(|c| sample_tempered(model, kernel, c, tempering).unwrap());
        assert!(a
            .chains
            .iter()
            .all(|c| c.swap_acceptance.iter().all(|x| x.is_finite())));
        assert_eq!(a, b);
    }
    both(&model, &Nuts::default(), [&one, &two], &tempering);
    both(&model, &Hmc::default(), [&one, &two], &tempering);
    both(&model, &Mala::default(), [&one, &two], &tempering);
    let other = sample_tempered(
        &model,
        &Nuts::default(),
        &SamplerConfig {
            seed: 43,
            ..one.clone()
        },
        &tempering,
    )
    .unwrap();
    let first = sample_tempered(&model, &Nuts::default(), &one, &tempering).unwrap();
    assert_ne!(other.samples.chains[0].draws, first.samples.chains[0].draws);
}

/// With one temperature, tempered sampling is plain sampling of the posterior, draw for draw:
/// the rungs run the single-chain code with the chain's own random stream.
#[test]
fn one_temperature_is_plain_sampling() {
    let model = ConjugateGaussian::new();
    let cfg = config(MetricAdaptation::Dense, 300, 300, 7);
    let tempering = TemperingConfig {
        num_temperatures: 1,
        ..Default::default()
    };
    let pt = sample_tempered(&model, &Nuts::default(), &cfg, &tempering).unwrap();
    let plain = sample(&Tempered::new(&model, 1.0), &Nuts::default(), &cfg).unwrap();
    assert_eq!(pt.samples, plain);
    assert!(pt.ln_evidence.is_none());
    assert_eq!(pt.round_trips(), [0; 4]);
}

/// Counts likelihood evaluations and raises the stop flag after a number of them.
struct StopsAfter<'a> {
    inner: ConjugateGaussian,
    evals: AtomicUsize,
    limit: usize,
    stop: &'a AtomicBool,
}

impl Space for StopsAfter<'_> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
}

impl PriorLikelihood for StopsAfter<'_> {
    fn log_prior_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        self.inner.log_prior_and_gradient(x, grad)
    }
    fn log_likelihood_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        if self.evals.fetch_add(1, Ordering::Relaxed) == self.limit {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.inner.log_likelihood_and_gradient(x, grad)
    }
}

#[test]
fn stop_flag_returns_draws_so_far() {
    let stop = AtomicBool::new(false);
    let model = StopsAfter {
        inner: ConjugateGaussian::new(),
        evals: AtomicUsize::new(0),
        limit: 100_000,
        stop: &stop,
    };
    let cfg = config(MetricAdaptation::Diagonal, 200, 1_000_000, 1);
    let tempering = TemperingConfig {
        num_temperatures: 3,
        ..Default::default()
    };
    let pt = sample_tempered_until(&model, &Nuts::default(), &cfg, &tempering, &stop).unwrap();
    assert!(pt.samples.interrupted);
    for (draws, chain) in pt.samples.chains.iter().zip(&pt.chains) {
        assert!(draws.num_draws() < 1_000_000);
        assert_eq!(chain.num_iterations(), draws.num_draws());
        assert_eq!(chain.log_likelihood.len(), 3 * draws.num_draws());
    }
    assert!(pt.samples.chains.iter().any(|c| c.num_draws() > 0));
}

#[test]
fn bad_tempering_settings_are_errors() {
    let model = ConjugateGaussian::new();
    let cfg = config(MetricAdaptation::Diagonal, 10, 10, 0);
    let run = |tempering: TemperingConfig| {
        sample_tempered(&model, &Nuts::default(), &cfg, &tempering).map(|_| ())
    };
    let setting = |result: Result<(), McmcError>| match result {
        Err(McmcError::InvalidSetting { name, .. }) => name,
        other => panic!("expected an invalid setting, got {other:?}"),
    };
    let default = TemperingConfig::default();
    for (tempering, name) in [
        (
            TemperingConfig {
                num_temperatures: 0,
                ..default
            },
            "num_temperatures",
        ),
        (
            TemperingConfig {
                beta_min: 0.0,
                ..default
            },
            "beta_min",
        ),
        (
            TemperingConfig {
                beta_min: 1.0,
                ..default
            },
            "beta_min",
        ),
        (
            TemperingConfig {
                beta_min: f64::NAN,
                ..default
            },
            "beta_min",
        ),
        (
            TemperingConfig {
                swap_interval: 0,
                ..default
            },
            "swap_interval",
        ),
    ] {
        assert_eq!(setting(run(tempering)), name);
    }
}
