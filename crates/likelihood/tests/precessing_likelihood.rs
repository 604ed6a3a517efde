//! The likelihood of a precessing binary (docs/precession.md §12) in noise-free data of a
//! precessing injection: the exact one (the signal model's precessing strain on every sample)
//! and relative binning of the co-precessing terms against it.

mod gw150914_like;

use gw150914_like::{assert_reproduces, noise_free_precessing, Draws};
use tdpe_likelihood::{BbhExactLikelihood, BbhRelativeBinning, RelativeBinningOptions};
use tdpe_phenomt::Mode;
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, SpinModel};

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
    noise_free_precessing(&truth())
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

/// The exact likelihood's conditional 1σ widths at the truth (ln L falls by ½ a width's step
/// alone), in the order of the precessing parameters.
const CONDITIONAL_SIGMA: [f64; 15] = [
    4.1e-3, 1.0e-2, 3.0e-3, 3.2e-3, 1.8e-3, 3.7e-3, 0.18, 0.15, 34.0, 0.048, 0.020, 0.019, 5.5e-5,
    0.021, 6.5e-3,
];

/// Draws around the truth at `width` conditional widths, within an ln L deficit `depth`.
fn draws(width: f64, depth: f64) -> Draws<'static> {
    Draws {
        parameters: SpinModel::Precessing.parameters(),
        sigma: &CONDITIONAL_SIGMA,
        width,
        depth,
    }
}

/// Relative binning around the truth, its design set the library's (conditional widths).
fn relative_binning(exact: &BbhExactLikelihood) -> BbhRelativeBinning {
    BbhRelativeBinning::new(exact, truth(), &RelativeBinningOptions::default()).unwrap()
}

#[test]
fn relative_binning_of_the_coprecessing_terms_reproduces_the_exact_likelihood() {
    let exact = noise_free();
    let truth = truth();
    let clock = std::time::Instant::now();
    let rb = relative_binning(&exact);
    let profile = rb.setup_profile();
    println!(
        "set-up {:.1} s ({} design waveforms of {} screened)",
        clock.elapsed().as_secs_f64(),
        profile.design_waveforms,
        profile.candidates_screened
    );
    let per_term: Vec<Vec<usize>> = rb.node_times()[0]
        .iter()
        .map(|terms| terms.iter().map(|t| t.len()).collect())
        .collect();
    println!(
        "nodes per detector {:?}, per term {per_term:?}",
        rb.node_counts()
    );
    assert!(per_term.iter().all(|terms| terms.len() == 5));
    let target = RelativeBinningOptions::default().target;
    assert!(rb.refinement_errors().iter().all(|&e| e <= target));

    let at_truth = exact.log_likelihood_ratio(&truth).unwrap();
    let rb_truth = rb.log_likelihood_ratio(&truth).unwrap();
    println!("at the fiducial: exact {at_truth}, RB {rb_truth}");
    assert!((rb_truth - at_truth).abs() <= 1e-6);
    for (label, width, depth, tolerance, seed) in [
        ("posterior", 1.0, 10.0, 5e-4, 2),
        ("wide", 1.5, 25.0, 1e-3, 3),
    ] {
        let points = draws(width, depth).around(&exact, &truth, at_truth, 30, seed);
        assert_reproduces(&rb, &points, label, tolerance);
    }
}

/// The gradient of the precessing relative binning against central differences of its value
/// (the frame's start and step counts are fixed, so the value is smooth).
#[test]
fn relative_binning_gradient_of_a_precessing_binary_matches_differences() {
    let exact = noise_free();
    let rb = relative_binning(&exact);
    let at_truth = exact.log_likelihood_ratio(&truth()).unwrap();
    let (p, _) = draws(1.0, 10.0).around(&exact, &truth(), at_truth, 1, 4)[0];
    let mut gradient: ParameterVector = [0.0; tdpe_signal::NUM_PARAMETERS];
    let value = rb
        .log_likelihood_ratio_and_gradient(&p, &mut gradient)
        .unwrap();
    // The gradient's terms come from dual numbers: the same value up to rounding.
    let plain = rb.log_likelihood_ratio(&p).unwrap();
    assert!(
        (value - plain).abs() <= 1e-12 * plain.abs(),
        "{value} {plain}"
    );
    for (&parameter, sigma) in SpinModel::Precessing
        .parameters()
        .iter()
        .zip(CONDITIONAL_SIGMA)
    {
        // Where the aligned components or η move, steps of at least 1e-3: smaller ones meet
        // the rounding jitter of THM's −150 M slope (docs/precession.md §12.2).
        let moves_aligned_spins = matches!(
            parameter,
            Parameter::MassRatio
                | Parameter::A1
                | Parameter::A2
                | Parameter::Tilt1
                | Parameter::Tilt2
        );
        let h = if moves_aligned_spins {
            (0.2 * sigma).max(1e-3)
        } else {
            0.1 * sigma
        };
        let at = |c: f64| {
            let mut v = p.to_array();
            v[parameter] += c * h;
            rb.log_likelihood_ratio(&BbhParameters::from_array(v))
                .unwrap()
        };
        let fd = (at(-2.0) - 8.0 * at(-1.0) + 8.0 * at(1.0) - at(2.0)) / (12.0 * h);
        // In units of the conditional width: the change of ln L over one σ.
        let (ours, theirs) = (gradient[parameter] * sigma, fd * sigma);
        println!("{}: {ours:.6e} against {theirs:.6e}", parameter.name());
        assert!(
            (ours - theirs).abs() <= 1e-4 * (1.0 + theirs.abs()),
            "{}",
            parameter.name()
        );
    }
}

#[test]
fn what_precessing_binaries_do_not_support_is_an_error() {
    let exact = noise_free();
    // A trial arriving later than the frame serves.
    let rb = relative_binning(&exact);
    let late = BbhParameters {
        geocent_time: truth().geocent_time + 0.3,
        ..truth()
    };
    let error = rb.log_likelihood_ratio(&late).unwrap_err().to_string();
    assert!(
        error.contains("the latest the relative binning's precessing frame serves"),
        "{error}"
    );
    let model = exact.model().clone();
    let error = model.with_modes(&[Mode::L2M2]).unwrap_err().to_string();
    assert!(
        error.contains("mode array for a precessing binary"),
        "{error}"
    );
}
