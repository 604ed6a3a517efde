//! Multi-chain runner: chains in parallel threads, each with its own random stream derived from
//! (seed, chain index), so the draws do not depend on the number of threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::chain::{chain_rng, ChainRun};
use crate::checkpoint::SamplerCheckpoint;
use crate::config::SamplerConfig;
use crate::kernel::Kernel;
use crate::progress::Progress;
use crate::samples::{ChainDraws, Samples};
use crate::target::LogDensity;
use crate::McmcError;

/// Runs `config.num_chains` chains of `kernel` on `target` in parallel.
pub fn sample<T, K>(target: &T, kernel: &K, config: &SamplerConfig) -> Result<Samples, McmcError>
where
    T: LogDensity + Sync + ?Sized,
    K: Kernel,
{
    sample_until(target, kernel, config, &AtomicBool::new(false))
}

/// Like [`sample`], but every chain stops before its next transition once `stop` is set (for
/// example by a Ctrl-C handler); the draws made so far are returned with
/// [`Samples::interrupted`] set.
pub fn sample_until<T, K>(
    target: &T,
    kernel: &K,
    config: &SamplerConfig,
    stop: &AtomicBool,
) -> Result<Samples, McmcError>
where
    T: LogDensity + Sync + ?Sized,
    K: Kernel,
{
    sample_until_converged(target, kernel, config, stop, |_| None)
}

/// Like [`sample_until`], but once every chain has made its draws, `next_length` looks at them
/// and either ends the run (`None`) or asks for more draws per chain in all (`Some(n)`, n larger
/// than now): the chains then go on from where they are, with their adapted step sizes and
/// metrics, and `next_length` looks again. A chain's draws are those an uninterrupted chain of
/// the final length would make, since each depends only on the chain's own state and stream.
pub fn sample_until_converged<T, K, F>(
    target: &T,
    kernel: &K,
    config: &SamplerConfig,
    stop: &AtomicBool,
    next_length: F,
) -> Result<Samples, McmcError>
where
    T: LogDensity + Sync + ?Sized,
    K: Kernel,
    F: FnMut(&Samples) -> Option<usize>,
{
    sample_with_checkpoints(target, kernel, config, stop, next_length, None)
}

/// How a run saves its chains to go on later (docs/campaigns.md §5).
pub struct Checkpoints<'a> {
    /// The chains to go on from, as an earlier run of the same target and settings saved them;
    /// `None` to start afresh.
    pub resume: Option<SamplerCheckpoint>,
    /// Time between two checkpoints while the chains run.
    pub interval: Duration,
    /// Saves a checkpoint (whole or not at all); an error ends the run with it.
    pub save: &'a (dyn Fn(&SamplerCheckpoint) -> Result<(), String> + Sync),
}

