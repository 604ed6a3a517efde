//! Accuracy and cost of BBH relative binning against the exact likelihood, for the report of
//! issue 4 (docs/relative_binning.md):
//!
//!     cargo run --release -p tdpe-likelihood --example rb_accuracy -- [fs] [duration] [points]
//!         [--target T] [--design-scale S] [--design-points J] [--bns] [--distance D]
//!         [--higher-modes]
//!         [--sets posterior,wide,chain,chain-wide]
//!
//! - default: the GW150914-like injection (docs/likelihood.md §4.2), H1+L1, merger 2 s before
//!   the end of the segment, cut-off 20 Hz; defaults 2048 Hz, 4 s, 200 points per set.
//! - `--bns`: a 1.4 + 1.3 M☉ non-spinning binary (IMRPhenomT) at `--distance` Mpc (default
//!   130, network SNR ≈ 20), cut-off f_low = 25 Hz (from 25 Hz the inspiral lasts 93 s, so the
//!   in-band signal fits the segment); defaults 4096 Hz, 128 s, 50 points per set.
//! - `--higher-modes`: the unequal-mass binary with IMRPhenomTHM's five modes (30 + 8 M☉,
//!   χ = 0.3, θ_jn = 1; data and likelihood with all modes), points perturbed by three times
//!   the conditional Fisher widths; defaults 2048 Hz, 8 s, 40 points per set.
//! - `--target T`, `--design-scale S`, `--design-points J`: the knobs of
//!   [`RelativeBinningOptions`] (defaults 1e-7, 2, 48).
//!
//! Prints the set-up times (ACF, C⁻¹, exact likelihood, relative binning by stage), node
//! counts, |ΔlnL| at the fiducial (the injected parameters), median/p99/max over
//! posterior-like (ln L within 10 of the fiducial's, 1σ perturbations) and wide (within 40, 2σ)
//! points, the costs per call and the peak resident memory. `points` = 0 skips the accuracy
//! sets (for memory measurements). The GW150914-like points perturb each parameter
//! independently by the rough posterior widths of `SIGMA`; the BNS's by its conditional
//! Fisher widths 1/√F_ii. Neither moves along the curved mass-ratio–spin degeneracy, so two
//! more sets ("chain", "chain-wide") are thinned from adaptive-Metropolis chains on the
//! relative-binning posterior itself (flat priors; ln L and ln L/4), then checked against the
//! exact ln L.

use std::time::Instant;

use faer::linalg::solvers::DenseSolveCore;
use faer::{Mat, Side};

use tdpe_likelihood::{BbhExactLikelihood, BbhRelativeBinning, RelativeBinningOptions};
use tdpe_signal::{chirp_mass_and_ratio, BbhParameters, SpinModel};

