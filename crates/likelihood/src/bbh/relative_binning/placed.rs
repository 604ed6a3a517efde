//! Relative binning in two steps: the nodes, then the summary data (docs/likelihood.md
//! §3.11), so that the node counts, a small part of the set-up's cost, can decide whether the
//! rest is wanted.

use std::time::Instant;

use tdpe_phenomt::ModeSelection;
use tdpe_signal::{BbhParameters, SignalModel};

use super::bank::Cell;
use super::{
    detector_fiducials, fiducial_series, noise_inverses, BbhRelativeBinning, DetectorSummary,
    FiducialSeries, ModeNodes, RelativeBinningOptions, SetupProfile,
};
use crate::bbh::design::DesignPoint;
use crate::bbh::exact::BbhExactLikelihood;
use crate::bbh::frame::PrecessingFrame;
use crate::error::LikelihoodError;
use crate::relative_binning::{refine_nodes, Basis, RefineOptions, Refinement, SummaryData};

/// Relative binning with its nodes refined and no summary data yet
/// ([`BbhRelativeBinning::place_on_draws`]).
pub struct PlacedNodes<'a> {
    exact: &'a BbhExactLikelihood,
    /// The exact likelihood's model, with a precessing binary's step counts fixed.
    model: SignalModel,
    /// A precessing binary's frame.
    frame: Option<PrecessingFrame>,
    fiducial: BbhParameters,
    /// The fiducial moved by the arrival window: the basis's reference.
    reference: BbhParameters,
    /// The arrival window in samples.
    window: isize,
    /// Each detector's fiducial series, one per mode.
    series: Vec<Vec<FiducialSeries>>,
    /// Each detector's refinement of each mode.
    refinements: Vec<Vec<Refinement>>,
    pub(super) profile: SetupProfile,
}

impl<'a> PlacedNodes<'a> {
    /// The nodes refined on `design` (arrival shifts relative to `fiducial`).
    ///
    /// With an arrival window of w samples the basis is that of a reference, the fiducial
    /// moved w samples later, and the summary data cover whole-sample shifts m ∈ [−2w, 0] from
    /// it: every trial in the window then arrives no later than the reference, so the moved
    /// basis still spans the trial's waveform back to the segment's first sample, which the
    /// data term needs near the start of the segment, where C⁻¹ differs most from a Toeplitz
    /// matrix (docs/likelihood.md §1.6, §3.9).
    pub(super) fn refine(
        exact: &'a BbhExactLikelihood,
        fiducial: BbhParameters,
        design: &[DesignPoint],
        options: &RelativeBinningOptions,
        mut profile: SetupProfile,
    ) -> Result<Self, LikelihoodError> {
        let clock = Instant::now();
        let grid = exact.likelihood().grid();
        let duration = grid.duration();
        if !(options.arrival_window.is_finite()
            && (0.0..duration / 2.0).contains(&options.arrival_window))
        {
            return Err(LikelihoodError::InvalidInput(format!(
                "arrival_window = {} s must be >= 0 and below half the segment ({duration} s)",
                options.arrival_window
            )));
        }
        let window = (options.arrival_window / grid.dt).ceil() as isize;
        let reference = BbhParameters {
            geocent_time: fiducial.geocent_time + window as f64 * grid.dt,
            ..fiducial
        };
        // The summary data's shifts reach 2w samples before the reference.
        let earliest_shift = 2.0 * window as f64 * grid.dt;
        let (model, frame) = PrecessingFrame::fix(
            exact.model(),
            grid,
            &reference,
            earliest_shift,
            options.latest_geocent_time,
        )?;
        let series = fiducial_series(exact, &model, &reference, frame.as_ref())?;
        // The basis spans the reference's support: it must end inside the segment, or the
        // trials moved earlier would lose their merger with it.
        if window > 0
            && series
                .iter()
                .flatten()
                .any(|(_, last, _)| *last + 1 >= grid.len)
        {
            return Err(LikelihoodError::InvalidInput(format!(
                "arrival_window = {} s moves the fiducial's ringdown past the segment's end: \
                 the segment needs more data after the trigger",
                options.arrival_window
            )));
        }
        // The design points' arrival shifts as the evaluation sees them: the sub-sample residual
        // after the whole-sample shift (within the window) that the summary data take over.
        let residual = |shift: f64| {
            let whole = (shift / grid.dt)
                .round()
                .clamp(-(window as f64), window as f64);
            shift - whole * grid.dt
        };
        let design: Vec<DesignPoint> = design
            .iter()
            .map(|p| DesignPoint {
                shifts: p.shifts.iter().map(|&s| residual(s)).collect(),
                ..p.clone()
            })
            .collect();
        // Each mode to the target: the modes' errors add, but a higher mode's weights take its
        // largest factor over the orientations, which overstates its error where it is weak.
        let refinements = detector_fiducials(&model, grid, &reference, &series, frame)
            .iter()
            .map(|modes| {
                modes
                    .iter()
                    .map(|f| {
                        let refine = RefineOptions {
                            target: options.target,
                            max_nodes: options.max_nodes,
                            support: Some(f.support.clone()),
                            best_effort: options.best_effort,
                            ..RefineOptions::default()
                        };
                        Ok(refine_nodes(
                            &f.design_ratios(&design)?,
                            f.weights,
                            &refine,
                        )?)
                    })
                    .collect()
            })
            .collect::<Result<Vec<Vec<_>>, LikelihoodError>>()?;
        profile.nodes += clock.elapsed();
        Ok(Self {
            exact,
            model,
            frame,
            fiducial,
            reference,
            window,
            series,
            refinements,
            profile,
        })
    }

