//! A bank of relative binnings: cells of the (2,2) peak frequency, each around its own centre
//! (docs/likelihood.md §3.11).

use tdpe_phenomt::IMRPhenomT;
use tdpe_signal::BbhParameters;

use super::{BbhRelativeBinning, DetectorSummary, SetupProfile};
use crate::error::LikelihoodError;

/// One centre of relative binning: its fiducial and every detector's summary data.
pub(super) struct Cell {
    pub(super) fiducial: BbhParameters,
    pub(super) detectors: Vec<DetectorSummary>,
}

impl BbhRelativeBinning {
    /// A bank of the relative binnings `cells` (each around one centre, on the same data),
    /// ordered by peak frequency, with the peak frequencies (Hz) `bounds` between them: a trial
    /// is binned against the centre of the cell its (2,2) peak frequency falls in
    /// (docs/likelihood.md §3.11). An error unless there is one bound fewer than cells, in
    /// increasing order, and every cell has as many detectors.
    pub fn bank(cells: Vec<Self>, bounds: Vec<f64>) -> Result<Self, LikelihoodError> {
        let increasing = bounds.windows(2).all(|w| w[0] < w[1]);
        if cells.len() != bounds.len() + 1 || !increasing || bounds.iter().any(|b| !b.is_finite()) {
            return Err(LikelihoodError::InvalidInput(format!(
                "a bank of {} relative binnings needs {} increasing finite bounds, not {bounds:?}",
                cells.len(),
                cells.len().saturating_sub(1)
            )));
        }
        // A precessing binary's frame and step counts are the model's, one for all cells.
        if cells.len() > 1 && cells.iter().any(|c| c.frame.is_some()) {
            return Err(LikelihoodError::InvalidInput(
                "a bank of relative binnings of a precessing binary is not supported: one \
                 centre serves it"
                    .into(),
            ));
        }
        let mut cells = cells.into_iter();
        let mut bank = cells.next().ok_or_else(|| {
            LikelihoodError::InvalidInput("a bank needs at least one relative binning".into())
        })?;
        for cell in cells {
            if cell.model.detectors().len() != bank.model.detectors().len() {
                return Err(LikelihoodError::InvalidInput(
                    "the relative binnings of a bank differ in their detectors".into(),
                ));
            }
            bank.profile = add_profiles(bank.profile, cell.profile);
            bank.cells.extend(cell.cells);
        }
        bank.bounds = bounds;
        Ok(bank)
    }

    /// The cell whose centre a trial at `p` is binned against.
    pub(super) fn cell(&self, p: &BbhParameters) -> &Cell {
        if self.bounds.is_empty() {
            return &self.cells[0];
        }
        let key = Self::cell_key(p);
        &self.cells[self.bounds.partition_point(|&b| b <= key)]
    }

    /// The (2,2) peak frequency (Hz) of a trial, which chooses its cell in a bank.
    pub fn cell_key(p: &BbhParameters) -> f64 {
        let (m1, m2) = tdpe_signal::component_masses(p.chirp_mass, p.mass_ratio);
        IMRPhenomT::peak_frequency(m1, m2, p.chi_1, p.chi_2)
    }

    /// The centres' fiducial parameters, cell after cell.
    pub fn fiducials(&self) -> Vec<&BbhParameters> {
        self.cells.iter().map(|c| &c.fiducial).collect()
    }

    /// The peak frequencies (Hz) between the cells of a bank (none for one centre).
    pub fn bounds(&self) -> &[f64] {
        &self.bounds
    }

    /// Number of nodes B + 1 per detector: the most of any cell.
    pub fn node_counts(&self) -> Vec<usize> {
        self.most_over_cells(|d| d.summary.node_count())
    }

    /// Number of nodes per detector of each cell.
    pub fn cell_node_counts(&self) -> Vec<Vec<usize>> {
        self.cells
            .iter()
            .map(|c| c.detectors.iter().map(|d| d.summary.node_count()).collect())
            .collect()
    }

    /// Per cell, detector and mode (the model's order), the node times (s, the grid's times).
    pub fn node_times(&self) -> Vec<Vec<Vec<&[f64]>>> {
        self.cells
            .iter()
            .map(|c| {
                c.detectors
                    .iter()
                    .map(|d| d.bases.iter().map(|b| b.node_times.as_slice()).collect())
                    .collect()
            })
            .collect()
    }

    /// Per detector, the refinement's error Σ_b E_b on the design set (≤ the target, unless
    /// a best-effort refinement stopped at `max_nodes`): the largest of any cell and mode.
    pub fn refinement_errors(&self) -> Vec<f64> {
        self.most_over_cells(|d| d.refinement_error)
    }

    /// Per detector, the largest `value` over the cells.
    fn most_over_cells<T: PartialOrd + Copy>(
        &self,
        value: impl Fn(&DetectorSummary) -> T,
    ) -> Vec<T> {
        let mut most: Vec<T> = self.cells[0].detectors.iter().map(&value).collect();
        for cell in &self.cells[1..] {
            for (m, d) in most.iter_mut().zip(&cell.detectors) {
                if value(d) > *m {
                    *m = value(d);
                }
            }
        }
        most
    }
}

/// The stages' times of two set-ups added.
fn add_profiles(a: SetupProfile, b: SetupProfile) -> SetupProfile {
    SetupProfile {
        fiducial: a.fiducial + b.fiducial,
        design: a.design + b.design,
        nodes: a.nodes + b.nodes,
        summary: a.summary + b.summary,
        candidates_screened: a.candidates_screened + b.candidates_screened,
        design_waveforms: a.design_waveforms + b.design_waveforms,
    }
}
