//! The `[sampler]` table: the kernel, its adaptation, the coordinates and moves, the chains'
//! length and the run's threads.

use serde::{Deserialize, Serialize};
use tdpe_mcmc::StepSizeRestart;
use tdpe_posterior::{CoordinateOptions, IntrinsicCoordinates, PhaseCoordinate, ReferenceFrame};
use tdpe_signal::SpinModel;

/// The MCMC kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum KernelName {
    /// HMC where the posterior is one mode (a loud signal, whose Fisher relative binning
    /// suffices, or a wide posterior at a matched-filter SNR ≥ 8), NUTS for the wide posterior
    /// of a weaker signal or with tempering (docs/sampling.md §8.5).
    Auto,
    /// No-U-Turn sampler.
    Nuts,
    /// Hamiltonian Monte Carlo with a jittered fixed integration time.
    Hmc,
    /// Metropolis-adjusted Langevin algorithm.
    Mala,
}

impl KernelName {
    /// Lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Nuts => "nuts",
            Self::Hmc => "hmc",
            Self::Mala => "mala",
        }
    }
}

/// The warm-up's metric (mass matrix) estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum MetricName {
    /// The full posterior covariance (Stan's `dense_e`): learns the correlations that remain
    /// after the Laplace standardisation; O(n²) per step, nothing next to one gradient.
    Dense,
    /// The posterior variances only (Stan's `diag_e`).
    Diagonal,
}

