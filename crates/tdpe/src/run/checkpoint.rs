//! A run's checkpoint (docs/campaigns.md §5): `checkpoint.bin` in the output folder, the
//! sampler's chains ([`SamplerCheckpoint`]) behind the configuration they belong to. Written
//! whole or not at all (a temporary file renamed over the last one), so a run killed at any
//! moment leaves the last complete checkpoint; removed once the run's products are written.
//!
//! Everything before the chains (the set-up, the fiducial point, a wide posterior's pilot, the
//! Laplace map) is computed again when a run resumes: it is deterministic, so the resumed
//! chains meet the same posterior and draw what the uninterrupted run would have.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use tdpe_mcmc::SamplerCheckpoint;

use crate::config::{Config, SamplerSection};
use crate::output::atomic;

/// The checkpoint's file name in the output folder.
pub const FILE: &str = "checkpoint.bin";
/// The exit status of a run that wrote a checkpoint and stopped: bilby_pipe's
/// `CHECKPOINT_EXIT_CODE`, which its HTCondor jobs declare as `+SuccessCheckpointExitCode`
/// ("checkpointed, run me again").
pub const EXIT_CODE: u8 = 77;
/// The first line of a run checkpoint.
const MAGIC: &[u8] = b"tdpe run checkpoint 1\n";

/// The longest `sampler.checkpoint_interval` (a year).
pub const MAX_INTERVAL_S: f64 = 3.2e7;

/// Whether runs of `sampler` write checkpoints and go on from them: a positive interval, and no
/// tempering (whose ladders are not saved).
pub fn applies(sampler: &SamplerSection) -> bool {
    sampler.checkpoint_interval > 0.0 && sampler.num_temperatures <= 1
}

/// The checkpoint of the run in `outdir`.
pub fn path(outdir: &Path) -> PathBuf {
    outdir.join(FILE)
}

/// What a checkpoint must match to be resumed: tdpe's version and the configuration, less what
/// never changes the draws (threads, the checkpoint interval). The files the configuration
/// names (priors, PSDs, strain) are not compared.
pub fn fingerprint(config: &Config) -> String {
    let mut config = config.clone();
    config.sampler.threads = 0;
    config.sampler.checkpoint_interval = 0.0;
    format!("# tdpe {}\n{}", env!("CARGO_PKG_VERSION"), config.to_toml())
}

/// Writes `checkpoint` of the run with `fingerprint` to `path`, atomically.
pub fn save(path: &Path, fingerprint: &str, checkpoint: &SamplerCheckpoint) -> anyhow::Result<()> {
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&(fingerprint.len() as u64).to_le_bytes());
    bytes.extend_from_slice(fingerprint.as_bytes());
    bytes.extend_from_slice(&checkpoint.to_bytes());
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    atomic::write_bytes(path, &bytes)
}

/// The checkpoint at `path` if there is one; an error if it is damaged or belongs to another
/// configuration (found before any work: the run would otherwise start over and lose it).
pub fn load(path: &Path, fingerprint: &str) -> anyhow::Result<Option<SamplerCheckpoint>> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let other = || {
        format!(
            "{} is not the checkpoint of this run's configuration: remove it to start afresh, \
             or use another --outdir",
            path.display()
        )
    };
    let Some(rest) = bytes.strip_prefix(MAGIC) else {
        bail!("{}: not a tdpe run checkpoint", path.display());
    };
    let (length, rest) = rest.split_at_checked(8).with_context(other)?;
    let length = u64::from_le_bytes(length.try_into()?) as usize;
    let (saved, sampler) = rest.split_at_checked(length).with_context(other)?;
    if saved != fingerprint.as_bytes() {
        bail!(other());
    }
    let checkpoint =
        SamplerCheckpoint::from_bytes(sampler).with_context(|| format!("{}", path.display()))?;
    Ok(Some(checkpoint))
}

/// Removes the checkpoint at `path`, if any: the run it belonged to is complete.
pub fn remove(path: &Path) -> anyhow::Result<()> {
    atomic::remove_if_present(path).with_context(|| format!("cannot remove {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint comes back for its configuration; another configuration's, a damaged or a
    /// foreign file is an error; none is no checkpoint.
    #[test]
    fn checkpoints_belong_to_their_configuration() {
        let dir = std::env::temp_dir().join(format!("tdpe-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = path(&dir);
        let config = Config::default();
        assert!(load(&file, &fingerprint(&config)).unwrap().is_none());
        // A sampler checkpoint of no chains is enough for the framing.
        save(&file, &fingerprint(&config), &SamplerCheckpoint::default()).unwrap();
        let mut threads = config.clone();
        threads.sampler.threads = 7;
        threads.sampler.checkpoint_interval = 5.0;
        assert!(load(&file, &fingerprint(&threads)).unwrap().is_some());
        let mut seed = config.clone();
        seed.sampler.seed = 2;
        let e = format!("{:#}", load(&file, &fingerprint(&seed)).unwrap_err());
        assert!(
            e.contains("not the checkpoint of this run's configuration"),
            "{e}"
        );
        let mut bytes = std::fs::read(&file).unwrap();
        let last = bytes.len() - 3;
        bytes[last] ^= 1;
        std::fs::write(&file, &bytes).unwrap();
        let e = format!("{:#}", load(&file, &fingerprint(&config)).unwrap_err());
        assert!(e.contains("damaged"), "{e}");
        std::fs::write(&file, b"something else").unwrap();
        assert!(load(&file, &fingerprint(&config)).is_err());
        remove(&file).unwrap();
        remove(&file).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
