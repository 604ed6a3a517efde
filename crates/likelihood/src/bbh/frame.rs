//! Where a precessing trial's frame starts (docs/precession.md §12.7): relative binning fixes
//! the spin ODE's start and step counts once for the analysis, so that ln L is a smooth
//! function of the parameters (counts that followed each trial would jump).

use tdpe_signal::{
    BbhParameters, PrecessingGradientSource, PrecessingSource, SignalModel, SpinModel,
    MAX_EARTH_DELAY_S,
};

use crate::error::LikelihoodError;
use crate::grid::SampleGrid;

/// How much later than the reference's a trial's geocent_time may be (s) unless the caller
/// says: the frame starts early enough for the segment's first sample of such a trial.
const LATEST_ARRIVAL_S: f64 = 0.2;

/// The start of a precessing binary's frame, fixed for an analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PrecessingFrame {
    /// Where the frame starts (s, relative to the peak).
    start: f64,
    /// The latest geocent_time whose trials it serves.
    latest_geocent_time: f64,
}

impl PrecessingFrame {
    /// For a precessing `model` (otherwise `None` and the model unchanged): the frame of trials
    /// around `reference` up to `latest_geocent_time` (default: [`LATEST_ARRIVAL_S`] after the
    /// reference), evaluated on `grid` up to `earliest_shift` (s) before its first sample, and
    /// the model with the reference's step counts fixed.
    pub(crate) fn fix(
        model: &SignalModel,
        grid: &SampleGrid,
        reference: &BbhParameters,
        earliest_shift: f64,
        latest_geocent_time: Option<f64>,
    ) -> Result<(SignalModel, Option<Self>), LikelihoodError> {
        if model.spin_model() != SpinModel::Precessing {
            return Ok((model.clone(), None));
        }
        let latest_geocent_time = latest_geocent_time
            .unwrap_or(reference.geocent_time + LATEST_ARRIVAL_S)
            .max(reference.geocent_time);
        if !latest_geocent_time.is_finite() {
            return Err(LikelihoodError::InvalidInput(format!(
                "the latest geocent_time of a precessing binary's trials must be finite, not \
                 {latest_geocent_time}"
            )));
        }
        let start = grid.start - earliest_shift - latest_geocent_time - MAX_EARTH_DELAY_S;
        let steps = model.precession_steps(reference, start)?;
        let frame = Self {
            start,
            latest_geocent_time,
        };
        Ok((model.clone().with_precession_steps(steps), Some(frame)))
    }

    /// An error where the frame starts too late for a trial at `p`.
    fn check(&self, p: &BbhParameters) -> Result<(), LikelihoodError> {
        if p.geocent_time > self.latest_geocent_time {
            return Err(LikelihoodError::InvalidInput(format!(
                "geocent_time {} s is after {} s, the latest the relative binning's precessing \
                 frame serves",
                p.geocent_time, self.latest_geocent_time
            )));
        }
        Ok(())
    }

    /// The source of a trial at `p` on this frame.
    pub(crate) fn source(
        &self,
        model: &SignalModel,
        p: &BbhParameters,
    ) -> Result<PrecessingSource<f64>, LikelihoodError> {
        self.check(p)?;
        Ok(model.precessing_source(p, self.start)?)
    }

    /// [`Self::source`] with what its gradient needs.
    pub(crate) fn gradient_source(
        &self,
        model: &SignalModel,
        p: &BbhParameters,
    ) -> Result<PrecessingGradientSource, LikelihoodError> {
        self.check(p)?;
        Ok(model.precessing_gradient_source(p, self.start)?)
    }
}
