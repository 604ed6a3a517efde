//! IMRPhenomTPHM, the precessing model of Estellés et al., arXiv:2105.05872: the co-precessing
//! IMRPhenomTHM modes "twisted up" with time-dependent Euler angles, as LALSuite builds it
//! (`XLALSimIMRPhenomTPHM`). The design is in the repository's `docs/precession.md`.
//!
//! - `rotation`: the Wigner matrices, the twist into the J frame, the global rotation into the
//!   L0 frame and the polarisations (docs/precession.md §2.3, §2.5).

pub mod rotation;
