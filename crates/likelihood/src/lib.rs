//! The exact time-domain Gaussian likelihood over a detector network (docs/likelihood.md §1).
//!
//! For detectors k with data d_k and template h_k on the same N-sample grid,
//!
//! ln L = Σ_k [⟨d_k|h_k⟩ − ½⟨h_k|h_k⟩] − ½Σ_k⟨d_k|d_k⟩ − ½Σ_k log det C_k − (N/2)Σ_k log 2π,
//!
//! with ⟨a|b⟩ = aᵀC_k⁻¹b applied exactly by the Gohberg–Semencul formula
//! ([`tdpe_noise::ToeplitzInverse`]). The crate is waveform-agnostic: templates are plain f64
//! slices already projected into each detector and sampled on the detector's grid.
//!
//! **Times.** Sample i of every detector is at t_i = start + i·dt seconds *relative to a
//! reference epoch* (keep the epoch as an integer GPS second plus nanoseconds elsewhere, e.g.
//! `tdpe_detector::GpsTime`). f64 GPS seconds near 1.1e9 have only ~0.24 µs resolution, i.e.
//! 5e-4 rad of phase at 300 Hz (docs/likelihood.md §1.1), so never evaluate templates at
//! absolute GPS times.

pub mod bbh;
pub mod error;
pub mod exact;
pub mod grid;
pub mod log_sum_exp;
pub mod relative_binning;

pub use bbh::{
    BbhExactLikelihood, BbhRelativeBinning, PlacedNodes, RelativeBinningOptions, SetupProfile,
    TimeLattice,
};
pub use error::LikelihoodError;
pub use exact::{DetectorInput, DetectorTerms, ExactLikelihood, LikelihoodWorkspace};
pub use grid::SampleGrid;
pub use relative_binning::{InnerProducts, QuadratureProducts};
