//! Relative binning (docs/likelihood.md §3.3, §3.6, §3.7): evaluation and adjoint at B = 120
//! nodes, reconstruct-and-apply for comparison, and the summary-data set-up
//! (2(B+1) + 1 Gohberg–Semencul applies) at N = 8192 and 16384 (4 s at 2048 and 4096 Hz), on
//! the aLIGO design covariance with the 20 Hz cut-off. Costs do not depend on the waveform, so
//! a synthetic chirp and uniform nodes are used.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use std::sync::Arc;
use tdpe_likelihood::relative_binning::{Complex64, NodeSet, ReconstructedLikelihood, SummaryData};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::{AnalysisBand, Psd, ToeplitzInverse};

const BINS: usize = 120;

struct Setup {
    noise: Arc<ToeplitzInverse>,
    v: Vec<Complex64>,
    data: Vec<f64>,
    nodes: NodeSet,
}

fn setup(fs: f64, n: usize) -> Setup {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), fs, n).unwrap();
    let noise = Arc::new(ToeplitzInverse::from_acf(&spec.acf(), n).unwrap());
    // Linear chirp 20 → 200 Hz over the segment.
    let duration = n as f64 / fs;
    let v: Vec<Complex64> = (0..n)
        .map(|i| {
            let t = i as f64 / fs;
            let phase = 2.0 * std::f64::consts::PI * (20.0 * t + 90.0 * t * t / duration);
            Complex64::from_polar(1e-21 * (1.0 + t), -phase)
        })
        .collect();
    let data: Vec<f64> = (0..n).map(|i| 1e-21 * ((i * 7919) % 101) as f64).collect();
    let nodes = NodeSet::uniform(0..=n - 1, BINS, n).unwrap();
    Setup {
        noise,
        v,
        data,
        nodes,
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("relative_binning");
    let s = setup(2048.0, 8192);
    let summary = SummaryData::new(&s.v, &s.data, &s.noise, s.nodes.clone()).unwrap();
    let rec =
        ReconstructedLikelihood::new(&s.v, &s.data, s.noise.clone(), s.nodes.clone()).unwrap();
    let m = summary.node_count();
    let coeffs: Vec<Complex64> = (0..m)
        .map(|b| Complex64::from_polar(1.0 + 0.01 * b as f64, 0.03 * b as f64))
        .collect();
    let mut ws = summary.workspace();
    let mut grad = vec![Complex64::default(); m];
    group.bench_function(BenchmarkId::new("log_likelihood_ratio", BINS), |b| {
        b.iter(|| {
            summary
                .log_likelihood_ratio(black_box(&coeffs), 0, &mut ws)
                .unwrap()
        })
    });
    group.bench_function(BenchmarkId::new("adjoint", BINS), |b| {
        b.iter(|| {
            summary
                .adjoint(black_box(&coeffs), 0, &mut grad, &mut ws)
                .unwrap()
        })
    });
    let mut wr = rec.workspace();
    group.bench_function(BenchmarkId::new("reconstruct_adjoint_n8192", BINS), |b| {
        b.iter(|| rec.adjoint(black_box(&coeffs), &mut grad, &mut wr).unwrap())
    });
    group.sample_size(10);
    for (fs, n) in [(2048.0, 8192usize), (4096.0, 16384)] {
        let s = setup(fs, n);
        group.bench_function(BenchmarkId::new("summary_setup_b120", n), |b| {
            b.iter(|| SummaryData::new(&s.v, &s.data, &s.noise, s.nodes.clone()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
