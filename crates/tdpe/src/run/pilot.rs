//! The relative-binning likelihood a run samples with (docs/sampling.md §8.4).
//!
//! Around the fiducial point, with nodes refined on a Fisher design set, when that needs at most
//! [`NODE_BUDGET`] nodes per detector: a loud, well-localised signal. A weaker signal's posterior
//! is wider and far from Gaussian, and the Fisher design set both overshoots it (its waveforms,
//! out to a ln L deficit of ~25 along every Fisher direction, demand hundreds of nodes) and
//! misses where it really goes. Then a short pilot run, on relative binning capped at the
//! budget, draws from the posterior itself, and the nodes are refined on those draws instead,
//! around whichever of three centres follows the exact likelihood best at other pilot draws
//! ([`refine_on_pilot`]).

use std::sync::atomic::AtomicBool;

use anyhow::Context;
use tdpe_likelihood::{BbhRelativeBinning, RelativeBinningOptions};
use tdpe_posterior::search::SearchOptions;
use tdpe_posterior::streams::Stream;
use tdpe_posterior::{Fiducial, Posterior};
use tdpe_signal::{BbhParameters, Parameter, ParameterVector};

use super::sampler::{run_sampler, sampler_config};
use crate::config::SamplerSection;
use crate::problem::Problem;
use crate::run_result::PilotReport;

/// Nodes per detector above which the Fisher design set gives way to a pilot run's draws.
pub const NODE_BUDGET: usize = 150;
/// Warm-up iterations of each pilot chain.
const PILOT_WARMUP: usize = 200;
/// Draws of each pilot chain.
const PILOT_DRAWS: usize = 100;
/// Pilot draws the nodes are refined on.
pub const DESIGN_DRAWS: usize = 128;
/// The largest arrival window (s) of a wide posterior's relative binning.
pub const MAX_ARRIVAL_WINDOW: f64 = 1.0;
/// Time (s) the fiducial's ringdown needs after its peak inside the segment (its support ends
/// where the amplitude falls to 10⁻¹⁰ of the peak, ~0.1 s later for the heaviest binaries).
const RINGDOWN_ROOM: f64 = 0.25;

/// The relative-binning options of the configuration.
pub fn options(problem: &Problem) -> RelativeBinningOptions {
    let config = &problem.config;
    RelativeBinningOptions {
        target: config.likelihood.relative_binning_target,
        design_points: config.likelihood.design_points,
        max_nodes: config.likelihood.max_nodes,
        seed: config.sampler.seed,
        ..RelativeBinningOptions::default()
    }
}

/// The fiducial point of the configuration: the injection, or the maximum-likelihood search.
pub fn fiducial(problem: &Problem) -> anyhow::Result<Fiducial> {
    let config = &problem.config;
    let search = SearchOptions {
        population: config.fiducial.population,
        generations: config.fiducial.generations,
        polish_evaluations: config.fiducial.polish_evaluations,
        seed: config.sampler.seed,
        threads: config.sampler.resolved_threads(),
    };
    let fiducial = problem.analysis.fiducial(problem.injection, &search)?;
    if let Some(result) = &fiducial.search {
        eprintln!(
            "fiducial: maximum-likelihood search, ln L = {:.2} after {} evaluations",
            result.value, result.evaluations
        );
    }
    Ok(fiducial)
}

