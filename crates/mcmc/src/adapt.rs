//! Warm-up: the step size and metric learned together, outside the kernels.
//!
//! Each warm-up transition feeds its acceptance statistic to dual averaging
//! ([`stepsize`](crate::stepsize)) and its draw to the windowed metric estimator
//! ([`mass_matrix::adapt`](crate::mass_matrix::adapt)). When a slow window closes, the new metric
//! is installed, the step size is re-initialised with Stan's heuristic, and dual averaging
//! restarts around it (Stan's `adapt_diag_e_nuts::transition`), or, with
//! [`StepSizeRestart::Continue`], dual averaging goes on as it was.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::checkpoint::{Persist, Reader, Writer};
use crate::hamiltonian::{Hamiltonian, Point};
use crate::mass_matrix::adapt::{MetricAdaptation, MetricAdapter, WindowSchedule};
use crate::stepsize::{find_initial_step_size, DualAverage, DualAveraging};
use crate::target::LogDensity;
use crate::McmcError;

/// Warm-up settings: how the step size and the metric are learned.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Adaptation {
    /// Which metric to learn.
    pub metric: MetricAdaptation,
    /// Phases of the windowed metric estimation.
    pub windows: WindowSchedule,
    /// Dual-averaging constants.
    pub dual_averaging: DualAveraging,
    /// What the step size does when a new metric is installed.
    #[serde(default)]
    pub step_size_restart: StepSizeRestart,
}

/// What the step size does when a slow window installs a new metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StepSizeRestart {
    /// Stan's: re-initialised by the heuristic, and dual averaging restarted around ten times
    /// that.
    #[default]
    Heuristic,
    /// Dual averaging goes on as it was (nutpie's, after its first metric update). For a
    /// target whose acceptance falls off a cliff, where single trajectories fail at step sizes
    /// most of them pass, the heuristic's step size overshoots, and the restart's first,
    /// exploring iterations then drive the step size far below what the chain needs, where it
    /// stays for tens of transitions, each the more expensive.
    Continue,
}

/// Per-chain warm-up state.
#[derive(Debug, Clone)]
pub(crate) struct Warmup {
    step_size: DualAverage,
    metric: MetricAdapter,
}

impl Warmup {
    pub(crate) fn new(
        settings: &Adaptation,
        target_accept: f64,
        num_warmup: usize,
        dim: usize,
        initial_step_size: f64,
    ) -> Self {
        Self {
            step_size: DualAverage::new(settings.dual_averaging, target_accept, initial_step_size),
            metric: MetricAdapter::new(settings.metric, settings.windows, num_warmup, dim),
        }
    }

    /// Learns from one warm-up transition that ended at `point` with statistic `accept_stat`;
    /// returns the step size for the next transition (`Err(ε)` if the re-initialisation after a
    /// metric update ran away).
    pub(crate) fn learn<T: LogDensity + ?Sized, R: Rng + ?Sized>(
        &mut self,
        hamiltonian: &mut Hamiltonian<'_, T>,
        point: &Point,
        accept_stat: f64,
        restart: StepSizeRestart,
        rng: &mut R,
    ) -> Result<f64, f64> {
        let step_size = self.step_size.update(accept_stat);
        let Some(metric) = self.metric.observe(&point.x) else {
            return Ok(step_size);
        };
        hamiltonian.set_metric(metric);
        match restart {
            StepSizeRestart::Heuristic => {
                let step_size = find_initial_step_size(hamiltonian, point, step_size, rng)?;
                self.step_size.restart(step_size);
                Ok(step_size)
            }
            StepSizeRestart::Continue => Ok(step_size),
        }
    }

    /// Restarts dual averaging around `step_size` (after the target changed), as after a metric
    /// update.
    pub(crate) fn restart_step_size(&mut self, step_size: f64) {
        self.step_size.restart(step_size);
    }

    /// The step size for sampling: the dual-averaging average exp(x̄).
    pub(crate) fn final_step_size(&self) -> f64 {
        self.step_size.final_step_size()
    }
}

impl Persist for Warmup {
    fn write(&self, w: &mut Writer) {
        w.put(&self.step_size);
        w.put(&self.metric);
    }
    fn read(r: &mut Reader) -> Result<Self, McmcError> {
        Ok(Self {
            step_size: r.get()?,
            metric: r.get()?,
        })
    }
}
