//! `tdpe campaign`: one run per injection of an injection file, side by side on this machine,
//! then the PP test of their results ([`crate::campaign`]).

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{bail, Context};

use crate::campaign::injection_file::InjectionTable;
use crate::campaign::local::{prepare, LocalCampaign};
use crate::campaign::pp;
use crate::campaign::scheduler::{absolute, Scheduler, SchedulerCampaign};
use crate::config::Config;
use crate::memory;
use crate::run::Interrupted;

/// Runs one `tdpe run` per injection of a bilby_pipe injection file (.json or .dat), each
/// into OUTDIR/injection_NNNN/ with its log, several side by side, then writes the PP test of
/// their results (pp.png, pp.md, pp.json in OUTDIR). Every injection is checked before any run
/// starts. Started again with the same OUTDIR, it keeps the runs that finished and runs the
/// others; an interrupt stops starting runs and lets the running ones write what they drew.
#[derive(Debug, clap::Args)]
#[command(after_help = super::PP_TEST_EXAMPLE)]
pub struct Args {
    /// Run configuration the runs share, its `[injection]` replaced by each injection in turn
    /// (noise seed: the config's plus the injection's number); default: the embedded default.
    #[arg(value_name = "CONFIG.toml")]
    pub config: Option<PathBuf>,

    /// The injections (bilby_pipe's .json or .dat; `tdpe injections` writes one).
    #[arg(long, value_name = "FILE")]
    pub injection_file: PathBuf,

    /// The campaign folder (created if missing).
    #[arg(long, value_name = "DIR", default_value = "tdpe-campaign")]
    pub outdir: PathBuf,

    /// Runs side by side (default: the machine's cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Worker threads of each run.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads_per_run: usize,

    /// Write the campaign for this scheduler into OUTDIR/submit/ (a Slurm job array and a
    /// merge job after it, or an HTCondor DAG with a final merge node) instead of running it
    /// here; only the runs not finished in OUTDIR are submitted.
    #[arg(long, value_enum)]
    pub scheduler: Option<Scheduler>,

    /// Memory each run asks the scheduler for (MB); default: twice tdpe's estimate for the
    /// config, at least 1000.
    #[arg(long, value_name = "MB")]
    pub request_memory_mb: Option<u64>,
}

/// Set by an interrupt: no run starts after it.
static STOP: AtomicBool = AtomicBool::new(false);

/// Runs `tdpe campaign`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if args.jobs == Some(0) || args.threads_per_run == 0 {
        bail!("--jobs and --threads-per-run must be at least 1");
    }
    let config = Config::load(args.config.as_deref())?;
    let table = InjectionTable::read(&args.injection_file)?;
    let executable = std::env::current_exe().context("the tdpe executable's path")?;
    if let Some(scheduler) = args.scheduler {
        let pending = prepare(&args.outdir, &config, &table)?;
        if pending.is_empty() {
            println!("{}", pp::write_report(&args.outdir)?);
            println!("tdpe campaign: every run has finished; nothing to submit");
            return Ok(());
        }
        let outdir = absolute(&args.outdir)?;
        let config_path = args.config.as_deref().map(absolute).transpose()?;
        let estimate_mb = (2.0 * memory::estimate(&config) / 1e6).ceil() as u64;
        let command = SchedulerCampaign {
            config_path: config_path.as_deref(),
            outdir: &outdir,
            executable: &executable,
            count: table.rows.len(),
            pending: &pending,
            threads_per_run: args.threads_per_run,
            memory_mb: args.request_memory_mb.unwrap_or(estimate_mb.max(1000)),
        }
        .write(scheduler)?;
        println!(
            "tdpe campaign: {} of {} runs to submit; submit them with\n  {command}\nthe PP test \
             follows them (or: tdpe pp {})",
            pending.len(),
            table.rows.len(),
            args.outdir.display()
        );
        return Ok(());
    }
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    // The runs share the terminal's process group: an interrupt reaches them too, and each
    // writes its draws so far.
    let _ = ctrlc::set_handler(|| {
        if !STOP.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted: no further runs start; the running ones write their draws");
        }
    });
    let campaign = LocalCampaign {
        config_path: args.config.as_deref(),
        outdir: &args.outdir,
        jobs,
        threads_per_run: args.threads_per_run,
        executable,
        stop: &STOP,
    };
    let progress = campaign.run(&config, &table)?;
    if progress.done > 0 {
        println!("{}", pp::write_report(&args.outdir)?);
    }
    if STOP.load(Ordering::SeqCst) {
        return Err(Interrupted(format!(
            "{} of {} runs finished; the same command goes on with the others",
            progress.done,
            table.rows.len()
        ))
        .into());
    }
    if progress.failed > 0 {
        bail!(
            "{} of {} runs failed (their run.log says why; the same command runs them again)",
            progress.failed,
            table.rows.len()
        );
    }
    Ok(())
}
