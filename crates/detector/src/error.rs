//! Errors of the detector crate.

use thiserror::Error;

/// Everything that can go wrong in this crate; messages name the offending value and the
/// allowed range.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum DetectorError {
    /// A detector name that is not in [`crate::KNOWN_DETECTORS`].
    #[error("unknown detector '{name}'; known: {known}")]
    UnknownDetector {
        /// The name that was asked for.
        name: String,
        /// Comma-separated list of known names.
        known: String,
    },
    /// A GPS time outside the range covered by the leap-second table / civil calendar.
    #[error("GPS time {gps} s is outside the supported range [{min}, {max}] s")]
    GpsOutOfRange {
        /// The GPS time (s).
        gps: f64,
        /// Smallest supported GPS time (s).
        min: f64,
        /// Largest supported GPS time (s).
        max: f64,
    },
    /// Two detectors at the same site give no baseline for a sky frame.
    #[error("{first} and {second} are at the same place: they define no baseline")]
    NoBaseline {
        /// First detector's name.
        first: String,
        /// Second detector's name.
        second: String,
    },
    /// A parameter that must be finite was NaN or infinite.
    #[error("parameter '{name}' must be finite, got {value}")]
    NonFinite {
        /// Parameter name.
        name: &'static str,
        /// The value received.
        value: f64,
    },
    /// Slices that must have equal lengths do not.
    #[error("length mismatch: '{what}' has {got} samples, expected {expected}")]
    LengthMismatch {
        /// What was mismatched.
        what: &'static str,
        /// Length received.
        got: usize,
        /// Length expected.
        expected: usize,
    },
}
