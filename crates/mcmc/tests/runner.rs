//! Runner behaviour: determinism across thread counts, cancellation, rejected regions, errors.

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use common::*;
use tdpe_mcmc::{
    sample, sample_until, sample_until_converged, ConvergenceTarget, Hmc, Init, LogDensity, Mala,
    McmcError, MetricAdaptation, Nuts, SamplerConfig, Space,
};

/// Same seed → bitwise identical draws and statistics with 1 and 2 threads, for every kernel.
#[test]
fn draws_do_not_depend_on_thread_count() {
    let target = CorrelatedGaussian::new(5, 100.0, 3);
    let base = SamplerConfig {
        num_chains: 3,
        ..config(MetricAdaptation::Dense, 300, 200, 42)
    };
    let one = SamplerConfig {
        threads: 1,
        ..base.clone()
    };
    let two = SamplerConfig {
        threads: 2,
        ..base.clone()
    };
    let nuts = (
        sample(&target, &Nuts::default(), &one),
        sample(&target, &Nuts::default(), &two),
    );
    assert_eq!(nuts.0.unwrap(), nuts.1.unwrap());
    let hmc = (
        sample(&target, &Hmc::default(), &one),
        sample(&target, &Hmc::default(), &two),
    );
    assert_eq!(hmc.0.unwrap(), hmc.1.unwrap());
    let mala = (
        sample(&target, &Mala::default(), &one),
        sample(&target, &Mala::default(), &two),
    );
    assert_eq!(mala.0.unwrap(), mala.1.unwrap());
    // Every warm-up state is kept, one per warm-up transition, finite and moving.
    let nuts = sample(&target, &Nuts::default(), &one).unwrap();
    for c in &nuts.chains {
        assert_eq!(c.warmup_stats.len(), base.num_warmup);
        assert_eq!(c.warmup_draws.len(), base.num_warmup * c.dim);
        assert!(c.warmup_draws.iter().all(|v| v.is_finite()));
        assert_ne!(c.warmup_draw(0), c.warmup_draw(base.num_warmup - 1));
    }
    // And a different seed gives different draws.
    let other = sample(
        &target,
        &Nuts::default(),
        &SamplerConfig { seed: 43, ..one },
    )
    .unwrap();
    let first = sample(&target, &Nuts::default(), &two).unwrap();
    assert_ne!(other.chains[0].draws, first.chains[0].draws);
}

/// Raises the stop flag after a number of gradient evaluations.
struct StopsAfter<'a> {
    inner: DiagGaussian,
    evals: AtomicUsize,
    limit: usize,
    stop: &'a AtomicBool,
}

impl Space for StopsAfter<'_> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
}

impl LogDensity for StopsAfter<'_> {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        if self.evals.fetch_add(1, Ordering::Relaxed) == self.limit {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.inner.log_density_and_gradient(x, grad)
    }
}

#[test]
fn stop_flag_returns_draws_so_far() {
    let stop = AtomicBool::new(false);
    let target = StopsAfter {
        inner: DiagGaussian::standard(3),
        evals: AtomicUsize::new(0),
        limit: 20_000,
        stop: &stop,
    };
    let cfg = config(MetricAdaptation::Diagonal, 500, 100_000, 1);
    let samples = sample_until(&target, &Nuts::default(), &cfg, &stop).unwrap();
    assert!(samples.interrupted);
    assert_eq!(samples.chains.len(), 4);
    for c in &samples.chains {
        assert!(c.num_draws() < 100_000);
        assert_eq!(c.draws.len(), c.num_draws() * 3);
    }
    assert!(samples.chains.iter().any(|c| c.num_draws() > 0));
    // The summary uses the common length of the chains that have draws.
    assert_eq!(samples.summary().len(), 3);
}

/// Half-normal: ln p = −x₀²/2 for x₀ ≥ 0 and −∞ (a rejection) beyond, x₁ standard normal.
struct HalfNormal;

impl Space for HalfNormal {
    fn dim(&self) -> usize {
        2
    }
}

impl LogDensity for HalfNormal {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        grad[0] = -x[0];
        grad[1] = -x[1];
        if x[0] < 0.0 {
            f64::NEG_INFINITY
        } else {
            -0.5 * (x[0] * x[0] + x[1] * x[1])
        }
    }
}

