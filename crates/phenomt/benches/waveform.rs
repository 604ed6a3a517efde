//! IMRPhenomT generation: set-up alone, f64 polarisations on LAL's full grid, and values plus
//! derivatives in (m1, m2, χ1, χ2, t) with `Dual<5>` at the same times.
//!
//! `cargo bench -p tdpe-phenomt` (tools/bench_waveform_vs_lal.py compares with LALSuite).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use tdpe_phenomt::{Dual, IMRPhenomT, Settings};

/// A benchmark system: masses (M☉), spins, starting frequency (Hz); 4096 Hz sampling.
struct System {
    name: &'static str,
    m1: f64,
    m2: f64,
    chi1: f64,
    chi2: f64,
    f_min: f64,
}

const SYSTEMS: [System; 2] = [
    // 3784 samples from 20 Hz.
    System {
        name: "gw150914_like",
        m1: 36.0,
        m2: 29.0,
        chi1: 0.3,
        chi2: -0.2,
        f_min: 20.0,
    },
    // A binary neutron star from 10 Hz: ~969 s, 3.97 million samples (t(f_min) ≈ −6.8e7 M,
    // well inside the model's −1e9 M).
    System {
        name: "bns_1.6_1.3_from_10hz",
        m1: 1.6,
        m2: 1.3,
        chi1: 0.0,
        chi2: 0.0,
        f_min: 10.0,
    },
];

const DELTA_T: f64 = 1.0 / 4096.0;
const DISTANCE_MPC: f64 = 410.0;
const INCLINATION: f64 = 0.4;
const PHI_REF: f64 = 0.3;

fn settings(s: &System) -> Settings {
    Settings::lal(s.f_min, s.f_min, DELTA_T)
}

fn waveform(c: &mut Criterion) {
    let mut setup = c.benchmark_group("setup");
    for s in &SYSTEMS {
        setup.bench_function(s.name, |b| {
            b.iter(|| IMRPhenomT::<f64>::new(s.m1, s.m2, s.chi1, s.chi2, &settings(s)))
        });
    }
    setup.finish();

    for s in &SYSTEMS {
        let model = IMRPhenomT::<f64>::new(s.m1, s.m2, s.chi1, s.chi2, &settings(s)).unwrap();
        let grid = model.polarizations_on_grid(DISTANCE_MPC, INCLINATION, PHI_REF);
        let times: Vec<f64> = (0..grid.hp.len()).map(|k| grid.time(k)).collect();

        let mut group = c.benchmark_group(format!("full_grid/{}", s.name));
        group.throughput(Throughput::Elements(times.len() as u64));
        if times.len() > 100_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(20));
        }
        // What SimInspiralChooseTDWaveform(IMRPhenomT) does: set-up, then h₊, h× on the grid.
        group.bench_function(BenchmarkId::new("f64", times.len()), |b| {
            b.iter(|| {
                IMRPhenomT::<f64>::new(s.m1, s.m2, s.chi1, s.chi2, &settings(s))
                    .map(|m| m.polarizations_on_grid(DISTANCE_MPC, INCLINATION, PHI_REF))
            })
        });
        // Values and derivatives with respect to (m1, m2, χ1, χ2, t) at the grid's times.
        group.bench_function(BenchmarkId::new("dual5", times.len()), |b| {
            b.iter(|| {
                let v = |x, k| Dual::<5>::variable(x, k);
                let c = Dual::<5>::constant;
                let model = IMRPhenomT::new(
                    v(s.m1, 0),
                    v(s.m2, 1),
                    v(s.chi1, 2),
                    v(s.chi2, 3),
                    &settings(s),
                )
                .unwrap();
                let (d, i, p) = (c(DISTANCE_MPC), c(INCLINATION), c(PHI_REF));
                black_box(&times)
                    .iter()
                    .map(|&t| model.polarizations(v(t, 4), d, i, p))
                    .collect::<Vec<_>>()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, waveform);
criterion_main!(benches);
