//! An analysis of a precessing binary (`waveform_approximant = "IMRPhenomTPHM"` with bilby's
//! precessing priors): the example config's injection follows the precessing model, and the
//! run's relative binning of its five co-precessing terms reproduces the exact likelihood.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe::run::relative_binning_at_fiducial;
use tdpe_mcmc::{LogDensity, PriorLikelihood, Space};
use tdpe_posterior::LABEL_MODE;
use tdpe_signal::SpinModel;

/// examples/precessing_injection.toml, with noise if `noise`.
fn config(noise: bool) -> Config {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut config = Config::load(Some(&examples.join("precessing_injection.toml"))).unwrap();
    config.injection.as_mut().unwrap().zero_noise = !noise;
    config
}

#[test]
fn the_precessing_example_is_analysed_with_its_own_model() {
    let problem = Problem::set_up(config(false)).unwrap();
    assert_eq!(problem.priors().spin_model, SpinModel::Precessing);
    assert_eq!(problem.exact().model().spin_model(), SpinModel::Precessing);
    // Without noise the data are the template at the injection.
    let p = problem.injection.unwrap();
    let terms = problem.exact().detector_terms(&p).unwrap();
    for t in &terms {
        let (matched, optimal) = (t.matched_filter_snr, t.optimal_snr);
        assert!(
            (matched - optimal).abs() < 1e-9 * optimal,
            "{matched} vs {optimal}"
        );
    }
    // The example's network SNR is about 25 (issue 28's benchmark).
    let network = terms
        .iter()
        .map(|t| t.optimal_snr.powi(2))
        .sum::<f64>()
        .sqrt();
    assert!((network - 25.0).abs() < 1.0, "network SNR {network}");
}

#[test]
fn the_runs_relative_binning_follows_the_coprecessing_terms() {
    let problem = Problem::set_up(config(true)).unwrap();
    let (fiducial, rb, _) =
        relative_binning_at_fiducial(&problem, false, &AtomicBool::new(false)).unwrap();
    let terms_per_detector: Vec<usize> = rb.node_times()[0].iter().map(Vec::len).collect();
    assert_eq!(terms_per_detector, vec![5, 5]);
    let p = tdpe_signal::BbhParameters::from_array(fiducial.theta);
    let exact = problem.exact().log_likelihood_ratio(&p).unwrap();
    let binned = rb.log_likelihood_ratio(&p).unwrap();
    assert!((exact - binned).abs() < 1e-4, "{exact} vs {binned}");
}

