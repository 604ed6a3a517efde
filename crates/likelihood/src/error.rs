//! Errors of the likelihood crate.

use thiserror::Error;

/// Everything that can go wrong when building or evaluating the likelihood.
#[derive(Debug, Error)]
pub enum LikelihoodError {
    /// A NaN or infinity in data or a template.
    #[error(
        "{what} for detector '{detector}' contains a non-finite value ({value}) at sample {index}"
    )]
    NonFinite {
        /// "data" or "template".
        what: &'static str,
        /// Detector name.
        detector: String,
        /// First bad sample.
        index: usize,
        /// Its value.
        value: f64,
    },
    /// A length that does not match the sample grid or the network.
    #[error("length mismatch: {what} has {got} entries, expected {expected}")]
    LengthMismatch {
        /// What was mismatched.
        what: String,
        /// Length received.
        got: usize,
        /// Length expected.
        expected: usize,
    },
    /// A sample grid parameter out of range.
    #[error("invalid sample grid: {0}")]
    InvalidGrid(String),
    /// Two detectors with the same name.
    #[error("detector '{0}' appears twice in the network")]
    DuplicateDetector(String),
    /// An error from the noise model.
    #[error(transparent)]
    Noise(#[from] tdpe_noise::NoiseError),
    /// An error from the signal model (parameters outside the waveform's range, …).
    #[error(transparent)]
    Signal(#[from] tdpe_signal::SignalError),
    /// An error from the relative-binning core.
    #[error(transparent)]
    RelativeBinning(#[from] crate::relative_binning::RbError),
    /// An input that cannot be used, with the reason.
    #[error("{0}")]
    InvalidInput(String),
}