/// The relative-binning likelihood around `fiducial` (see the module documentation), and the
/// pilot run's report if there was one; `progress` draws the pilot's progress bar, and `stop`
/// ends the pilot (and the set-up, with an error) early.
pub fn relative_binning(
    problem: &Problem,
    fiducial: &ParameterVector,
    progress: bool,
    stop: &AtomicBool,
) -> anyhow::Result<(BbhRelativeBinning, Option<PilotReport>)> {
    let analysis = &problem.analysis;
    let options = options(problem);
    let capped = RelativeBinningOptions {
        max_nodes: NODE_BUDGET,
        best_effort: true,
        ..options.clone()
    };
    let fisher = analysis
        .relative_binning(fiducial, &capped)
        .context("relative binning around the fiducial point")?;
    let fits = fisher
        .refinement_errors()
        .iter()
        .all(|&error| error <= options.target);
    if fits {
        report_nodes(problem, &fisher, "the Fisher design set");
        return Ok((fisher, None));
    }
    let pilot = pilot_run(problem, fiducial, progress, stop)?;
    let refined = refine_on_pilot(problem, fiducial, &pilot)?;
    let spreads: Vec<String> = Centre::ALL
        .iter()
        .zip(refined.spreads)
        .map(|(c, s)| format!("{s:.1e} around {}", c.describe()))
        .collect();
    report_nodes(
        problem,
        &refined.relative_binning,
        &format!(
            "the pilot run's draws, around {} (spread of ln L_RB - ln L_exact at {} held-out \
             draws: {})",
            refined.centre.describe(),
            refined.held_out,
            spreads.join(", ")
        ),
    );
    Ok((
        refined.relative_binning,
        Some(PilotReport {
            fisher_nodes: pilot.fisher_nodes,
            gradient_evaluations: pilot.gradient_evaluations,
            design_draws: refined.design_draws,
        }),
    ))
}

/// Where the relative binning refined on a pilot's draws is centred.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Centre {
    /// The run's fiducial point (the injection, or the search's point).
    Fiducial,
    /// The design draw of median chirp mass, at its best distance ([`best_distance`]).
    MedianChirpMass,
    /// The design draw of largest ln L at its best distance.
    BestDraw,
}

impl Centre {
    /// The candidates, in the order [`PilotRefinement::spreads`] reports them.
    pub const ALL: [Centre; 3] = [Centre::Fiducial, Centre::MedianChirpMass, Centre::BestDraw];

    fn describe(self) -> &'static str {
        match self {
            Centre::Fiducial => "the fiducial point",
            Centre::MedianChirpMass => "the pilot's draw of median chirp mass",
            Centre::BestDraw => "the pilot's best draw",
        }
    }
}

/// The relative binning of a wide posterior, refined on a pilot run's draws.
pub struct PilotRefinement {
    pub relative_binning: BbhRelativeBinning,
    pub centre: Centre,
    /// The standard deviation of ln L_RB − ln L_exact at the held-out draws around each of
    /// [`Centre::ALL`] (∞ where relative binning failed there, or the candidate was missing).
    pub spreads: [f64; 3],
    /// Held-out draws the spreads were taken at.
    pub held_out: usize,
    /// Design draws the nodes were refined on.
    pub design_draws: usize,
}

