//! Stationary Gaussian detector noise for the exact time-domain likelihood.
//!
//! - [`psd`]: one-sided power spectral densities from two-column files or built-in design
//!   curves, interpolated log-log.
//! - [`band`]: the analysed band put *into* the covariance (docs/likelihood.md §1.3): Planck
//!   ramps 4 Hz wide outside [f_low, f_high] blending 1/S into a high-variance floor.
//! - [`acf`]: autocovariance ρ = ½·fs·irfft(S_TD) on a fine frequency grid.
//! - [`toeplitz`]: x = C⁻¹e₀ and log det C (Levinson–Durbin; for long segments conjugate
//!   gradients and a bracketed, truncated Levinson recursion), then C⁻¹v in O(N log N) by the
//!   Gohberg–Semencul formula.
//! - [`pcg`]: preconditioned conjugate gradients for C x = e₀ with FFT matvecs.
//! - [`dense`]: dense Cholesky of C (faer), the small-N reference path.
//! - [`simulate`]: coloured Gaussian noise with a seed (frequency domain, or exact from Cholesky).
//! - [`welch`]: Welch PSD estimate with median averaging (scipy / bilby_pipe convention).
//!
//! Units: Hz, s; PSDs in 1/Hz (strain²/Hz); f64 throughout.

pub mod acf;
pub mod band;
pub mod dense;
pub mod error;
pub mod pcg;
pub mod psd;
pub mod simulate;
pub mod toeplitz;
pub mod welch;

pub use acf::Acf;
pub use band::AnalysisBand;
pub use dense::DenseToeplitzCholesky;
pub use error::NoiseError;
pub use psd::{Psd, PsdColumn, BUILTIN_PSDS};
pub use toeplitz::{GsWorkspace, ToeplitzInverse};
pub use welch::{welch_median, WelchEstimate, WelchOptions, WelchWindow};
