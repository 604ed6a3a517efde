//! `tdpe injections`: draws injections from a prior into a bilby_pipe injection file, as
//! `bilby_pipe_create_injection_file` does.

use std::path::PathBuf;

use anyhow::bail;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use tdpe_signal::Parameter;

use crate::campaign::injection_file::{InjectionFormat, InjectionTable};
use crate::campaign::local::check_all;
use crate::config::Config;
use crate::output::atomic;
use crate::problem::Model;

/// The most injections one file holds.
const MAX_INJECTIONS: usize = 1_000_000;

/// Draws injections from the prior of a run configuration (every parameter, the mass
/// constraints by drawing again) into a bilby_pipe injection file, for `tdpe campaign` or
/// bilby_pipe's `injection-file`. Every injection is checked as `tdpe run` would check it.
#[derive(Debug, clap::Args)]
#[command(after_help = super::PP_TEST_EXAMPLE)]
pub struct Args {
    /// Run configuration whose prior_file, trigger_time and model the draws follow (default:
    /// the embedded default).
    #[arg(value_name = "CONFIG.toml")]
    pub config: Option<PathBuf>,

    /// Prior file in bilby syntax, or `default`, in place of the config's.
    #[arg(long, value_name = "FILE")]
    pub prior_file: Option<String>,

    /// Number of injections.
    #[arg(short = 'n', long, value_name = "N")]
    pub n_injection: usize,

    /// Seed of the draws (bilby_pipe's --generation-seed).
    #[arg(short = 's', long, value_name = "S", default_value_t = 1)]
    pub generation_seed: u64,

    /// Output file: .json (bilby's DataFrame encoding) or .dat (space-separated).
    #[arg(
        short = 'f',
        long,
        value_name = "FILE",
        default_value = "injections.json"
    )]
    pub filename: PathBuf,
}

/// Runs `tdpe injections`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if !(1..=MAX_INJECTIONS).contains(&args.n_injection) {
        bail!("--n-injection must be between 1 and {MAX_INJECTIONS}");
    }
    let format = InjectionFormat::of_path(&args.filename)?;
    let mut config = Config::load(args.config.as_deref())?;
    if let Some(p) = &args.prior_file {
        config.prior_file = super::command_line_prior_file(p)?;
    }
    Model::new(&config)?.with_likelihood()?;
    let table = draw(&config, args.n_injection, args.generation_seed)?;
    check_all(&config, &table)?;
    atomic::write_bytes(&args.filename, table.to_format(format).as_bytes())?;
    println!(
        "tdpe injections: {} injections from {} (seed {}) in {}",
        args.n_injection,
        if config.prior_file == "default" {
            "the default prior"
        } else {
            &config.prior_file
        },
        args.generation_seed,
        args.filename.display()
    );
    Ok(())
}

/// `count` draws from the priors of `config`, every parameter of its spin model a column
/// (geocent_time in GPS seconds), from the generator seeded with `seed`.
pub fn draw(config: &Config, count: usize, seed: u64) -> anyhow::Result<InjectionTable> {
    let Model { epoch, priors, .. } = Model::new(config)?;
    let parameters = priors.spin_model.parameters();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let rows = (0..count)
        .map(|_| {
            let mut theta = priors.draw(&mut rng)?;
            theta[Parameter::GeocentTime] += epoch.as_f64();
            Ok(parameters.iter().map(|&p| theta[p]).collect())
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(InjectionTable {
        columns: parameters.iter().map(|p| p.name().to_string()).collect(),
        rows,
    })
}
