//! A loop of relative-binning calls on the GW150914-like case (2048 Hz, 4 s), for `perf`:
//!
//!     cargo build --release -p tdpe-likelihood --example rb_profile
//!     perf record -g ./target/release/examples/rb_profile value 200000
//!
//! The first argument is `value` or `gradient`, the second the number of calls; a third,
//! `higher-modes`, takes the unequal-mass injection with IMRPhenomTHM's five modes (2048 Hz,
//! 8 s) instead.

use std::hint::black_box;
use std::time::Instant;

use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};

#[path = "../tests/gw150914_like/mod.rs"]
mod gw150914_like;
use gw150914_like::{draw_points_around, noisy_injection_timed, Injection, SIGMA};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("value", String::as_str).to_string();
    let calls: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let injection = match args.get(3).map(String::as_str) {
        Some("higher-modes") => Injection::asymmetric_with_higher_modes(2048.0, 8.0),
        _ => Injection::gw150914_like(2048.0, 4.0),
    };
    let truth = injection.truth;
    let exact = noisy_injection_timed(&injection).0;
    let rb = BbhRelativeBinning::new(&exact, truth, &RelativeBinningOptions::default()).unwrap();
    let ln_l_max = exact.log_likelihood_ratio(&truth).unwrap();
    // Near the maximum: the widths of the GW150914-like posterior are too wide elsewhere.
    let p = draw_points_around(
        &exact,
        &truth,
        &SIGMA.map(|s| 0.01 * s),
        ln_l_max,
        1.0,
        10.0,
        1,
        3,
    )[0]
    .0;
    let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
    let start = Instant::now();
    let mut sum = 0.0;
    for _ in 0..calls {
        sum += match mode.as_str() {
            "gradient" => rb
                .log_likelihood_ratio_and_gradient(black_box(&p), &mut gradient)
                .unwrap(),
            _ => rb.log_likelihood_ratio(black_box(&p)).unwrap(),
        };
    }
    let per_call = start.elapsed().as_secs_f64() / calls as f64;
    println!(
        "{mode}: {:.2} µs per call over {calls} calls (nodes {:?}, sum {sum:e})",
        per_call * 1e6,
        rb.node_counts()
    );
}
