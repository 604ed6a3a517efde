//! IMRPhenomT: the time-domain phenomenological (2,2)-mode model of Estellés et al.
//! (arXiv:2004.08302, 2012.11923), as LALSuite implements it.

pub mod fits;
pub mod scalar;
