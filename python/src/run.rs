//! `tdpe.run`: a whole run, as `tdpe run` makes it (`run_analysis`, then every product written
//! by `output::write_all`), with the GIL released while it samples.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use tdpe::output;
use tdpe::run::{run_analysis, RunControl};

use crate::{config, to_py_err};

/// How often the run's thread looks for a Ctrl-C of the Python interpreter.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Runs the analysis of `config` (a TOML file's path, or "default") with `overrides` (dotted
/// keys, e.g. {"sampler.num_draws": 500}) into `outdir`, and returns the path of its
/// result.json (bilby's result layout; `tdpe.bilby.read_result` reads it as a bilby Result).
///
/// A run with checkpoints goes on from the checkpoint in `outdir` if there is one of the same
/// configuration. A signal whose Python handler raises (Ctrl-C's KeyboardInterrupt, bilby's
/// checkpoint-and-exit SystemExit) stops the chains: the draws so far are written (and a
/// checkpoint, from which the same call goes on), then that exception is raised.
#[pyfunction]
#[pyo3(signature = (config = "default", outdir = PathBuf::from("tdpe-out"), overrides = None, progress = true))]
pub fn run(
    py: Python<'_>,
    config: &str,
    outdir: PathBuf,
    overrides: Option<&Bound<'_, PyDict>>,
    progress: bool,
) -> PyResult<String> {
    let config = config::load(config, overrides)?;
    output::check_outdir(&outdir).map_err(to_py_err)?;
    let stop = AtomicBool::new(false);
    let control = RunControl {
        outdir: outdir.clone(),
        progress,
        stop: &stop,
        started: Instant::now(),
    };
    // The exception a signal raised in Python's handler (KeyboardInterrupt for Ctrl-C, or
    // SystemExit from bilby's checkpointing handler), re-raised once the draws are written.
    let mut signalled: Option<PyErr> = None;
    let result = py.detach(|| {
        std::thread::scope(|scope| {
            let worker = scope.spawn(|| run_analysis(config, &control));
            while !worker.is_finished() {
                std::thread::sleep(SIGNAL_POLL);
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    stop.store(true, Ordering::SeqCst);
                    signalled.get_or_insert(e);
                }
            }
            worker
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the run panicked")))
        })
    });
    match (result, signalled) {
        (Ok(result), signalled) if !result.posterior.is_empty() => {
            py.detach(|| output::write_all(&result))
                .map_err(to_py_err)?;
            if let Some(signal) = signalled {
                eprintln!(
                    "interrupted: the {} draws so far are in {}; the same call goes on from \
                     its checkpoint, if it has one",
                    result.posterior.len(),
                    outdir.display()
                );
                return Err(signal);
            }
            Ok(outdir.join("result.json").display().to_string())
        }
        (Ok(_), None) => Err(to_py_err(anyhow::anyhow!("the sampler returned no draws"))),
        (Ok(_), Some(signal)) => {
            eprintln!("interrupted during the warm-up, before any posterior draws");
            Err(signal)
        }
        (Err(_), Some(signal)) => Err(signal),
        (Err(e), None) => Err(to_py_err(e)),
    }
}