    /// Number of nodes B + 1 per detector (of all modes).
    pub fn node_counts(&self) -> Vec<usize> {
        self.refinements
            .iter()
            .map(|modes| modes.iter().map(|r| r.nodes.node_count()).sum())
            .collect()
    }

    /// The summary data of every detector on these nodes, the costly part of the set-up: per
    /// detector one C⁻¹ apply for the data projections and 2(B + 1) for each Gram anchor
    /// (docs/likelihood.md §3.9).
    pub fn summarise(self) -> Result<BbhRelativeBinning, LikelihoodError> {
        let clock = Instant::now();
        let mut profile = self.profile;
        let (model, like) = (&self.model, self.exact.likelihood());
        let grid = like.grid();
        let noises = noise_inverses(self.exact);
        let fiducials = detector_fiducials(model, grid, &self.reference, &self.series, self.frame);
        let detectors = fiducials
            .iter()
            .zip(self.refinements)
            .enumerate()
            .map(|(k, (modes, refinements))| {
                // Each mode is refined to the target on its own (docs/likelihood.md §3.12).
                let refinement_error = refinements.iter().map(|r| r.error).fold(0.0, f64::max);
                let bases = modes
                    .iter()
                    .zip(refinements)
                    .map(|(f, refinement)| Basis {
                        fiducial: f.series,
                        nodes: refinement.nodes,
                    })
                    .collect();
                let summary =
                    SummaryData::stacked(bases, like.data(k), noises[k], -2 * self.window..=0)?;
                let mut inverse_fiducial = summary.fiducial_at_nodes().iter().map(|v| v.inv());
                let bases: Vec<ModeNodes> = summary
                    .bases()
                    .iter()
                    .enumerate()
                    .map(|(mode, nodes)| ModeNodes {
                        mode,
                        node_times: nodes.indices().iter().map(|&i| grid.time(i)).collect(),
                        inverse_fiducial: inverse_fiducial
                            .by_ref()
                            .take(nodes.node_count())
                            .collect(),
                    })
                    .collect();
                let (distinct_times, place) = distinct_node_times(&bases);
                Ok(DetectorSummary {
                    summary,
                    refinement_error,
                    bases,
                    distinct_times,
                    place,
                    arrival: self.reference.geocent_time
                        + model.projection(k, &self.reference).value.delay,
                    dt: grid.dt,
                })
            })
            .collect::<Result<_, LikelihoodError>>()?;
        profile.summary += clock.elapsed();
        Ok(BbhRelativeBinning {
            model: self.model,
            frame: self.frame,
            cells: vec![Cell {
                fiducial: self.fiducial,
                detectors,
            }],
            bounds: Vec::new(),
            profile,
        })
    }
}

/// The distinct node times of all bases, increasing, each with the modes that have a node there,
/// and each node's place among them.
fn distinct_node_times(bases: &[ModeNodes]) -> (Vec<(f64, ModeSelection)>, Vec<usize>) {
    let mut times: Vec<f64> = bases
        .iter()
        .flat_map(|b| b.node_times.iter().copied())
        .collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let mut distinct: Vec<(f64, ModeSelection)> = times
        .into_iter()
        .map(|t| (t, ModeSelection::default()))
        .collect();
    let mut place = Vec::new();
    for basis in bases {
        for t in &basis.node_times {
            let at = distinct.partition_point(|(d, _)| d < t);
            distinct[at].1[basis.mode] = true;
            place.push(at);
        }
    }
    (distinct, place)
}