/// Non-finite densities are rejections (divergences), never crashes, and the sampler stays
/// correct on the support: E x₀ = √(2/π).
#[test]
fn outside_support_is_rejected() {
    let cfg = config(MetricAdaptation::Diagonal, 1000, 2000, 9);
    for samples in [
        sample(&HalfNormal, &Nuts::default(), &cfg).unwrap(),
        sample(&HalfNormal, &Hmc::default(), &cfg).unwrap(),
    ] {
        let s = samples.summary()[0];
        let divergences: usize = samples
            .chain_summaries()
            .iter()
            .map(|c| c.divergences)
            .sum();
        println!(
            "half-normal {}: mean {:.4} (exact {:.4}) mcse {:.4}, {divergences} divergences",
            samples.kernel,
            s.mean,
            (2.0 / std::f64::consts::PI).sqrt(),
            s.mcse_mean
        );
        assert!(samples
            .chains
            .iter()
            .all(|c| c.draws.chunks(2).all(|d| d[0] >= 0.0)));
        assert!(divergences > 0);
        assert!((s.mean - (2.0 / std::f64::consts::PI).sqrt()).abs() < 4.0 * s.mcse_mean);
    }
}

#[test]
fn bad_inputs_are_errors() {
    struct Nowhere;
    impl Space for Nowhere {
        fn dim(&self) -> usize {
            1
        }
    }

    impl LogDensity for Nowhere {
        fn log_density_and_gradient(&self, _: &[f64], _: &mut [f64]) -> f64 {
            f64::NAN
        }
    }
    let cfg = config(MetricAdaptation::Diagonal, 10, 10, 0);
    assert!(matches!(
        sample(&Nowhere, &Nuts::default(), &cfg),
        Err(McmcError::NonFiniteInitialPoint { attempts: 100, .. })
    ));
    let wrong_centre = SamplerConfig {
        init: Init {
            center: Some(vec![0.0; 3]),
            ..Init::default()
        },
        ..cfg.clone()
    };
    assert!(matches!(
        sample(&DiagGaussian::standard(2), &Nuts::default(), &wrong_centre),
        Err(McmcError::DimensionMismatch {
            expected: 2,
            got: 3,
            ..
        })
    ));
    let bad_accept = Nuts {
        target_accept: 1.0,
        ..Nuts::default()
    };
    assert!(matches!(
        sample(&DiagGaussian::standard(2), &bad_accept, &cfg),
        Err(McmcError::InvalidSetting {
            name: "target_accept",
            ..
        })
    ));
}

/// ln p = κ cos x₀ − x₁²/2: a von Mises angle sampled on the real line, whose density repeats
/// every 2π. `canonicalize` maps x₀ into [−π, π).
struct Angle {
    wrap: bool,
}

impl Space for Angle {
    fn dim(&self) -> usize {
        2
    }

    fn canonicalize(&self, x: &mut [f64]) {
        if self.wrap {
            x[0] = (x[0] + std::f64::consts::PI).rem_euclid(std::f64::consts::TAU)
                - std::f64::consts::PI;
        }
    }
}

impl LogDensity for Angle {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let kappa = 0.3;
        grad[0] = -kappa * x[0].sin();
        grad[1] = -x[1];
        kappa * x[0].cos() - 0.5 * x[1] * x[1]
    }
}

/// Every kernel keeps a canonicalised chain in the fundamental domain; without it the nearly
/// flat angle drifts over many copies of it (and the metric would learn that drift).
#[test]
fn canonicalize_keeps_periodic_coordinates_bounded() {
    let config = config(MetricAdaptation::Diagonal, 200, 400, 7);
    for wrap in [true, false] {
        let target = Angle { wrap };
        let kernels: [&dyn Fn() -> tdpe_mcmc::Samples; 3] = [
            &|| sample(&target, &Nuts::default(), &config).unwrap(),
            &|| sample(&target, &Hmc::default(), &config).unwrap(),
            &|| sample(&target, &Mala::default(), &config).unwrap(),
        ];
        for run in kernels {
            let angles: Vec<f64> = run().param_chains(0).concat();
            let widest = angles.iter().fold(0.0_f64, |m, a| m.max(a.abs()));
            if wrap {
                assert!(widest <= std::f64::consts::PI, "{widest}");
            } else {
                assert!(widest > 2.0 * std::f64::consts::PI, "{widest}");
            }
        }
    }
}

