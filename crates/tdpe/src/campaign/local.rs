//! A campaign run on this machine (docs/campaigns.md §2): every injection checked first, then
//! one `tdpe run --injection-file … --injection-number i` per injection, several side by side,
//! each in its own folder with its log; runs that finished before are kept, so a stopped
//! campaign started again goes on where it stopped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context};

use super::injection_file::InjectionTable;
use super::with_injection;
use crate::config::Config;
use crate::output::atomic;
use crate::output::json::parse_python_json;
use crate::problem::{check_injection, Model};
use crate::run::checkpoint;

/// The campaign folder's copy of the injections, which its runs read.
pub const INJECTIONS: &str = "injections.json";
/// The campaign folder's record of the configuration its runs share.
pub const CONFIG: &str = "config.toml";
/// Each run's log (its standard output and error, appended run after run).
pub const RUN_LOG: &str = "run.log";

/// A campaign to run locally.
pub struct LocalCampaign<'a> {
    /// The configuration file the runs share (None: the embedded default).
    pub config_path: Option<&'a Path>,
    /// The campaign folder.
    pub outdir: &'a Path,
    /// Runs side by side.
    pub jobs: usize,
    /// Worker threads of each run.
    pub threads_per_run: usize,
    /// The `tdpe` executable the runs use.
    pub executable: PathBuf,
    /// Set to stop starting runs (an interrupt).
    pub stop: &'a AtomicBool,
}

/// How a campaign ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Progress {
    /// Runs with a complete result (this time or before).
    pub done: usize,
    /// Runs that ended without one.
    pub failed: usize,
    /// Runs now running.
    pub running: usize,
    /// Runs not started.
    pub waiting: usize,
}

/// The start of every run's folder name.
pub const RUN_PREFIX: &str = "injection_";

/// The folder name of injection `index` in a campaign of `count`.
pub fn run_name(index: usize, count: usize) -> String {
    let width = count.saturating_sub(1).to_string().len().max(4);
    format!("{RUN_PREFIX}{index:0width$}")
}

/// Checks every injection of `table` against `config` (settings, priors, the model's range,
/// the band) before anything runs; the error names each injection that fails (the first ten).
pub fn check_all(config: &Config, table: &InjectionTable) -> anyhow::Result<()> {
    // A spin model without a likelihood fails every injection alike: one line says so.
    Model::new(config)?.with_likelihood()?;
    let failures: Vec<String> = (0..table.rows.len())
        .filter_map(|i| {
            with_injection(config.clone(), table, i)
                .and_then(|c| check_injection(&c))
                .err()
                .map(|e| format!("injection {i}: {e:#}"))
        })
        .collect();
    if failures.is_empty() {
        return Ok(());
    }
    let shown: Vec<&str> = failures.iter().take(10).map(String::as_str).collect();
    bail!(
        "{} of {} injections cannot be run, nothing was started:\n  {}{}",
        failures.len(),
        table.rows.len(),
        shown.join("\n  "),
        if failures.len() > shown.len() {
            "\n  …"
        } else {
            ""
        }
    )
}