/// Sampler settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SamplerSection {
    /// Kernel: `auto`, `nuts`, `hmc` or `mala`.
    pub kernel: KernelName,
    /// Metric learned in the warm-up: `dense` or `diagonal`.
    pub metric: MetricName,
    /// Sky and time coordinates of the sampler: `detectors` (zenith and azimuth about the
    /// baseline of two detectors, of more the pair with the narrowest sky ring) or `sky`.
    pub reference_frame: ReferenceFrame,
    /// Mass-ratio and spin coordinates of the sampler: `effective` or `components`.
    pub intrinsic_coordinates: IntrinsicCoordinates,
    /// Whether the sampler moves over the chirp mass's position within the range that the
    /// mass_1 / mass_2 constraints leave at each mass ratio instead of over chirp_mass itself,
    /// so that no constraint is a wall its trajectories run into. Applies when chirp_mass and
    /// mass_ratio are sampled with bounded priors.
    pub constrained_chirp_mass: bool,
    /// Phase coordinate of the sampler: `peak` or `reference`.
    pub phase_coordinate: PhaseCoordinate,
    /// Whether the sampler moves over phase + psi and phase − psi (each modulo π: the phases of
    /// the two circular polarisations, of which a nearly face-on or face-off signal measures
    /// one) instead of phase and psi. Applies when both have uniform periodic priors over one
    /// period; the results report a uniformly random one of the four (phase, psi) that give the
    /// same (2,±2) signal.
    pub circular_phases: bool,
    /// Whether the chains try the face-on/face-off mirror of theta_jn and psi after every
    /// transition (a Metropolis–Hastings jump between the two inclination modes; with
    /// precessing spins it also turns phi_jl by π).
    pub inclination_mirror: bool,
    /// Whether the chains try the sky-ring reflection after every transition (a
    /// Metropolis–Hastings jump that reflects the sky through planes containing a detector
    /// baseline and re-solves theta_jn, phase, psi and the distance so that the pair sees the
    /// same signal): for two detectors through three planes about their baseline, for three
    /// through the plane of their sites (every arrival time kept, the two loudest detectors'
    /// signals too). Applies with two or three detectors and the circular phases.
    pub sky_ring_reflection: bool,
    /// Whether the chains try the orbit move through time after every transition (a draw among
    /// the point's copies moved by whole samples in geocent_time, and by quarter turns in phase,
    /// by the likelihood there, accepted by Metropolis–Hastings). Applies when relative binning
    /// follows whole-sample time shifts, as it does for a wide posterior.
    pub time_orbit: bool,
    /// Number of whole-sample time steps the likelihood is summed over, where the relative
    /// binning follows such steps (a wide posterior's; docs/sampling.md §5.6); 0 or 1: none;
    /// unset: two cycles of the fiducial's (2,2) peak frequency for a wide posterior, none
    /// otherwise.
    pub time_steps: Option<usize>,
    /// Independence proposals tried after every transition: draws from a kernel density
    /// estimate of the pilot run's draws (a wide posterior's) and from the prior
    /// (docs/sampling.md §4.4); 0: none; unset: [`WIDE_INDEPENDENCE_PROPOSALS`] for a wide
    /// posterior, none otherwise.
    pub independence_proposals: Option<usize>,
    /// Largest NUTS tree depth (at most 2^depth − 1 leapfrog steps per transition); unset: 10,
    /// and [`WIDE_TREE_DEPTH`] for a wide posterior of a weak signal, whose independence
    /// proposals make the moves across it.
    pub max_tree_depth: Option<u32>,
    /// Whether the likelihood is marginalised over luminosity_distance (bilby's
    /// `distance_marginalization`): the sampler explores the other parameters, and each draw's
    /// distance is drawn from its conditional posterior. Applies when luminosity_distance is
    /// sampled with a bounded prior.
    pub distance_marginalization: bool,
    /// Whether the likelihood is marginalised over the phase (bilby's `phase_marginalization`,
    /// exact for the (2,2) mode): each draw's phase is drawn from its conditional posterior.
    /// Applies when phase is sampled with a uniform prior over 2π; the peak-phase and circular
    /// coordinates and the sky-ring reflection, which move the phase, then do not.
    pub phase_marginalization: bool,
    /// Number of chains.
    pub num_chains: usize,
    /// Warm-up iterations per chain (discarded).
    pub num_warmup: usize,
    /// Kept draws per chain, at least: a run whose draws miss `target_ess` goes on.
    pub num_draws: usize,
    /// Smallest bulk ESS, with R̂ < 1.01, that every reported parameter must reach; until it
    /// does, the chains go on past `num_draws` (to at most `max_draws`). 0: exactly
    /// `num_draws`.
    pub target_ess: f64,
    /// The most draws per chain a run extended for `target_ess` makes (default: 4 × num_draws).
    pub max_draws: Option<usize>,
    /// Master seed of the chains (and of the relative-binning design and the fiducial search).
    pub seed: u64,
    /// Worker threads; 0 = all cores (never changes the draws).
    pub threads: usize,
    /// Seconds between checkpoints of the chains (`checkpoint.bin` in the output folder, from
    /// which the same command goes on; also written when the run is stopped); 0: none
    /// (docs/campaigns.md §5).
    pub checkpoint_interval: f64,
    /// Target acceptance statistic of the step-size adaptation (default: 0.95 for NUTS and HMC,
    /// the kernel's own for MALA).
    pub target_accept: Option<f64>,
    /// What the warm-up's step size does when a new metric is installed: `"heuristic"`
    /// (Stan's re-initialisation and restart of dual averaging) or `"continue"` (dual
    /// averaging goes on; docs/sampling.md §8.6). Default: `"continue"` for precessing spins,
    /// `"heuristic"` otherwise.
    pub step_size_restart: Option<StepSizeRestart>,
    /// Half-width of the uniform jitter of the initial points around the posterior mode, in
    /// units of the Laplace approximation's widths there.
    pub init_radius: f64,
    /// Temperatures per chain of parallel tempering (1: no tempering).
    pub num_temperatures: usize,
    /// Smallest inverse temperature of the tempering ladder.
    pub beta_min: f64,
}

/// Independence proposals per transition for a wide posterior (docs/sampler_studies.md,
/// "Wide posteriors: moves across them").
pub const WIDE_INDEPENDENCE_PROPOSALS: usize = 60;
/// NUTS's largest tree depth for a wide posterior of a weak signal, one whose matched-filter
/// SNR at the fiducial is below [`SHORT_TREES_BELOW_SNR`] (docs/sampler_studies.md, "Wide
/// posteriors: moves across them").
pub const WIDE_TREE_DEPTH: u32 = 6;
/// The matched-filter SNR at the fiducial below which a wide posterior's NUTS trees stop at
/// [`WIDE_TREE_DEPTH`]: below it the independence proposals make the moves across the
/// posterior; above it the posterior is one mode curved along the masses and spins, which
/// long trajectories follow best, and `auto` runs HMC (docs/sampler_studies.md, "Wide
/// posteriors: moves across them", "The auto kernel").
pub const SHORT_TREES_BELOW_SNR: f64 = 8.0;