/// The nodes refined on [`DESIGN_DRAWS`] of the pilot's draws around each of three centres (the
/// run's fiducial, the design draw of median chirp mass and the design draw of largest ln L,
/// each draw at its best distance), and the one of them that follows the exact likelihood most
/// closely at as many other pilot draws (held out, each at its best distance): the smallest
/// spread of ln L_RB − ln L_exact, which is what an error does to the posterior's weights (a
/// constant offset leaves them unchanged). A weak signal's posterior can lie far from the
/// injection, and ratios to a centre inside it vary less; but the best draw can sit in one mode
/// of a multimodal posterior, far from the others (docs/sampler_studies.md, "Relative-binning
/// nodes on weak signals").
pub fn refine_on_pilot(
    problem: &Problem,
    fiducial: &ParameterVector,
    pilot: &Pilot,
) -> anyhow::Result<PilotRefinement> {
    let draws = design_draws(&pilot.chains);
    let exact = problem.exact();
    // A draw the exact likelihood cannot evaluate is not held out.
    let held_out: Vec<(ParameterVector, f64)> = held_out_draws(&pilot.chains)
        .iter()
        .filter_map(|t| best_distance(problem, t))
        .filter_map(|(_, t)| {
            let value = exact
                .log_likelihood_ratio(&BbhParameters::from_array(t))
                .ok()?;
            Some((t, value))
        })
        .collect();
    let candidates: Vec<(f64, ParameterVector)> = draws
        .iter()
        .filter_map(|t| best_distance(problem, t))
        .collect();
    let mut by_mass: Vec<&(f64, ParameterVector)> = candidates.iter().collect();
    by_mass.sort_by(|a, b| a.1[Parameter::ChirpMass].total_cmp(&b.1[Parameter::ChirpMass]));
    let centres = [
        Some(*fiducial),
        by_mass.get(by_mass.len() / 2).map(|c| c.1),
        candidates
            .iter()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|c| c.1),
    ];
    let mut spreads = [f64::INFINITY; 3];
    let mut kept: Option<(BbhRelativeBinning, Centre, f64)> = None;
    for (k, (centre, kind)) in centres.iter().zip(Centre::ALL).enumerate() {
        let Some(centre) = centre else {
            continue;
        };
        let rb = problem.analysis.relative_binning_from_draws(
            centre,
            &draws,
            &RelativeBinningOptions {
                best_effort: true,
                arrival_window: arrival_window(problem, centre),
                ..options(problem)
            },
        );
        // The fiducial's failure is the set-up's; another centre's only drops that candidate.
        let rb = match rb {
            Ok(rb) => rb,
            Err(_) if kind != Centre::Fiducial => continue,
            Err(e) => return Err(e).context("relative binning on the pilot run's draws"),
        };
        spreads[k] = spread(&rb, &held_out);
        // Ties (every spread ∞ included) keep the earlier candidate: the fiducial first.
        if kept.as_ref().is_none_or(|(_, _, s)| spreads[k] < *s) {
            kept = Some((rb, kind, spreads[k]));
        }
    }
    let (relative_binning, centre, _) = kept.context("no relative binning on the pilot's draws")?;
    Ok(PilotRefinement {
        relative_binning,
        centre,
        spreads,
        held_out: held_out.len(),
        design_draws: draws.len(),
    })
}

/// The standard deviation of ln L_RB − ln L_exact over `points` (point, exact ln L); ∞ if
/// relative binning fails or is not finite at one of them, or without points.
fn spread(rb: &BbhRelativeBinning, points: &[(ParameterVector, f64)]) -> f64 {
    let deltas: Option<Vec<f64>> = points
        .iter()
        .map(|(t, exact)| {
            let value = rb
                .log_likelihood_ratio(&BbhParameters::from_array(*t))
                .ok()?;
            (value - exact).is_finite().then_some(value - exact)
        })
        .collect();
    match deltas {
        Some(d) if !d.is_empty() => {
            let mean = d.iter().sum::<f64>() / d.len() as f64;
            (d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / d.len() as f64).sqrt()
        }
        _ => f64::INFINITY,
    }
}

/// ln L at the best distance, ⟨d|h⟩²/(2⟨h|h⟩) by the exact likelihood, and `theta` moved to
/// that distance (D·⟨h|h⟩/⟨d|h⟩): the pilot's draws carry the marginalised distance's
/// reference value. `None` where ⟨d|h⟩ ≤ 0 or the exact likelihood cannot be evaluated.
pub fn best_distance(problem: &Problem, theta: &ParameterVector) -> Option<(f64, ParameterVector)> {
    let terms = problem
        .exact()
        .detector_terms(&BbhParameters::from_array(*theta))
        .ok()?;
    let (d_h, h_h) = terms
        .iter()
        .fold((0.0, 0.0), |(a, b), t| (a + t.d_h, b + t.h_h));
    if !(d_h > 0.0 && h_h > 0.0 && d_h.is_finite() && h_h.is_finite()) {
        return None;
    }
    let mut moved = *theta;
    moved[Parameter::LuminosityDistance] *= h_h / d_h;
    Some((d_h * d_h / (2.0 * h_h), moved))
}

/// A pilot run's draws (docs/sampling.md §8.4), each chain's in order, as bilby's parameters.
pub struct Pilot {
    /// The arrival window (s) of the capped relative binning the pilot sampled with.
    pub arrival_window: f64,
    /// Nodes per detector of that relative binning (the Fisher design set, capped).
    pub fisher_nodes: Vec<usize>,
    /// Each chain's draws.
    pub chains: Vec<Vec<ParameterVector>>,
    /// Gradient evaluations of the pilot chains.
    pub gradient_evaluations: u64,
    /// The posterior the pilot sampled (on the capped relative binning).
    pub posterior: Posterior<BbhRelativeBinning>,
}