/// [`Mirrored`]'s two modes without the mirror, and an independence proposal N(0, 5²) in x₀
/// (x₁ from N(0, 1)), which covers both modes but matches neither.
struct Independent;

impl Space for Independent {
    fn dim(&self) -> usize {
        2
    }

    fn independence_count(&self) -> usize {
        3
    }

    fn independence_draw(&self, rng: &mut dyn rand::RngCore, image: &mut [f64]) -> Option<f64> {
        use rand::Rng;
        let z: [f64; 2] = [
            rng.sample(rand_distr::StandardNormal),
            rng.sample(rand_distr::StandardNormal),
        ];
        image.copy_from_slice(&[5.0 * z[0], z[1]]);
        Some(self.independence_log_density(image))
    }

    fn independence_log_density(&self, x: &[f64]) -> f64 {
        -0.5 * (x[0] / 5.0).powi(2) - 0.5 * x[1] * x[1]
    }
}

impl LogDensity for Independent {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        Mirrored { mirror: false }.log_density_and_gradient(x, grad)
    }
}

/// With the independence proposal, NUTS's chains visit both modes in proportion to their
/// weights (which needs the proposal's density at both points); without it (the mirror test
/// below) each chain keeps to one mode.
#[test]
fn independence_proposals_move_between_modes_with_the_right_weights() {
    let config = config(MetricAdaptation::Diagonal, 300, 2000, 12);
    let samples = sample(&Independent, &Nuts::default(), &config).unwrap();
    let draws: Vec<f64> = samples.param_chains(0).concat();
    let right = draws.iter().filter(|&&x| x > 0.0).count() as f64 / draws.len() as f64;
    assert!((right - 0.7).abs() < 0.03, "{right}");
    let mean_square = draws.iter().map(|x| x * x).sum::<f64>() / draws.len() as f64;
    // E[x₀²] = 0.7 (36 + 1) + 0.3 (9 + ¼).
    let expected = 0.7 * 37.0 + 0.3 * 9.25;
    assert!(
        (mean_square - expected).abs() < 0.05 * expected,
        "{mean_square}"
    );
    let jumps: usize = samples
        .chain_summaries()
        .iter()
        .map(|c| c.independent_moves)
        .sum();
    assert!(jumps > 1000, "{jumps}");
    // Every transition tries its three proposals on the density alone.
    let transitions: usize = samples
        .chains
        .iter()
        .map(|c| c.warmup_stats.len() + c.num_draws())
        .sum();
    let densities: u64 = samples
        .chain_summaries()
        .iter()
        .map(|c| c.density_evals)
        .sum();
    assert_eq!(densities, 3 * transitions as u64);
}

/// Two modes in x₀, N(6, 1) with weight 0.7 and N(−3, ½²) with weight 0.3 (x₁ ~ N(0, 1)),
/// with ~18 nats of ln p between them; the mirror x₀ → −x₀/2 (x₀ > 0), −2x₀ (x₀ < 0) maps each
/// onto the other, with ln|det| = ∓ln 2.
struct Mirrored {
    mirror: bool,
}

impl Space for Mirrored {
    fn dim(&self) -> usize {
        2
    }

    fn mirror_count(&self) -> usize {
        usize::from(self.mirror)
    }

    fn mirror(&self, _which: usize, x: &[f64], image: &mut [f64]) -> Option<f64> {
        let (scale, log_det) = if x[0] > 0.0 {
            (-0.5, -std::f64::consts::LN_2)
        } else {
            (-2.0, std::f64::consts::LN_2)
        };
        image.copy_from_slice(&[scale * x[0], x[1]]);
        Some(log_det)
    }
}

impl LogDensity for Mirrored {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let normal = |z: f64, mu: f64, sigma: f64| {
            let u = (z - mu) / sigma;
            ((-0.5 * u * u).exp() / sigma, -u / sigma)
        };
        let (right, d_right) = normal(x[0], 6.0, 1.0);
        let (left, d_left) = normal(x[0], -3.0, 0.5);
        let p = 0.7 * right + 0.3 * left;
        grad[0] = (0.7 * right * d_right + 0.3 * left * d_left) / p;
        grad[1] = -x[1];
        p.ln() - 0.5 * x[1] * x[1]
    }
}

