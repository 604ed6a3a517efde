//! `tdpe run`: parameter estimation of one binary black hole, end to end ([`crate::run`]),
//! with the command line's overrides of the configuration, Ctrl-C, and the products written.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tdpe_posterior::{IntrinsicCoordinates, PhaseCoordinate, ReferenceFrame};

use crate::campaign::injection_file::InjectionTable;
use crate::campaign::with_injection;
use crate::config::{Config, KernelName, MetricName};
use crate::output;
use crate::run::{checkpoint, run_analysis, Checkpointed, Interrupted, RunControl};

/// Runs parameter estimation and writes result.json, samples.csv, summary.md and plots.
///
/// Without CONFIG, analyses the embedded default: a GW150914-like injection (36 + 29 M☉,
/// χ 0.3/−0.2, 1200 Mpc) in simulated design-sensitivity noise of H1 and L1, 4 s at 2048 Hz
/// (print it with `tdpe config`). Flags override the config's values.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  tdpe run                           # the default injection, into tdpe-out/\n  \
                        tdpe run examples/gw150914.toml --outdir gw150914\n  \
                        tdpe run --sampler mala --n-chains 8 --seed 3\n  \
                        tdpe config > my.toml              # a starting point"
)]
pub struct Args {
    /// Run configuration (TOML); see `tdpe config` for every key and its default.
    #[arg(value_name = "CONFIG.toml")]
    pub config: Option<PathBuf>,

    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR", default_value = "tdpe-out")]
    pub outdir: PathBuf,

    /// MCMC kernel [config: sampler.kernel].
    #[arg(long, value_enum)]
    pub sampler: Option<KernelName>,

    /// Metric learned in the warm-up [config: sampler.metric].
    #[arg(long, value_enum)]
    pub metric: Option<MetricName>,

    /// Sky and time coordinates of the sampler [config: sampler.reference_frame].
    #[arg(long, value_enum)]
    pub reference_frame: Option<ReferenceFrame>,

    /// Mass-ratio and spin coordinates of the sampler [config: sampler.intrinsic_coordinates].
    #[arg(long, value_enum)]
    pub intrinsic_coordinates: Option<IntrinsicCoordinates>,

    /// Sample the chirp mass within the range the mass constraints leave at each mass ratio
    /// [config: sampler.constrained_chirp_mass].
    #[arg(long, value_name = "BOOL")]
    pub constrained_chirp_mass: Option<bool>,

    /// Phase coordinate of the sampler [config: sampler.phase_coordinate].
    #[arg(long, value_enum)]
    pub phase_coordinate: Option<PhaseCoordinate>,

    /// Sample phase ± psi instead of phase and psi [config: sampler.circular_phases].
    #[arg(long, value_name = "BOOL")]
    pub circular_phases: Option<bool>,

    /// Try the face-on/face-off mirror of theta_jn and psi (precessing spins: and phi_jl)
    /// after every transition [config: sampler.inclination_mirror].
    #[arg(long, value_name = "BOOL")]
    pub inclination_mirror: Option<bool>,

    /// Try the reflection between the two ends of the two-detector sky ring after every
    /// transition [config: sampler.sky_ring_reflection].
    #[arg(long, value_name = "BOOL")]
    pub sky_ring_reflection: Option<bool>,

    /// Try the orbit move through whole-sample time shifts after every transition, where
    /// relative binning follows them [config: sampler.time_orbit].
    #[arg(long, value_name = "BOOL")]
    pub time_orbit: Option<bool>,
    /// Whole-sample time steps the likelihood of a wide posterior is summed over; 0: none
    /// [config: sampler.time_steps].
    #[arg(long, value_name = "N")]
    pub time_steps: Option<usize>,
    /// Independence proposals after every transition, for a wide posterior; 0: none
    /// [config: sampler.independence_proposals].
    #[arg(long, value_name = "N")]
    pub independence_proposals: Option<usize>,
    /// Largest NUTS tree depth [config: sampler.max_tree_depth].
    #[arg(long, value_name = "D")]
    pub max_tree_depth: Option<u32>,