/// Writes `text` to `path`, or checks that the file there holds it already: a campaign folder
/// belongs to one set of injections and one configuration.
fn record(path: &Path, text: &str) -> anyhow::Result<()> {
    match std::fs::read_to_string(path) {
        Ok(existing) if existing == text => Ok(()),
        Ok(_) => bail!(
            "{} holds another campaign's {}: use a new folder, or remove it to start over",
            path.parent()
                .map_or_else(String::new, |p| p.display().to_string()),
            path.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            atomic::write_bytes(path, text.as_bytes())
        }
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Makes `outdir` a campaign folder of `config` and `table` (checking every injection first,
/// then recording both, or checking that it holds them already) and returns the injections
/// whose runs have not finished there.
pub fn prepare(
    outdir: &Path,
    config: &Config,
    table: &InjectionTable,
) -> anyhow::Result<Vec<usize>> {
    check_all(config, table)?;
    std::fs::create_dir_all(outdir)
        .with_context(|| format!("cannot create {}", outdir.display()))?;
    record(&outdir.join(CONFIG), &config.to_toml())?;
    record(&outdir.join(INJECTIONS), &table.to_json())?;
    let count = table.rows.len();
    Ok((0..count)
        .filter(|&i| !finished(&outdir.join(run_name(i, count))))
        .collect())
}

/// The arguments of `tdpe` for the run of injection `index` into the folder `name` of the
/// campaign in `outdir` (either may be a scheduler's variable), with `threads` worker threads.
pub fn run_arguments(
    config_path: Option<&Path>,
    outdir: &Path,
    index: &str,
    name: &str,
    threads: usize,
) -> Vec<String> {
    let mut arguments = vec!["run".to_string()];
    arguments.extend(config_path.map(|p| p.display().to_string()));
    arguments.extend([
        "--injection-file".into(),
        outdir.join(INJECTIONS).display().to_string(),
        "--injection-number".into(),
        index.into(),
        "--outdir".into(),
        format!("{}/{name}", outdir.display()),
        "--threads".into(),
        threads.to_string(),
        "--no-progress".into(),
    ]);
    arguments
}

/// Whether the run in `dir` finished with a complete (not interrupted) result.
pub fn finished(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("result.json"))
        .ok()
        .and_then(|text| parse_python_json(&text).ok())
        .is_some_and(|r| r["meta_data"]["interrupted"].as_bool() == Some(false))
}

impl LocalCampaign<'_> {
    /// Runs every injection of `table` not finished before; returns the final progress.
    /// `config` is the loaded `config_path`.
    pub fn run(&self, config: &Config, table: &InjectionTable) -> anyhow::Result<Progress> {
        let pending = prepare(self.outdir, config, table)?;
        let count = table.rows.len();
        let progress = Mutex::new(Progress {
            done: count - pending.len(),
            waiting: pending.len(),
            ..Progress::default()
        });
        let queue = Mutex::new(pending.into_iter());
        eprintln!(
            "campaign: {count} injections, {} finished before; {} at a time, {} thread(s) each",
            count - progress.lock().map_or(0, |p| p.waiting),
            self.jobs,
            self.threads_per_run
        );
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.max(1) {
                scope.spawn(|| self.worker(&queue, &progress, count));
            }
        });
        let progress = *progress
            .lock()
            .map_err(|_| anyhow::anyhow!("a worker panicked"))?;
        Ok(progress)
    }

    /// Takes injections from `queue` and runs them until it is empty or the campaign stops.
    fn worker(
        &self,
        queue: &Mutex<std::vec::IntoIter<usize>>,
        progress: &Mutex<Progress>,
        count: usize,
    ) {
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return;
            }
            let Some(index) = queue.lock().ok().and_then(|mut q| q.next()) else {
                return;
            };
            update(progress, |p| {
                p.waiting -= 1;
                p.running += 1;
            });
            let name = run_name(index, count);
            let started = Instant::now();
            let outcome = self.run_one(index, &name);
            let seconds = started.elapsed().as_secs_f64();
            let ok = matches!(outcome, Ok(RunEnd::Finished));
            let snapshot = update(progress, |p| {
                p.running -= 1;
                if ok {
                    p.done += 1;
                } else {
                    p.failed += 1;
                }
            });
            let how = match outcome {
                Ok(RunEnd::Finished) => format!("finished in {seconds:.0} s"),
                Ok(RunEnd::Checkpointed) => {
                    format!("stopped after {seconds:.0} s with a checkpoint, to go on from")
                }
                Ok(RunEnd::Failed) => {
                    format!("failed after {seconds:.0} s (see {name}/{RUN_LOG})")
                }
                Err(e) => format!("could not start: {e:#}"),
            };
            eprintln!(
                "campaign: {name} {how}; {} done, {} failed, {} running, {} waiting",
                snapshot.done, snapshot.failed, snapshot.running, snapshot.waiting
            );
        }
    }

    /// Runs injection `index` in its folder `name` (resuming from its checkpoint if it left
    /// one), its log appended to the folder's run.log.
    fn run_one(&self, index: usize, name: &str) -> anyhow::Result<RunEnd> {
        let dir = self.outdir.join(name);
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(RUN_LOG))
            .with_context(|| format!("cannot open {}", dir.join(RUN_LOG).display()))?;
        let mut command = Command::new(&self.executable);
        command
            .args(run_arguments(
                self.config_path,
                self.outdir,
                &index.to_string(),
                name,
                self.threads_per_run,
            ))
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log);
        let status = command
            .status()
            .with_context(|| format!("cannot start {}", self.executable.display()))?;
        Ok(if status.success() && finished(&dir) {
            RunEnd::Finished
        } else if status.code() == Some(i32::from(checkpoint::EXIT_CODE)) {
            RunEnd::Checkpointed
        } else {
            RunEnd::Failed
        })
    }
}

/// How one run of a campaign ended.
enum RunEnd {
    /// With a complete result.
    Finished,
    /// Stopped with a checkpoint: it goes on from it when the campaign runs again.
    Checkpointed,
    /// Without a result (its log says why).
    Failed,
}

/// Applies `change` to the shared progress and returns a copy of it.
fn update(progress: &Mutex<Progress>, change: impl FnOnce(&mut Progress)) -> Progress {
    match progress.lock() {
        Ok(mut p) => {
            change(&mut p);
            *p
        }
        Err(poisoned) => *poisoned.into_inner(),
    }
}
