//! The form of the fits in (η, Ŝ, Δχ, δ) and their evaluator (docs/imrphenomt.md §10.2).
//!
//! `LALSimIMRPhenomTHM_fits.c` writes each of these fits as one C expression: a sum of terms,
//! each a coefficient times a product of powers of η, Ŝ, Δχ and δ and of polynomials in η, as in
//!
//! ```text
//! 0.00006480771730217768*eta*pow(dchi,2)
//!     - 0.3543965558027252*dchi*delta*(1 - 2.463526130684083*eta)*pow(eta,3) + …
//! ```
//!
//! The fits differ in their coefficients and in the order and shape of their terms, which the
//! C's left-to-right evaluation makes part of their values. So a fit here is the table of its
//! terms in the C's order, with the C's coefficients, and [`fit!`] evaluates any such table
//! with the C's operations, expanded at compile time into the straight-line arithmetic that the
//! C compiles to (a table interpreted at run time would cost a set-up several times what the
//! fits cost):
//!
//! - the terms are summed left to right, the first being the sum's start;
//! - a term `c*f1*f2*…` is ((f1·c)·f2)·…, the C's ((c·f1)·f2)·…;
//! - a term the C subtracts has its coefficient negated: a − c·f and a + (−c)·f are the same
//!   IEEE operations (negation is exact, rounding symmetric), also on a [`crate::scalar::Dual`]'s
//!   derivative parts;
//! - `pow(x, 2)` is x·x and `pow(…, -1)` is 1/(…), as GCC expands them; the other powers of η and
//!   Ŝ come from [`FitArgs`].

use super::{c_pow, FitArgs, FitInputs};
use crate::scalar::Real;

/// The value of a fit at `p` (a [`FitArgs`]), given the fit's terms in the C's order:
///
/// - `Const(c)`: the constant `c`;
/// - `Times(c, &[f1, f2, …])`: `c*f1*f2*…`, evaluated as ((f1·c)·f2)·…;
/// - `Product(&[f1, f2, …])`: `f1*f2*…`, evaluated as (f1·f2)·….
///
/// The factors:
///
/// - `Eta(k)`, `S(k)`: η^k, Ŝ^k: `eta` for k = 1, `pow(eta,2)` = η·η, `pow(eta,k)` for k ≥ 3
///   from [`FitArgs`];
/// - `Dchi(k)`: Δχ for k = 1, `pow(dchi,2)` = Δχ·Δχ;
/// - `Delta`: δ;
/// - `Poly(&[c0, c1, …])`: `(c0 + c1*eta + c2*pow(eta,2) + …)`;
/// - `Poly1(&[c1, c2, …])`: `(c1*eta + c2*pow(eta,2) + …)`;
/// - `DeltaPoly1(&[c1, c2, …])`: `(c1*delta*eta + c2*delta*pow(eta,2) + …)`, each term (δ·c)·η^k;
/// - `Inv(&[c0, c1, …])`: `pow(c0 + c1*eta + …, -1)`, i.e. 1/(c0 + c1η + …);
/// - `Sum(&[terms])`: any other sum in parentheses, such as `(1 - c*pow(eta,2))`.
macro_rules! fit {
    ($p:expr; $($term:ident $args:tt),+ $(,)?) => {{
        let x = $crate::fits::form::Eval::new($p);
        fit!(@sum x; $($term $args),+)
    }};
    (@sum $x:ident; $term:ident $args:tt $(, $terms:ident $argss:tt)*) => {{
        let sum = fit!(@term $x; $term $args);
        $(let sum = sum + fit!(@term $x; $terms $argss);)*
        sum
    }};
    (@term $x:ident; Const($c:expr)) => {
        $x.constant($c)
    };
    (@term $x:ident;
        Times($c:expr, &[$f:ident $(($($fa:tt)*))? $(, $fs:ident $(($($fsa:tt)*))?)*])
    ) => {{
        let product = fit!(@factor $x; $f $(($($fa)*))?) * $c;
        $(let product = product * fit!(@factor $x; $fs $(($($fsa)*))?);)*
        product
    }};
    (@term $x:ident;
        Product(&[$f:ident $(($($fa:tt)*))? $(, $fs:ident $(($($fsa:tt)*))?)*])
    ) => {{
        let product = fit!(@factor $x; $f $(($($fa)*))?);
        $(let product = product * fit!(@factor $x; $fs $(($($fsa)*))?);)*
        product
    }};
    (@factor $x:ident; Eta($k:expr)) => {
        $x.eta_pow($k)
    };
    (@factor $x:ident; S($k:expr)) => {
        $x.s_pow($k)
    };
    (@factor $x:ident; Dchi($k:expr)) => {
        $x.dchi_pow($k)
    };
    (@factor $x:ident; Delta) => {
        $x.delta()
    };
    (@factor $x:ident; Poly(&[$($c:expr),+])) => {
        fit!(@poly $x, eta_term, 0; $($c),+)
    };
    (@factor $x:ident; Poly1(&[$($c:expr),+])) => {
        fit!(@poly $x, eta_term, 1; $($c),+)
    };
    (@factor $x:ident; DeltaPoly1(&[$($c:expr),+])) => {
        fit!(@poly $x, delta_eta_term, 1; $($c),+)
    };
    (@factor $x:ident; Inv(&[$($c:expr),+])) => {
        $x.constant(1.0) / fit!(@poly $x, eta_term, 0; $($c),+)
    };
    (@factor $x:ident; Sum(&[$($term:ident $args:tt),+])) => {
        fit!(@sum $x; $($term $args),+)
    };
    // `$term`(k, c) summed over the coefficients c of η^k, k = `$k`, `$k` + 1, ….
    (@poly $x:ident, $term:ident, $k:expr; $c:expr $(, $cs:expr)*) => {{
        let (sum, k) = ($x.$term($k, $c), $k + 1);
        $(let (sum, k) = (sum + $x.$term(k, $cs), k + 1);)*
        let _ = k;
        sum
    }};
}
pub(super) use fit;

/// A fit's arguments, for [`fit!`].
pub(super) struct Eval<'a, A, T> {
    p: &'a A,
    x: FitInputs<T>,
}

impl<'a, A: FitArgs<T>, T: Real> Eval<'a, A, T> {
    #[inline(always)]
    pub(super) fn new(p: &'a A) -> Self {
        Self { p, x: p.inputs() }
    }

    #[inline(always)]
    pub(super) fn constant(&self, c: f64) -> T {
        T::from(c)
    }

    #[inline(always)]
    pub(super) fn eta_pow(&self, k: usize) -> T {
        c_pow(self.x.eta, k, |k| self.p.eta_pow(k))
    }

    /// c·η^k of a polynomial, the constant c itself for k = 0.
    #[inline(always)]
    pub(super) fn eta_term(&self, k: usize, c: f64) -> T {
        if k == 0 {
            self.constant(c)
        } else {
            self.eta_pow(k) * c
        }
    }

    /// c·δ·η^k of a polynomial, as (δ·c)·η^k.
    #[inline(always)]
    pub(super) fn delta_eta_term(&self, k: usize, c: f64) -> T {
        self.x.delta * c * self.eta_pow(k)
    }

    #[inline(always)]
    pub(super) fn s_pow(&self, k: usize) -> T {
        c_pow(self.x.s, k, |k| self.p.s_pow(k))
    }

    #[inline(always)]
    pub(super) fn dchi_pow(&self, k: usize) -> T {
        let dchi = self.x.dchi;
        c_pow(dchi, k, |k| dchi.powf(k as f64))
    }

    #[inline(always)]
    pub(super) fn delta(&self) -> T {
        self.x.delta
    }
}
