//! An injection with IMRPhenomTHM's higher modes (`[injection] waveform_approximant`,
//! `mode_array`): the simulated data hold the higher modes, and bad model choices are errors
//! before any data are made.

use std::path::Path;

use tdpe::config::{Config, DEFAULT_CONFIG};
use tdpe::problem::Problem;
use tdpe_phenomt::Mode;

/// The default config's injection at 60 + 15 M☉ and θ_jn = 1.2 (where the higher modes are
/// loud), without noise, with `extra` lines in its `[injection]` table.
fn config(extra: &str) -> anyhow::Result<Config> {
    let text = DEFAULT_CONFIG
        .replace("zero_noise = false", "zero_noise = true")
        .replace("[injection]", &format!("[injection]\n{extra}"));
    let mut config = Config::parse(&text, "test", Path::new("."))?;
    let injection = config.injection.as_mut().unwrap();
    (injection.mass_1, injection.mass_2) = (Some(60.0), Some(15.0));
    injection.theta_jn = 1.2;
    Ok(config)
}

/// ⟨d|h⟩ and ⟨h|h⟩ of each detector for the injection's template with `modes`.
fn terms(problem: &Problem, modes: &[Mode]) -> Vec<(f64, f64)> {
    let p = problem.injection.unwrap();
    let grid = problem.grid;
    let model = problem.exact().model().clone().with_modes(modes).unwrap();
    let templates = model.strain(&p, grid.start, grid.dt, grid.len).unwrap();
    let refs: Vec<&[f64]> = templates.iter().map(Vec::as_slice).collect();
    let terms = problem.exact().likelihood().detector_terms(&refs).unwrap();
    terms.iter().map(|t| (t.d_h, t.h_h)).collect()
}

#[test]
fn a_higher_mode_injection_puts_the_higher_modes_in_the_data() {
    let problem =
        Problem::set_up(config("waveform_approximant = \"IMRPhenomTHM\"").unwrap()).unwrap();
    // The data are the template with every mode: ⟨d|h⟩ = ⟨h|h⟩.
    for (d_h, h_h) in terms(&problem, &Mode::ALL) {
        assert!((d_h - h_h).abs() < 1e-9 * h_h, "{d_h} vs {h_h}");
    }
    // Not the (2,2) alone: its template matches the data less well than itself.
    for (d_h, h_h) in terms(&problem, &[Mode::L2M2]) {
        assert!((d_h - h_h).abs() > 1e-3 * h_h, "{d_h} vs {h_h}");
    }
    // A mode array picks the injected modes.
    let picked = config(
        "waveform_approximant = \"IMRPhenomTHM\"\nmode_array = [[2, 2], [2, -2], [3, 3], [3, -3]]",
    )
    .unwrap();
    let problem = Problem::set_up(picked).unwrap();
    for (d_h, h_h) in terms(&problem, &[Mode::L2M2, Mode::L3M3]) {
        assert!((d_h - h_h).abs() < 1e-9 * h_h, "{d_h} vs {h_h}");
    }
}

#[test]
fn the_default_injection_is_the_22_mode() {
    let problem = Problem::set_up(config("").unwrap()).unwrap();
    for (d_h, h_h) in terms(&problem, &[Mode::L2M2]) {
        assert!((d_h - h_h).abs() < 1e-9 * h_h, "{d_h} vs {h_h}");
    }
}

#[test]
fn bad_injection_models_are_errors() {
    let message = |extra: &str| match config(extra).and_then(|c| c.validate().map(|_| c)) {
        Ok(_) => panic!("{extra}: accepted"),
        Err(e) => format!("{e:#}"),
    };
    let m = message("waveform_approximant = \"IMRPhenomXAS\"");
    assert!(m.contains("unknown approximant 'IMRPhenomXAS'"), "{m}");
    let m = message("mode_array = [[3, 3], [3, -3]]");
    assert!(m.contains("(3,3) is not a mode of IMRPhenomT"), "{m}");
    let m = message("waveform_approximant = \"IMRPhenomTHM\"\nmode_array = [[2, 1]]");
    assert!(m.contains("(2,1) without (2,-1)"), "{m}");
    let m = message("waveform_approximant = \"IMRPhenomTHM\"\nmode_array = []");
    assert!(m.contains("mode_array is empty"), "{m}");
    let m = message("waveform_approximant = \"IMRPhenomTPHM\"\nmode_array = [[2, 2], [2, -2]]");
    assert!(
        m.starts_with(
            "[injection] mode_array: IMRPhenomTPHM is analysed with its five co-precessing \
             modes"
        ),
        "{m}"
    );
    // A precessing injection takes bilby's precessing spins, an aligned one chi_1 and chi_2.
    let set_up = |extra: &str| match Problem::set_up(config(extra).unwrap()) {
        Ok(_) => panic!("{extra}: accepted"),
        Err(e) => format!("{e:#}"),
    };
    let m = set_up("waveform_approximant = \"IMRPhenomTPHM\"");
    assert!(m.contains("IMRPhenomTPHM takes the spins a_1"), "{m}");
    let m = set_up("a_1 = 0.5");
    assert!(
        m.contains("are precessing spins: set waveform_approximant"),
        "{m}"
    );
}