/// With the mirror move, every kernel's chains visit both modes in proportion to their
/// weights (which needs the move's log-determinant); without it each chain keeps to one mode.
#[test]
fn mirror_moves_between_modes_with_the_right_weights() {
    let config = config(MetricAdaptation::Diagonal, 300, 2000, 11);
    let kernels: [&dyn Fn(&Mirrored) -> tdpe_mcmc::Samples; 3] = [
        &|t| sample(t, &Nuts::default(), &config).unwrap(),
        &|t| sample(t, &Hmc::default(), &config).unwrap(),
        &|t| sample(t, &Mala::default(), &config).unwrap(),
    ];
    for run in kernels {
        let samples = run(&Mirrored { mirror: true });
        let draws: Vec<f64> = samples.param_chains(0).concat();
        let right = draws.iter().filter(|&&x| x > 0.0).count() as f64 / draws.len() as f64;
        // Binomial error of 8000 draws ≈ 0.005; the chains' autocorrelation inflates it.
        assert!((right - 0.7).abs() < 0.03, "{right}");
        let jumps: usize = samples.chain_summaries().iter().map(|c| c.mirrored).sum();
        assert!(jumps > 2000, "{jumps}");

        for chain in run(&Mirrored { mirror: false }).param_chains(0) {
            let right = chain.iter().filter(|&&x| x > 0.0).count();
            assert!(
                right == 0 || right == chain.len(),
                "{right} of {}",
                chain.len()
            );
        }
    }
}

/// A comb in x₀: teeth at the integers, p(x₀) ∝ exp(−x₀²/18)·(1.01 + cos 2πx₀)⁸ with ~42 nats
/// between neighbouring teeth, x₁ ~ N(0, 1); the orbit {x₀ + j: |x₀ + j| < 20} of whole shifts,
/// its weights the envelope made too narrow by a factor that depends on the member computing
/// them (so no two members agree on them), which the Metropolis–Hastings step corrects.
struct Comb {
    orbit: bool,
}

impl Comb {
    const LIMIT: f64 = 20.0;

    fn envelope(x0: f64) -> f64 {
        -x0 * x0 / 18.0
    }
}

impl Space for Comb {
    fn dim(&self) -> usize {
        2
    }

    fn orbit_count(&self) -> usize {
        usize::from(self.orbit)
    }

    fn orbit(&self, _which: usize, x: &[f64], weights: &mut Vec<[f64; 2]>) -> Option<usize> {
        let first = (-Self::LIMIT - x[0]).floor() as isize + 1;
        let last = (Self::LIMIT - x[0]).ceil() as isize - 1;
        weights.clear();
        weights.extend((first..=last).map(|j| {
            let shifted = x[0] + j as f64;
            [0.0, (1.1 + 0.3 * x[0].sin()) * Self::envelope(shifted)]
        }));
        Some((-first) as usize)
    }

    fn orbit_image(
        &self,
        _which: usize,
        x: &[f64],
        offset: isize,
        image: &mut [f64],
    ) -> Option<f64> {
        image.copy_from_slice(&[x[0] + offset as f64, x[1]]);
        Some(0.0)
    }
}

impl LogDensity for Comb {
    fn log_density_and_gradient(&self, x: &[f64], grad: &mut [f64]) -> f64 {
        let (s, c) = (std::f64::consts::TAU * x[0]).sin_cos();
        grad[0] = -x[0] / 9.0 - 8.0 * std::f64::consts::TAU * s / (1.01 + c);
        grad[1] = -x[1];
        Self::envelope(x[0]) + 8.0 * (1.01 + c).ln() - 0.5 * x[1] * x[1]
    }
}

/// With the orbit move, NUTS's chains visit the comb's teeth in proportion to their weights
/// (the move corrects its approximate weights); without it each chain keeps to one tooth.
#[test]
fn orbit_moves_between_teeth_with_the_right_weights() {
    let config = config(MetricAdaptation::Diagonal, 300, 2000, 13);
    let samples = sample(&Comb { orbit: true }, &Nuts::default(), &config).unwrap();
    let draws: Vec<f64> = samples.param_chains(0).concat();
    // The teeth are narrow and alike: tooth k has weight ∝ exp(−k²/18), so P(|k| ≤ 2) ≈ 0.598
    // (0.79 if the move did not correct its weights).
    let weight = |k: f64| (-k * k / 18.0).exp();
    let total: f64 = (-19..=19).map(|k| weight(f64::from(k))).sum();
    let expected = (-2..=2).map(|k| weight(f64::from(k))).sum::<f64>() / total;
    let central = draws.iter().filter(|x| x.round().abs() <= 2.0).count() as f64;
    let central = central / draws.len() as f64;
    // Binomial error of 8000 draws ≈ 0.006; the chains' autocorrelation inflates it.
    assert!((central - expected).abs() < 0.03, "{central} vs {expected}");
    let moves: usize = samples
        .chain_summaries()
        .iter()
        .map(|c| c.orbit_moves)
        .sum();
    assert!(moves > 2000, "{moves}");

    let stuck = sample(&Comb { orbit: false }, &Nuts::default(), &config).unwrap();
    for chain in stuck.param_chains(0) {
        let tooth = chain[0].round();
        assert!(
            chain.iter().all(|x| x.round() == tooth),
            "a chain left its tooth"
        );
    }
}

