//! IMRPhenomT against LALSuite 7.26.16 (lalsimulation 6.2.1): every reference case of
//! tests/data (copied from shared/reference/imrphenomt; see its README for how it was made).

mod common;

use common::{data_path, mismatch, read_columns};
use serde_json::Value;
use tdpe_phenomt::{IMRPhenomT, Settings};

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

struct Case {
    model: IMRPhenomT<f64>,
    distance: f64,
    inclination: f64,
    phi_ref: f64,
    length: usize,
    epoch_ns: i64,
}

fn load(case: &str) -> Case {
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(data_path(&format!("{case}.json"))).unwrap())
            .unwrap();
    let input = &meta["inputs"];
    let get = |k: &str| input[k].as_f64().unwrap();
    let settings = Settings::lal(get("f_min_hz"), get("f_ref_hz"), get("deltaT_s"));
    let model = IMRPhenomT::new(
        get("m1_msun"),
        get("m2_msun"),
        get("chi1z"),
        get("chi2z"),
        &settings,
    )
    .unwrap();
    Case {
        model,
        distance: get("distance_mpc"),
        inclination: get("inclination_rad"),
        phi_ref: get("phi_ref_rad"),
        length: meta["output"]["length"].as_u64().unwrap() as usize,
        epoch_ns: meta["output"]["epoch_ns"].as_i64().unwrap(),
    }
}

#[test]
fn polarizations_match_lal_in_length_epoch_and_mismatch() {
    let mut mismatches = Vec::new();
    for case in CASES {
        let c = load(case);
        let pol = c
            .model
            .polarizations_on_grid(c.distance, c.inclination, c.phi_ref);
        assert_eq!(pol.hp.len(), c.length, "{case}: length");
        assert_eq!(pol.epoch_ns, c.epoch_ns, "{case}: epoch");
        let reference = read_columns(&format!("{case}.csv"));
        let mm = mismatch((&pol.hp, &pol.hc), (&reference[1], &reference[2]));
        let peak = reference[1]
            .iter()
            .chain(&reference[2])
            .fold(0.0_f64, |m, v| m.max(v.abs()));
        let max_diff = pol
            .hp
            .iter()
            .zip(&reference[1])
            .chain(pol.hc.iter().zip(&reference[2]))
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
        let c = load(case);
        let modes = c.model.mode22_on_grid();
        let reference = read_columns(&format!("{case}_modes.csv"));
        assert_eq!(modes.len(), reference[0].len(), "{case}: length");
        let scale = 1.0 / c.distance;
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
