//! The conjugate-gradient set-up of C⁻¹ (long segments) against Levinson–Durbin on the aLIGO
//! design covariance with the 20 Hz cut-off ramp, and its failure modes.

use tdpe_noise::acf::{Acf, GriddedSpectrum};
use tdpe_noise::pcg::{first_column_pcg, first_column_pcg_acf, PcgOptions};
use tdpe_noise::simulate::simulate_frequency_domain_seeded;
use tdpe_noise::toeplitz::{levinson_durbin, log_det_bracketed, Setup, ToeplitzOptions};
use tdpe_noise::{AnalysisBand, NoiseError, Psd, ToeplitzInverse};

fn design(fs: f64, n: usize) -> (GriddedSpectrum, Acf) {
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let spec = GriddedSpectrum::from_psd(&psd, &AnalysisBand::default(), fs, n).unwrap();
    let acf = spec.acf();
    (spec, acf)
}

fn rel_err(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum();
    let den: f64 = b.iter().map(|y| y * y).sum();
    (num / den).sqrt()
}

/// CG forced on (levinson_max_len = 0).
fn cg_only() -> ToeplitzOptions {
    ToeplitzOptions {
        levinson_max_len: 0,
        ..ToeplitzOptions::default()
    }
}

#[test]
fn pcg_agrees_with_levinson_on_the_design_covariance() {
    let (fs, n) = (2048.0, 8192);
    let (spec, acf) = design(fs, n);
    let rho = acf.lags(n).unwrap();
    let levinson = ToeplitzInverse::from_acf(&acf, n).unwrap();
    assert_eq!(levinson.setup(), Setup::Levinson);
    let exact_log_det = levinson.log_det();
    let noise: Vec<Vec<f64>> = (0..2)
        .map(|seed| simulate_frequency_domain_seeded(&spec, n, seed).unwrap())
        .collect();
    // Both preconditioners: the inverse symbol (from the ACF) and T. Chan's (lags only).
    let by_acf = ToeplitzInverse::from_acf_with(&acf, n, &cg_only()).unwrap();
    let by_lags = ToeplitzInverse::from_first_column_with(rho, &cg_only()).unwrap();
    for (label, cg) in [("inverse symbol", by_acf), ("T. Chan", by_lags)] {
        let Setup::ConjugateGradients {
            iterations,
            relative_residual,
            levinson_order,
        } = cg.setup()
        else {
            panic!("{label}: expected the conjugate-gradient set-up");
        };
        let e_col = rel_err(cg.first_column(), levinson.first_column());
        let e_apply = noise
            .iter()
            .map(|v| rel_err(&cg.apply(v).unwrap(), &levinson.apply(v).unwrap()))
            .fold(0.0, f64::max);
        let d_log_det = (cg.log_det() - exact_log_det).abs();
        println!(
            "{label}: {iterations} iterations, residual {relative_residual:.1e}; first column \
             {e_col:.1e}, C⁻¹v {e_apply:.1e}; log det truncated at order {levinson_order}: \
             |Δ| = {d_log_det:.1e} (bound {:.1e}, log det {exact_log_det:.6e})",
            cg.log_det_error_bound()
        );
        assert!(relative_residual <= 1e-11);
        assert!(e_col <= 1e-10, "{label}: first column {e_col:e}");
        assert!(e_apply <= 1e-10, "{label}: C⁻¹v {e_apply:e}");
        // The bound covers the truncation; both recursions also carry ~1e-12 relative rounding.
        assert!(cg.log_det_error_bound() <= 1e-6);
        assert!(
            d_log_det <= 1e-6 + 1e-12 * exact_log_det.abs(),
            "{d_log_det:e}"
        );
        assert!(levinson_order < n - 1, "the recursion should stop early");
    }
}

#[test]
fn pcg_solves_a_long_system() {
    // 16 s at 4096 Hz: Levinson would take seconds; check rows of C x = e₀ directly.
    let (fs, n) = (4096.0, 65536);
    let (_, acf) = design(fs, n);
    let rho = acf.lags(n).unwrap();
    let solution = first_column_pcg_acf(&acf, n, &PcgOptions::default()).unwrap();
    let x = &solution.first_column;
    let x_norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    for i in [0, 1, 57, 4096, n / 2, n - 2, n - 1] {
        let row: f64 = (0..n).map(|j| rho[i.abs_diff(j)] * x[j]).sum();
        let target = if i == 0 { 1.0 } else { 0.0 };
        // ‖Cx − e₀‖∞ against the scale ρ_0‖x‖ of the products summed.
        let err = (row - target).abs() / (rho[0] * x_norm);
        assert!(err <= 1e-14, "row {i}: {err:e}");
    }
    println!(
        "N = {n}: {} iterations, residual {:.1e}, backward error {:.1e}",
        solution.iterations, solution.relative_residual, solution.backward_error
    );
    assert!(solution.iterations <= 100);
}

#[test]
fn pcg_reports_non_convergence_and_bad_input() {
    let (_, acf) = design(2048.0, 4096);
    let rho = acf.lags(4096).unwrap();
    let few = PcgOptions {
        tolerance: 1e-12,
        max_iterations: 3,
    };
    for result in [
        first_column_pcg(rho, &few),
        first_column_pcg_acf(&acf, 4096, &few),
    ] {
        match result {
            Err(NoiseError::NotConverged {
                iterations,
                residual,
                tolerance,
            }) => {
                assert_eq!(iterations, 3);
                assert!(residual > tolerance && residual.is_finite());
            }
            other => panic!("expected NotConverged, got {other:?}"),
        }
    }
    let err = ToeplitzInverse::from_acf_with(
        &acf,
        4096,
        &ToeplitzOptions {
            pcg: few,
            ..cg_only()
        },
    )
    .unwrap_err();
    assert!(err.to_string().contains("did not converge"), "{err}");
    // Tolerance outside (0, 1), an indefinite matrix, non-finite lags.
    let bad_tolerance = PcgOptions {
        tolerance: 0.0,
        ..PcgOptions::default()
    };
    assert!(matches!(
        first_column_pcg(rho, &bad_tolerance),
        Err(NoiseError::InvalidParameter { .. })
    ));
    let indefinite: Vec<f64> = (0..64).map(|k| if k == 1 { 0.9 } else { 0.0 }).collect();
    assert!(matches!(
        first_column_pcg(
            &[&[1.0][..], &indefinite[1..]].concat(),
            &PcgOptions::default()
        ),
        Err(NoiseError::NotPositiveDefinite { .. })
    ));
    assert!(first_column_pcg(&[1.0, f64::NAN, 0.0], &PcgOptions::default()).is_err());
}

#[test]
fn log_det_bracket_is_exact_for_a_first_order_process() {
    // KMS matrix ρ_k = r^k: E_k = 1 − r² for k ≥ 1, so the bracket closes at order 1.
    let (n, r) = (1000usize, 0.6f64);
    let rho: Vec<f64> = (0..n).map(|k| r.powi(k as i32)).collect();
    let x0 = levinson_durbin(&rho).unwrap().first_column[0];
    let ld = log_det_bracketed(&rho, x0, 1e-9).unwrap();
    let expect = (n - 1) as f64 * (1.0 - r * r).ln();
    assert!(
        (ld.value - expect).abs() <= 1e-10,
        "{} vs {expect}",
        ld.value
    );
    assert!(ld.levinson_order <= 1 && ld.error_bound <= 1e-9);
    assert!(log_det_bracketed(&rho, -1.0, 1e-9).is_err());
}
