//! Set-up of C⁻¹ and one Gohberg–Semencul apply C⁻¹v on the aLIGO design covariance (20 Hz
//! cut-off ramp) at N = 8192, 16384 (2048/4096 Hz × 4 s), 32768 (8 s at 4096 Hz) and 524288
//! (128 s at 4096 Hz):
//!
//! - `levinson_setup/N`: Levinson–Durbin (exact log det), N ≤ 16384;
//! - `pcg_setup/N`: conjugate gradients with the inverse-symbol preconditioner plus the
//!   truncated Levinson recursion for log det (the default above N = 16384), from the ACF;
//! - `gs_apply/N`: one C⁻¹v.
//!
//! The O(N²) Levinson set-up at N = 524288 takes minutes; set TDPE_BENCH_BIG_LEVINSON=1 to
//! time it once.
//!
//!     cargo bench -p tdpe-noise --bench toeplitz

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};
use std::time::Instant;
use tdpe_noise::acf::{Acf, GriddedSpectrum};
use tdpe_noise::toeplitz::{levinson_durbin, ToeplitzOptions};
use tdpe_noise::{AnalysisBand, Psd, ToeplitzInverse};

fn design_acf(n: usize, fs: f64) -> Acf {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), fs, n).unwrap();
    spec.acf()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("toeplitz");
    group.sample_size(10);
    let cg = ToeplitzOptions {
        levinson_max_len: 0,
        ..ToeplitzOptions::default()
    };
    for &(n, fs) in &[
        (8192usize, 2048.0),
        (16384, 4096.0),
        (32768, 4096.0),
        (524_288, 4096.0),
    ] {
        let acf = design_acf(n, fs);
        let rho = acf.lags(n).unwrap().to_vec();
        if n <= 16384 {
            group.bench_with_input(BenchmarkId::new("levinson_setup", n), &rho, |b, rho| {
                b.iter(|| ToeplitzInverse::from_first_column(black_box(rho)).unwrap())
            });
        }
        group.bench_with_input(BenchmarkId::new("pcg_setup", n), &acf, |b, acf| {
            b.iter(|| ToeplitzInverse::from_acf_with(black_box(acf), n, &cg).unwrap())
        });
        if n > 16384 && std::env::var_os("TDPE_BENCH_BIG_LEVINSON").is_some() {
            let t0 = Instant::now();
            levinson_durbin(&rho).unwrap();
            eprintln!(
                "levinson_setup/{n}: {:.1} s (one run)",
                t0.elapsed().as_secs_f64()
            );
        }
        let inv = ToeplitzInverse::from_acf(&acf, n).unwrap();
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
