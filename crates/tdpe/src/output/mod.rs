//! The products of a run, written into [`RunResult::outdir`]: `result.json` (bilby's result
//! layout), `samples.csv`, `summary.md`, `corner.png`, `trace.png` and `waveform.png`.
//!
//! One file per product, plus the pieces they share (atomic writing, quantiles, number
//! formatting, the embedded font, densities and contours). Every file is written under a
//! temporary name in the output directory and renamed into place, so a reader never sees a
//! half-written product, and an error leaves the products already written intact.

pub mod atomic;
mod axis;
mod contour;
mod corner;
mod density;
mod font;
mod json;
mod labels;
mod number_format;
mod palette;
mod plot_columns;
mod quantile;
mod result_json;
mod samples_csv;
mod summary_md;
mod trace;
mod waveform_plot;

use anyhow::Context;

use crate::run_result::RunResult;

/// File names of the products, in the order they are written.
pub const PRODUCTS: [&str; 6] = [
    "result.json",
    "samples.csv",
    "summary.md",
    "corner.png",
    "trace.png",
    "waveform.png",
];

/// Writes every product of `result` into `result.outdir` (created if missing).
///
/// Errors name the file that could not be written; products written before it stay complete.
pub fn write_all(result: &RunResult) -> anyhow::Result<()> {
    let outdir = &result.outdir;
    std::fs::create_dir_all(outdir)
        .with_context(|| format!("cannot create output directory {}", outdir.display()))?;
    let [result_json, samples_csv, summary_md, corner, trace, waveform] =
        PRODUCTS.map(|name| outdir.join(name));
    result_json::write(result, &result_json)?;
    samples_csv::write(result, &samples_csv)?;
    summary_md::write(result, &summary_md)?;
    corner::write(result, &corner)?;
    trace::write(result, &trace)?;
    waveform_plot::write(result, &waveform)?;
    Ok(())
}