    /// Marginalise the likelihood over luminosity_distance, drawing each sample's distance
    /// afterwards [config: sampler.distance_marginalization].
    #[arg(long, value_name = "BOOL")]
    pub distance_marginalization: Option<bool>,

    /// Marginalise the likelihood over the phase, drawing each sample's phase afterwards
    /// [config: sampler.phase_marginalization].
    #[arg(long, value_name = "BOOL")]
    pub phase_marginalization: Option<bool>,

    /// Temperatures per chain; > 1 runs parallel tempering [config: sampler.num_temperatures].
    #[arg(long, value_name = "K")]
    pub temperatures: Option<usize>,

    /// Number of chains [config: sampler.num_chains].
    #[arg(long, value_name = "N")]
    pub n_chains: Option<usize>,

    /// Warm-up iterations per chain [config: sampler.num_warmup].
    #[arg(long, value_name = "N")]
    pub n_warmup: Option<usize>,

    /// Kept draws per chain, at least [config: sampler.num_draws].
    #[arg(long, value_name = "N")]
    pub n_draws: Option<usize>,

    /// Smallest bulk ESS (with R̂ < 1.01) of every parameter; the chains go on past the
    /// draws until it is reached; 0 = exactly the draws [config: sampler.target_ess].
    #[arg(long, value_name = "ESS")]
    pub target_ess: Option<f64>,

    /// The most draws per chain when the run goes on for the target ESS; default 4 × the draws
    /// [config: sampler.max_draws].
    #[arg(long, value_name = "N")]
    pub max_draws: Option<usize>,

    /// Master seed of the chains, the relative-binning design and the search
    /// [config: sampler.seed].
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,

    /// Seconds between checkpoints of the chains (checkpoint.bin in the output folder, also
    /// written when the run is stopped; the same command then goes on from it); 0: none
    /// [config: sampler.checkpoint_interval].
    #[arg(long, value_name = "S")]
    pub checkpoint_interval: Option<f64>,

    /// Worker threads, 0 = all cores; never changes the results [config: sampler.threads].
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Target acceptance statistic of the step-size adaptation; default 0.95 for NUTS and HMC,
    /// the kernel's own for MALA [config: sampler.target_accept].
    #[arg(long, value_name = "P")]
    pub target_accept: Option<f64>,

    /// Relative-binning accuracy target ≈ (wanted |Δ ln L|)² [config:
    /// likelihood.relative_binning_target].
    #[arg(long, value_name = "T")]
    pub rb_target: Option<f64>,

    /// Prior file in bilby syntax, or `default` [config: prior_file].
    #[arg(long, value_name = "FILE")]
    pub prior_file: Option<String>,

    /// bilby_pipe injection file (.json or .dat): its injection --injection-number replaces
    /// the config's `[injection]`, with the config's noise seed plus the number (a `noise_seed`
    /// column overrides it), as a campaign runs it.
    #[arg(long, value_name = "FILE")]
    pub injection_file: Option<PathBuf>,

    /// Which injection of --injection-file, from 0.
    #[arg(
        long,
        value_name = "I",
        requires = "injection_file",
        default_value_t = 0
    )]
    pub injection_number: usize,

    /// Noise seed of the injection [config: injection.noise_seed].
    #[arg(long, value_name = "S")]
    pub noise_seed: Option<u64>,

    /// Inject into zero noise [config: injection.zero_noise].
    #[arg(long)]
    pub zero_noise: bool,

    /// Run label [config: label].
    #[arg(long)]
    pub label: Option<String>,

    /// Do not draw the progress bar.
    #[arg(long)]
    pub no_progress: bool,
}

