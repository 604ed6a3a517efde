//! The relative-binning likelihood a run samples with (docs/sampling.md §8.4).
//!
//! Around the fiducial point, with nodes refined on a Fisher design set, when that needs at most
//! [`NODE_BUDGET`] nodes per detector: a loud, well-localised signal. A weaker signal's posterior
//! is wider and far from Gaussian, and the Fisher design set both overshoots it (its waveforms,
//! out to a ln L deficit of ~25 along every Fisher direction, demand hundreds of nodes) and
//! misses where it really goes. Then a short pilot run, on relative binning capped at the
//! budget, draws from the posterior itself, and the nodes are refined on those draws instead, in
//! cells of the (2,2) peak frequency each with its own centre ([`bank_on_pilot`]). Such a wide
//! posterior is sampled with the settings of [`SamplerSection::for_wide_posterior`]: the
//! likelihood summed over a window of time steps, independence proposals from the pilot's
//! draws and the prior, and shorter NUTS trees for a weak signal.

use std::sync::atomic::AtomicBool;

use anyhow::Context;
use tdpe_likelihood::{BbhRelativeBinning, PlacedNodes, RelativeBinningOptions};
use tdpe_posterior::search::SearchOptions;
use tdpe_posterior::streams::Stream;
use tdpe_posterior::{Fiducial, Posterior};
use tdpe_signal::{BbhParameters, Parameter, ParameterVector, SpinModel};

use super::sampler::{run_sampler, sampler_config};
use crate::config::SamplerSection;
use crate::problem::Problem;
use crate::run::parallel::map_in_order;
use crate::run_result::PilotReport;

/// The share of prior draws among the independence proposals, beside the kernel density
/// estimate of the pilot's draws (docs/sampling.md §4.4).
pub const PRIOR_SHARE: f64 = 0.2;

/// What a pilot run leaves for the run: its report, and its draws as the sampler's coordinates
/// see them (geocent_time the window's start with time steps).
pub struct PilotRun {
    pub report: PilotReport,
    pub draws: Vec<ParameterVector>,
    /// The sampler's settings for the wide posterior ([`SamplerSection::for_wide_posterior`]).
    pub sampler: SamplerSection,
}

/// Nodes per detector and mode above which the Fisher design set gives way to a pilot run's
/// draws (a mode's refinement stops there; docs/likelihood.md §3.12 bins each mode apart).
pub const NODE_BUDGET: usize = 150;
/// Warm-up iterations of each pilot chain.
const PILOT_WARMUP: usize = 200;
/// Draws of each pilot chain.
const PILOT_DRAWS: usize = 100;
/// Every this many of the pilot's draws one is held out of the design set, to check the
/// relative binning refined on the others.
pub const HELD_OUT_EVERY: usize = 4;
/// Fewest design draws in a cell of the peak frequency.
pub const MIN_CELL_DRAWS: usize = 16;
/// Cycles of the (2,2) peak frequency that a wide posterior's window of time steps spans.
pub const CYCLES_PER_WINDOW: f64 = 2.0;
/// The most time steps of a window.
pub const MAX_TIME_STEPS: usize = 64;
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
        latest_geocent_time: Some(
            problem
                .priors()
                .prior(Parameter::GeocentTime)
                .distribution
                .support()
                .1,
        ),
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
) -> anyhow::Result<(BbhRelativeBinning, Option<PilotRun>)> {
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
        let design = match problem.priors().spin_model {
            SpinModel::Aligned => "the Fisher design set",
            SpinModel::Precessing => "the design set of conditional widths",
        };
        report_nodes(problem, &fisher, design);
        return Ok((fisher, None));
    }
    let sampler = problem.config.sampler.for_wide_posterior(
        time_steps(problem, fiducial),
        matched_filter_snr(problem, fiducial),
    );
    let pilot = pilot_run(problem, fiducial, &sampler, progress, stop)?;
    let bank = bank_on_pilot(problem, &pilot)?;
    let report = PilotReport {
        fisher_nodes: pilot.fisher_nodes,
        gradient_evaluations: pilot.gradient_evaluations,
        density_evaluations: pilot.density_evaluations,
        design_draws: bank.design_draws,
        cell_nodes: bank.relative_binning.cell_node_counts(),
        cell_bounds: bank.relative_binning.bounds().to_vec(),
        held_out_spread: bank.spread,
        held_out_draws: bank.held_out.len(),
        time_steps: sampler.time_steps.unwrap_or(0),
        independence_proposals: sampler.independence_proposals.unwrap_or(0),
        max_tree_depth: sampler
            .max_tree_depth
            .unwrap_or(tdpe_mcmc::Nuts::default().max_depth),
    };
    let cells: Vec<String> = report.cell_nodes.iter().map(|c| format!("{c:?}")).collect();
    report_nodes(
        problem,
        &bank.relative_binning,
        &format!(
            "the pilot run's draws, in {} cells of the (2,2) peak frequency (nodes per cell {}; \
             spread of ln L_RB - ln L_exact at {} held-out draws: {:.1e})",
            cells.len(),
            cells.join(", "),
            report.held_out_draws,
            report.held_out_spread
        ),
    );
    Ok((
        bank.relative_binning,
        Some(PilotRun {
            report,
            draws: pilot.states,
            sampler,
        }),
    ))
}

