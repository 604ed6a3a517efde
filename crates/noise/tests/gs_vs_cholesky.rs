//! Gohberg–Semencul against a dense Cholesky solve on the aLIGO design covariance.

use std::time::Instant;
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{AnalysisBand, DenseToeplitzCholesky, Psd, ToeplitzInverse};

/// A smooth chirp-like signal: frequency sweeping 25 → 250 Hz, amplitude `amp`, with a
/// Planck-tapered envelope that vanishes in the first and last `edge` seconds.
fn chirp(n: usize, fs: f64, amp: f64, edge: f64) -> Vec<f64> {
    let t_len = n as f64 / fs;
    (0..n)
        .map(|i| {
            let t = i as f64 / fs;
            let u = t / t_len;
            let f0 = 25.0;
            let f1 = 250.0;
            let phase = 2.0 * std::f64::consts::PI * (f0 * t + 0.5 * (f1 - f0) * u * u * t_len);
            let env = tdpe_noise::band::planck_ramp(t, edge, edge + 0.3)
                * tdpe_noise::band::planck_ramp(t_len - t, edge, edge + 0.3);
            amp * env * (1.0 + u) * phase.cos()
        })
        .collect()
}

fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).powi(2))
        .sum::<f64>()
        .sqrt();
    let den: f64 = b.iter().map(|y| y * y).sum::<f64>().sqrt();
    num / den
}

fn setup(n: usize, fs: f64) -> (Vec<f64>, GriddedSpectrum) {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), fs, n).unwrap();
    let acf = spec.acf();
    (acf.lags(n).unwrap().to_vec(), spec)
}

#[test]
fn gs_equals_cholesky_n1024() {
    let (n, fs) = (1024, 2048.0);
    let (rho, spec) = setup(n, fs);
    let gs = ToeplitzInverse::from_first_column(&rho).unwrap();
    let ch = DenseToeplitzCholesky::from_first_column(&rho).unwrap();
    let v = simulate_frequency_domain_seeded(&spec, n, 1).unwrap();
    let e = rel_err(&gs.apply(&v).unwrap(), &ch.solve(&v).unwrap());
    println!("N = 1024: relative error of C⁻¹v (GS vs Cholesky) = {e:.3e}");
    assert!(e < 1e-10);
    assert!((gs.log_det() - ch.log_det()).abs() < 1e-8 * ch.log_det().abs());
}

#[test]
fn gs_equals_cholesky_n8192() {
    let (n, fs) = (8192, 2048.0);
    let (rho, spec) = setup(n, fs);
    let t0 = Instant::now();
    let gs = ToeplitzInverse::from_first_column(&rho).unwrap();
    let t_lev = t0.elapsed();
    let t0 = Instant::now();
    let ch = DenseToeplitzCholesky::from_first_column(&rho).unwrap();
    let t_chol = t0.elapsed();
    let noise = simulate_frequency_domain_seeded(&spec, n, 7).unwrap();
    let signal = chirp(n, fs, 1e-21, 0.5);
    let mut worst = 0.0f64;
    for v in [&noise, &signal] {
        let a = gs.apply(v).unwrap();
        let b = ch.solve(v).unwrap();
        worst = worst.max(rel_err(&a, &b));
    }
    let ld = (gs.log_det() - ch.log_det()).abs();
    println!(
        "N = 8192: Levinson {t_lev:?}, Cholesky {t_chol:?}; max relative error of C⁻¹v = {worst:.3e}; \
         |Δ log det| = {ld:.3e} (log det = {:.6e})",
        ch.log_det()
    );
    assert!(worst <= 1e-8, "GS vs Cholesky relative error {worst}");
    assert!(ld <= 1e-6 * ch.log_det().abs());
}
