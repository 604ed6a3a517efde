//! The exact likelihood of a precessing binary (docs/precession.md §12): the signal model's
//! precessing strain on every sample, in noise-free data of a precessing injection.

use std::sync::Arc;

use tdpe_detector::{Detector, GpsTime};
use tdpe_likelihood::{
    BbhExactLikelihood, BbhRelativeBinning, DetectorInput, ExactLikelihood, RelativeBinningOptions,
    SampleGrid,
};
use tdpe_noise::acf::GriddedSpectrum;
use tdpe_noise::{AnalysisBand, Psd, ToeplitzInverse};
use tdpe_phenomt::Mode;
use tdpe_signal::{BbhParameters, SignalModel, SpinModel};

const FS: f64 = 2048.0;
const DURATION: f64 = 4.0;
const F_LOW: f64 = 20.0;

/// The GW150914-like masses with large in-plane spins (χ_p ≈ 0.6), seen at θ_jn = 1.
fn truth() -> BbhParameters {
    BbhParameters {
        chi_1: 0.0,
        chi_2: 0.0,
        a_1: 0.7,
        a_2: 0.5,
        tilt_1: 1.2,
        tilt_2: 2.1,
        phi_12: 0.8,
        phi_jl: 0.3,
        theta_jn: 1.0,
        luminosity_distance: 900.0,
        ..BbhParameters::gw150914_like()
    }
}

/// Noise-free data d = h(truth) in H1 and L1 (design PSD) and its exact likelihood.
fn noise_free() -> BbhExactLikelihood {
    let model = SignalModel::new(
        Detector::network(&["H1", "L1"]).unwrap(),
        GpsTime::new(1126259462, 0),
        F_LOW,
        1.0 / FS,
    )
    .unwrap()
    .precessing();
    let grid = SampleGrid::new(truth().geocent_time + 2.0 - DURATION, FS, DURATION).unwrap();
    let psd = Psd::builtin("aLIGOZeroDetHighPower").unwrap();
    let band = AnalysisBand {
        f_low: F_LOW,
        ..AnalysisBand::default()
    };
    let spectrum = GriddedSpectrum::from_psd(&psd, &band, FS, grid.len).unwrap();
    let noise = Arc::new(ToeplitzInverse::from_acf(&spectrum.acf(), grid.len).unwrap());
    let signal = model
        .strain(&truth(), grid.start, grid.dt, grid.len)
        .unwrap();
    let inputs = ["H1", "L1"]
        .iter()
        .zip(signal)
        .map(|(name, data)| DetectorInput {
            name: name.to_string(),
            data,
            noise: noise.clone(),
        })
        .collect();
    BbhExactLikelihood::new(model, ExactLikelihood::new(grid, inputs).unwrap()).unwrap()
}

#[test]
fn the_precessing_likelihood_peaks_at_the_truth() {
    let exact = noise_free();
    assert_eq!(exact.model().spin_model(), SpinModel::Precessing);
    assert!(!exact.model().is_22_only());
    let truth = truth();
    // d = h: ln L = ⟨h|h⟩/2 = ρ²/2, each detector's ⟨d|h⟩ = ⟨h|h⟩.
    let terms = exact.detector_terms(&truth).unwrap();
    let snr2: f64 = terms.iter().map(|t| t.h_h).sum();
    for t in &terms {
        assert!((t.d_h - t.h_h).abs() <= 1e-10 * t.h_h, "{t:?}");
    }
    let at_truth = exact.log_likelihood_ratio(&truth).unwrap();
    println!("network SNR {:.2}, ln L(truth) {at_truth:.4}", snr2.sqrt());
    assert!(
        (at_truth - 0.5 * snr2).abs() <= 1e-9 * snr2,
        "{at_truth} {snr2}"
    );
    assert!((snr2.sqrt() - 26.47).abs() < 0.1, "{}", snr2.sqrt());
    // The template is the signal model's precessing strain.
    let grid = exact.likelihood().grid();
    assert_eq!(
        exact.templates(&truth).unwrap(),
        exact
            .model()
            .precessing_strain(&truth, grid.start, grid.dt, grid.len)
            .unwrap()
    );
    // Each precessing angle moves the signal: ln L falls by ½‖Δh‖² > 0 away from the truth.
    for moved in [
        BbhParameters {
            phi_jl: truth.phi_jl + 0.3,
            ..truth
        },
        BbhParameters {
            tilt_1: truth.tilt_1 + 0.1,
            ..truth
        },
        BbhParameters {
            phi_12: truth.phi_12 + 0.5,
            ..truth
        },
    ] {
        let l = exact.log_likelihood_ratio(&moved).unwrap();
        assert!(l < at_truth - 0.1, "{moved:?}: {l} against {at_truth}");
    }
}

#[test]
fn what_is_not_built_for_precessing_binaries_is_an_error() {
    let exact = noise_free();
    let error = BbhRelativeBinning::new(&exact, truth(), &RelativeBinningOptions::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("precessing binary is not built yet"),
        "{error}"
    );
    let model = exact.model().clone();
    let error = model.with_modes(&[Mode::L2M2]).unwrap_err().to_string();
    assert!(
        error.contains("mode array for a precessing binary"),
        "{error}"
    );
}
