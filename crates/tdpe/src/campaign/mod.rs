//! Campaigns: many runs of one configuration, one per injection of a bilby_pipe injection
//! file, run side by side on this machine, and the PP test of their results
//! (docs/campaigns.md).

pub mod injection_file;
pub mod local;
pub mod pp;
pub mod scheduler;
pub mod uniformity;

use anyhow::bail;

use crate::config::{Config, DEFAULT_NOISE_SEED};
use injection_file::InjectionTable;

/// `config` with its `[injection]` replaced by injection `index` of `table`, the run of that
/// injection in a campaign: its noise seed is the config's (or the default's) plus `index`
/// unless the table gives one, zero noise and the injected waveform model stay as the config
/// has them, and the label gains the index.
pub fn with_injection(
    mut config: Config,
    table: &InjectionTable,
    index: usize,
) -> anyhow::Result<Config> {
    if config.strain.is_some() {
        bail!(
            "an injection file needs a config without [strain]: its injections go into \
             simulated noise"
        );
    }
    let seed = config
        .injection
        .as_ref()
        .map_or(DEFAULT_NOISE_SEED, |i| i.noise_seed);
    let mut injection = table.injection(index, seed.wrapping_add(index as u64))?;
    if let Some(base) = &config.injection {
        injection.zero_noise |= base.zero_noise;
        injection.waveform_approximant = base.waveform_approximant;
        injection.mode_array.clone_from(&base.mode_array);
    }
    config.injection = Some(injection);
    config.label = format!("{}_{index}", config.label);
    Ok(config)
}
