//! Acceptance tests of the exact TD likelihood (issue 3).

mod common;

use common::{chirp, sample};
use std::sync::Arc;
use tdpe_likelihood::{DetectorInput, ExactLikelihood, LikelihoodError, SampleGrid};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::{AnalysisBand, DenseToeplitzCholesky, Psd, ToeplitzInverse};

const FS: f64 = 2048.0;
const N: usize = 8192;

fn spectrum(n: usize) -> GriddedSpectrum {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), FS, n).unwrap()
}

fn inverse(spec: &GriddedSpectrum, n: usize) -> Arc<ToeplitzInverse> {
    Arc::new(ToeplitzInverse::from_acf(&spec.acf(), n).unwrap())
}

/// Amplitude giving optimal SNR `snr` for the chirp on [t0, t0 + len].
fn amplitude_for_snr(inv: &ToeplitzInverse, t0: f64, len: f64, snr: f64) -> f64 {
    let h = sample(inv.len(), 1.0 / FS, 0.0, |t| chirp(t, t0, len, 1.0, 0.0));
    let hh: f64 = h
        .iter()
        .zip(inv.apply(&h).unwrap())
        .map(|(a, b)| a * b)
        .sum();
    snr / hh.sqrt()
}

#[test]
fn zero_noise_at_truth_is_exact() {
    let spec = spectrum(N);
    let inv = inverse(&spec, N);
    let amp = amplitude_for_snr(&inv, 1.0, 2.0, 25.0);
    let grid = SampleGrid::new(0.0, FS, 4.0).unwrap();
    let h1 = sample(N, grid.dt, 0.0, |t| chirp(t, 1.0, 2.0, amp, 0.3));
    let l1 = sample(N, grid.dt, 0.0, |t| chirp(t, 1.01, 2.0, 0.7 * amp, 2.0));
    let like = ExactLikelihood::new(
        grid,
        vec![
            DetectorInput {
                name: "H1".into(),
                data: h1.clone(),
                noise: inv.clone(),
            },
            DetectorInput {
                name: "L1".into(),
                data: l1.clone(),
                noise: inv.clone(),
            },
        ],
    )
    .unwrap();
    let terms = like.detector_terms(&[&h1, &l1]).unwrap();
    let mut half_hh = 0.0;
    for t in &terms {
        assert_eq!(t.d_h, t.h_h);
        assert!((t.matched_filter_snr / t.optimal_snr - 1.0).abs() < 1e-14);
        half_hh += 0.5 * t.h_h;
    }
    println!(
        "optimal SNRs: H1 {:.4}, L1 {:.4}",
        terms[0].optimal_snr, terms[1].optimal_snr
    );
    assert!((terms[0].optimal_snr / 25.0 - 1.0).abs() < 0.02);
    assert_eq!(like.log_likelihood_ratio(&[&h1, &l1]).unwrap(), half_hh);
    // −½⟨d−h|d−h⟩ = 0 exactly, so ln L is exactly the normalisation.
    let ln_2pi = (2.0 * std::f64::consts::PI).ln();
    let constants: f64 = (0..2)
        .map(|_| 0.0 - 0.5 * inv.log_det() - 0.5 * N as f64 * ln_2pi)
        .sum();
    assert_eq!(like.log_likelihood(&[&h1, &l1]).unwrap(), constants);
}

