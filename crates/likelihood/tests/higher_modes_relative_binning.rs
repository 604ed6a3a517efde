//! Relative binning with IMRPhenomTHM's higher modes (issue 22; docs/likelihood.md §3.12): each
//! mode on its own nodes, the summary data stacked over the modes, against the exact
//! likelihood of all modes on an unequal-mass, inclined injection where they matter.

mod gw150914_like;

use gw150914_like::{
    aligned, assert_reproduces, conditional_sigmas, draw_points_around, noisy_injection_timed,
    Injection, ALIGNED,
};
use tdpe_likelihood::{BbhExactLikelihood, BbhRelativeBinning, RelativeBinningOptions};
use tdpe_signal::{BbhParameters, ParameterVector};

fn injection() -> Injection {
    Injection::asymmetric_with_higher_modes(2048.0, 8.0)
}

fn exact() -> BbhExactLikelihood {
    noisy_injection_timed(&injection()).0
}

/// Widths of the draws: the Fisher matrix's conditional widths, which are narrower than the
/// posterior's marginal ones, widened so that the draws reach ln L deficits of ~10.
fn sigmas(exact: &BbhExactLikelihood, p: &BbhParameters) -> [f64; 11] {
    let steps = [
        1e-4, 1e-4, 1e-4, 1e-4, 1.0, 1e-4, 1e-4, 1e-4, 1e-6, 1e-5, 1e-5,
    ];
    conditional_sigmas(exact, p, &steps).map(|s| 3.0 * s)
}

#[test]
fn relative_binning_of_the_modes_reproduces_the_exact_likelihood() {
    let exact = exact();
    let truth = injection().truth;
    let rb = BbhRelativeBinning::new(&exact, truth, &RelativeBinningOptions::default()).unwrap();
    let nodes = rb.node_counts();
    let per_mode: Vec<Vec<usize>> = rb.node_times()[0]
        .iter()
        .map(|modes| modes.iter().map(|t| t.len()).collect())
        .collect();
    println!("nodes per detector {nodes:?}, per mode {per_mode:?}");
    assert!(per_mode.iter().all(|modes| modes.len() == 5));
    // Each mode is refined to the target on its own, and the error reported is the largest.
    let target = RelativeBinningOptions::default().target;
    assert!(rb.refinement_errors().iter().all(|&e| e <= target));

    let at_truth = exact.log_likelihood_ratio(&truth).unwrap();
    let rb_truth = rb.log_likelihood_ratio(&truth).unwrap();
    println!("at the fiducial: exact {at_truth}, RB {rb_truth}");
    assert!((rb_truth - at_truth).abs() <= 1e-6);

    let sigma = sigmas(&exact, &truth);
    for (label, width, depth, tolerance, seed) in [
        ("posterior", 1.0, 10.0, 5e-4, 21),
        ("wide", 2.0, 40.0, 2e-3, 22),
    ] {
        let points = draw_points_around(&exact, &truth, &sigma, at_truth, width, depth, 40, seed);
        assert_reproduces(&rb, &points, label, tolerance);
    }
}

/// The gradient of every parameter against central differences of the same likelihood, and
/// the value path equals the gradient path's value.
#[test]
fn the_gradient_of_the_modes_matches_finite_differences() {
    let exact = exact();
    let truth = injection().truth;
    let rb = BbhRelativeBinning::new(&exact, truth, &RelativeBinningOptions::default()).unwrap();
    let at_truth = exact.log_likelihood_ratio(&truth).unwrap();
    let sigma = sigmas(&exact, &truth);
    for (p, _) in draw_points_around(&exact, &truth, &sigma, at_truth, 1.0, 10.0, 3, 23) {
        let mut gradient = ParameterVector::default();
        let value = rb
            .log_likelihood_ratio_and_gradient(&p, &mut gradient)
            .unwrap();
        assert!((value - rb.log_likelihood_ratio(&p).unwrap()).abs() <= 1e-9);
        let gradient = aligned(&gradient);
        for (i, name) in ALIGNED.iter().map(|parameter| parameter.name()).enumerate() {
            let h = 2e-3 * sigma[i];
            let at = |s: f64| {
                let mut v = p.to_array();
                v[ALIGNED[i]] += s * h;
                rb.log_likelihood_ratio(&BbhParameters::from_array(v))
                    .unwrap()
            };
            // Five-point stencil: truncation O(h⁴), so that the rounding of ln L (~1e-13 of
            // it) and not the step limits the comparison.
            let numeric = (8.0 * (at(1.0) - at(-1.0)) - (at(2.0) - at(-2.0))) / (12.0 * h);
            let scale = 1.0 / sigma[i];
            // The intrinsic parameters' differences carry the rounding of the waveform's
            // phase (~1e-13 of ~10³ rad), which the exact likelihood shows alike: a few 1e-5
            // of 1/σ at this step; the extrinsic ones agree to 1e-7.
            let tolerance = if i < 4 { 1e-4 } else { 1e-6 };
            let error = (gradient[i] - numeric).abs() / scale;
            println!("{name}: {:.9e} {numeric:.9e} {error:.1e}", gradient[i]);
            assert!(
                error <= tolerance,
                "{name}: analytic {:e}, numeric {numeric:e}",
                gradient[i]
            );
        }
    }
}

/// The quadrature products (phase marginalisation) hold for the (2,2) mode alone: with higher
/// modes they are an error, and the time lattice is off.
#[test]
fn the_phase_marginal_products_are_refused_with_higher_modes() {
    let exact = exact();
    let truth = injection().truth;
    let rb = BbhRelativeBinning::new(&exact, truth, &RelativeBinningOptions::default()).unwrap();
    let error = rb.quadrature_products(&truth).unwrap_err().to_string();
    assert!(error.contains("(2,2) mode alone"), "{error}");
    assert_eq!(rb.time_lattice(&truth).unwrap(), None);
}
