//! `samples.csv`: the posterior table, one row per draw, with a header of column names (the
//! posterior columns in `result.json`'s order, then `chain`). Floats are written in Rust's
//! shortest round-trip form (`NaN`, `inf` and `-inf` for non-finite values, which pandas and
//! numpy read).

use std::fmt::Write;
use std::path::Path;

use super::atomic;
use crate::run_result::RunResult;

/// Writes `samples.csv` for `result` to `path` (atomically).
pub fn write(result: &RunResult, path: &Path) -> anyhow::Result<()> {
    atomic::write_bytes(path, table(result).as_bytes())
}

/// The CSV text.
fn table(result: &RunResult) -> String {
    let columns = &result.posterior.columns;
    let mut out = String::new();
    for column in columns {
        out.push_str(&column.name);
        out.push(',');
    }
    out.push_str("chain\n");
    for (row, chain) in result.posterior.chain.iter().enumerate() {
        for column in columns {
            let value = column.values.get(row).copied().unwrap_or(f64::NAN);
            let _ = write!(out, "{value:?},");
        }
        let _ = writeln!(out, "{chain}");
    }
    out
}
