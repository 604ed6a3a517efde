//! `tdpe config`: prints the default run configuration (`examples/default.toml`).

/// Prints the default configuration of `tdpe run` (TOML, every key with its default) as a
/// starting point: `tdpe config > my.toml`, edit, `tdpe run my.toml`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs `tdpe config`.
pub fn run(_args: &Args) -> anyhow::Result<()> {
    print!("{}", crate::config::DEFAULT_CONFIG);
    Ok(())
}
