//! `tdpe pp`: the PP test of a campaign's runs ([`crate::campaign::pp`]).

use std::path::PathBuf;

use crate::campaign::pp;

/// Writes the PP test of the runs in a campaign folder (every sub-folder's result.json): a PP
/// plot with 68/95/99.7 % bands and each parameter's Kolmogorov–Smirnov p-value (pp.png), the
/// combined p-value, 90 % interval coverage, and every run's convergence and cost (pp.md,
/// pp.json). `tdpe campaign` writes it when its runs end; this command writes it again, for a
/// campaign whose runs were run elsewhere (a cluster) or added to.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The campaign folder.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Runs `tdpe pp`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    println!("{}", pp::write_report(&args.dir)?);
    Ok(())
}