#[path = "../tests/gw150914_like/mod.rs"]
mod gw150914_like;
use gw150914_like::{
    aligned, conditional_sigmas, draw_points_around, fisher_matrix, noisy_injection_timed,
    quantiles, Injection, SIGMA,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

struct Args {
    fs: Option<f64>,
    duration: Option<f64>,
    points: Option<usize>,
    target: f64,
    design_scale: f64,
    design_points: usize,
    bns: bool,
    higher_modes: bool,
    distance: f64,
    /// Accuracy sets to run.
    sets: Vec<String>,
}

const SETS: [&str; 4] = ["posterior", "wide", "chain", "chain-wide"];

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        fs: None,
        duration: None,
        points: None,
        target: RelativeBinningOptions::default().target,
        design_scale: RelativeBinningOptions::default().design_scale,
        design_points: RelativeBinningOptions::default().design_points,
        bns: false,
        higher_modes: false,
        distance: 130.0,
        sets: SETS.iter().map(|s| s.to_string()).collect(),
    };
    let mut positional = Vec::new();
    let mut it = std::env::args().skip(1);
    let number = |v: Option<String>, name: &str| -> Result<f64, String> {
        let v = v.ok_or(format!("{name} needs a value"))?;
        v.parse().map_err(|_| format!("{name}: not a number: {v}"))
    };
    while let Some(a) = it.next() {
        match a.as_str() {
            "--bns" => args.bns = true,
            "--higher-modes" => args.higher_modes = true,
            "--target" => args.target = number(it.next(), "--target")?,
            "--design-scale" => args.design_scale = number(it.next(), "--design-scale")?,
            "--design-points" => {
                args.design_points = number(it.next(), "--design-points")? as usize
            }
            "--distance" => args.distance = number(it.next(), "--distance")?,
            "--sets" => {
                let list = it.next().ok_or("--sets needs a value")?;
                args.sets = list.split(',').map(str::to_string).collect();
                if let Some(bad) = args.sets.iter().find(|s| !SETS.contains(&s.as_str())) {
                    return Err(format!("--sets: unknown set '{bad}' (known: {SETS:?})"));
                }
            }
            _ => positional.push(number(Some(a), "positional argument")?),
        }
    }
    args.fs = positional.first().copied();
    args.duration = positional.get(1).copied();
    args.points = positional.get(2).map(|&p| p as usize);
    Ok(args)
}

/// The 1.4 + 1.3 M☉ binary, extrinsic parameters as the GW150914-like one.
fn bns(distance: f64) -> BbhParameters {
    let (chirp_mass, mass_ratio) = chirp_mass_and_ratio(1.4, 1.3);
    BbhParameters {
        chirp_mass,
        mass_ratio,
        chi_1: 0.0,
        chi_2: 0.0,
        luminosity_distance: distance,
        ..BbhParameters::gw150914_like()
    }
}

/// `count` points thinned from an adaptive-Metropolis chain (Haario et al., Bernoulli 7 (2001)
/// 223, with a global scale adapted to 0.234 acceptance) on exp(ln L_RB/`temperature`), flat
/// priors (0.05 < q ≤ 1, |χ| < 0.99, D > 0), started at the fiducial with the Laplace
/// covariance `cov0` and learning the chain's covariance over the first half. Returns the
/// points (from the second half) and its acceptance rate.
fn rb_chain(
    rb: &BbhRelativeBinning,
    start: &BbhParameters,
    cov0: &[[f64; 11]; 11],
    temperature: f64,
    count: usize,
    seed: u64,
) -> Result<(Vec<BbhParameters>, f64), tdpe_likelihood::LikelihoodError> {
    const STEPS: usize = 60_000;
    const BURN: usize = STEPS / 2;
    let d: f64 = 11.0;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let log_target = |v: &[f64; 11]| -> f64 {
        let p = BbhParameters::from_array(SpinModel::Aligned.vector(v));
        let inside = p.mass_ratio > 0.05
            && p.mass_ratio <= 1.0
            && p.chi_1.abs() < 0.99
            && p.chi_2.abs() < 0.99
            && p.luminosity_distance > 0.0;
        match inside.then(|| rb.log_likelihood_ratio(&p)) {
            Some(Ok(l)) => l / temperature,
            _ => f64::NEG_INFINITY,
        }
    };
    let scaled = |c: &[[f64; 11]; 11], f: f64| -> [[f64; 11]; 11] {
        std::array::from_fn(|i| std::array::from_fn(|j| c[i][j] * f))
    };
    let mut chol = cholesky(&scaled(cov0, temperature)).expect("Laplace covariance");
    let mut log_scale = (2.38 / d.sqrt()).ln();
    let mut x = aligned(&start.to_array());
    let mut lp = log_target(&x);
    let (mut mean, mut scatter) = ([0.0; 11], [[0.0; 11]; 11]);
    let (mut kept, mut accepted) = (Vec::new(), 0usize);
    for step in 0..STEPS {
        let z: [f64; 11] = std::array::from_fn(|_| rng.sample(rand_distr::StandardNormal));
        let scale = log_scale.exp();
        let mut y = x;
        for i in 0..11 {
            y[i] += scale * (0..=i).map(|j| chol[i][j] * z[j]).sum::<f64>();
        }
        let ly = log_target(&y);
        let accept = ly - lp > rng.random::<f64>().ln();
        if accept {
            (x, lp) = (y, ly);
        }
        if step < BURN {
            let rate = if accept { 1.0 } else { 0.0 };
            log_scale += (rate - 0.234) / ((step + 1) as f64).sqrt().max(10.0);
            // Running mean and scatter (Welford); the covariance every 1000 steps from 5000.
            let n = (step + 1) as f64;
            let delta: [f64; 11] = std::array::from_fn(|i| x[i] - mean[i]);
            for i in 0..11 {
                mean[i] += delta[i] / n;
            }
            for i in 0..11 {
                for j in 0..11 {
                    scatter[i][j] += delta[i] * (x[j] - mean[j]);
                }
            }
            if step >= 5000 && step % 1000 == 0 {
                let cov: [[f64; 11]; 11] = std::array::from_fn(|i| {
                    std::array::from_fn(|j| {
                        scatter[i][j] / (n - 1.0) + 1e-4 * temperature * cov0[i][j]
                    })
                });
                if let Some(l) = cholesky(&cov) {
                    chol = l;
                }
            }
        } else {
            accepted += usize::from(accept);
            if kept.len() < count && step - BURN == kept.len() * (BURN / count).max(1) {
                kept.push(BbhParameters::from_array(SpinModel::Aligned.vector(&x)));
            }
        }
    }
    Ok((kept, accepted as f64 / BURN as f64))
}

