//! Accuracy and cost of BBH relative binning against the exact likelihood on the GW150914-like
//! injection (likelihood.md §3), for the report of issue 4:
//!
//!     cargo run --release -p tdpe-likelihood --example rb_accuracy -- [fs] [duration] [points]
//!
//! (defaults 2048 Hz, 4 s, 200). The merger sits 2 s before the end of the segment. Prints node
//! counts, |ΔlnL| at the fiducial, median/p99/max over posterior-like (ln L within 10 of the
//! fiducial's, 1σ perturbations) and wide (within 40, 2σ) points, and timings.

use std::time::Instant;

use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};
use tdpe_signal::BbhParameters;

#[path = "../tests/gw150914_like/mod.rs"]
mod gw150914_like;
use gw150914_like::{draw_points, noisy_injection, quantiles};

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let fs = args.first().copied().unwrap_or(2048.0);
    let duration = args.get(1).copied().unwrap_or(4.0);
    let count = args.get(2).copied().unwrap_or(200.0) as usize;
    let truth = BbhParameters::gw150914_like();

    let start = Instant::now();
    let exact = noisy_injection(fs, duration);
    println!(
        "{fs} Hz, {duration} s: exact likelihood set-up {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let rb = BbhRelativeBinning::new(&exact, truth, &RelativeBinningOptions::default()).unwrap();
    println!(
        "relative binning set-up {:.3} s, nodes per detector {:?}",
        start.elapsed().as_secs_f64(),
        rb.node_counts()
    );

    let reference = exact.log_likelihood_ratio(&truth).unwrap();
    let at_fiducial = rb.log_likelihood_ratio(&truth).unwrap() - reference;
    println!("at the fiducial: |ΔlnL| = {:.2e}", at_fiducial.abs());
    for (label, width, depth, seed) in [("posterior", 1.0, 10.0, 5), ("wide", 2.0, 40.0, 6)] {
        let errors = draw_points(&exact, reference, width, depth, count, seed)
            .iter()
            .map(|(p, l)| (rb.log_likelihood_ratio(p).unwrap() - l).abs())
            .collect();
        let (median, p99, max) = quantiles(errors);
        println!(
            "{label:9} ({count} points): |ΔlnL| median {median:.2e}, p99 {p99:.2e}, max {max:.2e}"
        );
    }

    let reps = 2000;
    let start = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(
            rb.log_likelihood_ratio(std::hint::black_box(&truth))
                .unwrap(),
        );
    }
    let value = start.elapsed().as_secs_f64() / reps as f64;
    let mut grad = [0.0; 11];
    let start = Instant::now();
    for _ in 0..reps {
        std::hint::black_box(
            rb.log_likelihood_ratio_and_gradient(&truth, &mut grad)
                .unwrap(),
        );
    }
    let gradient = start.elapsed().as_secs_f64() / reps as f64;
    let start = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(exact.log_likelihood_ratio(&truth).unwrap());
    }
    let exact_cost = start.elapsed().as_secs_f64() / 20.0;
    println!(
        "cost per call: RB value {:.1} µs, RB value+gradient {:.1} µs, exact value {:.2} ms",
        value * 1e6,
        gradient * 1e6,
        exact_cost * 1e3
    );
}
