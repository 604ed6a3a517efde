//! What the tests against LAL's reference files share: the files and the mismatch.

use std::path::PathBuf;

use serde_json::Value;
use tdpe_phenomt::{Polarizations, Settings};

/// A case's inputs and LAL's grid, from `<case>.json`.
pub struct CaseInputs {
    /// (m1, m2, χ1, χ2) in M☉ and dimensionless.
    pub binary: [f64; 4],
    pub settings: Settings,
    pub distance: f64,
    pub inclination: f64,
    pub phi_ref: f64,
    pub length: usize,
    pub epoch_ns: i64,
}

/// The inputs of `case`.
pub fn case_inputs(case: &str) -> CaseInputs {
    let meta: Value =
        serde_json::from_str(&std::fs::read_to_string(data_path(&format!("{case}.json"))).unwrap())
            .unwrap();
    let input = &meta["inputs"];
    let get = |k: &str| input[k].as_f64().unwrap();
    CaseInputs {
        binary: [get("m1_msun"), get("m2_msun"), get("chi1z"), get("chi2z")],
        settings: Settings::lal(get("f_min_hz"), get("f_ref_hz"), get("deltaT_s")),
        distance: get("distance_mpc"),
        inclination: get("inclination_rad"),
        phi_ref: get("phi_ref_rad"),
        length: meta["output"]["length"].as_u64().unwrap() as usize,
        epoch_ns: meta["output"]["epoch_ns"].as_i64().unwrap(),
    }
}

/// A file of tests/data.
pub fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// Columns of a CSV with a header line, all values parsed as f64.
pub fn read_columns(name: &str) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(data_path(name)).unwrap();
    let mut lines = text.lines();
    let ncol = lines.next().unwrap().split(',').count();
    let mut cols = vec![Vec::new(); ncol];
    for line in lines {
        for (c, v) in cols.iter_mut().zip(line.split(',')) {
            c.push(v.parse::<f64>().unwrap());
        }
    }
    cols
}

/// 1 − ⟨a,b⟩/√(⟨a,a⟩⟨b,b⟩) with the plain sum over samples of h₊ and h×.
pub fn mismatch(a: (&[f64], &[f64]), b: (&[f64], &[f64])) -> f64 {
    let dot = |x: (&[f64], &[f64]), y: (&[f64], &[f64])| -> f64 {
        x.0.iter().zip(y.0).map(|(p, q)| p * q).sum::<f64>()
            + x.1.iter().zip(y.1).map(|(p, q)| p * q).sum::<f64>()
    };
    1.0 - dot(a, b) / (dot(a, a) * dot(b, b)).sqrt()
}

/// LAL's (h₊, h×) of `case` (`<case>.csv`), after checking that `pol` has LAL's length and
/// epoch.
pub fn reference_polarizations(
    case: &str,
    inputs: &CaseInputs,
    pol: &Polarizations,
) -> (Vec<f64>, Vec<f64>) {
    assert_eq!(pol.hp.len(), inputs.length, "{case}: length");
    assert_eq!(pol.epoch_ns, inputs.epoch_ns, "{case}: epoch");
    let mut columns = read_columns(&format!("{case}.csv"));
    let hc = columns.pop().unwrap();
    let hp = columns.pop().unwrap();
    (hp, hc)
}
