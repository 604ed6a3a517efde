//! `tdpe`: time-domain gravitational-wave parameter estimation.
//!
//! Each subcommand lives in its own module under `commands/`, with its arguments (a clap
//! `Args` struct) and a `run` function; this file only dispatches.

use clap::{Parser, Subcommand};
use tdpe::commands;

/// Time-domain gravitational-wave parameter estimation.
#[derive(Debug, Parser)]
#[command(name = "tdpe", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Waveform(commands::waveform::Args),
    /// Estimate the parameters of a binary black hole (writes result.json, samples.csv,
    /// summary.md and plots).
    Run(Box<commands::run::Args>),
    /// Evaluate the exact and the relative-binning ln L at the points of a CSV file.
    Likelihood(commands::likelihood::Args),
    /// Print the default run configuration (TOML).
    Config(commands::config::Args),
    /// Draw injections from a prior into a bilby_pipe injection file.
    Injections(commands::injections::Args),
    /// Run every injection of an injection file on this machine, then their PP test.
    Campaign(commands::campaign::Args),
    /// Write the PP test of a campaign's runs.
    Pp(commands::pp::Args),
}

fn main() -> std::process::ExitCode {
    let result = match Cli::parse().command {
        Command::Waveform(args) => commands::waveform::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Config(args) => commands::config::run(&args),
        Command::Likelihood(args) => commands::likelihood::run(&args),
        Command::Injections(args) => commands::injections::run(&args),
        Command::Campaign(args) => commands::campaign::run(&args),
        Command::Pp(args) => commands::pp::run(&args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            // One line: the error and its causes, separated by ": ".
            eprintln!("error: {error:#}");
            if error.downcast_ref::<tdpe::run::Checkpointed>().is_some() {
                std::process::ExitCode::from(tdpe::run::checkpoint::EXIT_CODE)
            } else if error.downcast_ref::<tdpe::run::Interrupted>().is_some() {
                std::process::ExitCode::from(130)
            } else {
                std::process::ExitCode::FAILURE
            }
        }
    }
}
