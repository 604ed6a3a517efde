//! BBH relative binning on the GW150914-like injection (H1+L1, 4 s at 2048 Hz, ~88 nodes per
//! detector at the default settings): one ln L, one ln L with its 11-parameter gradient, the set-up (design, nodes,
//! summary data; also at 4096 Hz), and the parts of a call apart from the summary-data
//! algebra: the IMRPhenomT set-up (f64 for ln L, with duals in the four intrinsic parameters
//! for the gradient) and the (2,2) mode at the 228 node times of the earlier degree-three
//! layout, kept so that the per-node figures compare with earlier runs (one at a time, staged with
//! libm, on lanes as ln L (`h22_many`) and ln L + gradient (`h22_traced_many`) do, and the
//! gradient's reverse pass).
//!
//! `cargo bench -p tdpe-likelihood --bench bbh_relative_binning`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};
use tdpe_phenomt::{Dual, Mode22Adjoint};
use tdpe_signal::BbhParameters;

#[path = "../tests/gw150914_like/mod.rs"]
mod gw150914_like;
use gw150914_like::{draw_points, noisy_injection};

/// Node times (s relative to the peak) with the earlier degree-three layout recorded in
/// docs/likelihood.md §3.5 (bins per time range, one detector), for the per-node cost of the
/// waveform: (from, to, nodes).
const LAYOUT: [(f64, f64, usize); 6] = [
    (-2.1, -1.0, 11),
    (-1.0, -0.3, 15),
    (-0.3, -0.1, 12),
    (-0.1, -0.03, 19),
    (-0.03, 0.0, 31),
    (0.0, 0.03, 26),
];

fn node_times() -> Vec<f64> {
    let one: Vec<f64> = LAYOUT
        .iter()
        .flat_map(|&(from, to, n)| (0..n).map(move |i| from + (to - from) * i as f64 / n as f64))
        .collect();
    // Two detectors, their arrival times a few ms apart.
    one.iter().chain(&one).map(|t| t - 1e-3).collect()
}

fn bench(c: &mut Criterion) {
    let exact = noisy_injection(2048.0, 4.0);
    let truth = BbhParameters::gw150914_like();
    let options = RelativeBinningOptions::default();
    let rb = BbhRelativeBinning::new(&exact, truth, &options).unwrap();
    let ln_l_max = exact.log_likelihood_ratio(&truth).unwrap();
    // Posterior-like points (not the fiducial).
    let points = draw_points(&exact, ln_l_max, 1.0, 10.0, 2, 3);
    let (p, other) = (points[0].0, points[1].0);
    let model = exact.model();

    let mut group = c.benchmark_group("bbh_relative_binning");
    group.bench_function("value", |b| {
        b.iter(|| rb.log_likelihood_ratio(black_box(&p)).unwrap())
    });
    let mut gradient = [0.0; tdpe_signal::NUM_PARAMETERS];
    // Two points in turn, as a sampler moves: the model keeps only the last dual set-up, so
    // every call sets up its waveform.
    let mut turn = [p, other].into_iter().cycle();
    group.bench_function("value_and_gradient", |b| {
        b.iter(|| {
            let q = turn.next().unwrap();
            rb.log_likelihood_ratio_and_gradient(black_box(&q), &mut gradient)
                .unwrap()
        })
    });

    group.bench_function("phenomt_setup_f64", |b| {
        b.iter(|| {
            model
                .waveform(black_box(p.chirp_mass), p.mass_ratio, p.chi_1, p.chi_2)
                .unwrap()
        })
    });
    let dual = |x: f64, k: usize| Dual::<4>::variable(x, k);
    let dual_waveform = || {
        model
            .waveform(
                dual(black_box(p.chirp_mass), 0),
                dual(p.mass_ratio, 1),
                dual(p.chi_1, 2),
                dual(p.chi_2, 3),
            )
            .unwrap()
    };
    group.bench_function("phenomt_setup_dual4", |b| b.iter(dual_waveform));

    let times = node_times();
    let n = times.len();
    let waveform = model
        .waveform(p.chirp_mass, p.mass_ratio, p.chi_1, p.chi_2)
        .unwrap();
    group.bench_function(format!("mode22_at_{n}_nodes"), |b| {
        b.iter(|| {
            black_box(&times)
                .iter()
                .map(|&t| waveform.mode22(t).phase)
                .sum::<f64>()
        })
    });
    let mut modes = vec![Default::default(); n];
    group.bench_function(format!("mode22_traced_many_at_{n}_nodes"), |b| {
        b.iter(|| waveform.mode22_traced_many(black_box(&times), &mut modes))
    });
    let mut h22 = vec![[0.0; 2]; n];
    group.bench_function(format!("h22_many_at_{n}_nodes"), |b| {
        b.iter(|| waveform.h22_many(black_box(&times), &mut h22))
    });
    group.bench_function(format!("h22_traced_many_at_{n}_nodes"), |b| {
        b.iter(|| waveform.h22_traced_many(black_box(&times), &mut modes, &mut h22))
    });
    let mut adjoint = Mode22Adjoint::default();
    let unit_weights = vec![1.0; modes.len()];
    group.bench_function(format!("mode22_adjoint_at_{n}_nodes"), |b| {
        b.iter(|| {
            waveform.mode22_adjoint_many(
                black_box(&modes),
                &unit_weights,
                &unit_weights,
                &mut adjoint,
            )
        })
    });

    group.sample_size(10);
    group.bench_function("setup", |b| {
        b.iter(|| BbhRelativeBinning::new(&exact, truth, &options).unwrap())
    });
    // The acceptance case of issue 4 for the set-up: 4 s at 4096 Hz.
    let exact_4096 = noisy_injection(4096.0, 4.0);
    group.bench_function("setup_4096hz_4s", |b| {
        b.iter(|| BbhRelativeBinning::new(&exact_4096, truth, &options).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