#[test]
fn gs_likelihood_matches_dense_cholesky_n8192() {
    let spec = spectrum(N);
    let inv = inverse(&spec, N);
    let amp = amplitude_for_snr(&inv, 1.0, 2.0, 20.0);
    let grid = SampleGrid::new(0.0, FS, 4.0).unwrap();
    let noise = simulate_frequency_domain_seeded(&spec, N, 2024).unwrap();
    let signal = sample(N, grid.dt, 0.0, |t| chirp(t, 1.0, 2.0, amp, 0.3));
    let data: Vec<f64> = noise.iter().zip(&signal).map(|(a, b)| a + b).collect();
    let template = sample(N, grid.dt, 0.0, |t| chirp(t, 1.0005, 2.0, 0.95 * amp, 0.5));
    let like = ExactLikelihood::new(
        grid,
        vec![DetectorInput {
            name: "H1".into(),
            data: data.clone(),
            noise: inv.clone(),
        }],
    )
    .unwrap();
    let ln_l_ratio = like.log_likelihood_ratio(&[&template]).unwrap();
    let ln_l = like.log_likelihood(&[&template]).unwrap();

    let rho = spec.acf().lags(N).unwrap().to_vec();
    let ch = DenseToeplitzCholesky::from_first_column(&rho).unwrap();
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let kh = ch.solve(&template).unwrap();
    let kd = ch.solve(&data).unwrap();
    let dense_ratio = dot(&data, &kh) - 0.5 * dot(&template, &kh);
    let dense_full = dense_ratio
        - 0.5 * dot(&data, &kd)
        - 0.5 * ch.log_det()
        - 0.5 * N as f64 * (2.0 * std::f64::consts::PI).ln();
    let e1 = (ln_l_ratio - dense_ratio).abs();
    let e2 = (ln_l - dense_full).abs();
    println!(
        "N = 8192: ln L ratio GS {ln_l_ratio:.10} vs Cholesky {dense_ratio:.10} (|Δ| = {e1:.3e}); \
         full ln L |Δ| = {e2:.3e} (ln L = {ln_l:.6e})"
    );
    assert!(e1 <= 1e-6);
    assert!(e2 <= 1e-6);
}

#[test]
fn common_time_shift_leaves_ln_l_unchanged() {
    // A long stationary noise stream n; the data of shift k are d⁽ᵏ⁾_i = d⁽⁰⁾_{i−k}, i.e.
    // noise and signal both delayed by k samples, and the template is delayed by the same k.
    // The signals live in [1.4, 2.6] s of the 4 s segment, far from the edges.
    let k_max = 600usize;
    let long = N + 2 * k_max;
    let noise = simulate_frequency_domain_seeded(&spectrum(long), long, 99).unwrap();
    let spec = spectrum(N);
    let inv = inverse(&spec, N);
    let amp = amplitude_for_snr(&inv, 1.4, 1.2, 30.0);
    let dt = 1.0 / FS;
    let grid = SampleGrid::new(0.0, FS, 4.0).unwrap();
    let mut values = Vec::new();
    for &k in &[-(k_max as i64), -123, 0, 1, 77, 512] {
        let shift = k as f64 * dt;
        let data: Vec<f64> = (0..N)
            .map(|i| {
                let t = grid.time(i) - shift;
                noise[(k_max as i64 + i as i64 - k) as usize] + chirp(t, 1.4, 1.2, amp, 0.1)
            })
            .collect();
        let template = sample(N, dt, -shift, |t| chirp(t, 1.4003, 1.2, 0.9 * amp, 0.4));
        let like = ExactLikelihood::new(
            grid,
            vec![DetectorInput {
                name: "H1".into(),
                data,
                noise: inv.clone(),
            }],
        )
        .unwrap();
        values.push(like.log_likelihood_ratio(&[&template]).unwrap());
    }
    let reference = values[2];
    let worst = values
        .iter()
        .map(|v| ((v - reference) / reference).abs())
        .fold(0.0, f64::max);
    println!("time shifts: ln L ratio = {values:?}; max relative change {worst:.3e}");
    assert!(
        worst <= 1e-8,
        "ln L changed by {worst} (relative) under a common shift"
    );
}

