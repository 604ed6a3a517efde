//! The memory a run needs, estimated from its size before anything is allocated, and the limit
//! it must fit in (docs/reliability.md): a segment too long for the machine is refused with
//! the estimate instead of exhausting memory part-way.

use anyhow::bail;

use crate::config::Config;

/// Peak resident memory per sample of one detector's data. `tdpe run` measured 490–560 B from
/// 32 to 512 s of 2048 Hz data in two detectors; the margin covers the rest of the settings.
const BYTES_PER_SAMPLE: f64 = 700.0;
/// What a run needs whatever its size (45 MB measured at 4 s), with a margin.
const BASE_BYTES: f64 = 100e6;
/// The share of the machine's physical memory a run may use by default.
const DEFAULT_SHARE: f64 = 0.8;
/// The default limit where the physical memory cannot be read.
const FALLBACK_LIMIT_BYTES: f64 = 16e9;

/// The estimated peak memory (bytes) of a run of `config`.
pub fn estimate(config: &Config) -> f64 {
    let samples = config.duration * config.sampling_frequency;
    BASE_BYTES + BYTES_PER_SAMPLE * samples * config.detectors.len() as f64
}

/// The machine's physical memory (bytes), where the system tells it (Linux).
fn physical_memory() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024.0)
}

/// The limit (bytes) of `config`: `max_memory_gb`, or by default 80 % of the physical memory.
pub fn limit(config: &Config) -> f64 {
    if config.max_memory_gb > 0.0 {
        config.max_memory_gb * 1e9
    } else {
        physical_memory().map_or(FALLBACK_LIMIT_BYTES, |total| DEFAULT_SHARE * total)
    }
}

/// Fails if the estimate of `config`'s run exceeds its limit.
pub fn check(config: &Config) -> anyhow::Result<()> {
    let (needed, allowed) = (estimate(config), limit(config));
    if needed > allowed {
        bail!(
            "a run of {} s at {} Hz in {} detectors needs about {:.1} GB, more than the {:.1} GB \
             allowed (max_memory_gb; 0 = 80 % of this machine's memory): shorten duration or \
             lower sampling_frequency",
            config.duration,
            config.sampling_frequency,
            config.detectors.len(),
            needed / 1e9,
            allowed / 1e9
        );
    }
    Ok(())
}
