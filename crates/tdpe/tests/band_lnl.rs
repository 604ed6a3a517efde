//! tdpe's ln L at an injection against bilby's non-marginalised `GravitationalWaveTransient`
//! (docs/likelihood.md §1.3): bilby-simulated H1+L1 noise without power below f_min = 20 Hz, an
//! IMRPhenomT injection of network SNR ≈ 33, and two PSDs, the simulation's and a median-Welch
//! estimate from other bilby noise (≈ 1e-51 below 20 Hz). Fixture: tools/make_band_lnl_fixture.py.

use std::path::{Path, PathBuf};

use tdpe::config::Config;
use tdpe::problem::Problem;
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, SpinModel};

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
    for &parameter in SpinModel::Aligned.parameters() {
        let i = names.iter().position(|n| *n == parameter.name()).unwrap();
        theta[parameter] = values[i];
    }
    theta
}

/// tdpe's log-likelihood ratio at the injection with `config`.
fn tdpe_lnl(config: Config) -> f64 {
    let problem = Problem::set_up(config).unwrap();
    let mut theta = injection();
    theta[Parameter::GeocentTime] -= problem.epoch.as_f64();
    problem
        .exact()
        .log_likelihood_ratio(&BbhParameters::from_array(theta))
        .unwrap()
}

fn config(name: &str) -> Config {
    Config::load(Some(&fixture().join(format!("{name}.toml")))).unwrap()
}

fn bilby_lnl(key: &str) -> f64 {
    let text = std::fs::read_to_string(fixture().join("bilby_lnl.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json[key].as_f64().unwrap()
}

/// The target is |Δ ln L| ≤ 1; tdpe's 4 Hz ramp at the band's edge costs more than that on data
/// that hold nothing below f_min (docs/likelihood.md §1.3: Δ = −3.6 and −6.8 here, 0.7 % and
/// 1.3 % of ln L). The tolerance is what the centred ramp achieves; the ramp placed below f_min
/// gave about 2 % and 4 %, a PSD estimate used as it is outside the band −5068 against +623.
const RELATIVE_TOLERANCE: f64 = 0.015;

#[test]
fn ln_l_at_the_injection_is_bilbys_with_the_simulation_and_a_welch_psd() {
    for (name, key) in [("simulation", "simulation_psd"), ("welch", "welch_psd")] {
        let (ours, theirs) = (tdpe_lnl(config(name)), bilby_lnl(key));
        eprintln!(
            "{name}: tdpe ln L = {ours:.2}, bilby {theirs:.2}, Δ = {:.2}",
            ours - theirs
        );
        assert!(
            ((ours - theirs) / theirs).abs() <= RELATIVE_TOLERANCE,
            "{name}: tdpe ln L = {ours}, bilby {theirs}"
        );
    }
}

/// Whatever an estimated PSD holds below the band (tiny values, zeros, NaN), the likelihood is
/// the same: those frequencies are unmeasured.
#[test]
fn what_the_psd_holds_below_the_band_does_not_change_ln_l() {
    let original = config("welch");
    let reference = tdpe_lnl(original.clone());
    let text = std::fs::read_to_string(fixture().join("welch_psd.txt")).unwrap();
    let dir = std::env::temp_dir().join(format!("tdpe-band-lnl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for junk in ["1e-60", "0", "nan"] {
        let edited: String = text
            .lines()
            .map(|line| {
                let f: f64 = line.split_whitespace().next().unwrap().parse().unwrap();
                if f < 19.0 {
                    format!("{f} {junk}\n")
                } else {
                    format!("{line}\n")
                }
            })
            .collect();
        let path = dir.join(format!("welch_{junk}.txt"));
        std::fs::write(&path, edited).unwrap();
        let mut edited_config = original.clone();
        for psd in edited_config.psd.values_mut() {
            *psd = path.to_str().unwrap().to_string();
        }
        let lnl = tdpe_lnl(edited_config);
        assert!(
            ((lnl - reference) / reference).abs() < 1e-12,
            "{junk} below 19 Hz: {lnl} against {reference}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
