//! IMRPhenomT: the time-domain phenomenological (2,2)-mode model of Estellés et al.
//! (arXiv:2004.08302, 2012.11923), as LALSuite implements it (`XLALSimIMRPhenomT`).
//!
//! Set-up ([`IMRPhenomT::new`], from masses and aligned spins) is separated from evaluation
//! ([`IMRPhenomT::mode22`], h22 at any time relative to the peak of |h22|): every phase is a
//! closed-form function of that time, so the model is time-translation invariant by
//! construction. Everything is generic over [`Real`], so the same code gives `f64` values and
//! forward-mode derivatives through [`Dual`]. The design, and what it takes to match LAL, is
//! described in the repository's `docs/imrphenomt.md`.
//!
//! ```
//! use tdpe_phenomt::{IMRPhenomT, Settings};
//! let settings = Settings::lal(20.0, 20.0, 1.0 / 4096.0);
//! let model = IMRPhenomT::new(36.0, 29.0, 0.3, -0.2, &settings).unwrap();
//! let at_peak = model.mode22(0.0);
//! assert!(at_peak.amplitude > 0.0);
//! ```

mod amplitude;
pub mod constants;
mod error;
pub mod fits;
pub mod gsl;
mod harmonics;
mod model;
mod phase;
pub mod precession;
mod ringdown;
mod roots;
pub mod scalar;
mod thm;
mod vmath;

pub use error::WaveformError;
pub use harmonics::{polarizations_from_22, spin_weighted_factor, y22_factors};
pub use model::{IMRPhenomT, Mode22, Mode22Adjoint, Mode22Trace, Polarizations, Settings};
pub use precession::{
    evolved_final_spin, AnalyticalEulerAngles, AnalyticalOptions, EulerAngleSeries, IMRPhenomTPHM,
    JFrame, ModeSelection, PrecVersion, PrecessionAngles, SmoothPrecession, SmoothSteps, SpinOrbit,
    SpinPrecessionCoefficients, DEFAULT_PREC_VERSION, EVERY_MODE, SUPPORTED_PREC_VERSIONS,
};
pub use scalar::{Dual, Real};
pub use thm::{IMRPhenomTHM, Mode};
pub use vmath::sin_cos_f64;
