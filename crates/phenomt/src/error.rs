//! Errors of the waveform model: every message names the parameter and the allowed range.

/// Why a waveform could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WaveformError {
    /// A parameter is outside the model's domain.
    #[error("{name} = {value} is outside the allowed range {allowed}")]
    OutOfRange {
        name: &'static str,
        value: f64,
        allowed: &'static str,
    },
    /// The requested starting (or reference) frequency is never reached by the model's
    /// (2,2) frequency.
    #[error(
        "{name} = {value} Hz cannot be reached by the (2,2) mode of this binary: it must lie \
         below its ringdown frequency {ringdown_hz:.2} Hz (use one below the peak frequency \
         {peak_hz:.2} Hz for a full inspiral) and above the frequency at t = -1e9 M"
    )]
    FrequencyNotReached {
        name: &'static str,
        value: f64,
        peak_hz: f64,
        ringdown_hz: f64,
    },
}
