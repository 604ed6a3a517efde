//! IMRPhenomTPHM, the precessing model of Estellés et al., arXiv:2105.05872: the co-precessing
//! IMRPhenomTHM modes "twisted up" with time-dependent Euler angles, as LALSuite builds it
//! (`XLALSimIMRPhenomTPHM`). The design is in the repository's `docs/precession.md`.
//!
//! - `ode`: LAL's default (PrecVersion 300) spin-precession ODE, driven by IMRPhenomT's v(t),
//!   with LAL's integrator and index bookkeeping (§4.1–4.3);
//! - `angles`: the Euler angles α, cos β, γ of L̂ in LAL's J frame, the ringdown continuation
//!   and the evolved final spin (§2.4, §4.4–4.7);
//! - `rotation`: the Wigner matrices, the twist into the J frame, the global rotation into the
//!   L0 frame and the polarisations (§2.3, §2.5);
//! - `analytical`: the analytical (NNLO and MSA) angles of the non-default `PrecVersion` values,
//!   their ringdown and γ options, and the parsing of `PrecVersion` (§3.1–3.2);
//! - `msa`: the MSA system of PhenomX versions 220–224 and its final spin (§3.2);
//! - `model`: the model on LAL's grid, which puts them together (§4.8);
//! - `frame`: rotations as unit quaternions and their Wigner D-matrices (§4.9);
//! - `smooth`: the smooth variant, a function of the parameters and of continuous time (§5.2).

mod analytical;
mod angles;
pub mod frame;
mod model;
mod msa;
mod ode;
pub mod rotation;
mod smooth;

pub use analytical::{AnalyticalEulerAngles, AnalyticalOptions, PrecVersion};
pub use angles::{evolved_final_spin, EulerAngleSeries, JFrame};
pub use frame::{Rotation, WignerD};
pub use model::{IMRPhenomTPHM, PrecessionAngles, DEFAULT_PREC_VERSION, SUPPORTED_PREC_VERSIONS};
pub use ode::{SpinOrbit, SpinPrecessionCoefficients};
pub use smooth::{ModeSelection, ProjectionSums, SmoothPrecession, SmoothSteps, EVERY_MODE};
