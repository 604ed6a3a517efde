//! The products of a run, written into [`RunResult::outdir`]: `result.json` (bilby's result
//! layout), `samples.csv`, `summary.md`, `corner.png`, `corner_source_frame.png`, `trace.png`,
//! `waveform.png`, `skymap.png` and `spectrum.png`.
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
pub(crate) mod json;
mod labels;
mod mollweide;
mod number_format;
mod palette;
mod plot_columns;
pub(crate) mod pp_plot;
pub(crate) mod quantile;
mod result_json;
mod samples_csv;
mod sky_density;
mod skymap;
mod spectrum_plot;
mod summary_md;
mod trace;
mod waveform_plot;

use std::path::Path;

use anyhow::Context;

use crate::run_result::RunResult;

/// File names of the products, in the order they are written.
pub const PRODUCTS: [&str; 9] = [
    "result.json",
    "samples.csv",
    "summary.md",
    "corner.png",
    "corner_source_frame.png",
    "trace.png",
    "waveform.png",
    "skymap.png",
    "spectrum.png",
];

/// Makes sure the products can be written into `outdir` before a run does any expensive
/// work, without creating it: it must be a directory this process can create files in, or
/// a new path whose nearest existing ancestor is one.
pub fn check_outdir(outdir: &Path) -> anyhow::Result<()> {
    let cannot = || format!("cannot write into output directory {}", outdir.display());
    let existing = outdir
        .ancestors()
        .map(|a| {
            if a.as_os_str().is_empty() {
                Path::new(".")
            } else {
                a
            }
        })
        .find(|a| std::fs::symlink_metadata(a).is_ok())
        .unwrap_or(Path::new("."));
    if !existing.is_dir() {
        let what = if std::fs::symlink_metadata(existing).is_ok_and(|m| m.is_symlink()) {
            "a symlink that does not lead to a directory"
        } else {
            "not a directory"
        };
        anyhow::bail!("{}: {} is {what}", cannot(), existing.display());
    }
    let probe = existing.join(format!(".tdpe-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").with_context(cannot)?;
    std::fs::remove_file(&probe).with_context(cannot)?;
    check_no_product_is_a_directory(outdir)
}

/// Fails if a product's path in `outdir` is a directory (which no write can replace).
fn check_no_product_is_a_directory(outdir: &Path) -> anyhow::Result<()> {
    let is_dir = |path: &Path| std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    match PRODUCTS
        .map(|name| outdir.join(name))
        .iter()
        .find(|p| is_dir(p))
    {
        Some(path) => anyhow::bail!("cannot write {}: it is a directory", path.display()),
        None => Ok(()),
    }
}

/// Writes every product of `result` into `result.outdir` (created if missing).
///
/// The products of an earlier run there are removed first, so that the directory never holds
/// one run's results beside another's plots; a product's path that is a directory is an error
/// before anything is touched. Errors name the file that could not be written; products
/// written before it stay complete.
pub fn write_all(result: &RunResult) -> anyhow::Result<()> {
    let outdir = &result.outdir;
    std::fs::create_dir_all(outdir)
        .with_context(|| format!("cannot create output directory {}", outdir.display()))?;
    check_no_product_is_a_directory(outdir)?;
    let paths = PRODUCTS.map(|name| outdir.join(name));
    for path in &paths {
        atomic::remove_if_present(path)
            .with_context(|| format!("cannot remove {} of an earlier run", path.display()))?;
    }
    let [result_json, samples_csv, summary_md, corner, corner_source_frame, trace, waveform, skymap, spectrum] =
        paths;
    let sky = skymap::SkyLocalisation::of(result);
    result_json::write(result, &result_json)?;
    samples_csv::write(result, &samples_csv)?;
    summary_md::write(result, sky.as_ref(), &summary_md)?;
    corner::write(result, &corner)?;
    corner::write_source_frame(result, &corner_source_frame)?;
    trace::write(result, &trace)?;
    waveform_plot::write(result, &waveform)?;
    skymap::write(result, sky.as_ref(), &skymap)?;
    spectrum_plot::write(result, &spectrum)?;
    Ok(())
}
