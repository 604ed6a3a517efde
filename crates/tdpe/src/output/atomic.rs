//! Output files written whole or not at all: a regular file (or a new path) is written to a
//! temporary file in its directory, which is then renamed over it (a rename within one file
//! system is atomic). Anything else named as the output — a FIFO, a device such as
//! /dev/stdout, a symlink's target that is not a regular file — is written through, never
//! replaced; a symlink is followed, so the link stays and its target gets the content.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;

/// How an output path is written.
#[derive(Debug, PartialEq)]
enum Destination {
    /// A regular file or a new path (a symlink's target resolved): renamed over.
    Replace(PathBuf),
    /// Anything else: opened for writing and written through.
    WriteThrough,
}

/// How `path` is written: what it names, a symlink followed to its target.
fn destination(path: &Path) -> anyhow::Result<Destination> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Destination::Replace(path.to_path_buf()));
        }
        Err(e) => return Err(e).with_context(|| format!("cannot inspect {}", path.display())),
    };
    let file_type = metadata.file_type();
    if file_type.is_file() {
        Ok(Destination::Replace(path.to_path_buf()))
    } else if file_type.is_symlink() {
        match std::fs::canonicalize(path) {
            Ok(target) if target.is_file() => Ok(Destination::Replace(target)),
            // A dangling link (opening it creates its target) or one to a device, a FIFO.
            _ => Ok(Destination::WriteThrough),
        }
    } else {
        Ok(Destination::WriteThrough)
    }
}

/// The temporary name used while `path` is written: hidden, unique to this process, in the
/// directory `dir`, and with the same extension (image encoders choose the format by it).
fn temporary_path(path: &Path, dir: &Path) -> PathBuf {
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
    dir.join(name)
}

/// Runs `write` on a temporary path, then moves the result to `path`: renamed over a regular
/// file or a new path (flushed to disk first), copied into anything else. On failure the
/// temporary file is removed and a regular `path` is left as it was.
pub fn write_with(
    path: &Path,
    write: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let outcome = match destination(path)? {
        Destination::Replace(target) => {
            let dir = match target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let temporary = temporary_path(&target, dir);
            let outcome = write(&temporary).and_then(|()| {
                std::fs::File::open(&temporary)?.sync_all()?;
                std::fs::rename(&temporary, &target).with_context(|| {
                    format!(
                        "cannot rename {} to {}",
                        temporary.display(),
                        target.display()
                    )
                })
            });
            remove_on_failure(&temporary, outcome)
        }
        Destination::WriteThrough => {
            // The temporary goes where files can be made: a device's directory may not allow it.
            let temporary = temporary_path(path, &std::env::temp_dir());
            let outcome = write(&temporary).and_then(|()| {
                let bytes = std::fs::read(&temporary)?;
                write_through(path, &bytes)
            });
            let _ = std::fs::remove_file(&temporary);
            outcome
        }
    };
    outcome.with_context(|| format!("cannot write {}", path.display()))
}

/// Removes `temporary` if `outcome` failed (best effort: the write may have failed before the
/// file existed).
fn remove_on_failure(temporary: &Path, outcome: anyhow::Result<()>) -> anyhow::Result<()> {
    if outcome.is_err() {
        let _ = std::fs::remove_file(temporary);
    }
    outcome
}

/// Writes `bytes` into what `path` names, which stays what it is.
fn write_through(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.flush()?;
    Ok(())
}

/// Removes the file at `path`; a path where there is none is no error.
pub fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` whole or not at all (see the module's documentation).
pub fn write_bytes(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_with(path, |temporary| Ok(std::fs::write(temporary, bytes)?))
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

    #[cfg(unix)]
    #[test]
    fn symlinks_stay_links_and_their_targets_get_the_content() {
        let dir = scratch_dir("links");
        let target = dir.join("target.csv");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.join("link.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let dangling = dir.join("dangling.csv");
        let missing = dir.join("missing.csv");
        std::os::unix::fs::symlink(&missing, &dangling).unwrap();
        let writes: [fn(&Path) -> anyhow::Result<()>; 2] = [
            |path| write_bytes(path, b"new"),
            |path| write_with(path, |temporary| Ok(std::fs::write(temporary, b"new")?)),
        ];
        for write in writes {
            std::fs::write(&target, b"old").unwrap();
            let _ = std::fs::remove_file(&missing);
            write(&link).unwrap();
            write(&dangling).unwrap();
            for (link, target) in [(&link, &target), (&dangling, &missing)] {
                let kind = std::fs::symlink_metadata(link).unwrap().file_type();
                assert!(kind.is_symlink(), "{} was replaced", link.display());
                assert_eq!(std::fs::read(target).unwrap(), b"new");
            }
        }
        assert_eq!(
            entries(&dir),
            ["dangling.csv", "link.csv", "missing.csv", "target.csv"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_through() {
        use std::os::unix::fs::FileTypeExt;
        let dir = scratch_dir("fifo");
        let fifo = dir.join("out.csv");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(fifo).unwrap())
        };
        write_bytes(&fifo, b"through").unwrap();
        assert_eq!(reader.join().unwrap(), b"through");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the FIFO was replaced");
        assert_eq!(entries(&dir), ["out.csv"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
