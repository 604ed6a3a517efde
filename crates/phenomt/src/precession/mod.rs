//! IMRPhenomTPHM, the precessing model of Estellés et al. (arXiv:2105.05872): IMRPhenomTHM's
//! co-precessing modes twisted up with time-dependent Euler angles (docs/precession.md).
//!
//! - `ode.rs`: LAL's default (PrecVersion 300) spin-precession ODE, driven by IMRPhenomT's
//!   v(t), with LAL's integrator and index bookkeeping (§4.1–4.3);
//! - `angles.rs`: the Euler angles α, cos β, γ of L̂ in LAL's J frame, the ringdown
//!   continuation and the evolved final spin (§2.4, §4.4–4.7).

mod angles;
mod ode;

pub use angles::{evolved_final_spin, EulerAngles, JFrame};
pub use ode::{SpinOrbit, SpinPrecessionCoefficients};
