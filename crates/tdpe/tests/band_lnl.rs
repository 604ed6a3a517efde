//! tdpe's ln L at an injection against bilby's non-marginalised `GravitationalWaveTransient`
//! (docs/likelihood.md §1.3): bilby-simulated H1+L1 noise without power below f_min = 20 Hz, an
//! IMRPhenomT injection of SNR ≈ 33, and two PSDs, the simulation's and a median-Welch estimate
//! from other bilby noise (≈ 1e-51 below 20 Hz). Fixture: tools/make_band_lnl_fixture.py.

use std::path::{Path, PathBuf};

use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, PARAMETER_NAMES};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/band_lnl")
}

/// The injection (bilby's parameter names, geocent_time in GPS s).
fn injection() -> ParameterVector {
    let text = std::fs::read_to_string(fixture().join("injection.csv")).unwrap();
    let mut lines = text.lines();
    let names: Vec<&str> = lines.next().unwrap().split(',').collect();
    let values: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    let mut theta = [f64::NAN; tdpe_signal::NUM_PARAMETERS];
    for (k, name) in PARAMETER_NAMES.iter().enumerate() {
        let i = names.iter().position(|n| n == name).unwrap();
        theta[k] = values[i];
    }
    theta
}

/// tdpe's log-likelihood ratio at the injection with the config `name`.toml.
fn tdpe_lnl(name: &str) -> f64 {
    let config = Config::load(Some(&fixture().join(format!("{name}.toml")))).unwrap();
    let problem = Problem::set_up(config).unwrap();
    let mut theta = injection();
    theta[Parameter::GeocentTime] -= problem.epoch.as_f64();
    problem
        .exact()
        .log_likelihood_ratio(&BbhParameters::from_array(theta))
        .unwrap()
}

fn bilby_lnl(key: &str) -> f64 {
    let text = std::fs::read_to_string(fixture().join("bilby_lnl.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json[key].as_f64().unwrap()
}

fn check(config: &str, key: &str) {
    let (ours, theirs) = (tdpe_lnl(config), bilby_lnl(key));
    eprintln!(
        "{config}: tdpe ln L = {ours:.2}, bilby {theirs:.2}, Δ = {:.2}",
        ours - theirs
    );
    assert!(
        (ours - theirs).abs() <= 1.0,
        "{config}: tdpe ln L = {ours}, bilby {theirs}"
    );
}

#[test]
#[ignore = "issue 23 open: with the centred 4 Hz ramp Δ ln L = −3.6 (docs/likelihood.md §1.3)"]
fn ln_l_at_the_injection_matches_bilby_with_the_simulation_psd() {
    check("simulation", "simulation_psd");
}

#[test]
#[ignore = "issue 23 open: with the centred 4 Hz ramp Δ ln L = −6.8 (docs/likelihood.md §1.3)"]
fn ln_l_at_the_injection_matches_bilby_with_a_welch_psd_that_falls_outside_the_band() {
    check("welch", "welch_psd");
}
