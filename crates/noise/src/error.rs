//! Errors of the noise crate.

use thiserror::Error;

/// Everything that can go wrong in this crate; messages name the file/line or parameter and
/// the allowed range.
#[derive(Debug, Error)]
pub enum NoiseError {
    /// A PSD file could not be read.
    #[error("cannot read PSD file '{path}'")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A malformed or invalid row in a PSD file.
    #[error("{source_name}:{line}: {message}")]
    Parse {
        /// File name (or the name of the embedded curve).
        source_name: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A PSD with too few points, or invalid samples given programmatically.
    #[error("invalid PSD '{name}': {message}")]
    InvalidPsd {
        /// PSD name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// A frequency outside the PSD's tabulated band was requested.
    #[error("PSD '{name}' covers [{f_min}, {f_max}] Hz but [{lo}, {hi}] Hz is needed")]
    BandNotCovered {
        /// PSD name.
        name: String,
        /// First tabulated frequency (Hz).
        f_min: f64,
        /// Last tabulated frequency (Hz).
        f_max: f64,
        /// Lowest frequency needed (Hz).
        lo: f64,
        /// Highest frequency needed (Hz).
        hi: f64,
    },
    /// An unknown built-in PSD name.
    #[error("unknown PSD '{name}'; built-in curves: {known}")]
    UnknownPsd {
        /// Requested name.
        name: String,
        /// Known names.
        known: String,
    },
    /// A parameter out of range.
    #[error("parameter '{name}' = {value} is invalid: {allowed}")]
    InvalidParameter {
        /// Parameter name.
        name: &'static str,
        /// Value received.
        value: f64,
        /// The allowed range.
        allowed: String,
    },
    /// A NaN or infinity in input data.
    #[error("'{what}' contains a non-finite value ({value}) at index {index}")]
    NonFiniteData {
        /// Which input.
        what: String,
        /// Index of the first bad sample.
        index: usize,
        /// The value.
        value: f64,
    },
    /// Slice lengths that must agree do not.
    #[error("length mismatch: '{what}' has {got} samples, expected {expected}")]
    LengthMismatch {
        /// Which input.
        what: String,
        /// Length received.
        got: usize,
        /// Length expected.
        expected: usize,
    },
    /// An iterative solve stopped before reaching its tolerance.
    #[error(
        "conjugate gradients did not converge: relative residual {residual:e} after {iterations} iterations (tolerance {tolerance:e})"
    )]
    NotConverged {
        /// Iterations taken.
        iterations: usize,
        /// Relative residual reached.
        residual: f64,
        /// The tolerance asked for.
        tolerance: f64,
    },
    /// The covariance matrix is not (numerically) positive definite.
    #[error("covariance is not positive definite (failed at order {order} of {n})")]
    NotPositiveDefinite {
        /// Order at which the factorisation broke down.
        order: usize,
        /// Matrix size.
        n: usize,
    },
}

/// Returns an error unless `what` has the `expected` length `len`.
pub fn check_len(what: &str, len: usize, expected: usize) -> Result<(), NoiseError> {
    if len != expected {
        return Err(NoiseError::LengthMismatch {
            what: what.to_string(),
            got: len,
            expected,
        });
    }
    Ok(())
}

/// Returns an error naming the first non-finite sample of `x`.
pub fn check_finite(what: &str, x: &[f64]) -> Result<(), NoiseError> {
    if let Some((index, &value)) = x.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(NoiseError::NonFiniteData {
            what: what.to_string(),
            index,
            value,
        });
    }
    Ok(())
}
