//! IMRPhenomTHM against LALSuite: every THM case of tests/data (the three of
//! shared/reference/imrphenomt, LALSuite 7.26.16, and those `tools/make_thm_fixtures.py` makes
//! across the parameter space; see tests/data/README.md).

mod common;

use common::{case_inputs, data_path, mismatch, read_columns, reference_polarizations, CaseInputs};
use tdpe_phenomt::{IMRPhenomTHM, Mode};

/// The cases: name, and whether it holds every mode (else only those its JSON lists).
fn cases() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(data_path(""))
        .unwrap()
        .filter_map(|entry| {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let case = name.strip_suffix(".json")?;
            case.starts_with("THM").then(|| case.to_string())
        })
        .collect();
    names.sort();
    assert!(names.len() >= 3, "THM cases missing from tests/data");
    names
}

/// The model of a case's inputs, with every mode.
fn model(inputs: &CaseInputs) -> IMRPhenomTHM<f64> {
    let [m1, m2, chi1, chi2] = inputs.binary;
    IMRPhenomTHM::new(m1, m2, chi1, chi2, &inputs.settings, &Mode::ALL).unwrap()
}

/// The tolerances: polarisation mismatch ≤ 1e-10, every mode's largest difference
/// ≤ 1e-9 of its own largest value.
const MISMATCH: f64 = 1e-10;
const MODE_DIFFERENCE: f64 = 1e-9;

#[test]
fn polarizations_match_lal() {
    for case in cases() {
        let inputs = case_inputs(&case);
        let pol = model(&inputs).polarizations_on_grid(
            inputs.distance,
            inputs.inclination,
            inputs.phi_ref,
        );
        let (hp, hc) = reference_polarizations(&case, &inputs, &pol);
        let mm = mismatch((&pol.hp, &pol.hc), (&hp, &hc));
        println!("{case:32} polarisation mismatch {mm:9.2e}");
        assert!(mm.abs() <= MISMATCH, "{case}: mismatch {mm:e}");
    }
}

#[test]
fn every_mode_matches_lal_sample_by_sample() {
    for case in cases() {
        let inputs = case_inputs(&case);
        let modes = model(&inputs).modes_on_grid();
        let reference = read_columns(&format!("{case}_modes.csv"));
        // Columns: t, then (re, im) of 22, 21, 33, 44, 55.
        for (j, mode) in Mode::ALL.into_iter().enumerate() {
            let (re_ref, im_ref) = (&reference[1 + 2 * j], &reference[2 + 2 * j]);
            let ours = &modes[j];
            assert_eq!(ours.len(), re_ref.len(), "{case} {mode:?}: length");
            let scale = 1.0 / inputs.distance;
            let peak = re_ref
                .iter()
                .zip(im_ref)
                .fold(0.0_f64, |m, (r, i)| m.max(r.hypot(*i)));
            let max_diff = ours
                .iter()
                .zip(re_ref.iter().zip(im_ref))
                .fold(0.0_f64, |m, (&(re, im), (r, i))| {
                    m.max((re * scale - r).abs()).max((im * scale - i).abs())
                });
            if peak == 0.0 {
                // An odd mode of equal masses and spins: LAL's is zero, so must ours be.
                assert_eq!(max_diff, 0.0, "{case} {mode:?}: not zero");
                println!("{case:32} {mode:?}: zero, as LAL's");
                continue;
            }
            println!(
                "{case:32} {mode:?}: max|Δh|/max|h| {:9.2e}",
                max_diff / peak
            );
            assert!(
                max_diff <= MODE_DIFFERENCE * peak,
                "{case} {mode:?}: {:e}",
                max_diff / peak
            );
        }
    }
}