/// The pilot run of a wide posterior: relative binning on the Fisher design set capped at
/// [`NODE_BUDGET`] nodes, with the arrival window the priors need, and a short NUTS run on it.
pub fn pilot_run(
    problem: &Problem,
    fiducial: &ParameterVector,
    progress: bool,
    stop: &AtomicBool,
) -> anyhow::Result<Pilot> {
    let analysis = &problem.analysis;
    // A wide posterior: trials may arrive anywhere the prior allows, which the summary data's
    // whole-sample shifts cover, the nodes resolving the rest.
    let window = arrival_window(problem, fiducial);
    let capped = RelativeBinningOptions {
        max_nodes: NODE_BUDGET,
        best_effort: true,
        arrival_window: window,
        ..options(problem)
    };
    let fisher = analysis
        .relative_binning(fiducial, &capped)
        .context("relative binning around the fiducial point")?;
    let fisher_nodes = fisher.node_counts();
    eprintln!(
        "relative binning: the Fisher design set needs more than {NODE_BUDGET} nodes per detector; \
         a pilot run draws the design set from the posterior"
    );
    let config = &problem.config;
    let coordinates = config.sampler.coordinate_options();
    let (posterior, _) = analysis.posterior(fisher, fiducial, &coordinates, config.sampler.seed)?;
    let section = SamplerSection {
        num_warmup: PILOT_WARMUP,
        num_draws: PILOT_DRAWS,
        num_temperatures: 1,
        seed: Stream::PilotChains.seed(config.sampler.seed),
        ..config.sampler.clone()
    };
    let pilot = run_sampler(
        &posterior,
        &section,
        &sampler_config(&section, tdpe_mcmc::Space::dim(&posterior), progress),
        stop,
        |_| None,
    )?;
    if pilot.samples.interrupted {
        return Err(super::Interrupted(
            "during the pilot run, before any posterior draws: nothing written".into(),
        )
        .into());
    }
    let chains = pilot
        .samples
        .chains
        .iter()
        .filter(|c| c.num_draws() > 0)
        .map(|c| {
            (0..c.num_draws())
                .map(|i| posterior.parameters(c.draw(i)))
                .collect()
        })
        .collect();
    let gradient_evaluations = pilot
        .samples
        .chain_summaries()
        .iter()
        .map(|c| c.warmup_grad_evals + c.grad_evals)
        .sum();
    Ok(Pilot {
        arrival_window: window,
        fisher_nodes,
        chains,
        gradient_evaluations,
        posterior,
    })
}

/// The largest difference (s) between a trial's arrival time in a detector and the fiducial's
/// that the priors allow: the geocent_time prior's farther end from the fiducial, and the
/// delays from the geocentre, which move by up to twice the farthest detector's distance from
/// it over the sky. At most [`MAX_ARRIVAL_WINDOW`] (an unbounded time prior) and what the
/// segment leaves after the fiducial's ringdown (the summary data's reference is the fiducial
/// moved by the window); a warning says when that is less than the priors need, since trials
/// beyond it are followed by the nodes alone.
pub fn arrival_window(problem: &Problem, fiducial: &ParameterVector) -> f64 {
    let (lower, upper) = problem
        .priors()
        .prior(Parameter::GeocentTime)
        .distribution
        .support();
    let time = fiducial[Parameter::GeocentTime];
    let farthest = problem
        .exact()
        .model()
        .detectors()
        .iter()
        .map(|d| d.location.iter().map(|x| x * x).sum::<f64>().sqrt())
        .fold(0.0, f64::max);
    let light_travel = farthest / tdpe_detector::delay::C_SI;
    let needed = (upper - time).max(time - lower) + 2.0 * light_travel;
    let grid = problem.exact().likelihood().grid();
    let segment_end = grid.start + grid.duration();
    let room = segment_end - (time + light_travel) - RINGDOWN_ROOM;
    let window = needed.min(MAX_ARRIVAL_WINDOW).min(room).max(0.0);
    if window < needed {
        eprintln!(
            "warning: the priors let trials arrive up to {needed:.3} s from the fiducial, \
             relative binning follows whole-sample shifts within {window:.3} s only (the nodes \
             alone beyond): see the check against the exact likelihood"
        );
    }
    window
}