/// Like [`sample_until_converged`], with `checkpoints`: the chains start from
/// `checkpoints.resume` where given, and are saved every `checkpoints.interval` (each chain
/// between two of its transitions, the run paused meanwhile) and when `stop` ends them early.
/// A run resumed from any of these checkpoints makes the draws of a run never stopped, bit for
/// bit.
pub fn sample_with_checkpoints<T, K, F>(
    target: &T,
    kernel: &K,
    config: &SamplerConfig,
    stop: &AtomicBool,
    mut next_length: F,
    checkpoints: Option<&Checkpoints>,
) -> Result<Samples, McmcError>
where
    T: LogDensity + Sync + ?Sized,
    K: Kernel,
    F: FnMut(&Samples) -> Option<usize>,
{
    validate(target.dim(), kernel, config)?;
    let progress = Progress::new(
        config.progress,
        config.num_chains,
        config.num_warmup + config.num_draws,
    );
    let mut runs: Vec<Option<Box<ChainRun<'_, T>>>> = match checkpoints
        .and_then(|c| c.resume.as_ref())
    {
        Some(resume) => {
            if resume.num_chains() != config.num_chains {
                return Err(McmcError::Checkpoint(format!(
                    "the checkpoint holds {} chains, the run {}",
                    resume.num_chains(),
                    config.num_chains
                )));
            }
            resume
                .chains
                .iter()
                .enumerate()
                .map(|(chain, saved)| {
                    saved
                        .as_ref()
                        .map(|saved| {
                            ChainRun::restore(target, config, chain, saved, progress.chain(chain))
                                .map(Box::new)
                        })
                        .transpose()
                })
                .collect::<Result<_, _>>()?
        }
        None => (0..config.num_chains).map(|_| None).collect(),
    };
    let mut length = runs
        .iter()
        .flatten()
        .map(|run| run.planned_draws())
        .fold(config.num_draws, usize::max);
    let save = |runs: &[Option<Box<ChainRun<'_, T>>>]| -> Result<(), McmcError> {
        let Some(checkpoints) = checkpoints else {
            return Ok(());
        };
        let checkpoint = SamplerCheckpoint {
            chains: runs
                .iter()
                .map(|run| run.as_ref().map(|run| run.checkpoint()))
                .collect(),
        };
        (checkpoints.save)(&checkpoint).map_err(McmcError::Checkpoint)
    };
    let runs = loop {
        // An interval too long to add to the clock never comes due.
        let pause = checkpoints.and_then(|c| {
            Some(Pause {
                due: Instant::now().checked_add(c.interval)?,
                raised: AtomicBool::new(false),
            })
        });
        let outcome = run_chains(
            target,
            kernel,
            config,
            stop,
            pause.as_ref(),
            &progress,
            runs,
        )
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
        if outcome.iter().any(|(_, paused)| *paused) {
            runs = outcome.into_iter().map(|(run, _)| run).collect();
            save(&runs)?;
            continue;
        }
        let finished: Vec<Box<ChainRun<'_, T>>> =
            outcome.into_iter().filter_map(|(run, _)| run).collect();
        if finished.iter().any(|run| run.stopped()) {
            let saved: Vec<_> = finished.into_iter().map(Some).collect();
            save(&saved)?;
            break saved.into_iter().flatten().collect::<Vec<_>>();
        }
        let so_far = finished.iter().map(|run| run.snapshot()).collect();
        match next_length(&collect_samples(kernel, target.dim(), so_far, config)) {
            Some(more) if more > length => {
                length = more;
                runs = finished
                    .into_iter()
                    .map(|mut run| {
                        run.extend_to(length);
                        Some(run)
                    })
                    .collect();
            }
            _ => break finished,
        }
    };
    // A chain stopped after a lengthening has its planned draws of `config` but not its own.
    let stopped = runs.iter().any(|run| run.stopped());
    let chains = runs.into_iter().map(|run| run.finish(config)).collect();
    let mut samples = collect_samples(kernel, target.dim(), chains, config);
    samples.interrupted |= stopped;
    Ok(samples)
}

/// A pause of the chains for a checkpoint: raised by the first worker that finds the time
/// `due` passed; each worker then returns its chain and stops.
struct Pause {
    due: Instant,
    raised: AtomicBool,
}

/// The run's [`Samples`], marked interrupted if any chain stopped short of `config`'s lengths.
pub(crate) fn collect_samples<K: Kernel>(
    kernel: &K,
    dim: usize,
    chains: Vec<ChainDraws>,
    config: &SamplerConfig,
) -> Samples {
    let interrupted = chains
        .iter()
        .any(|c| c.warmup_stats.len() < config.num_warmup || c.num_draws() < config.num_draws);
    Samples {
        kernel: kernel.name(),
        dim,
        chains,
        interrupted,
    }
}

/// Transitions a worker makes on one chain before it takes the least advanced one again
/// (~10² ms on the default problem: few lock turns, a short wait for the last chain).
const SEGMENT: usize = 10;

