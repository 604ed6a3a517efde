//! IMRPhenomT against LALSuite 7.26.16 (lalsimulation 6.2.1): every reference case of
//! tests/data (copied from shared/reference/imrphenomt; see its README for how it was made).

mod common;

use common::{case_inputs, mismatch, read_columns, reference_polarizations, CaseInputs};
use tdpe_phenomt::IMRPhenomT;

const CASES: [&str; 13] = [
    "T01_q1_nospin",
    "T02_gw150914_like",
    "T03_q2_M30_spinup",
    "T04_q4_M50_mixed",
    "T05_q8_M90_highspin",
    "T06_q18_M190",
    "T07_M10_q1p5",
    "T08_M200_q1_spin09_edgeon",
    "T09_q3_M40_antialigned_fref40",
    "T10_m1_lt_m2_swap",
    "T11_q12_M130_fref25",
    "T12_q6_M21",
    "T13_brent_sensitive",
];

/// The model of a case's inputs.
fn model(inputs: &CaseInputs) -> IMRPhenomT<f64> {
    let [m1, m2, chi1, chi2] = inputs.binary;
    IMRPhenomT::new(m1, m2, chi1, chi2, &inputs.settings).unwrap()
}

#[test]
fn polarizations_match_lal_in_length_epoch_and_mismatch() {
    let mut mismatches = Vec::new();
    for case in CASES {
        let inputs = case_inputs(case);
        let pol = model(&inputs).polarizations_on_grid(
            inputs.distance,
            inputs.inclination,
            inputs.phi_ref,
        );
        let (hp, hc) = reference_polarizations(case, &inputs, &pol);
        let mm = mismatch((&pol.hp, &pol.hc), (&hp, &hc));
        let peak = hp.iter().chain(&hc).fold(0.0_f64, |m, v| m.max(v.abs()));
        let max_diff = pol
            .hp
            .iter()
            .zip(&hp)
            .chain(pol.hc.iter().zip(&hc))
            .fold(0.0_f64, |m, (a, b)| m.max((a - b).abs()));
        println!(
            "{case:32} mismatch {mm:9.2e}  max|Δh|/max|h| {:9.2e}",
            max_diff / peak
        );
        mismatches.push(mm);
        assert!(mm <= 1e-12, "{case}: mismatch {mm:e}");
        assert!(max_diff <= 2e-11 * peak, "{case}: max |Δh| {max_diff:e}");
    }
    mismatches.sort_by(f64::total_cmp);
    println!(
        "median mismatch {:.2e}, maximum {:.2e}",
        mismatches[mismatches.len() / 2],
        mismatches[mismatches.len() - 1]
    );
}

#[test]
fn mode22_matches_lal_sample_by_sample() {
    for case in CASES {
        let inputs = case_inputs(case);
        let modes = model(&inputs).mode22_on_grid();
        let reference = read_columns(&format!("{case}_modes.csv"));
        assert_eq!(modes.len(), reference[0].len(), "{case}: length");
        let scale = 1.0 / inputs.distance;
        let peak = reference[1]
            .iter()
            .zip(&reference[2])
            .fold(0.0_f64, |m, (r, i)| m.max(r.hypot(*i)));
        let mut max_diff = 0.0_f64;
        for (k, m) in modes.iter().enumerate() {
            let (re, im) = (
                m.amplitude * scale * m.phase.cos(),
                -m.amplitude * scale * m.phase.sin(),
            );
            max_diff = max_diff
                .max((re - reference[1][k]).abs())
                .max((im - reference[2][k]).abs());
        }
        println!("{case:32} max|Δh22|/max|h22| {:9.2e}", max_diff / peak);
        assert!(max_diff <= 2e-11 * peak, "{case}: {:e}", max_diff / peak);
    }
}