#[test]
fn td_and_fd_optimal_snr_agree() {
    // For a signal vanishing near the edges, hᵀC⁻¹h ≈ 4 Re Σ |h̃|²/S Δf over f ≥ 20 Hz
    // (docs/likelihood.md §1.6).
    use realfft::RealFftPlanner;
    let spec = spectrum(N);
    let inv = inverse(&spec, N);
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let h = sample(N, 1.0 / FS, 0.0, |t| chirp(t, 1.0, 2.0, 1e-21, 0.0));
    let td: f64 = h
        .iter()
        .zip(inv.apply(&h).unwrap())
        .map(|(a, b)| a * b)
        .sum();
    let r2c = RealFftPlanner::<f64>::new().plan_fft_forward(N);
    let mut buf = h.clone();
    let mut out = r2c.make_output_vec();
    r2c.process(&mut buf, &mut out).unwrap();
    let dt = 1.0 / FS;
    let df = FS / N as f64;
    let mut fd = 0.0;
    for (j, c) in out.iter().enumerate() {
        let f = j as f64 * df;
        if (20.0..FS / 2.0).contains(&f) {
            fd += 4.0 * c.norm_sqr() * dt * dt / psd.value(f).unwrap() * df;
        }
    }
    println!(
        "TD ⟨h|h⟩ = {td:.6e}, FD ⟨h|h⟩ = {fd:.6e}, ratio {:.5}",
        td / fd
    );
    assert!((td / fd - 1.0).abs() < 0.02);
}

#[test]
fn bad_input_gives_clear_errors() {
    let n = 512;
    let spec = spectrum(n);
    let inv = inverse(&spec, n);
    let grid = SampleGrid::new(0.0, FS, n as f64 / FS).unwrap();
    let mut data = vec![0.0; n];
    data[17] = f64::NAN;
    let err = ExactLikelihood::new(
        grid,
        vec![DetectorInput {
            name: "H1".into(),
            data: data.clone(),
            noise: inv.clone(),
        }],
    )
    .unwrap_err();
    assert!(matches!(err, LikelihoodError::NonFinite { index: 17, .. }));
    assert_eq!(
        err.to_string(),
        "data for detector 'H1' contains a non-finite value (NaN) at sample 17"
    );
    data[17] = 0.0;
    let like = ExactLikelihood::new(
        grid,
        vec![DetectorInput {
            name: "H1".into(),
            data: data.clone(),
            noise: inv.clone(),
        }],
    )
    .unwrap();
    let mut h = vec![0.0; n];
    h[3] = f64::INFINITY;
    assert!(like
        .log_likelihood_ratio(&[&h])
        .unwrap_err()
        .to_string()
        .contains("template for detector 'H1'"));
    assert!(like.log_likelihood_ratio(&[&h[..10]]).is_err());
    assert!(like.log_likelihood_ratio(&[]).is_err());
    // Wrong data length, duplicate detector, bad grid.
    assert!(ExactLikelihood::new(
        grid,
        vec![DetectorInput {
            name: "H1".into(),
            data: vec![0.0; n - 1],
            noise: inv.clone()
        }],
    )
    .is_err());
    assert!(matches!(
        ExactLikelihood::new(
            grid,
            vec![
                DetectorInput {
                    name: "H1".into(),
                    data: data.clone(),
                    noise: inv.clone()
                },
                DetectorInput {
                    name: "H1".into(),
                    data: data.clone(),
                    noise: inv.clone()
                },
            ],
        ),
        Err(LikelihoodError::DuplicateDetector(_))
    ));
    assert!(SampleGrid::new(0.0, 2048.0, 0.0001).is_err());
    assert!(SampleGrid::new(0.0, -1.0, 4.0).is_err());
    // A PSD that does not cover the band (fs = 16384 needs 8192 Hz) is reported by from_psds.
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let g = SampleGrid::new(0.0, 16384.0, 0.25).unwrap();
    let err = ExactLikelihood::from_psds(
        g,
        vec![(
            "H1".to_string(),
            vec![0.0; g.len],
            &psd,
            &AnalysisBand::default(),
        )],
    )
    .unwrap_err();
    println!("{err}");
    assert!(err.to_string().contains("covers [5, 4096] Hz"));
}