/// Applies the command-line overrides.
fn apply_overrides(config: &mut Config, args: &Args) -> anyhow::Result<()> {
    if let Some(path) = &args.injection_file {
        let table = InjectionTable::read(path)?;
        *config = with_injection(std::mem::take(config), &table, args.injection_number)?;
    }
    let s = &mut config.sampler;
    if let Some(k) = args.sampler {
        s.kernel = k;
    }
    if let Some(m) = args.metric {
        s.metric = m;
    }
    if let Some(f) = args.reference_frame {
        s.reference_frame = f;
    }
    if let Some(c) = args.intrinsic_coordinates {
        s.intrinsic_coordinates = c;
    }
    if let Some(c) = args.constrained_chirp_mass {
        s.constrained_chirp_mass = c;
    }
    if let Some(c) = args.phase_coordinate {
        s.phase_coordinate = c;
    }
    if let Some(c) = args.circular_phases {
        s.circular_phases = c;
    }
    if let Some(m) = args.inclination_mirror {
        s.inclination_mirror = m;
    }
    if let Some(m) = args.sky_ring_reflection {
        s.sky_ring_reflection = m;
    }
    if let Some(m) = args.time_orbit {
        s.time_orbit = m;
    }
    if let Some(n) = args.time_steps {
        s.time_steps = Some(n);
    }
    if let Some(n) = args.independence_proposals {
        s.independence_proposals = Some(n);
    }
    if let Some(d) = args.max_tree_depth {
        s.max_tree_depth = Some(d);
    }
    if let Some(m) = args.distance_marginalization {
        s.distance_marginalization = m;
    }
    if let Some(m) = args.phase_marginalization {
        s.phase_marginalization = m;
    }
    if let Some(k) = args.temperatures {
        s.num_temperatures = k;
    }
    if let Some(n) = args.n_chains {
        s.num_chains = n;
    }
    if let Some(n) = args.n_warmup {
        s.num_warmup = n;
    }
    if let Some(n) = args.n_draws {
        s.num_draws = n;
    }
    if let Some(ess) = args.target_ess {
        s.target_ess = ess;
    }
    if args.max_draws.is_some() {
        s.max_draws = args.max_draws;
    }
    if let Some(n) = args.seed {
        s.seed = n;
    }
    if let Some(n) = args.threads {
        s.threads = n;
    }
    if let Some(seconds) = args.checkpoint_interval {
        s.checkpoint_interval = seconds;
    }
    if args.target_accept.is_some() {
        s.target_accept = args.target_accept;
    }
    if let Some(t) = args.rb_target {
        config.likelihood.relative_binning_target = t;
    }
    if let Some(p) = &args.prior_file {
        config.prior_file = super::command_line_prior_file(p)?;
    }
    if let Some(l) = &args.label {
        config.label = l.clone();
    }
    if args.zero_noise || args.noise_seed.is_some() {
        let injection = config
            .injection
            .as_mut()
            .context("--zero-noise and --noise-seed need an [injection] in the config")?;
        injection.zero_noise |= args.zero_noise;
        if let Some(seed) = args.noise_seed {
            injection.noise_seed = seed;
        }
    }
    Ok(())
}

/// Set by the first interrupt (SIGINT, SIGTERM or SIGHUP alike): the chains then stop and the
/// draws so far are written.
static STOP: AtomicBool = AtomicBool::new(false);
/// Set while the products are written: interrupts then wait for them, so that no product is
/// left torn or missing.
static WRITING: AtomicBool = AtomicBool::new(false);

/// A second signal sooner than this after the first is the same stop, delivered twice (a
/// scheduler signals the job's processes and its batch script passes the signal on too).
const REPEAT_WITHIN: Duration = Duration::from_secs(2);

