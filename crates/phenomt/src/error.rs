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
    /// (2,2) frequency, which rises from `lowest_hz` (at t = −1e9 M, where the model starts)
    /// to `ringdown_hz`.
    #[error(
        "{name} = {value} Hz cannot be reached by the (2,2) mode of this binary: the allowed \
         range is ({lowest_hz:.3e}, {ringdown_hz:.2}) Hz, from the frequency at t = -1e9 M to \
         the ringdown frequency (use one below the peak frequency {peak_hz:.2} Hz for a full \
         inspiral)"
    )]
    FrequencyNotReached {
        name: &'static str,
        value: f64,
        lowest_hz: f64,
        peak_hz: f64,
        ringdown_hz: f64,
    },
    /// An IMRPhenomTHM set-up without modes.
    #[error("no modes were asked for: IMRPhenomTHM has (2,2), (2,1), (3,3), (4,4) and (5,5)")]
    NoModes,
    /// A mode asked for twice.
    #[error("mode ({l},{m}) is asked for twice")]
    RepeatedMode { l: u32, m: u32 },
    /// An IMRPhenomTPHM angle option (LAL's `PrecVersion`) that is not implemented.
    #[error("PrecVersion {version} is not supported: IMRPhenomTPHM has {supported}")]
    UnsupportedPrecVersion {
        version: u32,
        supported: &'static str,
    },
    /// LAL's MSA system failed to initialise (`MSA_ERROR`) for a version without the NNLO
    /// fallback.
    #[error(
        "the MSA angles of PrecVersion {version} fail for these parameters (|Omega_z5| = \
         {omega_z5:e} > 1000); LAL stops here too (220, 223 and 224 fall back to NNLO 102)"
    )]
    MsaFailed { version: u32, omega_z5: f64 },
}
