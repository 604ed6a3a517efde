//! Parameter-space fits of IMRPhenomT (`LALSimIMRPhenomTHM_fits.c`, `LALSimIMRPhenomXUtilities.c`),
//! one file for each thing they describe (docs/imrphenomt.md §1.3):
//!
//! - `frequency22.rs`: the (2,2) frequency: TaylorT3's t0, the inspiral and merger collocation
//!   values, the peak frequency and the ringdown coefficients (§5);
//! - `amplitude22.rs`: the (2,2) amplitude: the inspiral and merger collocation values, the peak
//!   value and the ringdown coefficient (§6);
//! - `final_state.rs`: the remnant's mass and spin (§4.1);
//! - `qnm.rs`: the remnant's quasi-normal-mode frequencies for the 22, 21, 33, 44 and 55 modes
//!   (§4.2);
//! - `mode21.rs`, `mode33.rs`, `mode44.rs`, `mode55.rs`: the fits of the higher modes, for
//!   IMRPhenomTHM (not used by the (2,2) model).
//!
//! All of them are re-exported here (`fits::peak_frequency_22`, …), and all take their
//! arguments from [`FitInputs`] (or [`FitPowers`], the same with its powers computed once).
//!
//! The fits in (η, Ŝ, Δχ, δ) share one form, a sum of products, which `form.rs` defines and
//! evaluates; each of them is its table of terms, transcribed from the C. The QNM fits are
//! tables of coefficients for three forms in the final spin (`qnm.rs`); the final state is
//! written out (`final_state.rs`).
//!
//! Every fit is evaluated with LALSuite's floating-point operations in the C's order, so that
//! with `T = f64` it returns LAL's value bit for bit:
//!
//! - sums and products are evaluated left to right with C's parenthesisation; a constant factor
//!   written on the left in C (`2.0*eta`) is applied on the right here (`eta * 2.0`), which is the
//!   same IEEE operation, and a subtracted term is added with its coefficient negated (a − c·x
//!   and a + (−c)·x are the same IEEE operation);
//! - `pow(x, 2)` is `x * x` and `pow(x, -1)` is `1.0 / x`: GCC at `-O2` expands `pow` with the
//!   constant exponents −1, 0, 1 and 2 into these operations (the set-up code of the reference
//!   `liblalsimulation` calls `pow` only with other exponents), and glibc's `pow(x, 2)` differs
//!   from `x * x` for about one `x` in 1200; every other `pow(x, n)` is libm's `pow` (`powf`).
//!
//! With a [`crate::scalar::Dual`] for `T` the value part is the same `f64` computation, so the
//! same bits.
//!
//! (docs/imrphenomt.md §10.2.)
#![allow(clippy::excessive_precision)] // LAL's coefficients as printed, 17 digits, in every file

mod amplitude22;
mod final_state;
mod form;
mod frequency22;
mod mode21;
mod mode33;
mod mode44;
mod mode55;
mod qnm;

pub use amplitude22::*;
pub use final_state::*;
pub use frequency22::*;
pub use mode21::*;
pub use mode33::*;
pub use mode44::*;
pub use mode55::*;
pub use qnm::*;

use crate::scalar::Real;

/// The parameters of the IMRPhenomT fits, as LAL's `IMRPhenomTSetWaveformVariables` computes them
/// from the component masses (m1 ≥ m2, total mass M = 1) and aligned spins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitInputs<T> {
    /// Symmetric mass ratio η.
    pub eta: T,
    /// Effective spin Ŝ = (m1²χ1 + m2²χ2)/(m1² + m2²).
    pub s: T,
    /// Spin difference Δχ = χ1 − χ2.
    pub dchi: T,
    /// Mass asymmetry δ = |m1 − m2|/M.
    pub delta: T,
}

/// What a (2,2) fit reads: its [`FitInputs`] and the C's `pow(η, n)` (n = 3…8) and
/// `pow(Ŝ, n)` (n = 3…6). [`FitInputs`] computes the powers on every call; [`FitPowers`] once per binary
/// (the fits hold ~200 such terms, most of an f64 set-up's time).
pub trait FitArgs<T> {
    fn inputs(&self) -> FitInputs<T>;
    /// libm's `pow(η, n)`, 3 ≤ n ≤ 8.
    fn eta_pow(&self, n: usize) -> T;
    /// libm's `pow(Ŝ, n)`, 3 ≤ n ≤ 6.
    fn s_pow(&self, n: usize) -> T;
}

impl<T: Real> FitArgs<T> for FitInputs<T> {
    #[inline]
    fn inputs(&self) -> FitInputs<T> {
        *self
    }
    #[inline]
    fn eta_pow(&self, n: usize) -> T {
        self.eta.powf(n as f64)
    }
    #[inline]
    fn s_pow(&self, n: usize) -> T {
        self.s.powf(n as f64)
    }
}

/// [`FitInputs`] with its powers computed once: the same bits as [`FitInputs`] gives every fit.
#[derive(Clone, Copy, Debug)]
pub struct FitPowers<T> {
    inputs: FitInputs<T>,
    eta_pow: [T; 6],
    s_pow: [T; 4],
}

impl<T: Real> FitPowers<T> {
    pub fn new(inputs: FitInputs<T>) -> Self {
        Self {
            inputs,
            eta_pow: std::array::from_fn(|k| inputs.eta.powf(k as f64 + 3.0)),
            s_pow: std::array::from_fn(|k| inputs.s.powf(k as f64 + 3.0)),
        }
    }
}

impl<T: Real> FitArgs<T> for FitPowers<T> {
    #[inline]
    fn inputs(&self) -> FitInputs<T> {
        self.inputs
    }
    #[inline]
    fn eta_pow(&self, n: usize) -> T {
        self.eta_pow[n - 3]
    }
    #[inline]
    fn s_pow(&self, n: usize) -> T {
        self.s_pow[n - 3]
    }
}

/// C's `pow(x, k)` as LAL's set-up computes it: x for k = 1, x·x for k = 2 (GCC's expansion),
/// else libm's `pow`, which `libm_pow(k)` gives (a caller may have computed it once).
#[inline(always)]
fn c_pow<T: Real>(x: T, k: usize, libm_pow: impl FnOnce(usize) -> T) -> T {
    match k {
        1 => x,
        2 => x * x,
        _ => libm_pow(k),
    }
}

/// x, x², …, x⁷ as LAL's C computes them for the PhenomX QNM fits and TaylorT3: x2 = x·x,
/// x3 = x2·x, x4 = x2·x2, x5 = x3·x2, x6 = x3·x3, x7 = x4·x3.
#[inline(always)]
pub(crate) fn powers_to_7<T: Real>(x: T) -> [T; 7] {
    let x2 = x * x;
    let (x3, x4) = (x2 * x, x2 * x2);
    [x, x2, x3, x4, x3 * x2, x3 * x3, x4 * x3]
}
