//! IMRPhenomTPHM against LALSuite end to end (docs/precession.md §6, §8): the co-precessing
//! modes with the evolved final spin (`SimIMRPhenomTPHM_CoprecModes`), the L0 modes
//! (`SimInspiralChooseTDModes`) and h₊, h× (`SimInspiralChooseTDWaveform`) of every base case of
//! shared/reference/imrphenomtphm (LALSuite 7.26.16, PrecVersion 300; tests/data/README.md).

mod common;

use common::{case_inputs, data_path, mismatch, read_columns, reference_polarizations};
use serde_json::Value;
use tdpe_phenomt::{IMRPhenomTHM, IMRPhenomTPHM, Mode, WaveformError};

/// The base cases; P02 and P08 also have their co-precessing and L0 modes.
const CASES: [&str; 10] = [
    "P01_gw150914_like",
    "P02_q1_strongprec",
    "P03_q4_chi1perp08",
    "P04_q8_chi1perp09",
    "P05_nearly_aligned",
    "P06_antialigned",
    "P07_edgeon_dt4096",
    "P08_fref35",
    "P09_lowmass_long",
    "P10_m1_lt_m2_swap",
];
const WITH_MODES: [&str; 2] = ["P02_q1_strongprec", "P08_fref35"];

/// A case's model: its masses and L0-frame spins, LAL's default PrecVersion.
fn model(case: &str) -> IMRPhenomTPHM {
    model_with_modes(case, &Mode::ALL)
}

/// A case's model with the co-precessing `modes` only.
fn model_with_modes(case: &str, modes: &[Mode]) -> IMRPhenomTPHM {
    let inputs = case_inputs(case);
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(data_path(&format!("{case}.json"))).unwrap())
            .unwrap();
    let spin = |k: &str| meta["inputs"][k].as_f64().unwrap();
    let chi1 = [spin("chi1x"), spin("chi1y"), spin("chi1z")];
    let chi2 = [spin("chi2x"), spin("chi2y"), spin("chi2z")];
    let [m1, m2, ..] = inputs.binary;
    IMRPhenomTPHM::lal_with_modes(m1, m2, chi1, chi2, 300, &inputs.settings, modes).unwrap()
}

/// Largest |a − b| over the samples, relative to `peak`.
fn largest(a: &[(f64, f64)], re: &[f64], im: &[f64], peak: f64) -> f64 {
    a.iter()
        .zip(re.iter().zip(im))
        .map(|(&(x, y), (r, i))| (x - r).hypot(y - i) / peak)
        .fold(0.0, f64::max)
}