/// Up to [`DESIGN_DRAWS`] of the pilot's draws, evenly spaced through each chain.
pub fn design_draws(chains: &[Vec<ParameterVector>]) -> Vec<ParameterVector> {
    spaced_draws(chains, 0)
}

/// As many of the pilot's draws as [`design_draws`], each the one after a design draw (none of
/// them a design draw while the chains have twice as many draws as the design set takes).
pub fn held_out_draws(chains: &[Vec<ParameterVector>]) -> Vec<ParameterVector> {
    spaced_draws(chains, 1)
}

fn spaced_draws(chains: &[Vec<ParameterVector>], offset: usize) -> Vec<ParameterVector> {
    let per_chain = DESIGN_DRAWS.div_ceil(chains.len().max(1));
    chains
        .iter()
        .flat_map(|c| {
            let step = (c.len() / per_chain).max(1);
            c.iter().skip(offset).step_by(step).take(per_chain).copied()
        })
        .collect()
}

/// One line on standard error: the nodes per detector and where they were refined, with the
/// error reached where a refinement stopped at its cap.
fn report_nodes(problem: &Problem, rb: &BbhRelativeBinning, design: &str) {
    let target = problem.config.likelihood.relative_binning_target;
    let nodes: Vec<String> = problem
        .config
        .detectors
        .iter()
        .zip(rb.node_counts().iter().zip(rb.refinement_errors()))
        .map(|(name, (n, error))| {
            if error <= target {
                format!("{n} ({name})")
            } else {
                format!("{n} ({name}; error {error:.1e} > target {target:.0e})")
            }
        })
        .collect();
    eprintln!("relative binning: {} nodes, on {design}", nodes.join(", "));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn held_out_draws_are_not_design_draws() {
        let chains: Vec<Vec<ParameterVector>> = (0..4)
            .map(|c| {
                (0..PILOT_DRAWS)
                    .map(|i| {
                        let mut t = [0.0; tdpe_signal::NUM_PARAMETERS];
                        t[0] = (1000 * c + i) as f64;
                        t
                    })
                    .collect()
            })
            .collect();
        let design = design_draws(&chains);
        let held_out = held_out_draws(&chains);
        assert_eq!(design.len(), DESIGN_DRAWS);
        assert_eq!(held_out.len(), DESIGN_DRAWS);
        assert!(held_out.iter().all(|t| !design.contains(t)));
    }

    #[test]
    fn best_distance_maximises_ln_l_over_distance() {
        let problem = Problem::set_up(Config::load(None).unwrap()).unwrap();
        let mut theta = fiducial(&problem).unwrap().theta;
        theta[Parameter::LuminosityDistance] *= 1.7;
        let (value, moved) = best_distance(&problem, &theta).unwrap();
        let ln_l = |t: &ParameterVector| {
            problem
                .exact()
                .log_likelihood_ratio(&BbhParameters::from_array(*t))
                .unwrap()
        };
        assert!(
            (ln_l(&moved) - value).abs() < 1e-9 * value,
            "{} vs {value}",
            ln_l(&moved)
        );
        for factor in [0.95, 1.05] {
            let mut other = moved;
            other[Parameter::LuminosityDistance] *= factor;
            assert!(ln_l(&other) < value, "{factor}: {} ≥ {value}", ln_l(&other));
        }
        // The loud default's signal is near the injected distance.
        let ratio =
            moved[Parameter::LuminosityDistance] / (theta[Parameter::LuminosityDistance] / 1.7);
        assert!((0.8..1.25).contains(&ratio), "{ratio}");
    }
}