/// The number of whole-sample time steps a wide posterior's likelihood is summed over
/// (docs/sampling.md §5.6): two cycles of the fiducial's (2,2) peak frequency, between 2 and
/// [`MAX_TIME_STEPS`].
pub fn time_steps(problem: &Problem, fiducial: &ParameterVector) -> usize {
    let peak = BbhRelativeBinning::cell_key(&BbhParameters::from_array(*fiducial));
    let dt = problem.exact().likelihood().grid().dt;
    let steps = (CYCLES_PER_WINDOW / (peak * dt)).round();
    if steps.is_finite() {
        (steps as usize).clamp(2, MAX_TIME_STEPS)
    } else {
        MAX_TIME_STEPS
    }
}

/// The relative binning of a wide posterior: cells of the peak frequency.
pub struct Bank {
    pub relative_binning: BbhRelativeBinning,
    /// The standard deviation of ln L_RB − ln L_exact at the held-out draws.
    pub spread: f64,
    /// The held-out draws the spread was taken at (each at its best distance) and their exact
    /// ln L.
    pub held_out: Vec<(ParameterVector, f64)>,
    /// Design draws the nodes were refined on.
    pub design_draws: usize,
}

/// Whether the pilot's `i`-th draw is held out of the design set.
pub fn is_held_out(i: usize) -> bool {
    i % HELD_OUT_EVERY == HELD_OUT_EVERY - 1
}

/// The nodes refined on the pilot's draws (all but every [`HELD_OUT_EVERY`]-th, held out to
/// check them), in cells of the (2,2) peak frequency split at their median until each needs
/// at most [`NODE_BUDGET`] nodes per detector or has too few draws to split ([`MIN_CELL_DRAWS`]
/// each side): each cell centred on its draw of median peak frequency at its best distance
/// (docs/likelihood.md §3.11). A wide posterior spans ringdown frequencies that differ by
/// 100 Hz and more, which one centre follows only with a node at nearly every sample of the
/// merger; a cell's draws differ from its centre by less.
pub fn bank_on_pilot(problem: &Problem, pilot: &Pilot) -> anyhow::Result<Bank> {
    let exact = problem.exact();
    let all: Vec<&ParameterVector> = pilot.chains.iter().flatten().collect();
    let mut design: Vec<(f64, ParameterVector)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| !is_held_out(*i))
        .map(|(_, t)| {
            (
                BbhRelativeBinning::cell_key(&BbhParameters::from_array(**t)),
                **t,
            )
        })
        .collect();
    design.sort_by(|a, b| a.0.total_cmp(&b.0));
    // A draw the exact likelihood cannot evaluate is not held out.
    let held_out: Vec<(ParameterVector, f64)> = all
        .iter()
        .enumerate()
        .filter(|(i, _)| is_held_out(*i))
        .filter_map(|(_, t)| best_distance(problem, t))
        .filter_map(|(_, t)| {
            let value = exact
                .log_likelihood_ratio(&BbhParameters::from_array(t))
                .ok()?;
            Some((t, value))
        })
        .collect();
    let base = RelativeBinningOptions {
        best_effort: true,
        ..options(problem)
    };
    // Groups of `design` still to refine, and the cells found: nodes only, the summary data
    // (most of the cost) only for the cells kept.
    let mut pending = Vec::new();
    pending.push(0..design.len());
    let mut cells = Vec::new();
    while let Some(range) = pending.pop() {
        let group = &design[range.clone()];
        let draws: Vec<ParameterVector> = group.iter().map(|(_, t)| *t).collect();
        // The draw of median peak frequency at its best distance, or the nearest that has one.
        let middle = group.len() / 2;
        let centre = (0..group.len())
            .map(|k| {
                if k % 2 == 0 {
                    middle + k / 2
                } else {
                    middle.wrapping_sub(k.div_ceil(2))
                }
            })
            .filter(|&i| i < group.len())
            .find_map(|i| best_distance(problem, &group[i].1))
            .map(|(_, t)| t)
            .context("no draw of the pilot has a positive inner product with the data")?;
        let nodes = problem
            .analysis
            .place_nodes_on_draws(
                &centre,
                &draws,
                &RelativeBinningOptions {
                    arrival_window: arrival_window(problem, &centre, pilot.time_steps),
                    ..base.clone()
                },
            )
            .context("relative binning on the pilot run's draws")?;
        let budget = NODE_BUDGET * exact.model().modes().len();
        let fits = nodes.node_counts().iter().all(|&n| n <= budget);
        // Draws of one peak frequency on both sides of the median leave no bound between them;
        // a precessing binary's frame is one for all cells, so it has one cell.
        let divisible = group.len() >= 2 * MIN_CELL_DRAWS
            && group[middle - 1].0 < group[middle].0
            && exact.model().spin_model() == SpinModel::Aligned;
        if fits || !divisible {
            cells.push((range, nodes));
        } else {
            let split = range.start + middle;
            pending.push(split..range.end);
            pending.push(range.start..split);
        }
    }
    cells.sort_by_key(|(range, _)| range.start);
    let bounds: Vec<f64> = cells
        .windows(2)
        .map(|w| 0.5 * (design[w[0].0.end - 1].0 + design[w[1].0.start].0))
        .collect();
    let threads = problem.config.sampler.resolved_threads();
    let summarised = summarise(cells.into_iter().map(|(_, n)| n).collect(), threads)
        .context("relative binning on the pilot run's draws")?;
    let relative_binning = BbhRelativeBinning::bank(summarised, bounds)?;
    let spread = spread(&relative_binning, &held_out);
    Ok(Bank {
        relative_binning,
        spread,
        held_out,
        design_draws: design.len(),
    })
}

