//! An analysis with IMRPhenomTHM's higher modes (`waveform_approximant`, `mode_array` at the
//! top of the config, as bilby_pipe's keys): the signal model, the injection that follows it,
//! relative binning of every mode, and the sampler's options that hold for the (2,2) mode
//! alone switched off.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use tdpe::config::{Config, DEFAULT_CONFIG};
use tdpe::problem::Problem;
use tdpe::run::relative_binning_at_fiducial;
use tdpe::waveform_model::bilby_mode_array;
use tdpe_phenomt::Mode;

/// The default config at 30 + 8 M☉ and θ_jn = 1 (where the higher modes matter), with `top`
/// lines at its top level.
fn config(top: &str) -> anyhow::Result<Config> {
    let text = format!("{top}\n{DEFAULT_CONFIG}")
        .replace("mass_1 = 36.0", "mass_1 = 30.0")
        .replace("mass_2 = 29.0", "mass_2 = 8.0")
        .replace("theta_jn = 2.6", "theta_jn = 1.0")
        .replace(
            "prior_file = \"default\"",
            "prior_file = \"higher_modes.prior\"",
        )
        .replace("waveform_approximant = \"IMRPhenomT\"", "");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    Config::parse(&text, "test", &examples)
}

#[test]
fn the_analysis_models_the_modes_the_config_names() {
    let problem =
        Problem::set_up(config("waveform_approximant = \"IMRPhenomTHM\"").unwrap()).unwrap();
    assert_eq!(problem.exact().model().modes(), Mode::ALL);
    // The injection follows the analysis's model unless it names its own (bilby_pipe's
    // default): without noise the data are the template of every mode at the injection.
    let mut noiseless = config("waveform_approximant = \"IMRPhenomTHM\"").unwrap();
    noiseless.injection.as_mut().unwrap().zero_noise = true;
    let problem = Problem::set_up(noiseless).unwrap();
    let p = problem.injection.unwrap();
    for terms in problem.exact().detector_terms(&p).unwrap() {
        let (matched, optimal) = (terms.matched_filter_snr, terms.optimal_snr);
        assert!(
            (matched - optimal).abs() < 1e-9 * optimal,
            "{matched} vs {optimal}"
        );
    }

    let picked =
        config("waveform_approximant = \"IMRPhenomTHM\"\nmode_array = [[3,-3],[2,2],[3,3],[2,-2]]")
            .unwrap();
    // LAL's order and bilby's array for result.json, whatever the config's order.
    assert_eq!(
        bilby_mode_array(&picked.modes().unwrap()),
        [[2, 2], [2, -2], [3, 3], [3, -3]]
    );
    let problem = Problem::set_up(picked).unwrap();
    assert_eq!(problem.exact().model().modes(), [Mode::L2M2, Mode::L3M3]);
}

/// The run's relative binning has every mode's nodes and reproduces the exact likelihood of
/// all modes at the injection.
#[test]
fn relative_binning_of_the_analysis_follows_every_mode() {
    let problem =
        Problem::set_up(config("waveform_approximant = \"IMRPhenomTHM\"").unwrap()).unwrap();
    let (fiducial, rb, _) =
        relative_binning_at_fiducial(&problem, false, &AtomicBool::new(false)).unwrap();
    let modes_per_detector: Vec<usize> = rb.node_times()[0].iter().map(Vec::len).collect();
    assert_eq!(modes_per_detector, vec![5, 5]);
    let p = tdpe_signal::BbhParameters::from_array(fiducial.theta);
    let exact = problem.exact().log_likelihood_ratio(&p).unwrap();
    let binned = rb.log_likelihood_ratio(&p).unwrap();
    assert!((exact - binned).abs() < 1e-4, "{exact} vs {binned}");
}

#[test]
fn bad_analysis_models_are_errors_before_any_data() {
    let message = |top: &str| match config(top).and_then(|c| c.validate().map(|_| c)) {
        Ok(_) => panic!("{top}: accepted"),
        Err(e) => format!("{e:#}"),
    };
    let m = message("waveform_approximant = \"IMRPhenomD\"");
    assert!(m.contains("unknown approximant 'IMRPhenomD'"), "{m}");
    let m = message("mode_array = [[2,1],[2,-1]]");
    assert!(m.contains("(2,1) is not a mode of IMRPhenomT"), "{m}");
    let m = message("waveform_approximant = \"IMRPhenomTHM\"\nmode_array = [[4,4]]");
    assert!(m.contains("(4,4) without (4,-4)"), "{m}");
    // IMRPhenomTPHM's analyses take its five co-precessing modes and precessing priors;
    // refused before the problem (or the injections) are set up.
    let m = message("waveform_approximant = \"IMRPhenomTPHM\"\nmode_array = [[2,2],[2,-2]]");
    assert!(
        m.contains("IMRPhenomTPHM is analysed with its five co-precessing modes"),
        "{m}"
    );
    let tphm = config("waveform_approximant = \"IMRPhenomTPHM\"").unwrap();
    let m = format!(
        "{:#}",
        tdpe::problem::Model::new(&tphm)
            .and_then(|m| m.with_likelihood())
            .err()
            .unwrap()
    );
    assert!(
        m.contains("the priors are for aligned spins (chi_1, chi_2) but the waveform model's are precessing"),
        "{m}"
    );
}
