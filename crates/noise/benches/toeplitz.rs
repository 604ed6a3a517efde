//! Levinson–Durbin set-up and one Gohberg–Semencul apply C⁻¹v on the aLIGO design covariance
//! (20 Hz cut-off ramp) at N = 8192, 16384 (2048/4096 Hz × 4 s) and 524288 (128 s at 4096 Hz).
//!
//! The O(N²) Levinson set-up at N = 524288 takes minutes, so criterion benchmarks only the
//! apply there; set TDPE_BENCH_BIG_LEVINSON=1 to time that set-up once.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Instant;
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::toeplitz::levinson_durbin;
use tdpe_noise::{LowFrequencyCutoff, Psd, ToeplitzInverse};

fn first_column(n: usize, fs: f64) -> Vec<f64> {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = GriddedSpectrum::from_psd(&psd, &LowFrequencyCutoff::default(), fs, n).unwrap();
    spec.acf().lags(n).unwrap().to_vec()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("toeplitz");
    group.sample_size(10);
    for &(n, fs) in &[(8192usize, 2048.0), (16384, 4096.0), (524_288, 4096.0)] {
        let rho = first_column(n, fs);
        if n <= 16384 {
            group.bench_with_input(BenchmarkId::new("levinson_setup", n), &rho, |b, rho| {
                b.iter(|| ToeplitzInverse::from_first_column(black_box(rho)).unwrap())
            });
        }
        let inv = if n <= 16384 || std::env::var_os("TDPE_BENCH_BIG_LEVINSON").is_some() {
            let t0 = Instant::now();
            let lev = levinson_durbin(&rho).unwrap();
            if n > 16384 {
                eprintln!(
                    "levinson_setup/{n}: {:.1} s (one run)",
                    t0.elapsed().as_secs_f64()
                );
            }
            ToeplitzInverse::from_levinson(lev).unwrap()
        } else {
            // Any SPD Toeplitz operator of this size has the same apply cost; use the
            // first column of a KMS matrix (known closed-form inverse) to skip the O(N²) set-up.
            let r: f64 = 0.5;
            let x: Vec<f64> = (0..n)
                .map(|k| match k {
                    0 => 1.0 / (1.0 - r * r),
                    1 => -r / (1.0 - r * r),
                    _ => 0.0,
                })
                .collect();
            ToeplitzInverse::from_levinson(tdpe_noise::toeplitz::Levinson {
                first_column: x,
                log_det: 0.0,
            })
            .unwrap()
        };
        let v: Vec<f64> = (0..n).map(|i| ((i * 7919) % 1013) as f64 - 506.0).collect();
        let mut out = vec![0.0; n];
        let mut ws = inv.workspace();
        group.bench_with_input(BenchmarkId::new("gs_apply", n), &v, |b, v| {
            b.iter(|| inv.apply_into(black_box(v), &mut out, &mut ws).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