/// The summary data of every cell, on up to `threads` threads (each cell's the same on any
/// number of them), in the order of `cells`.
fn summarise(
    cells: Vec<PlacedNodes<'_>>,
    threads: usize,
) -> Result<Vec<BbhRelativeBinning>, tdpe_likelihood::LikelihoodError> {
    map_in_order(cells, threads, |cell| cell.summarise())
        .ok_or_else(|| {
            tdpe_likelihood::LikelihoodError::InvalidInput(
                "a worker computing summary data stopped".into(),
            )
        })?
        .into_iter()
        .collect()
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
        Some(d) if !d.is_empty() => super::collect::standard_deviation(&d),
        _ => f64::INFINITY,
    }
}

/// The network matched-filter SNR of the template at `theta`, √(2 ln L) at its best distance
/// (0 where ⟨d|h⟩ ≤ 0).
pub fn matched_filter_snr(problem: &Problem, theta: &ParameterVector) -> f64 {
    best_distance(problem, theta).map_or(0.0, |(log_likelihood, _)| (2.0 * log_likelihood).sqrt())
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
    /// The time steps its likelihood was summed over (0: none).
    pub time_steps: usize,
    /// Nodes per detector of that relative binning (the Fisher design set, capped).
    pub fisher_nodes: Vec<usize>,
    /// Each chain's draws.
    pub chains: Vec<Vec<ParameterVector>>,
    /// Every draw as the sampler's coordinates see it (geocent_time the window's start with
    /// time steps, no marginalised parameter drawn).
    pub states: Vec<ParameterVector>,
    /// Gradient evaluations of the pilot chains.
    pub gradient_evaluations: u64,
    /// Density evaluations without the gradient of the pilot chains.
    pub density_evaluations: u64,
    /// The posterior the pilot sampled (on the capped relative binning).
    pub posterior: Posterior<BbhRelativeBinning>,
}

