//! Errors of the strain crate.

use thiserror::Error;

/// Everything that can go wrong reading and preparing strain data; messages name the file,
/// the dataset or attribute, and the GPS span concerned.
#[derive(Debug, Error)]
pub enum StrainError {
    /// The file does not exist or cannot be opened.
    #[error("cannot open strain file '{path}': {message}")]
    Open {
        /// The file.
        path: String,
        /// The reason (I/O error, not HDF5, truncated).
        message: String,
    },
    /// A dataset or attribute GWOSC files carry is missing or unreadable.
    #[error("{path}: {item}: {message}")]
    Layout {
        /// The file.
        path: String,
        /// The dataset or `dataset@attribute`.
        item: String,
        /// What is wrong.
        message: String,
    },
    /// The file's metadata contradict each other or the analysis.
    #[error("{path}: {message}")]
    Inconsistent {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A requested span is not inside the file.
    #[error("{path}: the {what} GPS [{start}, {end}) is not inside the file's GPS [{file_start}, {file_end})")]
    OutsideFile {
        /// The file.
        path: String,
        /// Which span (analysis segment, PSD segment).
        what: String,
        /// Requested start (GPS s).
        start: f64,
        /// Requested end (GPS s).
        end: f64,
        /// File start (GPS s).
        file_start: f64,
        /// File end (GPS s).
        file_end: f64,
    },
    /// Missing (NaN) or data-quality-flagged data inside a span that is used.
    #[error("{path}: the {what} GPS [{start}, {end}) contains {problem} in GPS [{bad_start}, {bad_end})")]
    BadData {
        /// The file.
        path: String,
        /// Which span (analysis segment, PSD segment).
        what: String,
        /// Span start (GPS s).
        start: f64,
        /// Span end (GPS s).
        end: f64,
        /// What is wrong (NaN samples, a failed flag).
        problem: String,
        /// First bad time (GPS s).
        bad_start: f64,
        /// End of the first bad stretch (GPS s).
        bad_end: f64,
    },
    /// A setting outside its allowed range.
    #[error("{name} = {value}: {allowed}")]
    InvalidSetting {
        /// The setting (bilby_pipe's name).
        name: &'static str,
        /// Its value.
        value: f64,
        /// What is allowed.
        allowed: String,
    },
    /// The PSD estimate failed.
    #[error("PSD estimate: {0}")]
    Noise(#[from] tdpe_noise::NoiseError),
}