/// Runs every chain of `runs` (not started yet where `None`) to its planned length on the
/// worker threads in segments of [`SEGMENT`] transitions, each worker taking the least advanced
/// chain that no other worker holds. So the workers stay busy until fewer chains than workers
/// remain, where whole chains per worker leave one idle once its last chain is done (4 chains on
/// 2 threads: ~5 % of the default run's wall time). A chain's draws depend only on its own state
/// and random stream, not on which worker runs a segment. Once `pause` is raised the workers
/// stop taking chains. Results in chain order, each chain with whether it was paused before its
/// end (`None` for one not started).
#[allow(clippy::type_complexity)]
fn run_chains<'a, T, K>(
    target: &'a T,
    kernel: &K,
    config: &SamplerConfig,
    stop: &AtomicBool,
    pause: Option<&Pause>,
    progress: &'a Progress,
    runs: Vec<Option<Box<ChainRun<'a, T>>>>,
) -> Vec<Result<(Option<Box<ChainRun<'a, T>>>, bool), McmcError>>
where
    T: LogDensity + Sync + ?Sized,
    K: Kernel,
{
    enum Slot<'a, T: ?Sized> {
        /// Waiting for a worker: not started yet (`None`), or between segments.
        Ready(Option<Box<ChainRun<'a, T>>>),
        /// A worker is running a segment.
        Held,
        Done(Result<Box<ChainRun<'a, T>>, McmcError>),
    }
    let slots: Mutex<Vec<Slot<'a, T>>> = Mutex::new(runs.into_iter().map(Slot::Ready).collect());
    let lock = || slots.lock().unwrap_or_else(PoisonError::into_inner);
    let paused = || pause.is_some_and(|p| p.raised.load(Ordering::SeqCst));
    thread::scope(|scope| {
        for _ in 0..worker_count(config) {
            scope.spawn(|| loop {
                if paused() {
                    return;
                }
                let (chain, run) = {
                    let mut slots = lock();
                    let next = slots
                        .iter()
                        .enumerate()
                        .filter_map(|(chain, slot)| match slot {
                            Slot::Ready(Some(run)) if run.is_finished(config) => None,
                            Slot::Ready(run) => {
                                Some((run.as_ref().map_or(0, |run| run.transitions()), chain))
                            }
                            _ => None,
                        })
                        .min();
                    // Every chain left is done (finished ones are not taken again) or held by a
                    // worker that will go on with it.
                    let Some((_, chain)) = next else { return };
                    let Slot::Ready(run) = std::mem::replace(&mut slots[chain], Slot::Held) else {
                        unreachable!("the chain was ready")
                    };
                    (chain, run)
                };
                let run = match run {
                    Some(run) => Ok(run),
                    None => ChainRun::start(
                        target,
                        kernel,
                        config,
                        chain,
                        chain_rng(config.seed, chain),
                        progress.chain(chain),
                    )
                    .map(Box::new),
                };
                let slot = match run.and_then(|mut run| {
                    run.advance(kernel, config, SEGMENT, stop)?;
                    Ok(run)
                }) {
                    Ok(run) if run.is_finished(config) => Slot::Done(Ok(run)),
                    Ok(run) => Slot::Ready(Some(run)),
                    Err(e) => Slot::Done(Err(e)),
                };
                if let Some(pause) = pause {
                    if Instant::now() >= pause.due {
                        pause.raised.store(true, Ordering::SeqCst);
                    }
                }
                lock()[chain] = slot;
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .map(|slot| match slot {
            Slot::Done(result) => result.map(|run| (Some(run), false)),
            // A chain that finished before the pause is done, not paused.
            Slot::Ready(run) => {
                let paused = !run.as_ref().is_some_and(|run| run.is_finished(config));
                Ok((run, paused))
            }
            Slot::Held => unreachable!("the workers return every chain they hold"),
        })
        .collect()
}

/// Worker threads for `config`: `threads`, or all cores if 0, and no more than the chains.
fn worker_count(config: &SamplerConfig) -> usize {
    match config.threads {
        0 => thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
    .min(config.num_chains)
}

/// Runs `run(chain)` for every chain of `config` on `config.threads` scoped worker threads, each
/// taking the next chain when it is done with one; returns the results in chain order, so they
/// do not depend on the number of threads as long as `run` depends only on its chain index.
pub(crate) fn for_each_chain<O, F>(config: &SamplerConfig, run: F) -> Vec<O>
where
    O: Send,
    F: Fn(usize) -> O + Sync,
{
    let workers = worker_count(config);
    let next_chain = AtomicUsize::new(0);
    let mut results: Vec<(usize, O)> = thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let chain = next_chain.fetch_add(1, Ordering::Relaxed);
                        if chain >= config.num_chains {
                            return done;
                        }
                        done.push((chain, run(chain)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a sampler thread panicked"))
            .collect()
    });
    results.sort_by_key(|(chain, _)| *chain);
    results.into_iter().map(|(_, result)| result).collect()
}

/// Checks the settings shared by every runner against the target dimension and the kernel.
pub(crate) fn validate<K: Kernel>(
    dim: usize,
    kernel: &K,
    config: &SamplerConfig,
) -> Result<(), McmcError> {
    let invalid = |name, value: String, allowed| {
        Err(McmcError::InvalidSetting {
            name,
            value,
            allowed,
        })
    };
    if dim == 0 {
        return invalid("target dimension", "0".into(), "at least 1");
    }
    if config.num_chains == 0 {
        return invalid("num_chains", "0".into(), "at least 1");
    }
    let accept = kernel.target_accept();
    if !(accept > 0.0 && accept < 1.0) {
        return invalid(
            "target_accept",
            accept.to_string(),
            "strictly between 0 and 1",
        );
    }
    let radius = config.init.radius;
    if !(radius.is_finite() && radius >= 0.0) {
        return invalid("init.radius", radius.to_string(), "finite and ≥ 0");
    }
    if config.init.max_attempts == 0 {
        return invalid("init.max_attempts", "0".into(), "at least 1");
    }
    if let Some(center) = &config.init.center {
        if center.len() != dim {
            return Err(McmcError::DimensionMismatch {
                what: "init.center",
                expected: dim,
                got: center.len(),
            });
        }
    }
    if let Some(metric) = &config.initial_metric {
        if metric.dim() != dim {
            return Err(McmcError::DimensionMismatch {
                what: "initial_metric",
                expected: dim,
                got: metric.dim(),
            });
        }
    }
    Ok(())
}
