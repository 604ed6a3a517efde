//! The common sample grid of a network's data segments.

use crate::error::LikelihoodError;

/// N samples at t_i = start + i·dt, in seconds **relative to a reference epoch** (see the crate
/// documentation for why absolute GPS seconds must not be used here).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleGrid {
    /// Time of sample 0 relative to the epoch (s).
    pub start: f64,
    /// Sampling interval Δt = 1/fs (s).
    pub dt: f64,
    /// Number of samples N.
    pub len: usize,
}

impl SampleGrid {
    /// A grid of `duration` s at `sampling_frequency` Hz starting at `start` s after the epoch;
    /// duration·fs must be a positive integer.
    pub fn new(
        start: f64,
        sampling_frequency: f64,
        duration: f64,
    ) -> Result<Self, LikelihoodError> {
        if !(sampling_frequency.is_finite() && sampling_frequency > 0.0) {
            return Err(LikelihoodError::InvalidGrid(format!(
                "sampling_frequency = {sampling_frequency} Hz must be finite and > 0"
            )));
        }
        if !start.is_finite() {
            return Err(LikelihoodError::InvalidGrid(format!(
                "start = {start} s must be finite"
            )));
        }
        let n = duration * sampling_frequency;
        if !(n.is_finite() && n >= 1.0 && (n - n.round()).abs() < 1e-9 * n) {
            return Err(LikelihoodError::InvalidGrid(format!(
                "duration × sampling_frequency = {duration} s × {sampling_frequency} Hz must be a positive integer"
            )));
        }
        Ok(Self {
            start,
            dt: 1.0 / sampling_frequency,
            len: n.round() as usize,
        })
    }

    /// Sampling frequency fs (Hz).
    pub fn sampling_frequency(&self) -> f64 {
        1.0 / self.dt
    }
    /// Segment duration N·Δt (s).
    pub fn duration(&self) -> f64 {
        self.len as f64 * self.dt
    }
    /// t_i (s, relative to the epoch).
    pub fn time(&self, i: usize) -> f64 {
        self.start + i as f64 * self.dt
    }
    /// All sample times (s, relative to the epoch).
    pub fn times(&self) -> Vec<f64> {
        (0..self.len).map(|i| self.time(i)).collect()
    }
}
