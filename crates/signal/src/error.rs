//! Errors of the signal model.

use tdpe_detector::DetectorError;
use tdpe_phenomt::WaveformError;

/// Why a signal could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SignalError {
    #[error(transparent)]
    Waveform(#[from] WaveformError),
    #[error(transparent)]
    Detector(#[from] DetectorError),
    /// A parameter is outside its domain.
    #[error("{name} = {value} is outside the allowed range {allowed}")]
    OutOfRange {
        name: &'static str,
        value: f64,
        allowed: &'static str,
    },
}