/// An extended run's chains go on where they were: each one's draws are those of a run planned
/// at the final length from the start, and the criterion sees every chain at each length.
#[test]
fn an_extended_run_equals_a_run_planned_at_its_final_length() {
    let target = CorrelatedGaussian::new(4, 30.0, 5);
    let base = SamplerConfig {
        num_chains: 3,
        threads: 2,
        ..config(MetricAdaptation::Dense, 200, 100, 9)
    };
    let mut seen = Vec::new();
    let extended = sample_until_converged(
        &target,
        &Nuts::default(),
        &base,
        &AtomicBool::new(false),
        |so_far| {
            let lengths: Vec<usize> = so_far.chains.iter().map(|c| c.num_draws()).collect();
            seen.push(lengths[0]);
            assert!(lengths.iter().all(|&n| n == lengths[0]));
            match lengths[0] {
                100 => Some(250),
                250 => Some(400),
                _ => None,
            }
        },
    )
    .unwrap();
    assert_eq!(seen, [100, 250, 400]);
    let planned = sample(
        &target,
        &Nuts::default(),
        &SamplerConfig {
            num_draws: 400,
            threads: 1,
            ..base.clone()
        },
    )
    .unwrap();
    assert_eq!(extended.chains, planned.chains);
    assert!(!extended.interrupted);
}

/// With a convergence target, the run stops at the first length that meets it, and a length
/// not beyond the current one ends the run.
#[test]
fn a_convergence_target_extends_until_met() {
    let target = DiagGaussian { sd: vec![1.0, 3.0] };
    let base = config(MetricAdaptation::Diagonal, 200, 100, 4);
    let rule = ConvergenceTarget {
        max_rhat: 1.01,
        min_ess_bulk: 2000.0,
        max_draws: 5000,
    };
    let check = |samples: &tdpe_mcmc::Samples| {
        let diagnostics: Vec<(f64, f64)> = samples
            .summary()
            .iter()
            .map(|p| (p.rhat, p.ess_bulk))
            .collect();
        rule.next_length(samples.chains[0].num_draws(), &diagnostics)
    };
    let stop = AtomicBool::new(false);
    let samples = sample_until_converged(&target, &Nuts::default(), &base, &stop, check).unwrap();
    let draws = samples.chains[0].num_draws();
    assert!(draws > 100 && draws < 5000, "{draws} draws");
    assert!(check(&samples).is_none());
    let unchanged =
        sample_until_converged(&target, &Nuts::default(), &base, &stop, |_| Some(100)).unwrap();
    assert_eq!(unchanged.chains[0].num_draws(), 100);
}

/// A stop raised while a run is extended keeps every draw made so far, marked interrupted: the
/// chains stopped short of the draws the run would have made (a checkpoint goes on from them,
/// docs/campaigns.md §5).
#[test]
fn a_stop_during_an_extension_keeps_the_draws() {
    let stop = AtomicBool::new(false);
    let target = StopsAfter {
        inner: DiagGaussian { sd: vec![1.0, 2.0] },
        evals: AtomicUsize::new(0),
        limit: 40_000,
        stop: &stop,
    };
    let base = config(MetricAdaptation::Diagonal, 100, 100, 2);
    let samples =
        sample_until_converged(&target, &Nuts::default(), &base, &stop, |_| Some(1_000_000))
            .unwrap();
    let draws: Vec<usize> = samples.chains.iter().map(|c| c.num_draws()).collect();
    assert!(
        draws.iter().all(|n| (100..1_000_000).contains(n)),
        "{draws:?}"
    );
    assert!(samples.interrupted);
}
