//! Accuracy and cost of BBH relative binning against the exact likelihood on the GW150914-like
//! injection (likelihood.md §3), for the report of issue 4:
//!
//!     cargo run --release -p tdpe-likelihood --example rb_accuracy -- [fs] [duration] [points]
//!
//! (defaults 2048 Hz, 4 s, 200). The merger sits 2 s before the end of the segment. Prints node
//! counts, |ΔlnL| at the fiducial, median/p99/max over posterior-like (ln L within 10 of the
//! fiducial's, 1σ perturbations) and wide (within 40, 2σ) points, and timings.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{
    BbhExactLikelihood, BbhRelativeBinning, ExactLikelihood, RelativeBinningOptions, SampleGrid,
};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{LowFrequencyCutoff, Psd};
use tdpe_signal::{chirp_mass_and_ratio, BbhParameters, SignalModel};

/// Rough 1σ widths of the GW150914-like posterior at SNR 27.
const SIGMA: [f64; 11] = [0.1, 0.05, 0.1, 0.15, 120.0, 0.1, 0.1, 0.1, 2e-4, 0.02, 0.02];

fn truth() -> BbhParameters {
    let (chirp_mass, mass_ratio) = chirp_mass_and_ratio(36.0, 29.0);
    BbhParameters {
        chirp_mass,
        mass_ratio,
        chi_1: 0.3,
        chi_2: -0.2,
        luminosity_distance: 1200.0,
        theta_jn: 2.6,
        psi: 0.6,
        phase: 1.3,
        geocent_time: 0.4,
        ra: 1.95,
        dec: -1.27,
    }
}

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let fs = args.first().copied().unwrap_or(2048.0);
    let duration = args.get(1).copied().unwrap_or(4.0);
    let count = args.get(2).copied().unwrap_or(200.0) as usize;

    let detectors = Detector::network(&["H1", "L1"]).unwrap();
    let model = SignalModel::new(detectors, GpsTime::new(1126259462, 0), 20.0, 1.0 / fs).unwrap();
    let grid = SampleGrid::new(truth().geocent_time + 2.0 - duration, fs, duration).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let cutoff = LowFrequencyCutoff::default();
    let spectrum = GriddedSpectrum::from_psd(&psd, &cutoff, fs, grid.len).unwrap();
    let signal = model
        .strain(&truth(), grid.start, grid.dt, grid.len)
        .unwrap();
    let inputs = ["H1", "L1"]
        .iter()
        .zip(signal)
        .enumerate()
        .map(|(k, (name, mut d))| {
            let noise =
                simulate_frequency_domain_seeded(&spectrum, grid.len, 100 + k as u64).unwrap();
            d.iter_mut().zip(noise).for_each(|(d, n)| *d += n);
            (name.to_string(), d, &psd)
        })
        .collect();
    let start = Instant::now();
    let exact = BbhExactLikelihood::new(
        model,
        ExactLikelihood::from_psds(grid, inputs, &cutoff).unwrap(),
    )
    .unwrap();
    println!(
        "{fs} Hz, {duration} s: exact likelihood set-up {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let rb = BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default()).unwrap();
    println!(
        "relative binning set-up {:.3} s, nodes per detector {:?}",
        start.elapsed().as_secs_f64(),
        rb.node_counts()
    );

    let reference = exact.log_likelihood_ratio(&truth()).unwrap();
    let at_fiducial = rb.log_likelihood_ratio(&truth()).unwrap() - reference;
    println!("at the fiducial: |ΔlnL| = {:.2e}", at_fiducial.abs());

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    for (label, width, depth) in [("posterior", 1.0, 10.0), ("wide", 2.0, 40.0)] {
        let mut errors = Vec::new();
        while errors.len() < count {
            let mut v = truth().to_array();
            for (x, s) in v.iter_mut().zip(SIGMA) {
                let z: f64 = rng.sample(rand_distr::StandardNormal);
                *x += width * s * z;
            }
            v[1] = v[1].min(1.0);
            let p = BbhParameters::from_array(v);
            if let Ok(l) = exact.log_likelihood_ratio(&p) {
                if l > reference - depth {
                    errors.push((rb.log_likelihood_ratio(&p).unwrap() - l).abs());
                }
            }
        }
        errors.sort_by(f64::total_cmp);
        let at = |q: f64| errors[((errors.len() - 1) as f64 * q).round() as usize];
        println!(
            "{label:9} ({count} points): |ΔlnL| median {:.2e}, p99 {:.2e}, max {:.2e}",
            at(0.5),
            at(0.99),
            errors[errors.len() - 1]
        );
    }

    let reps = 2000;
    let p = truth();
    let start = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(rb.log_likelihood_ratio(std::hint::black_box(&p)).unwrap());
    }
    let value = start.elapsed().as_secs_f64() / reps as f64;
    let mut grad = [0.0; 11];
    let start = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(rb.log_likelihood_ratio_and_gradient(&p, &mut grad).unwrap());
    }
    let gradient = start.elapsed().as_secs_f64() / reps as f64;
    let start = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(exact.log_likelihood_ratio(&p).unwrap());
    }
    let exact_cost = start.elapsed().as_secs_f64() / 20.0;
    println!(
        "cost per call: RB value {:.1} µs, RB value+gradient {:.1} µs, exact value {:.2} ms",
        value * 1e6,
        gradient * 1e6,
        exact_cost * 1e3
    );
}