#[test]
fn the_sampler_moves_over_spin_vectors_and_the_peak_phase() {
    // docs/precession.md §12.9: in the sampler's coordinates (spin vectors seen from the line of
    // sight, inclination, co-precessing peak phase) the example's posterior is close to the
    // Laplace map's unit normal at the mode, with no nearly flat direction (in bilby's angles
    // and phase at f_ref the smallest curvature there was 0.002, and 1000–4400 the largest in
    // the chains' typical set), and stays moderately curved away from it.
    let problem = Problem::set_up(config(true)).unwrap();
    let config = &problem.config;
    let (fiducial, rb, _) =
        relative_binning_at_fiducial(&problem, false, &AtomicBool::new(false)).unwrap();
    let section = config.sampler.for_loud_posterior();
    let (posterior, _) = problem
        .analysis
        .posterior(rb, &fiducial.theta, &section.coordinate_options(), 1)
        .unwrap();
    let refused: Vec<&str> = posterior.not_applied().iter().map(|r| r.option).collect();
    assert!(
        !refused
            .iter()
            .any(|o| o.starts_with("intrinsic") || o.starts_with("phase_coord")),
        "{refused:?}"
    );
    // x's last coordinate is the label of the image chart (docs/sampling.md §4.5): positive in
    // the first chart.
    let n = posterior.dim() - 1;
    let labelled = |x: &[f64], label: f64| [x, &[label]].concat();
    let in_chart = |x: &[f64], label: f64| {
        let mut g = vec![0.0; n + 1];
        let value = posterior.log_density_and_gradient(&labelled(x, label), &mut g);
        g.truncate(n);
        (value, g)
    };
    // −H of the chart of `label` by central differences of the gradient, symmetrised.
    let minus_hessian_in = |x: &[f64], label: f64| {
        let h = 1e-4;
        let columns: Vec<Vec<f64>> = (0..n)
            .map(|j| {
                let at = |sign: f64| {
                    let mut y = x.to_vec();
                    y[j] += sign * h;
                    in_chart(&y, label).1
                };
                let (up, down) = (at(1.0), at(-1.0));
                up.iter()
                    .zip(&down)
                    .map(|(a, b)| -(a - b) / (2.0 * h))
                    .collect()
            })
            .collect();
        (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| 0.5 * (columns[j][i] + columns[i][j]))
                    .collect()
            })
            .collect::<Vec<Vec<f64>>>()
    };
    // The eigenvalue of `m` − shift·I of largest magnitude, plus the shift (power iteration).
    let extreme_eigenvalue = |m: &[Vec<f64>], shift: f64| {
        let mut v = vec![1.0 / (n as f64).sqrt(); n];
        let mut value = 0.0;
        for _ in 0..3000 {
            let w: Vec<f64> = (0..n)
                .map(|i| (0..n).map(|j| m[i][j] * v[j]).sum::<f64>() - shift * v[i])
                .collect();
            value = w.iter().zip(&v).map(|(a, b)| a * b).sum::<f64>();
            let norm = w.iter().map(|a| a * a).sum::<f64>().sqrt();
            v = w.iter().map(|a| a / norm).collect();
        }
        value + shift
    };
    let minus_hessian = |x: &[f64]| minus_hessian_in(x, LABEL_MODE);
    let at_mode = minus_hessian(&vec![0.0; n]);
    let (largest, smallest) = (
        extreme_eigenvalue(&at_mode, 0.0),
        extreme_eigenvalue(&at_mode, 2.0),
    );
    println!("curvatures at the mode: {smallest:.3} to {largest:.3}");
    assert!(smallest > 0.05 && largest < 1.5, "{smallest} to {largest}");

    // The inclination mirror's image of the mode (docs/sampling.md §4.1) is nearly as probable:
    // a second mode (roughly a third of the mass), which the chains reach by changing chart. In
    // the first chart it lies far from the Laplace map's centre and is much narrower
    // (docs/precession.md §12.10); the image chart reads it at the mode's x, with curvatures
    // within a few times the mode's.
    let mode = vec![0.0; n];
    let mut flipped = vec![0.0; n + 1];
    let log_det = posterior
        .mirror(0, &labelled(&mode, LABEL_MODE), &mut flipped)
        .unwrap();
    assert_eq!((log_det, flipped[n]), (0.0, -LABEL_MODE));
    let (at_mode, at_image) = (
        in_chart(&mode, LABEL_MODE).0,
        in_chart(&mode, -LABEL_MODE).0,
    );
    let image_curvature = minus_hessian_in(&mode, -LABEL_MODE);
    let image_largest = extreme_eigenvalue(&image_curvature, 0.0);
    let image_smallest = extreme_eigenvalue(&image_curvature, image_largest);
    println!(
        "image chart at x = 0: ln p {at_image:.2} against {at_mode:.2} at the mode, \
         curvatures {image_smallest:.3} to {image_largest:.3}"
    );
    assert!(
        (at_image - at_mode).abs() < 5.0,
        "{at_image} against {at_mode}"
    );
    assert!(image_largest < 10.0, "{image_largest}");

    // Points a typical distance from the mode (|x| ≈ 0.6 √n) along fixed directions.
    let radius = 0.6 * (n as f64).sqrt();
    for k in 0..4 {
        let raw: Vec<f64> = (0..n)
            .map(|i| ((i * 7 + k * 13) as f64 * 0.731).sin())
            .collect();
        let norm = raw.iter().map(|v| v * v).sum::<f64>().sqrt();
        let x: Vec<f64> = raw.iter().map(|v| v * radius / norm).collect();
        // The gradient, in both charts, against central differences of the log density (steps
        // below ~1e-5 see its rounding noise of ~1e-8).
        for label in [LABEL_MODE, -LABEL_MODE] {
            let (value, g) = in_chart(&x, label);
            assert!(value.is_finite());
            for i in 0..n {
                let h = 1e-3;
                let mut up = x.clone();
                up[i] += h;
                let mut down = x.clone();
                down[i] -= h;
                let numeric = (in_chart(&up, label).0 - in_chart(&down, label).0) / (2.0 * h);
                assert!(
                    (g[i] - numeric).abs() < 1e-3 * (1.0 + numeric.abs()),
                    "chart {label}, coordinate {i}: {} against {numeric}",
                    g[i]
                );
            }
        }
        // The prior term alone has no rounding noise: its gradient, through the maps and their
        // log-determinants, against differences to 1e-7.
        let mut prior_gradient = vec![0.0; n + 1];
        posterior.log_prior_and_gradient(&labelled(&x, LABEL_MODE), &mut prior_gradient);
        for i in 0..n {
            let h = 1e-5;
            let at = |step: f64| {
                let mut y = x.clone();
                y[i] += step;
                posterior.log_prior_and_gradient(&labelled(&y, LABEL_MODE), &mut vec![0.0; n + 1])
            };
            let numeric = (at(h) - at(-h)) / (2.0 * h);
            assert!(
                (prior_gradient[i] - numeric).abs() < 1e-7 * (1.0 + numeric.abs()),
                "prior, coordinate {i}: {} against {numeric}",
                prior_gradient[i]
            );
        }
        let largest = extreme_eigenvalue(&minus_hessian(&x), 0.0);
        println!("largest curvature at |x| = {radius:.1}: {largest:.1}");
        assert!(largest.abs() < 60.0, "largest curvature {largest}");
    }
}
