//! What the tests against LAL's reference files share: the files and the mismatch.

use std::path::PathBuf;

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
