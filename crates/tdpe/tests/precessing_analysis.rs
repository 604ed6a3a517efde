//! An analysis of a precessing binary (`waveform_approximant = "IMRPhenomTPHM"` with bilby's
//! precessing priors): the example config's injection follows the precessing model, and the
//! run's relative binning of its five co-precessing terms reproduces the exact likelihood.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe::run::relative_binning_at_fiducial;
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
