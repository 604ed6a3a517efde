//! The subcommands of `tdpe`, one module each, and what several of them share.

use std::path::Path;

use anyhow::Context;

pub mod campaign;
pub mod config;
pub mod injections;
pub mod likelihood;
pub mod pp;
pub mod run;
pub mod waveform;

/// The example of `tdpe injections --help` and `tdpe campaign --help`: a PP test in three
/// commands.
pub(crate) const PP_TEST_EXAMPLE: &str = "Example (a PP test in three commands):\n  \
     tdpe injections -n 100 --generation-seed 1 -f injections.json\n  \
     tdpe campaign --injection-file injections.json --outdir pp-test\n  \
     tdpe pp pp-test                    # again, after adding runs";

/// A `--prior-file` given on the command line as the config's `prior_file`: a path there is
/// the shell's, relative to the current directory (the config's own paths are relative to the
/// config's folder), so it is made absolute; `default` stays.
pub(crate) fn command_line_prior_file(prior_file: &str) -> anyhow::Result<String> {
    if prior_file == "default" || Path::new(prior_file).is_absolute() {
        return Ok(prior_file.to_string());
    }
    let cwd = std::env::current_dir().context("the current directory")?;
    Ok(cwd.join(prior_file).to_string_lossy().into_owned())
}