/// The pilot run of a wide posterior: relative binning on the Fisher design set capped at
/// [`NODE_BUDGET`] nodes, with the arrival window the priors need, and a short NUTS run on it
/// with the wide posterior's settings `sampler` (its independence proposals prior draws only).
pub fn pilot_run(
    problem: &Problem,
    fiducial: &ParameterVector,
    sampler: &SamplerSection,
    progress: bool,
    stop: &AtomicBool,
) -> anyhow::Result<Pilot> {
    let analysis = &problem.analysis;
    let time_steps = sampler.time_steps.unwrap_or(0);
    // A wide posterior: trials may arrive anywhere the prior allows, which the summary data's
    // whole-sample shifts cover, the nodes resolving the rest.
    let window = arrival_window(problem, fiducial, time_steps);
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
        "relative binning: the Fisher design set needs more than {NODE_BUDGET} nodes per detector and mode; \
         a pilot run draws the design set from the posterior"
    );
    let coordinates = sampler.coordinate_options();
    let (posterior, _) = analysis.posterior(fisher, fiducial, &coordinates, sampler.seed)?;
    let section = SamplerSection {
        num_warmup: PILOT_WARMUP,
        num_draws: PILOT_DRAWS,
        num_temperatures: 1,
        seed: Stream::PilotChains.seed(sampler.seed),
        ..sampler.clone()
    };
    let pilot = run_sampler(
        &posterior,
        &section,
        &sampler_config(
            &section,
            posterior.priors().spin_model,
            tdpe_mcmc::Space::dim(&posterior),
            progress,
        ),
        stop,
        |_| None,
        None,
    )?;
    if pilot.samples.interrupted {
        return Err(super::Interrupted(
            "during the pilot run, before any posterior draws: nothing written".into(),
        )
        .into());
    }
    // Each draw with its time step drawn, where the likelihood is summed over time steps: the
    // arrival times the nodes must resolve.
    let mut rng = Stream::DistanceDraws.rng(sampler.seed);
    let chains = pilot
        .samples
        .chains
        .iter()
        .filter(|c| c.num_draws() > 0)
        .map(|c| {
            (0..c.num_draws())
                .map(|i| {
                    let mut theta = posterior.parameters(c.draw(i));
                    if posterior.time_steps().is_some() {
                        posterior.draw_marginalized(&mut theta, &mut rng)?;
                    }
                    Ok(theta)
                })
                .collect::<Result<Vec<_>, tdpe_likelihood::LikelihoodError>>()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let summaries = pilot.samples.chain_summaries();
    let gradient_evaluations = summaries
        .iter()
        .map(|c| c.warmup_grad_evals + c.grad_evals)
        .sum();
    let density_evaluations = summaries.iter().map(|c| c.density_evals).sum();
    let states = pilot
        .samples
        .chains
        .iter()
        .flat_map(|c| (0..c.num_draws()).map(|i| posterior.parameters(c.draw(i))))
        .collect();
    Ok(Pilot {
        states,
        time_steps,
        arrival_window: window,
        fisher_nodes,
        chains,
        gradient_evaluations,
        density_evaluations,
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
pub fn arrival_window(problem: &Problem, fiducial: &ParameterVector, time_steps: usize) -> f64 {
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
    let grid = problem.exact().likelihood().grid();
    // A window of time steps starts up to its length before the prior's lower bound and
    // reaches as far beyond its upper one (docs/sampling.md §5.6).
    let steps = time_steps.saturating_sub(1) as f64 * grid.dt;
    let needed = (upper - time).max(time - lower) + steps + 2.0 * light_travel;
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

    /// The cells' summary data, computed by workers that take the next cell as they finish,
    /// are each cell's own, in the cells' order, on any number of threads.
    #[test]
    fn summaries_keep_the_cells_order_on_any_number_of_threads() {
        let problem = Problem::set_up(Config::load(None).unwrap()).unwrap();
        let centre = fiducial(&problem).unwrap().theta;
        let moved = |offset: f64| {
            let mut theta = centre;
            theta[Parameter::ChirpMass] += offset;
            theta
        };
        let placed = || {
            [-0.2, 0.0, 0.3].map(|offset| {
                let draws: Vec<ParameterVector> =
                    (0..12).map(|i| moved(offset + 0.01 * i as f64)).collect();
                problem
                    .analysis
                    .place_nodes_on_draws(&moved(offset), &draws, &options(&problem))
                    .unwrap()
            })
        };
        let counts: Vec<Vec<usize>> = placed().iter().map(|p| p.node_counts()).collect();
        let point = BbhParameters::from_array(moved(0.05));
        let values = |threads: usize| -> Vec<f64> {
            summarise(placed().into_iter().collect(), threads)
                .unwrap()
                .iter()
                .zip(&counts)
                .map(|(rb, count)| {
                    assert_eq!(&rb.node_counts(), count);
                    rb.log_likelihood_ratio(&point).unwrap()
                })
                .collect()
        };
        let one = values(1);
        assert_eq!(values(2), one);
        assert_eq!(values(3), one);
        // The cells differ, so the order is tested.
        assert!(one[0] != one[2], "{one:?}");
    }
}