impl Default for SamplerSection {
    fn default() -> Self {
        let coordinates = CoordinateOptions::default();
        Self {
            kernel: KernelName::Auto,
            metric: MetricName::Dense,
            reference_frame: coordinates.reference_frame,
            intrinsic_coordinates: coordinates.intrinsic_coordinates,
            constrained_chirp_mass: coordinates.constrained_chirp_mass,
            phase_coordinate: coordinates.phase_coordinate,
            circular_phases: coordinates.circular_phases,
            inclination_mirror: coordinates.inclination_mirror,
            sky_ring_reflection: coordinates.sky_ring_reflection,
            time_orbit: coordinates.time_orbit,
            time_steps: None,
            independence_proposals: None,
            max_tree_depth: None,
            distance_marginalization: coordinates.distance_marginalization,
            phase_marginalization: coordinates.phase_marginalization,
            num_chains: 4,
            num_warmup: 700,
            num_draws: 1500,
            target_ess: 1000.0,
            max_draws: None,
            seed: 1,
            threads: 0,
            checkpoint_interval: 600.0,
            target_accept: None,
            step_size_restart: None,
            init_radius: 2.0,
            num_temperatures: 1,
            beta_min: 0.01,
        }
    }
}

impl SamplerSection {
    /// The posterior's coordinates and jumps these settings ask for.
    pub fn coordinate_options(&self) -> CoordinateOptions {
        CoordinateOptions {
            distance_marginalization: self.distance_marginalization,
            phase_marginalization: self.phase_marginalization,
            intrinsic_coordinates: self.intrinsic_coordinates,
            constrained_chirp_mass: self.constrained_chirp_mass,
            reference_frame: self.reference_frame,
            phase_coordinate: self.phase_coordinate,
            circular_phases: self.circular_phases,
            inclination_mirror: self.inclination_mirror,
            sky_ring_reflection: self.sky_ring_reflection,
            time_orbit: self.time_orbit,
            time_steps: self.time_steps.unwrap_or(0),
            independence_proposals: self.independence_proposals.unwrap_or(0),
        }
    }

    /// These settings for a wide posterior, one sampled on a pilot run's relative binning
    /// (docs/sampling.md §8.4–8.5): what is unset takes its wide-posterior value, `time_steps`
    /// (chosen from the fiducial) among them. Where the matched-filter SNR at the fiducial,
    /// `snr`, is below [`SHORT_TREES_BELOW_SNR`], `auto` is NUTS with short trees; at or above
    /// it, as on the loud path.
    pub fn for_wide_posterior(&self, time_steps: usize, snr: f64) -> Self {
        let weak = snr < SHORT_TREES_BELOW_SNR;
        let depth = if weak {
            WIDE_TREE_DEPTH
        } else {
            tdpe_mcmc::Nuts::default().max_depth
        };
        Self {
            time_steps: Some(self.time_steps.unwrap_or(time_steps)),
            independence_proposals: Some(
                self.independence_proposals
                    .unwrap_or(WIDE_INDEPENDENCE_PROPOSALS),
            ),
            max_tree_depth: Some(self.max_tree_depth.unwrap_or(depth)),
            kernel: self.chosen_kernel(!weak),
            ..self.clone()
        }
    }

    /// These settings for a posterior sampled on the Fisher relative binning, nearly Gaussian
    /// in the sampler's coordinates (docs/sampling.md §8.5).
    pub fn for_loud_posterior(&self) -> Self {
        Self {
            kernel: self.chosen_kernel(true),
            ..self.clone()
        }
    }

    /// The configured kernel, or where it is `auto`: HMC where `long_trajectories` pay (a
    /// posterior that is one mode, which trajectories of a fixed length cross) and the run is
    /// untempered, NUTS otherwise (docs/sampling.md §8.5).
    fn chosen_kernel(&self, long_trajectories: bool) -> KernelName {
        match self.kernel {
            KernelName::Auto if long_trajectories && self.num_temperatures <= 1 => KernelName::Hmc,
            KernelName::Auto => KernelName::Nuts,
            chosen => chosen,
        }
    }

    /// The step size's restart after a metric update: `step_size_restart`, or where it is not
    /// set, `continue` for precessing spins (whose acceptance falls off a cliff) and Stan's
    /// heuristic otherwise (docs/sampling.md §8.6).
    pub fn resolved_step_size_restart(&self, spin_model: SpinModel) -> StepSizeRestart {
        self.step_size_restart.unwrap_or(match spin_model {
            SpinModel::Precessing => StepSizeRestart::Continue,
            _ => StepSizeRestart::Heuristic,
        })
    }

    /// The worker threads: `threads`, or all cores for 0.
    pub fn resolved_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            n => n,
        }
    }
}