#[test]
fn from_psds_builds_a_network() {
    let n = 2048;
    let grid = SampleGrid::new(-1.0, FS, 1.0).unwrap();
    let h1 = Psd::default_for_detector("H1").unwrap();
    let v1 = Psd::default_for_detector("V1").unwrap();
    let band = AnalysisBand::default();
    let network = |v1_band: &AnalysisBand| {
        ExactLikelihood::from_psds(
            grid,
            vec![
                ("H1".into(), vec![0.0; n], &h1, &band),
                ("V1".into(), vec![0.0; n], &v1, v1_band),
            ],
        )
        .unwrap()
    };
    let like = network(&band);
    assert_eq!(like.detector_names(), vec!["H1", "V1"]);
    let h = sample(n, grid.dt, -1.0, |t| chirp(t, -0.8, 0.6, 1e-21, 0.0));
    let terms = like.detector_terms(&[&h, &h]).unwrap();
    // Zero data: ⟨d|h⟩ = 0, ln L ratio = −½⟨h|h⟩; Virgo is less sensitive.
    assert_eq!(terms[0].d_h, 0.0);
    assert!(terms[1].optimal_snr < terms[0].optimal_snr);
    let r = like.log_likelihood_ratio(&[&h, &h]).unwrap();
    assert!((r + 0.5 * (terms[0].h_h + terms[1].h_h)).abs() < 1e-12 * r.abs());
    // Each detector has its own band: raising V1's f_min to 150 Hz drops much of the chirp from V1's
    // ⟨h|h⟩ alone.
    let narrower = AnalysisBand {
        f_low: 150.0,
        ..band
    };
    let terms_narrow = network(&narrower).detector_terms(&[&h, &h]).unwrap();
    assert_eq!(terms_narrow[0].h_h, terms[0].h_h);
    assert!(
        terms_narrow[1].h_h < 0.9 * terms[1].h_h,
        "{terms_narrow:?} {terms:?}"
    );
}

#[test]
fn long_segment_conjugate_gradient_set_up_matches_levinson() {
    // 16 s at 2048 Hz (N = 32768) is above the Levinson size, so `from_psds` takes the
    // conjugate-gradient path; the likelihood must not notice.
    use tdpe_noise::toeplitz::{Setup, ToeplitzOptions};
    let n = 32768;
    let grid = SampleGrid::new(0.0, FS, 16.0).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = spectrum(n);
    let acf = spec.acf();
    let levinson = ToeplitzOptions {
        levinson_max_len: usize::MAX,
        ..ToeplitzOptions::default()
    };
    let reference = Arc::new(ToeplitzInverse::from_acf_with(&acf, n, &levinson).unwrap());
    let amp = amplitude_for_snr(&reference, 6.0, 8.0, 20.0);
    let h = sample(n, grid.dt, 0.0, |t| chirp(t, 6.0, 8.0, amp, 0.3));
    let noise = simulate_frequency_domain_seeded(&spec, n, 3).unwrap();
    let data: Vec<f64> = h.iter().zip(&noise).map(|(a, b)| a + b).collect();
    let cg = ExactLikelihood::from_psds(
        grid,
        vec![("H1".into(), data.clone(), &psd, &AnalysisBand::default())],
    )
    .unwrap();
    assert!(matches!(
        cg.noise(0).setup(),
        Setup::ConjugateGradients { .. }
    ));
    let exact = ExactLikelihood::new(
        grid,
        vec![DetectorInput {
            name: "H1".into(),
            data,
            noise: reference,
        }],
    )
    .unwrap();
    for template in [
        &h,
        &sample(n, grid.dt, 0.0, |t| chirp(t, 6.002, 8.0, amp, 1.0)),
    ] {
        let (a, b) = (
            cg.log_likelihood_ratio(&[template]).unwrap(),
            exact.log_likelihood_ratio(&[template]).unwrap(),
        );
        assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} vs {b}");
    }
    let (a, b) = (cg.noise_log_likelihood(), exact.noise_log_likelihood());
    println!(
        "noise ln L: CG {a:.6}, Levinson {b:.6} (bound {:.1e})",
        cg.noise(0).log_det_error_bound()
    );
    assert!((a - b).abs() <= 1e-6 + 1e-12 * b.abs(), "{a} vs {b}");
}
