//! Time-domain relative binning (docs/likelihood.md §3): the fast per-detector likelihood,
//! waveform-agnostic.
//!
//! The model of one detector is h_i = Re[Q·W(t_i − t_c − τ; λ)]. With the fiducial
//! v_i = W(t_i − t_c0 − τ_0; λ0) and the ratio r(t) = W(t − t_c − τ; λ)/W(t − t_c0 − τ_0; λ0)
//! taken at fixed physical sample times, the template is approximated by
//!
//! h_i ≈ Re[Σ_b c_b u_b(i)],  u_b = v·ψ_b,  c_b = Q·r(t_{n_b}),
//!
//! where ψ_b are local Lagrange weights of degree five on the nodes n_0 < … < n_B
//! ([`interpolation`]).
//! Then ln L = Re(cᵀa) − ¼cᴴPc − ¼Re(cᵀRc) with summary data computed once ([`SummaryData`]).
//!
//! Workflow for the caller, per detector (docs/likelihood.md §3.3–§3.5):
//! 1. weights s_i = [`snr_weights`]`(v, Q0, C⁻¹)`; design ratios r_j(t_i) = W_j(t_i)/v_i of
//!    J ≈ 32–64 design waveforms covering the sampled time shifts (docs/likelihood.md §3.5);
//! 2. nodes = [`refine_nodes`]`(ratios, s, &RefineOptions { target: 1e-7, .. })`;
//! 3. summary = [`SummaryData::new`]`(v, d, C⁻¹, nodes)` (or [`SummaryData::with_shifts`] for
//!    trials arriving whole samples m away from the fiducial, docs/likelihood.md §3.9);
//! 4. per evaluation: c_b = Q·W(t_{n_b} + m·dt − t_c − τ; λ) / `summary.fiducial_at_nodes()[b]`,
//!    then `summary.adjoint(c, m, g, ws)` returns ln L and g with d ln L = Re Σ_b g_b dc_b
//!    (docs/likelihood.md §3.6); m = 0 without shifts.
//!
//! [`ReconstructedLikelihood`] is reconstruct-and-apply (docs/likelihood.md §3.7), identical in
//! value and gradient, used for validation and as the large-B fallback.

mod basis;
mod error;
mod evaluate;
pub mod interpolation;
mod nodes;
mod reconstruct;
mod summary;

pub use error::RbError;
pub use evaluate::{InnerProducts, QuadratureProducts, RbWorkspace};
pub use nodes::{refine_nodes, snr_weights, NodeSet, RefineOptions, Refinement};
pub use num_complex::Complex64;
pub use reconstruct::{ReconstructWorkspace, ReconstructedLikelihood};
pub use summary::{Basis, SummaryData};
