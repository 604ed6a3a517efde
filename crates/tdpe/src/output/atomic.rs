//! Atomic file writes: the content goes to a temporary file in the destination's directory,
//! which is then renamed over the destination (a rename within one file system is atomic).

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// The temporary name used while `path` is being written: hidden, unique to this process, in
/// the same directory, and with the same extension (image encoders choose the format by it).
fn temporary_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!(
            ".{stem}.tmp-{}.{}",
            std::process::id(),
            ext.to_string_lossy()
        ),
        None => format!(".{stem}.tmp-{}", std::process::id()),
    };
    path.with_file_name(name)
}

/// Runs `write` on a temporary path next to `path`, then renames the result to `path`. On
/// failure the temporary file is removed and `path` is left as it was.
pub fn write_with(
    path: &Path,
    write: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let temporary = temporary_path(path);
    let outcome = write(&temporary).and_then(|()| {
        std::fs::rename(&temporary, path).with_context(|| {
            format!(
                "cannot rename {} to {}",
                temporary.display(),
                path.display()
            )
        })
    });
    if outcome.is_err() {
        // Best effort: the write may have failed before the file existed.
        let _ = std::fs::remove_file(&temporary);
    }
    outcome.with_context(|| format!("cannot write {}", path.display()))
}

/// Writes `bytes` to `path` atomically (flushed to disk before the rename).
pub fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_with(path, |temporary| {
        let mut file = std::fs::File::create(temporary)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tdpe-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn write_leaves_only_the_destination() {
        let dir = scratch_dir("ok");
        let path = dir.join("a.txt");
        write_bytes(&path, b"first").unwrap();
        write_bytes(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        assert_eq!(entries(&dir), ["a.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn failed_write_keeps_the_old_file_and_no_temporary() {
        let dir = scratch_dir("fail");
        let path = dir.join("b.png");
        write_bytes(&path, b"old").unwrap();
        let error = write_with(&path, |temporary| {
            assert_eq!(temporary.extension().unwrap(), "png");
            std::fs::write(temporary, b"half")?;
            anyhow::bail!("renderer failed")
        })
        .unwrap_err();
        assert!(format!("{error:#}").contains("b.png"), "{error:#}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(entries(&dir), ["b.png"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