/// Installs the interrupt handler and returns the flag it sets. A second interrupt while the
/// chains run (more than [`REPEAT_WITHIN`] after the first) exits at once; any while the
/// products are written waits for them.
fn interrupt_flag() -> &'static AtomicBool {
    static FIRST: OnceLock<Instant> = OnceLock::new();
    // Setting the handler fails only if one is already set (a second run in one process).
    let _ = ctrlc::set_handler(|| {
        let again = STOP.swap(true, Ordering::SeqCst);
        let first = *FIRST.get_or_init(Instant::now);
        if WRITING.load(Ordering::SeqCst) {
            eprintln!("\ninterrupted: finishing the products first");
        } else if again && first.elapsed() < REPEAT_WITHIN {
            // The same stop again: it is under way.
        } else if again {
            std::process::exit(130);
        } else {
            eprintln!(
                "\ninterrupted: finishing the current transitions and writing the draws so far \
                 (interrupt again to abort without writing)"
            );
        }
    });
    &STOP
}

/// Runs `tdpe run`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let started = Instant::now();
    let mut config = Config::load(args.config.as_deref())?;
    apply_overrides(&mut config, args)?;
    output::check_outdir(&args.outdir)?;
    let control = RunControl {
        outdir: args.outdir.clone(),
        progress: !args.no_progress,
        stop: interrupt_flag(),
        started,
    };
    let checkpoint_file = checkpoint::path(&args.outdir);
    // A checkpoint this run reads and writes, from which the same command goes on.
    let resumable = checkpoint::applies(&config.sampler);
    let result = match run_analysis(config, &control) {
        // Stopped before the chains (the set-up or the pilot of a resumed run): the checkpoint
        // it started from is still there to go on from.
        Err(e) if e.is::<Interrupted>() && resumable && checkpoint_file.is_file() => {
            return Err(Checkpointed(format!(
                "{e:#}; the same command goes on from {}",
                checkpoint_file.display()
            ))
            .into());
        }
        other => other?,
    };
    let interrupted = result.interrupted || STOP.load(Ordering::SeqCst);
    // The chains stopped early and were saved (a signal after they ended leaves a whole run).
    let checkpointed = result.interrupted && resumable && checkpoint_file.is_file();
    if result.posterior.is_empty() {
        if checkpointed {
            return Err(Checkpointed(format!(
                "during the warm-up, before any posterior draws; the same command goes on from \
                 {}",
                checkpoint_file.display()
            ))
            .into());
        }
        if interrupted {
            return Err(Interrupted(
                "during the warm-up, before any posterior draws: nothing written".into(),
            )
            .into());
        }
        bail!("the sampler returned no draws");
    }
    WRITING.store(true, Ordering::SeqCst);
    let written = output::write_all(&result);
    WRITING.store(false, Ordering::SeqCst);
    written?;
    let densities = match result.density_evaluations {
        0 => String::new(),
        n => format!(", {n} densities"),
    };
    println!(
        "tdpe run: {} draws ({} chains, {}) in {:.1} s (sampling {:.1} s, {} gradients{densities}); outputs in {}",
        result.posterior.len(),
        result.chains.len(),
        result.sampler_kwargs.kernel,
        started.elapsed().as_secs_f64(),
        result.sampling_time_s,
        result.gradient_evaluations,
        args.outdir.display()
    );
    if result.relative_binning_inaccurate() {
        println!(
            "warning: relative binning differs from the exact likelihood by up to {:.2e} at \
             posterior draws: the posterior may be biased (see summary.md)",
            result.relative_binning.max_abs_error
        );
    }
    let unconverged = result.unconverged(1.01);
    if !unconverged.is_empty() {
        println!(
            "warning: the chains disagree (R-hat > 1.01) on {}: see summary.md",
            unconverged.join(", ")
        );
    }
    if checkpointed {
        return Err(Checkpointed(format!(
            "the {} draws so far are in {} (meta_data.interrupted); the same command goes on \
             from {}",
            result.posterior.len(),
            args.outdir.display(),
            checkpoint_file.display()
        ))
        .into());
    }
    if !result.interrupted {
        checkpoint::remove(&checkpoint_file)?;
    }
    if interrupted || STOP.load(Ordering::SeqCst) {
        return Err(Interrupted(format!(
            "the {} draws so far are in {} (meta_data.interrupted)",
            result.posterior.len(),
            args.outdir.display()
        ))
        .into());
    }
    Ok(())
}
