//! The scalar type the model is written in.
//!
//! Every formula of the model is generic over [`Real`], so that the same code gives plain `f64`
//! values (bit-identical to LAL's set-up arithmetic) and forward-mode derivatives through
//! [`num_dual`]'s dual numbers (e.g. [`num_dual::DualSVec64`]). Constants enter as `f64`
//! (`x * 2.0`, `T::from(2.0) / x`): with `T = f64` this is exactly the C arithmetic.

use num_dual::{DualNum, DualStruct};

/// A real scalar: `f64` itself, or a dual number over `f64`.
pub trait Real: DualNum<Primitive = f64> + DualStruct<Real = f64> + Copy {}

impl<T: DualNum<Primitive = f64> + DualStruct<Real = f64> + Copy> Real for T {}

/// Applies the chain rule for a function whose value `f0` and derivative `f1` at `x.re()` were
/// computed in `f64` (for functions that must reproduce a particular f64 algorithm bit for bit,
/// such as GSL's complex `arcsinh`): returns `f0` with derivative part `f1 · ∂x`.
///
/// `f1` must be finite (for `T = f64` the result is `f0 + 0·f1`).
#[inline]
pub fn lift<T: Real>(x: T, f0: f64, f1: f64) -> T {
    (x - x.re()) * f1 + f0
}

/// The value part of a scalar.
#[inline]
pub fn re<T: Real>(x: T) -> f64 {
    x.re()
}
