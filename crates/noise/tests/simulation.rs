//! Simulated noise has the variance and PSD the model predicts; this also checks the ACF
//! normalisation ρ = ½·fs·irfft(S).

use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::{simulate_exact_seeded, simulate_frequency_domain_seeded};
use tdpe_noise::{welch_median, AnalysisBand, DenseToeplitzCholesky, Psd, WelchOptions};

#[test]
fn white_noise_variance_is_s0_fs_over_2() {
    // One-sided white PSD S0 at fs: σ² = S0·fs/2 (textbook normalisation, independent of ours).
    let fs = 1024.0;
    let s0 = 4e-46;
    let m = 1 << 20;
    let spec = GriddedSpectrum::from_values(fs, vec![s0; m / 2 + 1]).unwrap();
    let x = simulate_frequency_domain_seeded(&spec, m / 2, 3).unwrap();
    let var = x.iter().map(|v| v * v).sum::<f64>() / x.len() as f64;
    let expect = s0 * fs / 2.0;
    println!("white: var/expected = {}", var / expect);
    assert!((var / expect - 1.0).abs() < 0.01); // 2^19 samples: σ ≈ 0.2 %
    assert!((spec.acf().variance() / expect - 1.0).abs() < 1e-12);
}

#[test]
fn design_noise_variance_and_welch_psd() {
    let fs = 2048.0;
    let n = 1 << 19; // 256 s
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), fs, n).unwrap();
    let x = simulate_frequency_domain_seeded(&spec, n, 11).unwrap();
    let rho0 = spec.acf().variance();
    let var = x.iter().map(|v| v * v).sum::<f64>() / n as f64;
    println!("design: sample variance / ρ(0) = {}", var / rho0);
    // The variance is dominated by the < 16 Hz floor (~16 Hz × 256 s ≈ 4e3 dof).
    assert!((var / rho0 - 1.0).abs() < 0.06);

    // Welch, 4 s Hann segments, median average: recovers S above 30 Hz.
    let est = welch_median(&x, fs, &WelchOptions::hann(fs, 4.0)).unwrap();
    let mut ratios = Vec::new();
    for (f, p) in est.frequencies.iter().zip(&est.psd) {
        if (30.0..=1000.0).contains(f) {
            ratios.push(p / psd.value(*f).unwrap());
        }
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    println!(
        "Welch ({} segments): mean ratio estimate/true over 30–1000 Hz = {mean:.4}",
        est.n_segments
    );
    assert!((mean - 1.0).abs() < 0.03);
    // Without the median bias correction the ratio would be ≈ ln 2.
    let p = est.to_psd("welch").unwrap();
    assert!(p.f_min() > 0.0);
}

#[test]
fn exact_simulation_has_covariance_c() {
    // Small N: average x xᵀ over many seeded realisations and compare with C.
    let fs = 256.0;
    let n = 16;
    let m = 512;
    let values: Vec<f64> = (0..=m / 2)
        .map(|j| {
            let f = j as f64 * fs / m as f64;
            1e-2 / (1.0 + (f / 20.0).powi(2))
        })
        .collect();
    let spec = GriddedSpectrum::from_values(fs, values).unwrap();
    let rho = spec.acf().lags(n).unwrap().to_vec();
    let ch = DenseToeplitzCholesky::from_first_column(&rho).unwrap();
    let reps = 20_000;
    let mut c_exact = vec![0.0; n];
    let mut c_fd = vec![0.0; n];
    for r in 0..reps {
        let x = simulate_exact_seeded(&ch, r as u64);
        let y = simulate_frequency_domain_seeded(&spec, n, 1_000_000 + r as u64).unwrap();
        for k in 0..n {
            c_exact[k] += x[0] * x[k] / reps as f64;
            c_fd[k] += y[0] * y[k] / reps as f64;
        }
    }
    for k in 0..n {
        // Standard error of a product average ≈ ρ0·√2/√reps ≈ 1 % of ρ0.
        assert!((c_exact[k] - rho[k]).abs() < 0.05 * rho[0], "lag {k}");
        assert!((c_fd[k] - rho[k]).abs() < 0.05 * rho[0], "lag {k}");
    }
}
