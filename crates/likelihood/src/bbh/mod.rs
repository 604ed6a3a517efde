//! Likelihoods of a binary black hole's 11 aligned-spin parameters (bilby's names): the signal model of
//! `tdpe-signal` in front of the exact likelihood ([`BbhExactLikelihood`]) and of time-domain
//! relative binning ([`BbhRelativeBinning`], with its gradient).

mod design;
mod exact;
mod frame;
mod relative_binning;

pub use design::{draw_design_points, DesignPoint, DetectorFiducial};
pub use exact::BbhExactLikelihood;
pub use relative_binning::{
    BbhRelativeBinning, PlacedNodes, RelativeBinningOptions, SetupProfile, TimeLattice,
};