/// Numbers as `1.2e-13 3.4e-15 …`.
fn show(values: &[f64]) -> String {
    values
        .iter()
        .map(|x| format!("{x:.1e}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The largest |(re, im)| of a mode's columns.
fn peak(re: &[f64], im: &[f64]) -> f64 {
    re.iter()
        .zip(im)
        .map(|(r, i)| r.hypot(*i))
        .fold(0.0, f64::max)
}

#[test]
fn coprecessing_modes_are_thm_with_the_evolved_spin_in_the_ringdown() {
    for case in WITH_MODES {
        let inputs = case_inputs(case);
        let model = model(case);
        let scale = 1.0 / inputs.distance;
        // Columns: t, then (re, im) of 22, 21, 33, 44, 55, as Mode::ALL.
        let reference = read_columns(&format!("{case}_coprec.csv"));
        let h22_peak = peak(&reference[1], &reference[2]);
        let differences = |modes: Vec<Vec<(f64, f64)>>| -> Vec<f64> {
            modes
                .iter()
                .enumerate()
                .map(|(j, mode)| {
                    let scaled: Vec<_> =
                        mode.iter().map(|&(r, i)| (r * scale, i * scale)).collect();
                    largest(
                        &scaled,
                        &reference[1 + 2 * j],
                        &reference[2 + 2 * j],
                        h22_peak,
                    )
                })
                .collect()
        };
        let ours = differences(model.coprecessing().modes_on_grid());
        println!("{case:20} co-precessing modes {}", show(&ours));
        assert!(ours.iter().all(|d| *d <= 1e-11), "{case}: {}", show(&ours));
        // The evolved spin is what makes the ringdown agree: THM's own is far off there.
        let [m1, m2, chi1, chi2] = inputs.binary;
        let thm = IMRPhenomTHM::new(m1, m2, chi1, chi2, &inputs.settings, &Mode::ALL).unwrap();
        let aligned = differences(thm.modes_on_grid());
        println!("{case:20} with THM's ringdown {}", show(&aligned));
        assert!(aligned[0] > 1e-3, "{case}: THM's ringdown agrees too");
    }
}

#[test]
fn l0_modes_match_lal() {
    for case in WITH_MODES {
        let inputs = case_inputs(case);
        let modes = model(case).l0_modes_on_grid();
        let reference = read_columns(&format!("{case}_modes.csv"));
        let header = std::fs::read_to_string(data_path(&format!("{case}_modes.csv"))).unwrap();
        let names: Vec<&str> = header.lines().next().unwrap().split(',').collect();
        let h22_peak = peak(&reference[1], &reference[2]);
        let mut worst = (0.0, "");
        for column in (1..names.len()).step_by(2) {
            let name = names[column].trim_end_matches("_re");
            let (l, m) = parse_mode(name);
            let ours: Vec<(f64, f64)> = modes
                .iter()
                .map(|s| {
                    let (re, im) = s.get(l, m);
                    (re / inputs.distance, im / inputs.distance)
                })
                .collect();
            let d = largest(&ours, &reference[column], &reference[column + 1], h22_peak);
            if d > worst.0 {
                worst = (d, names[column]);
            }
        }
        println!(
            "{case:20} L0 modes: largest difference {:.1e} ({})",
            worst.0, worst.1
        );
        assert!(worst.0 <= 2e-11, "{case}: {} in {}", worst.0, worst.1);
    }
}

/// (l, m) of a column name such as `h2m1` or `h33`.
fn parse_mode(name: &str) -> (u32, i32) {
    let rest = &name[1..];
    let l: u32 = rest[..1].parse().unwrap();
    let m = &rest[1..];
    let m: i32 = match m.strip_prefix('m') {
        Some(abs) => -abs.parse::<i32>().unwrap(),
        None => m.parse().unwrap(),
    };
    (l, m)
}

#[test]
fn polarizations_match_lal() {
    for case in CASES {
        let inputs = case_inputs(case);
        let pol =
            model(case).polarizations_on_grid(inputs.distance, inputs.inclination, inputs.phi_ref);
        let (hp, hc) = reference_polarizations(case, &inputs, &pol);
        let mm = mismatch((&pol.hp, &pol.hc), (&hp, &hc));
        let strain_peak = peak(&hp, &hc);
        let ours: Vec<(f64, f64)> = pol.hp.iter().copied().zip(pol.hc.iter().copied()).collect();
        let d = largest(&ours, &hp, &hc, strain_peak);
        println!("{case:20} mismatch {mm:9.2e}, largest difference {d:.1e}");
        // The target is a mismatch ≤ 1e-8; every sample agrees to ~1e-12 of the peak.
        assert!(mm.abs() <= 1e-8, "{case}: mismatch {mm:e}");
        assert!(d <= 5e-11, "{case}: largest difference {d:e}");
    }
}

#[test]
fn mode_arrays_match_lal() {
    // LAL's ModeArray on the strongly precessing P02 (tools/make_tphm_mode_array_fixture.py):
    // the co-precessing modes left out are left out of the twist.
    let case = "P02_q1_strongprec";
    let inputs = case_inputs(case);
    for (name, modes) in [
        ("2233", vec![Mode::L2M2, Mode::L3M3]),
        ("21", vec![Mode::L2M1]),
    ] {
        let pol = model_with_modes(case, &modes).polarizations_on_grid(
            inputs.distance,
            inputs.inclination,
            inputs.phi_ref,
        );
        let mut columns = read_columns(&format!("{case}_MA{name}.csv"));
        let (hc, hp) = (columns.pop().unwrap(), columns.pop().unwrap());
        assert_eq!(pol.hp.len(), hp.len(), "{name}: length");
        let ours: Vec<(f64, f64)> = pol.hp.iter().copied().zip(pol.hc.iter().copied()).collect();
        let mm = mismatch((&pol.hp, &pol.hc), (&hp, &hc));
        let d = largest(&ours, &hp, &hc, peak(&hp, &hc));
        println!("{case} with modes {name}: mismatch {mm:9.2e}, largest difference {d:.1e}");
        assert!(mm.abs() <= 1e-8, "{name}: mismatch {mm:e}");
        assert!(d <= 5e-11, "{name}: largest difference {d:e}");
    }
}

#[test]
fn a_mode_array_reaches_the_aligned_fallback() {
    // Without in-plane spins LAL returns IMRPhenomTHM's polarisations, of the same modes.
    let settings = tdpe_phenomt::Settings::lal(20.0, 20.0, 1.0 / 2048.0);
    let modes = [Mode::L2M2, Mode::L3M3];
    let tphm = IMRPhenomTPHM::lal_with_modes(
        36.0,
        29.0,
        [0.0, 0.0, 0.3],
        [0.0, 0.0, -0.2],
        300,
        &settings,
        &modes,
    )
    .unwrap();
    let thm = IMRPhenomTHM::new(36.0, 29.0, 0.3, -0.2, &settings, &modes).unwrap();
    let all = IMRPhenomTHM::new(36.0, 29.0, 0.3, -0.2, &settings, &Mode::ALL).unwrap();
    let view = (410.0, 1.2, 0.3);
    let pol = |p: tdpe_phenomt::Polarizations| (p.hp, p.hc);
    let ours = pol(tphm.polarizations_on_grid(view.0, view.1, view.2));
    assert_eq!(ours, pol(thm.polarizations_on_grid(view.0, view.1, view.2)));
    assert_ne!(ours, pol(all.polarizations_on_grid(view.0, view.1, view.2)));
}

#[test]
fn other_prec_versions_are_refused() {
    let settings = tdpe_phenomt::Settings::lal(20.0, 20.0, 1.0 / 2048.0);
    let spin = [0.3, 0.2, 0.1];
    for version in [310, 22312, 10213, 0] {
        let result = IMRPhenomTPHM::lal(40.0, 30.0, spin, spin, version, &settings);
        assert!(
            matches!(result, Err(WaveformError::UnsupportedPrecVersion { .. })),
            "{version}"
        );
    }
}

#[test]
fn a_reference_frequency_below_the_minimum_is_refused() {
    // The spins are given at f_ref, where the spin evolution starts: LAL refuses 0 < f_ref <
    // f_min, and so does every angle model here, before any work.
    let spin = [0.5, 0.1, 0.2];
    for f_ref in [5.0, 19.9] {
        let settings = tdpe_phenomt::Settings::lal(20.0, f_ref, 1.0 / 2048.0);
        for version in [300, 102, 10421, 22300] {
            let result = IMRPhenomTPHM::lal(36.0, 29.0, spin, spin, version, &settings);
            assert!(
                matches!(
                    result,
                    Err(WaveformError::OutOfRange {
                        name: "reference_frequency",
                        ..
                    })
                ),
                "f_ref = {f_ref}, PrecVersion {version}"
            );
        }
        let smooth = tdpe_phenomt::SmoothPrecession::new(
            36.0,
            29.0,
            spin,
            spin,
            &settings,
            -1.0,
            tdpe_phenomt::SmoothSteps::default(),
        );
        assert!(
            matches!(
                smooth,
                Err(WaveformError::OutOfRange {
                    name: "reference_frequency",
                    ..
                })
            ),
            "f_ref = {f_ref}, smooth"
        );
    }
}
