//! `tdpe likelihood`: the exact and the relative-binning log-likelihood ratio at given points.
//!
//! The set-up is `tdpe run`'s (same config, data, PSDs, fiducial point and relative-binning
//! options), so the numbers are the ones the sampler sees.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use tdpe_signal::{BbhParameters, PARAMETER_NAMES};

use crate::commands::run::{relative_binning_at_fiducial, set_up};
use crate::config::Config;
use crate::output::atomic;
use crate::prior::GEOCENT_TIME;

/// Evaluates ln L (log-likelihood ratio against noise alone) exactly and by relative binning at
/// each row of a CSV of points, and writes `lnl_exact,lnl_rb,gradient_norm_rb`.
///
/// POINTS has a header naming bilby's 11 parameters (chirp_mass, mass_ratio, chi_1, chi_2,
/// luminosity_distance, theta_jn, psi, phase, geocent_time [GPS s], ra, dec) in any order;
/// other columns are ignored, so a run's samples.csv can be fed back.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  tdpe likelihood examples/default.toml --points tdpe-out/samples.csv --output lnl.csv"
)]
pub struct Args {
    /// Run configuration (TOML), as for `tdpe run`; `default` for the embedded one.
    #[arg(value_name = "CONFIG.toml")]
    pub config: PathBuf,

    /// Points to evaluate (CSV with a header).
    #[arg(long, value_name = "FILE")]
    pub points: PathBuf,

    /// Output CSV (`-` for standard output).
    #[arg(long, value_name = "FILE")]
    pub output: PathBuf,
}

/// Runs `tdpe likelihood`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = if args.config.as_os_str() == "default" {
        Config::load(None)?
    } else {
        Config::load(Some(&args.config))?
    };
    let text = std::fs::read_to_string(&args.points)
        .with_context(|| format!("cannot read {}", args.points.display()))?;
    let points = parse_points(&text, &args.points)?;
    let problem = set_up(config)?;
    let (_, rb) = relative_binning_at_fiducial(&problem, problem.config.sampler.threads)?;

    let mut out = String::from("lnl_exact,lnl_rb,gradient_norm_rb\n");
    for (row, absolute) in points.iter().enumerate() {
        let mut theta = *absolute;
        theta[GEOCENT_TIME] = absolute[GEOCENT_TIME] - problem.epoch.as_f64();
        let p = BbhParameters::from_array(theta);
        let context = || format!("{}: row {} of the points", args.points.display(), row + 1);
        let exact = problem
            .exact
            .log_likelihood_ratio(&p)
            .with_context(context)?;
        let mut gradient = [0.0; 11];
        let relative = rb
            .log_likelihood_ratio_and_gradient(&p, &mut gradient)
            .with_context(context)?;
        let norm = gradient.iter().map(|g| g * g).sum::<f64>().sqrt();
        writeln!(out, "{exact:.17e},{relative:.17e},{norm:.17e}")?;
    }
    if args.output.as_os_str() == "-" {
        print!("{out}");
        Ok(())
    } else {
        atomic::write_bytes(&args.output, out.as_bytes())
    }
}

/// The points of a CSV with a header, as parameter arrays in [`PARAMETER_NAMES`] order
/// (geocent_time absolute GPS).
fn parse_points(text: &str, path: &Path) -> anyhow::Result<Vec<[f64; 11]>> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, header)) = lines.next() else {
        bail!("{}: no header line", path.display());
    };
    let names: Vec<&str> = header.split(',').map(str::trim).collect();
    let columns: Vec<usize> = PARAMETER_NAMES
        .iter()
        .map(|wanted| {
            names.iter().position(|n| n == wanted).with_context(|| {
                format!(
                    "{}: no column '{wanted}' in the header (needs {})",
                    path.display(),
                    PARAMETER_NAMES.join(", ")
                )
            })
        })
        .collect::<anyhow::Result<_>>()?;
    lines
        .map(|(index, line)| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if fields.len() != names.len() {
                bail!(
                    "{}:{}: {} fields, the header has {}: '{line}'",
                    path.display(),
                    index + 1,
                    fields.len(),
                    names.len()
                );
            }
            let mut theta = [0.0; 11];
            for (k, &column) in columns.iter().enumerate() {
                theta[k] = fields[column]
                    .parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .with_context(|| {
                        format!(
                            "{}:{}: {} = '{}' is not a finite number",
                            path.display(),
                            index + 1,
                            PARAMETER_NAMES[k],
                            fields[column]
                        )
                    })?;
            }
            Ok(theta)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_any_order_and_clear_errors() {
        let path = Path::new("points.csv");
        let mut names: Vec<&str> = PARAMETER_NAMES.to_vec();
        names.reverse();
        let header = format!("extra,{}", names.join(","));
        let values: Vec<String> = (0..11).rev().map(|k| k.to_string()).collect();
        let text = format!("{header}\n\n9,{}\n", values.join(","));
        let points = parse_points(&text, path).unwrap();
        assert_eq!(points, vec![std::array::from_fn(|k| k as f64)]);

        let missing = header.replace(",dec", "");
        let err = parse_points(&missing, path).unwrap_err().to_string();
        assert!(err.contains("no column 'dec'"), "{err}");
        let bad = format!("{header}\n9,{}\n", values.join(",").replace("10", "nan"));
        let err = parse_points(&bad, path).unwrap_err().to_string();
        assert!(err.contains("points.csv:2: dec = 'nan'"), "{err}");
        let short = format!("{header}\n1,2\n");
        let err = parse_points(&short, path).unwrap_err().to_string();
        assert!(err.contains("2 fields, the header has 12"), "{err}");
    }
}
