//! The cost of one precessing likelihood evaluation (issue 28): the exact ln L, relative
//! binning's ln L, and relative binning's ln L with its gradient, each the median wall time
//! over `rounds` rounds (one thread; relative binning's time per call over `batch` calls a
//! round), plus the relative binning's set-up time and nodes:
//!
//!     cargo run --release -p tdpe-likelihood --example precessing_cost -- [rounds] [batch]
//!
//! The binary: 36 + 29 M☉, a_1 = 0.6, tilt_1 = 1.0, a_2 = 0.4, tilt_2 = 2.0, φ_12 = 0.8,
//! φ_jl = 0.3, θ_jn = 1 (χ_p ≈ 0.5), the rest of `BbhParameters::gw150914_like`, the distance
//! set for network SNR 25; noise-free data of it in H1 + L1 (design PSD), 4 s at 2048 Hz with
//! the peak 2 s before the end, f_low = f_ref = 20 Hz; relative binning around the truth with
//! the default options. Each line of the output is `key value` (times in s) but the last, a
//! summary; tools/bench_waveform_vs_lal.py `--only RB` reads it and sets it against LAL's
//! IMRPhenomTPHM waveform, whose spins the `lal_*` lines give.

#[path = "../tests/gw150914_like/mod.rs"]
mod gw150914_like;

use std::hint::black_box;
use std::time::Instant;

use gw150914_like::noise_free_precessing;
use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};
use tdpe_signal::{lal_spins, BbhParameters, SpinModel, NUM_PARAMETERS};

const F_LOW: f64 = 20.0;
const TARGET_SNR: f64 = 25.0;
/// Where the likelihood is evaluated: the truth moved by about half a conditional width (those of
/// the similar binary of tests/precessing_likelihood.rs) in every parameter, in the order of
/// `SpinModel::Precessing`, signs alternating, so that relative binning's ratios are not all one.
const OFFSET: [f64; 15] = [
    2e-3, 5e-3, 1.5e-3, 1.6e-3, 1e-3, 2e-3, 0.09, 0.08, 17.0, 0.024, 0.01, 0.01, 2.7e-5, 0.01, 3e-3,
];

fn truth(luminosity_distance: f64) -> BbhParameters {
    BbhParameters {
        chi_1: 0.0,
        chi_2: 0.0,
        a_1: 0.6,
        a_2: 0.4,
        tilt_1: 1.0,
        tilt_2: 2.0,
        phi_12: 0.8,
        phi_jl: 0.3,
        theta_jn: 1.0,
        luminosity_distance,
        ..BbhParameters::gw150914_like()
    }
}

/// Median wall time per call of `f` over `rounds` rounds of `batch` calls, after one warm-up.
fn median_per_call(rounds: usize, batch: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut times: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..batch {
                f();
            }
            start.elapsed().as_secs_f64() / batch as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[rounds / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args
        .next()
        .map_or(21, |s| s.parse().expect("rounds: a count"));
    let batch: usize = args
        .next()
        .map_or(20, |s| s.parse().expect("batch: a count"));

    // ρ ∝ 1/D: one probe at 1 Gpc sets the distance.
    let probe = noise_free_precessing(&truth(1000.0));
    let snr_probe = probe
        .detector_terms(&truth(1000.0))
        .unwrap()
        .iter()
        .map(|t| t.h_h)
        .sum::<f64>()
        .sqrt();
    let truth = truth(1000.0 * snr_probe / TARGET_SNR);
    let exact = noise_free_precessing(&truth);
    let ln_l_max = exact.log_likelihood_ratio(&truth).unwrap();

    let clock = Instant::now();
    let rb = BbhRelativeBinning::new(&exact, truth, &RelativeBinningOptions::default()).unwrap();
    let setup = clock.elapsed().as_secs_f64();

    let mut v = truth.to_array();
    for (k, (&parameter, offset)) in SpinModel::Precessing
        .parameters()
        .iter()
        .zip(OFFSET)
        .enumerate()
    {
        v[parameter] += if k % 2 == 0 { offset } else { -offset };
    }
    let p = BbhParameters::from_array(v);
    let exact_ln_l = exact.log_likelihood_ratio(&p).unwrap();
    let rb_ln_l = rb.log_likelihood_ratio(&p).unwrap();

    let exact_s = median_per_call(rounds, 1, || {
        black_box(exact.log_likelihood_ratio(black_box(&p)).unwrap());
    });
    let value_s = median_per_call(rounds, batch, || {
        black_box(rb.log_likelihood_ratio(black_box(&p)).unwrap());
    });
    let mut gradient = [0.0; NUM_PARAMETERS];
    let gradient_s = median_per_call(rounds, batch, || {
        black_box(
            rb.log_likelihood_ratio_and_gradient(black_box(&p), &mut gradient)
                .unwrap(),
        );
    });

    let (m1, m2) = truth.component_masses();
    let lal = lal_spins(
        &truth.precessing_spins(),
        truth.theta_jn,
        m1,
        m2,
        F_LOW,
        truth.phase,
    )
    .unwrap();
    let nodes = rb.node_counts();
    let profile = rb.setup_profile();
    for (key, value) in [
        ("distance", truth.luminosity_distance),
        ("network_snr", (2.0 * ln_l_max).sqrt()),
        ("mass_1", m1),
        ("mass_2", m2),
        ("phase", truth.phase),
        ("lal_inclination", lal.inclination),
        ("lal_spin_1x", lal.chi_1[0]),
        ("lal_spin_1y", lal.chi_1[1]),
        ("lal_spin_1z", lal.chi_1[2]),
        ("lal_spin_2x", lal.chi_2[0]),
        ("lal_spin_2y", lal.chi_2[1]),
        ("lal_spin_2z", lal.chi_2[2]),
        ("exact_ln_l", exact_ln_l),
        ("rb_ln_l", rb_ln_l),
        ("ln_l_max", ln_l_max),
        ("setup", setup),
        ("design_waveforms", profile.design_waveforms as f64),
        ("nodes_h1", nodes[0] as f64),
        ("nodes_l1", nodes[1] as f64),
        ("exact", exact_s),
        ("rb_value", value_s),
        ("rb_gradient", gradient_s),
    ] {
        println!("{key} {value}");
    }
    println!(
        "# exact ln L {:.2} ms, RB ln L {:.1} µs, RB ln L + gradient {:.1} µs (gradient/value \
         {:.2}); nodes {nodes:?}, set-up {setup:.1} s; at ln L_max − {:.2}, RB − exact = {:.1e}",
        exact_s * 1e3,
        value_s * 1e6,
        gradient_s * 1e6,
        gradient_s / value_s,
        ln_l_max - exact_ln_l,
        rb_ln_l - exact_ln_l
    );
}
