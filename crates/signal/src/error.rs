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
    /// A combination of options that is not built.
    #[error("{0} is not supported")]
    Unsupported(&'static str),
    /// A parameter is outside its domain.
    #[error("{name} = {value} is outside the allowed range {allowed}")]
    OutOfRange {
        name: &'static str,
        value: f64,
        allowed: &'static str,
    },
}