/// (F + diag(1/prior²))⁻¹ for a Fisher matrix F.
fn laplace_covariance(fisher: &[[f64; 11]; 11], prior: &[f64; 11]) -> [[f64; 11]; 11] {
    let a = Mat::<f64>::from_fn(11, 11, |i, j| {
        fisher[i][j] + if i == j { prior[i].powi(-2) } else { 0.0 }
    });
    let inverse = a
        .llt(Side::Lower)
        .expect("regularised Fisher matrix")
        .inverse();
    std::array::from_fn(|i| std::array::from_fn(|j| inverse[(i, j)]))
}

/// Lower Cholesky factor of an 11×11 symmetric matrix, if positive definite.
fn cholesky(a: &[[f64; 11]; 11]) -> Option<[[f64; 11]; 11]> {
    let factor = Mat::<f64>::from_fn(11, 11, |i, j| a[i][j])
        .llt(Side::Lower)
        .ok()?;
    let l = factor.L();
    Some(std::array::from_fn(|i| std::array::from_fn(|j| l[(i, j)])))
}

/// Peak resident set size (VmHWM, kB) of this process.
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Seconds per call of `f`, averaged over `reps` calls.
fn time_per_call(reps: usize, mut f: impl FnMut()) -> f64 {
    let start = Instant::now();
    for _ in 0..reps {
        f();
    }
    start.elapsed().as_secs_f64() / reps as f64
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = parse_args()?;
    let injection = if args.bns {
        Injection {
            truth: bns(args.distance),
            fs: args.fs.unwrap_or(4096.0),
            duration: args.duration.unwrap_or(128.0),
            f_low: 25.0,
            ..Injection::gw150914_like(4096.0, 128.0)
        }
    } else if args.higher_modes {
        Injection::asymmetric_with_higher_modes(
            args.fs.unwrap_or(2048.0),
            args.duration.unwrap_or(8.0),
        )
    } else {
        Injection::gw150914_like(args.fs.unwrap_or(2048.0), args.duration.unwrap_or(4.0))
    };
    let count = args.points.unwrap_or(if args.bns {
        50
    } else if args.higher_modes {
        40
    } else {
        200
    });
    let truth = injection.truth;
    let (fs, duration) = (injection.fs, injection.duration);

    let (exact, t) = noisy_injection_timed(&injection);
    println!(
        "{} at {fs} Hz, {duration} s (N = {}), f_low {} Hz, target {:e}, design {} × {}σ",
        if args.bns {
            "BNS 1.4+1.3"
        } else if args.higher_modes {
            "30+8 with five modes"
        } else {
            "GW150914-like"
        },
        exact.likelihood().grid().len,
        injection.f_low,
        args.target,
        args.design_points,
        args.design_scale
    );
    println!(
        "exact set-up: ACF {:.3} s, C⁻¹ {:.3} s ({:?}), likelihood (C⁻¹d) {:.3} s; total {:.3} s \
         (simulation {:.2} s, not counted)",
        t.acf,
        t.noise_inverse,
        exact.likelihood().noise(0).setup(),
        t.likelihood,
        t.acf + t.noise_inverse + t.likelihood,
        t.simulation
    );
    let terms = exact.detector_terms(&truth)?;
    let network: f64 = terms.iter().map(|d| d.h_h).sum::<f64>().sqrt();
    println!(
        "optimal SNR: {} network {network:.1}",
        terms
            .iter()
            .map(|d| format!("{} {:.1}, ", d.name, d.optimal_snr))
            .collect::<String>()
    );

    let options = RelativeBinningOptions {
        target: args.target,
        design_scale: args.design_scale,
        design_points: args.design_points,
        ..RelativeBinningOptions::default()
    };
    let start = Instant::now();
    let rb = BbhRelativeBinning::new(&exact, truth, &options)?;
    let p = rb.setup_profile();
    println!(
        "relative binning set-up {:.3} s (fiducial {:.3}, design {:.3} ({} of {} candidates kept), \
         nodes {:.3}, summary data {:.3}), nodes per detector {:?}",
        start.elapsed().as_secs_f64(),
        p.fiducial.as_secs_f64(),
        p.design.as_secs_f64(),
        p.design_waveforms,
        p.candidates_screened,
        p.nodes.as_secs_f64(),
        p.summary.as_secs_f64(),
        rb.node_counts()
    );

    let reference = exact.log_likelihood_ratio(&truth)?;
    let at_fiducial = rb.log_likelihood_ratio(&truth)? - reference;
    println!(
        "at the fiducial: ln L = {reference:.6}, |ΔlnL| = {:.2e}",
        at_fiducial.abs()
    );
    if count > 0 {
        let report = |label: &str, points: &[(BbhParameters, f64)], note: String| {
            let errors = points
                .iter()
                .map(|(p, l)| Ok((rb.log_likelihood_ratio(p)? - l).abs()))
                .collect::<Result<Vec<f64>, tdpe_likelihood::LikelihoodError>>()?;
            let deficit: Vec<f64> = points.iter().map(|(_, l)| reference - l).collect();
            let worst = &points[(0..errors.len())
                .max_by(|&a, &b| errors[a].total_cmp(&errors[b]))
                .unwrap_or(0)]
            .0;
            let (median, p99, max) = quantiles(errors);
            println!(
                "{label:11} ({} points, ln L deficit median {:.1}{note}): |ΔlnL| median \
                 {median:.2e}, p99 {p99:.2e}, max {max:.2e} (at q {:.3}, χ1 {:.3}, χ2 {:.3}, \
                 t_c {:+.2e} s)",
                points.len(),
                quantiles(deficit).0,
                worst.mass_ratio,
                worst.chi_1,
                worst.chi_2,
                worst.geocent_time - truth.geocent_time
            );
            Ok::<_, tdpe_likelihood::LikelihoodError>(())
        };
        // Fisher matrix at the fiducial (steps refined once to 0.1 of the conditional σ): the
        // BNS's test widths and, for both, the chains' starting proposal.
        let guess = if args.bns {
            [
                1e-6, 1e-3, 1e-3, 1e-3, 1.0, 1e-2, 1e-2, 1e-2, 1e-5, 1e-3, 1e-3,
            ]
        } else {
            SIGMA.map(|s| 0.01 * s)
        };
        let first = conditional_sigmas(&exact, &truth, &guess);
        let fisher = fisher_matrix(&exact, &truth, &first.map(|s| 0.1 * s));
        let sigma = if args.bns {
            let sigma: [f64; 11] = std::array::from_fn(|i| 1.0 / fisher[i][i].sqrt());
            println!("conditional σ: {:?}", sigma.map(|s| format!("{s:.2e}")));
            sigma
        } else if args.higher_modes {
            first.map(|s| 3.0 * s)
        } else {
            SIGMA
        };
        let prior = [
            0.1 * truth.chirp_mass,
            0.3,
            0.5,
            0.5,
            0.5 * truth.luminosity_distance,
            1.0,
            1.0,
            1.0,
            0.01,
            1.0,
            1.0,
        ];
        let cov0 = laplace_covariance(&fisher, &prior);
        for (label, width, depth, seed) in [("posterior", 1.0, 10.0, 5), ("wide", 2.0, 40.0, 6)] {
            if !args.sets.iter().any(|s| s == label) {
                continue;
            }
            let start = Instant::now();
            let points =
                draw_points_around(&exact, &truth, &sigma, reference, width, depth, count, seed);
            let note = format!(", drawn in {:.1} s", start.elapsed().as_secs_f64());
            report(label, &points, note)?;
        }
        // Points from adaptive-Metropolis chains on the RB posterior itself (flat priors),
        // which follow the curved degeneracies; ln L/4 for the wide set.
        for (label, temperature, seed) in [("chain", 1.0, 9), ("chain-wide", 4.0, 10)] {
            if !args.sets.iter().any(|s| s == label) {
                continue;
            }
            let start = Instant::now();
            let (chain, acceptance) = rb_chain(&rb, &truth, &cov0, temperature, count, seed)?;
            let points = chain
                .into_iter()
                .map(|p| Ok((p, exact.log_likelihood_ratio(&p)?)))
                .collect::<Result<Vec<_>, tdpe_likelihood::LikelihoodError>>()?;
            let range = |f: fn(&BbhParameters) -> f64| {
                let v = points.iter().map(|(p, _)| f(p));
                let (lo, hi) = v.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.min(x), b.max(x))
                });
                format!("[{lo:.3}, {hi:.3}]")
            };
            let note = format!(
                ", acceptance {acceptance:.2}, q ∈ {}, χ1 ∈ {}, {:.1} s",
                range(|p| p.mass_ratio),
                range(|p| p.chi_1),
                start.elapsed().as_secs_f64()
            );
            report(label, &points, note)?;
        }
    }

    let reps = 2000;
    let value = time_per_call(reps, || {
        std::hint::black_box(rb.log_likelihood_ratio(std::hint::black_box(&truth)).ok());
    });
    let mut grad = [0.0; tdpe_signal::NUM_PARAMETERS];
    let gradient = time_per_call(reps, || {
        std::hint::black_box(rb.log_likelihood_ratio_and_gradient(&truth, &mut grad).ok());
    });
    let exact_reps = if exact.likelihood().grid().len > 100_000 {
        5
    } else {
        20
    };
    let exact_cost = time_per_call(exact_reps, || {
        std::hint::black_box(BbhExactLikelihood::log_likelihood_ratio(&exact, &truth).ok());
    });
    println!(
        "cost per call: RB value {:.1} µs, RB value+gradient {:.1} µs, exact value {:.2} ms",
        value * 1e6,
        gradient * 1e6,
        exact_cost * 1e3
    );
    if let Some(kb) = peak_rss_kb() {
        println!("peak resident memory (VmHWM): {:.1} MB", kb as f64 / 1024.0);
    }
    Ok(())
}
